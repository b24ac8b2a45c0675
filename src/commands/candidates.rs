//! `harness candidates`: the pencil-mark grid after naked and hidden singles (the
//! `domain-reduction` rules), and with `--trace` every deduction and guess of the solve.

use crate::cli::CandidatesArgs;
use crate::commands::puzzle_arg::read_puzzle;
use solvers::domain_reduction::{self, Step};
use solvers::{Budget, Grid, Status};
use std::fmt::Write as _;
use std::time::Duration;

/// Renders pencil marks the way players write them: each cell is a 3 x 3 block of positions,
/// digit `d` at row `(d - 1) / 3`, column `(d - 1) % 3`, a `.` where a digit is ruled out. A
/// filled cell shows its digit alone in the middle: ` 7 ` for a given, `*7*` for a digit placed
/// by a rule. Boxes are framed with `+`, `-` and `|`.
///
/// `candidates` holds 81 masks, bit `d - 1` for digit `d`; `grid` the filled cells (0 = empty);
/// `givens` the puzzle.
pub fn render_pencil_marks(givens: &Grid, grid: &Grid, candidates: &[u16; 81]) -> String {
    let border = "+-------------+-------------+-------------+\n";
    let mut out = String::with_capacity(2200);
    out.push_str(border);
    for row in 0..9 {
        for line in 0..3 {
            out.push('|');
            for col in 0..9 {
                let cell = row * 9 + col;
                out.push(' ');
                let v = grid.get(cell);
                if v != 0 {
                    if line == 1 {
                        let mark = if givens.get(cell) != 0 { ' ' } else { '*' };
                        let _ = write!(out, "{mark}{v}{mark}");
                    } else {
                        out.push_str("   ");
                    }
                } else {
                    for k in 0..3 {
                        let d = line * 3 + k + 1;
                        out.push(if candidates[cell] & (1 << (d - 1)) != 0 {
                            (b'0' + d as u8) as char
                        } else {
                            '.'
                        });
                    }
                }
                if col % 3 == 2 {
                    out.push_str(" |");
                }
            }
            out.push('\n');
        }
        if row % 3 == 2 {
            out.push_str(border);
        } else {
            out.push_str("|             |             |             |\n");
        }
    }
    out
}

/// Candidates from the givens alone: for each empty cell the digits none of its peers holds
/// (bit `d - 1` for digit `d`); a given keeps its own bit.
pub fn givens_candidates(puzzle: &Grid) -> [u16; 81] {
    let mut out = [0u16; 81];
    for (cell, m) in out.iter_mut().enumerate() {
        let v = puzzle.get(cell);
        if v != 0 {
            *m = 1 << (v - 1);
            continue;
        }
        let (r, c) = (cell / 9, cell % 9);
        let mut used = 0u16;
        for other in 0..81 {
            let (r2, c2) = (other / 9, other % 9);
            let peer = r2 == r || c2 == c || (r2 / 3 == r / 3 && c2 / 3 == c / 3);
            let w = puzzle.get(other);
            if peer && w != 0 {
                used |= 1 << (w - 1);
            }
        }
        *m = 0x1ff & !used;
    }
    out
}

/// Prints the pencil-mark grid after the rules; with `args.trace`, then the givens' own pencil
/// marks (where the trace starts), every event of the solve indented by the number of guesses
/// in force, and the solution.
///
/// # Errors
/// A bad puzzle (exit 2).
pub fn candidates(args: &CandidatesArgs) -> anyhow::Result<()> {
    let puzzle = read_puzzle(&args.puzzle)?;
    let r = domain_reduction::reduce(&puzzle);
    let placed = r.grid.givens() - puzzle.givens();
    let (naked, hidden) = r.steps.iter().fold((0, 0), |(n, h), s| match s {
        Step::NakedSingle { .. } => (n + 1, h),
        Step::HiddenSingle { .. } => (n, h + 1),
        _ => (n, h),
    });
    let empty: Vec<usize> = (0..81).filter(|&c| r.grid.get(c) == 0).collect();
    let marks: u32 = empty.iter().map(|&c| r.candidates[c].count_ones()).sum();
    outln!("puzzle   {}", puzzle.to_line())?;
    outln!("reduced  {}", r.grid.to_line())?;
    outln!(
        "{} givens; {placed} digits placed by the rules ({naked} naked singles, {hidden} hidden singles); {} cells left with {marks} candidates",
        puzzle.givens(),
        empty.len()
    )?;
    out!("{}", render_pencil_marks(&puzzle, &r.grid, &r.candidates))?;
    outln!("(` 7 ` a given, `*7*` placed by a rule, `1.3` candidates 1 and 3 of a cell)")?;
    if let Some(c) = r.contradiction {
        outln!("contradiction: {c}: the puzzle has no solution")?;
    } else if empty.is_empty() {
        outln!("solved by the rules alone, no guess needed")?;
    }
    if !args.trace {
        return Ok(());
    }
    let timeout = (args.timeout_ms > 0).then(|| Duration::from_millis(args.timeout_ms));
    let (out, steps) = domain_reduction::solve_traced(
        &puzzle,
        &Budget::unlimited()
            .timeout(timeout)
            .max_nodes(Some(args.max_nodes)),
    );
    outln!()?;
    outln!("the givens' pencil marks, before any rule (where the trace starts):")?;
    out!(
        "{}",
        render_pencil_marks(&puzzle, &puzzle, &givens_candidates(&puzzle))
    )?;
    outln!()?;
    outln!("trace: every deduction in order (rule and unit), then the guesses; indented by guesses in force")?;
    for s in &steps {
        outln!("{:indent$}{s}", "", indent = 2 + 2 * s.depth() as usize)?;
    }
    let st = out.stats;
    match out.status {
        Status::Solved => outln!(
            "solution {}  ({} nodes, {} guesses, {} backtracks, {} digits placed by rules)",
            out.grid().map(|g| g.to_line()).unwrap_or_default(),
            st.nodes,
            st.guesses,
            st.backtracks,
            st.propagations
        )?,
        Status::NoSolution => outln!(
            "no solution  ({} nodes, {} guesses, {} backtracks)",
            st.nodes,
            st.guesses,
            st.backtracks
        )?,
        Status::Timeout => outln!(
            "stopped: the budget ran out after {} nodes (--timeout-ms {}, --max-nodes {})",
            st.nodes,
            args.timeout_ms,
            args.max_nodes
        )?,
    }
    Ok(())
}
