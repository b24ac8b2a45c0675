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
    /// Throughput of every solver (and the `sudoku` crate with `--features reference`), one
    /// process, single thread, interleaved rounds.
    Bench(BenchArgs),
    /// Regression check: effort counters exactly against reports/baseline/, speed ratios within
    /// a tolerance.
    Regress(RegressArgs),
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
}

/// Arguments of `harness bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Solvers: `all`, or names separated by commas.
    #[arg(long, short = 's', default_value = "all", value_delimiter = ',')]
    pub solver: Vec<String>,
    /// A shipped dataset name or a file path; repeat for several. Default: the four public sets
    /// of ../shared/datasets when present, else the shipped sets.
    #[arg(long, short = 'd')]
    pub dataset: Vec<String>,
    /// A short run (3 rounds, small budgets), for CI.
    #[arg(long)]
    pub quick: bool,
    /// Count solutions up to 2 (the uniqueness check) instead of finding the first solution.
    #[arg(long)]
    pub count_mode: bool,
    /// Use only the first N puzzles of each dataset (quick: 2000).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Interleaved rounds (default 7, quick 3).
    #[arg(long)]
    pub rounds: Option<usize>,
    /// Seconds one solver may spend per round; slower ones run a prefix of the set (default 1.0,
    /// quick 0.1).
    #[arg(long)]
    pub round_budget: Option<f64>,
}

/// Arguments of `harness regress`.
#[derive(Debug, Args)]
pub struct RegressArgs {
    /// Rewrite the baseline (reports/baseline/) from this run instead of comparing.
    #[arg(long)]
    pub bless: bool,
    /// The baseline folder.
    #[arg(long, default_value = "reports/baseline")]
    pub baseline: PathBuf,
    /// Allowed factor between a speed ratio of this run and the baseline's.
    #[arg(long, default_value_t = 1.5)]
    pub tolerance: f64,
    /// Skip the timing part (counters only).
    #[arg(long)]
    pub no_timing: bool,
}
