//! Comparing two runs, in the manner of critcmp for criterion baselines: per dataset x shape x
//! solver, the median µs in each run, the ratio B/A, the mean nodes in each, and how many puzzles changed
//! status or answer between them. Pairs present in one run only are listed with a note.

use crate::analysis::summary::{self, SummaryRow};
use crate::plumbing::human::micros as human_micros;
use crate::record::Row;
use crate::record::Run;
use serde::Serialize;
use std::collections::HashMap;

/// One row of the comparison (also a CSV row; empty cells for a pair missing from a run).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareRow {
    /// Dataset name.
    pub dataset: String,
    /// The puzzles' shape (`9x9`, `16x16`, `12x12/3x4`, `10x10/latin`): a dataset of several
    /// shapes has a row per shape and solver.
    pub shape: String,
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
    /// The ratio of medians over the puzzles readable in both runs (paired), with the lower
    /// end of its bootstrap 95% interval ([`crate::analysis::stats::ratio_ci`]).
    pub ratio_lo: Option<f64>,
    /// The upper end of that interval.
    pub ratio_hi: Option<f64>,
    /// `faster`/`slower` only when the interval excludes 1 and the ratio is beyond the noise
    /// threshold, else `same` ([`crate::analysis::stats::verdict`]); `too few puzzles` under [`crate::analysis::stats::MIN_RANKED`].
    pub verdict: String,
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

/// Times of one dataset x shape x solver group on the puzzles of both runs, µs: (A's, B's).
type Paired = (Vec<f64>, Vec<f64>);

/// (dataset, line, label, solver, transform): one solve of one copy of one puzzle.
type Key<'a> = (&'a str, usize, &'a str, &'a str, &'a str);

/// (dataset, shape, solver): one group of the comparison.
type Group<'a> = (&'a str, &'a str, &'a str);

/// The shape group of row `r` among the summary rows `s`: its shape, or for an invalid puzzle
/// (shape unknown) its dataset's first shape, where the summary counts it.
fn shape_of<'a>(r: &'a Row, s: &'a [SummaryRow]) -> &'a str {
    if !r.shape.is_empty() {
        return &r.shape;
    }
    s.iter()
        .find(|x| x.dataset == r.dataset)
        .map_or("9x9", |x| x.shape.as_str())
}

/// Compares run `a` (the baseline) with run `b`, per dataset x shape x solver. Groups come in
/// A's order, then B's new ones. Puzzles are matched by dataset, line and label.
pub fn compare(a: &Run, b: &Run) -> Vec<CompareRow> {
    let sa = summary::summarize(&a.rows);
    let sb = summary::summarize(&b.rows);
    let matched = Matched::new(a, b, &sa);
    let find = |v: &[SummaryRow], d: &str, sh: &str, s: &str| {
        v.iter()
            .find(|r| r.dataset == d && r.shape == sh && r.solver == s)
            .cloned()
    };
    group_keys(&sa, &sb)
        .into_iter()
        .map(|(d, sh, s)| {
            let ra = find(&sa, &d, &sh, &s);
            let rb = find(&sb, &d, &sh, &s);
            matched.row(d, sh, s, ra, rb)
        })
        .collect()
}

/// The key of row `r`: its transform counts only when both runs made several copies (`copies`);
/// else a puzzle is matched whatever orientation each run gave it (answers are mapped back).
fn key(r: &Row, copies: bool) -> Key<'_> {
    let transform = if copies { r.transform.as_str() } else { "" };
    (
        r.dataset.as_str(),
        r.line,
        r.puzzle.as_str(),
        r.solver.as_str(),
        transform,
    )
}

/// Every dataset x shape x solver group of the summaries, A's first, then B's new ones.
fn group_keys(sa: &[SummaryRow], sb: &[SummaryRow]) -> Vec<(String, String, String)> {
    let mut keys: Vec<(String, String, String)> = Vec::new();
    for s in sa.iter().chain(sb) {
        let k = (s.dataset.clone(), s.shape.clone(), s.solver.clone());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys
}

/// What the rows of both runs say per group, puzzle matched to puzzle.
struct Matched<'a> {
    /// Puzzles whose (status, answer) changed between the runs.
    changes: HashMap<Group<'a>, (usize, usize)>,
    /// Paired times of the puzzles readable in both runs.
    paired: HashMap<Group<'a>, Paired>,
    /// Blocks as both runs timed them (puzzle by puzzle for runs without blocks).
    block: usize,
}

impl<'a> Matched<'a> {
    /// Matches every row of `a` with B's solve of the same copy of the same puzzle; `sa` is
    /// A's summary, where a row's group is found.
    fn new(a: &'a Run, b: &'a Run, sa: &'a [SummaryRow]) -> Self {
        // Copies of a puzzle are told apart by their transform when both runs made several.
        let copies = a.info.isomorphs.is_some() && b.info.isomorphs.is_some();
        let ib: HashMap<Key<'a>, usize> = b
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| (key(r, copies), i))
            .collect();
        let mut changes: HashMap<Group, (usize, usize)> = HashMap::new();
        let mut paired: HashMap<Group, Paired> = HashMap::new();
        for ra in &a.rows {
            let Some(&j) = ib.get(&key(ra, copies)) else {
                continue;
            };
            let rb = &b.rows[j];
            let group = (ra.dataset.as_str(), shape_of(ra, sa), ra.solver.as_str());
            if ra.status != crate::record::RowStatus::Invalid
                && rb.status != crate::record::RowStatus::Invalid
            {
                let p = paired.entry(group).or_default();
                p.0.push(ra.micros);
                p.1.push(rb.micros);
            }
            let c = changes.entry(group).or_default();
            if ra.status != rb.status {
                c.0 += 1;
            } else if ra.solution != rb.solution || ra.correct != rb.correct {
                c.1 += 1;
            }
        }
        Matched {
            changes,
            paired,
            block: a.info.block.min(b.info.block).unwrap_or(1),
        }
    }

    /// The comparison row of group (`d`, `sh`, `s`), from its summary rows in A and B.
    fn row(
        &self,
        d: String,
        sh: String,
        s: String,
        ra: Option<SummaryRow>,
        rb: Option<SummaryRow>,
    ) -> CompareRow {
        let group = (d.as_str(), sh.as_str(), s.as_str());
        let ch = self.changes.get(&group).copied();
        let both = ra.is_some() && rb.is_some();
        let pairs = self.paired.get(&group);
        // The salt of a 9x9 group is the one it had before shapes had groups.
        let salt = if sh == "9x9" {
            crate::analysis::stats::salt(&[&d, &s])
        } else {
            crate::analysis::stats::salt(&[&d, &sh, &s])
        };
        let ci =
            pairs.and_then(|(x, y)| crate::analysis::stats::block_ratio_ci(x, y, self.block, salt));
        let n = pairs.map_or(0, |p| p.0.len());
        CompareRow {
            ratio_lo: ci.map(|e| e.lo),
            ratio_hi: ci.map(|e| e.hi),
            verdict: match ci {
                _ if !both => String::new(),
                Some(_) if n < crate::analysis::stats::MIN_RANKED => {
                    format!("too few puzzles ({n})")
                }
                Some(e) => same_if_indistinct(crate::analysis::stats::verdict(&e)),
                None => "-".into(),
            },
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
            shape: sh,
            solver: s,
        }
    }
}

/// `same` for a ratio the statistics cannot tell from 1 (between two runs "not
/// distinguishable" means no change was measured).
fn same_if_indistinct(verdict: String) -> String {
    if verdict.starts_with("not distinguishable") {
        "same".into()
    } else {
        verdict
    }
}

/// How B fares against A from the ratio, for people: `1.93× faster`, `1.20× slower`, `same`
/// (within 3%).
pub fn verdict(ratio: f64) -> String {
    if ratio < 0.97 {
        format!("{}× faster", crate::plumbing::human::ratio(1.0 / ratio))
    } else if ratio > 1.03 {
        format!("{}× slower", crate::plumbing::human::ratio(ratio))
    } else {
        "same".into()
    }
}

/// What differs between the two runs' conditions and would make their times unlike: threads,
/// budgets, solvers' versions (and external solvers' files), CPU, host, the build, transforms.
pub fn warnings(a: &Run, b: &Run) -> Vec<String> {
    let (x, y) = (&a.info, &b.info);
    let mut w = Vec::new();
    let mut differs = |what: &str, p: String, q: String| {
        if p != q {
            w.push(format!("the runs differ in {what}: A {p}, B {q}"));
        }
    };
    differs("threads", x.threads.to_string(), y.threads.to_string());
    differs(
        "time budget",
        format!("{:?} ms", x.timeout_ms),
        format!("{:?} ms", y.timeout_ms),
    );
    differs(
        "node budget",
        format!("{:?}", x.max_nodes),
        format!("{:?}", y.max_nodes),
    );
    differs(
        "repeats",
        format!("{:?}", x.repeat),
        format!("{:?}", y.repeat),
    );
    differs("CPU", x.cpu.clone(), y.cpu.clone());
    differs("host", x.host.clone(), y.host.clone());
    differs(
        "harness version",
        x.harness_version.clone(),
        y.harness_version.clone(),
    );
    differs("git commit", x.git_commit.clone(), y.git_commit.clone());
    differs(
        "transform",
        format!("{:?} x {:?}", x.transform, x.isomorphs),
        format!("{:?} x {:?}", y.transform, y.isomorphs),
    );
    for da in &x.solver_details {
        if let Some(db) = y.solver_details.iter().find(|d| d.name == da.name) {
            let files = |d: &crate::record::SolverRecord| {
                d.files
                    .iter()
                    .map(|f| f.sha256.clone())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            differs(
                &format!("{}'s version", da.name),
                format!("{:?}", da.version),
                format!("{:?}", db.version),
            );
            differs(
                &format!("{}'s files (sha256)", da.name),
                files(da),
                files(db),
            );
        }
    }
    for (ma, mb) in x.manifests.iter().zip(&y.manifests) {
        if ma.name == mb.name {
            differs(
                &format!("dataset {} (sha256)", ma.name),
                ma.sha256.clone(),
                mb.sha256.clone(),
            );
        }
    }
    w
}

/// Datasets on which every solver whose search did not change (same mean nodes in both runs)
/// moved the same way, beyond the noise threshold: a sign that the machine, not the solvers,
/// was faster or slower during one run's solves of that dataset (load from other processes,
/// frequency scaling), which the intervals, resampled within each run, cannot see. One
/// sentence per such dataset; at least 3 such solvers are needed.
pub fn common_shifts(rows: &[CompareRow]) -> Vec<String> {
    let mut out = Vec::new();
    let mut datasets: Vec<&str> = Vec::new();
    for r in rows {
        if !datasets.contains(&r.dataset.as_str()) {
            datasets.push(&r.dataset);
        }
    }
    for d in datasets {
        let mut ratios: Vec<f64> = rows
            .iter()
            .filter(|r| r.dataset == d && r.ratio_lo.is_some())
            .filter(|r| !r.verdict.is_empty() && !r.verdict.starts_with("too few"))
            .filter(|r| r.mean_nodes_a.is_some() && r.mean_nodes_a == r.mean_nodes_b)
            .filter_map(|r| r.ratio_b_over_a)
            .collect();
        if ratios.len() < 3 {
            continue;
        }
        let all_slower = ratios.iter().all(|&x| x > 1.0);
        let all_faster = ratios.iter().all(|&x| x < 1.0);
        let m = crate::analysis::stats::sort_and_quantile(&mut ratios, 0.5);
        let noise = crate::analysis::stats::NOISE;
        if (all_slower && m > 1.0 + noise) || (all_faster && m < 1.0 / (1.0 + noise)) {
            out.push(format!(
                "on {d}, all {} solvers whose search did not change are {} in B (median \
                 ratio {:.2}): the machine was likely {} during B's solves of {d}, so its \
                 verdicts may show the machine rather than the solvers; run both again",
                ratios.len(),
                if all_slower { "slower" } else { "faster" },
                m,
                if all_slower { "slower" } else { "faster" },
            ));
        }
    }
    out
}

/// The comparison for the terminal, in the manner of the run summary ([`summary::table`]): one
/// block per dataset x shape (in the order of `rows`), a line naming it and its puzzles, then a
/// line per solver with the median µs in A and B, the ratio B/A with its 95% interval, the
/// verdict, the mean nodes in A and B and the puzzles that changed status (`st.`) or answer
/// (`ans.`). No cell wraps: with the shipped solvers' names (up to 16 characters), medians up to
/// 99.99 ms ([`crate::plumbing::human::micros`]), ratios under 10 ([`crate::plumbing::human::ratio`]), mean nodes up
/// to 999,999 and up to 99 changes of each kind, a line is at most 100 columns
/// ([`summary::TABLE_WIDTH`]), the width of the run summary and `harness list`.
pub fn table(rows: &[CompareRow]) -> String {
    let mut groups: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        let g = (r.dataset.as_str(), r.shape.as_str());
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    let mut out = String::new();
    for (i, &(dataset, shape)) in groups.iter().enumerate() {
        let members: Vec<&CompareRow> = rows
            .iter()
            .filter(|r| r.dataset == dataset && r.shape == shape)
            .collect();
        if i > 0 {
            out.push('\n');
        }
        let most = |f: fn(&CompareRow) -> Option<usize>| members.iter().filter_map(|r| f(r)).max();
        let puzzles = match (most(|r| r.puzzles_a), most(|r| r.puzzles_b)) {
            (Some(a), Some(b)) if a == b => puzzles_phrase(a, ""),
            (a, b) => format!(
                "{} in A, {} in B",
                puzzles_phrase(a.unwrap_or(0), ""),
                crate::plumbing::human::count(b.unwrap_or(0))
            ),
        };
        out.push_str(&format!(
            "{}: {puzzles}\n",
            summary::group_name(dataset, shape)
        ));
        out.push_str(&group_table(&members).terminal());
    }
    out
}

/// `n puzzles` (`1 puzzle`), with thousands separators, and `tail` after it.
fn puzzles_phrase(n: usize, tail: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} puzzle{s}{tail}", crate::plumbing::human::count(n))
}

/// One dataset x shape's solvers as a [`crate::analysis::table::Table`] for the terminal.
fn group_table(rows: &[&CompareRow]) -> crate::analysis::table::Table {
    use crate::analysis::table::{Cell, Column, Table};
    let mut t = Table::new(vec![
        Column::left("solver").gap(0),
        Column::right("median A").gap(2),
        Column::right("median B"),
        Column::right("B/A [95% CI]"),
        Column::left("B vs A").gap(2),
        Column::right("nodes A").gap(2),
        Column::right("nodes B"),
        Column::left("changed"),
    ]);
    for r in rows {
        t.push(table_row(r).into_iter().map(Cell::new).collect::<Vec<_>>());
    }
    t
}

/// One row of [`table`]'s cells: the solver, then the figures.
fn table_row(r: &CompareRow) -> Vec<String> {
    use crate::plumbing::human::ratio;
    let opt = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map_or_else(|| "-".into(), f);
    let changed = match (r.status_changed, r.answer_changed) {
        (Some(0), Some(0)) => "none".to_string(),
        (Some(s), Some(a)) => format!("{s} st., {a} ans."),
        _ => r.note.clone(),
    };
    let nodes = |x: f64| crate::plumbing::human::thousands(x.round() as u64);
    vec![
        r.solver.clone(),
        opt(r.median_micros_a, &human_micros),
        opt(r.median_micros_b, &human_micros),
        match (r.ratio_b_over_a, r.ratio_lo, r.ratio_hi) {
            (Some(x), Some(lo), Some(hi)) => crate::plumbing::human::interval(x, lo, hi, ratio),
            (Some(x), _, _) => ratio(x),
            _ => "-".into(),
        },
        if r.verdict.is_empty() {
            "-".into()
        } else {
            // `too few puzzles (12)` in the CSV; the column says what is too few.
            r.verdict.replacen("too few puzzles", "too few", 1)
        },
        opt(r.mean_nodes_a, &nodes),
        opt(r.mean_nodes_b, &nodes),
        changed,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row at every bound [`table`] states fits [`summary::TABLE_WIDTH`] on one line.
    #[test]
    fn the_widest_row_fits_the_terminal_width() {
        let wide = CompareRow {
            dataset: "minimal-1000".into(),
            shape: "9x9".into(),
            solver: "domain-reduction".into(),
            puzzles_a: Some(1000),
            puzzles_b: Some(1000),
            median_micros_a: Some(99_990.0),
            median_micros_b: Some(98_760.0),
            ratio_b_over_a: Some(9.87),
            ratio_lo: Some(9.76),
            ratio_hi: Some(9.99),
            verdict: "9.87× slower".into(),
            mean_nodes_a: Some(999_999.0),
            mean_nodes_b: Some(999_998.0),
            status_changed: Some(99),
            answer_changed: Some(99),
            note: String::new(),
        };
        let text = table(&[wide]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines[0], "minimal-1000: 1,000 puzzles");
        assert!(lines[2]
            .starts_with("domain-reduction  99.99 ms 98.76 ms 9.87 [9.76, 9.99]  9.87× slower"));
        assert!(lines[2].ends_with("99 st., 99 ans."), "{text}");
        let widest = lines.iter().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= summary::TABLE_WIDTH, "{widest} columns:\n{text}");
    }

    #[test]
    fn verdicts() {
        assert_eq!(verdict(0.5), "2.00× faster");
        assert_eq!(verdict(1.2), "1.20× slower");
        assert_eq!(verdict(1.01), "same");
    }

    fn row(dataset: &str, solver: &str, ratio: f64, nodes_b: f64) -> CompareRow {
        CompareRow {
            dataset: dataset.into(),
            shape: "9x9".into(),
            solver: solver.into(),
            puzzles_a: Some(100),
            puzzles_b: Some(100),
            median_micros_a: Some(10.0),
            median_micros_b: Some(10.0 * ratio),
            ratio_b_over_a: Some(ratio),
            ratio_lo: Some(ratio - 0.01),
            ratio_hi: Some(ratio + 0.01),
            verdict: "same".into(),
            mean_nodes_a: Some(5.0),
            mean_nodes_b: Some(nodes_b),
            status_changed: Some(0),
            answer_changed: Some(0),
            note: String::new(),
        }
    }

    #[test]
    fn a_shift_of_every_unchanged_solver_is_named() {
        let rows = vec![
            row("d", "a", 1.07, 5.0),
            row("d", "b", 1.06, 5.0),
            row("d", "c", 1.09, 5.0),
            // A solver whose search changed does not count, whichever way it moved.
            row("d", "e", 0.5, 4.0),
            row("quiet", "a", 1.07, 5.0),
            row("quiet", "b", 0.98, 5.0),
            row("quiet", "c", 1.06, 5.0),
        ];
        let w = common_shifts(&rows);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].starts_with("on d, all 3 solvers") && w[0].contains("slower"),
            "{w:?}"
        );
        // Within the noise threshold: no warning.
        let small = vec![
            row("d", "a", 1.02, 5.0),
            row("d", "b", 1.03, 5.0),
            row("d", "c", 1.01, 5.0),
        ];
        assert!(common_shifts(&small).is_empty());
        // Too few solvers to tell the machine from the solvers.
        assert!(common_shifts(&rows[..2]).is_empty());
    }
}
