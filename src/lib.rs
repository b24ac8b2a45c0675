//! # harness: the sudoku-harness experiment runner
//!
//! Loads puzzle datasets ([`format`], [`dataset`]), runs the solvers of the `solvers` crate over
//! them in parallel under a per-puzzle budget ([`runner`]), checks every answer with a checker that
//! shares no code with the solvers ([`verify`]), and writes CSV, JSON and a terminal summary
//! ([`output`], [`summary`]). The binary `harness` is a thin layer over [`cli`] and [`commands`].
//! `ARCHITECTURE.md` at the repository root is the map.

#![deny(missing_docs)]
// Writes to stdout and stderr go through `outln!`/`out!`/`errln!` (src/plumbing/output.rs), which never
// panic on a failed write.
#![deny(clippy::print_stdout, clippy::print_stderr)]

// First: its `outln!`, `out!` and `errln!` are in scope in every module below.
#[macro_use]
pub mod plumbing;

pub mod analysis;
pub mod cli;
pub mod commands;
pub mod execution;
pub mod generate;
pub mod input;
pub mod record;
pub mod report;
pub mod scale;
pub mod verify;
pub mod web;

/// The default per-puzzle time budget of `harness run`, ms.
pub const DEFAULT_TIMEOUT_MS: u64 = 1000;
