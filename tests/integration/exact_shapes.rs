//! `dlx`, `sat`, `large`, `cdcl`, `cp`, `lcg` and the four `sat-*` encodings on grids of every shape: orders 1 to 5 (1x1 to
//! 25x25), boxes of 2x3 and 3x4, Latin squares of order 5 and 10. Puzzles are pattern grids with
//! cells blanked; every answer is checked by `harness::verify::check_board`, and counts to 2 (a
//! puzzle with several solutions, one with none, one half blanked) agree between dlx, `large` and
//! each SAT engine. At 25x25 only `dlx`, `sat`, `large`, `cdcl`, `cp` and `lcg` run by default; the four `sat-*` encodings there are
//! the heavy test (a formula of up to 1.3 million clauses each, seconds apiece in a debug
//! build). The time of each solve is printed (`cargo test --test solvers exact_shapes --
//! --nocapture`), not asserted.

use harness::verify::check_board;
use solvers::engine::{Engine, Session};
use solvers::{Board, Budget, Shape, SolverKind, Status};
use std::time::Instant;

/// A valid full grid of `shape`: for boxes of r x c, `(c·(row mod r) + row div r + col) mod N + 1`
/// (each band of r rows shifts by c, each next band by 1); for a Latin square, cyclic,
/// `(row + col) mod N + 1`.
fn pattern(shape: Shape) -> Board {
    let n = shape.side();
    let cells = (0..n * n)
        .map(|i| {
            let (row, col) = (i / n, i % n);
            let v = match shape.boxes() {
                Some((r, c)) => c * (row % r) + row / r + col,
                None => row + col,
            };
            (v % n + 1) as u16
        })
        .collect();
    Board::new(shape, cells).unwrap()
}

/// `full` with about `percent` % of its cells blanked, chosen by a fixed linear congruential
/// sequence (the same cells on every run).
fn blanked(full: &Board, percent: u64) -> Board {
    let mut b = full.clone();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for i in 0..b.cells().len() {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        if (x >> 33) % 100 < percent {
            b.set(i, 0);
        }
    }
    b
}

/// A puzzle with consistent givens and no solution (side 2 and up): row 1 as in the pattern
/// but for r1c1, whose symbol is given in r2c1 instead; r1c1 then has no candidate.
fn no_solution(shape: Shape) -> Board {
    let full = pattern(shape);
    let n = shape.side();
    let mut b = Board::empty(shape);
    for col in 1..n {
        b.set(col, full.get(col));
    }
    b.set(n, full.get(0));
    assert!(
        b.first_conflict().is_none(),
        "{shape}: the givens are consistent"
    );
    b
}

/// Shapes above this side run only dlx and sat, unless heavy.
const LIGHT_SIDE: usize = 16;

fn shapes() -> Vec<Shape> {
    let mut v: Vec<Shape> = (1..=5).map(|n| Shape::of_order(n).unwrap()).collect();
    v.push(Shape::sudoku(2, 3).unwrap());
    v.push(Shape::sudoku(3, 4).unwrap());
    v.push(Shape::latin(5).unwrap());
    v.push(Shape::latin(10).unwrap());
    v
}

/// dlx, sat and the four encodings, by name.
fn engines() -> Vec<(String, Box<dyn Session>)> {
    let mut v: Vec<(String, Box<dyn Session>)> = vec![
        ("dlx".into(), SolverKind::Dlx.session()),
        ("sat".into(), SolverKind::Sat.session()),
        ("large".into(), SolverKind::Large.session()),
        ("cdcl".into(), SolverKind::Cdcl.session()),
        ("cp".into(), SolverKind::Cp.session()),
        ("lcg".into(), SolverKind::Lcg.session()),
    ];
    for e in solvers::sat::Encoding::ALL {
        let engine = solvers::registry::BuiltinEngine::sat(e);
        assert!(engine.info().caps.shapes.takes(Shape::latin(7).unwrap()));
        v.push((e.solver_name().into(), engine.session().unwrap()));
    }
    v
}

/// The engines that run on `shape`: all of them, or only dlx and sat above [`LIGHT_SIDE`]
/// (`heavy`: only the four encodings above it).
fn engines_for(
    engines: &mut [(String, Box<dyn Session>)],
    shape: Shape,
    heavy: bool,
) -> impl Iterator<Item = &mut (String, Box<dyn Session>)> {
    let big = shape.side() > LIGHT_SIDE;
    engines.iter_mut().filter(move |(name, _)| {
        let core = ["dlx", "sat", "large", "cdcl", "cp", "lcg"].contains(&name.as_str());
        match (heavy, big) {
            (false, false) => true,
            (false, true) => core,
            (true, big) => big && !core,
        }
    })
}

#[test]
fn dlx_and_sat_solve_every_shape_with_checked_answers() {
    solve_every_shape(false);
}

#[test]
#[ignore = "heavy: the four sat-* encodings at 25x25, about a minute in a debug build"]
fn every_encoding_solves_25x25_with_checked_answers() {
    solve_every_shape(true);
    counts_agree(true);
}

fn solve_every_shape(heavy: bool) {
    let mut engines = engines();
    for shape in shapes() {
        let full = pattern(shape);
        check_board(&Board::empty(shape), &full, None).expect("the pattern grid is valid");
        let puzzle = blanked(&full, 55);
        for (name, session) in engines_for(&mut engines, shape, heavy) {
            let began = Instant::now();
            let out = session.solve(&puzzle, &Budget::unlimited()).unwrap();
            let took = began.elapsed();
            assert_eq!(out.status, Status::Solved, "{name} {shape}");
            let answer = out.solution.unwrap();
            check_board(&puzzle, &answer, None).unwrap_or_else(|w| panic!("{name} {shape}: {w}"));
            println!(
                "{name:>14} {shape:>12}: {} givens, solved in {:.1} ms, {} nodes",
                puzzle.givens(),
                took.as_secs_f64() * 1e3,
                out.stats.nodes
            );
        }
    }
}

#[test]
fn counts_to_two_agree_between_dlx_and_sat_at_every_shape() {
    counts_agree(false);
}

/// Counts to 2 agree; `heavy`: the four encodings against dlx at the large shapes.
fn counts_agree(heavy: bool) {
    let mut engines = engines();
    for shape in shapes() {
        if heavy && shape.side() <= LIGHT_SIDE {
            continue;
        }
        let mut cases = vec![("empty", Board::empty(shape), None)];
        if shape.side() >= 2 {
            cases.push(("no solution", no_solution(shape), Some(0)));
            cases.push(("empty", Board::empty(shape), Some(2)));
        } else {
            // 1x1: one grid.
            cases[0].2 = Some(1);
        }
        cases.push(("half blanked", blanked(&pattern(shape), 50), None));
        for (what, puzzle, expected) in cases {
            let mut seen: Option<(String, u64)> = None;
            for (name, session) in engines.iter_mut().filter(|(name, _)| {
                let big = shape.side() > LIGHT_SIDE;
                let core = ["dlx", "sat", "large", "cdcl", "cp", "lcg"].contains(&name.as_str());
                !big || core || heavy
            }) {
                let c = session.count(&puzzle, 2, &Budget::unlimited()).unwrap();
                assert!(c.complete, "{name} {shape} {what}");
                if let Some(first) = &c.first {
                    check_board(&puzzle, first, None)
                        .unwrap_or_else(|w| panic!("{name} {shape} {what}: {w}"));
                }
                assert_eq!(c.first.is_some(), c.solutions > 0, "{name} {shape} {what}");
                if let Some(e) = expected {
                    assert_eq!(c.solutions, e, "{name} {shape} {what}");
                }
                match seen {
                    None => seen = Some((name.clone(), c.solutions)),
                    Some((ref first, n)) => {
                        assert_eq!(c.solutions, n, "{name} and {first} on {shape} {what}")
                    }
                }
            }
        }
    }
}

#[test]
fn a_node_budget_stops_dlx_at_every_shape() {
    let mut dlx = SolverKind::Dlx.session();
    let puzzle = Board::empty(Shape::of_order(5).unwrap());
    let out = dlx
        .solve(&puzzle, &Budget::unlimited().max_nodes(Some(100)))
        .unwrap();
    // An empty 25x25 grid takes 625 nodes at least.
    assert_eq!((out.status, out.solution), (Status::Timeout, None));
    let spent = Budget::with_timeout(std::time::Duration::ZERO);
    for (name, session) in &mut engines() {
        // The budget is checked before the formula is built: no time is spent.
        let c = session.count(&puzzle, 2, &spent).unwrap();
        assert!(!c.complete, "{name}");
    }
}
