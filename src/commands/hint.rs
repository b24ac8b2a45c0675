//! `harness hint PUZZLE`: the next step a person would take on a board, as a teacher would point
//! it out: the technique, its level and cost, the units, cells and candidates that prove it, and
//! what it places or eliminates, over the board's pencil marks.

use crate::cli::HintArgs;
use crate::commands::candidates::render_pencil_marks;
use crate::commands::puzzle_arg::read_puzzle;
use crate::input::refusal::{several_solutions_refusal, NO_SOLUTION_REFUSAL};
use solvers::cell_name;
use solvers::logic::{self, Board, RateError, Step};

/// The hint as text: one line naming the step, then its parts, one per line.
pub fn describe(step: &Step) -> String {
    let t = step.technique;
    let mut s = format!(
        "next step: {} ({}, cost {})\n  {step}\n",
        t.name(),
        t.level(),
        t.score()
    );
    // One line a list that is not empty: its label, then its items joined by `sep`.
    let mut line = |label: &str, items: Vec<String>, sep: &str| {
        if !items.is_empty() {
            s.push_str(&format!("  {label}: {}\n", items.join(sep)));
        }
    };
    let names = |v: &[u8]| v.iter().map(|&c| cell_name(c as usize)).collect();
    let texts = |v: &[_]| v.iter().map(ToString::to_string).collect();
    line(
        "units",
        step.units.iter().map(ToString::to_string).collect(),
        ", ",
    );
    line("cells", names(&step.cells), " ");
    line("candidates", texts(&step.candidates), " ");
    line("fins / links", texts(&step.fins), " ");
    // `r3c1=8` for a placement, `r3c1<>8` for an elimination.
    let marks = |cells: Vec<(u8, u8)>, op: &str| {
        cells
            .into_iter()
            .map(|(c, d)| format!("{}{op}{d}", cell_name(c as usize)))
            .collect()
    };
    let places = step.placements.iter().map(|p| (p.cell, p.digit)).collect();
    line("places", marks(places, "="), ", ");
    let removed = step
        .eliminations
        .iter()
        .map(|e| (e.cell, e.digit))
        .collect();
    line("eliminates", marks(removed, "<>"), ", ");
    s
}

/// How `harness hint` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintEnd {
    /// The next step was printed.
    Step,
    /// The board is full: nothing left to do.
    Full,
    /// The board has more than one solution: refused, as `harness rate` refuses it (exit 1).
    Several,
}

/// Prints the board's pencil marks and its next step; refuses a board of several solutions
/// ([`several_solutions_refusal`]): no step leads to one answer there.
///
/// # Errors
/// A bad puzzle, or a board without solution ([`NO_SOLUTION_REFUSAL`], exit 2).
pub fn hint(args: &HintArgs) -> anyhow::Result<HintEnd> {
    let grid = read_puzzle(&args.puzzle)?;
    let step = match logic::hint(&grid) {
        Ok(s) => s,
        Err(RateError::NoSolution) => anyhow::bail!(NO_SOLUTION_REFUSAL),
        Err(RateError::MultipleSolutions) => {
            errln!("{}", several_solutions_refusal());
            return Ok(HintEnd::Several);
        }
        Err(e) => return Err(e.into()),
    };
    let Some(step) = step else {
        outln!("the board is full: nothing left to do")?;
        return Ok(HintEnd::Full);
    };
    if !args.quiet {
        let b = Board::new(&grid);
        out!("{}", render_pencil_marks(&grid, &grid, &b.marks()))?;
    }
    out!("{}", describe(&step))?;
    Ok(HintEnd::Step)
}
