//! The distribution of time per puzzle, one box per dataset x solver, log scale (µs): the box
//! spans the quartiles, the black bar is the median, the whiskers reach the fastest and the
//! slowest puzzle. Every readable puzzle counts, a timeout at the time it took to give up.

use super::digest::{Digest, Times, FLOOR_MICROS};
use super::style::{
    dataset_chart, log_top, plot_err, side_legend, side_legend_width, solver_color,
};
use crate::analysis::stats::quantile;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::RGBColor;

/// Five numbers of one box, µs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Five {
    /// Fastest puzzle.
    pub min: f64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Slowest puzzle.
    pub max: f64,
}

impl Five {
    /// The five numbers of a pair's times; `None` for none.
    pub fn of_times(t: &Times) -> Option<Five> {
        let n = t.readable();
        (n > 0).then(|| Five {
            min: t.nth(0),
            q1: quantile(t, 0.25),
            median: quantile(t, 0.5),
            q3: quantile(t, 0.75),
            max: t.nth(n - 1),
        })
    }

    /// The five numbers of sorted values; `None` for none.
    pub fn of(sorted: &[f64]) -> Option<Five> {
        (!sorted.is_empty()).then(|| Five {
            min: sorted[0],
            q1: quantile(sorted, 0.25),
            median: quantile(sorted, 0.5),
            q3: quantile(sorted, 0.75),
            max: sorted[sorted.len() - 1],
        })
    }
}

/// What the plot shows.
#[derive(Debug, Clone)]
pub struct Distribution {
    /// Dataset names, left to right.
    pub datasets: Vec<String>,
    /// Solver names and colours, in report order.
    pub solvers: Vec<(String, RGBColor)>,
    /// `boxes[d][s]`: dataset `d`, solver `s`; `None` when the pair has no readable puzzle.
    pub boxes: Vec<Vec<Option<Five>>>,
}

/// Gathers the boxes of every dataset x solver pair of the run.
pub fn data(digest: &Digest) -> Distribution {
    let run = &digest.run;
    let boxes = run
        .datasets
        .iter()
        .map(|d| {
            run.solvers
                .iter()
                .map(|s| digest.times_of(d, s).and_then(Five::of_times))
                .collect()
        })
        .collect();
    Distribution {
        datasets: run.datasets.clone(),
        solvers: run
            .solvers
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), solver_color(s, i)))
            .collect(),
        boxes,
    }
}

/// Pixel width: room for every box, but no wider than the page's figures (1,000 px), so the plot
/// is shown at its own size and its legend and labels stay legible.
pub fn width(d: &Distribution) -> u32 {
    (260 + 40 * d.datasets.len() * d.solvers.len()).clamp(900, 1000) as u32
}

/// Draws the box plot.
///
/// # Errors
/// When drawing fails.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &Distribution,
) -> anyhow::Result<()> {
    let all = d.boxes.iter().flatten().flatten();
    let (lo, hi) = all.fold((f64::INFINITY, 0.0f64), |(lo, hi), f| {
        (lo.min(f.min), hi.max(f.max))
    });
    let (y0, y1) = if lo.is_finite() {
        let y0 = (lo / 2.0).max(FLOOR_MICROS);
        (y0, log_top(y0, hi * 1.3, 0.05))
    } else {
        (1.0, 10.0)
    };
    // The legend stands in its own column right of the plot, so the axis is fitted to the boxes
    // alone and no box hides behind it.
    let (plot, legend) =
        root.split_horizontally(root.dim_in_pixel().0 - side_legend_width(root, &d.solvers));
    side_legend(&legend, &d.solvers)?;
    let root = &plot;
    let mut chart = dataset_chart(
        root,
        "Time per puzzle: distribution per dataset and solver",
        &d.datasets,
        (y0, y1),
        "time per puzzle (µs, log scale)",
    )?;
    let ns = d.solvers.len().max(1) as f64;
    let slot = 0.8 / ns;
    let half = slot * 0.35;
    for (s, (_, color)) in d.solvers.iter().enumerate() {
        let color = *color;
        let xs = |di: usize| di as f64 - 0.4 + slot * (s as f64 + 0.5);
        let mine: Vec<(f64, Five)> = d
            .boxes
            .iter()
            .enumerate()
            .filter_map(|(di, row)| row.get(s).copied().flatten().map(|f| (xs(di), f)))
            .collect();
        chart
            .draw_series(mine.iter().map(|&(x, f)| {
                Rectangle::new(
                    [(x - half, f.q1), (x + half, f.q3)],
                    color.mix(0.45).filled(),
                )
            }))
            .map_err(plot_err)?;
        chart
            .draw_series(mine.iter().map(|&(x, f)| {
                Rectangle::new([(x - half, f.q1), (x + half, f.q3)], color.stroke_width(1))
            }))
            .map_err(plot_err)?;
        chart
            .draw_series(mine.iter().flat_map(|&(x, f)| {
                [
                    PathElement::new(vec![(x, f.min), (x, f.q1)], color.stroke_width(1)),
                    PathElement::new(vec![(x, f.q3), (x, f.max)], color.stroke_width(1)),
                    PathElement::new(
                        vec![(x - half / 2.0, f.min), (x + half / 2.0, f.min)],
                        color.stroke_width(1),
                    ),
                    PathElement::new(
                        vec![(x - half / 2.0, f.max), (x + half / 2.0, f.max)],
                        color.stroke_width(1),
                    ),
                    PathElement::new(
                        vec![(x - half, f.median), (x + half, f.median)],
                        BLACK.stroke_width(2),
                    ),
                ]
            }))
            .map_err(plot_err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quartiles_by_hand() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(
            Five::of(&v),
            Some(Five {
                min: 1.0,
                q1: 2.0,
                median: 3.0,
                q3: 4.0,
                max: 5.0
            })
        );
        assert_eq!(quantile(&[10.0, 20.0][..], 0.5), 15.0);
        assert_eq!(Five::of(&[]), None);
    }
}
