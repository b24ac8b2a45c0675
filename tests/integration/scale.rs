//! Runs of many puzzles: memory that does not grow with the puzzle count, rows saved as they
//! finish, a killed run resumed to the rows of an uninterrupted one.

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A solution grid (checked by `harness::verify` in `easy_puzzles`).
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// `n` easy puzzles, one a line, from `seed`: the solution with its digits relabelled and 30
/// cells emptied, both drawn from a xorshift stream (51 givens: solved by singles alone).
fn easy_puzzles(path: &Path, n: usize, seed: u64) {
    use std::io::Write;
    let sol: Vec<u8> = SOLUTION.bytes().map(|b| b - b'0').collect();
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut line = [0u8; 82];
    line[81] = b'\n';
    for _ in 0..n {
        let mut digits: Vec<u8> = (1..=9).collect();
        for i in (1..9).rev() {
            digits.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        for (c, &d) in sol.iter().enumerate() {
            line[c] = b'0' + digits[d as usize - 1];
        }
        let mut emptied = 0;
        while emptied < 30 {
            let c = (next() % 81) as usize;
            if line[c] != b'.' {
                line[c] = b'.';
                emptied += 1;
            }
        }
        out.write_all(&line).unwrap();
    }
    out.flush().unwrap();
}

fn harness_path() -> PathBuf {
    assert_cmd::cargo::cargo_bin("harness")
}

/// The binary of the million-puzzle test: `HARNESS_SCALE_BIN` when set (`.ci/run` points it at
/// the release build, which it builds anyway), else the test profile's.
fn scale_bin() -> PathBuf {
    std::env::var_os("HARNESS_SCALE_BIN").map_or_else(harness_path, PathBuf::from)
}

/// Runs `harness run` with `args` to the end; returns its peak resident memory, KiB (see
/// [`peak_rss_kib_of`]).
#[cfg(target_os = "linux")]
fn peak_rss_kib(args: &[&str]) -> i64 {
    peak_rss_kib_of(&harness_path(), args)
}

/// Runs `bin` with `args` to the end (it must exit 0); returns its peak resident memory, KiB:
/// the largest `VmHWM` of `/proc/PID/status` read every 5 ms while it runs. Not wait4's
/// `ru_maxrss`: Linux folds the memory the child was forked from (this test process, hundreds of
/// MB while the whole suite runs in it) into that figure at exec, so it reports the parent's
/// size whatever the child does. `VmHWM` is the child's own address space's high-water mark,
/// which only grows, so a read misses at most the last 5 ms before the exit.
#[cfg(target_os = "linux")]
fn peak_rss_kib_of(bin: &Path, args: &[&str]) -> i64 {
    let mut child = std::process::Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0i64;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            if let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok())
            {
                peak = peak.max(kib);
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{bin:?} {args:?}: {status}");
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(peak > 0, "no VmHWM read from {status_file}");
    peak
}

/// Puzzles of the merge-memory test's run: 100,000 rows, about 100 MB if the merge held them,
/// twice the run's peak.
const FLAT_N: usize = 50_000;

/// Puzzles of the smaller run of the flat-memory test; the larger has four times as many, whose
/// 160,000 rows would need over 100 MB if held (the two take about 10 s in the test profile, the
/// harness unoptimized).
const GROWTH_N: usize = 20_000;

/// N and 4N easy puzzles x 2 fast solvers: the larger run's peak memory is within 24 MiB of the
/// smaller's (its rows alone would need over 100 MB if held), and every row is there and checked.
#[cfg(target_os = "linux")]
#[test]
fn memory_does_not_grow_with_the_puzzle_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut peaks = Vec::new();
    for n in [GROWTH_N, 4 * GROWTH_N] {
        let data = dir.path().join(format!("easy-{n}.txt"));
        easy_puzzles(&data, n, 17);
        let out = dir.path().join(format!("run-{n}"));
        let peak = peak_rss_kib(&[
            "run",
            "--solver",
            "bitboard-bands,domain-reduction",
            "--dataset",
            data.to_str().unwrap(),
            "--no-report",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]);
        let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        let mut rdr = csv::Reader::from_reader(summary.as_bytes());
        let rows: Vec<harness::analysis::summary::SummaryRow> = rdr
            .deserialize()
            .map(|r| r.unwrap())
            .filter(|r: &harness::analysis::summary::SummaryRow| r.solver != "virtual-best")
            .collect();
        assert_eq!(rows.len(), 2);
        for s in &rows {
            assert_eq!((s.puzzles, s.solved, s.wrong), (n, n, 0), "{s:?}");
        }
        let lines = std::io::BufRead::lines(std::io::BufReader::new(
            std::fs::File::open(out.join("results.csv")).unwrap(),
        ))
        .count();
        assert_eq!(lines, 2 * n + 1);
        std::fs::remove_file(&data).unwrap();
        std::fs::remove_dir_all(&out).unwrap();
        peaks.push(peak);
    }
    eprintln!(
        "peak RSS: {} KiB at {GROWTH_N} puzzles, {} KiB at {}",
        peaks[0],
        peaks[1],
        4 * GROWTH_N
    );
    assert!(peaks[1] < peaks[0] + 24 * 1024, "{peaks:?}");
    assert!(peaks[1] < 200 * 1024, "{peaks:?}");
}

/// 1,000,000 easy puzzles x 2 fast solvers, and 100,000 for comparison, run by the release
/// binary (`HARNESS_SCALE_BIN`; ignored by the plain test run, where the test profile would take
/// minutes: `.ci/run` runs it). The larger run's peak RSS is under 200 MiB and within 24 MiB of
/// the smaller's (its 2,000,000 rows would need over 1.8 GB if held, as the run did before it
/// streamed); every row is written and checked; `harness report` renders it, its plots bounded
/// (each SVG under 1 MB) and its peak RSS under 200 MiB too.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "a million puzzles: HARNESS_SCALE_BIN=target/release/harness cargo test --test scale scale::a_million -- --ignored"]
fn a_million_puzzles_in_flat_memory() {
    let bin = scale_bin();
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut peaks = Vec::new();
    for n in [100_000, 1_000_000] {
        let data = dir.path().join(format!("easy-{n}.txt"));
        easy_puzzles(&data, n, 29);
        let out = dir.path().join(format!("run-{n}"));
        let data_arg = data.to_str().unwrap();
        let out_arg = out.to_str().unwrap();
        peaks.push(peak_rss_kib_of(&bin, &run_args(data_arg, out_arg)));
        let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        let mut rdr = csv::Reader::from_reader(summary.as_bytes());
        let rows: Vec<harness::analysis::summary::SummaryRow> =
            rdr.deserialize().map(|r| r.unwrap()).collect();
        // The two solvers, and the virtual best solver's row of the dataset.
        assert_eq!(rows.len(), 3);
        let best = rows
            .iter()
            .filter(|s| s.solver == harness::analysis::scores::VIRTUAL_BEST);
        assert_eq!(best.count(), 1);
        for s in &rows {
            assert_eq!((s.puzzles, s.solved, s.wrong), (n, n, 0), "{s:?}");
        }
        let mut lines = 0usize;
        let mut buf = vec![0u8; 1 << 20];
        let mut f = std::fs::File::open(out.join("results.csv")).unwrap();
        loop {
            let k = std::io::Read::read(&mut f, &mut buf).unwrap();
            if k == 0 {
                break;
            }
            lines += buf[..k].iter().filter(|&&b| b == b'\n').count();
        }
        assert_eq!(lines, 2 * n + 1);
        if n == 1_000_000 {
            let report_peak = peak_rss_kib_of(&bin, &["report", out_arg]);
            eprintln!("report of {} rows: peak RSS {report_peak} KiB", 2 * n);
            assert!(report_peak < 200 * 1024, "{report_peak}");
            let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
            assert!(md.contains("1,000,000/1,000,000 solved"), "{md}");
            assert!(!md.contains("Partial run"));
            for e in std::fs::read_dir(out.join("plots")).unwrap() {
                let e = e.unwrap();
                let len = e.metadata().unwrap().len();
                assert!(len < 1_000_000, "{}: {len} bytes", e.path().display());
            }
            let effort = std::fs::read_to_string(out.join("plots/effort.svg")).unwrap();
            assert!(effort.contains("1,000,000 solves, density"));
        }
        std::fs::remove_file(&data).unwrap();
        std::fs::remove_dir_all(&out).unwrap();
    }
    eprintln!(
        "peak RSS: {} KiB at 100,000 puzzles, {} KiB at 1,000,000",
        peaks[0], peaks[1]
    );
    assert!(peaks[1] < peaks[0] + 24 * 1024, "{peaks:?}");
    assert!(peaks[1] < 200 * 1024, "{peaks:?}");
}

/// The columns that do not depend on timing.
fn untimed(dir: &Path) -> Vec<harness::record::Row> {
    harness::record::read_rows(dir)
        .unwrap()
        .into_iter()
        .map(|mut r| {
            r.micros = 0.0;
            r.cpu_micros = None;
            r.peak_rss_kib = None;
            r
        })
        .collect()
}

fn run_args<'a>(data: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "run",
        "--solver",
        "bitboard-bands,domain-reduction",
        "--dataset",
        data,
        "--no-report",
        "-q",
        "--out",
        out,
    ]
}

/// SIGKILL mid-run (rows written slowly), then `--resume`: the rows equal an uninterrupted run's
/// (timings aside), run.json says complete, the summary counts every puzzle; a cut last line is
/// not read as a row; resuming with other solvers is refused.
#[cfg(unix)]
#[test]
fn a_killed_run_resumes_to_the_rows_of_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("easy.txt");
    easy_puzzles(&data, 3000, 5);
    let data = data.to_str().unwrap();
    let whole = dir.path().join("whole");
    Command::new(harness_path())
        .args(run_args(data, whole.to_str().unwrap()))
        .assert()
        .success();
    let killed = dir.path().join("killed");
    let mut child = std::process::Command::new(harness_path())
        .args(run_args(data, killed.to_str().unwrap()))
        .env("HARNESS_TEST_SLOW_WRITE_MS", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    loop {
        let lines = std::fs::read_to_string(killed.join("results.csv"))
            .map(|t| t.matches('\n').count())
            .unwrap_or(0);
        if lines > 500 {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(120), "no rows written");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let saved = untimed(&killed);
    assert!(saved.len() >= 500 && saved.len() < 6000, "{}", saved.len());
    let all = untimed(&whole);
    assert_eq!(all.len(), 6000);
    assert_eq!(saved[..], all[..saved.len()]);
    // A cut last line (as a kill inside a write may leave) is not a row.
    {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(killed.join("results.csv"))
            .unwrap();
        f.write_all(b"easy.txt,77,bitboard-bands,sol").unwrap();
    }
    assert_eq!(untimed(&killed), saved);
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(killed.join("run.json")).unwrap()).unwrap();
    assert_eq!(info["complete"], serde_json::Value::Bool(false));
    // The report renders the saved rows and says the run is partial, with their count.
    Command::new(harness_path())
        .args(["report", killed.to_str().unwrap()])
        .assert()
        .success();
    let md = std::fs::read_to_string(killed.join("summary.md")).unwrap();
    let note = format!(
        "**Partial run (killed, or still running)**: the rows cover only the solves that \
         finished: results.csv holds {} rows of the 6,000 a complete run has; a cut last line \
         was skipped.",
        harness::plumbing::human::count(saved.len())
    );
    assert!(md.contains(&note), "{md}");
    let html = std::fs::read_to_string(killed.join("index.html")).unwrap();
    assert!(html.contains("<b>Partial run (killed, or still running)</b>"));
    std::fs::remove_dir_all(killed.join("plots")).unwrap();
    for f in ["summary.md", "index.html"] {
        std::fs::remove_file(killed.join(f)).unwrap();
    }

    // Other solvers: refused, nothing changed.
    let mut other = run_args(data, killed.to_str().unwrap());
    other[2] = "bitboard-bands";
    other.truncate(other.len() - 2);
    other.extend(["--resume", killed.to_str().unwrap()]);
    let refused = Command::new(harness_path()).args(&other).assert().failure();
    let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(err.contains("solvers"), "{err}");
    assert_eq!(untimed(&killed), saved);

    let mut resume = run_args(data, killed.to_str().unwrap());
    resume.truncate(resume.len() - 2);
    resume.extend(["--resume", killed.to_str().unwrap()]);
    Command::new(harness_path())
        .args(&resume)
        .assert()
        .success();
    assert_eq!(untimed(&killed), all);
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(killed.join("run.json")).unwrap()).unwrap();
    assert_eq!(info["complete"], serde_json::Value::Bool(true));
    assert_eq!(info["interrupted"], serde_json::Value::Bool(false));
    let summary = std::fs::read_to_string(killed.join("summary.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(summary.as_bytes());
    for s in rdr.deserialize::<harness::analysis::summary::SummaryRow>() {
        let s = s.unwrap();
        assert_eq!((s.puzzles, s.solved), (3000, 3000), "{s:?}");
    }
    // A complete run is not resumed.
    let again = Command::new(harness_path())
        .args(&resume)
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&again.get_output().stderr).into_owned();
    assert!(err.contains("complete"), "{err}");
}

/// Marks the run in `dir` unfinished, as a kill leaves its run.json.
fn mark_unfinished(dir: &Path) {
    let path = dir.join("run.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text
        .replace("\"complete\": true", "\"complete\": false")
        .replace("\"interrupted\": false", "\"interrupted\": true");
    std::fs::write(&path, text).unwrap();
}

/// A resumed run is the same run or is refused: a dataset with one puzzle replaced, or a `cmd:`
/// solver whose script was edited, makes `--resume` fail with the reason, results.csv untouched.
#[cfg(unix)]
#[test]
fn resume_refuses_a_changed_dataset_or_solver_script() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("easy.txt");
    easy_puzzles(&data, 40, 9);
    let script = dir.path().join("line_solver.py");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/line_solver.py"),
        &script,
    )
    .unwrap();
    let solver = format!("bitboard-bands,cmd:python3 {}", script.display());
    let out = dir.path().join("run");
    let args = |resume: bool| {
        let mut a: Vec<String> = ["run", "--solver", &solver, "--dataset"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.push(data.display().to_string());
        a.extend(["--no-report", "-q"].map(String::from));
        a.push(if resume { "--resume" } else { "--out" }.into());
        a.push(out.display().to_string());
        a
    };
    Command::new(harness_path())
        .args(args(false))
        .assert()
        .success();
    let rows = std::fs::read(out.join("results.csv")).unwrap();
    mark_unfinished(&out);
    let refused = |what: &str| {
        let a = Command::new(harness_path())
            .args(args(true))
            .assert()
            .failure();
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(err.contains("cannot resume") && err.contains(what), "{err}");
        assert_eq!(std::fs::read(out.join("results.csv")).unwrap(), rows);
    };
    // One puzzle replaced by another (same count, same format).
    let original = std::fs::read_to_string(&data).unwrap();
    let mut lines: Vec<&str> = original.lines().collect();
    let replaced = lines[1].to_string();
    lines[3] = &replaced;
    std::fs::write(&data, lines.join("\n") + "\n").unwrap();
    refused("dataset files");
    std::fs::write(&data, &original).unwrap();
    // The solver's script edited.
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str("\n# edited\n");
    std::fs::write(&script, text).unwrap();
    refused("solvers' specs and files");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/line_solver.py"),
        &script,
    )
    .unwrap();
    // Another budget: refused in the user's words (no `Some(1000)`).
    let a = Command::new(harness_path())
        .args(args(true))
        .args(["--timeout-ms", "5"])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("timeout_ms 1000, these arguments give 5"),
        "{err}"
    );
    assert!(!err.contains("Some("), "{err}");
    // Unchanged: resumed (nothing left to run).
    Command::new(harness_path())
        .args(args(true))
        .assert()
        .success();
}

/// Runs `n` easy puzzles x 2 fast solvers whole and as 4 shards, merges the shards; returns the
/// peak RSS (KiB) of the whole run and of the merge, having checked the merged rows are the
/// whole run's (timings aside).
#[cfg(target_os = "linux")]
fn run_and_merge_peaks(bin: &Path, dir: &Path, n: usize) -> (i64, i64) {
    let data = dir.join(format!("easy-{n}.txt"));
    easy_puzzles(&data, n, 41);
    let data_arg = data.to_str().unwrap();
    let whole = dir.join(format!("whole-{n}"));
    let run_peak = peak_rss_kib_of(bin, &run_args(data_arg, whole.to_str().unwrap()));
    let mut merge: Vec<String> = vec!["merge".into()];
    for k in 1..=4 {
        let out = dir.join(format!("shard-{n}-{k}"));
        let spec = format!("{k}/4");
        let mut a = run_args(data_arg, out.to_str().unwrap());
        a.extend(["--shard", &spec]);
        peak_rss_kib_of(bin, &a);
        merge.push(out.display().to_string());
    }
    let merged = dir.join(format!("merged-{n}"));
    merge.extend([
        "--no-report".into(),
        "--out".into(),
        merged.display().to_string(),
    ]);
    let merge: Vec<&str> = merge.iter().map(String::as_str).collect();
    let merge_peak = peak_rss_kib_of(bin, &merge);
    if n <= 100_000 {
        assert_eq!(untimed(&merged), untimed(&whole));
    }
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(merged.join("run.json")).unwrap()).unwrap();
    assert_eq!(info["complete"], serde_json::Value::Bool(true));
    assert_eq!(info["datasets"][0]["puzzles"], n);
    eprintln!(
        "{n} puzzles x 2 solvers: run peak RSS {run_peak} KiB, merge of 4 shards {merge_peak} KiB"
    );
    (run_peak, merge_peak)
}

/// `merge` streams: merging 4 shards of 50,000 puzzles x 2 solvers (100,000 rows, about 100 MB
/// if held) peaks within 2x of the whole run's memory, and the merged rows are the whole run's.
#[cfg(target_os = "linux")]
#[test]
fn merge_memory_stays_within_twice_the_runs() {
    let dir = tempfile::tempdir().unwrap();
    let (run, merge) = run_and_merge_peaks(&harness_path(), dir.path(), FLAT_N);
    assert!(merge < 2 * run, "merge {merge} KiB, run {run} KiB");
}

/// The same at 1,000,000 puzzles x 2 solvers, with the release binary (`HARNESS_SCALE_BIN`;
/// ignored by the plain test run).
#[cfg(target_os = "linux")]
#[test]
#[ignore = "a million puzzles: HARNESS_SCALE_BIN=target/release/harness cargo test --test integration scale::merge_of_a_million -- --ignored"]
fn merge_of_a_million_puzzles_stays_within_twice_the_runs_memory() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (run, merge) = run_and_merge_peaks(&scale_bin(), dir.path(), 1_000_000);
    assert!(merge < 2 * run, "merge {merge} KiB, run {run} KiB");
}
