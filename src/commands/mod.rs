//! One module per subcommand: each turns parsed arguments into work and output.

pub mod autofill;
pub mod classic;
pub mod compare;
pub mod generate;
pub mod list;
pub mod merge;
pub mod report;
pub mod run;
pub mod serve;
pub mod solve;
