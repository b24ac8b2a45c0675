//! `harness cnf`: writes a puzzle's CNF encoding in DIMACS form, so any SAT solver can be run on
//! the same formula the `sat` solver gives varisat, at every shape.

use crate::cli::CnfArgs;
use crate::commands::puzzle_arg::read_board;
use crate::plumbing::output::write_atomic;
use solvers::sat::{self, Encoding};
use std::path::Path;

/// Writes the DIMACS CNF of `args.puzzle` (any shape; the extended encoding over N³ variables,
/// byte for byte the 9x9 file of old for a 9x9 puzzle) to `args.output` (see [`write_atomic`])
/// or to stdout (`-`); a line on stderr gives the header when writing to a file.
///
/// # Errors
/// A bad puzzle (exit 2), or a failed write.
pub fn cnf(args: &CnfArgs) -> anyhow::Result<()> {
    let puzzle = read_board(&args.puzzle)?;
    let board = &puzzle.board;
    let path = args.output.as_deref().unwrap_or(Path::new("-"));
    let encoding = Encoding::Extended;
    write_atomic(path, |w| {
        Ok(sat::write_dimacs_board::<[i32; 0]>(
            encoding,
            board,
            &[],
            w,
        )?)
    })?;
    if path.as_os_str() != "-" {
        let shape = board.shape();
        let n = shape.side();
        let base = encoding.clauses_of(shape);
        errln!(
            "wrote {}: {shape}, p cnf {} {} ({base} base clauses + {} givens)",
            path.display(),
            n * n * n,
            base + board.givens(),
            board.givens()
        );
    }
    Ok(())
}
