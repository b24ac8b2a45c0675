//! The checker: decides whether an answer is a correct solution of a puzzle.
//!
//! It shares no code with the solvers on purpose (no masks, no unit tables, no `Grid` methods):
//! it works on plain arrays of 81 cells (row-major, 0 = empty) and checks each row, column and box
//! by counting, so a bug in the solvers' shared helpers cannot hide a wrong answer.
//!
//! An answer is correct iff every row, column and box holds each of 1..9 exactly once, every given
//! of the puzzle is kept, and, where the dataset states a solution, the answer equals it.

use std::fmt;

/// Why an answer is wrong. Cells are named `rRcC` (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wrong {
    /// A cell is empty or holds a value outside 1..9.
    NotFilled(String),
    /// A given of the puzzle was changed.
    GivenChanged(String),
    /// A unit lacks a digit (so it repeats another).
    UnitBroken {
        /// e.g. `row 9`.
        unit: String,
        /// The digit it lacks.
        missing: u8,
    },
    /// Valid, but not the solution the dataset states.
    DiffersFromExpected(String),
}

impl fmt::Display for Wrong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Wrong::NotFilled(c) => write!(f, "{c} is not filled with 1-9"),
            Wrong::GivenChanged(c) => write!(f, "the given at {c} was changed"),
            Wrong::UnitBroken { unit, missing } => write!(f, "{unit} lacks the digit {missing}"),
            Wrong::DiffersFromExpected(c) => {
                write!(f, "valid, but differs from the stated solution at {c}")
            }
        }
    }
}

fn name(i: usize) -> String {
    format!("r{}c{}", i / 9 + 1, i % 9 + 1)
}

/// Checks `answer` against `puzzle` (and `expected`, the dataset's solution, when given).
///
/// # Errors
/// The first fault found, in this order: an unfilled cell, a changed given, a broken unit (rows,
/// then columns, then boxes), a difference from `expected`.
pub fn check(
    puzzle: &[u8; 81],
    answer: &[u8; 81],
    expected: Option<&[u8; 81]>,
) -> Result<(), Wrong> {
    if let Some(i) = (0..81).find(|&i| !(1..=9).contains(&answer[i])) {
        return Err(Wrong::NotFilled(name(i)));
    }
    if let Some(i) = (0..81).find(|&i| puzzle[i] != 0 && puzzle[i] != answer[i]) {
        return Err(Wrong::GivenChanged(name(i)));
    }
    for kind in 0..3 {
        for u in 0..9 {
            let mut count = [0u8; 10];
            for k in 0..9 {
                let (r, c) = match kind {
                    0 => (u, k),
                    1 => (k, u),
                    _ => (u / 3 * 3 + k / 3, u % 3 * 3 + k % 3),
                };
                count[answer[r * 9 + c] as usize] += 1;
            }
            if let Some(d) = (1..=9).find(|&d| count[d] != 1) {
                let unit = ["row", "column", "box"][kind];
                return Err(Wrong::UnitBroken {
                    unit: format!("{unit} {}", u + 1),
                    missing: if count[d] == 0 {
                        d as u8
                    } else {
                        (1..=9).find(|&m| count[m] == 0).unwrap_or(d) as u8
                    },
                });
            }
        }
    }
    if let Some(exp) = expected {
        if let Some(i) = (0..81).find(|&i| exp[i] != answer[i]) {
            return Err(Wrong::DiffersFromExpected(name(i)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arr(s: &str) -> [u8; 81] {
        let mut a = [0u8; 81];
        for (i, ch) in s.chars().enumerate() {
            a[i] = ch.to_digit(10).unwrap_or(0) as u8;
        }
        a
    }

    const P: &str =
        "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
    const S: &str =
        "729364158341825967865971423536192874918547632274683519652438791493716285187259346";

    #[test]
    fn accepts_the_verified_solution() {
        assert_eq!(check(&arr(P), &arr(S), Some(&arr(S))), Ok(()));
    }

    #[test]
    fn rejects_wrong_grids() {
        // Swapping two digits in a row keeps the row valid but breaks two columns.
        let mut a = arr(S);
        a.swap(1, 2);
        assert!(matches!(
            check(&[0; 81], &a, None),
            Err(Wrong::UnitBroken { .. })
        ));
        // A changed given.
        let mut b = arr(S);
        b[0] = 1;
        assert_eq!(
            check(&arr(P), &b, None),
            Err(Wrong::GivenChanged("r1c1".into()))
        );
        // ../shared/cases/C13.txt: the last cell empty.
        let c13 = arr(
            "491753286753286491286491753947135862135862947862947135514379628379628514628514370",
        );
        assert_eq!(
            check(&[0; 81], &c13, None),
            Err(Wrong::NotFilled("r9c9".into()))
        );
        // A valid grid that is not the stated solution: relabel digits 1 and 2.
        let relabel: Vec<u8> = arr(S)
            .iter()
            .map(|&d| match d {
                1 => 2,
                2 => 1,
                d => d,
            })
            .collect();
        let relabel: [u8; 81] = relabel.try_into().unwrap();
        assert_eq!(check(&[0; 81], &relabel, None), Ok(()));
        assert!(matches!(
            check(&[0; 81], &relabel, Some(&arr(S))),
            Err(Wrong::DiffersFromExpected(_))
        ));
        // Every row the same permutation: rows valid, columns not.
        let rows: [u8; 81] = std::array::from_fn(|i| (i % 9) as u8 + 1);
        assert!(
            matches!(check(&[0; 81], &rows, None), Err(Wrong::UnitBroken { unit, .. }) if unit == "column 1")
        );
    }
}
