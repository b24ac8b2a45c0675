//! Rating speed against hodoku-py (a Python port of HoDoKu, `pip install hodoku-py`): the same
//! puzzles rated by our rater (`solvers::logic::rate`) on one thread and by hodoku-py
//! (`hodoku.api.Solver().solve(p)`) in one Python process, in interleaved rounds.
//!
//! ```sh
//! cargo run --release --example rate_vs_hodoku -- FILE [--limit N] [--rounds R] [--python P]
//! ```
//!
//! `FILE` is a puzzle file in any format the harness reads, or a shipped dataset's name
//! (`level-hard`). The first `--limit` readable puzzles (default 100) are rated `--rounds` times
//! (default 3). Each round rates them with our rater, then feeds them to the Python process on
//! stdin, one per line, and reads one answer line per puzzle.
//!
//! Timing: ours, the whole loop over the N puzzles (puzzles/s = N / time). hodoku-py, from its
//! first answer line of the round to its last, so the interpreter's start and the pipe's first
//! fill are apart: puzzles/s = (N - 1) / time. The Python process is started once; its start
//! cost (spawn to a `ready` line printed after `import hodoku.api` and `Solver()`) is printed
//! separately. The ratio is taken per round (ours over hodoku-py's puzzles/s) and its median over
//! the rounds printed. Also printed: how many puzzles got the same level from both raters.
//!
//! A wall-clock measurement: on a loaded machine it is noisy, and the median of rounds only
//! tempers that.

use clap::Parser;
use harness::analysis::stats::sort_and_quantile;
use solvers::logic;
use solvers::Grid;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Rating speed: our rater on one thread against hodoku-py in one Python process.
#[derive(Parser)]
struct Args {
    /// Puzzle file (line, block or CSV), or a shipped dataset's name.
    file: String,
    /// Rate the first N readable puzzles.
    #[arg(long, default_value_t = 100)]
    limit: usize,
    /// Interleaved rounds (ours, then hodoku-py, R times).
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// The Python interpreter that can import hodoku.api.
    #[arg(long, default_value = "python3")]
    python: String,
}

/// The Python side: prints `ready` once imported, then `LEVEL SCORE` per puzzle line.
const SCRIPT: &str = "import sys\nfrom hodoku.api import Solver\ns = Solver()\nprint('ready', flush=True)\nfor line in sys.stdin:\n    p = line.strip()\n    if p:\n        r = s.solve(p)\n        print(r.level.name, r.score, flush=True)\n";

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    anyhow::ensure!(args.limit >= 2, "--limit must be at least 2");
    anyhow::ensure!(args.rounds >= 1, "--rounds must be at least 1");
    let ds = harness::input::dataset::load(&args.file)?;
    let grids: Vec<Grid> = ds
        .entries
        .iter()
        .filter_map(|e| e.puzzle.as_ref().ok().map(|p| p.grid().unwrap()))
        .take(args.limit)
        .collect();
    anyhow::ensure!(
        grids.len() >= 2,
        "{}: fewer than 2 readable puzzles",
        args.file
    );
    let n = grids.len();
    let lines: String = grids.iter().map(|g| g.to_line() + "\n").collect();

    let spawned = Instant::now();
    let mut child = Command::new(&args.python)
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| anyhow::anyhow!("cannot start {}: {e}", args.python))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut answers = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
    let mut next_line = || -> anyhow::Result<String> {
        answers
            .next()
            .ok_or_else(|| anyhow::anyhow!("hodoku-py ended early (is hodoku-py installed?)"))?
            .map_err(Into::into)
    };
    let ready = next_line()?;
    anyhow::ensure!(ready == "ready", "hodoku-py said {ready:?}, not ready");
    let start_cost = spawned.elapsed();
    println!(
        "{}: {n} puzzles, {} rounds; hodoku-py start (interpreter, import, Solver()): {:.2} s",
        args.file,
        args.rounds,
        start_cost.as_secs_f64()
    );
    println!(
        "{:>5} {:>14} {:>16} {:>10}",
        "round", "ours puzzles/s", "hodoku puzzles/s", "ratio"
    );

    let (mut ours_pps, mut theirs_pps, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let mut same_level = 0;
    for round in 1..=args.rounds {
        let t = Instant::now();
        let ratings: Vec<logic::Rating> = grids
            .iter()
            .enumerate()
            .map(|(i, g)| logic::rate(g).map_err(|e| anyhow::anyhow!("puzzle {}: {e}", i + 1)))
            .collect::<anyhow::Result<_>>()?;
        let ours = n as f64 / t.elapsed().as_secs_f64();

        // Written from a thread, so a long input cannot fill both pipes at once.
        let text = lines.clone();
        let writer = std::thread::spawn(move || -> std::io::Result<_> {
            stdin.write_all(text.as_bytes())?;
            stdin.flush()?;
            Ok(stdin)
        });
        let mut first: Option<Instant> = None;
        let mut levels = Vec::with_capacity(n);
        for _ in 0..n {
            let line = next_line()?;
            first.get_or_insert_with(Instant::now);
            levels.push(line.split(' ').next().unwrap_or("").to_string());
        }
        let span = first.map_or(Duration::ZERO, |f| f.elapsed());
        stdin = writer.join().expect("writer thread")?;
        let theirs = (n - 1) as f64 / span.as_secs_f64().max(1e-9);
        if round == 1 {
            same_level = ratings
                .iter()
                .zip(&levels)
                .filter(|(r, l)| r.level.name().to_uppercase() == **l)
                .count();
        }
        println!(
            "{round:>5} {ours:>14.1} {theirs:>16.2} {:>10.1}",
            ours / theirs
        );
        ours_pps.push(ours);
        theirs_pps.push(theirs);
        ratios.push(ours / theirs);
    }
    drop(stdin);
    let _ = child.wait();
    println!(
        "median: ours {:.1} puzzles/s, hodoku-py {:.2} puzzles/s, ratio {:.1}x; same level {same_level} of {n}",
        sort_and_quantile(&mut ours_pps, 0.5),
        sort_and_quantile(&mut theirs_pps, 0.5),
        sort_and_quantile(&mut ratios, 0.5)
    );
    Ok(())
}
