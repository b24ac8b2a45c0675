//! One module per subcommand: each turns parsed arguments into work and output.

pub mod compare;
pub mod list;
pub mod merge;
pub mod report;
pub mod run;
