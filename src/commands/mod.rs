//! One module per subcommand: each turns parsed arguments into work and output.

pub mod autofill;
pub mod bench;
pub mod candidates;
pub mod classic;
pub mod cnf;
pub mod compare;
pub mod count;
pub mod decode;
pub mod generate;
pub mod hint;
pub mod inspect;
pub mod list;
pub mod merge;
pub mod puzzle_arg;
pub mod rate;
pub mod regress;
pub mod report;
pub mod rerun;
pub mod run;
pub mod scale;
pub mod serve;
pub mod solve;
