//! Every file `generate`, `solve` and `run` write reads back with `harness`'s readers to the same
//! puzzles and shapes: a property test over random shapes (sides 1 to 36, boxes of every split
//! of the side and Latin squares) and every output form (one character a cell, integers, `.pls`,
//! CSV, and for `solve` the form of its input), marked entries included (a repeated given, a
//! puzzle of several solutions).

use super::common::harness;
use harness::generate::qwh::{generate_qwh, Holes};
use harness::generate::shaped::random_solved;
use harness::input::format::{board_block, board_line, render_pls, Entry, Format, PuzzleReader};
use harness::input::format::{read_puzzle, ShapeLines};
use harness::verify;
use proptest::prelude::*;
use solvers::{Board, Shape};
use std::path::Path;

/// A shape of side 1 to 36: a Latin square, or boxes of one of the splits of its side.
fn shapes() -> impl Strategy<Value = Shape> {
    (1..=36usize, any::<bool>(), any::<prop::sample::Index>()).prop_map(|(side, latin, pick)| {
        if latin {
            return Shape::latin(side).unwrap();
        }
        let splits: Vec<usize> = (1..=side).filter(|r| side % r == 0).collect();
        let r = splits[pick.index(splits.len())];
        Shape::sudoku(r, side / r).unwrap()
    })
}

/// The `generate` arguments naming `shape`.
fn shape_args(shape: Shape) -> Vec<String> {
    let n = shape.side();
    match shape.boxes() {
        None => vec!["--latin".into(), "--order".into(), n.to_string()],
        Some((r, c)) => vec!["--box".into(), format!("{r}x{c}")],
    }
}

/// Reads `text` (named `name`, whose extension may force `.pls`) whole.
fn read(text: &str, name: &str) -> (Format, Vec<Entry>) {
    let r = PuzzleReader::from_text(text, name);
    let f = r.format();
    (f, r.collect())
}

/// Runs `harness` with `args`; its stdout (exit 1 and 2 say some entry was marked).
fn run(args: &[String]) -> String {
    let out = harness().args(args).output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0..=2)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The forms `generate` writes `shape` in.
fn forms(shape: Shape) -> Vec<&'static str> {
    let mut v = vec!["ints", "pls"];
    if shape.side() <= 35 {
        v.push("line");
    }
    v
}

/// `generate grids` and (for a Latin square) `generate qwh` in every form read back to the grids
/// and squares the library makes for the same seed, of the same shape.
fn generated_read_back(shape: Shape, seed: u64) {
    for form in forms(shape) {
        let name = format!("g.{}", if form == "pls" { "pls" } else { "txt" });
        let mut args: Vec<String> = ["generate", "grids", "-q", "--count", "3", "--seed"]
            .map(String::from)
            .to_vec();
        args.push(seed.to_string());
        args.extend(shape_args(shape));
        args.extend(["--format".into(), form.into()]);
        if shape.is_classic() {
            // The 9x9 grids of `random_solved` are the `random` method's.
            args.extend(["--method".into(), "random".into()]);
        }
        let (_, back) = read(&run(&args), &name);
        assert_eq!(back.len(), 3, "{shape} {form}");
        for (i, e) in back.iter().enumerate() {
            let want = random_solved(shape, seed, 0, i as u64);
            let got = &e
                .puzzle
                .as_ref()
                .unwrap_or_else(|e| panic!("{shape} {form}: {e}"))
                .board;
            assert_eq!(got, &want, "{shape} {form} grid {i}");
        }
        generated_puzzles_read_back(shape, seed, form);
        if !shape.is_latin() {
            continue;
        }
        let mut args: Vec<String> = ["generate", "qwh", "-q", "--count", "2", "--holes", "0.3"]
            .map(String::from)
            .to_vec();
        args.extend(["--seed".into(), seed.to_string()]);
        args.extend(["--order".into(), shape.side().to_string()]);
        args.extend(["--format".into(), form.into()]);
        let (_, back) = read(&run(&args), &name);
        assert_eq!(back.len(), 2, "qwh {shape} {form}");
        for (i, e) in back.iter().enumerate() {
            let q = generate_qwh(shape.side(), 0.3, Holes::Random, seed, i as u64);
            let got = &e
                .puzzle
                .as_ref()
                .unwrap_or_else(|e| panic!("qwh {form}: {e}"))
                .board;
            assert_eq!(
                (got.shape(), got.cells()),
                (shape, &q.puzzle[..]),
                "qwh {form}"
            );
        }
    }
}

/// `generate puzzles` (sides up to 6, where it takes moments) in `form`, and in CSV: the same
/// puzzles of the shape read back from both, with the stated solution checked where the form
/// writes it.
fn generated_puzzles_read_back(shape: Shape, seed: u64, form: &str) {
    if shape.side() > 6 {
        return;
    }
    let make = |form: &str| {
        let mut args: Vec<String> = ["generate", "puzzles", "-q", "--count", "2", "--seed"]
            .map(String::from)
            .to_vec();
        args.push(seed.to_string());
        args.extend(shape_args(shape));
        args.extend(["--format".into(), form.into()]);
        let name = if form == "pls" { "p.pls" } else { "p.txt" };
        read(&run(&args), name).1
    };
    let (back, csv) = (make(form), make("csv"));
    assert_eq!((back.len(), csv.len()), (2, 2), "{shape} {form}");
    for (e, c) in back.iter().zip(&csv) {
        let at = format!("puzzles {shape} {form}");
        let (p, q) = (e.puzzle.as_ref().unwrap(), c.puzzle.as_ref().unwrap());
        assert_eq!((p.shape(), &p.board), (shape, &q.board), "{at}");
        let s = q.solution.as_ref().expect("the CSV states the solution");
        assert_eq!(verify::check_board(&q.board, s, None), Ok(()), "{at}");
        if let Some(s) = &p.solution {
            assert_eq!(verify::check_board(&p.board, s, None), Ok(()), "{at}");
        }
    }
}

/// The puzzles `solve` and `run` are given: a grid of the shape with about a quarter of its
/// cells emptied, the empty grid (several solutions from side 2), and the grid with a given
/// repeated in its first row (side 2 and up).
fn inputs(shape: Shape, seed: u64) -> Vec<Board> {
    let solved = random_solved(shape, seed, 0, 0);
    let mut puzzle = solved.clone();
    for i in 0..shape.cells() {
        if (i as u64).wrapping_mul(0x9e37_79b9).wrapping_add(seed) % 4 == 0 {
            puzzle.set(i, 0);
        }
    }
    let mut v = vec![puzzle, Board::empty(shape)];
    if shape.side() > 1 {
        let mut dup = Board::empty(shape);
        dup.set(0, 1);
        dup.set(1, 1);
        v.push(dup);
    }
    v
}

/// `boards` written in `format` as a reader of `harness` takes them, shape lines included.
fn write_input(boards: &[Board], format: Format) -> String {
    let mut shapes = ShapeLines::default();
    let mut text = String::new();
    if format == Format::Csv {
        text.push_str("name,puzzle\n");
    }
    for (i, b) in boards.iter().enumerate() {
        if let Some(line) = shapes.before(b.shape(), format) {
            text.push_str(&line);
        }
        match format {
            Format::Line => text.push_str(&format!("{}\n", board_line(b))),
            Format::Block => text.push_str(&format!("{}\n", board_block(b))),
            Format::Pls => text.push_str(&render_pls(b)),
            Format::Csv => text.push_str(&format!("p{i},{}\n", board_line(b))),
        }
    }
    text
}

/// `harness solve` of `boards` in every input form: the output reads back entry for entry, an
/// answer as its checked solution of the same shape, a marked entry as an invalid one of the
/// same shape (in CSV, as its puzzle).
fn solved_read_back(shape: Shape, boards: &[Board], dir: &Path) {
    for format in [Format::Line, Format::Block, Format::Pls, Format::Csv] {
        let name = match format {
            Format::Pls => "in.pls",
            Format::Csv => "in.csv",
            _ => "in.txt",
        };
        let text = write_input(boards, format);
        let (f, input) = read(&text, name);
        // A 1x1 block is its one line.
        let f = if shape.side() == 1 { format } else { f };
        assert_eq!((f, input.len()), (format, boards.len()), "{shape}:\n{text}");
        let file = dir.join(name);
        std::fs::write(&file, &text).unwrap();
        let out = run(&[
            "solve".into(),
            "-s".into(),
            "cdcl".into(),
            file.display().to_string(),
        ]);
        let (f, back) = read(&out, name);
        let f = if shape.side() == 1 { format } else { f };
        assert_eq!(
            (f, back.len()),
            (format, input.len()),
            "{shape} {format}:\n{out}"
        );
        for (i, (a, b)) in input.iter().zip(&back).enumerate() {
            let at = format!("{shape} {format} entry {}:\n{out}", i + 1);
            assert_eq!(a.shape, Some(shape), "{at}");
            match (&a.puzzle, &b.puzzle) {
                // Solved: the answer, of the shape, solves the puzzle.
                (Ok(p), Ok(s)) if format != Format::Csv => {
                    assert_eq!(s.shape(), shape, "{at}");
                    assert!(s.board.is_full(), "{at}");
                    assert_eq!(
                        verify::check_board(&p.board, &s.board, None),
                        Ok(()),
                        "{at}"
                    );
                }
                // CSV: the puzzle again, with the answer as its (checked) stated solution.
                (Ok(p), Ok(q)) => {
                    assert_eq!(q.board, p.board, "{at}");
                    if let Some(s) = &q.solution {
                        assert_eq!(verify::check_board(&p.board, s, None), Ok(()), "{at}");
                    }
                }
                // Marked: invalid; a block or a square at the size of the entry it answers.
                (_, Err(_)) => {
                    if matches!(format, Format::Block | Format::Pls) {
                        assert_eq!(b.shape.map(Shape::side), Some(shape.side()), "{at}");
                    }
                }
                (Err(e), Ok(_)) => panic!("{at}: an invalid entry read back as a puzzle ({e})"),
            }
        }
    }
}

/// `harness run`'s results.csv: each row's `grid` and `solution` read back, with its `shape`, as
/// the puzzle given and a solution of it.
fn run_reads_back(shape: Shape, boards: &[Board], dir: &Path) {
    let file = dir.join("run.txt");
    std::fs::write(&file, write_input(boards, Format::Line)).unwrap();
    let out = dir.join("r");
    harness()
        .args([
            "run",
            "-q",
            "--no-report",
            "-s",
            "dlx",
            "--timeout-ms",
            "0",
            "-d",
        ])
        .arg(&file)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let mut rows = csv::Reader::from_path(out.join("results.csv")).unwrap();
    let rows: Vec<harness::record::Row> = rows.deserialize().map(Result::unwrap).collect();
    assert_eq!(rows.len(), boards.len(), "{shape}");
    for (row, board) in rows.iter().zip(boards) {
        if row.status == harness::record::RowStatus::Invalid {
            continue;
        }
        let s: Shape = row.shape.parse().unwrap();
        assert_eq!(s, shape);
        assert_eq!(
            &read_puzzle(&row.grid, Some(s)).unwrap().board,
            board,
            "{shape}"
        );
        if !row.solution.is_empty() {
            let sol = read_puzzle(&row.solution, Some(s)).unwrap().board;
            assert_eq!(verify::check_board(board, &sol, None), Ok(()), "{shape}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 12,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// For random shapes and every output form: generate -> write -> read gives the same puzzles
    /// and shapes; so do `solve`'s answers and marked entries, and `run`'s results.csv.
    #[test]
    fn every_written_file_reads_back_to_the_same_puzzles_and_shapes(
        shape in shapes(),
        seed in 0..1000u64,
    ) {
        generated_read_back(shape, seed);
        let dir = tempfile::tempdir().unwrap();
        let boards = inputs(shape, seed);
        solved_read_back(shape, &boards, dir.path());
        run_reads_back(shape, &boards, dir.path());
    }
}
