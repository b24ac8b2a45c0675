//! Isolated `lib:` engines: the C fixtures hosted in a child process (`foreign-host host-lib`).

use crate::common::*;
use foreign::line::isolated;
use foreign::{ForeignOrigin, SharedLibEngine};
use solvers::engine::{BudgetMode, Engine, EngineError};
use solvers::{Budget, Status};
use std::time::Duration;

#[test]
fn an_isolated_library_answers_as_in_process() {
    let Some(lib) = fixture_lib("tiny_solver") else {
        return;
    };
    let engine = isolated("tiny", host(), &lib, "TinySolver", 0, true);
    assert_eq!(engine.info().caps.budget, BudgetMode::KilledByHarness);
    assert!(matches!(
        ForeignOrigin::of(&engine.info().origin),
        Some(ForeignOrigin::SharedLib { isolated: true, .. })
    ));
    let direct = SharedLibEngine::load("tiny", &lib, "TinySolver", 0, true).unwrap();
    let (mut s, mut d) = (engine.session().unwrap(), direct.session().unwrap());
    for puzzle in [SEED, TRIGGER, HARD, UNSOLVABLE] {
        let (a, b) = (
            s.solve_grid(&grid(puzzle), &Budget::unlimited()).unwrap(),
            d.solve_grid(&grid(puzzle), &Budget::unlimited()).unwrap(),
        );
        assert_eq!(a, b, "{puzzle}");
    }
    assert!(s.last_usage().is_some());
    let c = s
        .count_grid(&grid(&".".repeat(81)), 3, &Budget::unlimited())
        .unwrap();
    assert_eq!((c.solutions, c.complete), (3, true));
}

#[test]
fn a_segfault_is_an_error_and_the_next_puzzles_solve() {
    let Some(lib) = fixture_lib("segfault") else {
        return;
    };
    let engine = isolated("segv", host(), &lib, "SegfaultSolver", 0, true);
    let mut s = engine.session().unwrap();
    for _ in 0..2 {
        let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
        assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
        let Err(EngineError::Crashed(message)) = s.solve_grid(&grid(TRIGGER), &Budget::unlimited())
        else {
            panic!("the trigger did not crash the child")
        };
        assert_eq!(
            message,
            "the program ended its output before answering; it was killed by signal 11 (SIGSEGV)"
        );
        let c = s.count_grid(&grid(SEED), 2, &Budget::unlimited()).unwrap();
        assert_eq!((c.solutions, c.complete), (1, true));
    }
}

#[test]
fn a_hang_is_a_timeout_and_the_next_puzzle_solves() {
    let Some(lib) = fixture_lib("hang") else {
        return;
    };
    let engine = isolated("hang", host(), &lib, "HangSolver", 0, true);
    let mut s = engine.session().unwrap();
    let out = s
        .solve_grid(
            &grid(TRIGGER),
            &Budget::with_timeout(Duration::from_millis(200)),
        )
        .unwrap();
    assert_eq!((out.status, out.solution), (Status::Timeout, None));
    let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
    assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
}

#[test]
fn an_isolated_library_without_solutions() {
    let Some(lib) = fixture_lib("misbehave") else {
        return;
    };
    let engine = isolated("nowrite", host(), &lib, "NoWrite", 0, false);
    assert!(engine.command().ends_with(&["--no-solution".to_string()]));
    let mut s = engine.session().unwrap();
    let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
    assert_eq!(
        (out.status, out.solution, out.stats.guesses),
        (Status::Solved, None, 7)
    );
    // A contract breach in the child comes back as an error answer.
    let engine = isolated("garbage", host(), &lib, "GarbageWriter", 0, true);
    let e = engine
        .session()
        .unwrap()
        .solve_grid(&grid(SEED), &Budget::unlimited())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "protocol: the program answered error: protocol: GarbageWriter reported a solution but \
         its solution buffer holds \"hello\" (5 bytes before the first NUL), not 81 digits 1-9"
    );
}

#[test]
fn a_library_the_child_cannot_load_fails_the_session_naming_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("libmissing.so");
    let engine = isolated("missing", host(), &missing, "F", 0, true);
    // Found when the session opens, before any puzzle.
    let Err(EngineError::Load(message)) = engine.session() else {
        panic!("a session on a missing library")
    };
    assert!(
        message.contains("ended before answering its first request; it exited with status 2"),
        "{message}"
    );
    assert!(
        message.contains("cannot load: ") && message.contains("libmissing.so: No such file"),
        "{message}"
    );
}
