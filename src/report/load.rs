//! Loading a finished run from its folder: `run.json` and `results.csv`, nothing else (the report,
//! `compare` and `merge` never rerun a solver and never need the puzzle files).

use crate::output::RunInfo;
use crate::record::RowStatus;
use crate::runner::Row;
use anyhow::Context;
use std::path::{Path, PathBuf};

/// A run as saved on disk.
#[derive(Debug, Clone)]
pub struct Run {
    /// The run's folder.
    pub dir: PathBuf,
    /// `run.json`.
    pub info: RunInfo,
    /// `results.csv`, in file order.
    pub rows: Vec<Row>,
    /// Solver names in report order: `run.json`'s `solvers` (which follows the registry order,
    /// `SolverKind::ALL`), then any other solver found in the rows.
    pub solvers: Vec<String>,
    /// Dataset names in report order: `run.json`'s `datasets`, then any other found in the rows.
    pub datasets: Vec<String>,
}

impl Run {
    /// The rows of one dataset x solver pair, in file order.
    pub fn rows_of<'a>(
        &'a self,
        dataset: &'a str,
        solver: &'a str,
    ) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows
            .iter()
            .filter(move |r| r.dataset == dataset && r.solver == solver)
    }

    /// True when `solver`'s `nodes` are search-tree nodes (as run.json records; for runs written
    /// before it did, the built-in solvers but `sat`, whose nodes are varisat calls).
    pub fn counts_search_nodes(&self, solver: &str) -> bool {
        match self.info.solver_details.iter().find(|d| d.name == solver) {
            Some(d) => d
                .nodes
                .as_deref()
                .map_or(d.kind == "builtin", |n| n == "search_tree"),
            None => solver != "sat" && solver.parse::<solvers::SolverKind>().is_ok(),
        }
    }

    /// Per-puzzle time budget, µs, if the run had one.
    pub fn budget_micros(&self) -> Option<f64> {
        self.info.timeout_ms.map(|ms| ms as f64 * 1e3)
    }
}

/// True when a row counts as solved in the plots: a checked solution, a solve of a solver that
/// writes no solution (unchecked, and said so), or a `no_solution` no check contradicted.
/// Timeouts, errors, wrong answers and invalid puzzles are unsolved.
pub fn counts_as_solved(r: &Row) -> bool {
    match r.status {
        RowStatus::Solved => r.correct != Some(false),
        RowStatus::NoSolution => r.correct != Some(false),
        _ => false,
    }
}

/// Reads `run.json` of the run in `dir`.
///
/// # Errors
/// When the file is missing or is not a run description (the message names the file).
pub fn read_info(dir: &Path) -> anyhow::Result<RunInfo> {
    let path = dir.join("run.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {} (is this a run folder?)", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}: not a run.json", path.display()))
}

/// Reads the rows of `results.csv` in `dir`.
///
/// # Errors
/// When the file is missing or a record does not parse (the message names file and line).
pub fn read_rows(dir: &Path) -> anyhow::Result<Vec<Row>> {
    let path = dir.join("results.csv");
    let mut rdr = csv::Reader::from_path(&path)
        .with_context(|| format!("cannot read {} (is this a run folder?)", path.display()))?;
    let mut rows = Vec::new();
    for (i, rec) in rdr.deserialize::<Row>().enumerate() {
        let row = rec.with_context(|| format!("{}:{}: bad row", path.display(), i + 2))?;
        rows.push(row);
    }
    Ok(rows)
}

/// Loads the run saved in `dir`.
///
/// # Errors
/// As [`read_info`] and [`read_rows`].
pub fn load(dir: &Path) -> anyhow::Result<Run> {
    let info = read_info(dir)?;
    let rows = read_rows(dir)?;
    let mut solvers = info.solvers.clone();
    let mut datasets: Vec<String> = info.datasets.iter().map(|d| d.name.clone()).collect();
    for r in &rows {
        if !solvers.contains(&r.solver) {
            solvers.push(r.solver.clone());
        }
        if !datasets.contains(&r.dataset) {
            datasets.push(r.dataset.clone());
        }
    }
    // A dataset with no row in this run (an empty shard) has nothing to plot.
    datasets.retain(|d| rows.iter().any(|r| &r.dataset == d));
    Ok(Run {
        dir: dir.to_path_buf(),
        info,
        rows,
        solvers,
        datasets,
    })
}
