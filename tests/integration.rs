//! The integration tests: one binary, one module per concern.

mod integration {
    pub mod cases;
    pub mod cli;
    pub mod common;
    pub mod conformance;
    pub mod perf;
}
