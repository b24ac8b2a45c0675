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
    /// Print a puzzle's pencil marks after naked and hidden singles; --trace shows each step.
    Candidates(CandidatesArgs),
    /// Write a puzzle's CNF encoding in DIMACS form (the formula the `sat` solver solves).
    Cnf(CnfArgs),
    /// Count a puzzle's solutions up to a limit: prints 0, 1, ... or "at least N".
    Count(CountArgs),
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

/// Arguments of `harness candidates`.
#[derive(Debug, Args)]
pub struct CandidatesArgs {
    /// The puzzle: 81 characters (`1`-`9` givens; `.` `0` `_` `-` `*` empty), or `-` for stdin.
    pub puzzle: String,
    /// Also print every deduction (rule and unit) and guess of the solve, in order.
    #[arg(long)]
    pub trace: bool,
    /// Budget of the traced solve in ms; 0 = none.
    #[arg(long, default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// Node budget of the traced solve (bounds the trace's length and memory).
    #[arg(long, default_value_t = 100_000)]
    pub max_nodes: u64,
}

/// Arguments of `harness cnf`.
#[derive(Debug, Args)]
pub struct CnfArgs {
    /// The puzzle: 81 characters (`1`-`9` givens; `.` `0` `_` `-` `*` empty), or `-` for stdin.
    pub puzzle: String,
    /// Write the DIMACS file here (atomically) instead of stdout.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

/// Arguments of `harness count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// The puzzle: 81 characters (`1`-`9` givens; `.` `0` `_` `-` `*` empty), or `-` for stdin.
    pub puzzle: String,
    /// Stop counting at this many solutions (2 proves uniqueness).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,
    /// A counting solver (see `harness list`): domain-reduction (the fastest), dlx, sat,
    /// bitmask-singles.
    #[arg(long, short = 's', default_value = "domain-reduction")]
    pub solver: String,
    /// Budget in ms; 0 = none. When it runs out the count is a lower bound (exit status 1).
    #[arg(long, default_value_t = 60_000)]
    pub timeout_ms: u64,
}
