//! Times the `hybrid` portfolio at several hand-off points against its two halves, in one
//! process, single thread, interleaved rounds (the order of contestants shuffled each round):
//! the experiment behind `solvers::hybrid::HANDOFF_NODES`.
//!
//! ```sh
//! cargo run --release --example handoff -- FILE [count] [ROUNDS] [K,K,...]
//! ```
//!
//! Prints, per contestant, the median over rounds of its time on the whole file (µs per
//! puzzle) and its median time relative to `triads` and to `bitboard-bands` in the same round.

use harness::format::PuzzleReader;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use solvers::bitboard_bands::BitboardBands;
use solvers::hybrid::Hybrid;
use solvers::triads::Triads;
use solvers::{Budget, Grid, Solver};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: handoff FILE [count] [ROUNDS] [K,K,...]");
        std::process::exit(2);
    };
    let count = args.iter().any(|a| a == "count");
    let rest: Vec<&String> = args[1..].iter().filter(|a| *a != "count").collect();
    let rounds: usize = rest.first().and_then(|s| s.parse().ok()).unwrap_or(7);
    let ks: Vec<u64> = rest
        .get(1)
        .map(|s| s.split(',').filter_map(|k| k.parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 4, 8, 16, 32, 64]);
    let text = std::fs::read_to_string(file).expect("readable file");
    let grids: Vec<Grid> = PuzzleReader::from_text(&text, file)
        .filter_map(|e| Some(e.puzzle.ok()?.grid))
        .collect();
    let mut who: Vec<(String, Box<dyn Solver>)> = vec![
        ("triads".into(), Box::new(Triads::new())),
        ("bitboard-bands".into(), Box::new(BitboardBands)),
    ];
    for &k in &ks {
        who.push((format!("hybrid K={k}"), Box::new(Hybrid::with_handoff(k))));
    }
    let budget = Budget::unlimited();
    let mut times = vec![Vec::new(); who.len()];
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let mut order: Vec<usize> = (0..who.len()).collect();
    for _ in 0..rounds {
        order.shuffle(&mut rng);
        for &i in &order {
            let s = &who[i].1;
            let t = Instant::now();
            let mut solved = 0usize;
            for g in &grids {
                solved += if count {
                    (s.count(g, 2, &budget).expect("counts").solutions >= 1) as usize
                } else {
                    s.solve(g, &budget).solution.is_some() as usize
                };
            }
            times[i].push(t.elapsed().as_secs_f64());
            assert_eq!(solved, grids.len(), "{} left puzzles unsolved", who[i].0);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let ratio_to = |j: usize, i: usize| {
        let mut r: Vec<f64> = (0..rounds).map(|r| times[i][r] / times[j][r]).collect();
        median(&mut r)
    };
    println!(
        "{file}: {} puzzles, {}, {rounds} rounds",
        grids.len(),
        if count {
            "count up to 2"
        } else {
            "first solution"
        }
    );
    println!(
        "{:<16} {:>10} {:>12} {:>18}",
        "contestant", "µs/puzzle", "time/triads", "time/bitboard-bands"
    );
    for i in 0..who.len() {
        let mut t = times[i].clone();
        let m = median(&mut t) * 1e6 / grids.len() as f64;
        println!(
            "{:<16} {:>10.2} {:>12.3} {:>18.3}",
            who[i].0,
            m,
            ratio_to(0, i),
            ratio_to(1, i)
        );
    }
}
