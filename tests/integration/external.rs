//! External solvers through the whole harness: `run`, `bench`, `solve`, `count`, `list`,
//! `decode` with real parts (the public anchors built from `$HARNESS_DATA/anchors` by
//! `scripts/build-anchors.sh`, a C library of ours that segfaults, our Python line-protocol
//! solver, minisat), every answer checked. A test whose part is missing is ignored with the
//! command that provides it (`tests/support/prerequisites.rs`).

use super::common::{self, data_dir, harness};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program} >/dev/null 2>&1")])
        .status()
        .is_ok_and(|s| s.success())
}

/// The anchors built once into the target folder by `scripts/build-anchors.sh` from
/// `$HARNESS_DATA/anchors`.
fn anchors() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let root = Path::new(env!("CARGO_MANIFEST_DIR"));
            let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("anchors");
            let status = Command::new("bash")
                .arg(root.join("scripts/build-anchors.sh"))
                .arg(data_dir().join("anchors"))
                .arg(&out)
                .status()
                .expect("bash runs");
            assert!(status.success(), "scripts/build-anchors.sh failed");
            out
        })
        .clone()
}

/// A fixture of the foreign crate compiled as a shared library into `dir`.
fn fixture(name: &str, dir: &Path) -> PathBuf {
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("foreign/tests/fixtures/{name}.c"));
    let lib = dir.join(format!("lib{name}.so"));
    let status = Command::new("cc")
        .args(["-O2", "-shared", "-fPIC", "-o"])
        .arg(&lib)
        .arg(&src)
        .status()
        .expect("cc runs");
    assert!(status.success(), "cc failed on {name}.c");
    lib
}

fn read_rows(dir: &Path) -> Vec<csv::StringRecord> {
    let mut r = csv::Reader::from_path(dir.join("results.csv")).unwrap();
    r.records().map(|x| x.unwrap()).collect()
}

/// Column `name` of `results.csv`.
fn col(dir: &Path, name: &str) -> usize {
    let mut r = csv::Reader::from_path(dir.join("results.csv")).unwrap();
    r.headers().unwrap().iter().position(|h| h == name).unwrap()
}

/// Puzzle (with r1c1 given 9: the segfault fixture's trigger), its solution, and two plain ones.
const TRIGGER: &str =
    "9....4....4...57..8......2...6.7...4.1.....3.2...8.5...5......1..39...8....2....6";
const SEED: &str =
    "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
const HARD: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

#[test]
#[cfg_attr(
    not(all(harness_data, has_gxx)),
    ignore = "needs HARNESS_DATA and g++: scripts/fetch-data.sh DIR; HARNESS_DATA=DIR cargo test"
)]
fn anchors_race_beside_ours_with_every_answer_checked() {
    let anchors = anchors();
    let tmp = tempfile::tempdir().unwrap();
    let toml = tmp.path().join("solvers.toml");
    let mut text = format!(
        "[tdoku]\nlib = \"{a}/libtdoku.so\"\nsymbol = \"TdokuSolverDpllTriadSimd\"\n\
         [kudoku]\nlib = \"{a}/libkudoku.so\"\nsymbol = \"OtherSolverKudoku\"\n\
         [fast_solv_9r2]\nlib = \"{a}/libfast_solv_9r2.so\"\nsymbol = \"FastSolv9r2\"\ngives_solution = false\n",
        a = anchors.display()
    );
    let mut names = vec!["bitboard-bands", "dlx", "tdoku", "kudoku", "fast_solv_9r2"];
    if have("minisat") {
        text.push_str("[minisat]\ndimacs = \"minisat\"\n");
        names.push("minisat");
    }
    std::fs::write(&toml, text).unwrap();
    let out = tmp.path().join("run");
    let assert = harness()
        .args(["run", "--quiet", "--dataset", "named-hard", "--solvers"])
        .arg(&toml)
        .arg("--solver")
        .arg(names.join(","))
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    let rows = read_rows(&out);
    let (solver, status, correct, solution) = (
        col(&out, "solver"),
        col(&out, "status"),
        col(&out, "correct"),
        col(&out, "solution"),
    );
    let puzzles = rows.len() / names.len();
    assert!(puzzles >= 4, "{puzzles} puzzles");
    for name in &names {
        let mine: Vec<_> = rows.iter().filter(|r| &r[solver] == *name).collect();
        assert_eq!(mine.len(), puzzles, "{name}");
        for r in mine {
            assert_eq!(&r[status], "solved", "{name}: {r:?}");
            if *name == "fast_solv_9r2" {
                assert_eq!(&r[correct], "", "{name} writes no solution: unchecked");
                assert_eq!(&r[solution], "");
            } else {
                assert_eq!(&r[correct], "true", "{name}: {r:?}");
            }
        }
    }
    assert!(
        stdout.contains(&format!("{puzzles} solved unchecked")),
        "{stdout}"
    );
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    for name in &names {
        assert!(page.contains(name), "index.html lacks {name}");
    }
    let json = std::fs::read_to_string(out.join("run.json")).unwrap();
    assert!(
        json.contains("libtdoku.so") && json.contains("sha256"),
        "{json}"
    );
}

#[test]
#[cfg_attr(not(has_cc), ignore = "needs a C compiler (cc): apt-get install gcc")]
fn a_segfaulting_library_under_isolate_gives_error_rows_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = fixture("segfault", tmp.path());
    let data = tmp.path().join("p.txt");
    std::fs::write(
        &data,
        format!("{SEED}\n{TRIGGER}\n{HARD}\n{TRIGGER}\n{SEED}\n"),
    )
    .unwrap();
    let out = tmp.path().join("run");
    let assert = harness()
        .args(["run", "--quiet", "--isolate", "--dataset"])
        .arg(&data)
        .arg("--solver")
        .arg(format!("dlx,crashy=lib:{}:SegfaultSolver", lib.display()))
        .arg("--out")
        .arg(&out)
        .assert()
        // Error rows: exit status 3.
        .code(3);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(stdout.contains("2 errors"), "{stdout}");
    let rows = read_rows(&out);
    let (solver, status, correct, error, puzzle) = (
        col(&out, "solver"),
        col(&out, "status"),
        col(&out, "correct"),
        col(&out, "error"),
        col(&out, "puzzle"),
    );
    assert_eq!(rows.len(), 10);
    for r in &rows {
        let trigger = matches!(&r[puzzle], "2" | "4");
        if &r[solver] == "crashy" && trigger {
            assert_eq!(&r[status], "error", "{r:?}");
            assert!(
                r[error].contains("signal") || r[error].contains("SIGSEGV"),
                "{r:?}"
            );
        } else {
            assert_eq!(&r[status], "solved", "{r:?}");
            assert_eq!(&r[correct], "true", "{r:?}");
        }
    }
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3: apt-get install python3")]
fn the_python_line_solver_races_and_counts() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/line_solver.py");
    let spec = format!("py=cmd:python3 {}", script.display());
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    harness()
        .args(["run", "--quiet", "--dataset", "seed", "--solver"])
        .arg(format!("domain-reduction,{spec}"))
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let rows = read_rows(&out);
    let (solver, correct, nodes) = (
        col(&out, "solver"),
        col(&out, "correct"),
        col(&out, "nodes"),
    );
    let py: Vec<_> = rows.iter().filter(|r| &r[solver] == "py").collect();
    assert_eq!(py.len(), 2);
    for r in py {
        assert_eq!(&r[correct], "true", "{r:?}");
        assert!(r[nodes].parse::<u64>().unwrap() >= 1, "{r:?}");
    }
    // count: 1 for a unique puzzle, "at least 2" for the empty grid.
    let once = harness()
        .args(["count", SEED, "--solver", &spec])
        .assert()
        .success();
    assert_eq!(
        String::from_utf8_lossy(&once.get_output().stdout).trim(),
        "1"
    );
    let many = harness()
        .args(["count", &".".repeat(81), "--solver", &spec])
        .assert()
        .success();
    assert_eq!(
        String::from_utf8_lossy(&many.get_output().stdout).trim(),
        "at least 2"
    );
}

#[test]
#[cfg_attr(not(has_minisat), ignore = "needs minisat: apt-get install minisat")]
fn minisat_models_decode_to_the_checked_solution() {
    let tmp = tempfile::tempdir().unwrap();
    let cnf = tmp.path().join("p.cnf");
    let model = tmp.path().join("model.txt");
    harness()
        .args(["cnf", SEED, "-o"])
        .arg(&cnf)
        .assert()
        .success();
    let _ = Command::new("minisat")
        .arg(&cnf)
        .arg(&model)
        .output()
        .expect("minisat runs");
    let out = harness().arg("decode").arg(&model).assert().success();
    let grid = String::from_utf8_lossy(&out.get_output().stdout)
        .trim()
        .to_string();
    let solution =
        "729364158341825967865971423536192874918547632274683519652438791493716285187259346";
    assert_eq!(grid, solution);
    assert!(harness::verify::check(&common::cells(SEED), &common::cells(&grid), None).is_ok());
    // A model that leaves a cell empty is refused, naming the cell.
    std::fs::write(&model, "SAT\n-1 -2 -3 -4 -5 -6 -7 -8 -9 0\n").unwrap();
    let err = harness().arg("decode").arg(&model).assert().code(2);
    let text = String::from_utf8_lossy(&err.get_output().stderr).to_string();
    assert!(text.contains("r1c1"), "{text}");
}

#[test]
fn unknown_external_solvers_and_bad_specs_are_named() {
    for (spec, says) in [
        ("tdoku-nope", "unknown solver \"tdoku-nope\""),
        ("lib:/nonexistent/libx.so:f", "/nonexistent/libx.so"),
        ("cmd:no-such-program-xyz", "not found"),
        ("lib:onlypath", "lib:PATH:SYMBOL"),
    ] {
        let out = harness()
            .args([
                "run",
                "--quiet",
                "--dataset",
                "seed",
                "--no-report",
                "--solver",
                spec,
            ])
            .assert()
            .code(2);
        let text = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(text.contains(says), "{spec}: {text}");
    }
}

#[test]
#[cfg_attr(
    not(all(harness_data, has_gxx)),
    ignore = "needs HARNESS_DATA and g++: scripts/fetch-data.sh DIR; HARNESS_DATA=DIR cargo test"
)]
fn bench_gives_ratios_against_an_external_solver() {
    let anchors = anchors();
    let spec = format!(
        "tdoku=lib:{}/libtdoku.so:TdokuSolverDpllTriadSimd",
        anchors.display()
    );
    let out = harness()
        .args([
            "bench",
            "--quick",
            "--rounds",
            "1",
            "--dataset",
            "named-hard",
            "--solver",
        ])
        .arg(format!("hybrid,{spec}"))
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("tdoku") && text.contains("hybrid"), "{text}");
    // The range over rounds is said in words, not in the brackets of the table's intervals.
    assert!(
        text.contains("hybrid / tdoku: throughput ratio ")
            && text.contains(" (1 round), no verdict from one round"),
        "{text}"
    );
}

/// `foreign/tests/fixtures/NAME`, a path as text.
fn foreign_fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("foreign/tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

/// A puzzle file of `n` lines alternating [`TRIGGER`] (r1c1 given 9) and [`SEED`].
fn puzzles_file(dir: &Path, n: usize) -> PathBuf {
    let text: String = (0..n)
        .map(|i| format!("{} p{i}\n", if i % 2 == 0 { TRIGGER } else { SEED }))
        .collect();
    let path = dir.join("puzzles.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// The processes carrying the mark of harness process `pid` in their environment.
fn marked_by(pid: u32) -> Vec<u32> {
    let mark = format!("SUDOKU_HARNESS_OWNER={pid}.");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            std::fs::read(format!("/proc/{p}/environ")).is_ok_and(|env| {
                env.split(|&b| b == 0)
                    .any(|v| v.starts_with(mark.as_bytes()))
            })
        })
        .collect()
}

/// The temporary folders of harness process `pid`.
fn temp_folders_of(pid: u32) -> Vec<PathBuf> {
    let suffix = format!("-{pid}-");
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with("sudoku-") && n.contains(&suffix)
        })
        .map(|e| e.path())
        .collect()
}

fn eventually(seconds: u64, mut done: impl FnMut() -> bool) -> bool {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while !done() {
        if std::time::Instant::now() >= end {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    true
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3: apt-get install python3")]
fn a_silent_cmd_solver_costs_each_puzzle_its_budget_and_restarts_are_noted_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let data = puzzles_file(tmp.path(), 10);
    let out = tmp.path().join("run");
    let began = std::time::Instant::now();
    harness()
        .args([
            "run",
            "--quiet",
            "--no-report",
            "--threads",
            "1",
            "--timeout-ms",
            "500",
        ])
        .arg("--solver")
        .arg(format!(
            "h=cmd:python3 {} hang",
            foreign_fixture("misbehave.py")
        ))
        .arg("--dataset")
        .arg(&data)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let wall = began.elapsed();
    let rows = read_rows(&out);
    let (status, micros, error) = (col(&out, "status"), col(&out, "micros"), col(&out, "error"));
    assert_eq!(rows.len(), 10);
    for r in &rows {
        // An error, not a timeout: a program that has answered nothing is most likely broken
        // (an unflushed output), not slow.
        assert_eq!(&r[status], "error", "{r:?}");
        // The budget, give or take the kill (the row's clock starts a moment after the
        // deadline's, so it may read a little under 500 ms): the restart is not in the row's
        // time...
        let us: f64 = r[micros].parse().unwrap();
        assert!((450_000.0..1_500_000.0).contains(&us), "{r:?}");
        // ...but noted beside it.
        assert!(
            r[error].starts_with("h: protocol: the program has answered nothing since it started")
                && r[error].contains("; the program was started again ("),
            "{r:?}"
        );
    }
    // Ten budgets of 500 ms, a 1 s pre-flight, a 2 s wait for the first warm-up answer, and restarts that wait
    // for no warm-up answer (this program never gave one): the run took 55 s before.
    assert!(wall < std::time::Duration::from_secs(20), "{wall:?}");
}

/// A solvers file's `cmd` paths are relative to the file's folder, wherever harness runs.
#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3: apt-get install python3")]
fn a_solvers_file_cmd_script_resolves_against_the_files_folder_from_another_folder() {
    let conf = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/line_solver.py");
    std::fs::copy(&example, conf.path().join("naive.py")).unwrap();
    std::fs::create_dir(conf.path().join("bin")).unwrap();
    std::fs::copy(&example, conf.path().join("bin/deep.py")).unwrap();
    let file = conf.path().join("solvers.toml");
    std::fs::write(
        &file,
        "[naive]\ncmd = \"python3 naive.py\"\n\n[deep]\ncmd = \"python3 bin/deep.py\"\n",
    )
    .unwrap();
    let data = puzzles_file(elsewhere.path(), 2);
    let out = elsewhere.path().join("run");
    let output = harness()
        .current_dir(elsewhere.path())
        .args(["run", "--quiet", "--no-report", "--solver", "naive,deep"])
        .arg("--solvers")
        .arg(&file)
        .arg("--dataset")
        .arg(&data)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rows = read_rows(&out);
    let (solver, status, correct) = (
        col(&out, "solver"),
        col(&out, "status"),
        col(&out, "correct"),
    );
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert!(["naive", "deep"].contains(&&r[solver]), "{r:?}");
        assert_eq!((&r[status], &r[correct]), ("solved", "true"), "{r:?}");
    }
}

/// A Python solver that prints its answers without flushing them (Python buffers a pipe) gets
/// error rows naming the fix, and one warning on stderr; it used to get bare timeouts.
#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3: apt-get install python3")]
fn an_unflushed_python_solver_is_told_to_flush_in_its_rows_and_once_on_stderr() {
    let tmp = tempfile::tempdir().unwrap();
    let data = puzzles_file(tmp.path(), 4);
    let out = tmp.path().join("run");
    let output = harness()
        .args([
            "run",
            "--no-report",
            "--threads",
            "2",
            "--timeout-ms",
            "300",
        ])
        .env_remove("PYTHONUNBUFFERED")
        .arg("--solver")
        .arg(format!(
            "py=cmd:python3 {} unflushed",
            foreign_fixture("misbehave.py")
        ))
        .arg("--dataset")
        .arg(&data)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let rows = read_rows(&out);
    let (status, error) = (col(&out, "status"), col(&out, "error"));
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert_eq!(&r[status], "error", "{r:?}");
        assert!(
            r[error].contains("it most likely does not flush its output")
                && r[error].contains("print(..., flush=True)"),
            "{r:?}"
        );
    }
    let warning = "warning: py: the program has answered nothing since it started";
    assert_eq!(stderr.matches(warning).count(), 1, "{stderr}");
}

/// A line-protocol program that answers its warm-up and then never again does not hold a bench:
/// every bench solve has a deadline from the round budget, the program is cut for each round,
/// and the other solver is measured. (It had not ended after 600 s.)
#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3: apt-get install python3")]
fn bench_ends_with_a_program_that_stops_answering() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("ten.txt");
    std::fs::write(&data, format!("{SEED}\n").repeat(10)).unwrap();
    let began = std::time::Instant::now();
    let out = harness()
        .args(["bench", "--quick", "--dataset"])
        .arg(&data)
        .arg("--solver")
        .arg(format!(
            "bitboard-bands,x=cmd:python3 {} silent",
            foreign_fixture("misbehave.py")
        ))
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let wall = began.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let row = |name: &str| {
        text.lines()
            .find(|l| l.contains(&format!(" {name} ")))
            .unwrap_or_else(|| panic!("no {name} row in\n{text}"))
            .to_string()
    };
    assert!(row("x").contains(" cut "), "{text}");
    let measured = row("bitboard-bands");
    assert!(!measured.contains("cut"), "{text}");
    assert!(measured.contains("fastest"), "{text}");
    let notes: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(notes.contains("Cut for the round"), "{text}");
    assert!(notes.contains("x from 3 of 3"), "{text}");
    assert!(wall < std::time::Duration::from_secs(60), "{wall:?}");
    // Straight to the stderr handle (libtest captures the print macros of a passing test).
    let _ = std::io::Write::write_fmt(
        &mut std::io::stderr().lock(),
        format_args!(
            "bench with a program that stops answering ended in {:.1} s\n",
            wall.as_secs_f64()
        ),
    );
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3: apt-get install python3")]
fn killed_with_sigkill_midway_a_run_leaves_no_process_and_no_temporary_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let data = puzzles_file(tmp.path(), 40);
    let (misbehave, fake_sat) = (
        foreign_fixture("misbehave.py"),
        foreign_fixture("fake_sat.py"),
    );
    let mut solvers = vec![
        format!("hang=cmd:python3 {misbehave} hang"),
        format!("hang9=cmd:python3 {misbehave} hang-on-9"),
        format!("setsid=cmd:python3 {misbehave} setsid-child"),
        format!("fork=dimacs:python3 {fake_sat} fork-child"),
        format!("setsid-sat=dimacs:python3 {fake_sat} setsid-child"),
        format!("hang-sat=dimacs:python3 {fake_sat} hang"),
    ];
    let libs = tmp.path().join("libs");
    std::fs::create_dir(&libs).unwrap();
    let lib = fixture("hang", &libs);
    solvers.push(format!("spin=lib:{}:HangSolver", lib.display()));
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .args([
            "run",
            "--quiet",
            "--no-report",
            "--isolate",
            "--threads",
            "2",
        ])
        .args(["--timeout-ms", "500", "--solver", &solvers.join(",")])
        .arg("--dataset")
        .arg(&data)
        .arg("--out")
        .arg(tmp.path().join("run"))
        .spawn()
        .unwrap();
    let pid = child.id();
    // Midway: every kind of child running (a hanging program, a SAT solver's folder).
    assert!(
        eventually(60, || marked_by(pid).len() >= 3
            && !temp_folders_of(pid).is_empty()),
        "the run started no children: {:?}",
        marked_by(pid)
    );
    std::thread::sleep(std::time::Duration::from_secs(2));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(
        eventually(10, || marked_by(pid).is_empty()),
        "left running: {:?}",
        marked_by(pid)
    );
    assert!(
        eventually(10, || temp_folders_of(pid).is_empty()),
        "left behind: {:?}",
        temp_folders_of(pid)
    );
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3: apt-get install python3")]
fn a_cmd_script_that_is_not_found_is_refused_before_the_run_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let data = puzzles_file(tmp.path(), 2);
    let out = harness()
        .current_dir(tmp.path())
        .args(["run", "--quiet", "--no-report", "--dataset"])
        .arg(&data)
        .arg("--solver")
        .arg("bitboard-bands,my=cmd:python3 examples/line_solver.py")
        .assert()
        .code(2);
    let text = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        text.contains(
            "my: cannot load: python3 examples/line_solver.py ended before answering its first \
             request; it exited with status 2"
        ),
        "{text}"
    );
    assert!(text.contains("can't open file"), "{text}");
    assert!(
        text.contains(&format!(
            "not found from the current folder {}: examples/line_solver.py",
            tmp.path().canonicalize().unwrap().display()
        )),
        "{text}"
    );
    assert!(!text.contains("my: my:"), "{text}");
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3: apt-get install python3")]
fn a_line_program_answering_solved_gives_solved_unchecked_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let data = puzzles_file(tmp.path(), 2);
    let out = tmp.path().join("run");
    harness()
        .args(["run", "--quiet", "--no-report", "--dataset"])
        .arg(&data)
        .arg("--solver")
        .arg(format!(
            "so=cmd:python3 {} solved-only",
            foreign_fixture("misbehave.py")
        ))
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let (status, correct, error) = (
        col(&out, "status"),
        col(&out, "correct"),
        col(&out, "error"),
    );
    let rows = read_rows(&out);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        // As documented: "solved, unchecked", not wrong.
        assert_eq!(
            (&r[status], &r[correct], &r[error]),
            ("solved", "", ""),
            "{r:?}"
        );
    }
}

/// A solver declared to write no solution (`gives_solution = false`): every page of the run shows the
/// same solved count for it (its solves count as solved, marked unchecked), as
/// `Row::counts_as_solved` says.
#[test]
fn an_unchecked_solver_has_one_solved_count_on_every_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let lib = fixture("tiny_solver", tmp.path());
    let seed = std::fs::read_to_string(root.join("datasets/seed.csv")).unwrap();
    let lines: Vec<&str> = seed.lines().skip(1).collect();
    // 7 puzzles, a count no other figure of the run has.
    let mut csv = String::from("name,puzzle,solution\n");
    for i in 0..7 {
        let l = lines[i % lines.len()];
        let rest = l.split_once(',').unwrap().1;
        csv.push_str(&format!("p{i},{rest}\n"));
    }
    let file = tmp.path().join("seven.csv");
    std::fs::write(&file, csv).unwrap();
    let out = tmp.path().join("run");
    let toml = tmp.path().join("solvers.toml");
    // Declared as a solver that writes no solution: its answers are not read, so not checked.
    let entry = format!(
        "[odd]\nlib = \"{}\"\nsymbol = \"TinySolver\"\ngives_solution = false\n",
        lib.display()
    );
    std::fs::write(&toml, entry).unwrap();
    let run = harness()
        .args(["run", "--dataset"])
        .arg(&file)
        .arg("--solvers")
        .arg(&toml)
        .args(["--solver", "odd", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&run.get_output().stdout).to_string();
    // The terminal table: `odd  7*  0 ...` (the star: some unchecked).
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("odd "))
        .unwrap_or_else(|| panic!("no odd line in\n{stdout}"));
    assert_eq!(line.split_whitespace().nth(1), Some("7*"), "{line}");
    // summary.csv.
    let summary = read_rows_of(&out.join("summary.csv"));
    let (head, rows) = summary.split_first().unwrap();
    let at = |name: &str| head.iter().position(|h| h == name).unwrap();
    let odd = rows.iter().find(|r| r[at("solver")] == *"odd").unwrap();
    assert_eq!(&odd[at("solved")], "7");
    assert_eq!(&odd[at("unchecked")], "7");
    // summary.md and index.html.
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(md.contains("| odd | 7 / 7 |"), "{md}");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    let tr = html
        .lines()
        .find(|l| l.starts_with("<tr") && l.contains(">odd<") && l.contains(" / "))
        .unwrap_or_else(|| panic!("no odd row with a solved count in index.html"));
    assert!(tr.contains("data-v=\"7\">7 / 7</td>"), "{tr}");
    // The cactus plot's legend.
    let cactus = std::fs::read_dir(out.join("plots"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            name.starts_with("cactus-") && name.ends_with(".svg")
        })
        .expect("a cactus plot");
    let svg = std::fs::read_to_string(cactus).unwrap();
    assert!(svg.contains("odd (7 solved, 7 of them unchecked)"), "{svg}");
}

fn read_rows_of(path: &Path) -> Vec<csv::StringRecord> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap();
    rdr.records().map(|r| r.unwrap()).collect()
}

/// A puzzle file of `n` lines of [`SEED`], line `at` (0-based) being [`TRIGGER`] (r1c1 given 9:
/// the fixtures' trigger).
fn trigger_at(dir: &Path, n: usize, at: usize) -> PathBuf {
    let text: String = (0..n)
        .map(|i| format!("{} p{i}\n", if i == at { TRIGGER } else { SEED }))
        .collect();
    let path = dir.join("trigger.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// The arguments of a one-thread `harness run` into `dir/run` racing `dlx` against `symbol` of
/// fixture `name` (built into `dir`, named `name` in the rows) over `n` puzzles, line `at` being
/// the trigger.
fn trigger_run(dir: &Path, name: &str, symbol: &str, (n, at): (usize, usize)) -> Vec<OsString> {
    let lib = fixture(name, dir);
    let mut args: Vec<OsString> = ["run", "--quiet", "--no-report", "--threads", "1"]
        .map(OsString::from)
        .to_vec();
    args.push("--solver".into());
    args.push(format!("dlx,{name}=lib:{}:{symbol}", lib.display()).into());
    args.push("--dataset".into());
    args.push(trigger_at(dir, n, at).into());
    args.push("--out".into());
    args.push(dir.join("run").into());
    args
}

/// A library loaded in-process whose call never returns cannot be interrupted: the first SIGTERM
/// stops the run within the grace period anyway, saving the rows of every solve that finished,
/// those of the chunk in flight included (here the whole run is one chunk).
#[test]
#[cfg_attr(not(has_cc), ignore = "needs a C compiler (cc): apt-get install gcc")]
fn sigterm_stops_a_run_stuck_in_a_library_call_keeping_the_finished_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let mark = tmp.path().join("spinning");
    let out = tmp.path().join("run");
    // 40 puzzles, the last one the trigger: in a block of its own, after every other solve
    // (one thread), so no warm-up meets it first.
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .env("HANG_MARK", &mark)
        .args(trigger_run(tmp.path(), "hang", "HangSolver", (40, 39)))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    assert!(
        eventually(120, || mark.exists()),
        "the library never reached its loop"
    );
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) },
        0
    );
    let signalled = std::time::Instant::now();
    let stopped = eventually(10, || child.try_wait().unwrap().is_some());
    if !stopped {
        child.kill().unwrap();
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(
        stopped,
        "still running 10 s after SIGTERM; stderr: {stderr}"
    );
    assert!(
        signalled.elapsed() < std::time::Duration::from_secs(10),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("a solve did not stop within 2 s"),
        "{stderr}"
    );
    let rows = read_rows(&out);
    let (solver, status, correct, puzzle) = (
        col(&out, "solver"),
        col(&out, "status"),
        col(&out, "correct"),
        col(&out, "puzzle"),
    );
    // Every solve but the stuck one: 40 of dlx, 39 of the library.
    assert_eq!(rows.len(), 79, "{rows:?}");
    for r in &rows {
        assert_eq!((&r[status], &r[correct]), ("solved", "true"), "{r:?}");
    }
    let spun: Vec<_> = rows.iter().filter(|r| &r[solver] == "hang").collect();
    assert_eq!(spun.len(), 39);
    assert!(spun.iter().all(|r| &r[puzzle] != "p39"), "{spun:?}");
    let info = common::run_json(&out);
    assert_eq!(info["interrupted"], serde_json::Value::Bool(true), "{info}");
    assert_eq!(info["complete"], serde_json::Value::Bool(false), "{info}");
}

/// A library loaded in-process that calls `_exit(0)` takes the harness with it, exit status and
/// all; what a reader has is the saved rows (the chunks written before it) and a run.json that
/// never said the run finished, so the report calls it partial.
#[test]
#[cfg_attr(not(has_cc), ignore = "needs a C compiler (cc): apt-get install gcc")]
fn a_library_that_calls_exit_leaves_whole_rows_and_a_run_marked_partial() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    // The trigger at puzzle 201: after the first chunk (64 puzzles) at least.
    harness()
        .args(trigger_run(tmp.path(), "exits", "ExitSolver", (300, 200)))
        .output()
        .unwrap();
    // Whole lines only: a line cut by the exit is not a row (every reader skips it).
    let text = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let mut reader = csv::Reader::from_reader(whole.as_bytes());
    let head = reader.headers().unwrap().clone();
    let at = |name: &str| head.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert!(
        (128..=400).contains(&rows.len()),
        "{} rows: the first chunk (64 puzzles x 2 solvers) at least, none past the trigger",
        rows.len()
    );
    for r in &rows {
        assert_eq!(
            (&r[at("status")], &r[at("correct")]),
            ("solved", "true"),
            "{r:?}"
        );
    }
    let info = common::run_json(&out);
    assert_eq!(info["complete"], serde_json::Value::Bool(false), "{info}");
    harness().arg("report").arg(&out).assert().success();
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        md.contains("Partial run (killed, or still running)"),
        "{md}"
    );
}

/// A `dimacs:` solver needs a temporary folder for its formula: one that cannot be made (here
/// TMPDIR lies under a regular file, which no permission bit or root can change) is refused
/// before the run, exit status 2, naming the solver and the cause; nothing is written.
#[test]
fn a_dimacs_solver_without_a_usable_temporary_folder_is_refused_before_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let data = puzzles_file(tmp.path(), 2);
    let out = tmp.path().join("run");
    let run = harness()
        .env("TMPDIR", file.join("tmp"))
        .args(["run", "--quiet", "--no-report", "--dataset"])
        .arg(&data)
        .args(["--solver", "bitboard-bands,sat-cli=dimacs:sh", "--out"])
        .arg(&out)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).to_string();
    assert!(
        stderr.contains("sat-cli: cannot load: cannot make a temporary folder: Not a directory"),
        "{stderr}"
    );
    assert!(!out.exists(), "{} was written", out.display());
    let count = harness()
        .env("TMPDIR", file.join("tmp"))
        .args(["count", "--solver", "sat-cli=dimacs:sh", SEED])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&count.get_output().stderr).to_string();
    assert!(
        stderr.contains("sat-cli: cannot load: cannot make a temporary folder"),
        "{stderr}"
    );
}
