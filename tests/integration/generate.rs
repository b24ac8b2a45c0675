//! `harness generate grids` and `harness generate puzzles`, run as a user would.

use super::common::{cells, count_solutions, harness};
use crate::common::OnGrid;
use harness::verify;
use predicates::prelude::*;
use solvers::{Budget, Grid, SolverKind};
use std::collections::HashSet;

fn run_to_file(args: &[&str], file: &std::path::Path) {
    harness()
        .args(args)
        .arg("-q")
        .arg("-o")
        .arg(file)
        .assert()
        .success();
}

/// `generate grids` and `generate qwh` take `-j` as `generate puzzles` does, and the file is
/// the same byte for byte for any thread count (each grid from its own stream; 9x9 repeats
/// redrawn in file order, over more than one parallel chunk of 16,384).
#[test]
fn grids_and_qwh_are_the_same_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 4] = [
        &["grids", "-n", "20000", "--method", "random", "--seed", "5"],
        &["grids", "-n", "20000", "--seed", "5"],
        &["grids", "-n", "150", "--order", "16", "--seed", "5"],
        &[
            "qwh", "--order", "12", "--holes", "0.4", "-n", "150", "--seed", "5",
        ],
    ];
    for (k, args) in cases.into_iter().enumerate() {
        let files: Vec<Vec<u8>> = ["1", "2"]
            .iter()
            .map(|j| {
                let file = dir.path().join(format!("{k}-{j}.txt"));
                let mut all = vec!["generate"];
                all.extend_from_slice(args);
                all.extend(["-j", j]);
                run_to_file(&all, &file);
                std::fs::read(&file).unwrap()
            })
            .collect();
        assert!(!files[0].is_empty(), "{args:?}");
        assert!(files[0] == files[1], "{args:?}: -j 1 and -j 2 differ");
        if k < 2 {
            // Every 9x9 grid is a solved grid, and they are all distinct.
            let text = String::from_utf8(files[0].clone()).unwrap();
            let grids: Vec<&str> = text.lines().collect();
            assert_eq!(grids.len(), 20000);
            let empty = [0u8; 81];
            for g in &grids {
                assert_eq!(verify::check(&empty, &cells(g), None), Ok(()), "{g}");
            }
            assert_eq!(grids.iter().collect::<HashSet<_>>().len(), 20000);
        }
    }
}

#[test]
fn transform_grids_are_valid_distinct_and_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    let args = ["generate", "grids", "--count", "20000", "--seed", "3"];
    run_to_file(&args, &a);
    run_to_file(&args, &b);
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(
        text,
        std::fs::read_to_string(&b).unwrap(),
        "same seed, same bytes"
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20000);
    let distinct: HashSet<&str> = lines.iter().copied().collect();
    assert_eq!(distinct.len(), 20000);
    for l in &lines {
        assert_eq!(verify::check(&[0; 81], &cells(l), None), Ok(()), "{l}");
    }
    let c = dir.path().join("c.txt");
    run_to_file(&["generate", "grids", "--count", "50", "--seed", "4"], &c);
    assert_ne!(
        text.lines().next(),
        std::fs::read_to_string(&c).unwrap().lines().next()
    );
}

#[test]
fn first_digit_block_format_and_random_method() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("g.txt");
    for method in ["transform", "random"] {
        run_to_file(
            &[
                "generate",
                "grids",
                "--count",
                "300",
                "--seed",
                "9",
                "--method",
                method,
                "--first-digit",
                "5",
                "--format",
                "block",
            ],
            &f,
        );
        let entries: Vec<_> =
            harness::input::format::PuzzleReader::new(std::fs::File::open(&f).unwrap(), "g.txt")
                .unwrap()
                .collect();
        assert_eq!(entries.len(), 300, "{method}");
        let mut seen = HashSet::new();
        for e in entries {
            let g = e.puzzle.unwrap().grid().unwrap();
            assert_eq!(g.get(0), 5);
            assert_eq!(verify::check(&[0; 81], g.cells(), None), Ok(()));
            assert!(seen.insert(g), "{method}: a repeated grid");
        }
    }
}

#[test]
fn more_grids_than_the_method_can_make_is_a_clear_error() {
    harness()
        .args([
            "generate",
            "grids",
            "--count",
            "5806081",
            "--first-digit",
            "1",
            "-q",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "5806080 distinct grids with the first digit fixed",
        ));
    harness()
        .args(["generate", "grids", "--count", "52254721", "-q"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("only 52254720 distinct grids"));
}

/// Reads a `name,puzzle,solution` file into (puzzle, solution) pairs.
fn read_pairs(path: &std::path::Path) -> Vec<([u8; 81], [u8; 81])> {
    let mut rdr = csv::Reader::from_path(path).unwrap();
    assert_eq!(rdr.headers().unwrap(), vec!["name", "puzzle", "solution"]);
    rdr.records()
        .map(|r| {
            let r = r.unwrap();
            (cells(&r[1]), cells(&r[2]))
        })
        .collect()
}

#[test]
fn minimal_puzzles_are_reproducible_unique_and_minimal() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    let args = [
        "generate",
        "puzzles",
        "--count",
        "200",
        "--minimal",
        "--seed",
        "1",
    ];
    run_to_file(&args, &a);
    // A different thread count must not change the file.
    let mut one_thread = args.to_vec();
    one_thread.extend(["--threads", "1"]);
    run_to_file(&one_thread, &b);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let pairs = read_pairs(&a);
    assert_eq!(pairs.len(), 200);
    let mut counter = SolverKind::BitmaskSingles.session();
    let mut count = |p: &[u8; 81]| {
        let c = counter
            .count_grid(&Grid::from_cells(*p).unwrap(), 2, &Budget::unlimited())
            .unwrap();
        assert!(c.complete);
        c.solutions
    };
    // The full 200 are checked by the release-mode script in the report; here the first 12,
    // by two independent counters, with every single given removed.
    for (k, (puzzle, solution)) in pairs.iter().enumerate().take(12) {
        assert_eq!(verify::check(puzzle, solution, None), Ok(()), "puzzle {k}");
        assert_eq!(count(puzzle), 1, "puzzle {k}");
        assert_eq!(count_solutions(puzzle, 2), 1, "puzzle {k}");
        for i in (0..81).filter(|&i| puzzle[i] != 0) {
            let mut less = *puzzle;
            less[i] = 0;
            assert_eq!(
                count(&less),
                2,
                "puzzle {k} without r{}c{}",
                i / 9 + 1,
                i % 9 + 1
            );
            assert_eq!(count_solutions(&less, 2), 2, "puzzle {k}");
        }
    }
}

#[test]
fn clue_targets_symmetry_and_line_format() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.txt");
    run_to_file(
        &[
            "generate",
            "puzzles",
            "--count",
            "20",
            "--clues",
            "30",
            "--seed",
            "2",
            "--symmetry",
            "rotational",
            "--format",
            "line",
        ],
        &f,
    );
    let text = std::fs::read_to_string(&f).unwrap();
    assert_eq!(text.lines().count(), 20);
    for l in text.lines() {
        let (p, s) = l.split_once(' ').unwrap();
        let (p, s) = (cells(p), cells(s));
        assert_eq!(p.iter().filter(|&&v| v != 0).count(), 30);
        assert!(
            (0..81).all(|i| (p[i] == 0) == (p[80 - i] == 0)),
            "rotational"
        );
        assert_eq!(verify::check(&p, &s, None), Ok(()));
        assert_eq!(count_solutions(&p, 2), 1);
    }
    // A target too low for the grids tried: reported per puzzle, exit status 1.
    harness()
        .args([
            "generate", "puzzles", "--count", "2", "--clues", "19", "--seed", "2",
        ])
        .args(["--attempts", "1", "-q"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "puzzle 1: could not get down to 19 givens",
        ))
        .stdout("name,puzzle,solution\n");
    // A target out of range names the range of the grid's shape, and why.
    let refused = [
        (
            &["--clues", "12"][..],
            "--clues 12: must be in 17..=81 for 9x9 puzzles (no 9x9 puzzle with fewer than 17 \
             givens has a unique solution)",
        ),
        (
            &["--clues", "82"],
            "--clues 82: must be in 17..=81 for 9x9 puzzles (a 9x9 grid has 81 cells)",
        ),
        (
            &["--clues", "257", "--order", "16"],
            "--clues 257: must be in 15..=256 for 16x16 puzzles (a 16x16 grid has 256 cells)",
        ),
        (
            &["--clues", "14", "--order", "16"],
            "--clues 14: must be in 15..=256 for 16x16 puzzles (with fewer than 15 givens two \
             symbols never appear, and swapping them gives a second solution)",
        ),
        (
            &["--clues", "37", "--box", "2x3"],
            "--clues 37: must be in 5..=36 for 6x6/2x3 puzzles (a 6x6/2x3 grid has 36 cells)",
        ),
    ];
    for (args, says) in refused {
        harness()
            .args(["generate", "puzzles", "--count", "2", "-q"])
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!("error: {says}\n"));
    }
    harness()
        .args([
            "generate",
            "puzzles",
            "--count",
            "2",
            "--solver",
            "backtracking",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does not count solutions"));
}

/// The shipped minimal sets really are minimal (uniqueness itself is checked for every shipped
/// set by `conformance::shipped_puzzles_are_unique`).
#[test]
fn shipped_minimal_sets_are_minimal() {
    let mut counter = SolverKind::BitmaskSingles.session();
    for name in ["minimal-200", "minimal-1000"] {
        let s = harness::input::dataset::SHIPPED
            .iter()
            .find(|s| s.name == name)
            .unwrap();
        let entries = harness::input::dataset::shipped(s).entries;
        assert!(entries.len() >= 200);
        for e in entries {
            let p = *e.puzzle.as_ref().unwrap().grid().unwrap().cells();
            for i in (0..81).filter(|&i| p[i] != 0) {
                let mut less = p;
                less[i] = 0;
                let c = counter
                    .count_grid(&Grid::from_cells(less).unwrap(), 2, &Budget::unlimited())
                    .unwrap();
                assert_eq!(
                    c.solutions,
                    2,
                    "{name} {}: r{}c{}",
                    e.label(),
                    i / 9 + 1,
                    i % 9 + 1
                );
            }
        }
    }
}

#[test]
fn a_count_of_zero_is_a_usage_error() {
    for what in ["grids", "puzzles"] {
        harness()
            .args(["generate", what, "--count", "0", "--seed", "1", "-q"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "error: --count 0: nothing to generate; give the number of {what} wanted (1 or more)\n"
            ));
    }
}

// ---- Grids, puzzles and quasigroups with holes of every shape ----

/// The symbol of a one-character cell: `.` 0, `1`-`9`, `A` = 10 ... `Z` = 35.
fn symbol(b: u8) -> u16 {
    match b {
        b'1'..=b'9' => u16::from(b - b'0'),
        b'A'..=b'Z' => u16::from(b - b'A' + 10),
        _ => 0,
    }
}

/// Runs `harness ARGS -q` and returns its stdout.
fn stdout_of(args: &[&str]) -> String {
    let out = harness().args(args).arg("-q").output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The shape of a `# shape ...` header (9x9 without one) and the grids of a one-character (a
/// grid a line, the first field) or integer (blocks of N rows) file.
fn read_shaped(text: &str) -> (solvers::Shape, Vec<Vec<u16>>) {
    let shape = match text.lines().next().unwrap().strip_prefix("# shape ") {
        Some(s) => s.parse().unwrap(),
        None => solvers::Shape::CLASSIC,
    };
    let n = shape.side();
    let body: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let grids = if body
        .first()
        .is_some_and(|l| l.contains(' ') && l.split(' ').count() == n)
    {
        body.chunks(n)
            .map(|rows| {
                rows.iter()
                    .flat_map(|r| r.split_whitespace().map(|v| v.parse::<u16>().unwrap()))
                    .collect()
            })
            .collect()
    } else {
        body.iter()
            .map(|l| {
                let first = l.split([' ', ',']).find(|f| f.len() == n * n).unwrap();
                first.bytes().map(symbol).collect()
            })
            .collect()
    };
    (shape, grids)
}

#[test]
fn grids_of_every_shape_are_valid_and_reproducible() {
    let shapes: &[(&[&str], &str, usize)] = &[
        (&["--side", "4"], "4x4", 5),
        (&["--side", "9", "--format", "ints"], "9x9", 3),
        (&["--order", "16"], "16x16", 3),
        (&["--order", "25"], "25x25", 2),
        (&["--order", "36"], "36x36", 2),
        (&["--order", "49"], "49x49", 1),
        (&["--order", "64"], "64x64", 1),
        (&["--order", "81"], "81x81", 1),
        (&["--order", "100"], "100x100", 1),
        (&["--box", "2x3"], "6x6/2x3", 5),
        (&["--box", "3x4"], "12x12/3x4", 3),
        (&["--latin", "--order", "5"], "5x5/latin", 5),
        (&["--latin", "--side", "10"], "10x10/latin", 3),
        (&["--side", "16", "--format", "ints"], "16x16", 2),
    ];
    for &(shape_args, name, count) in shapes {
        let count = count.to_string();
        let run = |seed: &str| {
            let mut args = vec!["generate", "grids", "--count", &count, "--seed", seed];
            args.extend_from_slice(shape_args);
            stdout_of(&args)
        };
        let text = run("5");
        assert_eq!(text, run("5"), "{name}: same seed, same bytes");
        assert_ne!(text, run("6"), "{name}: another seed, another file");
        let (shape, grids) = read_shaped(&text);
        assert_eq!(shape.to_string(), name);
        assert_eq!(grids.len().to_string(), count, "{name}");
        let n = shape.side();
        for g in &grids {
            assert_eq!(
                verify::check_shaped(n, shape.boxes(), &vec![0; n * n], g, None),
                Ok(()),
                "{name}"
            );
        }
    }
}

#[test]
fn the_9x9_grids_are_unchanged_by_the_shape_options() {
    let plain = stdout_of(&["generate", "grids", "-n", "5", "--seed", "9"]);
    let order3 = stdout_of(&["generate", "grids", "-n", "5", "--seed", "9", "--side", "9"]);
    assert_eq!(plain, order3);
    assert!(!plain.starts_with('#'));
}

#[test]
fn pls_and_shape_errors() {
    let text = stdout_of(&[
        "generate", "grids", "-n", "2", "--seed", "1", "--latin", "--order", "4", "--format", "pls",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[0], "order 4");
    assert_eq!(lines[5], "order 4");
    for row in lines[1..5].iter().chain(&lines[6..10]) {
        let mut v: Vec<u16> = row.split(' ').map(|x| x.parse().unwrap()).collect();
        v.sort_unstable();
        assert_eq!(v, [0, 1, 2, 3], "{row}");
    }
    for (args, says) in [
        (&["--side", "12"][..], "not a square"),
        (&["--latin"][..], "needs its side"),
        (
            &["--order", "36", "--format", "line"][..],
            "one character a cell",
        ),
        (&["--box", "3x4", "--order", "9"][..], "not side 9"),
        (&["--order", "12"][..], "side 12 is not a square"),
        (
            &["--order", "16", "--side", "9"][..],
            "both give the side N",
        ),
        (
            &["--order", "16", "--first-digit", "2"][..],
            "9x9 grids only",
        ),
    ] {
        harness()
            .args(["generate", "grids", "-n", "1", "-q"])
            .args(args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(says));
    }
}

/// Two independent counting solvers of `shape` when there are two: `dlx` (exact cover) and
/// `bitmask-singles` (DFS with singles), else `sat`; fewer when fewer take the shape.
fn counters_for(shape: solvers::Shape) -> Vec<SolverKind> {
    [SolverKind::Dlx, SolverKind::BitmaskSingles, SolverKind::Sat]
        .into_iter()
        .filter(|k| k.caps().counts && k.caps().shapes.takes(shape))
        .take(2)
        .collect()
}

/// Counts `puzzle`'s solutions to 2 with `kind`.
fn count_board(kind: SolverKind, puzzle: &solvers::Board) -> u64 {
    let c = kind
        .session()
        .count(puzzle, 2, &Budget::unlimited())
        .unwrap();
    assert!(c.complete);
    c.solutions
}

/// Needs a counting solver that takes every shape: `dlx` and `sat` (branch `exact`), the DFS
/// family (branch `dfs`). Without one, the command must say so.
#[test]
fn puzzles_of_every_shape_are_unique_minimal_and_agree_between_counters() {
    for (shape_args, minimal_check) in [
        (&["--side", "4"][..], true),
        (&["--box", "2x3"][..], true),
        (&["--box", "3x4"][..], false),
        (&["--latin", "--order", "5"][..], true),
    ] {
        let mut args = vec!["generate", "puzzles", "-n", "4", "--seed", "8"];
        args.extend_from_slice(shape_args);
        let shape = {
            let text = stdout_of(
                &["generate", "grids", "-n", "1", "--seed", "1"]
                    .iter()
                    .copied()
                    .chain(shape_args.iter().copied())
                    .collect::<Vec<_>>(),
            );
            read_shaped(&text).0
        };
        let counters = counters_for(shape);
        if counters.is_empty() {
            harness()
                .args(&args)
                .arg("-q")
                .assert()
                .failure()
                .stderr(predicate::str::contains("no built-in solver counts"));
            continue;
        }
        let text = stdout_of(&args);
        assert_eq!(text, stdout_of(&args), "same seed, same bytes");
        let mut other = args.clone();
        other[5] = "9";
        assert_ne!(text, stdout_of(&other));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("# shape {shape}"));
        assert_eq!(lines[1], "name,puzzle,solution");
        assert_eq!(lines.len(), 6);
        for line in &lines[2..] {
            let f: Vec<&str> = line.split(',').collect();
            let p = solvers::Board::new(shape, f[1].bytes().map(symbol).collect()).unwrap();
            let s = solvers::Board::new(shape, f[2].bytes().map(symbol).collect()).unwrap();
            assert_eq!(verify::check_board(&p, &s, None), Ok(()), "{line}");
            for &k in &counters {
                assert_eq!(count_board(k, &p), 1, "{k} on {line}");
            }
            if minimal_check {
                for c in (0..shape.cells()).filter(|&c| p.get(c) != 0) {
                    let mut less = p.clone();
                    less.set(c, 0);
                    for &k in &counters {
                        assert_eq!(count_board(k, &less), 2, "{k}: {line} given {c}");
                    }
                }
            }
        }
    }
}

#[test]
fn qwh_holes_are_exact_balanced_and_satisfiable() {
    let text = stdout_of(&[
        "generate", "qwh", "--order", "20", "--holes", "0.42", "--count", "4", "--seed", "2",
    ]);
    assert_eq!(
        text,
        stdout_of(&[
            "generate", "qwh", "--order", "20", "--holes", "0.42", "--count", "4", "--seed", "2",
        ])
    );
    let (shape, puzzles) = read_shaped(&text);
    assert_eq!(shape.to_string(), "20x20/latin");
    assert_eq!(puzzles.len(), 4);
    for p in &puzzles {
        assert_eq!(p.iter().filter(|&&v| v == 0).count(), 168); // round(0.42 * 400)
        let b = solvers::Board::new(shape, p.clone()).unwrap();
        assert_eq!(b.first_conflict(), None);
    }
    let text = stdout_of(&[
        "generate",
        "qwh",
        "--order",
        "10",
        "--holes",
        "0.42",
        "--balanced",
        "--count",
        "3",
        "--seed",
        "2",
        "--format",
        "ints",
    ]);
    let (shape, puzzles) = read_shaped(&text);
    assert_eq!(puzzles.len(), 3);
    for p in &puzzles {
        for k in 0..10 {
            assert_eq!((0..10).filter(|&c| p[k * 10 + c] == 0).count(), 4);
            assert_eq!((0..10).filter(|&r| p[r * 10 + k] == 0).count(), 4);
        }
        // Satisfiable by construction: a counting solver that takes Latin squares completes it.
        if let Some(&k) = counters_for(shape).first() {
            let b = solvers::Board::new(shape, p.clone()).unwrap();
            let c = k.session().count(&b, 1, &Budget::unlimited()).unwrap();
            assert_eq!(c.solutions, 1);
            assert_eq!(verify::check_board(&b, &c.first.unwrap(), None), Ok(()));
        }
    }
    let pls = stdout_of(&[
        "generate", "qwh", "--order", "5", "--holes", "1", "--seed", "1", "--format", "pls",
    ]);
    assert_eq!(pls, "order 5\n".to_string() + &"-1 -1 -1 -1 -1\n".repeat(5));
}

/// The shipped sets of other shapes: every stated solution checked, every puzzle unique by two
/// independent counting solvers ([`counters_for`]), the QWH holes exact.
#[test]
fn shipped_sets_of_other_shapes_are_unique() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
    for (file, take) in [
        ("sudoku-4x4.txt", 40),
        ("sudoku-6x6.txt", 40),
        ("sudoku-12x12.txt", 30),
        ("sudoku-16x16.txt", 3),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let (shape, puzzles) = read_shaped(&text);
        let solutions: Vec<Vec<u16>> = text
            .lines()
            .skip(1)
            .map(|l| l.split(' ').nth(1).unwrap().bytes().map(symbol).collect())
            .collect();
        assert_eq!(puzzles.len(), solutions.len());
        let counters = counters_for(shape);
        for (p, s) in puzzles.iter().zip(&solutions).take(take) {
            let p = solvers::Board::new(shape, p.clone()).unwrap();
            let s = solvers::Board::new(shape, s.clone()).unwrap();
            assert_eq!(verify::check_board(&p, &s, None), Ok(()), "{file}");
            for &k in &counters {
                assert_eq!(count_board(k, &p), 1, "{file}: {k}");
            }
        }
    }
    let text = std::fs::read_to_string(root.join("qwh-20.txt")).unwrap();
    let (shape, puzzles) = read_shaped(&text);
    assert_eq!(shape, solvers::Shape::latin(20).unwrap());
    assert_eq!(puzzles.len(), 30);
    for p in &puzzles {
        assert_eq!(p.iter().filter(|&&v| v == 0).count(), 168);
    }
}

/// Every form the generators write is read back by the readers (`harness inspect`), with its
/// shape.
#[test]
fn the_readers_read_every_written_form() {
    let dir = tempfile::tempdir().unwrap();
    for (args, name, count, shape) in [
        (&["grids", "--order", "36"][..], "g36.txt", 3, "36x36"),
        (
            &["grids", "--box", "2x3", "--format", "ints"][..],
            "g6.txt",
            3,
            "6x6/2x3",
        ),
        (
            &["grids", "--latin", "--order", "5", "--format", "pls"][..],
            "l5.pls",
            3,
            "5x5/latin",
        ),
        (&["puzzles", "--box", "3x4"][..], "p12.csv", 3, "12x12/3x4"),
        (
            &["puzzles", "--side", "4", "--format", "line"][..],
            "p4.txt",
            3,
            "4x4",
        ),
        (
            &["qwh", "--order", "10", "--holes", "0.4"][..],
            "q10.txt",
            3,
            "10x10/latin",
        ),
    ] {
        let file = dir.path().join(name);
        let mut a = vec!["generate"];
        a.extend_from_slice(args);
        a.extend_from_slice(&["--count", "3", "--seed", "1"]);
        run_to_file(&a, &file);
        let out = harness().arg("inspect").arg(&file).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!("{count} ({count} readable, 0 invalid)")),
            "{name}: {text}"
        );
        assert!(text.contains(&format!("{count} {shape}")), "{name}: {text}");
    }
}

/// `--order` is the side N in every command: `--order 16` is 16x16 for a Sudoku as for a Latin
/// square; the old spelling of a box order (`--order 4` for 16x16) is refused, naming the new
/// one, in `generate grids` and `generate puzzles` alike.
#[test]
fn order_is_the_side_and_the_old_box_order_spelling_names_the_new_one() {
    for what in ["grids", "puzzles"] {
        let text = stdout_of(&[
            "generate", what, "-n", "1", "--seed", "3", "--order", "16", "--format", "line",
        ]);
        assert!(text.starts_with("# shape 16x16\n"), "{what}: {text}");
        harness()
            .args(["generate", what, "-n", "1", "-q", "--order", "4"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "--order 4: --order is the side N of the grid (the order N of the literature), \
                 no longer the box order; for the 16x16 Sudoku that --order 4 used to mean, give \
                 --order 16; for a 4x4 grid, --side 4",
            ));
    }
}

/// `generate puzzles` at 25x25 with its defaults finishes in seconds (each count is cut at the
/// side's default node budget; it was 1,000,000 nodes at every side, minutes a puzzle), and says
/// up front what a puzzle costs and how to change it. The puzzle is checked unique by two
/// counters.
#[test]
fn large_puzzles_have_defaults_that_finish_and_say_their_cost() {
    let out = harness()
        .args([
            "generate", "puzzles", "-n", "1", "--seed", "4", "--side", "25", "-j", "1",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.replace('\n', " ").contains(
            "1 25x25 puzzle: one count to 2 by dlx per cell tried, 625 a puzzle, each cut at \
             10,000 nodes (the default at this side; --count-nodes N changes it, 0 for none: \
             slower, and the puzzles proven minimal); --clues K stops sooner"
        ),
        "{stderr}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["# shape 25x25", "name,puzzle,solution"]);
    let f: Vec<&str> = lines[2].split(',').collect();
    let shape = solvers::Shape::of_order(5).unwrap();
    let p = solvers::Board::new(shape, f[1].bytes().map(symbol).collect()).unwrap();
    let s = solvers::Board::new(shape, f[2].bytes().map(symbol).collect()).unwrap();
    assert_eq!(verify::check_board(&p, &s, None), Ok(()));
    for k in [SolverKind::Dlx, SolverKind::Large] {
        assert_eq!(count_board(k, &p), 1, "{k}");
    }
}

/// `generate puzzles --pattern`: the same file for any thread count, every puzzle keeps the
/// pattern's givens per box, and each has a solution (most have many: none is made unique).
#[test]
fn pattern_puzzles_follow_the_pattern() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<String> = ["1", "2"]
        .iter()
        .map(|j| {
            let file = dir.path().join(format!("corner-{j}.txt"));
            run_to_file(
                &[
                    "generate",
                    "puzzles",
                    "--pattern",
                    "corner",
                    "-n",
                    "300",
                    "--seed",
                    "46",
                    "--format",
                    "line",
                    "-j",
                    j,
                ],
                &file,
            );
            std::fs::read_to_string(&file).unwrap()
        })
        .collect();
    assert_eq!(files[0], files[1]);
    let lines: Vec<&str> = files[0].lines().collect();
    assert_eq!(lines.len(), 300);
    let mut several = 0;
    for line in &lines {
        let g = cells(line);
        let per_box: Vec<usize> = (0..9)
            .map(|b| {
                (0..9)
                    .filter(|&k| g[(b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3] != 0)
                    .count()
            })
            .collect();
        assert_eq!(per_box[..3], [5, 0, 0], "{line}");
        assert!(per_box[3] <= 1 && per_box[6] == 1, "{line}");
        assert_eq!([per_box[4], per_box[5], per_box[7], per_box[8]], [7; 4]);
        let n = count_solutions(&g, 2);
        assert!(n >= 1, "{line}");
        several += usize::from(n == 2);
    }
    assert!(
        several > 250,
        "only {several} of 300 with two solutions or more"
    );
    // A bad pattern is a usage error naming what is wrong.
    harness()
        .args(["generate", "puzzles", "-n", "1", "--pattern", "5,0,0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("9 counts"));
}
