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
    /// Serve the web board and its JSON API on 127.0.0.1 (see README "Web board").
    Serve(ServeArgs),
    /// Read a board off a web page in a headless browser (WebDriver), solve it, type it in.
    Autofill(AutofillArgs),
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

/// Arguments of `harness serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port on 127.0.0.1 (only loopback is ever bound); 0 = a free port, printed at start.
    #[arg(long, short = 'p', default_value_t = 8080)]
    pub port: u16,
}

/// Arguments of `harness autofill`.
#[derive(Debug, Args)]
pub struct AutofillArgs {
    /// The page holding the board (http://, https:// or file:// URL).
    #[arg(long)]
    pub url: String,
    /// A running WebDriver server (e.g. http://127.0.0.1:9515); default: start `chromedriver`
    /// on a free port and stop it after.
    #[arg(long)]
    pub webdriver: Option<String>,
    /// CSS selector of the board container: the first match holding 81 cells is the board.
    #[arg(long, default_value = crate::web::autofill::DEFAULT_TABLE)]
    pub table: String,
    /// CSS selector of a cell inside the container (its `value` is the digit, empty = empty).
    #[arg(long, default_value = crate::web::autofill::DEFAULT_CELL)]
    pub cell: String,
    /// Save a PNG screenshot of the page after filling it.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
}
