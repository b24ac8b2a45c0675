//! `harness decode MODEL`: a SAT solver's model of the formula `harness cnf` writes, turned back
//! into a grid, so any SAT solver's answer can be read and checked.

use crate::cli::DecodeArgs;
use anyhow::{bail, Context};
use solvers::sat::{self, SatAnswer};
use std::io::Read;

/// Reads the solver's output (SAT-competition `s`/`v` lines, or minisat's result file) and
/// prints the grid: 81 digits on one line, or the block form with `--block`.
///
/// # Errors
/// An unreadable file, output in neither form, an unsatisfiable or unknown answer, or a model
/// that does not decode (a cell with no true digit or two), each naming the file.
pub fn decode(args: &DecodeArgs) -> anyhow::Result<()> {
    let mut text = String::new();
    if args.model == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading stdin")?;
    } else {
        if std::path::Path::new(&args.model).is_dir() {
            bail!("cannot read {}: it is a folder", args.model);
        }
        text = std::fs::read_to_string(&args.model)
            .with_context(|| format!("cannot read {}", args.model))?;
    }
    let name = if args.model == "-" {
        "stdin"
    } else {
        &args.model
    };
    let model = match sat::parse_sat_output(&text).map_err(|e| anyhow::anyhow!("{name}: {e}"))? {
        SatAnswer::Satisfiable(model) => model,
        SatAnswer::Unsatisfiable => {
            bail!("{name}: the solver says UNSATISFIABLE: the puzzle has no solution")
        }
        SatAnswer::Unknown => bail!("{name}: the solver gave up (UNKNOWN): no model to decode"),
    };
    let grid = sat::decode_model(&model).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    if args.block {
        print!("{}", grid.to_block());
    } else {
        println!("{}", grid.to_digits());
    }
    Ok(())
}
