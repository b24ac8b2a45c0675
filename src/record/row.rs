//! One line of results.csv: a [`Row`] per dataset x puzzle x solver, with a typed [`RowStatus`].

use serde::{Deserialize, Serialize};

/// How one solve ended, as written in `results.csv`'s `status` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RowStatus {
    /// The solver found a solution (checked unless the solver writes none: see
    /// [`Row::correct`]).
    Solved,
    /// The solver finished without finding a solution.
    NoSolution,
    /// The per-puzzle budget ran out first.
    Timeout,
    /// The puzzle could not be read (wrong length, bad character, a given repeated in a unit).
    Invalid,
    /// The solver failed outside its search: an external solver crashed, hung past the budget
    /// without being stoppable, or broke its protocol. `error` says what happened.
    Error,
}

impl RowStatus {
    /// Every status, in the order tables list them.
    pub const ALL: [RowStatus; 5] = [
        RowStatus::Solved,
        RowStatus::NoSolution,
        RowStatus::Timeout,
        RowStatus::Error,
        RowStatus::Invalid,
    ];

    /// The CSV spelling: `solved`, `no_solution`, `timeout`, `invalid`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            RowStatus::Solved => "solved",
            RowStatus::NoSolution => "no_solution",
            RowStatus::Timeout => "timeout",
            RowStatus::Invalid => "invalid",
            RowStatus::Error => "error",
        }
    }
}

impl From<solvers::Status> for RowStatus {
    fn from(s: solvers::Status) -> RowStatus {
        match s {
            solvers::Status::Solved => RowStatus::Solved,
            solvers::Status::NoSolution => RowStatus::NoSolution,
            solvers::Status::Timeout => RowStatus::Timeout,
        }
    }
}

impl std::str::FromStr for RowStatus {
    type Err = String;
    /// Parses the CSV spelling ([`RowStatus::as_str`]).
    fn from_str(s: &str) -> Result<RowStatus, String> {
        RowStatus::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| format!("unknown status {s:?}"))
    }
}

impl std::fmt::Display for RowStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A puzzle's class by its solution count up to 2, as results.csv spells it: `0`, `1`, `2+`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SolutionClass {
    /// No solution.
    #[serde(rename = "0")]
    None,
    /// Exactly one solution (a proper puzzle).
    #[serde(rename = "1")]
    One,
    /// Two or more solutions.
    #[serde(rename = "2+")]
    Several,
}

impl SolutionClass {
    /// The class of a puzzle with `solutions` solutions (counted up to 2).
    pub fn of(solutions: u64) -> SolutionClass {
        match solutions {
            0 => SolutionClass::None,
            1 => SolutionClass::One,
            _ => SolutionClass::Several,
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
    /// How the solve ended.
    pub status: RowStatus,
    /// `true` if the answer passed the checker, `false` if it failed (or the solver said
    /// `no_solution` for a puzzle known to have one), empty when there is nothing to check —
    /// including a `solved` row of a solver that writes no solution ("solved, unchecked").
    pub correct: Option<bool>,
    /// Wall time of the solve, µs.
    pub micros: f64,
    /// Search-tree nodes entered (for `sat`: varisat calls; 0 for solvers that report none).
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
    /// Why the puzzle is invalid, the answer wrong, or the solver failed; empty otherwise.
    pub error: String,
    /// CPU time of the solve, µs: user + system time of the child process for out-of-process
    /// solvers, the worker thread's CPU time for in-process ones. Empty where unknown (and in
    /// results.csv files written before the column existed).
    #[serde(default)]
    pub cpu_micros: Option<f64>,
    /// Peak resident memory of the child process during the solve, KiB; empty for in-process
    /// solvers.
    #[serde(default)]
    pub peak_rss_kib: Option<u64>,
    /// The puzzle's class: how many solutions it has, `0`, `1` or `2+`, counted once per puzzle
    /// and run by the fastest counting solver ([`crate::generate::counting_solver`]) up to 2;
    /// empty when unknown (an invalid puzzle, a count that ran out of budget, a results.csv
    /// written before the column existed). For `2+`, solvers may give different first
    /// solutions; each is checked against the puzzle.
    #[serde(default)]
    pub solutions: Option<SolutionClass>,
    /// The isomorph transform the solver was given instead of the puzzle
    /// ([`crate::input::isomorph::Transform::code`]); its answer was mapped back and checked against the
    /// original puzzle. Empty when the puzzle was solved as written.
    #[serde(default)]
    pub transform: String,
    /// The puzzle's shape ([`solvers::Shape`]'s Display form: `9x9`, `16x16`, `12x12/3x4`,
    /// `10x10/latin`); empty for an invalid puzzle (its shape is unknown). `9x9` when reading a
    /// results.csv written before the column existed.
    #[serde(default = "classic_shape")]
    pub shape: String,
}

/// The shape of rows written before the `shape` column existed: every puzzle was 9x9.
fn classic_shape() -> String {
    solvers::Shape::CLASSIC.to_string()
}

impl Row {
    /// A row of `solver` on `puzzle` of `dataset` with nothing solved yet: status `invalid`,
    /// every count and time 0, every text and optional column empty.
    pub fn new(dataset: &str, puzzle: &str, solver: &str) -> Row {
        Row {
            dataset: dataset.to_string(),
            puzzle: puzzle.to_string(),
            solver: solver.to_string(),
            status: RowStatus::Invalid,
            correct: None,
            micros: 0.0,
            nodes: 0,
            guesses: 0,
            backtracks: 0,
            propagations: 0,
            updates: 0,
            solution: String::new(),
            line: 0,
            givens: 0,
            grid: String::new(),
            error: String::new(),
            cpu_micros: None,
            peak_rss_kib: None,
            solutions: None,
            transform: String::new(),
            shape: String::new(),
        }
    }

    /// True when this row's puzzle is a classic 9x9 one (or of unknown shape: an invalid
    /// puzzle).
    pub fn is_classic(&self) -> bool {
        self.shape.is_empty() || self.shape == "9x9"
    }

    /// True when the checker rejected this row's answer.
    pub fn is_wrong(&self) -> bool {
        self.correct == Some(false)
    }

    /// True for a `solved` row whose solver writes no solution, so nothing could be checked.
    pub fn is_unchecked(&self) -> bool {
        self.status == RowStatus::Solved && self.correct.is_none()
    }

    /// True when the row counts as solved, in every count the harness shows (the terminal
    /// table, summary.csv's `solved`, summary.md, index.html, the cactus plot, throughput): the
    /// solver says `solved` and the checker did not reject its answer. A solver that writes no
    /// solution ("solved, unchecked": [`Row::is_unchecked`]) counts as solved, and tables say
    /// how many of the solved were unchecked. A `no_solution` is never solved, even when right.
    pub fn counts_as_solved(&self) -> bool {
        self.status == RowStatus::Solved && !self.is_wrong()
    }

    /// True when the answer is known to be right: a checked solution, or a `no_solution` no
    /// check contradicted. Unchecked solves are not right: scores (PAR-2, the virtual best
    /// solver, unique solves) count only right answers.
    pub fn is_right(&self) -> bool {
        match self.status {
            RowStatus::Solved => self.correct == Some(true),
            RowStatus::NoSolution => self.correct != Some(false),
            _ => false,
        }
    }
}
