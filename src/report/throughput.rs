//! Throughput: puzzles per second of solver time on one thread, one bar per dataset x solver (log
//! scale), each labelled with its value and how many times slower it is than the fastest solver
//! on that dataset.

use super::style::{dataset_chart, draw_legend, log_top, plot_err, si, solver_color, swatch};
use crate::summary::SummaryRow;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;
use plotters::style::RGBColor;

/// What the plot shows.
#[derive(Debug, Clone)]
pub struct Throughput {
    /// Dataset names, left to right.
    pub datasets: Vec<String>,
    /// Solver names and colours, in report order.
    pub solvers: Vec<(String, RGBColor)>,
    /// `bars[d][s]`: puzzles/s of solver `s` on dataset `d`; `None` when not run or 0.
    pub bars: Vec<Vec<Option<f64>>>,
}

/// Ratio of each value to the largest of its group: 1 for the fastest.
pub fn ratios(group: &[Option<f64>]) -> Vec<Option<f64>> {
    let best = group.iter().flatten().fold(0.0f64, |a, &b| a.max(b));
    group
        .iter()
        .map(|v| v.filter(|_| best > 0.0).map(|v| v / best))
        .collect()
}

/// A ratio to the fastest for a label: `fastest`, `2.40× slower`, `15.2k× slower`.
pub fn ratio_label(r: f64) -> String {
    if r >= 0.9995 {
        "fastest".into()
    } else {
        let slower = 1.0 / r;
        if slower >= 1000.0 {
            format!("{}× slower", si(slower))
        } else {
            format!("{}× slower", super::fmt_ratio(slower))
        }
    }
}

/// Gathers the bars from the summary.
pub fn data(datasets: &[String], solvers: &[String], summary: &[SummaryRow]) -> Throughput {
    let bars = datasets
        .iter()
        .map(|d| {
            solvers
                .iter()
                .map(|s| {
                    summary
                        .iter()
                        .find(|r| &r.dataset == d && &r.solver == s)
                        .map(|r| r.puzzles_per_second)
                        .filter(|&p| p > 0.0)
                })
                .collect()
        })
        .collect();
    Throughput {
        datasets: datasets.to_vec(),
        solvers: solvers
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), solver_color(s, i)))
            .collect(),
        bars,
    }
}

/// Pixel width that gives every bar and its label room.
pub fn width(t: &Throughput) -> u32 {
    (260 + 60 * t.datasets.len() * t.solvers.len()).clamp(900, 2400) as u32
}

/// The fixed parts of the frame ([`chart_builder`](super::style::chart_builder)), px: margins
/// and y tick labels across, margins, caption and x tick labels down.
const FRAME_W: f64 = 14.0 * 2.0 + 70.0;
const FRAME_H: f64 = 130.0;

/// Gap between a bar's top and its label, px.
const GAP: f64 = 3.0;

/// How the bar labels are set, so that none overlaps another, its neighbours' bars or the legend.
#[derive(Debug, Clone, PartialEq)]
pub struct Labels {
    /// Font size, px: 12, down to 9 when the bars are narrow.
    pub size: u32,
    /// True when even 9 px does not fit a bar's width: one label per bar (`21.3k/s, 2.40×
    /// slower`), turned to read upwards.
    pub upright: bool,
    /// Top of the y axis, puzzles/s: high enough that every label fits above its bar, and below
    /// the legend where the legend stands over the bar.
    pub y_top: f64,
    /// Each label's box, px from the plot's top-left corner (x0, y0, x1, y1).
    pub boxes: Vec<[f64; 4]>,
    /// The legend's box, px, as assumed (upper right).
    pub legend: [f64; 4],
}

/// The two label lines of a bar: its throughput and its ratio to the fastest.
fn texts(v: f64, r: f64) -> (String, String) {
    (format!("{}/s", si(v)), ratio_label(r))
}

/// Lays the labels out for a plot of `size` px; `measure(text, font px)` gives a text's width in
/// px. `y0` is the bottom of the axis.
pub fn layout(
    t: &Throughput,
    size: (u32, u32),
    y0: f64,
    measure: &dyn Fn(&str, u32) -> f64,
) -> Labels {
    let n = t.datasets.len().max(1) as f64;
    let ns = t.solvers.len().max(1) as f64;
    let plot_w = (size.0 as f64 - FRAME_W).max(100.0);
    let plot_h = (size.1 as f64 - FRAME_H).max(100.0);
    let slot_px = plot_w / n * 0.8 / ns;
    let ratio: Vec<Vec<Option<f64>>> = t.bars.iter().map(|g| ratios(g)).collect();
    // (x centre px, value, line 1, line 2)
    let mut bars = Vec::new();
    for (di, g) in t.bars.iter().enumerate() {
        for (s, v) in g.iter().enumerate() {
            if let (Some(v), Some(r)) = (*v, ratio[di][s]) {
                let x = di as f64 - 0.4 + 0.8 / ns * (s as f64 + 0.5);
                let (a, b) = texts(v, r);
                bars.push(((x + 0.5) / n * plot_w, v, a, b));
            }
        }
    }
    let widest = |px: u32| {
        bars.iter()
            .map(|(_, _, a, b)| measure(a, px).max(measure(b, px)))
            .fold(0.0f64, f64::max)
    };
    let (font, upright) = (9..=12)
        .rev()
        .find(|&px| widest(px) + 4.0 <= slot_px)
        .map_or((11, true), |px| (px, false));
    let f = font as f64;
    // Width and height of one bar's label.
    let extent = |a: &str, b: &str| {
        if upright {
            (f + 2.0, measure(&format!("{a}, {b}"), font) + 2.0)
        } else {
            (measure(a, font).max(measure(b, font)), 2.0 * (f + 4.0))
        }
    };
    let legend_w = t
        .solvers
        .iter()
        .map(|(name, _)| measure(name, 14))
        .fold(0.0f64, f64::max)
        + 50.0;
    let legend_h = 18.0 * ns + 24.0;
    let legend = [plot_w - legend_w - 10.0, 0.0, plot_w, legend_h];
    let hi = bars.iter().map(|b| b.1).fold(0.0f64, f64::max);
    let lo = bars.iter().map(|b| b.1).fold(f64::INFINITY, f64::min);
    let mut y_top = if lo.is_finite() {
        log_top(y0, (hi * 1.5).max(lo * 10.0), 0.25)
    } else {
        10.0
    };
    for (x, v, a, b) in &bars {
        let (w, h) = extent(a, b);
        let under_legend = x + w.max(slot_px) / 2.0 > legend[0];
        let room = GAP + h + if under_legend { legend_h + 4.0 } else { 0.0 };
        let frac = (room / plot_h).min(0.8);
        let need = (y0.ln() + (v.ln() - y0.ln()) / (1.0 - frac)).exp();
        y_top = y_top.max(need);
    }
    let y_px = |v: f64| plot_h * (1.0 - (v.ln() - y0.ln()) / (y_top.ln() - y0.ln()));
    let boxes = bars
        .iter()
        .map(|(x, v, a, b)| {
            let (w, h) = extent(a, b);
            let bottom = y_px(*v) - GAP;
            [x - w / 2.0, bottom - h, x + w / 2.0, bottom]
        })
        .collect();
    Labels {
        size: font,
        upright,
        y_top,
        boxes,
        legend,
    }
}

/// The bottom of the y axis: a quarter of the lowest bar (1 when there is none).
fn axis_bottom(t: &Throughput) -> f64 {
    let lo = t
        .bars
        .iter()
        .flatten()
        .flatten()
        .fold(f64::INFINITY, |a, &b| a.min(b));
    if lo.is_finite() {
        (lo / 4.0).max(1e-3)
    } else {
        1.0
    }
}

/// Draws the bar chart.
///
/// # Errors
/// When drawing fails.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &Throughput,
) -> anyhow::Result<()> {
    let y0 = axis_bottom(t);
    let measure = |text: &str, px: u32| {
        root.estimate_text_size(text, &("sans-serif", px).into_text_style(root))
            .map_or(0.6 * px as f64 * text.chars().count() as f64, |(w, _)| {
                w as f64
            })
    };
    let labels = layout(t, root.dim_in_pixel(), y0, &measure);
    let y1 = labels.y_top;
    let mut chart = dataset_chart(
        root,
        "Throughput: puzzles per second (one thread), ratio to the fastest",
        &t.datasets,
        (y0, y1),
        "throughput (puzzles/s, log scale)",
    )?;
    let ns = t.solvers.len().max(1) as f64;
    let slot = 0.8 / ns;
    let half = slot * 0.42;
    // `px` pixels up on the log axis, as a factor.
    let plot_h = chart.plotting_area().dim_in_pixel().1.max(1) as f64;
    let up = |px: f64| 10f64.powf((y1 / y0).log10() * px / plot_h);
    let f = labels.size as f64;
    let ratio: Vec<Vec<Option<f64>>> = t.bars.iter().map(|g| ratios(g)).collect();
    for (s, (name, color)) in t.solvers.iter().enumerate() {
        let color = *color;
        let mine: Vec<(f64, f64, f64)> = t
            .bars
            .iter()
            .enumerate()
            .filter_map(|(di, g)| {
                let v = g.get(s).copied().flatten()?;
                let r = ratio[di][s]?;
                Some((di as f64 - 0.4 + slot * (s as f64 + 0.5), v, r))
            })
            .collect();
        chart
            .draw_series(
                mine.iter().map(|&(x, v, _)| {
                    Rectangle::new([(x - half, y0), (x + half, v)], color.filled())
                }),
            )
            .map_err(plot_err)?
            .label(name.clone())
            .legend(swatch(color));
        if labels.upright {
            let font = ("sans-serif", labels.size)
                .into_font()
                .transform(FontTransform::Rotate270)
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center));
            chart
                .draw_series(mine.iter().map(|&(x, v, r)| {
                    let (a, b) = texts(v, r);
                    Text::new(format!("{a}, {b}"), (x, v * up(GAP)), font.clone())
                }))
                .map_err(plot_err)?;
        } else {
            let font = ("sans-serif", labels.size)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Bottom));
            chart
                .draw_series(mine.iter().flat_map(|&(x, v, r)| {
                    let (a, b) = texts(v, r);
                    [
                        Text::new(b, (x, v * up(GAP)), font.clone()),
                        Text::new(a, (x, v * up(GAP + f + 4.0)), font.clone()),
                    ]
                }))
                .map_err(plot_err)?;
        }
    }
    draw_legend(&mut chart, SeriesLabelPosition::UpperRight)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_to_the_fastest() {
        let r = ratios(&[Some(100.0), Some(400.0), None]);
        assert_eq!(r, vec![Some(0.25), Some(1.0), None]);
        assert_eq!(ratio_label(1.0), "fastest");
        assert_eq!(ratio_label(0.25), "4.00× slower");
        assert_eq!(ratio_label(1.0 / 15_200.0), "15.2k× slower");
    }

    fn overlap(a: &[f64; 4], b: &[f64; 4]) -> bool {
        a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
    }

    /// Lays out `t` at its own width with the bundled font, and checks that no label overlaps
    /// another label or the legend, and that each stays inside the plot.
    fn check_layout(t: &Throughput) -> Labels {
        crate::report::style::init_fonts();
        let size = (width(t), 600);
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let measure = |text: &str, px: u32| {
            root.estimate_text_size(text, &("sans-serif", px).into_text_style(&root))
                .unwrap()
                .0 as f64
        };
        let l = layout(t, size, axis_bottom(t), &measure);
        for (i, a) in l.boxes.iter().enumerate() {
            assert!(a[1] >= 0.0, "label {i} above the plot: {a:?}");
            assert!(!overlap(a, &l.legend), "label {i} under the legend: {a:?}");
            for (j, b) in l.boxes.iter().enumerate().skip(i + 1) {
                assert!(!overlap(a, b), "labels {i} and {j} overlap: {a:?} {b:?}");
            }
        }
        l
    }

    fn plot(datasets: usize, values: &[f64]) -> Throughput {
        Throughput {
            datasets: (0..datasets).map(|d| format!("set-{d}")).collect(),
            solvers: (0..values.len())
                .map(|s| (format!("solver-{s}"), solver_color("", s)))
                .collect(),
            bars: (0..datasets)
                .map(|d| values.iter().map(|v| Some(v * (d + 1) as f64)).collect())
                .collect(),
        }
    }

    #[test]
    fn few_wide_bars_keep_two_level_labels() {
        let l = check_layout(&plot(2, &[1.99, 3.97, 30_200.0]));
        assert_eq!((l.size, l.upright), (12, false));
    }

    #[test]
    fn many_narrow_bars_get_labels_that_fit() {
        // Seven solvers on three sets, ratios up to 9000x (a run of every solver): the two-line
        // labels at 12 px were wider than the bars and ran into each other and the legend.
        let l = check_layout(&plot(
            3,
            &[9.99, 15.0, 43_700.0, 91_100.0, 19_800.0, 174.0, 88_200.0],
        ));
        assert!(l.size < 12 || l.upright, "{l:?}");
    }
}
