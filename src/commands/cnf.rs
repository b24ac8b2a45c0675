//! `harness cnf`: writes a puzzle's CNF encoding in DIMACS form, so any SAT solver can be run on
//! the same formula the `sat` solver gives varisat.

use crate::cli::CnfArgs;
use crate::commands::puzzle_arg::read_puzzle;
use crate::output::write_atomic;
use anyhow::Context;
use solvers::sat::{self, BASE_CLAUSES, VARS};
use std::io::Write;

/// Writes the DIMACS CNF of `args.puzzle` to `args.output` (atomically) or to stdout; a line on
/// stderr gives the header when writing to a file.
///
/// # Errors
/// A bad puzzle (exit 2), or a failed write.
pub fn cnf(args: &CnfArgs) -> anyhow::Result<()> {
    let grid = read_puzzle(&args.puzzle)?;
    match &args.output {
        Some(path) => {
            write_atomic(path, |w| Ok(sat::write_dimacs(&grid, w)?))?;
            eprintln!(
                "wrote {}: p cnf {VARS} {} ({BASE_CLAUSES} base clauses + {} givens)",
                path.display(),
                BASE_CLAUSES + grid.givens(),
                grid.givens()
            );
        }
        None => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            sat::write_dimacs(&grid, &mut out).context("writing stdout")?;
            out.flush().context("writing stdout")?;
        }
    }
    Ok(())
}
