//! The report's tables, built once as [`Table`]s and rendered by `summary.md` and `index.html`
//! alike: the summary (dataset x solver), the hardest puzzles, each solver's slowest puzzles and
//! the datasets of the run.

use super::style::{css, solver_color};
use super::{throughput_ratio, unsolved, unsolved_text, Page, RATIO};
use crate::analysis::summary::{SummaryRow, PUZZLES_PER_SECOND};
use crate::analysis::table::{esc, Align, Cell, Column, Row as TableRow, Table};
use crate::plumbing::human::{count, figure, rate, ratio};
use crate::record::{Row, RowStatus, Run};

/// A solver's name in HTML: its plot colour's swatch, then the name.
pub fn solver_html(p: &Page<'_>, name: &str) -> String {
    let i = p.run.solvers.iter().position(|s| s == name).unwrap_or(0);
    format!(
        "<span class=\"sw\" style=\"background:{}\"></span>{}",
        css(solver_color(name, i)),
        esc(name)
    )
}

/// The summary table: per dataset x solver, solved of puzzles, what was not solved, median /
/// p90 / max µs, puzzles/s, outliers, the ratio to the dataset's fastest and mean nodes; the
/// verdicts' winners in class `best`, solvers that do not take the shape in class `na`. Its
/// footnote says what the times, puzzles/s and ratio are. In HTML the time and node columns
/// have short headers (`median`, `p90`, `max`, `nodes`), which [`summary_html`]'s legend
/// spells out, so that the table fits a 1,000-pixel window.
pub fn summary(p: &Page<'_>) -> Table {
    let short = |title: &str, html: &str| {
        Column::right(title).html(format!("<abbr title=\"{}\">{html}</abbr>", esc(title)))
    };
    let mut t = Table::new(vec![
        Column::left("dataset"),
        Column::left("solver"),
        Column::right("solved"),
        Column::left("unsolved"),
        short("median µs", "median"),
        short("p90 µs", "p90"),
        short("max µs", "max"),
        Column::right("puzzles/s"),
        Column::right("outliers"),
        Column::right("ratio"),
        short("mean nodes", "nodes"),
    ]);
    t.html_attrs = " class=\"sortable\" id=\"summary-table\"".into();
    for r in &p.summary {
        let row = if r.is_na() {
            summary_na_row(p, r)
        } else {
            summary_row(p, r)
        };
        t.push(row);
    }
    t.footnotes.push(format!(
        "Times are µs per puzzle over the readable puzzles (a timeout counts at the time it gave \
         up). {PUZZLES_PER_SECOND} {RATIO}"
    ));
    t
}

/// What the summary table's short HTML headers stand for.
pub const SUMMARY_LEGEND: &str = "median, p90, max: µs per puzzle; nodes: mean nodes per puzzle.";

/// The summary table in HTML ([`summary`]), its legend first under it.
pub fn summary_html(p: &Page<'_>) -> String {
    let mut t = summary(p);
    t.footnotes.insert(0, SUMMARY_LEGEND.to_string());
    t.html()
}

/// The dataset's index in the run (what its cell sorts by).
fn dataset_index(run: &Run, dataset: &str) -> f64 {
    run.datasets.iter().position(|d| d == dataset).unwrap_or(0) as f64
}

/// A solver whose caps do not take the shape: no rows, the solved cell says why and the others
/// are blank (a cell per column, so the table still sorts).
fn summary_na_row(p: &Page<'_>, r: &SummaryRow) -> TableRow {
    let mut cells = vec![
        Cell::new(r.group()).sort(dataset_index(p.run, &r.dataset)),
        Cell::new(&r.solver).html(solver_html(p, &r.solver)),
        Cell::num(format!("n/a: {}", r.na), -1.0).align(Align::Left),
    ];
    cells.extend((0..8).map(|_| Cell::num("", -1.0).align(Align::Right)));
    TableRow {
        cells,
        class: Some("na"),
    }
}

fn summary_row(p: &Page<'_>, r: &SummaryRow) -> TableRow {
    let ratio_cell = match throughput_ratio(&p.summary, r) {
        Some(x) => Cell::num(ratio(x), x),
        None => Cell::num("-", f64::MAX),
    };
    let cells = vec![
        Cell::new(r.group()).sort(dataset_index(p.run, &r.dataset)),
        Cell::new(&r.solver).html(solver_html(p, &r.solver)),
        Cell::num(
            format!("{} / {}", count(r.solved), count(r.puzzles)),
            r.solved as f64,
        ),
        Cell::num(unsolved_text(r), unsolved(r) as f64),
        Cell::num(figure(r.median_micros), r.median_micros),
        Cell::num(figure(r.p90_micros), r.p90_micros),
        Cell::num(figure(r.max_micros), r.max_micros),
        Cell::num(rate(r.puzzles_per_second), r.puzzles_per_second),
        Cell::num(count(r.outliers), r.outliers as f64),
        ratio_cell,
        // 0: a solver that reports no nodes (every search counts its root).
        Cell::num(
            if r.mean_nodes > 0.0 {
                figure(r.mean_nodes)
            } else {
                "-".into()
            },
            r.mean_nodes,
        ),
    ];
    TableRow {
        cells,
        class: is_winner(p, r).then_some("best"),
    }
}

/// The dataset's winner in the verdicts (most solved, then the lowest median); none on a
/// dataset too small to rank.
fn is_winner(p: &Page<'_>, r: &SummaryRow) -> bool {
    p.verdicts.iter().any(|v| {
        v.dataset == r.dataset
            && v.shape == r.shape
            && v.ranked.first().is_some_and(|w| {
                w.solver == r.solver
                    && w.solved > 0
                    && w.puzzles - w.invalid >= crate::analysis::stats::MIN_RANKED
            })
    })
}

/// The hardest puzzles: dataset, puzzle, givens, each solver's µs (nodes) or status, and, with
/// `grid`, the 81-character grid (the HTML page lists the grids in a block of their own).
pub fn hardest(p: &Page<'_>, grid: bool) -> Table {
    let mut columns = vec![
        Column::left("dataset"),
        Column::left("puzzle"),
        Column::right("givens"),
    ];
    for sv in &p.run.solvers {
        columns.push(Column::right(sv).html(solver_html(p, sv)));
    }
    if grid {
        columns.push(Column::left("grid"));
    }
    let mut t = Table::new(columns);
    for h in &p.hardest {
        let mut cells = vec![
            Cell::new(&h.dataset),
            Cell::new(&h.puzzle),
            Cell::new(h.givens.to_string()),
        ];
        cells.extend(h.rows.iter().map(|r| hardest_cell(r.as_ref())));
        if grid {
            cells.push(Cell::code(&h.grid));
        }
        t.push(cells);
    }
    t
}

/// One solver's cell of a hard puzzle: `µs (nodes)` (nodes in grey in HTML), `WRONG` when the
/// answer was wrong, the status and time when unsolved, `-` when it did not run.
fn hardest_cell(r: Option<&Row>) -> Cell {
    match r {
        Some(r) if r.status == RowStatus::Solved || r.status == RowStatus::NoSolution => {
            let wrong = r.is_wrong();
            let (micros, nodes) = (figure(r.micros), count(r.nodes as usize));
            Cell::new(format!(
                "{micros} ({nodes}){}",
                if wrong { " WRONG" } else { "" }
            ))
            .html(format!(
                "{}{} <span class=\"sub\">{}</span>",
                if wrong { "WRONG " } else { "" },
                esc(&micros),
                esc(&nodes)
            ))
        }
        Some(r) => Cell::new(format!("{} at {}", r.status, figure(r.micros))),
        None => Cell::new("-"),
    }
}

/// One solver's slowest puzzles: dataset, puzzle, status, µs, nodes, guesses and, with `grid`,
/// the grid (the HTML page lists the grids in a block of their own).
pub fn slowest(rows: &[Row], grid: bool) -> Table {
    let mut columns = vec![
        Column::left("dataset"),
        Column::left("puzzle"),
        Column::left("status"),
        Column::right("µs"),
        Column::right("nodes"),
        Column::right("guesses"),
    ];
    if grid {
        columns.push(Column::left("grid"));
    }
    let mut t = Table::new(columns);
    for r in rows {
        let mut cells = vec![
            Cell::new(&r.dataset),
            Cell::new(&r.puzzle),
            Cell::new(r.status.as_str()),
            Cell::new(figure(r.micros)),
            Cell::new(count(r.nodes as usize)),
            Cell::new(count(r.guesses as usize)),
        ];
        if grid {
            cells.push(Cell::code(&r.grid));
        }
        t.push(cells);
    }
    t
}

/// The hardest puzzles for a page (HTML): a solver a row, a puzzle a column (numbered as the
/// grids listed under it), each cell µs over the nodes in grey, so that twelve solvers and ten
/// puzzles fit an 800-pixel window.
pub fn hardest_by_solver(p: &Page<'_>) -> Table {
    let mut columns = vec![Column::left("solver")];
    for (i, h) in p.hardest.iter().enumerate() {
        columns.push(Column::right(&format!("{}", i + 1)).html(format!(
            "<abbr title=\"{} {}, {} givens\">{}</abbr>",
            esc(&h.dataset),
            esc(&h.puzzle),
            h.givens,
            i + 1
        )));
    }
    let mut t = Table::new(columns);
    for (k, sv) in p.run.solvers.iter().enumerate() {
        let mut cells = vec![Cell::new(sv).html(solver_html(p, sv))];
        for h in &p.hardest {
            let cell = hardest_cell(h.rows.get(k).and_then(Option::as_ref));
            let html = cell
                .html
                .clone()
                .unwrap_or_else(|| esc(&cell.text))
                .replacen(" <span class=\"sub\">", "<br><span class=\"sub\">", 1);
            cells.push(cell.html(html));
        }
        t.push(cells);
    }
    t.html_attrs = " class=\"hardest\"".into();
    t
}

/// One table to read first: solved puzzles per second per solver (a row) and dataset (a
/// column), the dataset's winner in bold, a solver that did not solve every puzzle with its
/// count (`199/200`), `n/a` where it does not take the shape.
pub fn overview(p: &Page<'_>) -> Table {
    let groups = super::groups(p.run, &p.summary);
    let mut columns = vec![Column::left("solver")];
    for (d, shape) in &groups {
        columns.push(Column::right(&crate::analysis::summary::group_name(
            d, shape,
        )));
    }
    let mut t = Table::new(columns);
    for sv in &p.run.solvers {
        let mut cells = vec![Cell::new(sv).html(solver_html(p, sv))];
        for (d, shape) in &groups {
            let r = p
                .summary
                .iter()
                .find(|r| &r.dataset == d && &r.shape == shape && &r.solver == sv);
            cells.push(match r {
                None => Cell::new("-"),
                Some(r) if r.is_na() => Cell::new("n/a"),
                Some(r) => {
                    let mut text = rate(r.puzzles_per_second);
                    if r.solved < r.puzzles {
                        text.push_str(&format!(" ({}/{})", count(r.solved), count(r.puzzles)));
                    }
                    let html = if is_winner(p, r) {
                        format!("<b>{}</b>", esc(&text))
                    } else {
                        esc(&text)
                    };
                    Cell::num(text, r.puzzles_per_second).html(html)
                }
            });
        }
        t.push(cells);
    }
    t.html_attrs = " id=\"overview\"".into();
    t
}

/// The run's datasets: name, source, format, puzzles and invalid entries.
pub fn datasets(run: &Run) -> Table {
    let mut t = Table::new(vec![
        Column::left("dataset"),
        Column::left("source"),
        Column::left("format"),
        Column::right("puzzles"),
        Column::right("invalid"),
    ]);
    for d in &run.info.datasets {
        t.push(vec![
            Cell::new(&d.name),
            Cell::new(&d.source),
            Cell::new(&d.format),
            Cell::new(count(d.puzzles)),
            Cell::new(count(d.invalid)),
        ]);
    }
    t
}
