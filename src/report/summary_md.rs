//! `summary.md`: the report as Markdown (renders on GitHub and in most editors): metadata,
//! verdicts, the summary table, the slowest puzzles per solver with their 81-character grids, the
//! puzzles hardest for every solver, and the plots (relative SVG links).

use super::{metadata, tables, verdict_text, Page};
use crate::analysis::table::markdown_text;
use std::fmt::Write;

/// Escapes a table cell: `|` and line breaks.
fn cell(s: &str) -> String {
    markdown_text(s)
}

/// Renders the page as Markdown.
pub fn render(p: &Page<'_>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Sudoku solver run: {}\n", p.run.info.date);
    warnings(p, &mut s);
    let _ = writeln!(s, "## Who wins where\n");
    for v in &p.verdicts {
        let _ = writeln!(s, "- **{}**: {}", cell(&v.group()), cell(&verdict_text(v)));
    }
    let _ = writeln!(s, "\n## Summary\n");
    s.push_str(&tables::summary(p).markdown());
    s.push('\n');
    s.push_str(&super::rigor::markdown(&p.sections));
    plots(p, &mut s);
    hardest(p, &mut s);
    slowest(p, &mut s);
    run_facts(p, &mut s);
    let _ = writeln!(
        s,
        "\nRendered by `harness report` from `results.csv` and `run.json`."
    );
    s
}

/// Wrong answers, a partial run, a noisy machine: quoted at the top.
fn warnings(p: &Page<'_>, s: &mut String) {
    super::write_warnings(
        p,
        s,
        |n| format!("> **{n}**: see the `error` column of `results.csv`.\n"),
        |head, text| format!("> **{head}**: {text}\n"),
    );
}

fn plots(p: &Page<'_>, s: &mut String) {
    let _ = writeln!(s, "## Plots\n");
    for pl in &p.plots {
        let _ = writeln!(s, "### {}\n", pl.title);
        let _ = writeln!(s, "![{}]({})\n", pl.title, pl.svg);
        let _ = write!(s, "{}", pl.caption);
        if let Some(png) = &pl.png {
            let _ = write!(s, " PNG: [{png}]({png}).");
        }
        let _ = writeln!(s, "\n");
    }
}

fn hardest(p: &Page<'_>, s: &mut String) {
    let _ = writeln!(s, "## Hardest puzzles\n");
    let _ = writeln!(
        s,
        "The {} puzzles on which even the fastest solver took longest; each cell is µs (nodes).\n",
        p.hardest.len()
    );
    s.push_str(&tables::hardest(p, true).markdown());
}

fn slowest(p: &Page<'_>, s: &mut String) {
    let _ = writeln!(s, "\n## Slowest puzzles per solver\n");
    for (solver, rows) in &p.slowest {
        let _ = writeln!(s, "### {solver}\n");
        s.push_str(&tables::slowest(rows, true).markdown());
        let _ = writeln!(s);
    }
}

/// The run's metadata and its datasets.
fn run_facts(p: &Page<'_>, s: &mut String) {
    let _ = writeln!(s, "## Run\n\n| | |\n|---|---|");
    for (k, v) in metadata(p.run) {
        let _ = writeln!(s, "| {} | {} |", cell(&k), cell(&v));
    }
    let _ = writeln!(s);
    s.push_str(&tables::datasets(p.run).markdown());
}
