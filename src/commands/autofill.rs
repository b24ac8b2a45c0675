//! `harness autofill`: fill a web page's Sudoku board in a real browser.

use crate::cli::AutofillArgs;
use crate::web::autofill::{self, Selectors};
use anyhow::Context;
use std::process::ExitCode;

/// Runs the autofill and prints what it did.
///
/// Exit status: 0 when the page holds the checked solution, 1 when it does not after typing,
/// 2 for a page without a board, a bad or unsolvable board, or a browser that cannot be started.
///
/// # Errors
/// Only for the async runtime failing to start; every other failure is printed and mapped to the
/// exit status above.
pub fn autofill(args: &AutofillArgs) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let sel = Selectors {
        table: args.table.clone(),
        cell: args.cell.clone(),
    };
    let result = rt.block_on(autofill::autofill(
        &args.url,
        args.webdriver.as_deref(),
        &sel,
        args.screenshot.as_ref(),
    ));
    match result {
        Ok(r) => {
            outln!("board read from {}: {}", args.url, r.puzzle.to_line())?;
            outln!(
                "typed {}, skipped {}; {}",
                crate::plumbing::human::plural(r.typed, "digit"),
                crate::plumbing::human::plural(r.readonly, "read-only cell"),
                match r.unique {
                    Some(true) => "the board has exactly one solution",
                    Some(false) => "the board has several solutions: filled the first found",
                    None => "uniqueness not settled in budget",
                }
            )?;
            outln!("page now holds: {}", r.solution.to_digits())?;
            if let Some(p) = &args.screenshot {
                outln!("screenshot: {}", p.display())?;
            }
            outln!("ok: the page holds the solution (checked)")?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            errln!("error: {e}");
            Ok(ExitCode::from(if e.is_mismatch() { 1 } else { 2 }))
        }
    }
}
