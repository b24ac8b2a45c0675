//! `harness run`: the main job.

use crate::cli::{ExternalArgs, RunArgs};
use crate::dataset::{self, Dataset};
use crate::interrupt;
use crate::output::{self, DatasetInfo, RunInfo};
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
    for (i, d) in datasets.iter().enumerate() {
        if let Some(e) = datasets[..i].iter().find(|e| e.name == d.name) {
            if e.source == d.source {
                anyhow::bail!(
                    "--dataset {} is given twice; give each dataset once",
                    d.source.strip_prefix("shipped:").unwrap_or(&d.source)
                );
            }
            anyhow::bail!(
                "--dataset {} and --dataset {} are both named {:?} (results are keyed by dataset \
                 name); rename one of the files",
                e.source.strip_prefix("shipped:").unwrap_or(&e.source),
                d.source.strip_prefix("shipped:").unwrap_or(&d.source),
                d.name
            );
        }
    }
    Ok(())
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
    let mut datasets: Vec<Dataset> = if args.dataset.is_empty() {
        dataset::defaults()
    } else {
        args.dataset
            .iter()
            .map(|d| dataset::load(d))
            .collect::<anyhow::Result<_>>()?
    };
    refuse_duplicate_names(&datasets)?;
    let out = args.out.clone().unwrap_or_else(|| {
        let stamp = humantime::format_rfc3339_seconds(started).to_string();
        let stamp: String = stamp.chars().filter(|c| c.is_ascii_digit()).collect();
        PathBuf::from("reports").join(format!("run-{}-{}", &stamp[..8], &stamp[8..14]))
    });
    let created = !out.exists();
    output::ensure_writable(&out)?;
    if let Some(shard) = args.shard {
        let all: usize = datasets.iter().map(|d| d.entries.len()).sum();
        let kept = shard.select(&mut datasets);
        if !args.quiet {
            eprintln!(
                "shard {shard}: {kept} of {all} puzzles (index mod {} = {})",
                shard.count,
                shard.index - 1
            );
        }
    }
    // Until here a signal stops the process at once (nothing is written yet). From here on the
    // first one stops the solves and the finished rows are saved; a second one exits at once.
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

    let mut invalid = 0;
    for ds in &datasets {
        for e in &ds.entries {
            if let Err(err) = &e.puzzle {
                eprintln!("invalid puzzle: {err}");
                invalid += 1;
            }
        }
    }
    let puzzles: usize = datasets.iter().map(|d| d.entries.len()).sum();
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
    if !args.quiet {
        eprintln!(
            "running {} solver(s) over {} puzzle(s) in {} dataset(s) on {} thread(s), budget {} per puzzle",
            solvers.len(),
            puzzles,
            datasets.len(),
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
        ..RunOptions::default()
    };
    opts.cancel = cancel.clone();
    let t0 = Instant::now();
    let rows = runner::run(&datasets, &opts)?;
    solved_all.store(true, Ordering::SeqCst);
    let elapsed = t0.elapsed().as_secs_f64();
    let planned = puzzles * solvers.len();
    // `interrupted` in run.json means the rows are incomplete: a signal after the last solve
    // finished stops the command, but the rows are the whole run.
    let interrupted = cancel.load(Ordering::SeqCst) && rows.len() < planned;
    let summary = summary::summarize(&rows);
    let info = RunInfo {
        harness_version: env!("CARGO_PKG_VERSION").into(),
        solvers: solvers.iter().map(|e| e.info().name.clone()).collect(),
        solver_details: solvers
            .iter()
            .map(|e| registry::record(e.as_ref()))
            .collect(),
        datasets: datasets
            .iter()
            .map(|d| DatasetInfo {
                name: d.name.clone(),
                source: d.source.clone(),
                format: d.format.to_string(),
                puzzles: d.entries.len(),
                invalid: d.invalid(),
            })
            .collect(),
        threads,
        timeout_ms: (args.timeout_ms > 0).then_some(args.timeout_ms),
        max_nodes: args.max_nodes,
        git_commit: env!("HARNESS_GIT_COMMIT").into(),
        rustc: env!("HARNESS_RUSTC_VERSION").into(),
        cpu: output::cpu_model(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        host: output::host_name(),
        date: humantime::format_rfc3339_seconds(started).to_string(),
        elapsed_seconds: elapsed,
        interrupted,
        command: std::env::args().collect(),
        shard: args.shard,
        shards: Vec::new(),
    };
    output::write_run(&out, &rows, &summary, &info)
        .with_context(|| format!("saving the run to {}", out.display()))?;
    // Saved: a signal from here on stops the process at once (see `interrupt`), saying what was
    // kept.
    drop(solving);
    let stopped = cancel.load(Ordering::SeqCst);

    let wrong: usize = summary.iter().map(|s| s.wrong).sum();
    let solved: usize = summary.iter().map(|s| s.solved).sum();
    let timeouts: usize = summary.iter().map(|s| s.timeouts).sum();
    let unchecked: usize = summary.iter().map(|s| s.unchecked).sum();
    let errors: usize = summary.iter().map(|s| s.errors).sum();
    if !args.quiet {
        println!("{}", summary::table(&summary));
        for r in rows.iter().filter(|r| r.is_wrong()) {
            eprintln!(
                "WRONG: {} {} {}: {}",
                r.dataset, r.puzzle, r.solver, r.error
            );
        }
    }
    let mut extra = String::new();
    if unchecked > 0 {
        extra.push_str(&format!(
            ", {} solved unchecked (no solution written)",
            summary::count(unchecked)
        ));
    }
    if errors > 0 {
        extra.push_str(&format!(", {} error(s)", summary::count(errors)));
    }
    println!(
        "{} solves in {:.1} s: {} solved and checked, {} wrong, {} timeout(s){extra}, {} invalid puzzle(s)\nresults: {}",
        summary::count(rows.len()),
        elapsed,
        summary::count(solved),
        summary::count(wrong),
        summary::count(timeouts),
        summary::count(invalid),
        out.display()
    );
    if !args.quiet {
        for r in rows
            .iter()
            .filter(|r| r.status == crate::record::RowStatus::Error)
            .take(10)
        {
            eprintln!(
                "ERROR: {} {} {}: {}",
                r.dataset, r.puzzle, r.solver, r.error
            );
        }
    }
    if interrupted {
        eprintln!(
            "interrupted: {} of {planned} solves finished and saved (run.json says \"interrupted\": true)",
            rows.len()
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
