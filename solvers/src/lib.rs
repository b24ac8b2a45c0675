//! # solvers: the Sudoku algorithms that sudoku-harness compares
//!
//! Every algorithm sits behind one trait, [`Solver`], and is listed once in the registry enum
//! [`SolverKind`] (its [`SolverKind::ALL`] is the CLI's choices, the reports' series and the
//! tests' loop). One file per solver:
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
//! Shapes: `backtracking`, `bitmask-dfs`, `bitmask-singles` and `domain-reduction` take grids of
//! every [`Shape`] ([`engine::Shapes::Any`]: Sudoku of any box shape and Latin squares, side up to
//! [`MAX_SIDE`]) through [`Solver::solve_board`]; a 9x9 board takes their 9x9 fast path, any other
//! shape the same algorithm written over the shape's units with candidate masks of 32, 64 or 128
//! bits chosen by the side, with the same counters. The other solvers take the classic 9x9 only.
//!
//! The harness runs every solver, built-in or external, as an [`engine::Engine`] through one
//! [`engine::Session`] per thread ([`SolverKind::session`] for a built-in one); what it can do is
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
//! [`Grid::first_conflict`] first. Given a puzzle with such a repeat they still return, with
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
pub mod large;
pub mod lcg;
pub mod logic;
pub mod sat;
mod shape;
mod shaped;
pub mod triads;

pub use board::{cell_name as board_cell_name, Board, BoardConflict, BoardError};
pub use budget::Budget;
pub use grid::{cell_name, Conflict, Grid, GridParseError, Unit, CELLS};
pub use shape::{Shape, ShapeError, Units, MAX_SIDE};

use std::fmt;
use std::str::FromStr;

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

/// What one solve returns: for a 9x9 [`Grid`] by default, `Outcome<Board>` for a [`Board`] of
/// any shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome<G = Grid> {
    /// How the search ended.
    pub status: Status,
    /// The solution when `status` is [`Status::Solved`], else `None`.
    pub solution: Option<G>,
    /// The effort spent, whatever the status.
    pub stats: Stats,
}

impl<G> Outcome<G> {
    /// The same outcome with its solution converted (a [`Grid`]'s into a [`Board`]).
    pub fn map<H>(self, f: impl FnOnce(G) -> H) -> Outcome<H> {
        Outcome {
            status: self.status,
            solution: self.solution.map(f),
            stats: self.stats,
        }
    }

    /// A solved outcome.
    pub fn solved(solution: G, stats: Stats) -> Outcome<G> {
        Outcome {
            status: Status::Solved,
            solution: Some(solution),
            stats,
        }
    }

    /// An outcome without a solution (`status` must not be `Solved`).
    pub fn unsolved(status: Status, stats: Stats) -> Outcome<G> {
        debug_assert!(status != Status::Solved);
        Outcome {
            status,
            solution: None,
            stats,
        }
    }
}

/// The [`Outcome`] of a search that ends with its first solution (81 cells) or none: solved,
/// else `Timeout` if the budget stopped it, else `NoSolution`. Shared by the solvers.
pub(crate) fn outcome_of(first: Option<[u8; 81]>, out_of_budget: bool, stats: Stats) -> Outcome {
    match first {
        Some(cells) => Outcome::solved(Grid::from_cells(cells).expect("digits 0..=9"), stats),
        None if out_of_budget => Outcome::unsolved(Status::Timeout, stats),
        None => Outcome::unsolved(Status::NoSolution, stats),
    }
}

/// The [`Count`] of a search that found `found` solutions (the first one `first`); complete
/// unless the budget stopped it. Shared by the counting solvers.
pub(crate) fn count_of(
    found: u64,
    first: Option<[u8; 81]>,
    out_of_budget: bool,
    stats: Stats,
) -> Count {
    Count {
        solutions: found,
        complete: !out_of_budget,
        first: first.map(|c| Grid::from_cells(c).expect("digits 0..=9")),
        stats,
    }
}

/// The bookkeeping of a counting depth-first search, shared by `bitmask-singles`,
/// `domain-reduction` and `bitboard-bands`: the counters, the budget, how many solutions to look
/// for (`limit`, at least 1), how many were found and the first one (81 cells, row-major), and
/// whether the budget stopped the search.
pub(crate) struct Tally<'a> {
    pub(crate) stats: Stats,
    pub(crate) budget: &'a Budget,
    pub(crate) limit: u64,
    pub(crate) found: u64,
    pub(crate) first: Option<[u8; 81]>,
    pub(crate) out_of_budget: bool,
}

impl<'a> Tally<'a> {
    /// The root counted as one node. `out_of_budget` is already set when the budget is spent
    /// before the search starts: the caller then does not search.
    pub(crate) fn new(limit: u64, budget: &'a Budget) -> Tally<'a> {
        Tally {
            stats: Stats {
                nodes: 1,
                ..Stats::default()
            },
            budget,
            limit: limit.max(1),
            found: 0,
            first: None,
            out_of_budget: budget.exhausted(0),
        }
    }

    /// Enters one more node and polls the budget; true when the budget is spent (then
    /// `out_of_budget` is set and the search must stop).
    #[inline(always)]
    pub(crate) fn enter_node(&mut self) -> bool {
        self.stats.nodes += 1;
        if self.budget.check(self.stats.nodes) {
            self.out_of_budget = true;
            return true;
        }
        false
    }

    /// Records a solution (`cells` is called for the first one only); true when `limit`
    /// solutions are found and the search must stop.
    #[inline(always)]
    pub(crate) fn solution(&mut self, cells: impl FnOnce() -> [u8; 81]) -> bool {
        self.found += 1;
        if self.first.is_none() {
            self.first = Some(cells());
        }
        self.found >= self.limit
    }

    /// The [`Outcome`] of the search.
    pub(crate) fn outcome(&self) -> Outcome {
        outcome_of(self.first, self.out_of_budget, self.stats)
    }

    /// The [`Count`] of the search.
    pub(crate) fn count(&self) -> Count {
        count_of(self.found, self.first, self.out_of_budget, self.stats)
    }
}

/// Puzzles the solvers' unit tests share.
#[cfg(test)]
pub(crate) mod test_puzzles {
    /// The source write-up's first puzzle (22 givens; `seed-example` of the shipped `seed` set,
    /// whose stated solution the conformance tests check with the independent checker).
    pub(crate) const SEED: &str =
        "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
    /// The solution of [`SEED`].
    pub(crate) const SEED_SOLUTION: &str =
        "729364158341825967865971423536192874918547632274683519652438791493716285187259346";
}

/// The result of counting solutions up to a limit: of a 9x9 [`Grid`] by default, `Count<Board>`
/// for a [`Board`] of any shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count<G = Grid> {
    /// Solutions found, at most the limit asked for.
    pub solutions: u64,
    /// True when the search ended on its own or reached the limit; false when the budget ran
    /// out first, in which case `solutions` is only a lower bound.
    pub complete: bool,
    /// The first solution found, if any.
    pub first: Option<G>,
    /// Effort spent.
    pub stats: Stats,
}

impl<G> Count<G> {
    /// The same count with its first solution converted.
    pub fn map<H>(self, f: impl FnOnce(G) -> H) -> Count<H> {
        Count {
            solutions: self.solutions,
            complete: self.complete,
            first: self.first.map(f),
            stats: self.stats,
        }
    }
}

/// A Sudoku solver: one algorithm, one instance per thread. An instance may keep scratch space
/// from one solve to the next (`dlx` its matrix, `sat` its clause database), which is why the
/// methods take `&mut self`; the harness reaches solvers through [`engine::Session`]s, each
/// owning one instance.
pub trait Solver: Send {
    /// The stable name used on the command line and in CSV files, e.g. `bitmask-dfs`.
    fn name(&self) -> &'static str;

    /// What this solver can do, declared by its own file (never found by running it).
    fn caps(&self) -> engine::Caps;

    /// Solves `puzzle` (81 cells, row-major, 0 = empty), returning the first solution found in
    /// this solver's search order, [`Status::NoSolution`] if the search space holds none, or
    /// [`Status::Timeout`] once `budget` is exhausted. Never panics.
    fn solve(&mut self, puzzle: &Grid, budget: &Budget) -> Outcome;

    /// Counts solutions of `puzzle` up to `limit` (stopping at the limit), or `None` if this
    /// solver does not count ([`engine::Caps::counts`] is false). Counting up to 2 proves a
    /// puzzle has exactly one solution.
    fn count(&mut self, puzzle: &Grid, limit: u64, budget: &Budget) -> Option<Count> {
        let _ = (puzzle, limit, budget);
        None
    }

    /// Solves a puzzle of any [`Shape`] this solver takes ([`engine::Caps::shapes`]) as
    /// [`Solver::solve`] does; `None` for a shape it does not take. The default takes the classic
    /// 9x9 shape only, through [`Solver::solve`]; solvers that take every shape override it (and
    /// keep [`Solver::solve`] as their 9x9 fast path).
    fn solve_board(&mut self, puzzle: &Board, budget: &Budget) -> Option<Outcome<Board>> {
        let grid = puzzle.to_grid()?;
        Some(self.solve(&grid, budget).map(Board::from))
    }

    /// Counts the solutions of a puzzle of any [`Shape`] this solver takes, as
    /// [`Solver::count`] does; `None` for a shape it does not take or when it does not count.
    fn count_board(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Option<Count<Board>> {
        let grid = puzzle.to_grid()?;
        Some(self.count(&grid, limit, budget)?.map(Board::from))
    }
}

/// The registry of solvers: one variant per algorithm, in the order reports list them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum SolverKind {
    /// [`backtracking::Backtracking`].
    Backtracking,
    /// [`bitmask_dfs::BitmaskDfs`].
    BitmaskDfs,
    /// [`bitmask_singles::BitmaskSingles`].
    BitmaskSingles,
    /// [`domain_reduction::DomainReduction`].
    DomainReduction,
    /// [`dlx::Dlx`].
    Dlx,
    /// [`sat::Sat`].
    Sat,
    /// [`bitboard_bands::BitboardBands`].
    BitboardBands,
    /// [`triads::Triads`].
    Triads,
    /// [`hybrid::Hybrid`].
    Hybrid,
    /// [`logic::Logic`].
    Logic,
    /// [`large::Large`].
    Large,
    /// [`cdcl::Cdcl`].
    Cdcl,
    /// [`cp::Cp`].
    Cp,
    /// [`lcg::Lcg`].
    Lcg,
}

impl SolverKind {
    /// The champion: the fastest solver on the shipped and public sets, measured
    /// (docs/performance.md). The one place that names it: `harness regress` and `bench` measure
    /// the others against it, and it is the default counting solver of the generators,
    /// `solve`, `count`, the web API and `autofill` (so it must count: a test checks it).
    pub const CHAMPION: SolverKind = SolverKind::Hybrid;

    /// Every solver, in report order.
    pub const ALL: &'static [SolverKind] = &[
        SolverKind::Backtracking,
        SolverKind::BitmaskDfs,
        SolverKind::BitmaskSingles,
        SolverKind::DomainReduction,
        SolverKind::Dlx,
        SolverKind::Sat,
        SolverKind::BitboardBands,
        SolverKind::Triads,
        SolverKind::Hybrid,
        SolverKind::Logic,
        SolverKind::Large,
        SolverKind::Cdcl,
        SolverKind::Cp,
        SolverKind::Lcg,
    ];

    /// The stable name (same as [`Solver::name`]).
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Backtracking => "backtracking",
            SolverKind::BitmaskDfs => "bitmask-dfs",
            SolverKind::BitmaskSingles => "bitmask-singles",
            SolverKind::DomainReduction => "domain-reduction",
            SolverKind::Dlx => "dlx",
            SolverKind::Sat => "sat",
            SolverKind::BitboardBands => "bitboard-bands",
            SolverKind::Triads => "triads",
            SolverKind::Hybrid => "hybrid",
            SolverKind::Logic => "logic",
            SolverKind::Large => "large",
            SolverKind::Cdcl => "cdcl",
            SolverKind::Cp => "cp",
            SolverKind::Lcg => "lcg",
        }
    }

    /// A one-line description for `harness list`.
    pub fn description(self) -> &'static str {
        match self {
            SolverKind::Backtracking => {
                "textbook backtracking: first empty cell, digits 1..9, row/column/box scans"
            }
            SolverKind::BitmaskDfs => "DFS with row/column/box bitmasks, cells in row-major order",
            SolverKind::BitmaskSingles => {
                "bitmask DFS + naked singles to a fixpoint, MRV (fewest candidates) branching"
            }
            SolverKind::DomainReduction => {
                "candidate domains: naked + hidden singles to a fixpoint, MRV branching"
            }
            SolverKind::Dlx => {
                "Knuth's Algorithm X with dancing links, 729x324 exact cover, S heuristic"
            }
            SolverKind::Sat => "extended CNF encoding (11,988 clauses) solved by varisat",
            SolverKind::BitboardBands => {
                "band bitboards (JCZSolve family): bit-parallel singles, locked candidates, bi-value guesses"
            }
            SolverKind::Triads => {
                "DPLL over box-row/box-column triads on SIMD lanes (run-time AVX2/SSSE3/SSE2, portable)"
            }
            SolverKind::Hybrid => {
                "portfolio (the champion): bitboard-bands' root propagation, then triads on what is left"
            }
            SolverKind::Logic => {
                "human techniques easiest first (singles .. fish, wings, chains), MRV guess when stuck"
            }
            SolverKind::Large => {
                "for large grids: cell + place views, singles and locked candidates, dual-MRV binary search"
            }
            SolverKind::Cdcl => {
                "clause learning over the exactly-one groups (native singles), VSIDS, Luby restarts"
            }
            SolverKind::Cp => {
                "for hard large grids: CP with domain-consistent all-different (Régin), dom/wdeg, Luby restarts"
            }
            SolverKind::Lcg => {
                "for the hardest large grids and quasigroups: cdcl + all-different explained by Hall sets (LCG)"
            }
        }
    }

    /// What this solver can do, as its own file declares it ([`Solver::caps`]).
    pub fn caps(self) -> engine::Caps {
        self.build().caps()
    }

    /// True when this solver counts solutions ([`Solver::count`] returns `Some`), as declared in
    /// its [`engine::Caps`].
    pub fn counts(self) -> bool {
        self.caps().counts
    }

    /// A session of this built-in solver: the one way the harness runs it (see [`engine`]).
    /// Opening one builds the solver; reuse it for every solve of one thread.
    pub fn session(self) -> Box<dyn engine::Session> {
        engine::BuiltinEngine::new(self).open()
    }

    /// A new solver of this kind.
    pub fn build(self) -> Box<dyn Solver> {
        match self {
            SolverKind::Backtracking => Box::new(backtracking::Backtracking),
            SolverKind::BitmaskDfs => Box::new(bitmask_dfs::BitmaskDfs),
            SolverKind::BitmaskSingles => Box::new(bitmask_singles::BitmaskSingles),
            SolverKind::DomainReduction => Box::new(domain_reduction::DomainReduction),
            SolverKind::Dlx => Box::new(dlx::Dlx::default()),
            SolverKind::Sat => Box::new(sat::Sat::default()),
            SolverKind::BitboardBands => Box::new(bitboard_bands::BitboardBands),
            SolverKind::Triads => Box::new(triads::Triads::new()),
            SolverKind::Hybrid => Box::new(hybrid::Hybrid::new()),
            SolverKind::Logic => Box::new(logic::Logic),
            SolverKind::Large => Box::new(large::Large::default()),
            SolverKind::Cdcl => Box::new(cdcl::Cdcl::default()),
            SolverKind::Cp => Box::new(cp::Cp::default()),
            SolverKind::Lcg => Box::new(lcg::Lcg::default()),
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown solver name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown solver {0:?}; known: {known}", known = SolverKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", "))]
pub struct UnknownSolver(pub String);

impl FromStr for SolverKind {
    type Err = UnknownSolver;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SolverKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownSolver(s.to_string()))
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
}
