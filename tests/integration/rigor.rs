//! Counts, classes and transforms as a reviewer checks them: one fixture with a puzzle of each
//! kind (`tests/fixtures/six-puzzles.txt`), every count the same in every output.

use super::common::harness;
use harness::analysis::summary::SummaryRow;
use std::path::{Path, PathBuf};

fn six() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/six-puzzles.txt")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

const SOLVERS: [&str; 2] = ["bitmask-singles", "dlx"];

/// Runs the two solvers over the fixture into `dir`; returns stdout.
fn run_six(dir: &Path, extra: &[&str]) -> String {
    let out = harness()
        .args([
            "run",
            "-j",
            "1",
            "--solver",
            &SOLVERS.join(","),
            "--dataset",
        ])
        .arg(six())
        .arg("--out")
        .arg(dir)
        .args(extra)
        .assert()
        // Two of the six puzzles cannot be read: exit status 2, the rest run and saved.
        .code(2)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

fn rows(dir: &Path) -> Vec<harness::record::Row> {
    csv::Reader::from_path(dir.join("results.csv"))
        .unwrap()
        .deserialize()
        .map(|r| r.unwrap())
        .collect()
}

#[test]
fn one_count_everywhere_and_the_two_solution_puzzle_flagged() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let stdout = run_six(&dir, &[]);

    // The terminal table: solved, wrong, no-sol, timeout, error, invalid per solver.
    assert!(stdout.contains("six-puzzles.txt: 6 puzzles"), "{stdout}");
    for s in SOLVERS {
        let line = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(s))
            .unwrap_or_else(|| panic!("no table line for {s}: {stdout}"));
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(&cols[1..7], ["3", "0", "1", "0", "0", "2"], "{line}");
    }
    assert!(
        stdout.contains("6 solved and checked, 0 wrong, 0 timeouts, 2 invalid puzzles"),
        "{stdout}"
    );

    // summary.csv: the same counts, and the virtual best solver.
    let summary: Vec<SummaryRow> = csv::Reader::from_path(dir.join("summary.csv"))
        .unwrap()
        .deserialize()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(summary.len(), 3, "two solvers and virtual-best");
    for r in &summary {
        assert_eq!(
            (
                r.puzzles,
                r.solved,
                r.wrong,
                r.no_solution,
                r.timeouts,
                r.errors,
                r.invalid
            ),
            (6, 3, 0, 1, 0, 0, 2),
            "{}",
            r.solver
        );
    }

    // results.csv: the class of every puzzle, the same for every solver.
    let rows = rows(&dir);
    assert_eq!(rows.len(), 12);
    for r in &rows {
        use harness::record::SolutionClass;
        let want = match r.line {
            1 | 2 => Some(SolutionClass::One),
            3 => Some(SolutionClass::Several),
            4 => Some(SolutionClass::None),
            _ => None,
        };
        assert_eq!(r.solutions, want, "line {} {}", r.line, r.solver);
        if r.line == 3 {
            // Either of the two solutions, checked against the puzzle.
            assert_eq!(r.correct, Some(true));
        }
    }

    // Both pages: the verdict and the table say 3 of 6 solved, the rest named; the class line
    // flags the two-solution puzzle.
    let md = read(&dir.join("summary.md"));
    let verdict = "too few puzzles to rank (4 readable, 30 needed); most solved: 3/6 (1 no \
                   solution, 2 invalid) by ";
    assert!(md.contains(verdict), "{md}");
    for s in SOLVERS {
        assert!(
            md.contains(&format!(
                "| six-puzzles.txt | {s} | 3 / 6 | 1 no solution, 2 invalid |"
            )),
            "{md}"
        );
    }
    let flag = "six-puzzles.txt: 1 with no solution, 2 with one, 1 with several. The puzzle \
                with several solutions (line 3) has no one answer";
    assert!(md.contains(flag), "{md}");
    let html = read(&dir.join("index.html"));
    assert!(html.contains(verdict));
    assert!(html.contains("3 / 6"));
    // The statistics sections are on the page linked from it.
    assert!(html.contains("<a href=\"details.html\">"));
    assert!(read(&dir.join("details.html")).contains(flag));

    // Plot titles and legends: the same counts.
    let cactus = read(&dir.join("plots/cactus-six-puzzles-txt.svg"));
    assert!(
        cactus.contains("Cactus plot: six-puzzles.txt (4 readable puzzles, 2 invalid)"),
        "cactus title"
    );
    for s in SOLVERS {
        assert!(
            cactus.contains(&format!("{s} (3 solved, 1 no_solution)")),
            "cactus legend of {s}"
        );
    }

    // run.json: the manifest, classes filled from the rows.
    let info: serde_json::Value = serde_json::from_str(&read(&dir.join("run.json"))).unwrap();
    let m = &info["manifests"][0];
    assert_eq!(m["puzzles"], 6);
    assert_eq!(m["invalid"], 2);
    assert_eq!(m["classes"]["none"], 1);
    assert_eq!(m["classes"]["one"], 2);
    assert_eq!(m["classes"]["several"], 1);
    assert_eq!(m["clues"]["17"], 1);
    assert_eq!(m["clues"]["72"], 1);
    assert_eq!(m["clues"]["77"], 1);
    assert_eq!(m["clues"]["9"], 1);
    assert_eq!(m["sha256"].as_str().unwrap().len(), 64);
}

#[test]
fn inspect_names_classes_and_duplicates_up_to_isomorphism() {
    use harness::input::isomorph::Transform;
    let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let cells: [u8; 81] = std::array::from_fn(|i| {
        p.as_bytes()[i]
            .checked_sub(b'0')
            .filter(|&d| d <= 9)
            .unwrap_or(0)
    });
    let iso: String = Transform::random(5, 1, 0)
        .apply(&cells)
        .iter()
        .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
        .collect();
    assert_ne!(iso, p);
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("dups.txt");
    std::fs::write(&file, format!("{p}\n{iso}\n{p}\n")).unwrap();
    let out = harness().arg("inspect").arg(&file).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("puzzles  3 (3 readable, 0 invalid)"),
        "{text}"
    );
    assert!(
        text.contains("classes  0 with no solution, 3 with one, 0 with several"),
        "{text}"
    );
    assert!(
        text.contains("duplicates 1 exact, 2 up to isomorphism"),
        "{text}"
    );
    assert!(text.contains("line 3 repeats line 1"), "{text}");
    assert!(text.contains("line 2 is an isomorph of line 1"), "{text}");

    let out = harness()
        .arg("inspect")
        .arg("--json")
        .arg(six())
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v[0]["classes"]["several"], 1);
    assert_eq!(v[0]["classes"]["none"], 1);
    assert_eq!(v[0]["isomorphic_duplicates"], 0);
}

/// The solution of the fixture's first puzzle (and of its second, a solved grid with a row
/// emptied), checked by hand against both.
const SOL: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

#[test]
fn isomorphs_are_mapped_back_checked_and_their_spread_reported() {
    use harness::input::isomorph::Transform;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("iso");
    run_six(&dir, &["--isomorphs", "3", "--transform", "11", "-q"]);
    let rows = rows(&dir);
    assert_eq!(rows.len(), 6 * 3 * SOLVERS.len());
    for r in &rows {
        if r.status == harness::record::RowStatus::Invalid {
            continue;
        }
        // Copy k of puzzle i is Transform::random(seed, i, k), rows solver-minor.
        let copy = rows
            .iter()
            .filter(|o| o.line == r.line && o.solver == r.solver)
            .position(|o| std::ptr::eq(o, r))
            .unwrap();
        let index: u64 = r.puzzle.parse().unwrap();
        assert_eq!(
            r.transform,
            Transform::random(11, index, copy as u32).code()
        );
        assert_ne!(r.transform, Transform::identity().code());
        if r.line <= 2 {
            // Mapped back onto the original puzzle: its one solution.
            assert_eq!(r.solution, SOL, "line {} copy {copy} {}", r.line, r.solver);
        }
        if r.line == 3 {
            assert_eq!(r.correct, Some(true));
        }
    }
    // Counts: every copy is counted, and the classes once per puzzle.
    let summary: Vec<SummaryRow> = csv::Reader::from_path(dir.join("summary.csv"))
        .unwrap()
        .deserialize()
        .map(|r| r.unwrap())
        .collect();
    for r in summary.iter().filter(|r| r.solver != "virtual-best") {
        assert_eq!(
            (r.puzzles, r.solved, r.no_solution, r.invalid),
            (18, 9, 3, 6)
        );
    }
    let info: serde_json::Value = serde_json::from_str(&read(&dir.join("run.json"))).unwrap();
    assert_eq!(info["transform"], 11);
    assert_eq!(info["isomorphs"], 3);
    assert_eq!(info["manifests"][0]["classes"]["one"], 2);

    // The spread: on line 1, dlx took 67, 578 and 936 nodes over the three copies (results.csv):
    // 936 / 67 = 13.97; bitmask-singles 4,844, 3,097 and 4,822: 1.56. The other puzzles take the
    // same nodes on every copy.
    let nodes = |s: &str| -> Vec<u64> {
        rows.iter()
            .filter(|r| r.line == 1 && r.solver == s)
            .map(|r| r.nodes)
            .collect()
    };
    assert_eq!(nodes("dlx"), [67, 578, 936]);
    assert_eq!(nodes("bitmask-singles"), [4844, 3097, 4822]);
    let md = read(&dir.join("summary.md"));
    for want in [
        "## Isomorph spread",
        "Each puzzle was solved 3 times",
        "Nodes vary with orientation: bitmask-singles, dlx.",
        "| bitmask-singles | 4 | 1 / 4 | 1.00 | 1.39 | 1.56 |",
        "| dlx | 4 | 1 / 4 | 1.00 | 10.08 | 13.97 |",
        "![Isomorph spread](plots/isomorph-spread.svg)",
    ] {
        assert!(md.contains(want), "{want}\n{md}");
    }
    let svg = read(&dir.join("plots/isomorph-spread.svg"));
    assert!(svg.contains("Isomorph spread: max/min search-tree nodes"));
}

#[test]
fn solve_and_bench_take_a_transform() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("two.txt");
    let text = read(&six());
    std::fs::write(
        &file,
        text.lines().take(2).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    let out = harness()
        .arg("solve")
        .arg(&file)
        .args(["--transform", "3", "-s", "dlx"])
        .assert()
        .success();
    // The answers are the original puzzles' solutions, not the isomorphs'.
    assert_eq!(
        String::from_utf8(out.get_output().stdout.clone()).unwrap(),
        format!("{SOL}\n{SOL}\n")
    );
    harness()
        .arg("bench")
        .args([
            "-s",
            "dlx",
            "--quick",
            "--rounds",
            "1",
            "--transform",
            "5",
            "--isomorphs",
            "2",
        ])
        .arg("-d")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "two.txt (2 isomorphs of each, --transform 5): 4 puzzles",
        ));
}

#[test]
fn par2_virtual_best_and_unique_solves() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("scores");
    // 100 nodes: bitmask-singles gives up on line 1 (274 nodes unbounded), dlx solves it (66).
    run_six(&dir, &["--max-nodes", "100", "-q"]);
    let rows = rows(&dir);
    let summary: Vec<SummaryRow> = csv::Reader::from_path(dir.join("summary.csv"))
        .unwrap()
        .deserialize()
        .map(|r| r.unwrap())
        .collect();
    let get = |s: &str| summary.iter().find(|r| r.solver == s).unwrap();
    let (bs, dlx, best) = (get("bitmask-singles"), get("dlx"), get("virtual-best"));
    assert_eq!((bs.solved, bs.timeouts, bs.unique_solves), (2, 1, 0));
    assert_eq!((dlx.solved, dlx.timeouts, dlx.unique_solves), (3, 0, 1));
    assert_eq!(
        (best.solved, best.no_solution, best.timeouts, best.invalid),
        (3, 1, 0, 2)
    );
    // PAR-2 recomputed here from results.csv: a right answer (checked solution, or the
    // no_solution of line 4) at its time, the timeout at 2 x 1000 ms; over the 4 readable puzzles.
    let right = |r: &harness::record::Row| r.correct == Some(true) || r.line == 4;
    let par2 = |s: &str| -> f64 {
        let mine: Vec<_> = rows
            .iter()
            .filter(|r| r.solver == s && r.line <= 4)
            .collect();
        mine.iter()
            .map(|r| if right(r) { r.micros } else { 2e6 })
            .sum::<f64>()
            / 4.0
    };
    let close = |a: f64, b: f64| (a - b).abs() < 1e-3;
    assert!(close(bs.par2_micros.unwrap(), par2("bitmask-singles")));
    assert!(bs.par2_micros.unwrap() > 500_000.0);
    assert!(close(dlx.par2_micros.unwrap(), par2("dlx")));
    let vbs: f64 = (1..=4)
        .map(|line| {
            rows.iter()
                .filter(|r| r.line == line && right(r))
                .map(|r| r.micros)
                .fold(f64::INFINITY, f64::min)
        })
        .sum::<f64>()
        / 4.0;
    assert!(close(best.par2_micros.unwrap(), vbs));
    let md = read(&dir.join("summary.md"));
    assert!(md.contains("## Scores"));
    assert!(md.contains("| six-puzzles.txt | dlx | 3 / 6 |"));
    assert!(md.contains("| six-puzzles.txt | virtual-best | 3 / 6 |"));
}

/// 32 readable puzzles (isomorphs of the fixture's second puzzle, each solved in a few nodes).
fn thirty_two(dir: &Path) -> PathBuf {
    use harness::input::isomorph::Transform;
    let p: String = read(&six()).lines().nth(1).unwrap().to_string();
    let cells: [u8; 81] = std::array::from_fn(|i| {
        p.as_bytes()[i]
            .checked_sub(b'0')
            .filter(|&d| d <= 9)
            .unwrap_or(0)
    });
    let text: String = (0..32)
        .map(|i| {
            let t: String = Transform::random(1, i, 0)
                .apply(&cells)
                .iter()
                .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
                .collect();
            t + "\n"
        })
        .collect();
    let file = dir.join("iso32.txt");
    std::fs::write(&file, text).unwrap();
    file
}

/// Rewrites the µs of every row of `dir`'s results.csv with `f(row)`.
fn set_times(dir: &Path, f: impl Fn(&harness::record::Row) -> f64) {
    let mut rows = rows(dir);
    let mut w = csv::Writer::from_path(dir.join("results.csv")).unwrap();
    for r in &mut rows {
        r.micros = f(r);
        w.serialize(&*r).unwrap();
    }
    w.flush().unwrap();
}

fn copy_run(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for f in ["results.csv", "run.json", "summary.csv"] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
}

/// `harness compare A B` on a wide terminal (no cell wraps), its stdout.
fn compare(a: &Path, b: &Path) -> String {
    let out = harness()
        .env("COLUMNS", "250")
        .arg("compare")
        .arg(a)
        .arg(b)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn verdicts_and_compare_need_an_interval_that_excludes_one() {
    let tmp = tempfile::tempdir().unwrap();
    let file = thirty_two(tmp.path());
    let a = tmp.path().join("a");
    harness()
        .args([
            "run",
            "-q",
            "-j",
            "1",
            "--no-report",
            "-s",
            "bitmask-singles,dlx",
            "-d",
        ])
        .arg(&file)
        .arg("-o")
        .arg(&a)
        .assert()
        .success();
    // The same rows twice: every ratio is 1 [1, 1], the same, and nothing differs.
    let b = tmp.path().join("b");
    copy_run(&a, &b);
    let out = compare(&a, &b);
    assert_eq!(out.matches(" same ").count(), 2, "{out}");
    assert_eq!(out.matches("1.00 [1.00, 1.00]").count(), 2, "{out}");
    assert!(!out.contains("warning"), "{out}");

    // B on another host with two threads, dlx twice as fast on every puzzle.
    let info = read(&b.join("run.json"))
        .replace("\"threads\": 1", "\"threads\": 2")
        .replacen("\"host\": \"", "\"host\": \"other-", 1);
    std::fs::write(b.join("run.json"), info).unwrap();
    set_times(&b, |r| {
        if r.solver == "dlx" {
            r.micros / 2.0
        } else {
            r.micros
        }
    });
    let out = compare(&a, &b);
    assert!(
        out.contains("warning: the runs differ in threads: A 1, B 2"),
        "{out}"
    );
    assert!(
        out.contains("warning: the runs differ in host: A "),
        "{out}"
    );
    assert!(out.contains("0.50 [0.50, 0.50]"), "{out}");
    assert!(out.contains("2.00× faster"), "{out}");
    assert_eq!(out.matches(" same ").count(), 1, "{out}");

    // The report ranks 32 puzzles: fixed times make the interval exact.
    set_times(&a, |r| if r.solver == "dlx" { 20.0 } else { 10.0 });
    harness().arg("report").arg(&a).assert().success();
    let md = read(&a.join("summary.md"));
    assert!(
        md.contains(
            "bitmask-singles wins: 32/32 solved, median 10.0 µs. Median time per puzzle against \
             it: dlx 2.00× slower [2.00, 2.00]."
        ),
        "{md}"
    );
}

#[test]
fn repeats_keep_the_counters_and_rerun_repeats_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("six.txt");
    std::fs::copy(six(), &data).unwrap();
    let a = tmp.path().join("a");
    harness()
        .args([
            "run",
            "-q",
            "-j",
            "1",
            "--repeat",
            "3",
            "--transform",
            "4",
            "-s",
            "dlx",
            "-d",
        ])
        .arg(&data)
        .arg("-o")
        .arg(&a)
        .assert()
        .code(2);
    let info: serde_json::Value = serde_json::from_str(&read(&a.join("run.json"))).unwrap();
    assert_eq!(info["repeat"], 3);
    assert_eq!(info["transform"], 4);
    assert_eq!(info["timeout_ms"], 1000);
    assert_eq!(info["solver_details"][0]["name"], "dlx");
    let cmd: Vec<&str> = info["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(cmd[1..6], ["run", "-q", "-j", "1", "--repeat"]);
    use sha2::Digest;
    let sha = format!("{:x}", sha2::Sha256::digest(std::fs::read(&data).unwrap()));
    assert_eq!(info["manifests"][0]["sha256"], sha.as_str());

    // The run again from its run.json: the same transforms, answers and counters.
    let b = tmp.path().join("b");
    harness()
        .arg("rerun")
        .arg(&a)
        .arg("--out")
        .arg(&b)
        .assert()
        .code(2);
    let (ra, rb) = (rows(&a), rows(&b));
    assert_eq!(ra.len(), 6);
    let counters = |r: &harness::record::Row| {
        (
            r.line,
            r.status,
            r.nodes,
            r.guesses,
            r.backtracks,
            r.solution.clone(),
            r.transform.clone(),
        )
    };
    assert_eq!(
        ra.iter().map(counters).collect::<Vec<_>>(),
        rb.iter().map(counters).collect::<Vec<_>>()
    );
    assert!(compare(&a, &b).contains("0 puzzles changed status or answer"));
    // A changed dataset is refused, naming both sha256s.
    std::fs::write(&data, read(&six()).replace("4.....8.5.3", "4.....8.5..")).unwrap();
    harness()
        .arg("rerun")
        .arg(&a)
        .arg("--out")
        .arg(tmp.path().join("c"))
        .assert()
        .failure()
        .stderr(predicates::str::contains("has changed since the run"));
}
