//! `harness solve`: every format, order kept, bad and unsolvable puzzles marked and counted.

use super::common::{cells, harness};
use harness::verify;
use predicates::prelude::*;

const GOOD: &str =
    "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
const SOLUTION: &str =
    "729364158341825967865971423536192874918547632274683519652438791493716285187259346";
/// Consistent givens, no solution: r1c9 can hold nothing (row has 1-8, column 9 has 9).
const UNSOLVABLE: &str =
    "12345678.........9...............................................................";

/// A file with no puzzle is an error naming it, as for `run`: `solve`, `rate` and the classic
/// `-s` exit 2 and write nothing (an empty output would pass for a finished job).
#[test]
fn an_input_without_puzzles_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "# only a comment\n\n").unwrap();
    let f = empty.display().to_string();
    let says = |done: &str| {
        format!(
            "error: no puzzle in {f}: it is empty or holds only blank and comment lines; \
             nothing was {done}\n"
        )
    };
    let out = dir.path().join("out.txt");
    for (args, done) in [(["solve", &f], "solved"), (["rate", &f], "rated")] {
        harness()
            .args(args)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::ends_with(says(done)));
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    harness()
        .args(["-s", &f])
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::ends_with(says("solved")));
    assert!(!dir.path().join("sudoku.txt").exists());
    harness()
        .args(["solve", "-"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: no puzzle in stdin: it is empty",
        ));
    // One puzzle is enough.
    std::fs::write(&empty, format!("{GOOD}\n")).unwrap();
    harness()
        .args(["solve", &f])
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
}

/// A CSV file of its header alone is named as such (not as empty) by `solve`, `rate` and
/// `run`, each exiting 2; `run` says what each of several sources without a puzzle holds.
#[test]
fn a_csv_file_of_a_header_only_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("header.csv");
    std::fs::write(&csv, "puzzle,solution\n").unwrap();
    let f = csv.display().to_string();
    let says = |done: &str| {
        format!("error: no puzzle in {f}: it holds only a CSV header; nothing was {done}\n")
    };
    for (command, done) in [("solve", "solved"), ("rate", "rated")] {
        harness()
            .args([command, &f])
            .assert()
            .code(2)
            .stderr(predicate::str::ends_with(says(done)));
        // Written whole or not at all: no output file of a header alone, no counts line.
        let written = dir.path().join(format!("{command}.csv"));
        harness()
            .args([command, &f, "-o", &written.display().to_string()])
            .assert()
            .code(2)
            .stderr(says(done));
        assert!(!written.exists(), "{command} left {}", written.display());
    }
    let out = dir.path().join("out").display().to_string();
    // `run -s dlx` over these datasets, into `out`: refused with exit 2.
    let run = |datasets: &[&str]| {
        let mut args = vec!["run", "-q", "--no-report", "-s", "dlx"];
        for d in datasets {
            args.extend(["-d", d]);
        }
        args.extend(["-o", out.as_str()]);
        harness().args(args).assert().code(2)
    };
    run(&[&f]).stderr(predicate::str::ends_with(says("run")));
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "# only a comment\n").unwrap();
    let e = empty.display().to_string();
    run(&[&e, &f]).stderr(predicate::str::ends_with(format!(
        "error: no puzzle in {e}, {f}: {e} is empty or holds only blank and comment lines, \
             {f} holds only a CSV header; nothing was run\n"
    )));
}

/// Two givens of one digit in a row are reported in the same words at 9x9 and at 16x16: the
/// digit, the unit and both cells.
#[test]
fn a_digit_given_twice_reads_alike_at_every_shape() {
    let dir = tempfile::tempdir().unwrap();
    let nine = format!("11{}", ".".repeat(79));
    let sixteen = format!("# shape 16x16\n11{}", ".".repeat(254));
    for (name, text, line) in [("nine.txt", nine, 1), ("sixteen.txt", sixteen, 2)] {
        let file = dir.path().join(name);
        std::fs::write(&file, format!("{text}\n")).unwrap();
        let f = file.display().to_string();
        harness()
            .args(["solve", &f, "-o", "-"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{f}:{line}: digit 1 given twice in row 1 (r1c1 and r1c2)\n"
            )));
    }
}

#[test]
fn a_bad_puzzle_in_the_middle_is_reported_and_the_rest_solved() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let out = dir.path().join("out.txt");
    std::fs::write(
        &input,
        format!(
            "# a comment\n{GOOD}\n{}\n{GOOD} named\n{UNSOLVABLE}\n{GOOD}\n",
            &GOOD[..80]
        ),
    )
    .unwrap();
    let f = input.display().to_string();
    harness()
        .args(["solve", &f, "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{f}:3: 80 characters, expected 81"
        )))
        .stderr(predicate::str::contains(format!("{f}:5: no solution")))
        .stderr(predicate::str::contains(
            "read 5, solved 3, unsolvable 1, invalid 1, timeout 0",
        ));
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        vec![
            SOLUTION,
            &format!("ERROR {f}:3: 80 characters, expected 81"),
            &format!("{SOLUTION} named"),
            &format!("ERROR {f}:5: no solution"),
            SOLUTION,
        ]
    );
    // No temporary file is left beside the output.
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 2);
}

#[test]
fn many_puzzles_keep_their_order_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let csv_in = dir.path().join("p.csv");
    harness()
        .args([
            "generate", "puzzles", "--count", "300", "--clues", "40", "--seed", "5", "-q", "-o",
        ])
        .arg(&csv_in)
        .assert()
        .success();
    // CSV in, CSV out, via stdin; every answer equals the stated solution.
    let out = harness()
        .args(["solve", "-", "--threads", "2"])
        .write_stdin(std::fs::read(&csv_in).unwrap())
        .assert()
        .success()
        .stderr(predicate::str::contains("read 300, solved 300"))
        .get_output()
        .stdout
        .clone();
    let mut rdr = csv::Reader::from_reader(out.as_slice());
    assert_eq!(
        rdr.headers().unwrap(),
        vec!["name", "puzzle", "solution", "error"]
    );
    let mut given = csv::Reader::from_path(&csv_in).unwrap();
    let mut n = 0;
    for (got, want) in rdr.records().zip(given.records()) {
        let (got, want) = (got.unwrap(), want.unwrap());
        assert_eq!(&got[0], &want[0], "order");
        assert_eq!(&got[1], &want[1]);
        assert_eq!(&got[2], &want[2]);
        assert_eq!(&got[3], "");
        n += 1;
    }
    assert_eq!(n, 300);
    // Block in, block out.
    let mut block = String::new();
    let mut puzzles = Vec::new();
    for r in csv::Reader::from_path(&csv_in).unwrap().records().take(50) {
        let p = cells(&r.unwrap()[1]);
        puzzles.push(p);
        for row in p.chunks(9) {
            let row: Vec<String> = row.iter().map(u8::to_string).collect();
            block.push_str(&row.join(" "));
            block.push('\n');
        }
        block.push('\n');
    }
    let out = harness()
        .args(["solve", "-", "--solver", "bitmask-dfs"])
        .write_stdin(block)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let back: Vec<_> = harness::input::format::PuzzleReader::new(std::io::Cursor::new(out), "out")
        .unwrap()
        .collect();
    assert_eq!(back.len(), 50);
    for (p, e) in puzzles.iter().zip(back) {
        let s = e.puzzle.unwrap().grid().unwrap();
        assert_eq!(verify::check(p, s.cells(), None), Ok(()));
    }
}

#[test]
fn missing_input_and_unknown_solver_are_usage_errors() {
    harness()
        .args(["solve", "/nonexistent/puzzles.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot open /nonexistent/puzzles.txt",
        ));
    let dir = tempfile::tempdir().unwrap();
    harness()
        .args(["solve"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "it is a folder; give a file of puzzles",
        ));
    harness()
        .args(["solve", "-", "--solver", "nope"])
        .write_stdin(format!("{GOOD}\n"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown solver"));
}

/// `solve -o` naming its own input (by the same path, or through a link) is refused before
/// anything is written: the puzzles stay.
#[cfg(unix)]
#[test]
fn solve_refuses_to_write_over_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    let text =
        "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6\n";
    std::fs::write(&file, text).unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    for out in [&file, &link] {
        harness()
            .arg("solve")
            .arg(&file)
            .arg("-o")
            .arg(out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("over the input"));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    }
}

/// A puzzle of two solutions is not solved: its entry is marked in each format (line, block,
/// CSV) with one of the solutions in the reason, it is counted as `several` on the last line,
/// and the exit status is 1; the proper puzzles around it are solved as usual.
#[test]
fn a_puzzle_of_two_solutions_is_marked_and_counted() {
    // A solution grid with a unique rectangle (r1c4, r1c5, r4c4, r4c5) emptied: two solutions.
    const TWO: &str =
        "534..8912672195348198342567859..1423426853791713924856961537284287419635345286179";
    const ONE_OF_TWO: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let dir = tempfile::tempdir().unwrap();
    let block = |g: &str| {
        let rows: Vec<String> = g
            .as_bytes()
            .chunks(9)
            .map(|r| {
                r.iter()
                    .map(|&c| {
                        if c == b'.' {
                            "0".to_string()
                        } else {
                            (c as char).to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        rows.join("\n")
    };
    let inputs = [
        ("in.txt", format!("{GOOD}\n{TWO}\n{GOOD}\n")),
        (
            "in.block",
            format!("{}\n\n{}\n\n{}\n", block(GOOD), block(TWO), block(GOOD)),
        ),
        (
            "in.csv",
            format!("name,puzzle\na,{GOOD}\nb,{TWO}\nc,{GOOD}\n"),
        ),
    ];
    for (name, text) in inputs {
        let input = dir.path().join(name);
        std::fs::write(&input, text).unwrap();
        let out = harness().arg("solve").arg(&input).output().unwrap();
        let (stdout, stderr) = (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        );
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        let why =
            format!("more than one solution, so not a proper puzzle (one of them: {ONE_OF_TWO})");
        assert!(stderr.contains(&why), "{name}: {stderr}");
        assert_eq!(
            stderr.lines().last(),
            Some("read 3, solved 2, unsolvable 0, invalid 0, timeout 0, several 1"),
            "{name}"
        );
        assert_eq!(stdout.matches(&why).count(), 1, "{name}: {stdout}");
        match name {
            "in.txt" => assert_eq!(
                stdout.lines().nth(1).unwrap(),
                format!("ERROR {}:2: {why}", input.display())
            ),
            "in.block" => assert!(
                stdout.contains(&format!("# ERROR {}:11: {why}\nx x x", input.display())),
                "{stdout}"
            ),
            _ => {
                let row = stdout.lines().nth(2).unwrap();
                assert!(
                    row.starts_with(&format!("b,{},,", TWO.replace('.', "0"))),
                    "{row}"
                );
            }
        }
        // The proper puzzles around it are solved.
        let digits: String = stdout.split_whitespace().collect();
        assert_eq!(digits.matches(SOLUTION).count(), 2, "{name}: {stdout}");
    }
}

/// `--first` (alias `--any`) writes one solution of a puzzle of several, checked by the
/// checker, and counts it as solved; without it the entry is marked (the test above).
#[test]
fn first_writes_one_solution_of_a_puzzle_of_several() {
    const TWO: &str =
        "534..8912672195348198342567859..1423426853791713924856961537284287419635345286179";
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{TWO}\n{GOOD}\n")).unwrap();
    for flag in ["--first", "--any"] {
        let out = harness()
            .arg("solve")
            .arg(flag)
            .arg(&input)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(0), "{flag}: {stderr}");
        assert_eq!(
            stderr.lines().last(),
            Some("read 2, solved 2, unsolvable 0, invalid 0, timeout 0, several 0")
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        let first = stdout.lines().next().unwrap();
        let puzzle = solvers::Grid::from_cells(cells(TWO)).unwrap();
        let answer: solvers::Grid = first.parse().unwrap();
        assert_eq!(
            verify::check_board(
                &solvers::Board::from_grid(&puzzle),
                &solvers::Board::from_grid(&answer),
                None
            ),
            Ok(()),
            "{flag}: {first}"
        );
    }
}

/// A quasigroup with holes (a Latin square of order 12 with 42% of its cells emptied: many
/// completions) gets a completion, checked, not a `several` mark; so does the empty Latin
/// square. The default solver takes the shape.
#[test]
fn solve_completes_latin_squares_with_holes() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("qwh.txt");
    harness()
        .args([
            "generate", "qwh", "--order", "12", "--holes", "0.42", "-n", "2",
        ])
        .args(["--seed", "7", "-q", "--format", "ints", "-o"])
        .arg(&input)
        .assert()
        .success();
    let out = harness().arg("solve").arg(&input).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr.lines().last(),
        Some("read 2, solved 2, unsolvable 0, invalid 0, timeout 0, several 0")
    );
    let puzzles: Vec<_> = harness::input::format::PuzzleReader::from_text(
        &std::fs::read_to_string(&input).unwrap(),
        "qwh",
    )
    .map(|e| e.puzzle.unwrap().board)
    .collect();
    let answers: Vec<_> = harness::input::format::PuzzleReader::from_text(
        &String::from_utf8(out.stdout).unwrap(),
        "out",
    )
    .map(|e| e.puzzle.unwrap().board)
    .collect();
    assert_eq!(answers.len(), 2);
    for (p, a) in puzzles.iter().zip(&answers) {
        assert!(p.shape().is_latin());
        assert_eq!(verify::check_board(p, a, None), Ok(()));
    }
}
