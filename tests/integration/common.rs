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

/// Reports that the running test is skipped, as `SKIPPED <test name>: <reason>` on stderr.
/// Written to the stderr handle directly: libtest captures only the print macros of a passing
/// test, so an `eprintln!` would never be seen and a skipped test would look like a pass.
pub fn skip(reason: &str) {
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {reason}");
}

/// Reads a file of `../shared/cases`, or reports the test skipped ([`skip`]) and returns `None`.
pub fn shared_case(name: &str) -> Option<String> {
    match shared_dir() {
        Some(d) => Some(std::fs::read_to_string(d.join("cases").join(name)).expect("case file")),
        None => {
            skip(&format!("../shared is absent (it holds cases/{name})"));
            None
        }
    }
}

/// The path of a public dataset of `../shared/datasets`, or reports the test skipped ([`skip`])
/// and returns `None` when ../shared or the dataset is absent.
pub fn shared_dataset(name: &str) -> Option<PathBuf> {
    let path = shared_dir().map(|d| d.join("datasets").join(name));
    match path {
        Some(p) if p.exists() => Some(p),
        _ => {
            skip(&format!("../shared/datasets/{name} is absent"));
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

/// Counts the solutions of `p` (81 cells, 0 = empty) up to `limit`, independently of the
/// `solvers` crate: plain recursion over candidate bitmasks, branching on the empty cell with the
/// fewest candidates. A second opinion for uniqueness tests.
pub fn count_solutions(p: &[u8; 81], limit: u32) -> u32 {
    fn cand(g: &[u8; 81], i: usize) -> u16 {
        let (r, c) = (i / 9, i % 9);
        let (br, bc) = (r / 3 * 3, c / 3 * 3);
        let mut used = 0u16;
        for k in 0..9 {
            for v in [g[r * 9 + k], g[k * 9 + c], g[(br + k / 3) * 9 + bc + k % 3]] {
                if v != 0 {
                    used |= 1 << v;
                }
            }
        }
        !used & 0x3fe
    }
    fn go(g: &mut [u8; 81], limit: u32, found: &mut u32) {
        let mut best = None;
        let mut best_n = 10;
        for i in 0..81 {
            if g[i] == 0 {
                let n = cand(g, i).count_ones();
                if n < best_n {
                    best_n = n;
                    best = Some(i);
                }
            }
        }
        let Some(i) = best else {
            *found += 1;
            return;
        };
        let m = cand(g, i);
        for v in 1..=9u8 {
            if m >> v & 1 == 1 {
                g[i] = v;
                go(g, limit, found);
                g[i] = 0;
                if *found >= limit {
                    return;
                }
            }
        }
    }
    let mut g = *p;
    let mut found = 0;
    go(&mut g, limit, &mut found);
    found
}
