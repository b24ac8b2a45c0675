//! Scores of a run beyond the counts: PAR-2, the virtual best solver, unique solves.
//!
//! - **PAR-2** (penalised average runtime, as the SAT competitions score): the mean over the
//!   readable puzzles of the solve's time when the answer is right, and of twice the per-puzzle
//!   budget otherwise (timeout, error, wrong answer, an unchecked solve). Lower is better;
//!   undefined without a time budget.
//! - **Virtual best solver** (`virtual-best`): per puzzle, the fastest right answer of any solver;
//!   its solved count and PAR-2 bound what a portfolio of the run's solvers could do. Its row in
//!   summary.csv counts puzzles no solver answered right as `timeouts`.
//! - **Unique solves**: puzzles a solver answered right and no other solver did.
//!
//! A right answer is a `solved` row whose solution passed the checker, or a `no_solution` row
//! nothing contradicts (see [`crate::record::Row::correct`]). Rows come in whole puzzle groups:
//! every solver's row of one puzzle (one copy, under `--isomorphs`), consecutively, as the runner
//! writes them and results.csv holds them.
//!
//! Scores are per dataset x shape: an engine whose caps do not take a shape has no row of its
//! puzzles, so they count neither against it (PAR-2, unique solves) nor in the virtual best
//! solver's bound beside others; its summary row there says `n/a`.

use crate::analysis::summary::SummaryRow;
use crate::record::{Row, RowStatus};
use std::collections::HashMap;

/// The solver name of the virtual best solver's rows.
pub const VIRTUAL_BEST: &str = "virtual-best";

/// Per dataset x solver sums.
#[derive(Debug, Default, Clone)]
struct Tally {
    readable: usize,
    par2_ns: u128,
    unique: usize,
}

/// The virtual best solver of one dataset.
#[derive(Debug, Default, Clone)]
struct Best {
    puzzles: usize,
    readable: usize,
    invalid: usize,
    solved: usize,
    no_solution: usize,
    par2_ns: u128,
    /// The virtual best's time per readable puzzle, ns, when it fits in a `u32` (4 bytes a
    /// puzzle, as the summary keeps its times)...
    ns: Vec<u32>,
    /// ... and past `u32::MAX` ns (4.29 s).
    long_ns: Vec<u64>,
}

impl Best {
    fn push(&mut self, ns: u64) {
        match u32::try_from(ns) {
            Ok(n) => self.ns.push(n),
            Err(_) => self.long_ns.push(ns),
        }
    }

    /// The `k`-th smallest time (0-based) once both vectors are sorted: every long time is
    /// larger than every short one.
    fn kth(&self, k: usize) -> u64 {
        match self.ns.get(k) {
            Some(&n) => u64::from(n),
            None => self.long_ns[k - self.ns.len()],
        }
    }
}

/// Scores computed online, one puzzle group at a time.
#[derive(Debug)]
pub struct Scorer {
    budget_ns: Option<u64>,
    /// (Dataset, shape, solver) -> sums.
    tallies: HashMap<(String, String, String), Tally>,
    /// The virtual best solver of each dataset x shape, in order of appearance (shape empty:
    /// the unreadable puzzles, counted in the dataset's first shape).
    best: Vec<((String, String), Best)>,
    pending: Vec<Row>,
    /// (Dataset, shape) -> the puzzle copies expected there (see [`Scorer::expect`]).
    expected: HashMap<(String, String), usize>,
}

/// One puzzle group's key: rows of the same dataset, line and transform belong together.
fn key(r: &Row) -> (&str, usize, &str) {
    (&r.dataset, r.line, &r.transform)
}

impl Scorer {
    /// A scorer for a run with this per-puzzle time budget, µs (`None` = unlimited: PAR-2 is
    /// then left empty).
    pub fn new(budget_micros: Option<f64>) -> Scorer {
        Scorer {
            budget_ns: budget_micros.map(|b| (b * 1e3).round() as u64),
            tallies: HashMap::new(),
            best: Vec::new(),
            pending: Vec::new(),
            expected: HashMap::new(),
        }
    }

    /// Expects about `puzzles` puzzle copies of `dataset` x `shape`: the virtual best's times
    /// there are allocated at once at that size (as [`crate::analysis::summary::Accumulator::expect`]).
    pub fn expect(&mut self, dataset: &str, shape: &str, puzzles: usize) {
        self.expected
            .insert((dataset.to_string(), shape.to_string()), puzzles);
    }

    /// Counts rows in, in results.csv order; a group is scored once the next one starts (or at
    /// [`Scorer::finish`]).
    pub fn add(&mut self, r: &Row) {
        if self.pending.first().is_some_and(|p| key(p) != key(r)) {
            self.flush();
        }
        self.pending.push(r.clone());
    }

    fn flush(&mut self) {
        let group = std::mem::take(&mut self.pending);
        let Some(first) = group.first() else {
            return;
        };
        let at = (first.dataset.clone(), first.shape.clone());
        let pos = match self.best.iter().position(|(k, _)| *k == at) {
            Some(p) => p,
            None => {
                let expected = self.expected.get(&at).copied().unwrap_or(0);
                let best = Best {
                    ns: Vec::with_capacity(expected),
                    ..Best::default()
                };
                self.best.push((at, best));
                self.best.len() - 1
            }
        };
        let best = &mut self.best[pos].1;
        best.puzzles += 1;
        if first.status == RowStatus::Invalid {
            best.invalid += 1;
            return;
        }
        best.readable += 1;
        let penalty = self.budget_ns.map_or(0, |b| 2 * b);
        let rights: Vec<&Row> = group.iter().filter(|r| r.is_right()).collect();
        for r in &group {
            let t = self
                .tallies
                .entry((r.dataset.clone(), r.shape.clone(), r.solver.clone()))
                .or_default();
            t.readable += 1;
            let right = r.is_right();
            t.par2_ns += u128::from(if right { ns(r.micros) } else { penalty });
            if right && rights.len() == 1 {
                t.unique += 1;
            }
        }
        match rights.iter().map(|r| ns(r.micros)).min() {
            Some(fastest) => {
                // Counted as summary.csv counts: a checked solution is `solved`, a right
                // `no_solution` is `no_solution`.
                if rights.iter().any(|r| r.status == RowStatus::Solved) {
                    best.solved += 1;
                } else {
                    best.no_solution += 1;
                }
                best.par2_ns += u128::from(fastest);
                best.push(fastest);
            }
            None => {
                best.par2_ns += u128::from(penalty);
                if self.budget_ns.is_some() {
                    best.push(penalty);
                }
            }
        }
    }

    /// Fills `par2_micros` and `unique_solves` of `summary` and appends one `virtual-best` row
    /// per dataset x shape (after the group's last row). `n/a` rows keep no score.
    pub fn finish(mut self, summary: &mut Vec<SummaryRow>) {
        self.flush();
        for s in summary.iter_mut().filter(|s| !s.is_na()) {
            let key = (s.dataset.clone(), s.shape.clone(), s.solver.clone());
            if let Some(t) = self.tallies.get(&key) {
                s.unique_solves = t.unique;
                s.par2_micros = self.budget_ns.map(|_| mean_micros(t.par2_ns, t.readable));
            }
        }
        // Unreadable puzzles (shape unknown) count in their dataset's first shape.
        let mut best: Vec<((String, String), Best)> = Vec::new();
        let (known, unknown): (Vec<_>, Vec<_>) = self
            .best
            .into_iter()
            .partition(|((_, shape), _)| !shape.is_empty());
        best.extend(known);
        for ((dataset, _), b) in unknown {
            match best.iter_mut().find(|((d, _), _)| *d == dataset) {
                Some((_, into)) => {
                    into.puzzles += b.puzzles;
                    into.invalid += b.invalid;
                }
                None => best.push(((dataset, solvers::Shape::CLASSIC.to_string()), b)),
            }
        }
        for ((dataset, shape), mut b) in best {
            b.ns.sort_unstable();
            b.long_ns.sort_unstable();
            let n = b.ns.len() + b.long_ns.len();
            let median = match n {
                0 => 0.0,
                _ if n % 2 == 1 => b.kth(n / 2) as f64 / 1e3,
                _ => (b.kth(n / 2 - 1) + b.kth(n / 2)) as f64 / 2e3,
            };
            let sum: u128 = b.ns.iter().map(|&x| u128::from(x)).sum::<u128>()
                + b.long_ns.iter().map(|&x| u128::from(x)).sum::<u128>();
            let max = if n == 0 { 0 } else { b.kth(n - 1) };
            let row = SummaryRow {
                dataset: dataset.clone(),
                shape: shape.clone(),
                solver: VIRTUAL_BEST.into(),
                puzzles: b.puzzles,
                solved: b.solved,
                no_solution: b.no_solution,
                timeouts: b.readable - b.solved - b.no_solution,
                invalid: b.invalid,
                median_micros: median,
                mean_micros: mean_micros(sum, n),
                max_micros: max as f64 / 1e3,
                par2_micros: self.budget_ns.map(|_| mean_micros(b.par2_ns, b.readable)),
                // Everything else is 0 or empty: no one solver's counters or memory.
                ..SummaryRow::default()
            };
            let at = summary
                .iter()
                .rposition(|s| s.dataset == dataset && s.shape == shape)
                .map_or(summary.len(), |i| i + 1);
            summary.insert(at, row);
        }
    }
}

fn ns(micros: f64) -> u64 {
    (micros * 1e3).round().max(0.0) as u64
}

fn mean_micros(sum_ns: u128, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        ((sum_ns as f64 / n as f64) / 1e3 * 1e3).round() / 1e3
    }
}

/// The scores of rows held in memory (results.csv order), as [`Scorer`] computes them online.
pub fn score(rows: &[Row], budget_micros: Option<f64>, summary: &mut Vec<SummaryRow>) {
    let mut s = Scorer::new(budget_micros);
    for r in rows {
        s.add(r);
    }
    s.finish(summary);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Times past `u32::MAX` ns (4.29 s) sort after the short ones, and both are kept exactly.
    #[test]
    fn virtual_best_times_past_4_29_s_stay_exact_and_in_order() {
        let mut b = Best::default();
        for t in [7_000_000_000u64, 3, 5_000_000_000, 1] {
            b.push(t);
        }
        assert_eq!((b.ns.len(), b.long_ns.len()), (2, 2));
        b.ns.sort_unstable();
        b.long_ns.sort_unstable();
        let all: Vec<u64> = (0..4).map(|k| b.kth(k)).collect();
        assert_eq!(all, [1, 3, 5_000_000_000, 7_000_000_000]);
    }
}
