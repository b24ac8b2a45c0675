//! Every call this package makes into the `harness` and `solvers` crates, in one place: reading
//! puzzles, naming solvers, one solve or count under a budget, the checker, the generators, the
//! rater and hints, and a whole run. The Python-facing code (`lib.rs`, `race.rs`) goes through
//! these functions only; errors come back as sentences for Python's exceptions.

use harness::input::format::{board_line, Puzzle, PuzzleReader};
use solvers::engine::{Engine, Session};
use solvers::registry::BuiltinEngine;
use solvers::{Board, Budget, Shape, SolverKind, Status};
use std::sync::Arc;
use std::time::Duration;

/// Reads the first puzzle of `text`, in any form the harness reads (a line of one character a
/// cell, integers separated by spaces, N rows in block form, a CSV row after its header, `.pls`,
/// each after an optional `# shape` line). The givens are checked for consistency.
///
/// # Errors
/// No puzzle in `text`, or why the puzzle cannot be read: the harness's reason, naming the cell
/// (`r1c3`), with the line of `text` when it has several.
pub fn read(text: &str) -> Result<Puzzle, String> {
    read_named(text, true)
}

/// [`read`], naming the line of a failure only when `name_lines` (a text the caller wrote
/// itself has no lines the user knows).
///
/// # Errors
/// As [`read`].
pub fn read_named(text: &str, name_lines: bool) -> Result<Puzzle, String> {
    // One line of one character a cell (the common case, and the batch's): read directly, with
    // the same reader and messages as a line of a file.
    let trimmed = text.trim();
    if !trimmed.is_empty()
        && !trimmed.starts_with('#')
        && !trimmed.contains(char::is_whitespace)
        && !trimmed.contains(',')
    {
        return harness::input::format::read_puzzle(trimmed, None).map_err(|e| e.to_string());
    }
    let mut reader = PuzzleReader::from_text(text, "puzzle");
    let entry = reader
        .next()
        .ok_or_else(|| "no puzzle in the text given".to_string())?;
    let several_lines = name_lines && text.trim().contains('\n');
    match entry.puzzle {
        Ok(p) => Ok(p),
        Err(e) if several_lines => Err(format!("line {}: {}", e.line, e.reason)),
        Err(e) => Err(e.reason.to_string()),
    }
}

/// A board of `shape` from its cells (0 = empty), unchecked for consistency: an answer.
///
/// # Errors
/// A cell count other than N·N, or a value above N (the message names the cell).
pub fn board(shape: Shape, cells: Vec<solvers::Symbol>) -> Result<Board, String> {
    Board::new(shape, cells).map_err(|e| e.to_string())
}

/// The shape of a square grid of `side` (boxes as square as the side allows; a Latin square
/// when it has no such boxes), or the one `spec` names (`9x9`, `12x12/3x4`, `10x10/latin`).
///
/// # Errors
/// A spec that does not parse, or a side of no shape.
pub fn shape(spec: Option<&str>, side: usize) -> Result<Shape, String> {
    match spec {
        Some(s) => s.parse::<Shape>().map_err(|e| format!("shape {s:?}: {e}")),
        None => Shape::square_for_side(side)
            .ok_or_else(|| format!("no shape has side {side} (a square grid of N·N cells)")),
    }
}

/// The one-line form of a board: one character a cell up to 35x35 (`.` empty), integers
/// separated by spaces above.
pub fn line(board: &Board) -> String {
    board_line(board)
}

/// The engine of a solver named as `harness run --solver` takes it: a built-in name, an entry of
/// `./solvers.toml`, or an inline `lib:`, `cmd:` or `dimacs:` spec.
///
/// # Errors
/// An unknown name (the message lists the known ones), or an external solver that cannot load.
pub fn engine(spec: &str) -> Result<Arc<dyn Engine>, String> {
    harness::execution::registry::Registry::load(None)
        .and_then(|r| r.engine(spec, false))
        .map_err(|e| format!("{e:#}"))
}

/// The solver used when none is named: the champion for 9x9, else the first built-in solver
/// that counts and takes the shape.
///
/// # Errors
/// No built-in solver takes the shape.
pub fn default_engine(shape: Shape) -> Result<Arc<dyn Engine>, String> {
    let kind = if shape.is_classic() {
        harness::generate::counting_solver()
    } else {
        harness::generate::counting_solver_for(shape)
            .ok_or_else(|| format!("no built-in solver takes {shape} puzzles"))?
    };
    Ok(Arc::new(BuiltinEngine::new(kind)))
}

/// Refuses a puzzle whose shape `engine` does not take.
///
/// # Errors
/// A sentence naming the solvers that take the shape.
pub fn takes(engine: &dyn Engine, shape: Shape) -> Result<(), String> {
    if engine.info().caps.shapes.takes(shape) {
        Ok(())
    } else {
        Err(harness::input::refusal::refusal(&engine.info().name, shape))
    }
}

/// The budget of one call: a deadline `timeout` from now (none: unlimited).
pub fn budget(timeout: Option<Duration>) -> Budget {
    Budget::unlimited().timeout(timeout)
}

/// How one solve ended.
pub enum Solved {
    /// A solution, checked by the checker.
    Solution(Board),
    /// The solver found none.
    NoSolution,
    /// The budget ran out.
    Timeout,
    /// The solver failed, or its answer was rejected by the checker (the sentence says which).
    Failed(String),
}

/// Solves `puzzle` with `session` (of `engine`) within `budget` and checks a solution with the
/// checker ([`harness::verify::verdict`]).
pub fn solve(
    engine: &dyn Engine,
    session: &mut dyn Session,
    puzzle: &Puzzle,
    budget: &Budget,
) -> Solved {
    let name = &engine.info().name;
    let outcome = match session.solve(&puzzle.board, budget) {
        Ok(o) => o,
        Err(e) => return Solved::Failed(format!("{name}: {e}")),
    };
    match (outcome.status, outcome.solution) {
        (Status::Solved, Some(sol)) => {
            match harness::verify::verdict(&puzzle.board, &sol, puzzle.solution.as_ref(), false) {
                Ok(()) => Solved::Solution(sol),
                Err(w) => Solved::Failed(format!("{name}'s answer is wrong: {w}")),
            }
        }
        (Status::Solved, None) => Solved::Failed(format!(
            "{name} found a solution but writes none (it only counts)"
        )),
        (Status::Timeout, _) => Solved::Timeout,
        _ => Solved::NoSolution,
    }
}

/// Counts the solutions of `puzzle` up to `limit` with `session` (of `engine`) within `budget`:
/// (solutions found, whether the count finished).
///
/// # Errors
/// A solver that does not count, or fails.
pub fn count(
    engine: &dyn Engine,
    session: &mut dyn Session,
    puzzle: &Puzzle,
    limit: u64,
    budget: &Budget,
) -> Result<(u64, bool), String> {
    let name = &engine.info().name;
    if !engine.info().caps.counts {
        let counting: Vec<&str> = SolverKind::ALL
            .iter()
            .filter(|k| k.counts())
            .map(|k| k.name())
            .collect();
        return Err(format!(
            "solver {name} does not count solutions; counting solvers: {}",
            counting.join(", ")
        ));
    }
    let counted = session
        .count(&puzzle.board, limit, budget)
        .map(|c| (c.solutions, c.complete));
    counted.map_err(|e| format!("{name}: {e}"))
}

/// The checker's verdict on `answer` for `puzzle` ([`harness::verify::verdict`]).
///
/// # Errors
/// Why the answer is wrong, naming the cell or unit.
pub fn check(puzzle: &Puzzle, answer: &Board) -> Result<(), String> {
    harness::verify::verdict(&puzzle.board, answer, puzzle.solution.as_ref(), false)
        .map_err(|w| w.to_string())
}

/// One solver as `harness list` shows it.
pub struct SolverInfo {
    /// Its name, as `solve(..., solver=NAME)` and `race` take it.
    pub name: String,
    /// One line saying what it does.
    pub description: String,
    /// `9x9` or `any`.
    pub shapes: String,
    /// It counts solutions.
    pub counts: bool,
}

/// The built-in solvers, in the harness's order.
pub fn solvers() -> Vec<SolverInfo> {
    SolverKind::ALL
        .iter()
        .map(|&k| {
            let caps = k.caps();
            SolverInfo {
                name: k.name().to_string(),
                description: k.description().to_string(),
                shapes: caps.shapes.as_str().into_owned(),
                counts: caps.counts,
            }
        })
        .collect()
}

/// What to generate.
#[derive(Clone, Copy)]
pub enum Make {
    /// A solved grid of the shape.
    Grid,
    /// A puzzle with exactly one solution: minimal, or down to `clues` givens.
    Puzzle {
        /// Givens to keep; `None`: minimal.
        clues: Option<usize>,
    },
    /// A quasigroup with holes (a Latin square with `holes` of its cells emptied).
    Qwh {
        /// The share of cells emptied, 0..=1.
        holes: f64,
        /// The same number of holes in every row and column.
        balanced: bool,
    },
}

/// Grid, puzzle or QWH number `index` of the batch seeded by `seed`: the same as `harness
/// generate` writes for that seed and index. `counter` is a session of the counting solver of
/// the shape (puzzles only). Returns the made board and its solution.
///
/// # Errors
/// A shape or clue count the generators refuse, or a clue target not reached.
pub fn generate(make: Make, shape: Shape, seed: u64, index: u64) -> Result<(Board, Board), String> {
    use harness::generate as g;
    match make {
        Make::Grid => {
            let grid = g::shaped::random_solved(shape, seed, 0, index);
            Ok((grid.clone(), grid))
        }
        Make::Qwh { holes, balanced } => {
            let holes_kind = if balanced {
                g::qwh::Holes::Balanced
            } else {
                g::qwh::Holes::Random
            };
            if !shape.is_latin() {
                return Err(format!(
                    "a quasigroup with holes is a Latin square: give a shape such as {}x{}/latin",
                    shape.side(),
                    shape.side()
                ));
            }
            let q = g::qwh::generate_qwh(shape.side(), holes, holes_kind, seed, index);
            Ok((board(shape, q.puzzle)?, board(shape, q.solution)?))
        }
        Make::Puzzle { clues } => {
            let target = match clues {
                Some(k) => g::Target::Clues(k),
                None => g::Target::Minimal,
            };
            if shape.is_classic() {
                let options = g::PuzzleOptions {
                    target,
                    ..g::PuzzleOptions::default()
                };
                let mut counter = options.solver.session();
                let p = g::generate_puzzle(&options, &mut *counter, seed, index)
                    .map_err(|e| e.to_string())?;
                Ok((Board::from(p.puzzle), Board::from(p.solution)))
            } else {
                let solver = g::counting_solver_for(shape)
                    .ok_or_else(|| format!("no built-in solver counts {shape} puzzles"))?;
                let options = g::BoardPuzzleOptions {
                    shape,
                    target,
                    solver,
                    count_nodes: None,
                    attempts: 20,
                };
                let mut counter = solver.session();
                let p = g::generate_board_puzzle(&options, &mut *counter, seed, index)
                    .map_err(|e| e.to_string())?;
                Ok((p.puzzle, p.solution))
            }
        }
    }
}

/// A puzzle's rating, as `harness rate` gives it.
pub struct Rated {
    /// HoDoKu's score: the sum of the step costs.
    pub score: u32,
    /// The level (`Easy` ... `Extreme`, or `Beyond` when a guess was needed).
    pub level: String,
    /// The hardest technique used, if any step was needed.
    pub hardest: Option<String>,
    /// Cells filled by a guess.
    pub guesses: u32,
    /// Steps of each technique used, by technique id (`harness rate`'s column names).
    pub techniques: Vec<(String, u32)>,
}

/// Rates a 9x9 puzzle with the human techniques ([`solvers::logic::rate`]).
///
/// # Errors
/// Another shape than 9x9, or a puzzle without exactly one solution.
pub fn rate(puzzle: &Puzzle) -> Result<Rated, String> {
    let grid = puzzle.require_grid("the rater")?;
    let r = solvers::logic::rate(&grid).map_err(|e| e.to_string())?;
    let techniques = solvers::logic::Technique::ALL
        .iter()
        .zip(&r.counts)
        .filter(|(_, &n)| n > 0)
        .map(|(&t, &n)| (harness::commands::rate::technique_id(t), n))
        .collect();
    Ok(Rated {
        score: r.score,
        level: r.level.name().to_string(),
        hardest: r.hardest.map(|t| t.name().to_string()),
        guesses: r.guesses,
        techniques,
    })
}

/// The next step a person would take on a 9x9 board, as `harness hint` describes it; `None` when
/// the board is full.
///
/// # Errors
/// Another shape, a board without solution, or one with several (no step leads to one answer).
pub fn hint(puzzle: &Puzzle) -> Result<Option<String>, String> {
    use harness::commands::hint as h;
    use harness::input::refusal as r;
    use solvers::logic::RateError;
    let grid = puzzle.require_grid("hint")?;
    match solvers::logic::hint(&grid) {
        Ok(step) => Ok(step.map(|s| h::describe(&s))),
        Err(RateError::NoSolution) => Err(r::NO_SOLUTION_REFUSAL.to_string()),
        Err(RateError::MultipleSolutions) => Err(r::several_solutions_refusal()),
        Err(e) => Err(e.to_string()),
    }
}

/// What a race is given besides its engines: `harness run`'s arguments.
pub struct RaceArgs {
    /// Dataset specs (a shipped name or a file path), each as `--dataset` takes it.
    pub datasets: Vec<String>,
    /// Per-puzzle budget, ms (0: unlimited).
    pub timeout_ms: u64,
    /// Per-puzzle node budget.
    pub max_nodes: Option<u64>,
    /// Worker threads; `None`: one per core.
    pub threads: Option<usize>,
    /// The run folder.
    pub out: std::path::PathBuf,
    /// Render the report (plots, summary.md, index.html) into the run folder.
    pub report: bool,
    /// Solves of each puzzle by each solver (the row keeps the median time).
    pub repeat: u32,
}

/// Runs `engines` over the datasets as `harness run` does (same budget, checker, statistics,
/// run folder and report), printing nothing; returns the rows of results.csv as JSON objects
/// (`harness run`'s columns).
///
/// # Errors
/// As `harness run`: a dataset that cannot be read, nothing to run, an unwritable folder.
pub fn race(
    args: &RaceArgs,
    engines: Vec<Arc<dyn Engine>>,
) -> anyhow::Result<Vec<serde_json::Value>> {
    use clap::Parser;
    let mut argv: Vec<String> = ["harness", "run", "--quiet"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for d in &args.datasets {
        argv.push("--dataset".into());
        argv.push(d.clone());
    }
    argv.extend([
        "--timeout-ms".into(),
        args.timeout_ms.to_string(),
        "--repeat".into(),
        args.repeat.to_string(),
        "--out".into(),
        args.out.display().to_string(),
    ]);
    if let Some(n) = args.threads {
        argv.extend(["--threads".into(), n.to_string()]);
    }
    if let Some(n) = args.max_nodes {
        argv.extend(["--max-nodes".into(), n.to_string()]);
    }
    if !args.report {
        argv.push("--no-report".into());
    }
    let cli = harness::cli::Cli::try_parse_from(&argv).map_err(|e| anyhow::anyhow!("{e}"))?;
    let Some(harness::cli::Command::Run(run)) = cli.command else {
        anyhow::bail!("internal: the run's arguments did not parse as `harness run`");
    };
    harness::commands::run::run_engines(&run, engines, "sudoku_harness.race", false)?;
    let mut rows = Vec::new();
    harness::record::for_each_row(&args.out, |row, _| {
        rows.push(serde_json::to_value(&row)?);
        Ok(())
    })?;
    Ok(rows)
}

/// Writes `puzzles` as a dataset file at `path`, one line a puzzle (each after the `# shape`
/// line it needs), which `harness run --dataset PATH` reads back puzzle for puzzle.
///
/// # Errors
/// A failed write.
pub fn write_dataset(path: &std::path::Path, puzzles: &[Puzzle]) -> std::io::Result<()> {
    let mut text = String::new();
    let mut shapes = harness::input::format::ShapeLines::default();
    for p in puzzles {
        if let Some(head) = shapes.before(p.shape(), harness::input::format::Format::Line) {
            text.push_str(&head);
        }
        text.push_str(&board_line(&p.board));
        text.push('\n');
    }
    std::fs::write(path, text)
}
