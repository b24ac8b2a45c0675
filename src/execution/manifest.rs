//! A dataset's manifest: what a file holds, so two runs can be known to be on the same puzzles.
//! Shown by `harness inspect FILE` and written into run.json (`manifests`).
//!
//! Puzzles, sha256, clue histogram, classes (how many puzzles have no solution, one, several),
//! duplicate puzzles, and duplicates up to isomorphism: two puzzles are isomorphic when one is the
//! other relabelled, permuted (rows within bands, bands, columns within stacks, stacks) or
//! transposed, which the minlex canonical form ([`crate::input::isomorph::minlex`]) decides exactly.
//!
//! A dataset may hold several shapes: the manifest counts puzzles and givens per shape too, and
//! the classes of other shapes than 9x9 are counted with the built-in solver that counts and
//! takes the shape ([`solvers::SolverKind::counter_for`]; unknown when none does). The
//! isomorphs are 9x9 ones: other shapes are not looked at for them.

use crate::input::dataset::Source;
use crate::input::isomorph::minlex;
use crate::record::manifest::{Classes, Manifest, ShapeCount};
use crate::record::SolutionClass;
use anyhow::Context;
use rayon::prelude::*;
use solvers::registry::BuiltinEngine;
use solvers::Budget;
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// How many duplicate pairs a manifest names (the rest are counted).
pub const NAMED_PAIRS: usize = 10;

/// What to compute beyond the counts and the sha256.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Count every puzzle's solutions (up to 2) under this budget per puzzle.
    pub classes: Option<Duration>,
    /// Look for isomorphic duplicates when the dataset has at most this many readable puzzles
    /// (the minlex form costs milliseconds a puzzle: `inspect` looks, `run` does not).
    pub isomorph_limit: usize,
    /// Look for exact duplicates among the first this many readable puzzles only (a 64-bit hash
    /// each, about 24 bytes a puzzle while the manifest is built): `run` bounds it so that its
    /// memory stays flat however long the dataset, `inspect` looks at every puzzle.
    pub exact_limit: usize,
}

/// The manifest of `src` (reads it twice: once for the sha256, once for the puzzles).
///
/// # Errors
/// When the file cannot be read.
pub fn manifest(src: &Source, opts: Options) -> anyhow::Result<Manifest> {
    let sha256 = src.sha256()?;
    let mut entries = src.entries()?;
    let mut scan = Scan::new(opts);
    for e in entries.by_ref() {
        scan.add(e);
    }
    if let Some(e) = entries.io_error() {
        return Err(e).with_context(|| format!("reading {}", src.source));
    }
    let Scan {
        grids,
        boards,
        shapes,
        exact,
        puzzles,
        invalid,
        readable,
        clues,
        seen,
        duplicates,
        duplicate_lines,
        ..
    } = scan;
    drop(seen);
    let (mut isomorphic_duplicates, mut isomorphic_lines) = (None, Vec::new());
    if !grids.is_empty() && readable <= opts.isomorph_limit {
        let (n, lines) = isomorphs(&grids, &exact);
        isomorphic_duplicates = Some(n);
        isomorphic_lines = lines;
    }
    let classes = opts
        .classes
        .map(|timeout| classes(&grids, &boards, timeout));
    let shapes = shapes
        .into_iter()
        .map(|(shape, (puzzles, clues))| ShapeCount {
            shape: shape.to_string(),
            puzzles,
            clues,
        })
        .collect();
    Ok(Manifest {
        name: src.name.clone(),
        source: src.source.clone(),
        sha256,
        puzzles,
        invalid,
        clues,
        classes,
        duplicates,
        isomorphic_duplicates,
        duplicate_lines,
        isomorphic_lines,
        shapes,
    })
}

/// What one pass over a dataset's entries gathers: counts, exact duplicates, and the puzzles
/// held for what needs them all (isomorphs, classes).
struct Scan {
    /// What to compute.
    opts: Options,
    /// Whether grids are held (for the isomorphs or the classes).
    hold: bool,
    /// The 9x9 puzzles held, with their lines.
    grids: Vec<(usize, solvers::Grid)>,
    /// Puzzles of other shapes, held for the classes only.
    boards: Vec<solvers::Board>,
    /// Puzzles and their clue histogram per shape.
    shapes: BTreeMap<solvers::Shape, (usize, BTreeMap<usize, usize>)>,
    /// For each grid held: whether it is an exact duplicate of an earlier puzzle.
    exact: Vec<bool>,
    /// Puzzles read, readable or not.
    puzzles: usize,
    /// Puzzles that could not be read.
    invalid: usize,
    /// Puzzles read well.
    readable: usize,
    /// The clue histogram.
    clues: BTreeMap<usize, usize>,
    /// The line of the first puzzle of each hash (within `exact_limit`).
    seen: HashMap<u64, usize>,
    /// Exact duplicates found.
    duplicates: usize,
    /// The first duplicate pairs: (line, line of the first copy).
    duplicate_lines: Vec<(usize, usize)>,
}

impl Scan {
    /// An empty scan under `opts`.
    fn new(opts: Options) -> Self {
        Scan {
            opts,
            hold: opts.isomorph_limit > 0 || opts.classes.is_some(),
            grids: Vec::new(),
            boards: Vec::new(),
            shapes: BTreeMap::new(),
            exact: Vec::new(),
            puzzles: 0,
            invalid: 0,
            readable: 0,
            clues: BTreeMap::new(),
            seen: HashMap::new(),
            duplicates: 0,
            duplicate_lines: Vec::new(),
        }
    }

    /// Counts one entry, and holds its puzzle when the isomorphs or classes need it.
    fn add(&mut self, e: crate::input::format::Entry) {
        self.puzzles += 1;
        let p = match e.puzzle {
            Ok(p) => p,
            Err(_) => {
                self.invalid += 1;
                return;
            }
        };
        self.readable += 1;
        let givens = p.board.givens();
        *self.clues.entry(givens).or_insert(0) += 1;
        let per_shape = self.shapes.entry(p.shape()).or_default();
        per_shape.0 += 1;
        *per_shape.1.entry(givens).or_insert(0) += 1;
        let dup = self.exact_duplicate(e.line, board_hash(&p));
        match (self.hold, p.grid()) {
            (true, Some(g)) => {
                self.grids.push((e.line, g));
                self.exact.push(dup);
            }
            (true, None) if self.opts.classes.is_some() => self.boards.push(p.board),
            _ => {}
        }
    }

    /// Whether the puzzle at `line` with hash `h` repeats an earlier one (looked for among the
    /// first `exact_limit` readable puzzles only); counts and names the duplicate.
    fn exact_duplicate(&mut self, line: usize, h: u64) -> bool {
        let within = self.readable <= self.opts.exact_limit;
        match self.seen.get(&h).filter(|_| within) {
            Some(&first) => {
                self.duplicates += 1;
                if self.duplicate_lines.len() < NAMED_PAIRS {
                    self.duplicate_lines.push((line, first));
                }
                true
            }
            None => {
                if within {
                    self.seen.insert(h, line);
                }
                false
            }
        }
    }
}

/// A 64-bit hash of a puzzle's cells (and of its shape, when not 9x9): std's SipHash with
/// fixed keys, 24 bytes a puzzle where exact duplicates are looked for.
fn board_hash(p: &crate::input::format::Puzzle) -> u64 {
    use std::hash::{Hash, Hasher};
    // `DefaultHasher::new()` has fixed keys: the same hash on every run.
    let mut s = std::collections::hash_map::DefaultHasher::new();
    p.board.cells().hash(&mut s);
    if !p.shape().is_classic() {
        p.shape().hash(&mut s);
    }
    s.finish()
}

/// The isomorphic duplicates among `grids` (by minlex form) and the first pairs of them that
/// are not exact duplicates (`exact[k]` says grid `k` is one).
fn isomorphs(grids: &[(usize, solvers::Grid)], exact: &[bool]) -> (usize, Vec<(usize, usize)>) {
    let forms: Vec<[u8; 81]> = grids.par_iter().map(|(_, g)| minlex(g.cells())).collect();
    let mut seen: HashMap<[u8; 81], usize> = HashMap::new();
    let mut lines = Vec::new();
    let mut n = 0;
    for (k, form) in forms.iter().enumerate() {
        let line = grids[k].0;
        if let Some(&first) = seen.get(form) {
            n += 1;
            if !exact[k] && lines.len() < NAMED_PAIRS {
                lines.push((line, first));
            }
        } else {
            seen.insert(*form, line);
        }
    }
    (n, lines)
}

/// The classes of the 9x9 `grids` (counted by the default counting solver) and of the `boards`
/// of other shapes, each counted to 2 under `timeout`.
fn classes(
    grids: &[(usize, solvers::Grid)],
    boards: &[solvers::Board],
    timeout: Duration,
) -> Classes {
    let counter = BuiltinEngine::new(crate::generate::counting_solver());
    let sessions = crate::execution::sessions::Sessions::new(rayon::current_num_threads(), 1);
    let names: Vec<Option<SolutionClass>> = grids
        .par_iter()
        .map(|(_, g)| {
            let budget = Budget::unlimited().timeout(Some(timeout));
            sessions.with(0, &counter, |session| match session {
                Ok(session) => match session.count(&g.into(), 2, &budget) {
                    Ok(c) if c.complete => Some(SolutionClass::of(c.solutions)),
                    _ => None,
                },
                Err(_) => None,
            })
        })
        .collect();
    let mut c = Classes::default();
    for n in names {
        c.add(n);
    }
    for n in shaped_classes(boards, timeout) {
        c.add(n);
    }
    c
}

/// The classes of puzzles of other shapes than 9x9, each counted (to 2, under `timeout`) by the
/// built-in solver that counts and takes its shape; `None` (unknown) when none does.
fn shaped_classes(boards: &[solvers::Board], timeout: Duration) -> Vec<Option<SolutionClass>> {
    let engines: Vec<BuiltinEngine> = solvers::SolverKind::ALL
        .iter()
        .map(|&k| BuiltinEngine::new(k))
        .collect();
    let sessions =
        crate::execution::sessions::Sessions::new(rayon::current_num_threads(), engines.len());
    boards
        .par_iter()
        .map(|b| {
            let kind = crate::generate::counting_solver_for(b.shape())?;
            let slot = solvers::SolverKind::ALL.iter().position(|&k| k == kind)?;
            let budget = Budget::unlimited().timeout(Some(timeout));
            sessions.with(slot, &engines[slot], |session| match session {
                Ok(session) => match session.count(b, 2, &budget) {
                    Ok(c) if c.complete => Some(SolutionClass::of(c.solutions)),
                    _ => None,
                },
                Err(_) => None,
            })
        })
        .collect()
}

/// The manifest as text for the terminal.
pub fn text(m: &Manifest) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "dataset  {} ({})", m.name, m.source);
    let _ = writeln!(s, "sha256   {}", m.sha256);
    let _ = writeln!(
        s,
        "puzzles  {} ({} readable, {} invalid)",
        m.puzzles,
        m.puzzles - m.invalid,
        m.invalid
    );
    if let Some(c) = m.classes {
        let _ = write!(
            s,
            "classes  {} with no solution, {} with one, {} with several",
            c.none, c.one, c.several
        );
        if c.unknown > 0 {
            let why = match m.classic_only() {
                true => "budget ran out",
                false => "budget ran out, or no built-in solver counts their shape",
            };
            let _ = write!(s, ", {} not counted ({why})", c.unknown);
        }
        let _ = writeln!(s);
    }
    if !m.classic_only() {
        let list: Vec<String> = m
            .shapes
            .iter()
            .map(|c| format!("{} {}", c.puzzles, c.shape))
            .collect();
        let _ = writeln!(s, "shapes   {}", list.join(", "));
    }
    let _ = write!(s, "duplicates {} exact", m.duplicates);
    let nine_only = if m.classic_only() { "" } else { "; 9x9 only" };
    match m.isomorphic_duplicates {
        Some(n) => {
            let _ = writeln!(
                s,
                ", {n} up to isomorphism (minlex form; exact ones included{nine_only})"
            );
        }
        None if m.classic_only() => {
            let _ = writeln!(s, ", up to isomorphism not looked for");
        }
        None => {
            let _ = writeln!(s, ", up to isomorphism 9x9 only (none here)");
        }
    }
    for (a, b) in &m.duplicate_lines {
        let _ = writeln!(s, "  line {a} repeats line {b}");
    }
    for (a, b) in &m.isomorphic_lines {
        let _ = writeln!(s, "  line {a} is an isomorph of line {b}");
    }
    if m.classic_only() {
        let _ = writeln!(s, "givens   puzzles");
        for (g, n) in &m.clues {
            let _ = writeln!(s, "{g:>6}   {n}");
        }
    } else {
        for c in &m.shapes {
            let _ = writeln!(s, "givens   puzzles ({})", c.shape);
            for (g, n) in &c.clues {
                let _ = writeln!(s, "{g:>6}   {n}");
            }
        }
    }
    s
}
