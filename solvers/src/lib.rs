//! # solvers: the Sudoku algorithms that sudoku-harness compares
//!
//! Every algorithm sits behind one trait, [`Solver`]: a [`Board`] of any [`Shape`] in, an
//! [`Outcome`] (or a [`Count`]) with a board out. The crate root holds only these base types;
//! the [`registry`] module, above the solvers, lists them ([`SolverKind::ALL`]: the CLI's
//! choices, the reports' series and the tests' loop), builds them and says which one counts a
//! shape. One file per solver:
//!
//! | name | file | algorithm |
//! |---|---|---|
//! | `backtracking` | [`backtracking`] | textbook backtracking: first empty cell, digits 1..9, each checked by scanning its row, column and box |
//! | `bitmask-dfs` | [`bitmask_dfs`] | depth-first search with used-digit bitmasks per row, column and box; empty cells in row-major order |
//! | `bitmask-singles` | [`bitmask_singles`] | bitmask DFS with naked singles to a fixpoint and MRV branching (fewest candidates) |
//! | `domain-reduction` | [`domain_reduction`] | candidate domains; naked and hidden singles to a fixpoint; MRV branching; traceable |
//! | `dlx` | [`dlx`] | Knuth's Algorithm X with dancing links over the 729 x 324 exact-cover matrix |
//! | `sat` | [`sat`] | the extended CNF encoding (729 variables, 11,988 clauses + givens) solved by `varisat` |
//! | `bitboard-bands` | [`bitboard_bands`] | band-oriented bitboards (JCZSolve family), bit-parallel singles, locked candidates, bi-value branching |
//! | `triads` | [`triads`] | DPLL over box-row/box-column triads on SIMD lanes (tdoku's design), AVX2/SSSE3/SSE2 chosen at run time, portable fallback |
//! | `hybrid` | [`hybrid`] | the champion ([`SolverKind::CHAMPION`]): `bitboard-bands`' root propagation, then `triads` on what is left |
//! | `large` | [`large`] | for grids of order 4 to 10: cell domains and unit-symbol place sets, naked/hidden singles and locked candidates to a fixpoint, dual-MRV binary branching |
//! | `cdcl` | [`cdcl`] | for grids of order 4 to 10: conflict-driven clause learning over the exactly-one groups of cells and units (native naked and hidden singles), VSIDS, Luby restarts |
//! | `cp` | [`cp`] | for grids of every order: domain-consistent all-different per unit (Régin's matching and components), dom/wdeg branching with seeded random ties, Luby restarts |
//! | `lcg` | [`lcg`] | `cdcl`'s engine plus all-different per unit filtered as `cp` does, its prunings explained by Hall sets read off the matching (lazy clause generation) |
//! | `logic` | [`logic`] | human techniques (singles to fish, wings, colouring and chains), easiest first; MRV guesses only when none applies; also the rater |
//!
//! Shapes: eleven solvers take grids of other shapes than 9x9 (Sudoku of any box shape and Latin
//! squares). Six take every [`Shape`] ([`engine::Shapes::Any`], side up to [`MAX_SIDE`]):
//! `backtracking`, `bitmask-dfs`, `bitmask-singles`, `domain-reduction`, `large` and `sat`; five
//! take sides up to 128 ([`engine::Shapes::UpTo`], one `u128` word per set): `dlx`, `logic`,
//! `cdcl`, `cp` and `lcg`. `bitboard-bands`, `triads` and `hybrid` take the classic 9x9 only
//! (their `solve` returns `None` on another shape). A solver with code written for 9x9 chooses
//! it inside itself, by the board's shape. `backtracking` and `bitmask-dfs` are one search at
//! every shape, over candidate masks as wide as the side needs (`u16` for 9x9, then `u32`,
//! `u64`, `u128`, then several 64-bit words up to 400x400);
//! `bitmask-singles` and `domain-reduction` keep a tuned 9x9 search beside their generic one,
//! with the same counters (their tests compare the two).
//!
//! The harness runs every solver, built-in or external, as an [`engine::Engine`] through one
//! [`engine::Session`] per thread ([`SolverKind::session`], [`registry::BuiltinEngine`] for a
//! built-in one); what it can do is
//! declared in [`engine::Caps`] (each built-in solver's file declares its own, [`Solver::caps`]),
//! never probed.
//!
//! ## Effort counters
//! Every solver fills the same [`Stats`], counted the same way:
//! - **nodes**: search-tree nodes entered. The root (the puzzle as given, after any initial
//!   propagation) is one node, and every tentative placement of a digit by the search (a branch
//!   taken) enters one more node, including the placement that completes the grid. For a plain
//!   recursive DFS this equals the number of calls of the recursive search function.
//! - **guesses**: branch points with two or more choices (a node whose chosen cell, or column,
//!   had at least two candidates). A node with one choice is a forced move, not a guess.
//! - **backtracks**: placements undone because the subtree under them held no (further)
//!   solution: every branch taken that did not end the search.
//! - **updates**: solver-specific low-level work, only where the algorithm's own literature
//!   counts it: `dlx` reports Knuth's link updates; 0 for every other solver.
//! - **propagations**: digits placed by an inference rule (naked or hidden single, unit
//!   propagation) rather than by a branch. Zero for solvers without rules.
//!
//! ## Budgets and outcomes
//! A solve never runs away: it takes a [`Budget`] and checks it every
//! [`Budget::CHECK_INTERVAL`] nodes, returning [`Status::Timeout`] when it is exhausted. A puzzle
//! with no solution gives [`Status::NoSolution`], a value and not an error.
//!
//! Solvers assume the givens are consistent (no digit twice in a unit); check with
//! [`Board::first_conflict`] first. Given a puzzle with such a repeat they still return, with
//! [`Status::NoSolution`] or a grid the caller's checker will reject, and never panic.

#![deny(missing_docs)]

mod alldiff;
pub mod backtracking;
pub mod bitboard_bands;
pub mod bitmask_dfs;
pub mod bitmask_singles;
mod board;
mod budget;
pub mod cdcl;
pub mod cp;
pub mod dlx;
pub mod domain_reduction;
pub mod engine;
mod grid;
pub mod hybrid;
pub mod known_puzzles;
pub mod large;
pub mod lcg;
pub mod logic;
mod names;
pub mod registry;
pub mod sat;
mod search;
mod shape;
pub mod triads;

pub use board::{cell_name as board_cell_name, Board, BoardConflict, BoardError, Symbol};
pub use budget::Budget;
pub use grid::{cell_name, Conflict, Grid, GridParseError, Unit, CELLS, PERMUTATIONS3};
pub use registry::{SolverKind, UnknownSolver};
pub use shape::{Shape, ShapeError, Units, MAX_SIDE};

use std::fmt;

/// How a solve ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// A solution was found (the first one, in the solver's search order).
    Solved,
    /// The search finished without finding a solution: the puzzle has none.
    NoSolution,
    /// The [`Budget`] ran out (deadline, node limit or cancel flag) before the search finished.
    Timeout,
}

impl Status {
    /// The stable lower-case name used in CSV files: `solved`, `no_solution`, `timeout`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::NoSolution => "no_solution",
            Status::Timeout => "timeout",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Effort counters, defined once in the [crate docs](crate#effort-counters) and counted the
/// same way by every solver.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Search-tree nodes entered (root plus one per branch taken).
    pub nodes: u64,
    /// Branch points with two or more choices.
    pub guesses: u64,
    /// Branches undone because their subtree held no (further) solution.
    pub backtracks: u64,
    /// Digits placed by an inference rule rather than by a branch.
    pub propagations: u64,
    /// Solver-specific low-level work, for solvers whose own literature counts it: `dlx` reports
    /// Knuth's link updates (nodes removed from a column list by `cover`). 0 for the others.
    pub updates: u64,
}

impl Stats {
    /// Adds another solve's counters to these.
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.guesses += other.guesses;
        self.backtracks += other.backtracks;
        self.propagations += other.propagations;
        self.updates += other.updates;
    }
}

/// What one solve returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// How the search ended.
    pub status: Status,
    /// The solution when `status` is [`Status::Solved`], else `None`.
    pub solution: Option<Board>,
    /// The effort spent, whatever the status.
    pub stats: Stats,
}

impl Outcome {
    /// A solved outcome.
    pub fn solved(solution: Board, stats: Stats) -> Outcome {
        Outcome {
            status: Status::Solved,
            solution: Some(solution),
            stats,
        }
    }

    /// An outcome without a solution (`status` must not be `Solved`).
    pub fn unsolved(status: Status, stats: Stats) -> Outcome {
        debug_assert!(status != Status::Solved);
        Outcome {
            status,
            solution: None,
            stats,
        }
    }

    /// The outcome of a search that ended with its first solution or none: solved, else
    /// `Timeout` if the budget stopped it, else `NoSolution`.
    pub fn of(first: Option<Board>, out_of_budget: bool, stats: Stats) -> Outcome {
        match first {
            Some(b) => Outcome::solved(b, stats),
            None if out_of_budget => Outcome::unsolved(Status::Timeout, stats),
            None => Outcome::unsolved(Status::NoSolution, stats),
        }
    }

    /// The solution as a 9x9 [`Grid`], when there is one of the classic shape.
    pub fn grid(&self) -> Option<Grid> {
        self.solution.as_ref()?.to_grid()
    }
}

/// Puzzles the solvers' unit tests share.
#[cfg(test)]
pub(crate) mod test_puzzles {
    pub(crate) use crate::known_puzzles::{SEED, SEED_SOLUTION};

    use crate::{Board, Budget, Grid, Solver, Stats, Status};

    /// A grid without a solution that no two givens show: r1c1..r1c8 = 1..8 and r2c9 = 9
    /// leave r1c9 no candidate.
    pub(crate) fn dead_cell() -> Grid {
        let mut g = Grid::EMPTY;
        for c in 0..8 {
            g.set(c, c as u8 + 1);
        }
        g.set(17, 9);
        g
    }

    /// An [`crate::Outcome`] whose solution is read back as a 9x9 [`Grid`].
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub(crate) struct GridOutcome {
        pub(crate) status: Status,
        pub(crate) solution: Option<Grid>,
        pub(crate) stats: Stats,
    }

    /// A [`crate::Count`] whose first solution is read back as a 9x9 [`Grid`].
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub(crate) struct GridCount {
        pub(crate) solutions: u64,
        pub(crate) complete: bool,
        pub(crate) first: Option<Grid>,
        pub(crate) stats: Stats,
    }

    /// The tests' shorthand for solving 9x9 grids through [`Solver`].
    pub(crate) trait OnGrid {
        /// [`Solver::solve`] on the grid's board.
        fn solve_grid(&mut self, puzzle: &Grid, budget: &Budget) -> GridOutcome;
        /// [`Solver::count`] on the grid's board.
        fn count_grid(&mut self, puzzle: &Grid, limit: u64, budget: &Budget) -> Option<GridCount>;
    }

    impl<S: Solver + ?Sized> OnGrid for S {
        fn solve_grid(&mut self, puzzle: &Grid, budget: &Budget) -> GridOutcome {
            let o = self.solve(&Board::from(puzzle), budget).expect("takes 9x9");
            GridOutcome {
                status: o.status,
                solution: o.grid(),
                stats: o.stats,
            }
        }

        fn count_grid(&mut self, puzzle: &Grid, limit: u64, budget: &Budget) -> Option<GridCount> {
            let c = self.count(&Board::from(puzzle), limit, budget)?;
            Some(GridCount {
                solutions: c.solutions,
                complete: c.complete,
                first: c.first.and_then(|b| b.to_grid()),
                stats: c.stats,
            })
        }
    }
}

/// The result of counting solutions up to a limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    /// Solutions found, at most the limit asked for.
    pub solutions: u64,
    /// True when the search ended on its own or reached the limit; false when the budget ran
    /// out first, in which case `solutions` is only a lower bound.
    pub complete: bool,
    /// The first solution found, if any.
    pub first: Option<Board>,
    /// Effort spent.
    pub stats: Stats,
}

impl Count {
    /// The same search read as a solve: its first solution, else `Timeout` when the budget
    /// stopped it, else `NoSolution`.
    pub fn outcome(self) -> Outcome {
        Outcome::of(self.first, !self.complete, self.stats)
    }
}

/// A Sudoku solver: one algorithm, one instance per thread. An instance may keep scratch space
/// from one solve to the next (`dlx` its matrix, `sat` its clause database), which is why the
/// methods take `&mut self`; the harness reaches solvers through [`engine::Session`]s, each
/// owning one instance ([`registry::BuiltinEngine`]).
///
/// A puzzle is a [`Board`] of any [`Shape`]; the shapes a solver takes are declared in its
/// [`engine::Caps::shapes`], and a solver whose fastest code is for 9x9 chooses it inside
/// itself, by the board's shape.
pub trait Solver: Send {
    /// What this solver can do, declared by its own file (never found by running it).
    fn caps(&self) -> engine::Caps;

    /// Solves `puzzle`, returning the first solution found in this solver's search order,
    /// [`Status::NoSolution`] if the search space holds none, or [`Status::Timeout`] once
    /// `budget` is exhausted; `None` for a shape this solver does not take. Never panics.
    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Option<Outcome>;

    /// Counts solutions of `puzzle` up to `limit` (stopping at the limit); `None` if this
    /// solver does not count ([`engine::Caps::counts`] is false) or does not take the shape.
    /// Counting up to 2 proves a puzzle has exactly one solution.
    fn count(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Option<Count> {
        let _ = (puzzle, limit, budget);
        None
    }
}

/// Bit helpers shared by the bitmask solvers: digit `d` (1..=9) is bit `d - 1`.
pub(crate) mod bits {
    /// All nine digits.
    pub const ALL: u16 = 0x1ff;

    /// Box index (0..9) of each cell.
    pub const BOX_OF: [usize; 81] = {
        let mut t = [0usize; 81];
        let mut i = 0;
        while i < 81 {
            t[i] = (i / 27) * 3 + (i % 9) / 3;
            i += 1;
        }
        t
    };

    /// Number of digits of each nine-bit mask (a table: the default target has no `popcnt`).
    pub const POPCOUNT: [u8; 512] = {
        let mut t = [0u8; 512];
        let mut i = 0;
        while i < 512 {
            t[i] = (i as u16).count_ones() as u8;
            i += 1;
        }
        t
    };

    /// The set of `cells` (0..81 each), bit `cell` for each.
    pub const fn cell_set<const N: usize>(cells: [u8; N]) -> u128 {
        let mut m = 0u128;
        let mut k = 0;
        while k < N {
            m |= 1u128 << cells[k];
            k += 1;
        }
        m
    }
}
