//! `bitmask-singles`: bitmask depth-first search that fills naked singles to a fixpoint before the
//! search and after every guess, and branches on the cell with the fewest candidates (the MRV
//! heuristic: minimum remaining values).
//!
//! State is 81 cells, 27 used-digit masks and the list of empty cells in row-major order (about
//! 220 bytes), copied on every branch, so undoing a guess is free. The propagation pass scans the
//! empty cells in row-major order (the list is compacted as cells fill, so a pass never looks at a
//! filled cell); a cell with no candidate is a
//! contradiction, a cell with one (a naked single) is filled and counted as a propagation, and the
//! pass repeats until nothing changes. The same pass finds the MRV cell for the branch.
//! See Norvig, "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html), for the same idea over
//! candidate sets; this version keeps only the naked-single rule.
//!
//! Counters: the root is one node; each digit tried at a branch point enters one more node.
//! Every branch point has two or more candidates (singles are filled first), so guesses equal
//! branch points. Propagations count naked singles placed, in every node.

use crate::bits::{ALL, BOX_OF};
use crate::{Budget, Count, Grid, Outcome, Solver, Stats};

/// The bitmask solver with naked singles and MRV branching. Stateless; counts solutions.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitmaskSingles;

#[derive(Clone, Copy)]
struct State {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    /// The empty cells, in row-major order: `empties[..n_empty]`.
    empties: [u8; 81],
    n_empty: u8,
}

impl State {
    fn new(puzzle: &Grid) -> State {
        let mut s = State {
            cells: [0; 81],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            empties: [0; 81],
            n_empty: 0,
        };
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                s.place(i, v);
            } else {
                s.empties[s.n_empty as usize] = i as u8;
                s.n_empty += 1;
            }
        }
        s
    }

    #[inline]
    fn place(&mut self, cell: usize, digit: u8) {
        let bit = 1u16 << (digit - 1);
        self.cells[cell] = digit;
        self.rows[cell / 9] |= bit;
        self.cols[cell % 9] |= bit;
        self.boxes[BOX_OF[cell]] |= bit;
    }

    #[inline]
    fn candidates(&self, cell: usize) -> u16 {
        !(self.rows[cell / 9] | self.cols[cell % 9] | self.boxes[BOX_OF[cell]]) & ALL
    }
}

/// What the propagation pass found.
enum Fill {
    /// Every cell is filled.
    Full,
    /// Some cell has no candidate.
    Contradiction,
    /// The empty cell with the fewest candidates (two or more), and its candidates.
    Branch(usize, u16),
}

/// Fills naked singles until none is left; counts each as a propagation.
/// The scan visits exactly the cells the original full-grid scan did, in the same order, so the
/// counts are those of a plain 81-cell scan; it only skips filled cells for free.
fn propagate(s: &mut State, stats: &mut Stats) -> Fill {
    loop {
        let mut changed = false;
        let mut best: Option<(usize, u16)> = None;
        let mut best_n = 10;
        let mut kept = 0;
        for k in 0..s.n_empty as usize {
            let cell = s.empties[k] as usize;
            if s.cells[cell] != 0 {
                // Filled by the branch that entered this node: drop it from the list.
                continue;
            }
            // Compact the list as we go: the cells still empty after this pass stay, in order.
            s.empties[kept] = cell as u8;
            let cand = s.candidates(cell);
            match cand.count_ones() {
                0 => return Fill::Contradiction,
                1 => {
                    s.place(cell, cand.trailing_zeros() as u8 + 1);
                    stats.propagations += 1;
                    changed = true;
                }
                n => {
                    kept += 1;
                    if !changed && n < best_n {
                        best_n = n;
                        best = Some((cell, cand));
                    }
                }
            }
        }
        s.n_empty = kept as u8;
        if !changed {
            return match best {
                None => Fill::Full,
                Some((cell, cand)) => Fill::Branch(cell, cand),
            };
        }
    }
}

struct Search<'a> {
    tally: crate::Tally<'a>,
}

impl Search<'_> {
    /// Explores the node `s` (already counted); returns true when the search must stop
    /// (limit reached or budget exhausted).
    fn search(&mut self, mut s: State) -> bool {
        match propagate(&mut s, &mut self.tally.stats) {
            Fill::Contradiction => false,
            Fill::Full => self.tally.solution(|| s.cells),
            Fill::Branch(cell, mut cand) => {
                self.tally.stats.guesses += 1;
                while cand != 0 {
                    let bit = cand & cand.wrapping_neg();
                    cand ^= bit;
                    if self.tally.enter_node() {
                        return true;
                    }
                    let mut child = s;
                    child.place(cell, bit.trailing_zeros() as u8 + 1);
                    if self.search(child) {
                        return true;
                    }
                    self.tally.stats.backtracks += 1;
                }
                false
            }
        }
    }
}

fn run<'a>(puzzle: &Grid, limit: u64, budget: &'a Budget) -> Search<'a> {
    let mut search = Search {
        tally: crate::Tally::new(limit, budget),
    };
    if search.tally.out_of_budget {
        return search;
    }
    search.search(State::new(puzzle));
    search
}

impl Solver for BitmaskSingles {
    fn name(&self) -> &'static str {
        "bitmask-singles"
    }

    fn solve(&self, puzzle: &Grid, budget: &Budget) -> Outcome {
        let s = run(puzzle, 1, budget);
        s.tally.outcome()
    }

    fn count(&self, puzzle: &Grid, limit: u64, budget: &Budget) -> Option<Count> {
        let s = run(puzzle, limit, budget);
        Some(s.tally.count())
    }
}
