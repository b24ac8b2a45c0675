//! Puzzles that are valid text but bad Sudoku, and puzzles built to make solvers run away: one
//! table, one test body, run over every solver of [`SolverKind::ALL`] (so a solver added to the
//! registry is covered without touching this file).
//!
//! For each case and solver: the answer is the right one (a solution the checker accepts, equal
//! to the stated one when the puzzle is unique; `no_solution` only when there is none), or
//! `timeout` when the case allows a solver to run out of its node budget; never a wrong verdict.
//! Counting solvers must count right. Then every case is run again under a ladder of tiny node
//! budgets: a budget that runs out is `timeout`, never `no_solution`.

use crate::common::OnGrid;
use harness::execution::runner::{self, RunOptions};
use harness::input::dataset::Dataset;
use harness::input::format::{Format, PuzzleReader};
use harness::verify;
use solvers::{Budget, Grid, SolverKind, Status};
use std::time::Duration;

/// What a puzzle's right answer is.
#[derive(Debug, Clone, Copy)]
pub enum Want {
    /// Exactly one solution, this one (81 digits).
    Unique(&'static str),
    /// No solution.
    NoSolution,
    /// Exactly `n` solutions.
    Exactly(u64),
    /// At least 2 solutions (the exact number is large or unknown).
    Several,
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    /// Name shown in failures.
    pub name: &'static str,
    /// The puzzle, 81 characters.
    pub grid: &'static str,
    /// The right answer.
    pub want: Want,
    /// Node budget of each solve.
    pub max_nodes: u64,
    /// True when every solver must reach the verdict within `max_nodes`; false when a solver may
    /// run out (`timeout`) because the puzzle is built against its search order.
    pub must_finish: bool,
}

/// A wall-clock guard so a runaway solver fails the test instead of hanging it; far above any
/// case's need (the slowest, C04 on `backtracking`, takes about 5 s).
const GUARD: Duration = Duration::from_secs(300);

/// Runs one case over every solver; panics with the solver and case on a wrong answer.
pub fn check_case(case: &Case) {
    let puzzle: Grid = case.grid.parse().expect("81 characters");
    check_puzzle(case, &puzzle);
}

/// As [`check_case`], on `puzzle` (read from a file, say) instead of `case.grid`.
pub fn check_puzzle(case: &Case, puzzle: &Grid) {
    let puzzle = *puzzle;
    assert!(puzzle.first_conflict().is_none(), "{}: givens", case.name);
    let expected = match case.want {
        Want::Unique(s) => Some(*s.parse::<Grid>().expect("81 digits").cells()),
        _ => None,
    };
    for &kind in SolverKind::ALL {
        let mut solver = kind.session();
        let budget = Budget::unlimited()
            .max_nodes(Some(case.max_nodes))
            .timeout(Some(GUARD));
        let out = solver.solve_grid(&puzzle, &budget).unwrap();
        let who = format!("{kind} on {}", case.name);
        match out.status {
            Status::Solved => {
                let sol = out.solution.expect("solved comes with a grid");
                assert_eq!(
                    verify::check(puzzle.cells(), sol.cells(), expected.as_ref()),
                    Ok(()),
                    "{who}: wrong solution {sol}"
                );
                assert!(!matches!(case.want, Want::NoSolution), "{who}: solved?");
            }
            Status::NoSolution => {
                assert!(
                    matches!(case.want, Want::NoSolution),
                    "{who}: no_solution for a puzzle with a solution"
                );
                assert!(out.solution.is_none());
            }
            Status::Timeout => {
                assert!(
                    !case.must_finish,
                    "{who}: ran out of {} nodes ({} used)",
                    case.max_nodes, out.stats.nodes
                );
                assert!(out.solution.is_none());
                eprintln!("{who}: timeout after {} nodes (allowed)", out.stats.nodes);
            }
        }
        assert!(
            out.stats.nodes <= case.max_nodes + Budget::CHECK_INTERVAL,
            "{who}: {} nodes, budget {}",
            out.stats.nodes,
            case.max_nodes
        );
        // Counting, where supported: up to one more than the exact number, or 2.
        let limit = match case.want {
            Want::Exactly(n) => n + 1,
            _ => 2,
        };
        if let Ok(c) = solver.count_grid(&puzzle, limit, &budget) {
            if let Some(first) = c.first {
                assert_eq!(
                    verify::check(puzzle.cells(), first.cells(), expected.as_ref()),
                    Ok(()),
                    "{who}: counted a wrong solution"
                );
            }
            let want_count = match case.want {
                Want::Unique(_) => 1,
                Want::NoSolution => 0,
                Want::Exactly(n) => n,
                Want::Several => 2,
            };
            if c.complete {
                assert_eq!(c.solutions, want_count, "{who}: count");
            } else {
                assert!(!case.must_finish, "{who}: count ran out of budget");
                assert!(c.solutions <= want_count, "{who}: count {}", c.solutions);
            }
        }
    }
    budget_ladder(case, &puzzle, expected.as_ref());
}

/// Under tiny node budgets every solver says `timeout` or the right verdict: never
/// `no_solution` for a puzzle with a solution, never a wrong grid.
fn budget_ladder(case: &Case, puzzle: &Grid, expected: Option<&[u8; 81]>) {
    for &kind in SolverKind::ALL {
        let mut solver = kind.session();
        for nodes in [0, 1, 2, 10, 100, 1000, 5000] {
            let budget = Budget::unlimited().max_nodes(Some(nodes));
            let out = solver.solve_grid(puzzle, &budget).unwrap();
            let who = format!("{kind} on {} with {nodes} nodes", case.name);
            match out.status {
                Status::Timeout => assert!(out.solution.is_none(), "{who}"),
                Status::NoSolution => {
                    assert!(matches!(case.want, Want::NoSolution), "{who}: no_solution")
                }
                Status::Solved => assert_eq!(
                    verify::check(puzzle.cells(), out.solution.unwrap().cells(), expected),
                    Ok(()),
                    "{who}"
                ),
            }
            if let Ok(c) = solver.count_grid(puzzle, 2, &budget) {
                if !c.complete {
                    continue;
                }
                let ok = match case.want {
                    Want::NoSolution => c.solutions == 0,
                    Want::Unique(_) => c.solutions == 1,
                    _ => c.solutions == 2,
                };
                assert!(ok, "{who}: complete count {}", c.solutions);
            }
        }
        // A cancel flag already set: every solver stops (or finishes) without a wrong verdict.
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let out = solver
            .solve_grid(puzzle, &Budget::unlimited().cancel_flag(flag))
            .unwrap();
        if out.status == Status::NoSolution {
            assert!(
                matches!(case.want, Want::NoSolution),
                "{kind} on {} cancelled: no_solution",
                case.name
            );
        }
    }
}

const EMPTY: &str =
    ".................................................................................";

/// The table. Solutions were found by `bitmask-singles`, accepted by the checker and counted
/// unique by the counting solvers; counts of several solutions were checked by two solvers
/// (see ../shared/cases/README.md).
pub const CASES: &[Case] = &[
    Case {
        name: "empty grid (C07)",
        grid: EMPTY,
        want: Want::Several,
        max_nodes: 1_000_000,
        must_finish: true,
    },
    Case {
        name: "one given (r5c5 = 5)",
        grid: "........................................5........................................",
        want: Want::Several,
        max_nodes: 1_000_000,
        must_finish: true,
    },
    Case {
        name: "16 givens (17-clue-2 without r9c4)",
        grid: ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.......",
        want: Want::Several,
        // backtracking needs 10,413,449 nodes for its first solution.
        max_nodes: 20_000_000,
        must_finish: true,
    },
    Case {
        name: "15 givens (C06)",
        grid: "..1......2..........3......4.......5..5...6..6......4...71.3...8..........9.2....",
        want: Want::Several,
        max_nodes: 2_000_000,
        must_finish: false,
    },
    Case {
        name: "17-clue-1 (first of the 17-clue list)",
        grid: ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
        want: Want::Unique(
            "953168742862734951417952836746893125281645397395271468138529674574386219629417583",
        ),
        // Over 200 million nodes for row-major search.
        max_nodes: 2_000_000,
        must_finish: false,
    },
    Case {
        name: "17-clue-2 (second of the 17-clue list)",
        grid: ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....",
        want: Want::Unique(
            "143657982952438761867192435795863124314279658286514397438921576671385249529746813",
        ),
        // backtracking: 6,573,844 nodes.
        max_nodes: 10_000_000,
        must_finish: true,
    },
    Case {
        name: "C04, built against row-major search",
        grid: "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
        want: Want::Unique(
            "987654321246173985351928746128537694634892157795461832519286473472319568863745219",
        ),
        // backtracking and bitmask-dfs: 69,175,317 nodes (about 5 s and 1 s).
        max_nodes: 100_000_000,
        must_finish: true,
    },
    Case {
        name: "C10, one given short of unique",
        grid: "........2.2..5.8.1......3..7.4.9........8541.....37...18....9....7..9...2...4..58",
        want: Want::Exactly(26),
        max_nodes: 1_000_000,
        must_finish: true,
    },
    Case {
        name: "C10 with r6c3 = 5",
        grid: "........2.2..5.8.1......3..7.4.9........8541...5.37...18....9....7..9...2...4..58",
        want: Want::Unique(
            "358914672629753841471268395764192583932685417815437269183576924547829136296341758",
        ),
        max_nodes: 1_000_000,
        must_finish: true,
    },
    Case {
        name: "no solution at the root (r1c9 has no candidate)",
        grid: "12345678..................9......................................................",
        want: Want::NoSolution,
        max_nodes: 1_000_000,
        must_finish: true,
    },
    Case {
        name: "no solution found last (r9c9 has no candidate)",
        grid: "........9...............................................................12345678.",
        want: Want::NoSolution,
        max_nodes: 2_000_000,
        must_finish: false,
    },
    Case {
        name: "no solution: 9 has no place in box 9",
        grid: "........9.............................................9...........9...........12.",
        want: Want::NoSolution,
        max_nodes: 2_000_000,
        must_finish: false,
    },
    Case {
        name: "no solution: 17-clue puzzle with one given changed",
        grid: ".................1..1..2.3......6....4....5..6.7...4......5.......84..9.9.2....6.",
        want: Want::NoSolution,
        // bitmask-singles proves it in 11,983 nodes.
        max_nodes: 2_000_000,
        must_finish: false,
    },
];

#[test]
fn every_solver_on_every_bad_sudoku_case() {
    for case in CASES {
        check_case(case);
    }
}

/// The pathological set shipped for `examples/overrun.rs` holds the table's runaway cases.
#[test]
fn pathological_dataset_reads_and_matches_the_table() {
    let text = include_str!("../../datasets/pathological.txt");
    let r = PuzzleReader::from_text(text, "pathological.txt");
    assert_eq!(r.format(), Format::Line);
    let grids: Vec<String> = r
        .map(|e| e.puzzle.expect("valid").grid().unwrap().to_line())
        .collect();
    assert_eq!(grids.len(), 6);
    for g in grids {
        assert!(CASES.iter().any(|c| c.grid == g), "{g} not in the table");
    }
}

/// Duplicate givens are rejected by the reader, so the runner never hands them to a solver: the
/// row is `invalid` with no effort and the error names both cells.
#[test]
fn duplicate_givens_never_reach_a_solver() {
    // ../shared/cases/C01.txt and C02.txt.
    let text = ".99..5.1.85.4....2432......1...69.83.9.....6.62.71...9......1945....4.37.4.3..6..\n\
                11...............................................................................\n";
    let r = PuzzleReader::from_text(text, "dups.txt");
    let ds = Dataset {
        name: "dups".into(),
        source: "dups.txt".into(),
        format: r.format(),
        entries: r.collect(),
    };
    let rows = runner::run(
        &[ds],
        &RunOptions {
            threads: Some(1),
            ..RunOptions::default()
        },
    )
    .unwrap();
    assert_eq!(rows.len(), 2 * SolverKind::ALL.len());
    for r in &rows {
        assert_eq!(r.status, harness::record::RowStatus::Invalid, "{r:?}");
        assert_eq!((r.nodes, r.micros), (0, 0.0));
        assert!(r.solution.is_empty());
    }
    assert!(rows[0]
        .error
        .ends_with("dups.txt:1: digit 9 given twice in row 1 (r1c2 and r1c3)"));
    assert!(rows
        .last()
        .unwrap()
        .error
        .ends_with("dups.txt:2: digit 1 given twice in row 1 (r1c1 and r1c2)"));
}

/// If a caller skips the check anyway, no solver panics or runs away on repeated givens, and any
/// grid it returns is rejected by the checker.
#[test]
fn solvers_given_repeated_givens_stay_safe() {
    for text in [
        ".99..5.1.85.4....2432......1...69.83.9.....6.62.71...9......1945....4.37.4.3..6..",
        "11...............................................................................",
    ] {
        let g: Grid = text.parse().unwrap();
        assert!(g.first_conflict().is_some());
        for &kind in SolverKind::ALL {
            let out = kind
                .session()
                .solve_grid(&g, &Budget::unlimited().max_nodes(Some(1_000_000)))
                .unwrap();
            if let Some(sol) = out.solution {
                assert!(
                    verify::check(g.cells(), sol.cells(), None).is_err(),
                    "{kind}: {sol}"
                );
            }
        }
    }
}
