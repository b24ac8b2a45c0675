//! The [`Grid`]: 81 cells in row-major order, `0` for an empty cell, `1..=9` for a digit.
//!
//! Cell `i` sits in row `i / 9`, column `i % 9` and box `(i / 27) * 3 + (i % 9) / 3`, all counted
//! from 0. Human-facing text names cells `rRcC`, counted from 1 (`r1c1` is cell 0).

use std::fmt;
use std::str::FromStr;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// A 9x9 Sudoku grid: 81 cells, row-major, `0` = empty, `1..=9` = digit.
///
/// The type only guarantees that every cell holds `0..=9`; it does not promise that the givens are
/// consistent (no digit repeated in a unit). Callers that need that check it before solving.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid {
    cells: [u8; CELLS],
}

/// Why a line of text is not a grid. Positions are 1-based character columns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridParseError {
    /// The text holds `found` cells instead of 81.
    #[error("{found} characters, expected 81")]
    WrongLength {
        /// How many cell characters were found.
        found: usize,
    },
    /// A character that is neither a digit `1`-`9` nor an empty-cell mark (`.` `0` `_` `-` `*`).
    #[error("bad character {ch:?} at column {column} ({cell}): expected 1-9 or one of . 0 _ - *")]
    BadCharacter {
        /// The offending character.
        ch: char,
        /// Its 1-based position in the text.
        column: usize,
        /// The cell it would fill, in `rRcC` notation.
        cell: String,
    },
}

impl Grid {
    /// The empty grid (every cell 0).
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// Builds a grid from 81 cell values.
    ///
    /// Returns `None` if any value is above 9.
    pub fn from_cells(cells: [u8; CELLS]) -> Option<Grid> {
        if cells.iter().all(|&v| v <= 9) {
            Some(Grid { cells })
        } else {
            None
        }
    }

    /// A grid of cells the caller knows to hold 0..=9 (a classic [`crate::Board`]'s).
    pub(crate) fn from_cells_unchecked(cells: [u8; CELLS]) -> Grid {
        debug_assert!(cells.iter().all(|&v| v <= 9));
        Grid { cells }
    }

    /// Parses the 81-character line form: `1`-`9` for a given, any of `.` `0` `_` `-` `*` for an
    /// empty cell. The text must hold exactly 81 characters (no trailing comment: the dataset
    /// loader strips those).
    ///
    /// # Errors
    /// [`GridParseError::WrongLength`] when the text does not hold 81 characters (checked first),
    /// else [`GridParseError::BadCharacter`] for the first bad one.
    pub fn parse_line(text: &str) -> Result<Grid, GridParseError> {
        // Length first: a line of the wrong size is never cut to its first 81 characters.
        let n = text.chars().count();
        if n != CELLS {
            return Err(GridParseError::WrongLength { found: n });
        }
        let mut cells = [0u8; CELLS];
        for (i, ch) in text.chars().enumerate() {
            cells[i] = match ch {
                '1'..='9' => ch as u8 - b'0',
                '.' | '0' | '_' | '-' | '*' => 0,
                _ => {
                    return Err(GridParseError::BadCharacter {
                        ch,
                        column: i + 1,
                        cell: cell_name(i),
                    })
                }
            };
        }
        Ok(Grid { cells })
    }

    /// The 81 cells, row-major, 0 = empty.
    #[inline]
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The value of cell `index` (0..81); 0 = empty.
    ///
    /// # Panics
    /// If `index >= 81`.
    #[inline]
    pub fn get(&self, index: usize) -> u8 {
        self.cells[index]
    }

    /// Sets cell `index` (0..81) to `value` (0..=9).
    ///
    /// # Panics
    /// If `index >= 81` or `value > 9`.
    #[inline]
    pub fn set(&mut self, index: usize, value: u8) {
        assert!(value <= 9, "cell value {value} out of range 0..=9");
        self.cells[index] = value;
    }

    /// Number of givens (non-empty cells). Eight cells a word, without a branch per cell (the
    /// `hybrid` solver reads it before every solve): bit 7 of a byte is set when the byte, a
    /// digit 0..=9, is nonzero; the flags of the ten words are added bytewise (at most 10 a byte)
    /// and the eight byte sums added by one multiplication.
    pub fn givens(&self) -> usize {
        let mut flags = 0u64;
        for chunk in self.cells[..80].chunks_exact(8) {
            let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
            flags += ((x.wrapping_add(0x7f7f_7f7f_7f7f_7f7f) | x) & 0x8080_8080_8080_8080) >> 7;
        }
        (flags.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize + (self.cells[80] != 0) as usize
    }

    /// True when no cell is empty (says nothing about validity).
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The 81-character line form, `.` for empty cells.
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
            .collect()
    }

    /// The 81-digit form, `0` for empty cells (the form written in CSV `solution` columns).
    pub fn to_digits(&self) -> String {
        self.cells.iter().map(|&v| (b'0' + v) as char).collect()
    }

    /// The block form: 9 lines of 9 digits separated by single spaces, `0` = empty, each line
    /// ending in `\n`.
    pub fn to_block(&self) -> String {
        let mut out = String::with_capacity(9 * 18);
        for row in self.cells.chunks(9) {
            for (c, &v) in row.iter().enumerate() {
                if c > 0 {
                    out.push(' ');
                }
                out.push((b'0' + v) as char);
            }
            out.push('\n');
        }
        out
    }

    /// The first pair of givens that repeat a digit in one unit, if any: `(digit, first cell,
    /// second cell, unit)`, cells as indices 0..81 with `first < second`. Rows are checked before
    /// columns, columns before boxes. O(81).
    pub fn first_conflict(&self) -> Option<Conflict> {
        for (u, cells) in UNIT_CELLS.iter().enumerate() {
            let mut seen = [usize::MAX; 10];
            for &cell in cells {
                let cell = cell as usize;
                let d = self.cells[cell] as usize;
                if d == 0 {
                    continue;
                }
                if seen[d] != usize::MAX {
                    return Some(Conflict {
                        digit: d as u8,
                        first: seen[d],
                        second: cell,
                        unit: match u {
                            0..9 => Unit::Row(u as u8),
                            9..18 => Unit::Column(u as u8 - 9),
                            _ => Unit::Box(u as u8 - 18),
                        },
                    });
                }
                seen[d] = cell;
            }
        }
        None
    }
}

/// Two givens that repeat one digit in one unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict {
    /// The repeated digit, 1..=9.
    pub digit: u8,
    /// The earlier cell (index 0..81, row-major).
    pub first: usize,
    /// The later cell.
    pub second: usize,
    /// The unit both cells lie in.
    pub unit: Unit,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        given_twice(
            f,
            self.digit.into(),
            &self.unit,
            &cell_name(self.first),
            &cell_name(self.second),
        )
    }
}

/// The one wording of two givens that repeat a digit in a unit, at every shape: `digit 1 given
/// twice in row 1 (r1c1 and r1c2)` ([`Conflict`] on 9x9, [`crate::BoardConflict`] elsewhere).
pub(crate) fn given_twice(
    f: &mut fmt::Formatter<'_>,
    digit: crate::Symbol,
    unit: &dyn fmt::Display,
    first: &str,
    second: &str,
) -> fmt::Result {
    write!(
        f,
        "digit {digit} given twice in {unit} ({first} and {second})"
    )
}

/// A unit: one of the 9 rows, 9 columns or 9 boxes (numbered 0..9 here, shown 1..9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Row `n` (0-based).
    Row(u8),
    /// Column `n` (0-based).
    Column(u8),
    /// Box `n` (0-based, row-major over the 3x3 boxes).
    Box(u8),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(n) => write!(f, "row {}", n + 1),
            Unit::Column(n) => write!(f, "column {}", n + 1),
            Unit::Box(n) => write!(f, "box {}", n + 1),
        }
    }
}

/// The six orders of three things (the bands, stacks, rows of a band or boxes of a band of a
/// 9x9 grid), in lexicographic order: `PERMUTATIONS3[k][p]` is where order `k` puts item `p`.
pub const PERMUTATIONS3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The cells of the 27 units of a 9x9 grid: rows 0..9, columns 9..18, boxes 18..27, each in
/// row-major order.
pub const UNIT_CELLS: [[u8; 9]; 27] = {
    let mut u = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            u[i][k] = (i * 9 + k) as u8;
            u[9 + i][k] = (k * 9 + i) as u8;
            u[18 + i][k] = ((i / 3) * 27 + (i % 3) * 3 + (k / 3) * 9 + k % 3) as u8;
            k += 1;
        }
        i += 1;
    }
    u
};

/// The cell's name in `rRcC` notation, counted from 1: `cell_name(0) == "r1c1"`.
pub fn cell_name(index: usize) -> String {
    format!("r{}c{}", index / 9 + 1, index % 9 + 1)
}

impl FromStr for Grid {
    type Err = GridParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Grid::parse_line(s)
    }
}

impl fmt::Display for Grid {
    /// Writes the 81-character line form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

impl Default for Grid {
    fn default() -> Self {
        Grid::EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_round_trip_and_blanks() {
        let line = crate::known_puzzles::SEED;
        let g: Grid = line.parse().unwrap();
        assert_eq!(g.to_line(), line);
        assert_eq!(g.get(0), 7);
        assert_eq!(g.givens(), 22);
        let mut cells = [0u8; CELLS];
        for n in 0..=CELLS {
            let grid = Grid::from_cells(cells).unwrap();
            assert_eq!(grid.givens(), n);
            assert_eq!(grid.givens(), cells.iter().filter(|&&v| v != 0).count());
            if n < CELLS {
                // Fill from both ends, with every digit.
                let at = if n % 2 == 0 { n / 2 } else { CELLS - 1 - n / 2 };
                cells[at] = (n % 9) as u8 + 1;
            }
        }
        let alt = line.replace('.', "0");
        assert_eq!(Grid::parse_line(&alt).unwrap(), g);
        let mixed: String = line
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if c == '.' {
                    ['.', '0', '_', '-', '*'][i % 5]
                } else {
                    c
                }
            })
            .collect();
        assert_eq!(Grid::parse_line(&mixed).unwrap(), g);
    }

    #[test]
    fn parse_errors_name_position() {
        assert_eq!(
            Grid::parse_line(&".".repeat(80)),
            Err(GridParseError::WrongLength { found: 80 })
        );
        let mut bad = ".".repeat(81);
        bad.replace_range(10..11, "x");
        match Grid::parse_line(&bad) {
            Err(GridParseError::BadCharacter {
                ch: 'x',
                column: 11,
                cell,
            }) => {
                assert_eq!(cell, "r2c2")
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn conflict_names_both_cells() {
        // C02: 1 twice in row 1.
        let g = Grid::parse_line(&format!("11{}", ".".repeat(79))).unwrap();
        let c = g.first_conflict().unwrap();
        assert_eq!(
            (c.digit, c.first, c.second, c.unit),
            (1, 0, 1, Unit::Row(0))
        );
        assert_eq!(
            c.to_string(),
            "digit 1 given twice in row 1 (r1c1 and r1c2)"
        );
        // A box-only conflict: r1c1 and r2c2.
        let mut g = Grid::EMPTY;
        g.set(0, 5);
        g.set(10, 5);
        let c = g.first_conflict().unwrap();
        assert_eq!(c.unit, Unit::Box(0));
        assert_eq!((c.first, c.second), (0, 10));
        assert!(Grid::EMPTY.first_conflict().is_none());
    }

    #[test]
    fn block_form() {
        let g = Grid::parse_line(&format!("1{}9", ".".repeat(79))).unwrap();
        let b = g.to_block();
        assert!(b.starts_with("1 0 0 0 0 0 0 0 0\n"));
        assert!(b.ends_with("0 0 0 0 0 0 0 0 9\n"));
        assert_eq!(b.lines().count(), 9);
    }
}
