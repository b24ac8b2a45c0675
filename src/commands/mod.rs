//! One module per subcommand: each turns parsed arguments into work and output.

pub mod candidates;
pub mod cnf;
pub mod count;
pub mod list;
pub mod puzzle_arg;
pub mod run;
