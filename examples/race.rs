//! A one-contestant driver for profilers: solves every puzzle of a file once with the champion
//! (`bitboard-bands`), any named solver, or `reference` (the `sudoku` crate, with
//! `--features reference`), and prints the total time and effort counters. Made for
//! `valgrind --tool=callgrind` and `perf stat`, which count instructions of one process; the
//! honest speed comparison is `harness bench`.
//!
//! ```sh
//! cargo build --release --features reference --example race
//! valgrind --tool=callgrind ./target/release/examples/race reference FILE [count]
//! valgrind --tool=callgrind ./target/release/examples/race bitboard-bands FILE [count]
//! ```

use harness::input::format::PuzzleReader;
use solvers::{Budget, Grid, SolverKind, Stats};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(who), Some(file)) = (args.next(), args.next()) else {
        eprintln!("usage: race SOLVER|reference FILE [count]");
        std::process::exit(2);
    };
    let count = args.next().as_deref() == Some("count");
    let text = std::fs::read_to_string(&file).expect("readable file");
    let grids: Vec<Grid> = PuzzleReader::from_text(&text, &file)
        .filter_map(|e| Some(e.puzzle.ok()?.grid().unwrap()))
        .collect();
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut solved = 0u64;
    if who == "none" {
        // Reading only: the baseline to subtract from a profile.
    } else if who == "reference" {
        #[cfg(feature = "reference")]
        for g in &grids {
            let s = sudoku::Sudoku::from_bytes(*g.cells()).expect("valid");
            solved += if count {
                (s.solutions_count_up_to(2) == 1) as u64
            } else {
                s.some_solution().is_some() as u64
            };
        }
        #[cfg(not(feature = "reference"))]
        panic!("built without --features reference");
    } else {
        let kind: SolverKind = who.parse().expect("a solver name");
        let mut session = kind.session();
        let boards: Vec<solvers::Board> = grids.iter().map(solvers::Board::from).collect();
        for g in &boards {
            if count {
                let c = session.count(g, 2, &Budget::unlimited()).expect("counts");
                solved += (c.solutions == 1) as u64;
                stats.add(&c.stats);
            } else {
                let o = session.solve(g, &Budget::unlimited()).expect("solves");
                solved += o.solution.is_some() as u64;
                stats.add(&o.stats);
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{who}: {} puzzles, {solved} {}, {:.3} s ({:.0}/s); nodes {} guesses {} propagations {}",
        grids.len(),
        if count { "unique" } else { "solved" },
        secs,
        grids.len() as f64 / secs,
        stats.nodes,
        stats.guesses,
        stats.propagations
    );
}
