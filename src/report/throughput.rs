//! Throughput: puzzles per second of solver time on one thread, one bar per dataset x solver (log
//! scale), each labelled with its value and how many times slower it is than the fastest solver
//! on that dataset.

use super::style::{dataset_chart, draw_legend, log_top, plot_err, si, solver_color, swatch};
use crate::summary::SummaryRow;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
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

/// Draws the bar chart.
///
/// # Errors
/// When drawing fails.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &Throughput,
) -> anyhow::Result<()> {
    let all = t.bars.iter().flatten().flatten();
    let (lo, hi) = all.fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| {
        (lo.min(v), hi.max(v))
    });
    let (y0, y1) = if lo.is_finite() {
        let y0 = (lo / 4.0).max(1e-3);
        (y0, log_top(y0, (hi * 1.5).max(lo * 10.0), 0.25))
    } else {
        (1.0, 10.0)
    };
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
    // One text line up on the log axis: 16 px out of the plot's height over its decades.
    let decades = (y1 / y0).log10();
    let lift = 10f64.powf(decades * 16.0 / (root.dim_in_pixel().1 as f64 - 130.0).max(100.0));
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
        let font = ("sans-serif", 12)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        chart
            .draw_series(
                mine.iter()
                    .map(|&(x, v, r)| Text::new(ratio_label(r), (x, v * 1.06), font.clone())),
            )
            .map_err(plot_err)?;
        chart
            .draw_series(mine.iter().map(|&(x, v, _)| {
                Text::new(format!("{}/s", si(v)), (x, v * 1.06 * lift), font.clone())
            }))
            .map_err(plot_err)?;
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
}
