//! The `random` method: a solved grid filled by randomized depth-first search.
//!
//! Start from the empty grid; at each step take the empty cell with the fewest candidates (MRV;
//! ties broken by a random draw among the tied cells) and try its candidates in a random order,
//! backtracking on a dead end. Every grid is reachable and the grids carry none of the
//! `transform` method's structure (rows that are rotations of each other), though the
//! distribution is not exactly uniform over the 6,670,903,752,021,072,936,960 Sudoku grids
//! (Felgenhauer and Jarvis, 2005). With MRV a dead end is rare, so a grid costs little more than
//! 81 placements.

use super::rng::Rng;

/// Box index (0..9) of each cell.
const BOX_OF: [usize; 81] = {
    let mut t = [0usize; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = (i / 27) * 3 + (i % 9) / 3;
        i += 1;
    }
    t
};

#[derive(Clone, Copy)]
struct Fill {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Fill {
    fn candidates(&self, i: usize) -> u16 {
        !(self.rows[i / 9] | self.cols[i % 9] | self.boxes[BOX_OF[i]]) & 0x1ff
    }

    fn set(&mut self, i: usize, d: u8, on: bool) {
        let bit = 1u16 << (d - 1);
        if on {
            self.cells[i] = d;
            self.rows[i / 9] |= bit;
            self.cols[i % 9] |= bit;
            self.boxes[BOX_OF[i]] |= bit;
        } else {
            self.cells[i] = 0;
            self.rows[i / 9] &= !bit;
            self.cols[i % 9] &= !bit;
            self.boxes[BOX_OF[i]] &= !bit;
        }
    }
}

/// Fills the empty cells of `f`; false on a dead end (then `f` is as it was).
fn search(f: &mut Fill, rng: &mut Rng) -> bool {
    let mut best = usize::MAX;
    let mut best_n = 10;
    let mut ties = 0u32;
    for i in 0..81 {
        if f.cells[i] != 0 {
            continue;
        }
        let n = f.candidates(i).count_ones();
        if n < best_n {
            best_n = n;
            best = i;
            ties = 1;
        } else if n == best_n {
            // Reservoir sampling: each tied cell is kept with equal probability.
            ties += 1;
            if rng.below(ties) == 0 {
                best = i;
            }
        }
    }
    if best == usize::MAX {
        return true;
    }
    let mut digits = [0u8; 9];
    let mut n = 0;
    let cand = f.candidates(best);
    for d in 1..=9u8 {
        if cand >> (d - 1) & 1 == 1 {
            digits[n] = d;
            n += 1;
        }
    }
    rng.shuffle(&mut digits[..n]);
    for &d in &digits[..n] {
        f.set(best, d, true);
        if search(f, rng) {
            return true;
        }
        f.set(best, d, false);
    }
    false
}

/// A random solved grid (81 digits, row-major), drawn from `rng`; with `first_digit`, cell r1c1
/// holds that digit (1..=9). About 81 placements and a few hundred random draws.
pub fn random_grid(rng: &mut Rng, first_digit: Option<u8>) -> [u8; 81] {
    let mut f = Fill {
        cells: [0; 81],
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
    };
    if let Some(d) = first_digit.filter(|d| (1..=9).contains(d)) {
        f.set(0, d, true);
    }
    let filled = search(&mut f, rng);
    debug_assert!(filled, "a grid with at most one given always completes");
    f.cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::rng::Purpose;

    #[test]
    fn grids_are_valid_distinct_and_reproducible() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..300 {
            let g = random_grid(&mut Rng::new(5, Purpose::RandomGrid, 0, i), Some(4));
            assert!(crate::verify::check(&[0; 81], &g, None).is_ok());
            assert_eq!(g[0], 4);
            assert!(seen.insert(g));
            assert_eq!(
                g,
                random_grid(&mut Rng::new(5, Purpose::RandomGrid, 0, i), Some(4))
            );
        }
    }
}
