//! `summary.md`: the report as Markdown (renders on GitHub and in most editors): metadata,
//! verdicts, the summary table, the slowest puzzles per solver with their 81-character grids, the
//! puzzles hardest for every solver, and the plots (relative SVG links).

use super::{metadata, throughput_ratio, unsolved_text, verdict_text, Page, RATIO};
use crate::human::{count, figure};
use crate::record::RowStatus;
use crate::summary::PUZZLES_PER_SECOND;
use std::fmt::Write;

/// Escapes a table cell: `|` and line breaks.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Renders the page as Markdown.
pub fn render(p: &Page<'_>) -> String {
    let run = p.run;
    let mut s = String::new();
    let _ = writeln!(s, "# Sudoku solver run: {}\n", run.info.date);
    let wrong: usize = p.summary.iter().map(|r| r.wrong).sum();
    if wrong > 0 {
        let _ = writeln!(
            s,
            "> **{wrong} wrong answer(s)**: see the `error` column of `results.csv`.\n"
        );
    }
    let notes = [
        super::partial_note(p),
        super::noise_note(&run.info, &p.summary),
    ];
    for (head, text) in notes.into_iter().flatten() {
        let _ = writeln!(s, "> **{head}**: {text}\n");
    }
    let _ = writeln!(s, "## Who wins where\n");
    for v in &p.verdicts {
        let _ = writeln!(s, "- **{}**: {}", cell(&v.group()), cell(&verdict_text(v)));
    }
    let _ = writeln!(s, "\n## Summary\n");
    let _ = writeln!(
        s,
        "| dataset | solver | solved | unsolved | median µs | p90 µs | max µs | puzzles/s | outliers | ratio | mean nodes |"
    );
    let _ = writeln!(s, "|---|---|--:|---|--:|--:|--:|--:|--:|--:|--:|");
    for r in &p.summary {
        if r.is_na() {
            // A solver whose caps do not take the shape: no rows, one cell saying why.
            let _ = writeln!(
                s,
                "| {} | {} | n/a: {} | | | | | | | | |",
                cell(&r.group()),
                cell(&r.solver),
                cell(&r.na)
            );
            continue;
        }
        let ratio = throughput_ratio(&p.summary, r).map_or("-".into(), crate::human::ratio);
        let _ = writeln!(
            s,
            "| {} | {} | {} / {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&r.group()),
            cell(&r.solver),
            count(r.solved),
            count(r.puzzles),
            unsolved_text(r),
            figure(r.median_micros),
            figure(r.p90_micros),
            figure(r.max_micros),
            crate::human::rate(r.puzzles_per_second),
            count(r.outliers),
            ratio,
            figure(r.mean_nodes)
        );
    }
    let _ = writeln!(
        s,
        "\nTimes are µs per puzzle over the readable puzzles (a timeout counts at the time it gave \
         up). {PUZZLES_PER_SECOND} {RATIO}\n"
    );
    s.push_str(&super::rigor::markdown(&p.sections));
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
    let _ = writeln!(s, "## Hardest puzzles\n");
    let _ = writeln!(
        s,
        "The {} puzzles on which even the fastest solver took longest; each cell is µs (nodes).\n",
        p.hardest.len()
    );
    let mut head = "| dataset | puzzle | givens |".to_string();
    let mut rule = "|---|---|--:|".to_string();
    for sv in &run.solvers {
        head.push_str(&format!(" {} |", cell(sv)));
        rule.push_str("--:|");
    }
    head.push_str(" grid |");
    rule.push_str("---|");
    let _ = writeln!(s, "{head}\n{rule}");
    for h in &p.hardest {
        let mut line = format!(
            "| {} | {} | {} |",
            cell(&h.dataset),
            cell(&h.puzzle),
            h.givens
        );
        for r in &h.rows {
            line.push_str(&match r {
                Some(r) if r.status == RowStatus::Solved || r.status == RowStatus::NoSolution => {
                    format!(
                        " {} ({}){} |",
                        figure(r.micros),
                        count(r.nodes as usize),
                        if r.is_wrong() { " WRONG" } else { "" }
                    )
                }
                Some(r) => format!(" {} at {} |", r.status, figure(r.micros)),
                None => " - |".into(),
            });
        }
        line.push_str(&format!(" `{}` |", h.grid));
        let _ = writeln!(s, "{line}");
    }
    let _ = writeln!(s, "\n## Slowest puzzles per solver\n");
    for (solver, rows) in &p.slowest {
        let _ = writeln!(s, "### {solver}\n");
        let _ = writeln!(
            s,
            "| dataset | puzzle | status | µs | nodes | guesses | grid |\n|---|---|---|--:|--:|--:|---|"
        );
        for r in rows {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | `{}` |",
                cell(&r.dataset),
                cell(&r.puzzle),
                r.status,
                figure(r.micros),
                count(r.nodes as usize),
                count(r.guesses as usize),
                r.grid
            );
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "## Run\n\n| | |\n|---|---|");
    for (k, v) in metadata(run) {
        let _ = writeln!(s, "| {} | {} |", cell(&k), cell(&v));
    }
    let _ = writeln!(
        s,
        "\n| dataset | source | format | puzzles | invalid |\n|---|---|---|--:|--:|"
    );
    for d in &run.info.datasets {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            cell(&d.name),
            cell(&d.source),
            d.format,
            d.puzzles,
            d.invalid
        );
    }
    let _ = writeln!(
        s,
        "\nRendered by `harness report` from `results.csv` and `run.json`."
    );
    s
}
