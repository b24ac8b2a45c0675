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
    /// Fraction of cells empty, holes / N² (empty for minimal Sudoku puzzles).
    pub holes: Option<f64>,
    /// Holes per instance.
    pub hole_count: Option<usize>,
    /// Holes / N^1.55.
    pub holes_per_n155: Option<f64>,
    /// Balanced holes (the same number in every row and column).
    pub balanced: bool,
    /// The instances are isomorphs of one instance.
    pub isomorphs: bool,
    /// Median backbone estimate (forward checking's fixed fraction of the holes), when known.
    pub backbone: Option<f64>,
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
                holes: c.point.per_n2(),
                hole_count: c.point.hole_count(),
                holes_per_n155: c.point.per_n155(),
                balanced: c.point.balanced,
                isomorphs: c.point.isomorphs,
                backbone: study
                    .backbone
                    .iter()
                    .find(|b| b.dataset == c.dataset)
                    .map(|b| b.fraction.value),
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

/// The lines of the fits, peaks, their overlap and the balance ratios, as the terminal prints
/// them.
pub fn findings(study: &Study) -> Vec<String> {
    let mut out: Vec<String> = study.fits.iter().map(|f| f.text()).collect();
    for p in &study.peaks {
        let (n155, n2) = p.place_text();
        out.push(format!(
            "{} order {} {} {}: peak at {n155} x N^1.55 holes = {n2} of N² over {} hole counts",
            p.family.as_str(),
            p.order,
            p.solver,
            p.metric.as_str(),
            p.fractions
        ));
    }
    out.extend(overlaps(study).into_iter().map(|o| o.text()));
    for b in &study.balance {
        out.push(format!(
            "{} {}: balanced / random median {} = {} ({} censored of random, {} of balanced)",
            b.balanced.name().trim_end_matches(".txt"),
            b.solver,
            b.metric.as_str(),
            b.ratio.text(),
            b.censored.0,
            b.censored.1
        ));
    }
    out
}

/// Where the peaks of one solver and cost agree across orders, on both axes.
pub struct Overlap {
    /// The family.
    pub family: super::Family,
    /// The solver.
    pub solver: String,
    /// The cost.
    pub metric: Metric,
    /// The orders.
    pub orders: Vec<usize>,
    /// On holes / N^1.55: the common interval, or the gap.
    pub n155: Result<(f64, f64), f64>,
    /// On holes / N²: the common interval, or the gap.
    pub n2: Result<(f64, f64), f64>,
}

impl Overlap {
    /// One sentence.
    pub fn text(&self) -> String {
        let say = |r: &Result<(f64, f64), f64>, scale: f64, unit: &str| match r {
            Ok((lo, hi)) => format!(
                "overlap on [{:.2}{unit}, {:.2}{unit}]",
                lo * scale,
                hi * scale
            ),
            Err(gap) => format!("do not overlap (gap {:.2}{unit})", gap * scale),
        };
        format!(
            "{} {} {}: the peak intervals of orders {} {} on holes / N^1.55, and {} on holes / N²",
            self.family.as_str(),
            self.solver,
            self.metric.as_str(),
            self.orders
                .iter()
                .map(|o| o.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            say(&self.n155, 1.0, ""),
            say(&self.n2, 100.0, "%")
        )
    }
}

/// The overlap of every solver's and cost's peaks over two orders or more.
pub fn overlaps(study: &Study) -> Vec<Overlap> {
    let mut keys: Vec<(super::Family, String, Metric)> = Vec::new();
    for p in &study.peaks {
        let k = (p.family, p.solver.clone(), p.metric);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys.into_iter()
        .filter_map(|(family, solver, metric)| {
            let of: Vec<&super::analysis::Peak> = study
                .peaks
                .iter()
                .filter(|p| p.family == family && p.solver == solver && p.metric == metric)
                .collect();
            Some(Overlap {
                family,
                orders: of.iter().map(|p| p.order).collect(),
                n155: super::analysis::overlap(&of, |p| p.at_n155, super::PEAK_EXPONENT)?,
                n2: super::analysis::overlap(&of, |p| p.at, 2.0)?,
                solver,
                metric,
            })
        })
        .collect()
}

/// Renders scale.md.
pub fn markdown(study: &Study, plots: &[(String, PathBuf)]) -> String {
    let mut s = String::new();
    header(&mut s, study);
    fits_section(&mut s, study);
    peaks_section(&mut s, study);
    backbone_section(&mut s, study);
    balance_section(&mut s, study);
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

/// Writes the hardness peak section, if the study has peaks.
fn peaks_section(s: &mut String, study: &Study) {
    if study.peaks.is_empty() {
        return;
    }
    let _ = writeln!(s, "## The hardness peaks\n");
    let _ = writeln!(
        s,
        "Per order, the hole count of the largest median cost, as holes / N^1.55 and as holes / \
         N², each with the bootstrap 95% interval of that place (every hole count's instances \
         drawn again with replacement, the peak found again, 2,000 times). Achlioptas, Gomes, \
         Kautz and Selman (AAAI 2000) found the peaks of quasigroups with holes of different \
         orders to line up on holes / N^1.55 and to move on holes / N². Where the largest \
         median is censored (more than half its solves out of budget, so the median is only a \
         lower bound), the interval spans every hole count whose median is censored: the peak \
         may be at any of them.\n"
    );
    let _ = writeln!(
        s,
        "| family | order | solver | cost | holes / N^1.55 [95%] | holes / N² [95%] | median there | hole counts |"
    );
    let _ = writeln!(s, "|---|---:|---|---|---|---|---:|---:|");
    for p in &study.peaks {
        let (n155, n2) = p.place_text();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {n155} | {n2} | {} | {} |",
            p.family.as_str(),
            p.order,
            p.solver,
            p.metric.as_str(),
            {
                let m = match p.metric {
                    Metric::Micros => human::micros(p.median),
                    Metric::Nodes => human::figure(p.median),
                };
                match p.censored_plateau {
                    0 => m,
                    k => format!("{m} (censored at {k} hole counts)"),
                }
            },
            p.fractions
        );
    }
    let _ = writeln!(s);
    let over = overlaps(study);
    if !over.is_empty() {
        let _ = writeln!(s, "Across orders:\n");
        for o in over {
            let _ = writeln!(s, "- {}", o.text());
        }
        let _ = writeln!(s);
    }
}

/// Writes the backbone section, if the study has backbone estimates of points on a curve.
fn backbone_section(s: &mut String, study: &Study) {
    let shown: Vec<&super::analysis::BackbonePoint> = study
        .backbone
        .iter()
        .filter(|b| b.point.hole_count().is_some() && !b.point.isomorphs)
        .collect();
    if shown.is_empty() {
        return;
    }
    let _ = writeln!(s, "## The backbone\n");
    let _ = writeln!(
        s,
        "Per point, the fraction of the holes that forward checking fixes (a hole whose row, \
         column and box leave it one symbol is set, and the symbol struck from its units, to a \
         fixpoint): the estimate of the backbone (the variables fixed in every solution) that \
         Achlioptas, Gomes, Kautz and Selman (AAAI 2000) plot beside the cost. Median over the \
         instances, with its bootstrap 95% interval.\n"
    );
    let _ = writeln!(
        s,
        "| point | holes | holes / N^1.55 | holes / N² | backbone [95%] | instances |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---|---:|");
    for b in shown {
        let _ = writeln!(
            s,
            "| {} | {} | {:.2} | {:.1}% | {:.3} [{:.3}, {:.3}] | {} |",
            b.dataset.trim_end_matches(".txt"),
            b.point.hole_count().unwrap_or(0),
            b.point.per_n155().unwrap_or(0.0),
            b.point.per_n2().unwrap_or(0.0) * 100.0,
            b.fraction.value,
            b.fraction.lo,
            b.fraction.hi,
            b.instances
        );
    }
    let _ = writeln!(s);
}

/// Writes the balanced-against-random section, if the study has both.
fn balance_section(s: &mut String, study: &Study) {
    if study.balance.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Balanced against random holes\n");
    let _ = writeln!(
        s,
        "The ratio of median costs, balanced holes (the same number in every row and column) \
         over random ones at the same count, with its bootstrap 95% interval (each point's \
         instances drawn again on their own). Above 1: the balanced instances cost more (Kautz \
         et al., IJCAI 2001, found them harder).\n"
    );
    let _ = writeln!(
        s,
        "| balanced point | random point | solver | cost | balanced / random [95%] | censored (random, balanced) |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|");
    for b in &study.balance {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {}, {} |",
            b.balanced.name().trim_end_matches(".txt"),
            b.random.name().trim_end_matches(".txt"),
            b.solver,
            b.metric.as_str(),
            b.ratio.text(),
            b.censored.0,
            b.censored.1
        );
    }
    let _ = writeln!(s);
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
            match (c.point.hole_count(), c.point.per_n2()) {
                (Some(k), Some(f)) => format!(
                    "{k} ({:.1}%){}{}",
                    f * 100.0,
                    if c.point.balanced { ", balanced" } else { "" },
                    if c.point.isomorphs { ", isomorphs" } else { "" }
                ),
                _ => "minimal".to_string(),
            },
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
