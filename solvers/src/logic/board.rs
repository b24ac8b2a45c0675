//! The pencil-mark grid the techniques read: 81 cells, each either filled (a digit) or holding a
//! 9-bit candidate mask (digit `d` = bit `d - 1`), plus per digit the set of cells where it is
//! still a candidate (an 81-bit set in a `u128`, cell `i` = bit `i`). Both views are kept in step
//! by [`Board::place`] and [`Board::eliminate`].

use crate::{Grid, Unit};

/// A set of cells: bit `i` is cell `i` (0..81, row-major).
pub type Cells = u128;

/// All 81 cells.
pub const ALL_CELLS: Cells = (1u128 << 81) - 1;

/// The row (0..9) of a cell.
#[inline]
pub const fn row_of(cell: usize) -> usize {
    cell / 9
}

/// The column (0..9) of a cell.
#[inline]
pub const fn col_of(cell: usize) -> usize {
    cell % 9
}

/// The box (0..9, row-major over the 3 x 3 boxes) of a cell.
#[inline]
pub const fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// The cells of the 27 units: rows 0..9, columns 9..18, boxes 18..27, each in row-major order.
pub use crate::grid::UNIT_CELLS;

/// The cells of each unit as a set (same numbering as [`UNIT_CELLS`]).
pub const UNIT_MASK: [Cells; 27] = {
    let mut m = [0u128; 27];
    let mut u = 0;
    while u < 27 {
        m[u] = crate::bits::cell_set(UNIT_CELLS[u]);
        u += 1;
    }
    m
};

/// The three units of each cell: `[row, 9 + column, 18 + box]`.
pub const CELL_UNITS: [[usize; 3]; 81] = {
    let mut t = [[0usize; 3]; 81];
    let mut c = 0;
    while c < 81 {
        t[c] = [row_of(c), 9 + col_of(c), 18 + box_of(c)];
        c += 1;
    }
    t
};

/// The 20 peers of each cell (same row, column or box, the cell itself excluded).
pub const PEERS: [Cells; 81] = {
    let mut p = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let u = CELL_UNITS[c];
        p[c] = (UNIT_MASK[u[0]] | UNIT_MASK[u[1]] | UNIT_MASK[u[2]]) & !(1u128 << c);
        c += 1;
    }
    p
};

/// The [`Unit`] of a unit index (0..27).
pub fn unit(u: usize) -> Unit {
    match u {
        0..=8 => Unit::Row(u as u8),
        9..=17 => Unit::Column((u - 9) as u8),
        _ => Unit::Box((u - 18) as u8),
    }
}

/// The cells of a set, in increasing order.
#[inline]
pub fn cells(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let c = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(c)
    })
}

/// The digits (1..=9) of a candidate mask, in increasing order.
#[inline]
pub fn digits(mut mask: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let d = mask.trailing_zeros() as u8 + 1;
        mask &= mask - 1;
        Some(d)
    })
}

/// The bit of digit `d` (1..=9) in a candidate mask.
#[inline]
pub const fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The cells that see every cell of `set` (all their common peers; none of `set` itself).
#[inline]
pub fn seen_by_all(set: Cells) -> Cells {
    let mut common = ALL_CELLS;
    for c in cells(set) {
        common &= PEERS[c];
    }
    common
}

/// The pencil marks of a grid: filled cells, candidates of the empty ones, and which cells were
/// givens (the uniqueness techniques that reason about placed digits need it).
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    values: [u8; 81],
    cands: [u16; 81],
    by_digit: [Cells; 9],
    givens: Cells,
}

impl Board {
    /// The board of a puzzle: its givens filled, every empty cell holding the digits no peer
    /// holds. Givens that repeat a digit in a unit leave a board with no solution (a cell or unit
    /// without candidates shows up as [`Board::contradiction`] at once or after a few steps).
    pub fn new(puzzle: &Grid) -> Board {
        let mut b = Board {
            values: [0; 81],
            cands: [0x1ff; 81],
            by_digit: [ALL_CELLS; 9],
            givens: 0,
        };
        for cell in 0..81 {
            let v = puzzle.get(cell);
            if v != 0 {
                b.givens |= 1 << cell;
                if b.values[cell] == 0 {
                    b.place(cell, v);
                }
            }
        }
        b
    }

    /// A board from pencil marks: `values` (0 = empty), `givens` (which filled cells are givens
    /// rather than placed digits) and for every empty cell its candidate mask. Candidates that a
    /// filled peer rules out are removed too.
    pub fn from_marks(values: &[u8; 81], givens: Cells, cands: &[u16; 81]) -> Board {
        let mut b = Board {
            values: [0; 81],
            cands: [0x1ff; 81],
            by_digit: [ALL_CELLS; 9],
            givens: givens & ALL_CELLS,
        };
        for cell in 0..81 {
            if values[cell] != 0 && b.values[cell] == 0 {
                b.place(cell, values[cell]);
            }
        }
        for cell in 0..81 {
            if b.values[cell] == 0 {
                for d in digits(b.cands[cell] & !cands[cell]) {
                    b.eliminate(cell, d);
                }
            }
        }
        b
    }

    /// The digit of a cell, 0 when empty.
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidate mask of a cell (0 for a filled cell).
    #[inline]
    pub fn cands(&self, cell: usize) -> u16 {
        self.cands[cell]
    }

    /// The number of candidates of a cell.
    #[inline]
    pub fn count(&self, cell: usize) -> u32 {
        self.cands[cell].count_ones()
    }

    /// True when digit `d` is a candidate of `cell`.
    #[inline]
    pub fn has(&self, cell: usize, d: u8) -> bool {
        self.cands[cell] & bit(d) != 0
    }

    /// The cells where digit `d` (1..=9) is still a candidate.
    #[inline]
    pub fn digit_cells(&self, d: u8) -> Cells {
        self.by_digit[d as usize - 1]
    }

    /// The cells of unit `u` (0..27) where digit `d` is still a candidate.
    #[inline]
    pub fn in_unit(&self, u: usize, d: u8) -> Cells {
        self.by_digit[d as usize - 1] & UNIT_MASK[u]
    }

    /// The group nodes of the chains: each line (0..18), digit and box (18..27) whose
    /// intersection holds two or more places of the digit, as `(line, digit, box, cells)`, in
    /// that order.
    pub(crate) fn line_box_groups(&self) -> impl Iterator<Item = (usize, u8, usize, Cells)> + '_ {
        (0..18).flat_map(move |line| {
            (1..=9u8).flat_map(move |d| {
                let p = self.in_unit(line, d);
                (18..27).filter_map(move |boxu| {
                    let g = p & UNIT_MASK[boxu];
                    (g.count_ones() >= 2).then_some((line, d, boxu, g))
                })
            })
        })
    }

    /// The empty cells.
    pub fn empty(&self) -> Cells {
        (0..81)
            .filter(|&c| self.values[c] == 0)
            .fold(0, |m, c| m | 1u128 << c)
    }

    /// The cells that hold givens.
    #[inline]
    pub fn givens(&self) -> Cells {
        self.givens
    }

    /// True when every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Fills `cell` with `d` and removes `d` from its peers' candidates.
    pub fn place(&mut self, cell: usize, d: u8) {
        for e in digits(self.cands[cell]) {
            self.by_digit[e as usize - 1] &= !(1u128 << cell);
        }
        self.values[cell] = d;
        self.cands[cell] = 0;
        let peers = PEERS[cell] & self.by_digit[d as usize - 1];
        for p in cells(peers) {
            self.cands[p] &= !bit(d);
        }
        self.by_digit[d as usize - 1] &= !peers;
    }

    /// Removes candidate `d` from `cell`; true when it was there.
    pub fn eliminate(&mut self, cell: usize, d: u8) -> bool {
        if self.cands[cell] & bit(d) == 0 {
            return false;
        }
        self.cands[cell] &= !bit(d);
        self.by_digit[d as usize - 1] &= !(1u128 << cell);
        true
    }

    /// True when the board cannot be completed: an empty cell without candidates, or a unit
    /// where a digit is neither placed nor a candidate anywhere.
    pub fn contradiction(&self) -> bool {
        if (0..81).any(|c| self.values[c] == 0 && self.cands[c] == 0) {
            return true;
        }
        let mut placed = [0u16; 27];
        for c in 0..81 {
            if self.values[c] != 0 {
                for u in CELL_UNITS[c] {
                    placed[u] |= bit(self.values[c]);
                }
            }
        }
        (0..27).any(|u| (1..=9u8).any(|d| placed[u] & bit(d) == 0 && self.in_unit(u, d) == 0))
    }

    /// The filled cells as a grid (0 = empty).
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.values).expect("digits 0..=9")
    }

    /// The 81 candidate masks, with a filled cell's own digit as its mask (the shape
    /// `harness candidates` renders).
    pub fn marks(&self) -> [u16; 81] {
        let mut m = self.cands;
        for (c, v) in self.values.iter().enumerate() {
            if *v != 0 {
                m[c] = bit(*v);
            }
        }
        m
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.grid().to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables() {
        assert_eq!(PEERS[0].count_ones(), 20);
        assert_eq!(UNIT_CELLS[18 + 4][0], 30);
        assert_eq!(box_of(80), 8);
        assert_eq!(
            seen_by_all((1 << 0) | (1 << 8)),
            UNIT_MASK[0] & !((1 << 0) | (1 << 8))
        );
    }

    #[test]
    fn place_and_eliminate_keep_both_views() {
        let mut b = Board::new(&Grid::default());
        b.place(0, 5);
        assert_eq!(b.digit_cells(5) & PEERS[0], 0);
        assert!(!b.has(1, 5) && b.has(10, 4));
        assert!(b.eliminate(40, 3));
        assert!(!b.eliminate(40, 3));
        assert_eq!(b.digit_cells(3) & (1 << 40), 0);
        assert!(!b.contradiction());
    }
}
