//! Generators: solved grids and puzzles with exactly one solution, reproducible from a seed.
//!
//! | file | concern |
//! |---|---|
//! | [`rng`] | the seeded ChaCha8 streams, one per output index, and the draws built on them |
//! | [`transform`] | the `transform` method: numbered grids from a permuted row, shifts and row moves |
//! | [`random_grid`] | the `random` method: a grid filled by randomized MRV search |
//! | [`grids`] | batches of grids by either method, written fast in line or block form |
//! | [`symmetry`] | symmetries of the givens and their orbits of cells |
//! | [`puzzle`] | [`generate_puzzle`]: remove givens while the solution stays unique; [`generate_rated_puzzle`]: the first such puzzle whose rating is in a range |
//! | [`latin`] | uniformly random Latin squares (Jacobson and Matthews's Markov chain) |
//! | [`shaped`] | solved grids of every shape: Latin squares, and Sudoku grids with any boxes by randomized MRV search |
//! | [`board_puzzle`] | [`generate_board_puzzle`]: the puzzle method at every shape, counted by an engine that takes the shape |
//! | [`pattern`] | puzzles of a clue pattern (whole boxes or bands emptied): a random grid, the pattern's cells kept, many solutions allowed |
//! | [`qwh`] | quasigroups with holes: random or balanced holes in a random Latin square |
//! | [`write`] | writers of every shape: one character a cell, integers, `.pls` |
//!
//! The solver that counts solutions is chosen in one place, [`counting_solver`] (9x9), and
//! [`board_puzzle::counting_solver_for`] for every shape.

pub mod board_puzzle;
pub mod grids;
pub mod latin;
pub mod pattern;
pub mod puzzle;
pub mod qwh;
pub mod random_grid;
pub mod rng;
pub mod shaped;
pub mod symmetry;
pub mod transform;
pub mod write;

pub use board_puzzle::{
    counting_solver_for, generate_board_puzzle, generate_board_puzzle_ticking,
    generate_board_puzzle_within, BoardPuzzle, BoardPuzzleOptions,
};
pub use grids::GridMethod;
pub use puzzle::{
    generate_puzzle, generate_rated_puzzle, GeneratedPuzzle, PuzzleOptions, RatingFilter, Target,
};
pub use symmetry::Symmetry;

use solvers::SolverKind;

/// The solver the generators count solutions with when none is named: the champion,
/// [`SolverKind::CHAMPION`] (which counts). It is also the default solver of `harness solve`,
/// `harness count`, the classic `-s`, the web API and `harness autofill`.
pub fn counting_solver() -> SolverKind {
    SolverKind::CHAMPION
}

/// The counting solver of shapes other than 9x9 when none is named: the registry's
/// [`SolverKind::SHAPED_COUNTER`].
pub const SHAPED_COUNTING_SOLVER: SolverKind = SolverKind::SHAPED_COUNTER;

/// Why a generator refused or failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// More distinct grids asked for than the method can make.
    #[error("{asked} grids asked for, but the {method} method can make only {max} distinct grids{fixed}; use --method random for more", fixed = if *first_digit_fixed { " with the first digit fixed" } else { "" })]
    TooMany {
        /// Grids asked for.
        asked: u64,
        /// Distinct grids the method can make.
        max: u64,
        /// The method's name.
        method: &'static str,
        /// Whether the first digit was fixed (which shrinks the space).
        first_digit_fixed: bool,
    },
    /// A first digit outside 1..=9.
    #[error("first digit {0} is not in 1..=9")]
    BadFirstDigit(u8),
    /// A clue target outside [`clue_range`] of the shape.
    #[error("--clues {clues}: {}", clues_out_of_range(*clues, shape, range))]
    BadClues {
        /// The target.
        clues: usize,
        /// The shape, as text.
        shape: String,
        /// [`clue_range`] of the shape.
        range: std::ops::RangeInclusive<usize>,
    },
    /// The named solver does not count solutions.
    #[error("solver {0} does not count solutions; use a counting solver such as bitmask-singles")]
    SolverCannotCount(&'static str),
    /// The counting solver's session could not be opened.
    #[error("the counting solver could not start: {0}")]
    Session(String),
    /// No attempt reached the clue target.
    #[error("could not get down to {clues} givens in {} (best: {best})", crate::plumbing::human::plural(*attempts, "grid"))]
    TargetNotReached {
        /// The target.
        clues: usize,
        /// Fewest givens reached.
        best: usize,
        /// Grids tried.
        attempts: u32,
    },
    /// No candidate puzzle had a rating in the asked range.
    #[error("no puzzle rated {wanted} in {} (raise --level-attempts)", crate::plumbing::human::plural(*tries, "candidate"))]
    RatingNotReached {
        /// The range asked for, as text (`level Hard`, `score 900..1200`).
        wanted: String,
        /// Candidate puzzles rated.
        tries: u32,
    },
    /// The counting solver does not take the shape.
    #[error("solver {solver} does not take {shape} grids (its caps say 9x9 only); choose one that takes every shape (harness list)")]
    ShapeNotTaken {
        /// The solver.
        solver: &'static str,
        /// The shape, as text.
        shape: String,
    },
    /// No built-in solver counts solutions at this shape.
    #[error("no built-in solver counts solutions of {0} grids, so uniqueness cannot be proven")]
    NoCounterForShape(String),
    /// The generation's budget ran out (or its cancel flag was set) before the clue target.
    #[error("the generator ran out of its budget before getting down to {clues} givens (reached: {best})")]
    Stopped {
        /// The target.
        clues: usize,
        /// Fewest givens reached.
        best: usize,
    },
    /// The rater failed on a generated puzzle (a technique contradicted the solution: a bug).
    #[error("rating a generated puzzle: {0}")]
    Rating(String),
}

/// The numbers of givens a puzzle of `shape` with a unique solution can have, the range
/// `--clues K` must be in: 17..=81 at 9x9 (no 16-given 9x9 puzzle is unique: McGuire, Tugemann
/// and Civario, "There is no 16-clue Sudoku", 2012); (N − 1)..=N·N at another side N, Latin
/// squares included (a puzzle in which two symbols never appear has a second solution, the two
/// swapped; the exact least number is unknown for most shapes, so fewer givens than that may
/// still be out of reach: the generator then says how low it got).
pub fn clue_range(shape: solvers::Shape) -> std::ops::RangeInclusive<usize> {
    if shape.is_classic() {
        17..=81
    } else {
        shape.side().saturating_sub(1)..=shape.cells()
    }
}

/// [`GenerateError::BadClues`] unless `clues` is in [`clue_range`] of `shape`.
///
/// # Errors
/// [`GenerateError::BadClues`].
pub fn check_clues(clues: usize, shape: solvers::Shape) -> Result<(), GenerateError> {
    let range = clue_range(shape);
    if range.contains(&clues) {
        return Ok(());
    }
    Err(GenerateError::BadClues {
        clues,
        shape: shape.to_string(),
        range,
    })
}

/// Why `clues` is outside `range` ([`clue_range`] of the shape written `shape`):
/// `must be in 17..=81 for 9x9 puzzles (no 9x9 puzzle with fewer than 17 givens has a unique
/// solution)`. The message of [`GenerateError::BadClues`] after its `--clues K: `, and of the
/// web board's generator after its `givens K: `.
pub fn clues_out_of_range(
    clues: usize,
    shape: &str,
    range: &std::ops::RangeInclusive<usize>,
) -> String {
    let (min, max) = (range.start(), range.end());
    let why = if clues > *max {
        format!("a {shape} grid has {max} cells")
    } else if shape == "9x9" {
        format!("no 9x9 puzzle with fewer than {min} givens has a unique solution")
    } else {
        format!(
            "with fewer than {min} givens two symbols never appear, and swapping them gives a \
             second solution"
        )
    };
    format!("must be in {min}..={max} for {shape} puzzles ({why})")
}
