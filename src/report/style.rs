//! What every plot shares: the bundled font, the solver colours, tick labels, file names, and
//! writing one chart as SVG (and PNG) whole or not at all.
//!
//! Text: plotters measures text (to lay out axes and legends) and, for PNG, draws it with
//! `ab_glyph` from DejaVu Sans bundled in the binary (`assets/fonts/`, Bitstream Vera licence), so
//! no system font is needed at run time. SVG text is written as `<text font-family="sans-serif">`
//! and drawn by the viewer.

use crate::output::write_atomic;
use anyhow::{anyhow, Context};
use plotters::coord::Shift;
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

/// Tableau 10: distinct on white and for the common colour-vision deficiencies.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4E, 0x79, 0xA7),
    RGBColor(0xF2, 0x8E, 0x2B),
    RGBColor(0xE1, 0x57, 0x59),
    RGBColor(0x76, 0xB7, 0xB2),
    RGBColor(0x59, 0xA1, 0x4F),
    RGBColor(0xB0, 0x7A, 0xA1),
    RGBColor(0x9C, 0x75, 0x5F),
    RGBColor(0xED, 0xC9, 0x48),
    RGBColor(0xFF, 0x9D, 0xA7),
    RGBColor(0xBA, 0xB0, 0xAC),
];

/// The colour of a solver: fixed by its place in [`SolverKind::ALL`], so a solver keeps its colour
/// from run to run; a name the registry does not know (an old run) takes a colour after those,
/// by its place `index` in the run's solver list.
pub fn solver_color(name: &str, index: usize) -> RGBColor {
    let slot = match name.parse::<SolverKind>() {
        Ok(k) => SolverKind::ALL.iter().position(|x| *x == k).unwrap_or(0),
        Err(_) => SolverKind::ALL.len() + index,
    };
    PALETTE[slot % PALETTE.len()]
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

/// Turns a plotters error (whose type depends on the backend) into an [`anyhow::Error`].
pub fn plot_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("drawing failed: {e}")
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
    init_fonts();
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        draw(&root).with_context(|| format!("drawing {}", path.display()))?;
        root.present().map_err(plot_err)?;
    }
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
    init_fonts();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = tempfile::Builder::new()
        .prefix(".plot.")
        .suffix(".png")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a file in {}", dir.display()))?;
    {
        let root = BitMapBackend::new(tmp.path(), size).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        draw(&root).with_context(|| format!("drawing {}", path.display()))?;
        root.present().map_err(plot_err)?;
    }
    // tempfile creates the file 0600; a plot is an ordinary, shareable file (0644).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644));
    }
    tmp.persist(path)
        .with_context(|| format!("renaming into place: {}", path.display()))?;
    Ok(())
}
