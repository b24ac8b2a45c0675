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
//! Shapes: every [`Shape`] ([`Shapes::Any`]). A 9x9 board takes the fast path above; any other
//! shape the same search written over [`Units`](crate::Units): the first empty cell, symbols 1..N
//! in order, each checked by a scan of the cell's peers (its row, column and box; row and column
//! for a Latin square), listed once per solve as the 9x9 path's table lists them, with the same
//! counters. The search runs as a loop over an explicit stack (a 128x128 grid has 16,384 cells:
//! too deep for recursion).

use crate::engine::{Caps, Shapes};
use crate::shaped::{by_width, fixed_order, FixedOrder, Mask, Tally};
use crate::{Board, Budget, Count, Grid, Outcome, Shape, Solver, Stats, Status};

/// The 20 peers of each cell (same row, column or box, the cell excluded).
const PEERS: [[u8; 20]; 81] = {
    let mut t = [[0u8; 20]; 81];
    let mut cell = 0;
    while cell < 81 {
        let (r, c) = (cell / 9, cell % 9);
        let mut n = 0;
        let mut p = 0;
        while p < 81 {
            let (pr, pc) = (p / 9, p % 9);
            let same_box = pr / 3 == r / 3 && pc / 3 == c / 3;
            if p != cell && (pr == r || pc == c || same_box) {
                t[cell][n] = p as u8;
                n += 1;
            }
            p += 1;
        }
        cell += 1;
    }
    t
};

/// The textbook backtracking solver. Stateless.
#[derive(Debug, Clone, Copy, Default)]
pub struct Backtracking;

struct Search<'a> {
    cells: [u8; 81],
    stats: Stats,
    budget: &'a Budget,
    out_of_budget: bool,
}

impl Search<'_> {
    /// The digits held by the peers of `cell` (its row, column and box), as a set: bit `d` for
    /// digit `d`. One scan of the 20 peers answers the check for all nine digits at once; the
    /// digits that pass are exactly those a per-digit scan accepts, in the same order.
    fn used(&self, cell: usize) -> u16 {
        let mut used = 0u16;
        for &p in &PEERS[cell] {
            used |= 1 << self.cells[p as usize];
        }
        used
    }

    /// Fills the grid from cell `from` on; true once it is full.
    fn search(&mut self, from: usize) -> bool {
        self.stats.nodes += 1;
        if self.budget.check(self.stats.nodes) {
            self.out_of_budget = true;
            return false;
        }
        let Some(cell) = (from..81).find(|&i| self.cells[i] == 0) else {
            return true;
        };
        // Scan once per digit; keep the digits that pass, in order.
        let mut choices = [0u8; 9];
        let mut n = 0;
        let used = self.used(cell);
        for digit in 1..=9 {
            if used & (1 << digit) == 0 {
                choices[n] = digit;
                n += 1;
            }
        }
        if n >= 2 {
            self.stats.guesses += 1;
        }
        for &digit in &choices[..n] {
            self.cells[cell] = digit;
            if self.search(cell + 1) {
                return true;
            }
            self.cells[cell] = 0;
            if self.out_of_budget {
                return false;
            }
            self.stats.backtracks += 1;
        }
        false
    }
}

impl Solver for Backtracking {
    fn name(&self) -> &'static str {
        "backtracking"
    }

    fn caps(&self) -> Caps {
        Caps {
            counts: false,
            shapes: Shapes::Any,
            ..Caps::POLLED_SEARCH
        }
    }

    fn solve(&mut self, puzzle: &Grid, budget: &Budget) -> Outcome {
        let mut s = Search {
            cells: *puzzle.cells(),
            stats: Stats::default(),
            budget,
            out_of_budget: false,
        };
        if s.search(0) {
            let solution = Grid::from_cells(s.cells).expect("digits stay in 0..=9");
            Outcome::solved(solution, s.stats)
        } else if s.out_of_budget {
            Outcome::unsolved(Status::Timeout, s.stats)
        } else {
            Outcome::unsolved(Status::NoSolution, s.stats)
        }
    }

    fn solve_board(&mut self, puzzle: &Board, budget: &Budget) -> Option<Outcome<Board>> {
        if let Some(grid) = puzzle.to_grid() {
            return Some(self.solve(&grid, budget).map(Board::from));
        }
        Some(by_width!(puzzle.shape().side(), search_board(puzzle, budget)).outcome(puzzle.shape()))
    }

    fn count_board(&mut self, _: &Board, _: u64, _: &Budget) -> Option<Count<Board>> {
        None
    }
}

/// The grid of the search at any shape: its cells, the row-major list of its empty cells, and
/// the peers of each empty cell (row, column and box, the cell excluded), listed once.
struct Peers<M> {
    cells: Vec<u8>,
    empty: Vec<usize>,
    /// The peers of the empty cell at position k: `peers[k * width..(k + 1) * width]` (every
    /// cell of a shape has as many).
    peers: Vec<u16>,
    width: usize,
    /// `symbol[v]`: the set of symbol v; empty for 0, an empty cell.
    symbol: [M; 256],
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

/// The search on a board of any shape (side N <= `M::BITS`): the recursion of [`Search::search`]
/// (fill the empty cells in row-major order, each symbol checked by a scan of the cell's peers)
/// run by [`fixed_order`], with the counters of the recursive form.
fn search_board<'a, M: Mask>(puzzle: &Board, budget: &'a Budget) -> Tally<'a> {
    let shape: Shape = puzzle.shape();
    let units = shape.units();
    let cells = puzzle.cells().to_vec();
    let empty: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == 0).collect();
    let side = shape.side();
    let symbol = std::array::from_fn(|v| {
        if (1..=side).contains(&v) {
            M::symbol(v as u8)
        } else {
            M::ZERO
        }
    });
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
    use crate::shaped::test_boards::{blank, pattern};

    /// On the classic shape the search over units makes the search of the 9x9 fast path:
    /// same answer, same counters, also when a node limit stops it.
    #[test]
    fn the_shaped_search_is_the_fast_path_on_9x9() {
        for puzzle in [
            crate::test_puzzles::SEED,
            "..........4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6",
            "1234567..........8.........9.....................................................",
        ] {
            let grid: Grid = puzzle.parse().unwrap();
            let board = Board::from_grid(&grid);
            for limit in [None, Some(0), Some(100), Some(1000)] {
                let budget = Budget::unlimited().max_nodes(limit);
                let fast = Backtracking.solve(&grid, &budget).map(Board::from);
                let shaped = search_board::<u32>(&board, &budget).outcome(Shape::CLASSIC);
                assert_eq!(fast, shaped, "{puzzle} {limit:?}");
            }
        }
    }

    #[test]
    fn solves_a_16x16_board_with_holes() {
        let solution = pattern(Shape::of_order(4).unwrap());
        let puzzle = blank(&solution, 1, 3);
        let out = Backtracking
            .solve_board(&puzzle, &Budget::unlimited())
            .unwrap();
        assert_eq!(out.status, Status::Solved);
        let answer = out.solution.unwrap();
        assert!(answer.is_full() && answer.first_conflict().is_none());
        assert!(puzzle
            .cells()
            .iter()
            .zip(answer.cells())
            .all(|(&g, &a)| g == 0 || g == a));
    }
}
