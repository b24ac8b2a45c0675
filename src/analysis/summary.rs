//! The summary: one [`SummaryRow`] per dataset x shape x solver, computed from the [`Row`]s of a
//! run, and its rendering as a table for the terminal. A solver whose caps do not take a
//! shape has no rows of it: its summary row there says `n/a` and why ([`SummaryRow::na`]).

use crate::analysis::table::{Align, Cell, Column, Table};
use crate::plumbing::human::{count, figure, rate};
use crate::record::Row;
use crate::record::RowStatus;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One row of `summary.csv`. Times are µs per puzzle over the puzzles that could be read
/// (every row but `invalid` ones; a timeout counts at the time it took to give up). The six
/// counts `solved`, `wrong`, `no_solution`, `timeouts`, `errors` and `invalid` partition
/// `puzzles`: every row is counted in exactly one of them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Dataset name.
    pub dataset: String,
    /// Solver name.
    pub solver: String,
    /// Puzzles in the dataset (invalid ones included).
    pub puzzles: usize,
    /// Puzzles solved: a checked right answer, or a solve of a solver that writes no solution
    /// ([`crate::record::Row::counts_as_solved`]; `unchecked` says how many of them).
    pub solved: usize,
    /// Answers the checker rejected (see `results.csv`'s `error` column).
    pub wrong: usize,
    /// Puzzles the solver said have no solution, and nothing says otherwise (a `no_solution` that
    /// another solver or the file's stated solution contradicts is counted in `wrong`).
    pub no_solution: usize,
    /// Puzzles whose budget ran out.
    pub timeouts: usize,
    /// Rows whose status is `error`: the solver itself failed (for example an external solver
    /// that crashed or printed no answer). 0 in summary.csv files written before the column
    /// existed.
    #[serde(default)]
    pub errors: usize,
    /// Puzzles that could not be read.
    pub invalid: usize,
    /// Of `solved`, the puzzles solved by a solver that writes no solution, so the answer could
    /// not be checked ([`crate::record::Row::counts_as_solved`]).
    #[serde(default)]
    pub unchecked: usize,
    /// Median µs per puzzle.
    pub median_micros: f64,
    /// Mean µs per puzzle.
    pub mean_micros: f64,
    /// 90th percentile µs per puzzle ([`crate::analysis::stats::quantile`], type 7).
    pub p90_micros: f64,
    /// Slowest puzzle, µs.
    pub max_micros: f64,
    /// Solved puzzles per second on one thread, from the median: `solved / readable puzzles x
    /// 10^6 / median_micros` (see [`PUZZLES_PER_SECOND`]). The median covers every readable
    /// puzzle (a timeout at the time it took to give up), so giving up early never raises it,
    /// and the few solves slower than [`OUTLIER_FACTOR`] x the median (`outliers`) cannot move
    /// it. 0 when nothing was solved. (summary.csv files written before the column `outliers`
    /// existed hold solved puzzles per second of total solver time here.)
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
    /// PAR-2 score, µs per readable puzzle: the time of a right answer, twice the budget for
    /// anything else ([`crate::analysis::scores`]); empty without a time budget.
    #[serde(default)]
    pub par2_micros: Option<f64>,
    /// Puzzles this solver answered right and no other solver of the run did.
    #[serde(default)]
    pub unique_solves: usize,
    /// Readable puzzles whose time is more than [`OUTLIER_FACTOR`] x `median_micros`: the solves
    /// `puzzles_per_second`, from the median, sets aside. 0 in summary.csv files written before
    /// the column existed.
    #[serde(default)]
    pub outliers: usize,
    /// The puzzles' shape ([`solvers::Shape`]'s Display form: `9x9`, `16x16`, `12x12/3x4`,
    /// `10x10/latin`): a dataset of several shapes has a group of rows per shape. `9x9` in
    /// summary.csv files written before the column existed.
    #[serde(default = "classic_shape")]
    pub shape: String,
    /// Empty for a solver that ran the group's puzzles; for one whose caps do not take their
    /// shape, why (`9x9 only`): it has no rows there, every count is 0, and tables show
    /// `n/a: 9x9 only` (never an error, never unsolved in the scores).
    #[serde(default)]
    pub na: String,
}

/// The shape of rows written before the `shape` column existed: every puzzle was 9x9.
fn classic_shape() -> String {
    solvers::Shape::CLASSIC.to_string()
}

impl SummaryRow {
    /// True when the solver did not run this group's puzzles: its caps do not take their shape.
    pub fn is_na(&self) -> bool {
        !self.na.is_empty()
    }

    /// The group's name in tables: the dataset, and its shape where it is not 9x9
    /// (`seed`, `big (16x16)`).
    pub fn group(&self) -> String {
        group_name(&self.dataset, &self.shape)
    }

    /// True when `other` is of the same dataset x shape group.
    pub fn same_group(&self, other: &SummaryRow) -> bool {
        self.dataset == other.dataset && self.shape == other.shape
    }

    /// An `n/a` row: `solver` does not take `shape` (`why`, for example `9x9 only`).
    pub fn not_applicable(dataset: &str, shape: &str, solver: &str, why: &str) -> SummaryRow {
        let mut r = Group::default().finish();
        r.dataset = dataset.to_string();
        r.shape = shape.to_string();
        r.solver = solver.to_string();
        r.na = why.to_string();
        r
    }
}

/// A dataset x shape group's name in tables: the dataset, and its shape where it is not 9x9
/// (`seed`, `big (16x16)`).
pub fn group_name(dataset: &str, shape: &str) -> String {
    if shape.is_empty() || shape == "9x9" {
        dataset.to_string()
    } else {
        format!("{dataset} ({shape})")
    }
}

/// Why a solver has no rows of a shape, for `n/a` cells: `9x9 only`.
pub const CLASSIC_ONLY: &str = "9x9 only";

/// A solve slower than this many times its solver's median on the dataset is an outlier
/// ([`SummaryRow::outliers`]).
pub const OUTLIER_FACTOR: f64 = 10.0;

/// What `puzzles/s` and `outliers` are: the one explanation under the terminal table,
/// `summary.md` and `index.html`.
pub const PUZZLES_PER_SECOND: &str = "puzzles/s: solved puzzles per second on one thread, from \
     the median time per puzzle: solved / readable puzzles × 10^6 / median µs, so a few solves \
     held up by the scheduler cannot move it and, at equal solved counts, it ranks solvers as \
     the verdicts do. outliers: solves slower than 10× their solver's median on the dataset, \
     the ones the median sets aside (mean and max µs still count them).";

/// Summarises `rows`, keeping the order in which dataset x shape x solver groups first appear
/// (no `n/a` rows: see [`Accumulator::for_solvers`]).
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
///
/// Rows of an invalid puzzle (whose shape is unknown) count in the dataset's first shape.
#[derive(Debug, Default)]
pub struct Accumulator {
    /// Dataset -> shape -> solver -> index into `groups` (looked up by `&str`: no allocation
    /// per row).
    index: HashMap<String, HashMap<String, HashMap<String, usize>>>,
    groups: Vec<Group>,
    /// The run's solvers in report order, each with whether it takes every shape (else 9x9
    /// only); empty when unknown (then no `n/a` rows).
    solvers: Vec<(String, bool)>,
    /// (Dataset, shape) -> the rows each solver is expected to give there: a group's times are
    /// allocated at that size when it starts (see [`Accumulator::expect`]).
    expected: HashMap<(String, String), usize>,
}

#[derive(Debug, Default)]
struct Group {
    dataset: String,
    shape: String,
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
    /// A summary that knows the run's solvers (report order) and the shapes each takes (`true`:
    /// every shape, `false`: 9x9 only), so each dataset x shape group gets an `n/a` row for a
    /// solver that does not take its shape.
    pub fn for_solvers(solvers: Vec<(String, bool)>) -> Accumulator {
        Accumulator {
            solvers,
            ..Accumulator::default()
        }
    }

    /// [`Accumulator::for_solvers`] with the solvers of a run.json.
    pub fn for_run(info: &crate::record::RunInfo) -> Accumulator {
        Accumulator::for_solvers(
            info.solvers
                .iter()
                .map(|s| (s.clone(), info.solver_takes(s, "any")))
                .collect(),
        )
    }

    /// Expects about `rows` rows per solver of `dataset` x `shape`: each group's times are
    /// allocated at once at that size instead of growing by doubling. A run keeps 4 bytes a
    /// row for its exact medians; growing vectors would take up to twice that, and the
    /// allocator may keep the old blocks. Untouched room costs no resident memory.
    pub fn expect(&mut self, dataset: &str, shape: &str, rows: usize) {
        self.expected
            .insert((dataset.to_string(), shape.to_string()), rows);
    }

    /// The solver -> group map of one dataset x shape, if any row of it was seen.
    fn members(&self, dataset: &str, shape: &str) -> Option<&HashMap<String, usize>> {
        self.index.get(dataset).and_then(|m| m.get(shape))
    }

    fn group_of(&mut self, dataset: &str, shape: &str, solver: &str) -> usize {
        if let Some(&i) = self.members(dataset, shape).and_then(|m| m.get(solver)) {
            return i;
        }
        let i = self.groups.len();
        let expected = self
            .expected
            .get(&(dataset.to_string(), shape.to_string()))
            .copied()
            .unwrap_or(0);
        self.groups.push(Group {
            dataset: dataset.to_string(),
            shape: shape.to_string(),
            solver: solver.to_string(),
            ns: Vec::with_capacity(expected),
            ..Group::default()
        });
        self.index
            .entry(dataset.to_string())
            .or_default()
            .entry(shape.to_string())
            .or_default()
            .insert(solver.to_string(), i);
        i
    }

    /// Counts one row in.
    pub fn add(&mut self, r: &Row) {
        let i = self.group_of(&r.dataset, &r.shape, &r.solver);
        let g = &mut self.groups[i];
        g.puzzles += 1;
        if r.counts_as_solved() {
            g.solved += 1;
        }
        if r.is_wrong() {
            g.wrong += 1;
        }
        if r.is_unchecked() {
            g.unchecked += 1;
        }
        // Every row lands in exactly one count: a wrong answer is counted as wrong only.
        match r.status {
            _ if r.is_wrong() => {}
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

    /// The summary rows: dataset x shape groups in the order they first appeared (a dataset's
    /// shapes together), each group's solvers in report order, with an `n/a` row for each
    /// known solver that does not take the group's shape.
    pub fn finish(mut self) -> Vec<SummaryRow> {
        // The groups of each dataset, shapes in order of appearance; invalid rows (shape
        // unknown) go to the dataset's first shape (9x9 when it has no readable puzzle).
        let mut blocks: Vec<(String, String)> = Vec::new();
        for g in &self.groups {
            if !g.shape.is_empty() && !blocks.iter().any(|b| b.0 == g.dataset && b.1 == g.shape) {
                blocks.push((g.dataset.clone(), g.shape.clone()));
            }
        }
        let dropped = self.place_unknown_shapes(&mut blocks);
        self.rows_in_order(&blocks, &dropped)
    }

    /// Puts each group of rows of unknown shape (invalid rows) under its dataset's first
    /// shape, adding a 9x9 block to `blocks` for a dataset with none; returns the groups merged
    /// into another or left out (a solver that does not take the shape: its `n/a` row says it).
    fn place_unknown_shapes(&mut self, blocks: &mut Vec<(String, String)>) -> Vec<bool> {
        let unknown: Vec<usize> = (0..self.groups.len())
            .filter(|&i| self.groups[i].shape.is_empty())
            .collect();
        let takes = |solvers: &[(String, bool)], solver: &str, shape: &str| {
            shape == "9x9" || solvers.iter().find(|s| s.0 == solver).map_or(true, |s| s.1)
        };
        let mut dropped = vec![false; self.groups.len()];
        for i in unknown {
            let dataset = self.groups[i].dataset.clone();
            let shape = match blocks.iter().find(|b| b.0 == dataset) {
                Some(b) => b.1.clone(),
                None => {
                    let classic = solvers::Shape::CLASSIC.to_string();
                    blocks.push((dataset.clone(), classic.clone()));
                    classic
                }
            };
            let solver = self.groups[i].solver.clone();
            if !takes(&self.solvers, &solver, &shape) {
                // Its invalid rows say nothing a `n/a` row does not.
                dropped[i] = true;
                continue;
            }
            let existing = self
                .members(&dataset, &shape)
                .and_then(|m| m.get(&solver))
                .copied();
            match existing {
                Some(j) => {
                    let (puzzles, invalid) = (self.groups[i].puzzles, self.groups[i].invalid);
                    self.groups[j].puzzles += puzzles;
                    self.groups[j].invalid += invalid;
                    dropped[i] = true;
                }
                None => {
                    self.groups[i].shape = shape.clone();
                    self.index
                        .entry(dataset)
                        .or_default()
                        .entry(shape)
                        .or_default()
                        .insert(solver, i);
                }
            }
        }
        dropped
    }

    /// The summary rows of `blocks` (dataset x shape), a dataset's blocks together, each
    /// block's solvers in report order with their `n/a` rows; `dropped` groups left out.
    fn rows_in_order(mut self, blocks: &[(String, String)], dropped: &[bool]) -> Vec<SummaryRow> {
        // Blocks of one dataset together, in the order the datasets first appeared.
        let mut order: Vec<(String, String)> = Vec::new();
        for b in blocks {
            if order.iter().any(|o| o.0 == b.0) {
                continue;
            }
            order.extend(blocks.iter().filter(|c| c.0 == b.0).cloned());
        }
        let mut groups: Vec<Option<Group>> = std::mem::take(&mut self.groups)
            .into_iter()
            .map(Some)
            .collect();
        let mut out = Vec::new();
        for (dataset, shape) in order {
            let members = self.members(&dataset, &shape).cloned().unwrap_or_default();
            let mut rows: Vec<(usize, usize, SummaryRow)> = Vec::new();
            for (solver, i) in members {
                if dropped[i] {
                    continue;
                }
                if let Some(g) = groups[i].take() {
                    let rank = self
                        .solvers
                        .iter()
                        .position(|s| s.0 == solver)
                        .unwrap_or(self.solvers.len());
                    rows.push((rank, i, g.finish()));
                }
            }
            for (k, (solver, any)) in self.solvers.iter().enumerate() {
                let has = rows.iter().any(|r| r.2.solver == *solver);
                if !has && !any && shape != "9x9" {
                    let na = SummaryRow::not_applicable(&dataset, &shape, solver, CLASSIC_ONLY);
                    rows.push((k, usize::MAX, na));
                }
            }
            // Report order; solvers the run did not name, in the order they appeared.
            rows.sort_by_key(|r| (r.0, r.1));
            out.extend(rows.into_iter().map(|r| r.2));
        }
        out
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
        let times = crate::analysis::stats::Ranked(n, nth);
        let median = crate::analysis::stats::quantile(&times, 0.5);
        let p90 = crate::analysis::stats::quantile(&times, 0.9);
        let total = self.sum_ns as f64 / 1e3;
        // The times are sorted: the outliers are the tail above OUTLIER_FACTOR x the median.
        let outliers = (0..n)
            .rev()
            .take_while(|&k| nth(k) > OUTLIER_FACTOR * median)
            .count();
        SummaryRow {
            dataset: self.dataset,
            shape: self.shape,
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
            p90_micros: round3(p90),
            max_micros: if n == 0 { 0.0 } else { nth(n - 1) },
            puzzles_per_second: if median > 0.0 && n > 0 {
                round3(self.solved as f64 / n as f64 * 1e6 / median)
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
            par2_micros: None,
            unique_solves: 0,
            outliers,
            na: String::new(),
        }
    }
}

/// Rounds to 3 decimals (ns resolution for µs), so CSV cells stay short.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The most columns [`table`] takes for the shipped datasets and solvers, whatever the timings:
/// it fits a 100-column terminal.
pub const TABLE_WIDTH: usize = 100;

/// The width the notes under the table are wrapped to: a little under [`TABLE_WIDTH`], so a
/// note line is never the full width of a 100-column terminal (nor over 100 bytes with its
/// `µ`s).
pub const NOTE_WIDTH: usize = TABLE_WIDTH - 4;

/// The summary as text for the terminal, one block per dataset x shape (in the order of
/// `summary`): a line naming the dataset (with its shape where not 9x9, `big (16x16)`) and its
/// puzzles, then one line per solver (`n/a: 9x9 only` for a solver that does not take the shape) with the six counts
/// (`solved`, `wrong`, `no-sol`, `timeout`, `error`, `invalid`, which add up to the puzzles), the
/// median µs per puzzle, solved puzzles per second from the median, and mean search-tree nodes,
/// and under them a line of each solver's outliers. Every column holds one unit; p90, max and mean µs are in `summary.csv` and the report. With
/// the shipped solvers' names (up to 16 characters) and figures up to 11 characters (times up to
/// 999 s, counts up to 9,999 per status but `solved`, up to 999,999), a line is at most 99
/// columns; the notes under the table fit [`TABLE_WIDTH`] too.
pub fn table(summary: &[SummaryRow]) -> String {
    table_planned(summary, |_| None)
}

/// The puzzles a complete run gives each dataset x shape group of `info` (per puzzle copy),
/// for [`table_planned`]: `None` for a complete run, whose rows are all there.
pub fn planned_of(info: &crate::record::RunInfo) -> impl Fn(&SummaryRow) -> Option<usize> + '_ {
    move |r: &SummaryRow| {
        if info.complete {
            return None;
        }
        let copies = info.isomorphs.unwrap_or(1).max(1) as usize;
        let d = info.datasets.iter().find(|d| d.name == r.dataset)?;
        let shapes = d.shape_counts();
        let shape = if r.shape.is_empty() { "9x9" } else { &r.shape };
        let readable = shapes
            .iter()
            .find(|c| c.shape == shape)
            .map_or(0, |c| c.puzzles);
        let invalid = if shapes.first().is_some_and(|c| c.shape == shape) || shapes.is_empty() {
            d.invalid
        } else {
            0
        };
        Some((readable + invalid) * copies)
    }
}

/// [`table`] for a run that may not have finished: `planned` gives a group's puzzles in a
/// complete run (`None`: the rows are complete). A group some solver has not finished says
/// "N of M puzzles, partial" and names each solver's unfinished count.
pub fn table_planned(
    summary: &[SummaryRow],
    planned: impl Fn(&SummaryRow) -> Option<usize>,
) -> String {
    let mut groups: Vec<&SummaryRow> = Vec::new();
    for r in summary {
        if !groups.iter().any(|g| g.same_group(r)) {
            groups.push(r);
        }
    }
    let mut out = String::new();
    for (i, first) in groups.iter().enumerate() {
        let all: Vec<&SummaryRow> = summary.iter().filter(|r| r.same_group(first)).collect();
        let rows: Vec<&SummaryRow> = all.iter().copied().filter(|r| !r.is_na()).collect();
        if i > 0 {
            out.push('\n');
        }
        let puzzles = rows.iter().map(|r| r.puzzles).max().unwrap_or(0);
        let whole = planned(first).map_or(puzzles, |p| p.max(puzzles));
        let unfinished: Vec<(&str, usize)> = rows
            .iter()
            .map(|r| (r.solver.as_str(), whole - r.puzzles.min(whole)))
            .collect();
        let partial = unfinished.iter().any(|&(_, n)| n > 0);
        if partial {
            out.push_str(&format!(
                "{}: {} of {} puzzles, partial (the run was interrupted)\n",
                first.group(),
                count(puzzles),
                count(whole)
            ));
        } else {
            out.push_str(&format!(
                "{}: {} puzzle{}\n",
                first.group(),
                count(puzzles),
                if puzzles == 1 { "" } else { "s" }
            ));
        }
        out.push_str(&group_table(&all).terminal());
        if !rows.is_empty() {
            out.push_str(&outliers_line(&rows));
        }
        if partial {
            out.push_str(&unfinished_line(&unfinished));
        }
    }
    if summary.iter().any(|r| r.unchecked > 0) {
        out.push_str("\n* solved, some unchecked: the solver writes no solution to check.");
    }
    if !summary.is_empty() {
        out.push('\n');
        out.push_str(&wrap(
            &format!(
                "median µs: per puzzle, a timeout at the time it gave up. {PUZZLES_PER_SECOND} \
                 p90, max, mean: summary.csv, the report."
            ),
            NOTE_WIDTH,
        ));
    }
    out
}

/// One dataset x shape's solvers as a table for the terminal: the six counts close together,
/// the figures a little apart; a solver that does not take the shape has one cell saying why.
fn group_table(all: &[&SummaryRow]) -> Table {
    let mut t = Table::new(vec![
        Column::left("solver").gap(0),
        Column::right("solved").gap(2),
        Column::right("wrong"),
        Column::right("no-sol"),
        Column::right("timeout"),
        Column::right("error"),
        Column::right("invalid"),
        Column::right("median µs").gap(2),
        Column::right("puzzles/s").gap(2),
        Column::right("mean nodes").gap(2),
    ]);
    for r in all {
        if r.is_na() {
            let na = Cell::new(format!("n/a: {}", r.na)).align(Align::Left);
            t.push(vec![Cell::new(&r.solver), na]);
            continue;
        }
        let solved = if r.unchecked > 0 {
            format!("{}*", count(r.solved))
        } else {
            count(r.solved)
        };
        t.push(
            [
                r.solver.clone(),
                solved,
                count(r.wrong),
                count(r.no_solution),
                count(r.timeouts),
                count(r.errors),
                count(r.invalid),
                figure(r.median_micros),
                rate(r.puzzles_per_second),
                crate::plumbing::human::nodes(r.mean_nodes),
            ]
            .into_iter()
            .map(Cell::new)
            .collect::<Vec<_>>(),
        );
    }
    t
}

/// One dataset's outlier counts for the terminal, one per solver, wrapped to [`TABLE_WIDTH`]
/// with continuation lines indented by two spaces (a solver's name and count on one line): `outliers (> 10× median): backtracking 0, hybrid 3`.
fn outliers_line(rows: &[&SummaryRow]) -> String {
    let counts: Vec<(&str, usize)> = rows
        .iter()
        .map(|r| (r.solver.as_str(), r.outliers))
        .collect();
    counts_line("outliers (> 10× median):", &counts)
}

/// The line under a partial group's table: each solver's puzzles without a row.
fn unfinished_line(counts: &[(&str, usize)]) -> String {
    counts_line("unfinished (no row yet):", counts)
}

/// `head` then `solver count` pairs, wrapped to the table's width with continuation lines
/// indented.
fn counts_line(head: &str, counts: &[(&str, usize)]) -> String {
    let mut words: Vec<String> = head.split(' ').map(String::from).collect();
    for (i, (solver, n)) in counts.iter().enumerate() {
        let comma = if i + 1 < counts.len() { "," } else { "" };
        words.push(format!("{solver} {}{comma}", count(*n)));
    }
    // Continuation lines are indented, so that no line of the block starts with a solver's
    // name but the table's own rows.
    let wrapped = wrap_words(&words, TABLE_WIDTH - 2);
    let mut out = String::with_capacity(wrapped.len() + 8);
    for (i, line) in wrapped.lines().enumerate() {
        if i > 0 {
            out.push_str("  ");
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// `text` broken at spaces into lines of at most `width` characters, each ending in a line
/// break.
fn wrap(text: &str, width: usize) -> String {
    let words: Vec<String> = text.split(' ').map(String::from).collect();
    wrap_words(&words, width)
}

/// `words` joined by spaces into lines of at most `width` characters (a longer word stays
/// whole), each ending in a line break.
fn wrap_words(words: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(dataset: &str, solver: &str, status: &str, correct: Option<bool>, micros: f64) -> Row {
        Row {
            status: status.parse().unwrap(),
            correct,
            micros,
            nodes: 10,
            line: 1,
            givens: 17,
            shape: "9x9".into(),
            ..Row::new(dataset, "p", solver)
        }
    }

    #[test]
    fn counts_partition_the_rows_and_throughput_is_over_solved_puzzles() {
        let rows = vec![
            row("d", "s", "solved", Some(true), 10.0),
            row("d", "s", "solved", Some(true), 30.0),
            row("d", "s", "solved", Some(false), 5.0),
            row("d", "s", "no_solution", Some(false), 5.0),
            row("d", "s", "no_solution", None, 7.0),
            row("d", "s", "timeout", None, 1000.0),
            row("d", "s", "error", None, 3.0),
            row("d", "s", "invalid", None, 0.0),
        ];
        let s = &summarize(&rows)[0];
        assert_eq!(
            (
                s.puzzles,
                s.solved,
                s.wrong,
                s.no_solution,
                s.timeouts,
                s.errors,
                s.invalid
            ),
            (8, 2, 2, 1, 1, 1, 1)
        );
        let parts = s.solved + s.wrong + s.no_solution + s.timeouts + s.errors + s.invalid;
        assert_eq!(parts, s.puzzles);
        // Times over the 7 readable rows: 3 5 5 7 10 30 1000.
        assert_eq!(s.median_micros, 7.0);
        assert_eq!(s.max_micros, 1000.0);
        // 2 solved of 7 readable at a median of 7 µs: 2 / 7 x 10^6 / 7 = 40,816.327/s.
        assert_eq!(s.puzzles_per_second, 40816.327);
        // Above 10 x 7 µs: the timeout's 1000 µs only.
        assert_eq!(s.outliers, 1);
    }

    #[test]
    fn table_by_hand() {
        let mut rows = vec![
            row("seed", "backtracking", "solved", Some(true), 420_520.0),
            row("seed", "backtracking", "timeout", None, 1_000_100.0),
            row("seed", "bitboard-bands", "solved", Some(true), 5.8),
            row("seed", "bitboard-bands", "solved", Some(true), 5.8),
        ];
        rows[0].nodes = 3_685_419;
        let t = table(&summarize(&rows));
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "seed: 2 puzzles");
        assert_eq!(
            lines[1],
            "solver          solved wrong no-sol timeout error invalid  median µs  puzzles/s  mean nodes"
        );
        // median of 420,520 and 1,000,100 µs = 710,310; 1 of 2 solved: 0.5 x 10^6 / 710,310 =
        // 0.704/s.
        assert_eq!(
            lines[2],
            "backtracking         1     0      0       1     0       0    710,310       0.70   1,842,715"
        );
        // 2 of 2 solved at a median of 5.8 µs: 10^6 / 5.8 = 172,414/s.
        assert_eq!(
            lines[3],
            "bitboard-bands       2     0      0       0     0       0        5.8    172,414          10"
        );
        // Nothing above 10 x the median: 1,000,100 µs < 7,103,100 µs.
        assert_eq!(
            lines[4],
            "outliers (> 10× median): backtracking 0, bitboard-bands 0"
        );
        // The one explanation, wrapped to the table's width.
        assert!(t.replace('\n', " ").contains(PUZZLES_PER_SECOND), "{t}");
        assert!(t.lines().all(|l| l.chars().count() <= TABLE_WIDTH), "{t}");
        // Its lines stay under the width of a 100-column terminal, in bytes too.
        let notes = t
            .lines()
            .skip_while(|l| !l.starts_with("median µs: per puzzle"));
        for l in notes {
            assert!(
                l.len() <= NOTE_WIDTH + 2 && l.chars().count() <= NOTE_WIDTH,
                "{l}"
            );
        }
    }

    /// An interrupted run's group says it is partial, with the planned count and each solver's
    /// unfinished puzzles, every number with its thousands separated.
    #[test]
    fn a_partial_group_names_each_solvers_unfinished_count() {
        let mut rows = Vec::new();
        for i in 0..1_200 {
            rows.push(row(
                "big",
                "backtracking",
                "solved",
                Some(true),
                5.0 + i as f64,
            ));
        }
        for i in 0..1_100 {
            rows.push(row("big", "dlx", "solved", Some(true), 5.0 + i as f64));
        }
        let t = table_planned(&summarize(&rows), |_| Some(2_500));
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0],
            "big: 1,200 of 2,500 puzzles, partial (the run was interrupted)"
        );
        assert_eq!(
            lines[5],
            "unfinished (no row yet): backtracking 1,300, dlx 1,400"
        );
        // A complete group says nothing of the kind.
        let t = table_planned(&summarize(&rows[..1_200]), |_| Some(1_200));
        assert!(
            t.starts_with("big: 1,200 puzzles\n") && !t.contains("unfinished"),
            "{t}"
        );
    }

    /// The widest table the shipped datasets and solvers can give: every count and figure at
    /// the widest the doc of [`table`] allows.
    #[test]
    fn table_fits_100_columns_at_the_widest() {
        let mut rows = Vec::new();
        for d in crate::input::dataset::SHIPPED {
            for k in solvers::SolverKind::ALL {
                let mut r = row(d.name, k.name(), "solved", Some(true), 999_000_000.0);
                r.nodes = 999_999_999;
                rows.push(r);
            }
        }
        let mut summary = summarize(&rows);
        for s in &mut summary {
            (s.solved, s.wrong, s.no_solution) = (999_999, 9_999, 9_999);
            (s.timeouts, s.errors, s.invalid) = (9_999, 9_999, 9_999);
            s.puzzles_per_second = 999_999_999.0;
            s.outliers = 9_999;
        }
        let t = table(&summary);
        let widest = t.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= TABLE_WIDTH, "{widest} columns:\n{t}");
        // The solver lines at their widest; the notes are wrapped to TABLE_WIDTH.
        let rows = t.lines().filter(|l| l.starts_with("backtracking"));
        assert_eq!(rows.map(|l| l.chars().count()).max(), Some(99), "{t}");
    }

    fn timed_row(solver: &str, micros: f64) -> Row {
        Row {
            puzzle: "1".into(),
            nodes: 3,
            givens: 30,
            ..row("d", solver, "solved", Some(true), micros)
        }
    }

    /// Times past `u32::MAX` ns (4.29 s) still sort after the short ones and sum exactly.
    #[test]
    fn online_summary_by_hand_with_long_times() {
        let times = [5_000_000.0, 1.5, 2.25, 4_300_000.001, 3.0];
        let rows: Vec<Row> = times.iter().map(|&t| timed_row("a", t)).collect();
        let s = &summarize(&rows)[0];
        assert_eq!(s.puzzles, 5);
        assert_eq!(s.median_micros, 3.0);
        // Type 7: 4,300,000.001 + 0.6 x 699,999.999.
        assert_eq!(s.p90_micros, 4_720_000.0);
        assert_eq!(s.max_micros, 5_000_000.0);
        assert_eq!(s.mean_micros, 1_860_001.35);
        assert_eq!(s.mean_nodes, 3.0);
        let even = summarize(&rows[1..]);
        assert_eq!(even[0].median_micros, 2.625);
        // Type 7: 3 + 0.7 x 4,299,997.001.
        assert_eq!(even[0].p90_micros, 3_010_000.901);
    }
}
