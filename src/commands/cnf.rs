//! `harness cnf`: writes a puzzle's CNF encoding in DIMACS form, so any SAT solver can be run on
//! the same formula the `sat` solver gives varisat.

use crate::cli::CnfArgs;
use crate::commands::puzzle_arg::read_puzzle;
use crate::output::write_atomic;
use solvers::sat::{self, BASE_CLAUSES, VARS};
use std::path::Path;

/// Writes the DIMACS CNF of `args.puzzle` to `args.output` (see [`write_atomic`]) or to stdout (`-`); a line on
/// stderr gives the header when writing to a file.
///
/// # Errors
/// A bad puzzle (exit 2), or a failed write.
pub fn cnf(args: &CnfArgs) -> anyhow::Result<()> {
    let grid = read_puzzle(&args.puzzle)?;
    let path = args.output.as_deref().unwrap_or(Path::new("-"));
    write_atomic(path, |w| Ok(sat::write_dimacs(&grid, w)?))?;
    if path.as_os_str() != "-" {
        eprintln!(
            "wrote {}: p cnf {VARS} {} ({BASE_CLAUSES} base clauses + {} givens)",
            path.display(),
            BASE_CLAUSES + grid.givens(),
            grid.givens()
        );
    }
    Ok(())
}
