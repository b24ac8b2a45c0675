//! `harness rate FILE`: rate every puzzle of a file as a person would solve it (HoDoKu's scale),
//! in parallel, streaming, in input order.
//!
//! Each puzzle is rated by [`solvers::logic::rate`]: the easiest technique that applies, step by
//! step, each step's cost summed into a score, the level from the hardest technique and the score,
//! every step checked against the solution. Output is CSV, one row per input entry:
//!
//! `index,name,puzzle,score,level,hardest,guesses,steps,techniques,error,scale`
//!
//! where `techniques` lists the techniques used as `id:count` pairs, space-separated, in solving
//! order (`hidden_single:31 naked_single:20 x_wing:1`), and `error` says why a puzzle has no
//! rating (unreadable, no solution, more than one); the other fields are then empty.
//!
//! A reader thread parses the input into chunks of [`CHUNK`] entries (a channel holds at most
//! two); each chunk is rated on the rayon pool (`par_iter`, order kept) and written before the
//! next, so memory stays flat. `--trace` prints every puzzle's steps to stdout instead of the CSV
//! (the CSV then needs `-o`).

use crate::cli::RateArgs;
use crate::commands::candidates::render_pencil_marks;
use crate::input::format::Entry;
use crate::plumbing::human::thousands;
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use solvers::logic::{self, Board, Level, RateError, Rating, Technique};
use std::io::Write;

/// Puzzles per chunk handed to the pool.
pub const CHUNK: usize = 1024;

/// The CSV header.
pub const HEADER: &str =
    "index,name,puzzle,score,level,hardest,guesses,steps,techniques,error,scale";

pub use crate::cli::Scale;

/// A technique's id in the `techniques` column: its variant name in snake case (`x_wing`,
/// `locked_candidates1`).
pub fn technique_id(t: Technique) -> String {
    let name = format!("{t:?}");
    let mut id = String::with_capacity(name.len() + 4);
    for (i, ch) in name.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                id.push('_');
            }
            id.push(ch.to_ascii_lowercase());
        } else {
            id.push(ch);
        }
    }
    id
}

/// The `techniques` column of a rating: `id:count` for each technique used, in solving order.
pub fn technique_counts(r: &Rating) -> String {
    Technique::ALL
        .iter()
        .zip(&r.counts)
        .filter(|(_, &n)| n > 0)
        .map(|(&t, n)| format!("{}:{n}", technique_id(t)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Counts of a rating run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RateCounts {
    /// Entries read.
    pub read: u64,
    /// Puzzles rated.
    pub rated: u64,
    /// Entries that could not be read.
    pub invalid: u64,
    /// Readable puzzles without a rating: no solution, or more than one.
    pub unratable: u64,
    /// Puzzles where a technique contradicted the solution (a bug).
    pub bugs: u64,
    /// Rated puzzles per level, indexed like [`Level::ALL`].
    pub levels: [u64; 6],
}

impl RateCounts {
    /// Counts one entry's outcome, reporting a failure on stderr (above `progress`) with its
    /// line in `source`.
    fn add(&mut self, e: &Entry, o: &Outcome, source: &str, progress: &ProgressBar) {
        self.read += 1;
        match o {
            Outcome::Rated(r) => {
                self.rated += 1;
                self.levels[r.level as usize] += 1;
            }
            Outcome::Invalid(why) => {
                self.invalid += 1;
                progress.suspend(|| errln!("{why}"));
            }
            Outcome::Unratable(err) => {
                if matches!(err, RateError::WrongStep { .. }) {
                    self.bugs += 1;
                } else {
                    self.unratable += 1;
                }
                progress.suspend(|| errln!("{source}:{}: {err}", e.line));
            }
        }
    }
}

impl RateCounts {
    /// The final line: `read N, rated N (Easy N, ...), invalid N, unratable N`.
    pub fn line(&self) -> String {
        let levels: Vec<String> = Level::ALL
            .iter()
            .zip(self.levels)
            .map(|(l, n)| format!("{l} {}", thousands(n)))
            .collect();
        let mut s = format!(
            "read {}, rated {} ({}), invalid {}, unratable {}",
            thousands(self.read),
            thousands(self.rated),
            levels.join(", "),
            thousands(self.invalid),
            thousands(self.unratable)
        );
        if self.bugs > 0 {
            s.push_str(&format!(", WRONG STEPS (bugs) {}", thousands(self.bugs)));
        }
        s
    }

    /// The final line on stderr: [`RateCounts::line`], then the time taken, `secs`, and the
    /// puzzles read per second ([`crate::plumbing::human::rate`]: `1,234 puzzles/s`).
    pub fn final_line(&self, secs: f64) -> String {
        format!(
            "{} in {secs:.2} s ({} puzzles/s)",
            self.line(),
            crate::plumbing::human::rate(self.read as f64 / secs.max(1e-9))
        )
    }
}

/// One entry's outcome.
enum Outcome {
    Rated(Rating),
    Invalid(String),
    Unratable(RateError),
}

fn rate_entry(e: &Entry, trace: bool) -> Outcome {
    match &e.puzzle {
        Err(err) => Outcome::Invalid(err.to_string()),
        Ok(p) => {
            let grid = match p.require_grid("the rater") {
                Ok(g) => g,
                Err(e) => return Outcome::Invalid(e),
            };
            let r = if trace {
                logic::rate_traced(&grid)
            } else {
                logic::rate(&grid)
            };
            match r {
                Ok(r) => Outcome::Rated(r),
                Err(err) => Outcome::Unratable(err),
            }
        }
    }
}

fn write_row(
    csv: &mut csv::Writer<Vec<u8>>,
    e: &Entry,
    o: &Outcome,
    scale: Scale,
) -> csv::Result<()> {
    let index = e.index.to_string();
    let name = e.name.clone().unwrap_or_default();
    let puzzle = e
        .puzzle
        .as_ref()
        .map(|p| crate::input::format::board_line(&p.board))
        .unwrap_or_default();
    let sc = scale.name();
    let why = match o {
        Outcome::Rated(r) => {
            let (level, hardest) = match scale {
                Scale::Harness => (r.level, r.hardest.map(|t| t.name())),
                Scale::Hodoku => (r.hodoku_level(), r.hardest.map(|t| t.hodoku_name())),
            };
            return csv.write_record([
                index.as_str(),
                &name,
                &puzzle,
                &r.score.to_string(),
                level.name(),
                hardest.unwrap_or(""),
                &r.guesses.to_string(),
                &r.counts.iter().sum::<u32>().to_string(),
                &technique_counts(r),
                "",
                sc,
            ]);
        }
        Outcome::Invalid(why) => why.clone(),
        Outcome::Unratable(err) => err.to_string(),
    };
    csv.write_record([
        index.as_str(),
        &name,
        &puzzle,
        "",
        "",
        "",
        "",
        "",
        "",
        &why,
        sc,
    ])
}

/// The text `--trace` prints for one puzzle: the givens' pencil marks, every step numbered, the
/// rating.
fn trace_text(e: &Entry, o: &Outcome, source: &str) -> String {
    let mut s = String::new();
    let head = format!("puzzle {} ({source}:{})", e.index, e.line);
    match (o, &e.puzzle) {
        (Outcome::Rated(r), Ok(p)) => {
            let grid = p.grid().unwrap_or_default(); // rated: a 9x9 grid
            s.push_str(&format!("{head}: {}\n", grid.to_line()));
            let b = Board::new(&grid);
            s.push_str(&render_pencil_marks(&grid, &grid, &b.marks()));
            for (i, step) in r.steps.iter().enumerate() {
                s.push_str(&format!("{:4}. {step}\n", i + 1));
            }
            s.push_str(&format!(
                "score {}, level {}, hardest {}, {} guess(es), solution {}\n\n",
                r.score,
                r.level,
                r.hardest.map(|t| t.name()).unwrap_or("-"),
                r.guesses,
                r.solution.to_line()
            ));
        }
        (Outcome::Unratable(err), _) => s.push_str(&format!("{head}: no rating: {err}\n\n")),
        (Outcome::Invalid(why), _) => s.push_str(&format!("{head}: unreadable: {why}\n\n")),
        (Outcome::Rated(_), Err(_)) => {}
    }
    s
}

/// Rates every entry of `reader` on `pool`, writing CSV rows to `csv_out` (when given) and, with
/// `trace`, each puzzle's steps to `trace_out`, in input order. Failures are reported on stderr
/// with their line.
///
/// # Errors
/// An I/O error reading the input or writing an output.
pub fn rate_stream(
    reader: crate::input::format::PuzzleReader,
    source: &str,
    mut csv_out: Option<&mut dyn Write>,
    mut trace_out: Option<&mut dyn Write>,
    scale: Scale,
    pool: &rayon::ThreadPool,
    progress: &ProgressBar,
) -> anyhow::Result<RateCounts> {
    let trace = trace_out.is_some();
    let chunks = crate::commands::solve::Chunks::spawn(reader, CHUNK);
    let mut counts = RateCounts::default();
    if let Some(w) = csv_out.as_mut() {
        writeln!(w, "{HEADER}").context("writing the ratings")?;
    }
    let mut result: anyhow::Result<()> = Ok(());
    for chunk in chunks.iter() {
        let outcomes: Vec<Outcome> = pool.install(|| {
            chunk
                .par_iter()
                .map(|e| {
                    let o = rate_entry(e, trace);
                    progress.inc(1);
                    o
                })
                .collect()
        });
        let mut csv = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        let mut text = String::new();
        for (e, o) in chunk.iter().zip(&outcomes) {
            counts.add(e, o, source, progress);
            if result.is_ok() && csv_out.is_some() {
                result = write_row(&mut csv, e, o, scale).context("writing the ratings");
            }
            if trace {
                text.push_str(&trace_text(e, o, source));
            }
        }
        if result.is_ok() {
            result = write_chunk(csv, &text, csv_out.as_deref_mut(), trace_out.as_deref_mut());
        }
        if result.is_err() {
            break;
        }
    }
    let io_error = chunks.finish();
    result?;
    if let Some(e) = io_error {
        return Err(e).with_context(|| format!("reading {source}"));
    }
    Ok(counts)
}

/// Writes one chunk's CSV rows to `csv_out` and its trace `text` to `trace_out`, those given.
fn write_chunk(
    csv: csv::Writer<Vec<u8>>,
    text: &str,
    csv_out: Option<&mut (dyn Write + '_)>,
    trace_out: Option<&mut (dyn Write + '_)>,
) -> anyhow::Result<()> {
    if let Some(w) = csv_out {
        csv.into_inner()
            .map_err(|e| e.into_error())
            .and_then(|rows| w.write_all(&rows))
            .context("writing the ratings")?;
    }
    if let Some(w) = trace_out {
        w.write_all(text.as_bytes()).context("writing the trace")?;
    }
    Ok(())
}

/// A progress spinner counting puzzles rated on stderr, hidden when `quiet`.
fn progress_bar(quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new_spinner();
    pb.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} {spinner} {human_pos} puzzles rated ({per_sec})",
        )
        .expect("template"),
    );
    pb
}

/// The input of `harness rate`: a shipped dataset's name (as `harness run --dataset` takes it,
/// `level-hard`), `-` for stdin, or else a file.
///
/// # Errors
/// No such file and no shipped dataset of that name (the message lists the shipped names), a
/// file that cannot be opened, or whose first lines cannot be read.
pub fn open(file: &str) -> anyhow::Result<crate::input::format::PuzzleReader> {
    let shipped = crate::input::dataset::SHIPPED;
    if let Some(s) = shipped.iter().find(|s| s.name == file) {
        return Ok(crate::input::format::PuzzleReader::from_text(
            s.text, s.name,
        ));
    }
    if file != "-" && !std::path::Path::new(file).exists() {
        anyhow::bail!(
            "cannot open {file}: no such file, and no shipped dataset has that name ({})",
            shipped
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    super::solve::open(file, None)
}

/// Runs `harness rate`; returns the counts (the final line is already printed on stderr).
///
/// # Errors
/// Unreadable input, unwritable output, `--trace` to stdout together with CSV to stdout.
pub fn rate(args: &RateArgs) -> anyhow::Result<RateCounts> {
    let mut reader = open(&args.file)?;
    crate::input::dataset::refuse_empty(&mut reader, &args.file, "rated")?;
    let pool = super::generate::worker_pool(args.threads)?;
    let pb = progress_bar(args.quiet);
    let started = std::time::Instant::now();
    let counts = match (&args.out, args.trace) {
        (None, true) => {
            let stdout = std::io::stdout();
            let mut w = std::io::BufWriter::new(stdout.lock());
            let c = rate_stream(
                reader,
                &args.file,
                None,
                Some(&mut w),
                args.scale,
                &pool,
                &pb,
            )?;
            w.flush().context("writing to stdout")?;
            c
        }
        (out, trace) => {
            let mut counts = RateCounts::default();
            let stdout = std::io::stdout();
            let mut trace_w = std::io::BufWriter::new(stdout.lock());
            super::generate::to_file_or_stdout(out.as_deref(), |w| {
                counts = rate_stream(
                    reader,
                    &args.file,
                    Some(w),
                    trace.then_some(&mut trace_w as &mut dyn Write),
                    args.scale,
                    &pool,
                    &pb,
                )?;
                Ok(())
            })?;
            trace_w.flush().context("writing to stdout")?;
            counts
        }
    };
    pb.finish_and_clear();
    errln!("{}", counts.final_line(started.elapsed().as_secs_f64()));
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::RateCounts;

    /// The rate is written as every other command writes one: thousands separated.
    #[test]
    fn the_final_line_separates_thousands() {
        let counts = RateCounts {
            read: 12_344,
            rated: 12_344,
            levels: [12_344, 0, 0, 0, 0, 0],
            ..RateCounts::default()
        };
        assert!(
            counts
                .final_line(2.0)
                .ends_with(" in 2.00 s (6,172 puzzles/s)"),
            "{}",
            counts.final_line(2.0)
        );
        assert!(counts.final_line(4.0).ends_with("(3,086 puzzles/s)"));
        assert!(counts.final_line(10_000.0).ends_with("(1.23 puzzles/s)"));
        assert!(
            counts
                .line()
                .starts_with("read 12,344, rated 12,344 (Easy 12,344, Medium 0"),
            "{}",
            counts.line()
        );
    }
}
