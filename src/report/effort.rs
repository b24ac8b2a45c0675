//! Effort against time: one point per solve, search-tree nodes (x) against µs (y), both on log
//! scales, one colour per solver; a cross marks a timeout. A solver whose cloud sits lower at the
//! same node count does each node faster; one further left needs fewer nodes. Above
//! [`MAX_POINTS`] solves, a solver's cloud is drawn as a density instead: log-spaced cells
//! ([`CELLS_PER_DECADE`] a decade on each axis), darker where more solves fall, so the plot's size
//! does not grow with the run; timeouts stay crosses (thinned evenly). The legend counts them all.

use super::digest::Digest;
use super::style::{
    chart_builder, draw_mesh, log_top, plot_err, si, side_legend, side_legend_width, solver_color,
};
use crate::record::Run;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::RGBColor;

/// Most points drawn one by one per solver; a solver with more is drawn as a [`Density`].
pub const MAX_POINTS: usize = 3000;

/// Density cells per decade of each axis.
pub const CELLS_PER_DECADE: f64 = 20.0;

/// Solves binned into log-spaced cells: (nodes cell, µs cell) -> solves; a cell `(i, j)` spans
/// nodes `10^(i/CELLS_PER_DECADE)` to `10^((i+1)/CELLS_PER_DECADE)`, µs likewise. Memory is
/// bounded by the axes' range (a few hundred cells a side at most), not by the solves.
#[derive(Debug, Clone, Default)]
pub struct Density {
    /// Cell -> solves.
    pub cells: std::collections::HashMap<(i32, i32), u64>,
    /// Smallest and largest (nodes, µs) binned: (x min, x max, y min, y max).
    pub extent: Option<(f64, f64, f64, f64)>,
}

impl Density {
    /// The cell of one coordinate (> 0).
    fn cell(v: f64) -> i32 {
        (v.log10() * CELLS_PER_DECADE).floor() as i32
    }

    /// A cell's edges.
    fn edges(i: i32) -> (f64, f64) {
        (
            10f64.powf(f64::from(i) / CELLS_PER_DECADE),
            10f64.powf(f64::from(i + 1) / CELLS_PER_DECADE),
        )
    }

    /// Bins one (nodes, µs) point.
    pub fn add(&mut self, (x, y): (f64, f64)) {
        *self
            .cells
            .entry((Self::cell(x), Self::cell(y)))
            .or_insert(0) += 1;
        self.extent = Some(match self.extent {
            None => (x, x, y, y),
            Some((a, b, c, d)) => (a.min(x), b.max(x), c.min(y), d.max(y)),
        });
    }
}

/// One solver's points.
#[derive(Debug, Clone)]
pub struct Cloud {
    /// Solver name.
    pub solver: String,
    /// Colour.
    pub color: RGBColor,
    /// (nodes, µs) of the solves that ended (solved or no_solution), when drawn one by one.
    pub done: Vec<(f64, f64)>,
    /// The solves that ended, binned, when there were more than [`MAX_POINTS`] solves.
    pub density: Option<Density>,
    /// (nodes, µs) of the timeouts (thinned evenly past [`MAX_POINTS`]).
    pub timeouts: Vec<(f64, f64)>,
    /// Solves before thinning (the legend's count).
    pub solves: usize,
    /// Timeouts before thinning.
    pub timeout_count: usize,
}

/// Gathers the points of every solver over every dataset whose nodes are search-tree nodes
/// (the others would put unlike units on one axis; [`left_out`] names them).
pub fn data(digest: &Digest) -> Vec<Cloud> {
    let run = &digest.run;
    run.solvers
        .iter()
        .enumerate()
        .filter(|(_, s)| run.counts_search_nodes(s))
        .map(|(i, s)| {
            let none = super::digest::EffortAcc::default();
            let e = digest.effort.get(s).unwrap_or(&none);
            let (done, density, timeouts) = match &e.points {
                _ if e.solves == 0 => (Vec::new(), None, Vec::new()),
                Some(pts) => (
                    pts.iter().filter(|p| !p.2).map(|p| (p.0, p.1)).collect(),
                    None,
                    pts.iter().filter(|p| p.2).map(|p| (p.0, p.1)).collect(),
                ),
                None => (Vec::new(), Some(e.density.clone()), e.timeouts.clone()),
            };
            Cloud {
                solves: e.solves,
                timeout_count: e.timeout_count,
                solver: s.clone(),
                color: solver_color(s, i),
                done,
                density,
                timeouts,
            }
        })
        .collect()
}

/// True when some solver's cloud is drawn as a density.
pub fn has_density(clouds: &[Cloud]) -> bool {
    clouds.iter().any(|c| c.density.is_some())
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
    let ((x0, x1), (y0, y1)) = ranges(clouds);
    // The legend stands in its own column right of the plot, clear of every point.
    let entries: Vec<(String, RGBColor)> =
        clouds.iter().map(|c| (legend_label(c), c.color)).collect();
    let (plot, legend) =
        root.split_horizontally(root.dim_in_pixel().0 - side_legend_width(root, &entries));
    side_legend(&legend, &entries)?;
    let root = &plot;
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
        draw_cloud(&mut chart, c)?;
    }
    Ok(())
}

/// A cloud's legend entry: `dlx (2,206 solves, density, 1 timeouts ×)`.
fn legend_label(c: &Cloud) -> String {
    format!(
        "{} ({} solves{}{})",
        c.solver,
        crate::plumbing::human::count(c.solves),
        if c.density.is_some() { ", density" } else { "" },
        if c.timeout_count == 0 {
            String::new()
        } else {
            format!(
                ", {} timeouts ×",
                crate::plumbing::human::count(c.timeout_count)
            )
        }
    )
}

/// The axes' ranges, nodes and µs, holding every point and density of `clouds`.
fn ranges(clouds: &[Cloud]) -> ((f64, f64), (f64, f64)) {
    let corners: Vec<(f64, f64)> = clouds
        .iter()
        .filter_map(|c| c.density.as_ref()?.extent)
        .flat_map(|(a, b, c, d)| [(a, c), (b, d)])
        .collect();
    let pts = clouds
        .iter()
        .flat_map(|c| c.done.iter().chain(c.timeouts.iter()))
        .chain(corners.iter());
    let (xl, xh, yl, yh) = pts.fold(
        (f64::INFINITY, 0.0f64, f64::INFINITY, 0.0f64),
        |(a, b, c, d), &(x, y)| (a.min(x), b.max(x), c.min(y), d.max(y)),
    );
    let x = if xl.is_finite() {
        ((xl / 2.0).max(0.5), (xh * 2.0).max(xl * 10.0))
    } else {
        (0.5, 10.0)
    };
    let y = if yl.is_finite() {
        let y0 = (yl / 2.0).max(0.05);
        (y0, log_top(y0, (yh * 1.5).max(yl * 10.0), 0.2))
    } else {
        (0.1, 10.0)
    };
    (x, y)
}

/// Draws one solver's cloud: its density cells, its points (labelled for the legend), its
/// timeouts as crosses.
fn draw_cloud<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    c: &Cloud,
) -> anyhow::Result<()> {
    let color = c.color;
    // A density's cells: opacity from 0.25 (one solve) to 0.9 (the fullest cell), on a log
    // scale of the count.
    let cells: Vec<_> = c
        .density
        .iter()
        .flat_map(|d| {
            let top = d.cells.values().copied().max().unwrap_or(1).max(2) as f64;
            d.cells.iter().map(move |(&(i, j), &n)| {
                let (x0, x1) = Density::edges(i);
                let (y0, y1) = Density::edges(j);
                let a = 0.25 + 0.65 * (n as f64).ln() / top.ln();
                Rectangle::new([(x0, y0), (x1, y1)], color.mix(a.min(0.9)).filled())
            })
        })
        .collect();
    chart.draw_series(cells).map_err(plot_err)?;
    chart
        .draw_series(
            c.done
                .iter()
                .map(|&p| Circle::new(p, 3, color.mix(0.55).filled())),
        )
        .map_err(plot_err)?;
    chart
        .draw_series(
            c.timeouts
                .iter()
                .map(|&p| Cross::new(p, 5, color.stroke_width(2))),
        )
        .map_err(plot_err)?;
    Ok(())
}
