//! `triads`: DPLL over box-row and box-column triads, on 16-bit SIMD lanes.
//!
//! The design follows the one Tom Dillon describes for `tdoku` (`docs/sudoku.md` of github
//! t-dillon/tdoku): instead of cells and digits alone, the search state also holds *triads*, the
//! three-cell mini-rows and mini-columns of each box, and every constraint between them is kept
//! as an exactly-one (or at-least-k) clause over 9-bit candidate sets, so a whole box or band is
//! propagated with a handful of vector instructions. This file is our own implementation of
//! that design: its layout of the band messages, its tables (computed at compile time from the six
//! permutations of a band) and its search loop are written here.
//!
//! ## State (480 bytes, copied at every guess)
//! - **Box** (one per box, 16 lanes of 16 bits seen as a 4 x 4 matrix): lane `(i, j)` for
//!   `i, j < 3` holds the candidates of the cell in box row `i`, box column `j`; lane `(i, 3)`
//!   holds the digits that may be *absent* from mini-row `i` (a negative horizontal triad: exactly
//!   six digits are), lane `(3, j)` those that may be absent from mini-column `j`; lane `(3, 3)` is
//!   always 0. For each digit, every row and every column `0..3` of the matrix is an exactly-one
//!   clause (the digit is in one of the three cells, or absent from the triad).
//! - **Band** (three horizontal, three vertical; 8 lanes): within a band a digit sits in one
//!   triad of each of its three boxes, in three different rows: one of the six permutations of
//!   the three rows (columns for a vertical band) over the three boxes. Lane `k < 6` holds the
//!   digits for which permutation `k` of [`PERMS`] is still possible. A second vector collects
//!   the permutations to eliminate, applied at the band's next update.
//!
//! ## Propagation
//! - A **box update** removes candidates, then repeats until nothing new follows: a lane below
//!   its minimum (1 candidate for a cell, 6 for a negative triad) is a contradiction; a lane at
//!   its minimum asserts its candidates; a digit left in one lane of a matrix row or column is
//!   asserted there. Asserted cells clear their digit from the box and their row and column
//!   triads; asserted negative triads, and digits asserted in the cells of the other mini-rows,
//!   rule out band permutations. The box then hands those to its two bands.
//! - A **band update** drops its pending permutations, turns the rest into *positive triads* (the
//!   digits that may lie in each mini-row of each box of the band), asserts the digits of a
//!   triad left with exactly three, and restricts its three boxes to the triads: a cell to its
//!   row's (column's) triad, a negative triad to the digits the other two triads allow.
//!
//! ## Search
//! The search branches on the unfixed band with the fewest possible permutations (summed over
//! digits), on the digit with the fewest permutations in that band (two first): one branch
//! keeps only the lowest of them, the other removes it. A state where every band holds at most
//! nine permutations is a leaf: it is a solution when every cell has one candidate and the grid
//! is valid (checked there, so a contradiction that propagation did not see is never reported as
//! a solution; a leaf holding a solution always passes, since every cell is then the meet of
//! its two fixed triads).
//!
//! ## Effort counters
//! - **nodes**: the root plus every branch taken (a permutation kept, or removed).
//! - **guesses**: branch points; every one has two choices (the digit had two or more
//!   permutations left).
//! - **backtracks**: branches taken that did not end the search.
//! - **propagations**: 0. Propagation narrows whole boxes and bands at once and places no digit
//!   one by one, so there is no count of digits placed by a rule to report.
//! - **updates**: 0.
//!
//! ## SIMD paths, chosen at run time
//! One engine (the macro `engine!`) is compiled once per path over the path's vector types:
//! - `avx512`: the `avx2` vectors with AVX-512 instructions on them (F, VL and BW, 256-bit
//!   vectors only): ternary logic for chains of and/or/xor (three rotations OR-ed in one step,
//!   which shortens the dependency chain of a box update), compares into mask registers where
//!   the result is a branch, 64-bit rotates (`vprorq`) for the rotations within matrix rows, one
//!   permutation across the vector (`vpermw`) for a box's message to its bands, lane popcounts
//!   that use the lanes' 9 bits to skip masks. The search and the setup stay on AVX2 instructions
//!   (see the `engine!` macro). Needs AVX-512 F, VL and BW besides what `avx2` needs, and a
//!   compiler with those intrinsics (Rust 1.89 or newer; `solvers/build.rs`): an older one
//!   builds the crate without this path.
//! - `avx2`: 16 lanes in one `__m256i` (`vpshufb`, `vpermq`), with `popcnt`; needs AVX2, BMI1,
//!   BMI2, POPCNT and LZCNT at run time.
//! - `ssse3`: 16 lanes in two `__m128i`, `pshufb` for the table shuffles.
//! - `sse2`: the same two `__m128i` (the x86-64 baseline), shuffles done lane by lane.
//! - `portable`: plain `[u16; 16]` arrays, any target.
//!
//! [`Triads::new`] takes the fastest path the processor has, unless the environment variable
//! `HARNESS_SIMD` names one (`portable`, `sse2`, `ssse3`, `avx2` or `avx512`); a path the
//! processor lacks, or an unknown name, falls back to the fastest one ([`Triads::path`] says
//! which runs). Every path computes the same thing and gives the same counters.

use crate::engine::Caps;
use crate::search::Tally;
use crate::{Board, Budget, Count, Grid, Outcome, Shape, Solver};

// ---------------------------------------------------------------------------------------------
// Tables, computed at compile time.

/// Guesses taken fail-first before [`Triads::wide_first`] branches wide.
pub const WIDE_AFTER: u64 = 6;

/// All nine digits of a candidate set.
const ALL9: u16 = 0x1ff;

/// The six permutations of a band: `PERMS[k][p]` is the row (for a vertical band: the column) of
/// box `p` of the band that holds the digit under permutation `k`.
pub const PERMS: [[usize; 3]; 6] = crate::PERMUTATIONS3;

/// Sixteen lanes of constants (masks), aligned for vector loads.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Lanes16([u16; 16]);

/// Eight lanes of constants.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Lanes8([u16; 8]);

/// A shuffle of 16-bit lanes within each half of 8 lanes, as `pshufb` byte controls: output lane
/// `o` takes lane `ctrl[2o] / 2` of its own half, or 0 when the byte has its high bit set.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Shuffle([u8; 32]);

/// Builds a [`Shuffle`] from the source lane (0..16, in the output lane's own half) of each output
/// lane, `-1` for zero. A source in the other half fails at compile time.
const fn shuffle(src: [i8; 16]) -> Shuffle {
    let mut out = [0u8; 32];
    let mut o = 0;
    while o < 16 {
        if src[o] < 0 {
            out[2 * o] = 0x80;
            out[2 * o + 1] = 0x80;
        } else {
            let s = src[o] as usize;
            assert!(s / 8 == o / 8, "a shuffle stays within its half");
            let local = (s % 8) as u8;
            out[2 * o] = 2 * local;
            out[2 * o + 1] = 2 * local + 1;
        }
        o += 1;
    }
    Shuffle(out)
}

/// A permutation of 16-bit lanes across the whole vector (`vpermw`): output lane `o` takes lane
/// `src[o]`, or 0 when bit `o` of `keep` is clear.
#[cfg_attr(not(all(target_arch = "x86_64", avx512_intrinsics)), allow(dead_code))]
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Permute {
    src: Lanes16,
    keep: u16,
}

/// Builds a [`Permute`] from the source lane (0..16) of each output lane, `-1` for zero.
#[cfg_attr(not(all(target_arch = "x86_64", avx512_intrinsics)), allow(dead_code))]
const fn permute(src: [i8; 16]) -> Permute {
    let mut out = [0u16; 16];
    let mut keep = 0u16;
    let mut o = 0;
    while o < 16 {
        if src[o] >= 0 {
            out[o] = src[o] as u16;
            keep |= 1 << o;
        }
        o += 1;
    }
    Permute {
        src: Lanes16(out),
        keep,
    }
}

/// Lane of matrix position `(row, col)`.
const fn lane(row: usize, col: usize) -> usize {
    row * 4 + col
}

/// The `which`-th (0 or 1) permutation that puts the digit of box `p` in row `e`.
const fn perm_with(p: usize, e: usize, which: usize) -> usize {
    let mut k = 0;
    let mut seen = 0;
    while k < 6 {
        if PERMS[k][p] == e {
            if seen == which {
                return k;
            }
            seen += 1;
        }
        k += 1;
    }
    panic!("every (box, row) lies on two permutations")
}

/// Permutations -> positive triads: from the permutation lanes duplicated into both halves, lane
/// `(p, e)` (box `p` of the band, row `e`) takes one of the two permutations through it; the two
/// shuffles OR-ed give the digits that may lie in that triad.
const fn perms_to_triads(which: usize) -> Shuffle {
    let mut src = [-1i8; 16];
    let mut p = 0;
    while p < 3 {
        let mut e = 0;
        while e < 3 {
            let o = lane(p, e);
            src[o] = ((o / 8) * 8 + perm_with(p, e, which)) as i8;
            e += 1;
        }
        p += 1;
    }
    shuffle(src)
}
const PERMS_TO_TRIADS: [Shuffle; 2] = [perms_to_triads(0), perms_to_triads(1)];

/// Asserted triads -> permutations to eliminate. A digit asserted in triad `(p, e)` rules out
/// every permutation with `PERMS[k][p] != e`. `shift` 1 and 2 pick the other two rows; the first
/// two tables read boxes 0 (low half) and 2 (high half), the third reads box 1 from the low half
/// duplicated (shift 1 into the low half, shift 2 into the high one). The eliminations are the
/// OR of both halves of the three results.
const fn triad_asserts(table: usize) -> Shuffle {
    let mut src = [-1i8; 16];
    let mut k = 0;
    while k < 6 {
        if table < 2 {
            let shift = table + 1;
            src[k] = lane(0, (PERMS[k][0] + shift) % 3) as i8;
            src[8 + k] = lane(2, (PERMS[k][2] + shift) % 3) as i8;
        } else {
            src[k] = lane(1, (PERMS[k][1] + 1) % 3) as i8;
            src[8 + k] = (8 + lane(1, (PERMS[k][1] + 2) % 3)) as i8;
        }
        k += 1;
    }
    shuffle(src)
}
const TRIAD_ASSERTS: [Shuffle; 3] = [triad_asserts(0), triad_asserts(1), triad_asserts(2)];

/// Lane `(p, e)` takes triad `(p, e + shift mod 3)`; OR-ing shifts 1 and 2 gives, per triad, the
/// digits the other two triads of its box allow.
const fn rotate_triads(shift: usize) -> Shuffle {
    let mut src = [-1i8; 16];
    let mut p = 0;
    while p < 3 {
        let mut e = 0;
        while e < 3 {
            src[lane(p, e)] = lane(p, (e + shift) % 3) as i8;
            e += 1;
        }
        p += 1;
    }
    shuffle(src)
}
const ROTATE_TRIADS: [Shuffle; 2] = [rotate_triads(1), rotate_triads(2)];

/// A band's message to one box, from 8 lanes `[t0, t1, t2, ALL9, o0, o1, o2, 0]` (`t` the box's
/// positive triads, `o` the digits of the other two triads) duplicated into both halves: the
/// candidates allowed in each box lane. `vertical` false: cells of row `i` take `t_i`, the
/// negative row triad `o_i`, the column triads are unrestricted; true: the same by columns.
const fn band_to_box(vertical: bool) -> Shuffle {
    let mut src = [-1i8; 16];
    let mut i = 0;
    while i < 3 {
        let mut j = 0;
        while j < 3 {
            let o = lane(i, j);
            src[o] = ((o / 8) * 8 + if vertical { j } else { i }) as i8;
            j += 1;
        }
        let (row_margin, col_margin) = (lane(i, 3), lane(3, i));
        src[row_margin] = ((row_margin / 8) * 8 + if vertical { 3 } else { 4 + i }) as i8;
        src[col_margin] = ((col_margin / 8) * 8 + if vertical { 4 + i } else { 3 }) as i8;
        i += 1;
    }
    shuffle(src)
}
const BAND_TO_BOX: [Shuffle; 2] = [band_to_box(false), band_to_box(true)];

/// A box's message to its bands: from the margin lanes (negative row triads in lanes 3, 7 and
/// 11, negative column triads in lanes 12, 13, 14), the permutations to eliminate of the
/// horizontal band (low half, the box is its box `bj`) and of the vertical band (high half, the
/// box is its box `bi`). A digit in negative triad `e` rules out the permutations that put it in
/// triad `e`. The source lane of each output lane (-1 for none); `row2` is where the negative
/// triad of row 2 is read: lane 11, or lane 2 where a shuffle within halves needs it
/// ([`LANE2`] folds it there).
const fn box_to_bands_src(bx: usize, row2: usize) -> [i8; 16] {
    let (bi, bj) = (bx / 3, bx % 3);
    let row_triad_lane = [lane(0, 3), lane(1, 3), row2];
    let mut src = [-1i8; 16];
    let mut k = 0;
    while k < 6 {
        src[k] = row_triad_lane[PERMS[k][bj]] as i8;
        src[8 + k] = lane(3, PERMS[k][bi]) as i8;
        k += 1;
    }
    src
}
const BOX_TO_BANDS: [Shuffle; 9] = {
    let mut t = [Shuffle([0; 32]); 9];
    let mut b = 0;
    while b < 9 {
        t[b] = shuffle(box_to_bands_src(b, 2));
        b += 1;
    }
    t
};
/// [`BOX_TO_BANDS`] as permutations across the whole vector, reading lane 11 itself.
#[cfg_attr(not(all(target_arch = "x86_64", avx512_intrinsics)), allow(dead_code))]
const BOX_TO_BANDS_ACROSS: [Permute; 9] = {
    let mut t = [Permute {
        src: Lanes16([0; 16]),
        keep: 0,
    }; 9];
    let mut b = 0;
    while b < 9 {
        t[b] = permute(box_to_bands_src(b, lane(2, 3)));
        b += 1;
    }
    t
};

/// Rotation of each matrix row by one lane (lane `(i, j)` takes `(i, j + 1 mod 4)`), and by three.
const ROTATE_ROWS: [Shuffle; 2] = {
    let mut one = [0i8; 16];
    let mut three = [0i8; 16];
    let mut o = 0;
    while o < 16 {
        one[o] = (o / 4 * 4 + (o + 1) % 4) as i8;
        three[o] = (o / 4 * 4 + (o + 3) % 4) as i8;
        o += 1;
    }
    [shuffle(one), shuffle(three)]
};

const fn lanes16(f: [u16; 4], row3: [u16; 4]) -> Lanes16 {
    let mut out = [0u16; 16];
    let mut i = 0;
    while i < 3 {
        let mut j = 0;
        while j < 3 {
            out[lane(i, j)] = f[0];
            j += 1;
        }
        out[lane(i, 3)] = f[1];
        i += 1;
    }
    let mut j = 0;
    while j < 4 {
        out[lane(3, j)] = row3[j];
        j += 1;
    }
    Lanes16(out)
}

/// The least count of each box lane: 1 candidate per cell, 6 digits per negative triad.
const BOX_MIN: Lanes16 = lanes16([1, 6, 0, 0], [6, 6, 6, 0]);
/// The nine cell lanes.
const CELLS: Lanes16 = lanes16([0xffff, 0, 0, 0], [0, 0, 0, 0]);
/// The six negative-triad lanes.
const MARGINS: Lanes16 = lanes16([0, 0xffff, 0, 0], [0xffff, 0xffff, 0xffff, 0]);
/// Lane `(0, 2)`, where the negative triad of row 2 is folded into the low half.
const LANE2: Lanes16 = {
    let mut l = [0u16; 16];
    l[2] = 0xffff;
    Lanes16(l)
};
/// Every lane 3.
const THREE: Lanes16 = Lanes16([3; 16]);
/// A new box: every cell and every negative triad allows every digit.
const BOX_START: Lanes16 = lanes16([ALL9, ALL9, 0, 0], [ALL9, ALL9, ALL9, 0]);
/// A given in box lane `e` (a cell lane): the lanes that lose its digit (the other cells of the
/// box, the negative triads of its row and column), and the lane that keeps only it.
const fn clue_masks(e: usize, own: bool) -> Lanes16 {
    let (ei, ej) = (e / 4, e % 4);
    let mut l = [0u16; 16];
    if own {
        l[e] = 0xffff;
    } else {
        let mut i = 0;
        while i < 3 {
            let mut j = 0;
            while j < 3 {
                if lane(i, j) != e {
                    l[lane(i, j)] = 0xffff;
                }
                j += 1;
            }
            i += 1;
        }
        l[lane(ei, 3)] = 0xffff;
        l[lane(3, ej)] = 0xffff;
    }
    Lanes16(l)
}
const CLUE_OTHERS: [Lanes16; 16] = {
    let mut t = [Lanes16([0; 16]); 16];
    let mut e = 0;
    while e < 16 {
        if e % 4 < 3 && e / 4 < 3 {
            t[e] = clue_masks(e, false);
        }
        e += 1;
    }
    t
};
const CLUE_OWN: [Lanes16; 16] = {
    let mut t = [Lanes16([0; 16]); 16];
    let mut e = 0;
    while e < 16 {
        t[e] = clue_masks(e, true);
        e += 1;
    }
    t
};
/// A given in row `e` of box `p` of a band: the permutations it rules out (`PERMS[k][p] != e`).
const CLUE_PERMS: [[Lanes8; 3]; 3] = {
    let mut t = [[Lanes8([0; 8]); 3]; 3];
    let mut p = 0;
    while p < 3 {
        let mut e = 0;
        while e < 3 {
            let mut k = 0;
            while k < 6 {
                if PERMS[k][p] != e {
                    t[p][e].0[k] = 0xffff;
                }
                k += 1;
            }
            e += 1;
        }
        p += 1;
    }
    t
};
/// Where each cell (0..81, row-major) lies: `[row, column, box, box lane, box row, box column,
/// row in its box, column in its box]`.
const CELL_AT: [[u8; 8]; 81] = {
    let mut t = [[0u8; 8]; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        let (bi, bj, ei, ej) = (r / 3, c / 3, r % 3, c % 3);
        t[i] = [
            r as u8,
            c as u8,
            (bi * 3 + bj) as u8,
            lane(ei, ej) as u8,
            bi as u8,
            bj as u8,
            ei as u8,
            ej as u8,
        ];
        i += 1;
    }
    t
};

/// Lane `(i, j)` of every cell holds 1: a solved box has these popcounts in its cell lanes.
const ONE_PER_CELL: Lanes16 = lanes16([1, 0, 0, 0], [0, 0, 0, 0]);

/// Lane 3 of a band's message to a box (the unrestricted triads of the other orientation).
const MESSAGE_ALL: Lanes8 = Lanes8([0, 0, 0, ALL9, 0, 0, 0, 0]);
/// A new band: every permutation possible for every digit.
const BAND_START: Lanes8 = Lanes8([ALL9, ALL9, ALL9, ALL9, ALL9, ALL9, 0, 0]);

// ---------------------------------------------------------------------------------------------
// Vector types. Each path has a 16-lane type (a box; also triads and messages) and an 8-lane type
// (a band's permutations), with the same method names; the engine calls them by name.

/// The matrix reductions of a 16-lane type and a box's message to its bands, from its rotations
/// and shuffles: every vector type but `x86::Avx512` takes these; that one has its own, with the
/// same results.
macro_rules! matrix_reductions {
    () => {
        /// Each lane: the OR of the other three lanes of its matrix row.
        #[inline(always)]
        pub fn others_in_row(self) -> Self {
            self.rot_rows1().or(self.rot_rows2()).or(self.rot_rows3())
        }
        /// Each lane: the OR of the other three lanes of its matrix column.
        #[inline(always)]
        pub fn others_in_col(self) -> Self {
            self.rot_cols1()
                .or(self.rot_cols2())
                .or(self.rot_cols1().rot_cols2())
        }
        /// Each lane: the OR of its matrix row.
        #[inline(always)]
        pub fn row_or(self) -> Self {
            let r = self.or(self.rot_rows1());
            r.or(r.rot_rows2())
        }
        /// Each lane: the OR of its matrix column.
        #[inline(always)]
        pub fn col_or(self) -> Self {
            let c = self.or(self.rot_cols1());
            c.or(c.rot_cols2())
        }
        /// Box `bx`'s message to its bands from its margin lanes (the others are ignored):
        /// the permutations to eliminate, horizontal band in the low half, vertical in the high.
        #[inline(always)]
        pub fn margins_to_bands(self, bx: usize) -> Self {
            let msg = self.and(Self::load(&$crate::triads::MARGINS));
            let lane2 = Self::load(&$crate::triads::LANE2);
            let folded = msg.or(msg.rot_rows1().rot_cols2().and(lane2));
            folded.shuffle(&$crate::triads::BOX_TO_BANDS[bx])
        }
    };
}

mod portable {
    //! Plain arrays: any target, and the reference for the vector paths.
    use super::{Lanes16, Lanes8, Shuffle};

    /// 16 lanes.
    #[derive(Clone, Copy)]
    #[repr(C, align(32))]
    pub struct V16([u16; 16]);

    /// 8 lanes.
    #[derive(Clone, Copy)]
    #[repr(C, align(16))]
    pub struct V8([u16; 8]);

    impl V16 {
        matrix_reductions!();

        #[inline(always)]
        fn map(self, f: impl Fn(u16) -> u16) -> V16 {
            V16(self.0.map(f))
        }
        #[inline(always)]
        fn zip(self, o: V16, f: impl Fn(u16, u16) -> u16) -> V16 {
            let mut out = [0u16; 16];
            for (i, x) in out.iter_mut().enumerate() {
                *x = f(self.0[i], o.0[i]);
            }
            V16(out)
        }
        #[inline(always)]
        pub fn load(c: &Lanes16) -> V16 {
            V16(c.0)
        }
        #[inline(always)]
        pub fn splat(x: u16) -> V16 {
            V16([x; 16])
        }
        #[inline(always)]
        pub fn lanes(self) -> [u16; 16] {
            self.0
        }
        #[inline(always)]
        pub fn and(self, o: V16) -> V16 {
            self.zip(o, |a, b| a & b)
        }
        #[inline(always)]
        pub fn or(self, o: V16) -> V16 {
            self.zip(o, |a, b| a | b)
        }
        #[inline(always)]
        pub fn xor(self, o: V16) -> V16 {
            self.zip(o, |a, b| a ^ b)
        }
        /// `self & !o`.
        #[inline(always)]
        pub fn andnot(self, o: V16) -> V16 {
            self.zip(o, |a, b| a & !b)
        }
        #[inline(always)]
        pub fn popcounts(self) -> V16 {
            self.map(|a| a.count_ones() as u16)
        }
        #[inline(always)]
        pub fn eq(self, o: V16) -> V16 {
            self.zip(o, |a, b| if a == b { 0xffff } else { 0 })
        }
        #[inline(always)]
        pub fn nonzero(self) -> V16 {
            self.map(|a| if a != 0 { 0xffff } else { 0 })
        }
        #[inline(always)]
        pub fn any_lt(self, o: V16) -> bool {
            self.0.iter().zip(o.0.iter()).any(|(a, b)| a < b)
        }
        #[inline(always)]
        pub fn is_zero(self) -> bool {
            self.0.iter().all(|&a| a == 0)
        }
        #[inline(always)]
        fn rot_rows(self, k: usize) -> V16 {
            V16(std::array::from_fn(|o| self.0[o / 4 * 4 + (o + k) % 4]))
        }
        #[inline(always)]
        fn rot_cols(self, k: usize) -> V16 {
            V16(std::array::from_fn(|o| self.0[(o + 4 * k) % 16]))
        }
        #[inline(always)]
        pub fn rot_rows1(self) -> V16 {
            self.rot_rows(1)
        }
        #[inline(always)]
        pub fn rot_rows2(self) -> V16 {
            self.rot_rows(2)
        }
        #[inline(always)]
        pub fn rot_rows3(self) -> V16 {
            self.rot_rows(3)
        }
        #[inline(always)]
        pub fn rot_cols1(self) -> V16 {
            self.rot_cols(1)
        }
        #[inline(always)]
        pub fn rot_cols2(self) -> V16 {
            self.rot_cols(2)
        }
        #[inline(always)]
        pub fn shuffle(self, c: &Shuffle) -> V16 {
            V16(std::array::from_fn(|o| {
                let b = c.0[2 * o];
                if b & 0x80 != 0 {
                    0
                } else {
                    self.0[o / 8 * 8 + (b / 2) as usize]
                }
            }))
        }
        #[inline(always)]
        pub fn lo(self) -> V8 {
            V8(std::array::from_fn(|i| self.0[i]))
        }
        #[inline(always)]
        pub fn hi(self) -> V8 {
            V8(std::array::from_fn(|i| self.0[8 + i]))
        }
        #[inline(always)]
        pub fn dup(x: V8) -> V16 {
            V16(std::array::from_fn(|i| x.0[i % 8]))
        }
    }

    impl V8 {
        #[inline(always)]
        pub fn load(c: &Lanes8) -> V8 {
            V8(c.0)
        }
        #[inline(always)]
        pub fn from_lanes(l: [u16; 8]) -> V8 {
            V8(l)
        }
        #[inline(always)]
        pub fn lanes(self) -> [u16; 8] {
            self.0
        }
        #[inline(always)]
        pub fn zero() -> V8 {
            V8([0; 8])
        }
        #[inline(always)]
        pub fn splat(x: u16) -> V8 {
            V8([x; 8])
        }
        #[inline(always)]
        pub fn and(self, o: V8) -> V8 {
            V8(std::array::from_fn(|i| self.0[i] & o.0[i]))
        }
        #[inline(always)]
        pub fn or(self, o: V8) -> V8 {
            V8(std::array::from_fn(|i| self.0[i] | o.0[i]))
        }
        #[inline(always)]
        pub fn andnot(self, o: V8) -> V8 {
            V8(std::array::from_fn(|i| self.0[i] & !o.0[i]))
        }
        #[inline(always)]
        pub fn intersects(self, o: V8) -> bool {
            self.0.iter().zip(o.0.iter()).any(|(a, b)| a & b != 0)
        }
        #[inline(always)]
        pub fn popcount(self) -> u32 {
            self.0.iter().map(|a| a.count_ones()).sum()
        }
        /// Lanes 0..4 of `self`, then lanes 0..4 of `o`.
        #[inline(always)]
        pub fn unpack_lo(self, o: V8) -> V8 {
            V8(std::array::from_fn(|i| {
                if i < 4 {
                    self.0[i]
                } else {
                    o.0[i - 4]
                }
            }))
        }
        /// Lanes 4..8 of `self`, then lanes 4..8 of `o`.
        #[inline(always)]
        pub fn unpack_hi(self, o: V8) -> V8 {
            V8(std::array::from_fn(|i| {
                if i < 4 {
                    self.0[4 + i]
                } else {
                    o.0[i]
                }
            }))
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)]
mod x86 {
    //! x86-64 vectors. The methods are `#[inline(always)]` wrappers around `std::arch`
    //! intrinsics, inlined into the engine functions of their path, which carry the path's
    //! `#[target_feature]`s. SAFETY (for every `unsafe` block here): SSE2 is part of x86-64;
    //! a `Pair<true>` (SSSE3), an `Avx` (AVX2) or an `Avx512` value exists only inside the
    //! engine of its path, which `Triads` enters only after `is_x86_feature_detected!` found
    //! the features.
    use super::{Lanes16, Lanes8, Shuffle};
    use std::arch::x86_64::*;

    /// 8 lanes in one `__m128i` (SSE2 only), for every x86 path.
    #[derive(Clone, Copy)]
    pub struct X8(__m128i);

    impl X8 {
        #[inline(always)]
        pub fn load(c: &Lanes8) -> X8 {
            X8(unsafe { _mm_load_si128(c.0.as_ptr().cast()) })
        }
        #[inline(always)]
        pub fn from_lanes(l: [u16; 8]) -> X8 {
            X8(unsafe { _mm_loadu_si128(l.as_ptr().cast()) })
        }
        #[inline(always)]
        pub fn lanes(self) -> [u16; 8] {
            let mut out = [0u16; 8];
            unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), self.0) };
            out
        }
        #[inline(always)]
        pub fn zero() -> X8 {
            X8(unsafe { _mm_setzero_si128() })
        }
        #[inline(always)]
        pub fn splat(x: u16) -> X8 {
            X8(unsafe { _mm_set1_epi16(x as i16) })
        }
        #[inline(always)]
        pub fn and(self, o: X8) -> X8 {
            X8(unsafe { _mm_and_si128(self.0, o.0) })
        }
        #[inline(always)]
        pub fn or(self, o: X8) -> X8 {
            X8(unsafe { _mm_or_si128(self.0, o.0) })
        }
        #[inline(always)]
        pub fn andnot(self, o: X8) -> X8 {
            X8(unsafe { _mm_andnot_si128(o.0, self.0) })
        }
        #[inline(always)]
        pub fn intersects(self, o: X8) -> bool {
            unsafe {
                let x = _mm_and_si128(self.0, o.0);
                _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())) != 0xffff
            }
        }
        #[inline(always)]
        pub fn popcount(self) -> u32 {
            unsafe {
                let lo = _mm_cvtsi128_si64(self.0) as u64;
                let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(self.0, self.0)) as u64;
                lo.count_ones() + hi.count_ones()
            }
        }
        #[inline(always)]
        pub fn unpack_lo(self, o: X8) -> X8 {
            X8(unsafe { _mm_unpacklo_epi64(self.0, o.0) })
        }
        #[inline(always)]
        pub fn unpack_hi(self, o: X8) -> X8 {
            X8(unsafe { _mm_unpackhi_epi64(self.0, o.0) })
        }
    }

    #[inline(always)]
    unsafe fn popcounts_swar(x: __m128i) -> __m128i {
        unsafe {
            let x = _mm_sub_epi16(
                x,
                _mm_and_si128(_mm_srli_epi16(x, 1), _mm_set1_epi16(0x5555)),
            );
            let m2 = _mm_set1_epi16(0x3333);
            let x = _mm_add_epi16(
                _mm_and_si128(x, m2),
                _mm_and_si128(_mm_srli_epi16(x, 2), m2),
            );
            let x = _mm_and_si128(
                _mm_add_epi16(x, _mm_srli_epi16(x, 4)),
                _mm_set1_epi16(0x0f0f),
            );
            _mm_and_si128(_mm_add_epi16(x, _mm_srli_epi16(x, 8)), _mm_set1_epi16(0x1f))
        }
    }

    #[target_feature(enable = "ssse3")]
    #[inline]
    unsafe fn popcounts_ssse3(x: __m128i) -> __m128i {
        let lut = _mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
        let nib = _mm_set1_epi8(0x0f);
        let lo = _mm_shuffle_epi8(lut, _mm_and_si128(x, nib));
        let hi = _mm_shuffle_epi8(lut, _mm_and_si128(_mm_srli_epi16(x, 4), nib));
        let bytes = _mm_add_epi8(lo, hi);
        _mm_and_si128(
            _mm_add_epi16(bytes, _mm_srli_epi16(bytes, 8)),
            _mm_set1_epi16(0xff),
        )
    }

    #[target_feature(enable = "ssse3")]
    #[inline]
    unsafe fn shuffle_ssse3(x: __m128i, c: __m128i) -> __m128i {
        _mm_shuffle_epi8(x, c)
    }

    /// 16 lanes in two `__m128i` (rows 0-1, rows 2-3); `SSSE3` picks `pshufb` shuffles.
    #[derive(Clone, Copy)]
    pub struct Pair<const SSSE3: bool> {
        lo: __m128i,
        hi: __m128i,
    }

    impl<const SSSE3: bool> Pair<SSSE3> {
        matrix_reductions!();

        #[inline(always)]
        fn both(self, o: Self, f: impl Fn(__m128i, __m128i) -> __m128i) -> Self {
            Pair {
                lo: f(self.lo, o.lo),
                hi: f(self.hi, o.hi),
            }
        }
        #[inline(always)]
        fn each(self, f: impl Fn(__m128i) -> __m128i) -> Self {
            Pair {
                lo: f(self.lo),
                hi: f(self.hi),
            }
        }
        #[inline(always)]
        pub fn load(c: &Lanes16) -> Self {
            unsafe {
                Pair {
                    lo: _mm_load_si128(c.0.as_ptr().cast()),
                    hi: _mm_load_si128(c.0.as_ptr().add(8).cast()),
                }
            }
        }
        #[inline(always)]
        pub fn splat(x: u16) -> Self {
            let v = unsafe { _mm_set1_epi16(x as i16) };
            Pair { lo: v, hi: v }
        }
        #[inline(always)]
        pub fn lanes(self) -> [u16; 16] {
            let mut out = [0u16; 16];
            unsafe {
                _mm_storeu_si128(out.as_mut_ptr().cast(), self.lo);
                _mm_storeu_si128(out.as_mut_ptr().add(8).cast(), self.hi);
            }
            out
        }
        #[inline(always)]
        pub fn and(self, o: Self) -> Self {
            self.both(o, |a, b| unsafe { _mm_and_si128(a, b) })
        }
        #[inline(always)]
        pub fn or(self, o: Self) -> Self {
            self.both(o, |a, b| unsafe { _mm_or_si128(a, b) })
        }
        #[inline(always)]
        pub fn xor(self, o: Self) -> Self {
            self.both(o, |a, b| unsafe { _mm_xor_si128(a, b) })
        }
        #[inline(always)]
        pub fn andnot(self, o: Self) -> Self {
            self.both(o, |a, b| unsafe { _mm_andnot_si128(b, a) })
        }
        #[inline(always)]
        pub fn popcounts(self) -> Self {
            if SSSE3 {
                self.each(|a| unsafe { popcounts_ssse3(a) })
            } else {
                self.each(|a| unsafe { popcounts_swar(a) })
            }
        }
        #[inline(always)]
        pub fn eq(self, o: Self) -> Self {
            self.both(o, |a, b| unsafe { _mm_cmpeq_epi16(a, b) })
        }
        #[inline(always)]
        pub fn nonzero(self) -> Self {
            self.each(|a| unsafe {
                _mm_xor_si128(_mm_cmpeq_epi16(a, _mm_setzero_si128()), _mm_set1_epi16(-1))
            })
        }
        #[inline(always)]
        pub fn any_lt(self, o: Self) -> bool {
            unsafe {
                let lt = _mm_or_si128(
                    _mm_cmplt_epi16(self.lo, o.lo),
                    _mm_cmplt_epi16(self.hi, o.hi),
                );
                _mm_movemask_epi8(lt) != 0
            }
        }
        #[inline(always)]
        pub fn is_zero(self) -> bool {
            unsafe {
                let x = _mm_or_si128(self.lo, self.hi);
                _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())) == 0xffff
            }
        }
        #[inline(always)]
        pub fn rot_rows1(self) -> Self {
            self.each(|a| unsafe { _mm_or_si128(_mm_srli_epi64(a, 16), _mm_slli_epi64(a, 48)) })
        }
        #[inline(always)]
        pub fn rot_rows2(self) -> Self {
            self.each(|a| unsafe { _mm_shuffle_epi32(a, 0b10_11_00_01) })
        }
        #[inline(always)]
        pub fn rot_rows3(self) -> Self {
            self.each(|a| unsafe { _mm_or_si128(_mm_srli_epi64(a, 48), _mm_slli_epi64(a, 16)) })
        }
        #[inline(always)]
        pub fn rot_cols1(self) -> Self {
            unsafe {
                let (lo, hi) = (_mm_castsi128_pd(self.lo), _mm_castsi128_pd(self.hi));
                Pair {
                    lo: _mm_castpd_si128(_mm_shuffle_pd(lo, hi, 0b01)),
                    hi: _mm_castpd_si128(_mm_shuffle_pd(hi, lo, 0b01)),
                }
            }
        }
        #[inline(always)]
        pub fn rot_cols2(self) -> Self {
            Pair {
                lo: self.hi,
                hi: self.lo,
            }
        }
        #[inline(always)]
        pub fn shuffle(self, c: &Shuffle) -> Self {
            if SSSE3 {
                unsafe {
                    let clo = _mm_load_si128(c.0.as_ptr().cast());
                    let chi = _mm_load_si128(c.0.as_ptr().add(16).cast());
                    Pair {
                        lo: shuffle_ssse3(self.lo, clo),
                        hi: shuffle_ssse3(self.hi, chi),
                    }
                }
            } else {
                let l = self.lanes();
                let out: [u16; 16] = std::array::from_fn(|o| {
                    let b = c.0[2 * o];
                    if b & 0x80 != 0 {
                        0
                    } else {
                        l[o / 8 * 8 + (b / 2) as usize]
                    }
                });
                Self::load(&Lanes16(out))
            }
        }
        #[inline(always)]
        pub fn lo(self) -> X8 {
            X8(self.lo)
        }
        #[inline(always)]
        pub fn hi(self) -> X8 {
            X8(self.hi)
        }
        #[inline(always)]
        pub fn dup(x: X8) -> Self {
            Pair { lo: x.0, hi: x.0 }
        }
    }

    /// The methods of [`Avx`] and [`Avx512`] that are the same AVX2 instructions on both (the
    /// paths differ in the others).
    macro_rules! avx256_common {
        () => {
            #[inline(always)]
            pub fn load(c: &Lanes16) -> Self {
                Self(unsafe { _mm256_load_si256(c.0.as_ptr().cast()) })
            }
            #[inline(always)]
            pub fn splat(x: u16) -> Self {
                Self(unsafe { _mm256_set1_epi16(x as i16) })
            }
            #[inline(always)]
            pub fn lanes(self) -> [u16; 16] {
                let mut out = [0u16; 16];
                unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self.0) };
                out
            }
            #[inline(always)]
            pub fn and(self, o: Self) -> Self {
                Self(unsafe { _mm256_and_si256(self.0, o.0) })
            }
            #[inline(always)]
            pub fn or(self, o: Self) -> Self {
                Self(unsafe { _mm256_or_si256(self.0, o.0) })
            }
            #[inline(always)]
            pub fn xor(self, o: Self) -> Self {
                Self(unsafe { _mm256_xor_si256(self.0, o.0) })
            }
            #[inline(always)]
            pub fn eq(self, o: Self) -> Self {
                Self(unsafe { _mm256_cmpeq_epi16(self.0, o.0) })
            }
            #[inline(always)]
            pub fn nonzero(self) -> Self {
                unsafe {
                    Self(_mm256_xor_si256(
                        _mm256_cmpeq_epi16(self.0, _mm256_setzero_si256()),
                        _mm256_set1_epi16(-1),
                    ))
                }
            }
            #[inline(always)]
            pub fn is_zero(self) -> bool {
                unsafe { _mm256_testz_si256(self.0, self.0) != 0 }
            }
            #[inline(always)]
            pub fn rot_cols1(self) -> Self {
                Self(unsafe { _mm256_permute4x64_epi64(self.0, 0b00_11_10_01) })
            }
            #[inline(always)]
            pub fn rot_cols2(self) -> Self {
                Self(unsafe { _mm256_permute4x64_epi64(self.0, 0b01_00_11_10) })
            }
            #[inline(always)]
            pub fn lo(self) -> X8 {
                X8(unsafe { _mm256_castsi256_si128(self.0) })
            }
            #[inline(always)]
            pub fn hi(self) -> X8 {
                X8(unsafe { _mm256_extracti128_si256(self.0, 1) })
            }
            #[inline(always)]
            pub fn dup(x: X8) -> Self {
                Self(unsafe { _mm256_broadcastsi128_si256(x.0) })
            }
        };
    }

    /// 16 lanes in one `__m256i` (AVX2).
    #[derive(Clone, Copy)]
    pub struct Avx(__m256i);

    impl Avx {
        avx256_common!();
        matrix_reductions!();

        #[inline(always)]
        fn ctrl(c: &Shuffle) -> __m256i {
            unsafe { _mm256_load_si256(c.0.as_ptr().cast()) }
        }
        #[inline(always)]
        pub fn andnot(self, o: Avx) -> Avx {
            Avx(unsafe { _mm256_andnot_si256(o.0, self.0) })
        }
        #[inline(always)]
        pub fn popcounts(self) -> Avx {
            unsafe {
                let lut = _mm256_setr_epi8(
                    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2,
                    2, 3, 2, 3, 3, 4,
                );
                let nib = _mm256_set1_epi8(0x0f);
                let lo = _mm256_shuffle_epi8(lut, _mm256_and_si256(self.0, nib));
                let hi =
                    _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(self.0, 4), nib));
                let bytes = _mm256_add_epi8(lo, hi);
                Avx(_mm256_and_si256(
                    _mm256_add_epi16(bytes, _mm256_srli_epi16(bytes, 8)),
                    _mm256_set1_epi16(0xff),
                ))
            }
        }
        #[inline(always)]
        pub fn any_lt(self, o: Avx) -> bool {
            unsafe { _mm256_movemask_epi8(_mm256_cmpgt_epi16(o.0, self.0)) != 0 }
        }
        #[inline(always)]
        pub fn rot_rows1(self) -> Avx {
            Avx(unsafe { _mm256_shuffle_epi8(self.0, Self::ctrl(&super::ROTATE_ROWS[0])) })
        }
        #[inline(always)]
        pub fn rot_rows2(self) -> Avx {
            Avx(unsafe { _mm256_shuffle_epi32(self.0, 0b10_11_00_01) })
        }
        #[inline(always)]
        pub fn rot_rows3(self) -> Avx {
            Avx(unsafe { _mm256_shuffle_epi8(self.0, Self::ctrl(&super::ROTATE_ROWS[1])) })
        }
        #[inline(always)]
        pub fn shuffle(self, c: &Shuffle) -> Avx {
            Avx(unsafe { _mm256_shuffle_epi8(self.0, Self::ctrl(c)) })
        }
    }

    /// 16 lanes in one `__m256i`, with AVX-512 (F, VL, BW) on 256-bit vectors: the compiler
    /// fuses chains of and/or/xor/andnot into ternary-logic instructions, comparisons that end
    /// in a branch go to mask registers (`vpcmpuw`, `kortest`), matrix rows rotate with 64-bit
    /// rotates (`vprorq`) instead of byte shuffles, which leaves the shuffle port to the table
    /// shuffles, and lane popcounts of 9-bit sets need fewer masks (seven instructions, not
    /// nine).
    #[cfg(avx512_intrinsics)]
    #[derive(Clone, Copy)]
    pub struct Avx512(__m256i);

    #[cfg(avx512_intrinsics)]
    #[clippy::msrv = "1.89"]
    impl Avx512 {
        avx256_common!();
        #[inline(always)]
        pub fn andnot(self, o: Avx512) -> Avx512 {
            Avx512(unsafe { _mm256_andnot_si256(o.0, self.0) })
        }
        /// Lane popcounts of 9-bit lanes (every lane the engine counts is a set of digits,
        /// bits 0..9): bits 0..4 and 4..8 through the nibble table, bit 8 by a shift. The
        /// nibble of bits 4..8 needs no mask: after the 16-bit shift its byte holds bits 4..12,
        /// whose bit 7 (bit 11 of the lane) is clear, so the table reads bits 4..8 only, and the
        /// high byte is 0.
        #[inline(always)]
        pub fn popcounts(self) -> Avx512 {
            unsafe {
                let lut = _mm256_setr_epi8(
                    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2,
                    2, 3, 2, 3, 3, 4,
                );
                let low =
                    _mm256_shuffle_epi8(lut, _mm256_and_si256(self.0, _mm256_set1_epi16(0x0f)));
                let mid = _mm256_shuffle_epi8(lut, _mm256_srli_epi16(self.0, 4));
                Avx512(_mm256_add_epi16(
                    _mm256_add_epi16(low, mid),
                    _mm256_srli_epi16(self.0, 8),
                ))
            }
        }
        #[inline(always)]
        pub fn any_lt(self, o: Avx512) -> bool {
            unsafe { _mm256_cmplt_epu16_mask(self.0, o.0) != 0 }
        }
        #[inline(always)]
        pub fn rot_rows1(self) -> Avx512 {
            Avx512(unsafe { _mm256_ror_epi64::<16>(self.0) })
        }
        #[inline(always)]
        pub fn rot_rows2(self) -> Avx512 {
            Avx512(unsafe { _mm256_ror_epi64::<32>(self.0) })
        }
        #[inline(always)]
        pub fn rot_rows3(self) -> Avx512 {
            Avx512(unsafe { _mm256_ror_epi64::<48>(self.0) })
        }
        #[inline(always)]
        fn rot_cols3(self) -> Avx512 {
            Avx512(unsafe { _mm256_permute4x64_epi64(self.0, 0b10_01_00_11) })
        }
        /// `a | b | c` in one ternary-logic instruction.
        #[inline(always)]
        fn or3(a: Avx512, b: Avx512, c: Avx512) -> Avx512 {
            Avx512(unsafe { _mm256_ternarylogic_epi64::<0xfe>(a.0, b.0, c.0) })
        }
        // The reductions take the three rotations side by side and OR them in one or two
        // ternary-logic steps: a shorter dependency chain than rotating twice in sequence, on
        // the loop of `narrow_box` that waits for each step.
        /// Each lane: the OR of the other three lanes of its matrix row.
        #[inline(always)]
        pub fn others_in_row(self) -> Avx512 {
            Avx512::or3(self.rot_rows1(), self.rot_rows2(), self.rot_rows3())
        }
        /// Each lane: the OR of the other three lanes of its matrix column.
        #[inline(always)]
        pub fn others_in_col(self) -> Avx512 {
            Avx512::or3(self.rot_cols1(), self.rot_cols2(), self.rot_cols3())
        }
        /// Each lane: the OR of its matrix row.
        #[inline(always)]
        pub fn row_or(self) -> Avx512 {
            Avx512::or3(self, self.rot_rows1(), self.rot_rows2()).or(self.rot_rows3())
        }
        /// Each lane: the OR of its matrix column.
        #[inline(always)]
        pub fn col_or(self) -> Avx512 {
            Avx512::or3(self, self.rot_cols1(), self.rot_cols2()).or(self.rot_cols3())
        }
        /// Box `bx`'s message to its bands: one permutation across the vector, which reads the
        /// margin lanes only, the negative triad of row 2 in its own lane.
        #[inline(always)]
        pub fn margins_to_bands(self, bx: usize) -> Avx512 {
            let p = &super::BOX_TO_BANDS_ACROSS[bx];
            unsafe {
                let src = _mm256_load_si256(p.src.0.as_ptr().cast());
                Avx512(_mm256_maskz_permutexvar_epi16(p.keep, src, self.0))
            }
        }
        #[inline(always)]
        pub fn shuffle(self, c: &Shuffle) -> Avx512 {
            Avx512(unsafe { _mm256_shuffle_epi8(self.0, _mm256_load_si256(c.0.as_ptr().cast())) })
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The engine, once per path.

/// The nonempty cells of `cells` (81 digits, 0 = empty) as bits 0..81.
#[inline(always)]
fn given_bits(cells: &[u8; 81]) -> u128 {
    let mut bits = 0u128;
    for (k, chunk) in cells.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        // Bit 7 of each byte: set when the byte (a digit 0..=9) is nonzero.
        let hi = (x.wrapping_add(0x7f7f_7f7f_7f7f_7f7f) | x) & 0x8080_8080_8080_8080;
        // Gather the eight flags into one byte.
        let packed = (hi >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        bits |= (packed as u128) << (8 * k);
    }
    if cells[80] != 0 {
        bits |= 1 << 80;
    }
    bits
}

/// The digit bit to branch on among a band's six permutation lanes: the lowest digit with two
/// permutations left, else three, and so on (the band has ten or more, so some digit has two).
/// With `widest`, the other way round: the lowest digit with the most permutations left (six,
/// else five, and so on).
#[inline(always)]
fn pick_digit(lanes: &[u16; 8], widest: bool) -> u16 {
    // Bit-sliced count (0..=6) per digit: b0 + 2 b1 + 4 b2.
    let (mut b0, mut b1, mut b2) = (0u16, 0u16, 0u16);
    for &x in &lanes[..6] {
        let c0 = b0 & x;
        b0 ^= x;
        let c1 = b1 & c0;
        b1 ^= c0;
        b2 |= c1;
    }
    let by_count = [
        !b0 & b1 & !b2,
        b0 & b1 & !b2,
        !b0 & !b1 & b2,
        b0 & !b1 & b2,
        !b0 & b1 & b2,
    ];
    let mut pick = 0;
    for set in by_count {
        let set = set & ALL9;
        if set != 0 {
            pick = set & set.wrapping_neg();
            if !widest {
                break;
            }
        }
    }
    pick
}

/// The grid of a solved state's boxes (every cell lane one candidate), row-major digits.
fn solved_grid(boxes: [[u16; 16]; 9]) -> [u8; 81] {
    let mut rows = [[0u8; 9]; 9];
    for bi in 0..3 {
        for bj in 0..3 {
            let b = &boxes[bi * 3 + bj];
            for i in 0..3 {
                for j in 0..3 {
                    rows[bi * 3 + i][bj * 3 + j] = b[lane(i, j)].trailing_zeros() as u8 + 1;
                }
            }
        }
    }
    let mut out = [0u8; 81];
    for (o, r) in out.chunks_exact_mut(9).zip(rows.iter()) {
        o.copy_from_slice(r);
    }
    out
}

/// The engine over a path's vector types. The attributes go on every function; or, given as
/// `propagate: [...], search: [...]`, the first set on the propagation (box and band updates),
/// the second on the search and the setup, which copy states and read the givens: the AVX-512
/// path keeps those on AVX2, so that the compiler does not widen their copies and loops to
/// 512-bit registers (slow to start, and they take a vector port from the 256-bit work).
macro_rules! engine {
    ($name:ident, $v16:ty, $v8:ty $(, #[$attr:meta])*) => {
        engine!($name, $v16, $v8, propagate: [$(#[$attr])*], search: [$(#[$attr])*]);
    };
    (
        $name:ident, $v16:ty, $v8:ty,
        propagate: [$(#[$attr:meta])*],
        search: [$(#[$search:meta])*]
    ) => {
        // The search calls the propagation through `unsafe` blocks, needed when the two have
        // different features (SAFETY: `Triads` enters `run` only on a processor that has the
        // features of both), unused otherwise.
        #[allow(unused_unsafe)]
        mod $name {
            use super::*;
            type V = $v16;
            type H = $v8;

            #[derive(Clone, Copy)]
            struct Band {
                /// Lane k < 6: digits for which permutation k is possible.
                perms: H,
                /// Permutations to eliminate at the next update (kept: the lanes only grow).
                elims: H,
            }

            #[derive(Clone, Copy)]
            struct State {
                boxes: [V; 9],
                /// 0..3 horizontal (box rows), 3..6 vertical (box columns).
                bands: [Band; 6],
            }

            /// Positive triads of a band: lane (p, e) = digits that may lie in row e of box p.
            #[inline(always)]
            fn triads(perms: H) -> V {
                let d = V::dup(perms);
                d.shuffle(&PERMS_TO_TRIADS[0]).or(d.shuffle(&PERMS_TO_TRIADS[1]))
            }

            /// Digits that occur in no other lane of their matrix row, or of their column.
            #[inline(always)]
            fn unique(x: V) -> V {
                x.andnot(x.others_in_row()).or(x.andnot(x.others_in_col()))
            }

            /// Removes from box `bx` every candidate outside `allowed`, propagates, and updates
            /// its two bands. False on a contradiction.
            $(#[$attr])*
            #[inline]
            fn restrict_box(s: &mut State, bx: usize, allowed: V, from_vertical: bool) -> bool {
                let elim = s.boxes[bx].andnot(allowed);
                elim.is_zero() || narrow_box(s, bx, elim, from_vertical)
            }

            /// [`restrict_box`] once `elim` (candidates to remove) is known to be nonempty.
            $(#[$attr])*
            fn narrow_box(s: &mut State, bx: usize, mut elim: V, from_vertical: bool) -> bool {
                let mut cells = s.boxes[bx];
                let min = V::load(&BOX_MIN);
                let cell_lanes = V::load(&CELLS);
                let (mut to_h, mut to_v) = (H::zero(), H::zero());
                loop {
                    cells = cells.andnot(elim);
                    let counts = cells.popcounts();
                    if counts.any_lt(min) {
                        return false;
                    }
                    let asserted = cells.and(counts.eq(min)).or(unique(cells));
                    let ac = asserted.and(cell_lanes);
                    // Digits asserted in each row (r), each column (c), the whole box (b).
                    let r = ac.row_or();
                    let c = ac.col_or();
                    let b = r.col_or();
                    let rc = r.or(c);
                    elim = b.and(cell_lanes).or(rc).or(ac.nonzero()).xor(ac);
                    // To the bands: asserted negative triads, and digits asserted in the other
                    // rows (columns), per margin lane.
                    let e = asserted.or(b.andnot(rc)).margins_to_bands(bx);
                    to_h = to_h.or(e.lo());
                    to_v = to_v.or(e.hi());
                    if elim.and(cells).is_zero() {
                        break;
                    }
                }
                s.boxes[bx] = cells;
                let (bi, bj) = (bx / 3, bx % 3);
                s.bands[bi].elims = s.bands[bi].elims.or(to_h);
                s.bands[3 + bj].elims = s.bands[3 + bj].elims.or(to_v);
                if from_vertical {
                    update_band(s, bi, bj) && update_band(s, 3 + bj, bi)
                } else {
                    update_band(s, 3 + bj, bi) && update_band(s, bi, bj)
                }
            }

            /// Applies band `band`'s pending eliminations and restricts its boxes, box
            /// `from_peer` last. False on a contradiction.
            $(#[$attr])*
            #[inline]
            fn update_band(s: &mut State, band: usize, from_peer: usize) -> bool {
                let Band { perms, elims } = s.bands[band];
                !perms.intersects(elims) || narrow_band(s, band, from_peer)
            }

            /// [`update_band`] once the band has pending eliminations.
            $(#[$attr])*
            fn narrow_band(s: &mut State, band: usize, from_peer: usize) -> bool {
                let Band { perms, elims } = s.bands[band];
                let mut perms = perms.andnot(elims);
                let mut t = triads(perms);
                // A triad with exactly three digits holds all three.
                let full = t.and(t.popcounts().eq(V::load(&THREE)));
                if !full.is_zero() {
                    let y = full
                        .shuffle(&TRIAD_ASSERTS[0])
                        .or(full.shuffle(&TRIAD_ASSERTS[1]))
                        .or(V::dup(full.lo()).shuffle(&TRIAD_ASSERTS[2]));
                    perms = perms.andnot(y.lo().or(y.hi()));
                    t = triads(perms);
                }
                s.bands[band].perms = perms;
                let others = t.shuffle(&ROTATE_TRIADS[0]).or(t.shuffle(&ROTATE_TRIADS[1]));
                let all = H::load(&MESSAGE_ALL);
                let to_box = [
                    t.lo().unpack_lo(others.lo()).or(all),
                    t.lo().unpack_hi(others.lo()).or(all),
                    t.hi().unpack_lo(others.hi()).or(all),
                ];
                let vertical = band >= 3;
                let idx = if vertical { band - 3 } else { band };
                let orient = &BAND_TO_BOX[vertical as usize];
                let p0 = if from_peer == 2 { 0 } else { from_peer + 1 };
                let p1 = if p0 == 2 { 0 } else { p0 + 1 };
                for p in [p0, p1, from_peer] {
                    let bx = if vertical { p * 3 + idx } else { idx * 3 + p };
                    if !restrict_box(s, bx, V::dup(to_box[p]).shuffle(orient), vertical) {
                        return false;
                    }
                }
                true
            }

            /// True when the leaf `s` (no band above nine permutations) is a solution: every
            /// band has exactly one permutation per digit and every cell one candidate. Then the
            /// grid is valid: each digit lies in one row and one column of each box (its two
            /// bands), every cell is within both of its triads, so a digit fills at most one
            /// cell per box, and per row (column) one box holds it.
            #[inline(always)]
            fn solved(s: &State) -> bool {
                for band in &s.bands {
                    let l = band.perms.lanes();
                    if l[0] | l[1] | l[2] | l[3] | l[4] | l[5] != ALL9 || band.perms.popcount() != 9 {
                        return false;
                    }
                }
                let (cells, one) = (V::load(&CELLS), V::load(&ONE_PER_CELL));
                s.boxes
                    .iter()
                    .all(|b| b.popcounts().and(cells).xor(one).is_zero())
            }

            /// Explores the node `s` (already counted and propagated). True when the search
            /// must stop (limit reached or budget spent).
            $(#[$search])*
            fn search(s: &mut State, tally: &mut Tally, wide_first: bool) -> bool {
                // Branches taken in place: each counts as a backtrack when this call fails.
                let mut in_place = 0;
                loop {
                    let mut best = usize::MAX;
                    let mut best_n = u32::MAX;
                    for (i, band) in s.bands.iter().enumerate() {
                        let n = band.perms.popcount();
                        if n >= 10 && n < best_n {
                            best = i;
                            best_n = n;
                        }
                    }
                    if best == usize::MAX {
                        if solved(s) && tally.solution(|| solved_grid(s.boxes.map(|b| b.lanes()))) {
                            return true;
                        }
                        tally.stats.backtracks += in_place;
                        return false;
                    }
                    let lanes = s.bands[best].perms.lanes();
                    let widest = wide_first
                        && tally.stats.backtracks == 0
                        && tally.stats.guesses >= WIDE_AFTER;
                    let m = pick_digit(&lanes, widest);
                    let first = lanes.iter().position(|&x| x & m != 0).unwrap_or(0);
                    let mut keep_first = [m; 8];
                    keep_first[first] = 0;
                    let mut drop_first = [0u16; 8];
                    drop_first[first] = m;
                    tally.stats.guesses += 1;
                    if tally.enter_node() {
                        return true;
                    }
                    let mut child = *s;
                    child.bands[best].elims =
                        child.bands[best].elims.or(H::from_lanes(keep_first));
                    if unsafe { update_band(&mut child, best, 0) }
                        && search(&mut child, tally, wide_first)
                    {
                        return true;
                    }
                    tally.stats.backtracks += 1;
                    if tally.enter_node() {
                        return true;
                    }
                    s.bands[best].elims = s.bands[best].elims.or(H::from_lanes(drop_first));
                    in_place += 1;
                    if !unsafe { update_band(s, best, 0) } {
                        tally.stats.backtracks += in_place;
                        return false;
                    }
                }
            }

            /// Solves or counts `cells` (81, 0 = empty) into `tally`.
            $(#[$search])*
            pub(super) fn run(cells: &[u8; 81], tally: &mut Tally, wide_first: bool) {
                let band = Band {
                    perms: H::load(&BAND_START),
                    elims: H::zero(),
                };
                let mut s = State {
                    boxes: [V::load(&BOX_START); 9],
                    bands: [band; 6],
                };
                // The givens: each box and both bands learn them, unpropagated. Two givens
                // of a digit in one unit leave a cell or a band digit without candidates, which
                // propagation (or, at the latest, the leaf check) finds.
                let mut bits = given_bits(cells);
                while bits != 0 {
                    let i = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let m = 1u16 << (cells[i].wrapping_sub(1) & 15);
                    let [_, _, bx, e, bi, bj, ei, ej] = CELL_AT[i].map(usize::from);
                    let (vm, hm) = (V::splat(m), H::splat(m));
                    let b = &mut s.boxes[bx];
                    *b = b.andnot(
                        V::load(&CLUE_OTHERS[e])
                            .and(vm)
                            .or(V::load(&CLUE_OWN[e]).andnot(vm)),
                    );
                    let h = &mut s.bands[bi].elims;
                    *h = h.or(H::load(&CLUE_PERMS[bj][ei]).and(hm));
                    let v = &mut s.bands[3 + bj].elims;
                    *v = v.or(H::load(&CLUE_PERMS[bi][ej]).and(hm));
                }
                for b in 0..6 {
                    if !unsafe { update_band(&mut s, b, b % 3) } {
                        return;
                    }
                }
                search(&mut s, tally, wide_first);
            }
        }
    };
}

engine!(portable_engine, portable::V16, portable::V8);
#[cfg(target_arch = "x86_64")]
engine!(sse2_engine, x86::Pair<false>, x86::X8);
#[cfg(target_arch = "x86_64")]
engine!(ssse3_engine, x86::Pair<true>, x86::X8, #[target_feature(enable = "ssse3")]);
#[cfg(target_arch = "x86_64")]
engine!(
    avx2_engine,
    x86::Avx,
    x86::X8,
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
);
#[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
#[clippy::msrv = "1.89"]
engine!(
    avx512_engine,
    x86::Avx512,
    x86::X8,
    propagate: [#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2,bmi1,bmi2,popcnt,lzcnt")]],
    search: [#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]]
);

// ---------------------------------------------------------------------------------------------
// Paths and the solver.

/// One compiled form of the engine; see the [module docs](self#simd-paths-chosen-at-run-time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SimdPath {
    /// Plain arrays, any target.
    Portable,
    /// Two SSE2 vectors per box (the x86-64 baseline), shuffles lane by lane.
    Sse2,
    /// Two SSE2 vectors per box, SSSE3 `pshufb` shuffles.
    Ssse3,
    /// One AVX2 vector per box.
    Avx2,
    /// One 256-bit vector per box, with AVX-512 (F, VL, BW) instructions.
    Avx512,
}

impl SimdPath {
    /// Every path, slowest first.
    pub const ALL: [SimdPath; 5] = [
        SimdPath::Portable,
        SimdPath::Sse2,
        SimdPath::Ssse3,
        SimdPath::Avx2,
        SimdPath::Avx512,
    ];

    /// The environment variable that forces a path: [`SimdPath::name`] values.
    pub const ENV: &'static str = "HARNESS_SIMD";

    /// The stable name: `portable`, `sse2`, `ssse3`, `avx2`, `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            SimdPath::Portable => "portable",
            SimdPath::Sse2 => "sse2",
            SimdPath::Ssse3 => "ssse3",
            SimdPath::Avx2 => "avx2",
            SimdPath::Avx512 => "avx512",
        }
    }

    /// True when this processor can run the path (checked at run time) and this build has it
    /// (`avx512` needs Rust 1.89 or newer at build time).
    pub fn available(self) -> bool {
        match self {
            SimdPath::Portable => true,
            #[cfg(target_arch = "x86_64")]
            SimdPath::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            SimdPath::Ssse3 => std::arch::is_x86_feature_detected!("ssse3"),
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("popcnt")
                    && std::arch::is_x86_feature_detected!("lzcnt")
            }
            #[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
            SimdPath::Avx512 => {
                SimdPath::Avx2.available()
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(all(target_arch = "x86_64", avx512_intrinsics)))]
            _ => false,
        }
    }

    /// The paths this processor can run, slowest first.
    pub fn available_paths() -> Vec<SimdPath> {
        SimdPath::ALL
            .into_iter()
            .filter(|p| p.available())
            .collect()
    }

    /// The fastest path this processor can run.
    pub fn best() -> SimdPath {
        SimdPath::available_paths()
            .pop()
            .unwrap_or(SimdPath::Portable)
    }

    /// The path named by [`SimdPath::ENV`]: `None` when unset, else the parse result.
    pub fn from_env() -> Option<Result<SimdPath, UnknownSimdPath>> {
        std::env::var(SimdPath::ENV).ok().map(|s| s.parse())
    }
}

/// A name that is no [`SimdPath`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown SIMD path {0:?}; known: portable, sse2, ssse3, avx2, avx512")]
pub struct UnknownSimdPath(pub String);

crate::text_by_name!(SimdPath, UnknownSimdPath);

/// The `triads` solver on one [`SimdPath`].
#[derive(Debug, Clone, Copy)]
pub struct Triads {
    path: SimdPath,
    /// Branch on the widest digit until the first backtrack ([`Triads::wide_first`]).
    wide_first: bool,
}

impl Default for Triads {
    fn default() -> Triads {
        Triads::new()
    }
}

impl Triads {
    /// The path named by `HARNESS_SIMD` when this processor has it, else the fastest one.
    pub fn new() -> Triads {
        let path = match SimdPath::from_env() {
            Some(Ok(p)) if p.available() => p,
            _ => SimdPath::best(),
        };
        Triads {
            path,
            wide_first: false,
        }
    }

    /// The solver on `path`, or `None` when this processor cannot run it.
    pub fn with_path(path: SimdPath) -> Option<Triads> {
        path.available().then_some(Triads {
            path,
            wide_first: false,
        })
    }

    /// The path this solver runs.
    pub fn path(&self) -> SimdPath {
        self.path
    }

    /// The same solver, branching *wide first* until its first backtrack: after the first
    /// [`WIDE_AFTER`] guesses (taken fail-first, as always), each guess takes, in the band
    /// chosen as always (the fewest permutations), the digit with the most permutations left
    /// instead of the fewest; the first backtrack brings back the fail-first choice for the rest
    /// of the solve. On a puzzle with many solutions nearly every guess leads to one, and a guess
    /// that fixes one of six placements of a digit settles more of the grid than one of two, so
    /// fewer guesses reach a solution: on 1,000 puzzles of 18 to 26 random givens, 14% fewer
    /// nodes to the first solution and 10% fewer to count two (7% and 5% fewer instructions:
    /// each wide guess propagates further). A puzzle with one solution nearly always backtracks
    /// within its first six guesses and is searched as before (on the first 1,000 of the
    /// 17-clue, magictour and forum-hardest sets, at most 0.1% more nodes).
    /// The `hybrid` portfolio's setting; `triads` itself branches fail-first throughout.
    pub fn wide_first(self) -> Triads {
        Triads {
            wide_first: true,
            ..self
        }
    }

    /// The search of `puzzle` up to `limit` solutions on this path.
    pub(crate) fn run<'a>(&self, puzzle: &Grid, limit: u64, budget: &'a Budget) -> Tally<'a> {
        let mut tally = Tally::new(limit, budget);
        if tally.out_of_budget {
            return tally;
        }
        let cells = puzzle.cells();
        match self.path {
            #[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
            SimdPath::Avx512 => {
                // SAFETY: a `Triads` holds `Avx512` only when `SimdPath::available` found
                // AVX-512 F, VL and BW besides everything the AVX2 path needs.
                unsafe { avx512_engine::run(cells, &mut tally, self.wide_first) }
            }
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => {
                // SAFETY: a `Triads` holds `Avx2` only when `SimdPath::available` found AVX2,
                // BMI1, BMI2, POPCNT and LZCNT.
                unsafe { avx2_engine::run(cells, &mut tally, self.wide_first) }
            }
            #[cfg(target_arch = "x86_64")]
            SimdPath::Ssse3 => {
                // SAFETY: a `Triads` holds `Ssse3` only when SSSE3 was detected.
                unsafe { ssse3_engine::run(cells, &mut tally, self.wide_first) }
            }
            #[cfg(target_arch = "x86_64")]
            SimdPath::Sse2 => sse2_engine::run(cells, &mut tally, self.wide_first),
            _ => portable_engine::run(cells, &mut tally, self.wide_first),
        }
        tally
    }
}

impl Solver for Triads {
    fn caps(&self) -> Caps {
        Caps::POLLED_SEARCH
    }

    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Option<Outcome> {
        Some(
            self.run(&puzzle.to_grid()?, 1, budget)
                .outcome(Shape::CLASSIC),
        )
    }

    fn count(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Option<Count> {
        Some(
            self.run(&puzzle.to_grid()?, limit, budget)
                .count(Shape::CLASSIC),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard_bands::BitboardBands;
    use crate::test_puzzles::OnGrid;
    use crate::test_puzzles::{SEED, SEED_SOLUTION};
    use crate::Status;

    /// Hard and odd puzzles: a 17-clue one, two of the hardest known, one with two solutions.
    const PUZZLES: &[&str] = &[
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        "2.6.......7....3...1.5.3...5.2..........4...7...8.....9.7..6.........8.....1...9.",
    ];

    fn grid(s: &str) -> Grid {
        Grid::parse_line(s).unwrap()
    }

    /// A full check of a solution: every unit holds nine digits, and the givens are kept.
    fn is_solution_of(sol: &Grid, puzzle: &Grid) -> bool {
        let c = sol.cells();
        let units_ok = (0..9).all(|u| {
            let mut row = 0u16;
            let mut col = 0u16;
            let mut bx = 0u16;
            for k in 0..9 {
                row |= 1 << c[u * 9 + k];
                col |= 1 << c[k * 9 + u];
                bx |= 1 << c[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
            }
            row == 0x3fe && col == 0x3fe && bx == 0x3fe
        });
        units_ok
            && puzzle
                .cells()
                .iter()
                .zip(c.iter())
                .all(|(&p, &s)| p == 0 || p == s)
    }

    #[test]
    fn tables_stay_consistent() {
        // Every (box, row) lies on exactly two permutations, and they differ.
        for p in 0..3 {
            for e in 0..3 {
                assert_ne!(perm_with(p, e, 0), perm_with(p, e, 1));
            }
        }
        // Box 4's message: permutation 0 puts the digit in row 1 of box 1, column 1 of box 1.
        let m = BOX_TO_BANDS[4].0;
        assert_eq!(m[0], 2 * 7);
        assert_eq!(m[16], 2 * 5);
        assert_eq!(
            pick_digit(&[0b11, 0b01, 0b10, 0b10, 0, 0, 0, 0], false),
            0b01
        );
        assert_eq!(
            pick_digit(&[0b11, 0b01, 0b10, 0b10, 0, 0, 0, 0], true),
            0b10
        );
    }

    /// The paths this processor runs; says which of [`SimdPath::ALL`] are left untested here
    /// (shown with `--nocapture`; `cargo test --workspace` ends with the same list).
    fn tested_paths() -> Vec<SimdPath> {
        for p in SimdPath::ALL.into_iter().filter(|p| !p.available()) {
            eprintln!("SIMD path {p} skipped: not available (processor or compiler)");
        }
        SimdPath::available_paths()
    }

    #[test]
    fn every_path_solves_and_counts_like_bitboard_bands() {
        let unlimited = Budget::unlimited();
        for path in tested_paths() {
            let mut t = Triads::with_path(path).unwrap();
            let out = t.solve_grid(&grid(SEED), &unlimited);
            assert_eq!(out.status, Status::Solved, "{path}");
            assert_eq!(out.solution.unwrap(), grid(SEED_SOLUTION), "{path}");
            for p in PUZZLES {
                let g = grid(p);
                let ours = t.count_grid(&g, 3, &unlimited).unwrap();
                let theirs = BitboardBands.count_grid(&g, 3, &unlimited).unwrap();
                assert_eq!(ours.solutions, theirs.solutions, "{path} {p}");
                assert!(ours.complete);
                assert!(
                    is_solution_of(ours.first.as_ref().unwrap(), &g),
                    "{path} {p}"
                );
            }
            let c = t.count_grid(&Grid::EMPTY, 5, &unlimited).unwrap();
            assert_eq!(c.solutions, 5, "{path}");
        }
    }

    #[test]
    fn every_path_gives_the_same_counters() {
        let unlimited = Budget::unlimited();
        let portable = Triads::with_path(SimdPath::Portable).unwrap();
        // Branching fail-first and wide first; the empty grid counted to 50 takes many guesses.
        let grids: Vec<(Grid, u64)> = PUZZLES
            .iter()
            .map(|p| (grid(p), 2))
            .chain([(grid(SEED), 2), (Grid::EMPTY, 50)])
            .collect();
        for path in tested_paths() {
            let t = Triads::with_path(path).unwrap();
            for (mut ours, mut reference) in
                [(t, portable), (t.wide_first(), portable.wide_first())]
            {
                for (g, limit) in &grids {
                    assert_eq!(
                        ours.count_grid(g, *limit, &unlimited),
                        reference.count_grid(g, *limit, &unlimited),
                        "{path} {g:?}"
                    );
                    assert_eq!(
                        ours.solve_grid(g, &unlimited),
                        reference.solve_grid(g, &unlimited),
                        "{path} {g:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn clashing_givens_have_no_solution() {
        let mut cells = *grid(SEED).cells();
        cells[1] = 7; // row 1 already holds a 7 in r1c1
        let g = Grid::from_cells(cells).unwrap();
        for path in tested_paths() {
            let out = Triads::with_path(path)
                .unwrap()
                .solve_grid(&g, &Budget::unlimited());
            assert_eq!(out.status, Status::NoSolution, "{path}");
        }
    }

    #[test]
    fn node_budget_stops_the_search() {
        let budget = Budget::unlimited().max_nodes(Some(1));
        let out = Triads::new().solve_grid(&Grid::EMPTY, &budget);
        assert_eq!(out.status, Status::Timeout);
    }

    #[test]
    fn path_names_round_trip() {
        for p in SimdPath::ALL {
            assert_eq!(p.name().parse::<SimdPath>().unwrap(), p);
        }
        assert!("avx512vbmi2".parse::<SimdPath>().is_err());
        assert!(SimdPath::Portable.available());
    }
}
