//! Uniformly random Latin squares: Jacobson and Matthews's Markov chain on the incidence cube.
//!
//! A Latin square of order N (N rows, N columns, symbols 0..N, each once per row and column) is
//! an N x N x N 0/1 *incidence cube* with exactly one 1 on every line parallel to an axis:
//! `cube[r][c][s] = 1` when cell (r, c) holds s. Jacobson and Matthews ("Generating uniformly
//! distributed random Latin squares", J. Combinatorial Designs 4(6), 1996, pp. 405–437) add
//! *improper* cubes, whose lines sum to 1 but which hold a single -1 entry, and a move between
//! cubes:
//!
//! - from a proper cube, pick a 0-cell (r, c, s) uniformly; let r', c', s' be the coordinates of
//!   the 1s on its three lines (`cube[r'][c][s]`, `cube[r][c'][s]`, `cube[r][c][s']`);
//! - from an improper cube, (r, c, s) is the -1 cell, and r', c', s' are each chosen uniformly
//!   between the *two* 1s on the corresponding line;
//! - add 1 to (r,c,s), (r,c',s'), (r',c,s'), (r',c',s) and subtract 1 from (r,c,s'), (r,c',s),
//!   (r',c,s), (r',c',s'). Every line still sums to 1; the cube is improper again exactly when
//!   (r',c',s') was 0 (it is now -1).
//!
//! The chain is connected and its stationary distribution, restricted to proper cubes, is uniform
//! over all Latin squares of order N (their Theorem 6 and its corollary). No mixing-time bound
//! is proved; the usual practice, followed here, is to start from the cyclic square
//! `L[r][c] = (r + c) mod N` and make about N³ moves, then go on until the cube is proper. For
//! the orders of this harness (N ≤ 128) that is at most 2 million moves of O(N) work each.
//!
//! Every draw comes from [`Rng`], so a square is a function of the seed and stream alone.

use super::rng::Rng;

/// The incidence cube, dense (`N³` bytes, 2 MB at N = 128), with the improper cell if any.
struct Cube {
    n: usize,
    v: Vec<i8>,
    improper: Option<(usize, usize, usize)>,
}

impl Cube {
    fn cyclic(n: usize) -> Cube {
        let mut v = vec![0i8; n * n * n];
        for r in 0..n {
            for c in 0..n {
                v[(r * n + c) * n + (r + c) % n] = 1;
            }
        }
        Cube {
            n,
            v,
            improper: None,
        }
    }

    #[inline]
    fn at(&self, r: usize, c: usize, s: usize) -> i8 {
        self.v[(r * self.n + c) * self.n + s]
    }

    #[inline]
    fn add(&mut self, r: usize, c: usize, s: usize, d: i8) {
        let n = self.n;
        self.v[(r * n + c) * n + s] += d;
    }

    /// The 1s on a line through (r, c, s) along `axis` (0 = rows, 1 = columns, 2 = symbols):
    /// one on a proper cube's line, one or two through the improper cell.
    fn ones(&self, r: usize, c: usize, s: usize, axis: usize) -> ([usize; 2], usize) {
        let mut found = [0usize; 2];
        let mut k = 0;
        for t in 0..self.n {
            let x = match axis {
                0 => self.at(t, c, s),
                1 => self.at(r, t, s),
                _ => self.at(r, c, t),
            };
            if x == 1 && k < 2 {
                found[k] = t;
                k += 1;
            }
        }
        (found, k)
    }

    /// One move of the chain.
    fn step(&mut self, rng: &mut Rng) {
        let n = self.n;
        let (r, c, s, pick) = match self.improper {
            Some((r, c, s)) => (r, c, s, true),
            None => loop {
                let (r, c, s) = (
                    rng.below(n as u32) as usize,
                    rng.below(n as u32) as usize,
                    rng.below(n as u32) as usize,
                );
                if self.at(r, c, s) == 0 {
                    break (r, c, s, false);
                }
            },
        };
        let mut choose = |(found, k): ([usize; 2], usize)| {
            if pick && k == 2 {
                found[rng.below(2) as usize]
            } else {
                found[0]
            }
        };
        let r2 = choose(self.ones(r, c, s, 0));
        let c2 = choose(self.ones(r, c, s, 1));
        let s2 = choose(self.ones(r, c, s, 2));
        self.add(r, c, s, 1);
        self.add(r, c2, s2, 1);
        self.add(r2, c, s2, 1);
        self.add(r2, c2, s, 1);
        self.add(r, c, s2, -1);
        self.add(r, c2, s, -1);
        self.add(r2, c, s, -1);
        self.add(r2, c2, s2, -1);
        self.improper = (self.at(r2, c2, s2) < 0).then_some((r2, c2, s2));
    }

    /// The square of a proper cube: symbols 1..=N, row-major.
    fn square(&self) -> Vec<solvers::Symbol> {
        let n = self.n;
        let mut out = vec![0; n * n];
        for (i, cell) in out.iter_mut().enumerate() {
            let row = &self.v[i * n..(i + 1) * n];
            *cell = row
                .iter()
                .position(|&x| x == 1)
                .map_or(0, |s| s as solvers::Symbol + 1);
        }
        out
    }
}

/// Moves made by [`random_latin_square`] before it waits for a proper cube: N³ (at least 1).
pub fn mixing_moves(n: usize) -> u64 {
    (n as u64).pow(3).max(1)
}

/// A uniformly random Latin square of order `n` (1..=128), symbols 1..=n, row-major: the
/// Jacobson–Matthews chain from the cyclic square, [`mixing_moves`] moves, then on to the first
/// proper cube. O(N⁴) time (each move scans three lines), N³ bytes of memory.
pub fn random_latin_square(rng: &mut Rng, n: usize) -> Vec<solvers::Symbol> {
    if n == 0 {
        return Vec::new();
    }
    let mut cube = Cube::cyclic(n);
    if n > 1 {
        for _ in 0..mixing_moves(n) {
            cube.step(rng);
        }
        while cube.improper.is_some() {
            cube.step(rng);
        }
    }
    cube.square()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::rng::Purpose;
    use std::collections::HashMap;

    #[test]
    fn squares_are_latin_and_reproducible() {
        for n in [1usize, 2, 3, 5, 7, 10, 16] {
            let a = random_latin_square(&mut Rng::new(9, Purpose::Latin, 0, 0), n);
            let b = random_latin_square(&mut Rng::new(9, Purpose::Latin, 0, 0), n);
            assert_eq!(a, b);
            assert!(crate::verify::check_shaped(n, None, &vec![0; n * n], &a, None).is_ok());
            if n >= 5 {
                let c = random_latin_square(&mut Rng::new(9, Purpose::Latin, 0, 1), n);
                assert_ne!(a, c);
            }
        }
    }

    #[test]
    fn order_3_squares_are_all_reached_about_equally() {
        // There are 12 Latin squares of order 3; 1,200 draws should reach each about 100 times.
        let mut seen: HashMap<Vec<solvers::Symbol>, u32> = HashMap::new();
        for i in 0..1200 {
            *seen
                .entry(random_latin_square(
                    &mut Rng::new(3, Purpose::Latin, 0, i),
                    3,
                ))
                .or_default() += 1;
        }
        assert_eq!(seen.len(), 12);
        assert!(seen.values().all(|&k| (60..=140).contains(&k)), "{seen:?}");
    }
}
