//! Comparing two runs, in the manner of critcmp for criterion baselines: per dataset x solver,
//! the median µs in each run, the ratio B/A, the mean nodes in each, and how many puzzles changed
//! status or answer between them. Pairs present in one run only are listed with a note.

use super::load::Run;
use crate::summary::{self, human_micros, SummaryRow};
use serde::Serialize;
use std::collections::HashMap;

/// One row of the comparison (also a CSV row; empty cells for a pair missing from a run).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareRow {
    /// Dataset name.
    pub dataset: String,
    /// Solver name.
    pub solver: String,
    /// Puzzles in run A.
    pub puzzles_a: Option<usize>,
    /// Puzzles in run B.
    pub puzzles_b: Option<usize>,
    /// Median µs per puzzle in run A.
    pub median_micros_a: Option<f64>,
    /// Median µs per puzzle in run B.
    pub median_micros_b: Option<f64>,
    /// `median_micros_b / median_micros_a`: below 1 = B faster.
    pub ratio_b_over_a: Option<f64>,
    /// Mean search-tree nodes per puzzle in run A.
    pub mean_nodes_a: Option<f64>,
    /// Mean search-tree nodes per puzzle in run B.
    pub mean_nodes_b: Option<f64>,
    /// Puzzles in both runs whose status differs (e.g. solved in A, timeout in B).
    pub status_changed: Option<usize>,
    /// Puzzles in both runs with the same status but a different solution or correctness.
    pub answer_changed: Option<usize>,
    /// `only in A`, `only in B`, or empty.
    pub note: String,
}

type Key<'a> = (&'a str, usize, &'a str, &'a str);

/// Compares run `a` (the baseline) with run `b`. Pairs come in A's order, then B's new ones.
/// Puzzles are matched by dataset, line and label.
pub fn compare(a: &Run, b: &Run) -> Vec<CompareRow> {
    let sa = summary::summarize(&a.rows);
    let sb = summary::summarize(&b.rows);
    fn index(run: &Run) -> HashMap<Key<'_>, usize> {
        run.rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                (
                    (
                        r.dataset.as_str(),
                        r.line,
                        r.puzzle.as_str(),
                        r.solver.as_str(),
                    ),
                    i,
                )
            })
            .collect()
    }
    let ib = index(b);
    let mut changes: HashMap<(&str, &str), (usize, usize)> = HashMap::new();
    for ra in &a.rows {
        let key = (
            ra.dataset.as_str(),
            ra.line,
            ra.puzzle.as_str(),
            ra.solver.as_str(),
        );
        if let Some(&j) = ib.get(&key) {
            let rb = &b.rows[j];
            let c = changes
                .entry((ra.dataset.as_str(), ra.solver.as_str()))
                .or_default();
            if ra.status != rb.status {
                c.0 += 1;
            } else if ra.solution != rb.solution || ra.correct != rb.correct {
                c.1 += 1;
            }
        }
    }
    let mut keys: Vec<(String, String)> = sa
        .iter()
        .map(|s| (s.dataset.clone(), s.solver.clone()))
        .collect();
    for s in &sb {
        let k = (s.dataset.clone(), s.solver.clone());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let find = |v: &[SummaryRow], d: &str, s: &str| {
        v.iter().find(|r| r.dataset == d && r.solver == s).cloned()
    };
    keys.into_iter()
        .map(|(d, s)| {
            let ra = find(&sa, &d, &s);
            let rb = find(&sb, &d, &s);
            let ch = changes.get(&(d.as_str(), s.as_str())).copied();
            let both = ra.is_some() && rb.is_some();
            CompareRow {
                puzzles_a: ra.as_ref().map(|r| r.puzzles),
                puzzles_b: rb.as_ref().map(|r| r.puzzles),
                median_micros_a: ra.as_ref().map(|r| r.median_micros),
                median_micros_b: rb.as_ref().map(|r| r.median_micros),
                ratio_b_over_a: match (&ra, &rb) {
                    (Some(x), Some(y)) if x.median_micros > 0.0 => {
                        Some(y.median_micros / x.median_micros)
                    }
                    _ => None,
                },
                mean_nodes_a: ra.as_ref().map(|r| r.mean_nodes),
                mean_nodes_b: rb.as_ref().map(|r| r.mean_nodes),
                status_changed: both.then(|| ch.map_or(0, |c| c.0)),
                answer_changed: both.then(|| ch.map_or(0, |c| c.1)),
                note: match (&ra, &rb) {
                    (Some(_), None) => "only in A".into(),
                    (None, Some(_)) => "only in B".into(),
                    _ => String::new(),
                },
                dataset: d,
                solver: s,
            }
        })
        .collect()
}

/// How B fares against A from the ratio, for people: `1.93× faster`, `1.20× slower`, `same`
/// (within 3%).
pub fn verdict(ratio: f64) -> String {
    if ratio < 0.97 {
        format!("{}× faster", super::fmt_ratio(1.0 / ratio))
    } else if ratio > 1.03 {
        format!("{}× slower", super::fmt_ratio(ratio))
    } else {
        "same".into()
    }
}

/// The comparison as a terminal table.
pub fn table(rows: &[CompareRow]) -> comfy_table::Table {
    use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment, Table};
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec![
        "dataset", "solver", "median A", "median B", "B/A", "B vs A", "nodes A", "nodes B",
        "changed",
    ]);
    let opt = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map_or_else(|| "-".into(), f);
    for r in rows {
        let changed = match (r.status_changed, r.answer_changed) {
            (Some(0), Some(0)) => "none".to_string(),
            (Some(s), Some(a)) => format!("{s} status, {a} answer"),
            _ => r.note.clone(),
        };
        t.add_row(vec![
            r.dataset.clone(),
            r.solver.clone(),
            opt(r.median_micros_a, &human_micros),
            opt(r.median_micros_b, &human_micros),
            opt(r.ratio_b_over_a, &|x| format!("{x:.2}")),
            opt(r.ratio_b_over_a, &verdict),
            opt(r.mean_nodes_a, &|x| format!("{x:.0}")),
            opt(r.mean_nodes_b, &|x| format!("{x:.0}")),
            changed,
        ]);
    }
    for i in 2..8 {
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
    fn verdicts() {
        assert_eq!(verdict(0.5), "2.00× faster");
        assert_eq!(verdict(1.2), "1.20× slower");
        assert_eq!(verdict(1.01), "same");
    }
}
