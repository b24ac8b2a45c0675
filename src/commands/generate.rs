//! `harness generate grids` and `harness generate puzzles`.

use crate::cli::{GenerateArgs, GenerateCommand, GridsArgs, PuzzlesArgs};
use crate::generate::grids::{write_grids, GridFormat};
use crate::generate::{
    counting_solver, generate_puzzle, generate_rated_puzzle, puzzle, GenerateError, PuzzleOptions,
    RatingFilter, Target,
};
use crate::output;
use crate::runner::Sessions;
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use solvers::engine::BuiltinEngine;
use solvers::SolverKind;
use std::io::Write;
use std::path::Path;

/// What a generate command ended with.
pub struct GenerateEnd {
    /// Items asked for but not made (puzzles that could not reach `--clues K`).
    pub failed: u64,
}

/// Runs `harness generate ...`.
///
/// # Errors
/// Bad arguments (a count the method cannot reach, a clue target outside 17..=81, an unknown or
/// non-counting solver), an unwritable output.
pub fn generate(args: &GenerateArgs) -> anyhow::Result<GenerateEnd> {
    match &args.what {
        GenerateCommand::Grids(a) => grids(a).map(|()| GenerateEnd { failed: 0 }),
        GenerateCommand::Puzzles(a) => puzzles(a),
    }
}

/// The seed to use: the one given, or one from the clock, announced on stderr.
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        eprintln!("seed {s} (pass --seed {s} to make the same file again)");
        s
    })
}

/// A seed from the clock, not announced (the classic `-c` prints it in its own last line).
pub fn seed_or_clock_quiet() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

fn bar(len: u64, quiet: bool, what: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} ({{per_sec}}, eta {{eta}})"
        ))
        .expect("template")
        .progress_chars("=> "),
    );
    pb
}

/// Runs `write` on `out` (see [`output::write_atomic`]: a regular file is written to a temporary
/// file renamed into place, a FIFO or device is streamed into, `-` is stdout), or on stdout when
/// `out` is `None`.
///
/// # Errors
/// Those of `write` and of [`output::write_atomic`].
pub fn to_file_or_stdout(
    out: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    output::write_atomic(out.unwrap_or(Path::new("-")), write)
}

/// Refuses `--count 0`: it would write an empty file and exit 0, which hides a mistyped count.
///
/// # Errors
/// A usage error for 0.
pub fn check_count(count: u64, what: &str) -> anyhow::Result<()> {
    if count == 0 {
        anyhow::bail!(
            "--count 0: nothing to generate; give the number of {what} wanted (1 or more)"
        );
    }
    Ok(())
}

fn grids(args: &GridsArgs) -> anyhow::Result<()> {
    check_count(args.count, "grids")?;
    let seed = seed_or_clock(args.seed);
    let format = if args.format == "block" {
        GridFormat::Block
    } else {
        GridFormat::Line
    };
    let pb = bar(args.count, args.quiet, "grids");
    let result = to_file_or_stdout(args.out.as_deref(), |w| {
        write_grids(
            w,
            args.method,
            args.count,
            seed,
            args.first_digit,
            format,
            &|n| pb.set_position(n),
        )
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidInput => anyhow::anyhow!("{e}"),
            _ => anyhow::Error::new(e),
        })
    });
    pb.finish_and_clear();
    result
}

/// The counting solver named by `--solver`, or [`counting_solver`].
///
/// # Errors
/// An unknown solver name.
pub fn solver_or_default(name: Option<&str>) -> anyhow::Result<SolverKind> {
    match name {
        Some(n) => Ok(n.parse()?),
        None => Ok(counting_solver()),
    }
}

/// Puzzles made per parallel chunk, written in index order.
const PUZZLE_CHUNK: u64 = 256;

fn puzzles(args: &PuzzlesArgs) -> anyhow::Result<GenerateEnd> {
    check_count(args.count, "puzzles")?;
    let options = PuzzleOptions {
        target: match args.clues {
            Some(k) => Target::Clues(k),
            None => Target::Minimal,
        },
        symmetry: args.symmetry,
        solver: solver_or_default(args.solver.as_deref())?,
        attempts: args.attempts.max(1),
    };
    puzzle::check_options(&options)?;
    let seed = seed_or_clock(args.seed);
    let csv = args.format == "csv";
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting worker threads")?;
    let filter = (args.level.is_some() || args.score.is_some()).then(|| {
        let (min_score, max_score) = args.score.unwrap_or((0, u32::MAX));
        RatingFilter {
            level: args.level,
            min_score,
            max_score,
        }
    });
    // One session of the counting solver per worker thread, reused for every puzzle.
    let counter = BuiltinEngine::new(options.solver);
    let sessions = Sessions::new(pool.current_num_threads(), 1);
    let pb = bar(args.count, args.quiet, "puzzles");
    let mut failed = 0u64;
    let mut written = 0u64;
    let mut givens_total = 0u64;
    let result = to_file_or_stdout(args.out.as_deref(), |w| {
        if csv {
            if filter.is_some() {
                writeln!(w, "name,puzzle,solution,score,level")?;
            } else {
                writeln!(w, "name,puzzle,solution")?;
            }
        }
        let mut start = 0;
        while start < args.count {
            let end = (start + PUZZLE_CHUNK).min(args.count);
            let made: Vec<_> = pool.install(|| {
                (start..end)
                    .into_par_iter()
                    .map(|i| {
                        let r = sessions.with(0, &counter, |session| {
                            let session = session.map_err(GenerateError::Session)?;
                            match &filter {
                                None => {
                                    generate_puzzle(&options, session, seed, i).map(|p| (p, None))
                                }
                                Some(f) => generate_rated_puzzle(
                                    &options,
                                    session,
                                    f,
                                    args.level_attempts,
                                    seed,
                                    i,
                                )
                                .map(|(p, r)| (p, Some(r))),
                            }
                        });
                        pb.inc(1);
                        r
                    })
                    .collect()
            });
            for (i, r) in (start..).zip(made) {
                match r {
                    Ok((p, rating)) => {
                        written += 1;
                        givens_total += p.givens() as u64;
                        let (q, s) = (p.puzzle.to_digits(), p.solution.to_digits());
                        if let (true, Some(r)) = (csv, &rating) {
                            writeln!(w, "{},{q},{s},{},{}", i + 1, r.score, r.level)?;
                        } else if csv {
                            writeln!(w, "{},{q},{s}", i + 1)?;
                        } else {
                            writeln!(w, "{q} {s}")?;
                        }
                    }
                    Err(e) => {
                        failed += 1;
                        pb.suspend(|| eprintln!("puzzle {}: {e}", i + 1));
                    }
                }
            }
            start = end;
        }
        Ok(())
    });
    pb.finish_and_clear();
    result?;
    let mean = if written > 0 {
        givens_total as f64 / written as f64
    } else {
        0.0
    };
    eprintln!(
        "{written} puzzle(s) written (mean {mean:.1} givens, counted by {}), {failed} could not be made",
        options.solver
    );
    Ok(GenerateEnd { failed })
}
