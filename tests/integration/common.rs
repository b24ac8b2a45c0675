//! Helpers shared by the integration tests.
#![allow(dead_code)]

use solvers::engine::{EngineError, Session};
use solvers::{Board, Budget, Grid, Stats, Status};
use std::path::PathBuf;

/// An outcome whose solution is read back as a 9x9 [`Grid`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridOutcome {
    pub status: Status,
    pub solution: Option<Grid>,
    pub stats: Stats,
}

/// A count whose first solution is read back as a 9x9 [`Grid`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridCount {
    pub solutions: u64,
    pub complete: bool,
    pub first: Option<Grid>,
    pub stats: Stats,
}

/// The tests' shorthand for 9x9 grids through a [`Session`].
pub trait OnGrid {
    fn solve_grid(&mut self, puzzle: &Grid, budget: &Budget) -> Result<GridOutcome, EngineError>;
    fn count_grid(
        &mut self,
        puzzle: &Grid,
        limit: u64,
        budget: &Budget,
    ) -> Result<GridCount, EngineError>;
}

impl<S: Session + ?Sized> OnGrid for S {
    fn solve_grid(&mut self, puzzle: &Grid, budget: &Budget) -> Result<GridOutcome, EngineError> {
        let o = self.solve(&Board::from(puzzle), budget)?;
        Ok(GridOutcome {
            status: o.status,
            solution: o.grid(),
            stats: o.stats,
        })
    }

    fn count_grid(
        &mut self,
        puzzle: &Grid,
        limit: u64,
        budget: &Budget,
    ) -> Result<GridCount, EngineError> {
        let c = self.count(&Board::from(puzzle), limit, budget)?;
        Ok(GridCount {
            solutions: c.solutions,
            complete: c.complete,
            first: c.first.and_then(|b| b.to_grid()),
            stats: c.stats,
        })
    }
}

/// The folder `HARNESS_DATA` named when the tests were built, holding `datasets/`, `cases/`
/// (with `hodoku-reglib/`) and `anchors/` (`scripts/fetch-data.sh DIR` fills one). A test that
/// reads it is ignored without it: `#[cfg_attr(not(harness_data), ignore = "...")]` (the cfg is
/// set by `build.rs`).
///
/// # Panics
/// When `HARNESS_DATA` was not set (the test should have been ignored).
pub fn data_dir() -> PathBuf {
    match option_env!("HARNESS_DATA_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => panic!("HARNESS_DATA was not set when the tests were built"),
    }
}

/// A file of [`data_dir`], by its path inside it (`datasets/norvig_top95.txt`).
///
/// # Panics
/// When the file is missing: HARNESS_DATA is set, so the test must not pass without it.
pub fn data_file(path: &str) -> PathBuf {
    let file = data_dir().join(path);
    assert!(
        file.is_file(),
        "{} is missing: HARNESS_DATA={} lacks {path} (scripts/fetch-data.sh DIR fetches it)",
        file.display(),
        data_dir().display()
    );
    file
}

/// The text of a case file of `tests/fixtures/cases` (its README gives each one's right value).
pub fn case(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cases")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Reports that the running test is skipped, as `SKIPPED <test name>: <reason>` on stderr: only
/// for `#[ignore]`d tests run on purpose with `--ignored` (the cluster tests) that find a tool
/// missing. Written to the stderr handle directly: libtest captures the print macros.
pub fn skip(reason: &str) {
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {reason}");
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

/// The run.json of the run folder `out`, parsed.
pub fn run_json(out: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap()
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
