//! The `harness` binary: parses the command line and hands off to `harness::commands`.
//!
//! Exit status: 0 on success, 1 when a run found a wrong answer (or `decode` a model whose grid
//! breaks a unit, `solve` met an unsolvable
//! puzzle or one of several solutions, `generate puzzles` could not make some, `rate` met a
//! puzzle without a rating, or `hint` a board of several solutions), 2 on a usage or input error (an input with no puzzle; for `solve`,
//! `rate` and `-s`: some puzzle could not be read; for `run`: no puzzle could be read), 130 when a command was stopped
//! by Ctrl-C, SIGTERM or SIGHUP
//! (a run saves its finished rows; every command removes its unfinished temporary files and says
//! what it kept).

#![deny(clippy::print_stdout, clippy::print_stderr)]

use clap::Parser;
use harness::cli::{Cli, Command};
use harness::commands;
use harness::errln;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`harness list | head`) would panic;
    // a command-line tool should end quietly instead, as with the default action.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_DFL at startup, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    // One handler for every command: a signal removes the temporary files being written, says
    // what was kept and exits with status 130 (`run` and `serve` first stop their work; see
    // `harness::plumbing::interrupt`).
    if let Err(e) = harness::plumbing::interrupt::install() {
        errln!("warning: Ctrl-C will leave temporary files behind: {e}");
    }
    let Some(command) = &cli.command else {
        // The classic mode: `harness -c N` / `harness -s PATH`.
        return classic(&cli.classic);
    };
    match dispatch(command) {
        Ok(code) => code,
        Err(e) => {
            print_error(&e);
            ExitCode::from(2)
        }
    }
}

/// Prints `error: ` and the error's chain on stderr; on a terminal, each line wrapped to the
/// table width with a hanging indent (a pipe or a log gets the lines whole, for grep).
fn print_error(e: &anyhow::Error) {
    let text = format!("{e:#}");
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        errln!("error: {text}");
        return;
    }
    for (i, line) in text.lines().enumerate() {
        let head = if i == 0 { "error: " } else { "       " };
        errln!("{}", harness::plumbing::human::hanging(head, line));
    }
}

/// Runs the classic mode (`-c N` / `-s PATH`) and maps its end to the exit status.
fn classic(args: &harness::cli::ClassicArgs) -> ExitCode {
    match commands::classic::classic(args) {
        Ok(commands::classic::ClassicEnd::Solved(c)) if !c.all_solved() => {
            ExitCode::from(if c.invalid > 0 { 2 } else { 1 })
        }
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            print_error(&e);
            ExitCode::from(2)
        }
    }
}

/// Runs one subcommand and maps its end to the exit status.
fn dispatch(command: &Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Run(args) => commands::run::run(args).map(|e| run_exit(&e)),
        Command::Scale(args) => commands::scale::scale(args).map(|e| run_exit(&e)),
        Command::Rerun(args) => commands::rerun::rerun(args).map(|e| run_exit(&e)),
        Command::Serve(args) => commands::serve::serve(args).map(|()| ExitCode::SUCCESS),
        Command::Autofill(args) => commands::autofill::autofill(args),
        Command::Decode(args) => commands::decode::decode(args).map(success_if),
        Command::HostLib(args) => foreign::line::host_lib(
            &args.library,
            &args.symbol,
            args.configuration,
            !args.no_solution,
        )
        .map(|()| ExitCode::SUCCESS)
        .map_err(|e| anyhow::anyhow!("host-lib: {e}")),
        Command::List(args) => commands::list::list(args).map(|()| ExitCode::SUCCESS),
        Command::Generate(args) => {
            commands::generate::generate(args).map(|end| success_if(end.failed == 0))
        }
        Command::Solve(args) => commands::solve::solve(args).map(|c| {
            if c.all_solved() {
                ExitCode::SUCCESS
            } else if c.invalid > 0 {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }),
        Command::Bench(args) => commands::bench::bench(args).map(|wrong| success_if(wrong == 0)),
        Command::Regress(args) => commands::regress::regress(args).map(success_if),
        Command::Candidates(args) => {
            commands::candidates::candidates(args).map(|()| ExitCode::SUCCESS)
        }
        Command::Cnf(args) => commands::cnf::cnf(args).map(|()| ExitCode::SUCCESS),
        Command::Count(args) => commands::count::count(args).map(|end| success_if(end.complete)),
        Command::Report(args) => commands::report::report(args).map(|()| ExitCode::SUCCESS),
        Command::Compare(args) => commands::compare::compare(args).map(|()| ExitCode::SUCCESS),
        Command::Inspect(args) => commands::inspect::inspect(args).map(|()| ExitCode::SUCCESS),
        Command::Merge(args) => commands::merge::merge(args).map(|()| ExitCode::SUCCESS),
        Command::Hint(args) => commands::hint::hint(args)
            .map(|end| success_if(end != commands::hint::HintEnd::Several)),
        Command::Rate(args) => commands::rate::rate(args).map(|c| {
            if c.invalid > 0 {
                ExitCode::from(2)
            } else if c.unratable > 0 || c.bugs > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }),
    }
}

/// Exit status 0 when `ok`, else 1.
fn success_if(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The exit status of a run (`run`, `rerun`), the first that applies: 1 if any answer was
/// wrong, 130 if it was interrupted, 3 if any row is an `error` (a solver that failed), 2 if
/// some puzzles could not be read (as `solve` and `rate` do), else 0.
fn run_exit(end: &commands::run::RunEnd) -> ExitCode {
    if end.wrong > 0 {
        ExitCode::from(1)
    } else if end.interrupted {
        ExitCode::from(130)
    } else if end.errors > 0 {
        ExitCode::from(3)
    } else if end.invalid > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
