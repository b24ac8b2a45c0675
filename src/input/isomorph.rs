//! Isomorph transforms of a grid and the minlex canonical form.
//!
//! A [`Transform`] is one element of the Sudoku symmetry group that keeps every puzzle valid:
//! digits relabelled, rows permuted within their band, bands permuted, columns permuted within
//! their stack, stacks permuted, and the grid optionally transposed (9! x 6^8 x 2 elements). It
//! maps a puzzle with `n` solutions to a puzzle with `n` solutions, the same difficulty for a human
//! and another search order for a solver. [`Transform::random`] draws one from a ChaCha8 stream
//! keyed by a seed, the puzzle's index and the copy number, so the same arguments give the same
//! transform on any machine and thread count.
//!
//! [`minlex`] is the canonical form of a puzzle up to these transforms: the lexicographically
//! smallest 81-cell string (empty = 0) over every geometric transform and digit relabelling, the
//! form the Sudoku community uses to name puzzles up to isomorphism. Two puzzles are isomorphic
//! exactly when their minlex forms are equal.

use crate::generate::rng::{Purpose, Rng};
use solvers::Grid;

/// One isomorph transform. Applying it to a grid `g` gives `out[r][c] = digits[g[R][C]]` where
/// `(R, C) = (rows[r], cols[c])`, or `(cols[c], rows[r])` when `transpose` is set (cells 0-based,
/// digits 1-9, 0 = empty stays empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transform {
    /// `digits[d - 1]` is the new label (1-9) of digit `d`.
    pub digits: [u8; 9],
    /// Source line (0-8) of each target row, bands and rows within bands kept together.
    pub rows: [u8; 9],
    /// Source line (0-8) of each target column, stacks and columns within stacks kept together.
    pub cols: [u8; 9],
    /// Whether rows and columns are swapped.
    pub transpose: bool,
}

/// A random order of the 9 lines that keeps bands (or stacks) together.
fn lines(rng: &mut Rng) -> [u8; 9] {
    let mut outer = [0u8, 1, 2];
    rng.shuffle(&mut outer);
    let mut out = [0u8; 9];
    for (b, &ob) in outer.iter().enumerate() {
        let mut inner = [0u8, 1, 2];
        rng.shuffle(&mut inner);
        for (k, &ik) in inner.iter().enumerate() {
            out[b * 3 + k] = ob * 3 + ik;
        }
    }
    out
}

impl Transform {
    /// The transform that changes nothing.
    pub fn identity() -> Transform {
        let id: [u8; 9] = std::array::from_fn(|i| i as u8);
        Transform {
            digits: std::array::from_fn(|i| i as u8 + 1),
            rows: id,
            cols: id,
            transpose: false,
        }
    }

    /// The transform of copy `copy` of puzzle `index` (0-based, over the run) under `seed`: a
    /// uniform draw from the group, from its own ChaCha8 stream (see [`crate::generate::rng`]).
    pub fn random(seed: u64, index: u64, copy: u32) -> Transform {
        let mut rng = Rng::new(seed, Purpose::Isomorph, copy, index);
        let mut digits: [u8; 9] = std::array::from_fn(|i| i as u8 + 1);
        rng.shuffle(&mut digits);
        let rows = lines(&mut rng);
        let cols = lines(&mut rng);
        let transpose = rng.below(2) == 1;
        Transform {
            digits,
            rows,
            cols,
            transpose,
        }
    }

    /// The source cell of target cell `i`.
    fn source(&self, i: usize) -> usize {
        let (r, c) = (i / 9, i % 9);
        let (sr, sc) = if self.transpose {
            (self.cols[c], self.rows[r])
        } else {
            (self.rows[r], self.cols[c])
        };
        sr as usize * 9 + sc as usize
    }

    /// The transformed grid (81 cells, 0 = empty).
    pub fn apply(&self, cells: &[u8; 81]) -> [u8; 81] {
        std::array::from_fn(|i| match cells[self.source(i)] {
            0 => 0,
            d => self.digits[(d - 1) as usize],
        })
    }

    /// [`Transform::apply`] on a grid: a transform only moves cells and relabels digits, so the
    /// result is a grid again.
    pub fn apply_grid(&self, grid: &Grid) -> Grid {
        Grid::from_cells(self.apply(grid.cells())).unwrap_or(*grid)
    }

    /// The inverse of [`Transform::apply`]: maps a grid of the transformed puzzle (its
    /// solution, say) back onto the original's cells and digits.
    pub fn invert(&self, cells: &[u8; 81]) -> [u8; 81] {
        let mut back = [0u8; 10];
        for (d, &to) in self.digits.iter().enumerate() {
            back[to as usize] = d as u8 + 1;
        }
        let mut out = [0u8; 81];
        for (i, &v) in cells.iter().enumerate() {
            out[self.source(i)] = back[v.min(9) as usize];
        }
        out
    }

    /// A compact, readable spelling for results.csv: `d=DIGITS r=ROWS c=COLS t=0|1`, where
    /// `DIGITS` are the new labels of 1..9 and `ROWS`/`COLS` the 1-based source line of each
    /// target line; `d=123456789 r=123456789 c=123456789 t=0` is the identity.
    pub fn code(&self) -> String {
        let s = |v: &[u8; 9], add: u8| -> String {
            v.iter().map(|&x| (b'0' + x + add) as char).collect()
        };
        format!(
            "d={} r={} c={} t={}",
            s(&self.digits, 0),
            s(&self.rows, 1),
            s(&self.cols, 1),
            u8::from(self.transpose)
        )
    }
}

/// The column (or, transposed, row) orders of the group: 6 stack orders x 6^3 orders within
/// stacks = 1,296.
fn line_orders() -> Vec<[u8; 9]> {
    const P3: [[usize; 3]; 6] = solvers::PERMUTATIONS3;
    let mut out = Vec::with_capacity(1296);
    for outer in P3 {
        for a in P3 {
            for b in P3 {
                for c in P3 {
                    let inner = [a, b, c];
                    let mut o = [0u8; 9];
                    for k in 0..3 {
                        for j in 0..3 {
                            o[k * 3 + j] = (outer[k] * 3 + inner[k][j]) as u8;
                        }
                    }
                    out.push(o);
                }
            }
        }
    }
    out
}

/// State of the row search of [`minlex`] for one column order.
struct RowSearch<'a> {
    /// The grid with its columns already permuted (and transposed if so).
    g: [u8; 81],
    /// The smallest form found so far (rows below `valid` are `u8::MAX`-filled until written).
    best: &'a mut [u8; 81],
}

impl RowSearch<'_> {
    /// Places target row `k` (0-8): tries each allowed source row, relabelling digits by first
    /// appearance; prunes a row that is larger than the best one's row `k`.
    fn place(&mut self, k: usize, used_bands: u8, band: usize, used_rows: u8, labels: [u8; 10]) {
        if k == 9 {
            return;
        }
        let candidates: Vec<usize> = if k % 3 == 0 {
            (0..3)
                .filter(|b| used_bands & (1 << b) == 0)
                .flat_map(|b| b * 3..b * 3 + 3)
                .collect()
        } else {
            (band * 3..band * 3 + 3)
                .filter(|r| used_rows & (1 << (r % 3)) == 0)
                .collect()
        };
        for src in candidates {
            let mut lab = labels;
            let mut next = lab.iter().filter(|&&x| x != 0).count() as u8;
            let mut row = [0u8; 9];
            for (cell, &v) in row.iter_mut().zip(&self.g[src * 9..src * 9 + 9]) {
                let d = v as usize;
                if d != 0 {
                    if lab[d] == 0 {
                        next += 1;
                        lab[d] = next;
                    }
                    *cell = lab[d];
                }
            }
            let cur = &mut self.best[k * 9..k * 9 + 9];
            match row.as_slice().cmp(cur) {
                std::cmp::Ordering::Greater => continue,
                std::cmp::Ordering::Less => {
                    cur.copy_from_slice(&row);
                    for v in &mut self.best[k * 9 + 9..] {
                        *v = u8::MAX;
                    }
                }
                std::cmp::Ordering::Equal => {}
            }
            let b = src / 3;
            let (ub, ur) = if k % 3 == 0 {
                (used_bands | 1 << b, 1u8 << (src % 3))
            } else {
                (used_bands, used_rows | 1 << (src % 3))
            };
            self.place(k + 1, ub, b, ur, lab);
        }
    }
}

/// The minlex form of a grid (81 cells, 0 = empty): the smallest row-major string, empties as 0,
/// over all 3,359,232 geometric transforms, each with its digits relabelled 1, 2, 3... in order
/// of first appearance (the smallest relabelling for that geometry). Exact; a branch-and-bound
/// over rows prunes every partial arrangement already larger than the best one, so a puzzle
/// takes about a millisecond.
pub fn minlex(cells: &[u8; 81]) -> [u8; 81] {
    let orders = line_orders();
    let arranged = |transpose: bool, cols: &[u8; 9]| -> [u8; 81] {
        std::array::from_fn(|i| {
            let (r, c) = (i / 9, cols[i % 9] as usize);
            if transpose {
                cells[c * 9 + r]
            } else {
                cells[r * 9 + c]
            }
        })
    };
    // The first row alone: the smallest any row takes under any column order. Only the column
    // orders that reach it can start the smallest form.
    let relabelled = |row: &[u8]| -> [u8; 9] {
        let mut lab = [0u8; 10];
        let mut next = 0;
        let mut out = [0u8; 9];
        for (o, &d) in out.iter_mut().zip(row) {
            if d != 0 {
                if lab[d as usize] == 0 {
                    next += 1;
                    lab[d as usize] = next;
                }
                *o = lab[d as usize];
            }
        }
        out
    };
    let mut first = [u8::MAX; 9];
    let mut starts = Vec::new();
    for transpose in [false, true] {
        for cols in &orders {
            let g = arranged(transpose, cols);
            let row_min = (0..9).map(|r| relabelled(&g[r * 9..r * 9 + 9])).min();
            if let Some(m) = row_min {
                if m < first {
                    first = m;
                    starts.clear();
                }
                if m == first {
                    starts.push(g);
                }
            }
        }
    }
    let mut best = [u8::MAX; 81];
    best[..9].copy_from_slice(&first);
    for g in starts {
        let mut search = RowSearch { g, best: &mut best };
        search.place(0, 0, 0, 0, [0; 10]);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    use solvers::known_puzzles::{TOP95_FIRST as P, TOP95_FIRST_SOLUTION as SOL};

    fn cells(s: &str) -> [u8; 81] {
        std::array::from_fn(|i| {
            s.as_bytes()[i]
                .checked_sub(b'0')
                .filter(|&d| d <= 9)
                .unwrap_or(0)
        })
    }

    #[test]
    fn transforms_keep_validity_and_invert() {
        let (p, s) = (cells(P), cells(SOL));
        for copy in 0..20 {
            let t = Transform::random(7, 3, copy);
            let (tp, ts) = (t.apply(&p), t.apply(&s));
            assert!(crate::verify::check(&tp, &ts, None).is_ok(), "{}", t.code());
            assert_eq!(t.invert(&ts), s);
            assert_eq!(t.invert(&tp), p);
        }
        assert_eq!(Transform::identity().apply(&p), p);
        assert_eq!(
            Transform::identity().code(),
            "d=123456789 r=123456789 c=123456789 t=0"
        );
        assert_eq!(Transform::random(1, 2, 3), Transform::random(1, 2, 3));
        assert_ne!(Transform::random(1, 2, 3), Transform::random(1, 2, 4));
    }

    #[test]
    fn minlex_is_the_same_for_isomorphs_and_differs_otherwise() {
        let p = cells(P);
        let m = minlex(&p);
        // Minlex starts with as many empty cells as a row can have, then 1, 2, ...
        assert!(m.iter().all(|&v| v <= 9));
        assert_eq!(m.iter().filter(|&&v| v != 0).count(), 17);
        for copy in 0..6 {
            let t = Transform::random(99, 0, copy);
            assert_eq!(minlex(&t.apply(&p)), m);
        }
        // One given moved: another puzzle, another form.
        let mut q = p;
        q.swap(0, 1);
        assert_ne!(minlex(&q), m);
        // A fully symmetric case worked by hand: a single given is minlexed to r9c9 = 1.
        let mut one = [0u8; 81];
        one[40] = 7;
        let mut expect = [0u8; 81];
        expect[80] = 1;
        assert_eq!(minlex(&one), expect);
    }
}
