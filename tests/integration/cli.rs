//! The `harness` binary, run as a user would.

use super::common::harness;
use predicates::prelude::*;

#[test]
fn run_on_a_small_dataset_writes_a_checked_csv() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    harness()
        .args([
            "run",
            "--solver",
            "all",
            "--dataset",
            "seed",
            "--timeout-ms",
            "0",
            "-q",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "{} solved and checked, 0 wrong",
            2 * solvers::SolverKind::ALL.len()
        )));
    let mut rdr = csv::Reader::from_path(out.join("results.csv")).unwrap();
    let headers = rdr.headers().unwrap().clone();
    for col in [
        "dataset",
        "puzzle",
        "solver",
        "status",
        "correct",
        "micros",
        "nodes",
        "guesses",
        "backtracks",
        "solution",
    ] {
        assert!(headers.iter().any(|h| h == col), "missing column {col}");
    }
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    assert_eq!(
        rows.len(),
        2 * solvers::SolverKind::ALL.len(),
        "one row per puzzle x solver"
    );
    let idx = |c: &str| headers.iter().position(|h| h == c).unwrap();
    for r in &rows {
        assert_eq!(&r[idx("status")], "solved");
        assert_eq!(&r[idx("correct")], "true");
    }
    let hard = rows
        .iter()
        .find(|r| &r[idx("puzzle")] == "hard-17s" && &r[idx("solver")] == "bitmask-dfs")
        .unwrap();
    assert_eq!(&r_str(hard, idx("nodes")), "7368194");
    assert_eq!(
        &r_str(hard, idx("solution")),
        "741629835582341697396875421924517386657483219813296574168752943275934168439168752"
    );
    assert!(out.join("summary.csv").is_file());
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(
        info["solvers"].as_array().unwrap().len(),
        solvers::SolverKind::ALL.len()
    );
    assert!(
        info["timeout_ms"].is_null(),
        "--timeout-ms 0 means no deadline"
    );
}

fn r_str(r: &csv::StringRecord, i: usize) -> String {
    r[i].to_string()
}

#[test]
fn run_reports_bad_puzzles_and_solves_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.txt");
    let good = "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
    let dup = format!("11{}", &good[2..]);
    let short = &good[..80];
    let badch = format!("{}x{}", &good[..5], &good[6..]);
    std::fs::write(
        &file,
        format!("{good}\n{dup}\n{short}\n{badch}\n{good} again\n"),
    )
    .unwrap();
    let out = dir.path().join("run");
    let f = file.display().to_string();
    harness()
        .args([
            "run",
            "--solver",
            "bitmask-dfs",
            "-q",
            "--dataset",
            &f,
            "--out",
        ])
        .arg(&out)
        .assert()
        // Unreadable puzzles make it an input error, as for `solve` and `rate`; the rest ran.
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{f}:2: digit 1 given twice in row 1 (r1c1 and r1c2)"
        )))
        .stderr(predicate::str::contains(format!(
            "{f}:3: 80 characters, expected 81"
        )))
        .stderr(predicate::str::contains(format!(
            "{f}:4: bad character 'x' at column 6 (r1c6)"
        )))
        .stdout(predicate::str::contains(
            "2 solved and checked, 0 wrong, 0 timeouts, 3 invalid puzzles",
        ));
    let text = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(text.lines().count(), 1 + 5);
    assert_eq!(text.matches(",invalid,").count(), 3);
}

#[test]
fn unknown_solver_and_dataset_are_usage_errors() {
    harness()
        .args(["run", "--solver", "nope", "-q"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("unknown solver \"nope\"")
                .and(predicate::str::contains("bitmask-dfs")),
        );
    harness()
        .args(["run", "--dataset", "/no/such/file", "-q"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/no/such/file"));
}

/// Near-miss names get a "did you mean": solvers, datasets and options; a comma list given to
/// `--solvers` (the solvers file) points to `--solver`.
#[test]
fn near_misses_are_answered_with_did_you_mean() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["run", "-q", "-s", "bitbord-bands"],
            "unknown solver \"bitbord-bands\"; did you mean \"bitboard-bands\"?",
        ),
        (
            &["run", "-q", "-d", "gecode16"],
            "dataset \"gecode16\" is not a shipped set; did you mean \"gecode-16\"?",
        ),
        (
            &["run", "-q", "--solvers", "hybrid,dlx"],
            "to choose solvers, use --solver hybrid,dlx",
        ),
        (&["solve", "--solvers", "dlx", "x.txt"], "use --solver dlx"),
        (
            &["run", "-q", "--solvr", "dlx"],
            "a similar argument exists: '--solver'",
        ),
    ];
    for (args, says) in cases {
        harness()
            .args(args)
            .current_dir(dir.path())
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
    // A name far from every known one gets no guess.
    harness()
        .args(["run", "-q", "-s", "tdokux"])
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean").not());
}

/// A solvers file given with `--solvers` that does not exist is an error naming it in every
/// command that takes `--solvers`, whether or not a solver of it is named; the default
/// solvers.toml, when absent, stays optional.
#[test]
fn a_missing_solvers_file_given_explicitly_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.toml");
    let puzzle =
        "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
    let file = dir.path().join("p.txt");
    std::fs::write(&file, format!("{puzzle}\n")).unwrap();
    let file = file.display().to_string();
    let out = dir.path().join("out").display().to_string();
    let commands: [&[&str]; 8] = [
        &["solve", &file],
        &["count", puzzle],
        &["run", "-q", "--no-report", "-d", &file, "-o", &out],
        &[
            "run",
            "-q",
            "--no-report",
            "-s",
            "dlx",
            "-d",
            &file,
            "-o",
            &out,
        ],
        &["bench", "--quick", "-s", "dlx", "-d", &file],
        &["bench", "--quick", "--verdicts", &out],
        &[
            "scale",
            "-q",
            "--sudoku-orders",
            "4",
            "-s",
            "dlx",
            "-o",
            &out,
        ],
        &["list"],
    ];
    for args in commands {
        harness()
            .args(args)
            .arg("--solvers")
            .arg(&missing)
            .current_dir(dir.path())
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "cannot read the solvers file {}",
                missing.display()
            )));
        assert!(!dir.path().join("out").exists(), "{args:?}");
    }
    // Without --solvers and without solvers.toml here, the built-in default runs.
    harness()
        .args(["solve", &file])
        .current_dir(dir.path())
        .assert()
        .success();
    harness()
        .args(["count", puzzle])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout("1\n");
}

#[test]
fn list_names_solvers_and_datasets() {
    harness().arg("list").assert().success().stdout(
        predicate::str::contains("bitmask-singles").and(predicate::str::contains("named-hard")),
    );
}

#[test]
fn thread_counts_out_of_range_are_usage_errors() {
    for bad in ["0", "100000", "two"] {
        harness()
            .args(["run", "--dataset", "seed", "-q", "--threads", bad])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("from 1 to 1024"));
    }
}

/// A numeric option out of its type's range is named with its range in words, never as
/// "number too large to fit in target type" or "invalid digit found in string".
#[test]
fn numeric_options_out_of_range_name_the_option_and_its_range() {
    let huge = "99999999999999999999";
    let cases: [(&[&str], &str); 8] = [
        (
            &["solve", "--timeout-ms", huge, "x"],
            "'--timeout-ms <TIMEOUT_MS>': expected a whole number of milliseconds; \
             99999999999999999999 is too large",
        ),
        (
            &["solve", "--timeout-ms", "abc", "x"],
            "invalid value 'abc' for '--timeout-ms <TIMEOUT_MS>': expected a whole number of \
             milliseconds\n",
        ),
        (
            &["run", "--max-nodes", "many"],
            "'--max-nodes <MAX_NODES>': expected a whole number of nodes\n",
        ),
        (
            &["generate", "puzzles", "--count", huge],
            "'--count <COUNT>': expected a whole number of puzzles; 99999999999999999999 is too large",
        ),
        (
            &["run", "--repeat", huge],
            "'--repeat <R>': expected a whole number from 1 to 1000",
        ),
        (
            &["run", "--threads", huge],
            "'--threads <THREADS>': expected a whole number of threads from 1 to 1024",
        ),
        (
            &["generate", "grids", "-n", "1", "--first-digit", "10"],
            "'--first-digit <FIRST_DIGIT>': expected a whole number from 1 to 9",
        ),
        (
            &["bench", "--round-budget", "lots"],
            "'--round-budget <ROUND_BUDGET>': expected a number of 0 or more",
        ),
    ];
    for (args, want) in cases {
        let out = harness().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(
            !err.contains("target type") && !err.contains("literal"),
            "{err}"
        );
        if args.contains(&"--timeout-ms") || args.contains(&"--max-nodes") {
            assert!(!err.contains("18446744073709551615"), "{err}");
        }
    }
    harness()
        .args(["run", "--shard", "99999999999/2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expected K/N with 1 <= K <= N"));
}

/// An external solver that is not available is named once in the error, the remedy after it
/// (the message once said the name twice: `x is not available (...): x: ...`).
#[test]
fn an_unavailable_solver_is_named_once_with_its_remedy() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    let good = "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
    std::fs::write(&file, format!("{good}\n")).unwrap();
    let path = file.display().to_string();
    for (command, input) in [("solve", path.as_str()), ("count", good)] {
        harness()
            .args([command, input])
            .args(["--solver", "dimacs:/nonexistent/minisat"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                "error: minisat: SAT solver \"/nonexistent/minisat\" not found; install it: \
                 apt-get install minisat\n",
            );
    }
}

/// A solver named twice is refused as a dataset named twice is, naming it, whether the two
/// are in one `--solver` list, two `--solver` options or `all` and a name; one solver of each
/// name runs.
#[test]
fn a_solver_named_twice_is_refused_as_a_dataset_is() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let cases: [(&[&str], &str); 4] = [
        (&["--solver", "dlx,dlx"], "--solver dlx is given twice"),
        (
            &["-s", "dlx", "-s", "sat,dlx"],
            "--solver dlx is given twice",
        ),
        (
            &["--solver", "all,hybrid"],
            "--solver hybrid is given twice (`all` names it too)",
        ),
        (&["--solver", "all,all"], "--solver all is given twice"),
    ];
    for (args, says) in cases {
        harness()
            .args(["run", "-d", "seed", "-q", "--no-report"])
            .args(args)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(format!("error: {says}; give each solver once\n"));
        assert!(!out.exists(), "{args:?}: nothing written");
    }
    harness()
        .args([
            "run",
            "-d",
            "seed",
            "-q",
            "--no-report",
            "--solver",
            "dlx,sat",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let info = std::fs::read_to_string(out.join("run.json")).unwrap();
    let info: serde_json::Value = serde_json::from_str(&info).unwrap();
    let names: Vec<&str> = info["solvers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(names, ["dlx", "sat"]);
}

#[test]
fn a_dataset_named_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    // The same set twice would merge its rows under one name.
    harness()
        .args([
            "run",
            "--dataset",
            "seed",
            "--dataset",
            "seed",
            "-q",
            "--out",
        ])
        .arg(&out)
        .assert()
        .code(2)
        .stderr("error: --dataset seed is given twice; give each dataset once\n");
    // Two files of one name in different folders collide the same way.
    let seed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/seed.csv");
    for sub in ["a", "b"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        std::fs::copy(&seed, dir.path().join(sub).join("x.csv")).unwrap();
    }
    harness()
        .current_dir(dir.path())
        .args(["run", "-d", "a/x.csv", "-d", "b/x.csv", "-q", "--out"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--dataset a/x.csv and --dataset b/x.csv are both named \"x.csv\"",
        ));
    assert!(!out.exists(), "nothing written");
    // A folder given as a dataset says so.
    harness()
        .args(["run", "-q", "--dataset"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a folder; give a puzzle file"));
}

/// One default solver: the champion, for `solve`, `count`, the generators, the classic `-s`, the
/// web API and `autofill`, all through `generate::counting_solver`.
#[test]
fn one_default_solver_everywhere() {
    use harness::web::{api, autofill};
    let champion = solvers::SolverKind::CHAMPION;
    assert_eq!(champion, solvers::SolverKind::Hybrid);
    assert_eq!(harness::generate::counting_solver(), champion);
    assert_eq!(api::default_solver(), champion);
    assert_eq!(autofill::solver(), champion);
    let seed = "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let solved = api::solve(
        &api::SolveRequest {
            puzzle: seed.into(),
            shape: None,
            solver: None,
            timeout_ms: None,
        },
        &cancel,
    )
    .unwrap();
    assert_eq!(solved.solver, "hybrid");
    let counted = api::count(
        &api::CountRequest {
            puzzle: seed.into(),
            shape: None,
            limit: None,
            solver: None,
            timeout_ms: None,
        },
        &cancel,
    )
    .unwrap();
    assert_eq!(counted.solver, "hybrid");
    assert_eq!(counted.solutions, 1);
}

/// The default run (every solver, the default datasets, as the quick start runs it) prints a
/// table that fits a 100-column terminal: one block per dataset, a line per solver.
#[test]
#[ignore = "heavy: the quick start's full run, 2,206 puzzles x 10 solvers; .ci/run runs it: cargo test --test cli -- --ignored"]
fn default_run_table_fits_100_columns() {
    let dir = tempfile::tempdir().unwrap();
    let out = harness()
        .args(["run", "--no-report", "--out"])
        .arg(dir.path().join("run"))
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for line in stdout.lines() {
        assert!(
            line.chars().count() <= 100,
            "{} columns: {line}",
            line.chars().count()
        );
    }
    let heads = stdout
        .lines()
        .filter(|l| l.starts_with("solver ") && l.contains("median µs"))
        .count();
    let defaults = harness::input::dataset::SHIPPED
        .iter()
        .filter(|d| d.default)
        .count();
    assert_eq!(heads, defaults, "one block per default dataset:\n{stdout}");
    for k in solvers::SolverKind::ALL {
        let rows = stdout
            .lines()
            .filter(|l| !l.starts_with(' ') && l.split_whitespace().next() == Some(k.name()))
            .count();
        assert_eq!(rows, defaults, "{k}: a line per dataset");
    }
    assert!(stdout.contains("clues30-1000: 1,000 puzzles"), "{stdout}");
}

/// `run`'s exit status says what the rows hold: 2 for an empty dataset (nothing run, no folder
/// left) and for unreadable puzzles, 0 when every row is right (3 for `error` rows: see
/// `external::a_segfaulting_library_under_isolate_gives_error_rows_and_the_run_goes_on`).
#[test]
fn run_exit_status_says_errors_invalid_and_empty() {
    let dir = tempfile::tempdir().unwrap();
    let good = "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
    let file = dir.path().join("p.txt");
    std::fs::write(&file, format!("{good}\n")).unwrap();
    let run = |solver: &str, data: &std::path::Path, out: &str| {
        let mut cmd = harness();
        cmd.args(["run", "-q", "--no-report", "--solver", solver, "--dataset"])
            .arg(data)
            .arg("--out")
            .arg(dir.path().join(out));
        cmd
    };
    run("bitmask-dfs", &file, "ok").assert().code(0);
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "# nothing here\n").unwrap();
    run("bitmask-dfs", &empty, "empty")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "no puzzle in {}: it is empty or holds only blank and comment lines; nothing was run",
            empty.display()
        )));
    assert!(!dir.path().join("empty").exists());
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, format!("{good}\n{}\n", &good[..80])).unwrap();
    run("bitmask-dfs", &bad, "bad")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("80 characters, expected 81"));
}

/// A puzzle with two solutions is counted solved in `run`'s table, with a note saying so
/// (only the report said it before).
#[test]
fn run_marks_puzzles_with_several_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.txt");
    // A solution grid with a unique rectangle (r1c4, r1c5, r4c4, r4c5) emptied: two solutions.
    std::fs::write(
        &file,
        "534..8912672195348198342567859..1423426853791713924856961537284287419635345286179\n",
    )
    .unwrap();
    harness()
        .args(["run", "--no-report", "--solver", "bitmask-dfs", "--dataset"])
        .arg(&file)
        .arg("--out")
        .arg(dir.path().join("r"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "note: 1 puzzle of two.txt has more than one solution",
        ));
}

/// A CSV whose stated solution contradicts its givens flags that dataset row (invalid, exit 2,
/// the reason on stderr), instead of marking a correct solver wrong.
#[test]
fn a_stated_solution_that_contradicts_the_givens_flags_the_dataset_row() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad-solution.csv");
    let puzzle =
        "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
    let solution =
        "729364158341825967865971423536192874918547632274683519652438791493716285187259346";
    // r1c1 is a given 7; this "solution" says 1 there (and swaps it with r1c8's 5... 1).
    let bad = solution.replacen('7', "1", 1);
    std::fs::write(
        &file,
        format!("puzzle,solution\n{puzzle},{solution}\n{puzzle},{bad}\n"),
    )
    .unwrap();
    let out = dir.path().join("r");
    harness()
        .args([
            "run",
            "-q",
            "--no-report",
            "--solver",
            "bitmask-dfs",
            "--dataset",
        ])
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "solution column: it is not a solution of the puzzle: the given at r1c1 was changed",
        ));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(csv.as_bytes());
    let statuses: Vec<(String, String)> = rdr
        .deserialize::<harness::record::Row>()
        .map(|r| {
            let r = r.unwrap();
            (format!("{:?}", r.status), format!("{:?}", r.correct))
        })
        .collect();
    assert_eq!(statuses[0], ("Solved".into(), "Some(true)".into()));
    assert_eq!(statuses[1].0, "Invalid");
}

/// A stated solution decides only puzzles known to have exactly one: a valid answer that differs
/// from it is right (the puzzle has several). Two 4x4 puzzles of many solutions stating one each,
/// and five blank 9x9 puzzles stating the same grid, run by solvers that find other grids.
#[test]
fn a_valid_answer_other_than_the_stated_solution_is_right() {
    let dir = tempfile::tempdir().unwrap();
    let run = |file: &std::path::Path, solvers: &str, out: &str| {
        let out = dir.path().join(out);
        let assert = harness()
            .args(["run", "-q", "--no-report", "--solver", solvers, "--dataset"])
            .arg(file)
            .arg("--out")
            .arg(&out)
            .assert();
        let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
        (assert, stdout)
    };
    let small = dir.path().join("two.txt");
    std::fs::write(
        &small,
        "1............... 1234341221434321\n1............... 1243341221344321\n",
    )
    .unwrap();
    let (assert, stdout) = run(&small, "dlx,sat", "small");
    assert.code(0);
    assert!(
        stdout.contains("4 solves in") && stdout.contains("4 solved and checked, 0 wrong"),
        "{stdout}"
    );
    let solution =
        "729364158341825967865971423536192874918547632274683519652438791493716285187259346";
    let blank = ".".repeat(81);
    let mut csv = String::from("puzzle,solution\n");
    for _ in 0..5 {
        csv.push_str(&format!("{blank},{solution}\n"));
    }
    let file = dir.path().join("blank.csv");
    std::fs::write(&file, csv).unwrap();
    let (assert, stdout) = run(&file, "hybrid,dlx,sat,bitboard-bands,logic", "blank");
    assert.code(0);
    assert!(
        stdout.contains("25 solved and checked, 0 wrong"),
        "{stdout}"
    );
    // `solve` judges alike: each answer is valid, and the count to 2 marks it `several`.
    harness()
        .args(["solve", "-s", "dlx"])
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("several 5"))
        .stderr(predicate::str::contains("rejected").not());
}
