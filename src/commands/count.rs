//! `harness count`: counts a puzzle's solutions up to a limit with a counting solver.

use crate::cli::CountArgs;
use crate::commands::puzzle_arg::read_puzzle;
use anyhow::bail;
use solvers::{Budget, SolverKind};
use std::time::Duration;

/// What `harness count` found.
pub struct CountEnd {
    /// True when the search finished (or reached the limit) within the budget.
    pub complete: bool,
}

/// Counts the solutions of `args.puzzle` up to `args.limit` and prints `0`, `1`, ... or
/// `at least N` when the limit N was reached. When the budget runs out first it prints
/// `at least K` on stdout and the reason on stderr, and returns `complete: false` (exit 1).
///
/// # Errors
/// A bad puzzle, an unknown solver, or a solver that does not count (exit 2).
pub fn count(args: &CountArgs) -> anyhow::Result<CountEnd> {
    let kind: SolverKind = match &args.solver {
        Some(name) => name.parse()?,
        None => crate::generate::counting_solver(),
    };
    let grid = read_puzzle(&args.puzzle)?;
    let timeout = (args.timeout_ms > 0).then(|| Duration::from_millis(args.timeout_ms));
    let budget = Budget::unlimited().timeout(timeout);
    let Some(c) = kind.build().count(&grid, args.limit, &budget) else {
        let counting: Vec<&str> = SolverKind::ALL
            .iter()
            .filter(|k| {
                k.build()
                    .count(&solvers::Grid::EMPTY, 1, &Budget::unlimited())
                    .is_some()
            })
            .map(|k| k.name())
            .collect();
        bail!(
            "solver {kind} does not count solutions; counting solvers: {}",
            counting.join(", ")
        );
    };
    if !c.complete {
        println!("at least {}", c.solutions);
        eprintln!(
            "{kind} ran out of its budget ({} ms) before finishing: {} solution(s) found so far",
            args.timeout_ms, c.solutions
        );
    } else if c.solutions >= args.limit {
        println!("at least {}", c.solutions);
    } else {
        println!("{}", c.solutions);
    }
    Ok(CountEnd {
        complete: c.complete,
    })
}
