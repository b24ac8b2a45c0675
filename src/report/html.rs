//! `index.html`: the report for a browser, readable offline: one self-contained page with inline
//! CSS, the plots as relative `<img src="plots/...svg">` links, no web font and nothing from the
//! network.
//!
//! Layout rules (checked by the report tests, and in headless Chromium by an `#[ignore]`d test):
//! no table cell wraps (`white-space: nowrap`; a table wider than the page scrolls inside its own
//! box instead), the summary table of a default run fits a 1,000-pixel window (short headers
//! with a legend, a smaller font, narrower padding), figures are tabular (monospace digits),
//! every time column holds one unit, and
//! 81-character grids are monospace, in a block that scrolls sideways when the page is narrow. The one inline script only makes the
//! summary table sortable by clicking a column's header; without it the page is complete.

use super::{metadata, tables, verdict, Page};
use std::fmt::Write;

pub use crate::table::esc;

/// The page's style sheet.
pub const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:1360px;padding:0 1em;color:#222;line-height:1.45}\
h1{font-size:1.6em}h2{margin-top:1.8em;border-bottom:1px solid #ddd}\
.scroll{overflow-x:auto;max-width:100%}\
table{border-collapse:collapse;margin:.6em 0;font-size:.92em}th,td{border:1px solid #ddd;padding:3px 7px;white-space:nowrap}\
#summary-table{font-size:.86em}#summary-table th,#summary-table td{padding:3px}\
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

fn solver(p: &Page<'_>, name: &str) -> String {
    tables::solver_html(p, name)
}

/// Renders the page as HTML.
pub fn render(p: &Page<'_>) -> String {
    let title = format!("Sudoku solver run: {}", p.run.info.date);
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        esc(&title),
        esc(&title)
    );
    warnings(p, &mut s);
    verdicts(p, &mut s);
    let _ = writeln!(s, "<h2 id=\"summary\">Summary</h2>");
    s.push_str(&tables::summary_html(p));
    s.push_str(&super::rigor::html(&p.sections, esc));
    plots(p, &mut s);
    hardest(p, &mut s);
    slowest(p, &mut s);
    run_facts(p, &mut s);
    let _ = writeln!(
        s,
        "<p>Rendered by <code>harness report</code> from <code>results.csv</code> and <code>run.json</code>.</p>\n\
         <script>{SORT_SCRIPT}</script>\n</body></html>"
    );
    s
}

/// Wrong answers, a partial run, a noisy machine: boxed at the top.
fn warnings(p: &Page<'_>, s: &mut String) {
    let wrong: usize = p.summary.iter().map(|r| r.wrong).sum();
    if wrong > 0 {
        let _ = writeln!(
            s,
            "<p class=\"warn\"><b>{}</b>: see the <code>error</code> column of <code>results.csv</code>.</p>",
            crate::human::plural(wrong, "wrong answer")
        );
    }
    let notes = [
        super::partial_note(p),
        super::noise_note(&p.run.info, &p.summary),
    ];
    for (head, text) in notes.into_iter().flatten() {
        let _ = writeln!(
            s,
            "<p class=\"warn\"><b>{}</b>: {}</p>",
            esc(&head),
            esc(&text)
        );
    }
}

fn verdicts(p: &Page<'_>, s: &mut String) {
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
    let _ = writeln!(s, "</ul>");
}

fn plots(p: &Page<'_>, s: &mut String) {
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
}

/// The hardest puzzles' table, then their grids in a block that scrolls sideways.
fn hardest(p: &Page<'_>, s: &mut String) {
    let _ = writeln!(
        s,
        "<h2 id=\"hardest\">Hardest puzzles</h2>\n<p>The {} puzzles on which even the fastest solver took \
         longest. Each cell: µs, then search-tree nodes in grey.</p>",
        p.hardest.len()
    );
    s.push_str(&tables::hardest(p, false).html());
    let _ = writeln!(s, "<p>Their grids (81 characters, <code>.</code> = empty; a line saved to a file is a dataset for <code>--dataset</code>):</p>");
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
    let _ = writeln!(s, "</code></pre>");
}

fn slowest(p: &Page<'_>, s: &mut String) {
    let _ = writeln!(s, "<h2 id=\"slowest\">Slowest puzzles per solver</h2>");
    for (sv, rows) in &p.slowest {
        let _ = writeln!(s, "<h3>{}</h3>", solver(p, sv));
        s.push_str(&tables::slowest(rows).html());
    }
}

/// The run's metadata and its datasets.
fn run_facts(p: &Page<'_>, s: &mut String) {
    let _ = writeln!(s, "<h2 id=\"run\">Run</h2>\n<div class=\"scroll\"><table>");
    for (k, v) in metadata(p.run) {
        let _ = writeln!(s, "<tr><th>{}</th><td>{}</td></tr>", esc(&k), esc(&v));
    }
    let _ = writeln!(s, "</table></div>");
    s.push_str(&tables::datasets(p.run).html());
}
