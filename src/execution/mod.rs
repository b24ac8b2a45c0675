//! Running solvers: the engines a command can name ([`registry`]), one session per worker
//! thread ([`sessions`]), the runner of `harness run` ([`runner`]), the throughput engine of
//! `bench` and `regress` ([`perf`]) and a dataset's manifest, whose classes are counted by the
//! solvers ([`manifest`]). Above [`crate::input`], [`crate::record`] and [`crate::analysis`].

pub mod manifest;
pub mod perf;
pub mod registry;
pub mod runner;
pub mod sessions;
