//! Why a puzzle given is refused, in the words every front end shares (`harness solve`,
//! `count`, `hint`, the web board and the Python module): a solver that does not take the
//! puzzle's shape, or a hint asked of a board with no solution or several.

use solvers::logic::RateError;
use solvers::{Shape, SolverKind};

/// Why solver `name` is refused on puzzles of `shape`, naming the built-in solvers that take it
/// (or saying none does).
pub fn refusal(name: &str, shape: Shape) -> String {
    refusal_among(name, shape, SolverKind::taking(shape))
}

/// [`refusal`] for a count: names only the built-in solvers that take `shape` and count.
pub fn counting_refusal(name: &str, shape: Shape) -> String {
    let mut taking = SolverKind::taking(shape);
    taking.retain(|k| k.caps().counts);
    refusal_among(name, shape, taking)
}

fn refusal_among(name: &str, shape: Shape, taking: Vec<SolverKind>) -> String {
    if taking.is_empty() {
        format!("solver {name} does not take {shape} puzzles, and no built-in solver does")
    } else {
        let names: Vec<&str> = taking.iter().map(|k| k.name()).collect();
        format!(
            "solver {name} does not take {shape} puzzles; solvers that do: {}",
            names.join(", ")
        )
    }
}

/// Why a hint is refused on a board of several solutions, in the rater's words
/// ([`RateError::MultipleSolutions`]): `harness hint` and the web board's hint say it alike.
pub fn several_solutions_refusal() -> String {
    format!(
        "{} (as `harness rate` says): no step leads to one answer; a guess would pick one of them",
        RateError::MultipleSolutions
    )
}

/// Why a hint is refused on a board without solution: `harness hint` and the web board's hint
/// say it alike. Clashing givens never get this far: the readers refuse them first, naming the
/// cells.
pub const NO_SOLUTION_REFUSAL: &str = "this board has no solution: a digit in it is wrong";
