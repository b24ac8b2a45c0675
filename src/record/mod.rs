//! Everything a run writes and reads back, in one place: one [`Row`] per dataset x puzzle x
//! solver (`results.csv`), the run.json schema ([`RunInfo`], [`DatasetInfo`], [`SolverRecord`],
//! [`Shard`], [`ShardRecord`]), writing a run folder ([`start_run`], [`ResultsWriter`],
//! [`finish_run`], [`write_run`]) and reading it back ([`load`], [`Run`], [`for_each_row`]).
//!
//! The runner makes rows, `commands::run` and `commands::merge` write them, the report,
//! `compare`, `merge` and `--resume` read them. Files are written through
//! [`crate::plumbing::output::write_atomic`].

mod info;
pub mod manifest;
pub mod merge;
mod row;
mod run;
mod shard;
mod write;

pub use info::{
    cpu_model, host_name, load_average, DatasetInfo, EngineKind, FileRecord, NodeCount, RunInfo,
    ShapeCount, SolverRecord,
};
pub use row::{Row, RowStatus, SolutionClass};
pub use run::{for_each_row, load, read_info, read_rows, whole_lines_len, RowReader, Run};
pub use shard::{Shard, ShardParseError, ShardRecord};
pub use write::{clear_run, finish_run, start_run, write_info, write_run, ResultsWriter};
