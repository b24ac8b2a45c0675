//! The command line (clap derive). Each subcommand's arguments live here; its work lives in
//! `commands/<name>.rs`.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// sudoku-harness: compare Sudoku-solving algorithms head to head, honestly and fast.
#[derive(Debug, Parser)]
#[command(name = "harness", version, about, long_about = None)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do (none: the classic `-c N` / `-s PATH` mode below).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The classic mode's flags, used when no subcommand is given.
    #[command(flatten)]
    pub classic: ClassicArgs,
}

/// The classic command-line mode: `harness -c N [--seed S]` or `harness -s PATH`, writing
/// `./sudoku.txt`. Values are taken as raw text and checked by `commands::classic`, so every bad
/// value (`0`, `-3`, `1e6`, `abc`, none) gets the same one-line error and exit status 2.
///
/// `-s` here, with no subcommand, is the classic solve; after `run` (`harness run -s NAME`) it
/// is `--solver`.
#[derive(Debug, Args, Default)]
pub struct ClassicArgs {
    /// Write N distinct solved grids (1..=1000000, first digit fixed) in block form to ./sudoku.txt.
    #[arg(short = 'c', value_name = "N", num_args = 0..=1, default_missing_value = "",
          allow_hyphen_values = true, conflicts_with = "solve_path")]
    pub create: Option<String>,
    /// With -c: the seed of the grids (the same seed writes the same file). Default: from the
    /// clock, printed.
    #[arg(long = "seed", value_name = "S", num_args = 0..=1, default_missing_value = "",
          allow_hyphen_values = true)]
    pub seed: Option<String>,
    /// Solve the block-form puzzles (0 = empty) in PATH; write the solutions to ./sudoku.txt.
    /// (Without a subcommand only: `harness run -s NAME` is `run --solver`.)
    #[arg(short = 's', value_name = "PATH", num_args = 0..=1, default_missing_value = "",
          allow_hyphen_values = true)]
    pub solve_path: Option<String>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run solvers over datasets, check every answer, write results.csv, summary.csv, run.json.
    Run(RunArgs),
    /// A scaling study: generate instances per order and hole fraction (reproducible per
    /// --seed), run them like `run`, plot median and p90 cost against order and hole fraction.
    Scale(ScaleArgs),
    /// List the solvers (built-in and from the solvers file, with what each can do) and the
    /// shipped datasets.
    List(ListArgs),
    /// Serve the web board and its JSON API on 127.0.0.1 (see docs/web-board.md).
    Serve(ServeArgs),
    /// Read a board off a web page in a headless browser (WebDriver), solve it, type it in.
    Autofill(AutofillArgs),
    /// Generate solved grids or puzzles with exactly one solution (reproducible per --seed).
    Generate(GenerateArgs),
    /// Solve every puzzle of a file (any format), writing solutions in the same format and order.
    Solve(SolveArgs),
    /// Render a run's report (plots, summary.md, index.html) from its results.csv and run.json.
    Report(ReportArgs),
    /// Compare two runs: median µs, ratio B/A, nodes, changed answers per dataset x solver.
    Compare(CompareArgs),
    /// Join the shards of a `run --shard K/N` into one run and render its report.
    Merge(MergeArgs),
    /// Repeat a run from its run.json (same command line, seeds, budgets, datasets checked by
    /// sha256) into a new folder; `harness compare` then sets the two side by side.
    Rerun(RerunArgs),
    /// A dataset's manifest: puzzles, sha256, clue histogram, solution classes, duplicates (also
    /// up to isomorphism, by the minlex form).
    Inspect(InspectArgs),
    /// Print a puzzle's pencil marks after naked and hidden singles; --trace shows each step.
    Candidates(CandidatesArgs),
    /// Write a puzzle's CNF encoding in DIMACS form (the formula the `sat` solver solves).
    Cnf(CnfArgs),
    /// Count a puzzle's solutions up to a limit: prints 0, 1, ... or "at least N".
    Count(CountArgs),
    /// Throughput of every solver (and the `sudoku` crate with `--features reference`), one
    /// process, single thread, interleaved rounds. A set solved in under 0.1 s is solved several
    /// times a round: the first pass on the puzzles as given, each later one on random isomorphs
    /// of them, the same for every solver (docs/performance.md).
    Bench(BenchArgs),
    /// Regression check: effort counters exactly against reports/baseline/, speed ratios within
    /// a tolerance.
    Regress(RegressArgs),
    /// Rate every puzzle of a file as a person solves it (HoDoKu's scale): score, level, hardest
    /// technique, techniques used; CSV.
    Rate(RateArgs),
    /// The next step a person would take on a board: technique, cells, eliminations or placement.
    Hint(HintArgs),
    /// Turn a SAT solver's model of the `cnf` formula back into a grid (SAT-competition `v`
    /// lines or minisat's result file; `-` for stdin).
    Decode(DecodeArgs),
    /// Host a shared library's solver over the line protocol on stdin/stdout (what `--isolate`
    /// runs in its child process).
    #[command(hide = true)]
    HostLib(HostLibArgs),
}

/// Arguments of `harness decode`.
#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// The SAT solver's output or result file; `-` for stdin.
    pub model: String,
    /// Print the grid in block form (default: one line, as `harness cnf` read it: 81 digits
    /// for 9x9).
    #[arg(long)]
    pub block: bool,
    /// The shape of the grid `harness cnf` encoded (`9x9`, `16x16`, `12x12/3x4`,
    /// `10x10/latin`). Default: read from the model, whose highest variable is N³ for a grid
    /// of side N (9x9 when that is no cube, or is 729).
    #[arg(long, conflicts_with = "puzzle")]
    pub shape: Option<solvers::Shape>,
    /// The puzzle `harness cnf` encoded (as `cnf` takes it): needed to read a model of a
    /// reduced encoding (whose variables are the puzzle's candidates), and then the grid is
    /// checked against its givens too.
    #[arg(long)]
    pub puzzle: Option<String>,
    /// The encoding `harness cnf` used (with `--puzzle`; `auto` is the default of both).
    #[arg(long, default_value = "auto", requires = "puzzle")]
    pub encoding: solvers::sat::EncodingChoice,
}

/// Arguments of the hidden `harness host-lib`.
#[derive(Debug, Args)]
pub struct HostLibArgs {
    /// The shared library.
    pub library: PathBuf,
    /// The adapter function's symbol.
    pub symbol: String,
    /// Its configuration argument.
    pub configuration: u32,
    /// The library writes no solution (it only counts).
    #[arg(long)]
    pub no_solution: bool,
}

/// How external solvers are found and hosted; shared by run, bench, solve and count.
#[derive(Debug, Args, Clone, Default)]
pub struct ExternalArgs {
    /// The solvers file naming external solvers (TOML; see docs/external-solvers.md); a file
    /// given here must exist. Default: solvers.toml in the current folder, when there is one.
    #[arg(long, value_name = "FILE")]
    pub solvers: Option<PathBuf>,
    /// Host every `lib:` solver in a child process, so that a crash in the library is an
    /// `error` row and the run goes on (costs a round trip per puzzle).
    #[arg(long)]
    pub isolate: bool,
    /// The CNF encoding of the `sat` solver and of every `dimacs:` engine, the same for all so
    /// the race is fair (see `harness cnf --encoding`; docs/sat.md): `auto` (default:
    /// `full-pairwise` at 9x9, `reduced-pairwise` at other shapes), `full-AMO` or `reduced-AMO`.
    /// `sat-minimal` ... `sat-redundant` keep their own encodings.
    #[arg(long, default_value = "auto")]
    pub encoding: solvers::sat::EncodingChoice,
}

/// The solvers of `harness run`, `scale` and `bench`.
#[derive(Debug, Args)]
pub struct SolverArgs {
    /// Solvers: `all` (every built-in solver), names separated by commas (see `harness list`),
    /// names from the solvers file, or external solvers given inline as
    /// `[NAME=]lib:PATH:SYMBOL[:CONFIGURATION]`, `[NAME=]cmd:PROGRAM ARGS`, `[NAME=]dimacs:PROGRAM ARGS`.
    /// Here `-s` is `--solver`; `harness -s PATH` with no subcommand is the classic solve.
    #[arg(long, short = 's', default_value = "all", value_delimiter = ',')]
    pub solver: Vec<String>,
    /// External solvers: the solvers file, isolation.
    #[command(flatten)]
    pub external: ExternalArgs,
}

/// Arguments of `harness run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The solvers, built-in and external.
    #[command(flatten)]
    pub solvers: SolverArgs,
    /// A shipped dataset name or a file path; repeat for several. Default: the shipped sets.
    #[arg(long, short = 'd')]
    pub dataset: Vec<String>,
    /// Budgets, threads, output folder and shard.
    #[command(flatten)]
    pub limits: RunLimits,
    /// Continue the interrupted or killed run in RUN_DIR from its saved rows (give the same
    /// solvers, datasets, budgets and shard as that run; they are checked against its run.json).
    /// The rows of the last, partly saved chunk are solved again.
    #[arg(long, value_name = "RUN_DIR")]
    pub resume: Option<PathBuf>,
    /// Isomorph transforms: what the solvers are given instead of the puzzles.
    #[command(flatten)]
    pub isomorph: IsomorphArgs,
    /// Solve each puzzle R times with each solver and keep the median time (the answer and
    /// counters are the last solve's; a timeout is not repeated).
    #[arg(long, value_name = "R", default_value_t = 1, value_parser = whole(1, 1000u32))]
    pub repeat: u32,
}

/// The budgets, threads, output folder, shard and quiet and report switches of a run, shared by
/// `harness run` and `harness scale` (which passes them on to its run).
#[derive(Debug, Args)]
pub struct RunLimits {
    /// Per-puzzle time budget in ms; 0 = none. A solve that runs out is recorded as `timeout`
    /// (scores count it as twice the budget: PAR-2).
    #[arg(long, default_value_t = crate::DEFAULT_TIMEOUT_MS, value_parser = whole_of::<u64>("milliseconds"))]
    pub timeout_ms: u64,
    /// Per-puzzle budget in search-tree nodes (reproducible across machines); default none.
    #[arg(long, value_parser = whole_of::<u64>("nodes"))]
    pub max_nodes: Option<u64>,
    /// Worker threads; default one per core. Use 1 for clean per-puzzle timings.
    #[arg(long, short = 'j', value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Output folder; default reports/run-YYYYMMDD-HHMMSS (scale-YYYYMMDD-HHMMSS for a study).
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
    /// No progress bars and no tables, only the final lines.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Run only slice K of N (1-based, e.g. `2/3`): the puzzles whose 0-based index over the
    /// concatenated datasets is K-1 modulo N (a study's instances). Join the slices with
    /// `harness merge` (then, for a study, `harness scale --render MERGED_DIR`).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<crate::record::Shard>,
    /// Do not render the report (plots, summary.md, index.html; a study's scaling plots) at
    /// the end.
    #[arg(long)]
    pub no_report: bool,
}

/// Arguments of `harness scale` (docs/scaling.md).
#[derive(Debug, Args)]
pub struct ScaleArgs {
    /// The solvers, built-in and external.
    #[command(flatten)]
    pub solvers: SolverArgs,
    /// Sudoku shapes, separated by commas: orders `N` (the side; square boxes), ranges `a..b`
    /// (every square side from a to b: `4..25` = 4x4, 9x9, 16x16, 25x25), and boxes `RxC` (side
    /// R·C): `4..25,2x3,3x4`.
    #[arg(long, value_delimiter = ',')]
    pub sudoku_orders: Vec<String>,
    /// Retired (box orders, side n²): refused, naming its --sudoku-orders spelling.
    #[arg(long, value_delimiter = ',', hide = true)]
    pub orders: Vec<String>,
    /// Sudoku instances: the fraction of cells emptied (givens removed in a random order while
    /// the solution stays unique), or `minimal` (remove until no given can go). Default 0.5,
    /// unless punched Sudoku take --holes-per-n155 or --hole-counts.
    #[arg(long)]
    pub sudoku_holes: Option<String>,
    /// Latin-square orders of the quasigroups with holes, separated by commas: `N`, ranges `a..b`
    /// and ranges with a step `a..b/s`: `10..20/5`.
    #[arg(long, value_delimiter = ',')]
    pub qwh_orders: Vec<String>,
    /// Hole fractions of the quasigroups with holes (holes / N²), separated by commas: `F`, or
    /// ranges with a step `LO..HI/STEP` (both ends included): `0.30..0.60/0.02`. Default 0.42
    /// when no hole amount is given.
    #[arg(long, value_delimiter = ',')]
    pub holes: Vec<String>,
    /// Hole counts as multiples of N^1.55 (holes / N^1.55, the axis on which the hardness peaks
    /// of different orders line up), for the quasigroups and the punched Sudoku: `M`, or ranges
    /// `LO..HI/STEP`: `1.2..2.8/0.1`.
    #[arg(long, value_delimiter = ',')]
    pub holes_per_n155: Vec<String>,
    /// Absolute hole counts, for the quasigroups and the punched Sudoku: `K`, `a..b`, `a..b/s`.
    #[arg(long, value_delimiter = ',')]
    pub hole_counts: Vec<String>,
    /// Sudoku instances with their holes punched at random in a solved grid (as the quasigroups
    /// with holes are made: `--sudoku-holes` of the cells, or balanced with `--balanced`), not
    /// removed while the solution stays unique: at least one solution, often many, and no
    /// counts, so any order is made in moments.
    #[arg(long)]
    pub punched: bool,
    /// Balanced holes (the same number in every row and column) instead of random ones, for the
    /// quasigroups and the punched Sudoku: `--placement balanced`.
    #[arg(long, conflicts_with = "placement")]
    pub balanced: bool,
    /// How the holes of the quasigroups and the punched Sudoku are placed: `random`,
    /// `balanced` (the same number in every row and column), or `both` (every point twice, to
    /// compare them).
    #[arg(long, value_enum, default_value_t = Placement::Random)]
    pub placement: Placement,
    /// Make every instance of a point a random isomorph of its first (rows, columns and
    /// symbols permuted; Sudoku rows and columns within bands and stacks): repeated randomised
    /// runs of one instance, for the run-time distributions of the heavy-tail plots.
    #[arg(long)]
    pub isomorphs_of_first: bool,
    /// Instances per point (shape x hole fraction).
    #[arg(long, short = 'n', default_value_t = 10, value_parser = whole(1, 1_000_000u64))]
    pub instances: u64,
    /// Seed of the instances: the same seed gives the same files, byte for byte.
    #[arg(long, default_value_t = 1, value_parser = whole(0, u64::MAX))]
    pub seed: u64,
    /// Node budget of each uniqueness count while making Sudoku instances (the counting
    /// solver's nodes); a count that runs out keeps its given. 0 = no budget.
    #[arg(long, default_value_t = 1_000_000, value_parser = whole_of::<u64>("nodes"))]
    pub count_nodes: u64,
    /// Budgets, threads, output folder and shard, as `harness run` takes them.
    #[command(flatten)]
    pub limits: RunLimits,
    /// The folder of the instance files; default RUN_DIR/instances. Shards of one study give
    /// the same folder (their runs must read the same files to merge); files already there for
    /// the same plan (its plan.json) are kept, not made again.
    #[arg(long, value_name = "DIR")]
    pub instances_dir: Option<PathBuf>,
    /// Continue the interrupted or killed study in RUN_DIR (give the same arguments).
    #[arg(long, value_name = "RUN_DIR", conflicts_with = "render")]
    pub resume: Option<PathBuf>,
    /// Only render the scaling plots and scale.md of the finished study in RUN_DIR (a merged
    /// one, say); the other arguments are ignored.
    #[arg(long, value_name = "RUN_DIR")]
    pub render: Option<PathBuf>,
}

/// How `harness scale` places the holes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Placement {
    /// Uniformly random cells.
    Random,
    /// The same number in every row and column.
    Balanced,
    /// Every point twice: random and balanced.
    Both,
}

/// `--transform SEED` and `--isomorphs K`, shared by `run`, `bench` and `solve`.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct IsomorphArgs {
    /// Give each solver a random isomorph of each puzzle (digits relabelled, rows within bands,
    /// bands, columns within stacks, stacks permuted, maybe transposed), drawn from SEED and the
    /// puzzle's index; answers are mapped back and checked against the original puzzle.
    #[arg(long, value_name = "SEED", value_parser = whole(0, u64::MAX))]
    pub transform: Option<u64>,
    /// Solve each puzzle K times, under K different transforms (seed from --transform, else 0);
    /// run's report shows each solver's spread of nodes and time over the copies of a puzzle,
    /// bench times the copies as one set.
    #[arg(long, value_name = "K", value_parser = whole(1, 1000u32))]
    pub isomorphs: Option<u32>,
}

impl IsomorphArgs {
    /// The transform seed in effect: `--transform`, or 0 when only `--isomorphs` is given.
    pub fn seed(&self) -> Option<u64> {
        self.transform.or(self.isomorphs.map(|_| 0))
    }

    /// Copies per puzzle (1 without `--isomorphs`).
    pub fn copies(&self) -> u32 {
        self.isomorphs.unwrap_or(1)
    }
}

/// Arguments of `harness list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// The solvers file to list external solvers from (default: solvers.toml here, if any).
    #[arg(long, value_name = "FILE")]
    pub solvers: Option<PathBuf>,
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

/// Arguments of `harness rerun`.
#[derive(Debug, Args)]
pub struct RerunArgs {
    /// The run folder whose run.json to repeat.
    pub run_dir: PathBuf,
    /// Folder of the new run.
    #[arg(long, short = 'o')]
    pub out: PathBuf,
}

/// Arguments of `harness inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// Shipped dataset names or puzzle files (any format).
    #[arg(required = true)]
    pub datasets: Vec<String>,
    /// Print the manifests as JSON (as run.json holds them).
    #[arg(long)]
    pub json: bool,
    /// Budget of each puzzle's solution count, ms.
    #[arg(long, default_value_t = crate::DEFAULT_TIMEOUT_MS, value_parser = whole_of::<u64>("milliseconds"))]
    pub timeout_ms: u64,
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

/// Arguments of `harness serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port on 127.0.0.1 (only loopback is ever bound); 0 = a free port, printed at start.
    #[arg(long, short = 'p', default_value_t = 8080)]
    pub port: u16,
}

/// `autofill`'s default table selector: fits the page of `harness serve` (`<table id="board">`)
/// and any page whose first table with 81 input cells is the board.
pub const DEFAULT_TABLE: &str = "table";
/// `autofill`'s default cell selector, searched inside the table.
pub const DEFAULT_CELL: &str = "input";

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
    #[arg(long, default_value = DEFAULT_TABLE)]
    pub table: String,
    /// CSS selector of a cell inside the container (its `value` is the digit, empty = empty).
    #[arg(long, default_value = DEFAULT_CELL)]
    pub cell: String,
    /// Save a PNG screenshot of the page after filling it.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
}

/// Arguments of `harness generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// What to generate.
    #[command(subcommand)]
    pub what: GenerateCommand,
}

/// What `harness generate` makes.
#[derive(Debug, Subcommand)]
pub enum GenerateCommand {
    /// Solved grids: 9x9, or any shape with --order, --box, --latin.
    Grids(GridsArgs),
    /// Puzzles with exactly one solution, with their solutions: 9x9, or any shape with --order,
    /// --box, --latin.
    Puzzles(PuzzlesArgs),
    /// Quasigroups with holes: random Latin squares with a fraction of cells emptied (always
    /// satisfiable).
    Qwh(QwhArgs),
}

/// The shape of generated grids: 9x9 unless one of these is given.
#[derive(Debug, Args, Clone, Default)]
pub struct ShapeArgs {
    /// The order N of the grid: its side, N x N cells (`--order 16` = 16x16 with 4x4 boxes;
    /// `--latin --order 10` = a 10x10 Latin square). A Sudoku's boxes are square (N a square),
    /// else give --box. The same as --side; an --order up to 11 on a Sudoku is refused, as it
    /// was once the box order (`--order 4` meant 16x16).
    #[arg(long, value_parser = whole(1usize, solvers::MAX_SIDE))]
    pub order: Option<usize>,
    /// Sudoku with boxes of R rows x C columns, side R·C (`--box 3x4` = 12x12, `--box 2x3` =
    /// 6x6).
    #[arg(long = "box", value_name = "RxC", value_parser = parse_box, conflicts_with = "latin")]
    pub boxes: Option<(usize, usize)>,
    /// Latin square (rows and columns only, no boxes); its side is --order or --side.
    #[arg(long)]
    pub latin: bool,
    /// The side N of the grid, as --order: square boxes for a square N (`--side 16`), else give
    /// --box; the side of a Latin square with --latin.
    #[arg(long, value_parser = whole(1usize, solvers::MAX_SIDE))]
    pub side: Option<usize>,
}

/// Reads `RxC` (box rows x box columns).
///
/// # Errors
/// Text that is not two whole numbers around an `x`.
pub fn parse_box(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{s:?} is not a box shape RxC (e.g. 3x4)");
    let (r, c) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let r: usize = r.trim().parse().map_err(|_| bad())?;
    let c: usize = c.trim().parse().map_err(|_| bad())?;
    if r == 0 || c == 0 {
        return Err(bad());
    }
    Ok((r, c))
}

/// Where and how `harness generate` writes its file.
#[derive(Debug, Args)]
pub struct GenerateOutput {
    /// Output file (written to a temporary name, renamed at the end; a FIFO or device is written
    /// in place; `-` = stdout); default stdout.
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
    /// Worker threads; default one per core. The file is the same for any thread count.
    #[arg(long, short = 'j', value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Arguments of `harness generate grids`.
#[derive(Debug, Args)]
pub struct GridsArgs {
    /// How many grids (all distinct on 9x9).
    #[arg(long, short = 'n', value_parser = whole_of::<u64>("grids"))]
    pub count: u64,
    /// Seed of the random streams; the same seed gives the same file. Default: from the clock
    /// (printed on stderr).
    #[arg(long, value_parser = whole(0, u64::MAX))]
    pub seed: Option<u64>,
    /// The shape (default 9x9).
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// 9x9: `transform` (fast, at most 52,254,720 grids) or `random` (randomized search). Other
    /// shapes are always made by their own method (Latin squares uniformly at random; see
    /// docs/generating-and-batch.md) and are independent draws, not checked for repeats.
    #[arg(long, default_value = "transform")]
    pub method: crate::generate::GridMethod,
    /// 9x9 only: fix the top-left digit (1..=9); `transform` can then make 5,806,080 grids.
    #[arg(long, value_parser = whole(1u8, 9))]
    pub first_digit: Option<u8>,
    /// `line` (a grid a line, one character a cell: 1-9, then A = 10 ... Z = 35; up to side 35),
    /// `block` (9x9: 9 rows of 9, blank line after each grid), `ints` (N rows of N integers,
    /// blank line after each grid) or `pls` (`order N`, then rows of 0-based symbols). Default
    /// `line`, `ints` above side 35. Files of other shapes than 9x9 start with `# shape ...`.
    #[arg(long, value_parser = ["line", "block", "ints", "pls"])]
    pub format: Option<String>,
    /// Output file, threads, progress bar.
    #[command(flatten)]
    pub output: GenerateOutput,
}

/// Arguments of `harness generate puzzles`.
#[derive(Debug, Args)]
pub struct PuzzlesArgs {
    /// How many puzzles.
    #[arg(long, short = 'n', value_parser = whole_of::<u64>("puzzles"))]
    pub count: u64,
    /// Seed of the random streams; the same seed gives the same file. Default: from the clock
    /// (printed on stderr).
    #[arg(long, value_parser = whole(0, u64::MAX))]
    pub seed: Option<u64>,
    /// The shape (default 9x9).
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// Remove givens down to exactly K (17..=81 on 9x9, N−1..=N² at another side N), or report
    /// that the grid could not get that low.
    #[arg(long, conflicts_with = "minimal", value_parser = whole_of::<usize>("givens"))]
    pub clues: Option<usize>,
    /// Remove givens until none can be removed without losing uniqueness (the default).
    #[arg(long)]
    pub minimal: bool,
    /// 9x9 only: keep the givens of a clue pattern instead, from a random solved grid, with no
    /// uniqueness sought (most such puzzles have many solutions). A name (corner, band, stack,
    /// diagonal, cross: whole boxes emptied, see docs/generating-and-batch.md), nine per-box
    /// counts or LO-HI ranges for boxes 1 to 9 (`5,0,0,0-1,7,7,1,7,7`), or an 81-character mask
    /// (`x` a given, `.` empty). Written as puzzles only (`name,puzzle` in CSV).
    #[arg(long, conflicts_with_all = ["clues", "minimal", "level", "score"],
          value_parser = parse_pattern)]
    pub pattern: Option<crate::generate::pattern::Pattern>,
    /// Symmetry of the givens: none, rotational (180°), quarter (90°), mirror, diagonal, full.
    #[arg(long, default_value = "none")]
    pub symmetry: crate::generate::Symmetry,
    /// The counting solver; default the fastest counting solver in the registry on 9x9, the
    /// first counting solver that takes the shape on other shapes.
    #[arg(long)]
    pub solver: Option<String>,
    /// Shapes other than 9x9: the node budget of each count to 2 (in the solver's nodes). A count
    /// that runs out keeps its given, and the puzzle is reported as unique but not proven
    /// minimal. 0 = no budget. Default by side, so that a puzzle takes seconds: 1,000,000 up
    /// to 16x16, 10,000 up to 25x25, 1,000 beyond.
    #[arg(long, value_parser = whole_of::<u64>("nodes"))]
    pub count_nodes: Option<u64>,
    /// Solved grids to try per puzzle before reporting that --clues K could not be reached.
    #[arg(long, default_value_t = 20, value_parser = whole_of::<u32>("grids"))]
    pub attempts: u32,
    /// Keep only puzzles of this level (HoDoKu's scale, as `harness rate` rates): easy, medium,
    /// hard, unfair, extreme, beyond. CSV output then has `score,level` columns too.
    #[arg(long, value_parser = parse_level)]
    pub level: Option<solvers::logic::Level>,
    /// Keep only puzzles whose score is in MIN..MAX (either end may be left out: `900..`).
    #[arg(long, value_parser = parse_score_range)]
    pub score: Option<(u32, u32)>,
    /// Candidate puzzles to rate per output puzzle before reporting that none was in range.
    #[arg(long, default_value_t = 1000, value_parser = whole_of::<u32>("candidates"))]
    pub level_attempts: u32,
    /// `csv` (name,puzzle,solution) or `line` (puzzle, a space, solution), one character a cell
    /// (1-9, then A = 10 ... Z = 35, `.` empty; other shapes than 9x9 up to side 35, after a
    /// `# shape ...` line); other shapes also `ints` (N rows of integers, 0 empty, blank line
    /// after each puzzle) or `pls` (`order N`, rows of 0-based symbols, -1 empty), puzzles only.
    #[arg(long, default_value = "csv", value_parser = ["csv", "line", "ints", "pls"])]
    pub format: String,
    /// Output file, threads, progress bar.
    #[command(flatten)]
    pub output: GenerateOutput,
}

/// Arguments of `harness generate qwh`.
#[derive(Debug, Args)]
pub struct QwhArgs {
    /// The order N of the Latin squares (their side), 1..=400.
    #[arg(long, value_parser = whole(1usize, solvers::MAX_SIDE))]
    pub order: usize,
    /// Fraction of cells emptied, 0..=1 (random holes: round(F·N²) cells; balanced: round(F·N)
    /// in every row and column). The hardness peak is near 0.42.
    #[arg(long, value_parser = parse_fraction)]
    pub holes: f64,
    /// The same number of holes in every row and column (Kautz et al., IJCAI 2001).
    #[arg(long)]
    pub balanced: bool,
    /// How many instances.
    #[arg(long, short = 'n', default_value_t = 1, value_parser = whole_of::<u64>("instances"))]
    pub count: u64,
    /// Seed of the random streams; the same seed gives the same file. Default: from the clock
    /// (printed on stderr).
    #[arg(long, value_parser = whole(0, u64::MAX))]
    pub seed: Option<u64>,
    /// `line` (one character a cell, `.` a hole, up to order 35, after a `# shape NxN/latin`
    /// line), `ints` (N rows of integers, 0 a hole) or `pls` (`order N`, rows of 0-based
    /// symbols, -1 a hole). Default `line`, `pls` above order 35.
    #[arg(long, value_parser = ["line", "ints", "pls"])]
    pub format: Option<String>,
    /// Output file, threads, progress bar.
    #[command(flatten)]
    pub output: GenerateOutput,
}

/// Reads a clue pattern of `generate puzzles --pattern`.
///
/// # Errors
/// Not a name, nine per-box counts or an 81-character mask.
pub fn parse_pattern(s: &str) -> Result<crate::generate::pattern::Pattern, String> {
    s.parse()
}

/// Reads a fraction in 0..=1.
///
/// # Errors
/// Not a number, or outside 0..=1.
pub fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("{s:?} is not a fraction in 0..=1 (e.g. 0.42)")),
    }
}

/// Arguments of `harness solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle file in any supported format (line, block, CSV, .pls) and any shape (9x9, 16x16,
    /// `# shape 12x12/3x4` lines, ...); `-` for stdin.
    pub file: String,
    /// Solver name (see `harness list`) or an external solver (`lib:`, `cmd:`, `dimacs:`);
    /// default the best built-in solver for each puzzle's shape (measured: the champion for
    /// 9x9, `cdcl` for other shapes up to 128x128, `sat` above; docs/solvers-and-counters.md).
    /// A named solver is refused on shapes it does not take.
    #[arg(long, short = 's')]
    pub solver: Option<String>,
    /// External solvers: the solvers file, isolation.
    #[command(flatten)]
    pub external: ExternalArgs,
    /// Write one solution for a puzzle of several, without the count to 2 that otherwise marks
    /// it as `several` (the public "serg" set of 9x9 puzzles has many solutions each). A Latin
    /// square with holes always gets its first completion: any completion is the answer.
    #[arg(long, visible_alias = "any")]
    pub first: bool,
    /// Output file (written to a temporary name, renamed at the end; a FIFO or device is written
    /// in place; `-` = stdout); default stdout.
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
    /// Worker threads; default one per core.
    #[arg(long, short = 'j', value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Per-puzzle time budget in ms; 0 (default) = none. A puzzle that runs out is reported.
    #[arg(long, default_value_t = 0, value_parser = whole_of::<u64>("milliseconds"))]
    pub timeout_ms: u64,
    /// Give the solver a random isomorph of each puzzle (drawn from SEED and the puzzle's index);
    /// its answer is mapped back, checked against the original puzzle and written as usual.
    #[arg(long, value_name = "SEED", value_parser = whole(0, u64::MAX))]
    pub transform: Option<u64>,
}

/// Arguments of `harness rate`.
#[derive(Debug, Args)]
pub struct RateArgs {
    /// Puzzle file in any supported format (line, block, CSV), a shipped dataset's name
    /// (`level-hard`; see `harness list`), or `-` for stdin.
    pub file: String,
    /// Output CSV file (written to a temporary name, renamed at the end); default stdout.
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
    /// Worker threads; default one per core. The output is the same for any thread count.
    #[arg(long, short = 'j', value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Print every puzzle's steps (technique, cells, eliminations) to stdout; the CSV then goes
    /// only to `-o`.
    #[arg(long)]
    pub trace: bool,
    /// The scale of the `level` and `hardest` columns: ours (`Beyond` for a puzzle that needed
    /// a guess) or HoDoKu's (a guess is `Extreme`, HoDoKu's technique names).
    #[arg(long, value_enum, default_value_t = Scale::Harness)]
    pub scale: Scale,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Arguments of `harness hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// The board: 81 characters (`1`-`9` filled; `.` `0` `_` `-` `*` empty), or `-` for stdin.
    pub puzzle: String,
    /// Print the step only, without the pencil marks.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Arguments of `harness candidates`.
#[derive(Debug, Args)]
pub struct CandidatesArgs {
    /// The 9x9 puzzle: 81 characters (`1`-`9` givens; `.` `0` `_` `-` `*` empty), or `-` for
    /// stdin.
    pub puzzle: String,
    /// Also print every deduction (rule and unit) and guess of the solve, in order.
    #[arg(long)]
    pub trace: bool,
    /// Budget of the traced solve in ms; 0 = none.
    #[arg(long, default_value_t = 10_000, value_parser = whole_of::<u64>("milliseconds"))]
    pub timeout_ms: u64,
    /// Node budget of the traced solve (bounds the trace's length and memory).
    #[arg(long, default_value_t = 100_000, value_parser = whole_of::<u64>("nodes"))]
    pub max_nodes: u64,
}

/// Arguments of `harness cnf`.
#[derive(Debug, Args)]
pub struct CnfArgs {
    /// The puzzle: 81 characters (`1`-`9` givens; `.` `0` `_` `-` `*` empty), N·N characters
    /// for another side up to 35 (`A` = 10 … `Z` = 35), N·N integers separated by spaces, or
    /// `-` for stdin.
    pub puzzle: String,
    /// Write the DIMACS file here (atomically; a FIFO or device in place; `-` = stdout) instead
    /// of stdout.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// The CNF encoding (docs/sat.md): `auto` (the measured default per shape: `full-pairwise`
    /// at 9x9, `reduced-pairwise` at other shapes), or `full-AMO` / `reduced-AMO` (givens as unit
    /// clauses over N³ variables, or propagated away first) with AMO one of `pairwise`,
    /// `sequential`, `commander`, `bimander`, `product`. A reduced formula reads back with
    /// `harness decode --puzzle`.
    #[arg(long, default_value = "auto")]
    pub encoding: solvers::sat::EncodingChoice,
}

/// Arguments of `harness count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// The puzzle: 81 characters (`1`-`9` givens; `.` `0` `_` `-` `*` empty), N·N characters
    /// for another side up to 35 (`A` = 10 … `Z` = 35), N·N integers separated by spaces, or
    /// `-` for stdin.
    pub puzzle: String,
    /// Stop counting at this many solutions (2 proves uniqueness).
    #[arg(long, default_value_t = 2, value_parser = whole(1, u64::MAX))]
    pub limit: u64,
    /// A counting solver (`harness list` marks them; every built-in one but backtracking and
    /// bitmask-dfs), or an external one. Default: the best built-in solver for the shape, as
    /// `harness solve` picks it (the champion for 9x9, `cdcl` for other shapes up to 128x128,
    /// `sat` above).
    #[arg(long, short = 's')]
    pub solver: Option<String>,
    /// External solvers: the solvers file, isolation.
    #[command(flatten)]
    pub external: ExternalArgs,
    /// Budget in ms; 0 = none. When it runs out the count is a lower bound (exit status 1).
    #[arg(long, default_value_t = 60_000, value_parser = whole_of::<u64>("milliseconds"))]
    pub timeout_ms: u64,
}

/// Arguments of `harness bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The solvers, built-in and external.
    #[command(flatten)]
    pub solvers: SolverArgs,
    /// A shipped dataset name or a file path; repeat for several. Default: the four public sets
    /// of $HARNESS_DATA/datasets when present, else the shipped sets.
    #[arg(long, short = 'd')]
    pub dataset: Vec<String>,
    /// A short run (3 rounds, the first 2,000 puzzles of each set, small budgets), for CI.
    #[arg(long)]
    pub quick: bool,
    /// Count solutions up to 2 (the uniqueness check) instead of finding the first solution.
    #[arg(long)]
    pub count_mode: bool,
    /// Use only the first N puzzles of each dataset (quick: 2000); with --isomorphs K, their K
    /// copies each.
    #[arg(long, value_parser = whole_of::<usize>("puzzles"))]
    pub limit: Option<usize>,
    /// Interleaved rounds (default 7, quick 3).
    #[arg(long, value_parser = whole_of::<usize>("rounds"))]
    pub rounds: Option<usize>,
    /// Seconds one solver may spend per round; slower ones run a prefix of the set (default 1.0,
    /// quick 0.1). A solver on the whole set whose chunk of 64 puzzles runs past twice this is
    /// cut for the round.
    #[arg(long, value_parser = number)]
    pub round_budget: Option<f64>,
    /// Isomorph transforms of the puzzles (bench checks each answer against the puzzle it was
    /// given; a transform is a bijection, so that is the check against the original).
    #[command(flatten)]
    pub isomorph: IsomorphArgs,
    /// Check the verdicts of the run in this folder: race each ranked 9x9 dataset's solvers
    /// again on the same puzzles and say, for every verdict ("X wins, Y k× slower"), whether
    /// bench agrees. `--solver` and `--dataset` are then taken from the run.
    #[arg(long, value_name = "RUN_DIR", conflicts_with_all = ["dataset", "count_mode"])]
    pub verdicts: Option<PathBuf>,
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
    #[arg(long, default_value_t = 1.5, value_parser = number)]
    pub tolerance: f64,
    /// Skip the timing part (counters only).
    #[arg(long)]
    pub no_timing: bool,
}

/// The most worker threads any command accepts: far above any core count in use, low enough that a
/// typo (`--threads 100000`) cannot make thousands of OS threads.
pub const MAX_THREADS: usize = 1024;

/// Parses `--level`: a level name, any case.
///
/// # Errors
/// A message listing the levels.
pub fn parse_level(s: &str) -> Result<solvers::logic::Level, String> {
    solvers::logic::Level::from_name(s.trim()).ok_or_else(|| {
        format!(
            "expected one of {}",
            solvers::logic::Level::ALL
                .iter()
                .map(|l| l.name().to_lowercase())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// Parses `--score MIN..MAX` (`MIN..` and `..MAX` too) into an inclusive range.
///
/// # Errors
/// A message with the accepted form.
pub fn parse_score_range(s: &str) -> Result<(u32, u32), String> {
    let bad = || {
        format!("expected MIN..MAX (whole numbers, MIN <= MAX; either may be left out), got {s:?}")
    };
    let (a, b) = s.trim().split_once("..").ok_or_else(bad)?;
    let num = |t: &str, default: u32| -> Result<u32, String> {
        if t.trim().is_empty() {
            Ok(default)
        } else {
            t.trim().parse().map_err(|_| bad())
        }
    };
    let (lo, hi) = (num(a, 0)?, num(b, u32::MAX)?);
    if lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

/// Parses `--threads`: a whole number from 1 to [`MAX_THREADS`].
///
/// # Errors
/// A message naming the accepted range.
pub fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a whole number of threads from 1 to {MAX_THREADS}"
        )),
    }
}

/// A value parser of whole numbers from `min` to `max`: its error names the range in words,
/// where the standard one says "number too large to fit in target type" or "invalid digit found
/// in string" (clap puts the option's name before it).
pub fn whole<T>(min: T, max: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |s: &str| match s.trim().parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok(n),
        _ => Err(format!("expected a whole number from {min} to {max}")),
    }
}

/// A value parser of whole numbers of `unit` from 0 up (`--timeout-ms`, `--max-nodes`,
/// `--count`): its error says what is expected in words ("expected a whole number of
/// milliseconds"), not the bounds of the type that holds it.
pub fn whole_of<T>(unit: &'static str) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: std::str::FromStr + Send + Sync + 'static,
{
    move |s: &str| {
        let s = s.trim();
        s.parse::<T>().map_err(|_| {
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                format!("expected a whole number of {unit}; {s} is too large")
            } else {
                format!("expected a whole number of {unit}")
            }
        })
    }
}

/// Parses a decimal number (`1`, `0.25`, `1e3`), finite and not negative.
///
/// # Errors
/// A message saying what is expected, where the standard one says "invalid float literal".
pub fn number(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err("expected a number of 0 or more, such as 1.5".into()),
    }
}

/// The scale of the `level` and `hardest` columns, named in the `scale` column of every row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Scale {
    /// Ours: HoDoKu's levels plus `Beyond` for a puzzle that needed a guess; our technique names.
    #[default]
    Harness,
    /// HoDoKu's: a guess (Brute Force) is `Extreme`, techniques by HoDoKu's names.
    Hodoku,
}

impl Scale {
    /// `harness` or `hodoku`.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Harness => "harness",
            Scale::Hodoku => "hodoku",
        }
    }
}
