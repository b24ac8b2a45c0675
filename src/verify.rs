//! The checker: decides whether an answer is a correct solution of a puzzle.
//!
//! It shares no code with the solvers on purpose (no masks, no unit tables, no `Grid` methods):
//! it works on plain arrays of 81 cells (row-major, 0 = empty) and checks each row, column and box
//! by counting, so a bug in the solvers' shared helpers cannot hide a wrong answer.
//!
//! It works at every size: [`check_shaped`] takes the side N and the box shape (none for a Latin
//! square) as plain numbers and derives the units itself.
//!
//! ## The rule
//!
//! An answer is right when it fills the grid consistently with the givens and every unit: every
//! cell holds one of 1..N, every given is kept, and every row, column and box holds each symbol
//! exactly once. A solution a dataset states decides only puzzles known to have exactly one
//! solution: a valid answer that differs from a stated solution (itself checked to solve the
//! puzzle when the file is read) proves that the puzzle has several, and it is right. The stated
//! solution still proves that a solution exists, so a `no_solution` answer to such a puzzle is
//! wrong. [`verdict`] is that rule, and every command that judges an answer (`run`, `solve`,
//! the web API, `bench`) goes through it or through the plain checks below.

use std::fmt;

/// Why an answer is wrong. Cells are named `rRcC` (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wrong {
    /// A cell is empty or holds a value outside 1..N.
    NotFilled(String),
    /// A given of the puzzle was changed.
    GivenChanged(String),
    /// A unit lacks a symbol (so it repeats another).
    UnitBroken {
        /// e.g. `row 9`.
        unit: String,
        /// The digit it lacks.
        missing: u16,
    },
    /// Valid, but not the one solution of a puzzle known to have exactly one.
    DiffersFromExpected(String),
    /// `no_solution`, but the dataset states a solution.
    SolutionExists,
}

impl fmt::Display for Wrong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Wrong::NotFilled(c) => write!(f, "{c} is not filled with 1-N"),
            Wrong::GivenChanged(c) => write!(f, "the given at {c} was changed"),
            Wrong::UnitBroken { unit, missing } => write!(f, "{unit} lacks the digit {missing}"),
            Wrong::DiffersFromExpected(c) => {
                write!(
                    f,
                    "valid, but differs from the puzzle's one solution at {c}"
                )
            }
            Wrong::SolutionExists => {
                write!(f, "no_solution, but the dataset states a solution")
            }
        }
    }
}

fn name(side: usize, i: usize) -> String {
    format!("r{}c{}", i / side + 1, i % side + 1)
}

/// Checks a 9x9 `answer` against `puzzle` (and `expected`, the one solution of a puzzle known to
/// have exactly one, when given): [`check_shaped`] with side 9 and 3x3 boxes.
///
/// # Errors
/// As [`check_shaped`].
pub fn check(
    puzzle: &[u8; 81],
    answer: &[u8; 81],
    expected: Option<&[u8; 81]>,
) -> Result<(), Wrong> {
    check_shaped(
        9,
        Some((3, 3)),
        puzzle,
        answer,
        expected.map(|e| e.as_slice()),
    )
}

/// Checks an answer of a grid of any shape, read from the puzzle's [`solvers::Board`]s' plain
/// numbers only (side and box shape, never the solvers' unit tables): [`check_shaped`].
///
/// # Errors
/// As [`check_shaped`]; [`Wrong::NotFilled`] when the answer's shape differs from the puzzle's.
pub fn check_board(
    puzzle: &solvers::Board,
    answer: &solvers::Board,
    expected: Option<&solvers::Board>,
) -> Result<(), Wrong> {
    let shape = puzzle.shape();
    if answer.shape() != shape || expected.is_some_and(|e| e.shape() != shape) {
        return Err(Wrong::NotFilled(format!(
            "the whole answer (shape {} for a {} puzzle)",
            answer.shape(),
            shape
        )));
    }
    check_shaped(
        shape.side(),
        shape.boxes(),
        puzzle.cells(),
        answer.cells(),
        expected.map(|e| e.cells()),
    )
}

/// The verdict on a solved answer, the rule of the module docs: right when it fills the grid
/// consistently with the givens and every unit; `stated`, the solution its dataset states,
/// decides only when `exactly_one` (a count proved that the puzzle has exactly one solution).
///
/// # Errors
/// As [`check_board`].
pub fn verdict(
    puzzle: &solvers::Board,
    answer: &solvers::Board,
    stated: Option<&solvers::Board>,
    exactly_one: bool,
) -> Result<(), Wrong> {
    check_board(puzzle, answer, stated.filter(|_| exactly_one))
}

/// The verdict on a `no_solution` answer: wrong when the dataset states a solution (which was
/// checked to solve the puzzle when the file was read).
///
/// # Errors
/// [`Wrong::SolutionExists`] when `stated` is given.
pub fn no_solution_verdict(stated: Option<&solvers::Board>) -> Result<(), Wrong> {
    match stated {
        Some(_) => Err(Wrong::SolutionExists),
        None => Ok(()),
    }
}

/// Checks `answer` against `puzzle` for a grid of side `side` (N·N cells, row-major, 0 = empty,
/// symbols 1..=N) whose boxes are `boxes = Some((rows, cols))`, or none (a Latin square). O(N²)
/// time. `expected` is the one solution of a puzzle known to have exactly one (the answer must
/// then equal it); a stated solution of a puzzle not known to have one decides nothing: see
/// [`verdict`].
///
/// # Errors
/// The first fault found, in this order: an unfilled cell (or slices of the wrong length), a
/// changed given, a broken unit (rows, then columns, then boxes), a difference from `expected`.
pub fn check_shaped<T: Copy + PartialEq + Into<usize>>(
    side: usize,
    boxes: Option<(usize, usize)>,
    puzzle: &[T],
    answer: &[T],
    expected: Option<&[T]>,
) -> Result<(), Wrong> {
    let n = side;
    let cells = n * n;
    if puzzle.len() != cells || answer.len() != cells {
        return Err(Wrong::NotFilled(format!(
            "the whole answer ({} cells, expected {cells})",
            answer.len()
        )));
    }
    if let Some(i) = (0..cells).find(|&i| !(1..=n).contains(&answer[i].into())) {
        return Err(Wrong::NotFilled(name(n, i)));
    }
    if let Some(i) = (0..cells).find(|&i| puzzle[i].into() != 0 && puzzle[i] != answer[i]) {
        return Err(Wrong::GivenChanged(name(n, i)));
    }
    let kinds = match boxes {
        Some((r, c)) if r * c == n => 3,
        Some(_) => {
            return Err(Wrong::NotFilled(
                "the whole grid (boxes do not tile it)".into(),
            ))
        }
        None => 2,
    };
    let (br, bc) = boxes.unwrap_or((1, n));
    let mut count = vec![0u32; n + 1];
    for kind in 0..kinds {
        for u in 0..n {
            count.iter_mut().for_each(|c| *c = 0);
            for k in 0..n {
                let (r, c) = match kind {
                    0 => (u, k),
                    1 => (k, u),
                    // Box u: band u / (n / bc), stack u % (n / bc); cell k within it.
                    _ => (u / (n / bc) * br + k / bc, u % (n / bc) * bc + k % bc),
                };
                count[answer[r * n + c].into()] += 1;
            }
            if let Some(d) = (1..=n).find(|&d| count[d] != 1) {
                let unit = ["row", "column", "box"][kind];
                return Err(Wrong::UnitBroken {
                    unit: format!("{unit} {}", u + 1),
                    missing: if count[d] == 0 {
                        d as u16
                    } else {
                        (1..=n).find(|&m| count[m] == 0).unwrap_or(d) as u16
                    },
                });
            }
        }
    }
    if let Some(exp) = expected {
        if exp.len() != cells {
            return Err(Wrong::DiffersFromExpected(
                "every cell (wrong length)".into(),
            ));
        }
        if let Some(i) = (0..cells).find(|&i| exp[i] != answer[i]) {
            return Err(Wrong::DiffersFromExpected(name(n, i)));
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

    use solvers::known_puzzles::{SEED as P, SEED_SOLUTION as S};

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

    /// A stated solution decides only a puzzle known to have exactly one: the empty 4x4 grid
    /// has many solutions, so a valid answer other than the stated one is right.
    #[test]
    fn a_stated_solution_decides_only_puzzles_of_one_solution() {
        let shape = solvers::Shape::of_order(2).unwrap();
        let board = |s: &str| {
            let cells = s
                .bytes()
                .map(|b| u16::from(b.saturating_sub(b'0')))
                .collect();
            solvers::Board::new(shape, cells).unwrap()
        };
        let puzzle = board("1000000000000000");
        let stated = board("1234341221434321");
        let other = board("1243341221344321");
        assert_eq!(verdict(&puzzle, &other, Some(&stated), false), Ok(()));
        assert_eq!(verdict(&puzzle, &stated, Some(&stated), true), Ok(()));
        assert!(matches!(
            verdict(&puzzle, &other, Some(&stated), true),
            Err(Wrong::DiffersFromExpected(c)) if c == "r1c3"
        ));
        // A broken unit is wrong whatever is stated.
        let broken = board("1234341221434312");
        assert!(verdict(&puzzle, &broken, None, false).is_err());
        assert_eq!(no_solution_verdict(None), Ok(()));
        assert_eq!(
            no_solution_verdict(Some(&stated)),
            Err(Wrong::SolutionExists)
        );
    }

    #[test]
    fn checks_rectangular_boxes_and_latin_squares() {
        // 6x6 with 2x3 boxes: row r is the cyclic shift of 1..6 by 3*(r%2) + r/2.
        let grid: Vec<u8> = (0..36)
            .map(|i| {
                let (r, c) = (i / 6, i % 6);
                ((c + 3 * (r % 2) + r / 2) % 6) as u8 + 1
            })
            .collect();
        assert_eq!(check_shaped(6, Some((2, 3)), &[0; 36], &grid, None), Ok(()));
        // The same grid read with 3x2 boxes breaks box 1 (rows 0-2, columns 0-1).
        assert!(matches!(
            check_shaped(6, Some((3, 2)), &[0; 36], &grid, None),
            Err(Wrong::UnitBroken { unit, .. }) if unit == "box 1"
        ));
        // A cyclic Latin square of order 5 has no boxes to break.
        let latin: Vec<u8> = (0..25).map(|i| ((i / 5 + i % 5) % 5) as u8 + 1).collect();
        assert_eq!(check_shaped(5, None, &[0; 25], &latin, None), Ok(()));
        let mut bad = latin.clone();
        bad[24] = 6; // above N
        assert_eq!(
            check_shaped(5, None, &[0; 25], &bad, None),
            Err(Wrong::NotFilled("r5c5".into()))
        );
    }
}
