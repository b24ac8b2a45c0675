//! # foreign: external Sudoku solvers as engines
//!
//! The harness races its built-in solvers against solvers it did not compile: each kind of
//! outsider becomes a [`solvers::engine::Engine`] here, so the runner, the benchmarks and the
//! reports treat it like a built-in one (the same budget, the same checker, the same rows).
//!
//! | spelled | type | what runs | budget |
//! |---|---|---|---|
//! | `lib:PATH:SYMBOL[:CONFIGURATION]` | [`SharedLibEngine`] | a C function with tdoku's adapter signature, in-process | an answer after the deadline is a timeout |
//! | `lib:` with `--isolate` | [`line::isolated`] | the same function hosted in a child process over the line protocol | the child is killed at the deadline |
//! | `cmd:PROGRAM ARGS` | [`LineEngine`] | any program speaking the [line protocol](line#the-line-protocol), kept running | the program is killed at the deadline and restarted |
//! | `dimacs:PROGRAM ARGS` | [`DimacsEngine`] | a SAT solver per puzzle on the DIMACS encoding | the solver is killed at the deadline |
//!
//! ## Design
//! - **In-process where it can be timed, out of process where it must be survived.** A C call of
//!   a microsecond is timed as ours are only when it is called directly ([`shared_lib`]); its
//!   calls into one library file are serialized because these solvers keep their state in
//!   globals. A crash there ends the process, so `--isolate` moves the library into a child
//!   process that serves the line protocol ([`line::serve`], [`line::host_lib`]), as any
//!   `cmd:` program does.
//! - **Failures are values.** A crash, a hang past the budget or a malformed answer becomes an
//!   [`EngineError`](solvers::engine::EngineError) (an `error` row) or a timeout, and the
//!   child is started again for the next puzzle: one bad puzzle never costs the run.
//! - **Nothing is probed.** What each engine can do is declared in its
//!   [`Caps`](solvers::engine::Caps).
//! - **Resources of children** (CPU time, peak memory) are read outside the timed call, from
//!   `/proc` and the kernel's per-process CPU clock for a program that stays alive, from
//!   `wait4` for one that has exited ([`Session::last_usage`](solvers::engine::Session::last_usage)).
//! - **Only our own children are signalled**: each runs in a process group of its own, is killed
//!   with its group, and is waited for without being reaped before anyone may signal it. A
//!   program about to exit in a hurry calls [`kill_children`] so that no solver outlives it.
//! - **Nothing outlives the harness**: every child carries a mark in its environment
//!   (`SUDOKU_HARNESS_OWNER=PID.N`, inherited by what it starts). When a child exits or is
//!   killed, the processes still carrying its mark (a forked helper, one that left the process
//!   group with `setsid`) are killed too. A guardian process (a few lines of `sh`, started with
//!   the first child) waits for the harness to end, however it ends, SIGKILL included, then kills
//!   whatever still carries the harness's mark and removes its temporary folders
//!   (`TMPDIR/sudoku-dimacs-PID-*`). A program that clears its environment escapes the mark:
//!   only its process group is killed.
//! - **Every request ends on time**: the budget's deadline, or [`UNBUDGETED_LIMIT`] when the
//!   budget has none (`harness bench` without a per-puzzle cut), holds for every engine that
//!   runs in another process; a program's start-up after a restart is charged apart
//!   ([`Usage::restart_micros`](solvers::engine::Usage::restart_micros)), never to a puzzle.
//! - **Files are capped**: a child may write at most [`MAX_FILE_BYTES`] to any one file
//!   (`RLIMIT_FSIZE`; past it the kernel stops it with SIGXFSZ, an error row).
//!
//! Unix only (process groups, `waitid`, `/proc`): Linux is the platform measured.

#![deny(missing_docs)]

mod check;
pub mod dimacs;
pub mod line;
pub mod origin;
pub mod shared_lib;
mod usage;

pub use dimacs::DimacsEngine;
pub use line::LineEngine;
pub use origin::ForeignOrigin;
pub use shared_lib::SharedLibEngine;
pub use usage::{kill_children, MAX_FILE_BYTES};

/// An external engine whose one-line description (what `harness list` shows) can be replaced.
pub trait Described: solvers::engine::Engine + Sized {
    /// Its description, to replace.
    fn description_mut(&mut self) -> &mut String;

    /// Replaces the one-line description `harness list` shows.
    fn with_description(mut self, description: impl Into<String>) -> Self {
        *self.description_mut() = description.into();
        self
    }
}

/// Implements [`Described`] for an engine type whose `info` field holds its
/// [`EngineInfo`](solvers::engine::EngineInfo).
macro_rules! described_by_info {
    ($t:ty) => {
        impl $crate::Described for $t {
            fn description_mut(&mut self) -> &mut String {
                &mut self.info.description
            }
        }
    };
}
pub(crate) use described_by_info;

/// The longest an out-of-process engine waits for an answer when the budget sets no deadline:
/// past it the request ends as a timeout and the program is killed (a solver that stops
/// answering cannot hang `harness bench`, or a count without `--timeout-ms`).
pub const UNBUDGETED_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);
