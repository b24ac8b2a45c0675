//! `harness cnf`: writes a puzzle's CNF encoding in DIMACS form, so any SAT solver can be run on
//! the same formula the `sat` solver gives varisat, at every shape.

use crate::cli::CnfArgs;
use crate::commands::puzzle_arg::read_board;
use crate::plumbing::output::write_atomic;
use solvers::sat::{self, CnfEncoding, Encoding, Formula};
use std::path::Path;

/// Writes the DIMACS CNF of `args.puzzle` (any shape) in `args.encoding` (see
/// [`solvers::sat::Formula`]; `full-pairwise` is the extended encoding over N³ variables, byte
/// for byte the file of old) to `args.output` (see [`write_atomic`]) or to stdout (`-`); a line
/// on stderr gives the header when writing to a file.
///
/// # Errors
/// A bad puzzle (exit 2), or a failed write.
pub fn cnf(args: &CnfArgs) -> anyhow::Result<()> {
    let puzzle = read_board(&args.puzzle)?;
    let board = &puzzle.board;
    let path = args.output.as_deref().unwrap_or(Path::new("-"));
    let shape = board.shape();
    let encoding = args.encoding.for_shape(shape);
    let (vars, clauses, note) = if encoding == CnfEncoding::FULL_PAIRWISE {
        write_atomic(path, |w| {
            Ok(sat::write_dimacs_board::<[i32; 0]>(
                Encoding::Extended,
                board,
                &[],
                w,
            )?)
        })?;
        let n = shape.side();
        let base = Encoding::Extended.clauses_of(shape);
        (
            n * n * n,
            base + board.givens(),
            format!("{base} base clauses + {} givens", board.givens()),
        )
    } else {
        let formula = Formula::new(encoding, board);
        write_atomic(path, |w| Ok(formula.write_dimacs::<[i32; 0]>(&[], w)?))?;
        (
            formula.variables(),
            formula.clauses(),
            format!(
                "{} cell variables + {} auxiliary",
                formula.cell_variables(),
                formula.variables() - formula.cell_variables()
            ),
        )
    };
    if path.as_os_str() != "-" {
        errln!(
            "wrote {}: {shape}, {encoding} encoding, p cnf {vars} {clauses} ({note})",
            path.display(),
        );
    }
    Ok(())
}
