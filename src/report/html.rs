//! `index.html`: the report for a browser, readable offline: one self-contained page with inline
//! CSS, the plots as relative `<img src="plots/...svg">` links, no script and no web font.

use super::style::{css, solver_color};
use super::{fmt_pps, fmt_ratio, metadata, slower_than_fastest, verdict_text, Page, VS_FASTEST};
use crate::record::RowStatus;
use crate::summary::human_micros;
use std::fmt::Write;

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}\
h1{font-size:1.6em}h2{margin-top:1.8em;border-bottom:1px solid #ddd}\
table{border-collapse:collapse;margin:.6em 0;font-size:.92em}th,td{border:1px solid #ddd;padding:3px 8px}\
th{background:#f4f4f4}td.n{text-align:right;font-variant-numeric:tabular-nums}\
code{font-family:ui-monospace,monospace;font-size:.9em}\
.sw{display:inline-block;width:.9em;height:.9em;border-radius:2px;margin-right:.35em;vertical-align:-1px}\
.warn{background:#fdecea;border-left:4px solid #e15759;padding:.5em 1em}\
figure{margin:1.2em 0}figure img{max-width:100%;border:1px solid #eee}figcaption{color:#555;font-size:.92em}\
.best{font-weight:bold}";

fn solver(p: &Page<'_>, name: &str) -> String {
    let i = p.run.solvers.iter().position(|s| s == name).unwrap_or(0);
    format!(
        "<span class=\"sw\" style=\"background:{}\"></span>{}",
        css(solver_color(name, i)),
        esc(name)
    )
}

/// Renders the page as HTML.
pub fn render(p: &Page<'_>) -> String {
    let run = p.run;
    let mut s = String::new();
    let title = format!("Sudoku solver run: {}", run.info.date);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        esc(&title),
        esc(&title)
    );
    let wrong: usize = p.summary.iter().map(|r| r.wrong).sum();
    if wrong > 0 {
        let _ = writeln!(
            s,
            "<p class=\"warn\"><b>{wrong} wrong answer(s)</b>: see the <code>error</code> column of <code>results.csv</code>.</p>"
        );
    }
    if run.info.interrupted {
        let _ = writeln!(
            s,
            "<p class=\"warn\"><b>Interrupted run</b>: the rows cover only the solves that finished.</p>"
        );
    }
    let _ = writeln!(s, "<h2>Who wins where</h2>\n<ul>");
    for v in &p.verdicts {
        let _ = writeln!(
            s,
            "<li><b>{}</b>: {}</li>",
            esc(&v.dataset),
            esc(&verdict_text(v))
        );
    }
    let _ = writeln!(s, "</ul>\n<h2>Summary</h2>\n<table>\n<tr><th>dataset</th><th>solver</th><th>puzzles</th><th>solved</th><th>wrong</th><th>timeouts</th><th>median</th><th>p90</th><th>max</th><th>puzzles/s</th><th>vs fastest (puzzles/s)</th><th>mean nodes</th></tr>");
    for r in &p.summary {
        let x = slower_than_fastest(&p.summary, r);
        let best = matches!(x, Some(x) if x < 1.0005);
        let vs = match x {
            Some(_) if best => "fastest".to_string(),
            Some(x) => format!("{}× slower", fmt_ratio(x)),
            None => "-".into(),
        };
        let _ = writeln!(
            s,
            "<tr{}><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{:.0}</td></tr>",
            if best { " class=\"best\"" } else { "" },
            esc(&r.dataset),
            solver(p, &r.solver),
            r.puzzles,
            r.solved,
            r.wrong,
            r.timeouts,
            esc(&human_micros(r.median_micros)),
            esc(&human_micros(r.p90_micros)),
            esc(&human_micros(r.max_micros)),
            esc(&fmt_pps(r.puzzles_per_second)),
            esc(&vs),
            r.mean_nodes
        );
    }
    let _ = writeln!(
        s,
        "</table>\n<p>Times are µs per puzzle over the readable puzzles (a timeout counts at the \
         time it gave up); puzzles/s is puzzles / total solver time on one thread. {}</p>\n<h2>Plots</h2>",
        esc(VS_FASTEST)
    );
    for pl in &p.plots {
        let _ = writeln!(
            s,
            "<figure><img src=\"{}\" alt=\"{}\"><figcaption><b>{}.</b> {}{}</figcaption></figure>",
            esc(&pl.svg),
            esc(&pl.title),
            esc(&pl.title),
            esc(&pl.caption),
            pl.png
                .as_ref()
                .map(|png| format!(" (<a href=\"{}\">PNG</a>)", esc(png)))
                .unwrap_or_default()
        );
    }
    let _ = writeln!(
        s,
        "<h2>Hardest puzzles</h2>\n<p>The {} puzzles on which even the fastest solver took longest; each cell is time (nodes).</p>\n<table>\n<tr><th>dataset</th><th>puzzle</th><th>givens</th>",
        p.hardest.len()
    );
    for sv in &run.solvers {
        let _ = write!(s, "<th>{}</th>", solver(p, sv));
    }
    let _ = writeln!(s, "<th>grid</th></tr>");
    for h in &p.hardest {
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td class=n>{}</td>",
            esc(&h.dataset),
            esc(&h.puzzle),
            h.givens
        );
        for r in &h.rows {
            let cell = match r {
                Some(r) if r.status == RowStatus::Solved || r.status == RowStatus::NoSolution => {
                    format!(
                        "{} ({}){}",
                        human_micros(r.micros),
                        fmt_pps(r.nodes as f64),
                        if r.is_wrong() { " WRONG" } else { "" }
                    )
                }
                Some(r) => format!("{} at {}", r.status, human_micros(r.micros)),
                None => "-".into(),
            };
            let _ = write!(s, "<td class=n>{}</td>", esc(&cell));
        }
        let _ = writeln!(s, "<td><code>{}</code></td></tr>", esc(&h.grid));
    }
    let _ = writeln!(s, "</table>\n<h2>Slowest puzzles per solver</h2>");
    for (sv, rows) in &p.slowest {
        let _ = writeln!(
            s,
            "<h3>{}</h3>\n<table><tr><th>dataset</th><th>puzzle</th><th>status</th><th>time</th><th>nodes</th><th>guesses</th><th>grid</th></tr>",
            solver(p, sv)
        );
        for r in rows {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td><code>{}</code></td></tr>",
                esc(&r.dataset),
                esc(&r.puzzle),
                esc(r.status.as_str()),
                esc(&human_micros(r.micros)),
                r.nodes,
                r.guesses,
                esc(&r.grid)
            );
        }
        let _ = writeln!(s, "</table>");
    }
    let _ = writeln!(s, "<h2>Run</h2>\n<table>");
    for (k, v) in metadata(run) {
        let _ = writeln!(s, "<tr><th>{}</th><td>{}</td></tr>", esc(&k), esc(&v));
    }
    let _ = writeln!(s, "</table>\n<table><tr><th>dataset</th><th>source</th><th>format</th><th>puzzles</th><th>invalid</th></tr>");
    for d in &run.info.datasets {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td></tr>",
            esc(&d.name),
            esc(&d.source),
            esc(&d.format),
            d.puzzles,
            d.invalid
        );
    }
    let _ = writeln!(
        s,
        "</table>\n<p>Rendered by <code>harness report</code> from <code>results.csv</code> and <code>run.json</code>.</p>\n</body></html>"
    );
    s
}
