//! ../shared/cases: small inputs that broke Sudoku programs somewhere, each with its right value
//! (see that folder's README). Skipped with a printed reason when ../shared is absent.

use super::common::{cells, shared_case};
use harness::format::{PuzzleReader, Reason};
use harness::verify;
use solvers::{Budget, SolverKind, Status, Unit};

fn read_one(text: &str) -> Result<harness::format::Puzzle, harness::format::InputError> {
    PuzzleReader::from_text(text, "case")
        .next()
        .expect("one entry")
        .puzzle
}

#[test]
fn c01_repeated_givens_rejected_before_solving() {
    let Some(t) = shared_case("C01.txt") else {
        return;
    };
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
    let Some(t) = shared_case("C02.txt") else {
        return;
    };
    let err = read_one(&t).unwrap_err();
    assert_eq!(
        err.to_string(),
        "case:1: digit 1 given twice in row 1 (r1c1 and r1c2)"
    );
}

#[test]
fn c08_dancing_links_panic_case_solves() {
    let Some(t) = shared_case("C08.txt") else {
        return;
    };
    let p = read_one(&t).unwrap();
    let want =
        cells("351786924697342185428915637569134872742859316813267549935471268284693751176528493");
    for kind in SolverKind::ALL {
        let out = kind.build().solve(&p.grid, &Budget::unlimited());
        assert_eq!(out.status, Status::Solved, "{kind}");
        assert_eq!(
            verify::check(p.grid.cells(), out.solution.unwrap().cells(), Some(&want)),
            Ok(()),
            "{kind}"
        );
    }
}

#[test]
fn c12_only_the_box_rule_decides() {
    let Some(t) = shared_case("C12.txt") else {
        return;
    };
    let p = read_one(&t).unwrap();
    let want =
        cells("123897645456231978789564312897123564231456897564789231645312789978645123312978456");
    for kind in SolverKind::ALL {
        let out = kind.build().solve(&p.grid, &Budget::unlimited());
        assert_eq!(out.solution.map(|g| *g.cells()), Some(want), "{kind}");
    }
}

#[test]
fn c13_claimed_solution_with_an_empty_cell() {
    let Some(t) = shared_case("C13.txt") else {
        return;
    };
    let claimed = cells(&t);
    assert!(verify::check(&[0; 81], &claimed, None).is_err());
    let p = read_one(&t).unwrap();
    let mut want = claimed;
    want[80] = 9;
    for kind in SolverKind::ALL {
        let out = kind.build().solve(&p.grid, &Budget::unlimited());
        assert_eq!(out.solution.map(|g| *g.cells()), Some(want), "{kind}");
    }
}

#[test]
fn c14_and_c16_wrong_sizes_are_clear_errors() {
    let Some(t) = shared_case("C14.txt") else {
        return;
    };
    assert_eq!(
        read_one(&t).unwrap_err().to_string(),
        "case:1: 89 characters, expected 81"
    );
    let Some(t) = shared_case("C16.txt") else {
        return;
    };
    let msg = read_one(&t).unwrap_err().to_string();
    assert!(
        msg.contains("256 characters, expected 81") && msg.contains("16x16"),
        "{msg}"
    );
}
