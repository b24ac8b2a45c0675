//! `dimacs:` engines: an external SAT solver (minisat, cadical, picosat, cryptominisat5, kissat,
//! ...) run once per puzzle on the CNF formula `harness cnf` writes
//! ([`solvers::sat::write_dimacs`]), its model decoded back into a grid
//! ([`solvers::sat::decode_model`]).
//!
//! Per formula, the session writes the CNF to a file in a temporary folder of its own and runs
//! the command with the file's path appended. A program whose file name is `minisat` also gets a
//! result-file path after it, and its answer is read from that file (`SAT` / `UNSAT` and the
//! model); every other program is read from its standard output in the SAT-competition format
//! (`s SATISFIABLE` / `s UNSATISFIABLE`, the model on `v` lines; exit codes 10 and 20 are
//! expected, not required). See [`solvers::sat::parse_sat_output`].
//!
//! Grids of every shape: a board of side N other than 9x9 is written as its own formula
//! ([`solvers::sat::write_dimacs_board`]: N³ variables, the extended encoding over its units)
//! and its model read back with [`solvers::sat::decode_model_board`]; 9x9 is the file above,
//! byte for byte.
//!
//! Counting to `limit` runs the solver again after each model found, with one more blocking
//! clause (the negation of the model's 81 true cell literals), until the formula is
//! unsatisfiable or `limit` models are found: one process per model. No model is taken on
//! trust: each is checked against the puzzle's givens and units and against the models found
//! before it (the blocking clauses) before it is counted; one that breaks them is an error.
//!
//! The session checks at its start that its temporary folder takes a formula (a full disk fails
//! there, with the folder named, not on every puzzle). The solver may write at most
//! [`crate::MAX_FILE_BYTES`] to any file (its output included).
//!
//! The budget is a kill timer: a watchdog thread kills the solver's process group (SIGKILL) when
//! the deadline passes ([`crate::UNBUDGETED_LIMIT`] when the budget has none) or the run is
//! cancelled, and the request ends as a timeout. Whatever the solver leaves behind when it
//! exits (a forked child, in its group or out of it) is killed too. The solver is
//! waited for without being reaped first, so the watchdog never signals a reused pid; it is then
//! reaped with `wait4`, whose resource usage (user + system CPU time, peak resident memory) the
//! session reports in [`Session::last_usage`], summed over the processes of one request (CPU)
//! and their maximum (memory).

use crate::check::{check_board_solution, check_solution};
use crate::usage::{self, clip};
use crate::ForeignOrigin;
use solvers::engine::{Caps, Engine, EngineError, EngineInfo, Session, Usage};
use solvers::sat::{
    decode_model, decode_model_board, parse_sat_output, var, var_of, write_dimacs_board,
    write_dimacs_with, CnfEncoding, Encoding, Formula, SatAnswer,
};
use solvers::{Board, Budget, Count, Grid, Outcome, Stats};
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How often the watchdog checks the budget's cancel flag.
const POLL: Duration = Duration::from_millis(50);

/// Most bytes of a solver's output read (a model is a few KiB; statistics may add more).
const MAX_OUTPUT: u64 = 16 * 1024 * 1024;

/// An external SAT solver on the DIMACS encoding, as an engine.
pub struct DimacsEngine {
    info: EngineInfo,
    command: Vec<String>,
}

impl DimacsEngine {
    /// An engine named `name` running `command` (program and arguments; the CNF file's path is
    /// appended, and for `minisat` a result file's path after it).
    pub fn new(name: impl Into<String>, command: Vec<String>) -> DimacsEngine {
        DimacsEngine {
            info: EngineInfo {
                name: name.into(),
                description: format!("SAT solver on the DIMACS encoding: {}", command.join(" ")),
                version: None,
                origin: ForeignOrigin::Dimacs {
                    command: command.clone(),
                }
                .into(),
                // A program like a line-protocol one, on every shape the encoding writes.
                caps: Caps {
                    shapes: solvers::engine::Shapes::Any,
                    ..crate::line::LineEngine::program_caps()
                },
            },
            command,
        }
    }

    /// The program and its arguments.
    pub fn command(&self) -> &[String] {
        &self.command
    }
}

crate::described_by_info!(DimacsEngine);

impl Engine for DimacsEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn session(&self) -> Result<Box<dyn Session>, EngineError> {
        let Some(program) = self.command.first() else {
            return Err(EngineError::Load("empty command".into()));
        };
        let dir = tempfile::Builder::new()
            .prefix(&usage::temp_prefix("dimacs"))
            .tempdir()
            .map_err(|e| EngineError::Load(format!("cannot make a temporary folder: {e}")))?;
        let minisat = Path::new(program)
            .file_name()
            .is_some_and(|n| n == "minisat");
        // A folder that cannot take one formula (a full disk) fails here, before any puzzle.
        let cnf = dir.path().join("puzzle.cnf");
        write_formula(&cnf, &Grid::default(), &[]).map_err(|e| {
            EngineError::Load(format!(
                "cannot write the formula in {}: {e}",
                dir.path().display()
            ))
        })?;
        Ok(Box::new(DimacsSession {
            command: self.command.clone(),
            minisat,
            cnf,
            result: dir.path().join("result.txt"),
            stdout: dir.path().join("stdout.txt"),
            stderr: dir.path().join("stderr.txt"),
            _dir: dir,
            usage: None,
        }))
    }
}

/// A session: a temporary folder holding the formula and the solver's output.
struct DimacsSession {
    command: Vec<String>,
    minisat: bool,
    cnf: PathBuf,
    result: PathBuf,
    stdout: PathBuf,
    stderr: PathBuf,
    _dir: tempfile::TempDir,
    /// Resources of the last request's processes.
    usage: Option<Usage>,
}

/// How one run of the solver ended.
enum Run<G = Grid> {
    Model(G),
    Unsatisfiable,
    Timeout,
}

impl DimacsSession {
    fn program(&self) -> &str {
        &self.command[0]
    }

    /// Runs the solver on `puzzle` plus `blocking` clauses within `budget`.
    fn run(
        &mut self,
        puzzle: &Grid,
        blocking: &[Vec<i32>],
        budget: &Budget,
    ) -> Result<Run, EngineError> {
        write_formula(&self.cnf, puzzle, blocking)?;
        self.run_written(budget, decode_model)
    }

    /// Runs the solver on a board of any shape plus `blocking` clauses within `budget`: the
    /// extended encoding of old when `formula` is `None`, else that formula.
    fn run_board(
        &mut self,
        puzzle: &Board,
        formula: Option<&Formula>,
        blocking: &[Vec<i32>],
        budget: &Budget,
    ) -> Result<Run<Board>, EngineError> {
        let shape = puzzle.shape();
        match formula {
            None => {
                write_board_formula(&self.cnf, puzzle, blocking)?;
                self.run_written(budget, |model| decode_model_board(shape, model))
            }
            Some(f) => {
                write_scaled_formula(&self.cnf, f, blocking)?;
                self.run_written(budget, |model| f.decode(model))
            }
        }
    }

    /// Runs the solver on the formula written in `self.cnf`, reading its model with `decode`.
    fn run_written<G>(
        &mut self,
        budget: &Budget,
        decode: impl Fn(&[i32]) -> Result<G, String>,
    ) -> Result<Run<G>, EngineError> {
        if self.minisat {
            match std::fs::remove_file(&self.result) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e.into()),
                _ => {}
            }
        }
        let mut command = Command::new(self.program());
        command
            .args(&self.command[1..])
            .arg(&self.cnf)
            .stdin(Stdio::null())
            .stdout(File::create(&self.stdout)?)
            .stderr(File::create(&self.stderr)?);
        let mark = usage::prepare(&mut command);
        if self.minisat {
            command.arg(&self.result);
        }
        let child = command.spawn().map_err(|e| {
            EngineError::Load(format!(
                "cannot start {}: {e}",
                clip(&self.command.join(" "))
            ))
        })?;
        let pid = child.id();
        usage::register(pid);
        // `child` is reaped below with wait4, never through std.
        drop(child);

        let (stop, stopped) = mpsc::channel::<()>();
        let watch = budget.clone();
        let due = usage::Due::new(budget);
        let watchdog = std::thread::Builder::new()
            .name(format!("dimacs-watchdog-{pid}"))
            .spawn(move || loop {
                match stopped.recv_timeout(due.wait(POLL)) {
                    Err(RecvTimeoutError::Timeout) if due.passed(&watch) => {
                        usage::kill_group(pid);
                        return true;
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    _ => return false,
                }
            });
        let watchdog = match watchdog {
            Ok(w) => w,
            Err(e) => {
                usage::kill_group(pid);
                let _ = usage::reap(pid);
                return Err(EngineError::Io(e));
            }
        };
        let waited = usage::wait_exited(pid);
        drop(stop);
        let killed = watchdog.join().unwrap_or(false);
        waited?;
        // What the solver left in its group (a forked helper) goes with it; the leader, not yet
        // reaped, keeps the group's id reserved. Then what left the group.
        usage::kill_group(pid);
        let reaped = usage::reap(pid);
        usage::sweep(&mark);
        let (status, used) = reaped?;
        let total = self.usage.get_or_insert_with(Usage::default);
        total.cpu_micros += used.cpu_micros;
        total.peak_rss_kib = total.peak_rss_kib.max(used.peak_rss_kib);

        if killed {
            return Ok(Run::Timeout);
        }
        let capped = |p: &Path| p.metadata().is_ok_and(|m| m.len() >= usage::MAX_FILE_BYTES);
        if status.signal() == Some(libc::SIGXFSZ) || capped(&self.stdout) || capped(&self.result) {
            return Err(EngineError::Protocol(format!(
                "{} reached the limit of {} MiB on a file it writes (its output, a result file)",
                self.program(),
                usage::MAX_FILE_BYTES >> 20
            )));
        }
        if status.signal().is_some() {
            return Err(EngineError::Crashed(format!(
                "{} {}{}",
                self.program(),
                usage::describe_status(status),
                self.stderr_note()
            )));
        }
        let (source, text) = if self.minisat {
            match read_bounded(&self.result) {
                Ok(t) => ("its result file", t),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    return Err(EngineError::Protocol(format!(
                        "{} wrote no result file; it {}{}",
                        self.program(),
                        usage::describe_status(status),
                        self.stderr_note()
                    )))
                }
                Err(e) => return Err(e.into()),
            }
        } else {
            ("its output", read_bounded(&self.stdout)?)
        };
        let bad = |m: String| {
            EngineError::Protocol(format!(
                "{} ({source}; it {}): {m}{}",
                self.program(),
                usage::describe_status(status),
                self.stderr_note()
            ))
        };
        match parse_sat_output(&text).map_err(&bad)? {
            SatAnswer::Satisfiable(model) => decode(&model)
                .map(Run::Model)
                .map_err(|m| bad(format!("bad model: {m}"))),
            SatAnswer::Unsatisfiable => Ok(Run::Unsatisfiable),
            SatAnswer::Unknown => Err(bad("the solver answered UNKNOWN".into())),
        }
    }

    /// `; its last line on stderr: "..."`, or nothing.
    fn stderr_note(&self) -> String {
        last_line(&self.stderr)
            .map(|l| format!("; its last line on stderr: {:?}", usage::shorten(&l, 500)))
            .unwrap_or_default()
    }
}

/// Writes the formula of `puzzle` with `blocking` clauses to `path`.
fn write_formula(path: &Path, puzzle: &Grid, blocking: &[Vec<i32>]) -> io::Result<()> {
    let mut cnf = BufWriter::new(File::create(path)?);
    write_dimacs_with(puzzle, blocking, &mut cnf)?;
    cnf.flush()?;
    cnf.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// Writes the formula of a board of any shape with `blocking` clauses to `path`.
fn write_board_formula(path: &Path, puzzle: &Board, blocking: &[Vec<i32>]) -> io::Result<()> {
    let mut cnf = BufWriter::new(File::create(path)?);
    write_dimacs_board(Encoding::Extended, puzzle, blocking, &mut cnf)?;
    cnf.flush()?;
    cnf.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// Writes a puzzle's [`Formula`] with `blocking` clauses to `path`.
fn write_scaled_formula(path: &Path, formula: &Formula, blocking: &[Vec<i32>]) -> io::Result<()> {
    let mut cnf = BufWriter::new(File::create(path)?);
    formula.write_dimacs(blocking, &mut cnf)?;
    cnf.flush()?;
    cnf.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// The formula of `puzzle` in the encoding the process's `--encoding` picks for its shape
/// ([`solvers::sat::choice`]), or `None` for the extended encoding of old (`full-pairwise`).
fn scaled_formula(puzzle: &Board) -> Option<Formula> {
    let e = solvers::sat::choice().for_shape(puzzle.shape());
    (e != CnfEncoding::FULL_PAIRWISE).then(|| Formula::new(e, puzzle))
}

/// The model's board, checked against the puzzle's givens and the units ([`check_solution`]
/// on 9x9, [`check_board_solution`] on other shapes: `check` is that check's verdict) and against
/// the models already found (which the blocking clauses exclude): a SAT solver's answer is not
/// taken on trust.
fn checked<T: PartialEq>(
    program: &str,
    check: Result<(), String>,
    model: T,
    found: &[T],
) -> Result<T, EngineError> {
    if let Err(m) = check {
        return Err(EngineError::Protocol(format!(
            "{program}'s model is not a solution of the puzzle: {m}"
        )));
    }
    if let Some(k) = found.iter().position(|g| *g == model) {
        return Err(EngineError::Protocol(format!(
            "{program}'s model repeats model {} (it breaks a blocking clause)",
            k + 1
        )));
    }
    Ok(model)
}

/// The file's first [`MAX_OUTPUT`] bytes, as text.
fn read_bounded(path: &Path) -> io::Result<String> {
    let mut bytes = Vec::new();
    File::open(path)?.take(MAX_OUTPUT).read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The last non-blank line of a file's last 4 KiB.
fn last_line(path: &Path) -> Option<String> {
    let mut file = File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(4096))).ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    String::from_utf8_lossy(&bytes)
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_string)
}

/// The blocking clause of a solution: not all of its 81 cells as they are.
fn blocking_clause(solution: &Grid) -> Vec<i32> {
    (0..81).map(|cell| -var(cell, solution.get(cell))).collect()
}

impl Session for DimacsSession {
    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Result<Outcome, EngineError> {
        Ok(self.count(puzzle, 1, budget)?.outcome())
    }

    /// 9x9 on the extended CNF of `solvers::sat` ([`DimacsSession::count_grid`]) when the
    /// process's `--encoding` picks full-pairwise there; every other puzzle on its formula in
    /// the encoding of [`scaled_formula`] ([`DimacsSession::count_board`]).
    fn count(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Result<Count, EngineError> {
        self.usage = None;
        match puzzle.to_grid() {
            Some(grid)
                if solvers::sat::choice().for_shape(puzzle.shape())
                    == CnfEncoding::FULL_PAIRWISE =>
            {
                self.count_grid(&grid, limit, budget)
            }
            _ => self.count_board(puzzle, limit, budget),
        }
    }

    fn last_usage(&self) -> Option<Usage> {
        self.usage
    }
}

impl DimacsSession {
    /// Counts the solutions of a 9x9 puzzle up to `limit`, each new model blocked.
    fn count_grid(
        &mut self,
        puzzle: &Grid,
        limit: u64,
        budget: &Budget,
    ) -> Result<Count, EngineError> {
        let program = self.program().to_string();
        count_models(
            &program,
            limit,
            budget,
            |blocking| self.run(puzzle, blocking, budget),
            |grid| check_solution(puzzle, grid),
            blocking_clause,
        )
    }

    /// Counts the solutions of a board of any shape (9x9 too) in the encoding of
    /// [`scaled_formula`] up to `limit`, one process per model, each new model blocked.
    fn count_board(
        &mut self,
        puzzle: &Board,
        limit: u64,
        budget: &Budget,
    ) -> Result<Count, EngineError> {
        let shape = puzzle.shape();
        let formula = scaled_formula(puzzle);
        let program = self.program().to_string();
        count_models(
            &program,
            limit,
            budget,
            |blocking| self.run_board(puzzle, formula.as_ref(), blocking, budget),
            |board| check_board_solution(puzzle, board),
            // Not all of its cells as they are.
            |board| match &formula {
                Some(f) => f.blocking_clause(board),
                None => (0..shape.cells())
                    .map(|cell| -var_of(shape, cell, usize::from(board.get(cell))))
                    .collect(),
            },
        )
    }
}

/// Counts the models of a puzzle up to `limit`, one process (`run`, given the blocking clauses
/// so far) per model: each model [`checked`] (`check` against the puzzle, and against the
/// models found), then blocked by its `block` clause; an empty clause (a puzzle without an
/// empty cell) ends the count at this one model.
fn count_models<T: PartialEq + Clone + Into<Board>>(
    program: &str,
    limit: u64,
    budget: &Budget,
    mut run: impl FnMut(&[Vec<i32>]) -> Result<Run<T>, EngineError>,
    check: impl Fn(&T) -> Result<(), String>,
    block: impl Fn(&T) -> Vec<i32>,
) -> Result<Count, EngineError> {
    let mut count = Count {
        solutions: 0,
        complete: true,
        first: None,
        stats: Stats::default(),
    };
    let mut blocking = Vec::new();
    let mut found: Vec<T> = Vec::new();
    while count.solutions < limit.max(1) {
        if budget.exhausted(0) {
            count.complete = false;
            break;
        }
        match run(&blocking)? {
            Run::Model(model) => {
                let model = checked(program, check(&model), model, &found)?;
                count.solutions += 1;
                count.first.get_or_insert_with(|| model.clone().into());
                let clause = block(&model);
                if clause.is_empty() {
                    break;
                }
                blocking.push(clause);
                found.push(model);
            }
            Run::Unsatisfiable => break,
            Run::Timeout => {
                count.complete = false;
                break;
            }
        }
    }
    Ok(count)
}
