//! Cross-checking: one test body ([`check_every_solver`]) run against every solver of the
//! registry (`SolverKind::ALL`, so a new solver is checked without a new test), on the shipped
//! puzzles and on random puzzles from proptest:
//! - a puzzle with solutions gets from every solver a solution that keeps the givens (checked by
//!   `harness::verify::check`, which shares no code with the solvers), and the one solution when
//!   there is exactly one;
//! - a puzzle without solution gets `no_solution` from every solver;
//! - every counting solver counts the same number of solutions, up to the limit.
//!
//! Random puzzles: a verified solution grid, transformed by a validity-preserving symmetry
//! (digit relabelling, band/row and stack/column permutations, transposition), with random cells
//! blanked (16 to 73 givens); some also get one wrong digit in an empty cell that does not clash
//! with a given (consistent givens, often no solution: the counting solvers decide, and must
//! agree). Non-counting solvers (`backtracking`, `bitmask-dfs`) get a node budget of 1,000,000 on
//! random puzzles, and a `timeout` from them is accepted there: plain DFS on a sparse puzzle
//! without solution can take minutes. Counting solvers must finish (10 s deadline, never reached
//! in practice). Case counts are kept modest so `cargo test` stays fast.

use crate::common::OnGrid;
use harness::input::dataset::{self, SHIPPED};
use harness::verify;
use proptest::prelude::*;
use solvers::{Budget, Grid, SolverKind, Status};
use std::time::Duration;

/// Solution grids verified by `verify::check` (the seed puzzles' stated solutions).
const SOLVED: [&str; 2] = [
    "729364158341825967865971423536192874918547632274683519652438791493716285187259346",
    "741629835582341697396875421924517386657483219813296574168752943275934168439168752",
];

/// What a puzzle is expected to give, when known beforehand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Decided by the counting solvers, which must agree.
    Unknown,
    /// Exactly this solution.
    Unique([u8; 81]),
    /// At least one solution.
    Solvable,
    /// No solution.
    None,
}

/// The one body every solver runs through. `plain_nodes` is the node budget of solvers that do
/// not count (`None` = unlimited).
fn check_every_solver(
    puzzle: &Grid,
    expect: Expect,
    plain_nodes: Option<u64>,
) -> Result<(), TestCaseError> {
    const LIMIT: u64 = 3;
    let line = puzzle.to_line();
    // 1. The counting solvers agree on the count up to LIMIT.
    let mut count: Option<(SolverKind, u64)> = None;
    for kind in SolverKind::ALL {
        let budget = Budget::with_timeout(Duration::from_secs(10));
        if let Ok(c) = kind.session().count_grid(puzzle, LIMIT, &budget) {
            prop_assert!(c.complete, "{kind} did not finish counting {line}");
            prop_assert!(c.solutions <= LIMIT);
            if let Some(first) = c.first {
                prop_assert_eq!(verify::check(puzzle.cells(), first.cells(), None), Ok(()));
            }
            match count {
                None => count = Some((*kind, c.solutions)),
                Some((other, n)) => prop_assert_eq!(
                    n,
                    c.solutions,
                    "{} and {} disagree on the count of {}",
                    other,
                    kind,
                    line
                ),
            }
        }
    }
    let n = count.map(|(_, n)| n);
    match expect {
        Expect::Unique(_) => prop_assert_eq!(n, Some(1), "{}", line),
        Expect::Solvable => prop_assert!(n.is_some_and(|n| n >= 1), "{}", line),
        Expect::None => prop_assert_eq!(n, Some(0), "{}", line),
        Expect::Unknown => {}
    }
    let solvable = n.map_or(expect != Expect::None, |n| n > 0);
    // 2. Every solver solves, or says there is no solution.
    for kind in SolverKind::ALL {
        let mut solver = kind.session();
        let counts = kind.counts();
        let budget = if counts {
            Budget::with_timeout(Duration::from_secs(10))
        } else {
            Budget::unlimited().max_nodes(plain_nodes)
        };
        let out = solver.solve_grid(puzzle, &budget).unwrap();
        if out.status == Status::Timeout && !counts && plain_nodes.is_some() {
            continue;
        }
        if solvable {
            prop_assert_eq!(out.status, Status::Solved, "{} on {}", kind, line);
            let sol = out.solution.expect("solved");
            let want = match expect {
                Expect::Unique(s) => Some(s),
                _ => None,
            };
            prop_assert_eq!(
                verify::check(puzzle.cells(), sol.cells(), want.as_ref()),
                Ok(()),
                "{} on {}",
                kind,
                line
            );
            if n == Some(1) {
                // One solution: every solver finds that one (the counting solvers' first).
                let c = SolverKind::Dlx
                    .session()
                    .count_grid(puzzle, 1, &Budget::unlimited())
                    .ok()
                    .and_then(|c| c.first);
                prop_assert_eq!(Some(sol), c, "{} on {}", kind, line);
            }
        } else {
            prop_assert_eq!(out.status, Status::NoSolution, "{} on {}", kind, line);
            prop_assert!(out.solution.is_none());
        }
    }
    Ok(())
}

fn grid(cells: [u8; 81]) -> Grid {
    Grid::from_cells(cells).expect("cells 0..=9")
}

fn digits(s: &str) -> [u8; 81] {
    let v: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
    v.try_into().expect("81 digits")
}

/// A validity-preserving symmetry of a solution grid.
#[derive(Debug, Clone)]
struct Symmetry {
    base: usize,
    relabel: Vec<u8>,
    bands: Vec<usize>,
    rows: Vec<Vec<usize>>,
    stacks: Vec<usize>,
    cols: Vec<Vec<usize>>,
    transpose: bool,
}

impl Symmetry {
    fn apply(&self) -> [u8; 81] {
        let src = digits(SOLVED[self.base]);
        let mut out = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                let sr = self.bands[r / 3] * 3 + self.rows[r / 3][r % 3];
                let sc = self.stacks[c / 3] * 3 + self.cols[c / 3][c % 3];
                let (sr, sc) = if self.transpose { (sc, sr) } else { (sr, sc) };
                out[r * 9 + c] = self.relabel[src[sr * 9 + sc] as usize - 1];
            }
        }
        out
    }
}

fn perm(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<_>>()).prop_shuffle()
}

fn symmetry() -> impl Strategy<Value = Symmetry> {
    (
        0..SOLVED.len(),
        Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
        perm(3),
        prop::collection::vec(perm(3), 3),
        perm(3),
        prop::collection::vec(perm(3), 3),
        any::<bool>(),
    )
        .prop_map(
            |(base, relabel, bands, rows, stacks, cols, transpose)| Symmetry {
                base,
                relabel,
                bands,
                rows,
                stacks,
                cols,
                transpose,
            },
        )
}

/// A solution grid and which cells stay given (a fraction `lo..hi` of them, at least 16).
fn solution_and_mask(lo: f64, hi: f64) -> impl Strategy<Value = ([u8; 81], Vec<bool>)> {
    (symmetry(), lo..hi).prop_flat_map(|(sym, keep)| {
        (
            Just(sym.apply()),
            prop::collection::vec(prop::bool::weighted(keep), 81),
        )
    })
}

fn blank(solution: &[u8; 81], keep: &[bool]) -> [u8; 81] {
    let mut p = *solution;
    let mut kept = keep.iter().filter(|&&k| k).count();
    for (i, &k) in keep.iter().enumerate() {
        if !k {
            p[i] = 0;
        }
    }
    // At least 16 givens: put back cells in order.
    let mut i = 0;
    while kept < 16 {
        if p[i] == 0 {
            p[i] = solution[i];
            kept += 1;
        }
        i += 1;
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, ..ProptestConfig::default() })]

    /// Puzzles cut from a solution grid: solvable; unique or not, the counting solvers agree.
    #[test]
    fn random_solvable_puzzles(
        (solution, keep) in solution_and_mask(0.18, 0.9),
    ) {
        prop_assert_eq!(verify::check(&solution, &solution, None), Ok(()), "symmetry keeps validity");
        let p = grid(blank(&solution, &keep));
        check_every_solver(&p, Expect::Solvable, Some(1_000_000))?;
    }

    /// The same with one wrong digit in an empty cell (consistent givens): often no solution.
    #[test]
    fn random_corrupted_puzzles(
        (solution, keep) in solution_and_mask(0.3, 0.9),
        at in 0usize..81,
        shift in 1u8..9,
    ) {
        let cells = blank(&solution, &keep);
        // The first empty cell from `at` on, and the first digit from its solution digit +
        // `shift` on, that clashes with no given.
        let corrupted = (at..81).chain(0..at).filter(|&c| cells[c] == 0).find_map(|cell| {
            (0..8u8).find_map(|k| {
                let mut g = grid(cells);
                g.set(cell, (solution[cell] - 1 + shift + k) % 9 + 1);
                (g.get(cell) != solution[cell] && g.first_conflict().is_none()).then_some(g)
            })
        });
        prop_assume!(corrupted.is_some());
        let p = corrupted.unwrap();
        check_every_solver(&p, Expect::Unknown, Some(1_000_000))?;
    }
}

/// Every `step`-th puzzle of each shipped set (the first included): one solution, the one its
/// file states, from every solver (no budget).
fn check_shipped(step: usize) {
    for s in SHIPPED {
        for e in dataset::shipped(s).entries.into_iter().step_by(step) {
            let label = e.label();
            let p = e.puzzle.expect("shipped puzzles are valid");
            let want = *p
                .solution_grid()
                .expect("shipped sets state solutions")
                .cells();
            check_every_solver(&p.grid().unwrap(), Expect::Unique(want), None)
                .unwrap_or_else(|err| panic!("{} {label}: {err}", s.name));
        }
    }
}

/// Every shipped puzzle through [`check_every_solver`].
#[test]
#[ignore = "heavy: every solver on every shipped puzzle; the plain run takes a sample; .ci/run runs it: cargo test --test solvers -- --ignored"]
fn shipped_puzzles_agree() {
    check_shipped(1);
}

/// Every 20th shipped puzzle through [`check_every_solver`] ([`shipped_puzzles_agree`] checks them
/// all).
#[test]
fn shipped_sample_agrees() {
    check_shipped(20);
}

/// Two puzzles without solution, checked by hand: a cell with no candidate, and a digit with
/// no place in a row while every cell keeps candidates (only the hidden-single view, or the
/// "at least once" clauses of the CNF, sees it at once).
#[test]
fn hand_made_puzzles_without_solution() {
    // r1c1..r1c8 = 1..8 and r2c9 = 9: r1c9 has no candidate.
    let mut a = [0u8; 81];
    for (c, v) in a.iter_mut().enumerate().take(8) {
        *v = c as u8 + 1;
    }
    a[17] = 9;
    check_every_solver(&grid(a), Expect::None, None).unwrap();
    // 1 at r2c1 (box 1), r3c4 (box 2), r4c7 (column 7), r7c8 (column 8), and r1c9 = 2: no
    // place for 1 in row 1, yet every empty cell of row 1 has 7 or 8 candidates.
    let mut b = [0u8; 81];
    for cell in [9, 21, 33, 61] {
        b[cell] = 1;
    }
    b[8] = 2;
    let g = grid(b);
    assert!(g.first_conflict().is_none());
    check_every_solver(&g, Expect::None, None).unwrap();
}

/// A 17-clue puzzle less one given has several solutions: every counting solver reaches the
/// limit, every solver's answer is valid.
#[test]
fn sixteen_givens_have_several_solutions() {
    // The first puzzle of ../shared/datasets/puzzles2_17_clue (copied: 81 characters), with its
    // first given removed.
    let p: Grid =
        ".......................2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
            .parse()
            .unwrap();
    assert_eq!(p.givens(), 16);
    check_every_solver(&p, Expect::Solvable, Some(1_000_000)).unwrap();
    let c = SolverKind::Dlx
        .session()
        .count_grid(&p, 2, &Budget::unlimited())
        .unwrap();
    assert_eq!((c.solutions, c.complete), (2, true));
    // All of them: 17,204, counted alike by three independent counting solvers (and by `sat`,
    // too slow for a test at one varisat call per solution: about 12 s).
    for kind in [
        SolverKind::DomainReduction,
        SolverKind::Dlx,
        SolverKind::BitmaskSingles,
    ] {
        let c = kind
            .session()
            .count_grid(&p, 1_000_000, &Budget::unlimited())
            .unwrap();
        assert_eq!((c.solutions, c.complete), (17_204, true), "{kind}");
    }
}

/// The `sat` solver on each of its four CNF encodings: the shipped `seed` puzzles solved to their
/// stated solutions and counted unique, and exact counts beside `dlx` on a puzzle with many
/// solutions (up to 12, blocking clause after blocking clause) and on the two puzzles without one.
/// (The other shipped sets run through `sat` itself in the tests above; the weaker encodings are
/// slow on them in a debug build.)
#[test]
fn sat_encodings_agree_with_dlx() {
    use solvers::engine::Engine;
    use solvers::sat::Encoding;
    let sixteen: Grid =
        ".......................2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
            .parse()
            .unwrap();
    let mut no_candidate = Grid::EMPTY;
    for c in 0..8 {
        no_candidate.set(c, c as u8 + 1);
    }
    no_candidate.set(17, 9);
    let mut no_place = Grid::EMPTY;
    for cell in [9, 21, 33, 61] {
        no_place.set(cell, 1);
    }
    no_place.set(8, 2);
    let mut dlx = SolverKind::Dlx.session();
    let mut dlx_count = |g: &Grid, limit| dlx.count_grid(g, limit, &Budget::unlimited()).unwrap();
    assert_eq!(dlx_count(&sixteen, 12).solutions, 12);
    for e in Encoding::ALL {
        let engine = solvers::registry::BuiltinEngine::sat(e);
        assert_eq!(engine.info().name, e.solver_name());
        let mut sat = engine.open();
        for s in SHIPPED.iter().filter(|s| s.name == "seed") {
            for entry in dataset::shipped(s).entries {
                let label = entry.label();
                let p = entry.puzzle.expect("shipped puzzles are valid");
                let out = sat
                    .solve_grid(&p.grid().unwrap(), &Budget::unlimited())
                    .unwrap();
                let sol = out.solution.expect("solved");
                assert_eq!(
                    verify::check_board(&p.board, &sol.into(), p.solution.as_ref()),
                    Ok(())
                );
                let c = sat
                    .count_grid(&p.grid().unwrap(), 2, &Budget::unlimited())
                    .unwrap();
                assert_eq!((c.solutions, c.complete), (1, true), "{e:?} {label}");
            }
        }
        for (g, limit) in [
            (&sixteen, 12),
            (&sixteen, 3),
            (&no_candidate, 2),
            (&no_place, 2),
        ] {
            let c = sat.count_grid(g, limit, &Budget::unlimited()).unwrap();
            let want = dlx_count(g, limit);
            assert_eq!((c.solutions, c.complete), (want.solutions, true), "{e:?}");
            if let Some(first) = c.first {
                assert_eq!(verify::check(g.cells(), first.cells(), None), Ok(()));
            }
        }
        assert_eq!(
            sat.solve_grid(&no_place, &Budget::unlimited())
                .unwrap()
                .status,
            Status::NoSolution
        );
        let spent = Budget::with_timeout(Duration::ZERO);
        let out = sat.solve_grid(&sixteen, &spent).unwrap();
        assert_eq!(out.status, Status::Timeout, "{e:?}");
        assert!(
            !sat.count_grid(&sixteen, 2, &spent).unwrap().complete,
            "{e:?}"
        );
    }
}
