//! The `PUZZLE` argument of `harness candidates`, `cnf`, `count` and `hint`: a puzzle on one
//! line (any shape the line form reads: 81 characters for 9x9, 256 for 16x16, integers separated
//! by spaces, ...), or `-` to read the first puzzle of stdin (any supported format).

use crate::input::format::{Puzzle, PuzzleReader};
use anyhow::{anyhow, Context};
use solvers::Grid;

/// Reads the 9x9 puzzle named by `arg`, for the commands that take 9x9 grids only: as
/// [`read_board`], refusing another shape with a message naming it.
///
/// # Errors
/// As [`read_board`]; a puzzle of another shape ("a 16x16 puzzle: this command takes 9x9 grids
/// only").
pub fn read_puzzle(arg: &str) -> anyhow::Result<Grid> {
    read_board(arg)?
        .require_grid("this command")
        .map_err(|e| anyhow!(e))
}

/// Reads the puzzle named by `arg`, of any shape: the line itself (one character a cell with
/// `.` `0` `_` `-` `*` empty, or integers separated by spaces), or with `-` the first puzzle on
/// stdin (line, block, CSV or `.pls` form, and a `# shape` line before it). The givens are
/// checked for consistency.
///
/// # Errors
/// A puzzle of the wrong length, a bad character, a symbol given twice in a unit (the message
/// names the cell and why, after `puzzle argument:` for the line itself, after `stdin:LINE:` for
/// stdin), an empty stdin, or a failed read.
pub fn read_board(arg: &str) -> anyhow::Result<Puzzle> {
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
        Ok(p) => Ok(p),
        // The puzzle given on the command line: no file and no line to name.
        Err(e) if arg != "-" => Err(anyhow!("puzzle argument: {}", e.reason)),
        Err(e) => Err(e.into()),
    }
}
