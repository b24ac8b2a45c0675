//! `backtracking`: the textbook algorithm, kept plain on purpose as the baseline.
//!
//! Find the first empty cell in row-major order, try the digits 1 to 9 in order, and accept a
//! digit when a scan of the cell's row, column and box finds it nowhere; recurse; undo on failure.
//! No bitmasks, no candidate sets, no ordering heuristic: every check is a scan of 24 peers.
//! See e.g. Wikipedia, "Sudoku solving algorithms", section Backtracking.
//!
//! Counters: one node per call of the recursive search (the root plus one per digit placed);
//! a guess is a node whose cell has two or more digits that pass the scan; no propagations.
//! Worst case: puzzles whose solution's first row reads 987654321 need tens of millions of nodes.

use crate::{Budget, Grid, Outcome, Solver, Stats, Status};

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
    /// True if `digit` can go in `cell`: no peer in its row, column or box holds it.
    fn allowed(&self, cell: usize, digit: u8) -> bool {
        let (row, col) = (cell / 9, cell % 9);
        for k in 0..9 {
            if self.cells[row * 9 + k] == digit || self.cells[k * 9 + col] == digit {
                return false;
            }
        }
        let (r0, c0) = (row / 3 * 3, col / 3 * 3);
        for r in r0..r0 + 3 {
            for c in c0..c0 + 3 {
                if self.cells[r * 9 + c] == digit {
                    return false;
                }
            }
        }
        true
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
        for digit in 1..=9 {
            if self.allowed(cell, digit) {
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

    fn solve(&self, puzzle: &Grid, budget: &Budget) -> Outcome {
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
}
