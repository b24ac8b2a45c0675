//! Puzzles with exactly one solution: a random solved grid, then givens removed while the puzzle
//! keeps exactly one solution.
//!
//! ## The method
//! 1. Fill a random solved grid ([`super::random_grid`]).
//! 2. Visit the cells (or, with a [`Symmetry`], the orbits of cells) in a random order; empty each
//!    in turn and count the puzzle's solutions up to 2 with a counting solver
//!    ([`Session::count`]): one solution, the cells stay empty; two, they are put back. Counting to
//!    2 is what proves uniqueness: solving once would not notice a second solution.
//! 3. [`Target::Minimal`]: one pass over all cells gives a **minimal** puzzle, one from which no
//!    given can be removed without losing uniqueness. A given kept at some step stays needed:
//!    removing givens later only adds solutions to the puzzle without it. (With a symmetry, the
//!    puzzle is minimal among symmetric ones: no orbit can be removed.) [`Target::Clues`]: stop
//!    as soon as the puzzle has K givens; when a whole pass leaves more, the grid could not get
//!    that low, and a new grid is tried (up to [`PuzzleOptions::attempts`]).
//!
//! Puzzle `index` of a batch made with `seed` depends on nothing else (its own random streams),
//! so a batch made on many threads is the same file as one made on one. Nor does it depend on
//! the counting solver: each decision is "exactly one solution or not", a fact about the puzzle,
//! so any correct counting solver gives the same file (only the speed changes).
//!
//! Cost: one count per cell (81, or one per orbit), each well under a millisecond with
//! `bitmask-singles`.

use super::random_grid::random_grid;
use super::rng::{Purpose, Rng};
use super::symmetry::Symmetry;
use super::{counting_solver, GenerateError};
use solvers::engine::Session;
use solvers::logic::{self, Level, Rating};
use solvers::{Budget, Grid, SolverKind};

/// How far to remove givens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Until no given (no orbit, with a symmetry) can be removed.
    Minimal,
    /// Until exactly this many givens remain (17..=81).
    Clues(usize),
}

/// What puzzles to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuzzleOptions {
    /// How far to remove givens.
    pub target: Target,
    /// The symmetry the givens keep.
    pub symmetry: Symmetry,
    /// The solver that counts solutions; must count ([`solvers::engine::Caps::counts`]).
    pub solver: SolverKind,
    /// Solved grids to try per puzzle before giving up on a [`Target::Clues`] target (at least 1).
    pub attempts: u32,
}

impl Default for PuzzleOptions {
    /// Minimal puzzles, no symmetry, the fastest counting solver ([`counting_solver`]), 20
    /// attempts.
    fn default() -> Self {
        PuzzleOptions {
            target: Target::Minimal,
            symmetry: Symmetry::None,
            solver: counting_solver(),
            attempts: 20,
        }
    }
}

/// A generated puzzle and its (only) solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedPuzzle {
    /// The puzzle: 81 cells, row-major, 0 = empty.
    pub puzzle: Grid,
    /// Its unique solution.
    pub solution: Grid,
    /// Which attempt (0-based) made it: attempts before it failed to reach the target.
    pub attempt: u32,
}

impl GeneratedPuzzle {
    /// Number of givens.
    pub fn givens(&self) -> usize {
        self.puzzle.givens()
    }
}

/// Makes puzzle number `index` of the batch seeded by `seed`: deterministic in
/// `(options, seed, index)`, whatever thread calls it. `counter` is a session of
/// `options.solver` ([`SolverKind::session`]), opened once per thread and reused: the counts
/// allocate nothing. The web board's "new puzzle" calls
/// `generate_puzzle(&PuzzleOptions::default(), &mut *counting_solver().session(), seed, 0)`.
///
/// Takes about 81 solution counts per attempt (a few ms with `bitmask-singles`).
///
/// # Errors
/// [`GenerateError::BadClues`] for a target outside 17..=81 ([`super::clue_range`]),
/// [`GenerateError::SolverCannotCount`] when `options.solver` does not count, and
/// [`GenerateError::TargetNotReached`] when no attempt got down to the asked givens.
pub fn generate_puzzle(
    options: &PuzzleOptions,
    counter: &mut dyn Session,
    seed: u64,
    index: u64,
) -> Result<GeneratedPuzzle, GenerateError> {
    check_options(options)?;
    let orbits = options.symmetry.orbits();
    let mut best = 81;
    for attempt in 0..options.attempts.max(1) {
        let mut rng = Rng::new(seed, Purpose::Puzzle, attempt, index);
        let solution = random_grid(&mut rng, None);
        let puzzle = reduce(&solution, &orbits, options.target, counter, &mut rng);
        let givens = puzzle.iter().filter(|&&v| v != 0).count();
        let reached = match options.target {
            Target::Minimal => true,
            Target::Clues(k) => givens == k,
        };
        if reached {
            return Ok(GeneratedPuzzle {
                puzzle: Grid::from_cells(puzzle).expect("digits"),
                solution: Grid::from_cells(solution).expect("digits"),
                attempt,
            });
        }
        best = best.min(givens);
    }
    let Target::Clues(clues) = options.target else {
        unreachable!("a minimal target is always reached")
    };
    Err(GenerateError::TargetNotReached {
        clues,
        best,
        attempts: options.attempts.max(1),
    })
}

/// Which ratings ([`solvers::logic::rate`]) a generated puzzle must have: a level, a score range,
/// or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingFilter {
    /// The level asked for, if any.
    pub level: Option<Level>,
    /// The lowest score accepted.
    pub min_score: u32,
    /// The highest score accepted.
    pub max_score: u32,
}

impl RatingFilter {
    /// Any rating.
    pub const ANY: RatingFilter = RatingFilter {
        level: None,
        min_score: 0,
        max_score: u32::MAX,
    };

    /// True when `r` is in range.
    pub fn accepts(&self, r: &Rating) -> bool {
        self.level.map_or(true, |l| l == r.level)
            && (self.min_score..=self.max_score).contains(&r.score)
    }

    /// The range as text: `level Hard`, `score 900..1200`, `level Hard, score 900..1200`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(l) = self.level {
            parts.push(format!("level {l}"));
        }
        if self.min_score > 0 || self.max_score < u32::MAX {
            parts.push(format!("score {}..{}", self.min_score, self.max_score));
        }
        if parts.is_empty() {
            parts.push("anything".into());
        }
        parts.join(", ")
    }
}

/// Candidate streams per output puzzle of [`generate_rated_puzzle`]: candidate `k` of puzzle `i`
/// is [`generate_puzzle`]'s puzzle `i * RATED_STREAMS + k`.
pub const RATED_STREAMS: u64 = 1 << 20;

/// Makes puzzle number `index` of a batch seeded by `seed` whose rating passes `filter`: the first
/// of the candidates `k = 0, 1, ...` (each [`generate_puzzle`]'s puzzle `index * RATED_STREAMS +
/// k`) rated in range, trying at most `tries` (capped at [`RATED_STREAMS`]). Deterministic in
/// `(options, filter, seed, index)`. Returns the puzzle and its rating.
///
/// Rare levels need many candidates: of minimal puzzles about 40% rate Easy, 22% Medium, 17% Hard,
/// 9% Unfair and 12% Extreme (the shipped `minimal-1000`; none Beyond).
///
/// # Errors
/// As [`generate_puzzle`]; [`GenerateError::RatingNotReached`] when no candidate was in range;
/// [`GenerateError::Rating`] when the rater found a bug.
pub fn generate_rated_puzzle(
    options: &PuzzleOptions,
    counter: &mut dyn Session,
    filter: &RatingFilter,
    tries: u32,
    seed: u64,
    index: u64,
) -> Result<(GeneratedPuzzle, Rating), GenerateError> {
    let tries = (tries.max(1) as u64).min(RATED_STREAMS);
    for k in 0..tries {
        let p = generate_puzzle(
            options,
            counter,
            seed,
            index.wrapping_mul(RATED_STREAMS).wrapping_add(k),
        )?;
        let r = logic::rate(&p.puzzle).map_err(|e| GenerateError::Rating(e.to_string()))?;
        if filter.accepts(&r) {
            return Ok((p, r));
        }
    }
    Err(GenerateError::RatingNotReached {
        wanted: filter.describe(),
        tries: tries as u32,
    })
}

/// Checks a target and a solver before any work.
///
/// # Errors
/// As [`generate_puzzle`], except [`GenerateError::TargetNotReached`].
pub fn check_options(options: &PuzzleOptions) -> Result<(), GenerateError> {
    if let Target::Clues(k) = options.target {
        super::check_clues(k, solvers::Shape::CLASSIC)?;
    }
    if !options.solver.counts() {
        return Err(GenerateError::SolverCannotCount(options.solver.name()));
    }
    Ok(())
}

/// True when `puzzle` has exactly one solution, by counting up to 2 with `counter` (no budget:
/// the count is always complete). False when `counter` cannot count.
pub fn is_unique(puzzle: &[u8; 81], counter: &mut dyn Session) -> bool {
    let grid = Grid::from_cells(*puzzle).expect("digits");
    match counter.count(&grid.into(), 2, &Budget::unlimited()) {
        Ok(c) => c.complete && c.solutions == 1,
        Err(_) => false,
    }
}

/// Removes givens from the full grid `solution`, orbit by orbit in a random order, while the
/// puzzle stays unique; stops at `target`.
fn reduce(
    solution: &[u8; 81],
    orbits: &[Vec<usize>],
    target: Target,
    counter: &mut dyn Session,
    rng: &mut Rng,
) -> [u8; 81] {
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    rng.shuffle(&mut order);
    let mut puzzle = *solution;
    let mut givens = 81;
    let floor = match target {
        Target::Minimal => 0,
        Target::Clues(k) => k,
    };
    for &o in &order {
        if givens == floor {
            break;
        }
        let orbit = &orbits[o];
        if givens - orbit.len() < floor {
            continue;
        }
        for &c in orbit {
            puzzle[c] = 0;
        }
        // With fewer than 17 givens a puzzle is never unique (McGuire, Tugemann, Civario 2012):
        // skip the count.
        if givens - orbit.len() >= 17 && is_unique(&puzzle, counter) {
            givens -= orbit.len();
        } else {
            for &c in orbit {
                puzzle[c] = solution[c];
            }
        }
    }
    puzzle
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(target: Target, symmetry: Symmetry) -> PuzzleOptions {
        PuzzleOptions {
            target,
            symmetry,
            ..PuzzleOptions::default()
        }
    }

    #[test]
    fn minimal_puzzles_are_unique_and_minimal() {
        let mut checker = SolverKind::BitmaskSingles.session();
        let mut counter = counting_solver().session();
        for i in 0..5 {
            let p = generate_puzzle(&opts(Target::Minimal, Symmetry::None), &mut *counter, 11, i)
                .unwrap();
            let cells = *p.puzzle.cells();
            assert!(is_unique(&cells, &mut *checker));
            for c in (0..81).filter(|&c| cells[c] != 0) {
                let mut less = cells;
                less[c] = 0;
                assert!(
                    !is_unique(&less, &mut *checker),
                    "puzzle {i}: r{}c{} removable",
                    c / 9 + 1,
                    c % 9 + 1
                );
            }
            for (c, &v) in cells.iter().enumerate() {
                assert!(v == 0 || v == p.solution.get(c));
            }
            assert_eq!(
                p,
                generate_puzzle(&opts(Target::Minimal, Symmetry::None), &mut *counter, 11, i)
                    .unwrap()
            );
        }
    }

    #[test]
    fn clue_targets_and_symmetry() {
        let counter = &mut *counting_solver().session();
        let p = generate_puzzle(&opts(Target::Clues(30), Symmetry::None), counter, 2, 0).unwrap();
        assert_eq!(p.givens(), 30);
        let p =
            generate_puzzle(&opts(Target::Minimal, Symmetry::Rotational), counter, 2, 0).unwrap();
        let c = p.puzzle.cells();
        for i in 0..81 {
            assert_eq!(c[i] == 0, c[80 - i] == 0);
        }
        assert!(matches!(
            generate_puzzle(&opts(Target::Clues(16), Symmetry::None), counter, 2, 0),
            Err(GenerateError::BadClues { clues: 16, .. })
        ));
        let few = PuzzleOptions {
            attempts: 2,
            ..opts(Target::Clues(18), Symmetry::None)
        };
        assert!(matches!(
            generate_puzzle(&few, counter, 2, 0),
            Err(GenerateError::TargetNotReached {
                clues: 18,
                attempts: 2,
                ..
            })
        ));
        let plain = PuzzleOptions {
            solver: SolverKind::Backtracking,
            ..PuzzleOptions::default()
        };
        assert!(matches!(
            generate_puzzle(&plain, counter, 2, 0),
            Err(GenerateError::SolverCannotCount("backtracking"))
        ));
    }
}
