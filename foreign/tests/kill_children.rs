//! `kill_children` ends every solver process the engines started: in a test binary of its own,
//! since it would kill the other tests' children too.

use foreign::{DimacsEngine, LineEngine};
use solvers::engine::{Engine, EngineError};
use solvers::{Budget, Grid};
use std::time::Duration;

#[test]
fn kill_children_ends_the_programs_in_flight() {
    let puzzle = solvers::Board::from(".".repeat(81).parse::<Grid>().unwrap());
    // A program that never answers, and a SAT "solver" that never ends.
    let silent = LineEngine::program(
        "silent",
        vec!["sh".into(), "-c".into(), "exec sleep 60".into()],
    );
    let mut line = silent.session().unwrap();
    let slow = DimacsEngine::new(
        "slow",
        vec![
            "sh".into(),
            "-c".into(),
            "exec sleep 60".into(),
            "sh".into(),
        ],
    );
    let mut dimacs = slow.session().unwrap();
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(|| line.solve(&puzzle, &Budget::unlimited()));
        let b = scope.spawn(|| dimacs.solve(&puzzle, &Budget::unlimited()));
        // Whenever a call comes, before or during the requests, they end as crashes; called
        // until both have ended.
        while !(a.is_finished() && b.is_finished()) {
            std::thread::sleep(Duration::from_millis(100));
            foreign::kill_children();
        }
        (a.join().unwrap(), b.join().unwrap())
    });
    let Err(EngineError::Crashed(a)) = a else {
        panic!("the line program answered: {a:?}")
    };
    assert!(a.contains("was killed by signal 9 (SIGKILL)"), "{a}");
    let Err(EngineError::Crashed(b)) = b else {
        panic!("the SAT solver answered: {b:?}")
    };
    assert_eq!(b, "sh was killed by signal 9 (SIGKILL)");
}
