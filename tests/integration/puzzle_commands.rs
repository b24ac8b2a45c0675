//! `harness candidates`, `harness cnf` and `harness count`, run as a user would.

use super::common::harness;
use predicates::prelude::*;

/// The "17-second" case of datasets/seed.csv (20 givens).
const HARD: &str =
    "...6...3.5.....6...9...5.....4.1...6...4.3...8...9.5.....7...4...5.....8.3...8...";
/// The seed example (22 givens).
const SEED: &str =
    "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
/// inkala-2012-everest from datasets/named-hard.csv: the rules alone place nothing.
const EVEREST: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
/// The first 17-clue puzzle of ../shared/datasets/puzzles2_17_clue less its first given.
const SIXTEEN: &str =
    ".......................2.3......3.2...1.4......5....6..3......4.7..8...962...7...";

fn no_solution() -> String {
    // r1c1..r1c8 = 1..8, r2c9 = 9: r1c9 has no candidate.
    format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63))
}

#[test]
fn candidates_prints_the_pencil_marks() {
    let out = harness()
        .args(["candidates", EVEREST])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("21 givens; 0 digits placed by the rules"),
        "{text}"
    );
    assert!(text.contains("60 cells left with 254 candidates"), "{text}");
    // 9 rows x (3 lines + 1 separator) + the top border = 37 framed lines.
    let framed = text.lines().filter(|l| l.starts_with(['+', '|'])).count();
    assert_eq!(framed, 37);
    // r1c1 is the given 8; r1c2's candidates are 1 2 4 6 (worked from its row, column, box).
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(&rows[0][..13], "|     12. .2.");
    assert_eq!(&rows[1][..13], "|  8  4.6 456");
}

#[test]
fn candidates_trace_names_rule_and_unit_on_every_deduction() {
    for puzzle in [HARD, EVEREST] {
        let out = harness()
            .args(["candidates", "--trace", puzzle])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        let deductions: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with('r') && l.contains(" = "))
            .collect();
        assert!(!deductions.is_empty());
        for d in &deductions {
            assert!(
                d.contains("naked single in row") || d.contains("hidden single in "),
                "{d}"
            );
            assert!(
                d.contains("row ") || d.contains("column ") || d.contains("box "),
                "{d}"
            );
        }
        assert!(text.contains("solution "), "{text}");
    }
    // Everest: the rules place nothing, so the givens' pencil marks (printed by --trace) equal
    // the reduced ones.
    let out = harness()
        .args(["candidates", "--trace", EVEREST])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let framed: Vec<&str> = text.lines().filter(|l| l.starts_with(['+', '|'])).collect();
    assert_eq!(framed.len(), 2 * 37);
    assert_eq!(framed[..37], framed[37..]);
    // The hard case falls to singles alone: 61 deductions, no guess.
    harness()
        .args(["candidates", "--trace", HARD])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("61 digits placed by the rules")
                .and(predicate::str::contains("guess r").not()),
        );
}

#[test]
fn candidates_reads_stdin_and_rejects_bad_puzzles() {
    harness()
        .args(["candidates", "-"])
        .write_stdin(format!("{SEED}\n"))
        .assert()
        .success()
        .stdout(predicate::str::contains("22 givens"));
    harness()
        .args(["candidates", &SEED[..80]])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("80 characters, expected 81"));
    harness()
        .args(["candidates", &format!("77{}", &SEED[2..])])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("digit 7 given twice in row 1"));
}

#[test]
fn cnf_header_matches_the_clauses_written() {
    // A 25-given puzzle: the seed example plus three cells of its solution.
    let solution =
        "729364158341825967865971423536192874918547632274683519652438791493716285187259346";
    let mut p: Vec<u8> = SEED.bytes().collect();
    for cell in [1, 2, 3] {
        p[cell] = solution.as_bytes()[cell];
    }
    let p = String::from_utf8(p).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.cnf");
    harness()
        .args(["cnf", &p, "-o"])
        .arg(&file)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "p cnf 729 12013 (11988 base clauses + 25 givens)",
        ));
    let text = std::fs::read_to_string(&file).unwrap();
    let header = text.lines().find(|l| l.starts_with("p ")).unwrap();
    assert_eq!(header, "p cnf 729 12013");
    let clauses: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
        .collect();
    assert_eq!(clauses.len(), 11_988 + 25);
    let units = clauses.iter().filter(|l| l.split(' ').count() == 2).count();
    assert_eq!(units, 25, "one unit clause per given");
    // Every literal names one of the 729 variables, every clause ends in 0.
    for c in &clauses {
        let lits: Vec<i32> = c.split(' ').map(|t| t.parse().unwrap()).collect();
        assert_eq!(lits.last(), Some(&0));
        assert!(lits[..lits.len() - 1]
            .iter()
            .all(|&l| l != 0 && l.abs() <= 729));
    }
    // To stdout, the same text.
    let out = harness()
        .args(["cnf", &p])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(out).unwrap(), text);
    // No temporary file is left beside the output.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn count_prints_one_zero_or_at_least() {
    for solver in ["domain-reduction", "dlx", "sat", "bitmask-singles"] {
        for p in [SEED, HARD] {
            harness()
                .args(["count", p, "--solver", solver])
                .assert()
                .success()
                .stdout("1\n");
        }
        harness()
            .args(["count", &no_solution(), "--solver", solver])
            .assert()
            .success()
            .stdout("0\n");
        harness()
            .args(["count", SIXTEEN, "--solver", solver])
            .assert()
            .success()
            .stdout("at least 2\n");
    }
    harness()
        .args(["count", SIXTEEN, "--limit", "5"])
        .assert()
        .success()
        .stdout("at least 5\n");
}

#[test]
fn count_rejects_a_solver_that_does_not_count() {
    harness()
        .args(["count", SEED, "--solver", "bitmask-dfs"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("does not count")
                .and(predicate::str::contains("domain-reduction")),
        );
    harness()
        .args(["count", SEED, "--limit", "0"])
        .assert()
        .code(2);
}

#[test]
fn candidates_on_a_puzzle_without_solution_and_a_bounded_trace() {
    harness()
        .args(["candidates", "--trace", &no_solution()])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("contradiction: r1c9 has no candidate left")
                .and(predicate::str::contains("no solution")),
        );
    // The empty grid: the trace stops at the node budget.
    harness()
        .args(["candidates", "--trace", "--max-nodes", "3", &".".repeat(81)])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "stopped: the budget ran out after 4 nodes",
        ));
}

#[test]
fn a_bad_puzzle_argument_is_named_as_such() {
    // The puzzle given on the command line has no file and no line: the message says
    // `puzzle argument:`, not the old `PUZZLE:1:`; stdin keeps its line number.
    for cmd in ["candidates", "cnf", "count"] {
        harness()
            .args([cmd, &SEED[..80]])
            .assert()
            .code(2)
            .stderr("error: puzzle argument: 80 characters, expected 81\n");
        harness()
            .args([cmd, "-"])
            .write_stdin(format!("\n{}\n", &SEED[..80]))
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with("error: stdin:2: 80 characters"));
    }
}

#[test]
fn an_output_path_in_a_missing_folder_names_the_path_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder");
    let out = missing.join("p.cnf");
    harness()
        .args(["cnf", SEED, "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(format!(
            "error: cannot write {}: folder {} does not exist\n",
            out.display(),
            missing.display()
        ));
    // A folder where the file should go.
    harness()
        .args(["cnf", SEED, "-o"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(format!(
            "error: cannot write {}: it is a folder; give a file name\n",
            dir.path().display()
        ));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing left behind"
    );
}
