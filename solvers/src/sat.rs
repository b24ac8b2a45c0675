//! `sat`: Sudoku as a CNF formula, solved by the `varisat` CDCL SAT solver.
//!
//! Source of the encoding: I. Lynce and J. Ouaknine, "Sudoku as a SAT Problem", Proc. 9th
//! International Symposium on Artificial Intelligence and Mathematics (AIMATH), 2006: the
//! *extended* encoding, [`DEFAULT_ENCODING`]. The [`encoding`](Encoding) module defines it
//! beside the minimal and efficient encodings of the same paper and the extended one plus
//! box-line clauses; the solvers `sat-minimal`, `sat-efficient`, `sat-extended` and
//! `sat-redundant` ([`Sat::with_encoding`]) run each, and docs/sat.md measures what each buys.
//! The extended encoding was the fastest on 17-clue and top1465, level with the redundant one on
//! forum-hardest and 1.5 times slower than the minimal one on Kaggle (all solved by naked singles),
//! so `sat` uses it.
//!
//! ## The encoding
//! One variable x(r, c, d) per cell and digit, true when cell (r, c) holds d: 729 variables,
//! numbered as in DIMACS by [`var`]: `81 r + 9 c + d` with r, c in 0..9 and d in 1..=9, so
//! 1..=729. The clauses ([`for_each_base_clause`], in this order):
//! - each cell holds **at least one** digit: 81 clauses of 9 literals;
//! - each cell holds **at most one** digit: 81 x 36 = 2,916 binary clauses (-x(c,d) v -x(c,e));
//! - each digit appears **at least once** in every row, column and box: 3 x 81 = 243 clauses of
//!   9 literals;
//! - each digit appears **at most once** in every row, column and box: 3 x 81 x 36 = 8,748
//!   binary clauses.
//!
//! That is [`BASE_CLAUSES`] = 11,988 clauses before the givens, then one unit clause per given.
//! The minimal encoding drops the cell "at most one" and unit "at least once" clauses and is
//! still correct, but the "at least once" clauses are what let plain unit propagation find
//! **hidden singles**: once 8 of the 9 places of a digit in a row are false, the row's clause
//! (x1 v ... v x9) becomes unit and forces the ninth. Without them unit propagation finds only
//! naked singles (through the cell "at least one" clauses) and the solver must guess where a
//! player would deduce.
//!
//! ## Every shape
//! A grid of any [`Shape`] (side N: boxes of any size, or a Latin square) has N³ variables
//! ([`var_of`]: `cell * N + s`) and the same four encodings written over its units
//! ([`Encoding::for_each_clause_of`], sizes in [`Encoding::clauses_of`]).
//! [`Solver::count`] takes 9x9 down the path below, unchanged; any other shape is solved
//! on a fresh varisat solver holding the puzzle's formula in the encoding the process's
//! `--encoding` picks ([`choice`]; by default `reduced-pairwise`, the givens propagated away
//! first: [`Formula`]), and counted with blocking clauses without an activation variable (the
//! solver is dropped after the count). `sat-minimal` ... `sat-redundant` keep their family's
//! N³-variable formula with the givens as unit clauses. [`write_dimacs_board`] and
//! [`decode_model_board`] are the DIMACS file and its
//! model at any shape.
//!
//! ## Givens: assumptions on a clause database built once per thread
//! By default ([`GivenMode::Assumptions`]) each [`Sat`] instance (one per thread: the harness
//! opens one session per thread) keeps one varisat solver loaded with the 11,988 base clauses, and each puzzle
//! passes its givens as *assumptions* (`Solver::assume`), which varisat drops after the call.
//! Clauses varisat learns are consequences of the base formula alone (assumptions act as
//! decisions), so they stay valid, and reused, for the next puzzle. The other mode,
//! [`GivenMode::UnitClauses`], builds a fresh solver per puzzle with the givens as unit clauses.
//! On the first 1,000 puzzles of the 17-clue collection (one thread), assumptions were faster: see
//! docs/solvers-and-counters.md for the figures. Effort with assumptions depends on the puzzles the
//! thread solved before (learned clauses, variable activity), so it is not reproducible puzzle by
//! puzzle; the unit-clause mode is.
//!
//! ## Counting
//! [`Solver::count`] adds a blocking clause after each solution found (the negation of its 81
//! true literals), guarded by a fresh *activation* variable `a` that is assumed true for this
//! count only: (-a v -x1 v ... v -x81). At the end the unit clause (-a) retires every blocking
//! clause of that count. The kept solver is rebuilt after 1,024 counts, so activation
//! variables do not pile up.
//!
//! ## Counters
//! varisat 0.2 exposes no statistics (decisions, conflicts and propagations are private), so:
//! - **nodes**: calls of varisat's `solve` (1 for a solve; for a count, one per solution found
//!   plus the final unsatisfiable call);
//! - **guesses**, **backtracks**, **propagations**: 0 (not observable).
//!
//! ## Budget
//! varisat 0.2 cannot be interrupted or limited: its public API has no conflict limit, callback
//! or terminate flag (`SolverError::Interrupted` exists but only a proof processor can raise it,
//! and that turns on slow self-checking). So the budget is checked before every call of `solve`;
//! a call that returns after the deadline is **flagged**: the outcome is [`Status::Timeout`](crate::Status::Timeout) (the
//! answer is dropped, as another solver would have stopped), so an overrun never counts as a
//! solve within budget. The overrun itself is bounded only by the difficulty of one 729-variable
//! formula: the slowest of the first 1,000 17-clue puzzles took a few ms (see
//! docs/solvers-and-counters.md).

use crate::engine::{BudgetMode, Caps, NodeUnit, Shapes};
use crate::{cell_name, Board, Budget, Count, Grid, Outcome, Shape, Solver, Stats};
use std::io::{self, Write};
use std::sync::OnceLock;
use varisat::{ExtendFormula, Lit, Var};

mod encoding;
mod formula;
pub use encoding::Encoding;
pub use formula::{
    choice, choice_description, default_for, set_choice, Amo, CnfEncoding, EncodingChoice, Formula,
};

/// Number of variables: x(r, c, d) for 81 cells x 9 digits.
pub const VARS: usize = 729;

/// Number of clauses before the givens: 81 + 2,916 + 243 + 8,748.
pub const BASE_CLAUSES: usize = 11_988;

/// The DIMACS variable (1..=729) of "cell `cell` (0..81, row-major) holds `digit` (1..=9)":
/// `81 r + 9 c + d` = `9 cell + d`.
#[inline]
pub fn var(cell: usize, digit: u8) -> i32 {
    (cell * 9 + digit as usize) as i32
}

/// The DIMACS variable of "cell `cell` (row-major) of a grid of `shape` holds `symbol`
/// (1..=N)": `cell * N + symbol`, 1..=N³ (for 9x9 the same as [`var`]).
#[inline]
pub fn var_of(shape: Shape, cell: usize, symbol: usize) -> i32 {
    (cell * shape.side() + symbol) as i32
}

/// Calls `emit` with each of the [`BASE_CLAUSES`] clauses, as DIMACS literals (a positive number
/// is a variable of [`var`], a negative one its negation), in the order of the module docs.
pub fn for_each_base_clause(emit: impl FnMut(&[i32])) {
    Encoding::Extended.for_each_clause(emit)
}

/// Writes `puzzle`'s formula in DIMACS CNF: a comment block, the header `p cnf 729 C` with
/// C = 11,988 + the number of givens, the base clauses, then one unit clause per given. Any
/// external SAT solver can read it; a model's true variables v in 1..=729 decode as cell
/// `(v - 1) / 9`, digit `(v - 1) % 9 + 1` ([`decode_model`]).
///
/// # Errors
/// Those of `out`.
pub fn write_dimacs(puzzle: &Grid, out: &mut dyn Write) -> io::Result<()> {
    write_dimacs_with::<[i32; 0]>(puzzle, &[], out)
}

/// [`write_dimacs`] with `extra` clauses (DIMACS literals over the same 729 variables, without
/// the terminating 0) after the givens, counted in the header: the blocking clauses an external
/// SAT solver needs to find a puzzle's next solution. With no extra clauses the output is
/// byte for byte that of [`write_dimacs`].
///
/// # Errors
/// Those of `out`.
pub fn write_dimacs_with<C: AsRef<[i32]>>(
    puzzle: &Grid,
    extra: &[C],
    out: &mut dyn Write,
) -> io::Result<()> {
    write_dimacs_encoded(Encoding::Extended, puzzle, extra, out)
}

/// [`write_dimacs_with`] in any of the four encodings: the header `p cnf 729 C` with C =
/// [`Encoding::clauses`] + the givens + `extra`, the encoding's clauses in the order of
/// [`Encoding::for_each_clause`], the givens as unit clauses, then `extra`.
///
/// # Errors
/// Those of `out`.
pub fn write_dimacs_encoded<C: AsRef<[i32]>>(
    encoding: Encoding,
    puzzle: &Grid,
    extra: &[C],
    out: &mut dyn Write,
) -> io::Result<()> {
    let givens = puzzle.givens();
    let base = encoding.clauses();
    writeln!(out, "c Sudoku {}", puzzle.to_line())?;
    let source = match encoding {
        Encoding::Redundant => "extended encoding (Lynce & Ouaknine 2006) + box-line clauses",
        Encoding::Minimal => "minimal encoding (Lynce & Ouaknine 2006)",
        Encoding::Efficient => "efficient encoding (Lynce & Ouaknine 2006)",
        Encoding::Extended => "extended encoding (Lynce & Ouaknine 2006)",
    };
    writeln!(
        out,
        "c {source}: x(r,c,d) = 81r + 9c + d, r,c in 0..9, d in 1..9"
    )?;
    if extra.is_empty() {
        writeln!(
            out,
            "c {base} base clauses + {givens} unit clauses for the givens"
        )?;
    } else {
        writeln!(
            out,
            "c {base} base clauses + {givens} unit clauses for the givens + {} blocking clauses",
            extra.len()
        )?;
    }
    writeln!(out, "p cnf {VARS} {}", base + givens + extra.len())?;
    out.write_all(base_clauses_text(encoding).as_bytes())?;
    for (cell, &d) in puzzle.cells().iter().enumerate() {
        if d != 0 {
            writeln!(out, "{} 0", var(cell, d))?;
        }
    }
    let mut line = String::with_capacity(512);
    for clause in extra {
        line.clear();
        for l in clause.as_ref() {
            line.push_str(&l.to_string());
            line.push(' ');
        }
        line.push('0');
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The clauses of `encoding` as DIMACS lines (`-1 -2 0\n` ...), built once.
fn base_clauses_text(encoding: Encoding) -> &'static str {
    static TEXT: [OnceLock<String>; 4] = [const { OnceLock::new() }; 4];
    TEXT[encoding as usize].get_or_init(|| {
        let mut text = String::with_capacity(260 * 1024);
        encoding.for_each_clause(|clause| {
            for l in clause {
                text.push_str(&l.to_string());
                text.push(' ');
            }
            text.push_str("0\n");
        });
        text
    })
}

/// The values a model (DIMACS literals, positive = true) gives variables `1..=vars`, indexed
/// by variable: 1 true, -1 false, 0 not listed. Zeros and variables above `vars` are skipped.
///
/// # Errors
/// The variable when the model makes one both true and false.
fn model_values(model: &[i32], vars: usize) -> Result<Vec<i8>, String> {
    let mut value = vec![0i8; vars + 1];
    for &l in model {
        let v = l.unsigned_abs() as usize;
        if v == 0 || v > vars {
            continue;
        }
        let sign = if l > 0 { 1 } else { -1 };
        if value[v] == -sign {
            return Err(format!("variable {v} is both true and false in the model"));
        }
        value[v] = sign;
    }
    Ok(value)
}

/// Reads a grid back from a model of the formula of [`write_dimacs`]: `model` lists DIMACS
/// literals (positive = true), as a SAT solver's `v` lines or minisat's result file give them.
/// Zeros (line terminators) are skipped, variables above [`VARS`] are ignored (another encoding's
/// auxiliary variables) and a variable that is not listed counts as false.
///
/// # Errors
/// A message naming the cell (`r1c1`) when a cell has no true digit or more than one, or the
/// variable when the model makes one both true and false.
pub fn decode_model(model: &[i32]) -> Result<Grid, String> {
    let value = model_values(model, VARS)?;
    let mut cells = [0u8; 81];
    for (cell, slot) in cells.iter_mut().enumerate() {
        for d in 1..=9u8 {
            if value[var(cell, d) as usize] == 1 {
                if *slot != 0 {
                    return Err(format!(
                        "cell {} has two true digits in the model, {} and {d}",
                        cell_name(cell),
                        *slot
                    ));
                }
                *slot = d;
            }
        }
        if *slot == 0 {
            return Err(format!(
                "cell {} has no true digit in the model",
                cell_name(cell)
            ));
        }
    }
    Ok(Grid::from_cells(cells).expect("digits 1..=9"))
}

/// [`write_dimacs_encoded`] for a grid of any shape: the header `p cnf N³ C` with C =
/// [`Encoding::clauses_of`] + the givens + `extra`, the clauses of
/// [`Encoding::for_each_clause_of`], the givens as unit clauses (over [`var_of`]), then `extra`.
/// A 9x9 board gives byte for byte the file of [`write_dimacs_encoded`].
///
/// # Errors
/// Those of `out`.
pub fn write_dimacs_board<C: AsRef<[i32]>>(
    encoding: Encoding,
    puzzle: &Board,
    extra: &[C],
    out: &mut dyn Write,
) -> io::Result<()> {
    if let Some(grid) = puzzle.to_grid() {
        return write_dimacs_encoded(encoding, &grid, extra, out);
    }
    let shape = puzzle.shape();
    let n = shape.side();
    let givens = puzzle.givens();
    let base = encoding.clauses_of(shape);
    writeln!(
        out,
        "c {shape} grid, {} encoding (Lynce & Ouaknine 2006{})",
        encoding.name(),
        if encoding == Encoding::Redundant {
            " + box-line clauses"
        } else {
            ""
        }
    )?;
    writeln!(
        out,
        "c x(cell,s) = cell * {n} + s, cell = {n} row + column in 0..{}, s in 1..{n}",
        n * n
    )?;
    writeln!(
        out,
        "c {base} base clauses + {givens} unit clauses for the givens{}",
        if extra.is_empty() {
            String::new()
        } else {
            format!(" + {} blocking clauses", extra.len())
        }
    )?;
    writeln!(out, "p cnf {} {}", n * n * n, base + givens + extra.len())?;
    let mut line = String::with_capacity(8 * n + 8);
    let mut put = |clause: &[i32], out: &mut dyn Write| -> io::Result<()> {
        line.clear();
        for l in clause {
            line.push_str(&l.to_string());
            line.push(' ');
        }
        line.push_str("0\n");
        out.write_all(line.as_bytes())
    };
    let mut result = Ok(());
    encoding.for_each_clause_of(shape, |c| {
        if result.is_ok() {
            result = put(c, out);
        }
    });
    result?;
    for (cell, &s) in puzzle.cells().iter().enumerate() {
        if s != 0 {
            put(&[var_of(shape, cell, s as usize)], out)?;
        }
    }
    for clause in extra {
        put(clause.as_ref(), out)?;
    }
    Ok(())
}

/// [`decode_model`] for a grid of `shape`: true variables v in 1..=N³ are cell `(v - 1) / N`,
/// symbol `(v - 1) % N + 1`; variables above N³ are ignored.
///
/// # Errors
/// As [`decode_model`], naming the cell `rRcC`.
pub fn decode_model_board(shape: Shape, model: &[i32]) -> Result<Board, String> {
    if shape.is_classic() {
        return decode_model(model).map(Board::from);
    }
    let n = shape.side();
    let value = model_values(model, n * n * n)?;
    let mut cells = vec![0; n * n];
    for (cell, slot) in cells.iter_mut().enumerate() {
        for s in 1..=n {
            if value[var_of(shape, cell, s) as usize] == 1 {
                if *slot != 0 {
                    return Err(format!(
                        "cell {} has two true symbols in the model, {} and {s}",
                        crate::board_cell_name(shape, cell),
                        *slot
                    ));
                }
                *slot = s as crate::Symbol;
            }
        }
        if *slot == 0 {
            return Err(format!(
                "cell {} has no true symbol in the model",
                crate::board_cell_name(shape, cell)
            ));
        }
    }
    Board::new(shape, cells).map_err(|e| e.to_string())
}

/// What a SAT solver said, as read by [`parse_sat_output`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SatAnswer {
    /// Satisfiable, with the model's literals (without the terminating 0).
    Satisfiable(Vec<i32>),
    /// Unsatisfiable: the puzzle has no solution.
    Unsatisfiable,
    /// The solver gave up (`s UNKNOWN`, minisat's `INDET`).
    Unknown,
}

/// Reads a SAT solver's answer in either common form:
/// - SAT-competition output (cadical, picosat, cryptominisat5, kissat on stdout): one
///   `s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN` line, the model on `v` lines ending
///   with `0`; comment lines (`c ...`) and any other lines are ignored;
/// - minisat's result file: a first line `SAT`, `UNSAT` or `INDET`, then the model's literals
///   ending with `0`.
///
/// # Errors
/// A message naming the line (1-based) and what it held: no `s` line, two `s` lines that
/// disagree, an unknown `s` answer, a literal that is not a number, or a satisfiable answer
/// without a model.
pub fn parse_sat_output(text: &str) -> Result<SatAnswer, String> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    if let Some(head @ ("SAT" | "UNSAT" | "INDET")) = first {
        let answer = match head {
            "UNSAT" => return Ok(SatAnswer::Unsatisfiable),
            "INDET" => return Ok(SatAnswer::Unknown),
            _ => SatAnswer::Satisfiable(Vec::new()),
        };
        let mut model = Vec::new();
        let mut seen_head = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if !seen_head {
                seen_head = !line.is_empty();
                continue;
            }
            read_literals(line, i + 1, &mut model)?;
        }
        return with_model(answer, model);
    }
    let mut status: Option<(SatAnswer, usize)> = None;
    let mut model = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if let Some(rest) = line.strip_prefix("s ") {
            let answer = match rest.trim() {
                "SATISFIABLE" => SatAnswer::Satisfiable(Vec::new()),
                "UNSATISFIABLE" => SatAnswer::Unsatisfiable,
                "UNKNOWN" => SatAnswer::Unknown,
                other => {
                    return Err(format!(
                        "line {}: unknown answer {:?} (expected s SATISFIABLE, s UNSATISFIABLE or s UNKNOWN)",
                        i + 1,
                        clip(other)
                    ))
                }
            };
            match &status {
                Some((seen, at)) if *seen != answer => {
                    return Err(format!(
                        "line {}: {:?} contradicts the s line on line {at}",
                        i + 1,
                        clip(line)
                    ))
                }
                Some(_) => {}
                None => status = Some((answer, i + 1)),
            }
        } else if let Some(rest) =
            line.strip_prefix("v ")
                .or(if line == "v" { Some("") } else { None })
        {
            read_literals(rest, i + 1, &mut model)?;
        }
    }
    match status {
        Some((answer, _)) => with_model(answer, model),
        None => Err(format!(
            "no s line (s SATISFIABLE / s UNSATISFIABLE) in the output{}",
            match text.lines().map(str::trim).find(|l| !l.is_empty()) {
                Some(l) => format!("; its first line: {:?}", clip(l)),
                None => "; the output is empty".to_string(),
            }
        )),
    }
}

/// Adds the literals of one model line to `model`, stopping at `0`.
fn read_literals(line: &str, number: usize, model: &mut Vec<i32>) -> Result<(), String> {
    for word in line.split_whitespace() {
        let l: i32 = word
            .parse()
            .map_err(|_| format!("line {number}: {:?} is not a literal", clip(word)))?;
        if l == 0 {
            break;
        }
        model.push(l);
    }
    Ok(())
}

fn with_model(answer: SatAnswer, model: Vec<i32>) -> Result<SatAnswer, String> {
    match answer {
        SatAnswer::Satisfiable(_) if model.is_empty() => {
            Err("satisfiable, but no model was written (v lines)".to_string())
        }
        SatAnswer::Satisfiable(_) => Ok(SatAnswer::Satisfiable(model)),
        other => Ok(other),
    }
}

/// At most 100 characters of `text`, for error messages.
fn clip(text: &str) -> String {
    match text.char_indices().nth(100) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

/// How the givens reach varisat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GivenMode {
    /// One solver per thread holding the base clauses; givens passed as assumptions (default:
    /// the faster, measured).
    #[default]
    Assumptions,
    /// A fresh solver per puzzle: base clauses plus one unit clause per given (reproducible).
    UnitClauses,
}

/// The encoding `sat` uses by default: the fastest of the four overall, measured (docs/sat.md).
pub const DEFAULT_ENCODING: Encoding = Encoding::Extended;

/// The SAT solver. Counts solutions. In [`GivenMode::Assumptions`] it keeps its varisat solver
/// from one puzzle to the next (one instance per thread).
#[derive(Default)]
pub struct Sat {
    /// How the givens are passed.
    mode: GivenMode,
    /// The CNF encoding; `None`: [`DEFAULT_ENCODING`], under the name `sat`.
    encoding: Option<Encoding>,
    /// The kept solver ([`GivenMode::Assumptions`]), built on first use.
    cached: Option<Box<Cached>>,
}

impl Sat {
    /// The solver passing givens by `mode`, on `encoding` (`None`: [`DEFAULT_ENCODING`], under
    /// the name `sat`).
    pub fn new(mode: GivenMode, encoding: Option<Encoding>) -> Sat {
        Sat {
            mode,
            encoding,
            cached: None,
        }
    }

    /// The solver on `encoding`, named by [`Encoding::solver_name`] (`sat-minimal`, ...).
    pub fn with_encoding(encoding: Encoding) -> Sat {
        Sat::new(GivenMode::default(), Some(encoding))
    }

    /// How the givens are passed.
    pub fn mode(&self) -> GivenMode {
        self.mode
    }

    /// The encoding this solver uses.
    pub fn encoding(&self) -> Encoding {
        self.encoding.unwrap_or(DEFAULT_ENCODING)
    }

    /// The scalable encoding `sat` uses for puzzles of `shape` when it is not the extended
    /// encoding of old: the one the process's [`choice`] (`--encoding`, default `auto`) picks.
    /// `None` for `sat-minimal` ... `sat-redundant` (their family, givens as unit clauses) and
    /// when the choice is `full-pairwise` (the extended encoding, on the 9x9 path of the module
    /// docs at 9x9).
    pub fn scaled(&self, shape: Shape) -> Option<CnfEncoding> {
        if self.encoding.is_some() {
            return None;
        }
        let e = choice().for_shape(shape);
        (e != CnfEncoding::FULL_PAIRWISE).then_some(e)
    }
}

#[inline]
fn lit(dimacs: i32) -> Lit {
    Lit::from_dimacs(dimacs as isize)
}

fn base_solver(encoding: Encoding) -> varisat::Solver<'static> {
    let mut s = varisat::Solver::new();
    add_clauses(&mut s, 9, |emit| encoding.for_each_clause(emit));
    s
}

/// A varisat solver that may move to another thread with its [`Sat`].
///
/// varisat 0.2's `Solver` is not `Send` only because of its proof machinery: the proof writer
/// (`Box<dyn Write>`) and the checker's processors (`&mut dyn ProofProcessor`), set by
/// `write_proof`, `add_proof_processor` and `enable_self_checking`. This module calls none of
/// them, so those fields stay empty and the rest of the solver is plain owned data.
struct Kept(varisat::Solver<'static>);

// SAFETY: see [`Kept`]: the only non-`Send` parts of the solver are never set, so moving it to
// another thread moves only owned data. It is never shared (`Sync` is not claimed).
unsafe impl Send for Kept {}

/// The kept solver and how many counts have added activation variables to it.
struct Cached {
    solver: Kept,
    next_var: usize,
    /// The assumptions buffer, reused from puzzle to puzzle.
    assumptions: Vec<Lit>,
    /// Puzzles solved or counted on this solver since it was built.
    solves: usize,
}

/// Puzzles after which the kept solver is rebuilt. Learnt clauses are sound for every
/// puzzle (they follow from the base clauses alone), but they pile up: on magictour top1465 the
/// median solve time tripled over the file (517 µs for the first 300 puzzles, 1,498 µs for
/// puzzles 900-1200) with one solver for the whole run. Rebuilding (about 0.5 ms) every 64
/// puzzles keeps the database small at a cost of under 10 µs per puzzle.
const MAX_SOLVES: usize = 64;

/// Counts after which the kept solver is rebuilt.
const MAX_ACTIVATIONS: usize = 1024;

struct Run {
    stats: Stats,
    found: u64,
    first: Option<[u8; 81]>,
    out_of_budget: bool,
}

/// Reads the grid from a model: the true x(cell, d) literals.
fn decode(model: &[Lit]) -> [u8; 81] {
    let mut cells = [0u8; 81];
    for l in model {
        let i = l.var().index();
        if l.is_positive() && i < VARS {
            cells[i / 9] = (i % 9) as u8 + 1;
        }
    }
    cells
}

/// Solves under `assumptions` until `limit` solutions, blocking each one with a clause guarded
/// by `guard` (when counting). The budget is checked before each call.
fn search(
    s: &mut varisat::Solver<'static>,
    assumptions: &mut Vec<Lit>,
    guard: Option<Lit>,
    puzzle: &Grid,
    limit: u64,
    budget: &Budget,
) -> Run {
    let mut run = Run {
        stats: Stats::default(),
        found: 0,
        first: None,
        out_of_budget: false,
    };
    if let Some(a) = guard {
        assumptions.push(a);
    }
    // Allocated only when a count blocks its first solution.
    let mut block: Vec<Lit> = Vec::new();
    loop {
        s.assume(assumptions);
        let Some(sat) = solve_once(s, &mut run.stats.nodes, budget) else {
            run.out_of_budget = true;
            break;
        };
        if !sat {
            break;
        }
        let cells = decode(&s.model().unwrap_or_default());
        run.found += 1;
        if run.first.is_none() {
            run.first = Some(cells);
        }
        if run.found >= limit {
            break;
        }
        let Some(a) = guard else { break };
        block.clear();
        block.push(!a);
        for (cell, &d) in cells.iter().enumerate() {
            if puzzle.get(cell) == 0 && d != 0 {
                block.push(lit(-var(cell, d)));
            }
        }
        s.add_clause(&block);
    }
    run
}

fn givens_as_lits(puzzle: &Grid, out: &mut Vec<Lit>) {
    out.clear();
    out.extend(
        puzzle
            .cells()
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d != 0)
            .map(|(cell, &d)| lit(var(cell, d))),
    );
}

impl Sat {
    fn run(&mut self, puzzle: &Grid, limit: u64, budget: &Budget) -> Run {
        let limit = limit.max(1);
        let counting = limit > 1;
        match self.mode {
            GivenMode::UnitClauses => {
                let mut s = base_solver(self.encoding());
                let mut givens = Vec::with_capacity(81);
                givens_as_lits(puzzle, &mut givens);
                for &l in &givens {
                    s.add_clause(&[l]);
                }
                let guard = counting.then(|| Var::from_index(VARS).positive());
                search(&mut s, &mut Vec::new(), guard, puzzle, limit, budget)
            }
            GivenMode::Assumptions => {
                let encoding = self.encoding();
                let stale = match self.cached.as_deref() {
                    None => true,
                    Some(c) => c.next_var >= VARS + MAX_ACTIVATIONS || c.solves >= MAX_SOLVES,
                };
                if stale {
                    self.cached = Some(Box::new(Cached {
                        solver: Kept(base_solver(encoding)),
                        next_var: VARS,
                        assumptions: Vec::with_capacity(82),
                        solves: 0,
                    }));
                }
                let c = self.cached.as_deref_mut().expect("built above");
                c.solves += 1;
                givens_as_lits(puzzle, &mut c.assumptions);
                let guard = counting.then(|| {
                    let a = Var::from_index(c.next_var).positive();
                    c.next_var += 1;
                    a
                });
                let run = search(
                    &mut c.solver.0,
                    &mut c.assumptions,
                    guard,
                    puzzle,
                    limit,
                    budget,
                );
                if let Some(a) = guard {
                    // Retire this count's blocking clauses for good.
                    c.solver.0.add_clause(&[!a]);
                }
                run
            }
        }
    }
}

impl Solver for Sat {
    fn caps(&self) -> Caps {
        Caps {
            shapes: Shapes::Any,
            // varisat cannot be interrupted: the budget is checked between its calls.
            budget: BudgetMode::OverrunRecorded,
            nodes: NodeUnit::SolverCalls,
            ..Caps::POLLED_SEARCH
        }
    }

    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Option<Outcome> {
        Some(self.count(puzzle, 1, budget)?.outcome())
    }

    /// Every puzzle in the encoding of [`Sat::scaled`] when there is one (by default
    /// [`default_for`] the shape), on a fresh varisat solver loaded with the puzzle's formula;
    /// else 9x9 on the kept solver of [`Sat::run`], and every other shape on a fresh varisat
    /// solver loaded with the shape's formula in this solver's family
    /// ([`Encoding::for_each_clause_of`]) and the givens as unit clauses.
    fn count(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Option<Count> {
        if let Some(e) = self.scaled(puzzle.shape()) {
            return Some(search_formula(e, puzzle, limit, budget));
        }
        let Some(grid) = puzzle.to_grid() else {
            return Some(search_board(self.encoding(), puzzle, limit, budget));
        };
        let r = self.run(&grid, limit, budget);
        Some(Count {
            solutions: r.found,
            complete: !r.out_of_budget,
            first: r
                .first
                .map(|c| Board::from_grid(&Grid::from_cells(c).expect("digits 1..=9"))),
            stats: r.stats,
        })
    }
}

/// The `sat` search on a puzzle's [`Formula`] in `encoding`: a fresh varisat solver holding its
/// clauses; after each solution, while fewer than `limit` are found, its blocking clause
/// ([`Formula::blocking_clause`]). Nodes count calls of varisat's `solve`, the budget is
/// checked around each call, as in [`search_board`]; building the formula is part of the solve.
fn search_formula(encoding: CnfEncoding, puzzle: &Board, limit: u64, budget: &Budget) -> Count {
    count_models(limit, budget, |s| {
        let formula = Formula::new(encoding, puzzle);
        add_clauses(s, puzzle.shape().side(), |emit| {
            formula.for_each_clause(emit);
        });
        move |model: &[Lit]| {
            let model: Vec<i32> = model.iter().map(|l| l.to_dimacs() as i32).collect();
            // A model of the formula always decodes (tested); never count one that does not.
            let board = formula.decode(&model).ok()?;
            let block: Vec<Lit> = formula
                .blocking_clause(&board)
                .iter()
                .map(|&l| lit(l))
                .collect();
            Some((board, (!block.is_empty()).then_some(block)))
        }
    })
}

/// The `sat` search on a board of any shape: a fresh varisat solver with `encoding`'s clauses
/// for the shape and one unit clause per given; after each solution, while fewer than `limit`
/// are found, a blocking clause (the negation of the true literals of its empty cells). Nodes
/// count calls of varisat's `solve`, and the budget is checked around each call, as on 9x9.
/// A fresh solver per puzzle makes the effort reproducible; building the formula is part of
/// the solve (at 25x25 about 0.8 million clauses).
fn search_board(encoding: Encoding, puzzle: &Board, limit: u64, budget: &Budget) -> Count {
    let shape = puzzle.shape();
    let n = shape.side();
    count_models(limit, budget, |s| {
        add_clauses(s, n, |emit| encoding.for_each_clause_of(shape, emit));
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                s.add_clause(&[lit(var_of(shape, cell, v as usize))]);
            }
        }
        let vars = n * n * n;
        move |model: &[Lit]| {
            let mut cells = vec![0; n * n];
            for l in model {
                let i = l.var().index();
                if l.is_positive() && i < vars {
                    cells[i / n] = (i % n) as crate::Symbol + 1;
                }
            }
            let block: Vec<Lit> = cells
                .iter()
                .enumerate()
                .filter(|&(cell, &v)| puzzle.get(cell) == 0 && v != 0)
                .map(|(cell, &v)| lit(-var_of(shape, cell, v as usize)))
                .collect();
            Some((Board::new(shape, cells).ok()?, Some(block)))
        }
    })
}

/// Adds the clauses `for_each` emits (DIMACS literals, clauses of about `width`) to `s`.
fn add_clauses(
    s: &mut varisat::Solver<'static>,
    width: usize,
    for_each: impl FnOnce(&mut dyn FnMut(&[i32])),
) {
    let mut buf: Vec<Lit> = Vec::with_capacity(width);
    for_each(&mut |clause: &[i32]| {
        buf.clear();
        buf.extend(clause.iter().map(|&l| lit(l)));
        s.add_clause(&buf);
    });
}

/// Counts the models of a fresh varisat solver up to `limit` (at least 1), the budget checked
/// first: `load` adds the clauses and returns the decoder of a model, which gives its board and
/// the clause that blocks it (`None`: no other model exists), or `None` for a model that does
/// not decode (the count is then incomplete).
fn count_models<D>(
    limit: u64,
    budget: &Budget,
    load: impl FnOnce(&mut varisat::Solver<'static>) -> D,
) -> Count
where
    D: FnMut(&[Lit]) -> Option<(Board, Option<Vec<Lit>>)>,
{
    let limit = limit.max(1);
    let mut count = Count {
        solutions: 0,
        complete: true,
        first: None,
        stats: Stats::default(),
    };
    if budget.exhausted(0) {
        count.complete = false;
        return count;
    }
    let mut s = varisat::Solver::new();
    let mut decode = load(&mut s);
    loop {
        let Some(sat) = solve_once(&mut s, &mut count.stats.nodes, budget) else {
            count.complete = false;
            break;
        };
        if !sat {
            break;
        }
        let Some((board, block)) = decode(&s.model().unwrap_or_default()) else {
            count.complete = false;
            break;
        };
        count.solutions += 1;
        if count.first.is_none() {
            count.first = Some(board);
        }
        match block {
            Some(block) if count.solutions < limit => s.add_clause(&block),
            _ => break,
        }
    }
    count
}

/// One call of varisat's `solve`, counted as a node: whether the clauses are satisfiable, or
/// `None` when the budget is spent before the call or by its end (a call that finishes after
/// the deadline is flagged as a timeout: module docs). varisat errs only on interruption or
/// proof errors, neither of which this module enables; an error is a timeout too.
fn solve_once(s: &mut varisat::Solver<'static>, nodes: &mut u64, budget: &Budget) -> Option<bool> {
    if budget.exhausted(*nodes) {
        return None;
    }
    *nodes += 1;
    let sat = s.solve().ok()?;
    if budget.exhausted(*nodes) {
        return None;
    }
    Some(sat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_puzzles::OnGrid;
    use crate::Status;

    use crate::test_puzzles::{SEED, SEED_SOLUTION};

    #[test]
    fn base_clause_count_and_shape() {
        let (mut n, mut binary, mut nine) = (0, 0, 0);
        for_each_base_clause(|c| {
            n += 1;
            match c.len() {
                2 => binary += 1,
                9 => nine += 1,
                other => panic!("clause of {other} literals"),
            }
            assert!(c
                .iter()
                .all(|&l| l != 0 && l.unsigned_abs() as usize <= VARS));
        });
        assert_eq!((n, binary, nine), (BASE_CLAUSES, 2916 + 8748, 81 + 243));
    }

    #[test]
    fn dimacs_header_matches_clauses() {
        let g: Grid = SEED.parse().unwrap();
        let mut out = Vec::new();
        write_dimacs(&g, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let header = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
        assert_eq!(header, format!("p cnf 729 {}", BASE_CLAUSES + g.givens()));
        let clauses = text
            .lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
            .count();
        assert_eq!(clauses, BASE_CLAUSES + g.givens());
        assert!(text
            .lines()
            .all(|l| l.starts_with(['c', 'p']) || l.ends_with(" 0")));
    }

    #[test]
    fn extra_clauses_are_counted_in_the_header() {
        let g: Grid = SEED.parse().unwrap();
        let mut plain = Vec::new();
        write_dimacs(&g, &mut plain).unwrap();
        let mut none = Vec::new();
        write_dimacs_with::<Vec<i32>>(&g, &[], &mut none).unwrap();
        assert_eq!(plain, none);
        let mut out = Vec::new();
        write_dimacs_with(&g, &[vec![-1, -10], vec![-2]], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains(&format!("p cnf 729 {}\n", BASE_CLAUSES + g.givens() + 2)));
        assert!(
            text.ends_with("\n-1 -10 0\n-2 0\n"),
            "{}",
            &text[text.len() - 40..]
        );
    }

    /// The model of a grid: its 81 true literals and the 648 false ones.
    fn model_of(grid: &str) -> Vec<i32> {
        let g: Grid = grid.parse().unwrap();
        let mut model = Vec::new();
        for cell in 0..81 {
            for d in 1..=9u8 {
                let v = var(cell, d);
                model.push(if g.get(cell) == d { v } else { -v });
            }
        }
        model
    }

    #[test]
    fn decode_model_reads_back_the_grid() {
        let mut model = model_of(SEED_SOLUTION);
        assert_eq!(decode_model(&model).unwrap().to_digits(), SEED_SOLUTION);
        // Only the true literals, a trailing 0 and an auxiliary variable: the same grid.
        model.retain(|&l| l > 0);
        model.extend([800, 0]);
        assert_eq!(decode_model(&model).unwrap().to_digits(), SEED_SOLUTION);
        // r1c1 holds 7 in the seed solution: drop it, then add a second digit.
        let without: Vec<i32> = model.iter().copied().filter(|&l| l != var(0, 7)).collect();
        assert_eq!(
            decode_model(&without).unwrap_err(),
            "cell r1c1 has no true digit in the model"
        );
        let mut two = model.clone();
        two.push(var(80, 1));
        assert_eq!(
            decode_model(&two).unwrap_err(),
            "cell r9c9 has two true digits in the model, 1 and 6"
        );
        let mut both = model.clone();
        both.push(-var(0, 7));
        assert_eq!(
            decode_model(&both).unwrap_err(),
            "variable 7 is both true and false in the model"
        );
    }

    #[test]
    fn sat_output_in_both_forms() {
        let lits: Vec<String> = model_of(SEED_SOLUTION)
            .iter()
            .map(|l| l.to_string())
            .collect();
        let competition = format!(
            "c a comment\ns SATISFIABLE\nv {}\nv {} 0\nc done\n",
            lits[..300].join(" "),
            lits[300..].join(" ")
        );
        let SatAnswer::Satisfiable(model) = parse_sat_output(&competition).unwrap() else {
            panic!("not satisfiable")
        };
        assert_eq!(decode_model(&model).unwrap().to_digits(), SEED_SOLUTION);
        let minisat = format!("SAT\n{} 0\n", lits.join(" "));
        assert_eq!(
            parse_sat_output(&minisat).unwrap(),
            SatAnswer::Satisfiable(model)
        );
        assert_eq!(
            parse_sat_output("c x\ns UNSATISFIABLE\n"),
            Ok(SatAnswer::Unsatisfiable)
        );
        assert_eq!(parse_sat_output("UNSAT\n"), Ok(SatAnswer::Unsatisfiable));
        assert_eq!(parse_sat_output("INDET\n"), Ok(SatAnswer::Unknown));
        assert_eq!(parse_sat_output("s UNKNOWN\n"), Ok(SatAnswer::Unknown));
        for (output, error) in [
            (
                "Usage: solver FILE\n",
                "no s line (s SATISFIABLE / s UNSATISFIABLE) in the output; its first line: \"Usage: solver FILE\"",
            ),
            (
                "",
                "no s line (s SATISFIABLE / s UNSATISFIABLE) in the output; the output is empty",
            ),
            ("s SATISFIABLE\nv 1 x 0\n", "line 2: \"x\" is not a literal"),
            (
                "s SATISFIABLE\n",
                "satisfiable, but no model was written (v lines)",
            ),
            (
                "s MAYBE\n",
                "line 1: unknown answer \"MAYBE\" (expected s SATISFIABLE, s UNSATISFIABLE or s UNKNOWN)",
            ),
            (
                "s SATISFIABLE\ns UNSATISFIABLE\n",
                "line 2: \"s UNSATISFIABLE\" contradicts the s line on line 1",
            ),
        ] {
            assert_eq!(parse_sat_output(output).unwrap_err(), error, "{output:?}");
        }
    }

    #[test]
    fn spent_budget_gives_timeout() {
        let g: Grid = SEED.parse().unwrap();
        let spent = Budget::with_timeout(std::time::Duration::ZERO);
        let out = Sat::default().solve_grid(&g, &spent);
        assert_eq!((out.status, out.solution), (Status::Timeout, None));
        let c = Sat::default().count_grid(&g, 2, &spent).unwrap();
        assert!(!c.complete);
    }

    #[test]
    fn both_modes_solve_and_count() {
        let g: Grid = SEED.parse().unwrap();
        for (mode, encoding) in [GivenMode::Assumptions, GivenMode::UnitClauses]
            .into_iter()
            .flat_map(|m| {
                Encoding::ALL
                    .map(|e| (m, Some(e)))
                    .into_iter()
                    .chain([(m, None)])
            })
        {
            let mut s = Sat::new(mode, encoding);
            let out = s.solve_grid(&g, &Budget::unlimited());
            assert_eq!(
                out.solution.unwrap().to_digits(),
                SEED_SOLUTION,
                "{mode:?} {encoding:?}"
            );
            let c = s.count_grid(&g, 2, &Budget::unlimited()).unwrap();
            assert_eq!(
                (c.solutions, c.complete),
                (1, true),
                "{mode:?} {encoding:?}"
            );
            let c = s.count_grid(&Grid::EMPTY, 4, &Budget::unlimited()).unwrap();
            assert_eq!(c.solutions, 4, "{mode:?} {encoding:?}");
            // The blocking clauses of that count are retired: the seed still solves.
            assert_eq!(
                s.solve_grid(&g, &Budget::unlimited()).status,
                Status::Solved
            );
            let bad = crate::test_puzzles::dead_cell();
            assert_eq!(
                s.solve_grid(&bad, &Budget::unlimited()).status,
                Status::NoSolution
            );
        }
    }

    /// Every encoding at other shapes: the counts of dlx's test (288 4x4 grids, 12 Latin
    /// squares of order 3), models decoded back through the DIMACS text.
    #[test]
    fn every_shape_counts_and_writes_its_formula() {
        for e in Encoding::ALL {
            let mut s = Sat::with_encoding(e);
            crate::search::test_boards::counts_empty_grids(
                &mut s,
                &[
                    (Shape::of_order(2).unwrap(), 288),
                    (Shape::latin(3).unwrap(), 12),
                    (Shape::of_order(1).unwrap(), 1),
                ],
            );
            // r1c1 and r2c2: the same 2x3 box.
            let bad = crate::search::test_boards::with_givens(
                Shape::sudoku(2, 3).unwrap(),
                &[(0, 1), (7, 1)],
            );
            assert_eq!(
                s.solve(&bad, &Budget::unlimited()).unwrap().status,
                Status::NoSolution
            );
        }
        let shape = Shape::sudoku(2, 3).unwrap();
        let mut puzzle = Board::empty(shape);
        puzzle.set(0, 4);
        let mut out = Vec::new();
        write_dimacs_board::<[i32; 0]>(Encoding::Extended, &puzzle, &[], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let clauses = Encoding::Extended.clauses_of(shape) + 1;
        assert!(text.contains(&format!("p cnf 216 {clauses}\n")));
        assert!(text.ends_with("\n4 0\n"));
        let solved = Sat::default()
            .solve(&puzzle, &Budget::unlimited())
            .unwrap()
            .solution
            .unwrap();
        let model: Vec<i32> = (0..36)
            .map(|cell| var_of(shape, cell, solved.get(cell) as usize))
            .collect();
        assert_eq!(decode_model_board(shape, &model).unwrap(), solved);
        assert_eq!(
            decode_model_board(shape, &model[1..]).unwrap_err(),
            "cell r1c1 has no true symbol in the model"
        );
        // 9x9 boards take the 9x9 file, byte for byte.
        let g: Grid = SEED.parse().unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        write_dimacs(&g, &mut a).unwrap();
        write_dimacs_board::<[i32; 0]>(Encoding::Extended, &Board::from_grid(&g), &[], &mut b)
            .unwrap();
        assert_eq!(a, b);
    }
}
