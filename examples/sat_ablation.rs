//! The SAT encoding ablation of docs/sat.md: what each of the four CNF encodings of the `sat`
//! solver buys, on the first puzzles of the four public sets (`$HARNESS_DATA/datasets`).
//!
//! ```text
//! cargo run --release --example sat_ablation -- [--limit 1000] [--rounds 3] [--race 100]
//!     [--plot docs/sat-ablation.svg]
//! ```
//!
//! For every set and encoding it prints one Markdown table row:
//! - the formula's size after the givens are fixed (Kwon and Jain's fixed-literal
//!   simplification, [`Encoding::fixed_literal_size`]): variables and clauses, mean per puzzle;
//! - cells fixed by unit propagation of the givens alone, and the share of puzzles solved by it
//!   ([`Encoding::propagated_cells`]);
//! - µs per puzzle of the solver itself (`sat-<encoding>`, first solution, one thread): the
//!   median of `--rounds` rounds, the encodings interleaved within each round.
//!
//! With `--race N` (0 skips it), the first N puzzles of each set are also written as DIMACS files
//! in each encoding and given to `minisat` and `cadical` (one process per puzzle, as `dimacs:`
//! does): minisat's own decisions, propagations, conflicts and CPU time (varisat 0.2 keeps its
//! counters private; minisat's, on the same formulas, are deterministic), and the wall time of
//! both, beside the wall time of the same program on a one-clause formula (the process cost).
//! The plot (`--plot`, SVG, needs `--race`) shows minisat's conflicts and varisat's µs per
//! puzzle, one bar per encoding.
//! Timings on a loaded machine vary: compare the encodings by their ratios.

use anyhow::{bail, Context};
use harness::commands::bench::{grids, public_sets_dir, SHARED_SETS};
use harness::report::style;
use plotters::prelude::*;
use solvers::engine::Session;
use solvers::sat::{write_dimacs_encoded, Encoding};
use solvers::{Budget, Grid, Status};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

struct Args {
    limit: usize,
    rounds: usize,
    race: usize,
    plot: Option<PathBuf>,
}

fn args() -> anyhow::Result<Args> {
    let mut a = Args {
        limit: 1000,
        rounds: 3,
        race: 100,
        plot: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--limit" => a.limit = value()?.parse()?,
            "--rounds" => a.rounds = value()?.parse::<usize>()?.max(1),
            "--race" => a.race = value()?.parse()?,
            "--plot" => a.plot = Some(PathBuf::from(value()?)),
            other => bail!("unknown argument {other:?} (see the example's doc comment)"),
        }
    }
    Ok(a)
}

/// One set x encoding.
#[derive(Default, Clone)]
struct Row {
    vars: f64,
    clauses: f64,
    propagated: f64,
    solved_by_propagation: f64,
    micros: f64,
    /// minisat's conflicts per puzzle on the raced prefix.
    conflicts: f64,
}

/// The median ([`harness::analysis::stats::quantile`]'s convention); NaN for none (a solver not run).
fn middle(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    harness::analysis::stats::sort_and_quantile(&mut v, 0.5)
}

fn ablation(grids: &[Grid], rounds: usize) -> anyhow::Result<Vec<Row>> {
    let n = grids.len() as f64;
    let mut rows = vec![Row::default(); 4];
    for (e, row) in Encoding::ALL.iter().zip(&mut rows) {
        for g in grids {
            let (v, c) = e.fixed_literal_size(g);
            row.vars += v as f64 / n;
            row.clauses += c as f64 / n;
            let cells = e.propagated_cells(g).unwrap_or(0);
            row.propagated += cells as f64 / n;
            row.solved_by_propagation += f64::from(u8::from(cells == 81)) / n;
        }
    }
    let mut solvers: Vec<(&str, Box<dyn Session>)> = Encoding::ALL
        .iter()
        .map(|&e| {
            (
                e.solver_name(),
                solvers::registry::BuiltinEngine::sat(e).open(),
            )
        })
        .collect();
    let mut times = vec![Vec::new(); 4];
    let boards: Vec<solvers::Board> = grids.iter().map(solvers::Board::from).collect();
    for _ in 0..rounds {
        for ((name, s), t) in solvers.iter_mut().zip(&mut times) {
            let start = Instant::now();
            for (g, b) in grids.iter().zip(&boards) {
                let out = s.solve(b, &Budget::unlimited())?;
                if out.status != Status::Solved {
                    bail!("{name} did not solve {}", g.to_line());
                }
            }
            t.push(start.elapsed().as_secs_f64() * 1e6 / n);
        }
    }
    for (row, t) in rows.iter_mut().zip(times) {
        row.micros = middle(t);
    }
    Ok(rows)
}

/// What one external run gave.
#[derive(Default, Clone)]
struct Race {
    minisat_wall: Vec<f64>,
    minisat_cpu: Vec<f64>,
    decisions: f64,
    propagations: f64,
    conflicts: f64,
    cadical_wall: Vec<f64>,
}

/// Runs `program args file [extra]`, returns its wall time in µs and its stdout.
fn run(
    program: &str,
    args: &[&str],
    cnf: &Path,
    extra: Option<&Path>,
) -> anyhow::Result<(f64, String)> {
    let mut c = Command::new(program);
    c.args(args)
        .arg(cnf)
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    if let Some(e) = extra {
        c.arg(e);
    }
    let start = Instant::now();
    let out = c
        .output()
        .with_context(|| format!("cannot run {program}"))?;
    let micros = start.elapsed().as_secs_f64() * 1e6;
    // SAT solvers exit 10 (satisfiable) or 20 (unsatisfiable).
    if !matches!(out.status.code(), Some(10 | 20)) {
        bail!("{program} on {}: exit status {}", cnf.display(), out.status);
    }
    Ok((micros, String::from_utf8_lossy(&out.stdout).into_owned()))
}

/// The number after `key` and a colon on a line of minisat's statistics.
fn stat(text: &str, key: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(key))?
        .split(':')
        .nth(1)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn race(grids: &[Grid], dir: &Path) -> anyhow::Result<Vec<Race>> {
    let cnf = dir.join("puzzle.cnf");
    let result = dir.join("minisat.out");
    let mut out = vec![Race::default(); 4];
    for g in grids {
        for (e, r) in Encoding::ALL.iter().zip(&mut out) {
            let mut text = Vec::new();
            write_dimacs_encoded::<[i32; 0]>(*e, g, &[], &mut text)?;
            std::fs::write(&cnf, &text)?;
            let (wall, stdout) = run("minisat", &[], &cnf, Some(&result))?;
            r.minisat_wall.push(wall);
            r.minisat_cpu
                .push(stat(&stdout, "CPU time").context("minisat printed no CPU time")? * 1e6);
            let n = grids.len() as f64;
            r.decisions += stat(&stdout, "decisions").unwrap_or(0.0) / n;
            r.propagations += stat(&stdout, "propagations").unwrap_or(0.0) / n;
            r.conflicts += stat(&stdout, "conflicts").unwrap_or(0.0) / n;
            let (wall, _) = run("cadical", &["-q"], &cnf, None)?;
            r.cadical_wall.push(wall);
        }
    }
    Ok(out)
}

/// Wall µs of each program on a one-clause formula: start, parse, answer, exit.
fn process_cost(dir: &Path, runs: usize) -> anyhow::Result<(f64, f64, f64)> {
    let cnf = dir.join("noop.cnf");
    std::fs::write(&cnf, "p cnf 1 1\n1 0\n")?;
    let result = dir.join("noop.out");
    let (mut m, mut mc, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let (wall, stdout) = run("minisat", &[], &cnf, Some(&result))?;
        m.push(wall);
        mc.push(stat(&stdout, "CPU time").unwrap_or(0.0) * 1e6);
        c.push(run("cadical", &["-q"], &cnf, None)?.0);
    }
    Ok((middle(m), middle(mc), middle(c)))
}

fn short(set: &str) -> String {
    match set {
        "puzzles2_17_clue" => "17-clue",
        "puzzles3_magictour_top1465" => "top1465",
        "forum_hardest_1905_11+_sample10k" => "forum-hardest",
        "kaggle_bryanpark_first9999" => "Kaggle",
        other => other,
    }
    .to_string()
}

/// A plot panel: caption, y axis description, the value drawn.
type Panel = (&'static str, &'static str, fn(&Row) -> f64);

fn plot(path: &Path, sets: &[String], rows: &[Vec<Row>]) -> anyhow::Result<()> {
    style::write_svg(path, (1200, 460), |root| {
        let (left, right) = root.split_horizontally(600);
        let panels: [Panel; 2] = [
            ("minisat conflicts per puzzle", "conflicts", |r| r.conflicts),
            (
                "varisat time per puzzle (first solution)",
                "µs per puzzle",
                |r| r.micros,
            ),
        ];
        for ((caption, desc, value), area) in panels.into_iter().zip([left, right]) {
            let values: Vec<f64> = rows
                .iter()
                .flatten()
                .map(value)
                .filter(|v| *v > 0.0)
                .collect();
            let lo = values
                .iter()
                .copied()
                .fold(f64::INFINITY, f64::min)
                .max(0.1)
                / 2.0;
            let hi = values.iter().copied().fold(0.0, f64::max);
            let mut chart = style::dataset_chart(
                &area,
                caption,
                sets,
                (lo, style::log_top(lo, hi, 0.3)),
                desc,
            )?;
            let slot = 0.8 / 4.0;
            for (k, e) in Encoding::ALL.iter().enumerate() {
                let color = style::solver_color(e.solver_name(), k);
                let bars = rows.iter().enumerate().map(|(i, r)| {
                    let x = i as f64 - 0.4 + slot * k as f64;
                    Rectangle::new(
                        [(x, lo), (x + slot * 0.9, value(&r[k]).max(lo))],
                        color.filled(),
                    )
                });
                chart
                    .draw_series(bars)
                    .map_err(style::plot_err)?
                    .label(e.solver_name())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 14, y + 5)], color.filled())
                    });
            }
            style::draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        }
        Ok(())
    })
}

fn main() -> anyhow::Result<()> {
    let a = args()?;
    let Some(dir) = public_sets_dir() else {
        bail!("$HARNESS_DATA/datasets not found: the ablation runs on the public sets");
    };
    let scratch = tempfile::tempdir()?;
    let mut names = Vec::new();
    let mut all_rows = Vec::new();
    let mut races = Vec::new();
    for set in SHARED_SETS {
        let ds = harness::input::dataset::load(&dir.join(set).to_string_lossy())?;
        let mut g = grids(&ds);
        g.truncate(a.limit);
        eprintln!("{set}: {} puzzles", g.len());
        let mut rows = ablation(&g, a.rounds)?;
        if a.race > 0 {
            let r = race(&g[..a.race.min(g.len())], scratch.path())?;
            for (row, x) in rows.iter_mut().zip(&r) {
                row.conflicts = x.conflicts;
            }
            races.push(r);
        }
        all_rows.push(rows);
        names.push(short(set));
    }
    println!("| set | encoding | variables | clauses | cells after propagation | solved by propagation | µs/puzzle | vs fastest |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for (set, rows) in names.iter().zip(&all_rows) {
        let best = rows.iter().map(|r| r.micros).fold(f64::INFINITY, f64::min);
        for (e, r) in Encoding::ALL.iter().zip(rows) {
            println!(
                "| {set} | {} | {:.0} | {:.0} | {:.1} | {:.1} % | {:.0} | {:.2} |",
                e.name(),
                r.vars,
                r.clauses,
                r.propagated,
                100.0 * r.solved_by_propagation,
                r.micros,
                r.micros / best
            );
        }
    }
    if a.race > 0 {
        let (m, mc, c) = process_cost(scratch.path(), 30)?;
        println!("\nprocess cost (one-clause formula, median of 30): minisat {m:.0} µs wall ({mc:.0} µs own CPU time), cadical {c:.0} µs wall");
        println!("\n| set | encoding | minisat decisions | propagations | conflicts | minisat CPU µs | minisat wall µs | cadical wall µs |");
        println!("|---|---|---:|---:|---:|---:|---:|---:|");
        for (set, rows) in names.iter().zip(&races) {
            for (e, r) in Encoding::ALL.iter().zip(rows) {
                println!(
                    "| {set} | {} | {:.1} | {:.0} | {:.1} | {:.0} | {:.0} | {:.0} |",
                    e.name(),
                    r.decisions,
                    r.propagations,
                    r.conflicts,
                    middle(r.minisat_cpu.clone()),
                    middle(r.minisat_wall.clone()),
                    middle(r.cadical_wall.clone())
                );
            }
        }
    }
    if let Some(p) = a.plot.as_ref().filter(|_| a.race > 0) {
        plot(p, &names, &all_rows)?;
        eprintln!("wrote {}", p.display());
    }
    Ok(())
}
