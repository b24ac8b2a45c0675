//! Engines: one notion of "a solver the harness can run", whether it is compiled in (a
//! [`crate::SolverKind`]) or lives outside (a C library, a program over a line protocol, an external SAT
//! solver).
//!
//! The split follows ripgrep's `Matcher` and BenchExec's tool-info modules: an [`Engine`] says
//! what is true of a solver whatever the puzzle ([`EngineInfo`]: its name, where it comes from,
//! its capabilities [`Caps`], declared, never found by probing), and opens a [`Session`] per worker
//! thread, which owns what one thread's solves share (a child process, a loaded library's lock,
//! scratch space). A solve that goes wrong outside the search itself (a crash, a protocol
//! failure) is an [`EngineError`], a value the runner records as an `error` row.
//!
//! Built-in solvers become engines through [`crate::registry::BuiltinEngine`]; the foreign ones are in the
//! harness's `foreign` crate.

use crate::{Board, Budget, Count, Grid, Outcome, Shape};
use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// Where an engine comes from: compiled into this crate, or described by whoever built it (the
/// harness's `foreign` crate for C libraries, line-protocol programs and external SAT solvers;
/// the harness itself for its benchmark reference). This crate names no outside kind.
#[derive(Debug, Clone)]
pub enum Origin {
    /// Compiled into this crate (one of [`crate::SolverKind::ALL`]).
    Builtin,
    /// Anything else, described by its [`ExternalOrigin`].
    External(Arc<dyn ExternalOrigin>),
}

/// What the crate that built an outside engine says of where it comes from. Its own type (got
/// back with [`Origin::external`]) carries the details: a library's path, a program's command.
pub trait ExternalOrigin: fmt::Debug + Send + Sync + 'static {
    /// A short word for tables (`lib`, `cmd`, ...).
    fn kind(&self) -> &'static str;

    /// True for engines that run in another process (their CPU time and memory are measured
    /// from the child).
    fn out_of_process(&self) -> bool;

    /// Itself, so that its crate can get the concrete description back.
    fn as_any(&self) -> &dyn Any;

    /// True when `other` describes the same origin (same type, same details).
    fn same_as(&self, other: &dyn ExternalOrigin) -> bool;
}

impl Origin {
    /// An outside origin described by `origin`.
    pub fn external(origin: impl ExternalOrigin) -> Origin {
        Origin::External(Arc::new(origin))
    }

    /// The description of an outside origin, when it is of type `T`.
    pub fn downcast<T: ExternalOrigin>(&self) -> Option<&T> {
        match self {
            Origin::Builtin => None,
            Origin::External(o) => o.as_any().downcast_ref::<T>(),
        }
    }

    /// A short word for tables: `builtin`, or the outside origin's [`ExternalOrigin::kind`].
    pub fn kind(&self) -> &'static str {
        match self {
            Origin::Builtin => "builtin",
            Origin::External(o) => o.kind(),
        }
    }

    /// True for engines that run in another process (their CPU time and memory are measured
    /// from the child).
    pub fn out_of_process(&self) -> bool {
        match self {
            Origin::Builtin => false,
            Origin::External(o) => o.out_of_process(),
        }
    }
}

impl PartialEq for Origin {
    fn eq(&self, other: &Origin) -> bool {
        match (self, other) {
            (Origin::Builtin, Origin::Builtin) => true,
            (Origin::External(a), Origin::External(b)) => a.same_as(b.as_ref()),
            _ => false,
        }
    }
}

impl Eq for Origin {}

/// How an engine honours the [`Budget`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetMode {
    /// The search polls the budget itself (every built-in solver).
    Polled,
    /// The harness kills the child process when the deadline passes (`cmd:`, `dimacs:`,
    /// isolated `lib:`).
    KilledByHarness,
    /// A call that cannot be interrupted (an in-process C function, varisat): an answer returned
    /// after the deadline is recorded as a timeout, and the overrun shows in its time.
    OverrunRecorded,
}

/// What the node counter of an engine measures, so that plots put like beside like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeUnit {
    /// Search-tree nodes as defined in the [crate docs](crate#effort-counters).
    SearchTree,
    /// Calls of an underlying solver (`sat`: varisat calls).
    SolverCalls,
    /// The engine reports no nodes.
    None,
}

/// The grid shapes an engine takes ([`Caps::shapes`]). The runner never hands an engine a shape
/// it does not take: such a puzzle is "n/a" for it in every table, never an error row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shapes {
    /// The classic 9x9 Sudoku only (solvers that are 9x9 by construction: bitboards, SIMD
    /// lanes, C libraries with tdoku's signature).
    Classic,
    /// Every [`Shape`] up to [`crate::MAX_SIDE`]: Sudoku with any boxes, and Latin squares.
    Any,
    /// Every [`Shape`] of a side up to the one given (a solver whose candidate sets are one
    /// machine word: `UpTo(128)` for a `u128`).
    UpTo(u16),
}

impl Shapes {
    /// True when `shape` is one of these.
    pub fn takes(self, shape: Shape) -> bool {
        match self {
            Shapes::Classic => shape.is_classic(),
            Shapes::Any => true,
            Shapes::UpTo(side) => shape.side() <= usize::from(side) || shape.is_classic(),
        }
    }

    /// A word for tables and `harness list`: `9x9`, `any`, or `up to 128x128`
    /// ([`Shapes::parse`] reads it back).
    pub fn as_str(self) -> std::borrow::Cow<'static, str> {
        match self {
            Shapes::Classic => "9x9".into(),
            Shapes::Any => "any".into(),
            Shapes::UpTo(n) => format!("up to {n}x{n}").into(),
        }
    }

    /// The shapes [`Shapes::as_str`] wrote, `None` for other text.
    pub fn parse(text: &str) -> Option<Shapes> {
        match text.trim() {
            "9x9" => Some(Shapes::Classic),
            "any" => Some(Shapes::Any),
            t => {
                let (a, b) = t.strip_prefix("up to ")?.split_once('x')?;
                let n: u16 = a.parse().ok()?;
                (b.parse::<u16>().ok()? == n).then_some(Shapes::UpTo(n))
            }
        }
    }

    /// Why a shape is not taken, for `n/a` cells: `9x9 only`, `up to 128x128`.
    pub fn limit(self) -> String {
        match self {
            Shapes::Classic => "9x9 only".into(),
            other => other.as_str().into_owned(),
        }
    }
}

/// What an engine can do, declared once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// The shapes it takes.
    pub shapes: Shapes,
    /// It counts solutions up to a limit ([`Session::count`]).
    pub counts: bool,
    /// It writes the solution it found; when false, a solved answer cannot be checked and is
    /// recorded as "solved, unchecked".
    pub gives_solution: bool,
    /// How the budget is honoured.
    pub budget: BudgetMode,
    /// What `nodes` means for it.
    pub nodes: NodeUnit,
    /// It reports guesses (tdoku's adapters do, as `num_guesses`).
    pub guesses: bool,
    /// Sessions may solve at the same time on several threads. When false (a C library keeping
    /// its state in globals) the runner serializes its calls.
    pub parallel: bool,
}

impl Caps {
    /// A built-in search that polls its budget, counts search-tree nodes and guesses, writes its
    /// solution, runs on every thread at once and counts solutions; solvers that differ declare
    /// so from this (`Caps { counts: false, ..Caps::POLLED_SEARCH }`).
    pub const POLLED_SEARCH: Caps = Caps {
        shapes: Shapes::Classic,
        counts: true,
        gives_solution: true,
        budget: BudgetMode::Polled,
        nodes: NodeUnit::SearchTree,
        guesses: true,
        parallel: true,
    };

    /// [`Caps::POLLED_SEARCH`] on every shape ([`Shapes::Any`]).
    pub const ANY_SHAPE: Caps = Caps {
        shapes: Shapes::Any,
        ..Caps::POLLED_SEARCH
    };

    /// [`Caps::POLLED_SEARCH`] on every shape of a side up to 128 (candidate sets in a `u128`).
    pub const UP_TO_128: Caps = Caps {
        shapes: Shapes::UpTo(128),
        ..Caps::POLLED_SEARCH
    };
}

/// What is true of an engine, whatever the puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineInfo {
    /// The name rows, plots and tables show (`bitboard-bands`, `tdoku`, ...).
    pub name: String,
    /// A one-line description for `harness list`.
    pub description: String,
    /// A version, where one is known (built-in: the crate's version; external: the file's sha256
    /// is recorded by the harness instead).
    pub version: Option<String>,
    /// Where it comes from.
    pub origin: Origin,
    /// What it can do.
    pub caps: Caps,
}

/// Why a solve could not give an answer, apart from the search itself (which ends with a
/// [`Status`](crate::Status)).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The engine could not be loaded or started (missing library or symbol, program not found).
    #[error("cannot load: {0}")]
    Load(String),
    /// Reading from or writing to the engine failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// The engine answered something the protocol does not allow.
    #[error("protocol: {0}")]
    Protocol(String),
    /// The engine crashed or exited (a signal, an exit status).
    #[error("crashed: {0}")]
    Crashed(String),
    /// The engine does not do this (`count` on a solver that only solves).
    #[error("unsupported: {0}")]
    Unsupported(&'static str),
}

/// What one thread's solves with one engine share. Not shared across threads.
pub trait Session: Send {
    /// Solves `puzzle` (a shape the engine takes, [`Caps::shapes`]) within `budget`: the first
    /// solution, [`Status::NoSolution`](crate::Status::NoSolution), or
    /// [`Status::Timeout`](crate::Status::Timeout) once the budget is spent.
    ///
    /// # Errors
    /// [`EngineError::Unsupported`] for a shape the engine does not take; otherwise
    /// [`EngineError`] when the engine failed to answer (crash, protocol error).
    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Result<Outcome, EngineError>;

    /// Counts the solutions of `puzzle` up to `limit`.
    ///
    /// # Errors
    /// [`EngineError::Unsupported`] for engines whose [`Caps::counts`] is false; otherwise as
    /// [`Session::solve`].
    fn count(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Result<Count, EngineError> {
        let _ = (puzzle, limit, budget);
        Err(EngineError::Unsupported("count"))
    }

    /// What the last [`Session::solve`] or [`Session::count`] cost in another process, for
    /// out-of-process engines; `None` for in-process ones (the harness measures those itself).
    fn last_usage(&self) -> Option<Usage> {
        None
    }
}

/// The 9x9 grid of `puzzle`, for engines that take the classic shape only.
///
/// # Errors
/// [`EngineError::Unsupported`] for any other shape.
pub fn classic(puzzle: &Board) -> Result<Grid, EngineError> {
    puzzle.to_grid().ok_or(EngineError::Unsupported("shape"))
}

/// Resources a solve used in a child process.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Usage {
    /// User + system CPU time, µs.
    pub cpu_micros: f64,
    /// Peak resident memory, KiB, where known.
    pub peak_rss_kib: Option<u64>,
    /// Wall time the request spent starting the program again after it was killed or crashed
    /// (its start-up and warm-up included), µs: not part of the solve, so the harness leaves it
    /// out of the row's time and notes it in the row.
    pub restart_micros: f64,
}

/// A solver the harness can run: what is true of it ([`Engine::info`]) and a way to open one
/// [`Session`] per worker thread.
pub trait Engine: Send + Sync {
    /// Name, origin and capabilities.
    fn info(&self) -> &EngineInfo;

    /// A new session for one worker thread.
    ///
    /// # Errors
    /// [`EngineError::Load`] when the engine cannot be started.
    fn session(&self) -> Result<Box<dyn Session>, EngineError>;
}
