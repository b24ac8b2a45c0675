//! `harness solve FILE`: solve every puzzle of a file, in parallel, streaming, writing the
//! solutions in the input's format and order.
//!
//! A reader thread parses the input into chunks of [`CHUNK`] entries and hands them over a
//! channel holding at most two chunks; each chunk is solved on the rayon pool (`par_iter`, which
//! keeps order) and written before the next is taken, so memory stays flat (a few chunks) however
//! long the file. Every solution is judged by [`crate::verify::verdict`] before it is written
//! (a valid answer that differs from a stated solution is right: the puzzle has several, which
//! the count to 2 then marks).
//!
//! Every shape is solved, through [`solvers::engine::Session::solve`] (a solver picks its own
//! 9x9 code by the puzzle's shape). Without `--solver`, a puzzle of a shape the champion does
//! not take goes to the best built-in solver for its shape ([`solvers::SolverKind::best_for`],
//! the one policy `count` uses too); a solver named with `--solver` that does not take a
//! puzzle's shape leaves it invalid, with a message naming the solvers that take it.
//! `--transform` applies to 9x9 puzzles only.
//!
//! A puzzle that cannot be read, has no solution, has more than one (9x9: counted to 2 by the
//! champion solver after the solve; another shape: one search for two solutions by the solver
//! when it counts, which finds the first and goes on for a second, else a solve and then a
//! count to 2 by the best built-in solver for the shape) or runs out of its budget is
//! reported on stderr with its line and written as a **marked entry** in its place, so output
//! entry `k` always answers input entry `k`. A Latin square with holes is not counted: any
//! completion is the answer (a quasigroup-with-holes instance has many by construction), and
//! `--first` skips the count at every shape, writing one solution of a puzzle of several.
//! Marked entries:
//! - line form: the line `ERROR <file>:<line>: <reason>`;
//! - block form: a comment `# ERROR <file>:<line>: <reason>`, then N rows of N `x` for an entry
//!   of side N (its puzzle's, or the one its size showed; 9 rows of `x x x x x x x x x` when
//!   neither is known);
//! - CSV: `name,puzzle,solution,error` rows with `solution` empty and the reason in `error`;
//! - pls: a comment `# ERROR <file>:<line>: <reason>`, then `order N` and N rows of `x`.
//!
//! Solutions are written in the input's form: a line of one character a cell (integers
//! separated by spaces above 35x35: [`crate::input::format::board_line`]), N rows of N integers, CSV
//! fields as the line, or `.pls` ([`crate::input::format::render_pls`]), each after the `# shape` line
//! it needs ([`ShapeLines`]: a Latin square, rectangular boxes, a side below 4).
//!
//! Read back with `harness`, the output gives the same shapes, entry for entry: an answer reads
//! back as its solved grid, a marked entry as an invalid puzzle (in CSV, as its puzzle without
//! a solution), so counts stay aligned.

use crate::execution::sessions::Sessions;
use crate::input::format::{board_line, render_pls, Entry, Format, PuzzleReader, ShapeLines};
use crate::plumbing::human::thousands;
use crate::verify;
use anyhow::Context;
use rayon::prelude::*;
use solvers::engine::{Engine, Session};
use solvers::registry::BuiltinEngine;
use solvers::{Board, Budget, Shape, SolverKind, Status};
use std::io::{IsTerminal, Read, Write};
use std::sync::mpsc;
use std::time::Duration;

/// Puzzles per chunk handed to the pool.
pub const CHUNK: usize = 8192;

/// Counts of a batch solve; `read = solved + several + unsolvable + invalid + timeout + error`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SolveCounts {
    /// Entries read (bad ones included).
    pub read: u64,
    /// Solved, and the solution checked.
    pub solved: u64,
    /// Readable puzzles with no solution (or whose answer the checker rejected).
    pub unsolvable: u64,
    /// Entries that could not be read (wrong length, bad character, repeated given, ...).
    pub invalid: u64,
    /// Puzzles whose budget ran out.
    pub timeout: u64,
    /// Puzzles of more than one solution (one was found; the entry is marked, not solved).
    pub several: u64,
    /// Puzzles on which the solver failed (an external solver crashed or broke its protocol).
    pub error: u64,
}

impl SolveCounts {
    /// The final line: `read N, solved N, unsolvable N, invalid N, timeout N, several N`, and
    /// `, error N` when a solver failed.
    pub fn line(&self) -> String {
        let mut line = format!(
            "read {}, solved {}, unsolvable {}, invalid {}, timeout {}, several {}",
            thousands(self.read),
            thousands(self.solved),
            thousands(self.unsolvable),
            thousands(self.invalid),
            thousands(self.timeout),
            thousands(self.several)
        );
        if self.error > 0 {
            line.push_str(&format!(", error {}", thousands(self.error)));
        }
        line
    }

    /// True when every puzzle read was solved.
    pub fn all_solved(&self) -> bool {
        self.solved == self.read
    }

    /// Counts one entry's answer, reporting a failure on stderr when `echo` is set.
    fn add(&mut self, a: &Answer, echo: bool) {
        self.read += 1;
        match a {
            Answer::Solved(_) | Answer::SolvedBoard(_) => self.solved += 1,
            Answer::Failed { kind, message } => {
                if echo {
                    errln!("{message}");
                }
                match kind {
                    Failure::Invalid => self.invalid += 1,
                    Failure::Unsolvable => self.unsolvable += 1,
                    Failure::Timeout => self.timeout += 1,
                    Failure::Error => self.error += 1,
                    Failure::Several => self.several += 1,
                }
            }
        }
    }
}

/// A reader thread parsing a puzzle file into chunks of entries, handed over a channel that
/// holds at most two chunks, so memory stays flat however long the file.
pub struct Chunks {
    /// The chunks, in input order.
    rx: mpsc::Receiver<Vec<Entry>>,
    /// The reader thread; it returns the read error that ended the input, if any.
    reading: std::thread::JoinHandle<Option<std::io::Error>>,
}

impl Chunks {
    /// Starts reading `reader` on its own thread, `size` entries a chunk.
    pub fn spawn(reader: PuzzleReader, size: usize) -> Chunks {
        let (tx, rx) = mpsc::sync_channel::<Vec<Entry>>(2);
        let reading = std::thread::spawn(move || -> Option<std::io::Error> {
            let mut reader = reader;
            loop {
                let chunk: Vec<Entry> = reader.by_ref().take(size).collect();
                if chunk.is_empty() || tx.send(chunk).is_err() {
                    break;
                }
            }
            reader.io_error()
        });
        Chunks { rx, reading }
    }

    /// The chunks in input order, until the input ends.
    pub fn iter(&self) -> mpsc::Iter<'_, Vec<Entry>> {
        self.rx.iter()
    }

    /// Stops the reader thread and returns the read error that ended the input, if any.
    pub fn finish(self) -> Option<std::io::Error> {
        drop(self.rx);
        self.reading.join().expect("reader thread")
    }
}

/// What happened to one entry.
enum Answer {
    Solved(solvers::Grid),
    /// A solved puzzle of another shape than 9x9.
    SolvedBoard(Board),
    Failed {
        kind: Failure,
        message: String,
    },
}

/// The engines of a batch solve: the chosen one, the champion counting 9x9 solutions to 2, and
/// for other shapes (when no solver was named) the built-in solvers by
/// [`solvers::SolverKind::best_for`].
pub struct Engines<'a> {
    main: &'a dyn Engine,
    counter: Option<&'a dyn Engine>,
    /// Every built-in solver (slot `FIRST_BUILTIN + k` is `SolverKind::ALL[k]`), used for shapes
    /// `main` does not take when `fallback` is set, and to count such shapes' solutions.
    builtin: Vec<BuiltinEngine>,
    fallback: bool,
    /// No count to 2 for any shape (`--first`): one solution is the answer.
    first: bool,
    /// Repeat each failure's message on stderr (off when the answers themselves, `ERROR` lines
    /// included, go to the same terminal).
    echo: bool,
}

/// The session slot of `SolverKind::ALL[0]`: slots 0 and 1 are the solver and the counter.
const FIRST_BUILTIN: usize = 2;

impl<'a> Engines<'a> {
    /// `engine` alone: a puzzle of a shape it does not take is an invalid entry. With
    /// `counter`, each solved puzzle's solutions are counted up to 2 with it, and a puzzle of
    /// several is a marked entry (counted as `several`); without, it is solved.
    pub fn one(engine: &'a dyn Engine, counter: Option<&'a dyn Engine>) -> Engines<'a> {
        Engines {
            main: engine,
            counter,
            builtin: Vec::new(),
            fallback: false,
            first: false,
            echo: true,
        }
    }

    /// As [`Engines::one`], for puzzles of every shape: with `fallback`, a puzzle of a shape
    /// `engine` does not take is solved by the best built-in solver for the shape
    /// ([`SolverKind::best_for`]; `harness solve` without `--solver`); with `counter`, the
    /// solutions of a puzzle of another shape than 9x9 are counted to 2 by the solver that
    /// solved it when it counts, else by the best built-in one, except for a Latin square (any
    /// completion is the answer) and with `first` (no count at any shape). With `echo`, each
    /// failure's message is also printed on stderr.
    pub fn any_shape(
        engine: &'a dyn Engine,
        counter: Option<&'a dyn Engine>,
        (fallback, first): (bool, bool),
        echo: bool,
    ) -> Engines<'a> {
        Engines {
            main: engine,
            counter,
            builtin: SolverKind::ALL
                .iter()
                .map(|&k| BuiltinEngine::new(k))
                .collect(),
            fallback,
            first,
            echo,
        }
    }

    /// The engine (and its session slot) that solves puzzles of `shape`, or why none does.
    fn solver(&self, shape: Shape) -> Result<(&dyn Engine, usize), String> {
        if self.main.info().caps.shapes.takes(shape) {
            return Ok((self.main, 0));
        }
        if self.fallback {
            Ok(self.builtin_of(SolverKind::best_for(shape)))
        } else {
            Err(crate::input::refusal::refusal(
                &self.main.info().name,
                shape,
            ))
        }
    }

    /// The engine (and slot) that counts to 2 the solutions of a puzzle of `shape` solved by
    /// `solver` in `slot`: that solver itself when it counts (the count then costs about a
    /// second solve of the same kind: a learning solver keeps what it learnt, a SAT solver adds
    /// one blocking clause), else the best built-in solver for the shape. `None` for a Latin
    /// square (any completion is the answer), with `--first`, or without a counter.
    fn counter_for<'s>(
        &'s self,
        shape: Shape,
        solver: (&'s dyn Engine, usize),
    ) -> Option<(&'s dyn Engine, usize)> {
        if self.first || shape.is_latin() || self.counter.is_none() {
            return None;
        }
        if solver.0.info().caps.counts {
            return Some(solver);
        }
        (!self.builtin.is_empty()).then(|| self.builtin_of(SolverKind::best_for(shape)))
    }

    /// The built-in engine of kind `k` and its slot.
    fn builtin_of(&self, k: SolverKind) -> (&dyn Engine, usize) {
        let i = SolverKind::ALL.iter().position(|&x| x == k).unwrap_or(0);
        (&self.builtin[i], FIRST_BUILTIN + i)
    }
}

#[derive(Clone, Copy)]
enum Failure {
    Invalid,
    Unsolvable,
    Timeout,
    Error,
    Several,
}

fn answer(
    e: &Entry,
    engine: &dyn Engine,
    session: Result<&mut dyn Session, String>,
    timeout: Option<Duration>,
    source: &str,
    transform: Option<u64>,
) -> Answer {
    let p = match &e.puzzle {
        Err(err) => {
            return Answer::Failed {
                kind: Failure::Invalid,
                message: err.to_string(),
            }
        }
        Ok(p) => p,
    };
    let fail = |kind, why: String| Answer::Failed {
        kind,
        message: format!("{source}:{}: {why}", e.line),
    };
    let Some(grid) = p.grid() else {
        return answer_board(p, engine, session, timeout, fail);
    };
    let name = &engine.info().name;
    let session = match session {
        Ok(s) => s,
        Err(why) => return fail(Failure::Error, format!("{name} cannot start: {why}")),
    };
    let budget = Budget::unlimited().timeout(timeout);
    // With --transform, the solver gets an isomorph and its answer is mapped back.
    let t =
        transform.map(|seed| crate::input::isomorph::Transform::random(seed, e.index as u64, 0));
    let given = t.map_or(grid, |t| t.apply_grid(&grid));
    let out = match session.solve(&given.into(), &budget) {
        Ok(out) => out,
        Err(why) => return fail(Failure::Error, format!("{name}: {why}")),
    };
    let solution = out.grid().map(|sol| match t {
        Some(t) => solvers::Grid::from_cells(t.invert(sol.cells())).unwrap_or(sol),
        None => sol,
    });
    verdict(
        out.status,
        solution,
        name,
        |s| verify::verdict(&p.board, &Board::from_grid(s), p.solution.as_ref(), false),
        Answer::Solved,
        fail,
    )
}

/// The answer of a solve that ended with `out`: a solution `check` accepts (made an answer by
/// `wrap`), or the failure (`fail`): the checker's rejection, the budget, a solver of `name`
/// that writes no solution, no solution.
fn verdict<S, W: std::fmt::Display>(
    status: Status,
    solution: Option<S>,
    name: &str,
    check: impl FnOnce(&S) -> Result<(), W>,
    wrap: impl FnOnce(S) -> Answer,
    fail: impl Fn(Failure, String) -> Answer,
) -> Answer {
    match (status, solution) {
        (Status::Solved, Some(s)) => match check(&s) {
            Ok(()) => wrap(s),
            Err(w) => fail(
                Failure::Unsolvable,
                format!("answer rejected by the checker: {w}"),
            ),
        },
        (Status::Timeout, _) => fail(Failure::Timeout, "budget ran out".into()),
        (Status::Solved, None) => fail(
            Failure::Error,
            format!("{name} found a solution but writes none (it only counts)"),
        ),
        _ => fail(Failure::Unsolvable, "no solution".into()),
    }
}

/// [`answer`] for a puzzle of another shape than 9x9: solved as a [`Board`], checked with
/// [`verify::verdict`].
fn answer_board(
    p: &crate::input::format::Puzzle,
    engine: &dyn Engine,
    session: Result<&mut dyn Session, String>,
    timeout: Option<Duration>,
    fail: impl Fn(Failure, String) -> Answer,
) -> Answer {
    let name = &engine.info().name;
    let session = match session {
        Ok(s) => s,
        Err(why) => return fail(Failure::Error, format!("{name} cannot start: {why}")),
    };
    let budget = Budget::unlimited().timeout(timeout);
    let out = match session.solve(&p.board, &budget) {
        Ok(out) => out,
        Err(solvers::engine::EngineError::Unsupported(_)) => {
            return fail(
                Failure::Invalid,
                crate::input::refusal::refusal(name, p.shape()),
            )
        }
        Err(why) => return fail(Failure::Error, format!("{name}: {why}")),
    };
    verdict(
        out.status,
        out.solution,
        name,
        |s| verify::verdict(&p.board, s, p.solution.as_ref(), false),
        Answer::SolvedBoard,
        fail,
    )
}

/// Marks a solved entry of more than one solution: `counter` counts the puzzle's solutions up
/// to 2 within `timeout`; a count that does not finish leaves the answer as it is.
fn unique_or_marked(
    a: Answer,
    e: &Entry,
    counter: Result<&mut dyn Session, String>,
    timeout: Option<Duration>,
    source: &str,
) -> Answer {
    let (Ok(p), Ok(counter)) = (&e.puzzle, counter) else {
        return a;
    };
    let budget = Budget::unlimited().timeout(timeout);
    let (solutions, shown) = match (&a, p.grid()) {
        (Answer::Solved(s), Some(_)) => match counter.count(&p.board, 2, &budget) {
            Ok(c) => (c.solutions, s.to_digits()),
            Err(_) => return a,
        },
        (Answer::SolvedBoard(s), None) => match counter.count(&p.board, 2, &budget) {
            Ok(c) => (c.solutions, board_line(s)),
            Err(_) => return a,
        },
        _ => return a,
    };
    if solutions >= 2 {
        Answer::Failed {
            kind: Failure::Several,
            message: format!(
                "{source}:{}: more than one solution, so not a proper puzzle (one of them: {shown})",
                e.line,
            ),
        }
    } else {
        a
    }
}

/// A writer of CSV rows (no header) into memory.
fn csv_rows() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new())
}

/// The side of a marked entry: its puzzle's, or the one its size showed, 9 when neither is
/// known (a 9x9 block of `x` reads back as one entry under any shape line).
fn side_of(e: &Entry) -> usize {
    e.shape.map_or(9, Shape::side)
}

/// The shape an answer is written as: its puzzle's (for a marked entry, the shape the entry
/// was read as, if known; a marked line or an unreadable CSV row has none).
fn written_shape(format: Format, e: &Entry, a: &Answer) -> Option<Shape> {
    match (format, a) {
        (_, Answer::Solved(_)) => Some(Shape::CLASSIC),
        (_, Answer::SolvedBoard(s)) => Some(s.shape()),
        (Format::Line, Answer::Failed { .. }) => None,
        (Format::Csv, Answer::Failed { .. }) => e.puzzle.as_ref().ok().map(|p| p.shape()),
        (_, Answer::Failed { .. }) => e.shape,
    }
}

/// Appends one answer in `format` to `buf` (CSV rows go through `csv`, which quotes names),
/// after the `# shape` line it needs to read back as its shape (`shapes`).
fn write_answer(
    buf: &mut Vec<u8>,
    csv: &mut csv::Writer<Vec<u8>>,
    (format, shapes): (Format, &mut ShapeLines),
    e: &Entry,
    a: &Answer,
) -> std::io::Result<()> {
    if let Some(line) = written_shape(format, e, a).and_then(|s| shapes.before(s, format)) {
        if format == Format::Csv {
            // Between CSV records: the rows written so far go first, to keep the order.
            let rows = std::mem::replace(csv, csv_rows()).into_inner();
            buf.extend_from_slice(&rows.map_err(|e| e.into_error())?);
        }
        buf.extend_from_slice(line.as_bytes());
    }
    if let (Format::Block, Some(title)) = (format, &e.name) {
        // The block's title, as a comment: the output stays readable as blocks.
        writeln!(buf, "# {title}")?;
    }
    match (format, a) {
        (Format::Line, Answer::Solved(s)) => {
            buf.extend(s.cells().iter().map(|&d| b'0' + d));
            if let Some(n) = &e.name {
                buf.push(b' ');
                buf.extend_from_slice(n.as_bytes());
            }
            buf.push(b'\n');
        }
        (Format::Line, Answer::Failed { message, .. }) => writeln!(buf, "ERROR {message}")?,
        (Format::Line, Answer::SolvedBoard(s)) => {
            buf.extend_from_slice(board_line(s).as_bytes());
            if let Some(n) = &e.name {
                buf.push(b' ');
                buf.extend_from_slice(n.as_bytes());
            }
            buf.push(b'\n');
        }
        (Format::Block, Answer::Solved(s)) => writeln!(buf, "{}", s.to_block())?,
        (Format::Block, Answer::SolvedBoard(s)) => {
            writeln!(buf, "{}", crate::input::format::board_block(s))?
        }
        (Format::Block, Answer::Failed { message, .. }) => {
            writeln!(buf, "# ERROR {message}")?;
            let n = side_of(e);
            let row = vec!["x"; n].join(" ");
            for _ in 0..n {
                writeln!(buf, "{row}")?;
            }
            writeln!(buf)?;
        }
        (Format::Pls, Answer::Solved(s)) => {
            buf.extend_from_slice(render_pls(&Board::from_grid(s)).as_bytes())
        }
        (Format::Pls, Answer::SolvedBoard(s)) => buf.extend_from_slice(render_pls(s).as_bytes()),
        (Format::Pls, Answer::Failed { message, .. }) => {
            writeln!(buf, "# ERROR {message}")?;
            let n = side_of(e);
            writeln!(buf, "order {n}")?;
            let row = vec!["x"; n].join(" ");
            for _ in 0..n {
                writeln!(buf, "{row}")?;
            }
        }
        (Format::Csv, a) => {
            let puzzle = e
                .puzzle
                .as_ref()
                .map(|p| match p.grid() {
                    Some(g) => g.to_digits(),
                    None => board_line(&p.board),
                })
                .unwrap_or_default();
            let (solution, error) = match a {
                Answer::Solved(s) => (s.to_digits(), ""),
                Answer::SolvedBoard(s) => (board_line(s), ""),
                Answer::Failed { message, .. } => (String::new(), message.as_str()),
            };
            csv.write_record([e.name.as_deref().unwrap_or(""), &puzzle, &solution, error])?;
        }
    }
    Ok(())
}

/// Solves every entry of `reader` chunk by chunk on `pool` with `engines` (see [`Engines::one`]
/// and [`Engines::any_shape`]), writing answers to `out` in `format` (the input's), in input
/// order, and reporting failures on stderr. Memory: a few chunks.
///
/// # Errors
/// An I/O error reading the input or writing `out`.
#[allow(clippy::too_many_arguments)]
pub fn solve_stream(
    reader: PuzzleReader,
    source: &str,
    out: &mut dyn Write,
    format: Format,
    engines: &Engines<'_>,
    pool: &rayon::ThreadPool,
    timeout: Option<Duration>,
    transform: Option<u64>,
) -> anyhow::Result<SolveCounts> {
    // Slot 0: the solver; slot 1: the champion, counting solutions to 2; then the built-ins.
    let sessions = Sessions::new(
        pool.current_num_threads(),
        FIRST_BUILTIN + engines.builtin.len(),
    );
    let chunks = Chunks::spawn(reader, CHUNK);
    let mut counts = SolveCounts::default();
    if format == Format::Csv {
        writeln!(out, "name,puzzle,solution,error")?;
    }
    let mut write_result: std::io::Result<()> = Ok(());
    let mut buf = Vec::with_capacity(CHUNK * 100);
    let mut shapes = ShapeLines::default();
    for chunk in chunks.iter() {
        let mut csv = csv_rows();
        let answers: Vec<Answer> = pool.install(|| {
            chunk
                .par_iter()
                .map(|e| solve_entry(e, engines, &sessions, timeout, source, transform))
                .collect()
        });
        for (e, a) in chunk.iter().zip(&answers) {
            counts.add(a, engines.echo);
            if write_result.is_ok() {
                write_result = write_answer(&mut buf, &mut csv, (format, &mut shapes), e, a);
            }
        }
        if write_result.is_ok() {
            write_result = csv
                .into_inner()
                .map_err(|e| e.into_error())
                .and_then(|rows| {
                    out.write_all(&buf)?;
                    out.write_all(&rows)
                });
        }
        buf.clear();
        if write_result.is_err() {
            break;
        }
    }
    let io_error = chunks.finish();
    write_result.context("writing the solutions")?;
    if let Some(e) = io_error {
        return Err(e).with_context(|| format!("reading {source}"));
    }
    Ok(counts)
}

/// One entry's answer: solved by the engine for its shape, then counted to 2 when there is a
/// counter for it.
fn solve_entry(
    e: &Entry,
    engines: &Engines<'_>,
    sessions: &Sessions,
    timeout: Option<Duration>,
    source: &str,
    transform: Option<u64>,
) -> Answer {
    let classic = e.puzzle.as_ref().map_or(true, |p| p.shape().is_classic());
    if classic {
        let engine = engines.main;
        let a = sessions.with(0, engine, |s| {
            answer(e, engine, s, timeout, source, transform)
        });
        return match engines.counter {
            Some(c) if !engines.first => {
                sessions.with(1, c, |c| unique_or_marked(a, e, c, timeout, source))
            }
            _ => a,
        };
    }
    let shape = e.puzzle.as_ref().map_or(Shape::CLASSIC, |p| p.shape());
    let (engine, slot) = match engines.solver(shape) {
        Ok(x) => x,
        Err(why) => {
            return Answer::Failed {
                kind: Failure::Invalid,
                message: format!("{source}:{}: {why}", e.line),
            }
        }
    };
    let counter = engines.counter_for(shape, (engine, slot));
    if counter.is_some_and(|(_, c)| c == slot) {
        // The solver counts: one search for two solutions finds the first and goes on for a
        // second, where a solve and then a count would search twice.
        if let Some(a) = sessions.with(slot, engine, |s| {
            answer_counted(e, engine, s, timeout, source)
        }) {
            return a;
        }
    }
    let a = sessions.with(slot, engine, |s| {
        answer(e, engine, s, timeout, source, None)
    });
    match counter {
        Some((c, slot)) => sessions.with(slot, c, |c| unique_or_marked(a, e, c, timeout, source)),
        None => a,
    }
}

/// The answer to a puzzle of another shape than 9x9 from one search for two solutions by a
/// solver that counts: its first solution, checked, marked when a second was found; the
/// answer as a solve gives it when the budget ran out after the first (as when a count after
/// the solve does not finish). `None` when the engine cannot count (the caller then solves and
/// counts apart).
fn answer_counted(
    e: &Entry,
    engine: &dyn Engine,
    session: Result<&mut dyn Session, String>,
    timeout: Option<Duration>,
    source: &str,
) -> Option<Answer> {
    let (Ok(p), Ok(session)) = (&e.puzzle, session) else {
        return None;
    };
    let fail = |kind, why: String| Answer::Failed {
        kind,
        message: format!("{source}:{}: {why}", e.line),
    };
    let name = &engine.info().name;
    let budget = Budget::unlimited().timeout(timeout);
    let c = match session.count(&p.board, 2, &budget) {
        Ok(c) => c,
        Err(solvers::engine::EngineError::Unsupported(_)) => return None,
        Err(why) => return Some(fail(Failure::Error, format!("{name}: {why}"))),
    };
    let status = match (&c.first, c.complete) {
        (Some(_), _) => Status::Solved,
        (None, false) => Status::Timeout,
        (None, true) => Status::NoSolution,
    };
    let several = c.solutions >= 2;
    let a = verdict(
        status,
        c.first,
        name,
        |s| verify::verdict(&p.board, s, p.solution.as_ref(), false),
        Answer::SolvedBoard,
        fail,
    );
    Some(match a {
        Answer::SolvedBoard(s) if several => Answer::Failed {
            kind: Failure::Several,
            message: format!(
                "{source}:{}: more than one solution, so not a proper puzzle (one of them: {})",
                e.line,
                board_line(&s),
            ),
        },
        a => a,
    })
}

/// Opens `file` (`-` = stdin) as a puzzle reader, format detected or forced.
///
/// # Errors
/// When the file cannot be opened or its first lines cannot be read.
pub fn open(file: &str, format: Option<Format>) -> anyhow::Result<PuzzleReader> {
    let input: Box<dyn Read + Send> = if file == "-" {
        Box::new(std::io::stdin())
    } else if std::path::Path::new(file).is_dir() {
        anyhow::bail!("cannot read {file}: it is a folder; give a file of puzzles");
    } else {
        Box::new(std::fs::File::open(file).with_context(|| format!("cannot open {file}"))?)
    };
    PuzzleReader::with_format(input, file, format).with_context(|| format!("reading {file}"))
}

/// Runs `harness solve`; returns the counts (the final line is already printed on stderr).
///
/// # Errors
/// Unknown solver, unreadable input, unwritable output.
pub fn solve(args: &crate::cli::SolveArgs) -> anyhow::Result<SolveCounts> {
    let registry = super::run::registry(&args.external, args.solver.is_some())?;
    let engine = match &args.solver {
        Some(n) => registry.engine(n, args.external.isolate)?,
        None => std::sync::Arc::new(solvers::registry::BuiltinEngine::new(
            crate::generate::counting_solver(),
        )),
    };
    if let Some(out) = &args.out {
        if args.file != "-" {
            crate::plumbing::output::refuse_same_file(std::path::Path::new(&args.file), out)?;
        }
    }
    let mut reader = open(&args.file, None)?;
    crate::input::dataset::refuse_empty(&mut reader, &args.file, "solved")?;
    let format = reader.format();
    let pool = super::generate::worker_pool(args.threads)?;
    let timeout = (args.timeout_ms > 0).then(|| Duration::from_millis(args.timeout_ms));
    let mut counts = SolveCounts::default();
    super::generate::to_file_or_stdout(args.out.as_deref(), |w| {
        let counter = solvers::registry::BuiltinEngine::new(crate::generate::counting_solver());
        let engines = Engines::any_shape(
            engine.as_ref(),
            Some(&counter),
            (args.solver.is_none(), args.first),
            // The `ERROR` lines already show on the terminal when the answers go there.
            !(args.out.is_none() && std::io::stdout().is_terminal()),
        );
        counts = solve_stream(
            reader,
            &args.file,
            w,
            format,
            &engines,
            &pool,
            timeout,
            args.transform,
        )?;
        Ok(())
    })?;
    errln!("{}", counts.line());
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::SolveCounts;

    /// Counts are written as every command writes them: thousands separated.
    #[test]
    fn the_final_line_separates_thousands() {
        let counts = SolveCounts {
            read: 1_000_001,
            solved: 999_000,
            invalid: 1_001,
            error: 1_000,
            ..SolveCounts::default()
        };
        assert_eq!(
            counts.line(),
            "read 1,000,001, solved 999,000, unsolvable 0, invalid 1,001, timeout 0, several 0, \
             error 1,000"
        );
    }
}
