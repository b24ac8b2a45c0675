//! `harness regress`: the regression bench CI runs.
//!
//! Two checks, on a fixed regression set (the shipped sets, `reports/baseline/regress-puzzles.txt`
//! and [`MANY_SOLUTIONS`]):
//!
//! 1. **Effort counters, exactly.** Every built-in solver (from the registry) solves every puzzle under a
//!    node budget of [`NODE_CAP`] (a node budget, not a clock, so the outcome is the same on every
//!    machine); status, nodes, guesses, backtracks and propagations must equal the rows of
//!    `counters.csv` in the baseline folder. Any difference fails (a solver that changed its
//!    search must say so by re-blessing the baseline, with the reason in the commit message).
//!    A solver missing from the baseline, or a baseline solver no longer registered, fails too.
//! 2. **Speed ratios, within a tolerance.** Each contestant's time relative to the champion
//!    ([`SolverKind::CHAMPION`]), measured in the same process and interleaved (so the machine's
//!    speed and load cancel out), must stay within `tolerance` (default 1.5x, either way) of the
//!    ratio recorded in `ratios.csv`. Each solver is timed on the puzzles it solves within
//!    [`TIMING_NODE_CAP`] nodes (decided by the counters, so the subset is the same everywhere),
//!    the champion on the same puzzles; the `sudoku` crate joins when built with
//!    `--features reference`.
//!
//! `--bless` rewrites both files from this run instead of comparing.

use crate::cli::RegressArgs;
use crate::execution::perf::{Contestant, Prepared, REFERENCE_NAME};
use crate::execution::registry::Registry;
use crate::input::dataset::{self, Dataset};
use crate::plumbing::output;
use anyhow::Context;
use solvers::engine::Engine;
use solvers::{Budget, Grid, SolverKind};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Node budget per solve in the counter check: enough for `bitmask-dfs` on the hard 17-clue seed
/// puzzle (7,368,194 nodes).
pub const NODE_CAP: u64 = 10_000_000;

/// A solver is timed on the puzzles it solves within this many nodes.
pub const TIMING_NODE_CAP: u64 = 200_000;

/// The committed extra puzzles of the regression set, relative to the baseline folder.
pub const EXTRA_FILE: &str = "regress-puzzles.txt";

/// One counter row of the baseline.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CounterRow {
    /// Dataset name.
    pub dataset: String,
    /// Puzzle name in its dataset.
    pub puzzle: String,
    /// Solver name.
    pub solver: String,
    /// `solved`, `no_solution` or `timeout` (node budget).
    pub status: crate::record::RowStatus,
    /// Search-tree nodes.
    pub nodes: u64,
    /// Guesses.
    pub guesses: u64,
    /// Backtracks.
    pub backtracks: u64,
    /// Propagations.
    pub propagations: u64,
}

/// One ratio row of the baseline.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RatioRow {
    /// Contestant name (a solver, or `sudoku-crate`).
    pub contestant: String,
    /// Its time over the champion's on the same puzzles (> 1: slower than the champion).
    pub time_vs_champion: f64,
    /// Puzzles it was timed on.
    pub puzzles: usize,
}

/// Puzzles with many solutions (18 to 26 random cells of random solved grids kept as givens;
/// `datasets/README.md` says how they were made), compiled in. Part of the regression set but
/// not a shipped dataset: every shipped 9x9 puzzle has exactly one solution.
pub const MANY_SOLUTIONS: dataset::Shipped = dataset::Shipped {
    name: "many-solutions-300",
    file: "many-solutions-300.txt",
    description: "300 puzzles with many solutions (random givens of solved grids)",
    text: include_str!("../../datasets/many-solutions-300.txt"),
    default: false,
};

fn regression_set(baseline: &Path) -> anyhow::Result<Vec<Dataset>> {
    let mut sets: Vec<Dataset> = dataset::SHIPPED.iter().map(dataset::shipped).collect();
    sets.push(dataset::shipped(&MANY_SOLUTIONS));
    let extra = baseline.join(EXTRA_FILE);
    if extra.exists() {
        let mut d = dataset::load(&extra.to_string_lossy())?;
        d.name = "regress-puzzles".into();
        sets.push(d);
    } else {
        errln!(
            "note: {} not found; using the shipped sets only",
            extra.display()
        );
    }
    Ok(sets)
}

/// A puzzle of the regression set: dataset name, puzzle name, grid.
type Puzzle = (String, String, Grid);

/// Every puzzle of `sets`, in order.
///
/// # Errors
/// A puzzle that does not read (the regression set must be clean).
fn puzzles_of(sets: &[Dataset]) -> anyhow::Result<Vec<Puzzle>> {
    let mut puzzles = Vec::new();
    for ds in sets {
        for e in &ds.entries {
            match &e.puzzle {
                Ok(p) => match p.grid() {
                    Some(g) => puzzles.push((ds.name.clone(), e.label(), g)),
                    None => anyhow::bail!("the regression set holds 9x9 grids only"),
                },
                Err(err) => anyhow::bail!("regression set has a bad puzzle: {err}"),
            }
        }
    }
    Ok(puzzles)
}

/// The contestants of the regression: every built-in solver, through the registry.
fn engines() -> anyhow::Result<Vec<Arc<dyn Engine>>> {
    Registry::default().resolve(&[], false)
}

/// The counter rows of every engine on every puzzle, engine-major, each solve under a node
/// budget of [`NODE_CAP`].
///
/// # Errors
/// A session that cannot open or a solve that fails (the message names the solver).
fn count_effort(
    engines: &[Arc<dyn Engine>],
    puzzles: &[Puzzle],
) -> anyhow::Result<Vec<CounterRow>> {
    let mut rows = Vec::with_capacity(engines.len() * puzzles.len());
    for engine in engines {
        let name = &engine.info().name;
        let mut session = engine
            .session()
            .with_context(|| format!("{name}: opening"))?;
        for (ds, puzzle, grid) in puzzles {
            let budget = Budget::unlimited().max_nodes(Some(NODE_CAP));
            let out = session
                .solve(&grid.into(), &budget)
                .with_context(|| format!("{name} on {ds} {puzzle}"))?;
            rows.push(CounterRow {
                dataset: ds.clone(),
                puzzle: puzzle.clone(),
                solver: name.clone(),
                status: out.status.into(),
                nodes: out.stats.nodes,
                guesses: out.stats.guesses,
                backtracks: out.stats.backtracks,
                propagations: out.stats.propagations,
            });
        }
    }
    Ok(rows)
}

/// Runs the regression check (or re-blesses); true when it passes.
///
/// # Errors
/// An unreadable baseline or regression set, or a failed write when blessing.
pub fn regress(args: &RegressArgs) -> anyhow::Result<bool> {
    let t0 = Instant::now();
    let puzzles = puzzles_of(&regression_set(&args.baseline)?)?;
    let engines = engines()?;
    let rows = count_effort(&engines, &puzzles)?;
    outln!(
        "counters: {} x {} in {:.1} s (node budget {NODE_CAP} per solve)",
        crate::plumbing::human::plural(engines.len(), "solver"),
        crate::plumbing::human::plural(puzzles.len(), "puzzle"),
        t0.elapsed().as_secs_f64()
    )?;
    let ratios = if args.no_timing {
        Vec::new()
    } else {
        measure_ratios(&engines, &puzzles, &rows)?
    };
    if args.bless {
        bless(args, &rows, ratios)?;
        return Ok(true);
    }
    let mut ok = check_counters(&args.baseline.join("counters.csv"), &rows)?;
    if !args.no_timing {
        ok &= check_ratios(args, &ratios)?;
    }
    outln!(
        "regress: {} in {:.1} s",
        if ok { "PASS" } else { "FAIL" },
        t0.elapsed().as_secs_f64()
    )?;
    Ok(ok)
}

/// Rewrites the baseline from this run (the ratios too unless `--no-timing`).
///
/// # Errors
/// A failed write.
fn bless(args: &RegressArgs, rows: &[CounterRow], mut ratios: Vec<RatioRow>) -> anyhow::Result<()> {
    let counters_path = args.baseline.join("counters.csv");
    let ratios_path = args.baseline.join("ratios.csv");
    // Keep the reference's row when this build cannot measure it.
    if !ratios.iter().any(|r| r.contestant == REFERENCE_NAME) {
        if let Ok(old) = read_csv::<RatioRow>(&ratios_path) {
            ratios.extend(old.into_iter().filter(|r| r.contestant == REFERENCE_NAME));
        }
    }
    std::fs::create_dir_all(&args.baseline)?;
    output::write_csv(&counters_path, rows)?;
    if !args.no_timing {
        output::write_csv(&ratios_path, &ratios)?;
    }
    outln!(
        "blessed: wrote {} ({}){}; commit them with the reason in the message",
        counters_path.display(),
        crate::plumbing::human::plural(rows.len(), "row"),
        if args.no_timing {
            String::new()
        } else {
            format!(" and {}", ratios_path.display())
        }
    )?;
    Ok(())
}

/// The differences between this run's counter rows and the baseline's, one line each.
fn counter_diffs(base: &[CounterRow], rows: &[CounterRow]) -> Vec<String> {
    let key = |r: &CounterRow| (r.dataset.clone(), r.puzzle.clone(), r.solver.clone());
    let base_map: BTreeMap<_, _> = base.iter().map(|r| (key(r), r)).collect();
    let now_map: BTreeMap<_, _> = rows.iter().map(|r| (key(r), r)).collect();
    let mut diffs = Vec::new();
    for (k, now) in &now_map {
        match base_map.get(k) {
            None => diffs.push(format!("{} {} {}: not in the baseline", k.2, k.0, k.1)),
            Some(b) if *b != *now => diffs.push(format!(
                "{} {} {}: baseline {} nodes={} guesses={} backtracks={} propagations={}, now {} nodes={} guesses={} backtracks={} propagations={}",
                k.2, k.0, k.1, b.status, b.nodes, b.guesses, b.backtracks, b.propagations,
                now.status, now.nodes, now.guesses, now.backtracks, now.propagations
            )),
            Some(_) => {}
        }
    }
    for k in base_map.keys().filter(|k| !now_map.contains_key(*k)) {
        diffs.push(format!(
            "{} {} {}: in the baseline, not in this run",
            k.2, k.0, k.1
        ));
    }
    diffs
}

/// Compares the counter rows with the baseline file and prints the verdict; true when equal.
///
/// # Errors
/// An unreadable baseline.
fn check_counters(counters_path: &Path, rows: &[CounterRow]) -> anyhow::Result<bool> {
    let base: Vec<CounterRow> = read_csv(counters_path).with_context(|| {
        format!(
            "reading the baseline {} (create it with `harness regress --bless`)",
            counters_path.display()
        )
    })?;
    let diffs = counter_diffs(&base, rows);
    if diffs.is_empty() {
        let equal = if rows.len() == 1 { "equals" } else { "equal" };
        outln!(
            "counters: PASS ({} {equal} the baseline)",
            crate::plumbing::human::plural(rows.len(), "row")
        )?;
        return Ok(true);
    }
    outln!(
        "counters: FAIL, {} {} from {}:",
        crate::plumbing::human::plural(diffs.len(), "row"),
        if diffs.len() == 1 {
            "differs"
        } else {
            "differ"
        },
        counters_path.display()
    )?;
    for d in diffs.iter().take(20) {
        outln!("  {d}")?;
    }
    if diffs.len() > 20 {
        outln!("  ... and {} more", diffs.len() - 20)?;
    }
    outln!("  (if the change is intended: `harness regress --bless`, and say why in the commit)")?;
    Ok(false)
}

/// Compares the speed ratios with the baseline's within `args.tolerance` and prints the table;
/// true when every contestant is within it.
///
/// # Errors
/// An unreadable baseline.
fn check_ratios(args: &RegressArgs, ratios: &[RatioRow]) -> anyhow::Result<bool> {
    let ratios_path = args.baseline.join("ratios.csv");
    let base_ratios: Vec<RatioRow> = read_csv(&ratios_path)
        .with_context(|| format!("reading the baseline {}", ratios_path.display()))?;
    let mut ok = true;
    let mut t = comfy_table::Table::new();
    t.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
    t.set_header(vec![
        "contestant",
        "puzzles",
        "time / champion",
        "baseline",
        "change",
        "verdict",
    ]);
    for r in ratios {
        let b = base_ratios.iter().find(|b| b.contestant == r.contestant);
        let (bs, change, verdict) = match b {
            None => ("-".to_string(), "-".to_string(), "FAIL: not in baseline"),
            Some(b) => {
                let change = r.time_vs_champion / b.time_vs_champion;
                let pass = change <= args.tolerance && change >= 1.0 / args.tolerance;
                (
                    format!("{:.3}", b.time_vs_champion),
                    format!("{change:.2}x"),
                    if pass { "ok" } else { "FAIL" },
                )
            }
        };
        ok &= verdict == "ok";
        t.add_row(vec![
            r.contestant.clone(),
            r.puzzles.to_string(),
            format!("{:.3}", r.time_vs_champion),
            bs,
            change,
            verdict.to_string(),
        ]);
    }
    outln!(
        "speed ratios vs {} (tolerance {:.2}x either way):\n{t}",
        SolverKind::CHAMPION.name(),
        args.tolerance
    )?;
    if !cfg!(feature = "reference") {
        outln!("  (built without --features reference: the champion vs sudoku-crate ratio is not checked)")?;
    }
    Ok(ok)
}

fn read_csv<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<Vec<T>> {
    let mut r =
        csv::Reader::from_path(path).with_context(|| format!("opening {}", path.display()))?;
    r.deserialize()
        .collect::<Result<Vec<T>, _>>()
        .with_context(|| format!("reading {}", path.display()))
}

/// Seconds per solve of puzzle `i` by `c`: the best of several rounds of `reps` solves.
///
/// # Errors
/// As [`Contestant::all`].
fn measure_ratios(
    engines: &[Arc<dyn Engine>],
    puzzles: &[Puzzle],
    rows: &[CounterRow],
) -> anyhow::Result<Vec<RatioRow>> {
    const ROUNDS: usize = 7;
    const TARGET: f64 = 200e-6; // seconds per measurement
    let grids: Vec<Grid> = puzzles.iter().map(|p| p.2).collect();
    let prepared = Prepared::new(grids);
    let contestants = Contestant::all(engines, true)?;
    let n = puzzles.len();
    // Each contestant's timing subset, from the counters (machine-independent): the engines'
    // rows come engine-major; the reference, after them, has none and takes every puzzle.
    let subset: Vec<Vec<usize>> = (0..contestants.len())
        .map(|j| match rows.get(j * n..(j + 1) * n) {
            Some(mine) if j < engines.len() => (0..n)
                .filter(|&i| {
                    mine[i].status == crate::record::RowStatus::Solved
                        && mine[i].nodes <= TIMING_NODE_CAP
                })
                .collect(),
            _ => (0..n).collect(),
        })
        .collect();
    // Calibrate repetitions per contestant x puzzle, then keep the best time per solve.
    let mut reps = vec![vec![1usize; n]; contestants.len()];
    let mut best = vec![vec![f64::INFINITY; n]; contestants.len()];
    for (j, c) in contestants.iter().enumerate() {
        for &i in &subset[j] {
            let t = Instant::now();
            crate::execution::perf::solve_for_timing(c, &prepared, i);
            let dt = t.elapsed().as_secs_f64();
            reps[j][i] = ((TARGET / dt.max(1e-9)) as usize).clamp(1, 10_000);
        }
    }
    for r in 0..ROUNDS {
        for k in 0..contestants.len() {
            let j = (k + r) % contestants.len();
            for &i in &subset[j] {
                let t = Instant::now();
                for _ in 0..reps[j][i] {
                    crate::execution::perf::solve_for_timing(&contestants[j], &prepared, i);
                }
                let dt = t.elapsed().as_secs_f64() / reps[j][i] as f64;
                best[j][i] = best[j][i].min(dt);
            }
        }
    }
    let champ = contestants
        .iter()
        .position(|c| c.kind() == Some(SolverKind::CHAMPION))
        .expect("the champion is registered");
    Ok(contestants
        .iter()
        .enumerate()
        .map(|(j, c)| {
            let mine: f64 = subset[j].iter().map(|&i| best[j][i]).sum();
            let theirs: f64 = subset[j].iter().map(|&i| best[champ][i]).sum();
            RatioRow {
                contestant: c.name().to_string(),
                time_vs_champion: if theirs > 0.0 { mine / theirs } else { 1.0 },
                puzzles: subset[j].len(),
            }
        })
        .collect())
}
