//! The `transform` method: solved grids made from one permuted row by fixed shifts and row
//! permutations, numbered so that N distinct grids are N distinct numbers.
//!
//! ## The construction
//! Take a permutation `p` of the digits 1..9 as row 1. Row `r` of the base grid is `p` rotated left
//! by `s_r` places, with shifts `s = 0, 3, 6, 1, 4, 7, 2, 5, 8` (cell `(r, c)` = `p[(c + s_r) mod
//! 9]`). It is a valid Sudoku: a column meets all nine shifts, so all nine digits; a box of band
//! `b` (shifts `b, b+3, b+6`) and columns `c0..c0+2` holds `p` at the nine positions
//! `c0 + b + {0,1,2} + {0,3,6}`, nine distinct residues mod 9.
//!
//! Then the rows are rearranged, which keeps any Sudoku valid: rows inside a band permuted, bands
//! permuted. In a band, all shifts have the same residue mod 3 (band 1: 0,3,6; band 2: 1,4,7;
//! band 3: 2,5,8), so an arrangement is: which residue class goes to bands 2 and 3 (2 ways) and
//! the order of the three shifts inside each band (3! each). We keep row 1 as `p` itself (shift
//! 0 first), leaving 2 orders for the other two rows of band 1: **2 x 2 x 6 x 6 = 144
//! arrangements**.
//!
//! ## Why every index gives a different grid
//! Grid index `k` in `0..9! x 144` is `k = rank(p) x 144 + a`, with `rank` the lexicographic rank
//! of `p` (Lehmer code) and `a` the arrangement. From a grid one reads `p` back as its first row
//! (shift 0 is always first), and then each row's shift, since a rotation of a permutation of
//! nine distinct digits determines the rotation amount. The 144 arrangements are 144 different
//! shift sequences, so `(p, a)`, hence `k`, is recovered from the grid: the map index -> grid is
//! injective. The method makes exactly **9! x 144 = 52,254,720** distinct grids, and
//! **8! x 144 = 5,806,080** with the first digit fixed (`p[0] = D`, the other 8 permuted).
//! A batch draws N distinct indices, so its N grids are distinct, with no check needed
//! (`tests` below still check it with a hash set).
//!
//! (Letting row 1 be another shift would add nothing: every such grid equals one of these, as
//! shifting all rows by 3 maps each residue class to itself.)

use super::rng::{Purpose, Rng};
use super::GenerateError;

/// Arrangements of the rows per first row.
pub const ARRANGEMENTS: u64 = 144;

/// 0! .. 9!.
const FACTORIAL: [u64; 10] = [1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880];

/// The grids the `transform` method can make: all of them, or those with a fixed top-left digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransformSpace {
    first_digit: Option<u8>,
}

impl TransformSpace {
    /// The space of grids, optionally with cell r1c1 fixed to `first_digit` (1..=9).
    ///
    /// # Errors
    /// [`GenerateError::BadFirstDigit`] when `first_digit` is not in 1..=9.
    pub fn new(first_digit: Option<u8>) -> Result<TransformSpace, GenerateError> {
        if let Some(d) = first_digit {
            if !(1..=9).contains(&d) {
                return Err(GenerateError::BadFirstDigit(d));
            }
        }
        Ok(TransformSpace { first_digit })
    }

    /// How many distinct grids the space holds: 52,254,720 (9! x 144), or 5,806,080 (8! x 144)
    /// with the first digit fixed.
    pub fn size(&self) -> u64 {
        match self.first_digit {
            None => FACTORIAL[9] * ARRANGEMENTS,
            Some(_) => FACTORIAL[8] * ARRANGEMENTS,
        }
    }

    /// The grid number `index` (`0..size()`), 81 digits row-major. Distinct indices give distinct
    /// grids (see the module docs). O(81).
    ///
    /// # Panics
    /// If `index >= self.size()`.
    pub fn grid(&self, index: u64) -> [u8; 81] {
        assert!(index < self.size(), "grid index {index} out of range");
        let arrangement = index % ARRANGEMENTS;
        let rank = index / ARRANGEMENTS;
        let mut p = [0u8; 9];
        match self.first_digit {
            None => unrank(rank, &mut p, &[1, 2, 3, 4, 5, 6, 7, 8, 9]),
            Some(d) => {
                p[0] = d;
                let rest: Vec<u8> = (1..=9).filter(|&x| x != d).collect();
                unrank(rank, &mut p[1..], &rest);
            }
        }
        let shifts = shifts(arrangement);
        let mut g = [0u8; 81];
        for (r, &s) in shifts.iter().enumerate() {
            for c in 0..9 {
                g[r * 9 + c] = p[(c + s as usize) % 9];
            }
        }
        g
    }
}

/// Writes into `out` the permutation of `digits` with lexicographic rank `rank` (Lehmer code).
fn unrank(mut rank: u64, out: &mut [u8], digits: &[u8]) {
    let n = digits.len();
    let mut pool = [0u8; 9];
    pool[..n].copy_from_slice(digits);
    let mut left = n;
    for slot in out.iter_mut().take(n) {
        let f = FACTORIAL[left - 1];
        let k = (rank / f) as usize;
        rank %= f;
        *slot = pool[k];
        pool.copy_within(k + 1..left, k);
        left -= 1;
    }
}

/// The row shifts of arrangement `a` (0..144), row 1 first.
fn shifts(a: u64) -> [u8; 9] {
    let a = a as usize;
    let band1 = if a % 2 == 0 { [0, 3, 6] } else { [0, 6, 3] };
    let (res2, res3) = if (a / 2) % 2 == 0 { (1, 2) } else { (2, 1) };
    let o2 = solvers::PERMUTATIONS3[(a / 4) % 6];
    let o3 = solvers::PERMUTATIONS3[(a / 24) % 6];
    let mut s = [0u8; 9];
    s[..3].copy_from_slice(&band1);
    for k in 0..3 {
        s[3 + k] = res2 + 3 * o2[k] as u8;
        s[6 + k] = res3 + 3 * o3[k] as u8;
    }
    s
}

/// The indices of `count` distinct grids of `space`, drawn with `seed`, in output order.
///
/// For `count` up to half the space, indices are drawn uniformly and redrawn when already taken
/// (a bit set of `size` bits, at most 6.5 MB), so the output order is random too. For a larger
/// `count`, the `size - count` indices to leave out are drawn that way and the rest are given in
/// increasing order (then the file is ordered by first row).
///
/// # Errors
/// [`GenerateError::TooMany`] when `count` exceeds the space.
pub fn pick(space: &TransformSpace, count: u64, seed: u64) -> Result<Vec<u64>, GenerateError> {
    let size = space.size();
    if count > size {
        return Err(GenerateError::TooMany {
            asked: count,
            max: size,
            method: "transform",
            first_digit_fixed: space.first_digit.is_some(),
        });
    }
    let mut rng = Rng::new(seed, Purpose::TransformGrids, 0, 0);
    let mut taken = vec![0u64; size.div_ceil(64) as usize];
    let mut draw = |n: u64, taken: &mut Vec<u64>, out: &mut Vec<u64>| {
        let mut got = 0;
        while got < n {
            let k = rng.below_u64(size);
            let (w, b) = ((k / 64) as usize, k % 64);
            if taken[w] >> b & 1 == 0 {
                taken[w] |= 1 << b;
                out.push(k);
                got += 1;
            }
        }
    };
    let mut out = Vec::with_capacity(count as usize);
    if count <= size / 2 {
        draw(count, &mut taken, &mut out);
    } else {
        let mut excluded = Vec::new();
        draw(size - count, &mut taken, &mut excluded);
        out.extend((0..size).filter(|&k| taken[(k / 64) as usize] >> (k % 64) & 1 == 0));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn valid(g: &[u8; 81]) -> bool {
        let p: [u8; 81] = [0; 81];
        crate::verify::check(&p, g, None).is_ok()
    }

    #[test]
    fn sizes() {
        assert_eq!(TransformSpace::new(None).unwrap().size(), 52_254_720);
        assert_eq!(TransformSpace::new(Some(5)).unwrap().size(), 5_806_080);
        assert!(TransformSpace::new(Some(0)).is_err());
    }

    #[test]
    fn the_144_arrangements_are_distinct_shift_sequences() {
        let all: HashSet<[u8; 9]> = (0..ARRANGEMENTS).map(shifts).collect();
        assert_eq!(all.len(), 144);
        for s in &all {
            assert_eq!(s[0], 0);
            let mut sorted = *s;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
        }
    }

    #[test]
    fn every_grid_of_a_first_row_block_is_valid_and_distinct() {
        let space = TransformSpace::new(Some(7)).unwrap();
        let mut seen = HashSet::new();
        // All arrangements of the first 200 first rows, and the last indices.
        let ids = (0..200 * ARRANGEMENTS).chain(space.size() - 1000..space.size());
        for k in ids {
            let g = space.grid(k);
            assert!(valid(&g), "index {k}");
            assert_eq!(g[0], 7);
            assert!(seen.insert(g), "index {k} repeats a grid");
        }
    }

    #[test]
    fn a_batch_is_distinct_and_reproducible() {
        let space = TransformSpace::new(None).unwrap();
        let a = pick(&space, 20_000, 3).unwrap();
        assert_eq!(a, pick(&space, 20_000, 3).unwrap());
        assert_ne!(a, pick(&space, 20_000, 4).unwrap());
        let grids: HashSet<[u8; 81]> = a.iter().map(|&k| space.grid(k)).collect();
        assert_eq!(grids.len(), 20_000);
        assert!(matches!(
            pick(&space, space.size() + 1, 0),
            Err(GenerateError::TooMany { .. })
        ));
    }

    #[test]
    fn a_batch_larger_than_half_the_space_is_distinct() {
        // A tiny stand-in: the complement path on the fixed-digit space is exercised by size.
        let space = TransformSpace::new(Some(1)).unwrap();
        let n = space.size() - 10;
        let ids = pick(&space, n, 9).unwrap();
        assert_eq!(ids.len() as u64, n);
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
    }
}
