//! Throughput: solved puzzles per second on one thread from the median time per puzzle (the
//! estimator the verdicts rank by, see [`SummaryRow::puzzles_per_second`]), as horizontal bars,
//! one small chart per dataset stacked in one SVG. Each chart lists the solvers fastest first,
//! names on the left, each bar labelled with its value and, when there are any, the outliers the
//! median set aside ([`SummaryRow::outliers`]); its log axis is fitted to that dataset's bars
//! (from the power of ten below half the slowest bar, to just past the fastest bar's label).
//! No ratio is printed here: the page's one "× slower" figure is the ratio of medians in the
//! verdicts, and the ratio of throughputs is the summary table's "ratio".

use super::style::{draw_mesh, plot_err, si, solver_color};
use crate::analysis::summary::SummaryRow;
use crate::plumbing::human::rate;
use plotters::coord::ranged1d::SegmentValue;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::RGBColor;

/// One bar: (solver, colour, solved puzzles per second or `None`, outliers).
pub type Bar = (String, RGBColor, Option<f64>, usize);

/// One dataset's chart.
#[derive(Debug, Clone)]
pub struct Panel {
    /// Dataset name.
    pub dataset: String,
    /// (solver, colour, solved puzzles per second; `None` when it solved none, outliers),
    /// fastest first, the solvers that solved none last in report order.
    pub bars: Vec<Bar>,
}

/// What the plot shows: one panel per dataset, in report order.
#[derive(Debug, Clone)]
pub struct Throughput {
    /// The panels, top to bottom.
    pub panels: Vec<Panel>,
}

/// Gathers the bars from the summary (its `puzzles_per_second`), a panel per dataset x shape
/// group (`groups`, as (dataset, shape)); a solver that does not take the group's shape (an
/// `n/a` row) has no bar.
pub fn data(groups: &[(String, String)], solvers: &[String], summary: &[SummaryRow]) -> Throughput {
    let panels = groups
        .iter()
        .map(|(d, shape)| {
            let mut bars: Vec<Bar> = solvers
                .iter()
                .enumerate()
                .filter_map(|(i, s)| {
                    let r = summary.iter().find(|r| {
                        &r.dataset == d && &r.shape == shape && &r.solver == s && !r.is_na()
                    })?;
                    let v = Some(r.puzzles_per_second).filter(|&p| p > 0.0 && r.solved > 0);
                    Some((s.clone(), solver_color(s, i), v, r.outliers))
                })
                .collect();
            // Stable: equal throughputs and the solvers with none keep the report order.
            bars.sort_by(|a, b| match (a.2, b.2) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
            Panel {
                dataset: crate::analysis::summary::group_name(d, shape),
                bars,
            }
        })
        .collect();
    Throughput { panels }
}

/// Width of the plot, px: the page's figure width, so it is shown at its own size.
pub const WIDTH: u32 = 1000;

/// Height of one bar's row, px.
const ROW: u32 = 26;
/// A panel's caption, x axis and margins, px.
const PANEL_EXTRA: u32 = 100;
/// The plot's title, px.
const TITLE: u32 = 40;
/// Margin around each panel, px.
const MARGIN: u32 = 10;
/// Font sizes, px: solver names and bar labels; panel captions.
const FONT: u32 = 15;
const CAPTION: u32 = 17;
/// Space between a bar's end and its label, px.
const GAP: f64 = 6.0;

/// Pixel height of one panel.
fn panel_height(p: &Panel) -> u32 {
    PANEL_EXTRA + ROW * p.bars.len().max(1) as u32
}

/// Pixel size of the whole plot.
pub fn size(t: &Throughput) -> (u32, u32) {
    (
        WIDTH,
        TITLE + t.panels.iter().map(panel_height).sum::<u32>(),
    )
}

/// A bar's label: `171,939/s`, `171,939/s, 2 outliers`, or `none solved`.
pub fn label(v: Option<f64>, outliers: usize) -> String {
    let value = match v {
        Some(v) => format!("{}/s", rate(v)),
        None => "none solved".into(),
    };
    match outliers {
        0 => value,
        1 => format!("{value}, 1 outlier"),
        n => format!("{value}, {} outliers", crate::plumbing::human::count(n)),
    }
}

/// One panel's axis, fitted to its bars.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axis {
    /// Where the bars start, puzzles/s: the power of ten at or below half the slowest bar.
    pub lo: f64,
    /// The axis' end, puzzles/s: far enough that the fastest bar's label fits after it.
    pub hi: f64,
    /// Width of the names' column left of the axis, px.
    pub names: u32,
}

/// Fits the axis of `p` for a plot `WIDTH` px wide; `measure(text, font px)` gives a text's
/// width in px.
pub fn axis(p: &Panel, measure: &dyn Fn(&str, u32) -> f64) -> Axis {
    let names = p
        .bars
        .iter()
        .map(|b| measure(&b.0, FONT))
        .fold(0.0f64, f64::max)
        .ceil() as u32
        + 16;
    let values: Vec<f64> = p.bars.iter().filter_map(|b| b.2).collect();
    let lo_v = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_v = values.iter().copied().fold(0.0f64, f64::max);
    if !lo_v.is_finite() {
        return Axis {
            lo: 1.0,
            hi: 10.0,
            names,
        };
    }
    let lo = 10f64.powf((lo_v / 2.0).log10().floor());
    let plot_w = (WIDTH - 2 * MARGIN - names) as f64 - 8.0;
    // Each bar ends at plot_w * ln(v/lo) / ln(hi/lo); its label needs `GAP + w` px after it.
    let mut span = (hi_v / lo).ln() / 0.9;
    for b in &p.bars {
        if let Some(v) = b.2 {
            let room = plot_w - GAP - measure(&label(Some(v), b.3), FONT) - 4.0;
            span = span.max((v / lo).ln() * plot_w / room.max(plot_w * 0.2));
        }
    }
    Axis {
        lo,
        hi: lo * span.exp(),
        names,
    }
}

/// Draws the panels.
///
/// # Errors
/// When drawing fails.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &Throughput,
) -> anyhow::Result<()> {
    let measure = |text: &str, px: u32| {
        root.estimate_text_size(text, &("sans-serif", px).into_text_style(root))
            .map_or(0.6 * px as f64 * text.chars().count() as f64, |(w, _)| {
                w as f64
            })
    };
    let body = root
        .titled(
            "Throughput: solved puzzles per second from the median time, one thread",
            ("sans-serif", 22),
        )
        .map_err(plot_err)?;
    let mut breaks = Vec::new();
    let mut y = 0;
    for p in &t.panels[..t.panels.len().saturating_sub(1)] {
        y += panel_height(p) as i32;
        breaks.push(y);
    }
    let areas = body.split_by_breakpoints([] as [i32; 0], breaks);
    for (p, area) in t.panels.iter().zip(areas) {
        draw_panel(&area, p, axis(p, &measure))?;
    }
    Ok(())
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    p: &Panel,
    a: Axis,
) -> anyhow::Result<()> {
    let n = p.bars.len().max(1) as u32;
    let mut chart = ChartBuilder::on(area)
        .caption(&p.dataset, ("sans-serif", CAPTION))
        .margin(MARGIN)
        .x_label_area_size(40)
        .y_label_area_size(a.names)
        // `0..m` holds m + 1 values, one segment each: `0..n - 1` gives the n rows (one panel of a
        // single bar keeps an empty row, as 0..0 would be an empty range).
        .build_cartesian_2d((a.lo..a.hi).log_scale(), (0..n.max(2) - 1).into_segmented())
        .map_err(plot_err)?;
    // Row 0 is the top bar: segment rows - 1 (the y axis grows upwards).
    let rows = n.max(2);
    let seg = |i: usize| rows - 1 - i as u32;
    let names: Vec<String> = p.bars.iter().map(|b| b.0.clone()).collect();
    let name_of = |v: &SegmentValue<u32>| match v {
        SegmentValue::CenterOf(s) if *s < rows => names
            .get((rows - 1 - s) as usize)
            .cloned()
            .unwrap_or_default(),
        _ => String::new(),
    };
    let mut mesh = chart.configure_mesh();
    mesh.disable_y_mesh()
        .y_labels(rows as usize)
        .y_label_formatter(&name_of)
        .x_labels(8)
        .x_label_formatter(&|v| si(*v))
        .x_desc("solved puzzles per second (log scale)");
    mesh.label_style(("sans-serif", FONT));
    draw_mesh(&mut mesh)?;
    let font = ("sans-serif", FONT)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (_, color, v, outliers)) in p.bars.iter().enumerate() {
        let s = seg(i);
        if let Some(v) = *v {
            let mut bar = Rectangle::new(
                [
                    (a.lo, SegmentValue::Exact(s)),
                    (v, SegmentValue::Exact(s + 1)),
                ],
                color.filled(),
            );
            bar.set_margin(4, 4, 0, 0);
            chart.draw_series([bar]).map_err(plot_err)?;
        }
        let at = v.unwrap_or(a.lo);
        chart
            .draw_series([EmptyElement::at((at, SegmentValue::CenterOf(s)))
                + Text::new(label(*v, *outliers), (GAP as i32, 0), font.clone())])
            .map_err(plot_err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panel(values: &[Option<f64>]) -> Panel {
        Panel {
            dataset: "set".into(),
            bars: values
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("solver-{i}"), solver_color("", i), *v, 0))
                .collect(),
        }
    }

    #[test]
    fn labels() {
        assert_eq!(label(Some(171_938.6), 0), "171,939/s");
        assert_eq!(label(Some(4.754), 1), "4.75/s, 1 outlier");
        assert_eq!(label(Some(4.754), 1_200), "4.75/s, 1,200 outliers");
        assert_eq!(label(None, 0), "none solved");
    }

    #[test]
    fn bars_fastest_first_and_none_solved_last() {
        let summary: Vec<SummaryRow> = [("a", 10.0, 1), ("b", 0.0, 0), ("c", 500.0, 2)]
            .iter()
            .map(|&(s, pps, solved)| SummaryRow {
                dataset: "d".into(),
                shape: "9x9".into(),
                solver: s.into(),
                puzzles: 2,
                solved,
                timeouts: 2 - solved,
                median_micros: 1.0,
                mean_micros: 1.0,
                p90_micros: 1.0,
                max_micros: 1.0,
                puzzles_per_second: pps,
                mean_nodes: 1.0,
                ..SummaryRow::default()
            })
            .collect();
        let names = ["a", "b", "c"].map(String::from);
        let t = data(&[("d".to_string(), "9x9".to_string())], &names, &summary);
        let order: Vec<(&str, Option<f64>)> = t.panels[0]
            .bars
            .iter()
            .map(|b| (b.0.as_str(), b.2))
            .collect();
        assert_eq!(
            order,
            vec![("c", Some(500.0)), ("a", Some(10.0)), ("b", None)]
        );
    }

    /// The axis starts at a power of ten below half the slowest bar and ends where the fastest
    /// bar's label, measured in the bundled font, still fits in the plot: it is fitted to the
    /// data, not to a fixed range (a bar of 406k/s on an axis up to 1G was the old plot).
    #[test]
    fn axis_fits_the_bars_and_their_labels() {
        crate::report::style::init_fonts();
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 400)).into_drawing_area();
        let measure = |text: &str, px: u32| {
            root.estimate_text_size(text, &("sans-serif", px).into_text_style(&root))
                .unwrap()
                .0 as f64
        };
        let values = [
            4.75, 17.2, 43_100.0, 107_000.0, 21_100.0, 1_720.0, 171_939.0,
        ];
        let p = panel(&values.map(Some));
        let a = axis(&p, &measure);
        assert_eq!(a.lo, 1.0, "4.75/2 = 2.4: the power of ten below is 1");
        let plot_w = (WIDTH - 2 * MARGIN - a.names) as f64 - 8.0;
        for v in values {
            let end = plot_w * (v / a.lo).ln() / (a.hi / a.lo).ln();
            let w = measure(&label(Some(v), 0), FONT);
            assert!(
                end + GAP + w <= plot_w,
                "{v}: label ends at {}",
                end + GAP + w
            );
        }
        // Not much more room than the labels need: the top is below 10x the fastest bar.
        assert!(a.hi < 171_939.0 * 10.0, "{a:?}");
        let a = axis(&panel(&[Some(105_000.0)]), &measure);
        assert_eq!(a.lo, 10_000.0);
        let a = axis(&panel(&[None, None]), &measure);
        assert_eq!((a.lo, a.hi), (1.0, 10.0));
    }
}
