//! The `harness` binary: parses the command line and hands off to `harness::commands`.
//!
//! Exit status: 0 on success, 1 when a run found a wrong answer, 2 on a usage or input error.

use clap::Parser;
use harness::cli::{Cli, Command};
use harness::commands;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Run(args) => commands::run::run(args).map(|end| {
            if end.wrong > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }),
        Command::List => {
            commands::list::list();
            Ok(ExitCode::SUCCESS)
        }
        Command::Candidates(args) => {
            commands::candidates::candidates(args).map(|()| ExitCode::SUCCESS)
        }
        Command::Cnf(args) => commands::cnf::cnf(args).map(|()| ExitCode::SUCCESS),
        Command::Count(args) => commands::count::count(args).map(|end| {
            if end.complete {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
