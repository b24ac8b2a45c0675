//! The JSON API under `/api/`, used by the board page and usable on its own.
//!
//! | route | request (JSON body) | response |
//! |---|---|---|
//! | `GET /api/info` | - | `{solvers: [{name, description, counts}], datasets: [name], candidates, load?: {running, admitted, solve_slots, queue}}` |
//! | `POST /api/solve` | `{puzzle, solver?, timeout_ms?}` | `{solver, status, solution?, time_us, stats, check}` |
//! | `POST /api/count` | `{puzzle, limit?, solver?, timeout_ms?}` | `{solver, solutions, complete, unique, time_us, stats}` |
//! | `POST /api/candidates` | `{puzzle}` | `{method, candidates: [81 strings], empty_without_candidate?}` |
//! | `POST /api/generate` | `{source?: "generator"\|"dataset", givens?, dataset?, seed?}` | `{puzzle, solution, givens, origin, seed}` |
//! | `POST /api/hint` | `{puzzle}` (the board as filled) | `{done, technique?, level?, cost?, text?, digits, units, cells, candidates, fins, placements, eliminations, marks}` |
//!
//! `puzzle` is the 81-character line form (`1`-`9` givens; `.` `0` `_` `-` `*` empty). A puzzle
//! that cannot be read, or whose givens repeat a digit in a unit, is answered with HTTP 400 and
//! `{"error": "..."}` naming the cell, e.g. `digit 5 given twice in row 1 (r1c1 and r1c4)`; so is
//! a body that is not the JSON asked for. No input leads to a 500.
//!
//! Solve work (solve, count, generate) passes the server's [`Gate`]: a request beyond its
//! limits gets HTTP 503 with `Retry-After: 1`; a body over the size limit gets 413; a method a
//! route does not take gets 405 with an `Allow` header; every error body is `{"error": "..."}`.
//! A solve or count stops (through its [`Budget`]'s cancel flag) when its client disconnects or
//! the server shuts down.
//!
//! `time_us` is the wall time of the solver's `solve`/`count` call alone, in µs; `stats` holds the
//! effort counters (nodes, guesses, backtracks, propagations) defined in the `solvers` crate docs.

use super::engine::{self, Source};
use super::error::ApiError;
use super::gate::Gate;
use crate::verify;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use solvers::{Budget, Grid, SolverKind, Stats, Status};
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

fn parse_solver(name: Option<&str>) -> Result<SolverKind, ApiError> {
    match name {
        None | Some("") => Ok(default_solver()),
        Some(n) => n
            .parse()
            .map_err(|e: solvers::UnknownSolver| ApiError::bad_request(e.to_string())),
    }
}

fn budget(timeout_ms: Option<u64>, cancel: &Arc<AtomicBool>) -> Result<Budget, ApiError> {
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
    /// The puzzle, 81-character line form.
    pub puzzle: String,
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
    /// The solution, 81 digits, when solved.
    pub solution: Option<String>,
    /// Wall time of the solve call, µs.
    pub time_us: f64,
    /// Effort counters.
    pub stats: StatsJson,
    /// `ok` when the checker accepted the solution, else why not (or `-` when unsolved).
    pub check: String,
}

/// Solves a puzzle (blocking; the handler runs it on a blocking thread). Setting `cancel` stops
/// the solve at its next budget check.
///
/// # Errors
/// A 400 [`ApiError`] for a bad puzzle, solver name or timeout.
pub fn solve(req: &SolveRequest, cancel: &Arc<AtomicBool>) -> Result<SolveResponse, ApiError> {
    let puzzle = parse_puzzle(&req.puzzle)?;
    let kind = parse_solver(req.solver.as_deref())?;
    let budget = budget(req.timeout_ms, cancel)?;
    let mut session = kind.session();
    let t0 = Instant::now();
    let out = session
        .solve(&puzzle, &budget)
        .map_err(|e| ApiError::internal(format!("{kind}: {e}")))?;
    let time_us = t0.elapsed().as_secs_f64() * 1e6;
    let check = match (&out.status, &out.solution) {
        (Status::Solved, Some(s)) => match verify::check(puzzle.cells(), s.cells(), None) {
            Ok(()) => "ok".to_string(),
            Err(w) => format!("wrong: {w}"),
        },
        _ => "-".to_string(),
    };
    Ok(SolveResponse {
        solver: kind.name().to_string(),
        status: out.status.as_str().to_string(),
        solution: out.solution.map(|s| s.to_digits()),
        time_us,
        stats: out.stats.into(),
        check,
    })
}

/// `POST /api/count` body.
#[derive(Debug, Clone, Deserialize)]
pub struct CountRequest {
    /// The puzzle, 81-character line form.
    pub puzzle: String,
    /// Stop counting at this many solutions (1..=100000); default 2 (enough to prove uniqueness).
    pub limit: Option<u64>,
    /// A counting solver; default the generators' ([`crate::generate::counting_solver`]).
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
/// A 400 [`ApiError`] for a bad puzzle, limit, timeout, or a solver that does not count.
pub fn count(req: &CountRequest, cancel: &Arc<AtomicBool>) -> Result<CountResponse, ApiError> {
    let puzzle = parse_puzzle(&req.puzzle)?;
    let limit = count_limit(req)?;
    let budget = budget(req.timeout_ms, cancel)?;
    let kinds: Vec<SolverKind> = match req.solver.as_deref() {
        None | Some("") => vec![crate::generate::counting_solver()],
        Some(n) => vec![parse_solver(Some(n))?],
    };
    for kind in kinds {
        let mut session = kind.session();
        let t0 = Instant::now();
        if let Ok(c) = session.count(&puzzle, limit, &budget) {
            let time_us = t0.elapsed().as_secs_f64() * 1e6;
            return Ok(CountResponse {
                solver: kind.name().to_string(),
                solutions: c.solutions,
                complete: c.complete,
                unique: c.complete && c.solutions == 1 && limit >= 2,
                time_us,
                stats: c.stats.into(),
            });
        }
    }
    Err(ApiError::bad_request(format!(
        "solver {} does not count solutions",
        req.solver.as_deref().unwrap_or("?")
    )))
}

/// `POST /api/candidates` body.
#[derive(Debug, Clone, Deserialize)]
pub struct CandidatesRequest {
    /// The puzzle (or the board as the player filled it), 81-character line form.
    pub puzzle: String,
}

/// `POST /api/candidates` answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CandidatesResponse {
    /// How they were computed.
    pub method: String,
    /// 81 strings, row-major: the candidate digits of each empty cell in increasing order
    /// (`"158"`), `""` for a filled cell.
    pub candidates: Vec<String>,
    /// The first empty cell left without any candidate (`rRcC`), if any: the board is stuck.
    pub empty_without_candidate: Option<String>,
    /// Deductions (naked and hidden singles) the rules made.
    pub deductions: usize,
    /// The contradiction the rules found, if any (then the board has no solution).
    pub contradiction: Option<String>,
}

/// Computes the candidates of every empty cell (blocking).
///
/// # Errors
/// A 400 [`ApiError`] for a bad puzzle.
pub fn candidates(req: &CandidatesRequest) -> Result<CandidatesResponse, ApiError> {
    let puzzle = parse_puzzle(&req.puzzle)?;
    let marks = engine::candidates(&puzzle);
    let masks = marks.candidates;
    let candidates: Vec<String> = masks
        .iter()
        .map(|&m| {
            (1..=9u8)
                .filter(|d| m & (1 << (d - 1)) != 0)
                .map(|d| (b'0' + d) as char)
                .collect()
        })
        .collect();
    let stuck = (0..81).find(|&i| puzzle.get(i) == 0 && masks[i] == 0);
    Ok(CandidatesResponse {
        method: marks.method.to_string(),
        candidates,
        empty_without_candidate: stuck.map(solvers::cell_name),
        deductions: marks.deductions,
        contradiction: marks.contradiction,
    })
}

/// `POST /api/generate` body (every field optional).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GenerateRequest {
    /// `generator` (default) or `dataset`.
    pub source: Option<String>,
    /// For `generator`: the number of givens wanted (17..=81); absent = a minimal puzzle.
    pub givens: Option<usize>,
    /// For `dataset`: a shipped dataset name; absent = any shipped dataset.
    pub dataset: Option<String>,
    /// Random seed; absent = a fresh one (returned in the answer).
    pub seed: Option<u64>,
}

/// `POST /api/generate` answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GenerateResponse {
    /// The puzzle, 81-character line form.
    pub puzzle: String,
    /// Its solution, 81 digits.
    pub solution: String,
    /// Number of givens.
    pub givens: usize,
    /// Where it came from.
    pub origin: String,
    /// The seed used (pass it back for the same puzzle).
    pub seed: u64,
}

/// Makes a new puzzle (blocking). The generator runs to its end (a few grids tried, each in
/// milliseconds): `_cancel` is not polled.
///
/// # Errors
/// A 400 [`ApiError`] for an unknown source or dataset or givens out of 17..=81.
pub fn generate(
    req: &GenerateRequest,
    _cancel: &Arc<AtomicBool>,
) -> Result<GenerateResponse, ApiError> {
    let source = match req.source.as_deref() {
        None | Some("") | Some("generator") => Source::Generator { givens: req.givens },
        Some("dataset") => Source::Dataset(req.dataset.clone().filter(|d| !d.is_empty())),
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "unknown source {other:?}: use \"generator\" or \"dataset\""
            )))
        }
    };
    let seed = req.seed.unwrap_or_else(rand::random);
    let g = engine::generate(&source, seed).map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(GenerateResponse {
        puzzle: g.puzzle.to_line(),
        solution: g.solution.to_digits(),
        givens: g.puzzle.givens(),
        origin: g.origin,
        seed,
    })
}

/// `POST /api/hint` body.
#[derive(Debug, Clone, Deserialize)]
pub struct HintRequest {
    /// The board as the player filled it, 81-character line form.
    pub puzzle: String,
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
/// A 400 [`ApiError`] for a bad board or a board without solution (a wrong digit).
pub fn hint(req: &HintRequest) -> Result<HintResponse, ApiError> {
    let grid = parse_puzzle(&req.puzzle)?;
    let step = solvers::logic::hint(&grid).map_err(|e| match e {
        solvers::logic::RateError::NoSolution => {
            ApiError::bad_request("this board has no solution: a digit in it is wrong")
        }
        other => ApiError::bad_request(other.to_string()),
    })?;
    let board = solvers::logic::Board::new(&grid);
    let marks = (0..81)
        .map(|c| {
            (1..=9u8)
                .filter(|&d| grid.get(c) == 0 && board.has(c, d))
                .map(|d| (b'0' + d) as char)
                .collect()
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
        datasets: crate::dataset::SHIPPED
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
