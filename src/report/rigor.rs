//! The report's sections on how far a run's figures can be trusted: the puzzle classes of each
//! dataset, the scores (PAR-2, virtual best solver, unique solves, [`crate::analysis::scores`]), and the
//! spread of each solver's effort over the isomorphs of a puzzle (`--isomorphs K`). Each is a
//! [`Section`], rendered alike into `summary.md` ([`markdown`]) and `index.html` ([`html`]).

use super::PlotFile;
use crate::analysis::stats::quantile;
use crate::analysis::summary::SummaryRow;
use crate::plumbing::human::{count, figure};
use crate::record::manifest::Classes;
use crate::record::RowStatus;
use crate::record::Run;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write;

/// A table: header cells and body rows.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// Column headers.
    pub header: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
}

/// One section of the page.
#[derive(Debug, Clone, Default)]
pub struct Section {
    /// Heading (also the HTML anchor, lowercased with dashes).
    pub title: String,
    /// Paragraphs before the table.
    pub lines: Vec<String>,
    /// A table, if any.
    pub table: Option<Table>,
    /// A note under the table.
    pub note: String,
    /// A plot, if any.
    pub plot: Option<PlotFile>,
}

/// The classes of each dataset's puzzles, from the `solutions` column (once per puzzle: the
/// first row of each puzzle line, whichever solver's: a solver that does not take a puzzle's
/// shape has no row of it), in report order, with the lines of the puzzles that have several
/// solutions.
pub fn classes(run: &Run) -> Vec<(String, Classes, Vec<usize>)> {
    let mut seen: HashSet<(&str, usize)> = HashSet::new();
    let mut by: HashMap<&str, (Classes, Vec<usize>)> = HashMap::new();
    for r in &run.rows {
        if r.status == RowStatus::Invalid || !seen.insert((&r.dataset, r.line)) {
            continue;
        }
        let e = by.entry(&r.dataset).or_default();
        e.0.add(r.solutions);
        if r.solutions == Some(crate::record::SolutionClass::Several) {
            e.1.push(r.line);
        }
    }
    run.datasets
        .iter()
        .filter_map(|d| by.remove(d.as_str()).map(|(c, l)| (d.clone(), c, l)))
        .collect()
}

/// The "Puzzle classes" section.
pub fn classes_section(run: &Run) -> Section {
    let mut lines = Vec::new();
    for (d, c, several) in classes(run) {
        let mut t = format!(
            "{d}: {} with no solution, {} with one, {} with several",
            count(c.none),
            count(c.one),
            count(c.several)
        );
        if c.unknown > 0 {
            let _ = write!(t, ", {} not counted", count(c.unknown));
        }
        t.push('.');
        if c.several > 0 {
            let shown: Vec<String> = several.iter().take(10).map(|l| l.to_string()).collect();
            let _ = write!(
                t,
                " {} with several solutions ({} {}{}) {} no one answer: the solvers' first \
                 solutions may differ, and each was checked against the puzzle.",
                match c.several {
                    1 => "The puzzle".to_string(),
                    n => format!("The {}", crate::plumbing::human::plural(n, "puzzle")),
                },
                crate::plumbing::human::noun_for(several.len(), "line"),
                shown.join(", "),
                if several.len() > 10 { ", ..." } else { "" },
                if c.several == 1 { "has" } else { "have" }
            );
        }
        lines.push(t);
    }
    Section {
        title: "Puzzle classes".into(),
        lines,
        note: "Solutions counted up to 2 once per puzzle by the fastest counting solver (the \
               solutions column of results.csv)."
            .into(),
        ..Section::default()
    }
}

/// The "Scores" section: per dataset x solver, solved, PAR-2 and unique solves, and the
/// virtual best solver.
pub fn scores_section(run: &Run, summary_rows: &[SummaryRow]) -> Section {
    let mut rows = summary_rows.to_vec();
    crate::analysis::scores::score(&run.rows, run.budget_micros(), &mut rows);
    let table = Table {
        header: [
            "dataset",
            "solver",
            "solved",
            "median µs [95% CI]",
            "PAR-2 µs",
            "unique solves",
        ]
        .map(String::from)
        .to_vec(),
        rows: rows
            .iter()
            .map(|r| {
                if r.is_na() {
                    // Its caps do not take the shape: no rows, no score.
                    return vec![
                        r.group(),
                        r.solver.clone(),
                        format!("n/a: {}", r.na),
                        "-".into(),
                        "-".into(),
                        "-".into(),
                    ];
                }
                let times: Vec<f64> = run
                    .rows_of(&r.dataset, &r.solver)
                    .filter(|x| x.status != RowStatus::Invalid && x.shape == r.shape)
                    .map(|x| x.micros)
                    .collect();
                let median = crate::analysis::stats::median_ci(
                    &times,
                    crate::analysis::stats::salt(&[&r.dataset, &r.solver]),
                )
                .map_or("-".into(), |e| {
                    crate::plumbing::human::interval(e.value, e.lo, e.hi, figure)
                });
                vec![
                    r.group(),
                    r.solver.clone(),
                    format!("{} / {}", count(r.solved), count(r.puzzles)),
                    median,
                    r.par2_micros.map_or("-".into(), figure),
                    if r.solver == crate::analysis::scores::VIRTUAL_BEST {
                        "-".into()
                    } else {
                        count(r.unique_solves)
                    },
                ]
            })
            .collect(),
    };
    Section {
        title: "Scores".into(),
        table: Some(table),
        note: format!(
            "median µs: over the readable puzzles (a timeout at the time it gave up), with its \
             bootstrap 95% interval. PAR-2: mean µs per readable puzzle, a right answer at its time, anything else \
             (timeout, error, wrong) at twice the budget{}, as the SAT competitions score. \
             virtual-best: per puzzle, the fastest right answer of any solver. Unique solves: \
             puzzles only this solver answered right.",
            run.budget_micros()
                .map(|b| format!(" ({})", crate::plumbing::human::micros(2.0 * b)))
                .unwrap_or_else(|| " (none without a time budget)".into())
        ),
        ..Section::default()
    }
}

/// One solver's spread over the isomorphs of each puzzle.
#[derive(Debug, Clone)]
pub struct Spread {
    /// Solver name.
    pub solver: String,
    /// Puzzles with at least two copies solved right.
    pub puzzles: usize,
    /// Of those, puzzles whose node count differs between copies.
    pub nodes_vary: usize,
    /// Per puzzle, max / min nodes over its copies (1 = no spread), ascending.
    pub node_ratios: Vec<f64>,
    /// Per puzzle, max / min µs over its copies, ascending.
    pub time_ratios: Vec<f64>,
    /// Whether its nodes are search-tree nodes ([`Run::counts_search_nodes`]); the node
    /// columns of the others (`sat`'s solver calls) are not shown.
    pub search_nodes: bool,
}

/// Over the copies of one puzzle: (min nodes, max nodes, min µs, max µs, copies).
type Range = (u64, u64, f64, f64, usize);

/// The spread of each solver (report order) over the copies of each puzzle; empty unless the
/// run had `--isomorphs` (rows with a transform).
pub fn spreads(run: &Run) -> Vec<Spread> {
    if !run.rows.iter().any(|r| !r.transform.is_empty()) {
        return Vec::new();
    }
    // (solver, dataset, line) -> (min nodes, max nodes, min µs, max µs, copies)
    let mut m: BTreeMap<(&str, &str, usize), Range> = BTreeMap::new();
    for r in &run.rows {
        if !r.is_right() {
            continue;
        }
        let e = m.entry((&r.solver, &r.dataset, r.line)).or_insert((
            u64::MAX,
            0,
            f64::INFINITY,
            0.0,
            0,
        ));
        e.0 = e.0.min(r.nodes);
        e.1 = e.1.max(r.nodes);
        e.2 = e.2.min(r.micros);
        e.3 = e.3.max(r.micros);
        e.4 += 1;
    }
    run.solvers
        .iter()
        .map(|s| {
            let mut sp = Spread {
                solver: s.clone(),
                puzzles: 0,
                nodes_vary: 0,
                node_ratios: Vec::new(),
                time_ratios: Vec::new(),
                search_nodes: run.counts_search_nodes(s),
            };
            for (_, &(lo, hi, tlo, thi, n)) in
                m.range((s.as_str(), "", 0)..).take_while(|(k, _)| k.0 == s)
            {
                if n < 2 {
                    continue;
                }
                sp.puzzles += 1;
                if hi != lo {
                    sp.nodes_vary += 1;
                }
                sp.node_ratios.push(hi.max(1) as f64 / lo.max(1) as f64);
                sp.time_ratios.push(thi.max(1e-3) / tlo.max(1e-3));
            }
            sp.node_ratios.sort_by(f64::total_cmp);
            sp.time_ratios.sort_by(f64::total_cmp);
            sp
        })
        .filter(|sp| sp.puzzles > 0)
        .collect()
}

/// The "Isomorph spread" section (empty title when the run had no isomorphs).
pub fn spread_section(run: &Run, plot: Option<PlotFile>) -> Section {
    let sp = spreads(run);
    if sp.is_empty() {
        return Section::default();
    }
    let table = spread_table(&sp);
    let lines = spread_lines(run, &sp);
    Section {
        title: "Isomorph spread".into(),
        lines,
        table: Some(table),
        note: "max/min: per puzzle, the largest over the smallest count (or time) over its \
               copies answered right; 1.00 = no spread. Times also vary with the machine's load."
            .into(),
        plot,
    }
}

/// Per solver: puzzles, on how many the nodes vary, and the median, p90 and worst max/min
/// ratios of nodes, and the median one of times.
fn spread_table(sp: &[Spread]) -> Table {
    Table {
        header: [
            "solver",
            "puzzles",
            "nodes vary on",
            "median nodes max/min",
            "p90 nodes max/min",
            "worst nodes max/min",
            "median µs max/min",
        ]
        .map(String::from)
        .to_vec(),
        rows: sp
            .iter()
            .map(|s| {
                let nodes = |t: String| if s.search_nodes { t } else { "-".into() };
                vec![
                    s.solver.clone(),
                    count(s.puzzles),
                    nodes(format!("{} / {}", count(s.nodes_vary), count(s.puzzles))),
                    nodes(format!("{:.2}", quantile(&s.node_ratios, 0.5))),
                    nodes(format!("{:.2}", quantile(&s.node_ratios, 0.9))),
                    nodes(format!(
                        "{:.2}",
                        s.node_ratios.last().copied().unwrap_or(1.0)
                    )),
                    format!("{:.2}", quantile(&s.time_ratios, 0.5)),
                ]
            })
            .collect(),
    }
}

/// What the section says above its table: how the copies were made, and which solvers'
/// nodes vary, stay the same, or are not shown.
fn spread_lines(run: &Run, sp: &[Spread]) -> Vec<String> {
    let k = run.info.isomorphs.unwrap_or(1);
    let invariant: Vec<&str> = sp
        .iter()
        .filter(|s| s.search_nodes && s.nodes_vary == 0)
        .map(|s| s.solver.as_str())
        .collect();
    let other: Vec<&str> = sp
        .iter()
        .filter(|s| !s.search_nodes)
        .map(|s| s.solver.as_str())
        .collect();
    let varying: Vec<&str> = sp
        .iter()
        .filter(|s| s.search_nodes && s.nodes_vary > 0)
        .map(|s| s.solver.as_str())
        .collect();
    let mut lines = vec![format!(
        "Each puzzle was solved {k} times, each time under another random isomorph transform \
         (digits relabelled, rows, bands, columns, stacks permuted, maybe transposed; seed {}). A \
         solver whose nodes change with the orientation of a puzzle searches in an order tied to \
         it; its speed on one file's orientation may not carry over.",
        run.info.transform.unwrap_or(0)
    )];
    if !varying.is_empty() {
        lines.push(format!(
            "Nodes vary with orientation: {}.",
            varying.join(", ")
        ));
    }
    if !invariant.is_empty() {
        lines.push(format!(
            "Nodes the same on every copy: {}.",
            invariant.join(", ")
        ));
    }
    if !other.is_empty() {
        lines.push(format!(
            "Nodes not shown (they count something else than search-tree nodes): {}.",
            other.join(", ")
        ));
    }
    lines
}

/// The sections as Markdown (those with a title).
pub fn markdown(sections: &[Section]) -> String {
    let mut s = String::new();
    for sec in sections.iter().filter(|s| !s.title.is_empty()) {
        let _ = writeln!(s, "## {}\n", sec.title);
        for l in &sec.lines {
            let _ = writeln!(s, "- {l}");
        }
        if !sec.lines.is_empty() {
            s.push('\n');
        }
        if let Some(t) = &sec.table {
            s.push_str(&crate::analysis::table::Table::plain(&t.header, &t.rows).markdown());
            s.push('\n');
        }
        if let Some(p) = &sec.plot {
            let _ = writeln!(s, "![{}]({})\n\n{}\n", p.title, p.svg, p.caption);
        }
        if !sec.note.is_empty() {
            let _ = writeln!(s, "{}\n", sec.note);
        }
    }
    s
}

/// The sections as HTML (those with a title); `esc` escapes text.
pub fn html(sections: &[Section], esc: impl Fn(&str) -> String) -> String {
    let mut s = String::new();
    for sec in sections.iter().filter(|s| !s.title.is_empty()) {
        let id = sec.title.to_lowercase().replace(' ', "-");
        let _ = writeln!(s, "<h2 id=\"{id}\">{}</h2>", esc(&sec.title));
        if !sec.lines.is_empty() {
            let _ = writeln!(s, "<ul>");
            for l in &sec.lines {
                let _ = writeln!(s, "<li>{}</li>", esc(l));
            }
            let _ = writeln!(s, "</ul>");
        }
        if let Some(t) = &sec.table {
            let mut table = crate::analysis::table::Table::plain(&t.header, &t.rows);
            // A long header (`bitmask-singles (naked singles)`) on two lines, so the table fits
            // an 800-pixel window.
            for c in &mut table.columns {
                if let Some((name, more)) = c.title.split_once(" (") {
                    c.html = Some(format!("{}<br>({}", esc(name), esc(more)));
                }
            }
            s.push_str(&table.html());
        }
        if let Some(p) = &sec.plot {
            let _ = writeln!(
                s,
                "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
                esc(&p.svg),
                esc(&p.title),
                esc(&p.caption)
            );
        }
        if !sec.note.is_empty() {
            let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(&sec.note));
        }
    }
    s
}

/// Draws the spread plot: per solver, one point per puzzle at its max/min node ratio over the
/// isomorphs (log scale; 1 = the same nodes on every copy), jittered sideways.
///
/// # Errors
/// When drawing fails.
pub fn draw_spread<DB: plotters::prelude::DrawingBackend>(
    root: &plotters::prelude::DrawingArea<DB, plotters::coord::Shift>,
    spreads: &[Spread],
    solvers: &[String],
) -> anyhow::Result<()> {
    use super::style::{chart_builder, draw_mesh, plot_err, si, solver_color};
    use plotters::prelude::*;
    let top = spreads
        .iter()
        .flat_map(|s| s.node_ratios.last().copied())
        .fold(2.0f64, f64::max)
        * 1.5;
    let n = spreads.len().max(1) as f64;
    let mut chart = chart_builder(
        root,
        "Isomorph spread: max/min search-tree nodes over the copies of each puzzle",
    )
    .build_cartesian_2d(-0.5..n - 0.5, (0.9..top).log_scale())
    .map_err(plot_err)?;
    let names: Vec<String> = spreads.iter().map(|s| s.solver.clone()).collect();
    let label = move |v: &f64| -> String {
        let i = v.round();
        if (v - i).abs() < 1e-6 && i >= 0.0 {
            names.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let mut mesh = chart.configure_mesh();
    mesh.x_desc("solver")
        .y_desc("max/min nodes per puzzle (ratio, log scale)")
        .x_labels(spreads.len().max(1))
        .x_label_formatter(&label)
        .y_label_formatter(&|v| si(*v));
    draw_mesh(&mut mesh)?;
    for (i, s) in spreads.iter().enumerate() {
        let idx = solvers.iter().position(|n| *n == s.solver).unwrap_or(i);
        let color = solver_color(&s.solver, idx);
        let m = s.node_ratios.len().max(1) as f64;
        chart
            .draw_series(s.node_ratios.iter().enumerate().map(|(k, &r)| {
                // An even spread across the column, the same on every render.
                let x = i as f64 - 0.3 + 0.6 * (k as f64 + 0.5) / m;
                Circle::new((x, r.max(0.9)), 2, color.mix(0.6).filled())
            }))
            .map_err(plot_err)?;
    }
    Ok(())
}
