//! Writers of grids and puzzles of every shape, in the three text forms the readers
//! (`harness::input::format`) accept:
//!
//! - **one character a cell** ([`push_chars`]), for sides up to 35: `1`-`9`, then `A` = 10 …
//!   `Z` = 35, `.` an empty cell (Gecode's convention for its 16x16 and 25x25 instances). A file
//!   of grids of a shape other than 9x9 starts with the comment line `# shape 16x16`
//!   ([`shape_header`]; `# shape 12x12/3x4`, `# shape 10x10/latin`), which tells a reader the
//!   shape.
//! - **integers** ([`push_ints`]), for any side: N rows of N whitespace-separated integers, `0`
//!   an empty cell, a blank line after each grid.
//! - **`.pls`** ([`push_pls`]), the partial Latin square form of the quasigroup-with-holes
//!   literature (Gomes and Selman's generator): a line `order N`, then N rows of N 0-based
//!   symbols, `-1` a hole. A file may hold several squares, each starting with its `order` line.

use solvers::Shape;
use std::fmt;
use std::str::FromStr;

/// The largest side written one character a cell (`Z` = 35).
pub const MAX_CHAR_SIDE: usize = 35;

/// A text form for grids of any shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardFormat {
    /// One character a cell, a grid a line (sides up to [`MAX_CHAR_SIDE`]).
    Chars,
    /// N rows of N integers, `0` empty, a blank line after each grid.
    Ints,
    /// `order N`, then N rows of 0-based symbols, `-1` a hole.
    Pls,
}

impl BoardFormat {
    /// The form used when none is asked for: [`BoardFormat::Chars`] up to side 35, else
    /// [`BoardFormat::Ints`].
    pub fn default_for(shape: Shape) -> BoardFormat {
        if shape.side() <= MAX_CHAR_SIDE {
            BoardFormat::Chars
        } else {
            BoardFormat::Ints
        }
    }

    /// Checks that `shape` can be written in this form.
    ///
    /// # Errors
    /// One character a cell above side 35.
    pub fn check(self, shape: Shape) -> Result<(), String> {
        if self == BoardFormat::Chars && shape.side() > MAX_CHAR_SIDE {
            return Err(format!(
                "a {shape} grid has symbols above {MAX_CHAR_SIDE} (Z): one character a cell \
                 cannot write it; use --format ints or pls"
            ));
        }
        Ok(())
    }
}

impl FromStr for BoardFormat {
    type Err = String;
    /// `line` (one character a cell), `ints`, `pls`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "line" | "chars" => Ok(BoardFormat::Chars),
            "ints" => Ok(BoardFormat::Ints),
            "pls" => Ok(BoardFormat::Pls),
            _ => Err(format!("unknown format {s:?}; known: line, ints, pls")),
        }
    }
}

impl fmt::Display for BoardFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BoardFormat::Chars => "line",
            BoardFormat::Ints => "ints",
            BoardFormat::Pls => "pls",
        })
    }
}

/// The character of symbol `v` in the one-character form: `.` for 0, `1`-`9`, `A` = 10 …
/// `Z` = 35; `?` above 35 (never written: [`BoardFormat::check`] refuses such shapes).
#[inline]
pub fn symbol_char(v: solvers::Symbol) -> u8 {
    match v {
        0 => b'.',
        1..=9 => b'0' + v as u8,
        10..=35 => b'A' + (v as u8 - 10),
        _ => b'?',
    }
}

/// `# shape 16x16\n`: the first line of a one-character file of grids of a shape other than
/// 9x9 (see the module docs).
pub fn shape_header(shape: Shape) -> String {
    format!("# shape {shape}\n")
}

/// Appends the cells one character each (no newline).
pub fn push_chars<T: Copy + Into<solvers::Symbol>>(out: &mut Vec<u8>, cells: &[T]) {
    out.extend(cells.iter().map(|&v| symbol_char(v.into())));
}

fn push_u32(out: &mut Vec<u8>, mut v: u32) {
    let mut buf = [0u8; 10];
    let mut k = buf.len();
    loop {
        k -= 1;
        buf[k] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[k..]);
}

/// Appends N rows of N space-separated integers (`0` empty), then a blank line.
pub fn push_ints(out: &mut Vec<u8>, side: usize, cells: &[solvers::Symbol]) {
    for row in cells.chunks(side.max(1)) {
        for (c, &v) in row.iter().enumerate() {
            if c > 0 {
                out.push(b' ');
            }
            push_u32(out, u32::from(v));
        }
        out.push(b'\n');
    }
    out.push(b'\n');
}

/// Appends a `.pls` square: `order N`, then N rows of 0-based symbols, `-1` for an empty cell.
pub fn push_pls(out: &mut Vec<u8>, side: usize, cells: &[solvers::Symbol]) {
    out.extend_from_slice(b"order ");
    push_u32(out, side as u32);
    out.push(b'\n');
    for row in cells.chunks(side.max(1)) {
        for (c, &v) in row.iter().enumerate() {
            if c > 0 {
                out.push(b' ');
            }
            if v == 0 {
                out.extend_from_slice(b"-1");
            } else {
                push_u32(out, u32::from(v) - 1);
            }
        }
        out.push(b'\n');
    }
}

/// Appends one grid in `format`: a line of characters, an integer block or a `.pls` square.
pub fn push_board(out: &mut Vec<u8>, format: BoardFormat, side: usize, cells: &[solvers::Symbol]) {
    match format {
        BoardFormat::Chars => {
            push_chars(out, cells);
            out.push(b'\n');
        }
        BoardFormat::Ints => push_ints(out, side, cells),
        BoardFormat::Pls => push_pls(out, side, cells),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_forms() {
        let mut out = Vec::new();
        push_chars(&mut out, &[0u16, 1, 9, 10, 16, 35]);
        assert_eq!(out, b".19AGZ");
        let mut out = Vec::new();
        push_ints(&mut out, 2, &[1, 0, 0, 12]);
        assert_eq!(String::from_utf8(out).unwrap(), "1 0\n0 12\n\n");
        let mut out = Vec::new();
        push_pls(&mut out, 2, &[1, 0, 0, 2]);
        assert_eq!(String::from_utf8(out).unwrap(), "order 2\n0 -1\n-1 1\n");
        assert_eq!(
            shape_header(Shape::sudoku(3, 4).unwrap()),
            "# shape 12x12/3x4\n"
        );
        assert!(BoardFormat::Chars
            .check(Shape::of_order(6).unwrap())
            .is_err());
        assert_eq!(
            BoardFormat::default_for(Shape::of_order(6).unwrap()),
            BoardFormat::Ints
        );
    }
}
