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
        Command::Bench(args) => commands::bench::bench(args).map(|wrong| {
            if wrong > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }),
        Command::Regress(args) => commands::regress::regress(args).map(|ok| {
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }),
        Command::List => {
            commands::list::list();
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
