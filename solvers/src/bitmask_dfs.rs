//! `bitmask-dfs`: depth-first search over the empty cells in row-major order, with the digits
//! used in each row, column and box kept as 9-bit masks.
//!
//! A cell's candidates are the digits free in its row, column and box (the AND of three masks);
//! they are tried lowest digit first. Placing and removing a digit flips one bit in three masks,
//! so a node costs O(1) plus the candidates tried. This is the classic "bitmask backtracking"
//! found in many write-ups; it differs from `backtracking` only in how a digit is checked, so
//! their node counts agree.
//!
//! Layout: the empty cells are listed once, in row-major order, as the three mask slots of each;
//! the digit tried at each position is kept beside the list and the grid is written out only
//! when the search succeeds. The recursion runs as a loop over an explicit stack of the
//! candidates left at each position ([`fixed_order`]). Nothing is copied per node. The search
//! looks one position ahead ([`FixedOrder::LOOKAHEAD`](crate::search::FixedOrder::LOOKAHEAD)):
//! on entering a position it reads the next position's candidates once, and a digit that would
//! leave the next cell none is counted as the dead end it is without being placed and taken
//! back. The tree and the counters are those of the plain form; it saves the mask writes of
//! every dead end (about a quarter of the time on the regress puzzles).
//!
//! Counters: one node per call of the recursive search, including the call that finds the grid
//! full (so for the "17-second hard case" the count equals a Python run of the same algorithm:
//! 7,368,194 calls). A guess is a node with two or more candidates. No propagations.
//!
//! Shapes: every [`Shape`](crate::Shape) ([`Shapes::Any`](crate::engine::Shapes::Any)), with one N-bit mask per row, column
//! and box (a `u32` up to side 32, 9x9 among them, else a `u64`, a `u128` or several words by the side,
//! `search.rs`; a Latin
//! square's third mask shadows the row).

use crate::search::{by_width, fixed_order, FixedOrder, Mask, Slots, Tally};
use crate::{Board, Budget};

/// The bitmask depth-first solver. Stateless.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitmaskDfs;

crate::search::board_solver!(BitmaskDfs, ANY_SHAPE, solve);

impl BitmaskDfs {
    /// The search of `puzzle` (it stops at the first solution: this solver does not count):
    /// with `u32` masks up to side 32, 9x9 among them (measured faster here than `u16` ones),
    /// else the narrowest mask that holds the side.
    fn tally<'a>(&mut self, puzzle: &Board, _: u64, budget: &'a Budget) -> Tally<'a> {
        if puzzle.shape().side() <= 32 {
            return search::<u32>(puzzle, budget);
        }
        by_width!(puzzle.shape().side(), search(puzzle, budget))
    }
}

/// Room for the unit slots of any shape (3N + 1 <= 385 for N <= [`MAX_SIDE`](crate::MAX_SIDE)),
/// a power of two: a slot index taken modulo it needs no bounds check.
const SLOT_ROOM: usize = 512;

/// The grid of the search at any shape: one mask of free symbols per unit slot ([`Slots`]) and
/// the three slots of each empty cell, in row-major order.
struct Free<M> {
    free: [M; SLOT_ROOM],
    slot: Vec<[u16; 3]>,
}

impl<M: Mask> Free<M> {
    /// Flips the symbol of `bit` in the three slots of position `k`.
    #[inline(always)]
    fn toggle(&mut self, k: usize, bit: M) {
        for s in self.slot[k] {
            self.free[s as usize % SLOT_ROOM] ^= bit;
        }
    }
}

impl<M: Mask> FixedOrder<M> for Free<M> {
    #[inline(always)]
    fn candidates(&self, k: usize) -> M {
        let [r, c, b] = self.slot[k];
        self.free[r as usize % SLOT_ROOM]
            & self.free[c as usize % SLOT_ROOM]
            & self.free[b as usize % SLOT_ROOM]
    }

    #[inline(always)]
    fn place(&mut self, k: usize, bit: M) {
        self.toggle(k, bit);
    }

    #[inline(always)]
    fn take_back(&mut self, k: usize, bit: M) {
        self.toggle(k, bit);
    }

    const LOOKAHEAD: bool = true;

    /// In row-major order the row slots of `k` and `k + 1` are nearly always equal, so the
    /// first test decides; no table is built per puzzle.
    #[inline(always)]
    fn shares_next(&self, k: usize) -> bool {
        let ([r, c, b], next) = (self.slot[k], self.slot[k + 1]);
        r == next[0] || c == next[1] || b == next[2]
    }
}

/// The search (side N <= `M::BITS`): one mask per unit slot ([`Slots`]) and the row-major list
/// of empty cells, run by [`fixed_order`].
fn search<'a, M: Mask>(puzzle: &Board, budget: &'a Budget) -> Tally<'a> {
    let slots = Slots::of(puzzle.shape());
    let mut grid = Free {
        free: [M::ZERO; SLOT_ROOM],
        slot: Vec::new(),
    };
    grid.free[..slots.len()].copy_from_slice(&slots.free_masks(puzzle));
    let mut cells = puzzle.cells().to_vec();
    let empty: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == 0).collect();
    grid.slot = empty.iter().map(|&i| slots.cell(i)).collect();
    let (mut t, placed) = fixed_order(&mut grid, empty.len(), budget);
    if let Some(placed) = placed {
        t.solution(|| {
            for (&i, bit) in empty.iter().zip(placed) {
                cells[i] = bit.first();
            }
            cells
        });
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backtracking::Backtracking;
    use crate::search::test_boards::{blank, pattern, shapes};
    use crate::test_puzzles::SEED;
    use crate::Solver;
    use crate::{Grid, Shape, Status};

    /// The counters (backtracks included) and the answer agree with `backtracking`, the same
    /// search done the textbook way: solved, stopped by a node limit, and with no solution.
    #[test]
    fn counters_agree_with_backtracking() {
        let puzzles = [
            SEED,
            // The seed puzzle with its first two givens removed: several solutions.
            "..........4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6",
            // No solution: the last two cells of row 1 both need a 9, found only by search.
            "1234567..........8.........9.....................................................",
        ];
        for puzzle in puzzles {
            let grid = Board::from_grid(&puzzle.parse::<Grid>().unwrap());
            for limit in [None, Some(0), Some(100), Some(1000)] {
                let budget = Budget::unlimited().max_nodes(limit);
                let ours = BitmaskDfs.solve(&grid, &budget).unwrap();
                let theirs = Backtracking.solve(&grid, &budget).unwrap();
                assert_eq!(ours.status, theirs.status, "{puzzle} {limit:?}");
                assert_eq!(ours.solution, theirs.solution, "{puzzle} {limit:?}");
                assert_eq!(ours.stats, theirs.stats, "{puzzle} {limit:?}");
            }
        }
    }

    /// On the classic shape the search makes the same tree whatever the width of its masks.
    #[test]
    fn the_mask_width_does_not_change_the_search() {
        for puzzle in [
            SEED,
            "..........4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6",
            "1234567..........8.........9.....................................................",
        ] {
            let grid: Grid = puzzle.parse().unwrap();
            let board = Board::from_grid(&grid);
            for limit in [None, Some(0), Some(100), Some(1000)] {
                let budget = Budget::unlimited().max_nodes(limit);
                let fast = search::<u16>(&board, &budget).outcome(Shape::CLASSIC);
                let shaped = search::<u64>(&board, &budget).outcome(Shape::CLASSIC);
                assert_eq!(fast, shaped, "{puzzle} {limit:?}");
            }
        }
    }

    /// At every shape the counters (backtracks included) and the answer agree with
    /// `backtracking`, as on 9x9.
    #[test]
    fn counters_agree_with_backtracking_at_every_shape() {
        for shape in shapes() {
            let puzzle = blank(&pattern(shape), 1, 4);
            for limit in [0, 10, 5000, 100_000] {
                let budget = Budget::unlimited().max_nodes(Some(limit));
                let ours = BitmaskDfs.solve(&puzzle, &budget).unwrap();
                let theirs = Backtracking.solve(&puzzle, &budget).unwrap();
                assert_eq!(ours, theirs, "{shape} {limit}");
                if limit == 100_000 && shape.side() <= 16 {
                    assert_eq!(ours.status, Status::Solved, "{shape}");
                }
            }
        }
    }
}
