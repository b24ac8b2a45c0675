//! [`Shape`]: the geometry of a grid of any size — a Sudoku of side N with boxes of r x c cells
//! (r·c = N), or a Latin square of side N (no boxes) — and its [`Units`].
//!
//! The whole problem is "N·N cells, symbols 1..N, a list of all-different units" (Gecode's
//! `examples/sudoku.cpp` is one model of this kind, generic over the box order). A Sudoku of
//! *order* n has side n² and n x n boxes (order 3 is the classic 9x9, order 10 is 100x100); a
//! Latin square of order N has side N. Rectangular boxes give the other sides: 2x3 boxes for
//! 6x6, 3x4 for 12x12.
//!
//! Cells are numbered row-major from 0: cell `i` sits in row `i / N` and column `i % N`. With
//! boxes of `r` rows and `c` columns, box `(row / r) * (N / c) + col / c`. Units are numbered rows
//! first (`0..N`), then columns (`N..2N`), then boxes (`2N..3N`); a later kind of unit
//! (diagonals, irregular regions) appends to the list, so code that walks [`Units`] needs no
//! change for it.

use std::fmt;
use std::str::FromStr;

/// The largest side a shape may have: 400, a Sudoku of box order 20 (symbols are
/// [`Symbol`](crate::Symbol)s, cells are numbered in a `u32`). Solvers whose candidate sets are
/// narrower declare the sides they take in their [`Caps`](crate::engine::Caps).
pub const MAX_SIDE: usize = 400;

/// The geometry of a grid: its side N and its boxes (none for a Latin square).
///
/// `Ord` sorts by side, then box shape, so results grouped by shape list small grids first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    side: u16,
    /// Rows of a box; 0 for a Latin square.
    box_rows: u16,
    /// Columns of a box; 0 for a Latin square.
    box_cols: u16,
}

/// Why a shape cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// The side is 0 or above [`MAX_SIDE`].
    #[error("side {side} is out of range 1..={MAX_SIDE}")]
    Side {
        /// The side asked for.
        side: usize,
    },
    /// The boxes do not tile the grid (r·c is not the side).
    #[error("{rows}x{cols} boxes do not tile a {side}x{side} grid ({rows}·{cols} = {} cells, not {side})", rows * cols)]
    BoxesDoNotTile {
        /// The grid's side.
        side: usize,
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        cols: usize,
    },
    /// Text that names no shape.
    #[error("{0:?} is not a shape (expected e.g. 9x9, 16x16, 12x12/3x4, 10x10/latin)")]
    Syntax(String),
}

impl Shape {
    /// The classic 9x9 Sudoku: 3x3 boxes.
    pub const CLASSIC: Shape = Shape {
        side: 9,
        box_rows: 3,
        box_cols: 3,
    };

    /// A Sudoku with boxes of `rows` x `cols` cells (side `rows * cols`).
    ///
    /// # Errors
    /// [`ShapeError::Side`] when the side is 0 or above [`MAX_SIDE`].
    pub fn sudoku(rows: usize, cols: usize) -> Result<Shape, ShapeError> {
        let side = rows.saturating_mul(cols);
        if side == 0 || side > MAX_SIDE {
            return Err(ShapeError::Side { side });
        }
        Ok(Shape {
            side: side as u16,
            box_rows: rows as u16,
            box_cols: cols as u16,
        })
    }

    /// A Sudoku of order `n`: side n², n x n boxes (order 3 is [`Shape::CLASSIC`]).
    ///
    /// # Errors
    /// [`ShapeError::Side`] when n² is above [`MAX_SIDE`] (order 11 and up) or n is 0.
    pub fn of_order(n: usize) -> Result<Shape, ShapeError> {
        Shape::sudoku(n, n)
    }

    /// A Latin square of side `side`: rows and columns, no boxes.
    ///
    /// # Errors
    /// [`ShapeError::Side`] when the side is 0 or above [`MAX_SIDE`].
    pub fn latin(side: usize) -> Result<Shape, ShapeError> {
        if side == 0 || side > MAX_SIDE {
            return Err(ShapeError::Side { side });
        }
        Ok(Shape {
            side: side as u16,
            box_rows: 0,
            box_cols: 0,
        })
    }

    /// A Sudoku of side `side` with boxes of `rows` x `cols`, checked to tile the grid.
    ///
    /// # Errors
    /// [`ShapeError::BoxesDoNotTile`] when `rows * cols != side`; [`ShapeError::Side`] as
    /// [`Shape::sudoku`].
    pub fn with_boxes(side: usize, rows: usize, cols: usize) -> Result<Shape, ShapeError> {
        if rows * cols != side {
            return Err(ShapeError::BoxesDoNotTile { side, rows, cols });
        }
        Shape::sudoku(rows, cols)
    }

    /// The Sudoku shape a grid of side `side` has when nothing else is said: square boxes when
    /// the side is a square (4, 9, 16, 25 ...), else `None` (the box shape must be given).
    pub fn square_for_side(side: usize) -> Option<Shape> {
        let n = (1..=side).find(|n| n * n >= side)?;
        (n * n == side).then(|| Shape::of_order(n).ok()).flatten()
    }

    /// N: cells per row, column and box, and the number of symbols.
    #[inline]
    pub fn side(self) -> usize {
        self.side as usize
    }

    /// N·N: cells in the grid.
    #[inline]
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// The box shape `(rows, cols)`, `None` for a Latin square.
    #[inline]
    pub fn boxes(self) -> Option<(usize, usize)> {
        (self.box_rows != 0).then_some((self.box_rows as usize, self.box_cols as usize))
    }

    /// True for a Latin square (no boxes).
    #[inline]
    pub fn is_latin(self) -> bool {
        self.box_rows == 0
    }

    /// True for the classic 9x9 Sudoku.
    #[inline]
    pub fn is_classic(self) -> bool {
        self == Shape::CLASSIC
    }

    /// The row of cell `i`.
    #[inline]
    pub fn row_of(self, i: usize) -> usize {
        i / self.side()
    }

    /// The column of cell `i`.
    #[inline]
    pub fn col_of(self, i: usize) -> usize {
        i % self.side()
    }

    /// The box of cell `i`, `None` for a Latin square.
    #[inline]
    pub fn box_of(self, i: usize) -> Option<usize> {
        let (r, c) = self.boxes()?;
        let (row, col) = (self.row_of(i), self.col_of(i));
        Some((row / r) * (self.side() / c) + col / c)
    }

    /// Units per cell: 2 for a Latin square (row, column), 3 with boxes.
    #[inline]
    pub fn units_per_cell(self) -> usize {
        if self.is_latin() {
            2
        } else {
            3
        }
    }

    /// The units of this shape, derived once (O(N²) memory: 2 MB for 400x400).
    pub fn units(self) -> Units {
        Units::of(self)
    }
}

impl fmt::Display for Shape {
    /// `9x9`, `16x16` (square boxes), `12x12/3x4` (rectangular boxes), `10x10/latin`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.side();
        write!(f, "{n}x{n}")?;
        match self.boxes() {
            None => f.write_str("/latin"),
            Some((r, c)) if r == c => Ok(()),
            Some((r, c)) => write!(f, "/{r}x{c}"),
        }
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Shape({self})")
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    /// Reads the [`Display`](fmt::Display) form back: `NxN` (square boxes; N must be a square),
    /// `NxN/RxC`, `NxN/latin`. Case and surrounding spaces are ignored.
    fn from_str(text: &str) -> Result<Shape, ShapeError> {
        let t = text.trim().to_ascii_lowercase();
        let bad = || ShapeError::Syntax(text.to_string());
        let (grid, boxes) = match t.split_once('/') {
            Some((g, b)) => (g, Some(b)),
            None => (t.as_str(), None),
        };
        let (a, b) = grid.split_once('x').ok_or_else(bad)?;
        let side: usize = a.trim().parse().map_err(|_| bad())?;
        if b.trim().parse::<usize>().map_err(|_| bad())? != side {
            return Err(bad());
        }
        match boxes.map(str::trim) {
            Some("latin") => Shape::latin(side),
            Some(b) => {
                let (r, c) = b.split_once('x').ok_or_else(bad)?;
                let r: usize = r.trim().parse().map_err(|_| bad())?;
                let c: usize = c.trim().parse().map_err(|_| bad())?;
                Shape::with_boxes(side, r, c)
            }
            None => {
                if side == 0 || side > MAX_SIDE {
                    return Err(ShapeError::Side { side });
                }
                Shape::square_for_side(side).ok_or_else(bad)
            }
        }
    }
}

/// The all-different units of a [`Shape`], with each cell's units and peers.
///
/// Every unit holds exactly N cells. Built by [`Shape::units`]; a solver that takes every shape
/// builds it once per shape and keeps it between solves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Units {
    shape: Shape,
    /// Unit-major: unit `u`'s cells are `members[u * N..(u + 1) * N]`, in row-major order.
    members: Vec<u32>,
    /// Cell-major: cell `i`'s units are `of_cell[i * k..(i + 1) * k]`, k = units per cell.
    of_cell: Vec<u16>,
}

impl Units {
    fn of(shape: Shape) -> Units {
        let n = shape.side();
        let k = shape.units_per_cell();
        let mut members = Vec::with_capacity(k * n * n);
        for r in 0..n {
            members.extend((0..n).map(|c| (r * n + c) as u32));
        }
        for c in 0..n {
            members.extend((0..n).map(|r| (r * n + c) as u32));
        }
        if let Some((br, bc)) = shape.boxes() {
            for b in 0..n {
                let (top, left) = ((b / (n / bc)) * br, (b % (n / bc)) * bc);
                for row in top..top + br {
                    members.extend((left..left + bc).map(|col| (row * n + col) as u32));
                }
            }
        }
        let mut of_cell = Vec::with_capacity(k * n * n);
        for i in 0..n * n {
            of_cell.push(shape.row_of(i) as u16);
            of_cell.push((n + shape.col_of(i)) as u16);
            if let Some(b) = shape.box_of(i) {
                of_cell.push((2 * n + b) as u16);
            }
        }
        Units {
            shape,
            members,
            of_cell,
        }
    }

    /// The shape these units belong to.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// How many units there are (2N or 3N).
    pub fn len(&self) -> usize {
        self.members.len() / self.shape.side()
    }

    /// True when there are no units (never, for a valid shape).
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The N cells of unit `u`.
    #[inline]
    pub fn cells(&self, u: usize) -> &[u32] {
        let n = self.shape.side();
        &self.members[u * n..(u + 1) * n]
    }

    /// The units cell `i` belongs to (row, column, then box if any).
    #[inline]
    pub fn of_cell(&self, i: usize) -> &[u16] {
        let k = self.shape.units_per_cell();
        &self.of_cell[i * k..(i + 1) * k]
    }

    /// The peers of cell `i`: every other cell sharing a unit with it, ascending, each once.
    pub fn peers(&self, i: usize) -> Vec<u32> {
        let mut p: Vec<u32> = self
            .of_cell(i)
            .iter()
            .flat_map(|&u| self.cells(u as usize).iter().copied())
            .filter(|&j| j as usize != i)
            .collect();
        p.sort_unstable();
        p.dedup();
        p
    }

    /// A short name of unit `u` for people: `row 3`, `column 12`, `box 7` (1-based).
    pub fn name(&self, u: usize) -> String {
        let n = self.shape.side();
        match u / n {
            0 => format!("row {}", u % n + 1),
            1 => format!("column {}", u % n + 1),
            _ => format!("box {}", u % n + 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_units_match_the_grid_numbering() {
        let u = Shape::CLASSIC.units();
        assert_eq!(u.len(), 27);
        assert_eq!(u.cells(18), &[0, 1, 2, 9, 10, 11, 18, 19, 20]);
        assert_eq!(u.of_cell(80), &[8, 17, 26]);
        assert_eq!(u.peers(0).len(), 20);
        assert_eq!(Shape::CLASSIC.box_of(40), Some(4));
    }

    #[test]
    fn rectangular_boxes_tile() {
        // 6x6 with 2x3 boxes: box 1 is rows 0-1, columns 3-5.
        let s = Shape::with_boxes(6, 2, 3).unwrap();
        let u = s.units();
        assert_eq!(u.cells(12 + 1), &[3, 4, 5, 9, 10, 11]);
        assert_eq!(u.peers(0).len(), 5 + 5 + 2);
        assert_eq!(s.to_string(), "6x6/2x3");
        assert!(matches!(
            Shape::with_boxes(12, 3, 3),
            Err(ShapeError::BoxesDoNotTile { .. })
        ));
    }

    #[test]
    fn latin_squares_have_rows_and_columns_only() {
        let s = Shape::latin(5).unwrap();
        let u = s.units();
        assert_eq!(u.len(), 10);
        assert_eq!(u.of_cell(7), &[1, 7]);
        assert_eq!(u.peers(7).len(), 8);
        assert_eq!(s.box_of(3), None);
    }

    #[test]
    fn shapes_read_back_what_they_print() {
        for s in [
            Shape::CLASSIC,
            Shape::of_order(1).unwrap(),
            Shape::of_order(10).unwrap(),
            Shape::sudoku(3, 4).unwrap(),
            Shape::sudoku(4, 3).unwrap(),
            Shape::latin(7).unwrap(),
        ] {
            assert_eq!(s.to_string().parse::<Shape>().unwrap(), s, "{s}");
        }
        assert!("12x12".parse::<Shape>().is_err()); // 12 is no square: boxes must be given
        assert!("9x8".parse::<Shape>().is_err());
        assert!(matches!(
            "401x401/latin".parse::<Shape>(),
            Err(ShapeError::Side { side: 401 })
        ));
        assert_eq!(Shape::square_for_side(16), Shape::of_order(4).ok());
        assert_eq!(Shape::square_for_side(12), None);
    }
}
