//! `harness bench`: puzzles/s of every solver (and the `sudoku` crate when built with
//! `--features reference`) on the same puzzles, in one process, single thread, interleaved rounds.
//! The method is in [`crate::perf`].

use crate::cli::BenchArgs;
use crate::commands::run::engines;
use crate::dataset::{self, Dataset};
use crate::perf::{self, Contestant, Measured, Mode, Prepared, Settings};
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
        eprintln!("$HARNESS_DATA/datasets not found: benchmarking the shipped sets");
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
/// puzzle's index ([`crate::isomorph::Transform::random`]).
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
            (0..copies).filter_map(move |k| {
                let t = crate::isomorph::Transform::random(seed, i as u64, k);
                solvers::Grid::from_cells(t.apply(g.cells()))
            })
        })
        .collect()
}

/// Runs the benchmark; returns the number of wrong answers seen.
///
/// # Errors
/// Unknown solver or dataset.
pub fn bench(args: &BenchArgs) -> anyhow::Result<usize> {
    let engines = engines(&args.solver, &args.external)?;
    let contestants = Contestant::all(&engines, true)?;
    let sets = datasets(&args.dataset)?;
    let mode = if args.count_mode {
        Mode::Count2
    } else {
        Mode::First
    };
    let settings = Settings {
        mode,
        rounds: args.rounds.unwrap_or(if args.quick { 3 } else { 7 }),
        calibrate: if args.quick { 0.05 } else { 0.3 },
        round_budget: args
            .round_budget
            .unwrap_or(if args.quick { 0.1 } else { 1.0 }),
        slow_timeout: Duration::from_millis(if args.quick { 20 } else { 200 }),
        min_round: if args.quick { 0.02 } else { 0.1 },
    };
    if !cfg!(feature = "reference") {
        eprintln!("(built without --features reference: the sudoku crate is not measured)");
    }
    let mut wrong = 0;
    for ds in &sets {
        let mut grids = match args.isomorph.seed() {
            Some(seed) => isomorphs(ds, seed, args.isomorph.copies()),
            None => grids(ds),
        };
        if let Some(limit) = args.limit.or(args.quick.then_some(2000)) {
            grids.truncate(limit);
        }
        if grids.is_empty() {
            eprintln!("{}: no readable puzzle, skipped", ds.name);
            continue;
        }
        let p = Prepared::new(grids);
        let m = perf::measure(&contestants, &p, &settings);
        wrong += m.iter().map(|x| x.wrong).sum::<usize>();
        print_table(&ds.name, p.grids.len(), &settings, &m);
    }
    Ok(wrong)
}

/// The ratio of `b`'s time to `a`'s: the median of the rounds' ratios, with its bootstrap 95%
/// interval over the rounds ([`crate::stats::median_ci`]; each round times both on the same
/// puzzles, interleaved, so the interval covers the noise between rounds).
fn round_ratio(a: &Measured, b: &Measured) -> Option<crate::stats::Estimate> {
    crate::stats::median_ci(
        &perf::round_ratios(a, b),
        crate::stats::salt(&[&a.name, &b.name]),
    )
}

fn print_table(dataset: &str, n: usize, s: &Settings, m: &[Measured]) {
    use crate::human::thousands;
    println!(
        "\n{dataset}: {} puzzles, {}, single thread, {} interleaved rounds",
        thousands(n as u64),
        s.mode.label(),
        s.rounds
    );
    // The fastest among contestants that ran the whole set.
    let fastest = m
        .iter()
        .filter(|x| x.puzzles == n)
        .max_by(|a, b| a.throughput().total_cmp(&b.throughput()));
    let mut t = comfy_table::Table::new();
    t.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
    crate::human::fit(&mut t);
    t.set_header(vec![
        "solver",
        "puzzles",
        "puzzles/s",
        "µs/puzzle",
        "vs fastest [range]",
        "95% CI, verdict",
        "cut",
        "wrong",
    ]);
    for x in m {
        t.add_row(bench_row(x, n, fastest));
    }
    println!("{t}");
    print_notes(n, m);
}

/// One contestant's line: name, puzzles (a prefix marked), puzzles/s, µs a puzzle, the ratio
/// and interval against `fastest`, cut solves and wrong answers.
fn bench_row(x: &Measured, n: usize, fastest: Option<&Measured>) -> Vec<String> {
    use crate::human::thousands;
    let vs = match fastest {
        Some(f) => perf::ratio(f, x).to_string(),
        None => "-".into(),
    };
    let ci = match fastest {
        Some(f) if !std::ptr::eq(f, x) => round_ratio(f, x).map_or("-".into(), |e| {
            format!("[{:.2}, {:.2}] {}", e.lo, e.hi, crate::stats::verdict(&e))
        }),
        _ => "-".into(),
    };
    vec![
        x.name.to_string(),
        if x.puzzles == n {
            thousands(x.puzzles as u64)
        } else {
            format!("{} (prefix)", thousands(x.puzzles as u64))
        },
        thousands(x.throughput().round() as u64),
        format!("{:.2}", x.micros_per_puzzle()),
        vs,
        ci,
        thousands(x.cut as u64),
        thousands(x.wrong as u64),
    ]
}

/// What the columns mean, the champion against every solver that is not built in, and the
/// solvers whose answers could not be checked.
fn print_notes(n: usize, m: &[Measured]) {
    println!(
        "  vs fastest = fastest's throughput / this one's, on the same puzzles (median round)"
    );
    println!(
        "  95% CI: bootstrap interval of the median of the rounds' ratios; a verdict only when"
    );
    println!("  it excludes 1 and the ratio is beyond 5%");
    if m.iter().any(|x| x.puzzles < n) {
        println!(
            "  (prefix) = cut by --round-budget to the first puzzles of the set; a prefix solver"
        );
        println!("  faster than the fastest whole-set solver on those puzzles shows below 1.00");
    }
    // The champion against every solver that is not built in (the reference crate, external
    // solvers), on the same puzzles in the same rounds.
    if let Some(c) = m.iter().find(|x| x.kind == Some(SolverKind::CHAMPION)) {
        for r in m.iter().filter(|x| x.kind.is_none()) {
            println!(
                "  {} / {}: throughput ratio {} (>= 1.0: the champion is faster)",
                c.name,
                r.name,
                perf::ratio(c, r)
            );
        }
    }
    let unchecked: Vec<String> = m
        .iter()
        .filter(|x| x.unchecked > 0)
        .map(|x| format!("{} ({} solves)", x.name, x.unchecked))
        .collect();
    if !unchecked.is_empty() {
        println!(
            "  unchecked (the solver writes no solution): {}",
            unchecked.join(", ")
        );
    }
}
