//! Quasigroups with holes (QWH): a uniformly random Latin square with some cells emptied.
//!
//! Achlioptas, Gomes, Kautz and Selman ("Generating satisfiable problem instances", AAAI 2000)
//! made QWH the satisfiable counterpart of quasigroup completion: the instance is satisfiable by
//! construction (the square it came from completes it), and its hardness peaks where the
//! backbone (the fraction of holes fixed in every completion) collapses, at a hole count that
//! grows as about N^1.55 rather than as a fixed fraction of the N² cells. (The often-quoted 42%
//! is another problem's: the fraction of preassigned cells at the phase transition of
//! quasigroup *completion*, Gomes and Selman, AAAI 1997.) The square here is uniformly random
//! ([`super::latin::random_latin_square`]); the holes are:
//!
//! - **random**: exactly `round(fraction · N²)` cells chosen uniformly among all sets of that size;
//! - **balanced**: the same number `h = round(fraction · N)` of holes in every row and every
//!   column, as in Kautz, Ruan, Achlioptas, Gomes, Selman and Stickel ("Balance and filtering in
//!   structured satisfiable problems", IJCAI 2001), who found balanced instances much harder.
//!   The pattern is the cells where a second, independent random Latin square holds one of the
//!   symbols 1..=h: a union of h disjoint permutation matrices, so every row and column has
//!   exactly h holes (`h · N` in all). The pattern is not claimed uniform over all such patterns.
//!
//! Instance `index` of a batch seeded by `seed` draws from its own stream, so it depends on
//! nothing else.

use super::latin::random_latin_square;
use super::rng::{Purpose, Rng};

/// How the holes are placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holes {
    /// Uniformly random cells.
    Random,
    /// The same number in every row and column.
    Balanced,
}

/// A quasigroup with holes and the square it came from (symbols 1..=N, row-major, 0 = hole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Qwh {
    /// The order N (side).
    pub order: usize,
    /// The square with its holes.
    pub puzzle: Vec<solvers::Symbol>,
    /// The full Latin square: one completion of `puzzle`.
    pub solution: Vec<solvers::Symbol>,
}

impl Qwh {
    /// Number of holes.
    pub fn holes(&self) -> usize {
        self.puzzle.iter().filter(|&&v| v == 0).count()
    }
}

/// Holes an instance of order `order` gets for `fraction` (clamped to 0..=1): `round(f·N²)`
/// random ones, or `N · round(f·N)` balanced ones.
pub fn hole_count(order: usize, fraction: f64, holes: Holes) -> usize {
    let f = fraction.clamp(0.0, 1.0);
    match holes {
        Holes::Random => (f * (order * order) as f64).round() as usize,
        Holes::Balanced => order * (f * order as f64).round() as usize,
    }
}

/// Instance `index` of the batch seeded by `seed`: order `order` (1..=128), `fraction` of the
/// cells emptied (0..=1), placed as `holes` says. O(N⁴) for the square (and again for a
/// balanced pattern).
pub fn generate_qwh(order: usize, fraction: f64, holes: Holes, seed: u64, index: u64) -> Qwh {
    generate_qwh_count(
        order,
        hole_count(order, fraction, holes),
        holes,
        seed,
        index,
    )
}

/// `solution` (a full N x N grid of side `order`, row-major) with `count` of its cells emptied
/// (set to 0, at most N²), drawn from `rng`: uniformly random ones, or balanced, `count / N`
/// (rounded down) in every row and column. Used for the quasigroups with holes and for Sudoku
/// with punched holes alike ([`hole_count`] gives the count of a fraction). O(N²), O(N⁴)
/// balanced.
pub fn punch_holes(
    rng: &mut Rng,
    solution: &[solvers::Symbol],
    order: usize,
    count: usize,
    holes: Holes,
) -> Vec<solvers::Symbol> {
    let mut puzzle = solution.to_vec();
    let cells = order * order;
    match holes {
        Holes::Random => {
            let k = count.min(cells);
            // The first k of a partial Fisher–Yates shuffle: a uniform k-subset.
            let mut idx: Vec<usize> = (0..cells).collect();
            for i in 0..k {
                let j = i + rng.below((cells - i) as u32) as usize;
                idx.swap(i, j);
                puzzle[idx[i]] = 0;
            }
        }
        Holes::Balanced => {
            let h = count.min(cells) / order.max(1);
            let pattern = random_latin_square(rng, order);
            for (cell, &p) in puzzle.iter_mut().zip(&pattern) {
                if (p as usize) <= h {
                    *cell = 0;
                }
            }
        }
    }
    puzzle
}

/// Instance `index` of the batch seeded by `seed` with exactly `count` holes (balanced: `count
/// / N` a row and column): [`generate_qwh`] with a count in place of a fraction, drawing the
/// same square and, for the same count, the same holes.
pub fn generate_qwh_count(order: usize, count: usize, holes: Holes, seed: u64, index: u64) -> Qwh {
    let mut rng = Rng::new(seed, Purpose::Qwh, 0, index);
    let solution = random_latin_square(&mut rng, order);
    let puzzle = punch_holes(&mut rng, &solution, order, count, holes);
    Qwh {
        order,
        puzzle,
        solution,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hole_counts_are_exact_and_balanced_is_balanced() {
        for n in [1usize, 5, 10, 20] {
            let q = generate_qwh(n, 0.42, Holes::Random, 1, 0);
            assert_eq!(q.holes(), hole_count(n, 0.42, Holes::Random));
            let b = generate_qwh(n, 0.42, Holes::Balanced, 1, 0);
            let h = (0.42 * n as f64).round() as usize;
            assert_eq!(b.holes(), n * h);
            for k in 0..n {
                assert_eq!((0..n).filter(|&c| b.puzzle[k * n + c] == 0).count(), h);
                assert_eq!((0..n).filter(|&r| b.puzzle[r * n + k] == 0).count(), h);
            }
            for q in [&q, &b] {
                assert!(crate::verify::check_shaped(n, None, &q.puzzle, &q.solution, None).is_ok());
            }
        }
        assert_eq!(generate_qwh(20, 0.42, Holes::Random, 1, 0).holes(), 168);
    }

    #[test]
    fn a_count_draws_what_its_fraction_draws() {
        for holes in [Holes::Random, Holes::Balanced] {
            let k = hole_count(12, 0.4, holes);
            assert_eq!(
                generate_qwh(12, 0.4, holes, 7, 3),
                generate_qwh_count(12, k, holes, 7, 3)
            );
        }
        // 316 holes at order 30: the public hard instance's count.
        assert_eq!(
            generate_qwh_count(30, 316, Holes::Random, 1, 0).holes(),
            316
        );
        // Balanced: 316 / 30 = 10 a row (300 in all).
        assert_eq!(
            generate_qwh_count(30, 316, Holes::Balanced, 1, 0).holes(),
            300
        );
    }
}
