//! Faults during `harness run`, on a real child process: Ctrl-C (SIGINT) and SIGTERM save the
//! finished rows and mark the run interrupted; a second Ctrl-C quits at once; SIGKILL in the middle
//! of a write leaves no truncated file under a final name; an unwritable output folder is refused
//! before any solving; the node budget works end to end and is reproducible.

use super::common::{harness, run_json};
use predicates::prelude::*;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Easy puzzles (solved in microseconds by every solver).
const EASY: &[&str] = &[
    "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6",
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    ".23.97645456231978789564312.97.23564231456897564789231645312789978645123312978456",
];

/// No solution, found only after filling rows 1-8: `backtracking` never finishes it.
const ENDLESS: &str =
    "........9...............................................................12345678.";

fn harness_path() -> PathBuf {
    assert_cmd::cargo::cargo_bin("harness")
}

/// A dataset: the easy puzzles first, then `endless` copies of the endless one.
fn dataset(dir: &Path, endless: usize) -> PathBuf {
    let mut text = String::new();
    for (k, p) in EASY.iter().enumerate() {
        text.push_str(&format!("{p} easy-{}\n", k + 1));
    }
    for k in 0..endless {
        text.push_str(&format!("{ENDLESS} endless-{}\n", k + 1));
    }
    let path = dir.join("hard.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// Starts `harness run` with backtracking, no time budget, one thread.
fn spawn_run(data: &Path, out: &Path, env: &[(&str, &str)]) -> Child {
    let mut cmd = Command::new(harness_path());
    cmd.args(["run", "--solver", "backtracking", "--timeout-ms", "0"])
        .args(["--threads", "1", "--dataset"])
        .arg(data)
        .arg("--out")
        .arg(out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().expect("harness starts")
}

/// Reads the child's stderr until a line containing `needle` (the child keeps running).
fn wait_for_stderr(child: &mut Child, needle: &str) -> BufReader<std::process::ChildStderr> {
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        let n = err.read_line(&mut line).unwrap();
        assert!(n > 0, "harness ended before printing {needle:?}");
        if line.contains(needle) {
            return err;
        }
    }
}

fn signal(child: &Child, sig: libc::c_int) {
    // SAFETY: kill(2) on our own child's pid.
    let r = unsafe { libc::kill(child.id() as libc::pid_t, sig) };
    assert_eq!(r, 0, "kill failed");
}

/// Waits for the child to end, killing it (and failing) after `limit`.
fn wait_exit(child: &mut Child, limit: Duration) -> ExitStatus {
    let t0 = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            return st;
        }
        if t0.elapsed() > limit {
            child.kill().ok();
            panic!("harness did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Polls `dir` until a file whose name starts with `prefix` appears.
fn wait_for_file(dir: &Path, prefix: &str, limit: Duration) -> PathBuf {
    let t0 = Instant::now();
    loop {
        if let Ok(rd) = std::fs::read_dir(dir) {
            for e in rd.flatten() {
                if e.file_name().to_string_lossy().starts_with(prefix) {
                    return e.path();
                }
            }
        }
        assert!(t0.elapsed() < limit, "no {prefix}* in {}", dir.display());
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn results(out: &Path) -> Vec<csv::StringRecord> {
    let mut rdr = csv::Reader::from_path(out.join("results.csv")).expect("results.csv");
    rdr.records().map(|r| r.expect("a whole CSV row")).collect()
}

/// Checks the saved rows of an interrupted run: the easy puzzles, solved and checked; no
/// `timeout` row (the solve cut short is dropped, not recorded as a timeout).
fn check_interrupted_run(out: &Path) {
    let rows = results(out);
    assert_eq!(rows.len(), EASY.len(), "{rows:?}");
    for r in &rows {
        assert!(r[1].starts_with("easy-"), "{r:?}");
        assert_eq!((&r[3], &r[4]), ("solved", "true"), "{r:?}");
    }
    let info = run_json(out);
    assert_eq!(info["interrupted"], serde_json::Value::Bool(true));
    let mut s = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let summary: Vec<_> = s.records().map(|r| r.unwrap()).collect();
    // The solver's row and the virtual best solver's.
    assert_eq!(summary.len(), 2);
    assert_eq!(&summary[1][1], "virtual-best");
    // The report renders from the saved rows and says the run was interrupted.
    let md = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
    assert!(md.contains("Interrupted run"), "{md}");
    assert!(out.join("index.html").is_file());
}

#[cfg(unix)]
#[test]
fn sigint_saves_finished_rows_and_marks_the_run_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path(), 4);
    let out = dir.path().join("run");
    let mut child = spawn_run(&data, &out, &[]);
    let mut err = wait_for_stderr(&mut child, "running 1 solver over");
    // The easy puzzles take microseconds; then backtracking is stuck on the endless one.
    std::thread::sleep(Duration::from_millis(2500));
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, Duration::from_secs(60));
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    assert_eq!(status.code(), Some(130), "stderr: {rest}");
    assert!(
        rest.contains("interrupted: 3 of 7 solves finished"),
        "{rest}"
    );
    // The table says it is partial, and what each solver left unfinished.
    let mut table = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut table).unwrap();
    assert!(
        table.contains("hard.txt: 3 of 7 puzzles, partial (the run was interrupted)\n")
            && table.contains("unfinished (no row yet): backtracking 4\n"),
        "{table}"
    );
    check_interrupted_run(&out);
}

/// A study stopped by Ctrl-C names the command that goes on with it: `harness scale ...
/// --resume DIR` (a `harness run --resume DIR` refuses a study's run without its instance files
/// as datasets).
#[cfg(unix)]
#[test]
fn an_interrupted_scale_names_the_command_that_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("study");
    // Backtracking with no budget on quasigroups of order 30 near the peak: it never ends.
    let mut child = Command::new(harness_path())
        .args([
            "scale",
            "-s",
            "backtracking",
            "--qwh-orders",
            "30",
            "-n",
            "2",
        ])
        .args(["--timeout-ms", "0", "--threads", "1", "-o"])
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("harness starts");
    let mut err = wait_for_stderr(&mut child, "running 1 solver over");
    std::thread::sleep(Duration::from_millis(500));
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, Duration::from_secs(60));
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    assert_eq!(status.code(), Some(130), "stderr: {rest}");
    assert!(
        rest.contains(&format!("`harness scale --resume {}`", out.display())),
        "{rest}"
    );
    assert!(!rest.contains("harness run --resume"), "{rest}");
}

#[cfg(unix)]
#[test]
fn sigterm_is_handled_like_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path(), 2);
    let out = dir.path().join("run");
    let mut child = spawn_run(&data, &out, &[]);
    let _err = wait_for_stderr(&mut child, "running 1 solver over");
    std::thread::sleep(Duration::from_millis(2500));
    signal(&child, libc::SIGTERM);
    let status = wait_exit(&mut child, Duration::from_secs(60));
    assert_eq!(status.code(), Some(130));
    check_interrupted_run(&out);
}

/// A second Ctrl-C while the rows are being written exits at once: results.csv, written in
/// place as the run goes, holds whole rows only; summary.csv never appears; run.json (written
/// when the run started) says the run is incomplete.
#[cfg(unix)]
#[test]
fn second_sigint_exits_at_once_leaving_whole_rows() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path(), 1);
    let out = dir.path().join("run");
    // Each row written takes 3 s: a 9 s window while results.csv is being written.
    let mut child = spawn_run(&data, &out, &[("HARNESS_TEST_SLOW_WRITE_MS", "3000")]);
    let _err = wait_for_stderr(&mut child, "running 1 solver over");
    std::thread::sleep(Duration::from_millis(2500));
    signal(&child, libc::SIGINT);
    wait_for_rows(&out, 1, Duration::from_secs(60));
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, Duration::from_secs(60));
    assert_eq!(status.code(), Some(130));
    assert!(!out.join("summary.csv").exists());
    let rows = results(&out);
    assert!((1..EASY.len()).contains(&rows.len()), "{rows:?}");
    check_whole_rows(&out);
    let info = run_json(&out);
    assert_eq!(info["complete"], serde_json::Value::Bool(false));
    assert_eq!(info["interrupted"], serde_json::Value::Bool(true));
}

/// Waits until results.csv holds at least `n` rows.
fn wait_for_rows(out: &Path, n: usize, limit: Duration) {
    let t0 = Instant::now();
    loop {
        let lines = std::fs::read_to_string(out.join("results.csv"))
            .map(|t| t.matches('\n').count())
            .unwrap_or(0);
        if lines > n {
            return;
        }
        assert!(t0.elapsed() < limit, "no {n} rows in {}", out.display());
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Every whole line of results.csv is a valid row (as the report reads it), the header first.
fn check_whole_rows(out: &Path) -> Vec<harness::record::Row> {
    let text = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let mut rdr = csv::Reader::from_reader(whole.as_bytes());
    let rows: Vec<harness::record::Row> = rdr
        .deserialize()
        .map(|r| r.expect("every whole line is a row"))
        .collect();
    assert_eq!(rows, harness::record::read_rows(out).unwrap());
    for r in &rows {
        if r.status == harness::record::RowStatus::Solved {
            assert_eq!(r.correct, Some(true), "{r:?}");
            assert_eq!(r.solution.len(), 81, "{r:?}");
        }
    }
    rows
}

/// SIGKILL (no handler can run) while results.csv is being appended to, then while summary.csv
/// is being written, then over a finished run in the same folder: results.csv holds whole rows
/// only (each valid), summary.csv either does not exist or is whole, and run.json (written when
/// the run started) says the run is not complete; the report renders the rows and says they are
/// partial.
#[cfg(unix)]
#[test]
fn sigkill_mid_write_leaves_whole_rows_and_an_incomplete_run() {
    // Four solvers x the 2 seed puzzles: 8 rows, each written slowly, so the kill lands mid-file.
    const KILLED_SOLVERS: &str = "backtracking,bitmask-dfs,dlx,sat";
    for (writing, done) in [("results.csv", 0), ("summary.csv", 1), ("results.csv", 2)] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("run");
        if done == 2 {
            harness()
                .args(["run", "--dataset", "seed", "-q", "--out"])
                .arg(&out)
                .assert()
                .success();
            assert!(out.join("run.json").exists());
        }
        let mut child = Command::new(harness_path())
            .args(["run", "--dataset", "seed", "--solver", KILLED_SOLVERS, "-q"])
            .arg("--out")
            .arg(&out)
            .env("HARNESS_TEST_SLOW_WRITE_MS", "400")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let tmp = if writing == "summary.csv" {
            Some(wait_for_file(
                &out,
                ".summary.csv.",
                Duration::from_secs(120),
            ))
        } else {
            // The old run's files are removed before the new run.json is written.
            let t0 = Instant::now();
            while !std::fs::read_to_string(out.join("run.json"))
                .is_ok_and(|t| t.contains("\"complete\": false"))
            {
                assert!(t0.elapsed() < Duration::from_secs(120), "no new run.json");
                std::thread::sleep(Duration::from_millis(5));
            }
            wait_for_rows(&out, 2, Duration::from_secs(120));
            None
        };
        // Let it write a row or two more first.
        std::thread::sleep(Duration::from_millis(600));
        signal(&child, libc::SIGKILL);
        wait_exit(&mut child, Duration::from_secs(30));
        if let Some(tmp) = tmp {
            assert!(
                tmp.exists(),
                "the temporary file is left, under its own name"
            );
        }
        assert!(
            !out.join("summary.csv").exists(),
            "summary.csv after SIGKILL"
        );
        let info = run_json(&out);
        assert_eq!(info["complete"], serde_json::Value::Bool(false));
        let rows = check_whole_rows(&out);
        let all = 2 * KILLED_SOLVERS.split(',').count();
        if done == 1 {
            // results.csv was finished before the kill: every row.
            assert_eq!(rows.len(), all);
        } else {
            assert!((2..all).contains(&rows.len()), "{}", rows.len());
        }
        // The report renders what was saved and says it is partial.
        harness().arg("report").arg(&out).assert().success();
        let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
        assert!(
            md.contains("**Partial run (killed, or still running)**"),
            "{md}"
        );
        assert!(
            md.contains(&format!(
                "results.csv holds {} rows of the {all}",
                rows.len()
            )),
            "{md}"
        );
    }
}

#[test]
fn unwritable_output_folder_is_refused_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, "x").unwrap();
    harness()
        .args(["run", "--dataset", "seed", "--out"])
        .arg(file.join("sub"))
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("cannot create output folder")
                .and(predicate::str::contains("running").not()),
        );
}

/// `--max-nodes` ends runaway solves as `timeout` at the same node count on every run, and is
/// recorded in run.json.
#[test]
fn max_nodes_end_to_end_and_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path(), 1);
    let mut runs = Vec::new();
    for k in 0..2 {
        let out = dir.path().join(format!("run{k}"));
        harness()
            .args(["run", "--solver", "backtracking,bitmask-dfs", "-q"])
            .args(["--timeout-ms", "0", "--max-nodes", "5000", "--dataset"])
            .arg(&data)
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        assert_eq!(run_json(&out)["max_nodes"], serde_json::json!(5000));
        let rows = results(&out);
        let endless: Vec<_> = rows.iter().filter(|r| &r[1] == "endless-1").collect();
        assert_eq!(endless.len(), 2);
        for r in &endless {
            assert_eq!(&r[3], "timeout", "{r:?}");
            assert_eq!(&r[6], "5001", "stops at the first node past the budget");
        }
        runs.push(
            rows.iter()
                .map(|r| (r[1].to_string(), r[2].to_string(), r[6].to_string()))
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(runs[0], runs[1], "node counts differ between two runs");
}

/// Every temporary file of `write_atomic` under `dir`, at any depth: `.NAME.XXXXXX.tmp` or
/// `.NAME.XXXXXX.png`.
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            out.extend(temporaries(&p));
        } else if name.starts_with('.') && (name.ends_with(".tmp") || name.ends_with(".png")) {
            out.push(p);
        }
    }
    out
}

/// Polls until a temporary file appears under `dir`; returns it.
fn wait_for_temporary(dir: &Path, limit: Duration) -> PathBuf {
    let t0 = Instant::now();
    loop {
        if let Some(p) = temporaries(dir).pop() {
            return p;
        }
        assert!(
            t0.elapsed() < limit,
            "no temporary file under {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A child's whole stderr, once it has ended.
fn stderr_of(child: &mut Child) -> String {
    let mut s = String::new();
    if let Some(mut e) = child.stderr.take() {
        std::io::Read::read_to_string(&mut e, &mut s).unwrap();
    }
    s
}

/// Solves the seed puzzle a few times (block form for `-s`).
fn block_puzzles(dir: &Path) -> PathBuf {
    let grid = solvers::Grid::parse_line(EASY[0]).unwrap();
    let text: String = (0..50).map(|_| format!("{}\n", grid.to_block())).collect();
    let path = dir.join("blocks.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// Every command that writes, stopped by SIGINT or SIGTERM while its output is a temporary file:
/// it exits with status 130, leaves no temporary file, does not touch its output (absent stays
/// absent, an old file stays whole), and says so on stderr.
#[cfg(unix)]
#[test]
fn every_writing_command_removes_its_temporary_files_on_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let blocks = block_puzzles(d);
    // Two shards of a tiny run, for `merge`; a finished run, for `report` and `compare`.
    let shard = |k: &str| {
        let out = d.join(format!("shard-{k}"));
        harness()
            .args(["run", "-q", "--no-report", "--dataset", "seed", "--solver"])
            .args(["bitmask-dfs", "--shard", &format!("{k}/2"), "--out"])
            .arg(&out)
            .assert()
            .success();
        out
    };
    let (s1, s2) = (shard("1"), shard("2"));
    let finished = d.join("finished");
    harness()
        .args(["run", "-q", "--no-report", "--dataset", "seed", "--solver"])
        .args(["bitmask-dfs", "--out"])
        .arg(&finished)
        .assert()
        .success();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    // (what, arguments, the output, whether it exists before, stdin fed slowly).
    let cases: Vec<(&str, Vec<String>, PathBuf, bool, bool)> = vec![
        (
            "solve -o (stdin still coming)",
            vec![
                "solve".into(),
                "-".into(),
                "-o".into(),
                s(&d.join("sol.txt")),
            ],
            d.join("sol.txt"),
            false,
            true,
        ),
        (
            "solve -o over an old file",
            vec![
                "solve".into(),
                "-".into(),
                "-o".into(),
                s(&d.join("old.txt")),
            ],
            d.join("old.txt"),
            true,
            true,
        ),
        (
            "generate puzzles -o",
            [
                "generate", "puzzles", "--count", "100000", "--seed", "1", "-q", "-o",
            ]
            .map(String::from)
            .into_iter()
            .chain([s(&d.join("puzzles.csv"))])
            .collect(),
            d.join("puzzles.csv"),
            false,
            false,
        ),
        (
            "generate grids -o",
            ["generate", "grids", "--count", "3", "-q", "-o"]
                .map(String::from)
                .into_iter()
                .chain([s(&d.join("grids.txt"))])
                .collect(),
            d.join("grids.txt"),
            false,
            false,
        ),
        (
            "classic -c",
            vec!["-c".into(), "10".into()],
            d.join("sudoku.txt"),
            false,
            false,
        ),
        (
            "classic -s",
            vec!["-s".into(), s(&blocks)],
            d.join("sudoku.txt"),
            false,
            false,
        ),
        (
            "cnf -o",
            vec![
                "cnf".into(),
                EASY[0].into(),
                "-o".into(),
                s(&d.join("f.cnf")),
            ],
            d.join("f.cnf"),
            false,
            false,
        ),
        (
            "merge",
            vec![
                "merge".into(),
                s(&s1),
                s(&s2),
                "--out".into(),
                s(&d.join("merged")),
            ],
            d.join("merged/results.csv"),
            false,
            false,
        ),
        (
            "report",
            vec!["report".into(), s(&finished)],
            finished.join("index.html"),
            false,
            false,
        ),
        (
            "compare -o",
            vec![
                "compare".into(),
                s(&s1),
                s(&finished),
                "-o".into(),
                s(&d.join("cmp.csv")),
            ],
            d.join("cmp.csv"),
            false,
            false,
        ),
    ];
    for (k, (what, args, output, exists, feed)) in cases.into_iter().enumerate() {
        if exists {
            std::fs::write(&output, "old, whole\n").unwrap();
        }
        let mut cmd = Command::new(harness_path());
        cmd.args(&args)
            .current_dir(d)
            // Each file waits 60 s before its rename: the signal always comes first.
            .env("HARNESS_TEST_SLOW_WRITE_MS", "60000")
            .stdin(if feed { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        if feed {
            // Puzzles trickle in, as from a slow pipe, until the child is gone.
            let mut stdin = child.stdin.take().unwrap();
            std::thread::spawn(move || loop {
                use std::io::Write;
                if writeln!(stdin, "{}", EASY[k % EASY.len()]).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            });
        }
        let tmp = wait_for_temporary(d, Duration::from_secs(120));
        std::thread::sleep(Duration::from_millis(100));
        let sig = if k % 2 == 0 {
            libc::SIGINT
        } else {
            libc::SIGTERM
        };
        signal(&child, sig);
        let status = wait_exit(&mut child, Duration::from_secs(30));
        let err = stderr_of(&mut child);
        assert_eq!(status.code(), Some(130), "{what}: {err}");
        assert_eq!(temporaries(d), Vec::<PathBuf>::new(), "{what}: {err}");
        assert!(!tmp.exists(), "{what}");
        assert!(err.contains("interrupted (status 130)"), "{what}: {err}");
        // The file being written when the signal came: `.NAME.XXXXXX.tmp` -> NAME.
        let tmp_name = tmp.file_name().unwrap().to_string_lossy().into_owned();
        let parts: Vec<&str> = tmp_name[1..].rsplitn(3, '.').collect();
        let shown = parts[2];
        if exists {
            assert_eq!(std::fs::read_to_string(&output).unwrap(), "old, whole\n");
            assert!(err.contains("left as it was"), "{what}: {err}");
        } else {
            assert!(!output.exists(), "{what}: {} exists", output.display());
            assert!(err.contains("not written"), "{what}: {err}");
        }
        assert!(err.contains(shown), "{what}: {shown}: {err}");
    }
}

/// A signal while `run` is still reading its datasets (here: a FIFO the test writes slowly)
/// stops it at once with status 130 and a message, before anything is written.
#[cfg(unix)]
#[test]
fn a_signal_while_run_loads_its_datasets_exits_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("slow.txt");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) on a NUL-terminated path in the test's own folder.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let out = dir.path().join("run");
    let mut child = spawn_run(&fifo, &out, &[]);
    // The child opens the FIFO for reading; this open waits for it.
    let mut w = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    use std::io::Write;
    writeln!(w, "{} easy-1", EASY[0]).unwrap();
    w.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, Duration::from_secs(30));
    let err = stderr_of(&mut child);
    drop(w);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted (status 130): nothing was written"),
        "{err}"
    );
    assert!(!out.exists(), "the output folder was made");
}

/// Ctrl-C while `run` renders its report: it stops at once (the report is not finished), the
/// results are complete and kept, run.json says `"interrupted": false` (every solve finished),
/// and the message says how to render the report.
#[cfg(unix)]
#[test]
fn a_signal_during_the_report_stops_it_and_keeps_the_complete_results() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path(), 0);
    let out = dir.path().join("run");
    // Each row and each file waits 1 s: the report (a dozen files) would take over 10 s.
    let mut child = spawn_run(&data, &out, &[("HARNESS_TEST_SLOW_WRITE_MS", "1000")]);
    wait_for_temporary(&out.join("plots"), Duration::from_secs(120));
    assert!(out.join("run.json").exists(), "the results are saved first");
    let t0 = Instant::now();
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, Duration::from_secs(30));
    let stopped_in = t0.elapsed();
    let err = stderr_of(&mut child);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(
        stopped_in < Duration::from_secs(5),
        "took {stopped_in:?}: {err}"
    );
    assert_eq!(temporaries(&out), Vec::<PathBuf>::new(), "{err}");
    assert!(!out.join("index.html").exists(), "the report was finished");
    assert!(err.contains("kept"), "{err}");
    assert!(err.contains("results.csv"), "{err}");
    assert!(err.contains("harness report"), "{err}");
    assert_eq!(results(&out).len(), EASY.len());
    assert_eq!(
        run_json(&out)["interrupted"],
        serde_json::Value::Bool(false)
    );
}

/// Ctrl-C after every solve finished, while the results are being written: the save completes
/// (the rows are the whole run, so run.json says `"interrupted": false`), then `run` stops
/// before the report with status 130.
#[cfg(unix)]
#[test]
fn a_signal_while_saving_finishes_the_save_and_skips_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path(), 0);
    let out = dir.path().join("run");
    let mut child = spawn_run(&data, &out, &[("HARNESS_TEST_SLOW_WRITE_MS", "300")]);
    wait_for_rows(&out, 1, Duration::from_secs(120));
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, Duration::from_secs(60));
    let err = stderr_of(&mut child);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted after every solve finished"),
        "{err}"
    );
    assert_eq!(results(&out).len(), EASY.len());
    assert_eq!(
        run_json(&out)["interrupted"],
        serde_json::Value::Bool(false)
    );
    assert!(!out.join("index.html").exists());
    assert_eq!(temporaries(&out), Vec::<PathBuf>::new());
}

/// `--out FILE` where FILE is a regular file: the message says it is a file.
#[test]
fn out_naming_a_file_says_it_is_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("afile");
    std::fs::write(&file, "x").unwrap();
    harness()
        .args(["run", "--dataset", "seed", "--out"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("it is a file, not a folder")
                .and(predicate::str::contains("File exists").not()),
        );
}

/// `run` over datasets none of whose puzzles can be read: exit 2, nothing written.
#[test]
fn run_exits_2_when_no_puzzle_can_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("bad.txt");
    std::fs::write(&data, "12345\n11.......\n").unwrap();
    let out = dir.path().join("run");
    harness()
        .args(["run", "-q", "--dataset"])
        .arg(&data)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "none of the 2 puzzles could be read",
        ));
    assert!(!out.exists());
    // One readable puzzle among bad ones is a run, saved, still exiting 2 for the bad ones.
    std::fs::write(&data, format!("12345\n{}\n", EASY[0])).unwrap();
    harness()
        .args(["run", "-q", "--dataset"])
        .arg(&data)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2);
    assert!(out.join("run.json").is_file());
}
