//! The backbone of an instance, estimated by forward checking, and the isomorphs of one
//! instance.
//!
//! The **backbone** of a satisfiable instance is the set of its variables that take the same
//! value in every solution. Achlioptas, Gomes, Kautz and Selman ("Generating satisfiable problem
//! instances", AAAI 2000) tie the hardness peak of quasigroups with holes to a phase transition
//! in the backbone: with few holes almost every hole is forced, past the peak almost none is;
//! computing the exact backbone takes a search per candidate, so they estimate it by what forward
//! checking fixes. Here the estimate of one instance is the fraction of its holes that
//! **forward checking** fixes: every hole's domain starts as the symbols no given of its units
//! (row, column, and box for Sudoku) holds; a hole whose domain is a single symbol is fixed and
//! that symbol is removed from the domains of the holes of its units, to a fixpoint (naked
//! singles, nothing more: no hidden singles, no search). An instance without holes has
//! backbone 1.
//!
//! The **isomorphs** of an instance ([`isomorph`]) are the same problem with rows, columns and
//! symbols renamed: a solver that breaks ties in a fixed order meets each as a new problem, so
//! solving the isomorphs of one instance is solving it again under randomised choices.

use crate::generate::rng::{Purpose, Rng};
use serde::{Deserialize, Serialize};
use solvers::Shape;

/// What forward checking fixes in one instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fixed {
    /// Empty cells (0) of the instance.
    pub holes: usize,
    /// Of them, those forward checking fixes.
    pub fixed: usize,
}

impl Fixed {
    /// `fixed / holes`; 1 without holes.
    pub fn fraction(self) -> f64 {
        if self.holes == 0 {
            1.0
        } else {
            self.fixed as f64 / self.holes as f64
        }
    }
}

/// Forward checking on `cells` (row-major, 0 a hole, symbols 1..=N) of `shape`, as the module
/// docs say. O(N³).
pub fn forward_checking<T: Copy + Into<u32>>(shape: Shape, cells: &[T]) -> Fixed {
    let n = shape.side();
    let units = shape.units();
    let value = |c: usize| cells[c].into() as usize;
    // dom[c * n + v]: symbol v + 1 is still possible in hole c; left[c] how many are.
    let mut dom = vec![true; cells.len() * n];
    let mut left = vec![n; cells.len()];
    let mut done = vec![false; cells.len()];
    let mut queue: Vec<(usize, usize)> = Vec::new();
    for (c, _) in cells.iter().enumerate().filter(|(c, _)| value(*c) != 0) {
        done[c] = true;
        queue.push((c, value(c) - 1));
    }
    let holes = cells.len() - queue.len();
    let mut fixed = 0;
    let mut next = 0;
    loop {
        // Remove every assigned symbol from the holes of its units.
        while next < queue.len() {
            let (c, v) = queue[next];
            next += 1;
            for &u in units.of_cell(c) {
                for &p in units.cells(u as usize) {
                    let p = p as usize;
                    if !done[p] && dom[p * n + v] {
                        dom[p * n + v] = false;
                        left[p] -= 1;
                    }
                }
            }
        }
        // Fix the holes left with one symbol.
        let before = queue.len();
        for c in 0..cells.len() {
            if !done[c] && left[c] == 1 {
                let v = (0..n).find(|&v| dom[c * n + v]).expect("one symbol left");
                done[c] = true;
                fixed += 1;
                queue.push((c, v));
            }
        }
        if queue.len() == before {
            break;
        }
    }
    Fixed { holes, fixed }
}

/// Isomorph `index` of `cells` (row-major, side N of `shape`): rows, columns and symbols
/// permuted at random, drawn from stream `index` of `seed`; for a Sudoku shape, rows within
/// bands and bands, columns within stacks and stacks, so that boxes stay boxes. Index 0 is
/// `cells` itself.
pub fn isomorph<T: Copy + Into<usize> + TryFrom<usize>>(
    shape: Shape,
    cells: &[T],
    seed: u64,
    index: u64,
) -> Vec<T> {
    if index == 0 {
        return cells.to_vec();
    }
    let n = shape.side();
    let mut rng = Rng::new(seed, Purpose::Isomorph, 0, index);
    let (band, stack) = shape.boxes().unwrap_or((n, n));
    let mut lines = |group: usize| -> Vec<usize> {
        let mut groups: Vec<usize> = (0..n / group).collect();
        rng.shuffle(&mut groups);
        let mut out = Vec::with_capacity(n);
        for g in groups {
            let mut within: Vec<usize> = (0..group).collect();
            rng.shuffle(&mut within);
            out.extend(within.iter().map(|w| g * group + w));
        }
        out
    };
    let rows = lines(band);
    let cols = lines(stack);
    let mut symbols: Vec<usize> = (1..=n).collect();
    rng.shuffle(&mut symbols);
    let mut out = cells.to_vec();
    for (r, &from_r) in rows.iter().enumerate() {
        for (c, &from_c) in cols.iter().enumerate() {
            let v = cells[from_r * n + from_c];
            out[r * n + c] = match v.into() {
                0 => v,
                // A permuted symbol is one of 1..=N, as `v` is: it fits where `v` did.
                s => T::try_from(symbols[s - 1]).unwrap_or(v),
            };
        }
    }
    out
}

/// One row of an instance folder's backbone.csv.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BackboneRow {
    /// The point's dataset name.
    pub dataset: String,
    /// The instance's index in its file (1-based, as results.csv's `puzzle`).
    pub instance: u64,
    /// Its holes.
    pub holes: usize,
    /// Of them, those forward checking fixes.
    pub fixed: usize,
}

/// The file of the backbone rows, beside the instance files.
pub const FILE: &str = "backbone.csv";

#[cfg(test)]
mod tests {
    use super::*;

    /// The Cayley table of Z2 x Z2: its top-left 2x2 block is an intercalate (a Latin
    /// subsquare on symbols 1 and 2), so emptying it leaves two completions.
    const KLEIN: [u8; 16] = [1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 1, 2, 4, 3, 2, 1];

    #[test]
    fn forward_checking_fixes_what_a_hand_count_fixes() {
        let shape = Shape::latin(4).unwrap();
        let mut p = KLEIN;
        // The intercalate emptied: each of its four holes keeps {1, 2}, none is fixed.
        for c in [0, 1, 4, 5] {
            p[c] = 0;
        }
        assert_eq!(forward_checking(shape, &p), Fixed { holes: 4, fixed: 0 });
        // One more hole, at the bottom right (a 1): its row holds 4, 3, 2, so it is fixed.
        p[15] = 0;
        let f = forward_checking(shape, &p);
        assert_eq!(f, Fixed { holes: 5, fixed: 1 });
        assert_eq!(f.fraction(), 0.2);
        // Three holes whose row and column hold the other three symbols: all fixed.
        let mut q = KLEIN;
        q[0] = 0;
        q[1] = 0;
        q[6] = 0;
        assert_eq!(forward_checking(shape, &q), Fixed { holes: 3, fixed: 3 });
        assert_eq!(forward_checking(shape, &KLEIN).fraction(), 1.0);
        // Every cell empty: nothing fixed.
        assert_eq!(
            forward_checking(shape, &[0u8; 16]),
            Fixed {
                holes: 16,
                fixed: 0
            }
        );
    }

    #[test]
    fn forward_checking_uses_the_boxes_of_a_sudoku() {
        // A 4x4 Sudoku (boxes 2x2) with holes at (0,0), (0,1), (0,2), (3,1), (3,2), holding
        // 1, 2, 3, 3, 2. Rows and columns alone: (0,0) sees 4 in its row and 3, 2, 4 in its
        // column, so it is a 1; the other four keep {2, 3} (their rows and columns hold 1 and
        // 4 only). With the boxes: (0,1)'s box holds 1 (just fixed), 3 and 4, so it is a 2,
        // then (0,2) a 3 by its row, (3,2) a 2 by its column, (3,1) a 3.
        let grid: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let mut p = grid;
        for c in [0, 1, 2, 13, 14] {
            p[c] = 0;
        }
        let latin = Shape::latin(4).unwrap();
        let sudoku = Shape::sudoku(2, 2).unwrap();
        assert_eq!(forward_checking(latin, &p), Fixed { holes: 5, fixed: 1 });
        assert_eq!(forward_checking(sudoku, &p), Fixed { holes: 5, fixed: 5 });
    }

    #[test]
    fn isomorphs_are_latin_squares_and_differ() {
        let shape = Shape::latin(4).unwrap();
        assert_eq!(isomorph(shape, &KLEIN, 9, 0), KLEIN);
        let others: Vec<Vec<u8>> = (1..6).map(|i| isomorph(shape, &KLEIN, 9, i)).collect();
        assert!(others.iter().any(|o| o[..] != KLEIN[..]));
        for o in &others {
            for k in 0..4 {
                let mut row: Vec<u8> = o[k * 4..k * 4 + 4].to_vec();
                let mut col: Vec<u8> = (0..4).map(|r| o[r * 4 + k]).collect();
                row.sort_unstable();
                col.sort_unstable();
                assert_eq!(row, [1, 2, 3, 4]);
                assert_eq!(col, [1, 2, 3, 4]);
            }
        }
        assert_eq!(isomorph(shape, &KLEIN, 9, 3), isomorph(shape, &KLEIN, 9, 3));
    }
}
