//! The summary: one [`SummaryRow`] per dataset x solver, computed from the [`Row`]s of a run, and
//! its rendering as a table for the terminal.

use crate::record::RowStatus;
use crate::runner::Row;
use serde::{Deserialize, Serialize};

/// One row of `summary.csv`. Times are µs per puzzle over the puzzles that could be read
/// (solved, no_solution and timeout rows; a timeout counts at the time it took to give up).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Dataset name.
    pub dataset: String,
    /// Solver name.
    pub solver: String,
    /// Puzzles in the dataset (invalid ones included).
    pub puzzles: usize,
    /// Puzzles solved with a checked answer.
    pub solved: usize,
    /// Answers the checker rejected (see `results.csv`'s `error` column).
    pub wrong: usize,
    /// Puzzles the solver proved unsolvable.
    pub no_solution: usize,
    /// Puzzles whose budget ran out.
    pub timeouts: usize,
    /// Puzzles that could not be read.
    pub invalid: usize,
    /// Solves that failed outside the search (an external solver crashed or broke its
    /// protocol). 0 in summary.csv files written before the column existed.
    #[serde(default)]
    pub errors: usize,
    /// Puzzles solved by a solver that writes no solution, so the answer could not be checked
    /// (not counted in `solved`).
    #[serde(default)]
    pub unchecked: usize,
    /// Median µs per puzzle.
    pub median_micros: f64,
    /// Mean µs per puzzle.
    pub mean_micros: f64,
    /// 90th percentile µs per puzzle (nearest rank).
    pub p90_micros: f64,
    /// Slowest puzzle, µs.
    pub max_micros: f64,
    /// Puzzles per second of solver time on one thread: puzzles / (sum of µs / 10^6).
    pub puzzles_per_second: f64,
    /// Mean search-tree nodes per puzzle.
    pub mean_nodes: f64,
    /// Mean CPU time per puzzle, µs (the child's user + system time for out-of-process solvers,
    /// the worker thread's for in-process ones); empty when not measured.
    #[serde(default)]
    pub mean_cpu_micros: Option<f64>,
    /// Largest peak resident memory of a child process over the puzzles, KiB; empty for
    /// in-process solvers.
    #[serde(default)]
    pub max_peak_rss_kib: Option<u64>,
}

/// Nearest-rank percentile `p` (0..=100) of sorted values; 0 for none.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Median of sorted values (mean of the middle two for an even count); 0 for none.
pub fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Summarises `rows`, keeping the order in which dataset x solver pairs first appear.
pub fn summarize(rows: &[Row]) -> Vec<SummaryRow> {
    let mut acc = Accumulator::default();
    for r in rows {
        acc.add(r);
    }
    acc.finish()
}

/// The summary computed online, one row at a time, in memory that does not hold the rows:
/// counts and sums are kept exactly (times and CPU times as integer nanoseconds, the rows'
/// resolution), and each dataset x solver pair keeps its times as a compact vector of `u32`
/// nanoseconds (4 bytes a row; a time past 4.29 s goes to a `u64` side vector), so medians and
/// p90s are exact. [`summarize`] is this over a slice.
#[derive(Debug, Default)]
pub struct Accumulator {
    /// Dataset -> solver -> index into `groups`.
    index: std::collections::HashMap<String, std::collections::HashMap<String, usize>>,
    groups: Vec<Group>,
}

#[derive(Debug, Default)]
struct Group {
    dataset: String,
    solver: String,
    puzzles: usize,
    solved: usize,
    wrong: usize,
    no_solution: usize,
    timeouts: usize,
    invalid: usize,
    errors: usize,
    unchecked: usize,
    /// Times of the valid rows, ns, when they fit in a `u32`.
    ns: Vec<u32>,
    /// Times of the valid rows past `u32::MAX` ns.
    long_ns: Vec<u64>,
    sum_ns: u128,
    sum_nodes: u128,
    cpu_ns: u128,
    cpu_rows: usize,
    max_rss: Option<u64>,
}

/// µs with ns resolution (as rows hold them) -> integer ns.
fn to_ns(micros: f64) -> u64 {
    (micros * 1e3).round().max(0.0) as u64
}

/// Integer ns -> µs, the same `f64` a row holds.
fn to_micros(ns: u64) -> f64 {
    ns as f64 / 1e3
}

impl Accumulator {
    /// Counts one row in.
    pub fn add(&mut self, r: &Row) {
        let i = match self.index.get(&r.dataset).and_then(|m| m.get(&r.solver)) {
            Some(&i) => i,
            None => {
                let i = self.groups.len();
                self.groups.push(Group {
                    dataset: r.dataset.clone(),
                    solver: r.solver.clone(),
                    ..Group::default()
                });
                self.index
                    .entry(r.dataset.clone())
                    .or_default()
                    .insert(r.solver.clone(), i);
                i
            }
        };
        let g = &mut self.groups[i];
        g.puzzles += 1;
        if r.correct == Some(true) && r.status == RowStatus::Solved {
            g.solved += 1;
        }
        if r.is_wrong() {
            g.wrong += 1;
        }
        if r.is_unchecked() {
            g.unchecked += 1;
        }
        match r.status {
            RowStatus::NoSolution => g.no_solution += 1,
            RowStatus::Timeout => g.timeouts += 1,
            RowStatus::Invalid => g.invalid += 1,
            RowStatus::Error => g.errors += 1,
            RowStatus::Solved => {}
        }
        if r.status == RowStatus::Invalid {
            return;
        }
        let ns = to_ns(r.micros);
        match u32::try_from(ns) {
            Ok(n) => g.ns.push(n),
            Err(_) => g.long_ns.push(ns),
        }
        g.sum_ns += u128::from(ns);
        g.sum_nodes += u128::from(r.nodes);
        if let Some(c) = r.cpu_micros {
            g.cpu_ns += u128::from(to_ns(c));
            g.cpu_rows += 1;
        }
        g.max_rss = g.max_rss.max(r.peak_rss_kib);
    }

    /// The summary rows, in the order the dataset x solver pairs first appeared.
    pub fn finish(self) -> Vec<SummaryRow> {
        self.groups.into_iter().map(Group::finish).collect()
    }
}

impl Group {
    fn finish(mut self) -> SummaryRow {
        self.ns.sort_unstable();
        self.long_ns.sort_unstable();
        let n = self.ns.len() + self.long_ns.len();
        // The k-th smallest time (0-based): every long time is larger than every short one.
        let nth = |k: usize| -> f64 {
            if k < self.ns.len() {
                to_micros(u64::from(self.ns[k]))
            } else {
                to_micros(self.long_ns[k - self.ns.len()])
            }
        };
        let median = match n {
            0 => 0.0,
            _ if n % 2 == 1 => nth(n / 2),
            _ => (nth(n / 2 - 1) + nth(n / 2)) / 2.0,
        };
        let p90 = if n == 0 {
            0.0
        } else {
            let rank = ((0.9 * n as f64).ceil() as usize).clamp(1, n);
            nth(rank - 1)
        };
        let total = self.sum_ns as f64 / 1e3;
        SummaryRow {
            dataset: self.dataset,
            solver: self.solver,
            puzzles: self.puzzles,
            solved: self.solved,
            wrong: self.wrong,
            no_solution: self.no_solution,
            timeouts: self.timeouts,
            invalid: self.invalid,
            errors: self.errors,
            unchecked: self.unchecked,
            median_micros: round3(median),
            mean_micros: if n == 0 {
                0.0
            } else {
                round3(total / n as f64)
            },
            p90_micros: p90,
            max_micros: if n == 0 { 0.0 } else { nth(n - 1) },
            puzzles_per_second: if total > 0.0 {
                round3(n as f64 / (total / 1e6))
            } else {
                0.0
            },
            mean_nodes: if n == 0 {
                0.0
            } else {
                round3(self.sum_nodes as f64 / n as f64)
            },
            mean_cpu_micros: (self.cpu_rows > 0)
                .then(|| round3(self.cpu_ns as f64 / 1e3 / self.cpu_rows as f64)),
            max_peak_rss_kib: self.max_rss,
        }
    }
}

/// Rounds to 3 decimals (ns resolution for µs), so CSV cells stay short.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Formats µs for people: `850 µs`, `12.3 ms`, `4.56 s`.
pub fn human_micros(us: f64) -> String {
    if us < 1_000.0 {
        format!("{us:.1} µs")
    } else if us < 1_000_000.0 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

/// The summary as a table for the terminal.
pub fn table(summary: &[SummaryRow]) -> comfy_table::Table {
    use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment, Table};
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec![
        "dataset",
        "solver",
        "puzzles",
        "solved",
        "wrong",
        "timeout",
        "median",
        "p90",
        "max",
        "puzzles/s",
        "mean nodes",
    ]);
    for s in summary {
        t.add_row(vec![
            s.dataset.clone(),
            s.solver.clone(),
            s.puzzles.to_string(),
            s.solved.to_string(),
            s.wrong.to_string(),
            s.timeouts.to_string(),
            human_micros(s.median_micros),
            human_micros(s.p90_micros),
            human_micros(s.max_micros),
            format!("{:.0}", s.puzzles_per_second),
            format!("{:.0}", s.mean_nodes),
        ]);
    }
    for i in 2..11 {
        if let Some(c) = t.column_mut(i) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_hand() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0];
        assert_eq!(median(&v), 5.5);
        assert_eq!(percentile(&v, 90.0), 9.0);
        assert_eq!(percentile(&v, 100.0), 10.0);
        assert_eq!(median(&[3.0]), 3.0);
        assert_eq!(percentile(&[], 50.0), 0.0);
    }

    fn row(solver: &str, micros: f64) -> Row {
        Row {
            dataset: "d".into(),
            puzzle: "1".into(),
            solver: solver.into(),
            status: RowStatus::Solved,
            correct: Some(true),
            micros,
            nodes: 3,
            guesses: 0,
            backtracks: 0,
            propagations: 0,
            updates: 0,
            solution: String::new(),
            line: 1,
            givens: 30,
            grid: String::new(),
            error: String::new(),
            cpu_micros: None,
            peak_rss_kib: None,
        }
    }

    /// Times past `u32::MAX` ns (4.29 s) still sort after the short ones and sum exactly.
    #[test]
    fn online_summary_by_hand_with_long_times() {
        let times = [5_000_000.0, 1.5, 2.25, 4_300_000.001, 3.0];
        let rows: Vec<Row> = times.iter().map(|&t| row("a", t)).collect();
        let s = &summarize(&rows)[0];
        assert_eq!(s.puzzles, 5);
        assert_eq!(s.median_micros, 3.0);
        assert_eq!(s.p90_micros, 5_000_000.0);
        assert_eq!(s.max_micros, 5_000_000.0);
        assert_eq!(s.mean_micros, 1_860_001.35);
        assert_eq!(s.mean_nodes, 3.0);
        let even = summarize(&rows[1..]);
        assert_eq!(even[0].median_micros, 2.625);
        assert_eq!(even[0].p90_micros, 4_300_000.001);
    }
}
