//! `dlx`: Knuth's Algorithm X over the Sudoku exact-cover matrix, with dancing links.
//!
//! Source: D. E. Knuth, "Dancing Links", in *Millennial Perspectives in Computer Science* (2000),
//! arXiv cs/0011047. Written here from the paper; no crate.
//!
//! ## The matrix
//! 729 rows, one per (cell, digit), and 324 columns, one per constraint:
//! `cell` (0..81: the cell is filled), `81 + 9 * row + d` (digit in row), `162 + 9 * column + d`
//! (digit in column), `243 + 9 * box + d` (digit in box), `d` = digit - 1. Each row holds exactly
//! 4 nodes, so the matrix has 1 root + 324 column headers + 2,916 nodes = 3,241 nodes.
//!
//! Layout: every node's vertical links and column header are one 8-byte entry ([`Node`]), every
//! header's horizontal links and row count another ([`Head`]), so that a link update touches one
//! cache line. A row's four nodes are consecutive and start at a multiple of 4, so its other nodes
//! are `i ^ 1`, `i ^ 2`, `i ^ 3`: the left/right links of row nodes, which Algorithm X never
//! changes, are not stored. Indices are `u16`, masked to a power-of-two table size so that no
//! access needs a bounds check.
//!
//! ## The search
//! The puzzle's matrix is built directly: the headers of the columns the givens leave open, and
//! the rows that agree with the givens, in the order the full matrix would list them after
//! covering the givens' rows (that is what it is; a given whose cell or digit is taken twice
//! means no solution). Then Algorithm X: if no column is left, the rows chosen form a solution;
//! else choose a column with the fewest rows (Knuth's S heuristic), cover it, and try each of its
//! rows in turn: cover the row's other columns, recurse, uncover them.
//!
//! Which column, among those with the fewest rows: the covers of the last row chosen report the
//! column they left with the fewest rows (the "hint", lowest index on ties; the columns being
//! covered do not count). A hint with at most one row is taken at once (a forced row, or a dead
//! end found without a scan); otherwise the header list is scanned for a column with *fewer* rows
//! than the hint, stopping at one with at most one row, and the hint is kept on ties. This is the
//! rule of Attractive Chaos's `sudoku_v1` (kudoku, after Stertenbrink's suexco): breaking ties by
//! a column the last choice touched, rather than by the first column of the list, made the trees
//! 16% (forum hardest) to 26% (top1465) smaller on the public sets, and it saves most scans.
//!
//! ## No allocation per puzzle
//! Each [`Dlx`] instance (one per thread: the harness opens one session per thread) keeps its
//! matrix, allocated on its first solve and rebuilt in place for each puzzle; the search uncovers
//! everything it covered on the way out, even when it stops early (solution limit or budget).
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
//!   headers included, and the givens' covers included as if they were made on the full matrix:
//!   one per header the givens close and 3 per row they remove. A solve without backtrack makes
//!   exactly 324 + 3 x 729 = 2,511 (every header and every row leave once); each backtracked
//!   subtree adds its own. The count goes into [`Stats::updates`](crate::Stats::updates) (the
//!   `updates` column of `results.csv`); [`Dlx::solve_with_updates`] also returns it beside the
//!   outcome, and `cargo run --release -p solvers --example dlx_updates -- FILE` prints it per
//!   puzzle.

use crate::engine::Caps;
use crate::{Budget, Count, Grid, Outcome, Solver};

/// Knuth's dancing-links solver. Keeps its matrix from one solve to the next; counts solutions.
#[derive(Default)]
pub struct Dlx {
    /// Allocated on the first solve.
    matrix: Option<Box<Matrix>>,
}

const COLUMNS: usize = 324;
const ROWS: usize = 729;
const ROOT: usize = 0;
/// Index of the first row node: the root and the 324 headers take `0..=324`, and the rows start
/// at the next multiple of 4, so that the four nodes of a row differ only in their two low bits.
const FIRST: usize = 328;
/// Node slots (3,244 used), a power of two so that a masked index needs no bounds check.
const NODES: usize = 4096;
/// Header slots (325 used), likewise.
const HEADS: usize = 512;
/// Set in the row count of a column while it is covered by the row being tried (from just before
/// its cover to its uncover): its decrements then never make it the hint.
const MARK: u16 = 0x8000;

const _: () = assert!(COLUMNS < FIRST && FIRST % 4 == 0 && FIRST + 4 * ROWS <= NODES);
const _: () = assert!(COLUMNS < HEADS);

/// The four columns (0..324) of row `r = cell * 9 + digit - 1`.
#[cfg(test)]
fn columns_of(r: usize) -> [usize; 4] {
    let (cell, d) = (r / 9, r % 9);
    let (row, col) = (cell / 9, cell % 9);
    let b = (row / 3) * 3 + col / 3;
    [cell, 81 + 9 * row + d, 162 + 9 * col + d, 243 + 9 * b + d]
}

/// The vertical links of a node (header or row node) and, for a row node, the header of its
/// column.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
#[repr(C, align(8))]
struct Node {
    up: u16,
    down: u16,
    column: u16,
}

/// A header (or the root): its neighbours in the list of open columns and its column's row count
/// (with [`MARK`] while covered by the row being tried; `u16::MAX` for the root and unused slots,
/// which are never the hint).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(8))]
struct Head {
    left: u16,
    right: u16,
    size: u16,
}

/// The toroidal doubly linked matrix. Header of column `c` is node `1 + c`; row `r`'s nodes are
/// `FIRST + 4 * r + k`, `k` in the order of [`columns_of`].
struct Matrix {
    node: [Node; NODES],
    head: [Head; HEADS],
}

impl Matrix {
    fn new() -> Box<Matrix> {
        Box::new(Matrix {
            node: [Node::default(); NODES],
            head: [Head {
                left: 0,
                right: 0,
                size: u16::MAX,
            }; HEADS],
        })
    }

    #[inline(always)]
    fn n(&mut self, i: usize) -> &mut Node {
        &mut self.node[i & (NODES - 1)]
    }

    #[inline(always)]
    fn h(&mut self, c: usize) -> &mut Head {
        &mut self.head[c & (HEADS - 1)]
    }

    /// Sets the matrix to the full one with the givens' rows selected: the open columns' headers
    /// in index order, and in each open column the rows that agree with the givens, in row
    /// order. Returns the link updates covering the givens on the full matrix would make, or
    /// `None` when two givens share a constraint (no solution).
    fn load(&mut self, puzzle: &Grid) -> Option<u64> {
        // Digits taken in each row, column and box (bit d - 1), as the givens close the
        // constraint columns `81 + 9 * row + d`, `162 + 9 * col + d`, `243 + 9 * box + d`.
        let mut used = [[0u16; 9]; 3];
        let mut givens = 0u64;
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d != 0 {
                let bit = 1 << (d - 1);
                let units = [cell / 9, cell % 9, crate::bits::BOX_OF[cell]];
                for (kind, &u) in units.iter().enumerate() {
                    if used[kind][u] & bit != 0 {
                        return None;
                    }
                    used[kind][u] |= bit;
                }
                givens += 1;
            }
        }
        // Headers of the open columns, in one circular list with the root.
        let mut last = ROOT;
        let mut link = |m: &mut Matrix, c: usize| {
            let h = 1 + c;
            *m.n(h) = Node {
                up: h as u16,
                down: h as u16,
                column: h as u16,
            };
            *m.h(h) = Head {
                left: last as u16,
                right: ROOT as u16,
                size: 0,
            };
            m.h(last).right = h as u16;
            last = h;
        };
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d == 0 {
                link(self, cell);
            }
        }
        for (kind, units) in used.iter().enumerate() {
            for (u, &taken) in units.iter().enumerate() {
                for d in 0..9 {
                    if taken & 1 << d == 0 {
                        link(self, 81 * (kind + 1) + 9 * u + d);
                    }
                }
            }
        }
        self.h(ROOT).left = last as u16;
        if last == ROOT {
            self.h(ROOT).right = ROOT as u16;
        }
        // The rows that agree with the givens (empty cell, digit free in its three units), in
        // row order, appended at the bottom of their columns.
        let mut live = 0u64;
        for cell in (0..81).filter(|&c| puzzle.cells()[c] == 0) {
            let (row, col, b) = (cell / 9, cell % 9, crate::bits::BOX_OF[cell]);
            let mut free = !(used[0][row] | used[1][col] | used[2][b]) & crate::bits::ALL;
            while free != 0 {
                let d = free.trailing_zeros() as usize;
                free &= free - 1;
                let r = cell * 9 + d;
                live += 1;
                let columns = [cell, 81 + 9 * row + d, 162 + 9 * col + d, 243 + 9 * b + d];
                for (k, c) in columns.into_iter().enumerate() {
                    let (i, h) = (FIRST + 4 * r + k, 1 + c);
                    let bottom = self.n(h).up as usize;
                    *self.n(i) = Node {
                        up: bottom as u16,
                        down: h as u16,
                        column: h as u16,
                    };
                    self.n(bottom).down = i as u16;
                    self.n(h).up = i as u16;
                    self.h(h).size += 1;
                }
            }
        }
        Some(4 * givens + 3 * (ROWS as u64 - live))
    }

    /// Removes header `c` from the header list and every row crossing column `c` from the other
    /// columns. Returns the link updates made and the hint: the column it left with the fewest
    /// rows, as `rows << 16 | header` (lowest wins; marked columns count as very large).
    #[inline(always)]
    fn cover(&mut self, c: usize) -> (u64, u32) {
        let Head { left, right, .. } = *self.h(c);
        self.h(left as usize).right = right;
        self.h(right as usize).left = left;
        let mut updates = 1;
        let mut hint = u32::MAX;
        let mut i = self.n(c).down as usize;
        while i != c {
            for k in 1..4 {
                let Node { up, down, column } = *self.n(i ^ k);
                self.n(up as usize).down = down;
                self.n(down as usize).up = up;
                let head = self.h(column as usize);
                head.size -= 1;
                hint = hint.min((head.size as u32) << 16 | column as u32);
            }
            updates += 3;
            i = self.n(i).down as usize;
        }
        (updates, hint)
    }

    /// Exactly undoes [`Matrix::cover`] of `c` (in reverse order), and clears its [`MARK`].
    #[inline(always)]
    fn uncover(&mut self, c: usize) {
        let mut i = self.n(c).up as usize;
        while i != c {
            for k in (1..4).rev() {
                let j = i ^ k;
                let Node { up, down, column } = *self.n(j);
                self.h(column as usize).size += 1;
                self.n(up as usize).down = j as u16;
                self.n(down as usize).up = j as u16;
            }
            i = self.n(i).up as usize;
        }
        let head = self.h(c);
        head.size &= !MARK;
        let Head { left, right, .. } = *head;
        self.h(left as usize).right = c as u16;
        self.h(right as usize).left = c as u16;
    }
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
    /// Algorithm X from the current matrix, `hint` being the column the last covers left with
    /// the fewest rows; true when the search must stop. Leaves the matrix as it found it.
    fn search(&mut self, depth: usize, hint: usize) -> bool {
        let m = &mut *self.m;
        if m.h(ROOT).right as usize == ROOT {
            let (base, chosen) = (self.base, &self.chosen[..depth]);
            return self.tally.solution(|| {
                let mut cells = base;
                for &r in chosen {
                    cells[r as usize / 9] = (r % 9) as u8 + 1;
                }
                cells
            });
        }
        // S heuristic: a column with the fewest rows; the hint wins ties.
        let hinted = m.h(hint).size;
        let (mut c, mut best, mut j) = if hinted <= 1 {
            (hint, hinted, ROOT)
        } else if hinted < MARK {
            (hint, hinted, m.h(ROOT).right as usize)
        } else {
            let c = m.h(ROOT).right as usize;
            (c, m.h(c).size, m.h(c).right as usize)
        };
        while j != ROOT && best > 1 {
            let h = *m.h(j);
            if h.size < best {
                best = h.size;
                c = j;
            }
            j = h.right as usize;
        }
        if best == 0 {
            return false;
        }
        if best >= 2 {
            self.tally.stats.guesses += 1;
        }
        self.updates += m.cover(c).0;
        let mut stop = false;
        let mut r = m.n(c).down as usize;
        while r != c {
            if self.tally.enter_node() {
                stop = true;
                break;
            }
            self.chosen[depth] = ((r - FIRST) / 4) as u16;
            let m = &mut *self.m;
            for k in 1..4 {
                let col = m.n(r ^ k).column as usize;
                m.h(col).size |= MARK;
            }
            let mut hint = u32::MAX;
            for k in 1..4 {
                let col = m.n(r ^ k).column as usize;
                let (updates, h) = m.cover(col);
                self.updates += updates;
                hint = hint.min(h);
            }
            stop = self.search(depth + 1, (hint & 0xffff) as usize);
            let m = &mut *self.m;
            for k in (1..4).rev() {
                let col = m.n(r ^ k).column as usize;
                m.uncover(col);
            }
            if stop {
                break;
            }
            self.tally.stats.backtracks += 1;
            r = m.n(r).down as usize;
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

impl Dlx {
    fn run<'a>(&mut self, puzzle: &Grid, limit: u64, budget: &'a Budget) -> Run<'a> {
        let m = self.matrix.get_or_insert_with(Matrix::new);
        run_on(m, puzzle, limit, budget)
    }

    /// Solves and also returns Knuth's update count: nodes removed from a column list by `cover`
    /// (givens' rows included), the measure of work in Knuth's paper.
    pub fn solve_with_updates(&mut self, puzzle: &Grid, budget: &Budget) -> (Outcome, u64) {
        let r = self.run(puzzle, 1, budget);
        (r.tally.outcome(), r.updates)
    }
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
        if let Some(updates) = search.m.load(puzzle) {
            search.updates = updates;
            search.search(0, ROOT);
        }
    }
    let mut tally = search.tally;
    tally.stats.updates = search.updates;
    Run {
        tally,
        updates: search.updates,
    }
}

impl Solver for Dlx {
    fn name(&self) -> &'static str {
        "dlx"
    }

    fn caps(&self) -> Caps {
        Caps::POLLED_SEARCH
    }

    fn solve(&mut self, puzzle: &Grid, budget: &Budget) -> Outcome {
        self.run(puzzle, 1, budget).tally.outcome()
    }

    fn count(&mut self, puzzle: &Grid, limit: u64, budget: &Budget) -> Option<Count> {
        let r = self.run(puzzle, limit, budget);
        Some(r.tally.count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Status;

    use crate::test_puzzles::{SEED, SEED_SOLUTION};

    /// The open columns in list order, with their rows (top to bottom) and row counts.
    fn shape(m: &mut Matrix) -> Vec<(usize, u16, Vec<usize>)> {
        let mut out = Vec::new();
        let mut c = m.h(ROOT).right as usize;
        while c != ROOT {
            let mut rows = Vec::new();
            let mut i = m.n(c).down as usize;
            while i != c {
                assert_eq!(
                    m.n(i).column as usize,
                    c,
                    "node {i} is in the list of header {c}"
                );
                let below = m.n(i).down as usize;
                assert_eq!(m.n(below).up as usize, i, "links of node {i}");
                rows.push((i - FIRST) / 4);
                i = m.n(i).down as usize;
            }
            let next = m.h(c).right as usize;
            assert_eq!(m.h(next).left as usize, c, "links of header {c}");
            out.push((c, m.h(c).size, rows));
            c = m.h(c).right as usize;
        }
        out
    }

    /// Loading a puzzle gives the matrix Knuth's method gives: the full matrix with the givens'
    /// columns covered, same list orders, same row counts, same link update count.
    #[test]
    fn load_equals_covering_the_givens() {
        let g: Grid = SEED.parse().unwrap();
        let mut loaded = Matrix::new();
        let updates = loaded.load(&g).unwrap();
        let mut covered = Matrix::new();
        covered.load(&Grid::EMPTY).unwrap();
        let mut expected = 0;
        for (cell, &d) in g.cells().iter().enumerate() {
            if d != 0 {
                for c in columns_of(cell * 9 + d as usize - 1) {
                    expected += covered.cover(1 + c).0;
                }
            }
        }
        assert_eq!(shape(&mut loaded), shape(&mut covered));
        assert_eq!(updates, expected);
        assert_eq!(shape(&mut covered).len(), COLUMNS - 4 * 22);
    }

    #[test]
    fn matrix_shape() {
        let mut m = Matrix::new();
        assert_eq!(m.load(&Grid::EMPTY), Some(0));
        assert_eq!(1 + COLUMNS + 4 * ROWS, 3241);
        let s = shape(&mut m);
        assert_eq!(s.len(), COLUMNS);
        for (_, size, rows) in s {
            assert_eq!(
                (size, rows.len()),
                (9, 9),
                "every constraint has 9 candidate rows"
            );
        }
    }

    #[test]
    fn solves_seed_and_restores_the_matrix() {
        let g: Grid = SEED.parse().unwrap();
        let (out, updates) = Dlx::default().solve_with_updates(&g, &Budget::unlimited());
        assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
        assert!(updates > 0);
        // Stopped early by a node budget, then by the solution limit: the search uncovers
        // everything it covered.
        let hard: Grid =
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
                .parse()
                .unwrap();
        let mut m = Matrix::new();
        m.load(&hard).unwrap();
        let before = shape(&mut m);
        let budget = Budget::unlimited().max_nodes(Some(10));
        let out = run_on(&mut m, &hard, 1, &budget).tally.outcome();
        assert_eq!(out.status, Status::Timeout);
        assert_eq!(shape(&mut m), before);
        let mut m = Matrix::new();
        m.load(&Grid::EMPTY).unwrap();
        let before = shape(&mut m);
        let c = run_on(&mut m, &Grid::EMPTY, 3, &Budget::unlimited())
            .tally
            .count();
        assert_eq!((c.solutions, c.complete), (3, true));
        assert_eq!(shape(&mut m), before);
        assert_eq!(
            Dlx::default()
                .count(&g, 2, &Budget::unlimited())
                .unwrap()
                .solutions,
            1
        );
    }

    /// Without a backtrack every row leaves the matrix exactly once (3 of its 4 nodes removed by
    /// the cover of its first column covered) and every header once: 324 + 3 x 729 = 2,511.
    #[test]
    fn a_solve_without_backtrack_makes_2511_link_updates() {
        let hard: Grid =
            "...6...3.5.....6...9...5.....4.1...6...4.3...8...9.5.....7...4...5.....8.3...8..."
                .parse()
                .unwrap();
        let (out, updates) = Dlx::default().solve_with_updates(&hard, &Budget::unlimited());
        assert_eq!((out.status, out.stats.backtracks), (Status::Solved, 0));
        assert_eq!(updates, 324 + 3 * 729);
        // The same figure reaches the shared counters (results.csv's `updates` column).
        assert_eq!(
            Dlx::default()
                .solve(&hard, &Budget::unlimited())
                .stats
                .updates,
            updates
        );
    }

    #[test]
    fn repeated_given_is_no_solution() {
        let g = Grid::parse_line(&format!("1.......1{}", ".".repeat(72))).unwrap();
        assert_eq!(
            Dlx::default().solve(&g, &Budget::unlimited()).status,
            Status::NoSolution
        );
        // The next puzzle on this thread is unaffected.
        let s: Grid = SEED.parse().unwrap();
        let out = Dlx::default().solve(&s, &Budget::unlimited());
        assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
    }
}
