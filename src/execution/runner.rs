//! The runner: every chosen solver over every puzzle of every dataset, in parallel with rayon,
//! each answer checked by [`crate::verify`], one [`Row`] per dataset x puzzle x solver.
//!
//! Puzzles come as a stream and are solved in bounded chunks ([`run_stream`]), so memory does
//! not grow with the run. Each chunk is cut into blocks of [`BLOCK`] puzzles of one dataset
//! ([`BlockPlan`]); a solver solves a whole block in a row on one thread, after untimed warm-up
//! solves of the puzzles it would have just solved alone ([`Block::warm`]), and the solvers'
//! order rotates from block to block, so a solver's times do not depend on which other solvers
//! share the run, and drift hits them alike. Each solve gets a fresh [`Budget`] (deadline and
//! node limit); timing wraps the `solve` call alone (µs, from a monotonic clock).

use crate::execution::sessions::Sessions;
use crate::input::dataset::Dataset;
use crate::input::isomorph::Transform;
use crate::record::{Row, RowStatus, SolutionClass};
use crate::verify;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use solvers::engine::{Engine, EngineError, Session};
use solvers::registry::BuiltinEngine;
use solvers::{Board, Budget, Grid, Outcome, SolverKind, Status};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// How a run is done.
#[derive(Clone)]
pub struct RunOptions {
    /// The solvers, in report order.
    pub solvers: Vec<Arc<dyn Engine>>,
    /// Per-puzzle wall-clock budget; `None` = unlimited.
    pub timeout: Option<Duration>,
    /// Per-puzzle node budget; `None` = unlimited.
    pub max_nodes: Option<u64>,
    /// Worker threads; `None` = one per core.
    pub threads: Option<usize>,
    /// Show a progress bar on stderr (hidden anyway when stderr is not a terminal).
    pub progress: bool,
    /// Set to stop the run early (Ctrl-C): solves in flight stop and, like the ones not yet
    /// started, give no row. An interrupted solve is not a `timeout`, so it is dropped rather
    /// than recorded; a solve that finished before the flag was seen keeps its row.
    pub cancel: Arc<AtomicBool>,
    /// Set by [`run_stream`] once the last solve has finished (its rows may still be on their
    /// way to the sink).
    pub solved_all: Arc<AtomicBool>,
    /// Count every puzzle's solutions (up to 2) once, with the fastest counting solver, into
    /// [`Row::solutions`].
    pub classes: bool,
    /// Give the solvers isomorph copies instead of the puzzles: the seed of
    /// [`Transform::random`], keyed by the puzzle's 1-based index in its dataset and the copy.
    /// Answers are mapped back and checked against the original puzzle.
    pub transform: Option<u64>,
    /// Copies of each puzzle, each under its own transform (1 = each puzzle once). More than 1
    /// needs `transform`.
    pub isomorphs: u32,
    /// Solves of each puzzle by each solver; the row keeps the median time (1 = once). A
    /// timeout is not repeated.
    pub repeat: u32,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            solvers: SolverKind::ALL
                .iter()
                .map(|&k| Arc::new(BuiltinEngine::new(k)) as Arc<dyn Engine>)
                .collect(),
            timeout: Some(Duration::from_millis(crate::DEFAULT_TIMEOUT_MS)),
            max_nodes: None,
            threads: None,
            progress: false,
            cancel: Arc::new(AtomicBool::new(false)),
            solved_all: Arc::new(AtomicBool::new(false)),
            classes: true,
            transform: None,
            isomorphs: 1,
            repeat: 1,
        }
    }
}

/// Runs `opts.solvers` over `datasets`; rows come back in dataset, puzzle, solver order. When
/// `opts.cancel` is set part-way, only the solves that finished are returned (see
/// [`RunOptions::cancel`]). This is [`run_stream`] collecting every row.
///
/// # Errors
/// Only when the thread pool cannot be built.
pub fn run(datasets: &[Dataset], opts: &RunOptions) -> anyhow::Result<Vec<Row>> {
    let total: usize = datasets
        .iter()
        .flat_map(|d| d.entries.iter())
        .map(|e| solves_of(e, opts))
        .sum();
    let puzzles = datasets.iter().flat_map(|d| {
        let name: Arc<str> = Arc::from(d.name.as_str());
        d.entries.iter().map(move |e| (name.clone(), e.clone()))
    });
    let mut rows = Vec::new();
    run_stream(puzzles, Some(total as u64), opts, |chunk| {
        rows.extend(chunk);
        Ok(())
    })?;
    Ok(rows)
}

/// The solves `entry` takes in a run with `opts`: one per copy and solver that takes its shape
/// (every solver for an unreadable puzzle, whose row says why); an engine whose caps do not take
/// the shape gives no row, so it is not counted.
pub fn solves_of(entry: &crate::input::format::Entry, opts: &RunOptions) -> usize {
    let solvers = match &entry.puzzle {
        Ok(p) => opts
            .solvers
            .iter()
            .filter(|e| e.info().caps.shapes.takes(p.shape()))
            .count(),
        Err(_) => opts.solvers.len(),
    };
    solvers * opts.isomorphs.max(1) as usize
}

/// Puzzles in the first chunk of [`run_stream`]; a chunk that takes under half a second doubles
/// the next one, up to [`MAX_CHUNK`]; one over two seconds halves it.
pub const FIRST_CHUNK: usize = 64;
/// The largest chunk of [`run_stream`], in puzzles (with two fast solvers about 5 MB of rows).
pub const MAX_CHUNK: usize = 8192;

/// Runs `opts.solvers` over a stream of `(dataset name, entry)` puzzles, in bounded chunks: a
/// chunk of puzzles is read, its dataset x puzzle x solver items solved on the rayon pool (every
/// solver of a puzzle in the same chunk, so the no-solution cross-check sees them all), and its
/// rows, in whole-run order, handed to `sink` on a writer thread while the next chunk is solved
/// (at most one chunk waits for the writer). Memory holds at most three chunks, whatever the
/// stream's length. `total` sizes the progress bar: the solves of the stream (see
/// [`solves_of`]: no (engine, puzzle) pair an engine's caps leave out). `opts.solved_all` is set once the
/// last solve has finished, before its chunk is handed over. When `opts.cancel` is set, the
/// chunk in flight keeps the rows of the solves that finished (see [`RunOptions::cancel`]) and no
/// further puzzle is read. A solve that has not come back [`STOP_GRACE`] after the cancel flag
/// was seen (a C call of an in-process `lib:` cannot be interrupted) is left running: the rows of
/// the solves that finished are handed to `sink` and the function returns without it.
///
/// # Errors
/// When the thread pool cannot be built, or `sink` fails (the run stops at the next chunk).
pub fn run_stream(
    mut puzzles: impl Iterator<Item = (Arc<str>, crate::input::format::Entry)>,
    total: Option<u64>,
    opts: &RunOptions,
    sink: impl FnMut(Vec<Row>) -> anyhow::Result<()> + Send,
) -> anyhow::Result<()> {
    let solvers = &opts.solvers;
    let per_puzzle = solvers.len();
    let bar = progress_bar(total, opts.progress);
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = opts.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder.build()?;
    // Two more sessions per thread: the counting solvers of the puzzle classes, of 9x9 puzzles
    // and of every other shape.
    // Shared with the chunk's job on the pool, which may outlive this call (see `wait_chunk`).
    let sessions = Arc::new(Sessions::new(pool.current_num_threads(), per_puzzle + 2));
    let counter = BuiltinEngine::new(crate::generate::counting_solver());
    let shaped_counter = BuiltinEngine::new(crate::generate::SHAPED_COUNTING_SOLVER);
    let class_of = |e: &crate::input::format::Entry| {
        let classic = e.puzzle.as_ref().map_or(true, |p| p.shape().is_classic());
        let (slot, engine) = if classic {
            (per_puzzle, &counter)
        } else {
            (per_puzzle + 1, &shaped_counter)
        };
        sessions.with(slot, engine, |s| match s {
            Ok(session) => puzzle_class(e, session, opts),
            Err(_) => None,
        })
    };
    let mut size = FIRST_CHUNK;
    let mut read = |n: usize| -> Vec<(Arc<str>, crate::input::format::Entry)> {
        puzzles.by_ref().take(n).collect()
    };
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Row>>(1);
    let result = std::thread::scope(|scope| -> anyhow::Result<()> {
        let mut sink = sink;
        let writer = scope.spawn(move || -> anyhow::Result<()> {
            for rows in rx {
                sink(rows)?;
            }
            Ok(())
        });
        let mut next = if per_puzzle == 0 {
            Vec::new()
        } else {
            read(size)
        };
        let mut blocks = BlockPlan::default();
        while !next.is_empty() {
            let chunk = Arc::new(std::mem::take(&mut next));
            let t0 = Instant::now();
            let per_entry = opts.isomorphs.max(1) as usize * per_puzzle;
            let plan = blocks.plan(&chunk, per_puzzle);
            let flight = start_chunk(&pool, chunk.clone(), plan, sessions.clone(), opts, &bar);
            let mut rows = match wait_chunk(flight, opts)? {
                Landed::Whole(rows) => rows,
                Landed::Stuck(mut rows) => {
                    // Stopped, and some solve never came back: save the rows of those that
                    // finished and leave it running (the process ends without it).
                    errln!(
                        "\ninterrupted: a solve did not stop within {} s (a call into an \
                         in-process library cannot be interrupted); saving the rows of the \
                         solves that finished, without waiting for it",
                        STOP_GRACE.as_secs()
                    );
                    cross_check(&mut rows, per_puzzle);
                    let _ = tx.send(rows.into_iter().flatten().collect());
                    break;
                }
            };
            // Each puzzle's class, counted once after its solves (so a hard count never delays
            // them; a run being stopped skips it).
            if opts.classes && !opts.cancel.load(Ordering::Relaxed) {
                let classes: Vec<Option<SolutionClass>> =
                    pool.install(|| chunk.par_iter().map(|(_, e)| class_of(e)).collect());
                set_classes(&mut rows, &classes, per_entry);
            }
            drop(chunk);
            cross_check(&mut rows, per_puzzle);
            size = next_chunk_size(size, t0.elapsed());
            if !opts.cancel.load(Ordering::Relaxed) {
                next = read(size);
            }
            if next.is_empty() {
                opts.solved_all.store(true, Ordering::SeqCst);
            }
            if tx.send(rows.into_iter().flatten().collect()).is_err() {
                // The writer stopped on an error: its join below says which.
                break;
            }
        }
        drop(tx);
        writer.join().expect("the writer thread does not panic")
    });
    bar.finish_and_clear();
    result
}

/// The progress bar of a run of `total` solves (hidden unless `shown`): whole solves per
/// second and an estimate of the time left.
fn progress_bar(total: Option<u64>, shown: bool) -> ProgressBar {
    let bar = if shown {
        ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} solves ({rate}, eta {eta})",
        )
        .expect("valid template")
        // Whole solves per second (indicatif's `{per_sec}` prints four decimals).
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", s.per_sec());
            },
        ),
    );
    bar
}

/// The next chunk's size after a chunk of `size` puzzles took `took`: doubled (up to
/// [`MAX_CHUNK`]) under half a second, halved over two seconds.
fn next_chunk_size(size: usize, took: Duration) -> usize {
    if took < Duration::from_millis(500) {
        (size * 2).min(MAX_CHUNK)
    } else if took > Duration::from_secs(2) {
        (size / 2).max(1)
    } else {
        size
    }
}

/// Writes each puzzle's class into its rows: `per_entry` rows a puzzle, in chunk order.
fn set_classes(rows: &mut [Option<Row>], classes: &[Option<SolutionClass>], per_entry: usize) {
    for (k, class) in classes.iter().enumerate() {
        for r in rows[k * per_entry..(k + 1) * per_entry]
            .iter_mut()
            .flatten()
        {
            r.solutions = *class;
        }
    }
}

/// CPU time of the calling thread, µs (`CLOCK_THREAD_CPUTIME_ID`); `None` where unavailable.
pub fn thread_cpu_micros() -> Option<f64> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec through a valid pointer.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        (rc == 0).then(|| ts.tv_sec as f64 * 1e6 + ts.tv_nsec as f64 / 1e3)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Puzzles of one dataset a solver solves in a row, warm and on its own, before the next solver
/// takes them ([`BlockPlan`]). Recorded in run.json (`block`) for `compare`.
pub const BLOCK: usize = 16;

/// The longest untimed warm-up solve (the run's budget when shorter), see [`WARMUP_TIME`].
pub const WARMUP_BUDGET: Duration = Duration::from_millis(10);

/// Warm-up time per block and solver: untimed solves of the warm-up puzzles until
/// [`WARMUP_SOLVES`] are done or this much time has passed.
pub const WARMUP_TIME: Duration = Duration::from_millis(2);

/// Untimed solves per block and solver, the warm-up puzzles taken in turn (again from the first
/// when there are fewer): a fast solver needs about ten solves to get back to its speed, also
/// at the start of a process or after a dataset of a few puzzles.
pub const WARMUP_SOLVES: usize = BLOCK;

/// One block of a chunk: entries `range` (one dataset, at most [`BLOCK`]) and the solvers'
/// order on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Entries of the chunk.
    pub range: std::ops::Range<usize>,
    /// Solver indices, in the order they take the block.
    pub order: Vec<usize>,
    /// The warm-up puzzles: the dataset's previous block (the block itself for a dataset's
    /// first block).
    pub warm: Arc<[crate::input::format::Entry]>,
}

/// Cuts the stream into blocks: every [`BLOCK`] puzzles of a dataset, counted over the whole
/// stream (a chunk boundary may cut one in two), the solvers' order rotating by one from each
/// block to the next, so each solver goes first, last and in between equally often.
#[derive(Debug, Default)]
pub struct BlockPlan {
    seen: std::collections::HashMap<Arc<str>, usize>,
    previous: std::collections::HashMap<Arc<str>, Arc<[crate::input::format::Entry]>>,
    turn: usize,
}

impl BlockPlan {
    /// The blocks of `chunk` for `solvers` solvers.
    pub fn plan(
        &mut self,
        chunk: &[(Arc<str>, crate::input::format::Entry)],
        solvers: usize,
    ) -> Vec<Block> {
        let mut out: Vec<Block> = Vec::new();
        let mut last: Option<(Arc<str>, usize)> = None;
        for (i, (name, _)) in chunk.iter().enumerate() {
            let n = self.seen.entry(name.clone()).or_insert(0);
            let key = (name.clone(), *n / BLOCK);
            *n += 1;
            match out.last_mut() {
                Some(b) if last.as_ref() == Some(&key) => b.range.end = i + 1,
                _ => {
                    let first = self.turn % solvers.max(1);
                    self.turn += 1;
                    out.push(Block {
                        range: i..i + 1,
                        order: (0..solvers).map(|k| (first + k) % solvers).collect(),
                        warm: Arc::from(Vec::new()),
                    });
                }
            }
            last = Some(key);
        }
        for b in &mut out {
            let name = &chunk[b.range.start].0;
            let own: Arc<[crate::input::format::Entry]> = chunk[b.range.clone()]
                .iter()
                .map(|(_, e)| e.clone())
                .collect();
            b.warm = self
                .previous
                .insert(name.clone(), own.clone())
                .unwrap_or(own);
        }
        out
    }
}

/// How long a stopped run waits for the solves in flight once its cancel flag is seen: every
/// built-in and out-of-process solve stops well within it; one still running after it is stuck
/// in code that cannot be interrupted (a C call of an in-process `lib:`) and is left behind.
pub const STOP_GRACE: Duration = Duration::from_secs(2);

/// A chunk being solved on the pool: a slot per row, each set as its solve finishes, and the
/// job's end (`Err` holds a panic of the job, raised again by [`wait_chunk`]).
struct InFlight {
    slots: Arc<Vec<OnceLock<Row>>>,
    done: std::sync::mpsc::Receiver<std::thread::Result<()>>,
}

/// What [`wait_chunk`] got of a chunk: every row (`None` for a solve that gives none), or, when
/// the run was stopped and a solve never came back, the rows of the solves that finished.
enum Landed {
    Whole(Vec<Option<Row>>),
    Stuck(Vec<Option<Row>>),
}

/// Starts solving `chunk` on `pool` ([`solve_chunk`]) without waiting for it: the job owns what
/// it uses, so it may be left running when a solve never returns.
fn start_chunk(
    pool: &rayon::ThreadPool,
    chunk: Arc<Vec<(Arc<str>, crate::input::format::Entry)>>,
    plan: Vec<Block>,
    sessions: Arc<Sessions>,
    opts: &RunOptions,
    bar: &ProgressBar,
) -> InFlight {
    let n = chunk.len() * opts.isomorphs.max(1) as usize * opts.solvers.len();
    let slots: Arc<Vec<OnceLock<Row>>> = Arc::new((0..n).map(|_| OnceLock::new()).collect());
    let (tx, done) = std::sync::mpsc::sync_channel(1);
    let job = (
        chunk,
        plan,
        sessions,
        slots.clone(),
        opts.clone(),
        bar.clone(),
    );
    pool.spawn(move || {
        let result = {
            // Everything the job holds is dropped before it says it is done, so the waiting
            // side then holds the only references to the slots and the sessions (whose
            // child processes end when they are dropped).
            let (chunk, plan, sessions, slots, opts, bar) = job;
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                solve_chunk(&chunk, &plan, &sessions, &opts, &bar, &slots)
            }))
        };
        let _ = tx.send(result);
    });
    InFlight { slots, done }
}

/// Waits for a chunk started by [`start_chunk`]: until every solve has come back, or, once
/// `opts.cancel` is set, for at most [`STOP_GRACE`] more.
///
/// # Errors
/// When the job ended without saying so (the pool went away).
fn wait_chunk(flight: InFlight, opts: &RunOptions) -> anyhow::Result<Landed> {
    let mut cancelled: Option<Instant> = None;
    loop {
        match flight.done.recv_timeout(Duration::from_millis(50)) {
            Ok(Ok(())) => break,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if !opts.cancel.load(Ordering::Relaxed) {
                    continue;
                }
                let since = *cancelled.get_or_insert_with(Instant::now);
                if since.elapsed() >= STOP_GRACE {
                    let rows = flight.slots.iter().map(|s| s.get().cloned()).collect();
                    return Ok(Landed::Stuck(rows));
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                anyhow::bail!("the solving threads ended before the puzzles were solved")
            }
        }
    }
    let rows = match Arc::try_unwrap(flight.slots) {
        Ok(slots) => slots.into_iter().map(OnceLock::into_inner).collect(),
        Err(slots) => slots.iter().map(|s| s.get().cloned()).collect(),
    };
    Ok(Landed::Whole(rows))
}

/// Solves a chunk block by block: each (block, copy, solver) is one work item on the pool,
/// its puzzles solved in a row on one thread after an untimed warm-up solve. Each row is put
/// into its slot of `slots` (puzzle-major, copy, solver order) as soon as its solve finishes; a
/// solve the cancel flag dropped leaves its slot empty.
fn solve_chunk(
    chunk: &[(Arc<str>, crate::input::format::Entry)],
    plan: &[Block],
    sessions: &Sessions,
    opts: &RunOptions,
    bar: &ProgressBar,
    slots: &[OnceLock<Row>],
) {
    let per_puzzle = opts.solvers.len();
    let copies = opts.isomorphs.max(1) as usize;
    let items: Vec<(&Block, usize, usize)> = plan
        .iter()
        .flat_map(|b| (0..copies).flat_map(move |c| b.order.iter().map(move |&s| (b, c, s))))
        .collect();
    items.par_iter().for_each(|&(b, copy, s)| {
        let engine = opts.solvers[s].as_ref();
        let mut made = 0u64;
        let mut put = |e: usize, row: Option<Row>| {
            if let Some(row) = row {
                made += 1;
                let _ = slots[(e * copies + copy) * per_puzzle + s].set(row);
            }
        };
        sessions.with(s, engine, |session| match session {
            Ok(session) => {
                warm_up(&b.warm, copy, engine, session, opts);
                for e in b.range.clone() {
                    let (name, entry) = &chunk[e];
                    let session: &mut dyn Session = &mut *session;
                    put(
                        e,
                        solve_counted(name, entry, copy, engine, Ok(session), opts),
                    );
                }
            }
            Err(err) => {
                for e in b.range.clone() {
                    let (name, entry) = &chunk[e];
                    put(
                        e,
                        solve_counted(name, entry, copy, engine, Err(err.clone()), opts),
                    );
                }
            }
        });
        bar.inc(made);
    });
}

/// The transform of copy `copy` of `entry`, when the run transforms puzzles.
fn transform_of(
    opts: &RunOptions,
    entry: &crate::input::format::Entry,
    copy: usize,
) -> Option<Transform> {
    opts.transform
        .map(|seed| Transform::random(seed, entry.index as u64, copy as u32))
}

/// Untimed solves of the block's warm-up puzzles ([`Block::warm`]: the puzzles a solver run
/// alone would have solved just before), in turn, until [`WARMUP_SOLVES`] are done or
/// [`WARMUP_TIME`] has passed (each under at most [`WARMUP_BUDGET`]). A solver that follows another on the same
/// core starts cold (its tables and branch history evicted), and a 2 µs solver needs about ten
/// solves to warm up again; warming up on the timed puzzles themselves would train the branch
/// predictor on them and make it faster than it is alone. Out-of-process solvers are not warmed
/// (a process per solve has nothing to keep warm).
fn warm_up(
    warm: &[crate::input::format::Entry],
    copy: usize,
    engine: &dyn Engine,
    session: &mut dyn Session,
    opts: &RunOptions,
) {
    if engine.info().origin.out_of_process() {
        return;
    }
    let limit = opts.timeout.map_or(WARMUP_BUDGET, |t| t.min(WARMUP_BUDGET));
    let t0 = Instant::now();
    for entry in warm.iter().cycle().take(WARMUP_SOLVES) {
        if t0.elapsed() >= WARMUP_TIME || opts.cancel.load(Ordering::Relaxed) {
            return;
        }
        let Ok(puzzle) = &entry.puzzle else { continue };
        if !engine.info().caps.shapes.takes(puzzle.shape()) {
            continue;
        }
        let given = Given::of(puzzle, transform_of(opts, entry, copy).as_ref());
        let budget = Budget::unlimited()
            .max_nodes(opts.max_nodes)
            .cancel_flag(opts.cancel.clone())
            .timeout(Some(limit));
        let _ = std::hint::black_box(given.solve(session, &budget));
    }
}

/// One timed solve as a row, or `None` when the cancel flag is set before it starts or stopped
/// it (an interrupted solve is neither a real timeout nor a real failure: a child process may
/// have had the signal too), or when the engine does not take the puzzle's shape (it is left
/// out: "n/a" in the tables, never an error row).
fn solve_counted(
    dataset: &str,
    entry: &crate::input::format::Entry,
    copy: usize,
    engine: &dyn Engine,
    session: Result<&mut dyn Session, String>,
    opts: &RunOptions,
) -> Option<Row> {
    if opts.cancel.load(Ordering::Relaxed) {
        return None;
    }
    if let Ok(p) = &entry.puzzle {
        if !engine.info().caps.shapes.takes(p.shape()) {
            return None;
        }
    }
    let transform = transform_of(opts, entry, copy);
    let row = solve_one(dataset, entry, engine, session, opts, transform.as_ref());
    let stopped = matches!(row.status, RowStatus::Timeout | RowStatus::Error)
        && opts.cancel.load(Ordering::Relaxed);
    (!stopped).then_some(row)
}

/// What a solver is given: the puzzle, or for a classic one its isomorph under the run's
/// transform (the isomorphisms are 9x9 ones: other shapes are not transformed).
struct Given(Board);

impl Given {
    fn of(puzzle: &crate::input::format::Puzzle, transform: Option<&Transform>) -> Given {
        match (puzzle.grid(), transform) {
            (Some(grid), Some(t)) => Given(Board::from(t.apply_grid(&grid))),
            _ => Given(puzzle.board.clone()),
        }
    }

    /// One solve.
    #[inline]
    fn solve(&self, session: &mut dyn Session, budget: &Budget) -> Result<Outcome, EngineError> {
        session.solve(&self.0, budget)
    }
}

/// `outcome` with its solution mapped back from the isomorph `transform` made.
fn mapped_back(outcome: Outcome, transform: Option<&Transform>) -> Outcome {
    let Some(t) = transform else {
        return outcome;
    };
    let solution = outcome.solution.map(|sol| match sol.to_grid() {
        Some(g) => Board::from(Grid::from_cells(t.invert(g.cells())).unwrap_or(g)),
        None => sol,
    });
    Outcome {
        solution,
        ..outcome
    }
}

/// A row for `entry` with nothing solved yet (status `invalid`).
fn blank_row(dataset: &str, entry: &crate::input::format::Entry, solver: &str) -> Row {
    Row {
        line: entry.line,
        ..Row::new(dataset, &entry.label(), solver)
    }
}

/// Solves one puzzle (`opts.repeat` times) and checks the answer: the row of one solve.
fn solve_one(
    dataset: &str,
    entry: &crate::input::format::Entry,
    engine: &dyn Engine,
    session: Result<&mut dyn Session, String>,
    opts: &RunOptions,
    transform: Option<&Transform>,
) -> Row {
    let info = engine.info();
    let mut row = blank_row(dataset, entry, &info.name);
    let puzzle = match &entry.puzzle {
        Ok(p) => p,
        Err(err) => {
            row.error = err.to_string();
            return row;
        }
    };
    row.shape = puzzle.shape().to_string();
    row.givens = puzzle.board.givens();
    row.grid = crate::input::format::board_line(&puzzle.board);
    let transform = transform.filter(|_| puzzle.shape().is_classic());
    if let Some(t) = transform {
        row.transform = t.code();
    }
    let given = Given::of(puzzle, transform);
    let session = match session {
        Ok(s) => s,
        Err(err) => {
            row.status = RowStatus::Error;
            row.error = format!("{}: cannot start: {err}", info.name);
            return row;
        }
    };
    let (result, restarted) = timed_solves(&given, engine, session, opts, &mut row);
    let outcome = match result {
        Ok(o) => mapped_back(o, transform),
        Err(err) => {
            row.status = RowStatus::Error;
            row.error = format!("{}: {err}{}", info.name, restarted.unwrap_or_default());
            return row;
        }
    };
    if outcome.status == Status::Timeout {
        if let Some(note) = restarted {
            row.error = note.trim_start_matches("; ").to_string();
        }
    }
    row.status = outcome.status.into();
    row.nodes = outcome.stats.nodes;
    row.guesses = outcome.stats.guesses;
    row.backtracks = outcome.stats.backtracks;
    row.propagations = outcome.stats.propagations;
    row.updates = outcome.stats.updates;
    judge(
        &mut row,
        outcome,
        puzzle,
        // "Solved, unchecked": this solver writes no solution to check (a line-protocol
        // program may answer `solved` to any request).
        !info.caps.gives_solution
            || matches!(
                foreign::ForeignOrigin::of(&info.origin),
                Some(foreign::ForeignOrigin::LineProtocol { .. })
            ),
    );
    row
}

/// Solves `given` `opts.repeat` times (a fresh budget each time; a timeout is not repeated)
/// and writes the median wall and CPU times (µs) and the peak RSS into `row`; returns the last
/// solve's outcome (the solvers are deterministic: every repeat gives the same answer and
/// counters) and, when a foreign program was started again, a note saying so (its restart is
/// charged apart: not in any row's time).
fn timed_solves(
    given: &Given,
    engine: &dyn Engine,
    session: &mut dyn Session,
    opts: &RunOptions,
    row: &mut Row,
) -> (Result<Outcome, EngineError>, Option<String>) {
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    let mut restart_micros = 0.0;
    loop {
        let budget = Budget::unlimited()
            .max_nodes(opts.max_nodes)
            .cancel_flag(opts.cancel.clone())
            .timeout(opts.timeout);
        let cpu0 = thread_cpu_micros();
        let start = Instant::now();
        let result = given.solve(session, &budget);
        walls.push((start.elapsed().as_secs_f64() * 1e9).round() / 1e3);
        let cpu1 = thread_cpu_micros();
        match session.last_usage() {
            Some(u) => {
                if u.restart_micros > 0.0 {
                    restart_micros += u.restart_micros;
                    if let Some(w) = walls.last_mut() {
                        *w = (*w - u.restart_micros).max(0.0);
                    }
                }
                cpus.push((u.cpu_micros * 1e3).round() / 1e3);
                row.peak_rss_kib = row.peak_rss_kib.max(u.peak_rss_kib);
            }
            None if !engine.info().origin.out_of_process() => {
                if let (Some(a), Some(b)) = (cpu0, cpu1) {
                    cpus.push(((b - a) * 1e3).round() / 1e3);
                }
            }
            None => {}
        }
        let again = matches!(&result, Ok(o) if o.status != Status::Timeout)
            && walls.len() < opts.repeat.max(1) as usize
            && !opts.cancel.load(Ordering::Relaxed);
        if !again {
            // The one median of the harness (summary.rs's), on sorted values.
            let median = |v: &mut Vec<f64>| {
                v.sort_by(f64::total_cmp);
                crate::analysis::stats::sort_and_quantile(v, 0.5)
            };
            row.micros = (median(&mut walls) * 1e3).round() / 1e3;
            if !cpus.is_empty() {
                row.cpu_micros = Some((median(&mut cpus) * 1e3).round() / 1e3);
            }
            let restarted = (restart_micros > 0.0).then(|| {
                format!(
                    "; the program was started again ({:.0} ms, not in this row's time)",
                    restart_micros / 1e3
                )
            });
            return (result, restarted);
        }
    }
}

/// Judges a solved answer (mapped back from the isomorph) and a `no_solution` by the checker's
/// rule ([`verify::verdict`], [`verify::no_solution_verdict`]); writes `correct`, `solution` and
/// `error`. The puzzle's class is counted after its solves, so a stated solution decides no
/// solved answer here (it would only where a count proved one solution, and a valid answer then
/// equals it).
fn judge(
    row: &mut Row,
    outcome: Outcome,
    puzzle: &crate::input::format::Puzzle,
    unchecked_ok: bool,
) {
    match (outcome.status, outcome.solution) {
        (Status::Solved, Some(sol)) => {
            row.solution = crate::input::format::board_line(&sol);
            match verify::verdict(&puzzle.board, &sol, puzzle.solution.as_ref(), false) {
                Ok(()) => row.correct = Some(true),
                Err(w) => {
                    row.correct = Some(false);
                    row.error = w.to_string();
                }
            }
        }
        (Status::Solved, None) if unchecked_ok => {
            // "Solved, unchecked": this solver writes no solution to check.
        }
        (Status::Solved, None) => {
            row.correct = Some(false);
            row.error = "solver reported solved without a grid".into();
        }
        (Status::NoSolution, _) => {
            if let Err(w) = verify::no_solution_verdict(puzzle.solution.as_ref()) {
                row.correct = Some(false);
                row.error = w.to_string();
            }
        }
        _ => {}
    }
}

/// The longest a puzzle's class count may take: the run's time budget when shorter. A puzzle
/// the counting solver cannot settle in this time gets an empty class, and its solves start on
/// time.
pub const CLASS_BUDGET: Duration = Duration::from_secs(1);

/// The class of a puzzle: `0`, `1` or `2+` solutions, counted up to 2 by
/// `counter`, a session of [`crate::generate::counting_solver_for`] the puzzle's shape, under the run's budget (at most [`CLASS_BUDGET`]);
/// empty for an invalid puzzle or a count that ran out of budget.
fn puzzle_class(
    entry: &crate::input::format::Entry,
    counter: &mut dyn Session,
    opts: &RunOptions,
) -> Option<SolutionClass> {
    let Ok(puzzle) = &entry.puzzle else {
        return None;
    };
    let budget = Budget::unlimited()
        .max_nodes(opts.max_nodes)
        .cancel_flag(opts.cancel.clone())
        .timeout(Some(
            opts.timeout.map_or(CLASS_BUDGET, |t| t.min(CLASS_BUDGET)),
        ));
    let count = counter
        .count(&puzzle.board, 2, &budget)
        .map(|c| (c.solutions, c.complete));
    match count {
        Ok((n, true)) => Some(SolutionClass::of(n)),
        _ => None,
    }
}

/// A `no_solution` answer is wrong when another solver found a checked solution of the same
/// puzzle. `rows` is in puzzle-major, solver-minor order, `per_puzzle` rows per puzzle.
fn cross_check(rows: &mut [Option<Row>], per_puzzle: usize) {
    if per_puzzle == 0 {
        return;
    }
    for chunk in rows.chunks_mut(per_puzzle) {
        let solved_by = chunk
            .iter()
            .flatten()
            .find(|r| r.correct == Some(true))
            .map(|r| r.solver.clone());
        if let Some(by) = solved_by {
            for r in chunk.iter_mut().flatten() {
                if r.status == RowStatus::NoSolution && r.correct != Some(false) {
                    r.correct = Some(false);
                    r.error = format!("no_solution, but {by} found a checked solution");
                }
            }
        }
    }
}
