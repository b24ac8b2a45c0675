//! `bitmask-singles`: bitmask depth-first search that fills naked singles to a fixpoint before the
//! search and after every guess, and branches on the cell with the fewest candidates (the MRV
//! heuristic: minimum remaining values).
//!
//! See Norvig, "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html), for the same idea over
//! candidate sets; this version keeps only the naked-single rule.
//!
//! ## Data layout
//! - `free`: the digits still free in each row, column and box, 27 nine-bit masks; a cell's
//!   candidates are the AND of its three masks. Filling a cell flips one bit in three masks, and
//!   going back flips them again, so nothing is copied on a branch.
//! - The list of the puzzle's empty cells, as the three mask slots of each cell (one byte array
//!   per slot, so the scan loads each with one instruction): positions `..depth` hold the cells
//!   filled on the current path, in the order they were filled, positions `depth..` the cells
//!   still empty. Filling the cell at position `p` swaps it to position `depth` and advances
//!   `depth`; going back up the tree only restores `depth`, so the list is never copied (its
//!   order changes, its contents do not). The digit filled at each position is kept beside it.
//!
//! ## Propagation and branching
//! A scan runs over the empty part of the list from its start. A cell with no candidate is a
//! contradiction; it is moved to the front of the empty part, so the next sibling looks at it
//! first. A cell with one candidate (a naked single) is filled and the scan starts again from the
//! front. A scan that reaches the end has seen every empty cell since the last cell was filled:
//! the fixpoint. The branch cell is the first cell of that scan with the fewest candidates; once
//! a cell with two is met nothing can beat it, and the rest of the scan only looks for singles
//! (a cheaper test). The branch digits are tried lowest first.
//!
//! Naked singles reach the same fixpoint, and the same verdict (contradiction or not), in any
//! order; the order of the list decides only which cell wins a tie. Breaking ties by the list's
//! order, which the search keeps reordering, gives search trees of about the size tdoku's
//! `TdokuSolverBasic` with MRV has; breaking them by the lowest row-major cell index made the
//! trees 2 to 4 times larger on the hard public sets (it keeps choosing cells near the top of the
//! grid). This list discipline (front-swaps of filled and contradicting cells, a rescan from the
//! front after each fill, the first cell with the fewest candidates) is the one tdoku's basic
//! solver uses, so the two make the same search: our nodes minus the root equal its
//! placements at cells with two or more candidates.
//!
//! Counters: the root is one node; each digit tried at a branch point enters one more node.
//! Every branch point has two or more candidates (singles are filled first), so guesses equal
//! branch points. Propagations count naked singles placed, in every node, including those placed
//! in a node before its contradiction was found.

use crate::{Budget, Count, Grid, Outcome, Solver};

/// The bitmask solver with naked singles and MRV branching. Stateless; counts solutions.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitmaskSingles;

/// Number of candidates of a nine-bit mask (a table: the default target has no `popcnt`).
static POPCOUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = (i as u16).count_ones() as u8;
        i += 1;
    }
    t
};

/// The digit (1..=9) of a one-bit mask.
#[inline(always)]
fn digit(bit: u16) -> u8 {
    bit.trailing_zeros() as u8 + 1
}

/// What the propagation pass found.
enum Fill {
    /// Every cell is filled.
    Full,
    /// Some cell has no candidate.
    Contradiction,
    /// The list position of the branch cell (two or more candidates).
    Branch(usize),
}

struct Search<'a> {
    tally: crate::Tally<'a>,
    /// The digits still free in each unit: slot `r` for row `r`, `9 + c` for column `c`,
    /// `18 + b` for box `b` (bit `d - 1` = digit `d`). 256 slots so that a `u8` slot needs no
    /// bounds check; 27 are used.
    free: [u16; 256],
    /// The list of empty cells: the row slot of the cell at each position.
    row: [u8; 81],
    /// The column slot (`9 + c`) of the cell at each position.
    col: [u8; 81],
    /// The box slot (`18 + b`) of the cell at each position.
    boxx: [u8; 81],
    /// The digit filled at each position `..depth`.
    digit: [u8; 81],
    /// Empty cells of the puzzle: the list's length.
    len: usize,
    /// Cells filled on the current path: the empty ones are at positions `depth..len`.
    depth: usize,
    /// The puzzle as given (row-major, 0 = empty).
    givens: [u8; 81],
}

impl Search<'_> {
    /// The candidates of the cell at list position `p`.
    #[inline(always)]
    fn candidates(&self, p: usize) -> u16 {
        self.free[self.row[p] as usize]
            & self.free[self.col[p] as usize]
            & self.free[self.boxx[p] as usize]
    }

    /// Marks the digit of `bit` used (or, when used, free again) in the units of the cell at
    /// list position `p`.
    #[inline(always)]
    fn toggle(&mut self, p: usize, bit: u16) {
        self.free[self.row[p] as usize] ^= bit;
        self.free[self.col[p] as usize] ^= bit;
        self.free[self.boxx[p] as usize] ^= bit;
    }

    #[inline(always)]
    fn swap(&mut self, p: usize, q: usize) {
        self.row.swap(p, q);
        self.col.swap(p, q);
        self.boxx.swap(p, q);
    }

    /// Fills naked singles until none is left, counting each as a propagation; each cell filled
    /// moves to position `depth`, and `depth` advances. Kept out of line: the scan loops get the
    /// registers to themselves.
    #[inline(never)]
    fn propagate(&mut self) -> Fill {
        // At most 81: the loops below then need no bounds check.
        let len = self.len.min(81);
        let mut d = self.depth.min(len);
        'scan: loop {
            let mut p = d;
            // The branch cell: the first one met with the fewest candidates.
            let mut best_n = u32::MAX;
            let mut best_p = d;
            while p < len {
                let cand = self.candidates(p);
                let n = POPCOUNT[cand as usize & 511] as u32;
                if n <= 1 {
                    if !self.fill(cand, p, &mut d) {
                        return Fill::Contradiction;
                    }
                    continue 'scan;
                }
                if n < best_n {
                    best_n = n;
                    best_p = p;
                    if n == 2 {
                        p += 1;
                        break;
                    }
                }
                p += 1;
            }
            // Two candidates met (or the scan is over): from here on, look for singles only.
            while p < len {
                let a = self.candidates(p);
                if a & a.wrapping_sub(1) == 0 {
                    if !self.fill(a, p, &mut d) {
                        return Fill::Contradiction;
                    }
                    continue 'scan;
                }
                p += 1;
            }
            self.depth = d;
            return if d == len {
                Fill::Full
            } else {
                Fill::Branch(best_p)
            };
        }
    }

    /// Moves the cell at list position `p` (whose candidates are `cand`, at most one) to
    /// position `*d`. With one candidate, fills it, counts a propagation, advances `*d` and
    /// returns true; with none (a contradiction: the next sibling looks at this cell first),
    /// sets `depth` to `*d` and returns false.
    #[inline(always)]
    fn fill(&mut self, cand: u16, p: usize, d: &mut usize) -> bool {
        let q = *d;
        self.swap(p, q);
        if cand == 0 {
            self.depth = q;
            return false;
        }
        self.toggle(q, cand);
        self.digit[q] = digit(cand);
        self.tally.stats.propagations += 1;
        *d = q + 1;
        true
    }

    /// The solved grid: the givens and the digits of the list (all filled).
    fn grid(&self) -> [u8; 81] {
        let mut cells = self.givens;
        for q in 0..self.len {
            let cell = self.row[q] as usize * 9 + (self.col[q] as usize - 9);
            cells[cell] = self.digit[q];
        }
        cells
    }

    /// Explores the node whose empty cells are at list positions `depth..len` (already
    /// counted); returns true when the search must stop (limit reached or budget exhausted).
    /// Leaves `free` and `depth` as it found them.
    fn search(&mut self) -> bool {
        let entry = self.depth;
        let stop = match self.propagate() {
            Fill::Contradiction => false,
            Fill::Full => {
                let first = self.tally.first.is_none();
                let cells = if first { self.grid() } else { [0; 81] };
                self.tally.solution(|| cells)
            }
            Fill::Branch(pos) => {
                self.tally.stats.guesses += 1;
                let d = self.depth;
                self.swap(pos, d);
                let mut cand = self.candidates(d);
                let mut stop = false;
                while cand != 0 {
                    let bit = cand & cand.wrapping_neg();
                    cand ^= bit;
                    if self.tally.enter_node() {
                        stop = true;
                        break;
                    }
                    self.toggle(d, bit);
                    self.digit[d] = digit(bit);
                    self.depth = d + 1;
                    stop = self.search();
                    self.toggle(d, bit);
                    if stop {
                        break;
                    }
                    self.tally.stats.backtracks += 1;
                }
                self.depth = d;
                stop
            }
        };
        // Give back the digits of the singles this node filled.
        for q in entry..self.depth.min(81) {
            self.toggle(q, 1 << (self.digit[q] - 1));
        }
        self.depth = entry;
        stop
    }
}

fn run<'a>(puzzle: &Grid, limit: u64, budget: &'a Budget) -> Search<'a> {
    let mut search = Search {
        tally: crate::Tally::new(limit, budget),
        free: [0; 256],
        row: [0; 81],
        col: [0; 81],
        boxx: [0; 81],
        digit: [0; 81],
        len: 0,
        depth: 0,
        givens: *puzzle.cells(),
    };
    if search.tally.out_of_budget {
        return search;
    }
    search.free[..27].fill(crate::bits::ALL);
    for (i, &v) in puzzle.cells().iter().enumerate() {
        let (r, c) = (i / 9, i % 9);
        let slots = [r, 9 + c, 18 + crate::bits::BOX_OF[i]];
        if v != 0 {
            // Clear, not toggle: a repeated given must not free its digit again.
            for s in slots {
                search.free[s] &= !(1 << (v - 1));
            }
        } else {
            let q = search.len;
            search.row[q] = slots[0] as u8;
            search.col[q] = slots[1] as u8;
            search.boxx[q] = slots[2] as u8;
            search.len += 1;
        }
    }
    search.search();
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
