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
//! shape the same search written over [`Units`]: the first empty cell, symbols 1..N in order, each
//! checked by a scan of the cell's row, column and box (row and column for a Latin square), with
//! the same counters. The search runs as a loop over an explicit stack (a 128x128 grid has 16,384
//! cells: too deep for recursion).

use crate::engine::{Caps, Shapes};
use crate::shaped::{by_width, Mask, Tally};
use crate::{Board, Budget, Count, Grid, Outcome, Shape, Solver, Stats, Status, Units};

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

/// The symbols held by the other cells of the units of `cell` (its own value is 0 when asked).
#[inline]
fn used<M: Mask>(units: &Units, cells: &[u8], cell: usize) -> M {
    let mut used = M::ZERO;
    for &u in units.of_cell(cell) {
        for &j in units.cells(u as usize) {
            let v = cells[j as usize];
            if v != 0 {
                used |= M::symbol(v);
            }
        }
    }
    used
}

/// The search on a board of any shape (side N <= `M::BITS`): the recursion of [`Search::search`]
/// (one call per node: fill the empty cell at position `k` of the row-major list of empty cells,
/// then call for `k + 1`) as a loop over an explicit stack of the symbols left at each position;
/// the counters are those of the recursive form.
fn search_board<'a, M: Mask>(puzzle: &Board, budget: &'a Budget) -> Tally<'a> {
    let shape: Shape = puzzle.shape();
    let units = shape.units();
    let all = M::all(shape.side());
    let mut cells = puzzle.cells().to_vec();
    let empty: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == 0).collect();
    let len = empty.len();
    let mut t = Tally::new(1, budget);
    // The call for position 0 (the root), checked as every node is.
    t.out_of_budget = budget.check(1);
    if t.out_of_budget {
        return t;
    }
    if len == 0 {
        t.solution(|| cells.clone());
        return t;
    }
    let candidates = |cells: &[u8], k: usize| all & !used::<M>(&units, cells, empty[k]);
    // left[k]: the symbols position k has not tried yet.
    let mut left = vec![M::ZERO; len];
    left[0] = candidates(&cells, 0);
    t.stats.guesses += !left[0].at_most_one() as u64;
    let mut k = 0;
    loop {
        let cand = left[k];
        if cand.is_empty() {
            // The call for position k returns false: its caller takes back its symbol.
            if k == 0 {
                return t;
            }
            k -= 1;
            cells[empty[k]] = 0;
            t.stats.backtracks += 1;
            continue;
        }
        let bit = cand.lowest();
        left[k] = cand ^ bit;
        cells[empty[k]] = bit.first();
        // The call for position k + 1.
        if t.enter_node() {
            return t;
        }
        if k + 1 >= len {
            t.solution(|| cells.clone());
            return t;
        }
        let next = candidates(&cells, k + 1);
        t.stats.guesses += !next.at_most_one() as u64;
        if next.is_empty() {
            // A dead end: the call for position k + 1 returns false at once.
            cells[empty[k]] = 0;
            t.stats.backtracks += 1;
            continue;
        }
        k += 1;
        left[k] = next;
    }
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
