//! What the web API takes from elsewhere in the project: puzzle generation and candidates.
//!
//! - [`generate`]: a new puzzle, either picked from a shipped dataset ([`crate::dataset::SHIPPED`])
//!   or made by the unique-puzzle generator ([`crate::generate::generate_puzzle`]: a random
//!   solved grid, givens removed while a counting solver proves the solution unique).
//! - [`candidates`]: the candidates (pencil marks) of every empty cell, by the rules of the
//!   `domain-reduction` solver; [`peer_elimination`] is the plain rule, kept as a cross-check.

use crate::dataset;
use crate::generate::{generate_puzzle, PuzzleOptions, Target};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use solvers::Grid;

/// Where a new puzzle should come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A random puzzle of the shipped dataset of this name (`None`: of any shipped dataset).
    Dataset(Option<String>),
    /// The unique-puzzle generator, removing givens down to `givens` (17..=81; it tries up to
    /// 20 solved grids), or as far as it can while the solution stays unique (`None`: a minimal
    /// puzzle).
    Generator {
        /// Target number of givens; `None` = minimal.
        givens: Option<usize>,
    },
}

/// A new puzzle with its solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle (81 cells, row-major, 0 = empty); it has exactly one solution.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// A human-readable origin, e.g. `dataset seed: hard-17s` or `generator seed 42`.
    pub origin: String,
}

/// Why [`generate`] could not make a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// No shipped dataset has that name.
    #[error("unknown dataset {0:?}; shipped: {known}", known = shipped_names().join(", "))]
    UnknownDataset(String),
    /// The requested number of givens is out of range.
    #[error("givens must be between 17 and 81, got {0}")]
    BadGivens(usize),
    /// The generator failed (e.g. no grid got down to the asked number of givens).
    #[error("the generator failed: {0}")]
    GaveUp(String),
}

fn shipped_names() -> Vec<&'static str> {
    dataset::SHIPPED.iter().map(|s| s.name).collect()
}

/// Makes a new puzzle from `source`, seeded with `seed` (same seed, same puzzle).
///
/// # Errors
/// [`GenerateError`] for an unknown dataset, a number of givens outside 17..=81, or a generator
/// that gave up.
pub fn generate(source: &Source, seed: u64) -> Result<Generated, GenerateError> {
    match source {
        Source::Dataset(name) => from_dataset(name.as_deref(), seed),
        Source::Generator { givens } => {
            if let Some(g) = *givens {
                if !(17..=81).contains(&g) {
                    return Err(GenerateError::BadGivens(g));
                }
            }
            let options = PuzzleOptions {
                target: givens.map_or(Target::Minimal, Target::Clues),
                ..PuzzleOptions::default()
            };
            let g = generate_puzzle(&options, &mut *options.solver.session(), seed, 0)
                .map_err(|e| GenerateError::GaveUp(e.to_string()))?;
            Ok(Generated {
                puzzle: g.puzzle,
                solution: g.solution,
                origin: match givens {
                    None => format!("generator (minimal), seed {seed}"),
                    Some(_) => format!("generator, seed {seed}"),
                },
            })
        }
    }
}

/// Picks a random puzzle (with a stated solution) of a shipped dataset.
fn from_dataset(name: Option<&str>, seed: u64) -> Result<Generated, GenerateError> {
    let sets: Vec<_> = match name {
        Some(n) => vec![dataset::SHIPPED
            .iter()
            .find(|s| s.name == n)
            .ok_or_else(|| GenerateError::UnknownDataset(n.to_string()))?],
        None => dataset::SHIPPED.iter().collect(),
    };
    let mut pool = Vec::new();
    for s in sets {
        for e in dataset::shipped(s).entries {
            if let Ok(p) = &e.puzzle {
                if let (Some(g), Some(sol)) = (p.grid(), p.solution_grid()) {
                    pool.push((s.name, e.label(), g, sol));
                }
            }
        }
    }
    if pool.is_empty() {
        return Err(GenerateError::GaveUp("the dataset holds no puzzle".into()));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (set, label, puzzle, solution) = pool.swap_remove(rng.random_range(0..pool.len()));
    Ok(Generated {
        puzzle,
        solution,
        origin: format!("dataset {set}: {label}"),
    })
}

/// The pencil marks of a board, from the `domain-reduction` solver's rules
/// ([`solvers::domain_reduction::reduce`]: naked and hidden singles to a fixpoint, no guess).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marks {
    /// Candidates per cell, bit `d - 1` for digit `d`; 0 for a cell filled on the board. A cell
    /// the rules solved shows its one digit.
    pub candidates: [u16; 81],
    /// How many deductions (singles) the rules made.
    pub deductions: usize,
    /// The contradiction the rules ran into, if any (the board has no solution), e.g. `r3c4 has
    /// no candidate left`.
    pub contradiction: Option<String>,
    /// The method's name, shown by the page.
    pub method: &'static str,
}

/// Pencil marks of `board` (81 cells, row-major, 0 = empty) by the `domain-reduction` rules.
/// O(81 x 27) per pass of the rules, a handful of passes.
pub fn candidates(board: &Grid) -> Marks {
    let r = solvers::domain_reduction::reduce(board);
    let mut candidates = r.candidates;
    for (i, m) in candidates.iter_mut().enumerate() {
        if board.get(i) != 0 {
            *m = 0;
        }
    }
    Marks {
        candidates,
        deductions: r.steps.len(),
        contradiction: r.contradiction.map(|c| c.to_string()),
        method: "domain-reduction (naked and hidden singles to a fixpoint)",
    }
}

/// Plain peer elimination: a digit is a candidate of an empty cell when no peer (cell sharing
/// its row, column or box) holds it. O(81 x 20).
pub fn peer_elimination(puzzle: &Grid) -> [u16; 81] {
    let c = puzzle.cells();
    let mut out = [0u16; 81];
    for i in 0..81 {
        if c[i] != 0 {
            continue;
        }
        let (r, col) = (i / 9, i % 9);
        let mut used = 0u16;
        for (j, &v) in c.iter().enumerate() {
            let (r2, c2) = (j / 9, j % 9);
            let peer = r2 == r || c2 == col || (r2 / 3 == r / 3 && c2 / 3 == col / 3);
            if peer && v != 0 {
                used |= 1 << (v - 1);
            }
        }
        out[i] = 0x1ff & !used;
    }
    out
}
