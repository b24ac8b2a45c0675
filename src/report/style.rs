//! What every plot shares: the bundled font, the solver colours, tick labels, file names, and
//! writing one chart as SVG (and PNG) whole or not at all.
//!
//! Text: plotters measures text (to lay out axes and legends) and, for PNG, draws it with
//! `ab_glyph` from DejaVu Sans bundled in the binary (`assets/fonts/`, Bitstream Vera licence), so
//! no system font is needed at run time. SVG text is written as `<text font-family="sans-serif">`
//! and drawn by the viewer.

use crate::plumbing::output::write_atomic;
use anyhow::{anyhow, Context};
use plotters::chart::MeshStyle;
use plotters::coord::combinators::LogCoord;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use plotters::style::RGBColor;
use solvers::SolverKind;
use std::path::Path;
use std::sync::Once;

/// DejaVu Sans 2.37 (Debian's `fonts-dejavu-core`); licence in `assets/fonts/LICENSE-DejaVu.txt`.
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Registers the bundled font under the generic family names plotters asks for. Idempotent.
pub fn init_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for name in ["sans-serif", "serif", "monospace"] {
            // The bytes are a valid TrueType file (checked by the report tests).
            let _ = plotters::style::register_font(name, FontStyle::Normal, FONT);
        }
    });
}

/// Tableau 10 and four darker tones: distinct on white and for the common colour-vision
/// deficiencies.
const PALETTE: [RGBColor; 14] = colors([
    0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F, 0xB07AA1, 0x9C755F, 0xEDC948, 0xFF9DA7,
    0xBAB0AC, 0x2F4B7C, 0x8C6D31, 0x1B7A5A, 0x7A2E5E,
]);

/// The colours of `0xRRGGBB` codes.
pub(crate) const fn colors<const N: usize>(codes: [u32; N]) -> [RGBColor; N] {
    let mut out = [RGBColor(0, 0, 0); N];
    let mut i = 0;
    while i < N {
        let c = codes[i];
        out[i] = RGBColor((c >> 16) as u8, (c >> 8) as u8, c as u8);
        i += 1;
    }
    out
}

// Every built-in solver has a palette colour of its own: a solver added to the registry without
// a colour added here does not compile.
const _: () = assert!(SolverKind::ALL.len() <= PALETTE.len());

/// The colour of a solver: a built-in one takes the palette colour of its place in
/// [`SolverKind::ALL`], so it keeps its colour from run to run; any other name (an external
/// solver, an old run's) takes a colour outside the palette, by its place `index` in the run's
/// solver list, so it never takes a built-in solver's colour.
pub fn solver_color(name: &str, index: usize) -> RGBColor {
    match name.parse::<SolverKind>() {
        Ok(k) => PALETTE[SolverKind::ALL.iter().position(|x| *x == k).unwrap_or(0)],
        Err(_) => extra_color(index),
    }
}

/// Colour `i` of the solvers outside the registry: hues a golden angle apart (so neighbours in
/// the list differ most), darker and more saturated than the palette's, never one of them.
fn extra_color(i: usize) -> RGBColor {
    let hue = (i as f64 * 0.381_966).fract();
    let c = HSLColor(hue, 0.85, 0.30 + 0.08 * (i % 3) as f64).to_rgba();
    let c = RGBColor(c.0, c.1, c.2);
    if PALETTE.contains(&c) {
        RGBColor(c.0 ^ 0x10, c.1, c.2)
    } else {
        c
    }
}

/// A colour as `#rrggbb`, for HTML.
pub fn css(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// A tick label: `1`, `20`, `500`, `2k`, `10k`, `1.5M`, `3G` (3 significant digits at most).
pub fn si(v: f64) -> String {
    let (x, unit) = match v.abs() {
        a if a >= 1e9 => (v / 1e9, "G"),
        a if a >= 1e6 => (v / 1e6, "M"),
        a if a >= 1e3 => (v / 1e3, "k"),
        _ => (v, ""),
    };
    let s = if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else if x.abs() >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    };
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    format!("{s}{unit}")
}

/// A dataset or solver name made safe for a file name: ASCII letters, digits, `-`, `_`; the rest
/// become `-`.
pub fn file_stem(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if s.is_empty() {
        "unnamed".into()
    } else {
        s
    }
}

/// The top of a log axis running from `lo` that puts `hi` at `1 - free` of its height, leaving the
/// top `free` (0..1) of the plot for the legend and labels.
pub fn log_top(lo: f64, hi: f64, free: f64) -> f64 {
    let (a, b) = (lo.ln(), hi.ln());
    (a + (b - a) / (1.0 - free)).exp()
}

/// The frame every plot shares: `caption` on top (22 px), a 14 px margin, 50 px below the plot
/// for the x tick labels and 70 px left of it for the y tick labels.
pub fn chart_builder<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    caption: &str,
) -> ChartBuilder<'a, 'b, DB> {
    let mut b = ChartBuilder::on(root);
    b.caption(caption, ("sans-serif", 22))
        .margin(14)
        .x_label_area_size(50)
        .y_label_area_size(70);
    b
}

/// The coordinates of a grouped plot ([`dataset_chart`]): dataset slots along x, log y.
pub type DatasetCoord = Cartesian2d<RangedCoordf64, LogCoord<f64>>;

/// Sets up a grouped plot over `datasets` (the box plot and the throughput bars): dataset `i` is
/// the slot centred on x = `i` (from -0.5 to `i` + 0.5, its name as the tick label, axis
/// "dataset"), and the y axis is logarithmic over `y_range` (low, high), described by `y_desc`,
/// its ticks in SI form ([`si`]), light grid lines across only. Draws the frame and the axes; the
/// caller draws each solver's series at `i - 0.4 + slot * (s + 0.5)` with `slot = 0.8 / solvers`.
///
/// # Errors
/// When drawing fails.
pub fn dataset_chart<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    caption: &str,
    datasets: &[String],
    y_range: (f64, f64),
    y_desc: &str,
) -> anyhow::Result<ChartContext<'a, DB, DatasetCoord>> {
    let n = datasets.len().max(1);
    let label = |v: &f64| {
        let i = v.round();
        if (v - i).abs() < 1e-6 && i >= 0.0 {
            datasets.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let (y0, y1) = y_range;
    let mut chart = chart_builder(root, caption)
        .build_cartesian_2d(-0.5..n as f64 - 0.5, (y0..y1).log_scale())
        .map_err(plot_err)?;
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh()
        .x_labels(n)
        .x_desc("dataset")
        .y_desc(y_desc)
        .x_label_formatter(&label)
        .y_label_formatter(&|v| si(*v));
    draw_mesh(&mut mesh)?;
    Ok(chart)
}

/// Draws a mesh (axes, ticks, grid) that the caller has given its labels, in the house style:
/// 14 px tick labels, 16 px axis descriptions, very light grid lines.
///
/// # Errors
/// When drawing fails.
pub fn draw_mesh<X, Y, DB>(mesh: &mut MeshStyle<'_, '_, X, Y, DB>) -> anyhow::Result<()>
where
    X: Ranged + ValueFormatter<X::ValueType>,
    Y: Ranged + ValueFormatter<Y::ValueType>,
    DB: DrawingBackend,
{
    mesh.label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .light_line_style(RGBColor(240, 240, 240))
        .draw()
        .map_err(plot_err)
}

/// Draws the legend of the chart's labelled series at `position`: 15 px text on a nearly opaque
/// white box with a grey border.
///
/// # Errors
/// When drawing fails.
pub fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> anyhow::Result<()> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(180, 180, 180))
        .label_font(("sans-serif", 15))
        .draw()
        .map_err(plot_err)
}

/// Width, px, of the legend [`side_legend`] draws for `entries` on `area`'s backend.
pub fn side_legend_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, RGBColor)],
) -> u32 {
    let widest = entries
        .iter()
        .map(|(name, _)| {
            area.estimate_text_size(name, &("sans-serif", 15).into_text_style(area))
                .map_or(9 * name.chars().count() as u32, |(w, _)| w)
        })
        .max()
        .unwrap_or(0);
    widest + 56
}

/// A legend in a column of its own (right of a plot): one 18 x 12 px swatch and 15 px name per
/// entry, 22 px apart, from the top of the plot down.
///
/// # Errors
/// When drawing fails.
pub fn side_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, RGBColor)],
) -> anyhow::Result<()> {
    let font =
        ("sans-serif", 15)
            .into_font()
            .color(&BLACK)
            .pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Left,
                plotters::style::text_anchor::VPos::Center,
            ));
    for (i, (name, color)) in entries.iter().enumerate() {
        let y = 60 + 22 * i as i32;
        area.draw(&Rectangle::new([(8, y - 6), (26, y + 6)], color.filled()))
            .map_err(plot_err)?;
        area.draw(&Text::new(name.as_str(), (34, y), font.clone()))
            .map_err(plot_err)?;
    }
    Ok(())
}

/// Turns a plotters error (whose type depends on the backend) into an [`anyhow::Error`].
pub fn plot_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("drawing failed: {e}")
}

/// Draws `draw` on `root`, a white page, and presents it; errors name `path`, the file it is
/// for.
fn draw_on<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    path: &Path,
    draw: impl FnOnce(&DrawingArea<DB, Shift>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    init_fonts();
    root.fill(&WHITE).map_err(plot_err)?;
    draw(&root).with_context(|| format!("drawing {}", path.display()))?;
    root.present().map_err(plot_err)
}

/// Writes an SVG drawn by `draw`, atomically.
///
/// # Errors
/// When drawing or writing fails.
pub fn write_svg(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut text = String::new();
    draw_on(
        SVGBackend::with_string(&mut text, size).into_drawing_area(),
        path,
        draw,
    )?;
    write_atomic(path, |w| {
        w.write_all(text.as_bytes())?;
        Ok(())
    })
}

/// Writes a PNG drawn by `draw`: rendered to a temporary `.png` file beside `path`, then renamed.
///
/// # Errors
/// When drawing, encoding or writing fails.
pub fn write_png(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let tmp = crate::plumbing::output::temp_beside(path, ".png")?;
    draw_on(
        BitMapBackend::new(tmp.path(), size).into_drawing_area(),
        path,
        draw,
    )?;
    // A plot is an ordinary, shareable file (0644, or the mode of the file it replaces).
    tmp.commit()
}

/// Writes `{stem}.svg` and `{stem}.png` into `dir` at `size`, each drawn by the expression
/// `draw` over `root` (its backend's drawing area); gives the SVG path, or the first error of
/// [`write_svg`] and [`write_png`].
macro_rules! write_svg_and_png {
    ($dir:expr, $stem:expr, $size:expr, |$root:ident| $draw:expr) => {{
        let svg = $dir.join(format!("{}.svg", $stem));
        $crate::report::style::write_svg(&svg, $size, |$root| $draw)
            .and_then(|()| {
                let png = $dir.join(format!("{}.png", $stem));
                $crate::report::style::write_png(&png, $size, |$root| $draw)
            })
            .map(|()| svg)
    }};
}
pub(crate) use write_svg_and_png;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_solvers_share_a_colour() {
        let builtin = SolverKind::ALL.iter().map(|k| solver_color(k.name(), 0));
        let external = (0..40).map(|i| solver_color(&format!("ext-{i}"), i));
        let all: Vec<RGBColor> = builtin.chain(external).collect();
        for (i, a) in all.iter().enumerate() {
            for (j, b) in all.iter().enumerate().skip(i + 1) {
                assert_ne!(a, b, "colours {i} and {j}");
            }
        }
    }
}
