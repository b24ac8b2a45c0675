//! Puzzles with exactly one solution at every [`Shape`]: the method of [`super::puzzle`] on a
//! [`Board`].
//!
//! 1. A random solved grid of the shape ([`super::shaped::random_solved`]).
//! 2. The cells in a random order: empty each in turn and count the puzzle's solutions up to 2
//!    with a counting engine that takes the shape ([`Session::count`]); exactly one, the
//!    cell stays empty; two, the given is put back.
//! 3. Each count runs under a node budget ([`BoardPuzzleOptions::count_nodes`]). A count that
//!    runs out proves nothing, so the given is put back and the puzzle is marked *not proven
//!    minimal* ([`BoardPuzzle::undecided`] > 0): it still has exactly one solution (every removal
//!    kept was proven), but some given might have been removable. With no count cut short the
//!    puzzle is **minimal**, as in [`super::puzzle`]. [`Target::Clues`] stops at K givens.
//!
//! Which engine counts: [`counting_solver_for`]. Any correct counting engine makes the same
//! puzzle when no count is cut short; when some are, the budget is in the engine's own nodes, so
//! another engine may cut different counts. The file is the same for any thread count.

use super::puzzle::Target;
use super::rng::{Purpose, Rng};
use super::shaped::random_solved;
use super::GenerateError;
use solvers::engine::Session;
use solvers::{Board, Budget, Shape, SolverKind};

/// The counting solver used for `shape` when none is named: the registry's
/// [`SolverKind::counter_for`].
pub fn counting_solver_for(shape: Shape) -> Option<SolverKind> {
    SolverKind::counter_for(shape)
}

/// What puzzles of a shape to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardPuzzleOptions {
    /// The shape.
    pub shape: Shape,
    /// How far to remove givens ([`Target::Clues`] in `0..=N²`).
    pub target: Target,
    /// The solver that counts; must count and take the shape.
    pub solver: SolverKind,
    /// The node budget of each count (in the solver's own nodes); `None`: unlimited.
    pub count_nodes: Option<u64>,
    /// Solved grids to try per puzzle before giving up on a [`Target::Clues`] target.
    pub attempts: u32,
}

/// A generated puzzle of any shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardPuzzle {
    /// The puzzle (0 = empty).
    pub puzzle: Board,
    /// Its only solution.
    pub solution: Board,
    /// Counts cut short by the node budget (their givens were kept); 0 means the puzzle is
    /// minimal (or at its clue target).
    pub undecided: u32,
    /// Which attempt (0-based) made it.
    pub attempt: u32,
    /// The generation was stopped by its budget ([`generate_board_puzzle_within`]) before every
    /// cell was tried: the puzzle still has exactly one solution (every removal kept was
    /// proven), but is not minimal; the cells not tried count in `undecided`.
    pub stopped: bool,
}

/// Checks the options before any work.
///
/// # Errors
/// [`GenerateError::SolverCannotCount`] when the solver does not count,
/// [`GenerateError::ShapeNotTaken`] when it does not take the shape,
/// [`GenerateError::BadClues`] for a target outside [`super::clue_range`] ((N − 1)..=N²).
pub fn check_board_options(options: &BoardPuzzleOptions) -> Result<(), GenerateError> {
    let caps = options.solver.caps();
    if !caps.counts {
        return Err(GenerateError::SolverCannotCount(options.solver.name()));
    }
    if !caps.shapes.takes(options.shape) {
        return Err(GenerateError::ShapeNotTaken {
            solver: options.solver.name(),
            shape: options.shape.to_string(),
        });
    }
    if let Target::Clues(k) = options.target {
        super::check_clues(k, options.shape)?;
    }
    Ok(())
}

/// Counts `puzzle`'s solutions to 2: `Some(true)` exactly one, `Some(false)` none or several,
/// `None` when the budget ran out first.
fn unique(
    puzzle: &Board,
    counter: &mut dyn Session,
    budget: &Budget,
) -> Result<Option<bool>, GenerateError> {
    let c = counter
        .count(puzzle, 2, budget)
        .map_err(|e| GenerateError::Session(e.to_string()))?;
    Ok(c.complete.then_some(c.solutions == 1))
}

/// Makes puzzle `index` of the batch seeded by `seed`: deterministic in `(options, seed, index)`
/// (and in the counting solver when counts are cut short). `counter` is a session of
/// `options.solver`. Costs one count per cell (N² counts).
///
/// # Errors
/// As [`check_board_options`]; [`GenerateError::Session`] when the engine fails;
/// [`GenerateError::TargetNotReached`] when no attempt got down to the asked givens.
pub fn generate_board_puzzle(
    options: &BoardPuzzleOptions,
    counter: &mut dyn Session,
    seed: u64,
    index: u64,
) -> Result<BoardPuzzle, GenerateError> {
    generate_board_puzzle_within(options, counter, seed, index, &Budget::unlimited())
}

/// [`generate_board_puzzle`] within `stop`, a deadline and a cancel flag over the whole
/// generation (a web request's budget, its client gone): every count polls it, and once it has
/// run out no count is started. A minimal target then gives the puzzle so far
/// ([`BoardPuzzle::stopped`]), unique but not minimal; a clue target not yet reached is
/// [`GenerateError::Stopped`].
///
/// # Errors
/// As [`generate_board_puzzle`]; [`GenerateError::Stopped`].
pub fn generate_board_puzzle_within(
    options: &BoardPuzzleOptions,
    counter: &mut dyn Session,
    seed: u64,
    index: u64,
    stop: &Budget,
) -> Result<BoardPuzzle, GenerateError> {
    check_board_options(options)?;
    generate_ticking(options, counter, seed, index, stop, &mut || {})
}

/// [`generate_board_puzzle`] calling `tick` once per cell tried (one count each), for a progress
/// bar that moves with the work: N² ticks a minimal puzzle, fewer to a clue target, more when a
/// clue target takes several grids.
///
/// # Errors
/// As [`generate_board_puzzle`].
pub fn generate_board_puzzle_ticking(
    options: &BoardPuzzleOptions,
    counter: &mut dyn Session,
    seed: u64,
    index: u64,
    tick: &mut dyn FnMut(),
) -> Result<BoardPuzzle, GenerateError> {
    check_board_options(options)?;
    generate_ticking(options, counter, seed, index, &Budget::unlimited(), tick)
}

/// [`generate_board_puzzle_within`] without the check of the options (the unit tests count
/// with a session of their own), calling `tick` once per cell tried.
fn generate_ticking(
    options: &BoardPuzzleOptions,
    counter: &mut dyn Session,
    seed: u64,
    index: u64,
    stop: &Budget,
    tick: &mut dyn FnMut(),
) -> Result<BoardPuzzle, GenerateError> {
    let shape = options.shape;
    let cells = shape.cells();
    // Each count: the node budget of the options, the deadline and cancel flag of `stop`.
    let budget = stop.clone().max_nodes(options.count_nodes);
    let floor = match options.target {
        Target::Minimal => 0,
        Target::Clues(k) => k,
    };
    let mut best = cells;
    for attempt in 0..options.attempts.max(1) {
        // Attempt 0's grid is grid `index` of `harness generate grids` with the same seed and
        // shape; the removal order draws from a stream of its own.
        let solution = random_solved(shape, seed, attempt, index);
        let mut rng = Rng::new(seed, Purpose::ShapedPuzzle, attempt, index);
        let mut order: Vec<usize> = (0..cells).collect();
        rng.shuffle(&mut order);
        let mut puzzle = solution.clone();
        let mut givens = cells;
        let mut undecided = 0u32;
        let mut stopped = false;
        for (k, &c) in order.iter().enumerate() {
            if givens == floor {
                break;
            }
            if stop.exhausted(0) {
                stopped = true;
                undecided += (order.len() - k) as u32;
                break;
            }
            let v = puzzle.get(c);
            puzzle.set(c, 0);
            let answer = unique(&puzzle, counter, &budget)?;
            tick();
            match answer {
                Some(true) => givens -= 1,
                Some(false) => puzzle.set(c, v),
                None => {
                    undecided += 1;
                    puzzle.set(c, v);
                }
            }
        }
        if givens == floor || options.target == Target::Minimal {
            return Ok(BoardPuzzle {
                puzzle,
                solution,
                undecided,
                attempt,
                stopped,
            });
        }
        if stopped {
            return Err(GenerateError::Stopped {
                clues: floor,
                best: best.min(givens),
            });
        }
        best = best.min(givens);
    }
    Err(GenerateError::TargetNotReached {
        clues: floor,
        best,
        attempts: options.attempts.max(1),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use solvers::engine::EngineError;
    use solvers::{Count, Outcome, Stats};

    /// A plain counting DFS over a board (first empty cell, symbols 1..N), written only for these
    /// tests, so the removal logic is tested before the generic solvers count every shape.
    pub(crate) struct TestCounter;

    fn count(
        cells: &mut Vec<solvers::Symbol>,
        shape: Shape,
        limit: u64,
        found: &mut u64,
        nodes: &mut u64,
    ) {
        let n = shape.side();
        let Some(i) = cells.iter().position(|&v| v == 0) else {
            *found += 1;
            return;
        };
        let (r, c) = (i / n, i % n);
        for s in 1..=n as solvers::Symbol {
            let clash = (0..n).any(|k| {
                cells[r * n + k] == s
                    || cells[k * n + c] == s
                    || shape.boxes().is_some_and(|(br, bc)| {
                        let (r0, c0) = (r / br * br, c / bc * bc);
                        cells[(r0 + k / bc) * n + c0 + k % bc] == s
                    })
            });
            if clash {
                continue;
            }
            *nodes += 1;
            cells[i] = s;
            count(cells, shape, limit, found, nodes);
            cells[i] = 0;
            if *found >= limit {
                return;
            }
        }
    }

    impl Session for TestCounter {
        fn solve(&mut self, _: &Board, _: &Budget) -> Result<Outcome, EngineError> {
            Err(EngineError::Unsupported("solve"))
        }

        fn count(&mut self, puzzle: &Board, limit: u64, _: &Budget) -> Result<Count, EngineError> {
            let mut cells = puzzle.cells().to_vec();
            let (mut found, mut nodes) = (0, 0);
            count(&mut cells, puzzle.shape(), limit, &mut found, &mut nodes);
            Ok(Count {
                solutions: found,
                complete: true,
                first: None,
                stats: Stats::default(),
            })
        }
    }

    /// Minimal puzzles of `shape`, counted by `dlx`, one grid each.
    fn minimal(shape: Shape) -> BoardPuzzleOptions {
        BoardPuzzleOptions {
            shape,
            target: Target::Minimal,
            solver: SolverKind::Dlx,
            count_nodes: None,
            attempts: 1,
        }
    }

    /// Puzzle `index` of seed 5, made without a budget or a check of the options.
    fn made(options: &BoardPuzzleOptions, counter: &mut dyn Session, index: u64) -> BoardPuzzle {
        generate_ticking(options, counter, 5, index, &Budget::unlimited(), &mut || {}).unwrap()
    }

    #[test]
    fn small_shapes_give_unique_minimal_reproducible_puzzles() {
        let budget = Budget::unlimited();
        for shape in [
            Shape::of_order(2).unwrap(),
            Shape::sudoku(2, 3).unwrap(),
            Shape::latin(4).unwrap(),
        ] {
            let opts = minimal(shape);
            let counter = &mut TestCounter;
            for i in 0..3 {
                let p = made(&opts, counter, i);
                assert_eq!(p, made(&opts, counter, i));
                assert_eq!(p.undecided, 0);
                assert!(crate::verify::check_board(&p.puzzle, &p.solution, None).is_ok());
                assert_eq!(unique(&p.puzzle, counter, &budget).unwrap(), Some(true));
                for c in (0..shape.cells()).filter(|&c| p.puzzle.get(c) != 0) {
                    let mut less = p.puzzle.clone();
                    less.set(c, 0);
                    assert_eq!(unique(&less, counter, &budget).unwrap(), Some(false));
                }
            }
            let target = BoardPuzzleOptions {
                target: Target::Clues(shape.cells() - 3),
                ..opts
            };
            let p = made(&target, counter, 0);
            assert_eq!(p.puzzle.givens(), shape.cells() - 3);
        }
    }

    /// The progress of a puzzle is its cells tried: N² for a minimal one, one per count.
    #[test]
    fn every_count_ticks_once() {
        let shape = Shape::sudoku(2, 3).unwrap();
        let opts = minimal(shape);
        let mut ticks = 0;
        let p = generate_ticking(
            &opts,
            &mut TestCounter,
            5,
            0,
            &Budget::unlimited(),
            &mut || ticks += 1,
        )
        .unwrap();
        assert_eq!(p, made(&opts, &mut TestCounter, 0));
        assert_eq!(ticks, 36);
    }

    #[test]
    fn the_options_are_checked() {
        let shape = Shape::of_order(4).unwrap();
        let opts = BoardPuzzleOptions {
            shape,
            target: Target::Clues(257),
            solver: SolverKind::Backtracking,
            count_nodes: None,
            attempts: 1,
        };
        assert!(check_board_options(&opts).is_err());
        if let Some(k) = counting_solver_for(shape) {
            let ok = BoardPuzzleOptions {
                solver: k,
                target: Target::Minimal,
                ..opts
            };
            assert!(check_board_options(&ok).is_ok());
        }
        assert_eq!(
            counting_solver_for(Shape::CLASSIC),
            Some(crate::generate::counting_solver())
        );
    }
}
