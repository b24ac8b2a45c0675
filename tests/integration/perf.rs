//! `harness bench` and `harness regress`, and the champion's counting (no timed assertions: only
//! exit status, output shape and checked values).

use super::common::harness;
use crate::common::OnGrid;
use solvers::{Budget, Grid, SolverKind};

#[test]
fn bench_quick_runs_and_checks_answers() {
    let out = harness()
        .args([
            "bench",
            "--quick",
            "--dataset",
            "seed",
            "--solver",
            "bitboard-bands,bitmask-singles",
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("bitboard-bands") && text.contains("puzzles/s"),
        "{text}"
    );
    // The slower solver's ratio carries its interval, written as `run` and `compare` write
    // one: `1.43 [1.08, 1.53]`.
    let intervals: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("bitboard-bands") || l.contains("bitmask-singles"))
        .flat_map(|l| l.split('[').skip(1))
        .map(|r| r.split(']').next().unwrap_or(r))
        .collect();
    assert!(
        !intervals.is_empty()
            && intervals
                .iter()
                .all(|i| i.contains(", ") && !i.contains('-')),
        "{intervals:?} in\n{text}"
    );
}

#[test]
fn bench_count_mode_leaves_out_solvers_that_cannot_count() {
    let out = harness()
        .args([
            "bench",
            "--quick",
            "--count-mode",
            "--dataset",
            "seed",
            "--solver",
            "bitmask-dfs,bitboard-bands",
        ])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("count up to 2") && !text.contains("bitmask-dfs"),
        "{text}"
    );
    // The solver named and left out is said to be left out.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--count-mode: left out, they cannot count solutions: bitmask-dfs"),
        "{err}"
    );
}

#[test]
fn bench_names_the_puzzles_it_leaves_out() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("mixed.txt");
    let good = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    std::fs::write(&file, format!("{good}\n{}x\n", &good[..80])).unwrap();
    let out = harness()
        .args([
            "bench",
            "--quick",
            "--rounds",
            "1",
            "-s",
            "bitboard-bands",
            "-d",
        ])
        .arg(&file)
        .output()
        .expect("runs");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("invalid puzzle: {}:2", file.display()))
            && err.contains("mixed.txt: 1 invalid puzzle left out"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("mixed.txt: 1 puzzle,"));
    // A set of 16x16 puzzles alone: nothing to time, an input error naming the order.
    let out = harness()
        .args(["bench", "--quick", "-s", "hybrid", "-d", "gecode-16"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("55 puzzles of another order than 9x9 left out (16x16)")
            && err.contains("nothing to time"),
        "{err}"
    );
}

#[test]
fn bench_takes_the_sudoku_crate_by_name() {
    let out = harness()
        .args(["bench", "--quick", "--rounds", "1", "-d", "seed"])
        .args(["-s", "bitboard-bands,sudoku-crate"])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    if cfg!(feature = "reference") {
        assert!(out.status.success(), "{err}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("sudoku-crate"), "{text}");
    } else {
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("--features reference"), "{err}");
    }
}

#[test]
fn bench_checks_the_verdicts_of_a_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = dir.path().join("run");
    harness()
        .args([
            "run",
            "-q",
            "-j",
            "1",
            "--no-report",
            "-d",
            "clues30-1000",
            "-d",
            "seed",
        ])
        .args(["-s", "bitboard-bands,backtracking", "-o"])
        .arg(&run)
        .assert()
        .success();
    let out = harness()
        .args(["bench", "--quick", "--verdicts"])
        .arg(&run)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // One ranked dataset (seed has too few puzzles), one pair, decided in the run (backtracking
    // is more than ten times slower there); whether bench agrees is a timing, not asserted.
    assert!(
        text.contains("clues30-1000") && !text.contains("\nseed"),
        "{text}"
    );
    assert!(text.contains("1 decided verdict:"), "{text}");
}

/// One regress run (each takes a while in the test profile) shows both sides: against a copy of
/// the committed baseline with one node count changed by one, it fails on exactly that row, so
/// every other counter equals the committed baseline and a change of one is caught.
#[test]
fn regress_counters_match_the_baseline_but_for_a_changed_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/baseline");
    for f in ["regress-puzzles.txt", "counters.csv"] {
        std::fs::copy(src.join(f), dir.path().join(f)).expect("copy");
    }
    let path = dir.path().join("counters.csv");
    let text = std::fs::read_to_string(&path).expect("read");
    let changed = "seed,hard-17s,backtracking,solved,7368194,";
    assert!(
        text.contains(changed),
        "the committed baseline has {changed}"
    );
    let text = text.replacen(changed, "seed,hard-17s,backtracking,solved,7368195,", 1);
    std::fs::write(&path, text).expect("write");
    let out = harness()
        .args(["regress", "--no-timing", "--baseline"])
        .arg(dir.path())
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("counters: FAIL, 1 row differs"), "{text}");
    assert!(
        text.contains("backtracking seed hard-17s: baseline solved nodes=7368195 ")
            && text.contains(", now solved nodes=7368194 "),
        "{text}"
    );
}

#[test]
fn champion_counts_agree_with_bitmask_singles() {
    // Counting up to 3 on puzzles with 1, several, and no solution: two independent solvers agree.
    let unique = Grid::parse_line(
        "...6...3.5.....6...9...5.....4.1...6...4.3...8...9.5.....7...4...5.....8.3...8...",
    )
    .unwrap();
    let mut open = *unique.cells();
    open[3] = 0;
    open[7] = 0;
    open[9] = 0;
    let open = Grid::from_cells(open).unwrap();
    // r1c1..r1c8 = 1..8 and r2c9 = 9: r1c9 can hold nothing (the conformance tests' case).
    let mut none = Grid::EMPTY;
    for c in 0..8 {
        none.set(c, c as u8 + 1);
    }
    none.set(17, 9);
    let mut champion = solvers::SolverKind::CHAMPION.session();
    let mut other = SolverKind::BitmaskSingles.session();
    for g in [unique, open, none] {
        let a = champion.count_grid(&g, 3, &Budget::unlimited()).unwrap();
        let b = other.count_grid(&g, 3, &Budget::unlimited()).unwrap();
        assert_eq!(a.solutions, b.solutions);
        assert!(a.complete && b.complete);
    }
    assert_eq!(
        champion
            .count_grid(&unique, 3, &Budget::unlimited())
            .unwrap()
            .solutions,
        1
    );
    assert_eq!(
        champion
            .count_grid(&open, 3, &Budget::unlimited())
            .unwrap()
            .solutions,
        3
    );
    assert_eq!(
        champion
            .count_grid(&none, 3, &Budget::unlimited())
            .unwrap()
            .solutions,
        0
    );
}
