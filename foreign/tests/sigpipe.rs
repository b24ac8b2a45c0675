//! Writing a request to a program that no longer reads must be an error row, not the end of the
//! harness: the harness restores SIGPIPE's default action (terminate) at start-up, so this test
//! does too, in a process of its own, then writes to programs that close their standard input.

use foreign::LineEngine;
use solvers::engine::{Engine, EngineError};
use solvers::{Budget, Grid};
use std::time::Duration;

#[test]
fn a_request_to_a_program_that_no_longer_reads_is_a_crash_not_a_sigpipe() {
    // SAFETY: setting a signal's disposition; this binary's only test.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Answers the session's warm-up request, then closes its standard input and keeps its
    // output open: a later write meets a closed pipe.
    let engine = LineEngine::program(
        "deaf",
        vec![
            "sh".into(),
            "-c".into(),
            "read line; echo warm; exec 0<&-; exec sleep 30".into(),
        ],
    );
    let mut s = engine.session().unwrap();
    let puzzle = solvers::Board::from(".".repeat(81).parse::<Grid>().unwrap());
    let mut broken_pipes = 0;
    // Until three writes have met a closed pipe.
    for _ in 0..100 {
        if broken_pipes == 3 {
            break;
        }
        // Give the program time to close its input. If the request still goes in, nothing
        // answers it: a timeout.
        std::thread::sleep(Duration::from_millis(50));
        match s.solve(&puzzle, &Budget::with_timeout(Duration::from_millis(500))) {
            Err(EngineError::Crashed(message)) => {
                assert_eq!(
                    message,
                    "the program could not send the request (Broken pipe (os error 32)), and was killed"
                );
                broken_pipes += 1;
            }
            Ok(out) => assert_eq!(out.status, solvers::Status::Timeout),
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(broken_pipes, 3, "writes that met a closed pipe");
}
