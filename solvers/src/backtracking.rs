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

use crate::engine::Caps;
use crate::{Budget, Grid, Outcome, Solver, Stats, Status};

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
}
