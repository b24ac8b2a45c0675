//! The study's figures across orders and across runs:
//!
//! - **the collapse** (`collapse-FAMILY-SOLVER-COST-n155.svg`, and `-n2.svg`; one per solver and
//!   cost, for the orders with two hole counts or more): each order's median cost divided by
//!   its largest median (so every order peaks at 1), against holes / N^1.55 and against
//!   holes / N², one colour per order; above the curves, each order's peak with its bootstrap
//!   95% interval as a bar; dashed in the order's colour, the backbone (forward checking's
//!   fixed fraction of the holes, median over the instances) on the same 0-to-1 axis. On the
//!   N^1.55 axis the peaks of different orders should fall together (Achlioptas, Gomes, Kautz
//!   and Selman, AAAI 2000, Fig. 6); on the N² axis they move with the order.
//! - **run-time distributions** (`tails-DATASET-COST.svg`, for every point with
//!   [`TAIL_MIN`] solves a solver or more, and every point of isomorphs): per solver, the
//!   fraction of solves that cost more than x against x, both axes log (the survival function,
//!   as Gomes, Selman, Crato and Kautz, "Heavy-tailed phenomena in satisfiability and
//!   constraint satisfaction problems", JAR 24, 2000, plot it): a heavy (Pareto) tail is a
//!   straight line, an exponential tail bends down. Censored solves (not known right within the
//!   budget) have no cost to place: the curve stops at the fraction of them.

use super::analysis::{curves, Metric, Peak, Study};
use super::plot::{family_words, SIZE};
use super::Family;
use crate::report::style::{
    chart_builder, draw_mesh, log_top, plot_err, si, side_legend, side_legend_width, solver_color,
    write_svg_and_png,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Fewest solves of one solver at a point that get a run-time distribution plot.
pub const TAIL_MIN: usize = 30;

/// The two axes of the collapse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// Holes / N^1.55.
    N155,
    /// Holes / N².
    N2,
}

impl Axis {
    fn suffix(self) -> &'static str {
        match self {
            Axis::N155 => "n155",
            Axis::N2 => "n2",
        }
    }

    fn desc(self) -> &'static str {
        match self {
            Axis::N155 => "holes / N^1.55",
            Axis::N2 => "holes / N²",
        }
    }

    fn of(self, p: &super::Point) -> Option<f64> {
        match self {
            Axis::N155 => p.per_n155(),
            Axis::N2 => p.per_n2(),
        }
    }

    fn peak(self, p: &Peak) -> crate::analysis::stats::Estimate {
        match self {
            Axis::N155 => p.at_n155,
            Axis::N2 => p.at,
        }
    }
}

/// The colour of the `i`-th order of a plot: dark to light along a blue-green-orange ramp.
fn order_color(i: usize, of: usize) -> RGBColor {
    const RAMP: [RGBColor; 7] = crate::report::style::colors([
        0x313695, 0x4575B4, 0x269883, 0x66A61E, 0xE6AB02, 0xF46D43, 0xA50026,
    ]);
    if of <= 1 {
        return RAMP[0];
    }
    RAMP[(i * (RAMP.len() - 1) + (of - 1) / 2) / (of - 1)]
}

/// One order's normalised curve: (x, median / largest median).
struct OrderCurve {
    order: usize,
    color: RGBColor,
    points: Vec<(f64, f64)>,
    peak: Option<Peak>,
    backbone: Vec<(f64, f64)>,
}

/// The normalised curves of `solver` and `metric` in `family`, on `axis`.
fn order_curves(
    study: &Study,
    family: Family,
    solver: &str,
    metric: Metric,
    axis: Axis,
) -> Vec<OrderCurve> {
    let mine: Vec<_> = curves(&study.cells)
        .into_iter()
        .filter(|(f, _, s, _)| *f == family && s == solver)
        .collect();
    let of = mine.len();
    mine.into_iter()
        .enumerate()
        .map(|(i, (_, n, _, cells))| {
            let medians: Vec<(f64, f64)> = cells
                .iter()
                .filter_map(|c| {
                    let m = crate::analysis::stats::sort_and_quantile(
                        &mut c.values(metric).to_vec(),
                        0.5,
                    );
                    Some((axis.of(&c.point)?, m))
                })
                .collect();
            let top = medians.iter().map(|m| m.1).fold(0.0f64, f64::max);
            let mut backbone: Vec<(f64, f64)> = study
                .backbone
                .iter()
                .filter(|b| b.point.family == family && b.point.side() == n)
                .filter(|b| !b.point.balanced && !b.point.isomorphs)
                .filter_map(|b| Some((axis.of(&b.point)?, b.fraction.value)))
                .collect();
            backbone.sort_by(|a, b| a.0.total_cmp(&b.0));
            OrderCurve {
                order: n,
                color: order_color(i, of),
                points: medians
                    .iter()
                    .map(|(x, m)| (*x, if top > 0.0 { m / top } else { 0.0 }))
                    .collect(),
                peak: study
                    .peaks
                    .iter()
                    .find(|p| {
                        p.family == family
                            && p.order == n
                            && p.solver == solver
                            && p.metric == metric
                    })
                    .cloned(),
                backbone,
            }
        })
        .collect()
}

/// Draws the collapse of `solver` and `metric` in `family` on `axis`.
///
/// # Errors
/// When drawing fails.
pub fn draw_collapse<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    study: &Study,
    family: Family,
    solver: &str,
    metric: Metric,
    axis: Axis,
) -> anyhow::Result<()> {
    let all = order_curves(study, family, solver, metric, axis);
    let entries: Vec<(String, RGBColor)> = all
        .iter()
        .map(|c| (format!("order {}", c.order), c.color))
        .collect();
    let (left, right) =
        root.split_horizontally(SIZE.0 - side_legend_width(root, &entries).max(250));
    side_legend(&right, &entries)?;
    let font = ("sans-serif", 13).into_font().color(&RGBColor(80, 80, 80));
    let notes = [
        "solid, circle: median cost /",
        "  the order's largest median",
        "bar above: the peak's place,",
        "  95% bootstrap interval",
        "dashed: backbone, the fraction",
        "  of holes forward checking",
        "  fixes (median)",
    ];
    let mut y = 60 + 22 * entries.len() as i32 + 16;
    for line in notes {
        right
            .draw(&Text::new(line, (8, y), font.clone()))
            .map_err(plot_err)?;
        y += 18;
    }
    let xs = all.iter().flat_map(|c| {
        c.points
            .iter()
            .map(|p| p.0)
            .chain(c.backbone.iter().map(|b| b.0))
    });
    let (x0, x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    let (x0, x1) = if x0.is_finite() && x1 > x0 {
        let pad = (x1 - x0) * 0.04;
        (x0 - pad, x1 + pad)
    } else {
        (0.0, 1.0)
    };
    let top = 1.08 + 0.04 * all.len() as f64;
    let caption = format!(
        "{}, {solver}: {} / peak against {}",
        family_words(family),
        match metric {
            Metric::Micros => "time",
            Metric::Nodes => "nodes",
        },
        axis.desc()
    );
    let mut chart = chart_builder(&left, &caption)
        .build_cartesian_2d(x0..x1, 0.0..top)
        .map_err(plot_err)?;
    let x_label = |v: &f64| match axis {
        Axis::N155 => format!("{v:.2}"),
        Axis::N2 => format!("{:.0}%", v * 100.0),
    };
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(axis.desc())
        .y_desc("median cost / the order's peak; backbone")
        .x_label_formatter(&x_label)
        .y_label_formatter(&|v| format!("{v:.1}"));
    draw_mesh(&mut mesh)?;
    for (k, c) in all.iter().enumerate() {
        chart
            .draw_series(LineSeries::new(c.points.clone(), c.color.stroke_width(2)))
            .map_err(plot_err)?;
        chart
            .draw_series(
                c.points
                    .iter()
                    .map(|p| Circle::new(*p, 4, c.color.filled())),
            )
            .map_err(plot_err)?;
        if c.backbone.len() >= 2 {
            chart
                .draw_series(DashedLineSeries::new(
                    c.backbone.clone(),
                    6,
                    4,
                    c.color.mix(0.8).stroke_width(1),
                ))
                .map_err(plot_err)?;
        }
        if let Some(p) = &c.peak {
            let e = axis.peak(p);
            let y = 1.05 + 0.04 * k as f64;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(e.lo, y), (e.hi, y)],
                    c.color.stroke_width(3),
                )))
                .map_err(plot_err)?;
            chart
                .draw_series(std::iter::once(Circle::new(
                    (e.value, y),
                    5,
                    c.color.filled(),
                )))
                .map_err(plot_err)?;
        }
    }
    Ok(())
}

/// One solver's survival curve at a point: (cost, fraction of solves costing more), and the
/// fraction censored.
fn survival(values: &[f64], censored: &[bool]) -> (Vec<(f64, f64)>, f64) {
    let n = values.len();
    let mut known: Vec<f64> = values
        .iter()
        .zip(censored)
        .filter(|(v, c)| !**c && **v > 0.0)
        .map(|(v, _)| *v)
        .collect();
    known.sort_by(f64::total_cmp);
    let cut = censored.iter().filter(|c| **c).count() as f64 / n.max(1) as f64;
    let pts = known
        .iter()
        .enumerate()
        .map(|(i, v)| (*v, (n - i - 1) as f64 / n as f64))
        .filter(|p| p.1 > 0.0)
        .collect();
    (pts, cut)
}

/// One solver's survival curve: its name, colour, (cost, fraction above) and fraction censored.
type Tail = (String, RGBColor, Vec<(f64, f64)>, f64);

/// Draws the run-time distribution of `dataset` and `metric`: one survival curve per solver.
///
/// # Errors
/// When drawing fails.
pub fn draw_tails<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    study: &Study,
    dataset: &str,
    metric: Metric,
) -> anyhow::Result<()> {
    let cells: Vec<_> = study
        .cells
        .iter()
        .filter(|c| c.dataset == dataset)
        .collect();
    let curves: Vec<Tail> = cells
        .iter()
        .map(|c| {
            let (pts, cut) = survival(c.values(metric), &c.censored_rows);
            (
                c.solver.clone(),
                solver_color(&c.solver, c.solver_index),
                pts,
                cut,
            )
        })
        .collect();
    let entries: Vec<(String, RGBColor)> = curves.iter().map(|c| (c.0.clone(), c.1)).collect();
    let (left, right) =
        root.split_horizontally(SIZE.0 - side_legend_width(root, &entries).max(250));
    side_legend(&right, &entries)?;
    let font = ("sans-serif", 13).into_font().color(&RGBColor(80, 80, 80));
    let mut y = 60 + 22 * entries.len() as i32 + 16;
    let mut notes = vec![
        "fraction of solves costing".to_string(),
        "  more than x (log-log):".to_string(),
        "  straight = heavy tail".to_string(),
    ];
    for c in &curves {
        if c.3 > 0.0 {
            notes.push(format!("{}: {:.0}% censored", c.0, c.3 * 100.0));
        }
    }
    for line in notes {
        right
            .draw(&Text::new(line, (8, y), font.clone()))
            .map_err(plot_err)?;
        y += 18;
    }
    let xs = curves.iter().flat_map(|c| c.2.iter().map(|p| p.0));
    let (x0, x1) = xs.fold((f64::INFINITY, 0.0f64), |(a, b), x| (a.min(x), b.max(x)));
    let (x0, x1) = if x0.is_finite() && x1 > 0.0 {
        (x0 / 1.5, log_top(x0 / 1.5, x1.max(x0 * 10.0), 0.05))
    } else {
        (1.0, 10.0)
    };
    let ymin = curves
        .iter()
        .flat_map(|c| c.2.iter().map(|p| p.1))
        .fold(1.0f64, f64::min)
        / 1.5;
    let n = cells.iter().map(|c| c.rows).max().unwrap_or(0);
    let what = if cells.first().is_some_and(|c| c.point.isomorphs) {
        format!("{n} randomised runs of one instance")
    } else {
        format!("{n} instances")
    };
    let caption = format!(
        "{}: {} per solve, {what}",
        dataset.trim_end_matches(".txt"),
        match metric {
            Metric::Micros => "time",
            Metric::Nodes => "nodes",
        }
    );
    let mut chart = chart_builder(&left, &caption)
        .build_cartesian_2d((x0..x1).log_scale(), (ymin..1.2).log_scale())
        .map_err(plot_err)?;
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(format!("x: {} (log)", metric.axis()))
        .y_desc("fraction of solves costing more than x (log)")
        .x_label_formatter(&|v| si(*v))
        .y_label_formatter(&|v| format!("{}", (v * 1000.0).round() / 1000.0));
    draw_mesh(&mut mesh)?;
    for (_, color, pts, _) in &curves {
        // A step function: the fraction holds until the next cost.
        let mut steps = Vec::with_capacity(pts.len() * 2);
        let mut last = 1.0;
        for &(x, s) in pts {
            steps.push((x, last));
            steps.push((x, s));
            last = s;
        }
        chart
            .draw_series(LineSeries::new(steps, color.stroke_width(2)))
            .map_err(plot_err)?;
    }
    Ok(())
}

/// Writes the collapse plots and the run-time distributions of `study` into `dir`; returns the
/// SVG paths with a title each.
///
/// # Errors
/// When drawing or writing fails.
pub fn write_all(dir: &Path, study: &Study) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    let mut keys: Vec<(Family, String, usize)> = Vec::new();
    for (family, _, solver, _) in curves(&study.cells) {
        match keys.iter_mut().find(|k| k.0 == family && k.1 == solver) {
            Some(k) => k.2 += 1,
            None => keys.push((family, solver, 1)),
        }
    }
    for (family, solver, orders) in keys {
        if orders < 2 {
            continue;
        }
        for metric in Metric::BOTH {
            for axis in [Axis::N155, Axis::N2] {
                let stem = format!(
                    "collapse-{}-{}-{}-{}",
                    family.as_str(),
                    crate::report::style::file_stem(&solver),
                    metric.as_str(),
                    axis.suffix()
                );
                let svg = write_svg_and_png!(dir, stem, SIZE, |root| {
                    draw_collapse(root, study, family, &solver, metric, axis)
                })?;
                out.push((
                    format!(
                        "{} {solver}: normalised {} against {}",
                        family.as_str(),
                        metric.as_str(),
                        axis.desc()
                    ),
                    svg,
                ));
            }
        }
    }
    let mut datasets: Vec<&str> = Vec::new();
    for c in &study.cells {
        if (c.rows >= TAIL_MIN || c.point.isomorphs) && !datasets.contains(&c.dataset.as_str()) {
            datasets.push(&c.dataset);
        }
    }
    for d in datasets {
        for metric in Metric::BOTH {
            let stem = format!("tails-{}-{}", d.trim_end_matches(".txt"), metric.as_str());
            let svg =
                write_svg_and_png!(dir, stem, SIZE, |root| draw_tails(root, study, d, metric))?;
            out.push((
                format!("{}: run-time distribution, {}", d, metric.as_str()),
                svg,
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn survival_steps_down_and_stops_at_the_censored() {
        // Five solves: 10, 20, 40 known, two censored. S(10) = 4/5, S(20) = 3/5, S(40) = 2/5.
        let (pts, cut) = survival(
            &[20.0, 10.0, 999.0, 40.0, 999.0],
            &[false, false, true, false, true],
        );
        assert_eq!(pts, [(10.0, 0.8), (20.0, 0.6), (40.0, 0.4)]);
        assert_eq!(cut, 0.4);
        // Nothing censored: the largest cost has S = 0 and is not drawn on a log axis.
        let (pts, cut) = survival(&[1.0, 2.0], &[false, false]);
        assert_eq!(pts, [(1.0, 0.5)]);
        assert_eq!(cut, 0.0);
    }

    #[test]
    fn order_colours_run_from_first_to_last() {
        assert_eq!(order_color(0, 4), RGBColor(49, 54, 149));
        assert_eq!(order_color(3, 4), RGBColor(165, 0, 38));
        assert_eq!(order_color(0, 1), RGBColor(49, 54, 149));
    }
}
