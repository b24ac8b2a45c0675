//! The seeded random numbers every generator uses: ChaCha8 (`rand_chacha`), keyed by the user's
//! seed, one ChaCha stream per output index.
//!
//! Why this is reproducible across versions and thread counts:
//! - ChaCha8's output for a given key and stream is fixed by the algorithm (Bernstein, "ChaCha, a
//!   variant of Salsa20", 2008) and `rand_chacha` promises value stability for it;
//! - the key is built here from the seed bytes (not through `SeedableRng::seed_from_u64`), and
//!   every draw goes through [`Rng::below`], written here (Lemire's multiply-and-reject, "Fast
//!   Random Integer Generation in an Interval", ACM TOMACS 2019), so no change in `rand`'s
//!   distribution code can change a generated file;
//! - puzzle `i` of a batch draws from its own stream `(seed, purpose, attempt)` x `i`, so which
//!   thread makes it, and in what order, does not matter.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// What a stream is used for: separates the streams of different generators on the same seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Purpose {
    /// Choosing which `transform` grids to write.
    TransformGrids = 1,
    /// Filling a grid by randomized search (`random` method).
    RandomGrid = 2,
    /// Making a puzzle: its solved grid and the order in which givens are tried for removal.
    Puzzle = 3,
    /// Drawing the isomorph transform of a puzzle (`--transform`, `--isomorphs`).
    Isomorph = 4,
    /// A random Latin square (the Jacobson–Matthews chain), for `grids --latin` and QWH.
    Latin = 5,
    /// A solved Sudoku grid of a shape other than 9x9 (`grids --order`, `--box`).
    ShapedGrid = 6,
    /// A puzzle of a shape other than 9x9: its grid and its removal order.
    ShapedPuzzle = 7,
    /// A quasigroup with holes: its Latin square and its holes.
    Qwh = 8,
    /// A puzzle of a clue pattern (`generate puzzles --pattern`): its grid and its cells.
    Pattern = 9,
}

/// A seeded random source (ChaCha8) with the few draws the generators need.
pub struct Rng {
    inner: ChaCha8Rng,
}

impl Rng {
    /// The stream for output `index` of a batch made with `seed`, for `purpose`, attempt
    /// `attempt` (0 for the first try). Distinct arguments give independent streams.
    pub fn new(seed: u64, purpose: Purpose, attempt: u32, index: u64) -> Rng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8] = purpose as u8;
        key[12..16].copy_from_slice(&attempt.to_le_bytes());
        let mut inner = ChaCha8Rng::from_seed(key);
        inner.set_stream(index);
        Rng { inner }
    }

    /// A uniform 32-bit value.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.inner.next_u32()
    }

    /// A uniform integer in `0..n` (`n >= 1`), without bias (Lemire's method).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u64::from(self.inner.next_u32()) * u64::from(n);
            if (m as u32) >= threshold {
                return (m >> 32) as u32;
            }
        }
    }

    /// A uniform integer in `0..n` for `n` up to 2^64 - 1 (`n >= 1`), without bias (rejection).
    pub fn below_u64(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        if let Ok(small) = u32::try_from(n) {
            return u64::from(self.below(small));
        }
        let zone = u64::MAX - (u64::MAX - n + 1) % n;
        loop {
            let x = self.inner.next_u64();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// Shuffles `items` uniformly (Fisher-Yates, Knuth TAOCP vol. 2, 3.4.2 Algorithm P).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_streams_differ() {
        let mut a = Rng::new(1, Purpose::Puzzle, 0, 0);
        for n in 1..200 {
            assert!(a.below(n) < n);
            assert!(a.below_u64(u64::from(n) << 33) < u64::from(n) << 33);
        }
        let x: Vec<u32> = (0..8)
            .map({
                let mut r = Rng::new(1, Purpose::Puzzle, 0, 0);
                move |_| r.next_u32()
            })
            .collect();
        let y: Vec<u32> = (0..8)
            .map({
                let mut r = Rng::new(1, Purpose::Puzzle, 0, 1);
                move |_| r.next_u32()
            })
            .collect();
        assert_ne!(x, y);
    }

    #[test]
    fn the_stream_is_pinned() {
        // Pins ChaCha8 with this key layout: a change here changes every generated file.
        let mut r = Rng::new(42, Purpose::Puzzle, 0, 7);
        let got: Vec<u32> = (0..4).map(|_| r.next_u32()).collect();
        assert_eq!(got, [3419700942, 971936397, 1157446198, 327918948]);
    }
}
