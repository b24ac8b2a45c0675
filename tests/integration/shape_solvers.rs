//! Grids of every shape through the depth-first family (`backtracking`, `bitmask-dfs`,
//! `bitmask-singles`, `domain-reduction`, `large`) and `logic`, by their sessions: orders 1 to 5
//! (1x1 to 25x25),
//! boxes 2x3 and 3x4, Latin squares of order 5 and 10. Every answer is checked by
//! `harness::verify::check_board`, which shares no code with the solvers; counts agree between
//! the two counting solvers and, on empty grids, with the numbers in the literature. With
//! HARNESS_DATA, the Gecode 16x16 and 25x25 instances too.

use harness::verify;
use solvers::engine::Shapes;
use solvers::{Board, Budget, Shape, SolverKind, Status};

/// The solvers of this table: the depth-first family and `logic`, which take every shape.
const DFS: [SolverKind; 6] = [
    SolverKind::Backtracking,
    SolverKind::BitmaskDfs,
    SolverKind::BitmaskSingles,
    SolverKind::DomainReduction,
    SolverKind::Large,
    SolverKind::Logic,
];

/// Every built-in solver that takes every shape has a conformance table at the shapes of
/// [`shapes`]: this file's, or exact_shapes.rs's for `dlx`, `sat`, `cdcl`, `cp` and `lcg` (and
/// `large` again).
#[test]
fn every_solver_of_every_shape_has_a_table() {
    for &kind in SolverKind::ALL {
        if kind.caps().shapes == Shapes::Any {
            assert!(
                DFS.contains(&kind)
                    || [
                        SolverKind::Dlx,
                        SolverKind::Sat,
                        SolverKind::Cdcl,
                        SolverKind::Cp,
                        SolverKind::Lcg,
                    ]
                    .contains(&kind),
                "{kind} takes every shape but is in no table"
            );
        }
    }
}

/// The shapes of the table: orders 1 to 5, boxes 2x3 and 3x4, Latin squares of order 5 and 10.
fn shapes() -> Vec<Shape> {
    [
        "1x1",
        "4x4",
        "9x9",
        "16x16",
        "25x25",
        "6x6/2x3",
        "12x12/3x4",
        "5x5/latin",
        "10x10/latin",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect()
}

/// A valid grid of `shape`: `((row·c + row / r + col) mod N) + 1` for r x c boxes, the cyclic
/// `((row + col) mod N) + 1` for a Latin square (checked by `check_board` in the test).
fn pattern(shape: Shape) -> Board {
    let n = shape.side();
    let cells = (0..shape.cells())
        .map(|i| {
            let (row, col) = (i / n, i % n);
            let v = match shape.boxes() {
                Some((r, c)) => (row * c + row / r + col) % n,
                None => (row + col) % n,
            };
            v as u16 + 1
        })
        .collect();
    Board::new(shape, cells).unwrap()
}

/// `solution` with `holes` of every `every` cells blanked, spread by a fixed step.
fn blank(solution: &Board, holes: usize, every: usize) -> Board {
    let cells = solution
        .cells()
        .iter()
        .enumerate()
        .map(|(i, &v)| if (i * 7 + 3) % every < holes { 0 } else { v })
        .collect();
    Board::new(solution.shape(), cells).unwrap()
}

/// Each solver solves a puzzle of each shape (half the cells blanked, a quarter from 16x16 on:
/// plain DFS in row-major order needs more than 5,000,000 nodes on the 25x25 with half) with an
/// answer the checker accepts.
#[test]
fn every_dfs_solver_solves_every_shape() {
    for shape in shapes() {
        let solution = pattern(shape);
        assert_eq!(verify::check_board(&solution, &solution, None), Ok(()));
        let puzzle = blank(&solution, 1, if shape.side() >= 16 { 4 } else { 2 });
        for kind in DFS {
            // Several-word masks take every side; `logic` keeps one `u128` word per set.
            let want = match kind {
                SolverKind::Logic => Shapes::UpTo(128),
                _ => Shapes::Any,
            };
            assert_eq!(kind.caps().shapes, want, "{kind}");
            assert!(kind.caps().shapes.takes(shape));
            let budget = Budget::unlimited().max_nodes(Some(5_000_000));
            let out = kind.session().solve(&puzzle, &budget).unwrap();
            assert_eq!(out.status, Status::Solved, "{kind} on {shape}");
            let answer = out.solution.unwrap();
            assert_eq!(answer.shape(), shape);
            assert_eq!(
                verify::check_board(&puzzle, &answer, None),
                Ok(()),
                "{kind} on {shape}"
            );
            assert!(out.stats.nodes >= 1);
        }
    }
}

/// Counting up to 2 on a puzzle with several solutions and on one with none, the two counting
/// solvers agreeing; the others do not count at any shape.
#[test]
fn counts_to_two_agree_at_every_shape() {
    for shape in shapes() {
        let n = shape.side();
        // Several solutions: the empty grid (one solution for 1x1).
        let empty = Board::empty(shape);
        // None: row 1 holds 1..N-1 and r2cN holds N, so r1cN has no symbol left (N >= 2).
        let mut dead = Board::empty(shape);
        for c in 0..n.saturating_sub(1) {
            dead.set(c, c as u16 + 1);
        }
        if n >= 2 {
            dead.set(2 * n - 1, n as u16);
        }
        assert_eq!(dead.first_conflict(), None, "{shape}");
        for kind in DFS {
            let mut session = kind.session();
            let budget = Budget::unlimited().max_nodes(Some(5_000_000));
            let Ok(several) = session.count(&empty, 2, &budget) else {
                assert!(!kind.counts(), "{kind}");
                continue;
            };
            let want = if n == 1 { 1 } else { 2 };
            assert_eq!(
                (several.solutions, several.complete),
                (want, true),
                "{kind} {shape}"
            );
            let first = several.first.unwrap();
            assert_eq!(verify::check_board(&empty, &first, None), Ok(()), "{kind}");
            if n >= 2 {
                let none = session.count(&dead, 2, &budget).unwrap();
                assert_eq!((none.solutions, none.complete), (0, true), "{kind} {shape}");
            }
        }
        if n >= 2 {
            for kind in DFS {
                let out = kind
                    .session()
                    .solve(&dead, &Budget::unlimited().max_nodes(Some(5_000_000)))
                    .unwrap();
                assert_ne!(out.status, Status::Solved, "{kind} {shape}");
                if n <= 16 {
                    assert_eq!(out.status, Status::NoSolution, "{kind} {shape}");
                }
            }
        }
    }
}

/// Full counts of small empty grids agree with the literature: 12 Latin squares of order 3, 576
/// of order 4, 288 Sudoku grids of 4x4; 6x6 with 2x3 boxes (28,200,960 grids) reaches the limit
/// of 1,000.
#[test]
fn full_counts_of_small_grids() {
    for (shape, want) in [
        ("3x3/latin", 12),
        ("4x4/latin", 576),
        ("4x4", 288),
        ("6x6/2x3", 1000),
    ] {
        let shape: Shape = shape.parse().unwrap();
        for kind in [
            SolverKind::BitmaskSingles,
            SolverKind::DomainReduction,
            SolverKind::Large,
            SolverKind::Logic,
            SolverKind::Cdcl,
            SolverKind::Cp,
            SolverKind::Lcg,
        ] {
            let c = kind
                .session()
                .count(&Board::empty(shape), 1000, &Budget::unlimited())
                .unwrap();
            assert_eq!((c.solutions, c.complete), (want, true), "{kind} {shape}");
        }
    }
}

/// Repeated givens never panic: no solution, or an answer the checker rejects.
#[test]
fn repeated_givens_never_panic() {
    for shape in shapes().into_iter().filter(|s| s.side() >= 2) {
        let mut b = Board::empty(shape);
        b.set(0, 1);
        b.set(1, 1);
        for kind in DFS {
            let out = kind
                .session()
                .solve(&b, &Budget::unlimited().max_nodes(Some(100_000)))
                .unwrap();
            if let Some(answer) = out.solution {
                assert!(verify::check_board(&b, &answer, None).is_err(), "{kind}");
            }
        }
    }
}

/// A node budget stops the search: `timeout` with the nodes counted so far, and an incomplete
/// count.
#[test]
fn a_node_budget_stops_every_shape() {
    for shape in ["16x16", "25x25", "12x12/3x4", "10x10/latin"] {
        let shape: Shape = shape.parse().unwrap();
        let empty = Board::empty(shape);
        for kind in DFS {
            let budget = Budget::unlimited().max_nodes(Some(3));
            let out = kind.session().solve(&empty, &budget).unwrap();
            assert_eq!(out.status, Status::Timeout, "{kind} {shape}");
            assert!(out.solution.is_none());
            assert!(out.stats.nodes <= 4, "{kind} {shape}: {:?}", out.stats);
            if let Ok(c) = kind.session().count(&empty, 2, &budget) {
                assert!(!c.complete, "{kind} {shape}");
            }
        }
    }
}

/// A shape above the side of 64 (a `u128` mask) works too: a Latin square of order 100 with a
/// tenth of its cells blanked.
#[test]
fn a_100x100_latin_square() {
    let shape = Shape::latin(100).unwrap();
    let puzzle = blank(&pattern(shape), 1, 10);
    for kind in [
        SolverKind::BitmaskSingles,
        SolverKind::DomainReduction,
        SolverKind::Large,
        SolverKind::Cdcl,
        SolverKind::Cp,
        SolverKind::Lcg,
    ] {
        let out = kind
            .session()
            .solve(&puzzle, &Budget::unlimited().max_nodes(Some(1_000_000)))
            .unwrap();
        assert_eq!(out.status, Status::Solved, "{kind}");
        assert_eq!(
            verify::check_board(&puzzle, &out.solution.unwrap(), None),
            Ok(())
        );
    }
}

/// One Gecode instance line: one character a cell, `1`-`9`, then `A` = 10 ... (`G` = 16,
/// `P` = 25), `.` blank.
fn gecode_board(shape: Shape, line: &str) -> Board {
    let cells = line
        .trim()
        .chars()
        .map(|ch| match ch {
            '1'..='9' => u16::from(ch as u8 - b'0'),
            'A'..='Z' => u16::from(ch as u8 - b'A' + 10),
            _ => 0,
        })
        .collect();
    Board::new(shape, cells).unwrap()
}

/// The Gecode 16x16 instances: see [`gecode_instances`].
#[test]
#[cfg_attr(
    not(harness_data),
    ignore = "needs HARNESS_DATA: scripts/fetch-data.sh DIR; HARNESS_DATA=DIR cargo test"
)]
fn gecode_16x16_instances() {
    gecode_instances("datasets/gecode_16x16.txt", "16x16");
}

/// The Gecode 25x25 instances: see [`gecode_instances`]. Heavy: `domain-reduction` spends about
/// two minutes on its budget of the 16 minimal puzzles.
#[test]
#[cfg_attr(
    not(harness_data),
    ignore = "needs HARNESS_DATA: scripts/fetch-data.sh DIR; HARNESS_DATA=DIR cargo test"
)]
#[cfg_attr(
    harness_data,
    ignore = "heavy: minutes; .ci/run runs it: cargo test --test solvers -- --ignored"
)]
fn gecode_25x25_instances() {
    gecode_instances("datasets/gecode_25x25.txt", "25x25");
}

/// The Gecode instances of `file` under a node budget of 200,000 a solve: every 16x16 one solved
/// by `domain-reduction` and proved unique by its count to 2; otherwise a solve may time out (the
/// minimal 25x25 puzzles are hard for these rules: Gecode itself propagates more), every answer
/// is checked, and where two counting solvers both count to the end they agree.
fn gecode_instances(file: &str, shape: &str) {
    use crate::common::data_file;
    let shape: Shape = shape.parse().unwrap();
    let text = std::fs::read_to_string(data_file(file)).unwrap();
    let puzzles: Vec<Board> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| gecode_board(shape, l))
        .collect();
    assert!(!puzzles.is_empty());
    // The counts of domain-reduction (None: not to the end).
    let mut reference: Vec<Option<u64>> = Vec::new();
    for kind in [
        SolverKind::DomainReduction,
        SolverKind::Large,
        SolverKind::Cdcl,
        SolverKind::BitmaskSingles,
        SolverKind::BitmaskDfs,
        SolverKind::Backtracking,
    ] {
        if kind == SolverKind::Cdcl && shape.side() > 16 {
            // Its own test below, under a smaller budget: a count to 2 that runs a 25x25
            // minimal puzzle's budget out costs seconds.
            continue;
        }
        let mut session = kind.session();
        let (mut solved, mut unique, mut nodes) = (0, 0, 0);
        let start = std::time::Instant::now();
        for (i, p) in puzzles.iter().enumerate() {
            let at = format!("{kind} on {file}:{}", i + 1);
            assert_eq!(p.first_conflict(), None, "{at}");
            let budget = Budget::unlimited().max_nodes(Some(200_000));
            let out = session.solve(p, &budget).unwrap();
            nodes += out.stats.nodes;
            match &out.solution {
                Some(answer) => {
                    assert_eq!(verify::check_board(p, answer, None), Ok(()), "{at}");
                    solved += 1;
                }
                None => assert_eq!(out.status, Status::Timeout, "{at}"),
            }
            if [
                SolverKind::DomainReduction,
                SolverKind::Large,
                SolverKind::Cdcl,
            ]
            .contains(&kind)
                && shape.side() == 16
            {
                assert_eq!(out.status, Status::Solved, "{at}");
            }
            let mut count = None;
            if kind.counts() && out.status == Status::Solved {
                let c = session.count(p, 2, &budget).unwrap();
                if c.complete {
                    unique += (c.solutions == 1) as usize;
                    count = Some(c.solutions);
                }
            }
            if kind == SolverKind::DomainReduction {
                if shape.side() == 16 {
                    assert_eq!(count, Some(1), "{at}");
                }
                reference.push(count);
            } else if let (Some(theirs), Some(ours)) = (reference[i], count) {
                assert_eq!(ours, theirs, "{at}");
            }
        }
        eprintln!(
            "{kind} on {file}: {solved}/{} solved, {unique} proved unique, {nodes} nodes, \
             {:?} (solves and counts)",
            puzzles.len(),
            start.elapsed()
        );
    }
}

/// `large` on all 18 Gecode 25x25 instances under a node budget of 300,000 a solve (minutes on a
/// loaded machine): every answer checked; the two easier variants (puzzles 17 and 18) and the
/// minimal puzzles 3, 7 and 14 solved within it (nodes, not time: the same on every machine).
#[test]
#[cfg_attr(
    not(harness_data),
    ignore = "needs HARNESS_DATA: scripts/fetch-data.sh DIR; HARNESS_DATA=DIR cargo test"
)]
#[cfg_attr(
    harness_data,
    ignore = "heavy: minutes; .ci/run runs it: cargo test --test solvers -- --ignored"
)]
fn large_on_the_gecode_25x25_instances() {
    gecode_25x25_solved_within(SolverKind::Large, 300_000, &[3, 7, 14, 17, 18]);
}

/// `cdcl` on all 18 Gecode 25x25 instances under a budget of 30,000 decisions a solve (about 15 s):
/// every answer checked; the two easier variants (puzzles 17 and 18) and the minimal puzzles 2,
/// 3, 5, 6, 7 and 14 solved within it (decisions, not time: the same on every machine).
#[test]
#[cfg_attr(
    not(harness_data),
    ignore = "needs HARNESS_DATA: scripts/fetch-data.sh DIR; HARNESS_DATA=DIR cargo test"
)]
#[cfg_attr(
    harness_data,
    ignore = "heavy: minutes; .ci/run runs it: cargo test --test solvers -- --ignored"
)]
fn cdcl_on_the_gecode_25x25_instances() {
    gecode_25x25_solved_within(SolverKind::Cdcl, 30_000, &[2, 3, 5, 6, 7, 14, 17, 18]);
}

/// `kind` on the 18 Gecode 25x25 instances under a budget of `max_nodes` a solve: every answer
/// checked, a timeout otherwise, and the puzzles of `must` (1-based) solved.
fn gecode_25x25_solved_within(kind: SolverKind, max_nodes: u64, must: &[usize]) {
    use crate::common::data_file;
    let shape: Shape = "25x25".parse().unwrap();
    let text = std::fs::read_to_string(data_file("datasets/gecode_25x25.txt")).unwrap();
    let puzzles: Vec<Board> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| gecode_board(shape, l))
        .collect();
    assert_eq!(puzzles.len(), 18);
    let mut session = kind.session();
    let mut solved = Vec::new();
    for (i, p) in puzzles.iter().enumerate() {
        let budget = Budget::unlimited().max_nodes(Some(max_nodes));
        let out = session.solve(p, &budget).unwrap();
        match &out.solution {
            Some(answer) => {
                assert_eq!(
                    verify::check_board(p, answer, None),
                    Ok(()),
                    "{kind} puzzle {}",
                    i + 1
                );
                solved.push(i + 1);
            }
            None => assert_eq!(out.status, Status::Timeout, "{kind} puzzle {}", i + 1),
        }
    }
    eprintln!("{kind} on gecode-25: solved {solved:?} within {max_nodes} nodes each");
    for m in must {
        assert!(solved.contains(m), "{kind} puzzle {m}: solved {solved:?}");
    }
}
