//! Domain-consistent all-different over a square value graph, with explanations: the
//! propagator `cp` and `lcg` share.
//!
//! A unit of a grid of side N holds N cells and N symbols, so its all-different constraint is a
//! bipartite graph between N *rows* and N *columns* (cells and symbols, or symbols and cells:
//! the graph is symmetric) in which every row must be matched. Row `r`'s domain is a bit set of
//! columns (`u128`: N <= 128).
//!
//! ## Filtering (Régin, AAAI 1994)
//! A maximum matching is kept from one call to the next ([`Matching`]): a call first drops the
//! matched edges that left their domains, then re-matches each free row by one augmenting path
//! (breadth-first, over bit sets: O(N²/64) words a path). When a row cannot be matched, the rows
//! the search reached form a *Hall violator* — `k` rows whose domains hold only `k - 1` columns
//! — and the constraint fails with it. With a perfect matching, an edge `(r, c)` outside it
//! belongs to some perfect matching exactly when `r` and the row matched to `c` lie in one
//! strongly connected component of the graph "row `r` → row matched to a column of `r`'s
//! domain" (the value graph with each row merged into its matched column: no column is free
//! here, so Régin's alternating paths from free columns do not arise). The components come from
//! Tarjan's algorithm (SIAM J. Comput. 1972) over the bit sets, O(N²) at worst; the edges
//! between components are the prunings. The matching is never undone on backtracking: the
//! domains only grow back, so it stays a matching of them.
//!
//! ## Explanations (Katsirelos & Bacchus 2005; Downing, Feydy & Stuckey, ACSC 2012)
//! Tarjan's algorithm closes components sinks first, so each component's *reach* (the rows its
//! rows reach, itself included) is known when it closes: it is a Hall set `H` — its rows'
//! domains hold only the columns `C(H)` matched to them, `|C(H)| = |H|`. An edge `(r, c)` with
//! `c` in `C(H)` and `r` outside `H` is pruned, and its reason is the clause
//! `¬(r, c) ∨ ⋁ { (h, c') : h ∈ H, c' ∉ C(H) }`: every row of `H` kept out of every other
//! column. The reach of the component of `c`'s row is the smallest Hall set that explains the
//! pruning from the matching at hand. A failure's reason is the Hall violator: the clause
//! `⋁ { (h, c') : h ∈ H, c' ∉ N(H) }`.

/// No row or column.
const NONE: u8 = u8::MAX;

/// A matching of the rows of one all-different constraint to its columns, kept across calls.
#[derive(Debug, Clone)]
pub(crate) struct Matching {
    /// Each row's column, or `NONE`.
    row: Vec<u8>,
    /// Each column's row, or `NONE`.
    col: Vec<u8>,
}

impl Matching {
    /// The empty matching of `n` rows and `n` columns.
    pub(crate) fn new(n: usize) -> Matching {
        Matching {
            row: vec![NONE; n],
            col: vec![NONE; n],
        }
    }

    /// The row matched to column `c` (valid after a successful [`Filter::run`]).
    #[inline]
    pub(crate) fn row_of(&self, c: usize) -> usize {
        self.col[c] as usize
    }
}

/// A set of rows whose domains hold fewer columns than rows: the constraint cannot hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Violator {
    /// The rows `H`.
    pub(crate) rows: u128,
    /// The union of their domains `N(H)`, `|N(H)| < |H|`.
    pub(crate) cols: u128,
}

/// The scratch space of one filtering and its result: the strongly connected components of the
/// last successful [`Filter::run`], numbered in the order Tarjan's algorithm closes them (sinks
/// first).
#[derive(Debug, Default)]
pub(crate) struct Filter {
    /// Per row: its component.
    pub(crate) comp: Vec<u8>,
    /// Per component: the columns matched to its rows (the columns its rows may keep).
    pub(crate) comp_cols: Vec<u128>,
    /// Per component: its rows.
    pub(crate) comp_rows: Vec<u128>,
    /// Per component: the rows it reaches, its own included (a Hall set), after
    /// [`Filter::hall_sets`].
    pub(crate) reach: Vec<u128>,
    /// Per component: the columns of `reach`.
    pub(crate) reach_cols: Vec<u128>,
    index: Vec<u8>,
    low: Vec<u8>,
    stack: Vec<u8>,
    call: Vec<(u8, u128)>,
    parent: Vec<u8>,
    queue: Vec<u8>,
}

impl Filter {
    /// Matches every row of `dom` (`n` rows, each a set of columns `0..n`), repairing `m`, and
    /// finds the components. `Err` with a Hall violator when some row cannot be matched. After
    /// `Ok`, row `r` may keep exactly the columns `self.comp_cols[self.comp[r]]` of its domain.
    /// O(N²) bit operations at worst.
    pub(crate) fn run(&mut self, m: &mut Matching, dom: &[u128]) -> Result<(), Violator> {
        let n = dom.len();
        debug_assert!(n <= 128 && m.row.len() == n);
        let mut free_cols: u128 = 0;
        for (r, &d) in dom.iter().enumerate() {
            let c = m.row[r];
            if c != NONE && d & (1u128 << c) == 0 {
                m.row[r] = NONE;
                m.col[c as usize] = NONE;
            }
        }
        for c in 0..n {
            if m.col[c] == NONE {
                free_cols |= 1u128 << c;
            }
        }
        for r in 0..n {
            if m.row[r] != NONE {
                continue;
            }
            let easy = dom[r] & free_cols;
            if easy != 0 {
                let c = easy.trailing_zeros() as usize;
                m.row[r] = c as u8;
                m.col[c] = r as u8;
                free_cols &= !(1u128 << c);
                continue;
            }
            let c = self.augment(m, dom, r, free_cols)?;
            free_cols &= !(1u128 << c);
        }
        self.components(m, dom);
        Ok(())
    }

    /// After a successful [`Filter::run`] on the same `m` and `dom`: each component's reach
    /// (`reach`, `reach_cols`), a Hall set. Components close sinks first, so every component a
    /// component reaches comes before it. O(N²) bit operations at worst.
    pub(crate) fn hall_sets(&mut self, m: &Matching, dom: &[u128]) {
        self.reach.clear();
        self.reach_cols.clear();
        for k in 0..self.comp_cols.len() {
            let (rows, cols) = (self.comp_rows[k], self.comp_cols[k]);
            let mut out = 0u128;
            let mut left = rows;
            while left != 0 {
                out |= dom[left.trailing_zeros() as usize];
                left &= left - 1;
            }
            let (mut reach, mut reach_cols) = (rows, cols);
            let mut other = out & !cols;
            while other != 0 {
                let c = other.trailing_zeros() as usize;
                let j = self.comp[m.col[c] as usize] as usize;
                reach |= self.reach[j];
                reach_cols |= self.reach_cols[j];
                other &= !self.reach_cols[j];
            }
            self.reach.push(reach);
            self.reach_cols.push(reach_cols);
        }
    }

    /// One augmenting path from the free row `r0`, breadth-first; the free column it ends at,
    /// or the Hall violator of the rows it reached.
    fn augment(
        &mut self,
        m: &mut Matching,
        dom: &[u128],
        r0: usize,
        free_cols: u128,
    ) -> Result<usize, Violator> {
        let n = dom.len();
        self.parent.clear();
        self.parent.resize(n, NONE);
        self.queue.clear();
        self.queue.push(r0 as u8);
        let mut seen_cols: u128 = 0;
        let mut seen_rows: u128 = 1u128 << r0;
        let mut head = 0;
        while head < self.queue.len() {
            let r = self.queue[head] as usize;
            head += 1;
            let mut new = dom[r] & !seen_cols;
            seen_cols |= new;
            while new != 0 {
                let c = new.trailing_zeros() as usize;
                new &= new - 1;
                self.parent[c] = r as u8;
                if free_cols & (1u128 << c) != 0 {
                    // Flip the path back to r0.
                    let end = c;
                    let mut c = c;
                    loop {
                        let r = self.parent[c] as usize;
                        let next = m.row[r];
                        m.row[r] = c as u8;
                        m.col[c] = r as u8;
                        if r == r0 {
                            return Ok(end);
                        }
                        c = next as usize;
                    }
                }
                let w = m.col[c];
                seen_rows |= 1u128 << w;
                self.queue.push(w);
            }
        }
        Err(Violator {
            rows: seen_rows,
            cols: seen_cols,
        })
    }

    /// Tarjan's strongly connected components of the rows under `m` (perfect).
    fn components(&mut self, m: &Matching, dom: &[u128]) {
        let n = dom.len();
        self.comp.clear();
        self.comp.resize(n, NONE);
        self.comp_cols.clear();
        self.comp_rows.clear();
        self.index.clear();
        self.index.resize(n, NONE);
        self.low.clear();
        self.low.resize(n, 0);
        self.stack.clear();
        let mut on_stack: u128 = 0;
        let mut counter: u8 = 0;
        let succ = |r: usize| dom[r] & !(1u128 << m.row[r]);
        for root in 0..n {
            if self.index[root] != NONE {
                continue;
            }
            self.index[root] = counter;
            self.low[root] = counter;
            counter = counter.wrapping_add(1);
            self.stack.push(root as u8);
            on_stack |= 1u128 << root;
            self.call.clear();
            self.call.push((root as u8, succ(root)));
            while let Some(top) = self.call.last_mut() {
                let r = top.0 as usize;
                if top.1 != 0 {
                    let c = top.1.trailing_zeros() as usize;
                    top.1 &= top.1 - 1;
                    let w = m.col[c] as usize;
                    if self.index[w] == NONE {
                        self.index[w] = counter;
                        self.low[w] = counter;
                        counter = counter.wrapping_add(1);
                        self.stack.push(w as u8);
                        on_stack |= 1u128 << w;
                        self.call.push((w as u8, succ(w)));
                    } else if on_stack & (1u128 << w) != 0 {
                        self.low[r] = self.low[r].min(self.index[w]);
                    }
                    continue;
                }
                self.call.pop();
                if let Some(&(p, _)) = self.call.last() {
                    let p = p as usize;
                    self.low[p] = self.low[p].min(self.low[r]);
                }
                if self.low[r] == self.index[r] {
                    let k = self.comp_cols.len() as u8;
                    let (mut rows, mut cols) = (0u128, 0u128);
                    loop {
                        let w = self.stack.pop().expect("r is on the stack") as usize;
                        on_stack &= !(1u128 << w);
                        self.comp[w] = k;
                        rows |= 1u128 << w;
                        cols |= 1u128 << m.row[w];
                        if w == r {
                            break;
                        }
                    }
                    self.comp_cols.push(cols);
                    self.comp_rows.push(rows);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(bits: &[usize]) -> u128 {
        bits.iter().fold(0, |m, &b| m | 1 << b)
    }

    /// Brute force: the edges of `dom` that lie in some perfect matching.
    fn supported(dom: &[u128]) -> Vec<u128> {
        let n = dom.len();
        let mut out = vec![0u128; n];
        let mut perm: Vec<usize> = (0..n).collect();
        fn rec(k: usize, perm: &mut Vec<usize>, dom: &[u128], out: &mut Vec<u128>) {
            if k == perm.len() {
                for (r, &c) in perm.iter().enumerate() {
                    out[r] |= 1 << c;
                }
                return;
            }
            for i in k..perm.len() {
                perm.swap(k, i);
                if dom[k] & (1 << perm[k]) != 0 {
                    rec(k + 1, perm, dom, out);
                }
                perm.swap(k, i);
            }
        }
        rec(0, &mut perm, dom, &mut out);
        out
    }

    /// Rows 0 and 1 hold only columns {0, 1}: a Hall set of two. Row 2 loses 0 and 1 (it keeps
    /// 2, 3), row 3 loses 1 (it keeps 2, 3); the reason of each pruning is rows {0, 1} kept out
    /// of columns {2, 3}.
    #[test]
    fn a_hand_checked_hall_set() {
        let dom = [
            set(&[0, 1]),
            set(&[0, 1]),
            set(&[0, 1, 2, 3]),
            set(&[1, 2, 3]),
        ];
        let mut m = Matching::new(4);
        let mut f = Filter::default();
        f.run(&mut m, &dom).unwrap();
        f.hall_sets(&m, &dom);
        let kept: Vec<u128> = (0..4)
            .map(|r| dom[r] & f.comp_cols[f.comp[r] as usize])
            .collect();
        assert_eq!(
            kept,
            [set(&[0, 1]), set(&[0, 1]), set(&[2, 3]), set(&[2, 3])]
        );
        // The component of rows {0, 1} is a sink: its reach is itself, columns {0, 1}.
        let k = f.comp[0] as usize;
        assert_eq!(f.comp[1] as usize, k);
        assert_eq!((f.reach[k], f.reach_cols[k]), (set(&[0, 1]), set(&[0, 1])));
        // Rows {2, 3} reach {0, 1}: their reach is every row.
        let j = f.comp[2] as usize;
        assert_eq!(f.reach[j], set(&[0, 1, 2, 3]));
    }

    /// Three rows over two columns: the violator is those three rows and the two columns.
    #[test]
    fn a_hand_checked_violator() {
        let dom = [set(&[0, 1]), set(&[0, 1]), set(&[0, 1, 2, 3]), set(&[0, 1])];
        let mut m = Matching::new(4);
        let got = Filter::default().run(&mut m, &dom).unwrap_err();
        assert_eq!(got.cols, set(&[0, 1]));
        assert_eq!(got.rows & set(&[0, 1, 3]), set(&[0, 1, 3]));
        assert!(got.rows.count_ones() > got.cols.count_ones());
    }

    /// On random domains the filter keeps exactly the edges of some perfect matching, and
    /// fails exactly when there is none, with a true violator; the matching carries over from
    /// one call to the next as domains shrink.
    #[test]
    fn agrees_with_brute_force() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut f = Filter::default();
        for _ in 0..3000 {
            let n = 1 + (next() % 7) as usize;
            let mut m = Matching::new(n);
            let mut dom: Vec<u128> = (0..n)
                .map(|_| (next() as u128 | next() as u128) & ((1 << n) - 1))
                .collect();
            for _ in 0..3 {
                let want = supported(&dom);
                match f.run(&mut m, &dom) {
                    Ok(()) => {
                        f.hall_sets(&m, &dom);
                        for r in 0..n {
                            let kept = dom[r] & f.comp_cols[f.comp[r] as usize];
                            assert_eq!(kept, want[r], "{dom:?}");
                            // Each reach is a Hall set closed under the domains.
                            let k = f.comp[r] as usize;
                            let mut cols = 0;
                            let mut rows = f.reach[k];
                            while rows != 0 {
                                cols |= dom[rows.trailing_zeros() as usize];
                                rows &= rows - 1;
                            }
                            assert_eq!(cols, f.reach_cols[k]);
                            assert_eq!(f.reach[k].count_ones(), cols.count_ones());
                        }
                    }
                    Err(v) => {
                        assert!(want.iter().all(|&w| w == 0), "{dom:?}");
                        let mut cols = 0;
                        let mut rows = v.rows;
                        while rows != 0 {
                            cols |= dom[rows.trailing_zeros() as usize];
                            rows &= rows - 1;
                        }
                        assert_eq!(cols, v.cols);
                        assert!(v.rows.count_ones() > v.cols.count_ones());
                    }
                }
                let r = (next() % n as u64) as usize;
                dom[r] &= !(1 << (next() % n as u64));
            }
        }
    }
}
