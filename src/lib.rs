//! # harness: the sudoku-harness experiment runner
//!
//! Loads puzzle datasets ([`format`], [`dataset`]), runs the solvers of the `solvers` crate over
//! them in parallel under a per-puzzle budget ([`runner`]), checks every answer with a checker that
//! shares no code with the solvers ([`verify`]), and writes CSV, JSON and a terminal summary
//! ([`output`], [`summary`]). The binary `harness` is a thin layer over [`cli`] and [`commands`].
//! `ARCHITECTURE.md` at the repository root is the map.

#![deny(missing_docs)]

pub mod cli;
pub mod commands;
pub mod dataset;
pub mod format;
pub mod generate;
pub mod human;
pub mod interrupt;
pub mod isomorph;
pub mod manifest;
pub mod output;
pub mod perf;
pub mod record;
pub mod registry;
pub mod report;
pub mod runner;
pub mod scale;
pub mod scores;
pub mod sessions;
pub mod shard;
pub mod stats;
pub mod summary;
pub mod table;
pub mod verify;
pub mod web;

/// The default per-puzzle time budget of `harness run`, ms.
pub const DEFAULT_TIMEOUT_MS: u64 = 1000;
