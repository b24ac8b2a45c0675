//! The study's plots, in the report's shared style ([`crate::report::style`]):
//!
//! - **cost against order** (one per family and cost): x the grid's side N (log), y the cost
//!   (log); per solver the median (solid line, circles) and the p90 (dashed line, triangles),
//!   each with its bootstrap 95% interval as a bar, and the better of the two growth fits as a
//!   thin line. A hollow marker is a point with censored solves (PAR-2: twice the budget).
//! - **cost against holes / N²** (one per order of the quasigroups, or of the punched Sudoku,
//!   with two hole counts or more, and cost): the same series over the hole counts, each
//!   solver's peak interval shaded, and the backbone (forward checking's fixed fraction of the
//!   holes, median over the instances) in grey on a second axis, 0 to 1.
//! - the collapse and the run-time distributions: [`super::figures`].

use super::analysis::{
    order_cells, plain, reference_n155, solvers_of, Cell, Fit, Metric, Peak, Study,
};
use super::Family;
use crate::report::style::{
    chart_builder, draw_mesh, log_top, plot_err, si, side_legend, side_legend_width, solver_color,
    write_svg_and_png,
};
use plotters::coord::combinators::BindKeyPoints;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Size of every plot, px.
pub const SIZE: (u32, u32) = (1100, 640);

/// One plotted point of a series.
struct Mark {
    x: f64,
    median: (f64, f64, f64),
    p90: (f64, f64, f64),
    censored: bool,
}

/// The series of one solver.
struct Series {
    solver: String,
    color: RGBColor,
    marks: Vec<Mark>,
}

/// One series per solver of `cells`: its marks of `metric` at `x`, in order of `x`.
fn series(cells: &[&Cell], metric: Metric, x: impl Fn(&Cell) -> f64) -> Vec<Series> {
    solvers_of(cells.iter().copied())
        .into_iter()
        .map(|(solver, i)| {
            let mut marks: Vec<Mark> = cells
                .iter()
                .filter(|c| c.solver == solver)
                .filter_map(|c| {
                    let (m, p) = c.quantiles(metric)?;
                    (m.value > 0.0).then_some(Mark {
                        x: x(c),
                        median: (m.value, m.lo, m.hi),
                        p90: (p.value, p.lo, p.hi),
                        censored: c.censored > 0,
                    })
                })
                .collect();
            marks.sort_by(|a, b| a.x.total_cmp(&b.x));
            Series {
                color: solver_color(&solver, i),
                solver,
                marks,
            }
        })
        .collect()
}

/// The y range (log) holding every mark and interval of `all`, with room above.
fn y_range(all: &[Series]) -> (f64, f64) {
    let vals = all.iter().flat_map(|s| {
        s.marks
            .iter()
            .flat_map(|m| [m.median.0, m.median.1, m.median.2, m.p90.0, m.p90.2])
    });
    let (lo, hi) = vals
        .filter(|v| *v > 0.0 && v.is_finite())
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return (0.1, 10.0);
    }
    let lo = lo / 2.0;
    let hi = hi.max(lo * 10.0);
    (lo, log_top(lo, hi, 0.08))
}

/// The notes beside the legend.
const NOTES: [&str; 5] = [
    "solid, circle: median",
    "dashed, triangle: p90",
    "bar: 95% bootstrap interval",
    "hollow: some solves censored",
    "  (PAR-2: 2 x budget)",
];

/// Draws the legend column: solvers, then the notes, then `extra` lines.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, RGBColor)],
    extra: &[String],
) -> anyhow::Result<()> {
    side_legend(area, entries)?;
    let font = ("sans-serif", 13).into_font().color(&RGBColor(80, 80, 80));
    let mut y = 60 + 22 * entries.len() as i32 + 16;
    for line in NOTES
        .iter()
        .map(|s| s.to_string())
        .chain(extra.iter().cloned())
    {
        area.draw(&Text::new(line, (8, y), font.clone()))
            .map_err(plot_err)?;
        y += 18;
    }
    Ok(())
}

/// Draws each series of `all`: median and p90 lines, interval bars (the p90's beside the
/// median's, towards `bar_half(x).1`), markers.
fn draw_series<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    all: &[Series],
    bar_half: impl Fn(f64) -> (f64, f64),
) -> anyhow::Result<()> {
    for s in all {
        let c = s.color;
        let pts: Vec<(f64, f64)> = s.marks.iter().map(|m| (m.x, m.median.0)).collect();
        chart
            .draw_series(LineSeries::new(pts, c.stroke_width(2)))
            .map_err(plot_err)?;
        let p90: Vec<(f64, f64)> = s.marks.iter().map(|m| (m.x, m.p90.0)).collect();
        chart
            .draw_series(DashedLineSeries::new(p90, 6, 4, c.stroke_width(1)))
            .map_err(plot_err)?;
        for m in &s.marks {
            for (q, offset) in [(m.median, 0.0), (m.p90, 1.0)] {
                let (_, x1) = bar_half(m.x);
                let x = m.x + offset * (x1 - m.x) * 0.6;
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(x, q.1), (x, q.2)],
                        c.mix(0.6).stroke_width(1),
                    )))
                    .map_err(plot_err)?;
            }
            let style = if m.censored {
                c.stroke_width(2)
            } else {
                c.filled()
            };
            chart
                .draw_series(std::iter::once(Circle::new((m.x, m.median.0), 5, style)))
                .map_err(plot_err)?;
            chart
                .draw_series(std::iter::once(TriangleMarker::new(
                    (m.x, m.p90.0),
                    5,
                    if m.censored {
                        c.stroke_width(1)
                    } else {
                        c.filled()
                    },
                )))
                .map_err(plot_err)?;
        }
    }
    Ok(())
}

/// Draws the cost-against-order plot of `family` and `metric`.
///
/// # Errors
/// When drawing fails.
pub fn draw_orders<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    study: &Study,
    family: Family,
    metric: Metric,
) -> anyhow::Result<()> {
    let reference = reference_n155(&study.peaks);
    let cells = order_cells(&study.cells, family, reference);
    let all = series(&cells, metric, |c| c.point.side() as f64);
    let fits: Vec<&Fit> = study
        .fits
        .iter()
        .filter(|f| f.family == family && f.metric == metric)
        .collect();
    let mut extra = vec!["thin: better growth fit".to_string()];
    if family == Family::Qwh {
        extra.push(match reference {
            Some(r) => format!("holes: nearest {r:.2} x N^1.55"),
            None => "holes: nearest 42% of N²".to_string(),
        });
    }
    let left = with_legend(root, &all, &extra)?;
    let xs: Vec<f64> = all
        .iter()
        .flat_map(|s| s.marks.iter().map(|m| m.x))
        .collect();
    let (x0, x1) = xs
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
    let (x0, x1) = if x0.is_finite() {
        (x0 / 1.15, x1 * 1.15)
    } else {
        (1.0, 10.0)
    };
    let mut sides: Vec<f64> = xs.clone();
    sides.sort_by(f64::total_cmp);
    sides.dedup();
    let (y0, y1) = y_range(&all);
    let what = match family {
        Family::Sudoku => "Sudoku",
        Family::Qwh => "quasigroups with holes",
    };
    let caption = format!("{what}: {} against the side N", metric_word(metric));
    let mut chart = chart_builder(&left, &caption)
        .build_cartesian_2d(
            (x0..x1).log_scale().with_key_points(sides.clone()),
            (y0..y1).log_scale(),
        )
        .map_err(plot_err)?;
    let mut mesh = chart.configure_mesh();
    mesh.x_desc("side N (log)")
        .y_desc(metric.axis())
        .x_label_formatter(&|v| si(*v))
        .y_label_formatter(&|v| si(*v));
    draw_mesh(&mut mesh)?;
    draw_fits(&mut chart, &fits, &all, (y0, y1))?;
    draw_series(&mut chart, &all, |x| (x, x * 1.03))
}

/// Draws each growth fit over its sides as a thin line in its solver's colour of `all`,
/// clamped to the y range `(y0, y1)`.
fn draw_fits<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    fits: &[&Fit],
    all: &[Series],
    (y0, y1): (f64, f64),
) -> anyhow::Result<()> {
    for f in fits {
        let (lo, hi) = (
            *f.sides.iter().min().unwrap_or(&1) as f64,
            *f.sides.iter().max().unwrap_or(&1) as f64,
        );
        let line: Vec<(f64, f64)> = (0..=40)
            .map(|k| lo + (hi - lo) * k as f64 / 40.0)
            .map(|n| (n, f.at(n).clamp(y0, y1)))
            .collect();
        let color = color_of(all, &f.solver);
        chart
            .draw_series(LineSeries::new(line, color.mix(0.45).stroke_width(1)))
            .map_err(plot_err)?;
    }
    Ok(())
}

/// Splits `root` into the chart's area, returned, and a legend column on the right, drawn: the
/// solvers of `all`, the notes, then `extra` lines.
fn with_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    all: &[Series],
    extra: &[String],
) -> anyhow::Result<DrawingArea<DB, Shift>> {
    let entries: Vec<(String, RGBColor)> =
        all.iter().map(|s| (s.solver.clone(), s.color)).collect();
    let (left, right) =
        root.split_horizontally(SIZE.0 - side_legend_width(root, &entries).max(230));
    legend(&right, &entries, extra)?;
    Ok(left)
}

/// The colour of `solver`'s series in `all` (black when it has none).
fn color_of(all: &[Series], solver: &str) -> RGBColor {
    all.iter()
        .find(|s| s.solver == solver)
        .map_or(BLACK, |s| s.color)
}

/// The cost a caption names: `time` or `nodes`.
fn metric_word(metric: Metric) -> &'static str {
    match metric {
        Metric::Micros => "time",
        Metric::Nodes => "nodes",
    }
}

/// Draws the cost-against-holes/N² plot of `family`'s order `order` and `metric`, with the
/// backbone on a second axis.
///
/// # Errors
/// When drawing fails.
pub fn draw_holes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    study: &Study,
    family: Family,
    order: usize,
    metric: Metric,
) -> anyhow::Result<()> {
    let cells: Vec<&Cell> = study
        .cells
        .iter()
        .filter(|c| c.point.family == family && c.point.side() == order && plain(c))
        .filter(|c| c.point.hole_count().is_some())
        .collect();
    let all = series(&cells, metric, |c| c.point.per_n2().unwrap_or(0.0));
    let peaks: Vec<&Peak> = study
        .peaks
        .iter()
        .filter(|p| p.family == family && p.order == order && p.metric == metric)
        .collect();
    let mut backbone: Vec<(f64, f64, f64, f64)> = study
        .backbone
        .iter()
        .filter(|b| b.point.family == family && b.point.side() == order)
        .filter(|b| !b.point.balanced && !b.point.isomorphs)
        .filter_map(|b| {
            let e = b.fraction;
            Some((b.point.per_n2()?, e.value, e.lo, e.hi))
        })
        .collect();
    backbone.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut extra = vec!["shade: peak's 95% interval".to_string()];
    if !backbone.is_empty() {
        extra.push("grey, right axis: backbone".to_string());
        extra.push("  (forward checking, median)".to_string());
    }
    let left = with_legend(root, &all, &extra)?;
    let (x0, x1) = all
        .iter()
        .flat_map(|s| s.marks.iter().map(|m| m.x))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        });
    let (x0, x1) = if x0.is_finite() {
        let pad = ((x1 - x0) * 0.04).max(0.005);
        ((x0 - pad).max(0.0), (x1 + pad).min(1.0))
    } else {
        (0.0, 1.0)
    };
    let (y0, y1) = y_range(&all);
    let caption = format!(
        "{}, order {order}: {} against holes / N²",
        family_words(family),
        metric_word(metric)
    );
    let mut chart = chart_builder(&left, &caption)
        .right_y_label_area_size(if backbone.is_empty() { 0 } else { 60 })
        .build_cartesian_2d(x0..x1, (y0..y1).log_scale())
        .map_err(plot_err)?
        .set_secondary_coord(x0..x1, 0.0..1.05);
    let mut mesh = chart.configure_mesh();
    mesh.x_desc("holes / N² (fraction of cells empty)")
        .y_desc(metric.axis())
        .x_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .y_label_formatter(&|v| si(*v));
    draw_mesh(&mut mesh)?;
    draw_peaks(&mut chart, &peaks, &all, (y0, y1))?;
    if !backbone.is_empty() {
        chart
            .configure_secondary_axes()
            .y_desc("backbone: fraction of holes fixed")
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .y_label_formatter(&|v| format!("{v:.1}"))
            .draw()
            .map_err(plot_err)?;
        let grey = RGBColor(110, 110, 110);
        chart
            .draw_secondary_series(DashedLineSeries::new(
                backbone.iter().map(|b| (b.0, b.1)),
                6,
                3,
                grey.stroke_width(2),
            ))
            .map_err(plot_err)?;
        for b in &backbone {
            chart
                .draw_secondary_series(std::iter::once(PathElement::new(
                    vec![(b.0, b.2), (b.0, b.3)],
                    grey.mix(0.6).stroke_width(1),
                )))
                .map_err(plot_err)?;
            chart
                .draw_secondary_series(std::iter::once(Rectangle::new(
                    [(b.0 - 0.0015, b.1 - 0.006), (b.0 + 0.0015, b.1 + 0.006)],
                    grey.filled(),
                )))
                .map_err(plot_err)?;
        }
    }
    draw_series(&mut chart, &all, |x| (x, x + (x1 - x0) * 0.004))
}

/// The family in words, for captions.
pub fn family_words(family: Family) -> &'static str {
    match family {
        Family::Sudoku => "punched Sudoku",
        Family::Qwh => "quasigroups with holes",
    }
}

/// Shades each peak's 95% interval in its solver's colour of `all`, across the y range
/// `(y0, y1)`.
fn draw_peaks<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    peaks: &[&Peak],
    all: &[Series],
    (y0, y1): (f64, f64),
) -> anyhow::Result<()> {
    for p in peaks {
        let (lo, hi) = if p.at.hi > p.at.lo {
            (p.at.lo, p.at.hi)
        } else {
            (p.at.lo - 0.002, p.at.hi + 0.002)
        };
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(lo, y0), (hi, y1)],
                color_of(all, &p.solver).mix(0.10).filled(),
            )))
            .map_err(plot_err)?;
    }
    Ok(())
}

/// Writes every plot of the study into `dir` (SVG and PNG); returns the SVG paths with a
/// title each.
///
/// # Errors
/// When drawing or writing fails.
pub fn write_all(dir: &Path, study: &Study) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for family in [Family::Sudoku, Family::Qwh] {
        if !study.cells.iter().any(|c| c.point.family == family) {
            continue;
        }
        for metric in Metric::BOTH {
            let stem = format!("scale-{}-{}", family.as_str(), metric.as_str());
            let svg = write_svg_and_png!(dir, stem, SIZE, |root| draw_orders(
                root, study, family, metric
            ))?;
            out.push((
                format!("{} {} against order", family.as_str(), metric.as_str()),
                svg,
            ));
        }
    }
    let mut orders: Vec<(Family, usize)> =
        study.peaks.iter().map(|p| (p.family, p.order)).collect();
    orders.sort_unstable();
    orders.dedup();
    for (family, n) in orders {
        for metric in Metric::BOTH {
            let stem = format!("holes-{}-{n}-{}", family.as_str(), metric.as_str());
            let svg = write_svg_and_png!(dir, stem, SIZE, |root| draw_holes(
                root, study, family, n, metric
            ))?;
            out.push((
                format!(
                    "{} order {n}: {} against holes / N², with the backbone",
                    family.as_str(),
                    metric.as_str()
                ),
                svg,
            ));
        }
    }
    out.extend(super::figures::write_all(dir, study)?);
    Ok(out)
}
