//! `cmd:` engines: the repository's Python solver and the misbehaving fixtures.

use crate::common::*;
use foreign::LineEngine;
use solvers::engine::{Engine, EngineError, Session};
use solvers::{Budget, Stats, Status};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn session(command: Vec<String>) -> Box<dyn Session> {
    LineEngine::program("py", command).session().unwrap()
}

fn assert_solves(s: &mut dyn Session, puzzle: &str, solution: &str) {
    let out = s.solve_grid(&grid(puzzle), &Budget::unlimited()).unwrap();
    assert_eq!(out.status, Status::Solved, "{puzzle}");
    assert_eq!(out.solution.unwrap().to_digits(), solution, "{puzzle}");
}

#[test]
fn the_python_solver_solves_and_counts() {
    let Some(command) = python(&[line_solver().to_str().unwrap()]) else {
        return;
    };
    let mut s = session(command);
    let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
    assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
    // The counters the program wrote (its own search, deterministic).
    assert_eq!(
        out.stats,
        Stats {
            nodes: 14,
            guesses: 8,
            propagations: 89,
            ..Stats::default()
        }
    );
    let usage = s.last_usage().expect("a child process is measured");
    assert!(usage.cpu_micros > 0.0, "{usage:?}");
    assert!(usage.peak_rss_kib.is_some_and(|k| k > 0), "{usage:?}");
    assert_solves(s.as_mut(), TRIGGER, TRIGGER_SOLUTION);
    assert_solves(s.as_mut(), HARD, &reference_solution(HARD));
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
}

#[test]
fn garbage_is_a_protocol_error_quoting_the_line() {
    let Some(command) = misbehave(&["garbage"]) else {
        return;
    };
    let mut s = session(command);
    for _ in 0..2 {
        let e = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "protocol: expected 81 digits, \"none\" or \"solved\" then key=value counters, read \"hello world\""
        );
    }
    let e = s
        .count_grid(&grid(SEED), 2, &Budget::unlimited())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "protocol: expected a count from 0 to 2 then key=value counters, read \"hello world\""
    );
}

#[test]
fn a_program_that_exits_is_a_crash_then_it_is_started_again() {
    let Some(command) = misbehave(&["exit-after", "2"]) else {
        return;
    };
    let mut s = session(command);
    for round in 0..2 {
        assert_solves(s.as_mut(), SEED, SEED_SOLUTION);
        assert_solves(s.as_mut(), TRIGGER, TRIGGER_SOLUTION);
        let Err(EngineError::Crashed(message)) = s.solve_grid(&grid(SEED), &Budget::unlimited())
        else {
            panic!("round {round}: the third puzzle did not crash");
        };
        assert_eq!(
            message,
            "the program ended its output before answering; it exited with status 3; its last \
             line on stderr: \"giving up\""
        );
        assert!(s.last_usage().is_some());
    }
}

#[test]
fn a_hang_past_the_deadline_is_a_timeout_then_the_next_puzzle_solves() {
    let Some(command) = misbehave(&["hang-on-9"]) else {
        return;
    };
    let mut s = session(command);
    assert_solves(s.as_mut(), SEED, SEED_SOLUTION);
    let budget = Budget::with_timeout(Duration::from_millis(200));
    let out = s.solve_grid(&grid(TRIGGER), &budget).unwrap();
    assert_eq!((out.status, out.solution), (Status::Timeout, None));
    assert!(s.last_usage().is_some(), "the killed child's usage");
    let c = s.count_grid(&grid(TRIGGER), 2, &budget.clone()).unwrap();
    assert!(!c.complete);
    assert_solves(s.as_mut(), SEED, SEED_SOLUTION);
}

#[test]
fn the_cancel_flag_ends_a_wait_without_a_deadline() {
    let Some(command) = misbehave(&["hang-on-9"]) else {
        return;
    };
    let mut s = session(command);
    let flag = Arc::new(AtomicBool::new(false));
    let budget = Budget::unlimited().cancel_flag(flag.clone());
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        flag.store(true, Ordering::Relaxed);
    });
    let out = s.solve_grid(&grid(TRIGGER), &budget).unwrap();
    setter.join().unwrap();
    assert_eq!(out.status, Status::Timeout);
    assert_solves(s.as_mut(), SEED, SEED_SOLUTION);
}

#[test]
fn comments_stderr_and_unknown_counters_are_skipped() {
    let Some(command) = misbehave(&["chatty"]) else {
        return;
    };
    let mut s = session(command);
    for _ in 0..3 {
        let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
        assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
        assert_eq!(out.stats.nodes, 14);
    }
    let c = s.count_grid(&grid(SEED), 2, &Budget::unlimited()).unwrap();
    assert_eq!((c.solutions, c.complete), (1, true));
}

#[test]
fn unsupported_and_unwritten_solutions() {
    let Some(command) = misbehave(&["no-count"]) else {
        return;
    };
    let mut s = session(command);
    let e = s
        .count_grid(&grid(SEED), 2, &Budget::unlimited())
        .unwrap_err();
    assert!(matches!(e, EngineError::Unsupported("count")), "{e}");
    assert_solves(s.as_mut(), SEED, SEED_SOLUTION);

    let Some(command) = misbehave(&["solved-only"]) else {
        return;
    };
    let mut s = session(command);
    let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
    assert_eq!(
        (out.status, out.solution, out.stats.nodes),
        (Status::Solved, None, 1)
    );
}

#[test]
fn a_program_that_cannot_start_is_a_load_error() {
    let engine = LineEngine::program("nope", vec!["/nonexistent/solver".into(), "-x".into()]);
    let Err(EngineError::Load(message)) = engine.session() else {
        panic!("started a missing program")
    };
    assert_eq!(
        message,
        "cannot start \"/nonexistent/solver -x\": No such file or directory (os error 2)"
    );
}

#[test]
fn a_script_that_is_not_found_is_a_load_error_naming_it() {
    let Some(command) = python(&["/nonexistent/examples/line_solver.py"]) else {
        return;
    };
    let Err(EngineError::Load(message)) = LineEngine::program("my", command).session() else {
        panic!("a session on a missing script")
    };
    assert!(
        message.starts_with(
            "python3 /nonexistent/examples/line_solver.py ended before answering its first \
             request; it exited with status 2; its last line on stderr: "
        ),
        "{message}"
    );
    // The cause, whole: the file python3 could not open.
    assert!(
        message.contains("can't open file '/nonexistent/examples/line_solver.py'")
            && message.contains("No such file or directory"),
        "{message}"
    );
}

#[test]
fn a_program_that_never_answers_costs_each_request_its_budget_and_names_flushing() {
    let Some(command) = misbehave(&["hang"]) else {
        return;
    };
    // The session opens after the warm-up wait (the program answers nothing).
    let mut s = session(command);
    for _ in 0..3 {
        let began = std::time::Instant::now();
        let out = s
            .solve_grid(
                &grid(SEED),
                &Budget::with_timeout(Duration::from_millis(300)),
            )
            .unwrap_err();
        let spent = began.elapsed();
        // Not a timeout: a program that answers nothing, not even its warm-up request, most
        // likely does not flush its output, and the error says so.
        let EngineError::Protocol(message) = out else {
            panic!("{out:?}")
        };
        assert_eq!(message, foreign::line::SILENT_HINT);
        // 300 ms and a restart that waits for no warm-up answer (one that never came before):
        // well under the warm-up wait of 2 s, let alone the 5 s each restart used to cost.
        assert!(spent < Duration::from_millis(2500), "{spent:?}");
        let restart = s.last_usage().unwrap().restart_micros;
        assert!(restart > 0.0, "the restart is charged apart");
    }
}

#[test]
fn a_restart_is_charged_apart_and_the_next_puzzle_gets_its_whole_budget() {
    let Some(command) = misbehave(&["hang-on-9"]) else {
        return;
    };
    let mut s = session(command);
    let out = s
        .solve_grid(
            &grid(TRIGGER),
            &Budget::with_timeout(Duration::from_millis(200)),
        )
        .unwrap();
    assert_eq!(out.status, Status::Timeout);
    // The program answered its warm-up at the start, so the restart waited for its new copy's.
    let usage = s.last_usage().unwrap();
    assert!(usage.restart_micros > 0.0, "{usage:?}");
    // A 2 s budget is enough for the restarted program; no start-up is charged to it.
    let out = s
        .solve_grid(&grid(SEED), &Budget::with_timeout(Duration::from_secs(2)))
        .unwrap();
    assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
    assert_eq!(s.last_usage().unwrap().restart_micros, 0.0);
}

#[test]
fn a_child_that_left_the_process_group_is_killed_with_the_program() {
    let Some(command) = misbehave(&["setsid-child"]) else {
        return;
    };
    let mut s = session(command);
    assert_solves(s.as_mut(), SEED, SEED_SOLUTION);
    assert!(
        eventually(5, || !marked_sleeps(300).is_empty()),
        "the child runs"
    );
    drop(s);
    assert!(
        eventually(5, || marked_sleeps(300).is_empty()),
        "left behind: {:?}",
        marked_sleeps(300)
    );
}
