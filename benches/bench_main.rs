//! Criterion benchmarks: one group per solver over each shipped dataset, throughput in puzzles.
//! `cargo bench` runs them; `cargo bench -- --save-baseline NAME` keeps a baseline.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use harness::dataset::{self, SHIPPED};
use solvers::{Budget, Grid, SolverKind};
use std::hint::black_box;

fn puzzles(name: &str) -> Vec<Grid> {
    let s = SHIPPED
        .iter()
        .find(|s| s.name == name)
        .expect("shipped set");
    dataset::shipped(s)
        .entries
        .into_iter()
        .filter_map(|e| e.puzzle.ok().map(|p| p.grid))
        .collect()
}

fn solvers(c: &mut Criterion) {
    for kind in SolverKind::ALL {
        let solver = kind.build();
        let mut group = c.benchmark_group(kind.name());
        group.sample_size(10);
        for s in SHIPPED {
            let set = puzzles(s.name);
            group.throughput(Throughput::Elements(set.len() as u64));
            group.bench_with_input(BenchmarkId::new(kind.name(), s.name), &set, |b, set| {
                b.iter(|| {
                    for g in set {
                        black_box(solver.solve(black_box(g), &Budget::unlimited()));
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, solvers);
criterion_main!(benches);
