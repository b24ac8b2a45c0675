//! One module per subcommand: each turns parsed arguments into work and output.

pub mod bench;
pub mod list;
pub mod regress;
pub mod run;
