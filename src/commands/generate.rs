//! `harness generate grids`, `harness generate puzzles` and `harness generate qwh`.

use crate::cli::{GenerateArgs, GenerateCommand, GridsArgs, PuzzlesArgs, QwhArgs, ShapeArgs};
use crate::execution::sessions::Sessions;
use crate::generate::grids::{write_grids, GridFormat};
use crate::generate::pattern::{pattern_puzzle, Pattern};
use crate::generate::qwh::{generate_qwh, Holes};
use crate::generate::shaped::random_solved;
use crate::generate::write::{push_board, push_chars, shape_header, BoardFormat};
use crate::generate::{
    counting_solver, generate_puzzle, generate_rated_puzzle, puzzle, GenerateError, PuzzleOptions,
    RatingFilter, Target,
};
use crate::generate::{counting_solver_for, generate_board_puzzle_ticking, BoardPuzzleOptions};
use crate::plumbing::human::plural;
use crate::plumbing::output;
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use solvers::engine::Session;
use solvers::registry::BuiltinEngine;
use solvers::Shape;
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
/// Bad arguments (a count the method cannot reach, a clue target outside
/// [`crate::generate::clue_range`], an unknown or
/// non-counting solver), an unwritable output.
pub fn generate(args: &GenerateArgs) -> anyhow::Result<GenerateEnd> {
    match &args.what {
        GenerateCommand::Grids(a) => {
            worker_pool(a.output.threads)?.install(|| grids(a))?;
            Ok(GenerateEnd { failed: 0 })
        }
        GenerateCommand::Puzzles(a) => puzzles(a),
        GenerateCommand::Qwh(a) => {
            worker_pool(a.output.threads)?.install(|| qwh(a))?;
            Ok(GenerateEnd { failed: 0 })
        }
    }
}

/// The largest `--order` that named a box order (side n²) before `--order` became the side:
/// such a value on a Sudoku is refused with both readings spelled out.
const OLD_BOX_ORDERS: usize = 11;

/// The shape `--order`, `--box`, `--latin` and `--side` name: 9x9 when none is given.
/// `--order N` and `--side N` both give the side N (the literature's order N).
///
/// # Errors
/// A Latin square without a side, a side with no square root and no `--box`, an `--order` and a
/// `--side` that disagree, or disagree with `--box`, a side above 400 (`MAX_SIDE`); on a Sudoku, an `--order`
/// of 11 or less (the old spelling of a box order: `--order 4` meant 16x16).
pub fn shape_of(a: &ShapeArgs) -> anyhow::Result<Shape> {
    let side = match (a.order, a.side) {
        (Some(o), Some(s)) if o != s => {
            anyhow::bail!("--order {o} --side {s}: both give the side N; give one")
        }
        (o, s) => o.or(s),
    };
    if a.latin {
        let Some(side) = side else {
            anyhow::bail!("--latin needs its side: --order N (or --side N)")
        };
        return Ok(Shape::latin(side)?);
    }
    if let Some((r, c)) = a.boxes {
        let shape = Shape::sudoku(r, c)?;
        if let Some(n) = side.filter(|&n| n != shape.side()) {
            anyhow::bail!("--box {r}x{c} makes a {shape} grid, not side {n}");
        }
        return Ok(shape);
    }
    if let Some(o) = a.order.filter(|&o| o <= OLD_BOX_ORDERS && a.side.is_none()) {
        let n = o * o;
        anyhow::bail!(
            "--order {o}: --order is the side N of the grid (the order N of the literature), \
             no longer the box order; for the {n}x{n} Sudoku that --order {o} used to mean, give \
             --order {n}; for a {o}x{o} grid, --side {o}"
        );
    }
    match side {
        Some(n) => Shape::square_for_side(n).ok_or_else(|| {
            anyhow::anyhow!(
                "side {n} is not a square: give the boxes (--box RxC with R·C = {n}) or --latin"
            )
        }),
        None => Ok(Shape::CLASSIC),
    }
}

/// The seed to use: the one given, or one from the clock, announced on stderr.
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        errln!("seed {s} (pass --seed {s} to make the same file again)");
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

/// A progress bar of `len` items named `what` on stderr (drawn on a terminal only), hidden when
/// `quiet`. Its spinner and clock tick on their own, so an item that takes minutes (a 25x25
/// puzzle: one count to 2 per cell) still shows the work going on.
fn bar(len: u64, quiet: bool, what: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} {{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} ({{per_sec}}, \
             eta {{eta}})"
        ))
        .expect("template")
        .progress_chars("=> "),
    );
    pb.enable_steady_tick(std::time::Duration::from_millis(250));
    pb
}

/// The bar of `generate puzzles` at other shapes: cells tried (one count each) over all
/// `count` puzzles of `cells` cells, so it moves within a puzzle; the message says the puzzles
/// written.
fn cell_bar(count: u64, cells: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(count.saturating_mul(cells));
    pb.set_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{bar:40}] {human_pos}/{human_len} cells tried, {msg} \
             (eta {eta})",
        )
        .expect("template")
        .progress_chars("=> "),
    );
    pb.set_message(format!("0/{count} puzzles"));
    pb.enable_steady_tick(std::time::Duration::from_millis(250));
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

/// Runs `write` as [`to_file_or_stdout`] does, then clears the progress bar `pb`, whether the
/// write ended or failed.
fn write_with_bar(
    out: Option<&Path>,
    pb: &ProgressBar,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let result = to_file_or_stdout(out, write);
    pb.finish_and_clear();
    result
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

/// `harness generate grids`: solved 9x9 grids, or of another shape or form.
fn grids(args: &GridsArgs) -> anyhow::Result<()> {
    check_count(args.count, "grids")?;
    let shape = shape_of(&args.shape)?;
    let classic_form = matches!(args.format.as_deref(), None | Some("line" | "block"));
    if !shape.is_classic() || !classic_form {
        return shaped_grids(args, shape);
    }
    let seed = seed_or_clock(args.seed);
    let format = if args.format.as_deref() == Some("block") {
        GridFormat::Block
    } else {
        GridFormat::Line
    };
    let pb = bar(args.count, args.output.quiet, "grids");
    write_with_bar(args.output.out.as_deref(), &pb, |w| {
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
    })
}

/// Grids made per parallel chunk of the shaped generators, written in index order.
const SHAPED_CHUNK: u64 = 64;

/// The form of `--format` for a shape other than 9x9 (or 9x9 in `ints`/`pls`).
fn board_format(format: Option<&str>, shape: Shape) -> anyhow::Result<BoardFormat> {
    let f = match format {
        None => BoardFormat::default_for(shape),
        Some("block") => {
            anyhow::bail!("--format block is the 9x9 form; for {shape} use line, ints or pls")
        }
        Some(f) => f.parse().map_err(|e: String| anyhow::anyhow!(e))?,
    };
    f.check(shape).map_err(|e| anyhow::anyhow!(e))?;
    Ok(f)
}

/// The header a file of `shape` in `format` starts with: `# shape ...` for one character a cell
/// or integers at a shape other than 9x9; in `.pls` (a strict format, whose squares read back as
/// Latin squares) only for a shape with boxes, which it needs to read back as itself.
fn header(shape: Shape, format: BoardFormat) -> String {
    match format {
        BoardFormat::Pls => crate::input::format::ShapeLines::default()
            .before(shape, crate::input::format::Format::Pls)
            .unwrap_or_default(),
        _ if shape.is_classic() => String::new(),
        _ => shape_header(shape),
    }
}

/// Writes `count` items, made in parallel chunks by `make(index, &mut bytes)`, in index order.
fn write_chunked(
    w: &mut dyn Write,
    count: u64,
    pb: &ProgressBar,
    make: impl Fn(u64, &mut Vec<u8>) + Sync,
) -> anyhow::Result<()> {
    let mut start = 0;
    while start < count {
        let end = (start + SHAPED_CHUNK).min(count);
        let made: Vec<Vec<u8>> = (start..end)
            .into_par_iter()
            .map(|i| {
                let mut out = Vec::new();
                make(i, &mut out);
                pb.inc(1);
                out
            })
            .collect();
        for bytes in made {
            w.write_all(&bytes)?;
        }
        start = end;
    }
    Ok(())
}

/// `harness generate grids` at a shape other than 9x9, or in `ints`/`pls`.
fn shaped_grids(args: &GridsArgs, shape: Shape) -> anyhow::Result<()> {
    if args.first_digit.is_some() && !shape.is_classic() {
        anyhow::bail!("--first-digit is for 9x9 grids only");
    }
    let format = board_format(args.format.as_deref(), shape)?;
    let seed = seed_or_clock(args.seed);
    let pb = bar(args.count, args.output.quiet, "grids");
    write_with_bar(args.output.out.as_deref(), &pb, |w| {
        w.write_all(header(shape, format).as_bytes())?;
        write_chunked(w, args.count, &pb, |i, out| {
            let g = random_solved(shape, seed, 0, i);
            push_board(out, format, shape.side(), g.cells());
        })
    })
}

/// `harness generate qwh`: quasigroups with holes.
fn qwh(args: &QwhArgs) -> anyhow::Result<()> {
    check_count(args.count, "instances")?;
    let shape = Shape::latin(args.order)?;
    let format = match args.format.as_deref() {
        None if args.order > crate::generate::write::MAX_CHAR_SIDE => BoardFormat::Pls,
        f => board_format(f, shape)?,
    };
    let holes = if args.balanced {
        Holes::Balanced
    } else {
        Holes::Random
    };
    let seed = seed_or_clock(args.seed);
    let pb = bar(args.count, args.output.quiet, "instances");
    write_with_bar(args.output.out.as_deref(), &pb, |w| {
        w.write_all(header(shape, format).as_bytes())?;
        write_chunked(w, args.count, &pb, |i, out| {
            let q = generate_qwh(args.order, args.holes, holes, seed, i);
            push_board(out, format, args.order, &q.puzzle);
        })
    })?;
    let k = crate::generate::qwh::hole_count(args.order, args.holes, holes);
    errln!(
        "{} with holes of order {} written, {} each ({:.1}%{})",
        plural(args.count, "quasigroup"),
        args.order,
        plural(k, "hole"),
        100.0 * k as f64 / (args.order * args.order) as f64,
        if args.balanced {
            ", the same number in every row and column"
        } else {
            ""
        }
    );
    Ok(())
}

/// `harness generate puzzles` at a shape other than 9x9.
fn shaped_puzzles(args: &PuzzlesArgs, shape: Shape) -> anyhow::Result<GenerateEnd> {
    let options = board_options(args, shape)?;
    let solver = options.solver;
    let (csv, format) = match args.format.as_str() {
        "csv" => (true, board_format(Some("line"), shape)?),
        f => (false, board_format(Some(f), shape)?),
    };
    let seed = seed_or_clock(args.seed);
    let pool = worker_pool(args.output.threads)?;
    let counter = BuiltinEngine::new(solver);
    let cells = shape.cells() as u64;
    let nodes = options.count_nodes.unwrap_or(0);
    if !args.output.quiet && shape.side() > 16 {
        let budget = match options.count_nodes {
            Some(n) if args.count_nodes.is_none() => format!(
                "each cut at {} nodes (the default at this side; --count-nodes N changes it, 0 \
                 for none: slower, and the puzzles proven minimal)",
                crate::plumbing::human::count(n as usize)
            ),
            Some(n) => format!(
                "each cut at {} nodes",
                crate::plumbing::human::count(n as usize)
            ),
            None => "with no node budget (--count-nodes 0): minutes to hours a puzzle at \
                     this side"
                .to_string(),
        };
        errln!(
            "{}",
            crate::plumbing::human::wrap(&format!(
                "{}: one count to 2 by {solver} per cell tried, {} a puzzle, {budget}; \
                 --clues K stops sooner",
                plural(args.count, &format!("{shape} puzzle")),
                crate::plumbing::human::count(cells as usize)
            ))
        );
    }
    let pb = cell_bar(args.count, cells, args.output.quiet);
    let (mut failed, mut written, mut givens_total, mut unproven) = (0u64, 0u64, 0u64, 0u64);
    write_with_bar(args.output.out.as_deref(), &pb, |w| {
        w.write_all(header(shape, format).as_bytes())?;
        if csv {
            writeln!(w, "name,puzzle,solution")?;
        }
        let chunks = (args.count, SHAPED_CHUNK);
        let make = |session: &mut dyn Session, i| {
            // The bar counts cells tried, at most N² a puzzle, topped up to N² when it ends.
            let mut ticked = 0;
            let made = generate_board_puzzle_ticking(&options, session, seed, i, &mut || {
                if ticked < cells {
                    ticked += 1;
                    pb.inc(1);
                }
            });
            pb.inc(cells - ticked);
            made
        };
        let mut done = 0;
        failed = make_in_order(&pool, &counter, chunks, (&pb, 0), make, |i, p| {
            done += 1;
            pb.set_message(format!("{done}/{} puzzles", args.count));
            written += 1;
            givens_total += p.puzzle.givens() as u64;
            unproven += u64::from(p.undecided > 0);
            let mut out = Vec::new();
            if csv {
                out.extend_from_slice(format!("{},", i + 1).as_bytes());
                push_chars(&mut out, p.puzzle.cells());
                out.push(b',');
                push_chars(&mut out, p.solution.cells());
                out.push(b'\n');
            } else if format == BoardFormat::Chars {
                push_chars(&mut out, p.puzzle.cells());
                out.push(b' ');
                push_chars(&mut out, p.solution.cells());
                out.push(b'\n');
            } else {
                push_board(&mut out, format, shape.side(), p.puzzle.cells());
            }
            w.write_all(&out)?;
            Ok(())
        })?;
        Ok(())
    })?;
    let mean = mean_givens(givens_total, written);
    let what = match options.target {
        Target::Clues(k) => format!("{} each", plural(k, "given")),
        Target::Minimal if unproven == 0 => "all minimal".to_string(),
        Target::Minimal => format!(
            "{} minimal, {unproven} unique but not proven minimal: a count ran past \
             --count-nodes {nodes}, its given was kept",
            written - unproven,
        ),
    };
    errln!(
        "{} written (mean {mean:.1} givens, {what}; counted by {solver}), {failed} could not be \
         made",
        plural(written, &format!("{shape} puzzle"))
    );
    Ok(GenerateEnd { failed })
}

/// The node budget of each count when `--count-nodes` is not given: 1,000,000 up to 16x16
/// (where it proves most puzzles minimal), then less, as a node costs more and a puzzle needs
/// N² counts: 10,000 up to 25x25, 1,000 beyond. With these, `dlx` makes a puzzle in about 2 s
/// at 25x25, 1.4 s at 36x36 and 15 s at 64x64 (release build, one thread of a loaded 2-core
/// machine), against minutes with 1,000,000 at 25x25.
pub fn default_count_nodes(shape: Shape) -> u64 {
    match shape.side() {
        0..=16 => 1_000_000,
        17..=25 => 10_000,
        _ => 1_000,
    }
}

/// The options of `generate puzzles` at a shape other than 9x9, checked.
///
/// # Errors
/// A 9x9-only flag (`--symmetry`, `--level`, `--score`), an unknown solver, no counting solver
/// for the shape, options the generator refuses.
fn board_options(args: &PuzzlesArgs, shape: Shape) -> anyhow::Result<BoardPuzzleOptions> {
    if args.symmetry != crate::generate::Symmetry::None {
        anyhow::bail!("--symmetry is for 9x9 puzzles only");
    }
    if args.level.is_some() || args.score.is_some() {
        anyhow::bail!("--level and --score rate 9x9 puzzles only");
    }
    let solver = match args.solver.as_deref() {
        Some(n) => n.parse()?,
        None => counting_solver_for(shape)
            .ok_or_else(|| GenerateError::NoCounterForShape(shape.to_string()))?,
    };
    let options = BoardPuzzleOptions {
        shape,
        target: target(args.clues),
        solver,
        count_nodes: Some(
            args.count_nodes
                .unwrap_or_else(|| default_count_nodes(shape)),
        )
        .filter(|&n| n > 0),
        attempts: args.attempts.max(1),
    };
    crate::generate::board_puzzle::check_board_options(&options)?;
    Ok(options)
}

/// The target `--clues K` names: K givens, or minimal puzzles without it.
fn target(clues: Option<usize>) -> Target {
    match clues {
        Some(k) => Target::Clues(k),
        None => Target::Minimal,
    }
}

/// The pool of worker threads `--threads` asks for (0 or none: one per core).
///
/// # Errors
/// When the threads cannot be started.
pub fn worker_pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .context("starting worker threads")
}

/// Makes puzzles `0..count` in parallel chunks of `chunk` on `pool`, `make` using this worker
/// thread's session of `counter` (one per thread, reused for every puzzle); hands each puzzle
/// made to `emit` in index order and reports each one that could not be made, returning how
/// many could not.
///
/// # Errors
/// The first error of `emit`.
fn make_in_order<T: Send>(
    pool: &rayon::ThreadPool,
    counter: &BuiltinEngine,
    (count, chunk): (u64, u64),
    (pb, per_item): (&ProgressBar, u64),
    make: impl Fn(&mut dyn Session, u64) -> Result<T, GenerateError> + Sync,
    mut emit: impl FnMut(u64, T) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    let sessions = Sessions::new(pool.current_num_threads(), 1);
    let mut failed = 0;
    let mut start = 0;
    while start < count {
        let end = (start + chunk).min(count);
        let made: Vec<_> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|i| {
                    let r = sessions.with(0, counter, |session| {
                        make(session.map_err(GenerateError::Session)?, i)
                    });
                    pb.inc(per_item);
                    r
                })
                .collect()
        });
        for (i, r) in (start..).zip(made) {
            match r {
                Ok(p) => emit(i, p)?,
                Err(e) => {
                    failed += 1;
                    pb.suspend(|| errln!("puzzle {}: {e}", i + 1));
                }
            }
        }
        start = end;
    }
    Ok(failed)
}

/// The rating `--level` and `--score` ask for, if either is given.
fn rating_filter(args: &PuzzlesArgs) -> Option<RatingFilter> {
    (args.level.is_some() || args.score.is_some()).then(|| {
        let (min_score, max_score) = args.score.unwrap_or((0, u32::MAX));
        RatingFilter {
            level: args.level,
            min_score,
            max_score,
        }
    })
}

/// The mean givens of `written` puzzles holding `givens` in all (0 for none).
fn mean_givens(givens: u64, written: u64) -> f64 {
    if written > 0 {
        givens as f64 / written as f64
    } else {
        0.0
    }
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

/// `harness generate puzzles`: 9x9 puzzles, rated ones with `--level` or `--score`.
fn puzzles(args: &PuzzlesArgs) -> anyhow::Result<GenerateEnd> {
    check_count(args.count, "puzzles")?;
    let shape = shape_of(&args.shape)?;
    if let Some(pattern) = &args.pattern {
        if !shape.is_classic() {
            anyhow::bail!("--pattern is for 9x9 puzzles only");
        }
        return pattern_puzzles(args, pattern);
    }
    if !shape.is_classic() {
        return shaped_puzzles(args, shape);
    }
    if matches!(args.format.as_str(), "ints" | "pls") {
        anyhow::bail!(
            "--format {}: 9x9 puzzles are written as csv or line",
            args.format
        );
    }
    let options = PuzzleOptions {
        target: target(args.clues),
        symmetry: args.symmetry,
        solver: solver_or_default(args.solver.as_deref())?,
        attempts: args.attempts.max(1),
    };
    puzzle::check_options(&options)?;
    let seed = seed_or_clock(args.seed);
    let csv = args.format == "csv";
    let pool = worker_pool(args.output.threads)?;
    let filter = rating_filter(args);
    let counter = BuiltinEngine::new(options.solver);
    let pb = bar(args.count, args.output.quiet, "puzzles");
    let (mut failed, mut written, mut givens_total) = (0u64, 0u64, 0u64);
    write_with_bar(args.output.out.as_deref(), &pb, |w| {
        if csv {
            if filter.is_some() {
                writeln!(w, "name,puzzle,solution,score,level")?;
            } else {
                writeln!(w, "name,puzzle,solution")?;
            }
        }
        let make = |session: &mut dyn Session, i| match &filter {
            None => generate_puzzle(&options, session, seed, i).map(|p| (p, None)),
            Some(f) => generate_rated_puzzle(&options, session, f, args.level_attempts, seed, i)
                .map(|(p, r)| (p, Some(r))),
        };
        let chunks = (args.count, PUZZLE_CHUNK);
        failed = make_in_order(&pool, &counter, chunks, (&pb, 1), make, |i, (p, rating)| {
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
            Ok(())
        })?;
        Ok(())
    })?;
    let mean = mean_givens(givens_total, written);
    errln!(
        "{} written (mean {mean:.1} givens, counted by {}), {failed} could not be made",
        plural(written, "puzzle"),
        options.solver
    );
    Ok(GenerateEnd { failed })
}

/// `harness generate puzzles --pattern`: a random grid a puzzle, the pattern's cells kept.
fn pattern_puzzles(args: &PuzzlesArgs, pattern: &Pattern) -> anyhow::Result<GenerateEnd> {
    if args.symmetry != crate::generate::Symmetry::None || args.solver.is_some() {
        anyhow::bail!("--pattern keeps the pattern's cells: --symmetry and --solver do not apply");
    }
    if matches!(args.format.as_str(), "ints" | "pls") {
        anyhow::bail!(
            "--format {}: 9x9 puzzles are written as csv or line",
            args.format
        );
    }
    let seed = seed_or_clock(args.seed);
    let csv = args.format == "csv";
    let pool = worker_pool(args.output.threads)?;
    let pb = bar(args.count, args.output.quiet, "puzzles");
    let mut givens_total = 0u64;
    write_with_bar(args.output.out.as_deref(), &pb, |w| {
        if csv {
            writeln!(w, "name,puzzle")?;
        }
        let mut start = 0;
        while start < args.count {
            let end = (start + PUZZLE_CHUNK).min(args.count);
            let made: Vec<[u8; 81]> = pool.install(|| {
                (start..end)
                    .into_par_iter()
                    .map(|i| {
                        pb.inc(1);
                        pattern_puzzle(pattern, seed, i).0
                    })
                    .collect()
            });
            for (i, p) in (start..).zip(made) {
                givens_total += p.iter().filter(|&&v| v != 0).count() as u64;
                let mut line = Vec::with_capacity(100);
                if csv {
                    line.extend_from_slice(format!("{},", i + 1).as_bytes());
                }
                push_chars(&mut line, &p);
                line.push(b'\n');
                w.write_all(&line)?;
            }
            start = end;
        }
        Ok(())
    })?;
    errln!(
        "{} written (mean {:.1} givens, the pattern's cells of a random grid; not checked for \
         uniqueness)",
        plural(args.count, "puzzle"),
        mean_givens(givens_total, args.count)
    );
    Ok(GenerateEnd { failed: 0 })
}
