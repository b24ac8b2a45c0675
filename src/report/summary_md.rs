//! `summary.md`: the report as Markdown (renders on GitHub and in most editors): metadata,
//! verdicts, the summary table, the slowest puzzles per solver with their 81-character grids, the
//! puzzles hardest for every solver, and the plots (relative SVG links).

use super::{fmt_pps, fmt_ratio, metadata, slower_than_fastest, verdict_text, Page, VS_FASTEST};
use crate::record::RowStatus;
use crate::summary::human_micros;
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
    if run.info.interrupted {
        let _ = writeln!(
            s,
            "> **Interrupted run**: the rows cover only the solves that finished.\n"
        );
    }
    let _ = writeln!(s, "## Who wins where\n");
    for v in &p.verdicts {
        let _ = writeln!(s, "- **{}**: {}", cell(&v.dataset), cell(&verdict_text(v)));
    }
    let _ = writeln!(s, "\n## Summary\n");
    let _ = writeln!(
        s,
        "| dataset | solver | puzzles | solved | wrong | timeouts | median | p90 | max | puzzles/s | vs fastest (puzzles/s) | mean nodes |"
    );
    let _ = writeln!(s, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for r in &p.summary {
        let vs = match slower_than_fastest(&p.summary, r) {
            Some(x) if x < 1.0005 => "fastest".to_string(),
            Some(x) => format!("{}× slower", fmt_ratio(x)),
            None => "-".into(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0} |",
            cell(&r.dataset),
            cell(&r.solver),
            r.puzzles,
            r.solved,
            r.wrong,
            r.timeouts,
            human_micros(r.median_micros),
            human_micros(r.p90_micros),
            human_micros(r.max_micros),
            fmt_pps(r.puzzles_per_second),
            vs,
            r.mean_nodes
        );
    }
    let _ = writeln!(
        s,
        "\nTimes are µs per puzzle over the readable puzzles (a timeout counts at the time it gave \
         up); puzzles/s is puzzles / total solver time on one thread. {VS_FASTEST}\n"
    );
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
        "The {} puzzles on which even the fastest solver took longest; each cell is time (nodes).\n",
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
                        human_micros(r.micros),
                        fmt_pps(r.nodes as f64),
                        if r.is_wrong() { " WRONG" } else { "" }
                    )
                }
                Some(r) => format!(" {} at {} |", r.status, human_micros(r.micros)),
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
            "| dataset | puzzle | status | time | nodes | guesses | grid |\n|---|---|---|--:|--:|--:|---|"
        );
        for r in rows {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | `{}` |",
                cell(&r.dataset),
                cell(&r.puzzle),
                r.status,
                human_micros(r.micros),
                r.nodes,
                r.guesses,
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
