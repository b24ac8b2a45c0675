//! `index.html`: the report for a browser, readable offline: one self-contained page with inline
//! CSS, the plots as relative `<img src="plots/...svg">` links, no web font and nothing from the
//! network.
//!
//! Layout rules (checked by the report tests, and in headless Chromium by an `#[ignore]`d test):
//! no table cell wraps (`white-space: nowrap`; a table wider than the page scrolls inside its own
//! box instead), figures are tabular (monospace digits), every time column holds one unit, and
//! 81-character grids are monospace, in a block that scrolls sideways when the page is narrow. The one inline script only makes the
//! summary table sortable by clicking a column's header; without it the page is complete.

use super::style::{css, solver_color};
use super::{metadata, throughput_ratio, unsolved, unsolved_text, verdict, Page, RATIO};
use crate::human::{count, figure};
use crate::record::RowStatus;
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

/// The page's style sheet.
pub const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:1360px;padding:0 1em;color:#222;line-height:1.45}\
h1{font-size:1.6em}h2{margin-top:1.8em;border-bottom:1px solid #ddd}\
.scroll{overflow-x:auto;max-width:100%}\
table{border-collapse:collapse;margin:.6em 0;font-size:.92em}th,td{border:1px solid #ddd;padding:3px 7px;white-space:nowrap}\
th{background:#f4f4f4;text-align:left}td.n,th.n{text-align:right}td.n{font-variant-numeric:tabular-nums lining-nums}\
code{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.9em}\
pre.grids{max-width:100%;overflow-x:auto;background:#fafafa;border:1px solid #eee;padding:.5em .8em;font-size:.95em}\
.nw{white-space:nowrap}.sub{color:#666}\
.sw{display:inline-block;width:.9em;height:.9em;border-radius:2px;margin-right:.35em;vertical-align:-1px}\
.warn{background:#fdecea;border-left:4px solid #e15759;padding:.5em 1em}\
ul.verdicts li{margin:.35em 0}\
figure{margin:1.2em 0}figure img{max-width:100%;height:auto;border:1px solid #eee}figcaption{color:#555;font-size:.92em;max-width:60em}\
.best td{font-weight:bold}\
table.sorting th{cursor:pointer}table.sorting th:hover{background:#e8e8e8}\
th[aria-sort=ascending]::after{content:' \\25B2'}th[aria-sort=descending]::after{content:' \\25BC'}";

/// The inline script: click (or Enter on) a header of a `table.sortable` to sort its body by that
/// column (numbers by their `data-v`, the rest as text), again to reverse. Rows keep their order
/// among equals (Array.prototype.sort is stable).
pub const SORT_SCRIPT: &str = "document.querySelectorAll('table.sortable').forEach(function(t){\
t.classList.add('sorting');var hs=t.tHead.rows[0].cells,b=t.tBodies[0];\
Array.prototype.forEach.call(hs,function(th,i){th.tabIndex=0;th.title='sort by '+th.textContent;\
function go(){var up=th.getAttribute('aria-sort')!=='ascending';\
Array.prototype.forEach.call(hs,function(h){h.removeAttribute('aria-sort')});\
th.setAttribute('aria-sort',up?'ascending':'descending');\
var key=function(r){var c=r.cells[i],v=c.getAttribute('data-v');return v===null?c.textContent:parseFloat(v)};\
var rows=Array.prototype.slice.call(b.rows);\
rows.sort(function(x,y){var a=key(x),c=key(y),d=typeof a==='number'?a-c:String(a).localeCompare(String(c));return up?d:-d});\
rows.forEach(function(r){b.appendChild(r)})}\
th.addEventListener('click',go);th.addEventListener('keydown',function(e){if(e.key==='Enter')go()})})});";

fn swatch(p: &Page<'_>, name: &str) -> String {
    let i = p.run.solvers.iter().position(|s| s == name).unwrap_or(0);
    format!(
        "<span class=\"sw\" style=\"background:{}\"></span>",
        css(solver_color(name, i))
    )
}

fn solver(p: &Page<'_>, name: &str) -> String {
    format!("{}{}", swatch(p, name), esc(name))
}

/// A number cell: right-aligned text, and its value for sorting.
fn num(text: &str, v: f64) -> String {
    format!("<td class=n data-v=\"{v}\">{}</td>", esc(text))
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
            "<p class=\"warn\"><b>{} wrong answer(s)</b>: see the <code>error</code> column of <code>results.csv</code>.</p>",
            count(wrong)
        );
    }
    let notes = [
        super::partial_note(p),
        super::noise_note(&run.info, &p.summary),
    ];
    for (head, text) in notes.into_iter().flatten() {
        let _ = writeln!(
            s,
            "<p class=\"warn\"><b>{}</b>: {}</p>",
            esc(&head),
            esc(&text)
        );
    }
    let _ = writeln!(
        s,
        "<h2 id=\"verdicts\">Who wins where</h2>\n<ul class=\"verdicts\">"
    );
    for v in &p.verdicts {
        let t = verdict(v);
        let _ = write!(s, "<li><b>{}</b>: {}", esc(&v.group()), esc(&t.head));
        if !t.others.is_empty() {
            let _ = write!(s, ". Median time per puzzle against it: ");
            let parts: Vec<String> = t
                .others
                .iter()
                .map(|(n, r, more)| {
                    format!(
                        "<span class=\"nw\">{} {}{}</span>",
                        solver(p, n),
                        esc(r),
                        esc(more)
                    )
                })
                .collect();
            s.push_str(&parts.join("; "));
        }
        let _ = writeln!(s, ".</li>");
    }
    let _ = writeln!(
        s,
        "</ul>\n<h2 id=\"summary\">Summary</h2>\n<div class=\"scroll\"><table class=\"sortable\" id=\"summary-table\">\n\
         <thead><tr><th>dataset</th><th>solver</th><th class=n>solved</th><th>unsolved</th>\
         <th class=n>median µs</th><th class=n>p90 µs</th><th class=n>max µs</th>\
         <th class=n>puzzles/s</th><th class=n>outliers</th><th class=n>ratio</th><th class=n>mean nodes</th></tr></thead>\n<tbody>"
    );
    for r in &p.summary {
        let di = run
            .datasets
            .iter()
            .position(|d| d == &r.dataset)
            .unwrap_or(0);
        if r.is_na() {
            // A solver whose caps do not take the shape: no rows, the solved cell says why
            // and the others are blank (a cell per column, so the table still sorts).
            let _ = writeln!(
                s,
                "<tr class=\"na\"><td data-v=\"{di}\">{}</td><td>{}</td><td data-v=\"-1\">n/a: {}</td>{}</tr>",
                esc(&r.group()),
                solver(p, &r.solver),
                esc(&r.na),
                "<td class=n data-v=\"-1\"></td>".repeat(8)
            );
            continue;
        }
        let ratio = throughput_ratio(&p.summary, r);
        // Bold: the dataset's winner in the verdicts (most solved, then the lowest median);
        // none on a dataset too small to rank.
        let best = p.verdicts.iter().any(|v| {
            v.dataset == r.dataset
                && v.shape == r.shape
                && v.ranked.first().is_some_and(|w| {
                    w.solver == r.solver
                        && w.solved > 0
                        && w.puzzles - w.invalid >= crate::stats::MIN_RANKED
                })
        });
        let _ = writeln!(
            s,
            "<tr{}><td data-v=\"{di}\">{}</td><td>{}</td>{}<td data-v=\"{}\">{}</td>{}{}{}{}{}{}{}</tr>",
            if best { " class=\"best\"" } else { "" },
            esc(&r.group()),
            solver(p, &r.solver),
            num(
                &format!("{} / {}", count(r.solved), count(r.puzzles)),
                r.solved as f64
            ),
            unsolved(r),
            esc(&unsolved_text(r)),
            num(&figure(r.median_micros), r.median_micros),
            num(&figure(r.p90_micros), r.p90_micros),
            num(&figure(r.max_micros), r.max_micros),
            num(&crate::human::rate(r.puzzles_per_second), r.puzzles_per_second),
            num(&count(r.outliers), r.outliers as f64),
            match ratio {
                Some(x) => num(&crate::human::ratio(x), x),
                None => num("-", f64::MAX),
            },
            num(&figure(r.mean_nodes), r.mean_nodes)
        );
    }
    let _ = writeln!(
        s,
        "</tbody></table></div>\n<p class=\"sub\">Times are µs per puzzle over the readable \
         puzzles (a timeout counts at the time it gave up). {} {}</p>",
        esc(crate::summary::PUZZLES_PER_SECOND),
        esc(RATIO)
    );
    s.push_str(&super::rigor::html(&p.sections, esc));
    let _ = writeln!(s, "<h2 id=\"plots\">Plots</h2>");
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
        "<h2 id=\"hardest\">Hardest puzzles</h2>\n<p>The {} puzzles on which even the fastest solver took \
         longest. Each cell: µs, then search-tree nodes in grey.</p>\n<div class=\"scroll\"><table>\n\
         <tr><th>dataset</th><th>puzzle</th><th class=n>givens</th>",
        p.hardest.len()
    );
    for sv in &run.solvers {
        let _ = write!(s, "<th class=n>{}</th>", solver(p, sv));
    }
    let _ = writeln!(s, "</tr>");
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
                        "{}{} <span class=\"sub\">{}</span>",
                        if r.is_wrong() { "WRONG " } else { "" },
                        esc(&figure(r.micros)),
                        esc(&count(r.nodes as usize))
                    )
                }
                Some(r) => format!("{} at {}", esc(r.status.as_str()), esc(&figure(r.micros))),
                None => "-".into(),
            };
            let _ = write!(s, "<td class=n>{cell}</td>");
        }
        let _ = writeln!(s, "</tr>");
    }
    let _ = writeln!(s, "</table></div>\n<p>Their grids (81 characters, <code>.</code> = empty; a line saved to a file is a dataset for <code>--dataset</code>):</p>");
    let _ = write!(s, "<pre class=\"grids\"><code>");
    let name_w = p
        .hardest
        .iter()
        .map(|h| h.dataset.chars().count() + h.puzzle.chars().count() + 1)
        .max()
        .unwrap_or(0);
    for h in &p.hardest {
        let label = format!("{} {}", h.dataset, h.puzzle);
        let pad = name_w.saturating_sub(label.chars().count());
        let _ = writeln!(s, "{}{}  {}", esc(&label), " ".repeat(pad), esc(&h.grid));
    }
    let _ = writeln!(
        s,
        "</code></pre>\n<h2 id=\"slowest\">Slowest puzzles per solver</h2>"
    );
    for (sv, rows) in &p.slowest {
        let _ = writeln!(
            s,
            "<h3>{}</h3>\n<div class=\"scroll\"><table><tr><th>dataset</th><th>puzzle</th><th>status</th>\
             <th class=n>µs</th><th class=n>nodes</th><th class=n>guesses</th><th>grid</th></tr>",
            solver(p, sv)
        );
        for r in rows {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td><code>{}</code></td></tr>",
                esc(&r.dataset),
                esc(&r.puzzle),
                esc(r.status.as_str()),
                esc(&figure(r.micros)),
                count(r.nodes as usize),
                count(r.guesses as usize),
                esc(&r.grid)
            );
        }
        let _ = writeln!(s, "</table></div>");
    }
    let _ = writeln!(s, "<h2 id=\"run\">Run</h2>\n<div class=\"scroll\"><table>");
    for (k, v) in metadata(run) {
        let _ = writeln!(s, "<tr><th>{}</th><td>{}</td></tr>", esc(&k), esc(&v));
    }
    let _ = writeln!(s, "</table></div>\n<div class=\"scroll\"><table><tr><th>dataset</th><th>source</th><th>format</th><th class=n>puzzles</th><th class=n>invalid</th></tr>");
    for d in &run.info.datasets {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td></tr>",
            esc(&d.name),
            esc(&d.source),
            esc(&d.format),
            count(d.puzzles),
            count(d.invalid)
        );
    }
    let _ = writeln!(
        s,
        "</table></div>\n<p>Rendered by <code>harness report</code> from <code>results.csv</code> and <code>run.json</code>.</p>\n\
         <script>{SORT_SCRIPT}</script>\n</body></html>"
    );
    s
}
