//! `hybrid`: a portfolio of the two fastest searches, split at the root. The root node is the
//! propagation of [`bitboard-bands`](bitboard_bands::BitboardBands) (singles and locked
//! candidates on band bitboards, the cheapest there is); a puzzle it solves, or proves
//! unsolvable, ends there. When it leaves at most [`SMALL_TREE_OPEN`] (55) cells open,
//! `bitboard-bands` goes on with its own search from that state; with more, [`Triads`] takes
//! the grid the root left (the givens plus the digits the rules placed: the same solutions) and
//! does the search, branching [wide first](Triads::wide_first) until its first backtrack.
//! Puzzles of 18 to 27 givens skip the root and go to `triads` at once (below); puzzles of
//! [`DENSE_GIVENS`] (32) or more go to the search of `bitmask-singles` (below).
//!
//! Why two: the two searches trade cost per node against nodes per puzzle. `bitboard-bands`
//! keeps one digit's candidates in three 27-bit band words and propagates with scalar word
//! operations: a node is cheap, and puzzles that the root's rules solve cost it least. `triads`
//! (tdoku's design: DPLL over box-row/box-column triads on SIMD lanes) does more inference per
//! node, so hard puzzles need fewer nodes, each dearer. The root tells the two kinds apart at no
//! extra cost: it is the first node either search would spend. This is an algorithm portfolio
//! (Gomes & Selman, "Algorithm portfolios", Artificial Intelligence 126, 2001) whose selector is
//! the root propagation itself.
//!
//! ## Puzzles that skip the root
//! The root pays only when it ends the solve or leaves a small tree: when it hands a grid to
//! `triads`, `triads` starts again from it, and the root's work (some 5,000 instructions) is
//! lost. How
//! often it ends the solve depends on the number of givens. Counted on the public sets and the
//! shipped ones: it solves 74% of the 17-given
//! puzzles (the first 20,000 of `puzzles2_17_clue`) and every puzzle of 30 or more givens of the
//! Kaggle set, but no puzzle of 21 to 26 givens of forum-hardest, 26 of the 1,395 of 18 to 27
//! givens of magictour's top1465, about half of the generated minimal puzzles of 21 to 27 givens
//! (`minimal-1000`), and none of the puzzles made by keeping 18 to 26 random cells of a solved
//! grid (puzzles with many solutions, which singles and locked candidates never finish). When
//! the root does end a solve it saves about 0.5 µs over `triads`; when it does not it costs about
//! 0.7 µs, so it pays where it ends more than about 60% of the solves. Puzzles of
//! [`WIDE_GIVENS`] (18 to 27 givens) therefore go to `triads` at once; the others take the root.
//!
//! ## Small trees after the root
//! The cells the root leaves open tell how big the rest of the search is. On the 17-given
//! puzzles the root leaves open (14,505 of the 49,158 of `puzzles2_17_clue`), `bitboard-bands`
//! going on is 1.3 to 1.5 times as fast as `triads` where 50 cells or fewer are open (a few
//! guesses: its nodes are cheaper), level around 55 (1.15 times as fast to the first solution,
//! 1.05 to 1.08 either way to count two between 51 and 60), and `triads` 1.6 to 1.8 times as
//! fast above 60 (the hard ones, where its inference saves nodes). Measured on one half of the
//! set (`harness bench -s hybrid,bitboard-bands`, the puzzles binned by open cells); the other
//! half, and its isomorphs, confirm it (docs/performance.md).
//!
//! ## Puzzles of many givens
//! With 32 givens or more, 49 cells or fewer are empty and the search is short: the Kaggle
//! set (30 to 37 givens) falls to singles, and puzzles whose givens fill a few boxes and leave
//! whole boxes empty (`harness generate puzzles --pattern corner`: 34 or 35 givens, many
//! solutions) take about four guesses and almost no backtrack, in every one of the three
//! searches. There the fixed cost of a solve is what counts: `bitboard-bands`' root places each
//! given in nine digit words and sweeps the 27 band words until nothing changes, about 1.5 µs,
//! while `bitmask-singles` (naked singles by a scan of the empty cells, then the cell with the
//! fewest candidates) sets up 27 unit masks and scans at most 49 cells. On 5,000 puzzles of
//! each pattern `bitmask-singles` alone was 1.3 to 1.5 times as fast as `hybrid`, and 1.19
//! times on the first 5,000 of the Kaggle set; on `clues30-1000` (30 givens, one solution)
//! `hybrid` was 1.45 times as fast as it. So puzzles of [`DENSE_GIVENS`] or more go to
//! `bitmask-singles`' search (docs/performance.md has the races).
//!
//! Counters: with [`DENSE_GIVENS`] or more givens, those of `bitmask-singles` alone. Where
//! `bitboard-bands` goes on they are its own, the same as `bitboard-bands`
//! alone. Otherwise nodes, guesses and backtracks are `triads`' on the handed-over grid (its
//! root is the same root: 1 node when the root ends the solve); propagations = the digits the
//! root's rules placed + `triads`' own (0 when the root was skipped).

use crate::bitboard_bands::{self, Rooted};
use crate::bitmask_singles;
use crate::engine::Caps;
use crate::search::Tally;
use crate::triads::Triads;
use crate::{Board, Budget, Count, Grid, Outcome, Shape, Solver, Stats, Status};

/// Puzzles with this many givens skip the root and go to [`Triads`] at once: on them the root
/// rarely ends the solve, and when it does not, its work is lost (see the module docs).
pub const WIDE_GIVENS: std::ops::RangeInclusive<usize> = 18..=27;

/// Puzzles with at least this many givens go to `bitmask-singles`' search (naked singles and
/// the cell with the fewest candidates), with no root: with 49 empty cells or fewer its scan is
/// cheaper than the root's band updates over every digit, and its trees stay small (see the
/// module docs).
pub const DENSE_GIVENS: usize = 32;

/// After a root that leaves at most this many cells open, `bitboard-bands` goes on with its own
/// search; with more, `triads` takes the grid (see the module docs).
pub const SMALL_TREE_OPEN: u64 = 55;

/// The `hybrid` solver: the root of `bitboard-bands`, then its search on a small tree, or
/// [`Triads`] on what is left.
#[derive(Debug, Clone, Copy)]
pub struct Hybrid {
    second: Triads,
}

impl Default for Hybrid {
    fn default() -> Hybrid {
        Hybrid::new()
    }
}

impl Hybrid {
    /// The portfolio with `triads` on its fastest SIMD path (as [`Triads::new`] picks it),
    /// branching [wide first](Triads::wide_first).
    pub fn new() -> Hybrid {
        Hybrid {
            second: Triads::new().wide_first(),
        }
    }

    /// The root and, after a root that leaves a small tree, `bitboard-bands`' search; else the
    /// grid to hand to `triads` and the digits the root placed (none when it was skipped).
    fn start<'a>(puzzle: &Grid, limit: u64, budget: &'a Budget) -> Rooted<'a> {
        if WIDE_GIVENS.contains(&puzzle.givens()) {
            return Rooted::Open(*puzzle, 0);
        }
        bitboard_bands::root_then_search(puzzle, limit, budget, SMALL_TREE_OPEN)
    }

    /// The search of `puzzle` up to `limit` solutions: [`Hybrid::start`], then `triads` on what
    /// the root left open (the digits the root placed counted as its propagations).
    fn tally<'a>(&self, puzzle: &Grid, limit: u64, budget: &'a Budget) -> Tally<'a> {
        if puzzle.givens() >= DENSE_GIVENS {
            return bitmask_singles::run(puzzle, limit, budget);
        }
        match Self::start(puzzle, limit, budget) {
            Rooted::Ended(tally) => tally,
            Rooted::Open(g, placed) => {
                let mut tally = self.second.run(&g, limit, budget);
                tally.stats.propagations += placed;
                tally
            }
        }
    }
}

impl Solver for Hybrid {
    fn caps(&self) -> Caps {
        Caps::POLLED_SEARCH
    }

    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Option<Outcome> {
        let grid = puzzle.to_grid()?;
        if budget.exhausted(0) {
            return Some(Outcome::unsolved(Status::Timeout, Stats::default()));
        }
        Some(self.tally(&grid, 1, budget).outcome(Shape::CLASSIC))
    }

    fn count(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Option<Count> {
        let grid = puzzle.to_grid()?;
        if limit == 0 || budget.exhausted(0) {
            return Some(self.second.run(&grid, limit, budget).count(Shape::CLASSIC));
        }
        Some(self.tally(&grid, limit, budget).count(Shape::CLASSIC))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard_bands::{BitboardBands, Root};
    use crate::test_puzzles::OnGrid;
    use crate::test_puzzles::{SEED, SEED_SOLUTION};

    /// A 17-given puzzle of the `puzzles2_17_clue` collection whose root leaves 56 cells open,
    /// and its solution (`harness solve`; `harness count` finds one).
    const OPEN17: &str =
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
    const OPEN17_SOLUTION: &str =
        "953168742862734951417952836746893125281645397395271468138529674574386219629417583";
    /// A 17-given puzzle of `puzzles2_17_clue` whose root leaves 42 cells open, and its solution
    /// (`harness solve --solver dlx`).
    const SMALL17: &str =
        ".................1....23.4......4.2...5........67..1...4........8.1..9..32....8..";
    const SMALL17_SOLUTION: &str =
        "962471358734865291158923647873614529215389476496752183649238715587146932321597864";
    /// Arto Inkala's "hardest" puzzle (one solution, 21 givens: it skips the root).
    const HARD: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    const HARD_SOLUTION: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
    /// Exactly two solutions: [`HARD_SOLUTION`] with the deadly rectangle r1c3 r1c6 r2c3 r2c6
    /// (digits 2 and 3, two boxes) emptied; `dlx` and `bitmask-singles` count 2.
    const TWO: &str =
        "81.75.64994.68.175675491283154237896369845721287169534521974368438526917796318452";
    /// The first puzzle of the Kaggle set (singles solve it) and its solution, checked below.
    const EASY: &str =
        "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..";

    fn grid(s: &str) -> Grid {
        Grid::parse_line(s).unwrap()
    }

    #[test]
    fn an_easy_puzzle_ends_at_the_root() {
        let (root, placed) = bitboard_bands::root(&grid(EASY));
        let theirs = BitboardBands.solve_grid(&grid(EASY), &Budget::unlimited());
        assert_eq!(root, Root::Solved(theirs.solution.unwrap()));
        let givens = grid(EASY).cells().iter().filter(|&&v| v != 0).count() as u64;
        assert_eq!(placed, 81 - givens);
        let ours = Hybrid::new().solve_grid(&grid(EASY), &Budget::unlimited());
        assert_eq!(ours.solution, theirs.solution);
        assert_eq!((ours.stats.nodes, ours.stats.guesses), (1, 0));
        let seed = Hybrid::new().solve_grid(&grid(SEED), &Budget::unlimited());
        assert_eq!(seed.solution, Some(grid(SEED_SOLUTION)));
    }

    /// Open cells of a grid.
    fn open(g: &Grid) -> u64 {
        g.cells().iter().filter(|&&v| v == 0).count() as u64
    }

    #[test]
    fn a_small_tree_after_the_root_is_searched_by_bitboard_bands() {
        let unlimited = Budget::unlimited();
        let g = grid(SMALL17);
        let Root::Open(left) = bitboard_bands::root(&g).0 else {
            panic!("the root solved {SMALL17}");
        };
        assert_eq!(open(&left), 42);
        assert!(open(&left) <= SMALL_TREE_OPEN);
        let sol = grid(SMALL17_SOLUTION);
        // The same search as `bitboard-bands` alone: the same counters.
        let ours = Hybrid::new().count_grid(&g, 2, &unlimited).unwrap();
        let theirs = BitboardBands.count_grid(&g, 2, &unlimited).unwrap();
        assert_eq!((ours.solutions, ours.complete), (1, true));
        assert_eq!(ours.first, Some(sol));
        assert_eq!(ours.stats, theirs.stats);
        assert!(ours.stats.guesses > 0);
        let solved = Hybrid::new().solve_grid(&g, &unlimited);
        assert_eq!(solved.solution, Some(sol));
        assert_eq!(solved.stats, BitboardBands.solve_grid(&g, &unlimited).stats);
    }

    #[test]
    fn a_puzzle_the_root_leaves_open_goes_to_triads_on_the_grid_the_root_left() {
        let unlimited = Budget::unlimited();
        let g = grid(OPEN17);
        assert!(!WIDE_GIVENS.contains(&17));
        let (root, placed) = bitboard_bands::root(&g);
        let Root::Open(left) = root else {
            panic!("the root solved {OPEN17}");
        };
        assert_eq!(open(&left), 56);
        assert!(open(&left) > SMALL_TREE_OPEN);
        // The givens are kept, and every placed digit is the solution's.
        let sol = grid(OPEN17_SOLUTION);
        for c in 0..81 {
            let (p, l) = (g.cells()[c], left.cells()[c]);
            assert!(
                p == 0 || p == l,
                "given r{}c{} changed",
                c / 9 + 1,
                c % 9 + 1
            );
            assert!(
                l == 0 || l == sol.cells()[c],
                "r{}c{} wrong",
                c / 9 + 1,
                c % 9 + 1
            );
        }
        let filled = |x: &Grid| x.cells().iter().filter(|&&v| v != 0).count() as u64;
        assert_eq!(filled(&left), filled(&g) + placed);
        let second = Triads::new()
            .wide_first()
            .count_grid(&left, 2, &unlimited)
            .unwrap();
        let ours = Hybrid::new().count_grid(&g, 2, &unlimited).unwrap();
        assert_eq!((ours.solutions, ours.complete), (1, true));
        assert_eq!(ours.first, Some(sol));
        let mut expected = second.stats;
        expected.propagations += placed;
        assert_eq!(ours.stats, expected);
        let solved = Hybrid::new().solve_grid(&g, &unlimited);
        assert_eq!(solved.solution, Some(sol));
    }

    #[test]
    fn a_puzzle_of_wide_givens_goes_to_triads_as_it_is() {
        let unlimited = Budget::unlimited();
        let g = grid(HARD);
        let givens = g.cells().iter().filter(|&&v| v != 0).count();
        assert!(WIDE_GIVENS.contains(&givens));
        let sol = grid(HARD_SOLUTION);
        let theirs = Triads::new()
            .wide_first()
            .count_grid(&g, 2, &unlimited)
            .unwrap();
        let ours = Hybrid::new().count_grid(&g, 2, &unlimited).unwrap();
        assert_eq!((ours.solutions, ours.complete), (1, true));
        assert_eq!(ours.first, Some(sol));
        assert_eq!(ours.stats, theirs.stats);
        let solved = Hybrid::new().solve_grid(&g, &unlimited);
        assert_eq!(solved.solution, Some(sol));
        assert_eq!(
            solved.stats,
            Triads::new().wide_first().solve_grid(&g, &unlimited).stats
        );
    }

    #[test]
    fn a_puzzle_of_many_givens_goes_to_bitmask_singles() {
        use crate::bitmask_singles::BitmaskSingles;
        let unlimited = Budget::unlimited();
        // The first puzzle of `generate puzzles --pattern corner --seed 46` (35 givens, many
        // solutions).
        let g = grid(
            "..6......3.2......5.8..........165.9..5.823.4...753618...5.9467...364.822..17.93.",
        );
        assert!(g.givens() >= DENSE_GIVENS);
        let ours = Hybrid::new().count_grid(&g, 2, &unlimited).unwrap();
        let theirs = BitmaskSingles.count_grid(&g, 2, &unlimited).unwrap();
        assert_eq!((ours.solutions, ours.complete), (2, true));
        assert_eq!(ours.stats, theirs.stats);
        assert_eq!(ours.first, theirs.first);
        let solved = Hybrid::new().solve_grid(&g, &unlimited);
        assert_eq!(
            solved.stats,
            BitmaskSingles.solve_grid(&g, &unlimited).stats
        );
        let sol = solved.solution.unwrap();
        assert!((0..81).all(|c| g.cells()[c] == 0 || g.cells()[c] == sol.cells()[c]));
        let c = sol.cells();
        for u in 0..9 {
            let row = (0..9).fold(0u16, |m, k| m | 1 << c[u * 9 + k]);
            let col = (0..9).fold(0u16, |m, k| m | 1 << c[k * 9 + u]);
            let bx = (0..9).fold(0u16, |m, k| {
                m | 1 << c[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3]
            });
            assert_eq!((row, col, bx), (0x3fe, 0x3fe, 0x3fe), "unit {u}");
        }
    }

    #[test]
    fn counts_are_exact_for_none_one_and_several() {
        let unlimited = Budget::unlimited();
        let mut h = Hybrid::new();
        assert_eq!(
            h.count_grid(&grid(TWO), 3, &unlimited).unwrap().solutions,
            2
        );
        assert_eq!(
            h.count_grid(&grid(HARD), 3, &unlimited).unwrap().solutions,
            1
        );
        assert_eq!(
            h.count_grid(&grid(EASY), 3, &unlimited).unwrap().solutions,
            1
        );
        let c = h.count_grid(&Grid::EMPTY, 40, &unlimited).unwrap();
        assert_eq!((c.solutions, c.complete), (40, true));
        let mut clash = *grid(SEED).cells();
        clash[1] = 7; // row 1 already holds a 7 in r1c1
        let clash = Grid::from_cells(clash).unwrap();
        assert_eq!(bitboard_bands::root(&clash).0, Root::NoSolution);
        assert_eq!(h.solve_grid(&clash, &unlimited).status, Status::NoSolution);
        let none = h.count_grid(&clash, 2, &unlimited).unwrap();
        assert_eq!((none.solutions, none.complete), (0, true));
    }

    #[test]
    fn budgets_are_kept() {
        let g = grid(HARD);
        let out = Hybrid::new().solve_grid(&g, &Budget::unlimited().max_nodes(Some(1)));
        assert_eq!(out.status, Status::Timeout);
        let c = Hybrid::new().count_grid(&g, 2, &Budget::unlimited().max_nodes(Some(1)));
        assert!(!c.unwrap().complete);
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let cancelled = Budget::unlimited().cancel_flag(flag);
        assert_eq!(
            Hybrid::new().solve_grid(&grid(EASY), &cancelled).status,
            Status::Timeout
        );
    }
}
