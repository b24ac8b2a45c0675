//! The `logic` solver: human techniques first, search only when they are stuck.

use super::board::{cells, Board};
use super::{next_step, Technique};
use crate::engine::Caps;
use crate::search::Tally;
use crate::{Budget, Count, Grid, Outcome, Solver};

/// The technique solver (on 9x9; other shapes: the techniques that generalise, in
/// [`super::shaped`]): at every node of the search, the easiest technique that applies
/// ([`Technique::ALL`] order, HoDoKu's) until none does; then a guess on the empty cell with the
/// fewest candidates (MRV), candidates in increasing order. It never uses the uniqueness
/// techniques (they assume one solution, and this solver also counts solutions), so every step
/// keeps every solution of the position and counting is exact; nor the forcing chains and nets,
/// which try an assumption and follow it, as the search does.
///
/// Counters: the root is one node and every guessed digit one more; **guesses** counts branch
/// points with two or more candidates; **propagations** counts digits placed by techniques
/// (full house, naked and hidden singles), in every node. The budget is polled at every step.
/// In debug builds, every solution found is checked against the candidates left at each branch
/// point on its path: an elimination that removed a solution's digit fails an assertion.
#[derive(Debug, Clone, Copy, Default)]
pub struct Logic;

/// The techniques of the solver, in order: all but the uniqueness ones, the forcing chains and
/// nets (trial and error from one assumption: here the search plays that part), Sue de Coq,
/// grouped AICs, the almost locked sets, franken fish and the techniques outside HoDoKu's
/// default configuration (not yet weighed as a gain at every node; the solver's counters are
/// those of the techniques before them) and the guess.
fn solver_techniques() -> Vec<Technique> {
    Technique::ALL
        .iter()
        .copied()
        .filter(|t| {
            !t.assumes_uniqueness()
                && t.in_rating_path()
                && !matches!(
                    t,
                    Technique::ForcingChainContradiction
                        | Technique::ForcingChainVerity
                        | Technique::ForcingNetContradiction
                        | Technique::ForcingNetVerity
                        | Technique::SueDeCoq
                        | Technique::GroupedAic
                        | Technique::AlsXz
                        | Technique::AlsXyWing
                        | Technique::AlsXyChain
                        | Technique::FrankenXWing
                        | Technique::FrankenSwordfish
                        | Technique::FinnedFrankenXWing
                        | Technique::FinnedFrankenSwordfish
                )
        })
        .collect()
}

struct Search<'a, 'b> {
    tally: &'b mut Tally<'a>,
    techniques: Vec<Technique>,
    /// The boards at the branch points above the current node (debug builds check solutions
    /// against them).
    #[cfg(debug_assertions)]
    path: Vec<Board>,
}

impl Search<'_, '_> {
    /// Solves from `board`; true when the search must stop (limit reached or budget spent).
    fn node(&mut self, mut board: Board) -> bool {
        loop {
            if board.contradiction() {
                return false;
            }
            if board.is_solved() {
                #[cfg(debug_assertions)]
                self.check_path(&board);
                return self.tally.solution(|| *board.grid().cells());
            }
            if self.tally.budget.exhausted(self.tally.stats.nodes) {
                self.tally.out_of_budget = true;
                return true;
            }
            match next_step(&board, &self.techniques) {
                Some(step) => {
                    self.tally.stats.propagations += step.placements.len() as u64;
                    step.apply(&mut board);
                }
                None => break,
            }
        }
        let cell = cells(board.empty())
            .min_by_key(|&c| board.count(c))
            .expect("an empty cell");
        let m = board.cands(cell);
        if m.count_ones() >= 2 {
            self.tally.stats.guesses += 1;
        }
        #[cfg(debug_assertions)]
        self.path.push(board.clone());
        for d in super::board::digits(m) {
            if self.tally.enter_node() {
                return true;
            }
            let mut child = board.clone();
            child.place(cell, d);
            if self.node(child) {
                return true;
            }
            self.tally.stats.backtracks += 1;
        }
        #[cfg(debug_assertions)]
        self.path.pop();
        false
    }

    /// Every branch point above a solution kept the solution's digits as candidates.
    #[cfg(debug_assertions)]
    fn check_path(&self, solved: &Board) {
        for b in &self.path {
            for c in 0..81 {
                let v = solved.value(c);
                assert!(
                    b.value(c) == v || (b.value(c) == 0 && b.has(c, v)),
                    "logic: a step removed the digit {v} of {} that a solution has",
                    crate::cell_name(c)
                );
            }
        }
    }
}

impl Logic {
    fn search<'a>(&self, puzzle: &Grid, limit: u64, budget: &'a Budget) -> Tally<'a> {
        let mut tally = Tally::new(limit, budget);
        if tally.out_of_budget || puzzle.first_conflict().is_some() {
            return tally;
        }
        let mut s = Search {
            tally: &mut tally,
            techniques: solver_techniques(),
            #[cfg(debug_assertions)]
            path: Vec::new(),
        };
        s.node(Board::new(puzzle));
        tally
    }
}

impl Solver for Logic {
    fn caps(&self) -> Caps {
        Caps::UP_TO_128
    }

    fn solve(&mut self, puzzle: &crate::Board, budget: &Budget) -> Option<Outcome> {
        Some(self.count(puzzle, 1, budget)?.outcome())
    }

    /// 9x9: every technique ([`Logic::search`]); every other shape: the techniques that
    /// generalise ([`super::shaped`]).
    fn count(&mut self, puzzle: &crate::Board, limit: u64, budget: &Budget) -> Option<Count> {
        Some(match puzzle.to_grid() {
            Some(g) => self.search(&g, limit, budget).count(crate::Shape::CLASSIC),
            None if !self.caps().shapes.takes(puzzle.shape()) => return None,
            None => super::shaped::count(puzzle, limit, budget),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_puzzles::OnGrid;
    use crate::test_puzzles::{SEED, SEED_SOLUTION};
    use crate::Status;

    #[test]
    fn solves_and_counts_the_seed() {
        let p = Grid::parse_line(SEED).unwrap();
        let out = Logic.solve_grid(&p, &Budget::unlimited());
        assert_eq!(out.status, Status::Solved);
        assert_eq!(out.solution.unwrap().to_digits(), SEED_SOLUTION);
        let c = Logic.count_grid(&p, 2, &Budget::unlimited()).unwrap();
        assert_eq!((c.solutions, c.complete), (1, true));
        // the empty grid: many solutions, found by search
        let c = Logic
            .count_grid(&Grid::default(), 3, &Budget::unlimited())
            .unwrap();
        assert_eq!(c.solutions, 3);
        assert!(c.stats.guesses > 0);
    }
}
