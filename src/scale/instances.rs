//! The instance files of a study, one dataset file per point, reproducible per seed.
//!
//! Instance `i` of a point is drawn from stream `i` of the point's seed
//! ([`super::Plan::point_seed`]), so a file depends on the seed and the point alone, not on
//! threads or on the other points:
//!
//! - **Sudoku**: [`crate::generate::generate_board_puzzle`] (the generator of `harness generate
//!   puzzles`): a random solved grid, then givens removed in a random order while a count to 2
//!   says the solution stays unique, down to `round((1 - f)·N²)` givens (or until none can go,
//!   for `minimal`). Each count runs under the plan's node budget; a count cut short keeps its
//!   given. Puzzles and their solutions are written one a line (`puzzle solution`, after a
//!   `# shape` line) up to side 35, as N rows of integers above.
//! - **Sudoku with punched holes** (`--punched`): grid `i` of `harness generate grids` for the
//!   shape, with `round(f·N²)` random cells emptied (or balanced holes) by the quasigroups' own
//!   [`crate::generate::qwh::punch_holes`]; no count, so any number of solutions; no solution
//!   stated (any right completion is a right answer), written as the quasigroups are.
//! - **Quasigroups with holes**: [`crate::generate::qwh::generate_qwh`] (the generator of
//!   `harness generate qwh`), random or balanced holes; written one a line up to order 35, as
//!   `.pls` squares above. The square it came from is not stated: an instance with many holes
//!   has other completions, and any of them is a right answer (the checker checks the rows and
//!   columns; a `no_solution` is wrong, as every instance completes).

use super::backbone::{self, BackboneRow, Fixed};
use super::{Amount, Family, Holes, Plan, Point};
use crate::execution::sessions::Sessions;
use crate::generate::qwh::{self, generate_qwh, generate_qwh_count};
use crate::generate::rng::{Purpose, Rng};
use crate::generate::shaped::random_solved;
use crate::generate::write::{push_board, push_chars, shape_header, BoardFormat, MAX_CHAR_SIDE};
use crate::generate::{counting_solver_for, generate_board_puzzle, BoardPuzzleOptions, Target};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use solvers::registry::BuiltinEngine;
use std::path::{Path, PathBuf};

/// The folder of the instance files inside a study's run folder.
pub const FOLDER: &str = "instances";

/// What making the instances did.
#[derive(Debug, Clone, Default)]
pub struct Made {
    /// The instance files, in plan order.
    pub files: Vec<PathBuf>,
    /// Sudoku puzzles whose minimality (or clue target) was not proven: a count ran out of its
    /// node budget, so a given was kept.
    pub unproven: u64,
    /// Files kept as they were (a resumed study).
    pub kept: usize,
}

/// What one point's file holds: its bytes, how many of its Sudoku puzzles were not proven
/// minimal, and what forward checking fixes in each instance ([`super::backbone`]).
pub struct PointFile {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Sudoku puzzles not proven minimal.
    pub unproven: u64,
    /// Per instance, in index order.
    pub fixed: Vec<Fixed>,
}

/// The bytes of `point`'s file: every instance, in index order, made in parallel on the
/// current rayon pool.
///
/// # Errors
/// When no built-in solver counts the shape, or the generator fails (a counting session that
/// cannot start, a clue target no grid reached).
pub fn point_bytes(plan: &Plan, point: &Point, pb: &ProgressBar) -> anyhow::Result<PointFile> {
    match (point.family, point.holes) {
        (Family::Qwh, _) => Ok(qwh_bytes(plan, point, pb)),
        (Family::Sudoku, Holes::Punched(_)) => Ok(punched_bytes(plan, point, pb)),
        (Family::Sudoku, _) => sudoku_bytes(plan, point, pb),
    }
}

/// The seed a point's instances are drawn from: its own, or for the isomorphs of one instance,
/// the seed of the same point without them (so their instance is that point's first).
fn base_seed(plan: &Plan, point: &Point) -> u64 {
    plan.point_seed(&Point {
        isomorphs: false,
        ..*point
    })
}

/// The bytes of a quasigroup point's file: one instance a line after the `# shape` line up to
/// order 35, `.pls` squares above.
fn qwh_bytes(plan: &Plan, point: &Point, pb: &ProgressBar) -> PointFile {
    let seed = base_seed(plan, point);
    let side = point.shape.side();
    let holes = hole_kind(point);
    let header = side <= MAX_CHAR_SIDE;
    let make = |i: u64| match point.holes.amount() {
        Some(Amount::Fraction(f)) => generate_qwh(side, f, holes, seed, i).puzzle,
        _ => generate_qwh_count(side, point.hole_count().unwrap_or(0), holes, seed, i).puzzle,
    };
    puzzles_only(plan, point, header, BoardFormat::Pls, pb, make)
}

/// A point's file of puzzles without solutions, made by `make(i)` for every instance `i` in
/// parallel (for the isomorphs of one instance, isomorph `i` of `make(0)`): the `# shape` line
/// when `header`, then one puzzle a line up to side 35, as `wide` boards above.
fn puzzles_only(
    plan: &Plan,
    point: &Point,
    header: bool,
    wide: BoardFormat,
    pb: &ProgressBar,
    make: impl Fn(u64) -> Vec<solvers::Symbol> + Sync,
) -> PointFile {
    let shape = point.shape;
    let chars = shape.side() <= MAX_CHAR_SIDE;
    let mut out = Vec::new();
    if header {
        out.extend_from_slice(shape_header(shape).as_bytes());
    }
    let first = point.isomorphs.then(|| make(0));
    let iso_seed = plan.point_seed(point);
    let made: Vec<(Vec<u8>, Fixed)> = (0..plan.instances)
        .into_par_iter()
        .map(|i| {
            let puzzle = match &first {
                Some(p) => backbone::isomorph(shape, p, iso_seed, i),
                None => make(i),
            };
            let mut b = Vec::new();
            if chars {
                push_chars(&mut b, &puzzle);
                b.push(b'\n');
            } else {
                push_board(&mut b, wide, shape.side(), &puzzle);
            }
            pb.inc(1);
            (b, backbone::forward_checking(shape, &puzzle))
        })
        .collect();
    made.iter().for_each(|(b, _)| out.extend_from_slice(b));
    PointFile {
        bytes: out,
        unproven: 0,
        fixed: made.iter().map(|m| m.1).collect(),
    }
}

/// The holes of `point` (random or balanced).
fn hole_kind(point: &Point) -> qwh::Holes {
    if point.balanced {
        qwh::Holes::Balanced
    } else {
        qwh::Holes::Random
    }
}

/// The bytes of a punched Sudoku point's file: puzzles only, one a line after the `# shape`
/// line up to side 35, as N rows of integers above.
fn punched_bytes(plan: &Plan, point: &Point, pb: &ProgressBar) -> PointFile {
    let seed = base_seed(plan, point);
    let shape = point.shape;
    let holes = hole_kind(point);
    let count = match point.holes.amount() {
        Some(Amount::Fraction(f)) => qwh::hole_count(shape.side(), f, holes),
        _ => point.hole_count().unwrap_or(0),
    };
    puzzles_only(
        plan,
        point,
        !shape.is_classic(),
        BoardFormat::Ints,
        pb,
        |i| {
            let grid = random_solved(shape, seed, 0, i);
            let mut rng = Rng::new(seed, Purpose::ShapedPuzzle, 0, i);
            qwh::punch_holes(&mut rng, grid.cells(), shape.side(), count, holes)
        },
    )
}

/// The bytes of a Sudoku point's file (`puzzle solution` lines up to side 35, rows of integers
/// above) and how many of its puzzles were not proven minimal.
///
/// # Errors
/// As [`point_bytes`].
fn sudoku_bytes(plan: &Plan, point: &Point, pb: &ProgressBar) -> anyhow::Result<PointFile> {
    let seed = plan.point_seed(point);
    let shape = point.shape;
    let chars = shape.side() <= MAX_CHAR_SIDE;
    let mut out = Vec::new();
    let mut unproven = 0;
    let solver = counting_solver_for(shape)
        .ok_or_else(|| anyhow::anyhow!("no built-in solver counts solutions of {shape} grids"))?;
    let target = match point.holes {
        Holes::Minimal => Target::Minimal,
        Holes::Amount(a) | Holes::Punched(a) => {
            Target::Clues(shape.cells() - a.count(shape.side()))
        }
    };
    let options = BoardPuzzleOptions {
        shape,
        target,
        solver,
        count_nodes: plan.count_nodes,
        attempts: 20,
    };
    let counter = BuiltinEngine::new(solver);
    let sessions = Sessions::new(rayon::current_num_threads(), 1);
    if !shape.is_classic() {
        out.extend_from_slice(shape_header(shape).as_bytes());
    }
    let made: Vec<anyhow::Result<(Vec<u8>, bool, Fixed)>> = (0..plan.instances)
        .into_par_iter()
        .map(|i| {
            let p = sessions.with(0, &counter, |session| {
                let session = session.map_err(crate::generate::GenerateError::Session)?;
                generate_board_puzzle(&options, session, seed, i)
            });
            pb.inc(1);
            let p = p.with_context(|| {
                format!("{}: instance {} could not be made", point.name(), i + 1)
            })?;
            let mut b = Vec::new();
            if chars {
                push_chars(&mut b, p.puzzle.cells());
                b.push(b' ');
                push_chars(&mut b, p.solution.cells());
                b.push(b'\n');
            } else {
                push_board(&mut b, BoardFormat::Ints, shape.side(), p.puzzle.cells());
            }
            let fixed = backbone::forward_checking(shape, p.puzzle.cells());
            Ok((b, p.undecided > 0 && target == Target::Minimal, fixed))
        })
        .collect();
    let mut all = Vec::new();
    for m in made {
        let (b, u, f) = m?;
        unproven += u64::from(u);
        out.extend_from_slice(&b);
        all.push(f);
    }
    Ok(PointFile {
        bytes: out,
        unproven,
        fixed: all,
    })
}

/// What a folder of instances records of the plan that made them (its `plan.json`, written
/// after the last file), and what a study's scale.json holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanRecord {
    /// The seed of the instances.
    pub seed: u64,
    /// Instances per point.
    pub instances: u64,
    /// Balanced holes for the quasigroups.
    pub balanced: bool,
    /// Node budget of the Sudoku generator's uniqueness counts.
    pub count_nodes: Option<u64>,
    /// The instance files, one per point, in plan order.
    pub datasets: Vec<String>,
}

impl PlanRecord {
    /// The record of `plan`.
    pub fn of(plan: &Plan) -> PlanRecord {
        PlanRecord {
            seed: plan.seed,
            instances: plan.instances,
            balanced: plan.balanced,
            count_nodes: plan.count_nodes,
            datasets: plan.points.iter().map(|p| p.name()).collect(),
        }
    }

    /// The record in `path`, if it is one.
    pub fn read(path: &Path) -> Option<PlanRecord> {
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
    }

    /// Writes it to `path`, atomically.
    ///
    /// # Errors
    /// A failed write.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        crate::plumbing::output::write_atomic(path, |w| {
            w.write_all(text.as_bytes())?;
            w.write_all(b"\n")?;
            Ok(())
        })
    }
}

/// Writes every point's file into `folder` (each atomically), then its plan.json. A file
/// already there is kept when the folder's plan.json is this plan's (a resumed study, another
/// shard); the run checks each file's sha256 against its run.json on a resume.
///
/// # Errors
/// As [`point_bytes`], or a failed write.
pub fn make(plan: &Plan, folder: &Path, quiet: bool) -> anyhow::Result<Made> {
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let record = PlanRecord::of(plan);
    let keep = PlanRecord::read(&folder.join("plan.json")).as_ref() == Some(&record)
        && folder.join(backbone::FILE).is_file();
    let total = plan.instances * plan.points.len() as u64;
    let pb = if quiet {
        ProgressBar::hidden()
    } else {
        let pb = ProgressBar::new(total);
        pb.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} instances ({msg}, eta {eta})",
            )
            .expect("template")
            .progress_chars("=> "),
        );
        pb
    };
    let mut made = Made::default();
    let mut rows: Vec<BackboneRow> = Vec::new();
    for point in &plan.points {
        let path = folder.join(point.name());
        made.files.push(path.clone());
        if keep && path.is_file() {
            made.kept += 1;
            pb.inc(plan.instances);
            continue;
        }
        pb.set_message(point.name());
        let file = point_bytes(plan, point, &pb)?;
        made.unproven += file.unproven;
        rows.extend(file.fixed.iter().enumerate().map(|(i, f)| BackboneRow {
            dataset: point.name(),
            instance: i as u64 + 1,
            holes: f.holes,
            fixed: f.fixed,
        }));
        crate::plumbing::output::write_atomic(&path, |w| {
            w.write_all(&file.bytes)?;
            Ok(())
        })?;
    }
    pb.finish_and_clear();
    if !keep {
        crate::plumbing::output::write_csv(&folder.join(backbone::FILE), &rows)?;
    }
    record.write(&folder.join("plan.json"))?;
    Ok(made)
}
