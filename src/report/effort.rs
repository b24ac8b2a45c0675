//! Effort against time: one point per solve, search-tree nodes (x) against µs (y), both on log
//! scales, one colour per solver; a cross marks a timeout. A solver whose cloud sits lower at the
//! same node count does each node faster; one further left needs fewer nodes. Above 3000 solves
//! per solver, an even sample is drawn; the legend counts them all.

use super::load::Run;
use super::style::{chart_builder, draw_legend, draw_mesh, log_top, plot_err, si, solver_color};
use crate::record::RowStatus;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::RGBColor;

/// Most points drawn per solver; more are thinned evenly (a deterministic stride).
const MAX_POINTS: usize = 3000;

/// One solver's points.
#[derive(Debug, Clone)]
pub struct Cloud {
    /// Solver name.
    pub solver: String,
    /// Colour.
    pub color: RGBColor,
    /// (nodes, µs) of the solves that ended (solved or no_solution).
    pub done: Vec<(f64, f64)>,
    /// (nodes, µs) of the timeouts.
    pub timeouts: Vec<(f64, f64)>,
    /// Solves before thinning (the legend's count).
    pub solves: usize,
    /// Timeouts before thinning.
    pub timeout_count: usize,
}

/// Gathers the points of every solver over every dataset whose nodes are search-tree nodes
/// (the others would put unlike units on one axis; [`left_out`] names them).
pub fn data(run: &Run) -> Vec<Cloud> {
    run.solvers
        .iter()
        .enumerate()
        .filter(|(_, s)| run.counts_search_nodes(s))
        .map(|(i, s)| {
            let pt = |r: &crate::runner::Row| ((r.nodes.max(1)) as f64, r.micros.max(0.1));
            let mine: Vec<_> = run
                .rows
                .iter()
                .filter(|r| &r.solver == s && r.status != RowStatus::Invalid)
                .collect();
            let stride = mine.len().div_ceil(MAX_POINTS).max(1);
            let thin = mine.iter().step_by(stride);
            Cloud {
                solves: mine.len(),
                timeout_count: mine
                    .iter()
                    .filter(|r| r.status == RowStatus::Timeout)
                    .count(),
                solver: s.clone(),
                color: solver_color(s, i),
                done: thin
                    .clone()
                    .filter(|r| r.status != RowStatus::Timeout)
                    .map(|r| pt(r))
                    .collect(),
                timeouts: thin
                    .filter(|r| r.status == RowStatus::Timeout)
                    .map(|r| pt(r))
                    .collect(),
            }
        })
        .collect()
}

/// The solvers the plot leaves out: their `nodes` are not search-tree nodes (`sat`'s varisat
/// calls; external solvers, which report none).
pub fn left_out(run: &Run) -> Vec<String> {
    run.solvers
        .iter()
        .filter(|s| !run.counts_search_nodes(s))
        .cloned()
        .collect()
}

/// Draws the scatter plot.
///
/// # Errors
/// When drawing fails.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    clouds: &[Cloud],
) -> anyhow::Result<()> {
    let pts = clouds
        .iter()
        .flat_map(|c| c.done.iter().chain(c.timeouts.iter()));
    let (xl, xh, yl, yh) = pts.fold(
        (f64::INFINITY, 0.0f64, f64::INFINITY, 0.0f64),
        |(a, b, c, d), &(x, y)| (a.min(x), b.max(x), c.min(y), d.max(y)),
    );
    let (x0, x1) = if xl.is_finite() {
        ((xl / 2.0).max(0.5), (xh * 2.0).max(xl * 10.0))
    } else {
        (0.5, 10.0)
    };
    let (y0, y1) = if yl.is_finite() {
        let y0 = (yl / 2.0).max(0.05);
        (y0, log_top(y0, (yh * 1.5).max(yl * 10.0), 0.2))
    } else {
        (0.1, 10.0)
    };
    let mut chart = chart_builder(
        root,
        "Effort vs time: search-tree nodes against µs per puzzle",
    )
    .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
    .map_err(plot_err)?;
    let mut mesh = chart.configure_mesh();
    mesh.x_desc("search-tree nodes per puzzle (count, log scale)")
        .y_desc("time per puzzle (µs, log scale)")
        .x_label_formatter(&|v| si(*v))
        .y_label_formatter(&|v| si(*v));
    draw_mesh(&mut mesh)?;
    for c in clouds {
        let color = c.color;
        chart
            .draw_series(
                c.done
                    .iter()
                    .map(|&p| Circle::new(p, 3, color.mix(0.55).filled())),
            )
            .map_err(plot_err)?
            .label(format!(
                "{} ({} solves{})",
                c.solver,
                crate::summary::count(c.solves),
                if c.timeout_count == 0 {
                    String::new()
                } else {
                    format!(", {} timeouts ×", crate::summary::count(c.timeout_count))
                }
            ))
            .legend(move |(x, y)| Circle::new((x + 9, y), 5, color.filled()));
        chart
            .draw_series(
                c.timeouts
                    .iter()
                    .map(|&p| Cross::new(p, 5, color.stroke_width(2))),
            )
            .map_err(plot_err)?;
    }
    draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)
}
