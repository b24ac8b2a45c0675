//! `harness run`: the main job.

use crate::cli::{ExternalArgs, RunArgs};
use crate::dataset::{self, Dataset, Source};
use crate::format::Entry;
use crate::interrupt;
use crate::output;
use crate::record::{self, DatasetInfo, Row, RunInfo};
use crate::registry::{self, Registry};
use crate::runner::{self, RunOptions};
use crate::summary;
use anyhow::Context;
use solvers::engine::Engine;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// Resolves `--solver` values (`all`, built-in names, solvers-file names, inline external
/// specs) into engines, through the solvers file of `external`.
///
/// # Errors
/// On an unknown name (the message lists the known ones), a bad solvers file or spec, or an
/// external solver that cannot be loaded.
pub fn engines(names: &[String], external: &ExternalArgs) -> anyhow::Result<Vec<Arc<dyn Engine>>> {
    let registry = Registry::load(external.solvers.as_deref())?;
    registry.resolve(names, external.isolate)
}

/// Refuses two datasets of one name (`--dataset seed --dataset seed`, or two files named alike in
/// different folders): rows, summaries and plots are keyed by dataset name, so the two would be
/// merged into one.
///
/// # Errors
/// A usage error naming both sources.
pub fn refuse_duplicate_names(datasets: &[Dataset]) -> anyhow::Result<()> {
    let pairs: Vec<(&str, &str)> = datasets
        .iter()
        .map(|d| (d.name.as_str(), d.source.as_str()))
        .collect();
    refuse_duplicates(&pairs)
}

/// [`refuse_duplicate_names`] over (name, source) pairs.
fn refuse_duplicates(datasets: &[(&str, &str)]) -> anyhow::Result<()> {
    for (i, d) in datasets.iter().enumerate() {
        if let Some(e) = datasets[..i].iter().find(|e| e.0 == d.0) {
            if e.1 == d.1 {
                anyhow::bail!(
                    "--dataset {} is given twice; give each dataset once",
                    d.1.strip_prefix("shipped:").unwrap_or(d.1)
                );
            }
            anyhow::bail!(
                "--dataset {} and --dataset {} are both named {:?} (results are keyed by dataset \
                 name); rename one of the files",
                e.1.strip_prefix("shipped:").unwrap_or(e.1),
                d.1.strip_prefix("shipped:").unwrap_or(d.1),
                d.0
            );
        }
    }
    Ok(())
}

/// The puzzles of `sources` in run order, this shard's only, as (dataset name, entry).
fn puzzle_stream(
    sources: &[Source],
    shard: Option<crate::record::Shard>,
) -> anyhow::Result<impl Iterator<Item = (Arc<str>, Entry)>> {
    let mut streams = Vec::new();
    for src in sources {
        streams.push((Arc::<str>::from(src.name.as_str()), src.entries()?));
    }
    let mut global = 0usize;
    Ok(streams
        .into_iter()
        .flat_map(|(name, entries)| entries.map(move |e| (name.clone(), e)))
        .filter(move |_| {
            let keep = shard.map_or(true, |s| s.takes(global));
            global += 1;
            keep
        }))
}

/// Checks that a run being resumed was made with the same solvers, datasets, budgets and shard.
fn check_resumable(dir: &std::path::Path, old: &RunInfo, new: &RunInfo) -> anyhow::Result<()> {
    let differs = |what: &str, a: String, b: String| -> anyhow::Result<()> {
        if a != b {
            anyhow::bail!(
                "cannot resume {}: its run.json has {what} {a}, these arguments give {b}; give \
                 the arguments of that run (run.json's command: {})",
                dir.display(),
                old.command.join(" ")
            );
        }
        Ok(())
    };
    differs("solvers", old.solvers.join(","), new.solvers.join(","))?;
    let ds = |i: &RunInfo| {
        i.datasets
            .iter()
            .map(|d| format!("{} ({}, {} puzzles)", d.name, d.source, d.puzzles))
            .collect::<Vec<_>>()
            .join(", ")
    };
    differs("datasets", ds(old), ds(new))?;
    differs(
        "timeout_ms",
        format!("{:?}", old.timeout_ms),
        format!("{:?}", new.timeout_ms),
    )?;
    differs(
        "max_nodes",
        format!("{:?}", old.max_nodes),
        format!("{:?}", new.max_nodes),
    )?;
    differs(
        "transform",
        format!("{:?} x {:?}", old.transform, old.isomorphs),
        format!("{:?} x {:?}", new.transform, new.isomorphs),
    )?;
    differs(
        "repeat",
        format!("{:?}", old.repeat),
        format!("{:?}", new.repeat),
    )?;
    differs(
        "shard",
        old.shard.map_or("none".into(), |s| s.to_string()),
        new.shard.map_or("none".into(), |s| s.to_string()),
    )
}

/// What the rows of a run write as they arrive: results.csv, the online summary, the rows to
/// name at the end.
struct Saver {
    results: record::ResultsWriter,
    summary: summary::Accumulator,
    rows: usize,
    wrong_rows: Vec<Row>,
    error_rows: Vec<Row>,
    /// The first solver's name: its rows count the puzzle classes, one per puzzle and copy.
    first_solver: String,
    /// Dataset -> classes of its puzzles (times the copies per puzzle).
    classes: std::collections::HashMap<String, crate::manifest::Classes>,
    /// PAR-2, virtual best, unique solves.
    scores: crate::scores::Scorer,
}

/// Wrong rows named on the terminal at the end (the rest are counted).
const NAMED_WRONG: usize = 100;

impl Saver {
    fn count(&mut self, r: &Row) {
        self.summary.add(r);
        self.scores.add(r);
        if r.solver == self.first_solver && r.status != crate::record::RowStatus::Invalid {
            self.classes
                .entry(r.dataset.clone())
                .or_default()
                .add(&r.solutions);
        }
        self.rows += 1;
        if r.is_wrong() && self.wrong_rows.len() < NAMED_WRONG {
            self.wrong_rows.push(r.clone());
        }
        if r.status == crate::record::RowStatus::Error && self.error_rows.len() < 10 {
            self.error_rows.push(r.clone());
        }
    }

    fn take(&mut self, rows: Vec<Row>) -> anyhow::Result<()> {
        self.results.append(&rows)?;
        for r in &rows {
            self.count(r);
        }
        Ok(())
    }
}

/// What `harness run` ended with.
pub struct RunEnd {
    /// Answers the checker rejected.
    pub wrong: usize,
    /// True when Ctrl-C or SIGTERM stopped the command (exit status 130): during the solves (the
    /// files hold what finished, and run.json says `"interrupted": true`), or after them, before
    /// the report (the files hold the whole run).
    pub interrupted: bool,
}

/// Runs the main job; returns how many answers were wrong.
///
/// # Errors
/// Unknown solver or dataset, an unwritable output folder, or a failed write.
pub fn run(args: &RunArgs) -> anyhow::Result<RunEnd> {
    let started = SystemTime::now();
    let solvers = engines(&args.solver, &args.external)?;
    let sources: Vec<Source> = if args.dataset.is_empty() {
        dataset::default_sources()
    } else {
        args.dataset
            .iter()
            .map(|d| dataset::open(d))
            .collect::<anyhow::Result<_>>()?
    };
    let names: Vec<(&str, &str)> = sources
        .iter()
        .map(|d| (d.name.as_str(), d.source.as_str()))
        .collect();
    refuse_duplicates(&names)?;
    let old = match &args.resume {
        Some(dir) => {
            if args.out.as_ref().is_some_and(|o| o != dir) {
                anyhow::bail!(
                    "--resume {} writes into that folder; leave out --out {}",
                    dir.display(),
                    args.out.as_ref().expect("checked").display()
                );
            }
            let info = crate::record::read_info(dir)
                .with_context(|| format!("cannot resume {}", dir.display()))?;
            if info.complete {
                anyhow::bail!(
                    "cannot resume {}: that run is complete (run.json says \"complete\": true)",
                    dir.display()
                );
            }
            Some(info)
        }
        None => None,
    };
    let out = args
        .resume
        .clone()
        .or_else(|| args.out.clone())
        .unwrap_or_else(|| {
            let stamp = humantime::format_rfc3339_seconds(started).to_string();
            let stamp: String = stamp.chars().filter(|c| c.is_ascii_digit()).collect();
            PathBuf::from("reports").join(format!("run-{}-{}", &stamp[..8], &stamp[8..14]))
        });
    let created = !out.exists();
    output::ensure_writable(&out)?;

    // One pass over the datasets (read as streams, nothing kept): counts per dataset of this
    // shard's puzzles, the unreadable ones named.
    let mut dataset_infos: Vec<DatasetInfo> = sources
        .iter()
        .map(|d| DatasetInfo {
            name: d.name.clone(),
            source: d.source.clone(),
            format: d.format.to_string(),
            puzzles: 0,
            invalid: 0,
        })
        .collect();
    let mut all = 0usize;
    for (k, src) in sources.iter().enumerate() {
        let mut entries = src.entries()?;
        for e in entries.by_ref() {
            let keep = args.shard.map_or(true, |s| s.takes(all));
            all += 1;
            if !keep {
                continue;
            }
            dataset_infos[k].puzzles += 1;
            if let Err(err) = &e.puzzle {
                eprintln!("invalid puzzle: {err}");
                dataset_infos[k].invalid += 1;
            }
        }
        if let Some(e) = entries.io_error() {
            return Err(e).with_context(|| format!("reading {}", src.source));
        }
    }
    let puzzles: usize = dataset_infos.iter().map(|d| d.puzzles).sum();
    let invalid: usize = dataset_infos.iter().map(|d| d.invalid).sum();
    if let Some(shard) = args.shard {
        if !args.quiet {
            eprintln!(
                "shard {shard}: {puzzles} of {all} puzzles (index mod {} = {})",
                shard.count,
                shard.index - 1
            );
        }
    }
    if puzzles > 0 && invalid == puzzles {
        // Nothing to solve: an input error (exit status 2), not a run.
        if created {
            let _ = std::fs::remove_dir(&out);
        }
        anyhow::bail!(
            "none of the {puzzles} puzzle(s) could be read (the reasons are above); nothing was run"
        );
    }
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    let mut info = RunInfo {
        harness_version: env!("CARGO_PKG_VERSION").into(),
        solvers: solvers.iter().map(|e| e.info().name.clone()).collect(),
        solver_details: solvers
            .iter()
            .map(|e| registry::record(e.as_ref()))
            .collect(),
        datasets: dataset_infos,
        threads,
        timeout_ms: (args.timeout_ms > 0).then_some(args.timeout_ms),
        max_nodes: args.max_nodes,
        git_commit: env!("HARNESS_GIT_COMMIT").into(),
        rustc: env!("HARNESS_RUSTC_VERSION").into(),
        cpu: record::cpu_model(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        host: record::host_name(),
        date: humantime::format_rfc3339_seconds(started).to_string(),
        elapsed_seconds: 0.0,
        // Until the end, run.json says the rows are partial (a killed run leaves it so).
        interrupted: true,
        complete: false,
        command: std::env::args().collect(),
        shard: args.shard,
        shards: Vec::new(),
        transform: args.isomorph.seed(),
        isomorphs: args.isomorph.isomorphs,
        repeat: (args.repeat > 1).then_some(args.repeat),
        manifests: Vec::new(),
        block: Some(runner::BLOCK),
        load_before: None,
        load_after: None,
    };
    for src in &sources {
        info.manifests.push(crate::manifest::manifest(
            src,
            crate::manifest::Options {
                classes: None,
                // Exact duplicates only: `harness inspect` looks for isomorphic ones.
                isomorph_limit: 0,
                // Flat memory: duplicates among the first 100,000 puzzles (about 2.4 MB).
                exact_limit: 100_000,
            },
        )?);
    }
    let mut summary_acc = summary::Accumulator::default();
    let mut scorer = crate::scores::Scorer::new(info.timeout_ms.map(|ms| ms as f64 * 1e3));
    let mut kept_classes: std::collections::HashMap<String, crate::manifest::Classes> =
        std::collections::HashMap::new();
    let first_solver = info.solvers.first().cloned().unwrap_or_default();
    let mut kept_rows = 0usize;
    let mut kept_wrong = Vec::new();
    let mut kept_errors = Vec::new();
    // Resuming: the saved rows that form whole puzzles in run order, up to the first puzzle
    // with a row missing, are kept; results.csv is cut there and the run goes on.
    let (results, done_puzzles) = match &old {
        Some(old) => {
            check_resumable(&out, old, &info)?;
            info.date = old.date.clone();
            let mut stream = puzzle_stream(&sources, args.shard)?;
            let per = solvers.len() * args.isomorph.copies() as usize;
            let mut pending: Vec<Row> = Vec::with_capacity(per);
            let mut pending_at = 0u64;
            let mut done = 0usize;
            let mut current: Option<(Arc<str>, Entry)> = None;
            let mut broken = false;
            let len = crate::record::for_each_row(&out, |r, at| {
                if broken {
                    return Ok(());
                }
                if pending.is_empty() {
                    pending_at = at;
                    current = stream.next();
                }
                let matches = current.as_ref().is_some_and(|(name, e)| {
                    **name == *r.dataset
                        && e.line == r.line
                        && e.label() == r.puzzle
                        && info.solvers[pending.len() % solvers.len()] == r.solver
                });
                if !matches {
                    broken = true;
                    return Ok(());
                }
                pending.push(r);
                if pending.len() == per {
                    for r in pending.drain(..) {
                        summary_acc.add(&r);
                        scorer.add(&r);
                        if r.solver == first_solver && r.status != crate::record::RowStatus::Invalid
                        {
                            kept_classes
                                .entry(r.dataset.clone())
                                .or_default()
                                .add(&r.solutions);
                        }
                        kept_rows += 1;
                        if r.is_wrong() && kept_wrong.len() < NAMED_WRONG {
                            kept_wrong.push(r);
                        } else if r.status == crate::record::RowStatus::Error
                            && kept_errors.len() < 10
                        {
                            kept_errors.push(r);
                        }
                    }
                    done += 1;
                }
                Ok(())
            })
            .with_context(|| format!("cannot resume {}", out.display()))?;
            let keep = if broken || !pending.is_empty() {
                pending_at
            } else {
                len
            };
            if !args.quiet {
                eprintln!(
                    "resuming {}: {done} of {puzzles} puzzle(s) saved; going on from there",
                    out.display()
                );
            }
            record::write_info(&out, &info)?;
            let _ = std::fs::remove_file(out.join("summary.csv"));
            (
                record::ResultsWriter::open(&out.join("results.csv"), Some(keep))?,
                done,
            )
        }
        None => (record::start_run(&out, &info)?, 0),
    };
    let mut saver = Saver {
        results,
        summary: summary_acc,
        rows: 0,
        wrong_rows: kept_wrong,
        error_rows: kept_errors,
        first_solver,
        classes: kept_classes,
        scores: scorer,
    };
    saver.rows = kept_rows;

    // From here on the first signal stops the solves and the finished rows are saved; a second
    // one exits at once (results.csv then holds the rows flushed so far).
    let cancel = Arc::new(AtomicBool::new(false));
    let solved_all = Arc::new(AtomicBool::new(false));
    let solving = {
        let (cancel, solved_all) = (cancel.clone(), solved_all.clone());
        interrupt::on_signal(move || {
            cancel.store(true, Ordering::SeqCst);
            if solved_all.load(Ordering::SeqCst) {
                eprintln!(
                    "\ninterrupted: every solve has finished; saving the results, then stopping \
                     (interrupt again to quit at once)"
                );
            } else {
                eprintln!(
                    "\ninterrupted: stopping the solves in flight and saving the finished rows \
                     (interrupt again to quit at once)"
                );
            }
        })
    };

    if !args.quiet {
        eprintln!(
            "running {} solver(s) over {} puzzle(s) in {} dataset(s) on {} thread(s), budget {} per puzzle",
            solvers.len(),
            puzzles,
            sources.len(),
            threads,
            match args.timeout_ms {
                0 => "unlimited".to_string(),
                ms => format!("{ms} ms"),
            }
        );
    }
    let mut opts = RunOptions {
        solvers: solvers.clone(),
        timeout: (args.timeout_ms > 0).then(|| Duration::from_millis(args.timeout_ms)),
        max_nodes: args.max_nodes,
        threads: Some(threads),
        progress: !args.quiet,
        transform: args.isomorph.seed(),
        isomorphs: args.isomorph.copies(),
        repeat: args.repeat,
        ..RunOptions::default()
    };
    opts.cancel = cancel.clone();
    opts.solved_all = solved_all.clone();
    info.load_before = record::load_average();
    let t0 = Instant::now();
    let stream = puzzle_stream(&sources, args.shard)?.skip(done_puzzles);
    let saving = runner::run_stream(
        stream,
        Some((puzzles - done_puzzles) as u64),
        &opts,
        |rows| saver.take(rows),
    );
    solved_all.store(true, Ordering::SeqCst);
    saving.with_context(|| format!("saving the run to {}", out.display()))?;
    let Saver {
        results,
        summary: acc,
        rows: saved,
        wrong_rows,
        error_rows,
        first_solver: _,
        classes,
        scores,
    } = saver;
    results
        .finish()
        .with_context(|| format!("saving the run to {}", out.display()))?;
    let elapsed = t0.elapsed().as_secs_f64();
    info.load_after = record::load_average();
    let copies = args.isomorph.copies() as usize;
    let planned = puzzles * solvers.len() * copies;
    for m in &mut info.manifests {
        // The classes of the puzzles solved (this shard's, on a sharded run), once per puzzle.
        let mut c = classes.get(&m.name).copied().unwrap_or_default();
        for n in [&mut c.none, &mut c.one, &mut c.several, &mut c.unknown] {
            *n /= copies;
        }
        m.classes = Some(c);
    }
    // `interrupted` in run.json means the rows are incomplete: a signal after the last solve
    // finished stops the command, but the rows are the whole run.
    let interrupted = saved < planned;
    let mut summary = acc.finish();
    scores.finish(&mut summary);
    info.elapsed_seconds = old.as_ref().map_or(0.0, |o| o.elapsed_seconds) + elapsed;
    info.interrupted = interrupted;
    info.complete = !interrupted;
    record::finish_run(&out, &summary, &info)
        .with_context(|| format!("saving the run to {}", out.display()))?;
    // Saved: a signal from here on stops the process at once (see `interrupt`), saying what was
    // kept.
    drop(solving);
    let stopped = cancel.load(Ordering::SeqCst);

    // The virtual best solver's rows are in summary.csv, not in the counts of the run.
    let summary: Vec<summary::SummaryRow> = {
        let mut s = summary;
        s.retain(|r| r.solver != crate::scores::VIRTUAL_BEST);
        s
    };
    let wrong: usize = summary.iter().map(|s| s.wrong).sum();
    let solved: usize = summary.iter().map(|s| s.solved).sum();
    let timeouts: usize = summary.iter().map(|s| s.timeouts).sum();
    let unchecked: usize = summary.iter().map(|s| s.unchecked).sum();
    let errors: usize = summary.iter().map(|s| s.errors).sum();
    if !args.quiet {
        println!("{}", summary::table(&summary));
        for r in &wrong_rows {
            eprintln!(
                "WRONG: {} {} {}: {}",
                r.dataset, r.puzzle, r.solver, r.error
            );
        }
        if wrong > wrong_rows.len() {
            eprintln!("WRONG: {} more (see results.csv)", wrong - wrong_rows.len());
        }
    }
    let mut extra = String::new();
    if unchecked > 0 {
        extra.push_str(&format!(
            ", {} solved unchecked (no solution written)",
            crate::human::count(unchecked)
        ));
    }
    if errors > 0 {
        extra.push_str(&format!(", {} error(s)", crate::human::count(errors)));
    }
    println!(
        "{} solves in {:.1} s: {} solved and checked, {} wrong, {} timeout(s){extra}, {} invalid puzzle(s)\nresults: {}",
        crate::human::count(saved),
        elapsed,
        crate::human::count(solved),
        crate::human::count(wrong),
        crate::human::count(timeouts),
        crate::human::count(invalid),
        out.display()
    );
    if !args.quiet {
        for r in &error_rows {
            eprintln!(
                "ERROR: {} {} {}: {}",
                r.dataset, r.puzzle, r.solver, r.error
            );
        }
    }
    if interrupted && stopped {
        eprintln!(
            "interrupted: {saved} of {planned} solves finished and saved (run.json says \"interrupted\": true; `harness run --resume {}` with the same arguments goes on)",
            out.display()
        );
    } else if stopped {
        // Every solve had finished when the signal came: the results are whole; stop before the
        // report.
        eprintln!(
            "interrupted after every solve finished: the results in {} are complete (run.json \
             says \"interrupted\": false); the report was not rendered (`harness report {}` \
             renders it)",
            out.display(),
            out.display()
        );
        return Ok(RunEnd {
            wrong,
            interrupted: true,
        });
    }
    if !args.no_report {
        interrupt::set_note(Some(format!(
            "the report was not finished (`harness report {}` renders it)",
            out.display()
        )));
        let report = crate::report::render(&out).with_context(|| {
            format!(
                "the results are saved in {}, but rendering the report failed",
                out.display()
            )
        });
        interrupt::set_note(None);
        let report = report?;
        if !args.quiet {
            println!("report: {}", report.index.display());
        }
    }
    Ok(RunEnd { wrong, interrupted })
}
