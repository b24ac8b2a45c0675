//! `harness run`: the main job.

use crate::analysis::summary;
use crate::cli::{ExternalArgs, RunArgs};
use crate::execution::registry::{self, Registry};
use crate::execution::runner::{self, RunOptions};
use crate::input::dataset::{self, Dataset, Source};
use crate::input::format::Entry;
use crate::plumbing::human::plural;
use crate::plumbing::interrupt;
use crate::plumbing::output;
use crate::record::{self, DatasetInfo, Row, RunInfo};
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
    registry(external, true)?.resolve(names, external.isolate)
}

/// The registry of `external`'s solvers file, for every command that takes `--solvers`, read
/// before any work: a file given with `--solvers` is read whether or not a solver of it is
/// named, so a missing or malformed one is an error naming it; the default `solvers.toml` of the
/// current folder is optional, and read only when `named` (a command whose `--solver` is absent
/// runs a built-in default and needs no solvers file).
///
/// # Errors
/// A solvers file that cannot be read or parsed ([`Registry::load`]).
pub fn registry(external: &ExternalArgs, named: bool) -> anyhow::Result<Registry> {
    solvers::sat::set_choice(external.encoding);
    if !named && external.solvers.is_none() {
        return Ok(Registry::default());
    }
    Registry::load(external.solvers.as_deref())
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
    // One setting, as `of` writes it, in the old run and in the new one.
    let differs = |what: &str, of: &dyn Fn(&RunInfo) -> String| -> anyhow::Result<()> {
        let (a, b) = (of(old), of(new));
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
    differs("solvers", &|i| i.solvers.join(","))?;
    differs("datasets", &|i| {
        i.datasets
            .iter()
            .map(|d| format!("{} ({}, {} puzzles)", d.name, d.source, d.puzzles))
            .collect::<Vec<_>>()
            .join(", ")
    })?;
    // Same names are not enough: a puzzle replaced in a file, or a `cmd:` script edited, would
    // put old rows beside new ones.
    differs("dataset files", &|i| {
        let v: Vec<String> = i
            .manifests
            .iter()
            .map(|m| format!("{} sha256 {}", m.name, m.sha256))
            .collect();
        v.join(", ")
    })?;
    differs("solvers' specs and files", &|i| {
        let v: Vec<String> = i
            .solver_details
            .iter()
            .map(|d| {
                let files: Vec<String> = d
                    .files
                    .iter()
                    .map(|f| format!("{} sha256 {}", f.path, f.sha256))
                    .collect();
                format!("{} = [{}] {}", d.name, d.command.join(" "), files.join(" "))
            })
            .collect();
        v.join(", ")
    })?;
    differs("timeout_ms", &|i| output::setting(i.timeout_ms))?;
    differs("max_nodes", &|i| output::setting(i.max_nodes))?;
    differs("transform", &|i| {
        format!(
            "{} x {}",
            output::setting(i.transform),
            output::setting(i.isomorphs)
        )
    })?;
    differs("repeat", &|i| output::setting(i.repeat))?;
    differs("shard", &|i| {
        i.shard.map_or("none".into(), |s| s.to_string())
    })
}

/// What the rows of a run add up to as they arrive: the online summary and scores, the puzzle
/// classes, the rows to name at the end. Kept rows of a resumed run are counted alike.
struct Tally {
    summary: summary::Accumulator,
    rows: usize,
    wrong_rows: Vec<Row>,
    error_rows: Vec<Row>,
    /// The first solver's name: its rows count the classes of the 9x9 puzzles, one per puzzle
    /// and copy.
    first_solver: String,
    /// The first solver that takes every shape: its rows count the classes of the other
    /// puzzles.
    first_any: String,
    /// Dataset -> classes of its puzzles (times the copies per puzzle).
    classes: std::collections::HashMap<String, crate::record::manifest::Classes>,
    /// PAR-2, virtual best, unique solves.
    scores: crate::analysis::scores::Scorer,
}

/// Wrong rows named on the terminal at the end (the rest are counted).
const NAMED_WRONG: usize = 100;

/// Error rows named on the terminal at the end.
const NAMED_ERRORS: usize = 10;

impl Tally {
    fn new(info: &RunInfo) -> Tally {
        let mut summary = summary::Accumulator::for_run(info);
        let mut scores =
            crate::analysis::scores::Scorer::new(info.timeout_ms.map(|ms| ms as f64 * 1e3));
        let copies = info.isomorphs.unwrap_or(1).max(1) as usize;
        for d in &info.datasets {
            for c in d.shape_counts() {
                summary.expect(&d.name, &c.shape, c.puzzles * copies);
                scores.expect(&d.name, &c.shape, c.puzzles * copies);
            }
        }
        Tally {
            summary,
            rows: 0,
            wrong_rows: Vec::new(),
            error_rows: Vec::new(),
            first_solver: info.solvers.first().cloned().unwrap_or_default(),
            first_any: info
                .solvers
                .iter()
                .find(|s| info.solver_takes(s, "any"))
                .cloned()
                .unwrap_or_default(),
            classes: std::collections::HashMap::new(),
            scores,
        }
    }

    fn count(&mut self, r: &Row) {
        self.summary.add(r);
        self.scores.add(r);
        let counter = if r.is_classic() {
            &self.first_solver
        } else {
            &self.first_any
        };
        if r.solver == *counter && r.status != crate::record::RowStatus::Invalid {
            self.classes
                .entry(r.dataset.clone())
                .or_default()
                .add(r.solutions);
        }
        self.rows += 1;
        if r.is_wrong() && self.wrong_rows.len() < NAMED_WRONG {
            self.wrong_rows.push(r.clone());
        }
        if r.status == crate::record::RowStatus::Error && self.error_rows.len() < NAMED_ERRORS {
            self.error_rows.push(r.clone());
        }
    }
}

/// What `harness run` ended with.
pub struct RunEnd {
    /// Answers the checker rejected.
    pub wrong: usize,
    /// Rows whose solver failed (`error`: it crashed, could not start, or answered garbage).
    pub errors: usize,
    /// Puzzles that could not be read (`invalid` rows).
    pub invalid: usize,
    /// True when Ctrl-C or SIGTERM stopped the command (exit status 130): during the solves (the
    /// files hold what finished, and run.json says `"interrupted": true`), or after them, before
    /// the report (the files hold the whole run).
    pub interrupted: bool,
}

/// The datasets of `--dataset` (the default set without), refusing two of one name.
fn open_sources(args: &RunArgs) -> anyhow::Result<Vec<Source>> {
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
    Ok(sources)
}

/// The run.json of the run `--resume` names, which must be unfinished; `None` without it.
fn resumed_info(args: &RunArgs) -> anyhow::Result<Option<RunInfo>> {
    let Some(dir) = &args.resume else {
        return Ok(None);
    };
    if let Some(o) = args.limits.out.as_ref().filter(|o| *o != dir) {
        anyhow::bail!(
            "--resume {} writes into that folder; leave out --out {}",
            dir.display(),
            o.display()
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
    Ok(Some(info))
}

/// The run's folder: `--resume`'s, `--out`, or `reports/run-DATE-TIME`.
fn out_dir(args: &RunArgs, started: SystemTime) -> PathBuf {
    args.resume
        .clone()
        .or_else(|| args.limits.out.clone())
        .unwrap_or_else(|| {
            let stamp = humantime::format_rfc3339_seconds(started).to_string();
            let stamp: String = stamp.chars().filter(|c| c.is_ascii_digit()).collect();
            PathBuf::from("reports").join(format!("run-{}-{}", &stamp[..8], &stamp[8..14]))
        })
}

/// One pass over the datasets (read as streams, nothing kept): this shard's puzzles counted per
/// dataset, the unreadable ones named on stderr. Returns the counts and the puzzles of every
/// shard.
fn count_puzzles(
    sources: &[Source],
    shard: Option<crate::record::Shard>,
) -> anyhow::Result<(Vec<DatasetInfo>, usize)> {
    let mut infos: Vec<DatasetInfo> = sources
        .iter()
        .map(|d| DatasetInfo {
            name: d.name.clone(),
            source: d.source.clone(),
            format: d.format.to_string(),
            puzzles: 0,
            invalid: 0,
            shapes: Vec::new(),
        })
        .collect();
    let mut all = 0usize;
    for (k, src) in sources.iter().enumerate() {
        let mut entries = src.entries()?;
        for e in entries.by_ref() {
            let keep = shard.map_or(true, |s| s.takes(all));
            all += 1;
            if !keep {
                continue;
            }
            infos[k].puzzles += 1;
            match &e.puzzle {
                Ok(p) => {
                    let shape = p.shape().to_string();
                    let shapes = &mut infos[k].shapes;
                    match shapes.iter_mut().find(|c| c.shape == shape) {
                        Some(c) => c.puzzles += 1,
                        None => shapes.push(record::ShapeCount { shape, puzzles: 1 }),
                    }
                }
                Err(err) => {
                    errln!("invalid puzzle: {err}");
                    infos[k].invalid += 1;
                }
            }
        }
        if let Some(e) = entries.io_error() {
            return Err(e).with_context(|| format!("reading {}", src.source));
        }
    }
    Ok((infos, all))
}

/// Refuses a run with nothing to solve (an input error, exit status 2): datasets without a
/// puzzle, or none readable. Removes `out` if this run created it.
fn refuse_nothing_to_run(
    sources: &[Source],
    infos: &[DatasetInfo],
    all: usize,
    out: &std::path::Path,
    created: bool,
) -> anyhow::Result<()> {
    let puzzles: usize = infos.iter().map(|d| d.puzzles).sum();
    let invalid: usize = infos.iter().map(|d| d.invalid).sum();
    if all > 0 && (puzzles == 0 || invalid < puzzles) {
        return Ok(());
    }
    if created {
        let _ = std::fs::remove_dir(out);
    }
    if all == 0 {
        let names: Vec<(&str, crate::input::format::Format)> = sources
            .iter()
            .map(|s| (s.source.as_str(), s.format))
            .collect();
        return Err(crate::input::dataset::no_puzzle(&names, "run"));
    }
    let which = match puzzles {
        1 => "the one puzzle could not be read".to_string(),
        n => format!("none of the {} could be read", plural(n, "puzzle")),
    };
    anyhow::bail!("{which} (the reasons are above); nothing was run")
}

/// The run.json a run starts with (`"complete": false` until the end, so a killed run says
/// so), with each dataset's manifest.
fn start_info(
    args: &RunArgs,
    solvers: &[Arc<dyn Engine>],
    sources: &[Source],
    datasets: Vec<DatasetInfo>,
    started: SystemTime,
) -> anyhow::Result<RunInfo> {
    let mut info = RunInfo {
        harness_version: env!("CARGO_PKG_VERSION").into(),
        solvers: solvers.iter().map(|e| e.info().name.clone()).collect(),
        solver_details: solvers
            .iter()
            .map(|e| registry::record(e.as_ref()))
            .collect(),
        datasets,
        threads: args
            .limits
            .threads
            .unwrap_or_else(rayon::current_num_threads),
        timeout_ms: (args.limits.timeout_ms > 0).then_some(args.limits.timeout_ms),
        max_nodes: args.limits.max_nodes,
        git_commit: env!("HARNESS_GIT_COMMIT").into(),
        rustc: env!("HARNESS_RUSTC_VERSION").into(),
        cpu: record::cpu_model(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        host: record::host_name(),
        date: humantime::format_rfc3339_seconds(started).to_string(),
        elapsed_seconds: 0.0,
        interrupted: true,
        complete: false,
        command: std::env::args().collect(),
        shard: args.limits.shard,
        shards: Vec::new(),
        transform: args.isomorph.seed(),
        isomorphs: args.isomorph.isomorphs,
        repeat: (args.repeat > 1).then_some(args.repeat),
        manifests: Vec::new(),
        block: Some(runner::BLOCK),
        load_before: None,
        load_after: None,
    };
    for src in sources {
        info.manifests.push(crate::execution::manifest::manifest(
            src,
            crate::execution::manifest::Options {
                classes: None,
                // Exact duplicates only: `harness inspect` looks for isomorphic ones.
                isomorph_limit: 0,
                // Flat memory: duplicates among the first 100,000 puzzles (about 2.4 MB).
                exact_limit: 100_000,
            },
        )?);
    }
    Ok(info)
}

/// Resumes the run in `out`: the saved rows that form whole puzzles in run order, up to the
/// first puzzle with a row missing, are counted into `tally`; results.csv is cut there and
/// opened for the rest. Returns it and the puzzles kept.
fn resume(
    out: &std::path::Path,
    info: &RunInfo,
    solvers: &[Arc<dyn Engine>],
    sources: &[Source],
    args: &RunArgs,
    tally: &mut Tally,
) -> anyhow::Result<(record::ResultsWriter, usize)> {
    let mut stream = puzzle_stream(sources, args.limits.shard)?;
    let copies = args.isomorph.copies() as usize;
    // The solvers whose rows a puzzle has, in row order: every copy, each solver that takes its
    // shape (an engine that does not take it gives no row).
    let expected = |e: &Entry| -> Vec<&str> {
        let takes: Vec<&str> = solvers
            .iter()
            .filter(|s| match &e.puzzle {
                Ok(p) => s.info().caps.shapes.takes(p.shape()),
                Err(_) => true,
            })
            .map(|s| s.info().name.as_str())
            .collect();
        (0..copies).flat_map(|_| takes.iter().copied()).collect()
    };
    let mut pending: Vec<Row> = Vec::new();
    let (mut pending_at, mut done, mut broken) = (0u64, 0usize, false);
    let mut current: Option<(Arc<str>, Entry)> = None;
    let mut want: Vec<&str> = Vec::new();
    let len = crate::record::for_each_row(out, |r, at| {
        if broken {
            return Ok(());
        }
        if pending.is_empty() {
            pending_at = at;
            // Puzzles no solver takes have no row: they are done.
            loop {
                current = stream.next();
                want = current
                    .as_ref()
                    .map(|(_, e)| expected(e))
                    .unwrap_or_default();
                if current.is_none() || !want.is_empty() {
                    break;
                }
                done += 1;
            }
        }
        broken = !current.as_ref().is_some_and(|(name, e)| {
            **name == *r.dataset
                && e.line == r.line
                && e.label() == r.puzzle
                && want.get(pending.len()) == Some(&r.solver.as_str())
        });
        if broken {
            return Ok(());
        }
        pending.push(r);
        if pending.len() == want.len() {
            pending.drain(..).for_each(|r| tally.count(&r));
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
    if !args.limits.quiet {
        let puzzles: usize = info.datasets.iter().map(|d| d.puzzles).sum();
        errln!(
            "resuming {}: {} of {} saved; going on from there",
            out.display(),
            crate::plumbing::human::count(done),
            crate::plumbing::human::plural(puzzles, "puzzle")
        );
    }
    record::write_info(out, info)?;
    let _ = std::fs::remove_file(out.join("summary.csv"));
    let results = record::ResultsWriter::open(&out.join("results.csv"), Some(keep))?;
    Ok((results, done))
}

/// The signal handler of the solves: the first signal sets `cancel` (the solves in flight stop,
/// the finished rows are saved); a second one exits at once. Returns the flags and the guard
/// that keeps the handler.
fn on_signal_during_solves() -> (Arc<AtomicBool>, Arc<AtomicBool>, interrupt::SignalGuard) {
    let cancel = Arc::new(AtomicBool::new(false));
    let solved_all = Arc::new(AtomicBool::new(false));
    let (c, s) = (cancel.clone(), solved_all.clone());
    let guard = interrupt::on_signal(move || {
        c.store(true, Ordering::SeqCst);
        if s.load(Ordering::SeqCst) {
            errln!(
                "\ninterrupted: every solve has finished; saving the results, then stopping \
                 (interrupt again to quit at once)"
            );
        } else {
            errln!(
                "\ninterrupted: stopping the solves in flight and saving the finished rows \
                 (interrupt again to quit at once)"
            );
        }
    });
    (cancel, solved_all, guard)
}

/// Runs the main job.
///
/// # Errors
/// Unknown solver or dataset, nothing to run (empty or unreadable datasets), a resumed run
/// that is not this one, an unwritable output folder, or a failed write.
pub fn run(args: &RunArgs) -> anyhow::Result<RunEnd> {
    run_for(args, "harness run")
}

/// [`run`] on behalf of `command` (`harness run`, or `harness scale` for a study's run): the
/// command an interrupted run names to go on with (`COMMAND --resume DIR`).
///
/// # Errors
/// As [`run`].
pub fn run_for(args: &RunArgs, command: &str) -> anyhow::Result<RunEnd> {
    let solvers = engines(&args.solvers.solver, &args.solvers.external)?;
    run_engines(args, solvers, command, true)
}

/// [`run_for`] with the engines given instead of resolved from `args.solvers.solver` (which is not
/// read): for library callers that bring engines of their own (the Python package's `race`,
/// whose Python callables are engines). The run is the same: budgets, checker, the run folder
/// (`args.limits.out`), the report unless `args.limits.no_report`. With `print` false, nothing is printed on
/// stdout (the summary table and the final count), and with `args.limits.quiet` nothing on stderr
/// but the names of unreadable puzzles.
///
/// # Errors
/// As [`run`].
pub fn run_engines(
    args: &RunArgs,
    solvers: Vec<Arc<dyn Engine>>,
    command: &str,
    print: bool,
) -> anyhow::Result<RunEnd> {
    let started = SystemTime::now();
    let sources = open_sources(args)?;
    let old = resumed_info(args)?;
    let out = out_dir(args, started);
    let created = !out.exists();
    output::ensure_writable(&out)?;
    let (datasets, all) = count_puzzles(&sources, args.limits.shard)?;
    refuse_nothing_to_run(&sources, &datasets, all, &out, created)?;
    if !args.limits.quiet {
        say_untaken_shapes(&solvers, &datasets);
    }
    let puzzles: usize = datasets.iter().map(|d| d.puzzles).sum();
    if let (Some(shard), false) = (args.limits.shard, args.limits.quiet) {
        errln!(
            "shard {shard}: {} of {} puzzles (index mod {} = {})",
            crate::plumbing::human::count(puzzles),
            crate::plumbing::human::count(all),
            shard.count,
            shard.index - 1
        );
    }
    let mut info = start_info(args, &solvers, &sources, datasets, started)?;
    let mut tally = Tally::new(&info);
    let (mut results, done) = match &old {
        Some(old) => {
            check_resumable(&out, old, &info)?;
            info.date = old.date.clone();
            resume(&out, &info, &solvers, &sources, args, &mut tally)?
        }
        None => (record::start_run(&out, &info)?, 0),
    };
    let (cancel, solved_all, solving) = on_signal_during_solves();
    info.load_before = record::load_average();
    let t0 = Instant::now();
    let remaining = info.planned_solves().saturating_sub(tally.rows);
    let saving = solve(
        args,
        &solvers,
        &info,
        &sources,
        (done, remaining),
        (&cancel, &solved_all),
        |rows| {
            results.append(&rows)?;
            rows.iter().for_each(|r| tally.count(r));
            Ok(())
        },
    );
    solved_all.store(true, Ordering::SeqCst);
    info.load_after = record::load_average();
    let saving_to = || format!("saving the run to {}", out.display());
    saving.with_context(saving_to)?;
    results.finish().with_context(saving_to)?;
    let elapsed = t0.elapsed().as_secs_f64();
    info.elapsed_seconds = old.as_ref().map_or(0.0, |o| o.elapsed_seconds) + elapsed;
    let (summary, named) = finish(&out, &mut info, tally, args.isomorph.copies() as usize)?;
    // Saved: a signal from here on stops the process at once (see `interrupt`), saying what was
    // kept.
    drop(solving);
    let mut end = run_end(&info, &summary);
    // Stdout failing (a full disk, a closed descriptor) loses the table, never the run: its
    // files are complete and its report is rendered; the failure is said on stderr at the end.
    let mut printed = if print {
        print_end(args, &out, &info, &summary, &named, elapsed)
    } else {
        Ok(())
    };
    if cancel.load(Ordering::SeqCst) {
        stopped_note(&out, &info, &named, command);
        end.interrupted = true;
        if !info.interrupted {
            // Every solve had finished when the signal came: stop before the report.
            unprinted(printed, &out);
            return Ok(end);
        }
    }
    if !args.limits.no_report {
        let index = render_report(&out)?;
        if !args.limits.quiet {
            printed = printed.and_then(|()| outln!("report: {}", index.display()));
        }
    }
    unprinted(printed, &out);
    Ok(end)
}

/// Says on stderr that stdout failed (`printed`), and that the run's files are whole anyway.
fn unprinted(printed: Result<(), output::StdoutError>, out: &std::path::Path) {
    if let Err(e) = printed {
        errln!(
            "warning: {e}: {}; the run is complete in {} (summary.csv holds the table)",
            e.0,
            out.display()
        );
    }
}

/// Says on stderr, per dataset, which solvers leave some of its puzzles out because they do not
/// take their shape (`tdoku` and the bitboard solvers take 9x9 only), so a run that gives them
/// no row says why.
fn say_untaken_shapes(solvers: &[Arc<dyn Engine>], datasets: &[record::DatasetInfo]) {
    for d in datasets {
        // Solvers grouped by what they take and how many of the dataset's puzzles they leave.
        let mut groups: Vec<(solvers::engine::Shapes, usize, Vec<&str>)> = Vec::new();
        for s in solvers {
            let takes = s.info().caps.shapes;
            let left: usize = d
                .shapes
                .iter()
                .filter(|c| {
                    c.shape
                        .parse::<solvers::Shape>()
                        .is_ok_and(|shape| !takes.takes(shape))
                })
                .map(|c| c.puzzles)
                .sum();
            if left == 0 {
                continue;
            }
            match groups.iter_mut().find(|g| g.0 == takes && g.1 == left) {
                Some(g) => g.2.push(s.info().name.as_str()),
                None => groups.push((takes, left, vec![s.info().name.as_str()])),
            }
        }
        for (takes, left, names) in groups {
            errln!(
                "{}",
                crate::plumbing::human::wrap(&format!(
                    "{}: {} of another order than {}, left out by {} ({} grids only)",
                    d.name,
                    crate::plumbing::human::plural(left, "puzzle"),
                    takes.as_str(),
                    names.join(", "),
                    takes.as_str()
                ))
            );
        }
    }
}

/// Announces the run and solves the puzzles of `sources` after the first `done` (this shard's),
/// `remaining` solves in all, handing each chunk's rows to `save`.
fn solve(
    args: &RunArgs,
    solvers: &[Arc<dyn Engine>],
    info: &RunInfo,
    sources: &[Source],
    (done, remaining): (usize, usize),
    (cancel, solved_all): (&Arc<AtomicBool>, &Arc<AtomicBool>),
    save: impl FnMut(Vec<Row>) -> anyhow::Result<()> + Send,
) -> anyhow::Result<()> {
    let puzzles: usize = info.datasets.iter().map(|d| d.puzzles).sum();
    if !args.limits.quiet {
        errln!(
            "running {} over {} in {} on {}, budget {} per puzzle",
            plural(solvers.len(), "solver"),
            plural(puzzles, "puzzle"),
            plural(sources.len(), "dataset"),
            plural(info.threads, "thread"),
            match args.limits.timeout_ms {
                0 => "unlimited".to_string(),
                ms => format!("{ms} ms"),
            }
        );
    }
    let opts = RunOptions {
        solvers: solvers.to_vec(),
        timeout: (args.limits.timeout_ms > 0)
            .then(|| Duration::from_millis(args.limits.timeout_ms)),
        max_nodes: args.limits.max_nodes,
        threads: Some(info.threads),
        progress: !args.limits.quiet,
        transform: args.isomorph.seed(),
        isomorphs: args.isomorph.copies(),
        repeat: args.repeat,
        cancel: cancel.clone(),
        solved_all: solved_all.clone(),
        ..RunOptions::default()
    };
    let stream = puzzle_stream(sources, args.limits.shard)?.skip(done);
    runner::run_stream(stream, Some(remaining as u64), &opts, save)
}

/// Writes summary.csv and the final run.json (`interrupted` exactly when rows are missing: a
/// signal after the last solve leaves the rows whole). Returns the summary (without the virtual
/// best solver's rows) and the tally's named rows.
fn finish(
    out: &std::path::Path,
    info: &mut RunInfo,
    tally: Tally,
    copies: usize,
) -> anyhow::Result<(Vec<summary::SummaryRow>, Named)> {
    let planned = info.planned_solves();
    for m in &mut info.manifests {
        // The classes of the puzzles solved (this shard's, on a sharded run), once per puzzle.
        let mut c = tally.classes.get(&m.name).copied().unwrap_or_default();
        for n in [&mut c.none, &mut c.one, &mut c.several, &mut c.unknown] {
            *n /= copies;
        }
        m.classes = Some(c);
    }
    info.interrupted = tally.rows < planned;
    info.complete = !info.interrupted;
    let mut summary = tally.summary.finish();
    tally.scores.finish(&mut summary);
    record::finish_run(out, &summary, info)
        .with_context(|| format!("saving the run to {}", out.display()))?;
    summary.retain(|r| r.solver != crate::analysis::scores::VIRTUAL_BEST);
    let named = Named {
        rows: tally.rows,
        planned,
        wrong: tally.wrong_rows,
        errors: tally.error_rows,
    };
    Ok((summary, named))
}

/// The rows saved and planned, and the rows named on the terminal at the end.
struct Named {
    rows: usize,
    planned: usize,
    wrong: Vec<Row>,
    errors: Vec<Row>,
}

/// The counts of a run's exit status.
fn run_end(info: &RunInfo, summary: &[summary::SummaryRow]) -> RunEnd {
    let sum = |f: fn(&summary::SummaryRow) -> usize| summary.iter().map(f).sum::<usize>();
    RunEnd {
        wrong: sum(|s| s.wrong),
        errors: sum(|s| s.errors),
        invalid: info.datasets.iter().map(|d| d.invalid).sum(),
        interrupted: info.interrupted,
    }
}

/// Prints the summary table, the wrong and error rows, and the one-line count.
///
/// # Errors
/// A failed write to stdout (stderr's lines are dropped when it fails).
fn print_end(
    args: &RunArgs,
    out: &std::path::Path,
    info: &RunInfo,
    summary: &[summary::SummaryRow],
    named: &Named,
    elapsed: f64,
) -> Result<(), output::StdoutError> {
    let sum = |f: fn(&summary::SummaryRow) -> usize| summary.iter().map(f).sum::<usize>();
    let (wrong, solved, timeouts) = (sum(|s| s.wrong), sum(|s| s.solved), sum(|s| s.timeouts));
    let (unchecked, errors) = (sum(|s| s.unchecked), sum(|s| s.errors));
    let invalid: usize = info.datasets.iter().map(|d| d.invalid).sum();
    // After a failed write to stdout, the later stdout lines are skipped, stderr's still written.
    let mut printed = Ok(());
    if !args.limits.quiet {
        printed = outln!(
            "{}",
            summary::table_planned(summary, summary::planned_of(info))
        )
        .and_then(|()| several_solutions_note(info));
        for r in &named.wrong {
            errln!(
                "WRONG: {} {} {}: {}",
                r.dataset,
                r.puzzle,
                r.solver,
                r.error
            );
        }
        if wrong > named.wrong.len() {
            errln!(
                "WRONG: {} more (see results.csv)",
                wrong - named.wrong.len()
            );
        }
    }
    let mut extra = String::new();
    if unchecked > 0 {
        extra.push_str(&format!(
            ", {} solved unchecked (no solution written)",
            crate::plumbing::human::count(unchecked)
        ));
    }
    if errors > 0 {
        extra.push_str(&format!(", {}", plural(errors, "error")));
    }
    printed = printed.and_then(|()| {
        outln!(
            "{} in {:.1} s: {} solved and checked, {} wrong, {}{extra}, {}\nresults: {}",
            plural(named.rows, "solve"),
            elapsed,
            crate::plumbing::human::count(solved - unchecked),
            crate::plumbing::human::count(wrong),
            plural(timeouts, "timeout"),
            plural(invalid, "invalid puzzle"),
            out.display()
        )
    });
    if !args.limits.quiet {
        if let Some((head, text)) = crate::report::noise_note(info, summary) {
            let warning = format!("warning: {}: {text}", head.to_lowercase());
            errln!("{}", crate::plumbing::human::wrap(&warning));
        }
        for r in &named.errors {
            errln!(
                "ERROR: {} {} {}: {}",
                r.dataset,
                r.puzzle,
                r.solver,
                r.error
            );
        }
    }
    printed
}

/// Says which datasets hold puzzles of more than one solution: "solved" there means one of
/// them was found (the rows' `solutions` column says `2+`).
fn several_solutions_note(info: &RunInfo) -> Result<(), output::StdoutError> {
    for m in &info.manifests {
        if let Some(n) = m.classes.map(|c| c.several).filter(|&n| n > 0) {
            outln!(
                "note: {} of {} {} more than one solution: \"solved\" counts one of them found \
                 (results.csv: solutions 2+)",
                plural(n, "puzzle"),
                m.name,
                if n == 1 { "has" } else { "have" }
            )?;
        }
    }
    Ok(())
}

/// What a signal during the run left: the rows saved so far, or the whole run without its
/// report.
fn stopped_note(out: &std::path::Path, info: &RunInfo, named: &Named, command: &str) {
    if info.interrupted {
        let (saved, planned) = (named.rows, named.planned);
        errln!(
            "interrupted: {} of {} solves finished and saved (run.json says \"interrupted\": true; `{command} --resume {}` with the same arguments goes on)",
            crate::plumbing::human::count(saved),
            crate::plumbing::human::count(planned),
            out.display()
        );
    } else {
        errln!(
            "interrupted after every solve finished: the results in {} are complete (run.json \
             says \"interrupted\": false); the report was not rendered (`harness report {}` \
             renders it)",
            out.display(),
            out.display()
        );
    }
}

/// Renders the report of the saved run in `out`; a signal meanwhile says how to render it.
/// Returns the report's index.html.
fn render_report(out: &std::path::Path) -> anyhow::Result<PathBuf> {
    interrupt::set_note(Some(format!(
        "the report was not finished (`harness report {}` renders it)",
        out.display()
    )));
    let report = crate::report::render(out).with_context(|| {
        format!(
            "the results are saved in {}, but rendering the report failed",
            out.display()
        )
    });
    interrupt::set_note(None);
    Ok(report?.index)
}
