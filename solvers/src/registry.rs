//! The registry of built-in solvers: the list ([`SolverKind::ALL`]), their names and
//! descriptions, how one is built ([`SolverKind::build`]) and run as an engine
//! ([`BuiltinEngine`]), and the policy of which one the harness uses where none is named
//! ([`SolverKind::CHAMPION`], [`SolverKind::counter_for`]).
//!
//! This module sits above the solvers (it names every one of them); the base types it builds
//! on ([`Solver`], [`Caps`], [`Session`]) live in the crate root and [`crate::engine`], which
//! name no solver.

use crate::engine::{Caps, Engine, EngineError, EngineInfo, Origin, Session};
use crate::{
    backtracking, bitboard_bands, bitmask_dfs, bitmask_singles, cdcl, cp, dlx, domain_reduction,
    hybrid, large, lcg, logic, sat, triads,
};
use crate::{Board, Budget, Count, Outcome, Shape, Solver};

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
    pub fn caps(self) -> Caps {
        static CAPS: std::sync::OnceLock<Vec<Caps>> = std::sync::OnceLock::new();
        let all = CAPS.get_or_init(|| SolverKind::ALL.iter().map(|k| k.build().caps()).collect());
        all[SolverKind::ALL
            .iter()
            .position(|&k| k == self)
            .expect("every kind is in ALL")]
    }

    /// True when this solver counts solutions ([`Solver::count`] returns `Some`), as declared in
    /// its [`Caps`].
    pub fn counts(self) -> bool {
        self.caps().counts
    }

    /// A session of this built-in solver: the one way the harness runs it (see [`crate::engine`]).
    /// Opening one builds the solver; reuse it for every solve of one thread.
    pub fn session(self) -> Box<dyn Session> {
        BuiltinEngine::new(self).open()
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

/// An unknown solver name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown solver {0:?}; known: {known}", known = SolverKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", "))]
pub struct UnknownSolver(pub String);

crate::text_by_name!(SolverKind, UnknownSolver);

/// Which built-in solver the harness uses where none is named.
impl SolverKind {
    /// The counting solver of shapes other than 9x9 when none is named: `dlx`, which takes
    /// every shape. Counting to 2 on sparse 16x16 puzzles, exact cover with MRV over all four
    /// constraint kinds is far ahead of the DFS family (two minimal 16x16 puzzles: 0.3 s of CPU
    /// with `dlx`, against 12 s for `bitmask-singles`, which also ran past the default node
    /// budget).
    pub const SHAPED_COUNTER: SolverKind = SolverKind::Dlx;

    /// The built-in solver `harness solve` and `harness count` use for puzzles of `shape` when
    /// none is named: the one policy, measured (docs/solvers-and-counters.md, "The default
    /// solver per shape"). 9x9: the champion ([`SolverKind::CHAMPION`]). Every other shape,
    /// Sudoku of any boxes and Latin squares: `cdcl`, whose clause learning solves and counts to
    /// 2 the punched and the unique puzzles from 16x16 up where the DFS and exact-cover solvers
    /// run out of time (`dlx`, the generators' counter, ran out of 120 s on a 25x25 puzzle
    /// `cdcl` solves in a millisecond).
    ///
    /// Above the sides `cdcl` takes (128), `sat`: the CNF of the puzzle with the givens
    /// propagated away, solved by varisat.
    pub fn best_for(shape: Shape) -> SolverKind {
        if shape.is_classic() {
            SolverKind::CHAMPION
        } else if SolverKind::Cdcl.caps().shapes.takes(shape) {
            SolverKind::Cdcl
        } else {
            SolverKind::Sat
        }
    }

    /// The built-in solvers that take `shape` ([`Caps::shapes`]), in [`SolverKind::ALL`] order.
    pub fn taking(shape: Shape) -> Vec<SolverKind> {
        SolverKind::ALL
            .iter()
            .copied()
            .filter(|k| k.caps().shapes.takes(shape))
            .collect()
    }

    /// The solver that counts puzzles of `shape` when none is named: the champion on 9x9;
    /// on other shapes [`SolverKind::SHAPED_COUNTER`] when it takes the shape, else the first
    /// of [`SolverKind::ALL`] that counts and takes it; `None` when no built-in solver does.
    pub fn counter_for(shape: Shape) -> Option<SolverKind> {
        if shape.is_classic() {
            return Some(SolverKind::CHAMPION);
        }
        std::iter::once(SolverKind::SHAPED_COUNTER)
            .chain(SolverKind::ALL.iter().copied())
            .find(|k| {
                let caps = k.caps();
                caps.counts && caps.shapes.takes(shape)
            })
    }
}

/// The name of `cp` without restarts ([`BuiltinEngine::cp_without_restarts`]).
pub const CP_NO_RESTART: &str = "cp-norestart";

const CP_NO_RESTART_DESCRIPTION: &str =
    "cp without restarts: one complete search, same propagation and dom/wdeg (heavy-tail studies)";

/// The names of the built-in solvers under another configuration, which
/// [`BuiltinEngine::variant_named`] builds and `all` does not include: the `sat` solver on each
/// of its CNF encodings (`sat-minimal` ... `sat-redundant`), then `cp-norestart`.
pub fn variant_names() -> Vec<&'static str> {
    sat::Encoding::ALL
        .iter()
        .map(|e| e.solver_name())
        .chain([CP_NO_RESTART])
        .collect()
}

/// A built-in solver as an engine. Each [`Session`] owns its own solver instance, and with it
/// whatever the solver keeps between solves (`dlx` its matrix, `sat` its clause database).
pub struct BuiltinEngine {
    kind: SolverKind,
    info: EngineInfo,
    /// How a session's solver is made, when not by [`SolverKind::build`] (the `sat-*` engines).
    build: Option<Box<dyn Fn() -> Box<dyn Solver> + Send + Sync>>,
}

impl BuiltinEngine {
    /// The engine of `kind`.
    pub fn new(kind: SolverKind) -> BuiltinEngine {
        BuiltinEngine {
            kind,
            info: EngineInfo {
                name: kind.name().to_string(),
                description: kind.description().to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
                origin: Origin::Builtin,
                caps: kind.caps(),
            },
            build: None,
        }
    }

    /// An engine of `kind`'s capabilities under another name, whose sessions' solvers `build`
    /// makes (the `sat` solver on one of its CNF encodings: [`BuiltinEngine::sat`]).
    pub fn variant(
        kind: SolverKind,
        name: &str,
        description: &str,
        build: impl Fn() -> Box<dyn Solver> + Send + Sync + 'static,
    ) -> BuiltinEngine {
        BuiltinEngine {
            kind,
            info: EngineInfo {
                name: name.to_string(),
                description: description.to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
                origin: Origin::Builtin,
                caps: kind.caps(),
            },
            build: Some(Box::new(build)),
        }
    }

    /// The engine of the `sat` solver on one of its CNF encodings, under the encoding's solver
    /// name (`sat-minimal`, `sat-efficient`, `sat-extended`, `sat-redundant`): the same solver
    /// kind and capabilities as `sat`.
    pub fn sat(encoding: sat::Encoding) -> BuiltinEngine {
        BuiltinEngine::variant(
            SolverKind::Sat,
            encoding.solver_name(),
            encoding.description(),
            move || Box::new(sat::Sat::with_encoding(encoding)),
        )
    }

    /// The engine of `cp` without restarts, `cp-norestart` ([`cp::Cp::without_restarts`]): the
    /// same solver kind and capabilities as `cp`.
    pub fn cp_without_restarts() -> BuiltinEngine {
        BuiltinEngine::variant(
            SolverKind::Cp,
            CP_NO_RESTART,
            CP_NO_RESTART_DESCRIPTION,
            || Box::new(cp::Cp::without_restarts()),
        )
    }

    /// The engine of a built-in solver under another configuration, by its name (see
    /// [`variant_names`]); `None` for any other name.
    pub fn variant_named(name: &str) -> Option<BuiltinEngine> {
        if let Some(e) = sat::Encoding::from_solver_name(name) {
            return Some(BuiltinEngine::sat(e));
        }
        (name == CP_NO_RESTART).then(BuiltinEngine::cp_without_restarts)
    }

    /// Its solver kind.
    pub fn kind(&self) -> SolverKind {
        self.kind
    }

    /// A new session: [`Engine::session`], which cannot fail for a built-in solver.
    pub fn open(&self) -> Box<dyn Session> {
        let solver: Box<dyn Solver> = match &self.build {
            Some(build) => build(),
            None => self.kind.build(),
        };
        Box::new(BuiltinSession(solver))
    }
}

impl Engine for BuiltinEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn session(&self) -> Result<Box<dyn Session>, EngineError> {
        Ok(self.open())
    }
}

/// A built-in solver's session: it owns the solver instance, and so its scratch space.
struct BuiltinSession(Box<dyn Solver>);

impl Session for BuiltinSession {
    #[inline]
    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Result<Outcome, EngineError> {
        self.0
            .solve(puzzle, budget)
            .ok_or(EngineError::Unsupported("shape"))
    }

    #[inline]
    fn count(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Result<Count, EngineError> {
        self.0
            .count(puzzle, limit, budget)
            .ok_or(EngineError::Unsupported("count on this shape"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_puzzles::{SEED, SEED_SOLUTION};
    use crate::{Grid, Status};

    #[test]
    fn counters_count_and_take_their_shape() {
        for shape in [
            Shape::CLASSIC,
            Shape::of_order(4).unwrap(),
            Shape::latin(7).unwrap(),
        ] {
            let k = SolverKind::counter_for(shape).unwrap();
            assert!(k.counts() && k.caps().shapes.takes(shape), "{shape}");
            assert!(SolverKind::taking(shape).contains(&k), "{shape}");
        }
    }

    #[test]
    fn every_variant_name_builds_its_engine() {
        for name in variant_names() {
            let engine = BuiltinEngine::variant_named(name).unwrap();
            assert_eq!(engine.info().name, name);
            assert!(
                name.parse::<SolverKind>().is_err(),
                "{name} is no kind's name"
            );
        }
        assert_eq!(
            BuiltinEngine::variant_named(CP_NO_RESTART).unwrap().kind(),
            SolverKind::Cp
        );
        assert!(BuiltinEngine::variant_named("cp").is_none());
    }

    #[test]
    fn the_champion_counts() {
        // It is the generators' default counting solver.
        assert!(SolverKind::CHAMPION.caps().counts);
    }

    #[test]
    fn builtin_caps_match_what_the_solvers_do() {
        let puzzle = Board::from_grid(&SEED.parse::<Grid>().unwrap());
        for &kind in SolverKind::ALL {
            let engine = BuiltinEngine::new(kind);
            assert_eq!(engine.info().name, kind.name());
            let mut s = engine.session().unwrap();
            let o = s.solve(&puzzle, &Budget::unlimited()).unwrap();
            assert_eq!(o.status, Status::Solved, "{kind}");
            assert_eq!(o.grid().unwrap().to_digits(), SEED_SOLUTION, "{kind}");
            let c = s.count(&puzzle, 2, &Budget::unlimited());
            assert_eq!(c.is_ok(), engine.info().caps.counts, "{kind}");
            if let Ok(c) = c {
                assert_eq!((c.solutions, c.complete), (1, true), "{kind}");
            }
        }
    }
}
