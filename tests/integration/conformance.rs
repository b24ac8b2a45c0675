//! One test body, run against every solver of the registry: the shipped puzzles against their
//! verified solutions, a puzzle with no solution, and the budget.

use crate::common::OnGrid;
use harness::input::dataset::{self, SHIPPED};
use harness::verify;
use solvers::{Budget, Grid, SolverKind, Status};
use std::time::Duration;

/// Every shipped puzzle, solved by every solver, matches the solution stated in its file.
#[test]
#[ignore = "heavy: every solver on every shipped puzzle; .ci/run runs it: cargo test --test solvers -- --ignored"]
fn every_solver_solves_every_shipped_puzzle() {
    for kind in SolverKind::ALL {
        let mut solver = kind.session();
        for s in SHIPPED {
            for e in dataset::shipped(s).entries {
                let p = e.puzzle.clone().expect("shipped puzzles are valid");
                let out = solver
                    .solve_grid(&p.grid().unwrap(), &Budget::unlimited())
                    .unwrap();
                assert_eq!(
                    out.status,
                    Status::Solved,
                    "{kind} on {} {}",
                    s.name,
                    e.label()
                );
                let sol = out.solution.unwrap();
                let expected = p.solution.as_ref();
                assert!(expected.is_some(), "shipped sets state their solutions");
                assert_eq!(
                    verify::check_board(&p.board, &sol.into(), expected),
                    Ok(()),
                    "{kind} on {}",
                    e.label()
                );
                assert!(out.stats.nodes >= 1);
            }
        }
    }
}

/// The shipped puzzles have exactly one solution, counted by every counting solver.
#[test]
#[ignore = "heavy: every counting solver on every shipped puzzle; .ci/run runs it: cargo test --test solvers -- --ignored"]
fn shipped_puzzles_are_unique() {
    for kind in SolverKind::ALL {
        let mut solver = kind.session();
        for s in SHIPPED {
            for e in dataset::shipped(s).entries {
                let p = e.puzzle.clone().unwrap();
                if let Ok(c) = solver.count_grid(&p.grid().unwrap(), 2, &Budget::unlimited()) {
                    assert!(c.complete);
                    assert_eq!(c.solutions, 1, "{kind} counts {}", e.label());
                }
            }
        }
    }
}

/// A consistent puzzle with no solution: r1c1..r1c8 hold 1..8 and r2c9 holds 9, so r1c9 has no
/// candidate (worked by hand).
#[test]
fn every_solver_reports_no_solution() {
    let mut g = Grid::EMPTY;
    for c in 0..8 {
        g.set(c, c as u8 + 1);
    }
    g.set(17, 9);
    assert!(g.first_conflict().is_none());
    for kind in SolverKind::ALL {
        let out = kind
            .session()
            .solve_grid(&g, &Budget::with_timeout(Duration::from_secs(10)))
            .unwrap();
        assert_eq!(out.status, Status::NoSolution, "{kind}");
        assert!(out.solution.is_none());
        if let Ok(c) = kind.session().count_grid(&g, 2, &Budget::unlimited()) {
            assert_eq!((c.solutions, c.complete), (0, true), "{kind}");
        }
    }
}

/// The 17-second case: bitmask-dfs enters exactly 7,368,194 nodes, the number of calls a Python
/// run of the same algorithm makes (counting the call that finds the grid full); backtracking
/// takes the same path, so the same count.
#[test]
fn bitmask_dfs_node_count_matches_the_python_reference() {
    let hard = dataset::shipped(&SHIPPED[0])
        .entries
        .into_iter()
        .find(|e| e.label() == "hard-17s")
        .unwrap()
        .puzzle
        .unwrap();
    let out = SolverKind::BitmaskDfs
        .session()
        .solve_grid(&hard.grid().unwrap(), &Budget::unlimited())
        .unwrap();
    assert_eq!(out.status, Status::Solved);
    assert_eq!(out.stats.nodes, 7_368_194);
    assert_eq!(out.solution, hard.solution_grid());
}

/// A node budget ends every solver's search as `timeout` on the empty-ish hard case, never as
/// `no_solution`.
#[test]
fn node_budget_gives_timeout() {
    // ../shared/cases/C04.txt: built against row-major brute force.
    let g: Grid =
        "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
            .parse()
            .unwrap();
    for kind in [SolverKind::Backtracking, SolverKind::BitmaskDfs] {
        let out = kind
            .session()
            .solve_grid(&g, &Budget::unlimited().max_nodes(Some(100_000)))
            .unwrap();
        assert_eq!(out.status, Status::Timeout, "{kind}");
        assert!(out.stats.nodes <= 100_001);
    }
}
