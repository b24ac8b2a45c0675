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
//! Grids of any other [`Shape`](crate::Shape) (side N, boxes of any size or a Latin square) take
//! a matrix sized for them, N³ rows (see `Wide` below): [`Solver::solve`] and
//! [`Solver::count`] send 9x9 here and every other shape there.
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
use crate::search::Tally;
use crate::{Board, Budget, Count, Grid, Outcome, Shape, Solver, Stats, Symbol};

/// Knuth's dancing-links solver. Keeps its matrix from one solve to the next; counts solutions.
#[derive(Default)]
pub struct Dlx {
    /// Allocated on the first solve.
    matrix: Option<Box<Matrix>>,
    /// The matrix of the other shapes, rebuilt in place for each puzzle.
    wide: Wide,
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
    tally: Tally<'b>,
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
    tally: Tally<'a>,
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
        (r.tally.outcome(Shape::CLASSIC), r.updates)
    }
}

fn run_on<'a>(m: &mut Matrix, puzzle: &Grid, limit: u64, budget: &'a Budget) -> Run<'a> {
    let mut search = Search {
        m,
        tally: Tally::new(limit, budget),
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
    fn caps(&self) -> Caps {
        Caps::UP_TO_128
    }

    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Option<Outcome> {
        Some(self.count(puzzle, 1, budget)?.outcome())
    }

    /// 9x9 on the fixed-size matrix above; every other shape on the matrix of its own shape
    /// (`Wide`).
    fn count(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Option<Count> {
        Some(match puzzle.to_grid() {
            Some(grid) => self.run(&grid, limit, budget).tally.count(Shape::CLASSIC),
            None => self.wide.run(puzzle, limit, budget),
        })
    }
}

/// The exact-cover matrix of a grid of any [`Shape`](crate::Shape) and Algorithm X over it: what
/// [`Solver::solve`] and [`Solver::count`] run for every shape but 9x9 (which takes
/// the fixed-size matrix above).
///
/// Columns: one per cell (`0..N²`), then one per unit and symbol, `N² + N·u + s - 1` for unit
/// `u` of [`Units`](crate::Units) (rows, columns, then boxes when the shape has them):
/// `(k + 1)·N²` columns, k = 2 for a Latin square and 3 with boxes. Rows: one per (cell,
/// symbol), N³, each with `k + 1` nodes. As for 9x9, the matrix is built with the givens' rows
/// already chosen (the open columns only, the rows that agree with the givens), and the search
/// is Knuth's Algorithm X with the S heuristic (a column with the fewest rows; the first in list
/// order on ties, stopping the scan at a column with at most one row). The search is iterative
/// (an explicit stack of chosen rows), so a 128x128 grid's 16,384 levels need no deep call
/// stack.
///
/// Memory: 3 `u32` per node (up, down, column) and one per row, `O(N³)`: under 1 MB for an
/// empty 25x25 grid, about 85 MB for an empty 128x128 Latin square (givens remove their rows
/// before the matrix is built). The counters mean what they mean on 9x9 (module docs); the
/// givens' link updates are counted as `k + 1` per given and `k` per row they remove.
#[derive(Default)]
struct Wide {
    /// Per node: the node above, below, and its column's header. Node 0 is the root, nodes
    /// `1..=columns` the headers, then the rows' nodes, `k + 1` consecutive nodes per row.
    up: Vec<u32>,
    down: Vec<u32>,
    column: Vec<u32>,
    /// Per header (and the root, 0): its neighbours in the list of open columns, its row count.
    left: Vec<u32>,
    right: Vec<u32>,
    size: Vec<u32>,
    /// Per row of the matrix, in node order: `cell * N + symbol - 1`.
    row_of: Vec<u32>,
    /// Nodes per row, `k + 1`.
    width: usize,
    /// The first row node.
    first: usize,
}

impl Wide {
    /// Builds the matrix of `puzzle`; the link updates covering the givens would make on the
    /// full matrix, or `None` when two givens share a unit and symbol (no solution).
    fn load(&mut self, puzzle: &Board) -> Option<u64> {
        let shape = puzzle.shape();
        let n = shape.side();
        let units = shape.units();
        let k = shape.units_per_cell();
        let columns = (k + 1) * n * n;
        // used[u * N + s - 1]: symbol s is given in unit u.
        let mut used = vec![false; k * n * n];
        let mut givens = 0u64;
        for (cell, &s) in puzzle.cells().iter().enumerate() {
            if s != 0 {
                for &u in units.of_cell(cell) {
                    let slot = &mut used[u as usize * n + s as usize - 1];
                    if *slot {
                        return None;
                    }
                    *slot = true;
                }
                givens += 1;
            }
        }
        for v in [
            &mut self.up,
            &mut self.down,
            &mut self.column,
            &mut self.left,
            &mut self.right,
            &mut self.size,
            &mut self.row_of,
        ] {
            v.clear();
        }
        self.width = k + 1;
        self.first = 1 + columns;
        // The root and every header (closed ones stay out of the list, with no rows).
        for h in 0..=columns {
            self.up.push(h as u32);
            self.down.push(h as u32);
            self.column.push(h as u32);
            self.left.push(0);
            self.right.push(0);
            self.size.push(0);
        }
        let mut last = 0usize;
        let open = |c: usize| {
            if c < n * n {
                puzzle.get(c) == 0
            } else {
                !used[c - n * n]
            }
        };
        for c in (0..columns).filter(|&c| open(c)) {
            let h = 1 + c;
            self.left[h] = last as u32;
            self.right[last] = h as u32;
            last = h;
        }
        self.right[last] = 0;
        self.left[0] = last as u32;
        // The rows that agree with the givens, appended at the bottom of their columns.
        let mut live = 0u64;
        let mut cols = Vec::with_capacity(k + 1);
        for cell in (0..n * n).filter(|&c| puzzle.get(c) == 0) {
            for s in 0..n {
                let of = units.of_cell(cell);
                if of.iter().any(|&u| used[u as usize * n + s]) {
                    continue;
                }
                live += 1;
                cols.clear();
                cols.push(cell);
                cols.extend(of.iter().map(|&u| n * n + u as usize * n + s));
                self.row_of.push((cell * n + s) as u32);
                for &c in &cols {
                    let (i, h) = (self.up.len(), 1 + c);
                    let bottom = self.up[h] as usize;
                    self.up.push(bottom as u32);
                    self.down.push(h as u32);
                    self.column.push(h as u32);
                    self.down[bottom] = i as u32;
                    self.up[h] = i as u32;
                    self.size[h] += 1;
                }
            }
        }
        let rows = (n * n * n) as u64;
        Some((k as u64 + 1) * givens + k as u64 * (rows - live))
    }

    /// The nodes of the row holding node `i`, other than `i`, in row order after `i`
    /// (wrapping): `(start, offset of i, width)`; the `j`-th other node (1..width) is
    /// `start + (offset + j) % width`.
    #[inline]
    fn row(&self, i: usize) -> (usize, usize, usize) {
        let w = self.width;
        let off = (i - self.first) % w;
        (i - off, off, w)
    }

    /// Removes header `c` from the header list and every row crossing its column from the other
    /// columns; the link updates made.
    fn cover(&mut self, c: usize) -> u64 {
        let (l, r) = (self.left[c] as usize, self.right[c] as usize);
        self.right[l] = r as u32;
        self.left[r] = l as u32;
        let mut updates = 1;
        let mut i = self.down[c] as usize;
        while i != c {
            let (start, off, w) = self.row(i);
            for j in (1..w).map(|j| start + (off + j) % w) {
                let (u, d) = (self.up[j] as usize, self.down[j] as usize);
                self.down[u] = d as u32;
                self.up[d] = u as u32;
                self.size[self.column[j] as usize] -= 1;
                updates += 1;
            }
            i = self.down[i] as usize;
        }
        updates
    }

    /// Exactly undoes [`Wide::cover`] of `c`.
    fn uncover(&mut self, c: usize) {
        let mut i = self.up[c] as usize;
        while i != c {
            let (start, off, w) = self.row(i);
            for j in (1..w).rev().map(|j| start + (off + j) % w) {
                let (u, d) = (self.up[j] as usize, self.down[j] as usize);
                self.size[self.column[j] as usize] += 1;
                self.down[u] = j as u32;
                self.up[d] = j as u32;
            }
            i = self.up[i] as usize;
        }
        let (l, r) = (self.left[c] as usize, self.right[c] as usize);
        self.right[l] = c as u32;
        self.left[r] = c as u32;
    }

    /// An open column with the fewest rows (the first on ties; the scan stops at one with at
    /// most one row).
    fn choose(&self) -> usize {
        let mut c = self.right[0] as usize;
        let mut best = self.size[c];
        let mut j = self.right[c] as usize;
        while j != 0 && best > 1 {
            if self.size[j] < best {
                best = self.size[j];
                c = j;
            }
            j = self.right[j] as usize;
        }
        c
    }

    /// Algorithm X on `puzzle` until `limit` solutions (at least 1) or the budget: the count,
    /// the first solution and the counters.
    fn run(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Count {
        let limit = limit.max(1);
        let mut stats = Stats {
            nodes: 1,
            ..Stats::default()
        };
        let mut found = 0u64;
        let mut first: Option<Board> = None;
        let mut out_of_budget = budget.exhausted(0);
        if !out_of_budget {
            if let Some(updates) = self.load(puzzle) {
                stats.updates = updates;
                let n = puzzle.shape().side();
                // Per level: the column chosen and the row being tried (the header itself before
                // the first row).
                let mut stack: Vec<(usize, usize)> = Vec::new();
                let mut descend = true;
                loop {
                    if descend {
                        descend = false;
                        if self.right[0] == 0 {
                            found += 1;
                            if first.is_none() {
                                let mut cells = puzzle.cells().to_vec();
                                for &(_, r) in &stack {
                                    let row = self.row_of[(r - self.first) / self.width] as usize;
                                    cells[row / n] = (row % n) as Symbol + 1;
                                }
                                first = Board::new(puzzle.shape(), cells).ok();
                            }
                            if found >= limit {
                                break;
                            }
                        } else {
                            let c = self.choose();
                            if self.size[c] > 0 {
                                if self.size[c] >= 2 {
                                    stats.guesses += 1;
                                }
                                stats.updates += self.cover(c);
                                stack.push((c, c));
                            }
                        }
                    }
                    // Move the deepest level to its next row, uncovering the one it tried.
                    let Some(&(c, r)) = stack.last() else { break };
                    if r != c {
                        let (start, off, w) = self.row(r);
                        for j in (1..w).rev().map(|j| start + (off + j) % w) {
                            self.uncover(self.column[j] as usize);
                        }
                        stats.backtracks += 1;
                    }
                    let next = self.down[r] as usize;
                    if next == c {
                        stack.pop();
                        self.uncover(c);
                        continue;
                    }
                    stats.nodes += 1;
                    if budget.check(stats.nodes) {
                        out_of_budget = true;
                        break;
                    }
                    if let Some(top) = stack.last_mut() {
                        top.1 = next;
                    }
                    let (start, off, w) = self.row(next);
                    for j in (1..w).map(|j| start + (off + j) % w) {
                        stats.updates += self.cover(self.column[j] as usize);
                    }
                    descend = true;
                }
            }
        }
        Count {
            solutions: found,
            complete: !out_of_budget,
            first,
            stats,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_puzzles::OnGrid;
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
        assert_eq!(out.grid().unwrap().to_digits(), SEED_SOLUTION);
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
        let out = run_on(&mut m, &hard, 1, &budget)
            .tally
            .outcome(Shape::CLASSIC);
        assert_eq!(out.status, Status::Timeout);
        assert_eq!(shape(&mut m), before);
        let mut m = Matrix::new();
        m.load(&Grid::EMPTY).unwrap();
        let before = shape(&mut m);
        let c = run_on(&mut m, &Grid::EMPTY, 3, &Budget::unlimited())
            .tally
            .count(Shape::CLASSIC);
        assert_eq!((c.solutions, c.complete), (3, true));
        assert_eq!(shape(&mut m), before);
        assert_eq!(
            Dlx::default()
                .count_grid(&g, 2, &Budget::unlimited())
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
                .solve_grid(&hard, &Budget::unlimited())
                .stats
                .updates,
            updates
        );
    }

    #[test]
    fn repeated_given_is_no_solution() {
        let g = Grid::parse_line(&format!("1.......1{}", ".".repeat(72))).unwrap();
        assert_eq!(
            Dlx::default().solve_grid(&g, &Budget::unlimited()).status,
            Status::NoSolution
        );
        // The next puzzle on this thread is unaffected.
        let s: Grid = SEED.parse().unwrap();
        let out = Dlx::default().solve_grid(&s, &Budget::unlimited());
        assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
    }

    /// Grids counted by hand or in the literature: 288 Sudoku grids of 4x4, 576 Latin squares
    /// of order 4, 12 of order 3, 1 of 1x1; the matrix is rebuilt from one puzzle to the next.
    #[test]
    fn every_shape_counts_known_numbers_of_grids() {
        crate::search::test_boards::counts_empty_grids(
            &mut Dlx::default(),
            &[
                (crate::Shape::of_order(2).unwrap(), 288),
                (crate::Shape::latin(4).unwrap(), 576),
                (crate::Shape::latin(3).unwrap(), 12),
                (crate::Shape::of_order(1).unwrap(), 1),
            ],
        );
    }

    /// The matrix of every shape solves 9x9 too, with the same solution, and stops on a node
    /// budget.
    #[test]
    fn every_shape_matrix_on_9x9() {
        let g: Grid = SEED.parse().unwrap();
        let c = Wide::default().run(&Board::from_grid(&g), 2, &Budget::unlimited());
        assert_eq!(c.solutions, 1);
        assert_eq!(
            c.first.unwrap().to_grid().unwrap().to_digits(),
            SEED_SOLUTION
        );
        let empty = Board::empty(crate::Shape::of_order(4).unwrap());
        let budget = Budget::unlimited().max_nodes(Some(10));
        let c = Wide::default().run(&empty, 1, &budget);
        assert!(!c.complete && c.first.is_none());
        // A repeated given: no solution, no search.
        let bad = crate::search::test_boards::with_givens(
            crate::Shape::latin(5).unwrap(),
            &[(0, 2), (4, 2)],
        );
        let out = Dlx::default().solve(&bad, &Budget::unlimited()).unwrap();
        assert_eq!(out.status, Status::NoSolution);
    }
}
