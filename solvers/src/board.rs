//! [`Board`]: the cells of a grid of any [`Shape`], row-major, `0` for an empty cell and `1..=N`
//! for a symbol. The 9x9 [`Grid`] is its fast, `Copy` special case; a classic board converts to
//! and from it losslessly ([`Board::from_grid`], [`Board::to_grid`]).
//!
//! Text forms (one character a cell, integer tokens, `.pls`) belong to the harness's reader, not
//! to the board.

use crate::shape::Shape;
use crate::Grid;

/// The value of a cell of a [`Board`]: `0` for an empty cell, `1..=N` for a symbol (N up to
/// [`MAX_SIDE`](crate::MAX_SIDE)). The 9x9 [`Grid`] keeps its cells in `u8`.
pub type Symbol = u16;

/// The cells of a grid of any shape: N·N values, row-major, `0` = empty, `1..=N` = symbol.
///
/// Like [`Grid`], the type only promises that every value is in range; whether the givens
/// repeat a symbol in a unit is [`Board::first_conflict`]'s question.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    shape: Shape,
    cells: Vec<Symbol>,
}

/// Why cell values do not make a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// Not N·N values.
    #[error("{found} cells, expected {expected} for {shape}")]
    WrongLength {
        /// Values given.
        found: usize,
        /// N·N.
        expected: usize,
        /// The shape asked for.
        shape: Shape,
    },
    /// A value above N.
    #[error("symbol {value} at {cell} is above {side}")]
    SymbolTooLarge {
        /// The value.
        value: Symbol,
        /// The cell, `rRcC` (1-based).
        cell: String,
        /// N.
        side: usize,
    },
}

/// Two givens that repeat a symbol in a unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardConflict {
    /// The repeated symbol.
    pub symbol: Symbol,
    /// The first cell holding it (row-major index).
    pub first: usize,
    /// The second cell holding it.
    pub second: usize,
    /// The unit both lie in, for people: `row 3`, `column 12`, `box 7`.
    pub unit: String,
    /// The board's shape (for cell names).
    pub shape: Shape,
}

impl std::fmt::Display for BoardConflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::grid::given_twice(
            f,
            self.symbol,
            &self.unit,
            &cell_name(self.shape, self.first),
            &cell_name(self.shape, self.second),
        )
    }
}

impl Board {
    /// A board of `shape` from N·N values.
    ///
    /// # Errors
    /// [`BoardError::WrongLength`] or [`BoardError::SymbolTooLarge`] (the first such cell).
    pub fn new(shape: Shape, cells: Vec<Symbol>) -> Result<Board, BoardError> {
        if cells.len() != shape.cells() {
            return Err(BoardError::WrongLength {
                found: cells.len(),
                expected: shape.cells(),
                shape,
            });
        }
        if let Some(i) = cells.iter().position(|&v| v as usize > shape.side()) {
            return Err(BoardError::SymbolTooLarge {
                value: cells[i],
                cell: cell_name(shape, i),
                side: shape.side(),
            });
        }
        Ok(Board { shape, cells })
    }

    /// The board a search wrote: N·N symbols in `1..=N` (checked in debug builds only).
    pub(crate) fn solved(shape: Shape, cells: Vec<Symbol>) -> Board {
        debug_assert!(Board::new(shape, cells.clone()).is_ok());
        Board { shape, cells }
    }

    /// The empty board of `shape`.
    pub fn empty(shape: Shape) -> Board {
        Board {
            shape,
            cells: vec![0; shape.cells()],
        }
    }

    /// The classic board of a 9x9 grid.
    pub fn from_grid(grid: &Grid) -> Board {
        Board {
            shape: Shape::CLASSIC,
            cells: grid.cells().iter().map(|&v| Symbol::from(v)).collect(),
        }
    }

    /// The 9x9 grid of a classic board, `None` for any other shape.
    pub fn to_grid(&self) -> Option<Grid> {
        if !self.shape.is_classic() {
            return None;
        }
        let mut cells = [0u8; 81];
        for (c, &v) in cells.iter_mut().zip(&self.cells) {
            // A classic board holds 0..=9 only (checked when it was made).
            *c = v as u8;
        }
        Some(Grid::from_cells_unchecked(cells))
    }

    /// Its shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Its N·N cells, row-major.
    #[inline]
    pub fn cells(&self) -> &[Symbol] {
        &self.cells
    }

    /// The value of cell `i` (0 = empty).
    #[inline]
    pub fn get(&self, i: usize) -> Symbol {
        self.cells[i]
    }

    /// Sets cell `i` to `value` (0 empties it). Panics if `value` is above N or `i` out of range.
    pub fn set(&mut self, i: usize, value: Symbol) {
        assert!(
            value as usize <= self.shape.side(),
            "symbol {value} above N"
        );
        self.cells[i] = value;
    }

    /// The number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first pair of givens repeating a symbol in a unit (units in [`Shape::units`] order,
    /// cells row-major within a unit), or `None`. O(N³).
    pub fn first_conflict(&self) -> Option<BoardConflict> {
        let units = self.shape.units();
        let n = self.shape.side();
        let mut seen = vec![usize::MAX; n + 1];
        for u in 0..units.len() {
            seen.iter_mut().for_each(|s| *s = usize::MAX);
            for &i in units.cells(u) {
                let v = self.cells[i as usize];
                if v == 0 {
                    continue;
                }
                let s = &mut seen[v as usize];
                if *s != usize::MAX {
                    return Some(BoardConflict {
                        symbol: v,
                        first: *s,
                        second: i as usize,
                        unit: units.name(u),
                        shape: self.shape,
                    });
                }
                *s = i as usize;
            }
        }
        None
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({}, {:?})", self.shape, self.cells)
    }
}

impl From<Grid> for Board {
    fn from(g: Grid) -> Board {
        Board::from_grid(&g)
    }
}

impl From<&Grid> for Board {
    fn from(g: &Grid) -> Board {
        Board::from_grid(g)
    }
}

/// The name of cell `i` of `shape` for people: `rRcC`, 1-based (`r1c1` is cell 0).
pub fn cell_name(shape: Shape, i: usize) -> String {
    format!("r{}c{}", shape.row_of(i) + 1, shape.col_of(i) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_puzzles::SEED;

    #[test]
    fn a_classic_board_converts_losslessly() {
        let g: Grid = SEED.parse().unwrap();
        let b = Board::from_grid(&g);
        assert_eq!(b.shape(), Shape::CLASSIC);
        assert_eq!(b.to_grid(), Some(g));
        assert_eq!(b.givens(), g.givens());
        assert_eq!(Board::empty(Shape::of_order(4).unwrap()).to_grid(), None);
    }

    #[test]
    fn values_are_checked() {
        let s = Shape::latin(3).unwrap();
        assert!(matches!(
            Board::new(s, vec![0; 8]),
            Err(BoardError::WrongLength { found: 8, .. })
        ));
        let e = Board::new(s, vec![0, 0, 0, 0, 4, 0, 0, 0, 0]).unwrap_err();
        assert_eq!(e.to_string(), "symbol 4 at r2c2 is above 3");
    }

    #[test]
    fn conflicts_name_the_unit_and_both_cells() {
        let s = Shape::with_boxes(6, 2, 3).unwrap();
        let mut b = Board::empty(s);
        b.set(0, 5);
        b.set(8, 5); // r2c3: same 2x3 box as r1c1, other row and column
        let c = b.first_conflict().unwrap();
        assert_eq!((c.first, c.second, c.unit.as_str()), (0, 8, "box 1"));
        b.set(8, 4);
        assert_eq!(b.first_conflict(), None);
    }
}
