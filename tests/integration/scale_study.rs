//! `harness scale`: a small study runs, every answer is checked, the same seed gives the same
//! instances byte for byte and the same node counts, and shards merge into one study.

use super::common::harness;
use std::path::Path;

/// A small study: Sudoku of orders 4 and 9 (4x4, 9x9), quasigroups of orders 5 and 6 at three hole
/// fractions, 2 instances a point, no time budget (so every solve finishes and counts nodes).
const STUDY: [&str; 16] = [
    "scale",
    "-s",
    "dlx,domain-reduction",
    "--sudoku-orders",
    "4..9",
    "--qwh-orders",
    "5..6",
    "--holes",
    "0.30..0.50/0.10",
    "-n",
    "2",
    "--timeout-ms",
    "0",
    "-j",
    "2",
    "-q",
];

fn study(dir: &Path, extra: &[&str]) {
    harness()
        .args(STUDY)
        .args(extra)
        .arg("-o")
        .arg(dir)
        .assert()
        .success();
}

/// (dataset, puzzle, solver, status, correct, nodes) of every row.
fn counts(dir: &Path) -> Vec<(String, String, String, String, String, String)> {
    let mut r = csv::Reader::from_path(dir.join("results.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let (d, p, s, st, c, n) = (
        col("dataset"),
        col("puzzle"),
        col("solver"),
        col("status"),
        col("correct"),
        col("nodes"),
    );
    r.records()
        .map(|x| {
            let x = x.unwrap();
            (
                x[d].to_string(),
                x[p].to_string(),
                x[s].to_string(),
                x[st].to_string(),
                x[c].to_string(),
                x[n].to_string(),
            )
        })
        .collect()
}

fn instance_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.join("instances"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".txt"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn a_small_study_is_checked_and_reproducible() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    study(&a, &["--seed", "7"]);
    // The repeats need only their instances and rows, not the plots.
    study(&b, &["--seed", "7", "--no-report"]);
    study(&c, &["--seed", "8", "--no-report"]);
    let files = instance_files(&a);
    // 2 Sudoku shapes + 2 orders x 3 fractions.
    assert_eq!(
        files.len(),
        8,
        "{:?}",
        files.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    assert_eq!(files, instance_files(&b), "same seed, same instance files");
    assert_ne!(files, instance_files(&c), "another seed, other instances");
    let rows = counts(&a);
    // 8 points x 2 instances x 2 solvers.
    assert_eq!(rows.len(), 32);
    for r in &rows {
        assert_eq!((r.3.as_str(), r.4.as_str()), ("solved", "true"), "{r:?}");
    }
    assert_eq!(rows, counts(&b), "same seed, same answers and node counts");
    for f in [
        "scale.md",
        "scale.csv",
        "scale.json",
        "scale-sudoku-micros.svg",
        "scale-qwh-nodes.png",
        "holes-qwh-6-micros.svg",
        "index.html",
    ] {
        assert!(a.join(f).is_file(), "{f} missing");
    }
    let md = std::fs::read_to_string(a.join("scale.md")).unwrap();
    assert!(md.contains("## The hardness peaks"), "{md}");
}

/// Sudoku with punched holes: every cell of a 12x12 and a 16x16 keeps its given or is a hole,
/// exactly round(f·N²) holes each (the files state no solution: the checker checks rows, columns
/// and boxes against the givens), and every answer is checked right.
#[test]
fn punched_sudoku_have_their_holes_and_are_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    harness()
        .args([
            "scale",
            "-s",
            "dlx,large",
            "--sudoku-orders",
            "3x4,16",
            "--punched",
        ])
        .args([
            "--sudoku-holes",
            "0.4",
            "-n",
            "3",
            "--timeout-ms",
            "0",
            "-q",
        ])
        .arg("-o")
        .arg(&dir)
        .assert()
        .success();
    let files = instance_files(&dir);
    let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        names,
        ["sudoku-12x12-3x4-p0.40.txt", "sudoku-16x16-p0.40.txt"]
    );
    for (name, bytes) in &files {
        let text = String::from_utf8(bytes.clone()).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        let side = if name.contains("12x12") { 12 } else { 16 };
        assert_eq!(lines.len(), 3, "{name}: {text}");
        for l in lines {
            assert_eq!(
                l.len(),
                side * side,
                "{name}: one puzzle a line, no solution: {l}"
            );
            let holes = l.bytes().filter(|&b| b == b'.').count();
            assert_eq!(
                holes,
                (0.4 * (side * side) as f64).round() as usize,
                "{name}: {l}"
            );
        }
    }
    let rows = counts(&dir);
    assert_eq!(rows.len(), 2 * 3 * 2);
    for r in &rows {
        assert_eq!((r.3.as_str(), r.4.as_str()), ("solved", "true"), "{r:?}");
    }
}

#[test]
fn shards_merge_into_one_study() {
    let tmp = tempfile::tempdir().unwrap();
    let (s1, s2, m) = (
        tmp.path().join("s1"),
        tmp.path().join("s2"),
        tmp.path().join("m"),
    );
    let shared = tmp.path().join("instances");
    let shared = shared.to_str().unwrap();
    study(
        &s1,
        &["--shard", "1/2", "--no-report", "--instances-dir", shared],
    );
    study(
        &s2,
        &["--shard", "2/2", "--no-report", "--instances-dir", shared],
    );
    harness()
        .arg("merge")
        .arg(&s1)
        .arg(&s2)
        .arg("--out")
        .arg(&m)
        .arg("--no-report")
        .assert()
        .success();
    harness()
        .args(["scale", "-q", "--render"])
        .arg(&m)
        .assert()
        .success();
    assert_eq!(counts(&m).len(), 32);
    let csv = std::fs::read_to_string(m.join("scale.csv")).unwrap();
    // A row per point and solver.
    assert_eq!(csv.lines().count(), 1 + 16, "{csv}");
}

/// Three Sudoku sides (4, 6, 9) and four quasigroup orders (5 to 8): each fit on three sides
/// keeps one degree of freedom (three medians, two parameters), and its verdict says it is
/// weak; the fits on four sides do not.
#[test]
fn a_fit_on_three_sides_says_its_verdict_is_weak() {
    let tmp = tempfile::tempdir().unwrap();
    let out = harness()
        .args([
            "scale",
            "-s",
            "dlx",
            "--sudoku-orders",
            "4,2x3,9",
            "--qwh-orders",
            "5..8",
            "--holes",
            "0.40",
            "-n",
            "2",
            "--timeout-ms",
            "0",
            "-j",
            "2",
            "--seed",
            "3",
            "-o",
        ])
        .arg(tmp.path())
        .assert()
        .success();
    let md = std::fs::read_to_string(tmp.path().join("scale.md")).unwrap();
    let rows: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| sudoku | dlx |") || l.starts_with("| qwh | dlx |"))
        .collect();
    assert_eq!(rows.len(), 4, "two families, two costs:\n{md}");
    for r in &rows {
        if r.starts_with("| sudoku") {
            assert!(
                r.contains("| 4, 6, 9 |") && r.contains(" (3 sides: weak) |"),
                "{r}"
            );
        } else {
            assert!(r.contains("| 5, 6, 7, 8 |") && !r.contains("weak"), "{r}");
        }
    }
    assert!(md.contains("one degree of freedom"), "{md}");
    // The terminal's lines say it too.
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("fits better")).collect();
    assert_eq!(lines.len(), 4, "{text}");
    for l in lines {
        assert_eq!(
            l.starts_with("sudoku dlx"),
            l.contains("fits better (3 sides: weak)"),
            "{l}"
        );
    }
}

/// `--order` is the side N in every command: the retired `--orders` (box orders) is refused,
/// naming its spelling in the side, and a study of Sudoku is given by sides.
#[test]
fn the_retired_box_orders_name_their_sudoku_orders_spelling() {
    let tmp = tempfile::tempdir().unwrap();
    harness()
        .args(["scale", "-q", "-s", "dlx", "--orders", "2..5,2x3"])
        .arg("-o")
        .arg(tmp.path().join("s"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--orders 2..5,2x3 is --sudoku-orders 4..25,2x3",
        ));
    assert!(!tmp.path().join("s").exists());
}

/// Hole counts in units of N^1.55, both placements and the isomorphs of one instance: the
/// files are named for what they hold and hold that many holes (order 10: 10^1.55 = 35.48, so
/// 1.2 x N^1.55 is round(42.58) = 43 random holes and 10 x round(4.3) = 40 balanced), the
/// backbone of every instance is recorded, scale.md sets balanced against random, and the same
/// seed gives the same files.
#[test]
fn holes_per_n155_both_placements_and_isomorphs() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |dir: &Path, extra: &[&str]| {
        harness()
            .args([
                "scale",
                "-s",
                "dlx",
                "--qwh-orders",
                "10",
                "--holes-per-n155",
                "1.2",
                "-n",
                "3",
                "--timeout-ms",
                "0",
                "-j",
                "2",
                "-q",
            ])
            .args(extra)
            .arg("-o")
            .arg(dir)
            .assert()
            .success();
    };
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    run(&a, &["--placement", "both"]);
    run(&b, &["--placement", "both"]);
    let files = instance_files(&a);
    let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        names,
        ["qwh-10-h1.20n155-balanced.txt", "qwh-10-h1.20n155.txt"]
    );
    assert_eq!(files, instance_files(&b));
    let holes = |bytes: &[u8]| -> Vec<usize> {
        String::from_utf8_lossy(bytes)
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.chars().filter(|&c| c == '.').count())
            .collect()
    };
    assert_eq!(holes(&files[0].1), [40, 40, 40]);
    assert_eq!(holes(&files[1].1), [43, 43, 43]);
    let backbone = std::fs::read_to_string(a.join("instances/backbone.csv")).unwrap();
    assert_eq!(backbone.lines().count(), 1 + 6, "{backbone}");
    assert!(
        backbone.starts_with("dataset,instance,holes,fixed\n"),
        "{backbone}"
    );
    let md = std::fs::read_to_string(a.join("scale.md")).unwrap();
    assert!(md.contains("## Balanced against random holes"), "{md}");
    assert!(md.contains("## The backbone"), "{md}");
    // The isomorphs of one instance: the same number of holes, the first is the instance itself.
    let c = tmp.path().join("c");
    run(&c, &["--isomorphs-of-first"]);
    let iso = instance_files(&c);
    assert_eq!(iso[0].0, "qwh-10-h1.20n155-iso.txt");
    assert_eq!(holes(&iso[0].1), [43, 43, 43]);
    let first = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes)
            .lines()
            .nth(1)
            .map(String::from)
    };
    assert_eq!(first(&iso[0].1), first(&files[1].1));
    assert!(c.join("tails-qwh-10-h1.20n155-iso-nodes.svg").is_file());
}
