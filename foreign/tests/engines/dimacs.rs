//! `dimacs:` engines on the SAT solvers Debian packages (minisat, cadical, picosat,
//! cryptominisat5), and on shell stand-ins for the ways a solver can fail.

use crate::common::*;
use foreign::DimacsEngine;
use solvers::engine::{Engine, EngineError};
use solvers::{Budget, Status};
use std::time::Duration;

/// The real solvers, as `harness` would run them.
const SOLVERS: &[&[&str]] = &[
    &["minisat"],
    &["cadical", "-q"],
    &["picosat"],
    &["cryptominisat5", "--verb", "0"],
];

fn engine(command: &[&str]) -> DimacsEngine {
    DimacsEngine::new(command[0], command.iter().map(|s| s.to_string()).collect())
}

#[test]
fn each_installed_sat_solver_solves_and_counts() {
    let hard = reference_solution(HARD);
    for command in SOLVERS {
        if !have(command[0]) {
            skip(&format!(
                "{} is not installed (apt-get install minisat cadical picosat cryptominisat)",
                command[0]
            ));
            continue;
        }
        let engine = engine(command);
        let mut s = engine.session().unwrap();
        for (puzzle, solution) in [
            (SEED, SEED_SOLUTION),
            (TRIGGER, TRIGGER_SOLUTION),
            (HARD, &hard),
        ] {
            let out = s.solve_grid(&grid(puzzle), &Budget::unlimited()).unwrap();
            assert_eq!(out.status, Status::Solved, "{command:?} {puzzle}");
            assert_eq!(out.solution.unwrap().to_digits(), solution, "{command:?}");
            let usage = s.last_usage().expect("the solver's rusage");
            assert!(usage.peak_rss_kib.is_some_and(|k| k > 0), "{usage:?}");
        }
        let out = s
            .solve_grid(&grid(UNSOLVABLE), &Budget::unlimited())
            .unwrap();
        assert_eq!(out.status, Status::NoSolution, "{command:?}");
        // Unique: the second run with the blocking clause is unsatisfiable.
        let c = s.count_grid(&grid(SEED), 2, &Budget::unlimited()).unwrap();
        assert_eq!((c.solutions, c.complete), (1, true), "{command:?}");
        assert_eq!(c.first.unwrap().to_digits(), SEED_SOLUTION);
        // The empty grid: three different models, then the limit.
        let c = s
            .count_grid(&grid(&".".repeat(81)), 3, &Budget::unlimited())
            .unwrap();
        assert_eq!((c.solutions, c.complete), (3, true), "{command:?}");
        assert!(c.first.unwrap().is_full());
        let c = s
            .count_grid(&grid(UNSOLVABLE), 2, &Budget::unlimited())
            .unwrap();
        assert_eq!((c.solutions, c.complete), (0, true), "{command:?}");
    }
}

/// A stand-in solver: `sh -c SCRIPT sh CNF_PATH`.
fn script(text: &str) -> DimacsEngine {
    DimacsEngine::new(
        "script",
        vec!["sh".into(), "-c".into(), text.into(), "sh".into()],
    )
}

#[test]
fn the_deadline_kills_the_solver() {
    let engine = script("sleep 30");
    let mut s = engine.session().unwrap();
    let out = s
        .solve_grid(
            &grid(SEED),
            &Budget::with_timeout(Duration::from_millis(200)),
        )
        .unwrap();
    assert_eq!(out.status, Status::Timeout);
    let c = s
        .count_grid(
            &grid(SEED),
            2,
            &Budget::with_timeout(Duration::from_millis(200)),
        )
        .unwrap();
    assert_eq!((c.solutions, c.complete), (0, false));
    assert!(s.last_usage().is_some());
    let spent = Budget::with_timeout(Duration::ZERO);
    assert_eq!(
        s.solve_grid(&grid(SEED), &spent).unwrap().status,
        Status::Timeout
    );
    assert_eq!(s.last_usage(), None, "nothing ran");
}

#[test]
fn failures_are_named() {
    let cases: &[(&str, &str)] = &[
        (
            "echo hello",
            "protocol: sh (its output; it exited with status 0): no s line (s SATISFIABLE / s \
             UNSATISFIABLE) in the output; its first line: \"hello\"",
        ),
        (
            "echo usage: solver FILE >&2; exit 1",
            "protocol: sh (its output; it exited with status 1): no s line (s SATISFIABLE / s \
             UNSATISFIABLE) in the output; the output is empty; its last line on stderr: \
             \"usage: solver FILE\"",
        ),
        (
            "printf 's SATISFIABLE\\nv 1 2 0\\n'; exit 10",
            "protocol: sh (its output; it exited with status 10): bad model: cell r1c1 has two \
             true digits in the model, 1 and 2",
        ),
        (
            "echo 's UNKNOWN'",
            "protocol: sh (its output; it exited with status 0): the solver answered UNKNOWN",
        ),
        (
            "kill -SEGV $$",
            "crashed: sh was killed by signal 11 (SIGSEGV)",
        ),
    ];
    for (text, expected) in cases {
        let e = script(text)
            .session()
            .unwrap()
            .solve_grid(&grid(SEED), &Budget::unlimited())
            .unwrap_err();
        assert_eq!(e.to_string(), *expected, "{text}");
    }
}

#[test]
fn minisat_is_read_from_its_result_file() {
    // A stand-in named minisat, writing the result file it is given (the last argument).
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("minisat");
    std::fs::write(
        &fake,
        "#!/bin/sh\nfor last; do :; done\necho UNSAT > \"$last\"\necho 's SATISFIABLE'\nexit 20\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let engine = DimacsEngine::new("m", vec![fake.to_string_lossy().into_owned()]);
    let out = engine
        .session()
        .unwrap()
        .solve_grid(&grid(SEED), &Budget::unlimited())
        .unwrap();
    assert_eq!(out.status, Status::NoSolution);
    // Without a result file: named.
    std::fs::write(&fake, "#!/bin/sh\necho oops >&2\nexit 3\n").unwrap();
    let e = engine
        .session()
        .unwrap()
        .solve_grid(&grid(SEED), &Budget::unlimited())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "protocol: {} wrote no result file; it exited with status 3; its last line on \
             stderr: \"oops\"",
            fake.display()
        )
    );
}

#[test]
fn a_missing_program_is_a_load_error() {
    let engine = DimacsEngine::new("x", vec!["/nonexistent/sat".into()]);
    let e = engine
        .session()
        .unwrap()
        .solve_grid(&grid(SEED), &Budget::unlimited())
        .unwrap_err();
    assert!(
        matches!(&e, EngineError::Load(m) if m.starts_with("cannot start \"/nonexistent/sat\"")),
        "{e}"
    );
}

fn fake(mode: &str) -> Option<DimacsEngine> {
    fake_sat(mode).map(|c| DimacsEngine::new("fake", c))
}

#[test]
fn a_count_checks_each_model_against_the_blocking_clauses() {
    let Some(engine) = fake("honest-once") else {
        return;
    };
    let mut s = engine.session().unwrap();
    // One solution: the first model is right, the second repeats it.
    let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
    assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
    let e = s
        .count_grid(&grid(SEED), 5, &Budget::unlimited())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "protocol: python3's model repeats model 1 (it breaks a blocking clause)"
    );
}

#[test]
fn a_model_that_breaks_the_givens_is_an_error() {
    let Some(engine) = fake("wrong-given") else {
        return;
    };
    let mut s = engine.session().unwrap();
    let e = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("protocol: python3's model is not a solution of the puzzle: r1c1 holds"),
        "{e}"
    );
    let e = s
        .count_grid(&grid(SEED), 2, &Budget::unlimited())
        .unwrap_err();
    assert!(
        e.to_string().contains("not a solution of the puzzle"),
        "{e}"
    );
}

#[test]
fn what_a_solver_leaves_behind_is_killed_when_it_exits() {
    for (mode, seconds) in [("fork-child", 301), ("setsid-child", 302)] {
        let Some(engine) = fake(mode) else {
            return;
        };
        let mut s = engine.session().unwrap();
        for _ in 0..2 {
            let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
            assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
            // Killed before the answer is returned.
            assert_eq!(marked_sleeps(seconds), Vec::<u32>::new(), "{mode}");
        }
    }
}

#[test]
fn output_past_the_file_size_cap_is_an_error() {
    let Some(engine) = fake("flood") else {
        return;
    };
    let mut s = engine.session().unwrap();
    let e = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "protocol: python3 reached the limit of 16 MiB on a file it writes (its output, a result \
         file)"
    );
}

#[test]
fn a_request_without_a_deadline_ends_at_the_unbudgeted_limit() {
    let Some(engine) = fake("hang") else {
        return;
    };
    let mut s = engine.session().unwrap();
    let began = std::time::Instant::now();
    let out = s.solve_grid(&grid(SEED), &Budget::unlimited()).unwrap();
    assert_eq!(out.status, Status::Timeout);
    assert!(began.elapsed() >= foreign::UNBUDGETED_LIMIT);
}
