//! Throughput measurement shared by `harness bench` and `harness regress`: every contestant (each
//! solver of [`SolverKind::ALL`], plus the `sudoku` crate when built with the `reference`
//! feature) solves the same puzzles in one process, single thread, in interleaved rounds.
//!
//! ## Method
//! 1. **Calibration**: each contestant solves chunks of [`CHUNK`] puzzles until it has spent
//!    `calibrate` seconds or finished the set. A contestant whose projected time for the whole set
//!    exceeds `round_budget` gets only the prefix of the set that fits in it (whole chunks, at least
//!    one): slow solvers (plain backtracking, say) stay affordable. Slow solves are also cut by a
//!    per-puzzle deadline (`slow_timeout`); a cut solve counts at the time it took and is reported.
//!    Every other solve has a deadline too, from the round budget: a chunk of a contestant on
//!    the whole set (whose whole set fits in `round_budget`) must end within twice
//!    `round_budget` (at least `slow_timeout`). A contestant that passes it (a foreign program
//!    that stopped answering) is **cut for the round**: its other solves of that round are
//!    skipped and the round gives it no time. So no contestant holds a bench longer than its
//!    deadlines allow.
//! 2. **Rounds**: `rounds` times, every contestant solves its subset, the order of contestants
//!    rotating from round to round so that clock and cache drift hit all alike. Each turn opens
//!    with an untimed warm-up (the first chunk), and a subset solved in under `min_round`
//!    seconds is solved that many times over, each chunk's time in the round being the median
//!    of its passes (a pass the scheduler interrupted on a loaded machine does not move it). The
//!    first pass solves the puzzles as given, each later pass `k` random isomorphs of them, the
//!    same for every contestant ([`PASS_SEED`]): a processor's branch predictor can learn a few
//!    hundred puzzles solved back to back, and it favours some solvers more than others. Each
//!    chunk is timed on its own, so any contestant's time on any prefix of whole chunks is known.
//! 3. **Figures**: a contestant's time is the median over rounds; its throughput is its subset size
//!    over that time (puzzles/s). Ratios compare two contestants *on the same puzzles in the same
//!    round* (the slower one's subset), and the median and range over rounds are reported.
//!
//! Answers are checked after timing, outside the clock: solutions by [`crate::verify::check`],
//! counts against the champion's.

use crate::verify;
use foreign::ForeignOrigin;
use solvers::engine::{Engine, EngineInfo, ExternalOrigin, Origin, Session};
use solvers::registry::BuiltinEngine;
use solvers::{Board, Budget, Grid, SolverKind, Status};
use std::any::Any;
use std::cell::RefCell;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Puzzles per timed chunk.
pub const CHUNK: usize = 64;

/// Most passes over its set a contestant makes in one round (see [`Settings::min_round`]).
pub const MAX_PASSES: usize = 100_000;

/// What each solve does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Find the first solution (`Solver::solve`).
    First,
    /// Count solutions up to 2 (`Solver::count`), the uniqueness check public benchmarks time.
    Count2,
}

impl Mode {
    /// `first` or `count<=2`.
    pub fn label(self) -> &'static str {
        match self {
            Mode::First => "first solution",
            Mode::Count2 => "count up to 2",
        }
    }
}

/// One competitor: an engine and the one session the benchmark's single thread uses.
pub struct Contestant {
    engine: Arc<dyn Engine>,
    session: RefCell<Box<dyn Session>>,
}

impl Contestant {
    /// A contestant for `engine`.
    ///
    /// # Errors
    /// When the engine cannot open a session (a library that does not load).
    pub fn new(engine: Arc<dyn Engine>) -> anyhow::Result<Contestant> {
        let session = engine
            .session()
            .map_err(|e| anyhow::anyhow!("{}: {e}", engine.info().name))?;
        Ok(Contestant {
            engine,
            session: RefCell::new(session),
        })
    }

    /// Contestants for `engines`, plus the `sudoku` crate when built with the `reference`
    /// feature and `with_reference` is set.
    ///
    /// # Errors
    /// As [`Contestant::new`].
    pub fn all(
        engines: &[Arc<dyn Engine>],
        with_reference: bool,
    ) -> anyhow::Result<Vec<Contestant>> {
        #[cfg_attr(not(feature = "reference"), allow(unused_mut))]
        let mut v = engines
            .iter()
            .map(|e| Contestant::new(e.clone()))
            .collect::<anyhow::Result<Vec<_>>>()?;
        #[cfg(feature = "reference")]
        if with_reference {
            v.push(Contestant::new(
                Arc::new(reference::ReferenceEngine::new()),
            )?);
        }
        #[cfg(not(feature = "reference"))]
        let _ = with_reference;
        Ok(v)
    }

    /// The name in tables.
    pub fn name(&self) -> &str {
        &self.engine.info().name
    }

    /// Its engine's description.
    pub fn info(&self) -> &EngineInfo {
        self.engine.info()
    }

    /// True for the reference crate.
    pub fn is_reference(&self) -> bool {
        self.info().origin.downcast::<ReferenceOrigin>().is_some()
    }

    /// The solver kind, for built-in solvers.
    pub fn kind(&self) -> Option<SolverKind> {
        match self.info().origin {
            Origin::Builtin => self.name().parse().ok(),
            _ => None,
        }
    }

    /// True for contestants that always run the whole set: the champion, the reference and
    /// in-process external solvers (the yardsticks).
    fn is_yardstick(&self) -> bool {
        self.kind() == Some(SolverKind::CHAMPION)
            || self.is_reference()
            || matches!(
                ForeignOrigin::of(&self.info().origin),
                Some(ForeignOrigin::SharedLib {
                    isolated: false,
                    ..
                })
            )
    }

    /// Whether it can run in `mode` (declared in its capabilities).
    pub fn supports(&self, mode: Mode) -> bool {
        match mode {
            Mode::First => true,
            Mode::Count2 => self.info().caps.counts,
        }
    }
}

/// The reference's name in tables.
pub const REFERENCE_NAME: &str = "sudoku-crate";

/// Where the reference comes from: a crate compiled into the harness for benchmarks only (the
/// `sudoku` crate), recorded in run.json as `reference`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReferenceOrigin;

impl ExternalOrigin for ReferenceOrigin {
    /// `reference`.
    fn kind(&self) -> &'static str {
        "reference"
    }

    fn out_of_process(&self) -> bool {
        false
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same_as(&self, other: &dyn ExternalOrigin) -> bool {
        other.as_any().is::<ReferenceOrigin>()
    }
}

/// The `sudoku` crate (JCZSolve-derived, AGPL-3.0) as an engine, only with the `reference`
/// feature.
#[cfg(feature = "reference")]
mod reference {
    use super::ReferenceOrigin;
    use solvers::engine::{
        BudgetMode, Caps, Engine, EngineError, EngineInfo, NodeUnit, Origin, Session,
    };
    use solvers::{Board, Budget, Count, Grid, Outcome, Stats, Status};

    pub(super) struct ReferenceEngine(EngineInfo);

    impl ReferenceEngine {
        pub(super) fn new() -> ReferenceEngine {
            ReferenceEngine(EngineInfo {
                name: super::REFERENCE_NAME.to_string(),
                description: "the sudoku crate (JCZSolve-derived), a reference for benchmarks"
                    .to_string(),
                version: Some("0.8".to_string()),
                origin: Origin::external(ReferenceOrigin),
                caps: Caps {
                    shapes: solvers::engine::Shapes::Classic,
                    counts: true,
                    gives_solution: true,
                    budget: BudgetMode::OverrunRecorded,
                    nodes: NodeUnit::None,
                    guesses: false,
                    parallel: true,
                },
            })
        }
    }

    impl Engine for ReferenceEngine {
        fn info(&self) -> &EngineInfo {
            &self.0
        }
        fn session(&self) -> Result<Box<dyn Session>, EngineError> {
            Ok(Box::new(ReferenceSession))
        }
    }

    struct ReferenceSession;

    impl Session for ReferenceSession {
        fn solve(&mut self, puzzle: &Board, _: &Budget) -> Result<Outcome, EngineError> {
            let puzzle = solvers::engine::classic(puzzle)?;
            let s = sudoku::Sudoku::from_bytes(*puzzle.cells()).expect("cells are 0..=9");
            Ok(match s.some_solution() {
                Some(sol) => Outcome::solved(
                    Board::from(Grid::from_cells(sol.to_bytes()).expect("digits")),
                    Stats::default(),
                ),
                None => Outcome::unsolved(Status::NoSolution, Stats::default()),
            })
        }
        fn count(&mut self, puzzle: &Board, limit: u64, _: &Budget) -> Result<Count, EngineError> {
            let puzzle = solvers::engine::classic(puzzle)?;
            let s = sudoku::Sudoku::from_bytes(*puzzle.cells()).expect("cells are 0..=9");
            Ok(Count {
                solutions: s.solutions_count_up_to(limit as usize) as u64,
                complete: true,
                first: None,
                stats: Stats::default(),
            })
        }
    }
}

/// The seed of the isomorphs that passes after the first solve ([`Prepared::with_passes`]).
pub const PASS_SEED: u64 = 0x6265_6e63_6870;

/// Puzzles prepared for every contestant.
pub struct Prepared {
    /// The puzzles.
    pub grids: Vec<Grid>,
    /// The same puzzles as the boards the engines take, made once before any solve.
    boards: Vec<Board>,
}

impl Prepared {
    /// Prepares `grids` (givens consistent).
    pub fn new(grids: Vec<Grid>) -> Prepared {
        let boards = grids.iter().map(Board::from).collect();
        Prepared { grids, boards }
    }

    /// The puzzles of passes `1..passes` of a round: pass `k` holds a random isomorph of each
    /// puzzle (digits relabelled, rows, columns, bands and stacks permuted, maybe transposed),
    /// drawn from [`PASS_SEED`], the puzzle's index and `k`; pass 0 is `self`.
    pub fn with_passes(&self, passes: usize) -> Vec<Prepared> {
        (1..passes)
            .map(|k| {
                let grids = self
                    .grids
                    .iter()
                    .enumerate()
                    .map(|(i, g)| {
                        crate::input::isomorph::Transform::random(PASS_SEED, i as u64, k as u32)
                            .apply_grid(g)
                    })
                    .collect();
                Prepared::new(grids)
            })
            .collect()
    }
}

/// A solve's result as far as checking goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Grid([u8; 81]),
    Count(u64),
    /// Solved, but the solver writes no solution.
    Unchecked,
    None,
    Timeout,
    Error,
}

/// Solves puzzle `i` within `budget`; returns its answer.
#[inline]
fn solve_one(c: &Contestant, p: &Prepared, i: usize, mode: Mode, budget: &Budget) -> Answer {
    let mut session = c.session.borrow_mut();
    match mode {
        Mode::First => match session.solve(&p.boards[i], budget) {
            Ok(o) => match (o.status, o.grid()) {
                (Status::Timeout, _) => Answer::Timeout,
                (_, Some(g)) => Answer::Grid(*g.cells()),
                (Status::Solved, None) => Answer::Unchecked,
                _ => Answer::None,
            },
            Err(_) => Answer::Error,
        },
        Mode::Count2 => match session.count(&p.boards[i], 2, budget) {
            Ok(c) if c.complete => Answer::Count(c.solutions),
            Ok(_) => Answer::Timeout,
            Err(_) => Answer::Error,
        },
    }
}

/// What timing a range of puzzles gave.
#[derive(Debug, Clone, Copy)]
struct Timed {
    /// Seconds.
    secs: f64,
    /// Solves cut by the deadline.
    cut: usize,
    /// The range was left at a cut solve (the plan cuts the contestant for the round).
    stopped: bool,
}

/// The budget of a solve under `plan`, or of a range of solves started at once: its deadline
/// from now.
fn plan_budget(plan: Plan) -> Budget {
    Budget::with_timeout(plan.deadline)
}

/// Times puzzles `[start, end)` under `plan`'s deadline; stops at the first cut solve when the
/// plan says so. A contestant on a prefix gets the deadline for each solve; one on the whole set
/// for the range (a chunk, far within the round budget: one clock read for all its solves, so
/// the fastest solvers pay nothing for it).
fn time_range(
    c: &Contestant,
    p: &Prepared,
    start: usize,
    end: usize,
    mode: Mode,
    plan: Plan,
) -> Timed {
    let mut cut = 0;
    let t = Instant::now();
    let range = plan.cut_for_round.then(|| plan_budget(plan));
    for i in start..end {
        let each;
        let budget = match &range {
            Some(b) => b,
            None => {
                each = plan_budget(plan);
                &each
            }
        };
        if std::hint::black_box(solve_one(c, p, i, mode, budget)) == Answer::Timeout {
            cut += 1;
            if plan.cut_for_round {
                return Timed {
                    secs: t.elapsed().as_secs_f64(),
                    cut,
                    stopped: true,
                };
            }
        }
    }
    Timed {
        secs: t.elapsed().as_secs_f64(),
        cut,
        stopped: false,
    }
}

/// Settings of one measurement.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Solve mode.
    pub mode: Mode,
    /// Interleaved rounds.
    pub rounds: usize,
    /// Seconds of calibration per contestant (at most).
    pub calibrate: f64,
    /// Seconds one contestant may spend per round; slower ones get a prefix of the set (never the
    /// champion or the reference: they always run the whole set). Twice this (at least
    /// `slow_timeout`) is the deadline of each chunk of a contestant on the whole set: one that
    /// passes it is cut for the round.
    pub round_budget: f64,
    /// Per-puzzle deadline for contestants on a prefix.
    pub slow_timeout: Duration,
    /// Least seconds each contestant is measured per round (as criterion's measurement time):
    /// a set solved faster is solved several times over in the round, each chunk's time the
    /// median of its passes, so that a small file still gives a ratio with a tight interval.
    pub min_round: f64,
}

/// One contestant's measurement.
#[derive(Debug, Clone)]
pub struct Measured {
    /// Its name.
    pub name: String,
    /// True for the reference crate.
    pub reference: bool,
    /// Its solver kind (None for the reference).
    pub kind: Option<SolverKind>,
    /// Puzzles it solved per round (a prefix of the set).
    pub puzzles: usize,
    /// Seconds per chunk per round: `chunk_secs[round][chunk]`; empty for a round the
    /// contestant was cut from (a solve passed the round budget).
    pub chunk_secs: Vec<Vec<f64>>,
    /// Solves cut by a deadline, over all rounds.
    pub cut: usize,
    /// Rounds it was cut from.
    pub cut_rounds: usize,
    /// Wrong answers found by the check after timing (a solver error counts as wrong).
    pub wrong: usize,
    /// Solved answers that could not be checked (the solver writes no solution).
    pub unchecked: usize,
}

impl Measured {
    /// Its time on the first `chunks` chunks in round `r`, seconds; `None` for a round it was
    /// cut from.
    pub fn secs(&self, r: usize, chunks: usize) -> Option<f64> {
        let round = self.chunk_secs.get(r).filter(|c| !c.is_empty())?;
        Some(round[..chunks.min(round.len())].iter().sum())
    }

    /// Chunks it ran.
    pub fn chunks(&self) -> usize {
        self.chunk_secs.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// Rounds that timed it whole (not cut).
    pub fn whole_rounds(&self) -> usize {
        self.chunk_secs.iter().filter(|c| !c.is_empty()).count()
    }

    /// Median over its whole rounds of its time on its whole subset, seconds (NaN when it was
    /// cut from every round).
    pub fn median_secs(&self) -> f64 {
        let mut v: Vec<f64> = (0..self.chunk_secs.len())
            .filter_map(|r| self.secs(r, self.chunks()))
            .collect();
        if v.is_empty() {
            return f64::NAN;
        }
        crate::analysis::stats::sort_and_quantile(&mut v, 0.5)
    }

    /// Puzzles per second on its subset (median round).
    pub fn throughput(&self) -> f64 {
        self.puzzles as f64 / self.median_secs().max(1e-12)
    }

    /// Median µs per puzzle (median round).
    pub fn micros_per_puzzle(&self) -> f64 {
        self.median_secs() * 1e6 / self.puzzles.max(1) as f64
    }
}

/// A ratio over rounds: median and range (min to max, not a confidence interval).
#[derive(Debug, Clone, Copy)]
pub struct Ratio {
    /// Median over rounds.
    pub median: f64,
    /// Smallest round.
    pub min: f64,
    /// Largest round.
    pub max: f64,
    /// Rounds it is taken over.
    pub rounds: usize,
}

/// Words, not brackets: `1.02 (median of 7 rounds, range 1.00-1.05)` (`1.50 (1 round)` alone),
/// so the range is not read as the `[95% CI]` intervals printed beside it.
impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.rounds == 1 {
            return write!(f, "{:.2} (1 round)", self.median);
        }
        write!(
            f,
            "{:.2} (median of {} rounds, range {:.2}-{:.2})",
            self.median, self.rounds, self.min, self.max
        )
    }
}

/// `b`'s time over `a`'s in each round that timed both whole, on the puzzles both ran.
pub fn round_ratios(a: &Measured, b: &Measured) -> Vec<f64> {
    let chunks = a.chunks().min(b.chunks());
    (0..a.chunk_secs.len().min(b.chunk_secs.len()))
        .filter_map(|r| Some(b.secs(r, chunks)? / a.secs(r, chunks)?.max(1e-12)))
        .collect()
}

/// How much faster `a` is than `b` (b's time / a's time), round by round on the puzzles both ran.
pub fn ratio(a: &Measured, b: &Measured) -> Ratio {
    let mut v = round_ratios(a, b);
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = v.iter().copied().fold(0.0, f64::max);
    Ratio {
        median: crate::analysis::stats::sort_and_quantile(&mut v, 0.5),
        min,
        max,
        rounds: v.len(),
    }
}

/// Measures every contestant that supports the mode on `p`; see the module docs.
pub fn measure(contestants: &[Contestant], p: &Prepared, s: &Settings) -> Vec<Measured> {
    let n = p.grids.len();
    let active: Vec<&Contestant> = contestants.iter().filter(|c| c.supports(s.mode)).collect();
    let plan: Vec<Plan> = active.iter().map(|c| calibrate(c, p, s)).collect();
    let mut out: Vec<Measured> = active
        .iter()
        .zip(&plan)
        .map(|(c, plan)| Measured {
            name: c.name().to_string(),
            reference: c.is_reference(),
            kind: c.kind(),
            puzzles: (plan.chunks * CHUNK).min(n),
            chunk_secs: Vec::new(),
            cut: 0,
            cut_rounds: 0,
            wrong: 0,
            unchecked: 0,
        })
        .collect();
    let most = plan.iter().map(|x| x.passes).max().unwrap_or(1);
    let later = p.with_passes(most);
    let sets: Vec<&Prepared> = std::iter::once(p).chain(&later).collect();
    for r in 0..s.rounds {
        for k in 0..active.len() {
            let j = (k + r) % active.len();
            time_round(active[j], &sets, s, plan[j], &mut out[j]);
        }
    }
    // Check answers outside the clock.
    let truth = count_truth(p, s);
    for (j, c) in active.iter().enumerate() {
        check_answers(c, p, s, plan[j], &truth, &mut out[j]);
    }
    out
}

/// How one contestant is timed: a prefix of the puzzles, the deadline of each solve, passes a
/// round.
#[derive(Debug, Clone, Copy)]
struct Plan {
    /// Chunks of [`CHUNK`] puzzles timed.
    chunks: usize,
    /// The deadline of each solve: `slow_timeout` for a contestant too slow for every puzzle
    /// (a cut solve counts at its time), else the round budget.
    deadline: Duration,
    /// A cut solve cuts the contestant for the round (the round budget's deadline).
    cut_for_round: bool,
    /// Passes over the prefix per round (the median pass counts).
    passes: usize,
}

/// Calibration: times chunks of `p` for `s.calibrate` seconds to decide `c`'s prefix (in
/// chunks), whether it gets a deadline and its passes per round.
fn calibrate(c: &Contestant, p: &Prepared, s: &Settings) -> Plan {
    let n = p.grids.len();
    let total_chunks = n.div_ceil(CHUNK);
    let slow = Plan {
        chunks: 1,
        deadline: s.slow_timeout,
        cut_for_round: false,
        passes: 1,
    };
    let t0 = Instant::now();
    let mut done = 0;
    while done < total_chunks && t0.elapsed().as_secs_f64() < s.calibrate {
        let (a, b) = (done * CHUNK, ((done + 1) * CHUNK).min(n));
        time_range(c, p, a, b, s.mode, slow);
        done += 1;
    }
    let per_chunk = t0.elapsed().as_secs_f64() / done.max(1) as f64;
    let fit = ((s.round_budget / per_chunk.max(1e-12)) as usize).clamp(1, total_chunks);
    let plan = if fit >= total_chunks || c.is_yardstick() {
        Plan {
            chunks: total_chunks,
            deadline: Duration::from_secs_f64(2.0 * s.round_budget.max(0.0)).max(s.slow_timeout),
            cut_for_round: true,
            passes: 1,
        }
    } else {
        Plan {
            chunks: fit,
            ..slow
        }
    };
    let passes = (s.min_round / (per_chunk * plan.chunks as f64).max(1e-9)).ceil();
    Plan {
        passes: (passes as usize).clamp(1, MAX_PASSES),
        ..plan
    }
}

/// Times one round of `c` under `plan`: a warm-up, then its passes over the prefix, pass `k` on
/// `sets[k]`; adds the median pass's chunk times and the solves cut to `out`. A solve past the
/// round budget cuts the contestant for the round: nothing more is solved, and the round's
/// times are left empty.
fn time_round(c: &Contestant, sets: &[&Prepared], s: &Settings, plan: Plan, out: &mut Measured) {
    let p = sets[0];
    let n = p.grids.len();
    let cut_for_round = |out: &mut Measured, t: Timed| {
        out.cut += t.cut;
        if t.stopped {
            out.cut_rounds += 1;
            out.chunk_secs.push(Vec::new());
        }
        t.stopped
    };
    // Warm-up, untimed: the first chunk once, so the contestant's tables and branch
    // history are its own when the clock starts.
    let warm = time_range(c, p, 0, CHUNK.min(n), s.mode, plan);
    // A warm-up solve cut by its deadline counts only when it cuts the round.
    let warm_cut = usize::from(warm.stopped);
    if cut_for_round(
        out,
        Timed {
            cut: warm_cut,
            ..warm
        },
    ) {
        return;
    }
    let mut times = vec![Vec::with_capacity(plan.passes); plan.chunks];
    for set in &sets[..plan.passes] {
        for (ch, t) in times.iter_mut().enumerate() {
            let (a, b) = (ch * CHUNK, ((ch + 1) * CHUNK).min(n));
            let timed = time_range(c, set, a, b, s.mode, plan);
            if cut_for_round(out, timed) {
                return;
            }
            t.push(timed.secs);
        }
    }
    // The median pass: a pass the scheduler interrupted does not move it.
    let secs = times
        .iter_mut()
        .map(|t| crate::analysis::stats::sort_and_quantile(t, 0.5))
        .collect();
    out.chunk_secs.push(secs);
}

/// The champion's count of every puzzle in [`Mode::Count2`] (counts are checked against it,
/// whether or not it is a contestant); nothing in the other modes.
fn count_truth(p: &Prepared, s: &Settings) -> Vec<Answer> {
    if s.mode != Mode::Count2 {
        return Vec::new();
    }
    let champion = Contestant::new(Arc::new(BuiltinEngine::new(SolverKind::CHAMPION)))
        .expect("built-in sessions always open");
    (0..p.grids.len())
        .map(|i| solve_one(&champion, p, i, s.mode, &Budget::unlimited()))
        .collect()
}

/// Checks `c`'s answers on its prefix, outside the clock, counting the wrong and unchecked
/// ones into `out` (counts against `truth`).
fn check_answers(
    c: &Contestant,
    p: &Prepared,
    s: &Settings,
    plan: Plan,
    truth: &[Answer],
    out: &mut Measured,
) {
    let upto = (plan.chunks * CHUNK).min(p.grids.len());
    for i in 0..upto {
        match solve_one(c, p, i, s.mode, &plan_budget(plan)) {
            // A contestant cut for the round is not waited for again.
            Answer::Timeout if plan.cut_for_round => break,
            Answer::Grid(g) if verify::check(p.grids[i].cells(), &g, None).is_err() => {
                out.wrong += 1
            }
            Answer::Count(k) if truth.get(i).is_some_and(|t| *t != Answer::Count(k)) => {
                out.wrong += 1
            }
            Answer::None | Answer::Error => out.wrong += 1,
            Answer::Unchecked => out.unchecked += 1,
            Answer::Grid(_) | Answer::Count(_) | Answer::Timeout => {}
        }
    }
}

/// Solves puzzle `i` of `p` once in first-solution mode, unlimited, for an outside timer.
#[inline]
pub fn solve_for_timing(c: &Contestant, p: &Prepared, i: usize) {
    std::hint::black_box(solve_one(c, p, i, Mode::First, &Budget::unlimited()));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A contestant whose round `r` took `secs[r]` seconds on one chunk.
    fn measured(name: &str, secs: &[f64]) -> Measured {
        Measured {
            name: name.into(),
            reference: false,
            kind: None,
            puzzles: CHUNK,
            chunk_secs: secs.iter().map(|&s| vec![s]).collect(),
            cut: 0,
            cut_rounds: 0,
            wrong: 0,
            unchecked: 0,
        }
    }

    #[test]
    fn later_passes_solve_isomorphs_of_the_same_puzzles() {
        let line = solvers::known_puzzles::TOP95_FIRST;
        let g = Grid::parse_line(line).unwrap();
        let p = Prepared::new(vec![g, g]);
        let later = p.with_passes(3);
        assert_eq!(later.len(), 2);
        // Givens per digit, sorted: relabelling digits and permuting cells keeps them.
        let profile = |x: &Grid| {
            let mut n = [0usize; 10];
            x.cells().iter().for_each(|&d| n[usize::from(d)] += 1);
            let mut v = n[1..].to_vec();
            v.sort_unstable();
            (n[0], v)
        };
        for set in &later {
            for h in &set.grids {
                assert_eq!(profile(h), profile(&g));
                assert_ne!(h.cells(), g.cells());
            }
            // Each puzzle of a pass has its own transform.
            assert_ne!(set.grids[0].cells(), set.grids[1].cells());
        }
        // Pass 1 and pass 2 differ, and drawing again gives the same puzzles.
        assert_ne!(later[0].grids[0].cells(), later[1].grids[0].cells());
        assert_eq!(p.with_passes(3)[1].grids, later[1].grids);
    }

    #[test]
    fn a_ratio_says_its_range_over_rounds_in_words() {
        // b's time over a's: 1.00, 1.20, 1.10 -> median 1.10, range 1.00 to 1.20.
        let a = measured("a", &[1.0, 1.0, 1.0]);
        let b = measured("b", &[1.0, 1.2, 1.1]);
        let r = ratio(&a, &b);
        assert_eq!(r.to_string(), "1.10 (median of 3 rounds, range 1.00-1.20)");
        let one = ratio(&measured("a", &[2.0]), &measured("b", &[3.0]));
        assert_eq!(one.to_string(), "1.50 (1 round)");
    }
}
