//! One streaming pass over `results.csv` that gathers everything the report draws and lists, in
//! memory bounded whatever the run's length but for 8 bytes a row (two compact time vectors: the
//! summary's `u32` ns, the plots' `f32` µs):
//!
//! - the summary, through [`summary::Accumulator`] (exact counts, sums, medians, p90s);
//! - per dataset x solver, the time of every readable puzzle as an `f32` µs, its sign saying
//!   whether the puzzle counts as solved (positive) or not (negative; times are floored at
//!   0.1 µs, so never 0): the cactus curves and the boxes are drawn from its quantiles;
//! - per solver, the effort scatter: its first [`effort::MAX_POINTS`] points exactly, and
//!   always a density grid of log-spaced cells (bounded by the axes' range, not by the rows),
//!   which is drawn instead once a solver has more points;
//! - the slowest rows per solver and the hardest puzzles as top-k lists (k =
//!   [`super::SLOWEST_PER_SOLVER`], [`super::HARDEST`]), ties kept in file order, as a stable sort
//!   of every row would.
//!
//! The rows of one puzzle are adjacent in `results.csv` (`run` writes them in whole-run order:
//! dataset, puzzle, then solver; `merge` sorts them back into it), so the hardest-puzzle groups
//! need only the current puzzle's rows.

use super::effort::{self, Density};
use super::{Hard, HARDEST, SLOWEST_PER_SOLVER};
use crate::analysis::summary::{self, SummaryRow};
use crate::record::Row;
use crate::record::RowStatus;
use crate::record::{read_info, Run, RunInfo};
use std::collections::HashMap;
use std::path::Path;

/// Smallest time kept, µs (the plots' log axes have no 0).
pub const FLOOR_MICROS: f64 = 0.1;

/// The times of one dataset x solver pair.
#[derive(Debug, Default, Clone)]
pub struct Times {
    /// µs of each readable puzzle (floored at [`FLOOR_MICROS`]): positive when it counts as
    /// solved ([`crate::record::Row::counts_as_solved`]), negated otherwise. Sorted by magnitude after
    /// [`Digest::finish`].
    pub signed: Vec<f32>,
    /// How many of them count as solved.
    pub solved: usize,
    /// Solved rows of a solver that writes no solution.
    pub unchecked: usize,
}

impl crate::analysis::stats::Sorted for Times {
    fn count(&self) -> usize {
        self.readable()
    }
    fn nth(&self, k: usize) -> f64 {
        Times::nth(self, k)
    }
}

impl Times {
    /// The readable puzzles (solved or not).
    pub fn readable(&self) -> usize {
        self.signed.len()
    }

    /// The `k`-th smallest time (0-based), µs, solved or not (the vector must be sorted).
    pub fn nth(&self, k: usize) -> f64 {
        f64::from(self.signed[k].abs())
    }
}

/// A solver's effort points: (nodes, µs, timed out), in file order while it has at most
/// [`effort::MAX_POINTS`]; then only the density grid and a thinned sample of timeouts.
#[derive(Debug, Clone, Default)]
pub struct EffortAcc {
    /// Every point, while there are at most `MAX_POINTS`.
    pub points: Option<Vec<(f64, f64, bool)>>,
    /// Every non-timeout point, binned.
    pub density: Density,
    /// Timeouts, thinned evenly to at most `MAX_POINTS` (every `stride`-th one).
    pub timeouts: Vec<(f64, f64)>,
    /// The thinning stride of `timeouts`.
    pub stride: usize,
    /// Points seen (readable rows).
    pub solves: usize,
    /// Timeouts seen.
    pub timeout_count: usize,
}

impl EffortAcc {
    fn add(&mut self, p: (f64, f64), timeout: bool) {
        if self.solves == 0 {
            self.points = Some(Vec::new());
            self.stride = 1;
        }
        self.solves += 1;
        if timeout {
            self.timeout_count += 1;
            if (self.timeout_count - 1) % self.stride == 0 {
                self.timeouts.push(p);
                if self.timeouts.len() > effort::MAX_POINTS {
                    // Keep every other one and double the stride: still an even thinning.
                    let kept: Vec<_> = self.timeouts.iter().copied().step_by(2).collect();
                    self.timeouts = kept;
                    self.stride *= 2;
                }
            }
        } else {
            self.density.add(p);
        }
        if let Some(pts) = &mut self.points {
            if pts.len() < effort::MAX_POINTS {
                pts.push((p.0, p.1, timeout));
            } else {
                self.points = None;
            }
        }
    }
}

/// Keeps the `k` largest items by `key`, ties in arrival order (as a stable sort by descending
/// key, then truncating to `k`).
#[derive(Debug, Clone)]
pub struct TopK<T> {
    k: usize,
    /// Largest first.
    items: Vec<(f64, T)>,
}

impl<T> TopK<T> {
    /// An empty list keeping `k` items.
    pub fn new(k: usize) -> Self {
        TopK {
            k,
            items: Vec::with_capacity(k + 1),
        }
    }

    /// True when an item of `key` would be kept (so a caller can skip building it).
    pub fn admits(&self, key: f64) -> bool {
        self.k > 0
            && (self.items.len() < self.k
                || self
                    .items
                    .last()
                    .is_some_and(|(l, _)| key.total_cmp(l).is_gt()))
    }

    /// Offers an item.
    pub fn push(&mut self, key: f64, item: T) {
        if !self.admits(key) {
            return;
        }
        // After every item whose key is at least `key`: ties stay in arrival order.
        let at = self
            .items
            .partition_point(|(l, _)| l.total_cmp(&key).is_ge());
        self.items.insert(at, (key, item));
        self.items.truncate(self.k);
    }

    /// The items, largest first.
    pub fn into_sorted(self) -> Vec<T> {
        self.items.into_iter().map(|(_, t)| t).collect()
    }
}

/// What one pass over `results.csv` gathers (see the module docs).
#[derive(Debug)]
pub struct Digest {
    /// The run, with `rows` left empty.
    pub run: Run,
    /// Whole rows read.
    pub rows: u64,
    /// True when the file ended in a cut line (a killed run), which was skipped.
    pub cut_line: bool,
    /// The summary, recomputed from the rows.
    pub summary: Vec<SummaryRow>,
    /// (dataset, solver) -> times.
    pub times: HashMap<(String, String), Times>,
    /// Solver -> effort points.
    pub effort: HashMap<String, EffortAcc>,
    /// Per solver (report order): its slowest rows, slowest first.
    pub slowest: Vec<(String, Vec<Row>)>,
    /// The hardest puzzles, hardest first.
    pub hardest: Vec<Hard>,
    /// Guesses of the inference ladder's solvers ([`super::inference`]).
    pub inference: super::inference::Acc,
}

impl Digest {
    /// The times of a pair, if it has rows.
    pub fn times_of(&self, dataset: &str, solver: &str) -> Option<&Times> {
        self.times.get(&(dataset.to_string(), solver.to_string()))
    }
}

/// The rows of the puzzle being read, and the hardest puzzles so far.
struct Hardest {
    key: Option<(String, usize, String)>,
    group: Vec<Row>,
    top: TopK<Vec<Row>>,
}

impl Hardest {
    fn close(&mut self) {
        if self.group.is_empty() {
            return;
        }
        let best = self
            .group
            .iter()
            .map(|r| r.micros)
            .fold(f64::INFINITY, f64::min);
        let group = std::mem::take(&mut self.group);
        self.top.push(best, group);
    }

    fn add(&mut self, r: &Row) {
        if r.status == RowStatus::Invalid {
            return;
        }
        let same = self
            .key
            .as_ref()
            .is_some_and(|(d, l, p)| *l == r.line && *d == r.dataset && *p == r.puzzle);
        if !same {
            self.close();
            self.key = Some((r.dataset.clone(), r.line, r.puzzle.clone()));
        }
        self.group.push(r.clone());
    }
}

/// Reads the run in `dir` in one pass (see the module docs).
///
/// # Errors
/// When `run.json` or `results.csv` cannot be read, or a row does not parse (the message names
/// file and line).
pub fn read(dir: &Path) -> anyhow::Result<Digest> {
    let info = read_info(dir)?;
    let mut pass = Pass::new(&info);
    let len = crate::record::for_each_row(dir, |r, _| {
        pass.add(r);
        Ok(())
    })?;
    let file_len = std::fs::metadata(dir.join("results.csv"))
        .map(|m| m.len())
        .unwrap_or(len);
    let mut digest = pass.finish(dir, info);
    digest.cut_line = file_len > len;
    Ok(digest)
}

/// What the one pass over results.csv keeps.
struct Pass {
    solvers: Vec<String>,
    datasets: Vec<String>,
    seen_datasets: Vec<String>,
    acc: summary::Accumulator,
    times: HashMap<(String, String), Times>,
    effort: HashMap<String, EffortAcc>,
    slow: HashMap<String, TopK<Row>>,
    hard: Hardest,
    inference: super::inference::Acc,
    rows: u64,
    /// The last pair's entry, so a run of rows of one pair looks it up once.
    last_pair: Option<(String, String)>,
}

impl Pass {
    fn new(info: &RunInfo) -> Pass {
        Pass {
            solvers: info.solvers.clone(),
            datasets: info.datasets.iter().map(|d| d.name.clone()).collect(),
            seen_datasets: Vec::new(),
            acc: summary::Accumulator::for_run(info),
            times: HashMap::new(),
            effort: HashMap::new(),
            slow: HashMap::new(),
            hard: Hardest {
                key: None,
                group: Vec::new(),
                top: TopK::new(HARDEST),
            },
            inference: super::inference::Acc::default(),
            rows: 0,
            last_pair: None,
        }
    }

    /// Counts one row into everything.
    fn add(&mut self, r: Row) {
        self.rows += 1;
        self.acc.add(&r);
        if !self.solvers.contains(&r.solver) {
            self.solvers.push(r.solver.clone());
        }
        for names in [&mut self.datasets, &mut self.seen_datasets] {
            if !names.contains(&r.dataset) {
                names.push(r.dataset.clone());
            }
        }
        self.hard.add(&r);
        self.inference.add(&r, r.counts_as_solved());
        self.add_time(&r);
        if r.status == RowStatus::Invalid {
            return;
        }
        let e = match self.effort.get_mut(&r.solver) {
            Some(e) => e,
            None => self.effort.entry(r.solver.clone()).or_default(),
        };
        e.add(
            (r.nodes.max(1) as f64, r.micros.max(0.1)),
            r.status == RowStatus::Timeout,
        );
        let top = match self.slow.get_mut(&r.solver) {
            Some(t) => t,
            None => self
                .slow
                .entry(r.solver.clone())
                .or_insert_with(|| TopK::new(SLOWEST_PER_SOLVER)),
        };
        if top.admits(r.micros) {
            top.push(r.micros, r);
        }
    }

    /// The row's signed time on its (dataset, solver) pair's cactus curve.
    fn add_time(&mut self, r: &Row) {
        let same = self
            .last_pair
            .as_ref()
            .is_some_and(|(d, s)| *d == r.dataset && *s == r.solver);
        if !same {
            self.last_pair = Some((r.dataset.clone(), r.solver.clone()));
        }
        // A pair of invalid rows only still has a (flat) cactus curve, as its solver ran.
        let key = self.last_pair.as_ref().expect("set above");
        if !self.times.contains_key(key) {
            self.times.insert(key.clone(), Times::default());
        }
        let t = self.times.get_mut(key).expect("inserted above");
        if r.status == RowStatus::Invalid {
            return;
        }
        let us = r.micros.max(FLOOR_MICROS) as f32;
        if r.counts_as_solved() {
            t.signed.push(us);
            t.solved += 1;
        } else {
            t.signed.push(-us);
        }
        if r.is_unchecked() {
            t.unchecked += 1;
        }
    }

    /// The digest of the run in `dir` (its `cut_line` false).
    fn finish(mut self, dir: &Path, info: RunInfo) -> Digest {
        self.hard.close();
        for t in self.times.values_mut() {
            t.signed
                .sort_unstable_by(|a, b| a.abs().total_cmp(&b.abs()));
        }
        // A dataset with no row in this run (an empty shard) has nothing to plot.
        let seen = &self.seen_datasets;
        self.datasets.retain(|d| seen.contains(d));
        let slowest = self
            .solvers
            .iter()
            .map(|s| {
                let rows = self
                    .slow
                    .remove(s)
                    .map(TopK::into_sorted)
                    .unwrap_or_default();
                (s.clone(), rows)
            })
            .collect();
        let hardest = hardest(self.hard.top, &self.solvers);
        Digest {
            run: Run {
                dir: dir.to_path_buf(),
                info,
                rows: Vec::new(),
                solvers: self.solvers,
                datasets: self.datasets,
            },
            rows: self.rows,
            cut_line: false,
            summary: self.acc.finish(),
            times: self.times,
            effort: self.effort,
            slowest,
            hardest,
            inference: self.inference,
        }
    }
}

/// The hardest puzzles, hardest first, each with every solver's row (in `solvers` order).
fn hardest(top: TopK<Vec<Row>>, solvers: &[String]) -> Vec<Hard> {
    top.into_sorted()
        .into_iter()
        .map(|group| Hard {
            dataset: group[0].dataset.clone(),
            puzzle: group[0].puzzle.clone(),
            givens: group[0].givens,
            grid: group[0].grid.clone(),
            best_micros: group.iter().map(|r| r.micros).fold(f64::INFINITY, f64::min),
            rows: solvers
                .iter()
                .map(|s| group.iter().find(|r| &r.solver == s).cloned())
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_keeps_the_largest_ties_in_arrival_order() {
        let mut t = TopK::new(3);
        for (k, name) in [
            (1.0, "a"),
            (5.0, "b"),
            (3.0, "c"),
            (5.0, "d"),
            (3.0, "e"),
            (9.0, "f"),
        ] {
            t.push(k, name);
        }
        // A stable sort by descending key: f(9), b(5), d(5); c and e (3) fall off.
        assert_eq!(t.into_sorted(), vec!["f", "b", "d"]);
        let mut none = TopK::new(0);
        none.push(1.0, ());
        assert!(none.into_sorted().is_empty());
    }
}
