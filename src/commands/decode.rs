//! `harness decode MODEL`: a SAT solver's model of the formula `harness cnf` writes, turned back
//! into a grid of any shape, so any SAT solver's answer can be read and checked.

use crate::cli::DecodeArgs;
use anyhow::{bail, Context};
use solvers::sat::{self, SatAnswer};
use std::io::Read;

/// Reads the solver's output (SAT-competition `s`/`v` lines, or minisat's result file) and
/// prints the grid of any shape (that of `--puzzle`, else `--shape`, else read from the model).
/// With `--puzzle`, the model is read in the puzzle's formula of `--encoding` (a reduced
/// encoding numbers only the candidates left, [`solvers::sat::Formula::decode`]), and the grid
/// is checked against the givens too. The grid is printed: on one line as the line
/// form writes it (81 digits for 9x9), or N rows with `--block`. The grid is then checked with
/// the checker every command uses ([`crate::verify::check_board`]: every row, column and box
/// holds each symbol once); returns false, after saying why on stderr, when it breaks a unit.
///
/// # Errors
/// An unreadable file, output in neither form, an unsatisfiable or unknown answer, or a model
/// that does not decode (a cell with no true digit or two), each naming the file.
pub fn decode(args: &DecodeArgs) -> anyhow::Result<bool> {
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
    let puzzle = match &args.puzzle {
        Some(p) => Some(crate::commands::puzzle_arg::read_board(p)?.board),
        None => None,
    };
    let shape = match (&puzzle, args.shape) {
        (Some(p), _) => p.shape(),
        (None, Some(shape)) => shape,
        (None, None) => shape_of_model(&model),
    };
    let encoding = args.encoding.for_shape(shape);
    let board = match &puzzle {
        Some(p) if encoding != solvers::sat::CnfEncoding::FULL_PAIRWISE => {
            solvers::sat::Formula::new(encoding, p).decode(&model)
        }
        _ => sat::decode_model_board(shape, &model),
    }
    .map_err(|e| {
        let hint = if puzzle.is_none() {
            " (a formula of a reduced encoding, `harness cnf`'s default at shapes other than \
             9x9, numbers its puzzle's candidates: give the puzzle with --puzzle)"
        } else {
            ""
        };
        anyhow::anyhow!("{name}: {e}{hint}")
    })?;
    if args.block {
        out!("{}", crate::input::format::board_block(&board))?;
    } else {
        outln!("{}", crate::input::format::board_line(&board))?;
    }
    let empty = solvers::Board::empty(shape);
    let givens = puzzle.as_ref().unwrap_or(&empty);
    if let Err(w) = crate::verify::check_board(givens, &board, None) {
        errln!("WRONG: {name}: the model's grid is no {shape} solution: {w}");
        return Ok(false);
    }
    Ok(true)
}

/// The shape of the grid a model encodes, read from its highest variable: N³ for a side N
/// (`harness cnf`'s variables are `cell * N + symbol`, 1..=N³, and every solver's model lists
/// them all). 9x9 when that variable is 729 or no cube (a 9x9 formula of another encoding, with
/// auxiliary variables). The boxes do not change the variables: a side that is a square reads
/// with square boxes, another as a Latin square of that side.
fn shape_of_model(model: &[i32]) -> solvers::Shape {
    let top = model
        .iter()
        .map(|l| l.unsigned_abs() as usize)
        .max()
        .unwrap_or(0);
    let side = (1..=solvers::MAX_SIDE).find(|n| n * n * n >= top);
    match side {
        Some(n) if n * n * n == top && n != 9 => solvers::Shape::square_for_side(n)
            .or_else(|| solvers::Shape::latin(n).ok())
            .unwrap_or(solvers::Shape::CLASSIC),
        _ => solvers::Shape::CLASSIC,
    }
}
