//! What inference buys: guesses per puzzle against the strength of the propagation, across the
//! solvers that search the same way (depth-first, branching on a cell with the fewest
//! candidates) and differ in what they infer at every node:
//!
//! | step | solver | infers at every node |
//! |---|---|---|
//! | 1 | `bitmask-singles` | naked singles |
//! | 2 | `domain-reduction` | naked and hidden singles |
//! | 3 | `bitboard-bands` | singles and locked candidates (pointing, claiming) |
//! | 4 | `logic` | every technique of the rater but uniqueness and forcing chains: subsets, fish, wings, chains |
//!
//! Every one of them counts `guesses` as branch points (cells with two or more candidates where
//! the search tried a digit), so the counts compare across them. The plot and the table are made
//! when a run holds two or more of these solvers; the means are over the puzzles each solved
//! (checked), from results.csv's `guesses` column, streamed (see [`Acc`]).
//!
//! The experiment is the one of Norvig's "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html)
//! carried further: each rule added removes guesses, and the rater's techniques leave almost none.

use super::rigor::{Section, Table};
use super::style::{chart_builder, draw_legend, draw_mesh, plot_err, si};
use super::PlotFile;
use crate::record::Row;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::RGBColor;
use std::collections::HashMap;

/// The inference ladder: (solver, what it infers at every node), weakest first.
pub const LADDER: [(&str, &str); 4] = [
    ("bitmask-singles", "naked singles"),
    ("domain-reduction", "+ hidden singles"),
    ("bitboard-bands", "+ locked candidates"),
    ("logic", "+ subsets, fish, wings, chains"),
];

/// Guesses of one (dataset, solver) pair over its solved puzzles.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    /// Puzzles solved (and checked).
    pub solved: u64,
    /// Their guesses, summed.
    pub guesses: u64,
    /// Those solved with no guess at all.
    pub no_guess: u64,
}

impl Tally {
    /// Mean guesses per solved puzzle; `None` with none solved.
    pub fn mean(&self) -> Option<f64> {
        (self.solved > 0).then(|| self.guesses as f64 / self.solved as f64)
    }

    /// Share of the solved puzzles that needed no guess, 0..=1; `None` with none solved.
    pub fn share_no_guess(&self) -> Option<f64> {
        (self.solved > 0).then(|| self.no_guess as f64 / self.solved as f64)
    }
}

/// The streamed tallies: one per (dataset, ladder solver) met in the rows. Memory: one entry per
/// pair, whatever the number of rows.
#[derive(Debug, Clone, Default)]
pub struct Acc {
    tallies: HashMap<(String, &'static str), Tally>,
}

impl Acc {
    /// Adds one row of results.csv: `solved` when it counts as solved (checked); rows of
    /// solvers off the ladder, and unsolved rows, are ignored.
    pub fn add(&mut self, r: &Row, solved: bool) {
        self.add_solve(&r.dataset, &r.solver, r.guesses, solved);
    }

    /// [`Acc::add`] from the row's fields: dataset, solver, guesses, solved.
    pub fn add_solve(&mut self, dataset: &str, solver: &str, guesses: u64, solved: bool) {
        if !solved {
            return;
        }
        let Some(&(name, _)) = LADDER.iter().find(|(s, _)| *s == solver) else {
            return;
        };
        let key = (dataset.to_string(), name);
        let t = self.tallies.entry(key).or_default();
        t.solved += 1;
        t.guesses += guesses;
        t.no_guess += u64::from(guesses == 0);
    }
}

/// What the section shows: the ladder steps present in the run and, per dataset, their tallies.
#[derive(Debug, Clone, PartialEq)]
pub struct Inference {
    /// The ladder entries the run holds, weakest first: (solver, what it infers).
    pub steps: Vec<(&'static str, &'static str)>,
    /// Per dataset in report order: one tally per step (`None`: no solved puzzle there).
    pub datasets: Vec<(String, Vec<Option<Tally>>)>,
}

/// Gathers the tallies of the ladder solvers in `solvers` over `datasets`; `None` when the run
/// has fewer than two of them (nothing to compare).
pub fn data(acc: &Acc, datasets: &[String], solvers: &[String]) -> Option<Inference> {
    let steps: Vec<(&'static str, &'static str)> = LADDER
        .iter()
        .copied()
        .filter(|(s, _)| solvers.iter().any(|x| x == s))
        .collect();
    if steps.len() < 2 {
        return None;
    }
    let datasets: Vec<(String, Vec<Option<Tally>>)> = datasets
        .iter()
        .map(|d| {
            let row = steps
                .iter()
                .map(|(s, _)| acc.tallies.get(&(d.clone(), *s)).copied())
                .collect();
            (d.clone(), row)
        })
        .filter(|(_, row): &(String, Vec<Option<Tally>>)| row.iter().any(Option::is_some))
        .collect();
    (!datasets.is_empty()).then_some(Inference { steps, datasets })
}

/// A dataset's line colour: a palette of its own (datasets, not solvers, are the series here).
fn dataset_color(i: usize) -> RGBColor {
    const C: [RGBColor; 6] =
        super::style::colors([0x1B9E77, 0xD95F02, 0x7570B3, 0xE7298A, 0x66A61E, 0xA6761D]);
    C[i % C.len()]
}

/// The lowest value the log axis shows; a mean of 0 guesses is drawn on it, as a hollow mark.
fn floor_of(inf: &Inference) -> f64 {
    let lo = inf
        .datasets
        .iter()
        .flat_map(|(_, r)| r.iter().flatten().filter_map(Tally::mean))
        .filter(|&m| m > 0.0)
        .fold(f64::INFINITY, f64::min);
    if lo.is_finite() {
        10f64.powf((lo / 2.0).log10().floor())
    } else {
        0.01
    }
}

/// Draws the plot: x = the ladder steps present, y = mean guesses per solved puzzle (log), one
/// line per dataset; a mean of 0 sits on the bottom edge as a hollow circle.
///
/// # Errors
/// When drawing fails.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    inf: &Inference,
) -> anyhow::Result<()> {
    let floor = floor_of(inf);
    let hi = inf
        .datasets
        .iter()
        .flat_map(|(_, r)| r.iter().flatten().filter_map(Tally::mean))
        .fold(floor * 10.0, f64::max);
    let top = super::style::log_top(floor, hi * 1.5, 0.2);
    let n = inf.steps.len();
    let steps = inf.steps.clone();
    let label = move |v: &f64| {
        let i = v.round();
        if (v - i).abs() < 1e-6 && i >= 0.0 {
            steps
                .get(i as usize)
                .map(|(s, what)| format!("{s} ({what})"))
                .unwrap_or_default()
        } else {
            String::new()
        }
    };
    let mut chart = chart_builder(
        root,
        "What inference buys: guesses per puzzle as propagation gets stronger",
    )
    .build_cartesian_2d(-0.4..n as f64 - 0.6, (floor..top).log_scale())
    .map_err(plot_err)?;
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh()
        .x_labels(n)
        .x_desc("solver (what it infers at every node, weakest first)")
        .y_desc("mean guesses per solved puzzle (log scale)")
        .x_label_formatter(&label)
        .y_label_formatter(&|v| tick(*v));
    draw_mesh(&mut mesh)?;
    for (k, (d, row)) in inf.datasets.iter().enumerate() {
        let color = dataset_color(k);
        let pts: Vec<(f64, f64, bool)> = row
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                let m = t.and_then(|t| t.mean())?;
                Some((i as f64, m.max(floor), m == 0.0))
            })
            .collect();
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|&(x, y, _)| (x, y)),
                color.stroke_width(2),
            ))
            .map_err(plot_err)?
            .label(d.clone())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2)));
        chart
            .draw_series(pts.iter().map(|&(x, y, zero)| {
                if zero {
                    Circle::new((x, y), 5, color.stroke_width(2))
                } else {
                    Circle::new((x, y), 5, color.filled())
                }
            }))
            .map_err(plot_err)?;
    }
    draw_legend(&mut chart, SeriesLabelPosition::UpperRight)
}

/// A y tick: SI form from 1 up (`10k`), plain decimals below (`0.001`).
fn tick(v: f64) -> String {
    if v >= 1.0 {
        si(v)
    } else {
        let t = format!("{v:.6}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The mean and the share without a guess, as a table cell: `40.15 (1%)`, `0.004 (99.6%)`;
/// `-` with none solved. Neither rounds to a 0 or a 100% that is not exact.
fn cell(t: Option<Tally>) -> String {
    let (Some(m), Some(z)) = (t.and_then(|t| t.mean()), t.and_then(|t| t.share_no_guess())) else {
        return "-".into();
    };
    let mean = if m == 0.0 || m >= 0.1 {
        format!("{m:.2}")
    } else {
        format!("{m:.3}")
    };
    let pct = z * 100.0;
    let share = if (99.5..100.0).contains(&pct) || (pct > 0.0 && pct < 0.5) {
        format!("{pct:.1}%")
    } else {
        format!("{pct:.0}%")
    };
    format!("{mean} ({share})")
}

/// The "What inference buys" section: the table (dataset x ladder solver) and the plot.
pub fn section(inf: &Inference, plot: Option<PlotFile>) -> Section {
    let mut header = vec!["dataset".to_string()];
    header.extend(inf.steps.iter().map(|(s, what)| format!("{s} ({what})")));
    let rows = inf
        .datasets
        .iter()
        .map(|(d, row)| {
            let mut r = vec![d.clone()];
            r.extend(row.iter().map(|&t| cell(t)));
            r
        })
        .collect();
    Section {
        title: "What inference buys".into(),
        lines: vec![
            "Mean guesses (branch points) per solved puzzle, and in brackets the share of the \
             solved puzzles that needed no guess, for the solvers that differ only in what they \
             infer at every node, weakest first. Fewer guesses is not faster by itself: the \
             stronger rules cost more per node (see the throughput plot)."
                .into(),
        ],
        table: Some(Table { header, rows }),
        note: "From results.csv's guesses column, over the puzzles each solver solved and \
               checked, in this run's mode (first solution, or counting)."
            .into(),
        plot,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_stream_per_pair_and_skip_other_solvers_and_unsolved_rows() {
        let mut acc = Acc::default();
        for (s, g, ok) in [
            ("bitmask-singles", 4, true),
            ("bitmask-singles", 0, true),
            ("bitmask-singles", 9, false),
            ("logic", 0, true),
            ("logic", 1, true),
            ("dlx", 7, true),
        ] {
            acc.add_solve("a", s, g, ok);
        }
        let solvers: Vec<String> = ["bitmask-singles", "dlx", "logic"]
            .map(String::from)
            .to_vec();
        let inf = data(&acc, &["a".into(), "empty".into()], &solvers).expect("two steps");
        assert_eq!(
            inf.steps,
            vec![LADDER[0], LADDER[3]],
            "ladder order, dlx left out"
        );
        // The dataset with no row is dropped.
        assert_eq!(inf.datasets.len(), 1);
        let t = inf.datasets[0].1.clone();
        assert_eq!(
            t[0],
            Some(Tally {
                solved: 2,
                guesses: 4,
                no_guess: 1
            })
        );
        assert_eq!(t[0].unwrap().mean(), Some(2.0));
        assert_eq!(cell(t[1]), "0.50 (50%)");
        assert_eq!(cell(None), "-");
        let nearly = Tally {
            solved: 1000,
            guesses: 1,
            no_guess: 999,
        };
        assert_eq!(cell(Some(nearly)), "0.001 (99.9%)");
        assert_eq!(tick(0.001), "0.001");
        assert_eq!(tick(10_000.0), si(10_000.0));
        let sec = section(&inf, None);
        assert_eq!(sec.table.as_ref().unwrap().rows[0][1], "2.00 (50%)");
    }

    #[test]
    fn one_ladder_solver_is_nothing_to_compare() {
        let mut acc = Acc::default();
        acc.add_solve("a", "logic", 1, true);
        assert_eq!(data(&acc, &["a".into()], &["logic".into()]), None);
    }

    #[test]
    fn the_plot_draws_zero_means_on_the_floor() {
        let mut acc = Acc::default();
        acc.add_solve("a", "bitmask-singles", 40, true);
        acc.add_solve("a", "logic", 0, true);
        let inf = data(
            &acc,
            &["a".into()],
            &["bitmask-singles".into(), "logic".into()],
        )
        .unwrap();
        // 40 is the only positive mean: the floor is the power of ten below 20.
        assert_eq!(floor_of(&inf), 10.0);
        super::super::style::init_fonts();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (1000, 600)).into_drawing_area();
            draw(&root, &inf).unwrap();
            root.present().unwrap();
        }
        assert!(svg.contains("logic (+ subsets, fish, wings, chains)"));
    }
}
