//! The run.json schema: [`RunInfo`] with its datasets and solvers, and the host facts it
//! records.

use serde::{Deserialize, Serialize};

/// One dataset as recorded in `run.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct DatasetInfo {
    /// Name used in the rows.
    pub name: String,
    /// `shipped:NAME` or the path.
    pub source: String,
    /// `line`, `block` or `csv`.
    pub format: String,
    /// Puzzles in the file, invalid ones included.
    pub puzzles: usize,
    /// Puzzles that could not be read.
    pub invalid: usize,
    /// The shapes of its readable puzzles, each with its count, in the order they first
    /// appear (empty in run.json files written before the field existed: every puzzle 9x9).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<ShapeCount>,
}

/// How many readable puzzles of a dataset have one shape.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct ShapeCount {
    /// The shape's Display form ([`solvers::Shape`]: `9x9`, `16x16`, `12x12/3x4`,
    /// `10x10/latin`).
    pub shape: String,
    /// Readable puzzles of that shape.
    pub puzzles: usize,
}

impl DatasetInfo {
    /// The readable puzzles per shape: [`DatasetInfo::shapes`], or for a run.json written
    /// before it existed every readable puzzle as `9x9`.
    pub fn shape_counts(&self) -> Vec<ShapeCount> {
        if self.shapes.is_empty() {
            vec![ShapeCount {
                shape: solvers::Shape::CLASSIC.to_string(),
                puzzles: self.puzzles - self.invalid.min(self.puzzles),
            }]
        } else {
            self.shapes.clone()
        }
    }
}

/// The run's metadata, written as `run.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RunInfo {
    /// `harness` version.
    pub harness_version: String,
    /// Solver names, in report order.
    pub solvers: Vec<String>,
    /// The datasets.
    pub datasets: Vec<DatasetInfo>,
    /// Worker threads.
    pub threads: usize,
    /// Per-puzzle deadline, ms (`null` = none).
    pub timeout_ms: Option<u64>,
    /// Per-puzzle node limit (`null` = none).
    pub max_nodes: Option<u64>,
    /// Git commit the binary was built from (`-dirty` if the tree had changes).
    pub git_commit: String,
    /// `rustc --version` of the build.
    pub rustc: String,
    /// CPU model from /proc/cpuinfo.
    pub cpu: String,
    /// Logical cores on the machine.
    pub cores: usize,
    /// Host name.
    pub host: String,
    /// When the run started, RFC 3339 UTC.
    pub date: String,
    /// Wall time of the whole run, s.
    pub elapsed_seconds: f64,
    /// True when a signal stopped the solves before all had finished: the rows cover only the
    /// solves that finished (a signal after the last solve leaves it false: the rows are whole).
    pub interrupted: bool,
    /// True when the run finished: false in the run.json a run writes when it starts (so a
    /// killed run says so) and in an interrupted one; `results.csv` then holds the rows flushed
    /// so far, whole lines only (a killed run may end in one cut line, which readers skip), and
    /// `summary.csv` is absent for a killed run. Runs written before the field existed were
    /// complete whenever `interrupted` was false.
    #[serde(default = "complete_unless_interrupted")]
    pub complete: bool,
    /// The command line.
    pub command: Vec<String>,
    /// This run's slice of the puzzles when run with `--shard K/N` (absent for a whole run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<super::Shard>,
    /// For a run joined by `harness merge`: each shard's machine and timing (absent otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<super::ShardRecord>,
    /// Each solver's origin and version; for external solvers the library or command with the
    /// size and sha256 of its files (empty in run.json files written before the field existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub solver_details: Vec<SolverRecord>,
    /// `--transform SEED`: the seed of the isomorph transforms the solvers were given (absent
    /// when the puzzles were solved as written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<u64>,
    /// `--isomorphs K`: copies of each puzzle, each under its own transform (absent = 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isomorphs: Option<u32>,
    /// `--repeat R`: solves of each puzzle by each solver, the median time kept (absent = 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u32>,
    /// Each dataset's manifest ([`crate::execution::manifest`]): sha256, clue histogram, classes (filled
    /// from the rows at the end of the run), duplicates.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub manifests: Vec<super::manifest::Manifest>,
    /// Puzzles of a dataset each solver solved in a row, warm, before the next took them
    /// ([`crate::execution::runner::BLOCK`]); `compare` resamples these blocks (absent in runs written
    /// before blocks, whose solvers took turns puzzle by puzzle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<usize>,
    /// The machine's 1-minute load average (`/proc/loadavg`) when the solves started (absent
    /// where unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_before: Option<f64>,
    /// The 1-minute load average when the solves ended (it includes the run's own threads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_after: Option<f64>,
}

/// The 1-minute load average from `/proc/loadavg`; `None` where the file is absent.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn complete_unless_interrupted() -> bool {
    // serde cannot see the sibling field here; older files were written only at the end, and
    // [`super::read_info`] corrects the value for an old interrupted run.
    true
}

/// Where a solver comes from, as run.json's `solver_details[].kind` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// Compiled into the harness.
    Builtin,
    /// The `sudoku` crate, compiled in for benchmarks only.
    Reference,
    /// `lib:` a shared library called in-process (or in a child with `--isolate`).
    Lib,
    /// `cmd:` a program speaking the line protocol.
    Cmd,
    /// `dimacs:` a SAT solver run per puzzle.
    Dimacs,
    /// A Python callable, called in-process by the `sudoku_harness` package's `race`.
    Python,
}

impl std::fmt::Display for EngineKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = serde_json::to_value(self).map_err(|_| std::fmt::Error)?;
        f.write_str(s.as_str().unwrap_or_default())
    }
}

/// What a solver's `nodes` column counts, as run.json's `solver_details[].nodes` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeCount {
    /// Search-tree nodes entered.
    SearchTree,
    /// Calls to a SAT solver.
    SolverCalls,
    /// Nothing (the solver reports no effort).
    None,
}

/// What run.json records of a solver: its name, origin, version, and for external solvers the
/// files involved with their sizes and sha256.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SolverRecord {
    /// The name rows show.
    pub name: String,
    /// `builtin`, `reference`, `lib`, `cmd` or `dimacs`.
    pub kind: EngineKind,
    /// The version, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The library path and symbol, or the command line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// Files that make up the solver (the library; the program and any script argument).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FileRecord>,
    /// What its `nodes` column counts: `search_tree`, `solver_calls` or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<NodeCount>,
    /// False for a solver that writes no solution (its solves are unchecked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gives_solution: Option<bool>,
    /// The shapes it takes, from its caps: `9x9` or `any` (absent in run.json files written
    /// before the field existed, when every solver took 9x9 puzzles only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shapes: Option<String>,
    /// The CNF encoding of a SAT solver (`sat` and `dimacs:` engines; `--encoding`): the one
    /// asked for, and for `auto` what it picks (`auto: full-pairwise at 9x9, reduced-pairwise
    /// at other shapes`). Absent for other solvers and in older run.json files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
}

impl SolverRecord {
    /// True when this solver takes puzzles of `shape` (a Display form of [`solvers::Shape`]):
    /// every solver takes `9x9` (and an invalid puzzle's unknown shape, empty), a solver whose
    /// `shapes` is `any` takes every shape.
    pub fn takes(&self, shape: &str) -> bool {
        if shape.is_empty() || shape == "9x9" {
            return true;
        }
        let shapes = self
            .shapes
            .as_deref()
            .and_then(solvers::engine::Shapes::parse);
        match (shapes, shape.parse::<solvers::Shape>()) {
            (Some(solvers::engine::Shapes::Any), _) => true,
            (Some(s), Ok(shape)) => s.takes(shape),
            // "any", the one word before sides had limits, for a shape this build cannot read.
            _ => shape == "any" && shapes.is_some_and(|s| s != solvers::engine::Shapes::Classic),
        }
    }
}

impl RunInfo {
    /// True when solver `name` takes puzzles of `shape` ([`SolverRecord::takes`]; a solver
    /// without a record takes 9x9 only).
    pub fn solver_takes(&self, name: &str, shape: &str) -> bool {
        match self.solver_details.iter().find(|d| d.name == name) {
            Some(d) => d.takes(shape),
            None => shape.is_empty() || shape == "9x9",
        }
    }

    /// The solves a complete run has: per puzzle copy, one row per solver that takes its shape
    /// (every solver for an unreadable puzzle); an engine that does not take a puzzle's shape
    /// gives no row.
    pub fn planned_solves(&self) -> usize {
        let copies = self.isomorphs.unwrap_or(1).max(1) as usize;
        let per_dataset = |d: &DatasetInfo| {
            let shaped: usize = d
                .shape_counts()
                .iter()
                .map(|c| {
                    c.puzzles
                        * self
                            .solvers
                            .iter()
                            .filter(|s| self.solver_takes(s, &c.shape))
                            .count()
                })
                .sum();
            shaped + d.invalid * self.solvers.len()
        };
        self.datasets.iter().map(per_dataset).sum::<usize>() * copies
    }
}

/// A file of an external solver, identified by content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileRecord {
    /// The path as resolved (PATH lookup for programs).
    pub path: String,
    /// Size in bytes.
    pub bytes: u64,
    /// SHA-256 of the content, lower-case hex.
    pub sha256: String,
}

/// The CPU model name, from `/proc/cpuinfo` (`unknown` elsewhere).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// The host name (`unknown` if it cannot be read).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .or_else(|_| std::env::var("HOSTNAME"))
        .unwrap_or_else(|_| "unknown".into())
}
