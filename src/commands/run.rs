//! `harness run`: the main job.

use crate::cli::RunArgs;
use crate::dataset::{self, Dataset};
use crate::output::{self, DatasetInfo, RunInfo};
use crate::runner::{self, RunOptions};
use crate::summary;
use anyhow::Context;
use solvers::SolverKind;
use std::path::PathBuf;
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

/// What `harness run` ended with.
pub struct RunEnd {
    /// Answers the checker rejected.
    pub wrong: usize,
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
    let opts = RunOptions {
        solvers: solvers.clone(),
        timeout: (args.timeout_ms > 0).then(|| Duration::from_millis(args.timeout_ms)),
        max_nodes: args.max_nodes,
        threads: Some(threads),
        progress: !args.quiet,
        ..RunOptions::default()
    };
    let t0 = Instant::now();
    let rows = runner::run(&datasets, &opts)?;
    let elapsed = t0.elapsed().as_secs_f64();
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
        interrupted: false,
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
        "{} solves in {:.1} s: {} solved and checked, {} wrong, {} timeouts, {} invalid puzzle(s); results in {}",
        rows.len(),
        elapsed,
        solved,
        wrong,
        timeouts,
        invalid,
        out.display()
    );
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
    Ok(RunEnd { wrong })
}
