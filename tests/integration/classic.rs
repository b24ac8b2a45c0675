//! The classic mode, `harness -c N` and `harness -s PATH`, each run in a fresh folder as cwd.

use super::common::harness;
use harness::input::format::{Format, PuzzleReader};
use harness::verify;
use predicates::prelude::*;
use std::collections::HashSet;
use std::path::Path;

fn read_blocks(path: &Path) -> Vec<harness::input::format::Entry> {
    let r = PuzzleReader::with_format(std::fs::File::open(path).unwrap(), "x", Some(Format::Block))
        .unwrap();
    r.collect()
}

#[test]
fn c_writes_distinct_grids_and_s_solves_them_back() {
    let dir = tempfile::tempdir().unwrap();
    harness()
        .current_dir(dir.path())
        .args(["-c", "20"])
        .assert()
        .success();
    let file = dir.path().join("sudoku.txt");
    let grids: Vec<[u8; 81]> = read_blocks(&file)
        .into_iter()
        .map(|e| *e.puzzle.unwrap().grid().unwrap().cells())
        .collect();
    assert_eq!(grids.len(), 20);
    assert_eq!(grids.iter().collect::<HashSet<_>>().len(), 20, "distinct");
    for g in &grids {
        assert_eq!(verify::check(&[0; 81], g, None), Ok(()));
        assert_eq!(g[0], grids[0][0], "first digit fixed");
    }
    // Overwrites: -c 3 leaves 3 grids.
    harness()
        .current_dir(dir.path())
        .args(["-c", "3"])
        .assert()
        .success();
    assert_eq!(read_blocks(&file).len(), 3);

    // Remove digits (every cell whose index is a multiple of 2 or 3), break the second puzzle's
    // fifth row, and solve.
    let text = std::fs::read_to_string(&file).unwrap();
    let mut out = String::new();
    let mut puzzles = Vec::new();
    for (k, block) in text
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .enumerate()
    {
        let mut p = [0u8; 81];
        for (r, row) in block.lines().enumerate() {
            let mut cells: Vec<String> = row.split(' ').map(String::from).collect();
            for (c, cell) in cells.iter_mut().enumerate() {
                let i = r * 9 + c;
                if i % 2 == 0 || i % 3 == 0 {
                    *cell = "0".into();
                }
                p[i] = cell.parse().unwrap();
            }
            if k == 1 && r == 4 {
                cells.truncate(7);
            }
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out.push('\n');
        puzzles.push(p);
    }
    std::fs::write(&file, out).unwrap();
    harness()
        .current_dir(dir.path())
        .args(["-s", "sudoku.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "sudoku.txt:15: block row 5: 7 cells, expected 9",
        ))
        .stderr(predicate::str::contains(
            "read 3, solved 2, unsolvable 0, invalid 1",
        ));
    let solved = read_blocks(&file);
    assert_eq!(solved.len(), 3);
    for k in [0, 2] {
        let s = solved[k].puzzle.as_ref().unwrap().grid().unwrap();
        assert_eq!(
            verify::check(&puzzles[k], s.cells(), None),
            Ok(()),
            "puzzle {k}"
        );
    }
    assert!(
        solved[1].puzzle.is_err(),
        "the malformed one is a marked entry"
    );
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("# ERROR sudoku.txt:15: block row 5:"));
}

#[test]
fn bad_counts_get_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    for bad in [
        &["-c", "0"][..],
        &["-c", "-3"],
        &["-c", "1e6"],
        &["-c", "1000001"],
        &["-c", "abc"],
        &["-c"],
    ] {
        let out = harness()
            .current_dir(dir.path())
            .args(bad)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
        assert!(
            err.contains("whole number from 1 to 1000000"),
            "{bad:?}: {err}"
        );
        assert!(
            !dir.path().join("sudoku.txt").exists(),
            "{bad:?} wrote a file"
        );
    }
}

#[test]
fn s_with_a_missing_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    harness()
        .current_dir(dir.path())
        .args(["-s", "nope.txt"])
        .assert()
        .code(2)
        .stderr("error: -s nope.txt: no such file\n");
    harness()
        .current_dir(dir.path())
        .arg("-s")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("-s needs the path"));
    // A folder given where the file of puzzles belongs is called a folder, not missing.
    harness()
        .current_dir(dir.path())
        .args(["-s", "."])
        .assert()
        .code(2)
        .stderr("error: -s .: is a folder; give a file of block-form puzzles\n");
    // The subcommands still work beside the classic flags.
    harness()
        .current_dir(dir.path())
        .arg("list")
        .assert()
        .success();
}

/// `-c` prints its seed, and `--seed` makes the same file again; a bad seed, or a seed without
/// `-c`, is a one-line error.
#[test]
fn c_prints_its_seed_and_accepts_one() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = harness()
            .current_dir(dir.path())
            .args(args)
            .assert()
            .success();
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        let text = std::fs::read_to_string(dir.path().join("sudoku.txt")).unwrap();
        (err, text)
    };
    let (err, first) = run(&["-c", "4"]);
    // "wrote 4 distinct solved grids to sudoku.txt (seed S: `harness -c 4 --seed S` ...)"
    let seed = err
        .split("(seed ")
        .nth(1)
        .and_then(|t| t.split(':').next())
        .unwrap_or_else(|| panic!("no seed in {err:?}"))
        .to_string();
    assert!(
        err.contains(&format!("`harness -c 4 --seed {seed}`")),
        "{err}"
    );
    let (_, again) = run(&["-c", "4", "--seed", &seed]);
    assert_eq!(again, first, "the printed seed makes the same file");
    let (_, a) = run(&["-c", "4", "--seed", "7"]);
    let (_, b) = run(&["-c", "4", "--seed", "7"]);
    assert_eq!(a, b);
    assert_ne!(a, first, "another seed, other grids");
    for (args, msg) in [
        (
            &["-c", "4", "--seed", "x"][..],
            "--seed \"x\": the seed must be a whole number",
        ),
        (
            &["-c", "4", "--seed", "-1"][..],
            "--seed \"-1\": the seed must be a whole number",
        ),
        (&["--seed", "7"][..], "--seed goes with -c N"),
        (
            &["-s", "sudoku.txt", "--seed", "7"][..],
            "--seed goes with -c N",
        ),
    ] {
        let out = harness()
            .current_dir(dir.path())
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(msg));
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}
