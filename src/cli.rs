//! The command line (clap derive). Each subcommand's arguments live here; its work lives in
//! `commands/<name>.rs`.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// sudoku-harness: compare Sudoku-solving algorithms head to head, honestly and fast.
#[derive(Debug, Parser)]
#[command(name = "harness", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run solvers over datasets, check every answer, write results.csv, summary.csv, run.json.
    Run(RunArgs),
    /// List the solvers and the shipped datasets.
    List,
    /// Render a run's report (plots, summary.md, index.html) from its results.csv and run.json.
    Report(ReportArgs),
    /// Compare two runs: median µs, ratio B/A, nodes, changed answers per dataset x solver.
    Compare(CompareArgs),
    /// Join the shards of a `run --shard K/N` into one run and render its report.
    Merge(MergeArgs),
}

/// Arguments of `harness run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Solvers: `all`, or names separated by commas (see `harness list`).
    #[arg(long, short = 's', default_value = "all", value_delimiter = ',')]
    pub solver: Vec<String>,
    /// A shipped dataset name or a file path; repeat for several. Default: the shipped sets.
    #[arg(long, short = 'd')]
    pub dataset: Vec<String>,
    /// Per-puzzle time budget in ms; 0 = none. A solve that runs out is recorded as `timeout`.
    #[arg(long, default_value_t = crate::DEFAULT_TIMEOUT_MS)]
    pub timeout_ms: u64,
    /// Per-puzzle budget in search-tree nodes (reproducible across machines); default none.
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Worker threads; default one per core. Use 1 for clean per-puzzle timings.
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Output folder; default reports/run-YYYYMMDD-HHMMSS.
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
    /// No progress bar and no table, only the final line.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Run only slice K of N (1-based, e.g. `2/3`): the puzzles whose 0-based index over the
    /// concatenated datasets is K-1 modulo N. Join the slices with `harness merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<crate::shard::Shard>,
    /// Do not render the report (plots, summary.md, index.html) at the end.
    #[arg(long)]
    pub no_report: bool,
}

/// Arguments of `harness report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The run folder (holding results.csv and run.json); the report is written into it.
    pub dir: PathBuf,
}

/// Arguments of `harness compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The baseline run folder (A).
    pub run_a: PathBuf,
    /// The run folder compared with it (B).
    pub run_b: PathBuf,
    /// Also write the comparison as CSV to this file.
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
}

/// Arguments of `harness merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' run folders (every shard of one split, any order).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Folder of the merged run (results.csv, summary.csv, run.json, report).
    #[arg(long, short = 'o')]
    pub out: PathBuf,
    /// Do not render the report.
    #[arg(long)]
    pub no_report: bool,
}
