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
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut groups: std::collections::HashMap<(String, String), Vec<&Row>> = Default::default();
    for r in rows {
        let key = (r.dataset.clone(), r.solver.clone());
        let g = groups.entry(key.clone()).or_default();
        if g.is_empty() {
            keys.push(key);
        }
        g.push(r);
    }
    keys.into_iter()
        .map(|key| {
            let g = &groups[&key];
            let valid: Vec<&&Row> = g
                .iter()
                .filter(|r| r.status != RowStatus::Invalid)
                .collect();
            let mut times: Vec<f64> = valid.iter().map(|r| r.micros).collect();
            times.sort_by(f64::total_cmp);
            let total: f64 = times.iter().sum();
            let count = |s: RowStatus| g.iter().filter(|r| r.status == s).count();
            SummaryRow {
                dataset: key.0.clone(),
                solver: key.1.clone(),
                puzzles: g.len(),
                solved: g
                    .iter()
                    .filter(|r| r.correct == Some(true) && r.status == RowStatus::Solved)
                    .count(),
                wrong: g.iter().filter(|r| r.is_wrong()).count(),
                no_solution: count(RowStatus::NoSolution),
                timeouts: count(RowStatus::Timeout),
                invalid: count(RowStatus::Invalid),
                errors: count(RowStatus::Error),
                unchecked: g.iter().filter(|r| r.is_unchecked()).count(),
                median_micros: round3(median(&times)),
                mean_micros: if times.is_empty() {
                    0.0
                } else {
                    round3(total / times.len() as f64)
                },
                p90_micros: percentile(&times, 90.0),
                max_micros: times.last().copied().unwrap_or(0.0),
                puzzles_per_second: if total > 0.0 {
                    round3(times.len() as f64 / (total / 1e6))
                } else {
                    0.0
                },
                mean_nodes: if valid.is_empty() {
                    0.0
                } else {
                    round3(valid.iter().map(|r| r.nodes as f64).sum::<f64>() / valid.len() as f64)
                },
                mean_cpu_micros: {
                    let cpu: Vec<f64> = valid.iter().filter_map(|r| r.cpu_micros).collect();
                    (!cpu.is_empty()).then(|| round3(cpu.iter().sum::<f64>() / cpu.len() as f64))
                },
                max_peak_rss_kib: valid.iter().filter_map(|r| r.peak_rss_kib).max(),
            }
        })
        .collect()
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
}
