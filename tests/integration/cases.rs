//! tests/fixtures/cases: small inputs that broke Sudoku programs somewhere, each with its right
//! value (see that folder's README).

use super::common::{case, cells};
use crate::common::OnGrid;
use harness::input::format::{PuzzleReader, Reason};
use harness::verify;
use solvers::{Budget, SolverKind, Status, Unit};

fn read_one(
    text: &str,
) -> Result<harness::input::format::Puzzle, harness::input::format::InputError> {
    PuzzleReader::from_text(text, "case")
        .next()
        .expect("one entry")
        .puzzle
}

#[test]
fn c01_repeated_givens_rejected_before_solving() {
    let t = case("C01.txt");
    let err = read_one(&t).unwrap_err();
    match err.reason {
        Reason::DuplicateGiven(c) => {
            assert_eq!(
                (c.digit, c.first, c.second, c.unit),
                (9, 1, 2, Unit::Row(0))
            );
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn c02_two_ones_in_row_one() {
    let t = case("C02.txt");
    let err = read_one(&t).unwrap_err();
    assert_eq!(
        err.to_string(),
        "case:1: digit 1 given twice in row 1 (r1c1 and r1c2)"
    );
}

#[test]
fn c08_dancing_links_panic_case_solves() {
    let t = case("C08.txt");
    let p = read_one(&t).unwrap();
    let want =
        cells("351786924697342185428915637569134872742859316813267549935471268284693751176528493");
    for kind in SolverKind::ALL {
        let out = kind
            .session()
            .solve_grid(&p.grid().unwrap(), &Budget::unlimited())
            .unwrap();
        assert_eq!(out.status, Status::Solved, "{kind}");
        assert_eq!(
            verify::check(
                p.grid().unwrap().cells(),
                out.solution.unwrap().cells(),
                Some(&want)
            ),
            Ok(()),
            "{kind}"
        );
    }
}

#[test]
fn c12_only_the_box_rule_decides() {
    let t = case("C12.txt");
    let p = read_one(&t).unwrap();
    let want =
        cells("123897645456231978789564312897123564231456897564789231645312789978645123312978456");
    for kind in SolverKind::ALL {
        let out = kind
            .session()
            .solve_grid(&p.grid().unwrap(), &Budget::unlimited())
            .unwrap();
        assert_eq!(out.solution.map(|g| *g.cells()), Some(want), "{kind}");
    }
}

#[test]
fn c13_claimed_solution_with_an_empty_cell() {
    let t = case("C13.txt");
    let claimed = cells(&t);
    assert!(verify::check(&[0; 81], &claimed, None).is_err());
    let p = read_one(&t).unwrap();
    let mut want = claimed;
    want[80] = 9;
    for kind in SolverKind::ALL {
        let out = kind
            .session()
            .solve_grid(&p.grid().unwrap(), &Budget::unlimited())
            .unwrap();
        assert_eq!(out.solution.map(|g| *g.cells()), Some(want), "{kind}");
    }
}

#[test]
fn c14_and_c16_wrong_sizes_are_clear_errors() {
    let t = case("C14.txt");
    assert_eq!(
        read_one(&t).unwrap_err().to_string(),
        "case:1: 89 characters, expected 81"
    );
    // C16 is a 16x16 puzzle: read as one now (tests/integration/shape_io.rs checks the
    // solution the README states). A 9x9 command still refuses it, naming the size.
    let t = case("C16.txt");
    let p = read_one(&t).unwrap();
    assert_eq!(p.shape().to_string(), "16x16");
    assert_eq!(
        p.require_grid("solve").unwrap_err(),
        "a 16x16 puzzle: solve takes 9x9 grids only"
    );
}

use super::bad_sudoku::{check_puzzle, Case, Want};

/// A case file's puzzle, run over every solver with the README's right value.
fn check_file(file: &str, want: Want, max_nodes: u64, must_finish: bool) {
    let t = case(file);
    let p = read_one(&t).unwrap();
    let case = Case {
        name: file.to_string().leak(),
        grid: "",
        want,
        max_nodes,
        must_finish,
    };
    check_puzzle(&case, &p.grid().unwrap());
}

/// C04: exactly 1 solution, the stated one, found by every solver; `backtracking` needs
/// 69,175,317 placements (about 5 s with the optimised solvers crate), so it runs to the end.
#[test]
fn c04_row_major_trap_has_one_solution() {
    check_file(
        "C04.txt",
        Want::Unique(
            "987654321246173985351928746128537694634892157795461832519286473472319568863745219",
        ),
        100_000_000,
        true,
    );
    // The node count the README states ("about 69 million placements").
    let t = case("C04.txt");
    let p = read_one(&t).unwrap();
    let out = SolverKind::BitmaskDfs
        .session()
        .solve_grid(&p.grid().unwrap(), &Budget::unlimited())
        .unwrap();
    assert_eq!(out.stats.nodes, 69_175_317);
}

/// C06: 15 givens, not unique; the two solutions the README gives are both valid; a budget
/// that runs out is `timeout`, never `no_solution` (the row-major solvers run out here).
#[test]
fn c06_fifteen_givens_is_not_unique() {
    check_file("C06.txt", Want::Several, 2_000_000, false);
    let t = case("C06.txt");
    let p = read_one(&t).unwrap();
    for s in [
        "751832964264791538983456721432679815175384692698215347527163489816947253349528176",
        "751832964264951738983746251432679815175384692698215347527163489816497523349528176",
    ] {
        assert_eq!(
            verify::check(p.grid().unwrap().cells(), &cells(s), None),
            Ok(())
        );
    }
}

/// C07: the empty grid; any valid full grid; counting says 2 or more; MRV picks a cell when
/// every cell has 9 candidates.
#[test]
fn c07_empty_grid() {
    check_file("C07.txt", Want::Several, 1_000_000, true);
}

/// C10: exactly 26 solutions; with r6c3 = 5 added, exactly 1, the stated one.
#[test]
fn c10_twenty_six_solutions_then_one() {
    check_file("C10.txt", Want::Exactly(26), 1_000_000, true);
    let t = case("C10.txt");
    let mut g = read_one(&t).unwrap().grid().unwrap();
    g.set(5 * 9 + 2, 5);
    let case = Case {
        name: "C10 with r6c3 = 5",
        grid: "",
        want: Want::Unique(
            "358914672629753841471268395764192583932685417815437269183576924547829136296341758",
        ),
        max_nodes: 1_000_000,
        must_finish: true,
    };
    check_puzzle(&case, &g);
}

/// seed.csv: each puzzle has exactly 1 solution, the one in the file.
#[test]
fn seed_csv_each_unique() {
    let t = case("seed.csv");
    let entries: Vec<_> = PuzzleReader::from_text(&t, "seed.csv").collect();
    assert_eq!(entries.len(), 2);
    for e in entries {
        let p = e.puzzle.unwrap();
        let sol = p.solution_grid().expect("stated").to_line();
        let case = Case {
            name: e.name.unwrap().leak(),
            grid: "",
            want: Want::Unique(sol.leak()),
            max_nodes: 20_000_000,
            must_finish: true,
        };
        check_puzzle(&case, &p.grid().unwrap());
    }
}

/// C08, C12 and C13 (as a puzzle) through the full table check: every solver finds the stated
/// solution and every counting solver counts exactly 1.
#[test]
fn c08_c12_c13_unique_and_counted() {
    check_file(
        "C08.txt",
        Want::Unique(
            "351786924697342185428915637569134872742859316813267549935471268284693751176528493",
        ),
        1_000_000,
        true,
    );
    check_file(
        "C12.txt",
        Want::Unique(
            "123897645456231978789564312897123564231456897564789231645312789978645123312978456",
        ),
        1_000_000,
        true,
    );
    check_file(
        "C13.txt",
        Want::Unique(
            "491753286753286491286491753947135862135862947862947135514379628379628514628514379",
        ),
        1_000_000,
        true,
    );
}
