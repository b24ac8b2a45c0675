//! scale.md (the study at a glance) and scale.csv (one row per point and solver).

use super::analysis::{Metric, Study};
use crate::plumbing::human;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One row of scale.csv.
#[derive(Debug, Serialize)]
pub struct CsvRow {
    /// `sudoku` or `qwh`.
    pub family: &'static str,
    /// The shape (`16x16`, `12x12/3x4`, `20x20/latin`).
    pub shape: String,
    /// The side N.
    pub side: usize,
    /// Fraction of cells empty (empty for minimal Sudoku puzzles).
    pub holes: Option<f64>,
    /// The dataset (instance file).
    pub dataset: String,
    /// The solver.
    pub solver: String,
    /// Instances solved or tried.
    pub instances: usize,
    /// Censored solves (not known right: timeout, error, wrong, unchecked).
    pub censored: usize,
    /// Median PAR-2 time, µs, and its bootstrap 95% interval.
    pub median_micros: f64,
    /// Lower end.
    pub median_micros_lo: f64,
    /// Upper end.
    pub median_micros_hi: f64,
    /// p90 PAR-2 time, µs.
    pub p90_micros: f64,
    /// Lower end.
    pub p90_micros_lo: f64,
    /// Upper end.
    pub p90_micros_hi: f64,
    /// Median nodes.
    pub median_nodes: f64,
    /// Lower end.
    pub median_nodes_lo: f64,
    /// Upper end.
    pub median_nodes_hi: f64,
    /// p90 nodes.
    pub p90_nodes: f64,
}

/// The rows of scale.csv.
pub fn csv_rows(study: &Study) -> Vec<CsvRow> {
    study
        .cells
        .iter()
        .filter_map(|c| {
            let (mt, pt) = c.quantiles(Metric::Micros)?;
            let (mn, pn) = c.quantiles(Metric::Nodes)?;
            Some(CsvRow {
                family: c.point.family.as_str(),
                shape: c.point.shape.to_string(),
                side: c.point.side(),
                holes: c.point.holes.fraction(),
                dataset: c.dataset.clone(),
                solver: c.solver.clone(),
                instances: c.rows,
                censored: c.censored,
                median_micros: mt.value,
                median_micros_lo: mt.lo,
                median_micros_hi: mt.hi,
                p90_micros: pt.value,
                p90_micros_lo: pt.lo,
                p90_micros_hi: pt.hi,
                median_nodes: mn.value,
                median_nodes_lo: mn.lo,
                median_nodes_hi: mn.hi,
                p90_nodes: pn.value,
            })
        })
        .collect()
}

/// A time estimate as `median [lo, hi]` in human units.
fn micros_ci(e: crate::analysis::stats::Estimate) -> String {
    human::interval(e.value, e.lo, e.hi, human::micros)
}

/// A node-count estimate as `median [lo, hi]` in human units.
fn nodes_ci(e: crate::analysis::stats::Estimate) -> String {
    human::interval(e.value, e.lo, e.hi, human::figure)
}

/// The lines of the fits and peaks, as the terminal prints them.
pub fn findings(study: &Study) -> Vec<String> {
    let mut out: Vec<String> = study.fits.iter().map(|f| f.text()).collect();
    for p in &study.peaks {
        out.push(format!(
            "qwh order {} {} {}: peak at {:.0}% holes [{:.0}%, {:.0}%] over {} fractions \
             (published: ~42%)",
            p.order,
            p.solver,
            p.metric.as_str(),
            p.at.value * 100.0,
            p.at.lo * 100.0,
            p.at.hi * 100.0,
            p.fractions
        ));
    }
    out
}

/// Renders scale.md.
pub fn markdown(study: &Study, plots: &[(String, PathBuf)]) -> String {
    let mut s = String::new();
    header(&mut s, study);
    fits_section(&mut s, study);
    peaks_section(&mut s, study);
    plots_section(&mut s, plots);
    points_section(&mut s, study);
    s
}

/// Writes the title and what was run: solvers, points, budget, host, command, completeness.
fn header(s: &mut String, study: &Study) {
    let info = &study.info;
    let _ = writeln!(s, "# Scaling study\n");
    let instances: usize = study.cells.iter().map(|c| c.rows).max().unwrap_or(0);
    let _ = writeln!(
        s,
        "{}, {}, up to {} a point; budget {} a solve{}; {} on {} ({}), {}; load average {} \
         before, {} after.\n",
        human::plural(info.solvers.len(), "solver"),
        human::plural(
            study
                .cells
                .iter()
                .map(|c| &c.dataset)
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            "point"
        ),
        human::plural(instances, "instance"),
        info.timeout_ms
            .map_or("unlimited".to_string(), |ms| format!("{ms} ms")),
        info.max_nodes.map_or(String::new(), |n| format!(
            ", {} nodes",
            human::thousands(n)
        )),
        human::plural(info.threads, "thread"),
        info.host,
        human::plural(info.cores, "core"),
        info.date,
        info.load_before.map_or("?".into(), |l| format!("{l:.2}")),
        info.load_after.map_or("?".into(), |l| format!("{l:.2}")),
    );
    let _ = writeln!(
        s,
        "Cost is PAR-2: a solve not known right (timeout, error, wrong, unchecked) counts as \
         twice the time budget, and its nodes as twice the node budget (or, without one, the \
         nodes counted when it stopped). Intervals are bootstrap 95% intervals over the \
         instances. Every answer was checked by the checker (`results.csv`, `correct`).\n"
    );
    let _ = writeln!(s, "Command: `{}`\n", info.command.join(" "));
    if !info.complete {
        let _ = writeln!(
            s,
            "**This run is not complete** (run.json says `\"complete\": false`): the figures \
             cover the solves saved so far.\n"
        );
    }
}

/// Writes the growth fits section: power law against exponential per family, solver and cost.
fn fits_section(s: &mut String, study: &Study) {
    let _ = writeln!(s, "## Growth fits\n");
    if study.fits.is_empty() {
        let _ = writeln!(
            s,
            "No fit: a family needs three sides or more (and medians above 0).\n"
        );
    } else {
        let _ = writeln!(
            s,
            "Least squares on the medians against the side N: power law `ln c = a + b ln N` \
             against exponential `ln c = a + b N`; the smaller residual sum of squares (RSS, in \
             `ln c`) fits better.\n"
        );
        let _ = writeln!(
            s,
            "| family | solver | cost | sides | power law: c = | RSS | exponential: c = | RSS | better | censored medians |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---:|---|---:|---|---:|");
        for f in &study.fits {
            let sides: Vec<String> = f.sides.iter().map(|n| n.to_string()).collect();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} · N^{:.2} | {:.3} | {} · {:.3}^N | {:.3} | {} | {} |",
                f.family.as_str(),
                f.solver,
                f.metric.as_str(),
                sides.join(", "),
                super::analysis::constant(f.power.a),
                f.power.b,
                f.power.rss,
                super::analysis::constant(f.exponential.a),
                f.exponential.b.exp(),
                f.exponential.rss,
                f.better(),
                f.censored
            );
        }
        let _ = writeln!(s);
        if study.fits.iter().any(|f| f.weak()) {
            let _ = writeln!(
                s,
                "On 3 sides (marked weak) each fit keeps one degree of freedom (three medians, \
                 two parameters): the smaller residual says little, and one more side can turn \
                 the verdict.\n"
            );
        }
    }
}

/// Writes the quasigroups' hardness peak section, if the study has peaks.
fn peaks_section(s: &mut String, study: &Study) {
    if !study.peaks.is_empty() {
        let _ = writeln!(s, "## The hardness peak of the quasigroups\n");
        let _ = writeln!(
            s,
            "The hole fraction of the largest median cost, with the bootstrap 95% interval of \
             that location (published: near 42%, Achlioptas, Gomes, Kautz and Selman, AAAI \
             2000).\n"
        );
        let _ = writeln!(
            s,
            "| order | solver | cost | peak | 95% interval | median there | fractions |"
        );
        let _ = writeln!(s, "|---:|---|---|---:|---|---:|---:|");
        for p in &study.peaks {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {:.0}% | {:.0}% to {:.0}% | {} | {} |",
                p.order,
                p.solver,
                p.metric.as_str(),
                p.at.value * 100.0,
                p.at.lo * 100.0,
                p.at.hi * 100.0,
                match p.metric {
                    Metric::Micros => human::micros(p.median),
                    Metric::Nodes => human::figure(p.median),
                },
                p.fractions
            );
        }
        let _ = writeln!(s);
    }
}

/// Writes the plots section: one image link per plot.
fn plots_section(s: &mut String, plots: &[(String, PathBuf)]) {
    let _ = writeln!(s, "## Plots\n");
    for (title, path) in plots {
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let _ = writeln!(s, "![{title}]({name})\n");
    }
}

/// Writes the table of every point and solver, and where the files are.
fn points_section(s: &mut String, study: &Study) {
    let _ = writeln!(s, "## Every point\n");
    let _ = writeln!(
        s,
        "| family | shape | holes | solver | instances | censored | median µs [95%] | p90 µs [95%] | median nodes [95%] | p90 nodes |"
    );
    let _ = writeln!(s, "|---|---|---:|---|---:|---:|---|---|---|---:|");
    for c in &study.cells {
        let (Some((mt, pt)), Some((mn, pn))) =
            (c.quantiles(Metric::Micros), c.quantiles(Metric::Nodes))
        else {
            continue;
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            c.point.family.as_str(),
            c.point.shape,
            c.point
                .holes
                .fraction()
                .map_or("minimal".to_string(), |f| format!("{:.0}%", f * 100.0)),
            c.solver,
            c.rows,
            c.censored,
            micros_ci(mt),
            micros_ci(pt),
            nodes_ci(mn),
            human::figure(pn.value)
        );
    }
    let _ = writeln!(
        s,
        "\nThe instances are in `instances/`, one file a point; the run's own report (summary, \
         cactus and box plots per point) is `index.html` and `summary.md`; these figures are \
         in `scale.csv`."
    );
}

/// Writes scale.md, scale.csv and the plots into `dir`; returns scale.md's path.
///
/// # Errors
/// When a plot or a file cannot be written.
pub fn write(dir: &Path, study: &Study) -> anyhow::Result<PathBuf> {
    let plots = super::plot::write_all(dir, study)?;
    crate::plumbing::output::write_csv(&dir.join("scale.csv"), &csv_rows(study))?;
    let md = dir.join("scale.md");
    let text = markdown(study, &plots);
    crate::plumbing::output::write_atomic(&md, |w| {
        w.write_all(text.as_bytes())?;
        Ok(())
    })?;
    Ok(md)
}
