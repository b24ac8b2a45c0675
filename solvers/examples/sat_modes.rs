//! Measures the two ways the `sat` solver can pass the givens to varisat, on one thread:
//! assumptions on a per-thread clause database (the default) against a fresh solver per puzzle
//! with unit clauses. Prints the median and the maximum µs of each over a puzzle file.
//!
//! ```sh
//! grep -v '^#' ../shared/datasets/puzzles2_17_clue | head -1000 > /tmp/p1000.txt
//! cargo run --release -p solvers --example sat_modes -- /tmp/p1000.txt
//! ```

use solvers::sat::{GivenMode, Sat};
use solvers::{Budget, Grid, Solver, Status};
use std::time::Instant;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: sat_modes FILE (one 81-character puzzle per line)");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    println!("{} puzzles from {path}", puzzles.len());
    // Alternate the modes puzzle by puzzle so both see the same machine load.
    let modes = [GivenMode::Assumptions, GivenMode::UnitClauses];
    let mut micros: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut sats = modes.map(|mode| Sat::new(mode, None));
    for p in &puzzles {
        let board = solvers::Board::from(p);
        for (k, &mode) in modes.iter().enumerate() {
            let s = &mut sats[k];
            let t = Instant::now();
            let out = s
                .solve(&board, &Budget::unlimited())
                .expect("sat takes 9x9");
            micros[k].push(t.elapsed().as_secs_f64() * 1e6);
            assert_eq!(out.status, Status::Solved, "{mode:?} on {p}");
        }
    }
    for (k, mode) in modes.iter().enumerate() {
        let v = &mut micros[k];
        v.sort_by(|a, b| a.total_cmp(b));
        println!(
            "{mode:?}: median {:.1} µs, p90 {:.1} µs, max {:.1} µs",
            v[v.len() / 2],
            v[v.len() * 9 / 10],
            v[v.len() - 1]
        );
    }
}
