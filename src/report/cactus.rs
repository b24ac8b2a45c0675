//! The cactus plot of one dataset: for each solver, how many puzzles it had solved by a given time
//! per puzzle. This is how SAT and CP competitions compare solvers: a curve further left reaches
//! its solves sooner, a curve higher up solves more. Timeouts, wrong answers and invalid puzzles
//! are never solved, so they keep a curve below the "puzzles in the dataset" line; nothing is
//! dropped. The time axis is logarithmic (µs). A curve is drawn from at most [`MAX_STEPS`]
//! quantiles of the solved times (every `k`-th solve, and the last), so its size does not grow
//! with the run.

use super::digest::{Digest, FLOOR_MICROS};
use super::style::{chart_builder, draw_legend, draw_mesh, plot_err, si, solver_color};
use crate::analysis::summary::SummaryRow;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::RGBColor;

/// Most points drawn per curve; longer curves are thinned evenly (keeping the last solve), which
/// keeps the SVG small for huge sets without changing the shape.
pub const MAX_STEPS: usize = 1500;

/// One solver's curve.
#[derive(Debug, Clone)]
pub struct Curve {
    /// Solver name.
    pub solver: String,
    /// Colour.
    pub color: RGBColor,
    /// (time µs, puzzles solved by then) at every `k`-th solve and the last, ascending, `k`
    /// chosen so that there are at most [`MAX_STEPS`]: quantiles of the solved times.
    pub points: Vec<(f64, usize)>,
    /// How many are checked solutions (summary.csv's `solved`).
    pub solved: usize,
    /// Solves drawn but not checked (the solver writes no solution), not in `solved`.
    pub unchecked: usize,
    /// How many are `no_solution` answers nothing contradicts (summary.csv's `no_solution`).
    pub no_solution: usize,
}

/// What the plot shows for one dataset.
#[derive(Debug, Clone)]
pub struct Cactus {
    /// Dataset name.
    pub dataset: String,
    /// Readable puzzles in the dataset (the most any solver can solve).
    pub puzzles: usize,
    /// Unreadable puzzles of the dataset (not on the plot).
    pub invalid: usize,
    /// The budget line, µs, if the run had a time budget.
    pub budget_micros: Option<f64>,
    /// One curve per solver, in report order.
    pub curves: Vec<Curve>,
}

/// A curve's legend entry, with the counts of summary.csv: `bitmask-dfs (3 solved, 1
/// no_solution)`; the unchecked among the solved are named too.
pub fn legend_label(k: &Curve) -> String {
    let mut parts = vec![format!(
        "{} solved",
        crate::plumbing::human::count(k.solved)
    )];
    if k.no_solution > 0 {
        parts.push(format!(
            "{} no_solution",
            crate::plumbing::human::count(k.no_solution)
        ));
    }
    if k.unchecked > 0 {
        parts.push(format!(
            "{} of them unchecked",
            crate::plumbing::human::count(k.unchecked)
        ));
    }
    format!("{} ({})", k.solver, parts.join(", "))
}

/// Gathers the cactus data of `dataset`.
pub fn data(digest: &Digest, summary: &[SummaryRow], dataset: &str) -> Cactus {
    let run = &digest.run;
    let mut puzzles = 0;
    let mut invalid = 0;
    let curves = run
        .solvers
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let t = digest.times_of(dataset, s)?;
            puzzles = puzzles.max(t.readable());
            // A dataset of several shapes has a summary row per shape; a solver that does
            // not take one has no rows there (and no curve at all when it takes none).
            let rows: Vec<&SummaryRow> = summary
                .iter()
                .filter(|r| r.dataset == dataset && &r.solver == s && !r.is_na())
                .collect();
            let sum = |f: fn(&SummaryRow) -> usize| rows.iter().map(|r| f(r)).sum::<usize>();
            invalid = invalid.max(sum(|r| r.invalid));
            let drawn = t.signed.iter().filter(|v| **v > 0.0);
            Some(Curve {
                solver: s.clone(),
                color: solver_color(s, i),
                points: sample(drawn.map(|&v| f64::from(v)), t.solved),
                solved: if rows.is_empty() {
                    t.solved
                } else {
                    sum(|r| r.solved)
                },
                unchecked: t.unchecked,
                no_solution: sum(|r| r.no_solution),
            })
        })
        .collect();
    Cactus {
        dataset: dataset.to_string(),
        puzzles,
        invalid,
        budget_micros: run.budget_micros(),
        curves,
    }
}

/// Every `k`-th of `n` ascending times and the last, as (time, its rank from 1), `k` the
/// smallest stride that keeps at most [`MAX_STEPS`].
fn sample(times: impl Iterator<Item = f64>, n: usize) -> Vec<(f64, usize)> {
    let stride = n.div_ceil(MAX_STEPS).max(1);
    times
        .enumerate()
        .filter(|(i, _)| (i + 1) % stride == 0 || i + 1 == n)
        .map(|(i, t)| (t.max(FLOOR_MICROS), i + 1))
        .collect()
}

/// The step points of a curve from `x0` to `x1`: (time, solved so far).
fn steps(points: &[(f64, usize)], x0: f64, x1: f64) -> Vec<(f64, f64)> {
    let mut pts = vec![(x0, 0.0)];
    let mut prev = 0.0;
    for &(t, n) in points {
        let n = n as f64;
        pts.push((t, prev));
        pts.push((t, n));
        prev = n;
    }
    pts.push((x1, prev));
    pts
}

/// The time axis: from half the fastest to twice the slowest solve (or the budget), at least a
/// decade wide.
fn time_range(c: &Cactus) -> (f64, f64) {
    let all = c.curves.iter().flat_map(|k| k.points.iter().map(|p| p.0));
    let (lo, hi) = all.fold((f64::INFINITY, 0.0f64), |(lo, hi), t| {
        (lo.min(t), hi.max(t))
    });
    let hi = hi.max(c.budget_micros.unwrap_or(0.0));
    if lo.is_finite() {
        ((lo / 2.0).max(FLOOR_MICROS), (hi * 2.0).max(lo * 10.0))
    } else {
        (1.0, c.budget_micros.unwrap_or(1e6) * 2.0)
    }
}

/// The plot's title: dataset, puzzles (readable and invalid).
fn caption(c: &Cactus) -> String {
    if c.invalid > 0 {
        format!(
            "Cactus plot: {} ({} readable puzzles, {} invalid), solved vs time per puzzle",
            c.dataset,
            crate::plumbing::human::count(c.puzzles),
            crate::plumbing::human::count(c.invalid)
        )
    } else {
        format!(
            "Cactus plot: {} ({} puzzles), solved vs time per puzzle",
            c.dataset,
            crate::plumbing::human::count(c.puzzles)
        )
    }
}

/// Draws the cactus plot.
///
/// # Errors
/// When drawing fails.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Cactus) -> anyhow::Result<()> {
    let (x0, x1) = time_range(c);
    let top = (c.puzzles.max(1) as f64 * 1.08).max(1.0);
    let caption = caption(c);
    let mut chart = chart_builder(root, &caption)
        .build_cartesian_2d((x0..x1).log_scale(), 0.0..top)
        .map_err(plot_err)?;
    let mut mesh = chart.configure_mesh();
    mesh.x_desc("time per puzzle (µs, log scale)")
        .y_desc("puzzles answered right (count)")
        .x_label_formatter(&|v| si(*v))
        .y_labels((c.puzzles + 1).min(11))
        .y_label_formatter(&|v| {
            if v.fract().abs() < 1e-9 {
                si(*v)
            } else {
                String::new()
            }
        });
    draw_mesh(&mut mesh)?;
    let grey = RGBColor(120, 120, 120);
    let n = c.puzzles as f64;
    chart
        .draw_series(DashedLineSeries::new(
            vec![(x0, n), (x1, n)],
            6,
            4,
            grey.stroke_width(1),
        ))
        .map_err(plot_err)?;
    chart
        .draw_series(std::iter::once(Text::new(
            format!("all {} puzzles", crate::plumbing::human::count(c.puzzles)),
            (x0 * 1.1, n),
            ("sans-serif", 13).into_font().color(&grey).pos(
                plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Left,
                    plotters::style::text_anchor::VPos::Bottom,
                ),
            ),
        )))
        .map_err(plot_err)?;
    if let Some(b) = c.budget_micros {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(b, 0.0), (b, top)],
                6,
                4,
                grey.stroke_width(1),
            ))
            .map_err(plot_err)?;
        // Left of its line with a gap of about 10 px (the plot is about 880 px wide on a log
        // axis), in the band above the "all puzzles" line, clear of both lines.
        let gap = (x1 / x0).powf(10.0 / 880.0);
        chart
            .draw_series(std::iter::once(Text::new(
                format!("budget {}", crate::plumbing::human::micros(b)),
                (b / gap, (n + top) / 2.0),
                ("sans-serif", 13).into_font().color(&grey).pos(
                    plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Right,
                        plotters::style::text_anchor::VPos::Center,
                    ),
                ),
            )))
            .map_err(plot_err)?;
    }
    for k in &c.curves {
        let color = k.color;
        chart
            .draw_series(LineSeries::new(
                steps(&k.points, x0, x1),
                color.stroke_width(2),
            ))
            .map_err(plot_err)?
            .label(legend_label(k))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 22, y)], color.stroke_width(3))
            });
    }
    draw_legend(&mut chart, SeriesLabelPosition::LowerRight)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_climb_one_per_solve_and_end_flat() {
        let pts = sample([1.0, 2.0, 5.0].into_iter(), 3);
        let s = steps(&pts, 0.5, 10.0);
        assert_eq!(
            s,
            vec![
                (0.5, 0.0),
                (1.0, 0.0),
                (1.0, 1.0),
                (2.0, 1.0),
                (2.0, 2.0),
                (5.0, 2.0),
                (5.0, 3.0),
                (10.0, 3.0)
            ]
        );
        let many = (1..=10_000).map(f64::from);
        let pts = sample(many, 10_000);
        // Stride 7: solves 7, 14, ..., 9,996, then the last, 10,000.
        assert_eq!(pts.len(), 10_000 / 7 + 1);
        assert_eq!(pts[0], (7.0, 7));
        let s = steps(&pts, 0.5, 1e5);
        assert!(s.len() <= 2 * MAX_STEPS + 2);
        assert_eq!(s[s.len() - 2], (10_000.0, 10_000.0), "last solve kept");
    }
}
