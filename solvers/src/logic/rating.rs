//! Rating a puzzle as HoDoKu does: the easiest step first, each step's cost summed, every step
//! checked against the solution.

use super::board::{cells, Board};
use super::queues::SingleQueues;
use super::{next_step, Candidate, Level, Step, Technique};
use crate::{bitboard_bands::BitboardBands, cell_name, Budget, Grid, Solver};
use std::fmt;

/// The rating of a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rating {
    /// The sum of the step costs ([`Technique::score`]).
    pub score: u32,
    /// The level: the hardest technique's, raised while the score passes the level's maximum
    /// ([`Level::max_score`]); [`Level::Beyond`] when a guess was needed.
    pub level: Level,
    /// The hardest technique used (highest level, then highest step cost); `None` for a puzzle
    /// given full.
    pub hardest: Option<Technique>,
    /// How many steps of each technique, indexed like [`Technique::ALL`].
    pub counts: Vec<u32>,
    /// Cells filled by a guess ([`Technique::BruteForce`] steps).
    pub guesses: u32,
    /// The puzzle's solution.
    pub solution: Grid,
    /// Every step in order, when asked for ([`rate_traced`]); empty otherwise.
    pub steps: Vec<Step>,
}

impl Rating {
    /// The number of steps of technique `t`.
    pub fn count(&self, t: Technique) -> u32 {
        Technique::ALL
            .iter()
            .position(|&x| x == t)
            .map_or(0, |i| self.counts[i])
    }

    /// The level HoDoKu would give if its last resort did what ours does: [`Level::Beyond`]
    /// becomes [`Level::Extreme`] (a guess costs 10,000 there too), the others stay.
    pub fn hodoku_level(&self) -> Level {
        match self.level {
            Level::Beyond => Level::Extreme,
            l => l,
        }
    }
}

/// Why a puzzle could not be rated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RateError {
    /// The puzzle has no solution.
    NoSolution,
    /// The puzzle has more than one solution, so it has no rating (nor, a board, a [`hint`]).
    MultipleSolutions,
    /// A bug: a technique placed a digit or eliminated a candidate that contradicts the
    /// solution.
    WrongStep {
        /// The step.
        step: Box<Step>,
        /// The wrong placement or elimination.
        wrong: Candidate,
        /// The solution's digit in that cell.
        solution: u8,
    },
}

impl fmt::Display for RateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RateError::NoSolution => f.write_str("the puzzle has no solution"),
            RateError::MultipleSolutions => f.write_str("the puzzle has more than one solution"),
            RateError::WrongStep {
                step,
                wrong,
                solution,
            } => write!(
                f,
                "bug in {}: its step contradicts the solution at {} (solution digit {}, step touches {}): {}",
                step.technique,
                cell_name(wrong.cell as usize),
                solution,
                wrong.digit,
                step
            ),
        }
    }
}

impl std::error::Error for RateError {}

/// The first placement or elimination of `step` that contradicts `solution`, if any.
pub(crate) fn wrong_candidate(step: &Step, solution: &Grid) -> Option<Candidate> {
    step.placements
        .iter()
        .find(|p| solution.get(p.cell as usize) != p.digit)
        .or_else(|| {
            step.eliminations
                .iter()
                .find(|e| solution.get(e.cell as usize) == e.digit)
        })
        .copied()
}

/// Rates `puzzle` (81 cells, 0 = empty): steps in [`Technique::ALL`] order, of the techniques
/// HoDoKu's default configuration uses ([`Technique::in_rating_path`]; uniqueness techniques
/// included, the puzzle having one solution), a guess only when none applies.
///
/// # Errors
/// No solution, more than one, or a step that contradicts the solution (a bug, see
/// [`RateError::WrongStep`]).
pub fn rate(puzzle: &Grid) -> Result<Rating, RateError> {
    rate_with(puzzle, false)
}

/// [`rate`], keeping every step in [`Rating::steps`].
///
/// # Errors
/// As [`rate`].
pub fn rate_traced(puzzle: &Grid) -> Result<Rating, RateError> {
    rate_with(puzzle, true)
}

/// The techniques the rater tries, in order: those of HoDoKu's default configuration
/// ([`Technique::in_rating_path`]), the guess left out.
fn rater_techniques() -> &'static [Technique] {
    static PATH: std::sync::OnceLock<Vec<Technique>> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        Technique::ALL
            .iter()
            .copied()
            .filter(|t| t.in_rating_path())
            .collect()
    })
}

/// The rater's next step: singles from HoDoKu's queues (full house, naked single, hidden
/// single), then the other techniques in order.
fn rater_step(board: &Board, queues: &mut SingleQueues) -> Option<Step> {
    queues
        .full_house(board)
        .or_else(|| queues.naked_single(board))
        .or_else(|| queues.hidden_single(board))
        .or_else(|| {
            let rest = rater_techniques();
            debug_assert_eq!(rest[2], Technique::HiddenSingle);
            next_step(board, &rest[3..])
        })
}

fn rate_with(puzzle: &Grid, trace: bool) -> Result<Rating, RateError> {
    if puzzle.first_conflict().is_some() {
        return Err(RateError::NoSolution);
    }
    let count = BitboardBands
        .count(&puzzle.into(), 2, &Budget::unlimited())
        .expect("bitboard-bands counts");
    let solution = match (count.solutions, count.first.and_then(|b| b.to_grid())) {
        (0, _) | (_, None) => return Err(RateError::NoSolution),
        (1, Some(s)) => s,
        _ => return Err(RateError::MultipleSolutions),
    };
    let (mut board, mut queues) = SingleQueues::load(puzzle);
    let mut counts = vec![0u32; Technique::ALL.len()];
    let (mut score, mut guesses) = (0u32, 0u32);
    let mut level = Level::Easy;
    let mut hardest: Option<Technique> = None;
    let mut steps = Vec::new();
    while !board.is_solved() {
        let step = match rater_step(&board, &mut queues) {
            Some(s) => s,
            None => {
                guesses += 1;
                guess(&board, &solution, true)
            }
        };
        if let Some(wrong) = wrong_candidate(&step, &solution) {
            return Err(RateError::WrongStep {
                solution: solution.get(wrong.cell as usize),
                step: Box::new(step),
                wrong,
            });
        }
        let t = step.technique;
        queues.apply(&step, &mut board);
        score = score.saturating_add(t.score());
        counts[Technique::ALL.iter().position(|&x| x == t).expect("listed")] += 1;
        level = level.max(t.level());
        if hardest.map_or(true, |h| (t.level(), t.score()) > (h.level(), h.score())) {
            hardest = Some(t);
        }
        if trace {
            steps.push(step);
        }
    }
    while level < Level::Extreme && score > level.max_score() {
        level = Level::ALL[level as usize + 1];
    }
    if guesses > 0 {
        level = Level::Beyond;
    }
    Ok(Rating {
        score,
        level,
        hardest,
        counts,
        guesses,
        solution,
        steps,
    })
}

/// The next step a person would take on `board`, a puzzle part-way solved (81 cells, 0 = empty;
/// the candidates are what the filled cells leave): the easiest technique that applies, in
/// [`Technique::ALL`] order; when no technique applies, a [`Technique::BruteForce`] step giving
/// the cell with the fewest candidates its solution digit. `None` when the board is full.
///
/// # Errors
/// [`RateError::NoSolution`] when the board cannot be completed (a digit is wrong, or the givens
/// clash); [`RateError::MultipleSolutions`] when it has several solutions, as [`rate`] refuses
/// such a puzzle (no step leads to one answer, and a guess would pick one of them);
/// [`RateError::WrongStep`] when a step contradicts the solution (a bug).
pub fn hint(board: &Grid) -> Result<Option<Step>, RateError> {
    if board.first_conflict().is_some() {
        return Err(RateError::NoSolution);
    }
    let count = BitboardBands
        .count(&board.into(), 2, &Budget::unlimited())
        .expect("bitboard-bands counts");
    let Some(solution) = count.first.and_then(|b| b.to_grid()) else {
        return Err(RateError::NoSolution);
    };
    if board.is_full() {
        return Ok(None);
    }
    if count.solutions > 1 {
        return Err(RateError::MultipleSolutions);
    }
    let b = Board::new(board);
    let step = next_step(&b, rater_techniques()).unwrap_or_else(|| guess(&b, &solution, false));
    if let Some(wrong) = wrong_candidate(&step, &solution) {
        return Err(RateError::WrongStep {
            solution: solution.get(wrong.cell as usize),
            step: Box::new(step),
            wrong,
        });
    }
    Ok(Some(step))
}

/// HoDoKu's last resort: an empty cell gets its solution digit. The rater (`as_hodoku`) takes
/// HoDoKu's cell, the middle one of the empty cells in cell order, so that its path goes on as
/// HoDoKu's; a hint takes the empty cell with the fewest candidates (the first such), the one a
/// person would try.
fn guess(board: &Board, solution: &Grid, as_hodoku: bool) -> Step {
    let empty: Vec<usize> = cells(board.empty()).collect();
    let cell = if as_hodoku {
        empty[empty.len() / 2]
    } else {
        *empty
            .iter()
            .min_by_key(|&&c| board.count(c))
            .expect("an empty cell")
    };
    Step::placing(Technique::BruteForce, cell, solution.get(cell))
}
