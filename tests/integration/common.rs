//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared` beside the project root, if present; from a git worktree nested deeper (such as
/// `wt/NAME`), the nearest ancestor's `shared` folder that holds `cases/`.
pub fn shared_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    root.ancestors()
        .skip(1)
        .map(|a| a.join("shared"))
        .find(|d| d.join("cases").is_dir())
}

/// Reads a file of `../shared/cases`, or prints why the test is skipped and returns `None`.
pub fn shared_case(name: &str) -> Option<String> {
    match shared_dir() {
        Some(d) => Some(std::fs::read_to_string(d.join("cases").join(name)).expect("case file")),
        None => {
            eprintln!("skipped: ../shared is absent (it holds cases/{name})");
            None
        }
    }
}

/// Parses an 81-digit string into cells.
pub fn cells(s: &str) -> [u8; 81] {
    let v: Vec<u8> = s
        .trim()
        .chars()
        .map(|c| c.to_digit(10).unwrap_or(0) as u8)
        .collect();
    v.try_into().expect("81 cells")
}

/// The `harness` binary, ready to run.
pub fn harness() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("harness").expect("binary builds")
}
