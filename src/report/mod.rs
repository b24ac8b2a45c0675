//! The report of a run: plots, `summary.md` and `index.html`, rendered from the run folder's
//! `results.csv` and `run.json` alone (so a run copied from another machine, or merged from
//! shards, renders the same).
//!
//! Files written into the run folder (each whole or not at all):
//!
//! | file | what |
//! |---|---|
//! | `plots/cactus-<dataset>.svg` and `.png` | [`cactus`]: puzzles solved vs time per puzzle |
//! | `plots/distribution.svg` | [`distribution`]: box plot of µs per puzzle per dataset x solver |
//! | `plots/effort.svg` | [`effort`]: nodes against µs per solve |
//! | `plots/throughput.svg` | [`throughput`]: puzzles/s (from the median) per dataset x solver, with its outliers |
//! | `plots/inference.svg` | [`inference`]: guesses per puzzle as inference gets stronger (runs with two or more of its solvers) |
//! | `summary.md` | [`summary_md`]: metadata, verdicts, summary table, slowest and hardest puzzles, plots |
//! | `index.html` | [`html`]: the same page for a browser, offline (no script, no web font) |
//!
//! Series are the run's solvers in `run.json` order (the registry order, `SolverKind::ALL`),
//! coloured by [`style::solver_color`].

pub mod cactus;
pub mod compare;
pub mod digest;
pub mod distribution;
pub mod effort;
pub mod html;
pub mod inference;
pub mod rigor;
pub mod style;
pub mod summary_md;
pub mod tables;
pub mod throughput;

use crate::analysis::summary::SummaryRow;
use crate::plumbing::output::write_atomic;
use crate::record::Row;
use crate::record::Run;
use anyhow::Context;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, SVGBackend};
use std::path::{Path, PathBuf};

/// Size of the fixed-size plots, pixels.
const SIZE: (u32, u32) = (1000, 600);

/// How many slowest puzzles per solver the page lists.
pub const SLOWEST_PER_SOLVER: usize = 5;

/// How many puzzles the "hardest puzzles" table lists.
pub const HARDEST: usize = 10;

/// One plot of the page.
#[derive(Debug, Clone)]
pub struct PlotFile {
    /// The plot's title (also its caption in the SVG).
    pub title: String,
    /// The SVG, relative to the run folder (`plots/...svg`).
    pub svg: String,
    /// The PNG, relative to the run folder, when one is written.
    pub png: Option<String>,
    /// How to read it.
    pub caption: String,
    /// Readable puzzles of a cactus plot's dataset (0 for other plots): the largest ranked
    /// dataset's cactus leads the page; one of fewer than [`crate::analysis::stats::MIN_RANKED`] is drawn
    /// small.
    pub cactus_puzzles: usize,
}

/// The size of a cactus plot of a dataset too small to rank: a glance, not a full plot.
const SMALL_CACTUS: (u32, u32) = (1000, 340);

/// One dataset's verdict (per shape, for a dataset of several): who solved most, fastest, and
/// by how much. Solvers that do not take the shape (`n/a` rows) are not ranked.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// Dataset name.
    pub dataset: String,
    /// The puzzles' shape (`9x9`, `16x16`, ...).
    pub shape: String,
    /// Summary rows of the dataset, best first: most puzzles solved, then lowest median time per
    /// puzzle (the median, not the mean: one solve delayed by the scheduler must not decide who
    /// wins a set of microsecond solves), then highest puzzles/s.
    pub ranked: Vec<SummaryRow>,
    /// Per other solver, its median time over the winner's on the puzzles both answered, with
    /// the bootstrap 95% interval ([`crate::analysis::stats::ratio_ci`]); a solver missing here is
    /// described by its medians alone.
    pub intervals: Vec<(String, crate::analysis::stats::Estimate)>,
}

/// A puzzle that is hard for every solver: its row per solver (in report order, `None` when the
/// solver did not run it).
#[derive(Debug, Clone)]
pub struct Hard {
    /// Dataset name.
    pub dataset: String,
    /// Puzzle label.
    pub puzzle: String,
    /// Givens.
    pub givens: usize,
    /// The puzzle, 81 characters.
    pub grid: String,
    /// The fastest solver's time on it, µs (the ranking key).
    pub best_micros: f64,
    /// Each solver's row.
    pub rows: Vec<Option<Row>>,
}

/// Everything `summary.md` and `index.html` show, computed once.
#[derive(Debug)]
pub struct Page<'a> {
    /// The run (its `rows` are not held: the report reads them as a stream, [`digest`]).
    pub run: &'a Run,
    /// Whole rows in `results.csv`.
    pub rows: u64,
    /// True when `results.csv` ended in a cut line (skipped).
    pub cut_line: bool,
    /// Its summary, recomputed from the rows.
    pub summary: Vec<SummaryRow>,
    /// Verdict per dataset, in report order.
    pub verdicts: Vec<Verdict>,
    /// Per solver (report order): its slowest rows, slowest first.
    pub slowest: Vec<(String, Vec<Row>)>,
    /// The puzzles on which even the fastest solver took longest, hardest first.
    pub hardest: Vec<Hard>,
    /// The plots, in page order.
    pub plots: Vec<PlotFile>,
    /// Puzzle classes, scores, isomorph spread ([`rigor`]), after the summary table.
    pub sections: Vec<rigor::Section>,
}

/// What the summary table's "ratio" column is, as both pages say under the table.
pub const RATIO: &str = "ratio: the fastest solver's puzzles/s on the dataset over this \
     solver's, as in the bars of the throughput plot; between solvers that solved as many \
     puzzles, it is the verdicts' \"× slower\", the ratio of the medians.";

/// The ratio of the highest throughput (solved puzzles per second, from the median) of
/// `dataset` to `row`'s: 1 for the fastest, 12 for a solver whose median time over its share
/// of puzzles solved is twelve times the fastest's; `None` when the row solved nothing.
pub fn throughput_ratio(summary: &[SummaryRow], row: &SummaryRow) -> Option<f64> {
    let best = summary
        .iter()
        .filter(|s| s.same_group(row) && !s.is_na())
        .map(|s| s.puzzles_per_second)
        .fold(0.0f64, f64::max);
    (row.puzzles_per_second > 0.0).then(|| best / row.puzzles_per_second)
}

/// The throughput plot's caption: how to read it, and the outliers of every solver and dataset.
fn throughput_caption(t: &throughput::Throughput) -> String {
    let per_dataset: Vec<String> = t
        .panels
        .iter()
        .map(|p| {
            let counts: Vec<String> = p
                .bars
                .iter()
                .map(|b| format!("{} {}", b.0, crate::plumbing::human::count(b.3)))
                .collect();
            format!("{}: {}", p.dataset, counts.join(", "))
        })
        .collect();
    format!(
        "Solved puzzles per second on one thread from the median time per puzzle (solved / \
         readable puzzles × 10^6 / median µs), one chart per dataset, fastest first; each axis \
         is logarithmic and fitted to its dataset. Outliers, the solves slower than 10× their \
         solver's median that the median sets aside: {}.",
        per_dataset.join("; ")
    )
}

/// The median ratio of `row` to the dataset's winner (the verdicts' "× slower"): `None` when
/// either has no time recorded.
pub fn median_ratio(winner: &SummaryRow, row: &SummaryRow) -> Option<f64> {
    (winner.median_micros > 0.0 && row.median_micros > 0.0)
        .then(|| row.median_micros / winner.median_micros)
}

/// What did not end as a checked solution, for a table cell: `-` when nothing, else for
/// example `1 timeout` or `2 wrong, 1 timeout`.
pub fn unsolved_text(r: &SummaryRow) -> String {
    let parts: Vec<String> = [
        (r.wrong, "wrong"),
        (r.no_solution, "no solution"),
        (r.timeouts, "timeout"),
        (r.errors, "error"),
        (r.invalid, "invalid"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{} {what}", crate::plumbing::human::count(*n)))
    .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(", ")
    }
}

/// Puzzles that did not end as a checked solution.
pub fn unsolved(r: &SummaryRow) -> usize {
    r.puzzles - r.solved
}

/// Orders one dataset's rows best first (see [`Verdict::ranked`]).
fn rank(rows: &mut [SummaryRow]) {
    rows.sort_by(|a, b| {
        (a.wrong > 0)
            .cmp(&(b.wrong > 0))
            .then(b.solved.cmp(&a.solved))
            .then(a.median_micros.total_cmp(&b.median_micros))
            .then(b.puzzles_per_second.total_cmp(&a.puzzles_per_second))
    });
}

/// The dataset x shape groups of `summary`, in report order: datasets as `run.datasets` lists
/// them, each dataset's shapes in summary order.
pub fn groups(run: &Run, summary: &[SummaryRow]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for d in &run.datasets {
        for r in summary.iter().filter(|r| &r.dataset == d) {
            if !out.iter().any(|(od, os)| od == d && *os == r.shape) {
                out.push((d.clone(), r.shape.clone()));
            }
        }
    }
    out
}

fn verdicts(run: &Run, summary: &[SummaryRow]) -> Vec<Verdict> {
    groups(run, summary)
        .into_iter()
        .map(|(d, shape)| {
            let mut ranked: Vec<SummaryRow> = run
                .solvers
                .iter()
                .filter_map(|s| {
                    summary
                        .iter()
                        .find(|r| r.dataset == d && r.shape == shape && &r.solver == s)
                        .filter(|r| !r.is_na())
                        .cloned()
                })
                .collect();
            rank(&mut ranked);
            let intervals = ranked
                .first()
                .map(|w| {
                    ranked[1..]
                        .iter()
                        .filter_map(|o| {
                            paired_ratio(run, (&d, &shape), &w.solver, &o.solver)
                                .map(|e| (o.solver.clone(), e))
                        })
                        .collect()
                })
                .unwrap_or_default();
            Verdict {
                dataset: d,
                shape,
                ranked,
                intervals,
            }
        })
        .collect()
}

/// The verdicts the report of the run in `dir` states (the run read whole: for runs of up to
/// [`PUZZLE_SECTIONS_MAX_ROWS`] rows, which get paired intervals).
///
/// # Errors
/// When `run.json` or `results.csv` cannot be read.
pub fn verdicts_of(dir: &Path) -> anyhow::Result<Vec<Verdict>> {
    let mut digest = digest::read(dir)?;
    digest.run.rows = crate::record::read_rows(dir)?;
    Ok(verdicts(&digest.run, &digest.summary))
}

impl Verdict {
    /// True when the group is ranked: a winner solved at least one puzzle, and it has at least
    /// [`crate::analysis::stats::MIN_RANKED`] readable puzzles.
    pub fn ranks(&self) -> bool {
        self.ranked.first().is_some_and(|w| {
            w.solved > 0 && w.puzzles - w.invalid >= crate::analysis::stats::MIN_RANKED
        })
    }

    /// The group's name: the dataset, and its shape where not 9x9 (`big (16x16)`).
    pub fn group(&self) -> String {
        crate::analysis::summary::group_name(&self.dataset, &self.shape)
    }
}

/// The ratio `median(b) / median(a)` of the µs of solvers `a` and `b` on the puzzles of
/// `dataset` of `shape` both answered right, paired by puzzle, with its bootstrap 95% interval.
pub fn paired_ratio(
    run: &Run,
    (dataset, shape): (&str, &str),
    a: &str,
    b: &str,
) -> Option<crate::analysis::stats::Estimate> {
    let key = |r: &Row| (r.line, r.transform.clone());
    let times_a: std::collections::HashMap<_, f64> = run
        .rows_of(dataset, a)
        .filter(|r| r.is_right() && r.shape == shape)
        .map(|r| (key(r), r.micros))
        .collect();
    let (mut xa, mut xb) = (Vec::new(), Vec::new());
    for r in run
        .rows_of(dataset, b)
        .filter(|r| r.is_right() && r.shape == shape)
    {
        if let Some(&t) = times_a.get(&key(r)) {
            xa.push(t);
            xb.push(r.micros);
        }
    }
    crate::analysis::stats::ratio_ci(&xa, &xb, crate::analysis::stats::salt(&[dataset, a, b]))
}

/// For the cactus plot of `dataset`: the solvers that do not take some of its shapes (`n/a`
/// rows), whose curves count only the puzzles they ran; empty when there are none.
fn left_out_note(summary: &[SummaryRow], dataset: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for r in summary.iter().filter(|r| r.dataset == dataset && r.is_na()) {
        parts.push(format!(
            "{} ({}: not the {} puzzles)",
            r.solver, r.na, r.shape
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(
            " Curves count only the puzzles each solver takes: {}.",
            parts.join(", ")
        )
    }
}

/// What [`render`] wrote.
#[derive(Debug, Clone)]
pub struct Report {
    /// Every file written, absolute or relative as the run folder was given.
    pub files: Vec<PathBuf>,
    /// `index.html`.
    pub index: PathBuf,
}

/// Renders the report of the run in `dir`: the plots, `summary.md` and `index.html`.
///
/// # Errors
/// When `run.json` or `results.csv` cannot be read, or a file cannot be written.
pub fn render(dir: &Path) -> anyhow::Result<Report> {
    let mut digest = digest::read(dir)?;
    if digest.rows <= PUZZLE_SECTIONS_MAX_ROWS {
        // The puzzle-level sections (classes, scores, isomorph spread, paired intervals of the
        // verdicts) read every row; a file that does not read whole (a killed run's cut last
        // line) leaves them empty.
        digest.run.rows = crate::record::read_rows(dir).unwrap_or_default();
    }
    render_digest(digest)
}

/// Runs of at most this many rows of results.csv (about 1 KB each in memory) get the sections
/// that look at every puzzle: classes, scores, the isomorph spread and the verdicts' paired
/// confidence intervals. Larger runs are reported from the streamed summary, plots and tables
/// alone, in bounded memory; their summary.csv has the scores all the same.
pub const PUZZLE_SECTIONS_MAX_ROWS: u64 = 200_000;

/// Renders the report of a run read by [`digest::read`] into its folder.
///
/// # Errors
/// When a file cannot be written.
pub fn render_digest(mut digest: digest::Digest) -> anyhow::Result<Report> {
    let summary = std::mem::take(&mut digest.summary);
    let mut out = Drawn::new(&digest.run.dir)?;
    for d in &digest.run.datasets {
        out.cactus(&digest, &summary, d)?;
    }
    out.distribution(&digest)?;
    out.effort(&digest)?;
    out.throughput(&digest.run, &summary)?;
    let spread_plot = out.spread(&digest.run)?;
    let sections = vec![
        out.inference(&digest)?,
        rigor::classes_section(&digest.run),
        rigor::scores_section(&digest.run, &summary),
        rigor::spread_section(&digest.run, spread_plot),
    ];
    let Drawn {
        mut files, plots, ..
    } = out;
    let run = &digest.run;
    let page = Page {
        sections,
        run,
        rows: digest.rows,
        cut_line: digest.cut_line,
        verdicts: verdicts(run, &summary),
        slowest: std::mem::take(&mut digest.slowest),
        hardest: std::mem::take(&mut digest.hardest),
        summary,
        plots,
    };
    let md = run.dir.join("summary.md");
    let text = summary_md::render(&page);
    write_atomic(&md, |w| Ok(w.write_all(text.as_bytes())?))?;
    files.push(md);
    for (name, text) in [
        (html::PLOTS_PAGE, html::plots_page(&page)),
        (html::DETAILS_PAGE, html::details_page(&page)),
    ] {
        let path = run.dir.join(name);
        write_atomic(&path, |w| Ok(w.write_all(text.as_bytes())?))?;
        files.push(path);
    }
    let index = run.dir.join("index.html");
    let text = html::render(&page);
    write_atomic(&index, |w| Ok(w.write_all(text.as_bytes())?))?;
    files.push(index.clone());
    Ok(Report { files, index })
}

/// The plots of a report as they are drawn: the files written and what the pages say of each.
struct Drawn {
    plots_dir: PathBuf,
    files: Vec<PathBuf>,
    plots: Vec<PlotFile>,
    /// The cactus plots' file stems so far (kept distinct).
    stems: Vec<String>,
}

impl Drawn {
    /// Creates `dir/plots`.
    fn new(dir: &Path) -> anyhow::Result<Drawn> {
        let plots_dir = dir.join("plots");
        std::fs::create_dir_all(&plots_dir)
            .with_context(|| format!("creating {}", plots_dir.display()))?;
        Ok(Drawn {
            plots_dir,
            files: Vec::new(),
            plots: Vec::new(),
            stems: Vec::new(),
        })
    }

    /// Writes `plots/{stem}.svg` drawn by `draw` at `size`, and its [`PlotFile`].
    fn svg(
        &mut self,
        stem: &str,
        size: (u32, u32),
        draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> anyhow::Result<()>,
    ) -> anyhow::Result<PlotFile> {
        let svg = self.plots_dir.join(format!("{stem}.svg"));
        style::write_svg(&svg, size, draw)?;
        self.files.push(svg);
        Ok(PlotFile {
            title: String::new(),
            svg: format!("plots/{stem}.svg"),
            png: None,
            caption: String::new(),
            cactus_puzzles: 0,
        })
    }

    /// The cactus plot of dataset `d` (SVG and PNG).
    fn cactus(
        &mut self,
        digest: &digest::Digest,
        summary: &[SummaryRow],
        d: &str,
    ) -> anyhow::Result<()> {
        let run = &digest.run;
        let c = cactus::data(digest, summary, d);
        let mut stem = format!("cactus-{}", style::file_stem(d));
        if self.stems.contains(&stem) {
            // Two dataset names that differ only in characters a file name cannot hold.
            stem = format!("{stem}-{}", self.stems.len() + 1);
        }
        self.stems.push(stem.clone());
        let size = if c.puzzles < crate::analysis::stats::MIN_RANKED {
            SMALL_CACTUS
        } else {
            SIZE
        };
        let plot = self.svg(&stem, size, |r| cactus::draw(r, &c))?;
        let png = self.plots_dir.join(format!("{stem}.png"));
        style::write_png(&png, size, |r| cactus::draw(r, &c))?;
        self.files.push(png);
        self.plots.push(PlotFile {
            cactus_puzzles: c.puzzles,
            title: format!("Cactus plot: {d}"),
            png: Some(format!("plots/{stem}.png")),
            caption: format!(
                "Puzzles of {d} solved (and checked) within a given time per puzzle, log time \
                 axis. Further left = faster, higher = more solved; a curve that stops below the \
                 dashed \"all puzzles\" line left puzzles unsolved (timeouts{}, wrong answers).{}",
                run.budget_micros()
                    .map(|b| format!(" at the {} budget", crate::plumbing::human::micros(b)))
                    .unwrap_or_default(),
                left_out_note(summary, d)
            ),
            ..plot
        });
        Ok(())
    }

    /// The box plot of times per puzzle.
    fn distribution(&mut self, digest: &digest::Digest) -> anyhow::Result<()> {
        let dist = distribution::data(digest);
        let size = (distribution::width(&dist), SIZE.1);
        let plot = self.svg("distribution", size, |r| distribution::draw(r, &dist))?;
        self.plots.push(PlotFile {
            title: "Time per puzzle".into(),
            caption: "µs per puzzle, log scale: the box spans the middle half of the puzzles, the \
                      black bar is the median, the whiskers reach the fastest and the slowest puzzle \
                      (a timeout counts at the time it gave up)."
                .into(),
            ..plot
        });
        Ok(())
    }

    /// Nodes against time, one point per solve (a density past [`effort::MAX_POINTS`]).
    fn effort(&mut self, digest: &digest::Digest) -> anyhow::Result<()> {
        let clouds = effort::data(digest);
        let plot = self.svg("effort", SIZE, |r| effort::draw(r, &clouds))?;
        let mut c = "One point per solve: search-tree nodes against µs, both log scales; × \
                     marks a timeout. Lower at the same node count = cheaper nodes; further \
                     left = a smaller search."
            .to_string();
        if effort::has_density(&clouds) {
            c.push_str(&format!(
                " A solver with more than {} solves is drawn as a density: cells of 1/{} \
                 decade on each axis, darker where more solves fall.",
                crate::plumbing::human::count(effort::MAX_POINTS),
                effort::CELLS_PER_DECADE
            ));
        }
        let out = effort::left_out(&digest.run);
        if !out.is_empty() {
            c.push_str(&format!(
                " Not drawn, as their nodes count something else (solver calls) or nothing: {}.",
                out.join(", ")
            ));
        }
        self.plots.push(PlotFile {
            title: "Effort vs time".into(),
            caption: c,
            ..plot
        });
        Ok(())
    }

    /// Puzzles per second per dataset and solver.
    fn throughput(&mut self, run: &Run, summary: &[SummaryRow]) -> anyhow::Result<()> {
        let tp = throughput::data(&groups(run, summary), &run.solvers, summary);
        let plot = self.svg("throughput", throughput::size(&tp), |r| {
            throughput::draw(r, &tp)
        })?;
        self.plots.push(PlotFile {
            title: "Throughput".into(),
            caption: throughput_caption(&tp),
            ..plot
        });
        Ok(())
    }

    /// The isomorph spread plot, for the "Isomorph spread" section (none without isomorphs).
    fn spread(&mut self, run: &Run) -> anyhow::Result<Option<PlotFile>> {
        let spreads: Vec<rigor::Spread> = rigor::spreads(run)
            .into_iter()
            .filter(|s| s.search_nodes)
            .collect();
        if spreads.is_empty() {
            return Ok(None);
        }
        let plot = self.svg("isomorph-spread", SIZE, |r| {
            rigor::draw_spread(r, &spreads, &run.solvers)
        })?;
        Ok(Some(PlotFile {
            title: "Isomorph spread".into(),
            caption: "One point per puzzle and solver: the most search-tree nodes over the \
                      fewest among the puzzle's isomorphs (1 = the same on every copy)."
                .into(),
            ..plot
        }))
    }

    /// The "What inference buys" section and its plot (empty when no solvers compare).
    fn inference(&mut self, digest: &digest::Digest) -> anyhow::Result<rigor::Section> {
        let run = &digest.run;
        let Some(inf) = inference::data(&digest.inference, &run.datasets, &run.solvers) else {
            return Ok(rigor::Section::default());
        };
        let plot = self.svg("inference", SIZE, |r| inference::draw(r, &inf))?;
        let plot = PlotFile {
            title: "What inference buys".into(),
            caption: "Mean guesses per solved puzzle (log scale), one line per dataset, for \
                      the solvers that differ only in what they infer at every node, weakest \
                      first; a hollow circle on the bottom edge is a mean of 0."
                .into(),
            ..plot
        };
        Ok(inference::section(&inf, Some(plot)))
    }
}

/// Writes what both pages warn of at the top, a line each: the wrong answers (their count as
/// [`crate::plumbing::human::plural`] says it, worded by `wrong`), then the notes of a partial
/// run ([`partial_note`]) and of a noisy machine ([`noise_note`]), worded by `note` from their
/// head and explanation.
pub fn write_warnings(
    p: &Page<'_>,
    s: &mut String,
    wrong: impl Fn(&str) -> String,
    note: impl Fn(&str, &str) -> String,
) {
    let count: usize = p.summary.iter().map(|r| r.wrong).sum();
    if count > 0 {
        s.push_str(&wrong(&crate::plumbing::human::plural(
            count,
            "wrong answer",
        )));
        s.push('\n');
    }
    let notes = [partial_note(p), noise_note(&p.run.info, &p.summary)];
    for (head, text) in notes.into_iter().flatten() {
        s.push_str(&note(&head, &text));
        s.push('\n');
    }
}

/// The warning both pages show above everything for a run that did not finish: `None` for a
/// complete run. An interrupted run (stopped by a signal, its files saved) and a killed or still
/// running one (run.json never said it finished) are both partial: the rows cover only the solves
/// that finished and were flushed.
pub fn partial_note(p: &Page<'_>) -> Option<(String, String)> {
    let i = &p.run.info;
    if i.complete {
        return None;
    }
    let expected: usize = i.planned_solves();
    let of = if i.shard.is_none() && expected > 0 {
        format!(
            " of the {} a complete run has",
            crate::plumbing::human::count(expected)
        )
    } else {
        String::new()
    };
    let cut = if p.cut_line {
        "; a cut last line was skipped"
    } else {
        ""
    };
    let has_summary = p.run.dir.join("summary.csv").exists();
    let head = if i.interrupted && has_summary {
        "Interrupted run, partial results"
    } else {
        "Partial run (killed, or still running)"
    };
    Some((
        head.to_string(),
        format!(
            "the rows cover only the solves that finished: results.csv holds {} rows{of}{cut}.",
            crate::plumbing::human::count(p.rows as usize)
        ),
    ))
}

/// How many times its median a solver's slowest solve may take before the run counts as noisy
/// (when most summary rows exceed it).
pub const NOISY_MAX_OVER_MEDIAN: f64 = 1_000.0;

/// The least share of their wall time the built-in solvers' solves may spend on the CPU before
/// the run counts as noisy: below it, other processes took the cores from the timed solves.
pub const NOISY_CPU_SHARE: f64 = 0.8;

/// The share of their wall time the solves of in-process solvers spent on the CPU of their
/// thread: their summed CPU time over their summed wall time (each solve's CPU time is the
/// worker thread's, `cpu_micros`). About 1 when nothing else ran on the solving cores; 0.5 when
/// another process had half of them. `None` when no such row has a CPU time (runs written before
/// the column existed, or only out-of-process solvers, whose CPU time is a child's).
pub fn cpu_share(info: &crate::record::RunInfo, summary: &[SummaryRow]) -> Option<f64> {
    use crate::record::EngineKind;
    let in_process = |name: &str| match info.solver_details.iter().find(|d| d.name == name) {
        Some(d) => matches!(d.kind, EngineKind::Builtin | EngineKind::Reference),
        None => true,
    };
    let (mut cpu, mut wall) = (0.0, 0.0);
    for r in summary
        .iter()
        .filter(|r| !r.is_na() && in_process(&r.solver))
    {
        if let Some(c) = r.mean_cpu_micros {
            let n = r.puzzles.saturating_sub(r.invalid) as f64;
            cpu += c * n;
            wall += r.mean_micros * n;
        }
    }
    (wall > 0.0).then(|| cpu / wall)
}

/// The warning for a noisy run (docs/reports.md): `None` for a quiet one. A run is noisy when
/// the in-process solves got less than [`NOISY_CPU_SHARE`] of their wall time on the CPU
/// ([`cpu_share`]; for a run without CPU times: when the 1-minute load average before the solves
/// was above the cores the run left free, cores − threads + 0.5), or when most summary rows
/// (solver × dataset, the virtual best left out) have a max µs over [`NOISY_MAX_OVER_MEDIAN`]
/// times their median. Returns the head and the explanation, as [`partial_note`] does.
pub fn noise_note(
    info: &crate::record::RunInfo,
    summary: &[SummaryRow],
) -> Option<(String, String)> {
    let mut why = Vec::new();
    match cpu_share(info, summary) {
        Some(share) if share < NOISY_CPU_SHARE => why.push(format!(
            "the solves ran on the CPU {:.0}% of their wall time (other processes took the \
             rest; below {:.0}% counts as noisy)",
            100.0 * share,
            100.0 * NOISY_CPU_SHARE
        )),
        Some(_) => {}
        None => {
            let free = info.cores as f64 - info.threads as f64 + 0.5;
            if let Some(load) = info.load_before.filter(|&l| l > free) {
                why.push(format!(
                    "the load average before the solves was {load:.2}, above cores − threads + \
                     0.5 = {free} ({}, {})",
                    crate::plumbing::human::plural(info.cores, "core"),
                    crate::plumbing::human::plural(info.threads, "thread")
                ));
            }
        }
    }
    let rows: Vec<&SummaryRow> = summary
        .iter()
        .filter(|r| r.solver != crate::analysis::scores::VIRTUAL_BEST && r.median_micros > 0.0)
        .collect();
    let spiky = rows
        .iter()
        .filter(|r| r.max_micros > NOISY_MAX_OVER_MEDIAN * r.median_micros)
        .count();
    if !rows.is_empty() && 2 * spiky > rows.len() {
        why.push(format!(
            "{spiky} of {} solver rows have a max µs over {} times their median",
            rows.len(),
            crate::plumbing::human::count(NOISY_MAX_OVER_MEDIAN as usize)
        ));
    }
    if why.is_empty() {
        return None;
    }
    Some((
        "Noisy run".to_string(),
        format!(
            "{}; the times may not hold on a quiet machine (compare ratios, or run again).",
            why.join("; ")
        ),
    ))
}

/// The verdict of one dataset: the winner with its numbers, then every other solver with its
/// median ratio (the page's one "× slower" figure) and what it left unsolved.
#[derive(Debug, Clone, PartialEq)]
pub struct VerdictText {
    /// `bitboard-bands wins: 1,000/1,000 solved, median 1.9 µs`, or why there is no winner.
    pub head: String,
    /// (solver, `1.61× slower`, `, 1 fewer solved (1 timeout)` or empty), in rank order; a
    /// solver that solved fewer puzzles may have a lower median (`2.00× faster`).
    pub others: Vec<(String, String, String)>,
}

impl VerdictText {
    /// As one sentence, for Markdown and plain text.
    pub fn sentence(&self) -> String {
        let mut s = self.head.clone();
        if !self.others.is_empty() {
            s.push_str(". Median time per puzzle against it: ");
            let parts: Vec<String> = self
                .others
                .iter()
                .map(|(n, r, more)| format!("{n} {r}{more}"))
                .collect();
            s.push_str(&parts.join("; "));
        }
        s.push('.');
        s
    }
}

/// The verdict of one dataset (see [`VerdictText`]).
pub fn verdict(v: &Verdict) -> VerdictText {
    let Some(w) = v.ranked.first() else {
        return VerdictText {
            head: "no solver ran".into(),
            others: Vec::new(),
        };
    };
    let tied = v.ranked.iter().filter(|r| r.solved == w.solved).count();
    if let Some(head) = no_winner(w, tied) {
        return VerdictText {
            head,
            others: Vec::new(),
        };
    }
    // The counts of summary.csv and the terminal table: solved out of every puzzle, the rest
    // named.
    let head = format!(
        "{} wins: {}/{} solved{}, median {}",
        w.solver,
        crate::plumbing::human::count(w.solved),
        crate::plumbing::human::count(w.puzzles),
        unsolved_in_brackets(w),
        crate::plumbing::human::micros(w.median_micros),
    );
    let others = v.ranked[1..].iter().map(|o| against(v, w, o)).collect();
    VerdictText { head, others }
}

/// ` (1 timeout)`, or nothing when every puzzle was solved.
fn unsolved_in_brackets(r: &SummaryRow) -> String {
    let rest = unsolved_text(r);
    if rest == "-" {
        String::new()
    } else {
        format!(" ({rest})")
    }
}

/// Why the first-ranked solver `w` is no winner, if it is none: no readable puzzle, nothing
/// solved, too few puzzles to rank, wrong answers. `tied`: the solvers (`w` among them) that
/// solved as many as `w`.
fn no_winner(w: &SummaryRow, tied: usize) -> Option<String> {
    let readable = w.puzzles - w.invalid;
    if readable == 0 {
        return Some(format!(
            "no readable puzzle ({} invalid)",
            crate::plumbing::human::count(w.invalid)
        ));
    }
    if w.solved == 0 {
        return Some(format!(
            "no solver solved any of the {} readable puzzles (see the error and status columns \
             of results.csv)",
            crate::plumbing::human::count(readable)
        ));
    }
    if readable < crate::analysis::stats::MIN_RANKED {
        let by = match tied {
            1 => w.solver.clone(),
            n => format!("{n} solvers"),
        };
        return Some(format!(
            "too few puzzles to rank ({} readable, {} needed); most solved: {}/{}{} by {by}",
            crate::plumbing::human::count(readable),
            crate::analysis::stats::MIN_RANKED,
            crate::plumbing::human::count(w.solved),
            crate::plumbing::human::count(w.puzzles),
            unsolved_in_brackets(w),
        ));
    }
    if w.wrong > 0 {
        return Some(format!(
            "no winner: every solver gave wrong answers ({} wrong for {}, the best of them)",
            crate::plumbing::human::count(w.wrong),
            w.solver
        ));
    }
    None
}

/// Solver `o` against the winner `w`: (name, the ratio of medians with its interval where
/// there is one, what else differs).
fn against(v: &Verdict, w: &SummaryRow, o: &SummaryRow) -> (String, String, String) {
    if o.wrong > 0 {
        return (
            o.solver.clone(),
            format!(
                "disqualified ({} wrong answer{})",
                crate::plumbing::human::count(o.wrong),
                if o.wrong == 1 { "" } else { "s" }
            ),
            String::new(),
        );
    }
    let interval = v.intervals.iter().find(|(n, _)| *n == o.solver);
    let ratio = match (interval, median_ratio(w, o)) {
        // The ratio once, then its 95% interval in the same direction.
        (Some((_, e)), _) => {
            let said = crate::analysis::stats::verdict(e);
            let r = crate::plumbing::human::ratio;
            if said.ends_with("× slower") {
                format!("{said} [{}, {}]", r(e.lo), r(e.hi))
            } else if said.ends_with("× faster") {
                format!("{said} [{}, {}]", r(1.0 / e.hi), r(1.0 / e.lo))
            } else {
                format!(
                    "{said} ({})",
                    crate::plumbing::human::interval(
                        e.value,
                        e.lo,
                        e.hi,
                        crate::plumbing::human::ratio
                    )
                )
            }
        }
        (None, Some(r)) if r < 1.0 => format!("{}× faster", crate::plumbing::human::ratio(1.0 / r)),
        (None, Some(r)) => format!("{}× slower", crate::plumbing::human::ratio(r)),
        (None, None) => "no time recorded".into(),
    };
    let mut more = String::new();
    if o.unchecked > 0 {
        more.push_str(&format!(
            ", {} solved unchecked (it writes no solution)",
            crate::plumbing::human::count(o.unchecked)
        ));
    }
    if o.solved < w.solved {
        more.push_str(&format!(
            ", {} fewer solved ({})",
            crate::plumbing::human::count(w.solved - o.solved),
            unsolved_text(o)
        ));
    }
    (o.solver.clone(), ratio, more)
}

/// The verdict of one dataset as one sentence ([`VerdictText::sentence`]).
pub fn verdict_text(v: &Verdict) -> String {
    verdict(v).sentence()
}

/// The run's metadata as (name, value) pairs, for both pages.
pub fn metadata(run: &Run) -> Vec<(String, String)> {
    let i = &run.info;
    let mut m = vec![
        ("date".to_string(), i.date.clone()),
        ("host".into(), i.host.clone()),
        (
            "cpu".into(),
            format!("{} ({} logical cores)", i.cpu, i.cores),
        ),
        ("threads".into(), i.threads.to_string()),
        (
            "budget per puzzle".into(),
            format!(
                "{}{}",
                i.timeout_ms
                    .map(|ms| format!("{ms} ms"))
                    .unwrap_or_else(|| "no time limit".into()),
                i.max_nodes
                    .map(|n| format!(", {n} nodes"))
                    .unwrap_or_default()
            ),
        ),
        ("solvers".into(), run.solvers.join(", ")),
        ("git commit".into(), i.git_commit.clone()),
        ("rustc".into(), i.rustc.clone()),
        ("harness".into(), i.harness_version.clone()),
        ("elapsed".into(), format!("{:.1} s", i.elapsed_seconds)),
        ("command".into(), i.command.join(" ")),
    ];
    for d in i
        .solver_details
        .iter()
        .filter(|d| !d.files.is_empty() || !d.command.is_empty())
    {
        let files: Vec<String> = d
            .files
            .iter()
            .map(|f| {
                format!(
                    "{} ({} bytes, sha256 {})",
                    f.path,
                    f.bytes,
                    &f.sha256[..16.min(f.sha256.len())]
                )
            })
            .collect();
        m.push((
            format!("solver {}", d.name),
            format!("{}: {}; {}", d.kind, d.command.join(" "), files.join(", ")),
        ));
    }
    if let Some(s) = &i.shard {
        m.push((
            "shard".into(),
            format!(
                "{s}: puzzles whose index over the concatenated datasets is {} mod {}",
                s.index - 1,
                s.count
            ),
        ));
    }
    for s in &i.shards {
        m.push((
            format!("shard {}", s.shard),
            format!(
                "{} ({}, {} threads), {}, {:.1} s, commit {}",
                s.host, s.cpu, s.threads, s.date, s.elapsed_seconds, s.git_commit
            ),
        ));
    }
    if i.interrupted {
        m.push((
            "interrupted".into(),
            "yes: the run was stopped early; rows cover only what finished".into(),
        ));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(solver: &str, solved: usize, median: f64, mean: f64) -> SummaryRow {
        SummaryRow {
            dataset: "d".into(),
            shape: "9x9".into(),
            solver: solver.into(),
            puzzles: 1000,
            solved,
            timeouts: 1000 - solved,
            median_micros: median,
            mean_micros: mean,
            p90_micros: median,
            max_micros: mean * 1000.0,
            puzzles_per_second: 1e6 / mean,
            mean_nodes: 1.0,
            ..SummaryRow::default()
        }
    }

    /// The case seen on a default run: `fast` has the lower median (3.1 µs against 7.2 µs) but
    /// one solve delayed 4 ms by the scheduler doubles its mean; it still wins, by the medians.
    #[test]
    fn the_median_decides_not_one_delayed_solve() {
        let mut rows = vec![row("steady", 1000, 7.2, 12.4), row("fast", 1000, 3.1, 16.1)];
        rank(&mut rows);
        assert_eq!(rows[0].solver, "fast");
        let v = Verdict {
            dataset: "d".into(),
            shape: "9x9".into(),
            ranked: rows,
            intervals: Vec::new(),
        };
        let t = verdict_text(&v);
        // 7.2 / 3.1 = 2.32
        assert_eq!(
            t,
            "fast wins: 1,000/1,000 solved, median 3.1 µs. Median time per puzzle against it: \
             steady 2.32× slower."
        );
        // More puzzles solved beats a lower median.
        let mut rows = vec![row("quick", 999, 1.0, 1.0), row("sure", 1000, 9.0, 9.0)];
        rank(&mut rows);
        assert_eq!(rows[0].solver, "sure");
        let t = verdict_text(&Verdict {
            dataset: "d".into(),
            shape: "9x9".into(),
            ranked: rows,
            intervals: Vec::new(),
        });
        // 1.0 / 9.0 µs: faster by the median, but it left one puzzle unsolved.
        assert!(
            t.ends_with("quick 9.00× faster, 1 fewer solved (1 timeout)."),
            "{t}"
        );
    }
}
