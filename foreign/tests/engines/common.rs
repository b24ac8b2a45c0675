//! Helpers of the engine tests: fixtures compiled on demand, puzzles with their solutions,
//! skipping with a printed reason.
#![allow(dead_code)]

use solvers::engine::{EngineError, Session};
use solvers::{Board, Budget, Grid, SolverKind, Stats, Status};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::SystemTime;

/// The first puzzle of the source write-up (22 givens, unique; r1c1 is 7), and its solution.
pub use solvers::known_puzzles::{SEED, SEED_SOLUTION};
/// [`SEED`] with the digits 7 and 9 swapped: still unique, and r1c1 is 9 (the trigger of the
/// segfault and hang fixtures).
pub const TRIGGER: &str =
    "9....4....4...57..8......2...6.7...4.1.....3.2...8.5...5......1..39...8....2....6";
/// The solution of [`TRIGGER`].
pub const TRIGGER_SOLUTION: &str =
    "927364158341825769865791423536172894718549632294683517652438971473916285189257346";
/// r1c9 can hold only 9, which r2c9 holds: no solution.
pub const UNSOLVABLE: &str =
    "12345678.........9...............................................................";
/// The first of magictour's top1465 (hard: needs guesses).
pub const HARD: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
/// [`SEED_SOLUTION`] with its first ten cells emptied: naked singles alone solve it.
pub const EASY: &str =
    "..........41825967865971423536192874918547632274683519652438791493716285187259346";

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

pub fn grid(text: &str) -> Grid {
    text.parse().expect("a puzzle")
}

/// The solution of `puzzle` by the built-in domain-reduction solver (a second opinion), as 81
/// digits.
pub fn reference_solution(puzzle: &str) -> String {
    let mut session = SolverKind::DomainReduction.session();
    let out = session
        .solve_grid(&grid(puzzle), &Budget::unlimited())
        .unwrap();
    assert_eq!(out.status, Status::Solved, "{puzzle}");
    out.solution.unwrap().to_digits()
}

/// Reports that the running test is skipped, as `SKIPPED <test name>: <reason>` on stderr
/// (written to the handle directly, so libtest's capture does not hide it).
pub fn skip(reason: &str) {
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {reason}");
}

/// True when `program` can be found on PATH (or is a path that exists).
pub fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program} >/dev/null 2>&1")])
        .status()
        .is_ok_and(|s| s.success())
}

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The repository's `examples/line_solver.py`.
pub fn line_solver() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/line_solver.py")
}

/// `python3` with `args`, or the test skipped when python3 is absent.
pub fn python(args: &[&str]) -> Option<Vec<String>> {
    if !have("python3") {
        skip("python3 is not installed");
        return None;
    }
    let mut command = vec!["python3".to_string()];
    command.extend(args.iter().map(|s| s.to_string()));
    Some(command)
}

/// `misbehave.py MODE ARGS...` under python3.
pub fn misbehave(args: &[&str]) -> Option<Vec<String>> {
    let script = fixtures().join("misbehave.py");
    let mut all = vec![script.to_str().unwrap()];
    all.extend(args);
    python(&all)
}

fn newest(paths: impl IntoIterator<Item = PathBuf>) -> SystemTime {
    paths
        .into_iter()
        .filter_map(|p| p.metadata().and_then(|m| m.modified()).ok())
        .max()
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

fn is_fresh(built: &Path, sources: SystemTime) -> bool {
    built
        .metadata()
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= sources)
}

/// `tests/fixtures/NAME.c` compiled as `libNAME.so` (once, under the target folder), or the
/// test skipped when no C compiler is installed.
pub fn fixture_lib(name: &str) -> Option<PathBuf> {
    static BUILD: Mutex<()> = Mutex::new(());
    if !have("cc") {
        skip("no C compiler (cc) is installed");
        return None;
    }
    let _guard = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixtures");
    std::fs::create_dir_all(&out).unwrap();
    let lib = out.join(format!("lib{name}.so"));
    let sources = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"));
    if !is_fresh(&lib, newest(sources)) {
        let tmp = out.join(format!("lib{name}.so.{}.tmp", std::process::id()));
        let status = Command::new("cc")
            .args(["-O2", "-Wall", "-shared", "-fPIC", "-o"])
            .arg(&tmp)
            .arg(fixtures().join(format!("{name}.c")))
            .status()
            .expect("cc runs");
        assert!(status.success(), "cc failed on {name}.c");
        std::fs::rename(&tmp, &lib).unwrap();
    }
    Some(lib)
}

/// `../shared/anchors`, if present (beside the project root, or beside an enclosing folder).
pub fn anchors_source() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|a| a.join("shared/anchors"))
        .find(|d| d.join("build.sh").is_file())
}

/// `../shared/datasets/NAME`, if present.
pub fn shared_dataset(name: &str) -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|a| a.join("shared/datasets").join(name))
        .find(|d| d.is_file())
}

/// The reference solvers of `../shared/anchors` built by its `build.sh` (once, under the target
/// folder), or the test skipped with the reason.
pub fn anchors() -> Option<PathBuf> {
    static BUILD: Mutex<()> = Mutex::new(());
    let Some(source) = anchors_source() else {
        skip("../shared/anchors is absent");
        return None;
    };
    if !have("g++") || !have("gcc") {
        skip("g++ and gcc are needed to build ../shared/anchors");
        return None;
    }
    let _guard = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("anchors");
    let libs = ["libtdoku.so", "libkudoku.so", "libfast_solv_9r2.so"];
    let sources = newest(
        std::fs::read_dir(&source)
            .unwrap()
            .map(|e| e.unwrap().path()),
    );
    if !libs.iter().all(|l| is_fresh(&out.join(l), sources)) {
        let staging = out.with_extension(format!("{}.tmp", std::process::id()));
        let status = Command::new("bash")
            .arg(source.join("build.sh"))
            .arg(&staging)
            .status()
            .expect("bash runs");
        assert!(status.success(), "../shared/anchors/build.sh failed");
        std::fs::create_dir_all(&out).unwrap();
        for l in libs {
            std::fs::rename(staging.join(l), out.join(l)).unwrap();
        }
        let _ = std::fs::remove_dir_all(&staging);
    }
    Some(out)
}

/// The foreign-host binary (hosts a library over the line protocol).
pub fn host() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_foreign-host"))
}

/// `fake_sat.py MODE` under python3 (the CNF path is appended by the engine).
pub fn fake_sat(mode: &str) -> Option<Vec<String>> {
    let script = fixtures().join("fake_sat.py");
    python(&[script.to_str().unwrap(), mode])
}

/// The pids of `sleep SECONDS` processes that carry this process's mark
/// (`SUDOKU_HARNESS_OWNER=PID.N`): started, directly or not, by an engine of this process.
pub fn marked_sleeps(seconds: u32) -> Vec<u32> {
    let mark = format!("SUDOKU_HARNESS_OWNER={}.", std::process::id());
    let cmdline = format!("sleep\0{seconds}\0");
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == cmdline.as_bytes())
                && std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|env| {
                    env.split(|&b| b == 0)
                        .any(|v| v.starts_with(mark.as_bytes()))
                })
        })
        .collect()
}

/// Polls `done` every 20 ms for up to `seconds`; its last answer.
pub fn eventually(seconds: u64, mut done: impl FnMut() -> bool) -> bool {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    loop {
        if done() {
            return true;
        }
        if std::time::Instant::now() >= end {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
