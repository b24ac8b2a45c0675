//! Criterion benchmarks, throughput in puzzles (`Throughput::Elements`).
//!
//! Puzzles: the four public sets of `$HARNESS_DATA/datasets` (`scripts/fetch-data.sh DIR` fills
//! it) when present, else the shipped sets. Each set
//! is cut to its first [`MAX_PUZZLES`] puzzles to keep the run short.
//!
//! Groups (each id is `BenchmarkId::new(solver, dataset)`):
//! - `solve/<dataset>`: every solver of `SolverKind::ALL`, first solution. Solvers slower than
//!   the champion by orders of magnitude (more than [`FAST_MEAN_NODES`] nodes per puzzle on
//!   average over the set's first puzzles) run on a subset: the first puzzles they solve within
//!   [`SLOW_NODE_CAP`] nodes, up to [`SLOW_SUBSET`] puzzles and [`SLOW_TOTAL_NODES`] nodes in all;
//!   the id's parameter says so (`dataset[subset N]`).
//! - `count2/<dataset>`: solvers that count, counting solutions up to 2 (uniqueness check).
//! - `reference/<dataset>` (only with `--features reference`): the `sudoku` crate on the same
//!   puzzles, first solution (`first`) and counting up to 2 (`count2`).
//!
//! `cargo bench --features reference` runs everything (about 3 minutes);
//! `cargo bench -- solve/puzzles2_17_clue` one group.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use harness::commands::bench::SHARED_SETS;
use harness::input::dataset::{self, Dataset};
use solvers::{Board, Budget, Grid, SolverKind, Status};
use std::hint::black_box;
use std::time::Duration;

/// Puzzles per set, at most.
const MAX_PUZZLES: usize = 2000;
/// A solver averaging more nodes than this per puzzle (over the first [`SLOW_SCAN`]) runs on a
/// subset of the set.
const FAST_MEAN_NODES: u64 = 200;
/// Node budget per puzzle when picking a slow solver's subset.
const SLOW_NODE_CAP: u64 = 5_000_000;
/// A slow solver's subset: the first puzzles it solves within [`SLOW_NODE_CAP`], at most this
/// many ...
const SLOW_SUBSET: usize = 20;
/// ... and at most this many nodes in all (about 0.1-0.5 s per iteration).
const SLOW_TOTAL_NODES: u64 = 5_000_000;
/// Puzzles scanned, at most, to decide.
const SLOW_SCAN: usize = 60;
fn sets() -> Vec<(String, Vec<Grid>)> {
    let dir = harness::commands::bench::public_sets_dir();
    let loaded: Vec<Dataset> = if let Some(dir) = dir {
        SHARED_SETS
            .iter()
            .filter_map(|n| dataset::load(&dir.join(n).to_string_lossy()).ok())
            .collect()
    } else {
        eprintln!("$HARNESS_DATA/datasets is absent: benchmarking the shipped sets");
        dataset::SHIPPED.iter().map(dataset::shipped).collect()
    };
    loaded
        .into_iter()
        .map(|d| {
            let grids: Vec<Grid> = d
                .entries
                .iter()
                .filter_map(|e| e.puzzle.as_ref().ok().map(|p| p.grid().unwrap()))
                .take(MAX_PUZZLES)
                .collect();
            (d.name, grids)
        })
        .collect()
}

/// The puzzles `kind` is benchmarked on, and the id parameter naming them.
fn workload(kind: SolverKind, name: &str, grids: &[Grid]) -> (String, Vec<Board>) {
    let mut session = kind.session();
    let cap = Budget::unlimited().max_nodes(Some(SLOW_NODE_CAP));
    let mut scanned_nodes = 0;
    let mut picked = Vec::new();
    let mut picked_nodes = 0;
    let scan = grids.len().min(SLOW_SCAN);
    for g in &grids[..scan] {
        let out = session.solve(&g.into(), &cap).expect("a built-in session");
        scanned_nodes += out.stats.nodes;
        if out.status == Status::Solved
            && picked.len() < SLOW_SUBSET
            && picked_nodes + out.stats.nodes <= SLOW_TOTAL_NODES
        {
            picked.push(Board::from(g));
            picked_nodes += out.stats.nodes;
        }
    }
    if scanned_nodes <= FAST_MEAN_NODES * scan as u64 {
        (name.to_string(), grids.iter().map(Board::from).collect())
    } else {
        (format!("{name}[subset {}]", picked.len()), picked)
    }
}

fn configure<'a>(
    c: &'a mut Criterion,
    group: &str,
) -> criterion::BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(group);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    g
}

mod solve {
    use super::*;

    /// `solve/<dataset>`: every solver, first solution.
    pub fn bench(c: &mut Criterion) {
        for (name, grids) in sets() {
            let mut group = configure(c, &format!("solve/{name}"));
            for &kind in SolverKind::ALL {
                let mut session = kind.session();
                let (param, set) = workload(kind, &name, &grids);
                if set.is_empty() {
                    eprintln!("{kind}: no puzzle of {name} within {SLOW_NODE_CAP} nodes, skipped");
                    continue;
                }
                group.throughput(Throughput::Elements(set.len() as u64));
                group.bench_with_input(BenchmarkId::new(kind.name(), param), &set, |b, set| {
                    b.iter(|| {
                        for g in set {
                            black_box(session.solve(black_box(g), &Budget::unlimited()).ok());
                        }
                    })
                });
            }
            group.finish();
        }
    }
}

mod count2 {
    use super::*;

    /// `count2/<dataset>`: the solvers that count, up to 2 solutions.
    pub fn bench(c: &mut Criterion) {
        for (name, grids) in sets() {
            let mut group = configure(c, &format!("count2/{name}"));
            for &kind in SolverKind::ALL {
                if !kind.counts() {
                    continue;
                }
                let mut session = kind.session();
                let (param, set) = workload(kind, &name, &grids);
                if set.is_empty() {
                    continue;
                }
                group.throughput(Throughput::Elements(set.len() as u64));
                group.bench_with_input(BenchmarkId::new(kind.name(), param), &set, |b, set| {
                    b.iter(|| {
                        for g in set {
                            black_box(session.count(black_box(g), 2, &Budget::unlimited()).ok());
                        }
                    })
                });
            }
            group.finish();
        }
    }
}

#[cfg(feature = "reference")]
mod reference {
    use super::*;

    /// `reference/<dataset>`: the `sudoku` crate on the same puzzles.
    pub fn bench(c: &mut Criterion) {
        for (name, grids) in sets() {
            let set: Vec<sudoku::Sudoku> = grids
                .iter()
                .map(|g| sudoku::Sudoku::from_bytes(*g.cells()).expect("cells are 0..=9"))
                .collect();
            let mut group = configure(c, &format!("reference/{name}"));
            group.throughput(Throughput::Elements(set.len() as u64));
            group.bench_with_input(
                BenchmarkId::new("sudoku-crate-first", &name),
                &set,
                |b, set| {
                    b.iter(|| {
                        for s in set {
                            black_box(black_box(*s).some_solution());
                        }
                    })
                },
            );
            group.bench_with_input(
                BenchmarkId::new("sudoku-crate-count2", &name),
                &set,
                |b, set| {
                    b.iter(|| {
                        for s in set {
                            black_box(black_box(*s).solutions_count_up_to(2));
                        }
                    })
                },
            );
            group.finish();
        }
    }
}

#[cfg(feature = "reference")]
criterion_group!(benches, solve::bench, count2::bench, reference::bench);
#[cfg(not(feature = "reference"))]
criterion_group!(benches, solve::bench, count2::bench);
criterion_main!(benches);
