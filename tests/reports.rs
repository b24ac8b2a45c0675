//! Integration tests of the reports: rendering, the rigor sections, `bench` and `regress`.
//! The modules live in tests/integration/ (one file per concern); tests/integration/common.rs
//! holds the helpers every target shares.

#[path = "integration/common.rs"]
mod common;
#[path = "integration/perf.rs"]
mod perf;
#[path = "integration/report.rs"]
mod report;
#[path = "integration/rigor.rs"]
mod rigor;
#[path = "integration/shape_reports.rs"]
mod shape_reports;
