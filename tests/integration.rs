//! The integration tests: one binary, one module per concern.

mod integration {
    pub mod bad_sudoku;
    pub mod cases;
    pub mod classic;
    pub mod cli;
    pub mod cluster;
    pub mod common;
    pub mod conformance;
    pub mod crosscheck;
    pub mod doc_commands;
    pub mod external;
    pub mod faults;
    pub mod generate;
    pub mod logic;
    pub mod outputs;
    pub mod perf;
    pub mod proptest_parsers;
    pub mod puzzle_commands;
    pub mod report;
    pub mod rigor;
    pub mod scale;
    pub mod simd_paths;
    pub mod solve;
    pub mod web;
    pub mod web_limits;
}
