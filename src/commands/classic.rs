//! The classic mode: `harness -c N` and `harness -s PATH`, both writing `./sudoku.txt`, as in the
//! classic command-line assignment for this problem.
//!
//! - `-c N [--seed S]`: N distinct solved grids (N a whole number 1..=1,000,000) in block form,
//!   made by the `transform` method with the top-left digit fixed to [`FIRST_DIGIT`] (so at most
//!   5,806,080 are possible; distinct by construction, see [`crate::generate::transform`]). The
//!   same seed writes the same file; without `--seed` one is taken from the clock, and printed.
//! - `-s PATH`: the block-form puzzles of PATH (0 = empty) solved, in the same form and order; a
//!   malformed or unsolvable puzzle is reported with its line and written as a marked entry
//!   (see [`super::solve`]), and the rest are still solved.

use super::solve::{open, solve_stream, Engines, SolveCounts};
use crate::cli::ClassicArgs;
use crate::generate::grids::{write_grids, GridFormat};
use crate::generate::GridMethod;
use crate::input::format::Format;
use crate::plumbing::output;
use anyhow::bail;
use std::path::Path;

/// The digit in the top-left cell of every grid `-c` writes.
pub const FIRST_DIGIT: u8 = 1;

/// The most grids `-c` writes.
pub const MAX_COUNT: u64 = 1_000_000;

/// The file both flags write, in the current folder.
pub const OUTPUT: &str = "sudoku.txt";

/// Parses `-c`'s value: a whole number 1..=1,000,000 written in plain decimal digits.
///
/// # Errors
/// Anything else (`0`, `-3`, `1e6`, `1000001`, `abc`, empty), with a one-line message.
pub fn parse_count(text: &str) -> anyhow::Result<u64> {
    let t = text.trim();
    let n = if !t.is_empty() && t.len() <= 7 && t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse::<u64>().ok()
    } else {
        None
    };
    match n {
        Some(n) if (1..=MAX_COUNT).contains(&n) => Ok(n),
        _ if t.is_empty() => bail!("-c needs a number of grids: a whole number from 1 to 1000000"),
        _ => bail!("-c {t:?}: the number of grids must be a whole number from 1 to 1000000"),
    }
}

/// Parses `--seed`'s value: a whole number 0..=18446744073709551615 in plain decimal digits.
///
/// # Errors
/// Anything else, with a one-line message.
pub fn parse_seed(text: &str) -> anyhow::Result<u64> {
    let t = text.trim();
    match t.parse::<u64>() {
        Ok(n) if t.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ if t.is_empty() => bail!(
            "--seed needs a value: a whole number from 0 to {}",
            u64::MAX
        ),
        _ => bail!(
            "--seed {t:?}: the seed must be a whole number from 0 to {}",
            u64::MAX
        ),
    }
}

/// What the classic mode did.
pub enum ClassicEnd {
    /// `-c`: grids written.
    Created(u64),
    /// `-s`: the batch counts.
    Solved(SolveCounts),
}

/// Runs `-c N` or `-s PATH`.
///
/// # Errors
/// A bad `-c` value, a missing or unreadable `-s` file, an unwritable `sudoku.txt`, or neither
/// flag given (then the message points to `--help`).
pub fn classic(args: &ClassicArgs) -> anyhow::Result<ClassicEnd> {
    if args.seed.is_some() && args.create.is_none() {
        bail!("--seed goes with -c N: `harness -c N --seed S` writes the same grids every time");
    }
    if let Some(text) = &args.create {
        let n = parse_count(text)?;
        let seed = match &args.seed {
            Some(s) => parse_seed(s)?,
            None => super::generate::seed_or_clock_quiet(),
        };
        output::write_atomic(Path::new(OUTPUT), |w| {
            write_grids(
                w,
                GridMethod::Transform,
                n,
                seed,
                Some(FIRST_DIGIT),
                GridFormat::Block,
                &|_| {},
            )?;
            Ok(())
        })?;
        errln!(
            "wrote {n} distinct solved grids to {OUTPUT} (seed {seed}: `harness -c {n} --seed {seed}` writes the same file)"
        );
        return Ok(ClassicEnd::Created(n));
    }
    if let Some(path) = &args.solve_path {
        if path.is_empty() {
            bail!("-s needs the path of a file of block-form puzzles");
        }
        let p = Path::new(path);
        if p.is_dir() {
            bail!("-s {path}: is a folder; give a file of block-form puzzles");
        }
        if !p.exists() {
            bail!("-s {path}: no such file");
        }
        let mut reader = open(path, Some(Format::Block))?;
        crate::input::dataset::refuse_empty(&mut reader, path, "solved")?;
        let solver = solvers::registry::BuiltinEngine::new(crate::generate::counting_solver());
        let pool = super::generate::worker_pool(None)?;
        let mut counts = SolveCounts::default();
        output::write_atomic(Path::new(OUTPUT), |w| {
            // Any solution will do here: a puzzle of several gets one of them, unmarked.
            let (timeout, transform, counter) = (None, None, None);
            counts = solve_stream(
                reader,
                path,
                w,
                Format::Block,
                &Engines::one(&solver, counter),
                &pool,
                timeout,
                transform,
            )?;
            Ok(())
        })?;
        errln!("{}; solutions in {OUTPUT}", counts.line());
        return Ok(ClassicEnd::Solved(counts));
    }
    bail!(
        "no command: use `harness -c N`, `harness -s PATH` or a subcommand (see `harness --help`)"
    )
}

#[cfg(test)]
mod tests {
    use super::{parse_count, parse_seed};

    #[test]
    fn seeds() {
        assert_eq!(parse_seed("0").unwrap(), 0);
        assert_eq!(parse_seed("18446744073709551615").unwrap(), u64::MAX);
        for bad in ["", "-1", "+1", "1e3", "abc", "18446744073709551616"] {
            let e = parse_seed(bad).unwrap_err().to_string();
            assert!(!e.contains('\n') && e.contains("--seed"), "{e}");
        }
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count("1").unwrap(), 1);
        assert_eq!(parse_count("1000000").unwrap(), 1_000_000);
        assert_eq!(parse_count("0020").unwrap(), 20);
        for bad in [
            "0",
            "-3",
            "1e6",
            "1000001",
            "abc",
            "",
            "+5",
            "2.0",
            "99999999999999999999",
        ] {
            let e = parse_count(bad).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
