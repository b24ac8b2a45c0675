//! The integration tests: one binary, one module per concern.

mod integration {
    pub mod cases;
    pub mod classic;
    pub mod cli;
    pub mod common;
    pub mod conformance;
    pub mod generate;
    pub mod report;
    pub mod solve;
    pub mod web;
}
