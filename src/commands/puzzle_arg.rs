//! The `PUZZLE` argument of `harness candidates`, `cnf` and `count`: an 81-character line, or `-`
//! to read the first puzzle of stdin (any supported format).

use crate::format::PuzzleReader;
use anyhow::{anyhow, Context};
use solvers::Grid;

/// Reads the puzzle named by `arg`: the line itself (`.` `0` `_` `-` `*` empty), or with `-` the
/// first puzzle on stdin (line, block or CSV form). The givens are checked for consistency.
///
/// # Errors
/// A puzzle of the wrong length, a bad character, a digit given twice in a unit (the message
/// names the cell and why, after `puzzle argument:` for the line itself, after `stdin:LINE:` for
/// stdin), an empty stdin, or a failed read.
pub fn read_puzzle(arg: &str) -> anyhow::Result<Grid> {
    let (mut reader, source) = if arg == "-" {
        (
            PuzzleReader::new(std::io::stdin(), "stdin").context("reading stdin")?,
            "stdin",
        )
    } else {
        (
            PuzzleReader::from_text(arg, "PUZZLE"),
            "the PUZZLE argument",
        )
    };
    let entry = reader.next();
    if let Some(e) = reader.io_error() {
        return Err(e).context("reading stdin");
    }
    let entry = entry.ok_or_else(|| anyhow!("no puzzle in {source}"))?;
    match entry.puzzle {
        Ok(p) => p.require_grid("this command").map_err(|e| anyhow!(e)),
        // The puzzle given on the command line: no file and no line to name.
        Err(e) if arg != "-" => Err(anyhow!("puzzle argument: {}", e.reason)),
        Err(e) => Err(e.into()),
    }
}
