//! What the web API takes from elsewhere in the project: puzzle generation and candidates.
//!
//! - [`generate`]: a new puzzle of a shape, either picked from a shipped dataset
//!   ([`crate::input::dataset::all_shipped`]) or made by the unique-puzzle generator
//!   ([`crate::generate::generate_puzzle`] on 9x9, [`crate::generate::generate_board_puzzle`] on
//!   the other shapes: a random solved grid, givens removed while a counting solver proves the
//!   solution unique).
//! - [`candidates`]: the candidates (pencil marks) of every empty cell of a 9x9 grid, by the
//!   rules of the `domain-reduction` solver; [`peer_elimination`], the plain rule, gives them at
//!   every shape.

use crate::generate::{
    clue_range, clues_out_of_range, counting_solver_for, generate_board_puzzle_within,
    generate_puzzle, BoardPuzzleOptions, PuzzleOptions, Target,
};
use crate::input::dataset;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use solvers::{Board, Budget, Grid, Shape};

/// Where a new puzzle should come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A random puzzle of the shipped dataset of this name, of any shape (`None`: of any
    /// shipped dataset of the shape asked for).
    Dataset(Option<String>),
    /// The unique-puzzle generator, removing givens down to `givens` (in
    /// [`crate::generate::clue_range`] of the shape, as `generate --clues`: 17..=81 on 9x9,
    /// (N − 1)..=N·N on another; it tries up to 20 solved grids), or as far as it can while the solution
    /// stays unique (`None`: a minimal puzzle on 9x9; on another shape, every count is cut at
    /// [`SHAPED_COUNT_NODES`] nodes and a given whose count is cut short stays).
    Generator {
        /// Target number of givens; `None` = minimal.
        givens: Option<usize>,
    },
}

/// The node budget of each count of the generator on shapes other than 9x9, so that a large
/// grid gets its puzzle in seconds.
pub const SHAPED_COUNT_NODES: u64 = 20_000;

/// A new puzzle with its solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle (N·N cells, row-major, 0 = empty); it has exactly one solution, unless it
    /// comes from a dataset stating none (such as Gecode's 16x16 and 25x25 sets).
    pub puzzle: Board,
    /// Its solution; `None` for a dataset's puzzle stated without one.
    pub solution: Option<Board>,
    /// A human-readable origin, e.g. `dataset seed: hard-17s` or `generator seed 42`.
    pub origin: String,
}

/// Why [`generate`] could not make a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// No shipped dataset has that name.
    #[error("unknown dataset {0:?}; shipped: {known}", known = shipped_names().join(", "))]
    UnknownDataset(String),
    /// The requested number of givens is outside [`crate::generate::clue_range`] of the shape.
    #[error("givens {givens}: {}", givens_out_of_range(*givens, *shape))]
    BadGivens {
        /// The number asked for.
        givens: usize,
        /// The shape.
        shape: Shape,
    },
    /// No shipped dataset holds a puzzle of the shape asked for.
    #[error("{0}")]
    NoPuzzleOfShape(String),
    /// The generator failed (e.g. no grid got down to the asked number of givens).
    #[error("the generator failed: {0}")]
    GaveUp(String),
    /// The budget ran out before the asked number of givens (a minimal target gives the puzzle
    /// reached instead).
    #[error("{0}")]
    OutOfBudget(String),
}

/// Why `givens` is outside [`clue_range`] of `shape`, in `generate --clues`'s words.
fn givens_out_of_range(givens: usize, shape: Shape) -> String {
    clues_out_of_range(givens, &shape.to_string(), &clue_range(shape))
}

fn shipped_names() -> Vec<&'static str> {
    dataset::all_shipped().map(|s| s.name).collect()
}

/// Makes a new puzzle of `shape` from `source`, seeded with `seed` (same seed, same puzzle). A
/// dataset named in `source` gives a puzzle of its own shape, `shape` or not. `stop` bounds the
/// generator at shapes other than 9x9 (a 100x100 puzzle takes 10,000 counts): once its deadline
/// passes or its cancel flag is set, no count is started, and a minimal target gives the puzzle
/// reached so far (unique, not minimal: its origin says so). A 9x9 puzzle takes milliseconds
/// (81 counts of the champion), a dataset's a moment: neither polls it.
///
/// # Errors
/// [`GenerateError`] for an unknown dataset, a number of givens out of range, a generator that
/// gave up, or a clue target the budget did not reach.
pub fn generate(
    source: &Source,
    shape: Shape,
    seed: u64,
    stop: &Budget,
) -> Result<Generated, GenerateError> {
    if let Source::Generator { givens: Some(g) } = *source {
        if !clue_range(shape).contains(&g) {
            return Err(GenerateError::BadGivens { givens: g, shape });
        }
    }
    match source {
        Source::Dataset(name) => from_dataset(name.as_deref(), shape, seed),
        Source::Generator { givens } if !shape.is_classic() => {
            generate_shaped(shape, *givens, seed, stop)
        }
        Source::Generator { givens } => {
            let options = PuzzleOptions {
                target: givens.map_or(Target::Minimal, Target::Clues),
                ..PuzzleOptions::default()
            };
            let g = generate_puzzle(&options, &mut *options.solver.session(), seed, 0)
                .map_err(|e| GenerateError::GaveUp(e.to_string()))?;
            Ok(Generated {
                puzzle: Board::from_grid(&g.puzzle),
                solution: Some(Board::from_grid(&g.solution)),
                origin: match givens {
                    None => format!("generator (minimal), seed {seed}"),
                    Some(_) => format!("generator, seed {seed}"),
                },
            })
        }
    }
}

/// A puzzle of a shape other than 9x9 from [`generate_board_puzzle`], counted by
/// [`counting_solver_for`] the shape within [`SHAPED_COUNT_NODES`] nodes a count.
fn generate_shaped(
    shape: Shape,
    givens: Option<usize>,
    seed: u64,
    stop: &Budget,
) -> Result<Generated, GenerateError> {
    let solver = counting_solver_for(shape)
        .ok_or_else(|| GenerateError::GaveUp(format!("no built-in solver counts {shape}")))?;
    let options = BoardPuzzleOptions {
        shape,
        target: givens.map_or(Target::Minimal, Target::Clues),
        solver,
        count_nodes: Some(SHAPED_COUNT_NODES),
        attempts: 20,
    };
    let g = generate_board_puzzle_within(&options, &mut *solver.session(), seed, 0, stop).map_err(
        |e| match e {
            crate::generate::GenerateError::Stopped { .. } => {
                GenerateError::OutOfBudget(e.to_string())
            }
            e => GenerateError::GaveUp(e.to_string()),
        },
    )?;
    let minimal = match (g.stopped, g.undecided) {
        (true, _) => " (stopped by its time budget: unique, not minimal)",
        (false, 0) => " (minimal)",
        (false, _) => "",
    };
    Ok(Generated {
        puzzle: g.puzzle,
        solution: Some(g.solution),
        origin: match givens {
            None => format!("generator{minimal}, {shape}, seed {seed}"),
            Some(_) => format!("generator, {shape}, seed {seed}"),
        },
    })
}

/// Picks a random puzzle of a shipped dataset: of the one named (any shape), else of every
/// shipped dataset of `shape`. 9x9 puzzles are taken with a stated solution only.
fn from_dataset(name: Option<&str>, shape: Shape, seed: u64) -> Result<Generated, GenerateError> {
    let sets: Vec<_> = match name {
        Some(n) => {
            vec![dataset::find(n).ok_or_else(|| GenerateError::UnknownDataset(n.to_string()))?]
        }
        None if shape.is_classic() => dataset::SHIPPED.iter().collect(),
        None => dataset::SHIPPED_SHAPES.iter().collect(),
    };
    let mut pool = Vec::new();
    for s in sets {
        for e in dataset::shipped(s).entries {
            let Ok(p) = &e.puzzle else { continue };
            if name.is_none() && p.shape() != shape {
                continue;
            }
            if p.shape().is_classic() && p.solution.is_none() {
                continue;
            }
            pool.push((s.name, e.label(), p.board.clone(), p.solution.clone()));
        }
    }
    if pool.is_empty() {
        return Err(match name {
            Some(_) => GenerateError::GaveUp("the dataset holds no puzzle".into()),
            None => GenerateError::NoPuzzleOfShape(format!(
                "no shipped dataset holds {shape} puzzles; use the generator"
            )),
        });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (set, label, puzzle, solution) = pool.swap_remove(rng.random_range(0..pool.len()));
    Ok(Generated {
        puzzle,
        solution,
        origin: format!("dataset {set}: {label}"),
    })
}

/// The pencil marks of a 9x9 grid, from the `domain-reduction` solver's rules
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

/// Plain peer elimination, at every shape: a symbol is a candidate of an empty cell when no
/// peer (cell sharing its row, column or box) holds it. Bit `v - 1` for symbol `v`; 0 for a
/// filled cell. O(N² x 3N).
pub fn peer_elimination(board: &Board) -> Vec<u128> {
    let shape = board.shape();
    let units = shape.units();
    let all = if shape.side() >= 128 {
        u128::MAX
    } else {
        (1u128 << shape.side()) - 1
    };
    (0..shape.cells())
        .map(|i| {
            if board.get(i) != 0 {
                return 0;
            }
            let used = units
                .peers(i)
                .iter()
                .map(|&j| board.get(j as usize))
                .filter(|&v| v != 0)
                .fold(0u128, |m, v| m | 1 << (v - 1));
            all & !used
        })
        .collect()
}
