//! The runner: every chosen solver over every puzzle of every dataset, in parallel with rayon,
//! each answer checked by [`crate::verify`], one [`Row`] per dataset x puzzle x solver.
//!
//! Work items are ordered puzzle-major, solver-minor, so the solvers interleave over the run and
//! machine drift hits them alike. Each solve gets a fresh [`Budget`] (deadline and node limit);
//! timing wraps the `solve` call alone (µs, from a monotonic clock).

use crate::dataset::Dataset;
use crate::verify;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use solvers::{Budget, Solver, SolverKind, Status};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a run is done.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The solvers, in report order.
    pub solvers: Vec<SolverKind>,
    /// Per-puzzle wall-clock budget; `None` = unlimited.
    pub timeout: Option<Duration>,
    /// Per-puzzle node budget; `None` = unlimited.
    pub max_nodes: Option<u64>,
    /// Worker threads; `None` = one per core.
    pub threads: Option<usize>,
    /// Show a progress bar on stderr (hidden anyway when stderr is not a terminal).
    pub progress: bool,
    /// Set to stop the run early (Ctrl-C): solves in flight stop and, like the ones not yet
    /// started, give no row. An interrupted solve is not a `timeout`, so it is dropped rather
    /// than recorded; a solve that finished before the flag was seen keeps its row.
    pub cancel: Arc<AtomicBool>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            solvers: SolverKind::ALL.to_vec(),
            timeout: Some(Duration::from_millis(crate::DEFAULT_TIMEOUT_MS)),
            max_nodes: None,
            threads: None,
            progress: false,
            cancel: Arc::new(AtomicBool::new(false)),
        }
    }
}

/// One row of `results.csv`: one solver on one puzzle. Field order is the CSV column order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Dataset name.
    pub dataset: String,
    /// The puzzle's name in its file, or its 1-based index.
    pub puzzle: String,
    /// Solver name.
    pub solver: String,
    /// `solved`, `no_solution`, `timeout` or `invalid` (the puzzle could not be read).
    pub status: String,
    /// `true` if the answer passed the checker, `false` if it failed (or the solver said
    /// `no_solution` for a puzzle known to have one), empty when there is nothing to check.
    pub correct: Option<bool>,
    /// Wall time of the solve, µs.
    pub micros: f64,
    /// Search-tree nodes entered.
    pub nodes: u64,
    /// Branch points with two or more choices.
    pub guesses: u64,
    /// Branches undone.
    pub backtracks: u64,
    /// Digits placed by inference rules.
    pub propagations: u64,
    /// Solver-specific low-level work (`dlx`: link updates), 0 for the others. Defaults to 0
    /// when reading a results.csv written before the column existed.
    #[serde(default)]
    pub updates: u64,
    /// The 81-digit answer, empty when there is none.
    pub solution: String,
    /// 1-based line of the puzzle in its file.
    pub line: usize,
    /// Number of givens (0 for an invalid puzzle).
    pub givens: usize,
    /// The puzzle, 81 characters, `.` = empty (empty for an invalid puzzle).
    pub grid: String,
    /// Why the puzzle is invalid or the answer wrong; empty otherwise.
    pub error: String,
}

impl Row {
    /// True when the checker rejected this row's answer.
    pub fn is_wrong(&self) -> bool {
        self.correct == Some(false)
    }
}

/// Runs `opts.solvers` over `datasets`; rows come back in dataset, puzzle, solver order. When
/// `opts.cancel` is set part-way, only the solves that finished are returned (see
/// [`RunOptions::cancel`]).
///
/// # Errors
/// Only when the thread pool cannot be built.
pub fn run(datasets: &[Dataset], opts: &RunOptions) -> anyhow::Result<Vec<Row>> {
    let solvers: Vec<Box<dyn Solver>> = opts.solvers.iter().map(|k| k.build()).collect();
    let mut items = Vec::new();
    for (d, ds) in datasets.iter().enumerate() {
        for e in 0..ds.entries.len() {
            for s in 0..solvers.len() {
                items.push((d, e, s));
            }
        }
    }
    let bar = if opts.progress {
        ProgressBar::with_draw_target(Some(items.len() as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} solves ({rate}, eta {eta})",
        )
        .expect("valid template")
        // Whole solves per second (indicatif's `{per_sec}` prints four decimals).
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", s.per_sec());
            },
        ),
    );
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = opts.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder.build()?;
    let mut rows: Vec<Option<Row>> = pool.install(|| {
        items
            .par_iter()
            .map(|&(d, e, s)| {
                if opts.cancel.load(Ordering::Relaxed) {
                    return None;
                }
                let row = solve_one(&datasets[d], e, solvers[s].as_ref(), opts);
                if row.status == Status::Timeout.as_str() && opts.cancel.load(Ordering::Relaxed) {
                    // Stopped by the cancel flag (or at best both): not a real timeout.
                    return None;
                }
                bar.inc(1);
                Some(row)
            })
            .collect()
    });
    bar.finish_and_clear();
    cross_check(&mut rows, solvers.len());
    Ok(rows.into_iter().flatten().collect())
}

fn solve_one(ds: &Dataset, e: usize, solver: &dyn Solver, opts: &RunOptions) -> Row {
    let entry = &ds.entries[e];
    let mut row = Row {
        dataset: ds.name.clone(),
        puzzle: entry.label(),
        solver: solver.name().to_string(),
        status: "invalid".into(),
        correct: None,
        micros: 0.0,
        nodes: 0,
        guesses: 0,
        backtracks: 0,
        propagations: 0,
        updates: 0,
        solution: String::new(),
        line: entry.line,
        givens: 0,
        grid: String::new(),
        error: String::new(),
    };
    let puzzle = match &entry.puzzle {
        Ok(p) => p,
        Err(err) => {
            row.error = err.to_string();
            return row;
        }
    };
    row.givens = puzzle.grid.givens();
    row.grid = puzzle.grid.to_line();
    let budget = Budget::unlimited()
        .max_nodes(opts.max_nodes)
        .cancel_flag(opts.cancel.clone())
        .timeout(opts.timeout);
    let start = Instant::now();
    let outcome = solver.solve(&puzzle.grid, &budget);
    row.micros = (start.elapsed().as_secs_f64() * 1e9).round() / 1e3;
    row.status = outcome.status.as_str().into();
    row.nodes = outcome.stats.nodes;
    row.guesses = outcome.stats.guesses;
    row.backtracks = outcome.stats.backtracks;
    row.propagations = outcome.stats.propagations;
    row.updates = outcome.stats.updates;
    match (outcome.status, outcome.solution) {
        (Status::Solved, Some(sol)) => {
            row.solution = sol.to_digits();
            let expected = puzzle.solution.as_ref().map(|g| g.cells());
            match verify::check(puzzle.grid.cells(), sol.cells(), expected) {
                Ok(()) => row.correct = Some(true),
                Err(w) => {
                    row.correct = Some(false);
                    row.error = w.to_string();
                }
            }
        }
        (Status::Solved, None) => {
            row.correct = Some(false);
            row.error = "solver reported solved without a grid".into();
        }
        (Status::NoSolution, _) if puzzle.solution.is_some() => {
            row.correct = Some(false);
            row.error = "no_solution, but the dataset states a solution".into();
        }
        _ => {}
    }
    row
}

/// A `no_solution` answer is wrong when another solver found a checked solution of the same
/// puzzle. `rows` is in puzzle-major, solver-minor order, `per_puzzle` rows per puzzle.
fn cross_check(rows: &mut [Option<Row>], per_puzzle: usize) {
    if per_puzzle == 0 {
        return;
    }
    for chunk in rows.chunks_mut(per_puzzle) {
        let solved_by = chunk
            .iter()
            .flatten()
            .find(|r| r.correct == Some(true))
            .map(|r| r.solver.clone());
        if let Some(by) = solved_by {
            for r in chunk.iter_mut().flatten() {
                if r.status == "no_solution" && r.correct != Some(false) {
                    r.correct = Some(false);
                    r.error = format!("no_solution, but {by} found a checked solution");
                }
            }
        }
    }
}
