//! `bitboard-bands`: the speed champion. A band-oriented bitboard solver in the JCZSolve family
//! (Zhou Yundong's JSolve, J. C. Zhou's JCZSolve, Mladen Dobrichev's `fsss2`): the candidates of
//! each digit are kept as three 27-bit words, one per band (three rows of nine cells), so a whole
//! band of one digit is updated with a few word operations.
//!
//! ## Layout
//! `f[d * 3 + b]` holds, for digit `d + 1` (0-based `d`) and band `b` (rows `3b..3b+3`), bit
//! `r * 9 + c` for the cell in row `3b + r`, column `c` when the digit is still possible there (a
//! placed digit keeps its bit). `unsolved[b]` holds the band's cells not yet placed. The whole
//! state is 57 words (228 bytes), copied at every branch but the last, so undoing a guess is free
//! and nothing is allocated per puzzle.
//!
//! ## Propagation (to a fixpoint after the givens and after every guess)
//! 1. **Band update**, for every digit x band word that changed since it was last seen (27
//!    straight-line blocks, one per word, repeated until none changes): the word is shrunk to its
//!    3 x 3 mini-row occupancy (rows of the band x boxes of the band). Within a band a digit
//!    occupies exactly one mini-row per row and one per box, i.e. a permutation of the 3 x 3
//!    matrix; a 512-entry table keeps the mini-rows that lie on some permutation inside the
//!    occupancy. This is locked candidates both ways (pointing along rows, claiming from rows)
//!    plus a little more, for three table look-ups; an empty table entry is a contradiction.
//!    Then every box of the band that holds the digit in a single column pins that column: the
//!    column is cleared from the digit's other two bands (pointing along columns). A row left
//!    with one cell is a **hidden single** (in that row, and in its box; a row locked in one box
//!    whose column is pinned, read from the same two tables): the cell is placed and cleared
//!    from the band's eight other digit words. That clearing is done whether or not there was
//!    a single (clearing nothing), because a data-dependent branch there mispredicts often and
//!    costs more than eight AND instructions.
//! 2. **Cell pass** (per band, when the updates are done): bit-parallel counting over the nine
//!    digit words (one, two, three or more candidates per cell with OR/AND accumulators) finds
//!    every **naked single** and every empty cell (a contradiction) of the band at once. A naked
//!    single clears its row and box peers from its digit's word, and the band update does the
//!    rest.
//!
//! ## Search
//! When nothing more follows, the solver branches on a cell with exactly two candidates
//! (bi-value cells come first because one of the two branches is usually short): of the first
//! six bi-value cells, the one with the most bi-value peers that share one of its digits
//! (`State::best_pair`); those peers turn into singles on either branch. JCZSolve takes the
//! first bi-value cell; this choice cuts the nodes by about 20-30% on the hard public sets
//! (forum-hardest sample: 493,888 -> 345,412 nodes on its first 2,998 puzzles) for a few
//! hundred word operations per branch point. With no bi-value cell, the first cell with the
//! fewest candidates. Digits in increasing order. Every branch but the last works on a copy of
//! the state; the last goes on in place. `count` runs the very same search and simply goes on
//! after a solution, so counting up to 2 costs one search (used by the generators' uniqueness
//! checks).
//!
//! Counters: the root is one node; each digit tried at a branch point enters one more node (so
//! every branch point is a guess); each digit placed by a rule (hidden or naked single) is a
//! propagation; givens and guessed digits are not. The budget is polled at every node.
//!
//! Cost: one node is one to two thousand instructions (callgrind, hard puzzles); no allocation.
//!
//! Sources: the band-word layout, the mini-row permutation table and the column pinning follow
//! the published descriptions of JSolve/JCZSolve and fsss2 (Enjoy Sudoku Players Forum,
//! "Fastest sudoku solver?" thread) and t-dillon's tdoku write-up ("A fast Sudoku solver",
//! 2019); the code is our own.

use crate::engine::Caps;
use crate::search::Tally;
use crate::{Board, Budget, Count, Grid, Outcome, Shape, Solver};

/// The band-oriented bitboard solver. Stateless; counts solutions.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitboardBands;

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
    const PERMS: [[usize; 3]; 6] = crate::PERMUTATIONS3;
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

/// Expands a set of mini-rows (bit `i * 3 + j`: row `i` of the band, box `j`) to its cells.
const MINIROW_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut mask = 0u32;
        let mut k = 0;
        while k < 9 {
            if m & (1 << k) != 0 {
                mask |= 0o7 << ((k / 3) * 9 + (k % 3) * 3);
            }
            k += 1;
        }
        t[m] = mask;
        m += 1;
    }
    t
};

/// The 3-bit groups of a 9-bit set (bits `3g..3g + 3`) that hold exactly one bit, kept; the
/// other groups cleared.
const fn lone_bits(v: usize) -> usize {
    let mut out = 0;
    let mut g = 0;
    while g < 3 {
        let x = (v >> (g * 3)) & 7;
        if x == 1 || x == 2 || x == 4 {
            out |= x << (g * 3);
        }
        g += 1;
    }
    out
}

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

/// For the 9-bit set of columns a digit occupies in one band, the 27-bit mask that keeps every
/// cell of another band except the columns this band pins: a stack where the set has exactly
/// one column means the box there holds the digit in that column.
const PIN: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0usize;
    while v < 512 {
        t[v] = BAND & !COLS[lone_bits(v)];
        v += 1;
    }
    t
};

/// How many bi-value cells `State::best_pair` scores at a branch point: more finds better
/// branch cells but costs more per branch (6 measured best on the hard public sets).
const PAIR_CANDIDATES: u32 = 6;

/// For each band, the other two.
const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// For a band's mini-row occupancy: low 32 bits, the cells to keep (`PERM_KEEP` expanded by
/// `MINIROW_CELLS`); high bits, the kept mini-rows that are the only kept one of their row (the
/// row is locked in that box).
const KEEP_LOCKED: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut m = 0;
    while m < 512 {
        let keep = PERM_KEEP[m] as usize;
        t[m] = MINIROW_CELLS[keep] as u64 | (lone_bits(keep) as u64) << 32;
        m += 1;
    }
    t
};

/// For the 9-bit set of columns a digit occupies in one band: low 32 bits, `PIN`; high bits,
/// the mini-rows (all three rows) of the stacks where the set has exactly one column. A locked
/// mini-row there is a single cell: a hidden single.
const PIN_SINGLE: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut v = 0usize;
    while v < 512 {
        let mut single = 0u64;
        let mut s = 0;
        while s < 3 {
            let x = (v >> (s * 3)) & 7;
            if x == 1 || x == 2 || x == 4 {
                single |= 0o111 << s;
            }
            s += 1;
        }
        t[v] = PIN[v] as u64 | single << 32;
        v += 1;
    }
    t
};

/// One search node's state: candidate words and unsolved cells (see the module docs).
#[derive(Clone, Copy)]
struct State {
    /// Candidates, `f[d * 3 + b]`.
    f: [u32; 27],
    /// Each word as the band update last left it.
    seen: [u32; 27],
    /// Cells not yet placed, per band.
    unsolved: [u32; 3],
}

/// What propagation ended in.
enum Fixpoint {
    Contradiction,
    Solved,
    /// Branch on cell `bit` of band `band`, over the digits of `digits` (bit `d` = digit `d + 1`).
    Branch {
        band: usize,
        bit: u32,
        digits: u16,
    },
}

/// Runs `$m!(D, B)` for the 27 words in order.
macro_rules! each_word {
    ($m:ident) => {
        $m!(0, 0);
        $m!(0, 1);
        $m!(0, 2);
        $m!(1, 0);
        $m!(1, 1);
        $m!(1, 2);
        $m!(2, 0);
        $m!(2, 1);
        $m!(2, 2);
        $m!(3, 0);
        $m!(3, 1);
        $m!(3, 2);
        $m!(4, 0);
        $m!(4, 1);
        $m!(4, 2);
        $m!(5, 0);
        $m!(5, 1);
        $m!(5, 2);
        $m!(6, 0);
        $m!(6, 1);
        $m!(6, 2);
        $m!(7, 0);
        $m!(7, 1);
        $m!(7, 2);
        $m!(8, 0);
        $m!(8, 1);
        $m!(8, 2);
    };
}

impl State {
    fn new() -> State {
        State {
            f: [BAND; 27],
            seen: [0; 27],
            unsolved: [BAND; 3],
        }
    }

    /// Assigns digit `d` to the cell `bit` of band `b`: clears the cell from the other digits
    /// and its row and box peers from the digit's word. The band update places it and pins its
    /// column in the other bands.
    #[inline(always)]
    fn assign(&mut self, d: usize, b: usize, bit: u32) {
        for e in 0..9 {
            self.f[e * 3 + b] &= !bit;
        }
        self.f[d * 3 + b] = (self.f[d * 3 + b] & !PEERS[bit.trailing_zeros() as usize]) | bit;
    }

    /// The band update of word `D * 3 + B` (see the module docs). False on a contradiction;
    /// sets `changed` when the word had changed.
    #[inline(always)]
    fn update<const D: usize, const B: usize>(&mut self, changed: &mut bool) -> bool {
        let i = D * 3 + B;
        let a = self.f[i];
        if a == self.seen[i] {
            return true;
        }
        // (The `& 0x1ff` masks let the compiler drop the table bounds checks.)
        let occ = SHRINK[(a & 0x1ff) as usize] as usize
            | (SHRINK[((a >> 9) & 0x1ff) as usize] as usize) << 3
            | (SHRINK[((a >> 18) & 0x1ff) as usize] as usize) << 6;
        let keep = KEEP_LOCKED[occ & 0x1ff];
        let a = a & keep as u32;
        if a == 0 {
            return false;
        }
        self.f[i] = a;
        self.seen[i] = a;
        *changed = true;
        let pin = PIN_SINGLE[((a | (a >> 9) | (a >> 18)) & 0x1ff) as usize];
        self.f[D * 3 + (B + 1) % 3] &= pin as u32;
        self.f[D * 3 + (B + 2) % 3] &= pin as u32;
        let singles = a & MINIROW_CELLS[((keep & pin) >> 32) as usize & 0x1ff] & self.unsolved[B];
        // Branch-free: whether or not the word gave singles (an unpredictable branch).
        self.unsolved[B] &= !singles;
        for e in 0..9 {
            if e != D {
                self.f[e * 3 + B] &= !singles;
            }
        }
        true
    }

    /// Band updates until no word changes. False on a contradiction.
    #[inline(always)]
    fn updates(&mut self) -> bool {
        loop {
            let mut changed = false;
            macro_rules! up {
                ($d:literal, $b:literal) => {
                    if !self.update::<$d, $b>(&mut changed) {
                        return false;
                    }
                };
            }
            each_word!(up);
            if !changed {
                return true;
            }
        }
    }

    /// Propagates to a fixpoint; then reports a contradiction, a full grid, or where to branch.
    /// Without `CHOOSE` (a root whose branch point nobody reads) the branch is not chosen:
    /// [`Fixpoint::Branch`] then holds band 0, no cell and no digit.
    fn propagate<const CHOOSE: bool>(&mut self) -> Fixpoint {
        'outer: loop {
            if !self.updates() {
                return Fixpoint::Contradiction;
            }
            // Cell pass: naked singles and empty cells, bit-parallel per band.
            let mut pairs = [0u32; 3];
            for (b, pair) in pairs.iter_mut().enumerate() {
                let u = self.unsolved[b];
                if u == 0 {
                    continue;
                }
                let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
                for d in 0..9 {
                    let w = self.f[d * 3 + b];
                    three |= two & w;
                    two |= one & w;
                    one |= w;
                }
                if u & !one != 0 {
                    return Fixpoint::Contradiction;
                }
                let singles = u & !two;
                if singles != 0 {
                    for d in 0..9 {
                        let mut x = self.f[d * 3 + b] & singles;
                        if x != 0 {
                            let mut peers = 0;
                            while x != 0 {
                                peers |= PEERS[x.trailing_zeros() as usize];
                                x &= x - 1;
                            }
                            self.f[d * 3 + b] &= !peers;
                        }
                    }
                    continue 'outer;
                }
                *pair = u & !three;
            }
            if self.unsolved == [0; 3] {
                return Fixpoint::Solved;
            }
            if !CHOOSE {
                return Fixpoint::Branch {
                    band: 0,
                    bit: 0,
                    digits: 0,
                };
            }
            let (band, bit) = if pairs != [0; 3] {
                self.best_pair(&pairs)
            } else {
                self.fewest_candidates()
            };
            let mut digits = 0u16;
            for d in 0..9 {
                if self.f[d * 3 + band] & bit != 0 {
                    digits |= 1 << d;
                }
            }
            return Fixpoint::Branch { band, bit, digits };
        }
    }

    /// Where to branch among the bi-value cells `pairs` (per band): of the first
    /// [`PAIR_CANDIDATES`] in band and cell order, the one with the most bi-value peers (row, box
    /// and column) that share one of its two digits, the first on ties. Those peers become
    /// singles whichever branch is taken, so both branches propagate further. Free of
    /// data-dependent branches but the loop; about 100 word operations per cell looked at.
    #[inline(always)]
    fn best_pair(&self, pairs: &[u32; 3]) -> (usize, u32) {
        let mut n = 0;
        // Score in the high bits, then 255 - (band * 32 + cell): the max is the best and first.
        let mut best = 0u32;
        'cells: for b in 0..3 {
            let (o1, o2) = OTHER_BANDS[b];
            let mut x = pairs[b];
            while x != 0 {
                let p = x.trailing_zeros();
                x &= x - 1;
                let mut digits = 0u32;
                for d in 0..9 {
                    digits |= ((self.f[d * 3 + b] >> p) & 1) << d;
                }
                // The cell's two digits (`min` keeps the index in range for the compiler).
                let dx = (digits.trailing_zeros() as usize).min(8);
                let dy = ((digits & digits.wrapping_sub(1)).trailing_zeros() as usize).min(8);
                // Bi-value cells of band `o` that hold either digit.
                let near = |o: usize| (self.f[dx * 3 + o] | self.f[dy * 3 + o]) & pairs[o];
                // Column peers in the other bands, gathered as bits 0/1, 9/10, 18/19.
                let c = p % 9;
                let col = ((near(o1) >> c) & 0x40201) | (((near(o2) >> c) & 0x40201) << 1);
                let score =
                    ((PEERS[p as usize] & near(b)) as u64 | (col as u64) << 32).count_ones();
                best = best.max(score << 8 | (255 - (b as u32 * 32 + p)));
                n += 1;
                if n == PAIR_CANDIDATES {
                    break 'cells;
                }
            }
        }
        let key = 255 - (best & 255);
        ((key / 32) as usize, 1 << (key % 32))
    }

    /// The first unsolved cell with the fewest candidates (three or more): band and cell bit.
    /// Only used when no cell has two, which is rare after the singles.
    #[cold]
    fn fewest_candidates(&self) -> (usize, u32) {
        let mut best = (0, 0, u32::MAX);
        for b in 0..3 {
            let mut x = self.unsolved[b];
            while x != 0 {
                let bit = x & x.wrapping_neg();
                x ^= bit;
                let n = (0..9).filter(|&d| self.f[d * 3 + b] & bit != 0).count() as u32;
                if n < best.2 {
                    best = (b, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// Cells still to place.
    #[inline(always)]
    fn open_cells(&self) -> u64 {
        (self.unsolved[0].count_ones()
            + self.unsolved[1].count_ones()
            + self.unsolved[2].count_ones()) as u64
    }

    /// The placed cells (not in `unsolved`), the others 0. At a fixpoint every placed cell
    /// has exactly one candidate left.
    fn placed(&self) -> [u8; 81] {
        let mut cells = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut w = self.f[d * 3 + b] & !self.unsolved[b] & BAND;
                while w != 0 {
                    let p = w.trailing_zeros() as usize;
                    w &= w - 1;
                    cells[b * 27 + p] = d as u8 + 1;
                }
            }
        }
        cells
    }

    /// The solution grid; meaningful only when every cell is placed.
    fn grid(&self) -> [u8; 81] {
        let mut cells = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut w = self.f[d * 3 + b];
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

struct Search<'a> {
    tally: Tally<'a>,
}

impl Search<'_> {
    /// Explores the node `s` (already counted), which has `open` cells to place besides a
    /// guessed digit not yet placed. True when the search must stop.
    fn search(&mut self, mut s: State, mut open: u64) -> bool {
        // Branches taken in place (each the last digit of its branch point): when this call
        // returns false, each of them counts as a backtrack, as if it had been a child call.
        let mut in_place = 0;
        loop {
            let fix = s.propagate::<true>();
            let left = s.open_cells();
            self.tally.stats.propagations += open - left;
            match fix {
                Fixpoint::Contradiction => {
                    self.tally.stats.backtracks += in_place;
                    return false;
                }
                Fixpoint::Solved => {
                    if self.tally.solution(|| s.grid()) {
                        return true;
                    }
                    self.tally.stats.backtracks += in_place;
                    return false;
                }
                Fixpoint::Branch {
                    band,
                    bit,
                    mut digits,
                } => {
                    self.tally.stats.guesses += 1;
                    loop {
                        let d = digits.trailing_zeros() as usize;
                        digits &= digits - 1;
                        if self.tally.enter_node() {
                            return true;
                        }
                        if digits == 0 {
                            // The last digit: go on in place.
                            s.assign(d, band, bit);
                            open = left - 1;
                            in_place += 1;
                            break;
                        }
                        let mut child = s;
                        child.assign(d, band, bit);
                        if self.search(child, left - 1) {
                            return true;
                        }
                        self.tally.stats.backtracks += 1;
                    }
                }
            }
        }
    }
}

/// The state after the givens are placed (no propagation yet), or `None` when a given repeats a
/// digit in one of its units (no solution).
#[inline(always)]
fn start(puzzle: &Grid) -> Option<State> {
    let mut s = State::new();
    for (i, &v) in puzzle.cells().iter().enumerate() {
        if v != 0 {
            let (d, b, bit) = (v as usize - 1, i / 27, 1u32 << (i % 27));
            if s.f[d * 3 + b] & s.unsolved[b] & bit == 0 {
                return None;
            }
            s.assign(d, b, bit);
            s.unsolved[b] &= !bit;
            let col = COLS[1 << (bit.trailing_zeros() % 9)];
            for o in 0..3 {
                if o != b {
                    s.f[d * 3 + o] &= !col;
                }
            }
        }
    }
    Some(s)
}

fn run<'a>(puzzle: &Grid, limit: u64, budget: &'a Budget) -> Search<'a> {
    let mut search = Search {
        tally: Tally::new(limit, budget),
    };
    if search.tally.out_of_budget {
        return search;
    }
    let Some(s) = start(puzzle) else {
        return search;
    };
    let open = s.open_cells();
    search.search(s, open);
    search
}

/// What the root propagation of `bitboard-bands` (singles and locked candidates to a fixpoint,
/// no search) leaves of a puzzle: see [`root`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Root {
    /// A contradiction (or two givens that clash): the puzzle has no solution.
    NoSolution,
    /// Every cell placed: the puzzle's one solution.
    Solved(Grid),
    /// Cells still open: the givens plus every digit the rules placed, the rest 0. It has the
    /// same solutions as the puzzle.
    Open(Grid),
}

/// The root node of `bitboard-bands` alone, and the digits its rules placed (the
/// `propagations` counter of that node): [`root_then_search`] with no search.
pub fn root(puzzle: &Grid) -> (Root, u64) {
    let unlimited = crate::Budget::unlimited();
    match root_then_search(puzzle, 1, &unlimited, 0) {
        Rooted::Ended(t) => {
            let root = match t.first {
                Some(cells) => Root::Solved(
                    Grid::from_cells(std::array::from_fn(|i| cells[i] as u8))
                        .expect("digits 1..=9"),
                ),
                None => Root::NoSolution,
            };
            (root, t.stats.propagations)
        }
        Rooted::Open(g, placed) => (Root::Open(g), placed),
    }
}

/// Where [`root_then_search`] left a solve.
pub(crate) enum Rooted<'a> {
    /// Settled: by the root alone, or by the search that went on from it.
    Ended(Tally<'a>),
    /// The root left more cells open than the search takes on: the grid it left (the givens
    /// plus the digits its rules placed, the same solutions) and how many digits it placed.
    Open(Grid, u64),
}

/// The root node of `bitboard-bands` (singles and locked candidates to a fixpoint), then, when
/// it leaves at most `max_open` cells open, the rest of `bitboard-bands`' search from that
/// state (solving or counting up to `limit` under `budget`); with more cells open, the grid the
/// root left, for another search. Used by the `hybrid` portfolio. The root is the first node
/// either way, and no work is done twice.
pub(crate) fn root_then_search<'a>(
    puzzle: &Grid,
    limit: u64,
    budget: &'a crate::Budget,
    max_open: u64,
) -> Rooted<'a> {
    let mut search = Search {
        tally: Tally::new(limit, budget),
    };
    if search.tally.out_of_budget {
        return Rooted::Ended(search.tally);
    }
    let Some(mut s) = start(puzzle) else {
        return Rooted::Ended(search.tally);
    };
    let open = s.open_cells();
    let fix = s.propagate::<false>();
    let left = s.open_cells();
    match fix {
        Fixpoint::Contradiction => {}
        Fixpoint::Solved => {
            search.tally.solution(|| s.grid());
        }
        Fixpoint::Branch { .. } if left > max_open => {
            let placed = Grid::from_cells(s.placed()).expect("digits 0..=9");
            return Rooted::Open(placed, open - left);
        }
        Fixpoint::Branch { .. } => {
            // The search starts with a propagation, which finds the fixpoint at once and
            // chooses the branch point.
            search.search(s, left);
        }
    }
    search.tally.stats.propagations += open - left;
    Rooted::Ended(search.tally)
}

impl Solver for BitboardBands {
    fn caps(&self) -> Caps {
        Caps::POLLED_SEARCH
    }

    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Option<Outcome> {
        Some(
            run(&puzzle.to_grid()?, 1, budget)
                .tally
                .outcome(Shape::CLASSIC),
        )
    }

    fn count(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Option<Count> {
        Some(
            run(&puzzle.to_grid()?, limit, budget)
                .tally
                .count(Shape::CLASSIC),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_puzzles::OnGrid;
    use crate::Status;

    #[test]
    fn tables() {
        // A full band: every mini-row is on a permutation.
        assert_eq!(KEEP_LOCKED[0x1ff] as u32, BAND);
        // Only the diagonal: kept as is.
        assert_eq!(PERM_KEEP[0b100_010_001], 0b100_010_001);
        // Two rows confined to the same box: no permutation.
        assert_eq!(PERM_KEEP[0b111_001_001], 0);
        // Row 0 only in box 0: box 0 is taken from rows 1 and 2.
        assert_eq!(PERM_KEEP[0b111_111_001], 0b110_110_001);
        // ... and row 0 is then locked in box 0; rows 1 and 2 are not.
        assert_eq!(KEEP_LOCKED[0b111_111_001] >> 32, 0b001);
        assert_eq!(
            KEEP_LOCKED[0b111_111_001] as u32,
            MINIROW_CELLS[0b110_110_001]
        );
        // The diagonal: every row is locked in its box.
        assert_eq!(KEEP_LOCKED[0b100_010_001] >> 32, 0b100_010_001);
        // Columns {0} in stack 0, {3, 4} in stack 1, none in stack 2: column 0 is pinned (cleared
        // from the other bands, in all three rows), stack 0's mini-rows are single-cell ones.
        let pin = PIN_SINGLE[0b000_011_001];
        assert_eq!(pin as u32, BAND & !(1 | 1 << 9 | 1 << 18));
        assert_eq!(pin >> 32, 0b001_001_001);
        // Mini-row (row 1, box 2) = cells 15, 16, 17 of the band.
        assert_eq!(MINIROW_CELLS[1 << 5], 0o7 << 15);
    }

    #[test]
    fn solves_and_counts() {
        let p = Grid::parse_line(crate::known_puzzles::TOP95_FIRST).unwrap();
        let out = BitboardBands.solve_grid(&p, &Budget::unlimited());
        assert_eq!(out.status, Status::Solved);
        let c = BitboardBands
            .count_grid(&p, 2, &Budget::unlimited())
            .unwrap();
        assert_eq!(c.solutions, 1);
        assert!(c.complete);
        // The empty grid has many solutions.
        let c = BitboardBands
            .count_grid(&Grid::EMPTY, 5, &Budget::unlimited())
            .unwrap();
        assert_eq!(c.solutions, 5);
    }
}
