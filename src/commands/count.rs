//! `harness count`: counts a puzzle's solutions up to a limit with a counting solver.

use crate::cli::CountArgs;
use crate::commands::puzzle_arg::read_puzzle;
use anyhow::bail;
use solvers::engine::{BuiltinEngine, Engine, EngineError};
use solvers::{Budget, SolverKind};
use std::sync::Arc;
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
    let engine: Arc<dyn Engine> = match &args.solver {
        Some(name) => crate::registry::Registry::load(args.external.solvers.as_deref())?
            .engine(name, args.external.isolate)?,
        None => Arc::new(BuiltinEngine::new(crate::generate::counting_solver())),
    };
    let kind = engine.info().name.clone();
    let grid = read_puzzle(&args.puzzle)?;
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
    let c = match session.count(&grid, args.limit, &budget) {
        Ok(c) => c,
        Err(EngineError::Unsupported(_)) => return Err(refuse()),
        Err(e) => bail!("{kind} failed: {e}"),
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
