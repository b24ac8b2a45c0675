//! Integration tests of the command line and the file formats: every subcommand as a user runs it, outputs written whole, faults, the documentation's commands.
//! The modules live in tests/integration/ (one file per concern); tests/integration/common.rs
//! holds the helpers every target shares.

#[path = "integration/classic.rs"]
mod classic;
#[path = "integration/cli.rs"]
mod cli;
#[path = "integration/common.rs"]
mod common;
#[path = "integration/doc_commands.rs"]
mod doc_commands;
#[path = "integration/faults.rs"]
mod faults;
#[path = "integration/generate.rs"]
mod generate;
#[path = "integration/outputs.rs"]
mod outputs;
#[path = "integration/proptest_parsers.rs"]
mod proptest_parsers;
#[path = "integration/puzzle_commands.rs"]
mod puzzle_commands;
#[path = "integration/round_trip.rs"]
mod round_trip;
#[path = "integration/shape_io.rs"]
mod shape_io;
#[path = "integration/solve.rs"]
mod solve;
