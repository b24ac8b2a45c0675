//! `dlx`: Knuth's Algorithm X over the Sudoku exact-cover matrix, with dancing links.
//!
//! Source: D. E. Knuth, "Dancing Links", in *Millennial Perspectives in Computer Science* (2000),
//! arXiv cs/0011047. Written here from the paper; no crate.
//!
//! ## The matrix
//! 729 rows, one per (cell, digit), and 324 columns, one per constraint:
//! `cell` (0..81: the cell is filled), `81 + 9 * row + d` (digit in row), `162 + 9 * column + d`
//! (digit in column), `243 + 9 * box + d` (digit in box), `d` = digit - 1. Each row holds exactly
//! 4 nodes, so the matrix has 1 root + 324 column headers + 2,916 nodes = 3,241 nodes, indexed
//! with `u16` in five flat arrays (left, right, up, down, column): about 32 KB.
//!
//! ## The search
//! The givens' rows are selected (their columns covered) before the search; a given whose column
//! is already covered repeats a digit: no solution. Then Algorithm X: if no column is left, the
//! rows chosen form a solution; else choose the column with the fewest rows (Knuth's S
//! heuristic, first in list order on ties), cover it, and try each of its rows in turn: cover the
//! row's other columns, recurse, uncover them.
//!
//! ## No allocation per puzzle
//! The matrix is built once per thread (a `thread_local`, since [`Solver::solve`] takes `&self` and
//! one solver is shared across rayon's threads) and every cover is undone by its uncover on the
//! way out, even when the search stops early (solution limit or budget), so the matrix is back
//! in its initial state after each puzzle. A `dirty` flag, set during a solve and cleared at its
//! end, rebuilds the matrix if a solve ever failed to finish.
//!
//! ## Counters
//! - **nodes**: the root plus one per row tried by the search (each tentative placement of a
//!   digit), including rows of a column with one row (a forced move).
//! - **guesses**: columns chosen with two or more rows.
//! - **backtracks**: rows tried that did not end the search (uncovered to try the next).
//! - **propagations**: 0. Algorithm X has no inference rule: a column with one row (a naked
//!   single for a cell column, a hidden single for the others) is taken as a forced search node,
//!   counted in nodes but not in guesses.
//! - **link updates** (Knuth's "updates"): nodes removed from a column list by `cover`, one per
//!   removal (each rewrites two links; `uncover` restores them and is not counted again), column
//!   headers included. A solve without backtrack makes exactly 324 + 3 x 729 = 2,511 (every
//!   header and every row leave once); each backtracked subtree adds its own. The shared
//!   count goes into [`Stats::updates`] (the `updates` column of `results.csv`);
//!   [`solve_with_updates`] also returns it beside the outcome, and
//!   `cargo run --release -p solvers --example dlx_updates -- FILE` prints it per puzzle.

use crate::{Budget, Count, Grid, Outcome, Solver};
use std::cell::RefCell;

/// Knuth's dancing-links solver. Keeps one matrix per thread; counts solutions.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dlx;

const COLUMNS: usize = 324;
const ROWS: usize = 729;
const ROOT: usize = 0;
/// Index of the first row node (after the root and the 324 headers).
const FIRST: usize = 1 + COLUMNS;
const NODES: usize = FIRST + 4 * ROWS;

/// The four columns (0..324) of row `r = cell * 9 + digit - 1`.
#[inline]
fn columns_of(r: usize) -> [usize; 4] {
    let (cell, d) = (r / 9, r % 9);
    let (row, col) = (cell / 9, cell % 9);
    let b = (row / 3) * 3 + col / 3;
    [cell, 81 + 9 * row + d, 162 + 9 * col + d, 243 + 9 * b + d]
}

/// The toroidal doubly linked matrix. Header of column `c` is node `1 + c`.
struct Matrix {
    left: [u16; NODES],
    right: [u16; NODES],
    up: [u16; NODES],
    down: [u16; NODES],
    /// The header node of each node's column (headers point to themselves).
    column: [u16; NODES],
    /// Rows left in each column, indexed by header node.
    size: [u16; FIRST],
    /// True while a solve is using the matrix.
    dirty: bool,
}

impl Matrix {
    fn new() -> Box<Matrix> {
        let mut m = Box::new(Matrix {
            left: [0; NODES],
            right: [0; NODES],
            up: [0; NODES],
            down: [0; NODES],
            column: [0; NODES],
            size: [0; FIRST],
            dirty: false,
        });
        // Root and headers in one circular list.
        for h in 0..FIRST {
            m.left[h] = ((h + FIRST - 1) % FIRST) as u16;
            m.right[h] = ((h + 1) % FIRST) as u16;
            m.up[h] = h as u16;
            m.down[h] = h as u16;
            m.column[h] = h as u16;
        }
        for r in 0..ROWS {
            let base = FIRST + 4 * r;
            for (k, &c) in columns_of(r).iter().enumerate() {
                let (n, h) = (base + k, 1 + c);
                m.left[n] = (base + (k + 3) % 4) as u16;
                m.right[n] = (base + (k + 1) % 4) as u16;
                // Append at the bottom of column h.
                let last = m.up[h] as usize;
                m.up[n] = last as u16;
                m.down[n] = h as u16;
                m.down[last] = n as u16;
                m.up[h] = n as u16;
                m.column[n] = h as u16;
                m.size[h] += 1;
            }
        }
        m
    }

    /// Removes header `c` from the header list and every row crossing column `c` from the other
    /// columns. Returns the link updates made.
    #[inline]
    fn cover(&mut self, c: usize) -> u64 {
        let (l, r) = (self.left[c], self.right[c]);
        self.right[l as usize] = r;
        self.left[r as usize] = l;
        let mut updates = 1;
        let mut i = self.down[c] as usize;
        while i != c {
            let mut j = self.right[i] as usize;
            while j != i {
                let (u, d) = (self.up[j], self.down[j]);
                self.down[u as usize] = d;
                self.up[d as usize] = u;
                self.size[self.column[j] as usize] -= 1;
                updates += 1;
                j = self.right[j] as usize;
            }
            i = self.down[i] as usize;
        }
        updates
    }

    /// Exactly undoes [`Matrix::cover`] of `c` (in reverse order).
    #[inline]
    fn uncover(&mut self, c: usize) {
        let mut i = self.up[c] as usize;
        while i != c {
            let mut j = self.left[i] as usize;
            while j != i {
                self.size[self.column[j] as usize] += 1;
                let (u, d) = (self.up[j], self.down[j]);
                self.down[u as usize] = j as u16;
                self.up[d as usize] = j as u16;
                j = self.left[j] as usize;
            }
            i = self.up[i] as usize;
        }
        let (l, r) = (self.left[c], self.right[c]);
        self.right[l as usize] = c as u16;
        self.left[r as usize] = c as u16;
    }
}

thread_local! {
    static MATRIX: RefCell<Option<Box<Matrix>>> = const { RefCell::new(None) };
}

struct Search<'m, 'b> {
    m: &'m mut Matrix,
    tally: crate::Tally<'b>,
    updates: u64,
    /// Rows chosen by the search, by depth.
    chosen: [u16; 81],
    base: [u8; 81],
}

impl Search<'_, '_> {
    /// Algorithm X from the current matrix; true when the search must stop. Leaves the matrix as
    /// it found it.
    fn search(&mut self, depth: usize) -> bool {
        let m = &mut *self.m;
        if m.right[ROOT] as usize == ROOT {
            let (base, chosen) = (self.base, &self.chosen[..depth]);
            return self.tally.solution(|| {
                let mut cells = base;
                for &r in chosen {
                    cells[r as usize / 9] = (r % 9) as u8 + 1;
                }
                cells
            });
        }
        // S heuristic: the column with the fewest rows.
        let mut c = m.right[ROOT] as usize;
        let mut best = m.size[c];
        let mut j = m.right[c] as usize;
        while j != ROOT && best > 1 {
            if m.size[j] < best {
                best = m.size[j];
                c = j;
            }
            j = m.right[j] as usize;
        }
        if best == 0 {
            return false;
        }
        if best >= 2 {
            self.tally.stats.guesses += 1;
        }
        self.updates += m.cover(c);
        let mut stop = false;
        let mut r = self.m.down[c] as usize;
        while r != c {
            if self.tally.enter_node() {
                stop = true;
                break;
            }
            self.chosen[depth] = ((r - FIRST) / 4) as u16;
            let mut j = self.m.right[r] as usize;
            while j != r {
                let col = self.m.column[j] as usize;
                self.updates += self.m.cover(col);
                j = self.m.right[j] as usize;
            }
            stop = self.search(depth + 1);
            let mut j = self.m.left[r] as usize;
            while j != r {
                let col = self.m.column[j] as usize;
                self.m.uncover(col);
                j = self.m.left[j] as usize;
            }
            if stop {
                break;
            }
            self.tally.stats.backtracks += 1;
            r = self.m.down[r] as usize;
        }
        self.m.uncover(c);
        stop
    }
}

/// What a run found (its `stats.updates` is Knuth's update count, also in `updates`).
struct Run<'a> {
    tally: crate::Tally<'a>,
    updates: u64,
}

fn run<'a>(puzzle: &Grid, limit: u64, budget: &'a Budget) -> Run<'a> {
    MATRIX.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().map_or(true, |m| m.dirty) {
            *slot = Some(Matrix::new());
        }
        let m = slot.as_mut().expect("built above");
        m.dirty = true;
        let result = run_on(m, puzzle, limit, budget);
        m.dirty = false;
        result
    })
}

fn run_on<'a>(m: &mut Matrix, puzzle: &Grid, limit: u64, budget: &'a Budget) -> Run<'a> {
    let mut search = Search {
        m,
        tally: crate::Tally::new(limit, budget),
        updates: 0,
        chosen: [0; 81],
        base: *puzzle.cells(),
    };
    if !search.tally.out_of_budget {
        // Select the givens' rows; remember which, to undo them in reverse.
        let mut given_rows = [0u16; 81];
        let mut n = 0;
        let mut covered = [false; COLUMNS];
        let mut consistent = true;
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d == 0 {
                continue;
            }
            let r = cell * 9 + d as usize - 1;
            let cols = columns_of(r);
            if cols.iter().any(|&c| covered[c]) {
                consistent = false;
                break;
            }
            for &c in &cols {
                covered[c] = true;
                search.updates += search.m.cover(1 + c);
            }
            given_rows[n] = r as u16;
            n += 1;
        }
        if consistent {
            search.search(0);
        }
        for &r in given_rows[..n].iter().rev() {
            for &c in columns_of(r as usize).iter().rev() {
                search.m.uncover(1 + c);
            }
        }
    }
    let mut tally = search.tally;
    tally.stats.updates = search.updates;
    Run {
        tally,
        updates: search.updates,
    }
}

/// Solves like [`Dlx`] and also returns Knuth's update count: nodes removed from a column list
/// by `cover` (givens' rows included), the measure of work in Knuth's paper.
pub fn solve_with_updates(puzzle: &Grid, budget: &Budget) -> (Outcome, u64) {
    let r = run(puzzle, 1, budget);
    (r.tally.outcome(), r.updates)
}

impl Solver for Dlx {
    fn name(&self) -> &'static str {
        "dlx"
    }

    fn solve(&self, puzzle: &Grid, budget: &Budget) -> Outcome {
        run(puzzle, 1, budget).tally.outcome()
    }

    fn count(&self, puzzle: &Grid, limit: u64, budget: &Budget) -> Option<Count> {
        let r = run(puzzle, limit, budget);
        Some(r.tally.count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Status;

    use crate::test_puzzles::{SEED, SEED_SOLUTION};

    fn pristine(m: &Matrix) -> bool {
        let fresh = Matrix::new();
        m.left == fresh.left
            && m.right == fresh.right
            && m.up == fresh.up
            && m.down == fresh.down
            && m.size == fresh.size
    }

    #[test]
    fn matrix_shape() {
        let m = Matrix::new();
        assert_eq!(NODES, 3241);
        for h in 1..FIRST {
            assert_eq!(m.size[h], 9, "every constraint has 9 candidate rows");
        }
    }

    #[test]
    fn solves_seed_and_restores_the_matrix() {
        let g: Grid = SEED.parse().unwrap();
        let (out, updates) = solve_with_updates(&g, &Budget::unlimited());
        assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
        assert!(updates > 0);
        // Stopped early by a node budget, then by the solution limit: matrix restored each time.
        let hard: Grid =
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
                .parse()
                .unwrap();
        let out = Dlx.solve(&hard, &Budget::unlimited().max_nodes(Some(10)));
        assert_eq!(out.status, Status::Timeout);
        MATRIX.with(|m| assert!(pristine(m.borrow().as_ref().unwrap())));
        let c = Dlx.count(&Grid::EMPTY, 3, &Budget::unlimited()).unwrap();
        assert_eq!((c.solutions, c.complete), (3, true));
        MATRIX.with(|m| assert!(pristine(m.borrow().as_ref().unwrap())));
        assert_eq!(Dlx.count(&g, 2, &Budget::unlimited()).unwrap().solutions, 1);
    }

    /// Without a backtrack every row leaves the matrix exactly once (3 of its 4 nodes removed by
    /// the cover of its first column covered) and every header once: 324 + 3 x 729 = 2,511.
    #[test]
    fn a_solve_without_backtrack_makes_2511_link_updates() {
        let hard: Grid =
            "...6...3.5.....6...9...5.....4.1...6...4.3...8...9.5.....7...4...5.....8.3...8..."
                .parse()
                .unwrap();
        let (out, updates) = solve_with_updates(&hard, &Budget::unlimited());
        assert_eq!((out.status, out.stats.backtracks), (Status::Solved, 0));
        assert_eq!(updates, 324 + 3 * 729);
        // The same figure reaches the shared counters (results.csv's `updates` column).
        assert_eq!(
            Dlx.solve(&hard, &Budget::unlimited()).stats.updates,
            updates
        );
    }

    #[test]
    fn repeated_given_is_no_solution() {
        let g = Grid::parse_line(&format!("1.......1{}", ".".repeat(72))).unwrap();
        assert_eq!(
            Dlx.solve(&g, &Budget::unlimited()).status,
            Status::NoSolution
        );
        MATRIX.with(|m| assert!(pristine(m.borrow().as_ref().unwrap())));
    }
}
