//! What a study's rows say: per point and solver the median and p90 cost with bootstrap 95%
//! intervals, the growth fits, the hardness peaks.
//!
//! **Cost** is a solve's wall time (µs) or its search-tree nodes. A solve whose answer is not
//! known right (timeout, error, wrong, unchecked: the rule of [`crate::analysis::scores`]) is **censored**:
//! its time counts as twice the time budget (PAR-2, as the SAT competitions score), its nodes as
//! twice the node budget when there is one, else as the nodes counted when it stopped (a lower
//! bound). A run without any budget has no timeouts to censor.
//!
//! **Fits** (per family and solver, on the medians against the side N): a power law
//! `ln c = a + b ln N` and an exponential `ln c = a + b N`, each by least squares; the one with
//! the smaller residual sum of squares (in `ln c`, two parameters each) fits better. Three
//! sides or more are needed; on exactly three each fit keeps one degree of freedom, and the
//! verdict is marked weak ([`Fit::weak`]). The quasigroups are fitted at the hole fraction
//! nearest 0.42 of each order.
//!
//! **Peak** (per quasigroup order and solver): the hole fraction of the largest median cost;
//! its 95% interval is the percentile bootstrap of that location, each resample drawing every
//! fraction's instances again with replacement (ties go to the smaller fraction).

use super::{Family, Point};
use crate::analysis::stats::{self, Estimate};
use crate::plumbing::human;
use crate::record::{Row, RowStatus, RunInfo};
use rand::Rng;
use rand_core::SeedableRng;
use std::path::Path;

/// The two costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Wall time of the solve, µs.
    Micros,
    /// Search-tree nodes (as each solver counts them: docs/solvers-and-counters.md).
    Nodes,
}

impl Metric {
    /// Both, time first.
    pub const BOTH: [Metric; 2] = [Metric::Micros, Metric::Nodes];

    /// `micros` or `nodes`: file names, CSV.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Micros => "micros",
            Metric::Nodes => "nodes",
        }
    }

    /// The axis description.
    pub fn axis(self) -> &'static str {
        match self {
            Metric::Micros => "time per instance, µs",
            Metric::Nodes => "nodes per instance",
        }
    }
}

/// One solver at one point.
#[derive(Debug, Clone)]
pub struct Cell {
    /// The point.
    pub point: Point,
    /// Its dataset name.
    pub dataset: String,
    /// The solver.
    pub solver: String,
    /// The solver's place in the run's solver list (its colour).
    pub solver_index: usize,
    /// Rows (readable instances solved or tried).
    pub rows: usize,
    /// Censored rows (not known right).
    pub censored: usize,
    /// Of them, timeouts.
    pub timeouts: usize,
    /// Of them, answers the checker rejected.
    pub wrong: usize,
    /// Of them, solved rows with no solution to check.
    pub unchecked: usize,
    /// PAR-2 times, µs, in row order.
    pub micros: Vec<f64>,
    /// Nodes (censored as the module docs say), in row order.
    pub nodes: Vec<f64>,
    /// Per row, in row order: censored (not known right).
    pub censored_rows: Vec<bool>,
}

impl Cell {
    /// The costs of `metric`.
    pub fn values(&self, metric: Metric) -> &[f64] {
        match metric {
            Metric::Micros => &self.micros,
            Metric::Nodes => &self.nodes,
        }
    }

    /// The median and p90 of `metric` with their bootstrap intervals.
    pub fn quantiles(&self, metric: Metric) -> Option<(Estimate, Estimate)> {
        let v = self.values(metric);
        let salt = |q: &str| stats::salt(&[&self.dataset, &self.solver, metric.as_str(), q]);
        Some((
            stats::quantile_ci(v, 0.5, salt("median"))?,
            stats::quantile_ci(v, 0.9, salt("p90"))?,
        ))
    }

    /// True when the median itself is censored (more than half the rows are): it is then only
    /// a lower bound of the true median.
    pub fn median_censored(&self) -> bool {
        2 * self.censored > self.rows
    }
}

/// One least-squares line `y = a + b x`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    /// Intercept.
    pub a: f64,
    /// Slope.
    pub b: f64,
    /// Residual sum of squares.
    pub rss: f64,
}

/// Sides at which a fit's verdict is weak: the fewest fitted, three, leave each two-parameter
/// fit one degree of freedom.
pub const WEAK_SIDES: usize = 3;

/// The growth of one solver's median cost in one family.
#[derive(Debug, Clone)]
pub struct Fit {
    /// The family.
    pub family: Family,
    /// The solver.
    pub solver: String,
    /// The cost.
    pub metric: Metric,
    /// Sides fitted.
    pub sides: Vec<usize>,
    /// Of their medians, how many are censored (lower bounds).
    pub censored: usize,
    /// `ln c = a + b ln N`.
    pub power: Line,
    /// `ln c = a + b N`.
    pub exponential: Line,
}

impl Fit {
    /// True when the power law's residual is the smaller.
    pub fn power_fits_better(&self) -> bool {
        self.power.rss <= self.exponential.rss
    }

    /// True on exactly three sides (the fewest fitted): three medians for two parameters leave
    /// each fit one degree of freedom, so which residual is the smaller says little.
    pub fn weak(&self) -> bool {
        self.sides.len() <= WEAK_SIDES
    }

    /// The verdict: `power law` or `exponential`, followed by ` (3 sides: weak)` when
    /// [`Fit::weak`].
    pub fn better(&self) -> String {
        let family = if self.power_fits_better() {
            "power law"
        } else {
            "exponential"
        };
        if self.weak() {
            format!("{family} ({WEAK_SIDES} sides: weak)")
        } else {
            family.to_string()
        }
    }

    /// The better fit's cost at side `n`.
    pub fn at(&self, n: f64) -> f64 {
        if self.power_fits_better() {
            (self.power.a + self.power.b * n.ln()).exp()
        } else {
            (self.exponential.a + self.exponential.b * n).exp()
        }
    }

    /// One sentence: both fits and which is better (weak on three sides).
    pub fn text(&self) -> String {
        format!(
            "{} {} {}: power law c = {} · N^{:.2} (RSS {:.3}); exponential c = {} · {:.3}^N \
             (RSS {:.3}); {} fits better{}{}",
            self.family.as_str(),
            self.solver,
            self.metric.as_str(),
            constant(self.power.a),
            self.power.b,
            self.power.rss,
            constant(self.exponential.a),
            self.exponential.b.exp(),
            self.exponential.rss,
            if self.power_fits_better() {
                "the power law"
            } else {
                "the exponential"
            },
            if self.weak() {
                format!(" ({WEAK_SIDES} sides: weak)")
            } else {
                String::new()
            },
            match self.censored {
                0 => String::new(),
                k => format!(
                    " ({} censored: lower bounds)",
                    crate::plumbing::human::plural(k, "median")
                ),
            }
        )
    }
}

/// A fit's constant `e^a`, in three significant digits (`2.41e-3`).
pub fn constant(a: f64) -> String {
    format!("{:.2e}", a.exp())
}

/// Where one solver's cost peaks over the hole counts of one order (quasigroups, punched
/// Sudoku).
#[derive(Debug, Clone)]
pub struct Peak {
    /// The family.
    pub family: Family,
    /// The order (side N).
    pub order: usize,
    /// The solver.
    pub solver: String,
    /// The cost.
    pub metric: Metric,
    /// Holes / N² of the largest median, with the bootstrap interval of that location.
    pub at: Estimate,
    /// The same location as holes / N^1.55.
    pub at_n155: Estimate,
    /// The largest median.
    pub median: f64,
    /// Hole counts measured.
    pub fractions: usize,
    /// When the largest median is censored (more than half its solves out of budget), the
    /// hole counts whose medians are censored: the peak may lie at any of them, and the
    /// interval spans them all. 0 when the largest median is not censored.
    pub censored_plateau: usize,
}

impl Peak {
    /// Where the peak lies, with its interval: as holes / N^1.55 (`1.62 [1.50, 1.80]`) and as
    /// a percentage of N² (`35.1% [32.0%, 38.5%]`).
    pub fn place_text(&self) -> (String, String) {
        let (a, b) = (self.at_n155, self.at);
        (
            human::interval(a.value, a.lo, a.hi, |x| format!("{x:.2}")),
            human::interval(b.value, b.lo, b.hi, |x| format!("{:.1}%", x * 100.0)),
        )
    }
}

/// The backbone estimate of one point: forward checking's fixed fraction of the holes
/// ([`super::backbone`]), median over the instances with its bootstrap interval.
#[derive(Debug, Clone)]
pub struct BackbonePoint {
    /// The point.
    pub point: Point,
    /// Its dataset name.
    pub dataset: String,
    /// The median fraction with its interval.
    pub fraction: Estimate,
    /// Instances.
    pub instances: usize,
}

/// Balanced against random holes at one point and solver: the ratio of median costs.
#[derive(Debug, Clone)]
pub struct Balance {
    /// The point with random holes.
    pub random: Point,
    /// The point with balanced holes.
    pub balanced: Point,
    /// The solver.
    pub solver: String,
    /// The cost.
    pub metric: Metric,
    /// median(balanced) / median(random), with its bootstrap interval.
    pub ratio: Estimate,
    /// Censored solves at the random and at the balanced point.
    pub censored: (usize, usize),
}

/// Everything a study's plots and page show.
#[derive(Debug, Clone)]
pub struct Study {
    /// The run's run.json.
    pub info: RunInfo,
    /// One per point and solver with rows, in plan order (points), then solver order.
    pub cells: Vec<Cell>,
    /// Growth fits, per family, solver, cost.
    pub fits: Vec<Fit>,
    /// Peaks, per family, order, solver, cost.
    pub peaks: Vec<Peak>,
    /// The backbone of every point whose instance folder has a backbone.csv.
    pub backbone: Vec<BackbonePoint>,
    /// Balanced against random, wherever the study has both.
    pub balance: Vec<Balance>,
}

/// Least squares of `ys` on `xs`; `None` under 3 points or with no spread in `xs`.
pub fn least_squares(xs: &[f64], ys: &[f64]) -> Option<Line> {
    let n = xs.len();
    if n < 3 || ys.len() != n {
        return None;
    }
    let mx = xs.iter().sum::<f64>() / n as f64;
    let my = ys.iter().sum::<f64>() / n as f64;
    let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = xs.iter().zip(ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let b = sxy / sxx;
    let a = my - b * mx;
    let rss = xs
        .iter()
        .zip(ys)
        .map(|(x, y)| (y - a - b * x).powi(2))
        .sum();
    Some(Line { a, b, rss })
}

/// Reads the study in `dir`: run.json, then results.csv in one pass.
///
/// # Errors
/// When either cannot be read, or no dataset of the run is a study's point.
pub fn load(dir: &Path) -> anyhow::Result<Study> {
    let info = crate::record::read_info(dir)?;
    let mut cells: Vec<Cell> = Vec::new();
    let mut points: Vec<(String, Point)> = Vec::new();
    for d in &info.datasets {
        let shape = d.shapes.first().and_then(|s| s.shape.parse().ok());
        if let Some(p) = shape.and_then(|s| Point::from_name(&d.name, s)) {
            points.push((d.name.clone(), p));
        }
    }
    if points.is_empty() {
        anyhow::bail!(
            "{}: no dataset of this run is a scaling study's (names like sudoku-16x16-h0.50.txt, \
             qwh-20-h0.42.txt); is it a `harness scale` run?",
            dir.display()
        );
    }
    for (name, p) in &points {
        for (i, s) in info.solvers.iter().enumerate() {
            cells.push(Cell {
                point: *p,
                dataset: name.clone(),
                solver: s.clone(),
                solver_index: i,
                rows: 0,
                censored: 0,
                timeouts: 0,
                wrong: 0,
                unchecked: 0,
                micros: Vec::new(),
                nodes: Vec::new(),
                censored_rows: Vec::new(),
            });
        }
    }
    let nsolvers = info.solvers.len();
    let budget_us = info.timeout_ms.map(|ms| ms as f64 * 1e3);
    let node_budget = info.max_nodes.map(|n| n as f64);
    crate::record::for_each_row(dir, |r: Row, _| {
        let Some(k) = points.iter().position(|(n, _)| *n == r.dataset) else {
            return Ok(());
        };
        let Some(s) = info.solvers.iter().position(|x| *x == r.solver) else {
            return Ok(());
        };
        if r.status == RowStatus::Invalid {
            return Ok(());
        }
        let c = &mut cells[k * nsolvers + s];
        c.rows += 1;
        c.censored_rows.push(!r.is_right());
        if r.is_right() {
            c.micros.push(r.micros);
            c.nodes.push(r.nodes as f64);
        } else {
            c.censored += 1;
            c.timeouts += usize::from(r.status == RowStatus::Timeout);
            c.wrong += usize::from(r.is_wrong());
            c.unchecked += usize::from(r.is_unchecked());
            c.micros.push(budget_us.map_or(r.micros, |b| 2.0 * b));
            c.nodes.push(
                node_budget
                    .map_or(r.nodes as f64, |b| 2.0 * b)
                    .max(r.nodes as f64),
            );
        }
        Ok(())
    })?;
    cells.retain(|c| c.rows > 0);
    let peaks = peaks(&cells);
    let fits = fits(&cells, &peaks);
    let backbone = backbone(dir, &info, &points);
    let balance = balance(&cells);
    Ok(Study {
        info,
        cells,
        fits,
        peaks,
        backbone,
        balance,
    })
}

/// The backbone rows of the study's points: from backbone.csv in the run's instances folder, or
/// beside the instance files run.json names.
fn backbone(dir: &Path, info: &RunInfo, points: &[(String, Point)]) -> Vec<BackbonePoint> {
    let mut places: Vec<std::path::PathBuf> = vec![dir
        .join(super::instances::FOLDER)
        .join(super::backbone::FILE)];
    for d in &info.datasets {
        if let Some(parent) = Path::new(&d.source).parent() {
            let p = parent.join(super::backbone::FILE);
            if !places.contains(&p) {
                places.push(p);
            }
        }
    }
    let mut by_point: Vec<Vec<f64>> = vec![Vec::new(); points.len()];
    for place in places {
        let Ok(mut r) = csv::Reader::from_path(&place) else {
            continue;
        };
        // Each point's rows from the first file that has them.
        let mut here: Vec<Vec<f64>> = vec![Vec::new(); points.len()];
        for row in r.deserialize::<super::backbone::BackboneRow>().flatten() {
            if let Some(k) = points.iter().position(|(n, _)| *n == row.dataset) {
                let f = super::backbone::Fixed {
                    holes: row.holes,
                    fixed: row.fixed,
                };
                here[k].push(f.fraction());
            }
        }
        for (mine, found) in by_point.iter_mut().zip(here) {
            if mine.is_empty() {
                *mine = found;
            }
        }
    }
    points
        .iter()
        .zip(by_point)
        .filter_map(|((name, p), v)| {
            let salt = stats::salt(&[name, "backbone"]);
            Some(BackbonePoint {
                point: *p,
                dataset: name.clone(),
                fraction: stats::median_ci(&v, salt)?,
                instances: v.len(),
            })
        })
        .collect()
}

/// Balanced against random holes: every balanced point whose random twin (same family, shape
/// and amount) is in the study, per solver and cost.
fn balance(cells: &[Cell]) -> Vec<Balance> {
    let mut out = Vec::new();
    for b in cells
        .iter()
        .filter(|c| c.point.balanced && !c.point.isomorphs)
    {
        let twin = Point {
            balanced: false,
            ..b.point
        };
        let Some(r) = cells
            .iter()
            .find(|c| c.point == twin && c.solver == b.solver)
        else {
            continue;
        };
        for metric in Metric::BOTH {
            let salt = stats::salt(&[&b.dataset, &b.solver, metric.as_str(), "balance"]);
            if let Some(ratio) =
                stats::independent_ratio_ci(r.values(metric), b.values(metric), salt)
            {
                out.push(Balance {
                    random: r.point,
                    balanced: b.point,
                    solver: b.solver.clone(),
                    metric,
                    ratio,
                    censored: (r.censored, b.censored),
                });
            }
        }
    }
    out
}

/// True for a point on a study's curves: random holes, its own instances.
pub fn plain(c: &Cell) -> bool {
    !c.point.balanced && !c.point.isomorphs
}

/// Where the quasigroups' order plot and fit read each order's cost, in holes / N^1.55: the
/// median of the node-count peaks' places, when the study has peaks; `None` without.
pub fn reference_n155(peaks: &[Peak]) -> Option<f64> {
    let mut v: Vec<f64> = peaks
        .iter()
        .filter(|p| p.family == Family::Qwh && p.metric == Metric::Nodes)
        .map(|p| p.at_n155.value)
        .collect();
    (!v.is_empty()).then(|| stats::sort_and_quantile(&mut v, 0.5))
}

/// The cells a family's order plot and fit use, one point per side and solver among the plain
/// ones ([`plain`]): for the quasigroups the point nearest `reference` holes / N^1.55 (nearest
/// 42% of the cells without one), for Sudoku the one nearest half the cells (a minimal
/// puzzle's, when that is the study's).
pub fn order_cells(cells: &[Cell], family: Family, reference: Option<f64>) -> Vec<&Cell> {
    let mine: Vec<&Cell> = cells
        .iter()
        .filter(|c| c.point.family == family && plain(c))
        .collect();
    let dist = |c: &Cell| match (family, reference) {
        (Family::Qwh, Some(r)) => (c.point.per_n155().unwrap_or(r) - r).abs(),
        (Family::Qwh, None) => (c.point.per_n2().unwrap_or(0.42) - 0.42).abs(),
        (Family::Sudoku, _) => (c.point.per_n2().unwrap_or(0.5) - 0.5).abs(),
    };
    let count = |c: &Cell| c.point.hole_count().unwrap_or(0);
    mine.iter()
        .copied()
        .filter(|c| {
            !mine.iter().any(|o| {
                o.point.side() == c.point.side()
                    && o.solver == c.solver
                    && (dist(o) < dist(c) - 1e-12
                        || ((dist(o) - dist(c)).abs() <= 1e-12 && count(o) < count(c)))
            })
        })
        .collect()
}

/// The holes / N² the quasigroups' order plot uses at each order, when there is one.
pub fn order_fraction(cells: &[Cell], reference: Option<f64>) -> Vec<(usize, f64)> {
    let mut v: Vec<(usize, f64)> = order_cells(cells, Family::Qwh, reference)
        .iter()
        .filter_map(|c| Some((c.point.side(), c.point.per_n2()?)))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    v.dedup();
    v
}

/// The solvers of `cells`, in run order, with their index.
pub fn solvers_of<'a>(cells: impl IntoIterator<Item = &'a Cell>) -> Vec<(String, usize)> {
    let mut v: Vec<(String, usize)> = Vec::new();
    for c in cells {
        if !v.iter().any(|(s, _)| *s == c.solver) {
            v.push((c.solver.clone(), c.solver_index));
        }
    }
    v.sort_by_key(|x| x.1);
    v
}

fn fits(cells: &[Cell], peaks: &[Peak]) -> Vec<Fit> {
    let mut out = Vec::new();
    let reference = reference_n155(peaks);
    for family in [Family::Sudoku, Family::Qwh] {
        let mine = order_cells(cells, family, reference);
        for (solver, _) in solvers_of(mine.iter().copied()) {
            let of: Vec<&&Cell> = mine.iter().filter(|c| c.solver == solver).collect();
            for metric in Metric::BOTH {
                let pts: Vec<(f64, f64, bool)> = of
                    .iter()
                    .filter_map(|c| {
                        let m = c.quantiles(metric)?.0.value;
                        (m > 0.0).then_some((c.point.side() as f64, m.ln(), c.median_censored()))
                    })
                    .collect();
                if pts.len() < of.len() {
                    // A median of 0 (a solver that counts no nodes): nothing to fit.
                    continue;
                }
                let ys: Vec<f64> = pts.iter().map(|p| p.1).collect();
                let xs: Vec<f64> = pts.iter().map(|p| p.0).collect();
                let lx: Vec<f64> = xs.iter().map(|x| x.ln()).collect();
                let (Some(power), Some(exponential)) =
                    (least_squares(&lx, &ys), least_squares(&xs, &ys))
                else {
                    continue;
                };
                out.push(Fit {
                    family,
                    solver: solver.clone(),
                    metric,
                    sides: of.iter().map(|c| c.point.side()).collect(),
                    censored: pts.iter().filter(|p| p.2).count(),
                    power,
                    exponential,
                });
            }
        }
    }
    out
}

/// The index of the largest value (the first of equals).
fn argmax(v: &[f64]) -> usize {
    let mut best = 0;
    for (i, x) in v.iter().enumerate() {
        if *x > v[best] {
            best = i;
        }
    }
    best
}

/// The curves of a study: per family and side, per solver, its plain cells with a hole count,
/// by hole count; only curves of two counts or more.
pub fn curves(cells: &[Cell]) -> Vec<(Family, usize, String, Vec<&Cell>)> {
    let mut out = Vec::new();
    for family in [Family::Sudoku, Family::Qwh] {
        let mine: Vec<&Cell> = cells
            .iter()
            .filter(|c| c.point.family == family && plain(c) && c.point.hole_count().is_some())
            .collect();
        let mut orders: Vec<usize> = mine.iter().map(|c| c.point.side()).collect();
        orders.sort_unstable();
        orders.dedup();
        for n in orders {
            let at_n: Vec<&Cell> = mine
                .iter()
                .copied()
                .filter(|c| c.point.side() == n)
                .collect();
            for (solver, _) in solvers_of(at_n.iter().copied()) {
                let mut curve: Vec<&Cell> = at_n
                    .iter()
                    .copied()
                    .filter(|c| c.solver == solver)
                    .collect();
                curve.sort_by_key(|c| c.point.hole_count());
                if curve.len() >= 2 {
                    out.push((family, n, solver, curve));
                }
            }
        }
    }
    out
}

fn peaks(cells: &[Cell]) -> Vec<Peak> {
    let mut out = Vec::new();
    for (family, n, solver, curve) in curves(cells) {
        let n2: Vec<f64> = curve
            .iter()
            .map(|c| c.point.per_n2().unwrap_or(0.0))
            .collect();
        let n155: Vec<f64> = curve
            .iter()
            .map(|c| c.point.per_n155().unwrap_or(0.0))
            .collect();
        for metric in Metric::BOTH {
            let medians: Vec<f64> = curve
                .iter()
                .map(|c| stats::sort_and_quantile(&mut c.values(metric).to_vec(), 0.5))
                .collect();
            if medians.iter().all(|m| *m == medians[0]) {
                // A flat curve (a solver whose nodes are one call a solve) has no peak.
                continue;
            }
            let best = argmax(&medians);
            let mut parts = vec![solver.as_str(), metric.as_str()];
            let order = n.to_string();
            parts.push(&order);
            if family == Family::Sudoku {
                parts.push("sudoku");
            }
            parts.push("peak");
            let salt = stats::salt(&parts);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(stats::SEED ^ salt);
            let mut at: Vec<usize> = Vec::with_capacity(stats::RESAMPLES);
            let mut buf = Vec::new();
            for _ in 0..stats::RESAMPLES {
                let m: Vec<f64> = curve
                    .iter()
                    .map(|c| {
                        let v = c.values(metric);
                        buf.clear();
                        buf.extend((0..v.len()).map(|_| v[rng.random_range(0..v.len())]));
                        stats::sort_and_quantile(&mut buf, 0.5)
                    })
                    .collect();
                at.push(argmax(&m));
            }
            // The resampled places, on each axis (the axes order the points alike).
            let interval = |xs: &[f64]| {
                let mut v: Vec<f64> = at.iter().map(|&i| xs[i]).collect();
                v.sort_by(f64::total_cmp);
                Estimate {
                    value: xs[best],
                    lo: stats::quantile(&v, 0.025),
                    hi: stats::quantile(&v, 0.975),
                }
            };
            let (mut at, mut at_n155) = (interval(&n2), interval(&n155));
            // A censored median is a lower bound: among hole counts whose medians are all
            // censored, the largest is the budget's, not the instances', and the peak may be
            // at any of them.
            let plateau: Vec<usize> = if curve[best].median_censored() {
                (0..curve.len())
                    .filter(|&i| curve[i].median_censored())
                    .collect()
            } else {
                Vec::new()
            };
            for &i in &plateau {
                for (e, xs) in [(&mut at, &n2), (&mut at_n155, &n155)] {
                    e.lo = e.lo.min(xs[i]);
                    e.hi = e.hi.max(xs[i]);
                }
            }
            out.push(Peak {
                family,
                order: n,
                solver: solver.clone(),
                metric,
                at,
                at_n155,
                median: medians[best],
                fractions: curve.len(),
                censored_plateau: plateau.len(),
            });
        }
    }
    out
}

/// Where the peaks of one solver and cost at several orders agree, on one axis: the
/// intersection of their intervals, or the gap between the highest lower end and the lowest
/// upper end when they do not meet (`Err`). `None` under two orders.
///
/// The places are whole hole counts divided by N^`exponent` (the axis' scale), so the same
/// multiple asked at two orders lands up to half a hole off it at each (2.00 × N^1.55 is
/// 2.002 at order 30 and 1.998 at order 40): a gap of at most one hole at the smallest
/// order's scale is rounding, and the intervals meet (on the point between the two ends).
pub fn overlap(
    peaks: &[&Peak],
    axis: impl Fn(&Peak) -> Estimate,
    exponent: f64,
) -> Option<Result<(f64, f64), f64>> {
    if peaks.len() < 2 {
        return None;
    }
    let lo = peaks
        .iter()
        .map(|p| axis(p).lo)
        .fold(f64::NEG_INFINITY, f64::max);
    let hi = peaks
        .iter()
        .map(|p| axis(p).hi)
        .fold(f64::INFINITY, f64::min);
    let one_hole = peaks
        .iter()
        .map(|p| 1.0 / (p.order.max(1) as f64).powf(exponent))
        .fold(0.0, f64::max);
    Some(if lo <= hi {
        Ok((lo, hi))
    } else if lo - hi <= one_hole {
        Ok((hi, lo))
    } else {
        Err(lo - hi)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_finds_the_line_and_the_better_fit() {
        let xs = [2.0f64, 3.0, 4.0, 5.0];
        // c = 3 N²: a power law.
        let ys: Vec<f64> = xs.iter().map(|n| (3.0 * n * n).ln()).collect();
        let lx: Vec<f64> = xs.iter().map(|x| x.ln()).collect();
        let p = least_squares(&lx, &ys).unwrap();
        assert!((p.b - 2.0).abs() < 1e-9 && (p.a.exp() - 3.0).abs() < 1e-9 && p.rss < 1e-18);
        let e = least_squares(&xs, &ys).unwrap();
        assert!(e.rss > p.rss);
        assert!(least_squares(&xs[..2], &ys[..2]).is_none());
    }

    #[test]
    fn intervals_overlap_or_leave_a_gap() {
        let peak = |lo: f64, hi: f64| Peak {
            family: Family::Qwh,
            order: 20,
            solver: "cp".into(),
            metric: Metric::Nodes,
            at: Estimate { value: lo, lo, hi },
            at_n155: Estimate { value: lo, lo, hi },
            median: 1.0,
            fractions: 3,
            censored_plateau: 0,
        };
        let (a, b, c) = (peak(1.4, 1.8), peak(1.6, 2.0), peak(2.1, 2.3));
        assert_eq!(
            overlap(&[&a, &b], |p| p.at_n155, 1.55),
            Some(Ok((1.6, 1.8)))
        );
        let gap = overlap(&[&a, &b, &c], |p| p.at, 2.0).unwrap().unwrap_err();
        assert!((gap - 0.3).abs() < 1e-12);
        assert_eq!(overlap(&[&a], |p| p.at, 2.0), None);
        // 390 / 30^1.55 and 608 / 40^1.55: both 2.00 x N^1.55, a rounding apart.
        let (x, y) = (390.0 / 30f64.powf(1.55), 608.0 / 40f64.powf(1.55));
        assert!(x > y);
        let (mut p, mut q) = (peak(x, x), peak(y, y));
        (p.order, q.order) = (30, 40);
        assert_eq!(overlap(&[&p, &q], |p| p.at_n155, 1.55), Some(Ok((y, x))));
    }

    #[test]
    fn a_censored_peak_spans_every_censored_median() {
        use crate::scale::{Amount, Holes};
        // Order 30 at 1.2, 1.6, 2.0 and 2.4 x N^1.55; more than half of 1.6 and 2.0 censored
        // (their medians the budget's 600), 2.4 censored once.
        let cell = |m: f64, nodes: [f64; 3], censored: [bool; 3]| Cell {
            point: Point {
                family: Family::Qwh,
                shape: solvers::Shape::latin(30).unwrap(),
                holes: Holes::Amount(Amount::PerN155(m)),
                balanced: false,
                isomorphs: false,
            },
            dataset: format!("qwh-30-h{m:.2}n155.txt"),
            solver: "large".into(),
            solver_index: 0,
            rows: 3,
            censored: censored.iter().filter(|c| **c).count(),
            timeouts: 0,
            wrong: 0,
            unchecked: 0,
            micros: nodes.to_vec(),
            nodes: nodes.to_vec(),
            censored_rows: censored.to_vec(),
        };
        let cells = [
            cell(1.2, [2.0, 3.0, 4.0], [false; 3]),
            cell(1.6, [600.0, 600.0, 50.0], [true, true, false]),
            cell(2.0, [600.0, 600.0, 600.0], [true; 3]),
            cell(2.4, [600.0, 20.0, 30.0], [true, false, false]),
        ];
        let p = peaks(&cells)
            .into_iter()
            .find(|p| p.metric == Metric::Nodes)
            .unwrap();
        assert_eq!(p.censored_plateau, 2);
        let place = |h: f64| h / 30f64.powf(1.55);
        assert!(
            (p.at_n155.value - place(312.0)).abs() < 1e-9,
            "the first of equals"
        );
        assert!((p.at_n155.lo - place(312.0)).abs() < 1e-9);
        assert!(
            (p.at_n155.hi - place(390.0)).abs() < 1e-9,
            "2.0 x N^1.55 is 390 holes"
        );
        assert_eq!(p.median, 600.0);
    }

    #[test]
    fn argmax_takes_the_first_of_equals() {
        assert_eq!(argmax(&[1.0, 3.0, 3.0, 2.0]), 1);
    }
}
