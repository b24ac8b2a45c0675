//! Measures how far past its time budget each solver stops: every solver of the registry
//! (`SolverKind::ALL`) on the pathological puzzles of `datasets/pathological.txt` (plus the
//! "17-second hard case"), each solve under a fresh 100 ms budget, several times over. A solve
//! that ends as `timeout` overran by (its wall time - the budget); the table gives the worst and
//! the median overrun per solver, in ms. Wall-clock overrun includes the time the process was not
//! scheduled; the "between checks" column isolates the solver's part: the longest CPU time it
//! spent between two budget checks ([`Budget::CHECK_INTERVAL`] nodes at the solve's average speed,
//! from the thread's CPU clock), which bounds the overrun on an idle machine.
//!
//! ```sh
//! cargo run --release --example overrun               # 100 ms budget, 5 repeats
//! cargo run --release --example overrun -- 50 10      # 50 ms budget, 10 repeats
//! ```
//!
//! Timings depend on the machine and its load: run it on an idle machine. Tests never assert
//! timings; this is where the overrun is measured.

use harness::input::format::PuzzleReader;
use solvers::{Budget, Grid, SolverKind, Status};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let budget_ms: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let repeats: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let budget = Duration::from_millis(budget_ms);

    let mut puzzles: Vec<(String, Grid)> =
        PuzzleReader::from_text(include_str!("../datasets/pathological.txt"), "pathological")
            .filter_map(|e| Some((e.label(), e.puzzle.ok()?.grid().unwrap())))
            .collect();
    puzzles.push((
        "hard-17s".into(),
        "...6...3.5.....6...9...5.....4.1...6...4.3...8...9.5.....7...4...5.....8.3...8..."
            .parse()
            .expect("valid"),
    ));

    println!(
        "budget {budget_ms} ms, {repeats} repeat(s), {} puzzles, {} core(s)\n",
        puzzles.len(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!(
        "| solver | timeouts | worst overrun (ms) | on | median overrun (ms) | between checks (ms) | finished in budget |"
    );
    println!("|---|---:|---:|---|---:|---:|---|");
    for &kind in SolverKind::ALL {
        let mut session = kind.session();
        let mut overruns: Vec<(f64, String)> = Vec::new();
        let mut finished = Vec::new();
        let mut interval_ms: f64 = 0.0;
        for (name, grid) in &puzzles {
            for _ in 0..repeats {
                let (t0, c0) = (Instant::now(), thread_cpu());
                let out = session
                    .solve(&grid.into(), &Budget::with_timeout(budget))
                    .expect("a built-in session");
                let (elapsed, cpu) = (t0.elapsed(), thread_cpu().saturating_sub(c0));
                if out.status == Status::Timeout {
                    let over = elapsed.saturating_sub(budget).as_secs_f64() * 1e3;
                    overruns.push((over, name.clone()));
                    let per_node = cpu.as_secs_f64() / out.stats.nodes.max(1) as f64;
                    interval_ms = interval_ms.max(per_node * Budget::CHECK_INTERVAL as f64 * 1e3);
                } else if !finished.contains(name) {
                    finished.push(name.clone());
                }
            }
        }
        overruns.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (worst, on) = overruns
            .last()
            .map(|(o, n)| (format!("{o:.3}"), n.clone()))
            .unwrap_or(("-".into(), "-".into()));
        let median = overruns
            .get(overruns.len() / 2)
            .map_or("-".into(), |(o, _)| format!("{o:.3}"));
        println!(
            "| {kind} | {} of {} | {worst} | {on} | {median} | {interval_ms:.3} | {} |",
            overruns.len(),
            puzzles.len() * repeats,
            if finished.is_empty() {
                "-".to_string()
            } else {
                finished.join(", ")
            }
        );
    }
}

/// CPU time of this thread (excludes time spent descheduled).
#[cfg(unix)]
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into `ts`.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Without a thread CPU clock, wall time stands in.
#[cfg(not(unix))]
fn thread_cpu() -> Duration {
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}
