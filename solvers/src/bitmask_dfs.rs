//! `bitmask-dfs`: depth-first search over the empty cells in row-major order, with the digits
//! used in each row, column and box kept as 9-bit masks.
//!
//! A cell's candidates are the complement of its row, column and box masks; they are tried lowest
//! digit first. Placing and removing a digit flips one bit in three masks, so a node costs O(1)
//! plus the candidates tried. This is the classic "bitmask backtracking" found in many write-ups;
//! it differs from `backtracking` only in how a digit is checked, so their node counts agree.
//!
//! Counters: one node per call of the recursive search, including the call that finds the grid
//! full (so for the "17-second hard case" the count equals a Python run of the same algorithm:
//! 7,368,194 calls). A guess is a node with two or more candidates. No propagations.

use crate::bits::{ALL, BOX_OF};
use crate::{Budget, Grid, Outcome, Solver, Stats, Status};

/// The bitmask depth-first solver. Stateless.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitmaskDfs;

struct Search<'a> {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    empties: [u8; 81],
    n_empty: usize,
    stats: Stats,
    budget: &'a Budget,
    out_of_budget: bool,
}

impl Search<'_> {
    fn search(&mut self, k: usize) -> bool {
        self.stats.nodes += 1;
        if self.budget.check(self.stats.nodes) {
            self.out_of_budget = true;
            return false;
        }
        if k == self.n_empty {
            return true;
        }
        let cell = self.empties[k] as usize;
        let (r, c, b) = (cell / 9, cell % 9, BOX_OF[cell]);
        let mut cand = !(self.rows[r] | self.cols[c] | self.boxes[b]) & ALL;
        if cand.count_ones() >= 2 {
            self.stats.guesses += 1;
        }
        while cand != 0 {
            let bit = cand & cand.wrapping_neg();
            cand ^= bit;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            self.cells[cell] = bit.trailing_zeros() as u8 + 1;
            if self.search(k + 1) {
                return true;
            }
            self.rows[r] ^= bit;
            self.cols[c] ^= bit;
            self.boxes[b] ^= bit;
            self.cells[cell] = 0;
            if self.out_of_budget {
                return false;
            }
            self.stats.backtracks += 1;
        }
        false
    }
}

impl Solver for BitmaskDfs {
    fn name(&self) -> &'static str {
        "bitmask-dfs"
    }

    fn solve(&self, puzzle: &Grid, budget: &Budget) -> Outcome {
        let mut s = Search {
            cells: *puzzle.cells(),
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            empties: [0; 81],
            n_empty: 0,
            stats: Stats::default(),
            budget,
            out_of_budget: false,
        };
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v == 0 {
                s.empties[s.n_empty] = i as u8;
                s.n_empty += 1;
            } else {
                let bit = 1u16 << (v - 1);
                s.rows[i / 9] |= bit;
                s.cols[i % 9] |= bit;
                s.boxes[BOX_OF[i]] |= bit;
            }
        }
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
