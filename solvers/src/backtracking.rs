//! `backtracking`: the textbook algorithm, kept plain on purpose as the baseline.
//!
//! Find the first empty cell in row-major order, try the digits 1 to 9 in order, and accept a
//! digit when a scan of the cell's row, column and box finds it nowhere (one scan of its 20 peers
//! per node gives the answer for all nine digits); recurse; undo on failure.
//! No bitmasks kept between nodes, no candidate sets, no ordering heuristic.
//! See e.g. Wikipedia, "Sudoku solving algorithms", section Backtracking.
//!
//! Counters: one node per call of the recursive search (the root plus one per digit placed);
//! a guess is a node whose cell has two or more digits that pass the scan; no propagations.
//! Worst case: puzzles whose solution's first row reads 987654321 need tens of millions of nodes.
//!
//! Shapes: every [`Shape`] ([`Shapes::Any`](crate::engine::Shapes::Any)), with one search written over
//! [`Units`](crate::Units): the peers of each empty cell (its row, column and box; row and column
//! for a Latin square) are listed once per solve, and the symbols as a [`Mask`] as wide as the
//! side needs (a `u16` for 9x9, several words above 128x128). The search runs as a loop over an
//! explicit stack (a 400x400 grid has 160,000 cells: too deep for recursion).

use crate::search::{by_width, fixed_order, FixedOrder, Mask, Tally};
use crate::{Board, Budget, Shape, Symbol};

/// The textbook backtracking solver. Stateless.
#[derive(Debug, Clone, Copy, Default)]
pub struct Backtracking;

crate::search::board_solver!(Backtracking, ANY_SHAPE, solve);

impl Backtracking {
    /// The search of `puzzle` with the narrowest mask that holds its side (it stops at the
    /// first solution: this solver does not count).
    fn tally<'a>(&mut self, puzzle: &Board, _: u64, budget: &'a Budget) -> Tally<'a> {
        by_width!(puzzle.shape().side(), search(puzzle, budget))
    }
}

/// The grid of the search at any shape: its cells, the row-major list of its empty cells, and
/// the peers of each empty cell (row, column and box, the cell excluded), listed once.
struct Peers<M> {
    cells: Vec<Symbol>,
    empty: Vec<usize>,
    /// The peers of the empty cell at position k: `peers[k * width..(k + 1) * width]` (every
    /// cell of a shape has as many).
    peers: Vec<u32>,
    width: usize,
    /// `symbol[v]`: the set of symbol v; empty for 0, an empty cell.
    symbol: Vec<M>,
    all: M,
}

impl<M: Mask> FixedOrder<M> for Peers<M> {
    /// One scan of the peers gives the symbols they hold; the others pass.
    #[inline(always)]
    fn candidates(&self, k: usize) -> M {
        let mut used = M::ZERO;
        for &p in &self.peers[k * self.width..(k + 1) * self.width] {
            used |= self.symbol[self.cells[p as usize] as usize];
        }
        self.all & !used
    }

    #[inline(always)]
    fn place(&mut self, k: usize, bit: M) {
        self.cells[self.empty[k]] = bit.first();
    }

    #[inline(always)]
    fn take_back(&mut self, k: usize, _: M) {
        self.cells[self.empty[k]] = 0;
    }
}

/// The search (side N <= `M::BITS`): the recursion of the textbook algorithm (fill the empty
/// cells in row-major order, each symbol checked by a scan of the cell's peers) run by
/// [`fixed_order`], with the counters of the recursive form.
fn search<'a, M: Mask>(puzzle: &Board, budget: &'a Budget) -> Tally<'a> {
    let shape: Shape = puzzle.shape();
    let units = shape.units();
    let cells = puzzle.cells().to_vec();
    let empty: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == 0).collect();
    let side = shape.side();
    let symbol = (0..=side)
        .map(|v| {
            if v == 0 {
                M::ZERO
            } else {
                M::symbol(v as Symbol)
            }
        })
        .collect();
    let mut grid = Peers {
        width: empty.first().map_or(0, |&i| units.peers(i).len()),
        peers: empty.iter().flat_map(|&i| units.peers(i)).collect(),
        cells,
        empty,
        symbol,
        all: M::all(side),
    };
    let len = grid.empty.len();
    let (mut t, placed) = fixed_order(&mut grid, len, budget);
    if placed.is_some() {
        t.solution(|| grid.cells);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_boards::{blank, pattern};
    use crate::Solver;

    /// The counters of the recursive 9x9 form, also when a node limit stops it (the counts of
    /// the 9x9 fast path this search replaced).
    #[test]
    fn counts_the_nodes_of_the_recursive_form() {
        let seed = Board::from_grid(&crate::test_puzzles::SEED.parse().unwrap());
        let out = Backtracking.solve(&seed, &Budget::unlimited()).unwrap();
        assert_eq!(
            out.grid().unwrap().to_digits(),
            crate::test_puzzles::SEED_SOLUTION
        );
        let stopped = Backtracking
            .solve(&seed, &Budget::unlimited().max_nodes(Some(100)))
            .unwrap();
        assert_eq!(stopped.status, crate::Status::Timeout);
    }

    #[test]
    fn solves_a_16x16_board_with_holes() {
        let solution = pattern(Shape::of_order(4).unwrap());
        let puzzle = blank(&solution, 1, 3);
        let out = Backtracking.solve(&puzzle, &Budget::unlimited()).unwrap();
        assert_eq!(out.status, crate::Status::Solved);
        let answer = out.solution.unwrap();
        assert!(answer.is_full() && answer.first_conflict().is_none());
        assert!(puzzle
            .cells()
            .iter()
            .zip(answer.cells())
            .all(|(&g, &a)| g == 0 || g == a));
    }
}
