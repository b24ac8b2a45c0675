//! `harness count`: counts a puzzle's solutions up to a limit with a counting solver, at any
//! shape: by default the best built-in solver for the shape ([`SolverKind::best_for`], the
//! policy `harness solve` uses too), or the solver named with `--solver` when it takes the shape.

use crate::cli::CountArgs;
use crate::commands::puzzle_arg::read_board;
use crate::input::refusal::counting_refusal;
use anyhow::bail;
use solvers::engine::{Engine, EngineError};
use solvers::registry::BuiltinEngine;
use solvers::{Budget, SolverKind};
use std::sync::Arc;
use std::time::Duration;

/// A finished count.
struct Counted {
    solutions: u64,
    complete: bool,
}

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
/// A bad puzzle, an unknown solver, a solver that does not count or does not take the puzzle's
/// shape, or no built-in solver that counts the shape (exit 2).
pub fn count(args: &CountArgs) -> anyhow::Result<CountEnd> {
    let registry = super::run::registry(&args.external, args.solver.is_some())?;
    let named: Option<Arc<dyn Engine>> = match &args.solver {
        Some(name) => Some(registry.engine(name, args.external.isolate)?),
        None => None,
    };
    let puzzle = read_board(&args.puzzle)?;
    let shape = puzzle.shape();
    let engine: Arc<dyn Engine> = match named {
        Some(e) if !e.info().caps.shapes.takes(shape) => {
            bail!(counting_refusal(&e.info().name, shape))
        }
        Some(e) => e,
        None => Arc::new(BuiltinEngine::new(SolverKind::best_for(shape))),
    };
    let kind = engine.info().name.clone();
    let timeout = (args.timeout_ms > 0).then(|| Duration::from_millis(args.timeout_ms));
    let budget = Budget::unlimited().timeout(timeout);
    let refuse = || {
        let counting: Vec<&str> = SolverKind::ALL
            .iter()
            .filter(|k| k.counts())
            .map(|k| k.name())
            .collect();
        anyhow::anyhow!(
            "solver {kind} does not count solutions; counting solvers: {}",
            counting.join(", ")
        )
    };
    if !engine.info().caps.counts {
        return Err(refuse());
    }
    let mut session = engine
        .session()
        .map_err(|e| anyhow::anyhow!("{kind}: {e}"))?;
    let counted = session
        .count(&puzzle.board, args.limit, &budget)
        .map(|c| (c.solutions, c.complete));
    let c = match counted {
        Ok(c) => c,
        Err(EngineError::Unsupported(_)) => return Err(refuse()),
        Err(e) => bail!("{kind} failed: {e}"),
    };
    let c = Counted {
        solutions: c.0,
        complete: c.1,
    };
    if !c.complete {
        outln!("at least {}", c.solutions)?;
        errln!(
            "{kind} ran out of its budget ({} ms) before finishing: {} found so far",
            args.timeout_ms,
            crate::plumbing::human::plural(c.solutions, "solution")
        );
    } else if c.solutions >= args.limit {
        outln!("at least {}", c.solutions)?;
    } else {
        outln!("{}", c.solutions)?;
    }
    Ok(CountEnd {
        complete: c.complete,
    })
}
