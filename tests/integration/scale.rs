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

/// Runs `harness run` with `args` to the end; returns its peak resident memory, KiB (wait4's
/// `ru_maxrss` of that child alone).
#[cfg(target_os = "linux")]
// The child is reaped by wait4 below, which std's `Child` does not see.
#[allow(clippy::zombie_processes)]
fn peak_rss_kib(args: &[&str]) -> i64 {
    let child = std::process::Command::new(harness_path())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: waits for our own child, writing through valid pointers.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    usage.ru_maxrss
}

/// Puzzles of the smaller run of the flat-memory test; the larger has four times as many (the
/// two take about 20 s in the test profile, the harness unoptimized).
const FLAT_N: usize = 50_000;

/// N and 4N easy puzzles x 2 fast solvers: the larger run's peak memory is within 24 MiB of the
/// smaller's (its rows alone would need over 300 MB if held), and every row is there and checked.
#[cfg(target_os = "linux")]
#[test]
fn memory_does_not_grow_with_the_puzzle_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut peaks = Vec::new();
    for n in [FLAT_N, 4 * FLAT_N] {
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
        let rows: Vec<harness::summary::SummaryRow> = rdr
            .deserialize()
            .map(|r| r.unwrap())
            .filter(|r: &harness::summary::SummaryRow| r.solver != "virtual-best")
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
        "peak RSS: {} KiB at {FLAT_N} puzzles, {} KiB at {}",
        peaks[0],
        peaks[1],
        4 * FLAT_N
    );
    assert!(peaks[1] < peaks[0] + 24 * 1024, "{peaks:?}");
    assert!(peaks[1] < 200 * 1024, "{peaks:?}");
}

/// The columns that do not depend on timing.
fn untimed(dir: &Path) -> Vec<harness::record::Row> {
    harness::report::load::read_rows(dir)
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
    for s in rdr.deserialize::<harness::summary::SummaryRow>() {
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
