//! The JSON API under `/api/`, used by the board page and usable on its own.
//!
//! | route | request (JSON body) | response |
//! |---|---|---|
//! | `GET /api/info` | - | `{solvers: [{name, description, counts}], datasets: [name], candidates, load?: {running, admitted, solve_slots, queue}}` |
//! | `POST /api/solve` | `{puzzle, shape?, solver?, timeout_ms?}` | `{solver, status, solution?, time_us, stats, check, shape?}` |
//! | `POST /api/count` | `{puzzle, shape?, limit?, solver?, timeout_ms?}` | `{solver, solutions, complete, unique, time_us, stats, shape?}` |
//! | `POST /api/candidates` | `{puzzle, shape?}` | `{method, candidates: [N·N strings], empty_without_candidate?, shape?}` |
//! | `POST /api/generate` | `{source?: "generator"\|"dataset", shape?, givens?, dataset?, seed?, timeout_ms?}` | `{puzzle, solution, givens, origin, seed, shape?}` |
//! | `POST /api/hint` | `{puzzle}` (the board as filled; 9x9 only; one of several solutions is refused, as `harness hint` refuses it) | `{done, technique?, level?, cost?, text?, digits, units, cells, candidates, fins, placements, eliminations, marks}` |
//!
//! `puzzle` is the line form of [`crate::input::format`]: for 9x9 the 81-character line (`1`-`9`
//! givens; `.` `0` `_` `-` `*` empty); for another shape one character a cell (`1`-`9`, then `A`
//! = 10 ... `Z` = 35) or, for any side up to [`solvers::MAX_SIDE`], integers separated by spaces
//! (`0` empty). `shape` is written as [`Shape`] prints it (`16x16`, `12x12/3x4`, `10x10/latin`);
//! without it a puzzle is 9x9, or the shape with square boxes its size implies (256 characters:
//! 16x16). Answers to puzzles of another shape than 9x9 carry their `shape`; 9x9 answers are
//! unchanged. A puzzle that cannot be read, or whose givens repeat a symbol in a unit, is
//! answered with HTTP 400 and `{"error": "..."}` naming the cell, e.g. `digit 5 given twice in
//! row 1 (r1c1 and r1c4)`; so is a bad shape, a solver that does not take the shape, and a body
//! that is not the JSON asked for. No input leads to a 500.
//!
//! Solve work (solve, count, generate) passes the server's [`Gate`]: a request beyond its
//! limits gets HTTP 503 with `Retry-After: 1`; a body over the size limit gets 413; a method a
//! route does not take gets 405 with an `Allow` header; every error body is `{"error": "..."}`.
//! Solve, count and generate have a budget (`timeout_ms`, default 10 s, at most 60 s) and stop
//! (through their [`Budget`]'s cancel flag) when their client disconnects or the server shuts
//! down, so no request holds a slot past its budget or after its client left; a hint and the
//! candidates are one bounded step of polynomial work on a 9x9 board (milliseconds).
//!
//! `time_us` is the wall time of the solver's `solve`/`count` call alone, in µs; `stats` holds the
//! effort counters (nodes, guesses, backtracks, propagations) defined in the `solvers` crate docs.

use super::engine::{self, Source};
use super::error::ApiError;
use super::gate::Gate;
use crate::input::format::{self, board_line, symbol_char, Reason};
use crate::input::refusal::refusal;
use crate::verify;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use solvers::{Board, BoardError, Budget, Grid, Shape, SolverKind, Stats, Status};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Default time budget of one API solve or count, ms.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// Largest time budget a request may ask for, ms.
pub const MAX_TIMEOUT_MS: u64 = 60_000;
/// Largest solution count a request may ask for.
pub const MAX_COUNT_LIMIT: u64 = 100_000;
/// The solver used when a request names none: the one `harness solve` and `harness count` use
/// by default, [`crate::generate::counting_solver`] (the champion, `hybrid`).
pub fn default_solver() -> SolverKind {
    crate::generate::counting_solver()
}

/// Reads and validates a puzzle: 81 cells whose givens repeat no digit in a row, column or box.
///
/// # Errors
/// A 400 [`ApiError`] naming the length, the bad character and its cell, or the repeated digit
/// with both cells and their unit.
pub fn parse_puzzle(text: &str) -> Result<Grid, ApiError> {
    let grid = Grid::parse_line(text.trim())
        .map_err(|e| ApiError::bad_request(format!("bad puzzle: {e}")))?;
    if let Some(c) = grid.first_conflict() {
        return Err(ApiError::bad_request(format!("bad puzzle: {c}")));
    }
    Ok(grid)
}

/// Reads a request's `shape` (`9x9`, `16x16`, `12x12/3x4`, `10x10/latin`); absent or empty:
/// `None`.
///
/// # Errors
/// A 400 [`ApiError`] naming the shape and why it is none.
pub fn parse_shape(text: Option<&str>) -> Result<Option<Shape>, ApiError> {
    match text.map(str::trim) {
        None | Some("") => Ok(None),
        Some(t) => t
            .parse()
            .map(Some)
            .map_err(|e| ApiError::bad_request(format!("bad shape: {e}"))),
    }
}

/// Reads and validates a puzzle of any shape: with `shape`, a puzzle of exactly that shape;
/// without, a 9x9 puzzle as [`parse_puzzle`] reads it, or a puzzle of the size of another shape
/// with square boxes (16, 256, 625 ... characters or integers).
///
/// # Errors
/// A 400 [`ApiError`] for a bad shape, a puzzle of another size than the shape's, a bad
/// character or symbol (naming its cell), or a repeated given (naming both cells and the unit).
pub fn parse_board(text: &str, shape: Option<&str>) -> Result<Board, ApiError> {
    let shape = parse_shape(shape)?;
    let text = text.trim();
    let bad = |r: Reason| ApiError::bad_request(format!("bad puzzle: {r}"));
    match shape {
        Some(s) if s.is_classic() => return parse_puzzle(text).map(|g| Board::from_grid(&g)),
        Some(s) => {
            let found = if text.contains(char::is_whitespace) {
                text.split_whitespace().count()
            } else {
                text.chars().count()
            };
            if found != s.cells() {
                let e = BoardError::WrongLength {
                    found,
                    expected: s.cells(),
                    shape: s,
                };
                return Err(ApiError::bad_request(format!("bad puzzle: {e}")));
            }
            return format::read_puzzle(text, Some(s))
                .map(|p| p.board)
                .map_err(bad);
        }
        None => {}
    }
    let classic = match parse_puzzle(text) {
        Ok(g) => return Ok(Board::from_grid(&g)),
        Err(e) => e,
    };
    if text.chars().count() == solvers::CELLS {
        return Err(classic);
    }
    match format::read_puzzle(text, None) {
        Ok(p) => Ok(p.board),
        Err(Reason::WrongLength { .. } | Reason::IntegerCount { .. }) => Err(classic),
        Err(Reason::NeedsShape { found, side }) => Err(ApiError::bad_request(format!(
            "bad puzzle: {found} cells make a {side}x{side} grid, whose boxes are not implied: \
             give its shape, such as \"shape\": \"{side}x{side}/RxC\" (R·C = {side}) or \
             \"{side}x{side}/latin\""
        ))),
        Err(r) => Err(bad(r)),
    }
}

/// The `shape` of an answer: `None` for 9x9 (whose answers stay as they were), else its name.
fn shape_field(shape: Shape) -> Option<String> {
    (!shape.is_classic()).then(|| shape.to_string())
}

/// The solver a request names, or the default for `shape`
/// ([`crate::generate::counting_solver_for`]: [`default_solver`] on 9x9).
///
/// # Errors
/// A 400 [`ApiError`] for an unknown solver, or one that does not take `shape` (naming the
/// solvers that do).
fn parse_solver(name: Option<&str>, shape: Shape) -> Result<SolverKind, ApiError> {
    let kind = match name {
        None | Some("") => crate::generate::counting_solver_for(shape)
            .ok_or_else(|| ApiError::bad_request(format!("no built-in solver takes {shape}")))?,
        Some(n) => n
            .parse()
            .map_err(|e: solvers::UnknownSolver| ApiError::bad_request(e.to_string()))?,
    };
    if !kind.caps().shapes.takes(shape) {
        return Err(ApiError::bad_request(refusal(kind.name(), shape)));
    }
    Ok(kind)
}

/// The symbols of candidate set `mask` (bit `v - 1` for symbol `v`), ascending, one character
/// each (`"158"`, `"3AF"`).
fn symbols_of(mask: u128) -> String {
    (1..=128u16)
        .filter(|v| mask >> (v - 1) & 1 != 0)
        .filter_map(symbol_char)
        .collect()
}

/// The budget of one request's work: `timeout_ms` (default [`DEFAULT_TIMEOUT_MS`], at most
/// [`MAX_TIMEOUT_MS`]) and the request's cancel flag (set when its client goes away).
///
/// # Errors
/// A 400 [`ApiError`] for a timeout out of range.
pub(super) fn budget(
    timeout_ms: Option<u64>,
    cancel: &Arc<AtomicBool>,
) -> Result<Budget, ApiError> {
    let ms = timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
    if ms == 0 || ms > MAX_TIMEOUT_MS {
        return Err(ApiError::bad_request(format!(
            "timeout_ms must be 1..={MAX_TIMEOUT_MS}, got {ms}"
        )));
    }
    Ok(Budget::with_timeout(Duration::from_millis(ms)).cancel_flag(cancel.clone()))
}

/// Effort counters as JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsJson {
    /// Search-tree nodes entered.
    pub nodes: u64,
    /// Branch points with two or more choices.
    pub guesses: u64,
    /// Branches undone.
    pub backtracks: u64,
    /// Digits placed by inference rules.
    pub propagations: u64,
}

impl From<Stats> for StatsJson {
    fn from(s: Stats) -> StatsJson {
        StatsJson {
            nodes: s.nodes,
            guesses: s.guesses,
            backtracks: s.backtracks,
            propagations: s.propagations,
        }
    }
}

/// `POST /api/solve` body.
#[derive(Debug, Clone, Deserialize)]
pub struct SolveRequest {
    /// The puzzle in the line form (81 characters for 9x9).
    pub puzzle: String,
    /// Its shape (`16x16`, `12x12/3x4`, `10x10/latin`); absent: 9x9, or as its size implies.
    #[serde(default)]
    pub shape: Option<String>,
    /// A solver name of `harness list`; default [`default_solver`] (`hybrid`).
    pub solver: Option<String>,
    /// Time budget, ms (1..=60000); default 10000.
    pub timeout_ms: Option<u64>,
}

/// `POST /api/solve` answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SolveResponse {
    /// The solver that ran.
    pub solver: String,
    /// `solved`, `no_solution` or `timeout`.
    pub status: String,
    /// The solution in the line form (81 digits for 9x9), when solved.
    pub solution: Option<String>,
    /// Wall time of the solve call, µs.
    pub time_us: f64,
    /// Effort counters.
    pub stats: StatsJson,
    /// `ok` when the checker accepted the solution, else why not (or `-` when unsolved).
    pub check: String,
    /// The puzzle's shape; absent for 9x9.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
}

/// Solves a puzzle (blocking; the handler runs it on a blocking thread). Setting `cancel` stops
/// the solve at its next budget check.
///
/// # Errors
/// A 400 [`ApiError`] for a bad shape, puzzle, solver name (or a solver that does not take the
/// shape) or timeout.
pub fn solve(req: &SolveRequest, cancel: &Arc<AtomicBool>) -> Result<SolveResponse, ApiError> {
    let puzzle = parse_board(&req.puzzle, req.shape.as_deref())?;
    let kind = parse_solver(req.solver.as_deref(), puzzle.shape())?;
    let budget = budget(req.timeout_ms, cancel)?;
    let mut session = kind.session();
    let failed = |e: solvers::engine::EngineError| ApiError::internal(format!("{kind}: {e}"));
    let t0 = Instant::now();
    let out = session.solve(&puzzle, &budget).map_err(failed)?;
    let time_us = t0.elapsed().as_secs_f64() * 1e6;
    let check = match (&out.status, &out.solution) {
        (Status::Solved, Some(s)) => match verify::check_board(&puzzle, s, None) {
            Ok(()) => "ok".to_string(),
            Err(w) => format!("wrong: {w}"),
        },
        _ => "-".to_string(),
    };
    Ok(SolveResponse {
        solver: kind.name().to_string(),
        status: out.status.as_str().to_string(),
        solution: out.solution.as_ref().map(board_line),
        time_us,
        stats: out.stats.into(),
        check,
        shape: shape_field(puzzle.shape()),
    })
}

/// `POST /api/count` body.
#[derive(Debug, Clone, Deserialize)]
pub struct CountRequest {
    /// The puzzle in the line form (81 characters for 9x9).
    pub puzzle: String,
    /// Its shape; absent: 9x9, or as its size implies.
    #[serde(default)]
    pub shape: Option<String>,
    /// Stop counting at this many solutions (1..=100000); default 2 (enough to prove uniqueness).
    pub limit: Option<u64>,
    /// A counting solver; default the generators' for the shape
    /// ([`crate::generate::counting_solver_for`]).
    pub solver: Option<String>,
    /// Time budget, ms; default 10000.
    pub timeout_ms: Option<u64>,
}

/// `POST /api/count` answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CountResponse {
    /// The solver that counted.
    pub solver: String,
    /// Solutions found, at most `limit`.
    pub solutions: u64,
    /// False when the budget ran out first (then `solutions` is a lower bound).
    pub complete: bool,
    /// True when the puzzle has exactly one solution.
    pub unique: bool,
    /// Wall time of the count call, µs.
    pub time_us: f64,
    /// Effort counters.
    pub stats: StatsJson,
    /// The puzzle's shape; absent for 9x9.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
}

/// The count limit a request asks for (default 2).
///
/// # Errors
/// A 400 [`ApiError`] for a limit outside 1..=[`MAX_COUNT_LIMIT`].
fn count_limit(req: &CountRequest) -> Result<u64, ApiError> {
    let limit = req.limit.unwrap_or(2);
    if limit == 0 || limit > MAX_COUNT_LIMIT {
        return Err(ApiError::bad_request(format!(
            "limit must be 1..={MAX_COUNT_LIMIT}, got {limit}"
        )));
    }
    Ok(limit)
}

/// Counts a puzzle's solutions up to a limit (blocking). Setting `cancel` stops the count at its
/// next budget check.
///
/// # Errors
/// A 400 [`ApiError`] for a bad shape, puzzle, limit, timeout, or a solver that does not count
/// or does not take the shape.
pub fn count(req: &CountRequest, cancel: &Arc<AtomicBool>) -> Result<CountResponse, ApiError> {
    let puzzle = parse_board(&req.puzzle, req.shape.as_deref())?;
    let limit = count_limit(req)?;
    let budget = budget(req.timeout_ms, cancel)?;
    let kind = parse_solver(req.solver.as_deref(), puzzle.shape())?;
    let mut session = kind.session();
    let t0 = Instant::now();
    let counted = session
        .count(&puzzle, limit, &budget)
        .map(|c| (c.solutions, c.complete, c.stats));
    let Ok((solutions, complete, stats)) = counted else {
        return Err(ApiError::bad_request(format!(
            "solver {kind} does not count solutions"
        )));
    };
    Ok(CountResponse {
        solver: kind.name().to_string(),
        solutions,
        complete,
        unique: complete && solutions == 1 && limit >= 2,
        time_us: t0.elapsed().as_secs_f64() * 1e6,
        stats: stats.into(),
        shape: shape_field(puzzle.shape()),
    })
}

/// `POST /api/candidates` body.
#[derive(Debug, Clone, Deserialize)]
pub struct CandidatesRequest {
    /// The puzzle (or the board as the player filled it) in the line form.
    pub puzzle: String,
    /// Its shape; absent: 9x9, or as its size implies.
    #[serde(default)]
    pub shape: Option<String>,
}

/// `POST /api/candidates` answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CandidatesResponse {
    /// How they were computed.
    pub method: String,
    /// N·N strings, row-major: the candidate symbols of each empty cell in increasing order, one
    /// character each (`"158"`, `"3AF"`), `""` for a filled cell.
    pub candidates: Vec<String>,
    /// The first empty cell left without any candidate (`rRcC`), if any: the board is stuck.
    pub empty_without_candidate: Option<String>,
    /// Deductions (naked and hidden singles) the rules made.
    pub deductions: usize,
    /// The contradiction the rules found, if any (then the board has no solution).
    pub contradiction: Option<String>,
    /// The puzzle's shape; absent for 9x9.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
}

/// How `/api/candidates` computes the candidates of a grid other than 9x9.
pub const PEER_METHOD: &str = "peer elimination (no symbol of the cell's row, column or box)";

/// Computes the candidates of every empty cell (blocking): on 9x9 by the `domain-reduction`
/// rules ([`engine::candidates`]), on every other shape by [`engine::peer_elimination`].
///
/// # Errors
/// A 400 [`ApiError`] for a bad shape or puzzle, or a side above 35 (whose symbols have no
/// character).
pub fn candidates(req: &CandidatesRequest) -> Result<CandidatesResponse, ApiError> {
    let board = parse_board(&req.puzzle, req.shape.as_deref())?;
    let shape = board.shape();
    if shape.side() > format::MAX_CHAR_SIDE {
        return Err(ApiError::bad_request(format!(
            "candidates are written one character a symbol, up to {0}x{0}; this is {shape}",
            format::MAX_CHAR_SIDE
        )));
    }
    let (masks, method, deductions, contradiction) = match board.to_grid() {
        Some(grid) => {
            let marks = engine::candidates(&grid);
            let masks: Vec<u128> = marks.candidates.iter().map(|&m| u128::from(m)).collect();
            (masks, marks.method, marks.deductions, marks.contradiction)
        }
        None => (engine::peer_elimination(&board), PEER_METHOD, 0, None),
    };
    let stuck = (0..shape.cells()).find(|&i| board.get(i) == 0 && masks[i] == 0);
    let name = |i| solvers::board_cell_name(shape, i);
    Ok(CandidatesResponse {
        method: method.to_string(),
        candidates: masks.iter().map(|&m| symbols_of(m)).collect(),
        empty_without_candidate: stuck.map(name),
        deductions,
        contradiction: contradiction.or_else(|| {
            stuck
                .filter(|_| !shape.is_classic())
                .map(|i| format!("{} has no candidate left", name(i)))
        }),
        shape: shape_field(shape),
    })
}

/// `POST /api/generate` body (every field optional).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GenerateRequest {
    /// `generator` (default) or `dataset`.
    pub source: Option<String>,
    /// The shape of the puzzle (default 9x9); a named dataset gives its own shape.
    pub shape: Option<String>,
    /// For `generator`: the number of givens wanted, in [`crate::generate::clue_range`] of the
    /// shape as `generate --clues` (17..=81 on 9x9, (N − 1)..=N·N on another); absent = a minimal
    /// puzzle.
    pub givens: Option<usize>,
    /// For `dataset`: a shipped dataset name; absent = any shipped dataset of the shape.
    pub dataset: Option<String>,
    /// Random seed; absent = a fresh one (returned in the answer).
    pub seed: Option<u64>,
    /// Time budget of the generator, ms (1..=60000); default 10000. A minimal puzzle of a shape
    /// other than 9x9 not finished within it is answered as far as it got (unique, not
    /// minimal); a `givens` target not reached gets a 503.
    pub timeout_ms: Option<u64>,
}

/// `POST /api/generate` answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GenerateResponse {
    /// The puzzle in the line form (81 characters for 9x9).
    pub puzzle: String,
    /// Its solution in the line form; `null` for a dataset's puzzle stated without one.
    pub solution: Option<String>,
    /// Number of givens.
    pub givens: usize,
    /// Where it came from.
    pub origin: String,
    /// The seed used (pass it back for the same puzzle).
    pub seed: u64,
    /// The puzzle's shape; absent for 9x9.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
}

/// Makes a new puzzle (blocking), within the request's budget ([`GenerateRequest::timeout_ms`]);
/// setting `cancel` (the client went away) stops it at its next count.
///
/// # Errors
/// A 400 [`ApiError`] for an unknown source, shape or dataset, givens out of range or a bad
/// timeout; a 503 when the budget ran out before a `givens` target.
pub fn generate(
    req: &GenerateRequest,
    cancel: &Arc<AtomicBool>,
) -> Result<GenerateResponse, ApiError> {
    let budget = budget(req.timeout_ms, cancel)?;
    let source = match req.source.as_deref() {
        None | Some("") | Some("generator") => Source::Generator { givens: req.givens },
        Some("dataset") => Source::Dataset(req.dataset.clone().filter(|d| !d.is_empty())),
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "unknown source {other:?}: use \"generator\" or \"dataset\""
            )))
        }
    };
    let shape = parse_shape(req.shape.as_deref())?.unwrap_or(Shape::CLASSIC);
    let seed = req.seed.unwrap_or_else(rand::random);
    let g = engine::generate(&source, shape, seed, &budget).map_err(|e| match e {
        engine::GenerateError::OutOfBudget(why) => ApiError::busy(why),
        e => ApiError::bad_request(e.to_string()),
    })?;
    Ok(GenerateResponse {
        puzzle: board_line(&g.puzzle),
        solution: g.solution.as_ref().map(board_line),
        givens: g.puzzle.givens(),
        origin: g.origin,
        seed,
        shape: shape_field(g.puzzle.shape()),
    })
}

/// `POST /api/hint` body.
#[derive(Debug, Clone, Deserialize)]
pub struct HintRequest {
    /// The board as the player filled it, 81-character line form.
    pub puzzle: String,
    /// Its shape: hints are given on 9x9 only, and another shape is refused by name.
    #[serde(default)]
    pub shape: Option<String>,
}

/// A candidate in [`HintResponse`]: `cell` 0..81 (row-major), `digit` 1..=9, `name` `rRcC`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CandidateJson {
    /// The cell, 0..81.
    pub cell: usize,
    /// The digit.
    pub digit: u8,
    /// The cell's name, `rRcC`.
    pub name: String,
}

/// `POST /api/hint` answer: the next step ([`solvers::logic::hint`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HintResponse {
    /// True when the board is full (then there is no step).
    pub done: bool,
    /// HoDoKu's name of the technique.
    pub technique: Option<String>,
    /// Its level (Easy ... Extreme).
    pub level: Option<String>,
    /// Its cost (HoDoKu's score of one step).
    pub cost: Option<u32>,
    /// The step in one line, e.g. `X-Wing: 4 in row 1, row 5, column 3, column 9 => r2c3<>4`.
    pub text: Option<String>,
    /// Digits of the pattern.
    pub digits: Vec<u8>,
    /// Units of the pattern (`row 1`, `box 5`).
    pub units: Vec<String>,
    /// Cells of the pattern, 0..81.
    pub cells: Vec<usize>,
    /// Candidates that prove the step (a chain's, a colouring's).
    pub candidates: Vec<CandidateJson>,
    /// Fins of a fish, or the candidates a wing or kite goes through.
    pub fins: Vec<CandidateJson>,
    /// Digits the step places.
    pub placements: Vec<CandidateJson>,
    /// Candidates the step eliminates.
    pub eliminations: Vec<CandidateJson>,
    /// The pencil marks the step reasons on: 81 strings, the candidates of each empty cell
    /// (`"158"`), `""` for a filled cell.
    pub marks: Vec<String>,
}

fn candidate_json(c: &solvers::logic::Candidate) -> CandidateJson {
    CandidateJson {
        cell: c.cell as usize,
        digit: c.digit,
        name: solvers::cell_name(c.cell as usize),
    }
}

/// The next step on a board (blocking).
///
/// # Errors
/// A 400 [`ApiError`] for a bad board, a board without solution (a wrong digit), a board of
/// several solutions (refused as `harness hint` refuses it), or a shape other than 9x9 (the
/// rater's techniques are 9x9 ones).
pub fn hint(req: &HintRequest) -> Result<HintResponse, ApiError> {
    let board = parse_board(&req.puzzle, req.shape.as_deref())?;
    let grid = board.to_grid().ok_or_else(|| {
        ApiError::bad_request(format!(
            "hints are given on 9x9 grids only (the logic rater's techniques are 9x9 ones); \
             this is a {} puzzle",
            board.shape()
        ))
    })?;
    let step = solvers::logic::hint(&grid).map_err(|e| match e {
        solvers::logic::RateError::NoSolution => {
            ApiError::bad_request(crate::input::refusal::NO_SOLUTION_REFUSAL)
        }
        solvers::logic::RateError::MultipleSolutions => {
            ApiError::bad_request(crate::input::refusal::several_solutions_refusal())
        }
        other => ApiError::bad_request(other.to_string()),
    })?;
    let pencil = solvers::logic::Board::new(&grid);
    let marks = (0..81)
        .map(|c| {
            let mask = (1..=9u8)
                .filter(|&d| grid.get(c) == 0 && pencil.has(c, d))
                .fold(0u128, |m, d| m | 1 << (d - 1));
            symbols_of(mask)
        })
        .collect();
    let list = |v: &[solvers::logic::Candidate]| v.iter().map(candidate_json).collect();
    Ok(match step {
        None => HintResponse {
            done: true,
            technique: None,
            level: None,
            cost: None,
            text: None,
            digits: Vec::new(),
            units: Vec::new(),
            cells: Vec::new(),
            candidates: Vec::new(),
            fins: Vec::new(),
            placements: Vec::new(),
            eliminations: Vec::new(),
            marks,
        },
        Some(s) => HintResponse {
            done: false,
            technique: Some(s.technique.name().to_string()),
            level: Some(s.technique.level().name().to_string()),
            cost: Some(s.technique.score()),
            text: Some(s.to_string()),
            digits: solvers::logic::board::digits(s.digits).collect(),
            units: s.units.iter().map(|u| u.to_string()).collect(),
            cells: s.cells.iter().map(|&c| c as usize).collect(),
            candidates: list(&s.candidates),
            fins: list(&s.fins),
            placements: list(&s.placements),
            eliminations: list(&s.eliminations),
            marks,
        },
    })
}

/// `GET /api/info` answer: what the page offers in its menus.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InfoResponse {
    /// Every solver of the registry, in report order.
    pub solvers: Vec<SolverInfo>,
    /// The shipped dataset names.
    pub datasets: Vec<String>,
    /// How `/api/candidates` computes candidates.
    pub candidates: String,
    /// The server's solve work now and its limits (absent outside a server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<Load>,
}

/// The solve work of a server, in [`InfoResponse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Load {
    /// Solve work running now.
    pub running: usize,
    /// Requests running or waiting for a slot.
    pub admitted: usize,
    /// Solve work that may run at once.
    pub solve_slots: usize,
    /// Requests that may wait for a slot.
    pub queue: usize,
}

/// One solver in [`InfoResponse`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SolverInfo {
    /// Its name.
    pub name: String,
    /// One line on its algorithm.
    pub description: String,
    /// True when it counts solutions (it can serve `/api/count`).
    pub counts: bool,
}

/// What the page offers: solvers, datasets.
pub fn info() -> InfoResponse {
    InfoResponse {
        solvers: SolverKind::ALL
            .iter()
            .map(|k| SolverInfo {
                name: k.name().to_string(),
                description: k.description().to_string(),
                counts: k.counts(),
            })
            .collect(),
        datasets: crate::input::dataset::SHIPPED
            .iter()
            .map(|s| s.name.to_string())
            .collect(),
        candidates: engine::candidates(&Grid::EMPTY).method.to_string(),
        load: None,
    }
}

/// Sets its flag when dropped: the handler's future holds one, so a client that disconnects
/// (hyper then drops the future) stops its solve.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

fn worker_failed(e: tokio::task::JoinError) -> ApiError {
    ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("worker failed: {e}"),
    }
}

/// Runs a blocking API function on tokio's blocking pool and turns its result into a response.
/// With a `gate`, first waits for a turn there (taking `solutions` solution permits); the
/// permits are released when the work ends. The work's cancel flag is set when this future is
/// dropped (the client went away) or the gate's server shuts down (then the answer is a 503).
pub(super) async fn blocking<Q, A>(
    gate: Option<&Gate>,
    solutions: u32,
    req: Q,
    f: fn(&Q, &Arc<AtomicBool>) -> Result<A, ApiError>,
) -> Result<Json<A>, ApiError>
where
    Q: Send + 'static,
    A: Send + 'static,
{
    let pass = match gate {
        Some(g) => Some(g.enter(solutions).await?),
        None => None,
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let _on_drop = CancelOnDrop(cancel.clone());
    let flag = cancel.clone();
    let work = tokio::task::spawn_blocking(move || {
        let _pass = pass;
        f(&req, &flag)
    });
    let stopping = async {
        match gate {
            Some(g) => g.stopping().await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        r = work => r.map_err(worker_failed)?.map(Json),
        () = stopping => {
            cancel.store(true, Ordering::Relaxed);
            Err(ApiError::shutting_down())
        }
    }
}

pub(super) async fn solve_handler(
    State(gate): State<Arc<Gate>>,
    body: Result<Json<SolveRequest>, JsonRejection>,
) -> Result<Json<SolveResponse>, ApiError> {
    blocking(Some(&gate), 0, body?.0, solve).await
}

pub(super) async fn count_handler(
    State(gate): State<Arc<Gate>>,
    body: Result<Json<CountRequest>, JsonRejection>,
) -> Result<Json<CountResponse>, ApiError> {
    let req = body?.0;
    // Every count may keep up to `limit` solutions: it takes as many permits of the gate's pool.
    let solutions = u32::try_from(count_limit(&req)?).unwrap_or(u32::MAX);
    blocking(Some(&gate), solutions, req, count).await
}

pub(super) async fn candidates_handler(
    body: Result<Json<CandidatesRequest>, JsonRejection>,
) -> Result<Json<CandidatesResponse>, ApiError> {
    // Polynomial work (the rules alone, no search): not gated.
    blocking(None, 0, body?.0, |req, _| candidates(req)).await
}

pub(super) async fn generate_handler(
    State(gate): State<Arc<Gate>>,
    body: Result<Json<GenerateRequest>, JsonRejection>,
) -> Result<Json<GenerateResponse>, ApiError> {
    blocking(Some(&gate), 0, body?.0, generate).await
}

pub(super) async fn hint_handler(
    State(gate): State<Arc<Gate>>,
    body: Result<Json<HintRequest>, JsonRejection>,
) -> Result<Json<HintResponse>, ApiError> {
    // Rating needs the solution (every step is checked against it): a solve, so gated.
    blocking(Some(&gate), 0, body?.0, |req, _| hint(req)).await
}

pub(super) async fn info_handler(State(gate): State<Arc<Gate>>) -> Json<InfoResponse> {
    let mut i = info();
    i.load = Some(Load {
        running: gate.running(),
        admitted: gate.admitted(),
        solve_slots: gate.limits().solve_slots,
        queue: gate.limits().queue,
    });
    Json(i)
}
