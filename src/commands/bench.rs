//! `harness bench`: puzzles/s of every solver (and the `sudoku` crate when built with
//! `--features reference`) on the same puzzles, in one process, single thread, interleaved rounds.
//! The method is in [`crate::execution::perf`].

use crate::cli::BenchArgs;
use crate::commands::run::engines;
use crate::execution::perf::{self, Contestant, Measured, Mode, Prepared, Settings};
use crate::input::dataset::{self, Dataset};
use solvers::SolverKind;
use std::path::PathBuf;
use std::time::Duration;

/// The public sets `bench` uses by default when `$HARNESS_DATA/datasets` holds them.
pub const SHARED_SETS: &[&str] = &[
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "forum_hardest_1905_11+_sample10k",
    "kaggle_bryanpark_first9999",
];

/// The folder of the public sets, `$HARNESS_DATA/datasets` (`scripts/fetch-data.sh DIR` fills
/// `DIR/datasets`), when `HARNESS_DATA` is set and that folder exists.
pub fn public_sets_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("HARNESS_DATA")?).join("datasets");
    dir.is_dir().then_some(dir)
}

/// The cargo profile this binary was built with (`release`, `max`, `debug`): `harness bench`
/// names it unless it is `max`, the profile its published figures come from.
pub const BUILD_PROFILE: &str = env!("HARNESS_PROFILE");

/// The datasets named, or the four shared sets when present, else the shipped sets.
///
/// # Errors
/// An unknown dataset or an unreadable file.
pub fn datasets(names: &[String]) -> anyhow::Result<Vec<Dataset>> {
    if !names.is_empty() {
        return names.iter().map(|d| dataset::load(d)).collect();
    }
    if let Some(dir) = public_sets_dir() {
        SHARED_SETS
            .iter()
            .map(|n| dataset::load(&dir.join(n).to_string_lossy()))
            .collect()
    } else {
        match std::env::var_os("HARNESS_DATA") {
            Some(d) => errln!(
                "{} not found ($HARNESS_DATA/datasets): benchmarking the shipped sets",
                PathBuf::from(d).join("datasets").display()
            ),
            None => errln!("HARNESS_DATA is not set: benchmarking the shipped sets"),
        }
        Ok(dataset::defaults())
    }
}

/// The readable puzzles of a dataset.
pub fn grids(ds: &Dataset) -> Vec<solvers::Grid> {
    ds.entries
        .iter()
        .filter_map(|e| e.puzzle.as_ref().ok().and_then(|p| p.grid()))
        .collect()
}

/// The readable puzzles of a dataset, each as `copies` isomorphs drawn from `seed` and the
/// puzzle's index ([`crate::input::isomorph::Transform::random`]).
pub fn isomorphs(ds: &Dataset, seed: u64, copies: u32) -> Vec<solvers::Grid> {
    ds.entries
        .iter()
        .filter_map(|e| {
            e.puzzle
                .as_ref()
                .ok()
                .and_then(|p| Some((e.index, p.grid()?)))
        })
        .flat_map(|(i, g)| {
            (0..copies).map(move |k| {
                crate::input::isomorph::Transform::random(seed, i as u64, k).apply_grid(&g)
            })
        })
        .collect()
}

/// Runs the benchmark; returns the number of wrong answers seen.
///
/// # Errors
/// Unknown solver or dataset.
pub fn bench(args: &BenchArgs) -> anyhow::Result<usize> {
    let settings = settings(args);
    if BUILD_PROFILE != "max" {
        errln!(
            "{}",
            crate::plumbing::human::wrap(&format!(
                "note: this harness was built with the {BUILD_PROFILE} profile; figures to \
                 publish come from the most optimised one: cargo build --profile max, then \
                 target/max/harness bench ..."
            ))
        );
    }
    if let Some(dir) = &args.verdicts {
        return check_verdicts(dir, args, &settings);
    }
    let names = without_reference(&args.solvers.solver)?;
    let engines = if names.is_empty() {
        Vec::new()
    } else {
        engines(&names, &args.solvers.external)?
    };
    let contestants = Contestant::all(&engines, true)?;
    let sets = datasets(&args.dataset)?;
    let left_out: Vec<&str> = contestants
        .iter()
        .filter(|c| !c.supports(settings.mode))
        .map(Contestant::name)
        .collect();
    if !left_out.is_empty() {
        errln!(
            "--count-mode: left out, they cannot count solutions: {}",
            left_out.join(", ")
        );
    }
    let mut wrong = 0;
    let mut benched = 0;
    for ds in &sets {
        report_skipped(ds);
        let grids = bench_grids(ds, args);
        if grids.is_empty() {
            if ds.entries.is_empty() {
                errln!("{}: no puzzle in the file, skipped", ds.name);
            } else {
                errln!("{}: no 9x9 puzzle to time, skipped", ds.name);
            }
            continue;
        }
        benched += 1;
        let p = Prepared::new(grids);
        let pb = spinner(&ds.name, p.grids.len(), contestants.len(), settings.rounds);
        let m = perf::measure(&contestants, &p, &settings);
        pb.finish_and_clear();
        wrong += m.iter().map(|x| x.wrong).sum::<usize>();
        let title = format!("{}{}", ds.name, copies_label(&args.isomorph));
        print_table(&title, p.grids.len(), &settings, &m)?;
    }
    if benched == 0 {
        anyhow::bail!("nothing to time: no dataset holds a readable 9x9 puzzle");
    }
    if !cfg!(feature = "reference") {
        errln!("(built without --features reference: the sudoku crate is not measured)");
    }
    Ok(wrong)
}

/// A spinner on stderr while a set is timed (hidden when stderr is not a terminal); it ticks
/// once a second, so its thread barely touches the timing.
fn spinner(name: &str, puzzles: usize, solvers: usize, rounds: usize) -> indicatif::ProgressBar {
    let pb = indicatif::ProgressBar::new_spinner();
    pb.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("template"),
    );
    pb.set_message(format!(
        "{name}: timing {} and {}, {}",
        crate::plumbing::human::plural(puzzles, "puzzle"),
        crate::plumbing::human::plural(solvers, "solver"),
        crate::plumbing::human::plural(rounds, "round")
    ));
    pb.enable_steady_tick(Duration::from_secs(1));
    pb
}

/// `names` without the `sudoku` crate's name ([`perf::REFERENCE_NAME`]), which is not a solver
/// of the registry: it runs in every bench of a `--features reference` build.
///
/// # Errors
/// The crate named in a build without the feature.
fn without_reference(names: &[String]) -> anyhow::Result<Vec<String>> {
    let named = names.iter().any(|n| n == perf::REFERENCE_NAME);
    if named && !cfg!(feature = "reference") {
        anyhow::bail!(
            "{} is measured only in a build with the reference feature: \
             cargo build --release --features reference",
            perf::REFERENCE_NAME
        );
    }
    Ok(names
        .iter()
        .filter(|n| *n != perf::REFERENCE_NAME)
        .cloned()
        .collect())
}

/// Says on stderr which puzzles of `ds` bench leaves out, and why: unreadable ones (the first
/// few with file, line and cell) and puzzles of another order than 9x9.
fn report_skipped(ds: &Dataset) {
    const SHOWN: usize = 3;
    let bad: Vec<_> = ds
        .entries
        .iter()
        .filter_map(|e| e.puzzle.as_ref().err())
        .collect();
    for err in bad.iter().take(SHOWN) {
        errln!("invalid puzzle: {err}");
    }
    if bad.len() > SHOWN {
        errln!("... and {} more invalid puzzles", bad.len() - SHOWN);
    }
    let mut shapes: Vec<String> = Vec::new();
    let mut other = 0usize;
    for p in ds.entries.iter().filter_map(|e| e.puzzle.as_ref().ok()) {
        if p.grid().is_none() {
            other += 1;
            let shape = p.shape().to_string();
            if !shapes.contains(&shape) {
                shapes.push(shape);
            }
        }
    }
    if other > 0 {
        errln!(
            "{}",
            crate::plumbing::human::wrap(&format!(
                "{}: {} {} of another order than 9x9 left out ({}): bench times 9x9 puzzles, \
                 `harness run` takes every order",
                ds.name,
                crate::plumbing::human::thousands(other as u64),
                crate::plumbing::human::noun_for(other, "puzzle"),
                shapes.join(", ")
            ))
        );
    }
    if !bad.is_empty() {
        errln!(
            "{}: {} left out",
            ds.name,
            crate::plumbing::human::plural(bad.len(), "invalid puzzle")
        );
    }
}

/// ` (isomorphs, --transform 7)` or ` (3 isomorphs of each, --transform 7)` after a dataset's
/// name when bench times transformed copies; empty otherwise.
fn copies_label(iso: &crate::cli::IsomorphArgs) -> String {
    match (iso.seed(), iso.copies()) {
        (None, _) => String::new(),
        (Some(seed), 1) => format!(" (isomorphs, --transform {seed})"),
        (Some(seed), k) => format!(" ({k} isomorphs of each, --transform {seed})"),
    }
}

/// The measurement settings `args` ask for.
fn settings(args: &BenchArgs) -> Settings {
    let mode = if args.count_mode {
        Mode::Count2
    } else {
        Mode::First
    };
    Settings {
        mode,
        rounds: args.rounds.unwrap_or(if args.quick { 3 } else { 7 }),
        calibrate: if args.quick { 0.05 } else { 0.3 },
        round_budget: args
            .round_budget
            .unwrap_or(if args.quick { 0.1 } else { 1.0 }),
        slow_timeout: Duration::from_millis(if args.quick { 20 } else { 200 }),
        min_round: if args.quick { 0.02 } else { 0.1 },
    }
}

/// The puzzles of `ds` that bench times: its readable 9x9 puzzles (or their isomorphs), cut to
/// `--limit`.
fn bench_grids(ds: &Dataset, args: &BenchArgs) -> Vec<solvers::Grid> {
    let mut grids = match args.isomorph.seed() {
        Some(seed) => isomorphs(ds, seed, args.isomorph.copies()),
        None => grids(ds),
    };
    if let Some(limit) = args.limit.or(args.quick.then_some(2000)) {
        // The copies of a puzzle are consecutive: the first `limit` puzzles, each K times.
        grids.truncate(limit.saturating_mul(args.isomorph.copies() as usize));
    }
    grids
}

/// How bench's race of one pair compares with the run's verdict on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Agreement {
    /// Bench finds the winner faster too, beyond noise.
    Agrees,
    /// Bench finds the winner faster, but cannot tell the pair apart from noise.
    SameDirection,
    /// Bench finds the other solver faster.
    Disagrees,
}

/// `1.43 [1.08, 1.53]`, in [`crate::plumbing::human::ratio`]'s digits.
fn compact(e: &crate::analysis::stats::Estimate) -> String {
    crate::plumbing::human::interval(e.value, e.lo, e.hi, crate::plumbing::human::ratio)
}

impl Agreement {
    fn label(self) -> &'static str {
        match self {
            Agreement::Agrees => "agrees",
            Agreement::SameDirection => "same way, within noise",
            Agreement::Disagrees => "disagrees",
        }
    }
}

/// `harness bench --verdicts RUN_DIR`: every 9x9 dataset the run ranked, raced again with the
/// solvers it ranked; each decided verdict ("Y k× slower" than the winner, by the median time per
/// puzzle) set beside bench's throughput ratio of the same pair on the same puzzles. Returns the
/// wrong answers bench saw.
fn check_verdicts(dir: &std::path::Path, args: &BenchArgs, s: &Settings) -> anyhow::Result<usize> {
    use anyhow::Context;
    let registry = super::run::registry(&args.solvers.external, true)?;
    let info = crate::record::read_info(dir)?;
    let verdicts = crate::report::verdicts_of(dir)?;
    let mut wrong = 0;
    let mut lines: Vec<[String; 6]> = Vec::new();
    let mut tally = [0usize; 3];
    for v in verdicts
        .iter()
        .filter(|v| v.shape == "9x9" && v.ranks() && !v.intervals.is_empty())
    {
        let source = info
            .datasets
            .iter()
            .find(|d| d.name == v.dataset)
            .map_or(v.dataset.as_str(), |d| d.source.as_str());
        let ds = dataset::load(source.strip_prefix("shipped:").unwrap_or(source))
            .with_context(|| format!("loading dataset {} of {}", v.dataset, dir.display()))?;
        let names: Vec<String> = v.ranked.iter().map(|r| r.solver.clone()).collect();
        let engines = registry.resolve(&names, args.solvers.external.isolate)?;
        let contestants = Contestant::all(&engines, false)?;
        let p = Prepared::new(bench_grids(&ds, args));
        let m = perf::measure(&contestants, &p, s);
        wrong += m.iter().map(|x| x.wrong).sum::<usize>();
        print_table(&v.dataset, p.grids.len(), s, &m)?;
        compare_verdicts(v, &m, &mut lines, &mut tally);
    }
    print_verdicts(dir, lines, tally)?;
    Ok(wrong)
}

/// Sets each of `v`'s intervals (its winner against another solver) beside bench's ratio of the
/// same pair in `m`: a line each, and the decided verdicts counted per [`Agreement`].
fn compare_verdicts(
    v: &crate::report::Verdict,
    m: &[Measured],
    lines: &mut Vec<[String; 6]>,
    tally: &mut [usize; 3],
) {
    let winner = &v.ranked[0].solver;
    let Some(w) = m.iter().find(|x| &x.name == winner) else {
        return;
    };
    for (other, e) in &v.intervals {
        let run_says = crate::analysis::stats::verdict(e);
        let decided = e.lo > 1.0 && run_says.ends_with("slower");
        let bench = m
            .iter()
            .find(|x| &x.name == other)
            .and_then(|o| round_ratio(w, o));
        let (bench_text, verdict) = match (&bench, decided) {
            (Some(b), true) => {
                let a = if b.value <= 1.0 {
                    Agreement::Disagrees
                } else if crate::analysis::stats::verdict(b).ends_with("slower") {
                    Agreement::Agrees
                } else {
                    Agreement::SameDirection
                };
                tally[a as usize] += 1;
                (compact(b), a.label().to_string())
            }
            (Some(b), false) => (compact(b), "-".into()),
            (None, _) => ("-".into(), "-".into()),
        };
        lines.push([
            v.dataset.clone(),
            winner.clone(),
            other.clone(),
            compact(e),
            bench_text,
            verdict,
        ]);
    }
}

/// Prints the verdicts of the run in `dir` against bench's ratios, and how many agree.
fn print_verdicts(
    dir: &std::path::Path,
    lines: Vec<[String; 6]>,
    tally: [usize; 3],
) -> Result<(), crate::plumbing::output::StdoutError> {
    let mut t = crate::plumbing::human::table(vec![
        "dataset",
        "winner",
        "other",
        "run (median)",
        "bench (throughput)",
        "bench says",
    ]);
    for l in lines {
        t.add_row(l.to_vec());
    }
    outln!("\nverdicts of {} against bench\n{t}", dir.display())?;
    outln!(
        "{}",
        crate::plumbing::human::wrap(&format!(
            "{}: {} agree (bench also finds the winner faster beyond noise), \
             {} in the same direction within noise, {} disagree. The run ranks by the median µs \
             per puzzle, bench by throughput (the mean): a solver with a heavy tail can rank \
             lower in bench than in the run.",
            crate::plumbing::human::plural(tally.iter().sum::<usize>(), "decided verdict"),
            tally[0],
            tally[1],
            tally[2]
        ))
    )
}

/// The ratio of `b`'s time to `a`'s: the median of the rounds' ratios, with its bootstrap 95%
/// interval over the rounds ([`crate::analysis::stats::median_ci`]; each round times both on the same
/// puzzles, interleaved, so the interval covers the noise between rounds). None from fewer than
/// two rounds: one round gives no interval, so no verdict.
fn round_ratio(a: &Measured, b: &Measured) -> Option<crate::analysis::stats::Estimate> {
    let ratios = perf::round_ratios(a, b);
    if ratios.len() < 2 {
        return None;
    }
    crate::analysis::stats::median_ci(&ratios, crate::analysis::stats::salt(&[&a.name, &b.name]))
}

fn print_table(
    dataset: &str,
    n: usize,
    s: &Settings,
    m: &[Measured],
) -> Result<(), crate::plumbing::output::StdoutError> {
    outln!(
        "\n{}",
        crate::plumbing::human::wrap(&format!(
            "{dataset}: {}, {}, single thread, {}",
            crate::plumbing::human::plural(n, "puzzle"),
            s.mode.label(),
            crate::plumbing::human::plural(s.rounds, "interleaved round")
        ))
    )?;
    // The fastest among contestants that ran the whole set.
    let fastest = m
        .iter()
        .filter(|x| x.puzzles == n && x.whole_rounds() > 0)
        .max_by(|a, b| a.throughput().total_cmp(&b.throughput()));
    let mut t = crate::plumbing::human::table(vec![
        "solver",
        "puzzles",
        "puzzles/s",
        "µs/puzzle",
        "vs fastest [95% CI]",
        "verdict",
        "cut/wrong",
    ]);
    for x in m {
        t.add_row(bench_row(x, n, fastest));
    }
    outln!("{t}")?;
    print_notes(n, m)
}

/// One contestant's line: name, puzzles (`*` marks a prefix), puzzles/s, µs a puzzle, the
/// ratio against `fastest` with its interval and verdict, cut solves / wrong answers.
fn bench_row(x: &Measured, n: usize, fastest: Option<&Measured>) -> Vec<String> {
    use crate::plumbing::human::thousands;
    let cut = format!("{}/{}", thousands(x.cut as u64), thousands(x.wrong as u64));
    if x.whole_rounds() == 0 {
        // Cut from every round (the notes say so): nothing was timed.
        return vec![
            x.name.to_string(),
            thousands(x.puzzles as u64),
            "cut".into(),
            "cut".into(),
            "-".into(),
            "cut".into(),
            cut,
        ];
    }
    let (vs, verdict) = match fastest {
        Some(f) if std::ptr::eq(f, x) => ("1.00".to_string(), "fastest".to_string()),
        Some(f) => match round_ratio(f, x) {
            Some(e) => {
                let v = crate::analysis::stats::verdict(&e);
                let word = ["slower", "faster"]
                    .into_iter()
                    .find(|w| v.ends_with(w))
                    .unwrap_or("same");
                (compact(&e), word.to_string())
            }
            None => (
                crate::plumbing::human::ratio(perf::ratio(f, x).median),
                "-".into(),
            ),
        },
        None => ("-".into(), "-".into()),
    };
    vec![
        x.name.to_string(),
        if x.puzzles == n {
            thousands(x.puzzles as u64)
        } else {
            format!("{}*", thousands(x.puzzles as u64))
        },
        thousands(x.throughput().round() as u64),
        crate::plumbing::human::figure(x.micros_per_puzzle()),
        vs,
        verdict,
        cut,
    ]
}

/// `hybrid / tdoku: throughput ratio 1.02 (median of 7 rounds, range 1.00-1.05), hybrid
/// faster`: the champion `c` against `r`, the verdict by [`crate::analysis::stats::verdict`]'s rule on the
/// rounds' ratios (none from one round).
fn champion_line(c: &Measured, r: &Measured) -> String {
    let ratio = perf::ratio(c, r);
    let verdict = match round_ratio(c, r) {
        Some(e) => {
            let v = crate::analysis::stats::verdict(&e);
            if v.ends_with("slower") {
                format!("{} faster", c.name)
            } else if v.ends_with("faster") {
                format!("{} faster", r.name)
            } else {
                "the same within noise".to_string()
            }
        }
        None => "no verdict from one round".to_string(),
    };
    format!(
        "{} / {}: throughput ratio {ratio}, {verdict}",
        c.name, r.name
    )
}

/// What the columns mean, the champion against every solver that is not built in, and the
/// solvers whose answers could not be checked.
fn print_notes(n: usize, m: &[Measured]) -> Result<(), crate::plumbing::output::StdoutError> {
    let mut notes = String::from(
        "vs fastest = the fastest's throughput over this one's on the same puzzles, the median \
         of the rounds' ratios, with its bootstrap 95% interval; slower or faster only when the \
         interval excludes 1 and the ratio is beyond 5%, else same. cut = solves stopped at the \
         per-puzzle deadline.",
    );
    let cut: Vec<String> = m
        .iter()
        .filter(|x| x.cut_rounds > 0)
        .map(|x| format!("{} from {} of {}", x.name, x.cut_rounds, x.chunk_secs.len()))
        .collect();
    if !cut.is_empty() {
        notes.push_str(&format!(
            " Cut for the round (a solve ran past its deadline of twice --round-budget; those \
             rounds are not timed): {}.",
            cut.join(", ")
        ));
    }
    if m.iter().any(|x| x.chunk_secs.len() < 5) {
        notes.push_str(
            " With fewer than 5 rounds an interval is rough (the median can sit at one end): \
             use --rounds 7 for a verdict.",
        );
    }
    if m.iter().any(|x| x.puzzles < n) {
        notes.push_str(
            " * = a prefix: cut by --round-budget to the first puzzles of the set (a prefix \
             solver faster than the fastest whole-set solver on those puzzles shows below 1.00).",
        );
    }
    outln!("{}", crate::plumbing::human::wrap(&notes))?;
    // The champion against every solver that is not built in (the reference crate, external
    // solvers), on the same puzzles in the same rounds.
    if let Some(c) = m.iter().find(|x| x.kind == Some(SolverKind::CHAMPION)) {
        let others: Vec<&Measured> = m.iter().filter(|x| x.kind.is_none()).collect();
        if !others.is_empty() {
            outln!(
                "{}",
                crate::plumbing::human::wrap(&format!(
                    "{0} / X = {0}'s throughput over X's, the median of the rounds' ratios \
                     (above 1: {0} faster) and their range, with the verdict of the table's rule:",
                    c.name
                ))
            )?;
        }
        for r in others {
            outln!(
                "{}",
                crate::plumbing::human::hanging("  ", &champion_line(c, r))
            )?;
        }
    }
    let unchecked: Vec<String> = m
        .iter()
        .filter(|x| x.unchecked > 0)
        .map(|x| format!("{} ({} solves)", x.name, x.unchecked))
        .collect();
    if !unchecked.is_empty() {
        outln!(
            "  unchecked (the solver writes no solution): {}",
            unchecked.join(", ")
        )?;
    }
    Ok(())
}
