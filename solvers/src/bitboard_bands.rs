//! `bitboard-bands`: the speed champion. A band-oriented bitboard solver in the JCZSolve family
//! (Zhou Yundong's JSolve, J. C. Zhou's JCZSolve, the `fsss2` solver of Mladen Dobrichev): the
//! candidates of each digit are kept as three 27-bit words, one per band (three rows of nine
//! cells), so a whole band of one digit is updated with a few word operations.
//!
//! ## Layout
//! `cand[b * 9 + d]` holds, for digit `d + 1` (0-based `d`) and band `b` (rows `3b..3b+3`), bit
//! `r * 9 + c` for the cell in row `3b + r`, column `c` when the digit is still possible there (a
//! placed digit keeps its bit). `unsolved[b]` holds the band's cells not yet placed. The whole
//! state is 57 words (228 bytes), copied at every branch, so undoing a guess is free and nothing
//! is allocated per puzzle.
//!
//! ## Propagation (to a fixpoint after the givens and after every guess)
//! 1. **Band pass** (per digit x band word that changed since it was last seen): the word is
//!    shrunk to its 3 x 3 mini-row occupancy (rows of the band x boxes of the band). Within a band
//!    a digit occupies exactly one mini-row per row and one per box, i.e. a permutation of the
//!    3 x 3 matrix; a 512-entry table keeps the mini-rows that lie on some permutation inside the
//!    occupancy. This is locked candidates both ways (pointing along rows, claiming from rows)
//!    plus a little more, for the price of three table look-ups; an empty table entry is a
//!    contradiction. Rows and boxes of the band left with one cell give **hidden singles**.
//! 2. **Stack pass** (per digit): the same permutation table on the mini-columns of each stack
//!    (bands x the stack's columns): locked candidates along columns, and **hidden singles** in
//!    columns.
//! 3. **Cell pass** (per band): bit-parallel counting over the nine digit words (one, two, three
//!    or more candidates per cell with OR/AND accumulators) finds every **naked single** and
//!    every empty cell (a contradiction) of the band at once.
//!
//! Placing a digit clears its cell from the other eight digits, its row and box peers from its own
//! band word and its column from the other two bands of the digit.
//!
//! ## Search
//! When nothing more follows, the solver branches on the first cell with exactly two candidates
//! (bi-value cells, found by the same accumulators, come first because one of the two branches is
//! usually short), else on the first cell with three or more; digits in
//! increasing order. `count` runs the very same search and simply goes on after a solution, so
//! counting up to 2 costs one search (used by generators' uniqueness checks).
//!
//! Counters: the root is one node; each digit tried at a branch point enters one more node (so
//! every branch point is a guess); each digit placed by a rule (hidden single in a row, box or
//! column, naked single) is a propagation; givens are not counted. The budget is polled at every
//! node.
//!
//! Sources: the band-word layout and the mini-row permutation idea follow the published
//! descriptions of JCZSolve and fsss2 (Enjoy Sudoku Players Forum, "Fastest sudoku solver?"
//! thread) and t-dillon's tdoku write-up ("A fast Sudoku solver", 2019); the code is our own.

use crate::{Budget, Count, Grid, Outcome, Solver, Stats};

/// The band-oriented bitboard solver. Stateless; counts solutions.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitboardBands;

const STACK_PASS: bool = true;

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// For a 9-bit value (one row of a band), which of its three mini-rows (boxes) are non-empty.
const SHRINK: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        let mut m = 0u8;
        if v & 0o7 != 0 {
            m |= 1;
        }
        if v & 0o70 != 0 {
            m |= 2;
        }
        if v & 0o700 != 0 {
            m |= 4;
        }
        t[v] = m;
        v += 1;
    }
    t
};

/// For a 3 x 3 occupancy matrix (bit `i * 3 + j`), the entries that lie on a permutation (one
/// entry per row and per column) contained in the matrix; 0 when there is none.
const PERM_KEEP: [u16; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut keep = 0u16;
        let mut p = 0;
        while p < 6 {
            let bits =
                (1u16 << PERMS[p][0]) | (1u16 << (3 + PERMS[p][1])) | (1u16 << (6 + PERMS[p][2]));
            if bits & (m as u16) == bits {
                keep |= bits;
            }
            p += 1;
        }
        t[m] = keep;
        m += 1;
    }
    t
};

/// `PERM_KEEP` of a band's mini-row occupancy, expanded to the 27-bit mask of cells to keep.
const BAND_KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let keep = PERM_KEEP[m];
        let mut mask = 0u32;
        let mut k = 0;
        while k < 9 {
            if keep & (1 << k) != 0 {
                mask |= 0o7 << ((k / 3) * 9 + (k % 3) * 3);
            }
            k += 1;
        }
        t[m] = mask;
        m += 1;
    }
    t
};

/// A 9-bit set of columns expanded to the 27-bit mask of those columns in a band.
const COLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let c = v as u32;
        t[v] = c | (c << 9) | (c << 18);
        v += 1;
    }
    t
};

/// For each bit of a band word, its row and box peers in the band (the cell itself excluded).
const PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, c) = (p / 9, p % 9);
        let row = 0x1ffu32 << (r * 9);
        let bx = 0o7007007u32 << ((c / 3) * 3);
        t[p] = (row | bx) & !(1 << p);
        p += 1;
    }
    t
};

/// The three boxes of a band as 27-bit masks.
const BOXES: [u32; 3] = [0o7007007, 0o70070070, 0o700700700];

/// One search node's state: candidate words and unsolved cells (see the module docs).
#[derive(Clone, Copy)]
struct State {
    cand: [u32; 27],
    /// Each word as the band pass last saw it.
    seen: [u32; 27],
    /// Each word as the stack pass last saw it.
    stack_seen: [u32; 27],
    unsolved: [u32; 3],
    /// Words (bit `b * 9 + d`) the band pass must look at.
    dirty: u32,
}

/// Where to branch: band, cell bit, digit set (bit `d` = digit `d + 1`).
struct Branch {
    band: usize,
    bit: u32,
    digits: u16,
}

/// What propagation ended in.
enum Fixpoint {
    Contradiction,
    Solved,
    Branch(Branch),
}

impl State {
    fn new() -> State {
        State {
            cand: [BAND; 27],
            seen: [0; 27],
            stack_seen: [0; 27],
            unsolved: [BAND; 3],
            dirty: (1 << 27) - 1,
        }
    }

    /// Places digit `d` (0-based) on the cell `bit` of band `b`. The caller has checked that the
    /// digit is still a candidate there.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, bit: u32) {
        self.place_set(d, b, bit, &mut 0);
    }

    /// Places digit `d` on the cells `cells` of band `b` at once: cells that are unsolved, allow
    /// the digit, and share no row, column or box (the band pass's hidden singles). Counts each
    /// as one propagation in `props`.
    #[inline(always)]
    fn place_set(&mut self, d: usize, b: usize, cells: u32, props: &mut u64) {
        let not = !cells;
        // The nine digit words of the band are contiguous: clear the cells from all, and mark
        // dirty the ones that held them.
        let mut dirty = clear_band(&mut self.cand, b, cells);
        let mut peers = 0u32;
        let mut cols = 0usize;
        let mut rest = cells;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            peers |= PEERS[p];
            cols |= 1 << (p % 9);
            *props += 1;
        }
        let i = b * 9 + d;
        self.cand[i] = (self.cand[i] & !peers) | cells;
        dirty <<= b * 9;
        dirty |= 1 << i;
        let col = COLS[cols];
        let (b1, b2) = OTHER_BANDS[b];
        let (x1, x2) = (self.cand[b1 * 9 + d], self.cand[b2 * 9 + d]);
        dirty |= ((x1 & col != 0) as u32) << (b1 * 9 + d);
        dirty |= ((x2 & col != 0) as u32) << (b2 * 9 + d);
        self.cand[b1 * 9 + d] = x1 & !col;
        self.cand[b2 * 9 + d] = x2 & !col;
        self.unsolved[b] &= not;
        self.dirty |= dirty;
    }

    /// Places digit `d` on every cell of `cells` (band `b`) that is unsolved and still allows it;
    /// counts each as a propagation. False on a contradiction found on the way.
    #[inline(always)]
    fn place_all(&mut self, d: usize, b: usize, mut cells: u32, props: &mut u64) {
        while cells != 0 {
            let bit = cells & cells.wrapping_neg();
            cells ^= bit;
            if self.cand[b * 9 + d] & self.unsolved[b] & bit != 0 {
                self.place(d, b, bit);
                *props += 1;
            }
        }
    }

    /// The band pass over every changed digit x band word, until none changes. False on a
    /// contradiction.
    #[inline(always)]
    fn band_pass(&mut self, props: &mut u64) -> bool {
        while self.dirty != 0 {
            let i = self.dirty.trailing_zeros() as usize;
            self.dirty &= self.dirty - 1;
            {
                let mut w = self.cand[i];
                if w == self.seen[i] {
                    continue;
                }
                let occ = SHRINK[(w & 0x1ff) as usize] as usize
                    | (SHRINK[((w >> 9) & 0x1ff) as usize] as usize) << 3
                    | (SHRINK[(w >> 18) as usize] as usize) << 6;
                w &= BAND_KEEP[occ];
                if w == 0 {
                    return false;
                }
                self.cand[i] = w;
                self.seen[i] = w;
                let b = i / 9;
                let u = self.unsolved[b];
                if w & u == 0 {
                    continue;
                }
                // Hidden singles: rows and boxes of the band with one cell left.
                // (A unit is never empty here: the permutation mask left one cell per row and box.)
                #[inline(always)]
                fn one(x: u32) -> u32 {
                    x & ((x & x.wrapping_sub(1) == 0) as u32).wrapping_neg()
                }
                let mut singles = one(w & 0x1ff) | one(w & (0x1ff << 9)) | one(w & (0x1ff << 18));
                singles |= one(w & BOXES[0]) | one(w & BOXES[1]) | one(w & BOXES[2]);
                singles &= u;
                if singles != 0 {
                    self.place_set(i % 9, b, singles, props);
                }
            }
        }
        true
    }

    /// The stack pass for every digit: mini-column permutations and hidden singles in columns.
    /// Returns `None` on a contradiction, else whether anything changed.
    #[inline(always)]
    fn stack_pass(&mut self, props: &mut u64) -> Option<bool> {
        let mut changed = false;
        for d in 0..9 {
            let w = [self.cand[d], self.cand[9 + d], self.cand[18 + d]];
            if w[0] == self.stack_seen[d]
                && w[1] == self.stack_seen[9 + d]
                && w[2] == self.stack_seen[18 + d]
            {
                continue;
            }
            // Columns occupied in each band, and columns with two or more cells in a band.
            let mut any = [0u32; 3];
            let mut many = 0u32;
            for b in 0..3 {
                let (x, y, z) = (w[b] & 0x1ff, (w[b] >> 9) & 0x1ff, w[b] >> 18);
                any[b] = x | y | z;
                many |= (x & y) | (x & z) | (y & z);
            }
            // Mini-column permutations per stack.
            let mut keep = [0u32; 3];
            for s in 0..3 {
                let sh = s * 3;
                let occ =
                    ((any[0] >> sh) & 7) | ((any[1] >> sh) & 7) << 3 | ((any[2] >> sh) & 7) << 6;
                let k = PERM_KEEP[occ as usize] as u32;
                if k == 0 {
                    return None;
                }
                keep[0] |= (k & 7) << sh;
                keep[1] |= ((k >> 3) & 7) << sh;
                keep[2] |= ((k >> 6) & 7) << sh;
            }
            for b in 0..3 {
                let nw = w[b] & COLS[keep[b] as usize];
                self.stack_seen[b * 9 + d] = nw;
                if nw != w[b] {
                    self.cand[b * 9 + d] = nw;
                    self.dirty |= 1 << (b * 9 + d);
                    changed = true;
                }
            }
            // Hidden singles in columns: exactly one band holds the column, with one cell.
            let once = (any[0] & keep[0]) ^ (any[1] & keep[1]) ^ (any[2] & keep[2]);
            let two_bands = (any[0] & any[1] & keep[0] & keep[1])
                | (any[0] & any[2] & keep[0] & keep[2])
                | (any[1] & any[2] & keep[1] & keep[2]);
            let single_cols = once & !two_bands & !many;
            if single_cols != 0 {
                for b in 0..3 {
                    let cells = self.cand[b * 9 + d]
                        & COLS[(single_cols & any[b]) as usize]
                        & self.unsolved[b];
                    if cells != 0 {
                        self.place_all(d, b, cells, props);
                        changed = true;
                    }
                }
            }
        }
        Some(changed)
    }

    /// Propagates to a fixpoint; then reports a contradiction, a full grid, or where to branch.
    fn propagate(&mut self, props: &mut u64) -> Fixpoint {
        loop {
            if !self.band_pass(props) {
                return Fixpoint::Contradiction;
            }
            // Cell pass: naked singles and empty cells, bit-parallel per band.
            let mut placed = false;
            let mut pair: Option<(usize, u32)> = None;
            let mut triple: Option<(usize, u32)> = None;
            for b in 0..3 {
                let u = self.unsolved[b];
                if u == 0 {
                    continue;
                }
                let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
                for d in 0..9 {
                    let w = self.cand[b * 9 + d] & u;
                    three |= two & w;
                    two |= one & w;
                    one |= w;
                }
                if u & !one != 0 {
                    return Fixpoint::Contradiction;
                }
                let singles = one & !two;
                if singles != 0 {
                    let mut cells = singles;
                    while cells != 0 {
                        let bit = cells & cells.wrapping_neg();
                        cells ^= bit;
                        if self.unsolved[b] & bit == 0 {
                            continue;
                        }
                        let mut placed_here = false;
                        for d in 0..9 {
                            if self.cand[b * 9 + d] & bit != 0 {
                                self.place(d, b, bit);
                                *props += 1;
                                placed_here = true;
                                break;
                            }
                        }
                        if !placed_here {
                            return Fixpoint::Contradiction;
                        }
                    }
                    placed = true;
                } else if !placed {
                    let pairs = two & !three;
                    if pair.is_none() && pairs != 0 {
                        pair = Some((b, pairs & pairs.wrapping_neg()));
                    } else if triple.is_none() {
                        let t = three & u;
                        if t != 0 {
                            triple = Some((b, t & t.wrapping_neg()));
                        }
                    }
                }
            }
            if placed {
                continue;
            }
            if STACK_PASS {
                match self.stack_pass(props) {
                    None => return Fixpoint::Contradiction,
                    Some(true) => continue,
                    Some(false) => {}
                }
            }
            let (band, bit) = match pair.or(triple) {
                Some(x) => x,
                None => match (0..3).find(|&b| self.unsolved[b] != 0) {
                    Some(b) => (b, self.unsolved[b] & self.unsolved[b].wrapping_neg()),
                    None => return Fixpoint::Solved,
                },
            };
            let mut digits = 0u16;
            for d in 0..9 {
                if self.cand[band * 9 + d] & bit != 0 {
                    digits |= 1 << d;
                }
            }
            return Fixpoint::Branch(Branch { band, bit, digits });
        }
    }

    /// The solution grid; meaningful only when every cell is placed.
    fn grid(&self) -> [u8; 81] {
        let mut cells = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut w = self.cand[b * 9 + d];
                while w != 0 {
                    let p = w.trailing_zeros() as usize;
                    w &= w - 1;
                    cells[b * 27 + p] = d as u8 + 1;
                }
            }
        }
        cells
    }
}

/// Clears `cells` from the nine digit words of band `b` (`cand[b * 9..b * 9 + 9]`); returns the
/// 9-bit set of digits whose word held one of them. SSE2 (part of every x86-64 CPU) does eight
/// words in two steps; elsewhere a plain loop.
#[inline(always)]
fn clear_band(cand: &mut [u32; 27], b: usize, cells: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let words = &mut cand[b * 9..b * 9 + 9];
        // SAFETY: SSE2 is in the x86-64 baseline; `words` holds 9 u32, so the two unaligned
        // 16-byte loads and stores at offsets 0 and 4 (words 0..8) stay inside it.
        let low = unsafe {
            let p = words.as_mut_ptr() as *mut __m128i;
            let m = _mm_set1_epi32(cells as i32);
            let zero = _mm_setzero_si128();
            let v0 = _mm_loadu_si128(p);
            let v1 = _mm_loadu_si128(p.add(1));
            let h0 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
                _mm_and_si128(v0, m),
                zero,
            )));
            let h1 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
                _mm_and_si128(v1, m),
                zero,
            )));
            _mm_storeu_si128(p, _mm_andnot_si128(m, v0));
            _mm_storeu_si128(p.add(1), _mm_andnot_si128(m, v1));
            !((h0 | (h1 << 4)) as u32) & 0xff
        };
        let x = words[8];
        words[8] = x & !cells;
        low | (((x & cells != 0) as u32) << 8)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut dirty = 0u32;
        for (e, x) in cand[b * 9..b * 9 + 9].iter_mut().enumerate() {
            dirty |= ((*x & cells != 0) as u32) << e;
            *x &= !cells;
        }
        dirty
    }
}

/// For each band, the other two.
const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

struct Search<'a> {
    stats: Stats,
    budget: &'a Budget,
    limit: u64,
    found: u64,
    first: Option<[u8; 81]>,
    out_of_budget: bool,
}

impl Search<'_> {
    /// Explores the node `s` (already counted); true when the search must stop.
    fn search(&mut self, mut s: State) -> bool {
        match s.propagate(&mut self.stats.propagations) {
            Fixpoint::Contradiction => false,
            Fixpoint::Solved => {
                self.found += 1;
                if self.first.is_none() {
                    self.first = Some(s.grid());
                }
                self.found >= self.limit
            }
            Fixpoint::Branch(Branch {
                band,
                bit,
                mut digits,
            }) => {
                self.stats.guesses += 1;
                while digits != 0 {
                    let d = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    self.stats.nodes += 1;
                    if self.budget.check(self.stats.nodes) {
                        self.out_of_budget = true;
                        return true;
                    }
                    let mut child = s;
                    child.place(d, band, bit);
                    if self.search(child) {
                        return true;
                    }
                    self.stats.backtracks += 1;
                }
                false
            }
        }
    }
}

fn run<'a>(puzzle: &Grid, limit: u64, budget: &'a Budget) -> Search<'a> {
    let mut search = Search {
        stats: Stats {
            nodes: 1,
            ..Stats::default()
        },
        budget,
        limit: limit.max(1),
        found: 0,
        first: None,
        out_of_budget: false,
    };
    if budget.exhausted(0) {
        search.out_of_budget = true;
        return search;
    }
    let mut s = State::new();
    for (i, &v) in puzzle.cells().iter().enumerate() {
        if v != 0 {
            let (d, b, bit) = (v as usize - 1, i / 27, 1u32 << (i % 27));
            if s.cand[b * 9 + d] & s.unsolved[b] & bit == 0 {
                // A given repeats a digit in one of its units: no solution.
                return search;
            }
            s.place(d, b, bit);
        }
    }
    search.search(s);
    search
}

impl Solver for BitboardBands {
    fn name(&self) -> &'static str {
        "bitboard-bands"
    }

    fn solve(&self, puzzle: &Grid, budget: &Budget) -> Outcome {
        let s = run(puzzle, 1, budget);
        crate::outcome_of(s.first, s.out_of_budget, s.stats)
    }

    fn count(&self, puzzle: &Grid, limit: u64, budget: &Budget) -> Option<Count> {
        let s = run(puzzle, limit, budget);
        Some(crate::count_of(s.found, s.first, s.out_of_budget, s.stats))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Status;

    #[test]
    fn tables() {
        // A full band: every mini-row is on a permutation.
        assert_eq!(BAND_KEEP[0x1ff], BAND);
        // Only the diagonal: kept as is.
        assert_eq!(PERM_KEEP[0b100_010_001], 0b100_010_001);
        // Two rows confined to the same box: no permutation.
        assert_eq!(PERM_KEEP[0b111_001_001], 0);
        // Row 0 only in box 0: box 0 is taken from rows 1 and 2.
        assert_eq!(PERM_KEEP[0b111_111_001], 0b110_110_001);
    }

    #[test]
    fn solves_and_counts() {
        let p = Grid::parse_line(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let out = BitboardBands.solve(&p, &Budget::unlimited());
        assert_eq!(out.status, Status::Solved);
        let c = BitboardBands.count(&p, 2, &Budget::unlimited()).unwrap();
        assert_eq!(c.solutions, 1);
        assert!(c.complete);
        // The empty grid has many solutions.
        let c = BitboardBands
            .count(&Grid::EMPTY, 5, &Budget::unlimited())
            .unwrap();
        assert_eq!(c.solutions, 5);
    }
}
