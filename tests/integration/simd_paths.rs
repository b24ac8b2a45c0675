//! The `triads` solver on every SIMD path this processor has (and `bitmask-singles` on its table
//! scan, which `portable`, `sse2` and `ssse3` force). The conformance, crosscheck and
//! bad-Sudoku tests build solvers through `SolverKind::build`, which reads `HARNESS_SIMD`; here
//! this test binary runs those modules again in a child process per path, with the variable set,
//! and the child checks that the path it was given is the one in effect. The default run of the
//! same modules covers the fastest path, and their heavy tests (every shipped puzzle) run there
//! only: the children run the modules' plain tests (the shipped sample, random and corrupted
//! puzzles, every bad-Sudoku case). Still a few minutes: `#[ignore]`d, run by `.ci/run`.

use solvers::triads::{SimdPath, Triads};
use std::process::Command;

/// Modules run again on each path (test-name filters of this binary).
const MODULES: [&str; 3] = ["conformance::", "crosscheck::", "bad_sudoku::"];

/// Set in the child processes, so the parent test does not run again inside them.
const CHILD: &str = "HARNESS_SIMD_PATHS_CHILD";

#[test]
fn forced_path_is_in_effect() {
    match SimdPath::from_env() {
        None => assert_eq!(Triads::new().path(), SimdPath::best()),
        Some(Ok(p)) if p.available() => assert_eq!(Triads::new().path(), p),
        Some(Ok(p)) => assert_eq!(
            Triads::new().path(),
            SimdPath::best(),
            "{p} is not available: the fastest path runs"
        ),
        Some(Err(e)) => assert_eq!(Triads::new().path(), SimdPath::best(), "{e}"),
    }
}

#[test]
#[ignore = "slow: three modules again per SIMD path; .ci/run runs it: cargo test --test solvers -- --ignored"]
fn conformance_crosscheck_and_bad_sudoku_pass_on_every_simd_path() {
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    for p in SimdPath::ALL.into_iter().filter(|p| !p.available()) {
        println!("SIMD path {p} skipped: not available (processor or compiler)");
    }
    let paths: Vec<SimdPath> = SimdPath::available_paths()
        .into_iter()
        .filter(|&p| p != SimdPath::best())
        .collect();
    assert!(paths.contains(&SimdPath::Portable));
    for path in paths {
        let out = Command::new(&exe)
            .args(MODULES)
            .arg("simd_paths::forced_path_is_in_effect")
            .args(["--test-threads", "2"])
            .env(SimdPath::ENV, path.name())
            .env(CHILD, "1")
            .output()
            .expect("the test binary runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "on the {path} path:\n{stdout}\n{stderr}"
        );
        // Every module ran something: the filters still match real tests.
        for module in MODULES {
            assert!(
                stdout.contains(module),
                "no test of {module} ran on the {path} path:\n{stdout}"
            );
        }
        assert!(
            stdout.contains("forced_path_is_in_effect ... ok"),
            "{stdout}"
        );
    }
}
