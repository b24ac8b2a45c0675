//! What the harness adds to an external solver's own time, per call (a benchmark, not a test):
//!
//! - `lib:` — a `SharedLibEngine` solve of a C function that returns at once (`Noop` of
//!   `tests/fixtures/misbehave.c`, compiled here with `cc`): ns per call, beside the bare call
//!   through the same function pointer;
//! - `lib:` isolated — the same function hosted in `foreign-host` over the line protocol: µs per
//!   round trip;
//! - `cmd:` — a Python program that answers `none` at once: µs per round trip;
//! - `dimacs:` — minisat on one puzzle, when installed: ms per puzzle (a process, a CNF file).
//!
//! Run: `cargo build --release -p foreign --bins && cargo run --release -p foreign --example overhead`.
//! Each figure is the median of 5 repetitions; the machine's load shows in them.

use foreign::line::isolated;
use foreign::{DimacsEngine, LineEngine, SharedLibEngine};
use solvers::engine::{Engine, Session};
use solvers::{Budget, Grid};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const PUZZLE: &str =
    "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";

/// Median over 5 repetitions of the time per call of `calls` calls of `f`, ns.
fn per_call_ns(calls: u32, mut f: impl FnMut()) -> f64 {
    for _ in 0..calls / 10 + 1 {
        f();
    }
    let mut reps: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..calls {
                f();
            }
            start.elapsed().as_nanos() as f64 / calls as f64
        })
        .collect();
    reps.sort_by(f64::total_cmp);
    reps[2]
}

fn solve_loop<'a>(session: &'a mut dyn Session, puzzle: &Grid) -> impl FnMut() + 'a {
    let puzzle = solvers::Board::from(puzzle);
    move || {
        let out = session.solve(&puzzle, &Budget::unlimited());
        std::hint::black_box(out.expect("an answer"));
    }
}

fn main() {
    let puzzle: Grid = PUZZLE.parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("libmisbehave.so");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/misbehave.c");
    let built = Command::new("cc")
        .args(["-O2", "-shared", "-fPIC", "-o"])
        .arg(&lib)
        .arg(&source)
        .status();
    if !built.is_ok_and(|s| s.success()) {
        eprintln!("cc could not build {}: no lib: figures", source.display());
        return;
    }

    let engine = SharedLibEngine::load("noop", &lib, "Noop", 0, true).unwrap();
    let mut session = engine.session().unwrap();
    let ns = per_call_ns(1_000_000, solve_loop(session.as_mut(), &puzzle));
    println!("lib: SharedLibEngine::solve of a function that returns at once: {ns:.0} ns per call");

    // The bare call, for comparison: the same function through libloading, no engine.
    type AdapterFn = unsafe extern "C" fn(
        *const std::os::raw::c_char,
        usize,
        u32,
        *mut std::os::raw::c_char,
        *mut usize,
    ) -> usize;
    // SAFETY: our own fixture, with tdoku's adapter signature.
    let library = unsafe { libloading::Library::new(&lib) }.unwrap();
    let noop: AdapterFn = unsafe { *library.get::<AdapterFn>(b"Noop").unwrap() };
    let text = format!("{PUZZLE}\0");
    let mut solution = [0u8; 82];
    let mut guesses = 0usize;
    let ns = per_call_ns(1_000_000, || {
        // SAFETY: an 81-character NUL-terminated puzzle and an 82-byte buffer.
        let n = unsafe {
            noop(
                text.as_ptr().cast(),
                1,
                0,
                solution.as_mut_ptr().cast(),
                &mut guesses,
            )
        };
        std::hint::black_box(n);
    });
    println!("lib: the bare call through the function pointer:              {ns:.0} ns per call");

    let host: PathBuf = std::env::current_exe()
        .unwrap()
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("foreign-host"))
        .unwrap();
    if host.is_file() {
        let engine = isolated("noop", host, &lib, "Noop", 0, true);
        let mut session = engine.session().unwrap();
        let ns = per_call_ns(20_000, solve_loop(session.as_mut(), &puzzle));
        println!(
            "lib: isolated (foreign-host over the line protocol), round trip: {:.1} µs per call",
            ns / 1e3
        );
    } else {
        eprintln!(
            "{} is absent (cargo build --release -p foreign --bins): no isolated figure",
            host.display()
        );
    }

    let echo = "import sys\nfor line in sys.stdin:\n    print('none', flush=True)\n";
    match LineEngine::program("echo", vec!["python3".into(), "-c".into(), echo.into()]).session() {
        Ok(mut session) => {
            let ns = per_call_ns(20_000, solve_loop(session.as_mut(), &puzzle));
            println!(
                "cmd: a Python program answering at once, round trip:           {:.1} µs per call",
                ns / 1e3
            );
        }
        Err(e) => eprintln!("python3: {e}: no cmd: figure"),
    }

    let minisat = DimacsEngine::new("minisat", vec!["minisat".into()]);
    let mut session = minisat.session().unwrap();
    if session
        .solve(&solvers::Board::from(puzzle), &Budget::unlimited())
        .is_ok()
    {
        let ns = per_call_ns(50, solve_loop(session.as_mut(), &puzzle));
        println!(
            "dimacs: minisat on one puzzle (CNF file, one process):          {:.2} ms per puzzle",
            ns / 1e6
        );
    } else {
        eprintln!("minisat is not installed: no dimacs: figure");
    }
}
