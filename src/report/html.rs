//! `index.html` and its two linked pages, the report for a browser, readable offline: each page
//! self-contained with inline CSS, the plots as relative `<img src="plots/...svg">` links, no web
//! font and nothing from the network. `index.html` starts with what a reader wants: the verdicts,
//! one table (puzzles/s per solver and dataset), one plot (the cactus plot of the largest ranked
//! dataset); then the full summary table and the run's facts. `plots.html` holds every plot,
//! `details.html` the statistics sections and the hardest and slowest puzzles.
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

pub use crate::analysis::table::esc;

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
th[aria-sort=ascending]::after{content:' \\25B2'}th[aria-sort=descending]::after{content:' \\25BC'}\
nav.pages{margin:.4em 0 1em;color:#555}nav.pages a{margin-right:1em}\
td.two,th.two{line-height:1.25}table.facts td{white-space:normal;overflow-wrap:anywhere;max-width:60em}\
figure.small img{max-width:720px}\
@media (max-width:900px){body{margin:1em auto;padding:0 .5em}table{font-size:.8em}th,td{padding:2px 4px}\
#summary-table{font-size:.66em}#summary-table th,#summary-table td{padding:2px}}";

/// The page of every plot, beside `index.html`.
pub const PLOTS_PAGE: &str = "plots.html";

/// The page of the statistics sections and the hardest and slowest puzzles.
pub const DETAILS_PAGE: &str = "details.html";

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

/// The head of a page titled `title`, through its `<h1>`.
fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        esc(title),
        esc(title)
    )
}

/// The links between the three pages, `here` in plain text.
fn nav(here: &str) -> String {
    let pages = [
        ("index.html", "Verdicts and summary"),
        (PLOTS_PAGE, "All plots"),
        (DETAILS_PAGE, "Statistics and hardest puzzles"),
    ];
    let links: Vec<String> = pages
        .iter()
        .map(|(file, text)| {
            if *file == here {
                format!("<b>{text}</b>")
            } else {
                format!("<a href=\"{file}\">{text}</a>")
            }
        })
        .collect();
    format!("<nav class=\"pages\">{}</nav>\n", links.join(" "))
}

/// The page title of the run.
fn title(p: &Page<'_>) -> String {
    format!("Sudoku solver run: {}", p.run.info.date)
}

/// Renders `index.html`: the verdicts, one table, one plot, then the summary table and the run.
pub fn render(p: &Page<'_>) -> String {
    let mut s = head(&title(p));
    warnings(p, &mut s);
    s.push_str(&nav("index.html"));
    verdicts(p, &mut s);
    let _ = writeln!(
        s,
        "<h2 id=\"throughput\">Solved puzzles per second</h2>\n<p>Per solver and dataset, on one \
         thread, from the median time per puzzle; bold: the dataset's winner. Every figure is in \
         the summary below, every plot on <a href=\"{PLOTS_PAGE}\">the plots page</a>.</p>"
    );
    s.push_str(&tables::overview(p).html());
    if let Some(lead) = lead_plot(p) {
        figure(&mut s, lead);
    }
    let _ = writeln!(s, "<h2 id=\"summary\">Summary</h2>");
    s.push_str(&tables::summary_html(p));
    run_facts(p, &mut s);
    let _ = writeln!(
        s,
        "<p>Rendered by <code>harness report</code> from <code>results.csv</code> and <code>run.json</code>.</p>\n\
         <script>{SORT_SCRIPT}</script>\n</body></html>"
    );
    s
}

/// `plots.html`: every plot, the cactus plots of datasets too small to rank last and small.
pub fn plots_page(p: &Page<'_>) -> String {
    let mut s = head(&format!("{}: plots", title(p)));
    s.push_str(&nav(PLOTS_PAGE));
    plots(p, &mut s);
    s.push_str("</body></html>\n");
    s
}

/// `details.html`: the statistics sections, the hardest puzzles, each solver's slowest.
pub fn details_page(p: &Page<'_>) -> String {
    let mut s = head(&format!("{}: statistics and hardest puzzles", title(p)));
    s.push_str(&nav(DETAILS_PAGE));
    s.push_str(&super::rigor::html(&p.sections, esc));
    hardest(p, &mut s);
    slowest(p, &mut s);
    s.push_str("</body></html>\n");
    s
}

/// The plot `index.html` shows: the cactus plot of the dataset with the most readable puzzles
/// among those large enough to rank, else the throughput plot.
fn lead_plot<'p>(p: &'p Page<'_>) -> Option<&'p super::PlotFile> {
    let ranked = p
        .plots
        .iter()
        .filter(|pl| pl.cactus_puzzles >= crate::analysis::stats::MIN_RANKED)
        .fold(None::<&super::PlotFile>, |best, pl| match best {
            Some(b) if b.cactus_puzzles >= pl.cactus_puzzles => Some(b),
            _ => Some(pl),
        });
    ranked.or_else(|| p.plots.iter().find(|pl| pl.title == "Throughput"))
}

/// One plot as a figure with its caption (small for a dataset too small to rank).
fn figure(s: &mut String, pl: &super::PlotFile) {
    let small = pl.cactus_puzzles > 0 && pl.cactus_puzzles < crate::analysis::stats::MIN_RANKED;
    let _ = writeln!(
        s,
        "<figure{}><img src=\"{}\" alt=\"{}\"><figcaption><b>{}.</b> {}{}</figcaption></figure>",
        if small { " class=\"small\"" } else { "" },
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

/// Wrong answers, a partial run, a noisy machine: boxed at the top.
fn warnings(p: &Page<'_>, s: &mut String) {
    super::write_warnings(
        p,
        s,
        |n| {
            format!(
                "<p class=\"warn\"><b>{n}</b>: see the <code>error</code> column of \
                 <code>results.csv</code>.</p>"
            )
        },
        |head, text| format!("<p class=\"warn\"><b>{}</b>: {}</p>", esc(head), esc(text)),
    );
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
    let small = |pl: &&super::PlotFile| {
        pl.cactus_puzzles > 0 && pl.cactus_puzzles < crate::analysis::stats::MIN_RANKED
    };
    for pl in p.plots.iter().filter(|pl| !small(pl)) {
        figure(s, pl);
    }
    let tiny: Vec<&super::PlotFile> = p.plots.iter().filter(small).collect();
    if !tiny.is_empty() {
        let _ = writeln!(
            s,
            "<h3>Datasets too small to rank</h3>\n<p>Fewer than {} readable puzzles: a glance \
             only; their times are in the summary table.</p>",
            crate::analysis::stats::MIN_RANKED
        );
        for pl in tiny {
            figure(s, pl);
        }
    }
}

/// The hardest puzzles' table (a solver a row, a puzzle a column), then their grids in a block
/// that scrolls sideways, numbered as the columns.
fn hardest(p: &Page<'_>, s: &mut String) {
    let _ = writeln!(
        s,
        "<h2 id=\"hardest\">Hardest puzzles</h2>\n<p>The {} puzzles on which even the fastest solver took \
         longest, numbered as their grids below. Each cell: µs, then search-tree nodes in grey.</p>",
        p.hardest.len()
    );
    s.push_str(&tables::hardest_by_solver(p).html());
    let _ = writeln!(s, "<p>Their grids (81 characters, <code>.</code> = empty; a line saved to a file is a dataset for <code>--dataset</code>):</p>");
    grids(
        s,
        p.hardest
            .iter()
            .map(|h| (format!("{} {}", h.dataset, h.puzzle), h.grid.as_str())),
    );
}

/// Labelled grids in a block that scrolls sideways: `N  label  grid` a line, numbered from 1.
fn grids<'g>(s: &mut String, items: impl Iterator<Item = (String, &'g str)>) {
    let items: Vec<(String, &str)> = items.collect();
    let name_w = items
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    let _ = write!(s, "<pre class=\"grids\"><code>");
    for (i, (label, grid)) in items.iter().enumerate() {
        let pad = name_w.saturating_sub(label.chars().count());
        let _ = writeln!(
            s,
            "{:>2}  {}{}  {}",
            i + 1,
            esc(label),
            " ".repeat(pad),
            esc(grid)
        );
    }
    let _ = writeln!(s, "</code></pre>");
}

fn slowest(p: &Page<'_>, s: &mut String) {
    let _ = writeln!(s, "<h2 id=\"slowest\">Slowest puzzles per solver</h2>");
    for (sv, rows) in &p.slowest {
        let _ = writeln!(s, "<h3>{}</h3>", solver(p, sv));
        s.push_str(&tables::slowest(rows, false).html());
        grids(
            s,
            rows.iter()
                .map(|r| (format!("{} {}", r.dataset, r.puzzle), r.grid.as_str())),
        );
    }
}

/// The run's metadata and its datasets.
fn run_facts(p: &Page<'_>, s: &mut String) {
    let _ = writeln!(
        s,
        "<h2 id=\"run\">Run</h2>\n<div class=\"scroll\"><table class=\"facts\">"
    );
    for (k, v) in metadata(p.run) {
        let _ = writeln!(s, "<tr><th>{}</th><td>{}</td></tr>", esc(&k), esc(&v));
    }
    let _ = writeln!(s, "</table></div>");
    s.push_str(&tables::datasets(p.run).html());
}
