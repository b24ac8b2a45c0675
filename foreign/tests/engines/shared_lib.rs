//! `lib:` engines on the C fixtures.

use crate::common::*;
use foreign::SharedLibEngine;
use solvers::engine::{BudgetMode, Engine, EngineError, NodeUnit};
use solvers::{Budget, Status};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

fn tiny() -> Option<SharedLibEngine> {
    let lib = fixture_lib("tiny_solver")?;
    Some(SharedLibEngine::load("tiny", &lib, "TinySolver", 0, true).unwrap())
}

#[test]
fn tiny_solver_solves_counts_and_reports_guesses() {
    let Some(engine) = tiny() else { return };
    let caps = engine.info().caps;
    assert!(caps.counts && caps.gives_solution && caps.guesses && !caps.parallel);
    assert_eq!(
        (caps.budget, caps.nodes),
        (BudgetMode::OverrunRecorded, NodeUnit::None)
    );
    let mut s = engine.session().unwrap();
    for (puzzle, solution) in [(SEED, SEED_SOLUTION), (TRIGGER, TRIGGER_SOLUTION)] {
        assert_eq!(reference_solution(puzzle), solution);
        let out = s.solve_grid(&grid(puzzle), &Budget::unlimited()).unwrap();
        assert_eq!(out.status, Status::Solved);
        assert_eq!(out.solution.unwrap().to_digits(), solution);
        assert!(out.stats.guesses > 0, "{puzzle}: {:?}", out.stats);
        assert_eq!(out.stats.nodes, 0);
    }
    let out = s.solve_grid(&grid(HARD), &Budget::unlimited()).unwrap();
    assert_eq!(out.solution.unwrap().to_digits(), reference_solution(HARD));
    // Naked singles alone solve EASY: the fewest-candidates cell always has one.
    let out = s.solve_grid(&grid(EASY), &Budget::unlimited()).unwrap();
    assert_eq!(
        (
            out.solution.unwrap().to_digits().as_str(),
            out.stats.guesses
        ),
        (SEED_SOLUTION, 0)
    );
    let out = s
        .solve_grid(&grid(UNSOLVABLE), &Budget::unlimited())
        .unwrap();
    assert_eq!((out.status, out.solution), (Status::NoSolution, None));

    let c = s.count_grid(&grid(SEED), 2, &Budget::unlimited()).unwrap();
    assert_eq!((c.solutions, c.complete, c.first), (1, true, None));
    let c = s
        .count_grid(&grid(&".".repeat(81)), 5, &Budget::unlimited())
        .unwrap();
    assert_eq!((c.solutions, c.complete), (5, true));
    let c = s
        .count_grid(&grid(UNSOLVABLE), 2, &Budget::unlimited())
        .unwrap();
    assert_eq!((c.solutions, c.complete), (0, true));
    assert_eq!(s.last_usage(), None, "in-process: the harness measures it");
}

#[test]
fn a_spent_budget_is_a_timeout_without_calling() {
    // The segfault fixture would crash this process on TRIGGER if it were called.
    let Some(lib) = fixture_lib("segfault") else {
        return;
    };
    let engine = SharedLibEngine::load("segv", &lib, "SegfaultSolver", 0, true).unwrap();
    let mut s = engine.session().unwrap();
    let spent = Budget::with_timeout(Duration::ZERO);
    let out = s.solve_grid(&grid(TRIGGER), &spent).unwrap();
    assert_eq!((out.status, out.solution), (Status::Timeout, None));
    let cancelled = Budget::unlimited().cancel_flag(Arc::new(AtomicBool::new(true)));
    let c = s.count_grid(&grid(TRIGGER), 2, &cancelled).unwrap();
    assert_eq!((c.solutions, c.complete), (0, false));
    // Not the trigger: solved.
    let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
    assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
}

#[test]
fn an_answer_after_the_deadline_is_a_timeout() {
    // Reentry sleeps 2 ms in the call: past a 1 ms deadline whenever the call starts.
    let Some(lib) = fixture_lib("misbehave") else {
        return;
    };
    let engine = SharedLibEngine::load("slow", &lib, "Reentry", 0, true).unwrap();
    let mut s = engine.session().unwrap();
    let out = s
        .solve_grid(&grid(SEED), &Budget::with_timeout(Duration::from_millis(1)))
        .unwrap();
    assert_eq!(out.status, Status::Timeout);
    let c = s
        .count_grid(
            &grid(SEED),
            2,
            &Budget::with_timeout(Duration::from_millis(1)),
        )
        .unwrap();
    assert!(!c.complete);
    // In time: Reentry reports no solution.
    let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
    assert_eq!(out.status, Status::NoSolution);
}

#[test]
fn contract_breaches_are_protocol_errors_naming_what_was_written() {
    let Some(lib) = fixture_lib("misbehave") else {
        return;
    };
    let garbage = SharedLibEngine::load("g", &lib, "GarbageWriter", 0, true).unwrap();
    let e = garbage
        .session()
        .unwrap()
        .solve_grid(&grid(SEED), &Budget::unlimited())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "protocol: GarbageWriter reported a solution but its solution buffer holds \"hello\" \
         (5 bytes before the first NUL), not 81 digits 1-9"
    );
    let over = SharedLibEngine::load("o", &lib, "OverLimit", 0, true).unwrap();
    let mut s = over.session().unwrap();
    let e = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "protocol: OverLimit returned 2 solutions for a limit of 1"
    );
    let e = s
        .count_grid(&grid(SEED), 5, &Budget::unlimited())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "protocol: OverLimit returned 6 solutions for a limit of 5"
    );
}

#[test]
fn a_library_that_writes_no_solution_is_solved_unchecked() {
    let Some(lib) = fixture_lib("misbehave") else {
        return;
    };
    let engine = SharedLibEngine::load("nowrite", &lib, "NoWrite", 0, false).unwrap();
    assert!(!engine.info().caps.gives_solution);
    let mut s = engine.session().unwrap();
    let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
    assert_eq!(
        (out.status, out.solution, out.stats.guesses),
        (Status::Solved, None, 7)
    );
    let c = s.count_grid(&grid(SEED), 2, &Budget::unlimited()).unwrap();
    assert_eq!((c.solutions, c.complete), (1, true));
}

#[test]
fn a_missing_symbol_is_a_load_error_naming_it() {
    let Some(lib) = fixture_lib("tiny_solver") else {
        return;
    };
    let Err(EngineError::Load(message)) = SharedLibEngine::load("x", &lib, "NoSuchSolver", 0, true)
    else {
        panic!("loaded a missing symbol")
    };
    assert!(
        message.starts_with(&format!("symbol \"NoSuchSolver\" in {}", lib.display())),
        "{message}"
    );
}

#[test]
fn calls_into_one_library_file_are_serialized_across_engines() {
    // Reentry returns 999 (a protocol error: above the limit) when two calls overlap. Two
    // engines load the same file by two paths; two threads call each 40 times.
    let Some(lib) = fixture_lib("misbehave") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("libalias.so");
    std::os::unix::fs::symlink(&lib, &link).unwrap();
    let engines = [
        SharedLibEngine::load("a", &lib, "Reentry", 0, true).unwrap(),
        SharedLibEngine::load("b", &link, "Reentry", 0, true).unwrap(),
    ];
    std::thread::scope(|scope| {
        for engine in &engines {
            scope.spawn(move || {
                let mut s = engine.session().unwrap();
                for _ in 0..40 {
                    let out = s.solve_grid(&grid(SEED), &Budget::unlimited());
                    assert_eq!(out.unwrap().status, Status::NoSolution);
                }
            });
        }
    });
}
