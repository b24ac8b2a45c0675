//! The `PUZZLE` argument of `harness candidates`, `cnf`, `count` and `hint`: a puzzle on one
//! line (any shape the line form reads: 81 characters for 9x9, 256 for 16x16, integers separated
//! by spaces, ...), or `-` to read the first puzzle of stdin (any supported format); and the
//! choice of a built-in solver for a shape.

use crate::format::{Puzzle, PuzzleReader};
use anyhow::{anyhow, Context};
use solvers::engine::Caps;
use solvers::{Grid, Shape, SolverKind};
use std::sync::OnceLock;

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

/// The built-in solver `harness solve` and `harness count` use for puzzles of `shape` when
/// none is named: the one policy, measured (docs/solvers-and-counters.md, "The default solver
/// per shape"). 9x9: the champion ([`SolverKind::CHAMPION`]). Every other shape, Sudoku of any
/// boxes and Latin squares: `cdcl`, whose clause learning solves and counts to 2 the punched and
/// the unique puzzles from 16x16 up where the DFS and exact-cover solvers run out of time
/// (`dlx`, the generators' counter, ran out of 120 s on a 25x25 puzzle `cdcl` solves in a
/// millisecond).
pub fn best_solver_for(shape: Shape) -> SolverKind {
    if shape.is_classic() {
        SolverKind::CHAMPION
    } else {
        SolverKind::Cdcl
    }
}

/// The capabilities of every built-in solver, in [`SolverKind::ALL`] order (read once).
fn builtin_caps() -> &'static [Caps] {
    static CAPS: OnceLock<Vec<Caps>> = OnceLock::new();
    CAPS.get_or_init(|| SolverKind::ALL.iter().map(|k| k.caps()).collect())
}

/// The built-in solvers that take `shape`, in [`SolverKind::ALL`] order.
pub fn solvers_taking(shape: Shape) -> Vec<SolverKind> {
    SolverKind::ALL
        .iter()
        .zip(builtin_caps())
        .filter(|(_, c)| c.shapes.takes(shape))
        .map(|(&k, _)| k)
        .collect()
}

/// Why solver `name` is refused on puzzles of `shape`, naming the built-in solvers that take it
/// (or saying none does).
pub fn refusal(name: &str, shape: Shape) -> String {
    refusal_among(name, shape, solvers_taking(shape))
}

/// [`refusal`] for a count: names only the built-in solvers that take `shape` and count.
pub fn counting_refusal(name: &str, shape: Shape) -> String {
    let mut taking = solvers_taking(shape);
    taking.retain(|k| k.caps().counts);
    refusal_among(name, shape, taking)
}

fn refusal_among(name: &str, shape: Shape, taking: Vec<SolverKind>) -> String {
    if taking.is_empty() {
        format!("solver {name} does not take {shape} puzzles, and no built-in solver does")
    } else {
        let names: Vec<&str> = taking.iter().map(|k| k.name()).collect();
        format!(
            "solver {name} does not take {shape} puzzles; solvers that do: {}",
            names.join(", ")
        )
    }
}
