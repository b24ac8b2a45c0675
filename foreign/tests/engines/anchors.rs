//! The public solvers of `../shared/anchors` as `lib:` engines (built by its build.sh), every
//! answer checked against the built-in domain-reduction solver.

use crate::common::*;
use foreign::SharedLibEngine;
use solvers::engine::Engine;
use solvers::{Budget, Status};

/// Every symbol the anchors README lists: library, symbol, configuration, writes a solution.
const ANCHORS: &[(&str, &str, u32, bool)] = &[
    ("libtdoku.so", "TdokuSolverDpllTriadSimd", 0, true),
    ("libtdoku.so", "TdokuSolverBasic", 0, true),
    ("libtdoku.so", "TdokuSolverBasic", 1, true),
    ("libkudoku.so", "OtherSolverKudoku", 0, true),
    ("libfast_solv_9r2.so", "FastSolv9r2", 0, false),
];

/// The first puzzles of magictour's top1465 when ../shared has it, else the fixed ones.
fn puzzles() -> Vec<String> {
    match shared_dataset("puzzles3_magictour_top1465") {
        Some(path) => std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| l.len() == 81 && !l.starts_with('#'))
            .take(12)
            .map(str::to_string)
            .collect(),
        None => vec![SEED.into(), TRIGGER.into(), HARD.into()],
    }
}

#[test]
fn every_anchor_solves_and_counts_with_answers_checked() {
    let Some(dir) = anchors() else { return };
    let puzzles = puzzles();
    assert!(puzzles.len() >= 3);
    let solutions: Vec<String> = puzzles.iter().map(|p| reference_solution(p)).collect();
    for &(file, symbol, configuration, gives_solution) in ANCHORS {
        let name = format!("{symbol}:{configuration}");
        let engine = SharedLibEngine::load(
            &name,
            &dir.join(file),
            symbol,
            configuration,
            gives_solution,
        )
        .unwrap();
        let mut s = engine.session().unwrap();
        let mut guesses = 0;
        for (puzzle, solution) in puzzles.iter().zip(&solutions) {
            let out = s.solve_grid(&grid(puzzle), &Budget::unlimited()).unwrap();
            assert_eq!(out.status, Status::Solved, "{name} {puzzle}");
            match out.solution {
                Some(g) => assert_eq!(&g.to_digits(), solution, "{name} {puzzle}"),
                None => assert!(!gives_solution, "{name} wrote no solution"),
            }
            guesses += out.stats.guesses;
            let c = s
                .count_grid(&grid(puzzle), 2, &Budget::unlimited())
                .unwrap();
            assert_eq!((c.solutions, c.complete), (1, true), "{name} {puzzle}");
        }
        assert!(guesses > 0, "{name}: no guesses on hard puzzles");
        let out = s
            .solve_grid(&grid(UNSOLVABLE), &Budget::unlimited())
            .unwrap();
        assert_eq!(out.status, Status::NoSolution, "{name}");
        // One given, not none: fast_solv_9r2 reads an uninitialized entry of its undo stack
        // (`tapadas[0]`) after a search that covered no given, and may crash on the empty grid.
        let one_given = format!("1{}", ".".repeat(80));
        let c = s
            .count_grid(&grid(&one_given), 10, &Budget::unlimited())
            .unwrap();
        assert_eq!((c.solutions, c.complete), (10, true), "{name}");
    }
}
