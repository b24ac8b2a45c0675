//! `harness scale`: a scaling study (docs/scaling.md). Makes the instances of every point
//! ([`crate::scale::instances`]) in the run folder, runs them with `harness run`'s machinery
//! (budgets, checker, results.csv, run.json, the report, `--resume`, `--shard`), then writes the
//! scaling plots, scale.md and scale.csv ([`crate::scale::page`]).

use crate::cli::{Cli, Command, ScaleArgs};
use crate::commands::run::{self, RunEnd};
use crate::scale::instances::PlanRecord;
use crate::scale::{analysis, instances, page, Plan};
use clap::Parser;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The study's folder: `--resume`'s, `--out`, or `reports/scale-DATE-TIME`.
fn out_dir(args: &ScaleArgs) -> PathBuf {
    args.resume
        .clone()
        .or_else(|| args.limits.out.clone())
        .unwrap_or_else(|| {
            let stamp = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
            let stamp: String = stamp.chars().filter(|c| c.is_ascii_digit()).collect();
            PathBuf::from("reports").join(format!("scale-{}-{}", &stamp[..8], &stamp[8..14]))
        })
}

/// The `harness run` command line that runs the instance `files` into `out`.
fn run_argv(args: &ScaleArgs, out: &Path, files: &[PathBuf]) -> Vec<String> {
    let mut v: Vec<String> = vec!["harness".into(), "run".into()];
    let mut push = |a: &str, b: String| {
        v.push(a.into());
        v.push(b);
    };
    push("--solver", args.solvers.solver.join(","));
    push("--timeout-ms", args.limits.timeout_ms.to_string());
    if let Some(n) = args.limits.max_nodes {
        push("--max-nodes", n.to_string());
    }
    if let Some(t) = args.limits.threads {
        push("--threads", t.to_string());
    }
    if let Some(s) = args.limits.shard {
        push("--shard", s.to_string());
    }
    if let Some(f) = &args.solvers.external.solvers {
        push("--solvers", f.to_string_lossy().into_owned());
    }
    match &args.resume {
        Some(dir) => push("--resume", dir.to_string_lossy().into_owned()),
        None => push("--out", out.to_string_lossy().into_owned()),
    }
    for f in files {
        push("--dataset", f.to_string_lossy().into_owned());
    }
    if args.solvers.external.isolate {
        v.push("--isolate".into());
    }
    if args.limits.quiet {
        v.push("--quiet".into());
    }
    if args.limits.no_report {
        v.push("--no-report".into());
    }
    v
}

/// Checks a resumed study's scale.json against this plan, or writes it for a new one.
fn record_plan(out: &Path, plan: &Plan, resuming: bool) -> anyhow::Result<()> {
    let path = out.join("scale.json");
    let now = PlanRecord::of(plan);
    if !resuming {
        return now.write(&path);
    }
    let Some(old) = PlanRecord::read(&path) else {
        anyhow::bail!(
            "cannot resume {}: it has no readable scale.json (is it a `harness scale` run?)",
            out.display()
        );
    };
    if old != now {
        anyhow::bail!(
            "cannot resume {}: its scale.json has seed {}, {} a point and points {}; \
             these arguments give seed {}, {} and {}; give the arguments of that study",
            out.display(),
            old.seed,
            crate::plumbing::human::plural(old.instances, "instance"),
            old.datasets.join(", "),
            now.seed,
            now.instances,
            now.datasets.join(", ")
        );
    }
    Ok(())
}

/// Runs a study (or, with `--render`, renders the plots of a finished one).
///
/// # Errors
/// Bad arguments (shapes, fractions, solvers), a generator that fails, those of `harness run`,
/// or a plot that cannot be written.
pub fn scale(args: &ScaleArgs) -> anyhow::Result<RunEnd> {
    if let Some(dir) = &args.render {
        render(dir, args.limits.quiet)?;
        return Ok(RunEnd {
            wrong: 0,
            errors: 0,
            invalid: 0,
            interrupted: false,
        });
    }
    let plan = Plan::from_args(args)?;
    // Unknown solver names fail before any instance is made.
    run::engines(&args.solvers.solver, &args.solvers.external)?;
    let out = out_dir(args);
    crate::plumbing::output::ensure_writable(&out)?;
    let resuming = args.resume.is_some();
    record_plan(&out, &plan, resuming)?;
    let pool = super::generate::worker_pool(args.limits.threads)?;
    let folder = args
        .instances_dir
        .clone()
        .unwrap_or_else(|| out.join(instances::FOLDER));
    let made = pool.install(|| instances::make(&plan, &folder, args.limits.quiet))?;
    if !args.limits.quiet {
        errln!(
            "{} of {} each in {}{}{}",
            crate::plumbing::human::plural(made.files.len(), "instance file"),
            crate::plumbing::human::plural(plan.instances, "instance"),
            folder.display(),
            match made.kept {
                0 => String::new(),
                k => format!(" ({k} kept: made before for the same plan)"),
            },
            match made.unproven {
                0 => String::new(),
                k => format!(
                    "; {} unique but not proven minimal (a count ran past --count-nodes)",
                    crate::plumbing::human::plural(k, "Sudoku puzzle")
                ),
            }
        );
    }
    let argv = run_argv(args, &out, &made.files);
    let cli = Cli::try_parse_from(&argv)
        .map_err(|e| anyhow::anyhow!("the study's run cannot start: {e}"))?;
    let Some(Command::Run(run_args)) = cli.command else {
        anyhow::bail!("the study's run command is not a run: {}", argv.join(" "));
    };
    let end = run::run_for(&run_args, "harness scale")?;
    if !args.limits.no_report && !end.interrupted {
        render(&out, args.limits.quiet)?;
    }
    Ok(end)
}

/// Reads the study in `dir`, writes its plots, scale.md and scale.csv, and prints the fits and
/// peaks.
///
/// # Errors
/// When the run cannot be read or a file cannot be written.
pub fn render(dir: &Path, quiet: bool) -> anyhow::Result<()> {
    let study = analysis::load(dir)?;
    let md = page::write(dir, &study)?;
    if !quiet {
        for line in page::findings(&study) {
            outln!("{line}")?;
        }
    }
    outln!("scaling report: {}", md.display())?;
    Ok(())
}
