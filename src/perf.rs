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
//! 2. **Rounds**: `rounds` times, every contestant solves its subset, the order of contestants
//!    rotating from round to round so that clock and cache drift hit all alike. Each chunk is timed
//!    on its own, so any contestant's time on any prefix of whole chunks is known.
//! 3. **Figures**: a contestant's time is the median over rounds; its throughput is its subset size
//!    over that time (puzzles/s). Ratios compare two contestants *on the same puzzles in the same
//!    round* (the slower one's subset), and the median and range over rounds are reported.
//!
//! Answers are checked after timing, outside the clock: solutions by [`crate::verify::check`],
//! counts against the champion's.

use crate::verify;
use solvers::{Budget, Grid, Solver, SolverKind, Status};
use std::time::{Duration, Instant};

/// Puzzles per timed chunk.
pub const CHUNK: usize = 64;

/// The solver the others are measured against in `regress`, and named in `bench`'s output.
pub const CHAMPION: SolverKind = SolverKind::BitboardBands;

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

/// One competitor.
pub enum Contestant {
    /// One of our solvers.
    Solver(SolverKind, Box<dyn Solver>),
    /// The `sudoku` crate (JCZSolve-derived, AGPL-3.0), only with the `reference` feature.
    #[cfg(feature = "reference")]
    Reference,
}

impl Contestant {
    /// Our solvers (all of [`SolverKind::ALL`], or those given) and the reference when built in.
    pub fn all(kinds: &[SolverKind], with_reference: bool) -> Vec<Contestant> {
        let v = kinds.iter().map(|&k| Contestant::Solver(k, k.build()));
        #[cfg(feature = "reference")]
        let v = v.chain(with_reference.then_some(Contestant::Reference));
        #[cfg(not(feature = "reference"))]
        let _ = with_reference;
        v.collect()
    }

    /// The name in tables: the solver's name, or `sudoku-crate (reference)`.
    pub fn name(&self) -> &'static str {
        match self {
            Contestant::Solver(k, _) => k.name(),
            #[cfg(feature = "reference")]
            Contestant::Reference => REFERENCE_NAME,
        }
    }

    /// True for the reference crate.
    pub fn is_reference(&self) -> bool {
        !matches!(self, Contestant::Solver(..))
    }

    /// The solver kind, for our solvers.
    pub fn kind(&self) -> Option<SolverKind> {
        match self {
            Contestant::Solver(k, _) => Some(*k),
            #[cfg(feature = "reference")]
            Contestant::Reference => None,
        }
    }

    /// Whether it can run in `mode` (solvers without `count` cannot count).
    pub fn supports(&self, mode: Mode) -> bool {
        match (self, mode) {
            (_, Mode::First) => true,
            (Contestant::Solver(_, s), Mode::Count2) => s
                .count(&Grid::EMPTY, 1, &Budget::unlimited().max_nodes(Some(0)))
                .is_some(),
            #[cfg(feature = "reference")]
            (Contestant::Reference, Mode::Count2) => true,
        }
    }
}

/// The reference's name in tables.
pub const REFERENCE_NAME: &str = "sudoku-crate";

/// Puzzles prepared for every contestant (the reference's own type is built outside the clock).
pub struct Prepared {
    /// The puzzles.
    pub grids: Vec<Grid>,
    #[cfg(feature = "reference")]
    reference: Vec<sudoku::Sudoku>,
}

impl Prepared {
    /// Prepares `grids` (givens consistent).
    pub fn new(grids: Vec<Grid>) -> Prepared {
        Prepared {
            #[cfg(feature = "reference")]
            reference: grids
                .iter()
                .map(|g| sudoku::Sudoku::from_bytes(*g.cells()).expect("cells are 0..=9"))
                .collect(),
            grids,
        }
    }
}

/// A solve's result as far as checking goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Grid([u8; 81]),
    Count(u64),
    None,
    Timeout,
}

/// Solves puzzle `i`; returns its answer. `deadline`: per-puzzle cut for slow solvers.
#[inline]
fn solve_one(
    c: &Contestant,
    p: &Prepared,
    i: usize,
    mode: Mode,
    deadline: Option<Duration>,
) -> Answer {
    match c {
        Contestant::Solver(_, s) => {
            let budget = match deadline {
                Some(d) => Budget::with_timeout(d),
                None => Budget::unlimited(),
            };
            match mode {
                Mode::First => {
                    let o = s.solve(&p.grids[i], &budget);
                    match (o.status, o.solution) {
                        (Status::Timeout, _) => Answer::Timeout,
                        (_, Some(g)) => Answer::Grid(*g.cells()),
                        _ => Answer::None,
                    }
                }
                Mode::Count2 => match s.count(&p.grids[i], 2, &budget) {
                    Some(c) if c.complete => Answer::Count(c.solutions),
                    Some(_) => Answer::Timeout,
                    None => Answer::None,
                },
            }
        }
        #[cfg(feature = "reference")]
        Contestant::Reference => match mode {
            Mode::First => match p.reference[i].some_solution() {
                Some(s) => Answer::Grid(s.to_bytes()),
                None => Answer::None,
            },
            Mode::Count2 => Answer::Count(p.reference[i].solutions_count_up_to(2) as u64),
        },
    }
}

/// Times puzzles `[start, end)`; returns seconds and the number of cut solves.
fn time_range(
    c: &Contestant,
    p: &Prepared,
    start: usize,
    end: usize,
    mode: Mode,
    deadline: Option<Duration>,
) -> (f64, usize) {
    let mut cut = 0;
    let t = Instant::now();
    for i in start..end {
        if std::hint::black_box(solve_one(c, p, i, mode, deadline)) == Answer::Timeout {
            cut += 1;
        }
    }
    (t.elapsed().as_secs_f64(), cut)
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
    /// champion or the reference: they always run the whole set).
    pub round_budget: f64,
    /// Per-puzzle deadline for contestants on a prefix.
    pub slow_timeout: Duration,
}

/// One contestant's measurement.
#[derive(Debug, Clone)]
pub struct Measured {
    /// Its name.
    pub name: &'static str,
    /// True for the reference crate.
    pub reference: bool,
    /// Its solver kind (None for the reference).
    pub kind: Option<SolverKind>,
    /// Puzzles it solved per round (a prefix of the set).
    pub puzzles: usize,
    /// Seconds per chunk per round: `chunk_secs[round][chunk]`.
    pub chunk_secs: Vec<Vec<f64>>,
    /// Solves cut by the per-puzzle deadline, over all rounds.
    pub cut: usize,
    /// Wrong answers found by the check after timing.
    pub wrong: usize,
}

impl Measured {
    /// Its time on the first `chunks` chunks in round `r`, seconds.
    pub fn secs(&self, r: usize, chunks: usize) -> f64 {
        self.chunk_secs[r][..chunks].iter().sum()
    }

    /// Chunks it ran.
    pub fn chunks(&self) -> usize {
        self.chunk_secs.first().map_or(0, |c| c.len())
    }

    /// Median over rounds of its time on its whole subset, seconds.
    pub fn median_secs(&self) -> f64 {
        let mut v: Vec<f64> = (0..self.chunk_secs.len())
            .map(|r| self.secs(r, self.chunks()))
            .collect();
        median(&mut v)
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

/// A ratio over rounds: median and range.
#[derive(Debug, Clone, Copy)]
pub struct Ratio {
    /// Median over rounds.
    pub median: f64,
    /// Smallest round.
    pub min: f64,
    /// Largest round.
    pub max: f64,
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.2} [{:.2}-{:.2}]", self.median, self.min, self.max)
    }
}

/// How much faster `a` is than `b` (b's time / a's time), round by round on the puzzles both ran.
pub fn ratio(a: &Measured, b: &Measured) -> Ratio {
    let chunks = a.chunks().min(b.chunks());
    let mut v: Vec<f64> = (0..a.chunk_secs.len().min(b.chunk_secs.len()))
        .map(|r| b.secs(r, chunks) / a.secs(r, chunks).max(1e-12))
        .collect();
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = v.iter().copied().fold(0.0, f64::max);
    Ratio {
        median: median(&mut v),
        min,
        max,
    }
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Measures every contestant that supports the mode on `p`; see the module docs.
pub fn measure(contestants: &[Contestant], p: &Prepared, s: &Settings) -> Vec<Measured> {
    let n = p.grids.len();
    let total_chunks = n.div_ceil(CHUNK);
    let active: Vec<&Contestant> = contestants.iter().filter(|c| c.supports(s.mode)).collect();
    // Calibration: decide each contestant's prefix (in chunks) and whether it gets a deadline.
    let mut plan: Vec<(usize, Option<Duration>)> = Vec::new();
    for c in &active {
        let t0 = Instant::now();
        let mut done = 0;
        while done < total_chunks && t0.elapsed().as_secs_f64() < s.calibrate {
            let (a, b) = (done * CHUNK, ((done + 1) * CHUNK).min(n));
            time_range(c, p, a, b, s.mode, Some(s.slow_timeout));
            done += 1;
        }
        let per_chunk = t0.elapsed().as_secs_f64() / done.max(1) as f64;
        let fit = ((s.round_budget / per_chunk.max(1e-12)) as usize).clamp(1, total_chunks);
        let anchor = c.is_reference() || c.kind() == Some(CHAMPION);
        if fit >= total_chunks || anchor {
            plan.push((total_chunks, None));
        } else {
            plan.push((fit, Some(s.slow_timeout)));
        }
    }
    let mut out: Vec<Measured> = active
        .iter()
        .zip(&plan)
        .map(|(c, &(chunks, _))| Measured {
            name: c.name(),
            reference: c.is_reference(),
            kind: c.kind(),
            puzzles: (chunks * CHUNK).min(n),
            chunk_secs: Vec::new(),
            cut: 0,
            wrong: 0,
        })
        .collect();
    for r in 0..s.rounds {
        for k in 0..active.len() {
            let j = (k + r) % active.len();
            let (chunks, deadline) = plan[j];
            let mut secs = Vec::with_capacity(chunks);
            for ch in 0..chunks {
                let (a, b) = (ch * CHUNK, ((ch + 1) * CHUNK).min(n));
                let (t, cut) = time_range(active[j], p, a, b, s.mode, deadline);
                secs.push(t);
                out[j].cut += cut;
            }
            out[j].chunk_secs.push(secs);
        }
    }
    // Check answers outside the clock.
    let champion = active.iter().position(|c| c.kind() == Some(CHAMPION));
    let truth: Vec<Answer> = match champion {
        Some(ci) if s.mode == Mode::Count2 => (0..n)
            .map(|i| solve_one(active[ci], p, i, s.mode, None))
            .collect(),
        _ => Vec::new(),
    };
    for (j, c) in active.iter().enumerate() {
        let (chunks, deadline) = plan[j];
        let upto = (chunks * CHUNK).min(n);
        out[j].wrong = (0..upto)
            .filter(|&i| match solve_one(c, p, i, s.mode, deadline) {
                Answer::Grid(g) => verify::check(p.grids[i].cells(), &g, None).is_err(),
                Answer::Count(k) => truth.get(i).is_some_and(|t| *t != Answer::Count(k)),
                Answer::None => true,
                Answer::Timeout => false,
            })
            .count();
    }
    out
}

/// Solves puzzle `i` of `p` once in first-solution mode, unlimited, for an outside timer.
#[inline]
pub fn solve_for_timing(c: &Contestant, p: &Prepared, i: usize) {
    std::hint::black_box(solve_one(c, p, i, Mode::First, None));
}
