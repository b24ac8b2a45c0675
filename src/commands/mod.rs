//! One module per subcommand: each turns parsed arguments into work and output.

pub mod autofill;
pub mod list;
pub mod run;
pub mod serve;
