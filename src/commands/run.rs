//! `harness run`: the main job.

use crate::cli::RunArgs;
use crate::dataset::{self, Dataset};
use crate::output::{self, DatasetInfo, RunInfo};
use crate::runner::{self, RunOptions};
use crate::summary;
use anyhow::Context;
use solvers::SolverKind;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, SystemTime};

/// Parses `--solver` values: `all` or names.
///
/// # Errors
/// On an unknown name (the message lists the known ones).
pub fn parse_solvers(names: &[String]) -> anyhow::Result<Vec<SolverKind>> {
    if names.is_empty() || names.iter().any(|n| n == "all") {
        return Ok(SolverKind::ALL.to_vec());
    }
    let mut out = Vec::new();
    for n in names {
        let k: SolverKind = n.trim().parse()?;
        if !out.contains(&k) {
            out.push(k);
        }
    }
    Ok(out)
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
    /// True when Ctrl-C or SIGTERM stopped the run early (the files hold what finished).
    pub interrupted: bool,
}

/// Runs the main job; returns how many answers were wrong.
///
/// # Errors
/// Unknown solver or dataset, an unwritable output folder, or a failed write.
pub fn run(args: &RunArgs) -> anyhow::Result<RunEnd> {
    let started = SystemTime::now();
    let solvers = parse_solvers(&args.solver)?;
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
    // Catch Ctrl-C from here on: the run below can then save what it finished.
    let cancel = interrupt_flag();

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
    let elapsed = t0.elapsed().as_secs_f64();
    let interrupted = cancel.load(Ordering::SeqCst);
    let summary = summary::summarize(&rows);
    let info = RunInfo {
        harness_version: env!("CARGO_PKG_VERSION").into(),
        solvers: solvers.iter().map(|k| k.name().to_string()).collect(),
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

    let wrong: usize = summary.iter().map(|s| s.wrong).sum();
    let solved: usize = summary.iter().map(|s| s.solved).sum();
    let timeouts: usize = summary.iter().map(|s| s.timeouts).sum();
    if !args.quiet {
        println!("{}", summary::table(&summary));
        for r in rows.iter().filter(|r| r.is_wrong()) {
            eprintln!(
                "WRONG: {} {} {}: {}",
                r.dataset, r.puzzle, r.solver, r.error
            );
        }
    }
    println!(
        "{} solves in {:.1} s: {} solved and checked, {} wrong, {} timeout(s), {} invalid puzzle(s)\nresults: {}",
        summary::count(rows.len()),
        elapsed,
        summary::count(solved),
        summary::count(wrong),
        summary::count(timeouts),
        summary::count(invalid),
        out.display()
    );
    if interrupted {
        let planned: usize =
            datasets.iter().map(|d| d.entries.len()).sum::<usize>() * solvers.len();
        eprintln!(
            "interrupted: {} of {planned} solves finished and saved (run.json says \"interrupted\": true)",
            rows.len()
        );
    }
    if !args.no_report {
        let report = crate::report::render(&out).with_context(|| {
            format!(
                "the results are saved in {}, but rendering the report failed",
                out.display()
            )
        })?;
        if !args.quiet {
            println!("report: {}", report.index.display());
        }
    }
    Ok(RunEnd { wrong, interrupted })
}

/// The run's cancel flag, wired (once per process) to Ctrl-C (SIGINT) and SIGTERM: the first
/// signal sets it, so the solves in flight stop, the unfinished ones are dropped and the rows done
/// so far are saved with `"interrupted": true`; a second signal exits at once with status 130,
/// leaving no file half-written under its final name (every file is written atomically).
/// The flag is cleared at each call, for callers that run more than once in a process.
fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    let flag = FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let seen = flag.clone();
        let installed = ctrlc::set_handler(move || {
            if seen.swap(true, Ordering::SeqCst) {
                eprintln!("\ninterrupted again: exiting now (status 130), nothing more is saved");
                std::process::exit(130);
            }
            eprintln!(
                "\ninterrupted: stopping the solves in flight and saving the finished rows \
                 (interrupt again to quit at once)"
            );
        });
        if let Err(e) = installed {
            eprintln!("warning: Ctrl-C will not save partial results: {e}");
        }
        flag
    });
    flag.store(false, Ordering::SeqCst);
    flag.clone()
}
