//! Writing a request to a program that has exited must be an error row, not the end of the
//! harness: the harness restores SIGPIPE's default action (terminate) at start-up, so this test
//! does too, in a process of its own, then writes to programs that exit at once.

use foreign::LineEngine;
use solvers::engine::{Engine, EngineError};
use solvers::{Budget, Grid};
use std::time::Duration;

#[test]
fn a_request_to_a_program_that_has_exited_is_a_crash_not_a_sigpipe() {
    // SAFETY: setting a signal's disposition; this binary's only test.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let engine = LineEngine::program("quits", vec!["sh".into(), "-c".into(), "exit 4".into()]);
    let mut s = engine.session().unwrap();
    let puzzle: Grid = ".".repeat(81).parse().unwrap();
    let mut broken_pipes = 0;
    // Until three writes have met a closed pipe (each program may still be exiting when the
    // request is written; then its end is read instead).
    for _ in 0..100 {
        if broken_pipes == 3 {
            break;
        }
        // Give the program time to exit, so that the write meets a closed pipe.
        std::thread::sleep(Duration::from_millis(50));
        let Err(EngineError::Crashed(message)) = s.solve(&puzzle, &Budget::unlimited()) else {
            panic!("a program that exits answered");
        };
        assert!(message.ends_with("; it exited with status 4"), "{message}");
        if message.starts_with("the program could not send the request (Broken pipe") {
            broken_pipes += 1;
        }
    }
    assert_eq!(broken_pipes, 3, "writes that met a closed pipe");
}
