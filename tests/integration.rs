//! The integration tests: one binary, one module per concern.

mod integration {
    pub mod cases;
    pub mod classic;
    pub mod cli;
    pub mod common;
    pub mod conformance;
    pub mod crosscheck;
    pub mod generate;
    pub mod puzzle_commands;
    pub mod report;
    pub mod solve;
    pub mod web;
}
