//! What `-o PATH` may be, on the real binary: a symbolic link is followed (its target written
//! atomically, the link kept), a FIFO or a character device is written in place (never replaced
//! by a regular file), `-`, `/dev/stdout` and `/dev/fd/1` are stdout. Every path is one the test
//! makes, except `/dev/null` and `/dev/stdout` themselves.
#![cfg(unix)]

use super::common::{cells, harness};
use harness::plumbing::output::{resolve, Sink};
use harness::verify;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// An easy puzzle (datasets/seed.csv) and its verified solution.
const SEED: &str =
    "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
const SEED_SOLUTION: &str =
    "729364158341825967865971423536192874918547632274683519652438791493716285187259346";

/// `harness generate grids --count N --seed S -q` with `extra` arguments, in `dir`; its stdout.
fn grids(dir: &Path, count: u32, extra: &[&str]) -> String {
    let out = harness()
        .current_dir(dir)
        .args(["generate", "grids", "--seed", "7", "-q", "--count"])
        .arg(count.to_string())
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Checks `text` holds `n` lines, each a valid solved grid.
fn check_grids(text: &str, n: usize) {
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), n, "{text}");
    for l in lines {
        assert_eq!(verify::check(&[0; 81], &cells(l), None), Ok(()), "{l}");
    }
}

/// Every entry of `dir` whose name starts with `.` (write_atomic's temporary files).
fn hidden(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect()
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) on a NUL-terminated path in the test's own folder.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

#[test]
fn o_through_a_symlink_writes_the_target_in_its_folder_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("data")).unwrap();
    // A link to a file that does not exist yet, then to one that does.
    std::os::unix::fs::symlink("data/target.txt", d.join("out.txt")).unwrap();
    for count in [3, 2] {
        assert_eq!(grids(d, count, &["-o", "out.txt"]), "");
        let link = std::fs::symlink_metadata(d.join("out.txt")).unwrap();
        assert!(link.file_type().is_symlink(), "the link was replaced");
        assert_eq!(
            std::fs::read_link(d.join("out.txt")).unwrap(),
            Path::new("data/target.txt")
        );
        check_grids(
            &std::fs::read_to_string(d.join("data/target.txt")).unwrap(),
            count as usize,
        );
        assert_eq!(hidden(d), Vec::<PathBuf>::new());
        assert_eq!(hidden(&d.join("data")), Vec::<PathBuf>::new());
    }
    // The same for `solve -o` through a link to a link in another folder.
    std::fs::write(d.join("in.txt"), format!("{SEED}\n")).unwrap();
    std::os::unix::fs::symlink(d.join("data/sol.txt"), d.join("data/abs")).unwrap();
    std::os::unix::fs::symlink("data/abs", d.join("sol")).unwrap();
    harness()
        .current_dir(d)
        .args(["solve", "in.txt", "-o", "sol"])
        .assert()
        .success();
    assert!(std::fs::symlink_metadata(d.join("sol"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(d.join("data/sol.txt")).unwrap(),
        format!("{SEED_SOLUTION}\n")
    );
}

#[test]
fn o_into_a_fifo_streams_and_the_fifo_stays_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    let (tx, rx) = std::sync::mpsc::channel();
    let reading = fifo.clone();
    // Opening a FIFO for reading waits for a writer: the binary, opening the FIFO itself.
    std::thread::spawn(move || tx.send(std::fs::read_to_string(reading)));
    assert_eq!(grids(dir.path(), 5, &["-o", "pipe"]), "");
    let got = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("nothing was written into the FIFO")
        .unwrap();
    assert_eq!(
        got,
        grids(dir.path(), 5, &[]),
        "the FIFO got another output"
    );
    check_grids(&got, 5);
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(meta.file_type().is_fifo(), "the FIFO was replaced");
    assert_eq!(hidden(dir.path()), Vec::<PathBuf>::new());
}

#[test]
fn o_dev_null_stays_a_character_device() {
    let null = Path::new("/dev/null");
    let before = std::fs::metadata(null).unwrap();
    assert!(before.file_type().is_char_device());
    // Run as root, a binary that renamed over its output would replace the system's /dev/null:
    // make sure the library streams into it before letting the binary try.
    assert_eq!(
        resolve(null).unwrap(),
        Sink::Stream(null.to_path_buf()),
        "not running the binary on /dev/null: it would be renamed over"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.txt"), format!("{SEED}\n")).unwrap();
    // And through a link of the test's own.
    std::os::unix::fs::symlink(null, dir.path().join("null-link")).unwrap();
    for out in ["/dev/null", "null-link"] {
        assert_eq!(grids(dir.path(), 3, &["-o", out]), "");
        harness()
            .current_dir(dir.path())
            .args(["solve", "in.txt", "-o", out])
            .assert()
            .success();
        harness()
            .current_dir(dir.path())
            .args(["cnf", SEED, "-o", out])
            .assert()
            .success();
    }
    let after = std::fs::metadata(null).unwrap();
    assert!(after.file_type().is_char_device(), "/dev/null was replaced");
    use std::os::unix::fs::MetadataExt;
    assert_eq!(after.rdev(), before.rdev());
    assert!(std::fs::symlink_metadata(dir.path().join("null-link"))
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn o_dash_and_dev_stdout_write_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let expected = grids(d, 4, &[]);
    check_grids(&expected, 4);
    for out in ["-", "/dev/stdout", "/dev/fd/1"] {
        assert_eq!(grids(d, 4, &["-o", out]), expected, "-o {out}");
    }
    assert!(!d.join("-").exists(), "-o - made a file named -");
    // stdout a regular file opened for appending (`>> log`): written through the descriptor,
    // after what the file held, not renamed over it.
    let log = d.join("log.txt");
    std::fs::write(&log, "before\n").unwrap();
    let file = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let st = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .args(["generate", "grids", "--seed", "7", "-q", "--count", "4"])
        .args(["-o", "/dev/stdout"])
        .stdout(file)
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!("before\n{expected}")
    );
    // solve and cnf alike.
    std::fs::write(d.join("in.txt"), format!("{SEED}\n")).unwrap();
    for out in ["-", "/dev/stdout"] {
        harness()
            .current_dir(d)
            .args(["solve", "in.txt", "-o", out])
            .assert()
            .success()
            .stdout(format!("{SEED_SOLUTION}\n"));
    }
    let plain = harness()
        .current_dir(d)
        .args(["cnf", SEED])
        .output()
        .unwrap()
        .stdout;
    assert!(String::from_utf8_lossy(&plain).starts_with("c "), "DIMACS");
    for out in ["-", "/dev/stdout"] {
        let got = harness()
            .current_dir(d)
            .args(["cnf", SEED, "-o", out])
            .output()
            .unwrap();
        assert!(got.status.success());
        assert_eq!(got.stdout, plain, "cnf -o {out}");
    }
    assert_eq!(hidden(d), Vec::<PathBuf>::new());
}

/// Stdout on a full disk (`/dev/full`): no command panics (exit 101). `run` keeps its files and
/// its report and exits with its own status, saying on stderr that stdout failed; the other
/// commands stop with exit 2 and one line naming stdout.
#[test]
fn a_full_stdout_is_an_error_never_a_panic() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let puzzle = d.join("p.txt");
    std::fs::write(&puzzle, format!("{SEED}\n")).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_harness"))
            .current_dir(d)
            .args(args)
            .stdout(full())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, err) = run(&["run", "-s", "dlx,hybrid", "-d", "p.txt", "-o", "r"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("cannot write to stdout"), "{err}");
    assert!(d.join("r/index.html").is_file() && d.join("r/summary.md").is_file());
    let (code, err) = run(&["run", "-q", "-s", "dlx", "-d", "p.txt", "-o", "r2"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(d.join("r2/index.html").is_file(), "{err}");
    let hint_board = SEED_SOLUTION.replacen('7', ".", 1);
    for args in [
        &["list"][..],
        &["count", SEED],
        &["inspect", "p.txt"],
        &["hint", &hint_board],
        &["candidates", SEED],
        &["compare", "r", "r2"],
        &["report", "r"],
        &["solve", "p.txt"],
        &["generate", "grids", "--count", "3", "-q", "--seed", "1"],
    ] {
        let (code, err) = run(args);
        assert_ne!(code, Some(101), "{args:?} panicked: {err}");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to stdout") || err.contains("writing stdout"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
