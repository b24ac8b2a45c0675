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
    pub solutions: String,
    /// The isomorph transform the solver was given instead of the puzzle
    /// ([`crate::isomorph::Transform::code`]); its answer was mapped back and checked against the
    /// original puzzle. Empty when the puzzle was solved as written.
    #[serde(default)]
    pub transform: String,
}

impl Row {
    /// True when the checker rejected this row's answer.
    pub fn is_wrong(&self) -> bool {
        self.correct == Some(false)
    }

    /// True for a `solved` row whose solver writes no solution, so nothing could be checked.
    pub fn is_unchecked(&self) -> bool {
        self.status == RowStatus::Solved && self.correct.is_none()
    }
}
