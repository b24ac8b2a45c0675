//! `cmd:` engines: any program that speaks the line protocol on its standard input and output,
//! started once and kept running; and the other end of the protocol ([`serve`]), which answers
//! requests with any [`Session`] (how an isolated `lib:` engine hosts its library in a child
//! process: [`isolated`], [`host_lib`]).
//!
//! # The line protocol
//!
//! The harness writes one request per line to the program's standard input, and reads exactly
//! one answer line per request from its standard output, before it sends the next request.
//! Lines end with `\n` (an answer may end with `\r\n`). Requests:
//!
//! | request | meaning |
//! |---|---|
//! | `solve PUZZLE` | find one solution |
//! | `count PUZZLE LIMIT` | count the solutions, stopping at `LIMIT` (a decimal number, at least 1) |
//!
//! `PUZZLE` is 81 characters, row by row from the top left: `1`-`9` for a given, `.` for an
//! empty cell. Answers:
//!
//! | answer | to | meaning |
//! |---|---|---|
//! | 81 digits `1`-`9` | `solve` | the solution found, row by row |
//! | `none` | `solve` | the puzzle has no solution |
//! | `solved` | `solve` | the puzzle has a solution, which the program does not write (the row is "solved, unchecked") |
//! | a decimal number, 0 to `LIMIT` | `count` | the number of solutions found, stopping at `LIMIT` |
//! | `unsupported` | either | the program does not do this request |
//! | `error MESSAGE` | either | the program could not answer; `MESSAGE` (the rest of the line) says why |
//!
//! ## Other shapes
//!
//! A 9x9 request is always the one above. A grid of any other shape (side N, see
//! [`solvers::Shape`]) names its shape before the cells: `solve SHAPE CELLS` and
//! `count SHAPE CELLS LIMIT`, `SHAPE` as [`solvers::Shape`] prints it (`16x16`, `12x12/3x4`,
//! `10x10/latin`). `CELLS` ([`board_to_text`]) is N² characters for N up to 35 (`1`-`9`, then `A`
//! = 10 ... `Z` = 35, `.` empty), or for N from 36 N² decimal numbers separated by commas, `0`
//! empty. A solution is written the same way, without empty cells, and the other answers are
//! those of 9x9. Example: `solve 4x4 1.3..4.......3.1` answered `1234341221434321 nodes=2`.
//!
//! The harness sends other shapes only to a program declared to take them (`shapes = "any"` in
//! its solvers-file table: [`LineEngine::with_shapes`]); a program declared with nothing gets
//! 9x9 requests only, so the programs written for 9x9 keep working unchanged.
//!
//! Any answer but `error` may be followed by space-separated `key=value` counters of the effort
//! spent on this request, each a decimal `u64`: `nodes`, `guesses`, `backtracks`,
//! `propagations`, `updates` (as defined in the `solvers` crate docs; a counter not given is 0).
//! Unknown keys are ignored, so a program may report more. Example:
//! `534678912672195348198342567859761423426853791713924856961537284287419635345286179 nodes=1 guesses=0`.
//!
//! A line starting with `#` is a comment: the harness skips it (for a program's debugging
//! output; standard error is kept too, and its last line is shown when the program crashes).
//! The program should end when its standard input closes.
//!
//! What the harness does:
//! - the program is started when a worker thread opens its session (so its start-up is not timed
//!   with the first puzzle) and kept running from puzzle to puzzle, in a process group of its
//!   own;
//! - a request whose answer has not come by the budget's deadline (or when the run is
//!   cancelled) is a **timeout**: the program and its process group are killed and the program
//!   is started again for the next request;
//! - a program that exits or closes its output before answering is an **error** row
//!   ([`EngineError::Crashed`], naming the exit status or signal and the last line it wrote on
//!   standard error), and is started again;
//! - an answer that breaks the protocol is an **error** row ([`EngineError::Protocol`], quoting
//!   the line read); the program is killed and started again, as its output may be out of step;
//!   so is a line that arrives when no request is waiting (a second answer to one request, if
//!   it arrives before the next request is sent: it cannot always be told from a late answer);
//! - `unsupported` gives [`EngineError::Unsupported`] and `error MESSAGE`
//!   [`EngineError::Protocol`] with the message; the program keeps running.
//!
//! Resources: after each request the harness reads the program's CPU time used since the
//! previous reading and its peak resident memory since then ([`Session::last_usage`]; see the
//! `usage` module). Only the program's own process is measured, not processes it starts (use
//! `exec` in a wrapper script). A program just started (or started again) first gets one
//! warm-up request, `solve` of a full grid, whose answer is dropped: its start-up is then timed
//! with no puzzle.

use crate::usage::{self, clip};
use crate::{Described, ForeignOrigin};
use solvers::engine::{
    BudgetMode, Caps, Engine, EngineError, EngineInfo, NodeUnit, Origin, Session, Shapes, Usage,
};
use solvers::{Board, Budget, Count, Grid, Outcome, Shape, Stats, Status};
use std::cell::Cell;
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Longest answer line kept, bytes; the rest of a longer line is read and dropped. A 128x128
/// solution is 16,384 numbers of up to 3 digits and their commas: under 64 KiB.
const MAX_LINE: u64 = 256 * 1024;

/// Standard error bytes kept per program, for crash messages.
const STDERR_TAIL: usize = 4096;

/// How long a session waits, when it opens, for its program to answer the warm-up request.
/// A program that takes longer is not lost: its first request is sent after the warm-up one,
/// and the time until the warm-up answer comes is charged apart from that request's budget.
const WARM_UP: Duration = Duration::from_secs(2);

/// How long [`LineEngine::preflight`] watches a program start.
const PREFLIGHT: Duration = Duration::from_secs(1);

/// How long a restarted program may take to answer its warm-up, beyond twice what its last
/// start took (and at most [`WARM_UP`]). A program that never answered a warm-up gets no wait.
const RESTART_SLACK: Duration = Duration::from_millis(100);

/// The warm-up request's puzzle: a full grid (its own solution).
const WARM_UP_GRID: &str =
    "729364158341825967865971423536192874918547632274683519652438791493716285187259346";

/// How often a request waiting for its answer checks the budget's cancel flag.
const POLL: Duration = Duration::from_millis(50);

/// A program speaking the line protocol, as an engine. Each session runs its own copy of the
/// program.
pub struct LineEngine {
    info: EngineInfo,
    command: Vec<String>,
    /// Set once the [`SILENT_HINT`] has been written to standard error for this engine.
    hinted: Arc<AtomicBool>,
}

/// What a program that has answered nothing at all (not even its warm-up request, a full grid)
/// most likely does wrong, for the row's error and, once per engine, standard error.
pub const SILENT_HINT: &str = "the program has answered nothing since it started, not even its \
warm-up request (a full grid): it most likely does not flush its output. A pipe is \
block-buffered, so each answer line must be flushed: in Python print(..., flush=True) or run \
python3 -u; in C fflush(stdout); in Rust, stdout().flush() (docs/external-solvers.md)";

impl LineEngine {
    /// An engine named `name` running `command` (program and arguments), with the declared
    /// capabilities `caps` and where it comes from, `origin` (usually
    /// [`ForeignOrigin::LineProtocol`]; [`isolated`] builds the [`ForeignOrigin::SharedLib`] case).
    pub fn new(
        name: impl Into<String>,
        command: Vec<String>,
        caps: Caps,
        origin: Origin,
    ) -> LineEngine {
        LineEngine {
            info: EngineInfo {
                name: name.into(),
                description: format!("line protocol: {}", command.join(" ")),
                version: None,
                origin,
                caps,
            },
            command,
            hinted: Arc::new(AtomicBool::new(false)),
        }
    }

    /// An engine for a program given on the command line (`cmd:`), with
    /// [`LineEngine::program_caps`].
    pub fn program(name: impl Into<String>, command: Vec<String>) -> LineEngine {
        let origin = ForeignOrigin::LineProtocol {
            command: command.clone(),
        }
        .into();
        LineEngine::new(name, command, LineEngine::program_caps(), origin)
    }

    /// What a line-protocol program is assumed to do unless declared otherwise: it counts and
    /// writes its solutions, the harness kills it at the deadline, its nodes are of no known
    /// unit, it reports no guesses, and sessions (one program each) run in parallel.
    pub fn program_caps() -> Caps {
        Caps {
            shapes: solvers::engine::Shapes::Classic,
            counts: true,
            gives_solution: true,
            budget: BudgetMode::KilledByHarness,
            nodes: NodeUnit::None,
            guesses: false,
            parallel: true,
        }
    }

    /// Declares the shapes the program takes ([`Caps::shapes`]): [`Shapes::Any`] for a program
    /// that reads the shaped requests (module docs, "Other shapes").
    pub fn with_shapes(mut self, shapes: Shapes) -> LineEngine {
        self.info.caps.shapes = shapes;
        self
    }

    /// The program and its arguments.
    pub fn command(&self) -> &[String] {
        &self.command
    }

    /// Starts the program once and stops it, before a run: a program that answers its warm-up
    /// request, or is still running after a second, passes.
    ///
    /// # Errors
    /// [`EngineError::Load`] when the program cannot be started or ends before answering (a
    /// script that is not found, a library the child cannot load), with its exit status and its
    /// last line on standard error.
    pub fn preflight(&self) -> Result<(), EngineError> {
        if self.command.is_empty() {
            return Err(EngineError::Load("empty command".into()));
        }
        Running::start(&self.command, PREFLIGHT).map(drop)
    }
}

/// The engine of a shared library hosted in a child process (`--isolate`): the command
/// `EXE host-lib LIBRARY SYMBOL CONFIGURATION [--no-solution]`, where `EXE` serves the line
/// protocol with the library's function ([`host_lib`]). A crash in the library then ends only
/// the child; the budget is enforced by killing it. Each session hosts its own copy of the
/// library, so sessions may run in parallel.
pub fn isolated(
    name: &str,
    exe: PathBuf,
    library: &Path,
    symbol: &str,
    configuration: u32,
    gives_solution: bool,
) -> LineEngine {
    let mut command = vec![
        exe.to_string_lossy().into_owned(),
        "host-lib".to_string(),
        library.to_string_lossy().into_owned(),
        symbol.to_string(),
        configuration.to_string(),
    ];
    if !gives_solution {
        command.push("--no-solution".to_string());
    }
    let caps = Caps {
        shapes: solvers::engine::Shapes::Classic,
        counts: true,
        gives_solution,
        budget: BudgetMode::KilledByHarness,
        nodes: NodeUnit::None,
        guesses: true,
        parallel: true,
    };
    let origin = ForeignOrigin::SharedLib {
        path: library.to_path_buf(),
        symbol: symbol.to_string(),
        configuration,
        isolated: true,
    }
    .into();
    LineEngine::new(name, command, caps, origin).with_description(format!(
        "{symbol} (configuration {configuration}) in {}, isolated in a child process{}",
        library.display(),
        if gives_solution {
            ""
        } else {
            ", writes no solution"
        }
    ))
}

/// Hosts `symbol` of the library at `library` on this process's standard input and output:
/// what `host-lib` runs in the child process of an [`isolated`] engine. Returns when standard
/// input closes.
///
/// # Errors
/// [`EngineError::Load`] when the library or symbol cannot be loaded, [`EngineError::Io`] when
/// reading or writing fails.
pub fn host_lib(
    library: &Path,
    symbol: &str,
    configuration: u32,
    gives_solution: bool,
) -> Result<(), EngineError> {
    let engine =
        crate::SharedLibEngine::load(symbol, library, symbol, configuration, gives_solution)?;
    let mut session = engine.session()?;
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::new(io::stdout().lock());
    serve(session.as_mut(), stdin, stdout)?;
    Ok(())
}

/// Answers line-protocol requests read from `input` with `session`, one answer line per request
/// on `output`, flushed after each. Each request is solved with an unlimited budget (the other
/// end enforces its deadline by killing this process). A request that cannot be read (unknown
/// word, bad puzzle, bad limit) is answered `error MESSAGE`, as is an engine error;
/// [`EngineError::Unsupported`] is answered `unsupported`. Blank lines and `#` lines are skipped.
/// Returns when `input` ends.
///
/// # Errors
/// Those of reading `input` or writing `output`.
pub fn serve(
    session: &mut dyn Session,
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    for line in input.lines() {
        let line = line?;
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let answer = answer_request(session, line);
        output.write_all(answer.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

/// The answer line to one request.
fn answer_request(session: &mut dyn Session, line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let unlimited = Budget::unlimited();
    let solved = |o: Outcome, text: &dyn Fn(&Board) -> String| match (o.status, o.solution) {
        (Status::Solved, Some(s)) => counters(text(&s), &o.stats),
        (Status::Solved, None) => counters("solved".into(), &o.stats),
        (Status::NoSolution, _) => counters("none".into(), &o.stats),
        (Status::Timeout, _) => "error the solver stopped before the end".into(),
    };
    let counted = |c: Count| {
        if c.complete {
            counters(c.solutions.to_string(), &c.stats)
        } else {
            "error the count stopped before the end".into()
        }
    };
    let limit_of = |limit: &str| {
        limit
            .parse::<u64>()
            .ok()
            .filter(|&l| l >= 1)
            .ok_or_else(|| format!("error bad limit {}: expected a number from 1", clip(limit)))
    };
    let result = match words.as_slice() {
        ["solve", puzzle] => parse_puzzle(puzzle).map(|g| {
            let digits = |s: &Board| s.to_grid().map(|g| g.to_digits()).unwrap_or_default();
            session
                .solve(&Board::from(g), &unlimited)
                .map(|o| solved(o, &digits))
        }),
        ["solve", shape, cells] => parse_board(shape, cells).map(|b| {
            session
                .solve(&b, &unlimited)
                .map(|o| solved(o, &board_to_text))
        }),
        ["count", puzzle, limit] => parse_puzzle(puzzle).and_then(|g| {
            let limit = limit_of(limit)?;
            Ok(session
                .count(&Board::from(g), limit, &unlimited)
                .map(counted))
        }),
        ["count", shape, cells, limit] => parse_board(shape, cells).and_then(|b| {
            let limit = limit_of(limit)?;
            Ok(session.count(&b, limit, &unlimited).map(counted))
        }),
        _ => Err(format!(
            "error unknown request {}: expected \"solve PUZZLE\" or \"count PUZZLE LIMIT\" \
             (SHAPE PUZZLE for other shapes)",
            clip(line)
        )),
    };
    match result {
        Ok(Ok(answer)) => answer,
        Ok(Err(EngineError::Unsupported(_))) => "unsupported".into(),
        Ok(Err(e)) => format!("error {e}").replace(['\n', '\r'], " "),
        Err(message) => message,
    }
}

fn parse_puzzle(text: &str) -> Result<Grid, String> {
    Grid::parse_line(text).map_err(|e| format!("error bad puzzle {}: {e}", clip(text)))
}

fn parse_board(shape: &str, cells: &str) -> Result<Board, String> {
    let shape: Shape = shape
        .parse()
        .map_err(|e| format!("error bad shape {}: {e}", clip(shape)))?;
    board_from_text(shape, cells).map_err(|e| format!("error bad puzzle {}: {e}", clip(cells)))
}

/// The symbol characters of the one-character form, `1`-`9` then `A`-`Z` (1 to 35).
const SYMBOLS: &[u8; 35] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The cells of `board` as a line-protocol request or answer writes them (module docs, "Other
/// shapes"): one character a cell up to side 35 (`.` empty), else decimal numbers separated by
/// commas (`0` empty).
pub fn board_to_text(board: &Board) -> String {
    if board.shape().side() <= SYMBOLS.len() {
        board
            .cells()
            .iter()
            .map(|&v| match v {
                0 => '.',
                v => SYMBOLS[v as usize - 1] as char,
            })
            .collect()
    } else {
        let words: Vec<String> = board.cells().iter().map(u16::to_string).collect();
        words.join(",")
    }
}

/// Reads the cells of a board of `shape` written as [`board_to_text`] writes them. In the
/// one-character form `0` is also an empty cell and letters may be lower case.
///
/// # Errors
/// A message naming the first character or number that is not a cell of this shape, or the
/// count of cells when it is not N².
pub fn board_from_text(shape: Shape, text: &str) -> Result<Board, String> {
    let n = shape.side();
    let cells: Vec<solvers::Symbol> = if n <= SYMBOLS.len() {
        text.chars()
            .enumerate()
            .map(|(i, ch)| {
                let v = match ch.to_ascii_uppercase() {
                    '.' | '0' => Some(0),
                    c => SYMBOLS.iter().position(|&s| s as char == c).map(|p| p + 1),
                };
                match v {
                    Some(v) if v <= n => Ok(v as solvers::Symbol),
                    _ => Err(format!(
                        "character {} ({:?}) is not a symbol of {shape} (1-{} or .)",
                        i + 1,
                        ch,
                        SYMBOLS[n - 1] as char
                    )),
                }
            })
            .collect::<Result<_, _>>()?
    } else {
        text.split(',')
            .enumerate()
            .map(|(i, w)| match w.trim().parse::<usize>() {
                Ok(v) if v <= n => Ok(v as solvers::Symbol),
                _ => Err(format!(
                    "cell {} ({}) is not a number from 0 to {n}",
                    i + 1,
                    clip(w)
                )),
            })
            .collect::<Result<_, _>>()?
    };
    Board::new(shape, cells).map_err(|e| e.to_string())
}

/// `answer` followed by the non-zero counters of `stats`.
fn counters(mut answer: String, stats: &Stats) -> String {
    for (key, value) in [
        ("nodes", stats.nodes),
        ("guesses", stats.guesses),
        ("backtracks", stats.backtracks),
        ("propagations", stats.propagations),
        ("updates", stats.updates),
    ] {
        if value != 0 {
            answer.push_str(&format!(" {key}={value}"));
        }
    }
    answer
}

crate::described_by_info!(LineEngine);

impl Engine for LineEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn session(&self) -> Result<Box<dyn Session>, EngineError> {
        if self.command.is_empty() {
            return Err(EngineError::Load("empty command".into()));
        }
        let (running, startup) = Running::start(&self.command, WARM_UP)?;
        Ok(Box::new(LineSession {
            name: self.info.name.clone(),
            hinted: self.hinted.clone(),
            answered: startup.is_some(),
            command: self.command.clone(),
            running: Some(running),
            start_error: None,
            measure: Cell::new(Measure::Nothing),
            startup,
            restart: Duration::ZERO,
            restarts: 0,
        }))
    }
}

/// A session: one running copy of the program.
struct LineSession {
    /// The engine's name, for the hint on standard error.
    name: String,
    /// The engine's: set once the [`SILENT_HINT`] is on standard error.
    hinted: Arc<AtomicBool>,
    /// True once any copy of the program has answered a request (its warm-up included).
    answered: bool,
    command: Vec<String>,
    /// The program, unless it failed to start again after a kill or crash.
    running: Option<Running>,
    /// Why the last start failed (returned by the next request, which tries again).
    start_error: Option<String>,
    /// What [`Session::last_usage`] reports for the last request.
    measure: Cell<Measure>,
    /// How long the program's last start took to answer its warm-up, if it did.
    startup: Option<Duration>,
    /// Time the last request spent starting the program again (charged apart).
    restart: Duration,
    /// Restarts so far.
    restarts: u64,
}

/// The resources of the last request: to be read from the live program, already known (the
/// program was reaped), or none (no request reached the program).
#[derive(Clone, Copy)]
enum Measure {
    Nothing,
    Live,
    Known(Usage),
}

/// One line of the program's output, or its end.
enum Line {
    Text(String),
    End(io::Result<()>),
}

/// A started program: its pid (its process group's id too), its standard input, the lines of
/// its standard output (read by a thread) and the tail of its standard error.
struct Running {
    pid: u32,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    stderr: Arc<StderrTail>,
    /// CPU time at the previous reading, ns.
    cpu_mark_ns: Cell<u64>,
    /// True once the program is reaped: it must not be waited for or signalled again.
    reaped: bool,
    /// True while the answer to the warm-up request has not been read.
    warm_pending: bool,
    /// The mark in its environment ([`usage::prepare`]), for what it leaves behind.
    mark: String,
}

/// The last [`STDERR_TAIL`] bytes of a program's standard error, and whether it has ended.
#[derive(Default)]
struct StderrTail {
    state: Mutex<(VecDeque<u8>, bool)>,
    ended: Condvar,
}

impl StderrTail {
    fn read_from(&self, mut stderr: impl Read) {
        let mut buf = [0u8; 4096];
        loop {
            let n = stderr.read(&mut buf).unwrap_or(0);
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if n == 0 {
                state.1 = true;
                self.ended.notify_all();
                return;
            }
            state.0.extend(&buf[..n]);
            let excess = state.0.len().saturating_sub(STDERR_TAIL);
            state.0.drain(..excess);
        }
    }

    /// The last non-blank line written, after waiting up to `wait` for the stream to end.
    fn last_line(&self, wait: Duration) -> Option<String> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (state, _) = self
            .ended
            .wait_timeout_while(state, wait, |s| !s.1)
            .unwrap_or_else(|e| e.into_inner());
        let bytes: Vec<u8> = state.0.iter().copied().collect();
        let text = String::from_utf8_lossy(&bytes);
        text.lines()
            .rev()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(str::to_string)
    }
}

/// Sends the lines of `out` on `tx` until it ends.
fn read_lines(out: impl Read, tx: Sender<Line>) {
    let mut reader = BufReader::new(out);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let line = (|| {
            let n = (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf)?;
            if n as u64 == MAX_LINE && !buf.ends_with(b"\n") {
                // Too long: drop the rest of the line.
                let mut rest = Vec::new();
                loop {
                    rest.clear();
                    let k = (&mut reader).take(MAX_LINE).read_until(b'\n', &mut rest)?;
                    if k == 0 || rest.ends_with(b"\n") {
                        break;
                    }
                }
            }
            Ok::<usize, io::Error>(n)
        })();
        let message = match line {
            Ok(0) => Line::End(Ok(())),
            Ok(_) => {
                while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                    buf.pop();
                }
                Line::Text(String::from_utf8_lossy(&buf).into_owned())
            }
            Err(e) => Line::End(Err(e)),
        };
        let end = matches!(message, Line::End(_));
        if tx.send(message).is_err() || end {
            return;
        }
    }
}

/// Why a program's warm-up request got no answer.
#[derive(Debug, Clone, Copy)]
enum WarmUpFailure {
    /// The request could not be written: the program closed its input.
    Unread,
    /// The program's output ended first.
    Ended,
}

impl Running {
    /// Starts the program and waits up to `allowance` for its answer to the warm-up request;
    /// returns it with the time that answer took, if it came.
    ///
    /// # Errors
    /// [`EngineError::Load`] when the program cannot be started, or ends before answering (a
    /// script that is not found, say), naming its exit status and last line on stderr.
    fn start(
        command: &[String],
        allowance: Duration,
    ) -> Result<(Running, Option<Duration>), EngineError> {
        let mut running = Running::spawn(command)?;
        let started = Instant::now();
        match running.warm_up(allowance) {
            Ok(true) => Ok((running, Some(started.elapsed()))),
            Ok(false) => Ok((running, None)),
            Err(failure) => {
                running.stdin = None;
                let exited = usage::exited_within(running.pid, Duration::from_secs(1));
                let status = if exited {
                    match running.reap() {
                        Ok((s, _)) => usage::describe_status(s),
                        Err(e) => format!("could not be reaped ({e})"),
                    }
                } else {
                    usage::kill_group(running.pid);
                    let _ = running.reap();
                    match failure {
                        WarmUpFailure::Unread => "no longer read its input and was killed",
                        WarmUpFailure::Ended => "closed its output and was killed",
                    }
                    .to_string()
                };
                usage::sweep(&running.mark);
                let mut message = format!(
                    "{} ended before answering its first request; it {status}",
                    usage::shorten(&command.join(" "), 200)
                );
                if let Some(line) = running.stderr.last_line(Duration::from_millis(200)) {
                    message.push_str(&format!(
                        "; its last line on stderr: {}",
                        usage::shorten(&line, 500)
                    ));
                }
                Err(EngineError::Load(message))
            }
        }
    }

    /// Starts the program.
    fn spawn(command: &[String]) -> Result<Running, EngineError> {
        let mut child = Command::new(&command[0]);
        child
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mark = usage::prepare(&mut child);
        let mut child = child.spawn().map_err(|e| {
            EngineError::Load(format!("cannot start {}: {e}", clip(&command.join(" "))))
        })?;
        let pid = child.id();
        usage::register(pid);
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        let tail = Arc::new(StderrTail::default());
        let spawned = std::thread::Builder::new()
            .name(format!("line-out-{pid}"))
            .spawn(move || read_lines(stdout, tx))
            .and_then(|_| {
                let tail = tail.clone();
                std::thread::Builder::new()
                    .name(format!("line-err-{pid}"))
                    .spawn(move || tail.read_from(stderr))
            });
        let running = Running {
            pid,
            stdin: child.stdin.take(),
            lines,
            stderr: tail,
            cpu_mark_ns: Cell::new(0),
            reaped: false,
            warm_pending: false,
            mark,
        };
        if let Err(e) = spawned {
            running.kill();
            return Err(EngineError::Load(format!(
                "cannot start a reader thread: {e}"
            )));
        }
        Ok(running)
    }

    /// Sends one request with a plain answer (a full grid, which solves itself) and waits for
    /// that answer, up to `allowance`, so that the program's start-up (an interpreter loading,
    /// say) is timed with no puzzle. Whatever the program answers is dropped. `Ok(true)`: it
    /// answered; `Ok(false)`: not yet (the answer is then awaited by the first request, see
    /// [`LineSession::exchange`]); `Err(Unread)`: it no longer reads its input; `Err(Ended)`:
    /// it ended its output first.
    fn warm_up(&mut self, allowance: Duration) -> Result<bool, WarmUpFailure> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(WarmUpFailure::Unread);
        };
        let request = format!("solve {WARM_UP_GRID}\n");
        let written = usage::without_sigpipe(|| {
            stdin.write_all(request.as_bytes())?;
            stdin.flush()
        });
        if written.is_err() {
            return Err(WarmUpFailure::Unread);
        }
        self.warm_pending = true;
        let until = Instant::now() + allowance;
        loop {
            match self
                .lines
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok(Line::Text(line)) if line.starts_with('#') => {}
                Ok(Line::Text(_)) => break,
                Ok(Line::End(_)) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(WarmUpFailure::Ended)
                }
                Err(RecvTimeoutError::Timeout) => return Ok(false),
            }
        }
        self.warmed();
        Ok(true)
    }

    /// The warm-up answer has come: the CPU time and memory peak so far are set aside.
    fn warmed(&mut self) {
        self.warm_pending = false;
        self.cpu_mark_ns.set(usage::cpu_ns(self.pid).unwrap_or(0));
        usage::reset_peak_rss(self.pid);
    }

    /// Kills the program's process group and reaps it: the resources it used since the last
    /// reading.
    fn kill(mut self) -> Usage {
        self.stdin = None;
        usage::kill_group(self.pid);
        let used = match self.reap() {
            Ok((_, u)) => u,
            Err(_) => Usage::default(),
        };
        usage::sweep(&self.mark);
        used
    }

    /// Reaps the program (which has exited or been killed, else this blocks): its exit status
    /// and the resources it used since the last reading.
    fn reap(&mut self) -> io::Result<(ExitStatus, Usage)> {
        let result = usage::reap(self.pid);
        self.reaped = true;
        result.map(|(status, whole_life)| (status, self.since_mark(whole_life)))
    }

    fn since_mark(&self, whole_life: Usage) -> Usage {
        Usage {
            cpu_micros: (whole_life.cpu_micros - self.cpu_mark_ns.get() as f64 / 1e3).max(0.0),
            peak_rss_kib: whole_life.peak_rss_kib,
            restart_micros: 0.0,
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if self.reaped {
            return;
        }
        // Closing standard input asks the program to end; a program that does not is killed.
        self.stdin = None;
        if !usage::exited_within(self.pid, Duration::from_millis(200)) {
            usage::kill_group(self.pid);
        }
        let _ = usage::reap(self.pid);
        usage::sweep(&self.mark);
    }
}

/// How a request ended, short of an answer line.
enum Failure {
    /// The budget ran out: the program was killed.
    Timeout,
    /// An engine error; the program was killed or had ended.
    Error(EngineError),
}

impl LineSession {
    /// Sends `request`, returns the answer line; on a timeout or crash the program has been
    /// reaped and started again.
    ///
    /// When the warm-up answer of a newly started program is still due, the request is sent
    /// after it; the time until the warm-up answer comes is the program's start-up, charged
    /// apart: the deadline moves back by as much. If it has not come by the deadline, the request
    /// is a timeout.
    fn exchange(&mut self, request: &str, budget: &Budget) -> Result<String, Failure> {
        self.measure.set(Measure::Nothing);
        self.restart = Duration::ZERO;
        if self.running.is_none() {
            self.start_again();
            if let Some(e) = &self.start_error {
                return Err(Failure::Error(EngineError::Load(e.clone())));
            }
        }
        // Anything the program wrote since its last answer: comments are fine; a line is an
        // answer no request asked for (every later answer would be one behind); its end means it
        // exited between requests.
        loop {
            let running = self.running.as_ref().expect("started");
            match running.lines.try_recv() {
                Ok(Line::Text(line)) if line.starts_with('#') => {}
                Ok(Line::Text(line)) => {
                    return Err(Failure::Error(self.out_of_step(format!(
                        "the program wrote {} when no request was waiting for an answer",
                        clip(&line)
                    ))))
                }
                Ok(Line::End(_)) | Err(TryRecvError::Disconnected) => {
                    return Err(self.crashed("ended its output between requests"))
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        let running = self.running.as_mut().expect("started");
        let stdin = running.stdin.as_mut().expect("open while running");
        let written = usage::without_sigpipe(|| {
            stdin.write_all(request.as_bytes())?;
            stdin.flush()
        });
        self.measure.set(Measure::Live);
        if let Err(e) = written {
            return Err(self.crashed(&format!("could not send the request ({e})")));
        }
        let sent = Instant::now();
        let mut due = usage::Due::new(budget);
        loop {
            let running = self.running.as_mut().expect("started");
            match running.lines.recv_timeout(due.wait(POLL)) {
                Ok(Line::Text(line)) if line.starts_with('#') => continue,
                Ok(Line::Text(_)) if running.warm_pending => {
                    running.warmed();
                    self.answered = true;
                    let startup = sent.elapsed();
                    due.extend(startup);
                    self.startup = Some(startup);
                    self.restart += startup;
                }
                Ok(Line::Text(line)) => {
                    self.answered = true;
                    return Ok(line);
                }
                Ok(Line::End(r)) => {
                    let what = match r {
                        Ok(()) => "ended its output before answering".to_string(),
                        Err(e) => format!("could not be read ({e})"),
                    };
                    return Err(self.crashed(&what));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crashed("ended its output before answering"))
                }
                Err(RecvTimeoutError::Timeout) => {
                    if due.passed(budget) {
                        let running = self.running.take().expect("started");
                        self.measure.set(Measure::Known(running.kill()));
                        let silent = !self.answered && !usage::cancelled(budget);
                        self.start_again();
                        if silent {
                            return Err(Failure::Error(self.silent()));
                        }
                        return Err(Failure::Timeout);
                    }
                }
            }
        }
    }

    /// The program stopped answering (`what` says how): waits a moment for it to exit (killing
    /// it if it does not), reaps it, starts it again, and names its exit status and last
    /// standard-error line.
    fn crashed(&mut self, what: &str) -> Failure {
        let mut running = self.running.take().expect("started");
        running.stdin = None;
        let exited = usage::exited_within(running.pid, Duration::from_secs(1));
        if !exited {
            usage::kill_group(running.pid);
        }
        let (status, used) = match running.reap() {
            Ok((s, u)) => (usage::describe_status(s), u),
            Err(e) => (format!("could not be reaped ({e})"), Usage::default()),
        };
        self.measure.set(Measure::Known(used));
        usage::sweep(&running.mark);
        let mut message = format!("the program {what}; it {status}");
        if !exited {
            message = format!("the program {what}, and was killed");
        }
        if let Some(line) = running.stderr.last_line(Duration::from_millis(200)) {
            message.push_str(&format!(
                "; its last line on stderr: {:?}",
                usage::shorten(&line, 500)
            ));
        }
        self.start_again();
        Failure::Error(EngineError::Crashed(message))
    }

    /// The error of a request that ran out of budget when the program had never answered
    /// anything: [`SILENT_HINT`], also written once per engine to standard error.
    fn silent(&self) -> EngineError {
        if !self.hinted.swap(true, Ordering::Relaxed) {
            let _ = writeln!(io::stderr(), "warning: {}: {SILENT_HINT}", self.name);
        }
        EngineError::Protocol(SILENT_HINT.to_string())
    }

    /// A protocol error: the stream may be out of step, so the program is killed and started
    /// again.
    fn out_of_step(&mut self, message: String) -> EngineError {
        if let Some(running) = self.running.take() {
            self.measure.set(Measure::Known(running.kill()));
        }
        self.start_again();
        EngineError::Protocol(message)
    }

    /// Starts the program again, waiting for its warm-up answer up to twice what its last start
    /// took (plus [`RESTART_SLACK`], at most [`WARM_UP`]; no wait for a program that never
    /// answered one). The time is charged apart ([`Usage::restart_micros`]).
    fn start_again(&mut self) {
        let began = Instant::now();
        let allowance = self
            .startup
            .map_or(Duration::ZERO, |s| (s * 2 + RESTART_SLACK).min(WARM_UP));
        let started = Running::start(&self.command, allowance);
        self.restart += began.elapsed();
        self.restarts += 1;
        match started {
            Ok((r, startup)) => {
                self.running = Some(r);
                self.start_error = None;
                if startup.is_some() {
                    self.answered = true;
                    self.startup = startup;
                }
            }
            Err(e) => {
                self.running = None;
                self.start_error = Some(match e {
                    EngineError::Load(m) => m,
                    other => other.to_string(),
                });
            }
        }
    }
}

/// An answer line split into its first word and its counters.
struct Answer<'a> {
    word: &'a str,
    stats: Stats,
}

/// Splits an answer line; `Err` holds the protocol message. `error MESSAGE` comes back as the
/// word `error` (the caller reads the message from the line).
fn parse_answer<'a>(line: &'a str, expected: &str) -> Result<Answer<'a>, String> {
    let mut words = line.split_whitespace();
    let Some(word) = words.next() else {
        return Err(format!("expected {expected}, read {}", clip(line)));
    };
    let mut stats = Stats::default();
    if word == "error" {
        return Ok(Answer { word, stats });
    }
    for pair in words {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(format!(
                "expected {expected} then key=value counters, read {}",
                clip(line)
            ));
        };
        let slot = match key {
            "nodes" => &mut stats.nodes,
            "guesses" => &mut stats.guesses,
            "backtracks" => &mut stats.backtracks,
            "propagations" => &mut stats.propagations,
            "updates" => &mut stats.updates,
            _ => continue,
        };
        *slot = value.parse().map_err(|_| {
            format!(
                "counter {} is not a whole number, in {}",
                clip(pair),
                clip(line)
            )
        })?;
    }
    Ok(Answer { word, stats })
}

/// The message of an `error MESSAGE` answer.
fn error_message(line: &str) -> EngineError {
    let message = line.trim_start()["error".len()..].trim();
    EngineError::Protocol(format!(
        "the program answered error: {}",
        if message.is_empty() {
            "(no message)".to_string()
        } else {
            usage::shorten(message, 500)
        }
    ))
}

const SOLVE_ANSWERS: &str = "81 digits, \"none\" or \"solved\"";

impl LineSession {
    /// Sends a `solve` request and reads its answer, `decode` reading a solution (`None`: not
    /// one, a protocol error naming `expected`).
    fn solve_with(
        &mut self,
        request: &str,
        expected: &str,
        budget: &Budget,
        decode: impl Fn(&str) -> Option<Board>,
    ) -> Result<Outcome, EngineError> {
        if budget.exhausted(0) {
            self.measure.set(Measure::Nothing);
            return Ok(Outcome::unsolved(Status::Timeout, Stats::default()));
        }
        let line = match self.exchange(request, budget) {
            Ok(line) => line,
            Err(Failure::Timeout) => {
                return Ok(Outcome::unsolved(Status::Timeout, Stats::default()))
            }
            Err(Failure::Error(e)) => return Err(e),
        };
        let answer = match parse_answer(&line, expected) {
            Ok(a) => a,
            Err(m) => return Err(self.out_of_step(m)),
        };
        let stats = answer.stats;
        match answer.word {
            "none" => Ok(Outcome::unsolved(Status::NoSolution, stats)),
            "solved" => Ok(Outcome {
                status: Status::Solved,
                solution: None,
                stats,
            }),
            "unsupported" => Err(EngineError::Unsupported("solve")),
            "error" => Err(error_message(&line)),
            word => match decode(word) {
                Some(solution) => Ok(Outcome::solved(solution, stats)),
                None => Err(self.out_of_step(format!("expected {expected}, read {}", clip(&line)))),
            },
        }
    }

    /// Sends a `count` request (`request` ends with the limit) and reads its answer.
    fn count_with(
        &mut self,
        request: &str,
        limit: u64,
        budget: &Budget,
    ) -> Result<Count, EngineError> {
        let timeout = Count {
            solutions: 0,
            complete: false,
            first: None,
            stats: Stats::default(),
        };
        if budget.exhausted(0) {
            self.measure.set(Measure::Nothing);
            return Ok(timeout);
        }
        let line = match self.exchange(request, budget) {
            Ok(line) => line,
            Err(Failure::Timeout) => return Ok(timeout),
            Err(Failure::Error(e)) => return Err(e),
        };
        let expected = format!("a count from 0 to {limit}");
        let answer = match parse_answer(&line, &expected) {
            Ok(a) => a,
            Err(m) => return Err(self.out_of_step(m)),
        };
        match answer.word {
            "unsupported" => Err(EngineError::Unsupported("count")),
            "error" => Err(error_message(&line)),
            word => match word.parse::<u64>() {
                Ok(n) if n <= limit => Ok(Count {
                    solutions: n,
                    complete: true,
                    first: None,
                    stats: answer.stats,
                }),
                _ => Err(self.out_of_step(format!("expected {expected}, read {}", clip(&line)))),
            },
        }
    }
}

impl Session for LineSession {
    /// 9x9 as `solve PUZZLE`; any other shape as `solve SHAPE CELLS` (module docs).
    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Result<Outcome, EngineError> {
        if let Some(grid) = puzzle.to_grid() {
            let request = format!("solve {}\n", grid.to_line());
            return self.solve_with(&request, SOLVE_ANSWERS, budget, |digits| {
                (digits.len() == 81 && digits.bytes().all(|b| (b'1'..=b'9').contains(&b)))
                    .then(|| Board::from(Grid::parse_line(digits).expect("81 digits")))
            });
        }
        let shape = puzzle.shape();
        let request = format!("solve {shape} {}\n", board_to_text(puzzle));
        let expected = format!(
            "the {} cells of a {shape} solution, \"none\" or \"solved\"",
            shape.cells()
        );
        self.solve_with(&request, &expected, budget, |text| {
            board_from_text(shape, text).ok().filter(Board::is_full)
        })
    }

    /// 9x9 as `count PUZZLE LIMIT`; any other shape as `count SHAPE CELLS LIMIT`.
    fn count(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Result<Count, EngineError> {
        let limit = limit.max(1);
        let request = match puzzle.to_grid() {
            Some(grid) => format!("count {} {limit}\n", grid.to_line()),
            None => format!(
                "count {} {} {limit}\n",
                puzzle.shape(),
                board_to_text(puzzle)
            ),
        };
        self.count_with(&request, limit, budget)
    }

    fn last_usage(&self) -> Option<Usage> {
        let restart_micros = self.restart.as_secs_f64() * 1e6;
        let measured = self.measured();
        match measured {
            Some(u) => Some(Usage {
                restart_micros,
                ..u
            }),
            None if restart_micros > 0.0 => Some(Usage {
                restart_micros,
                ..Usage::default()
            }),
            None => None,
        }
    }
}

impl LineSession {
    /// The resources of the last request, as [`Measure`] says.
    fn measured(&self) -> Option<Usage> {
        match self.measure.get() {
            Measure::Nothing => None,
            Measure::Known(u) => Some(u),
            Measure::Live => {
                let running = self.running.as_ref()?;
                let now = usage::cpu_ns(running.pid)?;
                let cpu = now.saturating_sub(running.cpu_mark_ns.get());
                running.cpu_mark_ns.set(now);
                let peak = usage::peak_rss_kib(running.pid);
                usage::reset_peak_rss(running.pid);
                let u = Usage {
                    cpu_micros: cpu as f64 / 1e3,
                    peak_rss_kib: peak,
                    restart_micros: 0.0,
                };
                self.measure.set(Measure::Known(u));
                Some(u)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvers::registry::BuiltinEngine;
    use solvers::SolverKind;

    use solvers::known_puzzles::{SEED, SEED_SOLUTION};

    fn serve_text(kind: SolverKind, input: &str) -> String {
        let engine = BuiltinEngine::new(kind);
        let mut session = engine.session().unwrap();
        let mut out = Vec::new();
        serve(session.as_mut(), input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn serve_answers_each_request_on_one_line() {
        // r1c9 can only hold 9, which r2c9 holds.
        let unsolvable = format!("12345678.........9{}", ".".repeat(63));
        let input = format!(
            "# a comment\nsolve {SEED}\r\n\ncount {SEED} 2\ncount {} 3\nsolve {unsolvable}\ncount {SEED} 0\nsolve 123\nhello\n",
            ".".repeat(81)
        );
        let out = serve_text(SolverKind::DomainReduction, &input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 7, "{out}");
        assert!(
            lines[0].starts_with(&format!("{SEED_SOLUTION} nodes=")),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with("1 nodes="), "{}", lines[1]);
        assert!(lines[2].starts_with("3 nodes="), "{}", lines[2]);
        assert!(lines[3].starts_with("none"), "{}", lines[3]);
        assert_eq!(lines[4], "error bad limit \"0\": expected a number from 1");
        assert_eq!(
            lines[5],
            "error bad puzzle \"123\": 3 characters, expected 81"
        );
        assert_eq!(
            lines[6],
            "error unknown request \"hello\": expected \"solve PUZZLE\" or \"count PUZZLE LIMIT\" \
             (SHAPE PUZZLE for other shapes)"
        );
        // A solver that does not count says so.
        let out = serve_text(SolverKind::Backtracking, &format!("count {SEED} 2\n"));
        assert_eq!(out, "unsupported\n");
    }

    /// A session on a program that never answers (`sleep`), whose output lines are fed by the
    /// test through the returned sender.
    fn fed_session() -> (LineSession, Sender<Line>) {
        let mut session = LineSession {
            name: "fed".into(),
            hinted: Arc::new(AtomicBool::new(false)),
            answered: true,
            command: vec!["sh".into(), "-c".into(), "exec sleep 60".into()],
            running: None,
            start_error: None,
            measure: Cell::new(Measure::Nothing),
            startup: None,
            restart: Duration::ZERO,
            restarts: 0,
        };
        let mut running = Running::spawn(&session.command).unwrap();
        let (tx, rx) = mpsc::channel();
        running.lines = rx;
        session.running = Some(running);
        (session, tx)
    }

    #[test]
    fn a_line_nobody_asked_for_is_a_protocol_error() {
        // A second answer to the previous request: every later answer would be one behind.
        let (mut session, feed) = fed_session();
        feed.send(Line::Text("# a comment is fine".into())).unwrap();
        feed.send(Line::Text(format!("{SEED_SOLUTION} nodes=1")))
            .unwrap();
        let e = session
            .solve(
                &Board::from(SEED.parse::<Grid>().unwrap()),
                &Budget::unlimited(),
            )
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "protocol: the program wrote \"{SEED_SOLUTION} nodes=1\" when no request was \
                 waiting for an answer"
            )
        );
        // Its end between requests: a crash, named before any request is written.
        let (mut session, feed) = fed_session();
        feed.send(Line::End(Ok(()))).unwrap();
        let Err(EngineError::Crashed(m)) = session.solve(
            &Board::from(SEED.parse::<Grid>().unwrap()),
            &Budget::unlimited(),
        ) else {
            panic!("no crash")
        };
        assert_eq!(
            m,
            "the program ended its output between requests, and was killed"
        );
    }

    #[test]
    fn answers_and_counters_are_parsed() {
        let a = parse_answer(
            "none nodes=3 guesses=2 backtracks=1 propagations=9 updates=4 mine=x",
            "x",
        )
        .unwrap();
        assert_eq!(a.word, "none");
        assert_eq!(
            a.stats,
            Stats {
                nodes: 3,
                guesses: 2,
                backtracks: 1,
                propagations: 9,
                updates: 4
            }
        );
        assert_eq!(
            parse_answer("none nodes=-1", "x").err().unwrap(),
            "counter \"nodes=-1\" is not a whole number, in \"none nodes=-1\""
        );
        assert_eq!(
            parse_answer("none extra", "E").err().unwrap(),
            "expected E then key=value counters, read \"none extra\""
        );
        assert_eq!(
            parse_answer("", "E").err().unwrap(),
            "expected E, read \"\""
        );
        assert_eq!(
            error_message("error out of memory").to_string(),
            "protocol: the program answered error: out of memory"
        );
    }

    #[test]
    fn cells_of_every_shape_read_back_what_they_write() {
        let shape = Shape::of_order(4).unwrap();
        let mut b = Board::empty(shape);
        b.set(0, 16);
        b.set(1, 10);
        b.set(255, 1);
        let text = board_to_text(&b);
        assert_eq!(text.len(), 256);
        assert!(text.starts_with("GA.") && text.ends_with(".1"), "{text}");
        assert_eq!(board_from_text(shape, &text).unwrap(), b);
        assert_eq!(board_from_text(shape, &text.to_lowercase()).unwrap(), b);
        assert_eq!(
            board_from_text(shape, &text.replacen('G', "H", 1)).unwrap_err(),
            "character 1 ('H') is not a symbol of 16x16 (1-G or .)"
        );
        // Side 36 and up: numbers and commas.
        let big = Shape::of_order(6).unwrap();
        let mut b = Board::empty(big);
        b.set(1, 36);
        let text = board_to_text(&b);
        assert!(text.starts_with("0,36,0,"), "{}", &text[..10]);
        assert_eq!(board_from_text(big, &text).unwrap(), b);
        assert_eq!(
            board_from_text(big, "0,37").unwrap_err(),
            "cell 2 (\"37\") is not a number from 0 to 36"
        );
        assert_eq!(
            board_from_text(big, "0,1").unwrap_err(),
            "2 cells, expected 1296 for 36x36"
        );
    }

    #[test]
    fn serve_answers_requests_of_other_shapes() {
        // 4x4: the pattern grid 1234/3412/2143/4321 with cells blanked.
        let input = "solve 4x4 1.3..4.......3.1\ncount 4x4 ................ 2\n\
                     count 6x6/2x3 11.................................. 2\nsolve 9x9 x\n\
                     solve 3x3/latin 12.......\n";
        let out = serve_text(SolverKind::Dlx, input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5, "{out}");
        let solved = lines[0].split_whitespace().next().unwrap();
        let shape = Shape::of_order(2).unwrap();
        let b = board_from_text(shape, solved).unwrap();
        let puzzle = board_from_text(shape, "1.3..4.......3.1").unwrap();
        assert!(b.is_full() && b.first_conflict().is_none(), "{solved}");
        assert!((0..16).all(|i| puzzle.get(i) == 0 || puzzle.get(i) == b.get(i)));
        assert!(lines[1].starts_with("2 nodes="), "{}", lines[1]);
        assert!(lines[2].starts_with("0 "), "{}", lines[2]);
        assert!(
            lines[3].starts_with("error bad puzzle \"x\""),
            "{}",
            lines[3]
        );
        let latin = Shape::latin(3).unwrap();
        let square = board_from_text(latin, lines[4].split_whitespace().next().unwrap()).unwrap();
        assert!(square.is_full() && square.first_conflict().is_none());
        assert_eq!((square.get(0), square.get(1)), (1, 2));
        // A 9x9-only solver says so.
        let out = serve_text(SolverKind::BitboardBands, "solve 4x4 1.3..4.......3.1\n");
        assert_eq!(out, "unsupported\n");
    }
}
