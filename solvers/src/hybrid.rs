//! `hybrid`: an algorithm portfolio of the two fastest searches. Each puzzle is first given to
//! [`BitboardBands`] with a small node budget ([`HANDOFF_NODES`]); a puzzle it has not finished
//! by then is solved again from the start by [`Triads`].
//!
//! Why two: the two searches trade cost per node against nodes per puzzle. `bitboard-bands`
//! keeps one digit's candidates in three 27-bit band words and propagates singles and locked
//! candidates with scalar word operations: a node is cheap, and puzzles that singles (almost)
//! solve cost it least. `triads` (tdoku's design: DPLL over box-row/box-column triads on SIMD
//! lanes) does more inference per node, so hard puzzles need fewer nodes, each dearer. Which one
//! is faster depends on the puzzle's hardness, which is not known before the search (nor cheaply
//! from the givens); the node budget learns it. This is the classic portfolio with a restart
//! (Gomes & Selman, "Algorithm portfolios", Artificial Intelligence 126, 2001), with the cheaper
//! solver run first.
//!
//! Cost: on a puzzle the first search finishes, that search's cost plus one budget set-up; on
//! the others, the first search's [`HANDOFF_NODES`] nodes are spent for nothing (a few per cent
//! of a hard puzzle's time) before `triads` starts. Counting is exact either way: the second
//! search counts from the start.
//!
//! Counters: the two searches' [`Stats`](crate::Stats) added up. `nodes` and `guesses` then
//! count every search-tree node either search entered; a node limit of the caller's budget
//! covers both together.

use crate::bitboard_bands::BitboardBands;
use crate::triads::Triads;
use crate::{Budget, Count, Grid, Outcome, Solver, Status};

/// Nodes (root included) the first search may enter before the puzzle goes to `triads`.
///
/// Chosen by cost, not by data set: `triads` spends about as much on one hard puzzle as
/// `bitboard-bands` spends on this many nodes' worth of guessing (both measured in instructions
/// with callgrind); puzzles of singles and a few guesses stay under it in any orientation.
pub const HANDOFF_NODES: u64 = 16;

/// The `hybrid` solver: [`BitboardBands`] up to [`HANDOFF_NODES`] nodes, then [`Triads`].
#[derive(Debug, Clone, Copy)]
pub struct Hybrid {
    second: Triads,
    handoff: u64,
}

impl Default for Hybrid {
    fn default() -> Hybrid {
        Hybrid::new()
    }
}

impl Hybrid {
    /// The portfolio with `triads` on its fastest SIMD path (as [`Triads::new`] picks it) and
    /// the hand-off at [`HANDOFF_NODES`].
    pub fn new() -> Hybrid {
        Hybrid::with_handoff(HANDOFF_NODES)
    }

    /// The portfolio with the hand-off after `nodes` nodes of the first search (0: `triads`
    /// alone after a root propagation; `u64::MAX`: `bitboard-bands` alone). For experiments
    /// such as `examples/handoff.rs`.
    pub fn with_handoff(nodes: u64) -> Hybrid {
        Hybrid {
            second: Triads::new(),
            handoff: nodes,
        }
    }

    /// The first search's budget: the caller's, with the node limit lowered to the hand-off.
    fn first_budget(&self, budget: &Budget) -> Budget {
        let max = budget
            .node_limit()
            .map_or(self.handoff, |m| m.min(self.handoff));
        budget.clone().max_nodes(Some(max))
    }

    /// The second search's budget: the caller's, less the nodes the first one entered.
    fn second_budget(budget: &Budget, spent: u64) -> Budget {
        match budget.node_limit() {
            Some(m) => budget.clone().max_nodes(Some(m.saturating_sub(spent))),
            None => budget.clone(),
        }
    }

    /// True when the first search stopped at the hand-off, not at the caller's own limits.
    fn handed_off(&self, budget: &Budget, nodes: u64) -> bool {
        nodes > self.handoff && !budget.exhausted(nodes)
    }
}

impl Solver for Hybrid {
    fn name(&self) -> &'static str {
        "hybrid"
    }

    fn solve(&self, puzzle: &Grid, budget: &Budget) -> Outcome {
        let first = BitboardBands.solve(puzzle, &self.first_budget(budget));
        if first.status != Status::Timeout || !self.handed_off(budget, first.stats.nodes) {
            return first;
        }
        let mut second = self
            .second
            .solve(puzzle, &Self::second_budget(budget, first.stats.nodes));
        second.stats.add(&first.stats);
        second
    }

    fn count(&self, puzzle: &Grid, limit: u64, budget: &Budget) -> Option<Count> {
        let first = BitboardBands.count(puzzle, limit, &self.first_budget(budget))?;
        if first.complete || !self.handed_off(budget, first.stats.nodes) {
            return Some(first);
        }
        let mut second = self.second.count(
            puzzle,
            limit,
            &Self::second_budget(budget, first.stats.nodes),
        )?;
        second.stats.add(&first.stats);
        Some(second)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_puzzles::{SEED, SEED_SOLUTION};
    use crate::Stats;

    /// Arto Inkala's "hardest" puzzle (one solution): `bitboard-bands` needs more than
    /// [`HANDOFF_NODES`] nodes on it, so it exercises the hand-off.
    const HARD: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    const HARD_SOLUTION: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
    /// Exactly two solutions: [`HARD_SOLUTION`] with the deadly rectangle r1c3 r1c6 r2c3 r2c6
    /// (digits 2 and 3, two boxes) emptied; `dlx` and `bitmask-singles` count 2.
    const TWO: &str =
        "81.75.64994.68.175675491283154237896369845721287169534521974368438526917796318452";

    fn grid(s: &str) -> Grid {
        Grid::parse_line(s).unwrap()
    }

    #[test]
    fn an_easy_puzzle_is_bitboard_bands_alone() {
        let unlimited = Budget::unlimited();
        let ours = Hybrid::new().solve(&grid(SEED), &unlimited);
        let theirs = BitboardBands.solve(&grid(SEED), &unlimited);
        assert_eq!(ours.solution, Some(grid(SEED_SOLUTION)));
        assert_eq!(ours, theirs);
    }

    #[test]
    fn a_hard_puzzle_is_handed_to_triads_with_both_counters_added() {
        let unlimited = Budget::unlimited();
        let g = grid(HARD);
        let alone = BitboardBands.count(&g, 2, &unlimited).unwrap();
        assert!(alone.stats.nodes > HANDOFF_NODES, "{:?}", alone.stats);
        let first = BitboardBands
            .count(&g, 2, &unlimited.clone().max_nodes(Some(HANDOFF_NODES)))
            .unwrap();
        assert!(!first.complete);
        assert_eq!(first.stats.nodes, HANDOFF_NODES + 1);
        let second = Triads::new().count(&g, 2, &unlimited).unwrap();
        let ours = Hybrid::new().count(&g, 2, &unlimited).unwrap();
        assert_eq!(ours.solutions, 1);
        assert!(ours.complete);
        assert_eq!(ours.first, Some(grid(HARD_SOLUTION)));
        let mut sum = Stats::default();
        sum.add(&first.stats);
        sum.add(&second.stats);
        assert_eq!(ours.stats, sum);
        let solved = Hybrid::new().solve(&g, &unlimited);
        assert_eq!(solved.status, Status::Solved);
        assert_eq!(solved.solution, Some(grid(HARD_SOLUTION)));
    }

    #[test]
    fn counts_are_exact_for_none_one_and_several() {
        let unlimited = Budget::unlimited();
        let h = Hybrid::new();
        assert_eq!(h.count(&grid(TWO), 3, &unlimited).unwrap().solutions, 2);
        assert_eq!(h.count(&grid(HARD), 3, &unlimited).unwrap().solutions, 1);
        let c = h.count(&Grid::EMPTY, 40, &unlimited).unwrap();
        assert_eq!((c.solutions, c.complete), (40, true));
        let mut clash = *grid(SEED).cells();
        clash[1] = 7; // row 1 already holds a 7 in r1c1
        let clash = Grid::from_cells(clash).unwrap();
        assert_eq!(h.solve(&clash, &unlimited).status, Status::NoSolution);
        assert_eq!(h.count(&clash, 2, &unlimited).unwrap().solutions, 0);
    }

    #[test]
    fn a_node_limit_covers_both_searches() {
        let g = grid(HARD);
        // Below the hand-off: the first search alone hits the caller's limit.
        let out = Hybrid::new().solve(&g, &Budget::unlimited().max_nodes(Some(5)));
        assert_eq!(out.status, Status::Timeout);
        assert_eq!(out.stats.nodes, 6);
        // Above it: the second search gets what is left of the limit, no more.
        let limit = HANDOFF_NODES + 3;
        let out = Hybrid::new().count(&g, 2, &Budget::unlimited().max_nodes(Some(limit)));
        let out = out.unwrap();
        assert!(!out.complete);
        assert!(out.stats.nodes <= limit + 2, "{:?}", out.stats);
        let full = Hybrid::new().solve(&g, &Budget::unlimited());
        assert!(full.stats.nodes > limit + 2, "{:?}", full.stats);
    }
}
