//! Grids of every shape through the readers and the puzzle commands: the shipped 16x16 and 25x25
//! sets read whole, every input form of another shape, every bad input named, and `harness solve`
//! / `count` / `inspect` at other shapes (with a small test engine that takes every shape, so the
//! paths run whether or not a built-in solver takes them yet).

use assert_cmd::Command;
use harness::generate::counting_solver_for as solver_for;
use harness::input::dataset;
use harness::input::format::{board_line, render_pls, Format, PuzzleReader};
use harness::verify;
use predicates::prelude::*;
use solvers::engine::{
    BudgetMode, Caps, Engine, EngineError, EngineInfo, NodeUnit, Origin, Session, Shapes,
};
use solvers::{Board, Budget, Outcome, Shape, Stats, Status};
use std::io::Cursor;

fn harness() -> Command {
    Command::cargo_bin("harness").unwrap()
}

#[test]
fn shipped_gecode_sets_read_whole() {
    for (name, count, shape, givens) in [
        ("gecode-16", 55, "16x16", 98..=128),
        ("gecode-25", 18, "25x25", 266..=284),
    ] {
        let s = dataset::find(name).expect("shipped");
        assert!(!s.default, "{name} is not in the default run");
        assert!(dataset::SHIPPED.iter().all(|x| x.name != name));
        let d = dataset::load(name).unwrap();
        assert_eq!(
            (d.entries.len(), d.invalid(), d.format),
            (count, 0, Format::Line)
        );
        for e in &d.entries {
            let p = e.puzzle.as_ref().unwrap();
            assert_eq!(p.shape().to_string(), shape);
            assert!(givens.contains(&p.board.givens()), "{name} {}", e.label());
            assert!(p.board.first_conflict().is_none());
        }
    }
    assert!(dataset::defaults()
        .iter()
        .all(|d| !d.name.starts_with("gecode")));
}

/// The 16x16 case C16 (tests/fixtures/cases), read as 16x16 with 4x4 boxes; the solution its
/// README states passes the checker.
#[test]
fn c16_reads_as_16x16_and_its_stated_solution_checks() {
    let text = super::common::case("C16.txt");
    let p = PuzzleReader::from_text(&text, "case")
        .next()
        .unwrap()
        .puzzle
        .unwrap();
    assert_eq!(p.shape(), Shape::of_order(4).unwrap());
    let readme = include_str!("../fixtures/cases/README.md");
    let line = readme.lines().find(|l| l.starts_with("| C16.txt")).unwrap();
    let stated = line
        .rsplit("solution: ")
        .next()
        .unwrap()
        .trim_end_matches(" |");
    let sol = PuzzleReader::from_text(stated, "readme")
        .next()
        .unwrap()
        .puzzle
        .unwrap()
        .board;
    assert_eq!(verify::check_board(&p.board, &sol, None), Ok(()));
}

/// A depth-first search over a board of any shape, fewest candidates first: the test's engine.
fn dfs(b: &mut Board, units: &solvers::Units, found: &mut Vec<Board>, limit: usize) {
    let n = b.shape().side();
    let mut best: Option<(usize, Vec<u16>)> = None;
    for i in 0..b.cells().len() {
        if b.get(i) != 0 {
            continue;
        }
        let mut used = vec![false; n + 1];
        for p in units.peers(i) {
            used[b.get(p as usize) as usize] = true;
        }
        let cands: Vec<u16> = (1..=n as u16).filter(|&v| !used[v as usize]).collect();
        if best.as_ref().map_or(true, |(_, c)| cands.len() < c.len()) {
            best = Some((i, cands));
        }
    }
    let Some((i, cands)) = best else {
        found.push(b.clone());
        return;
    };
    for v in cands {
        if found.len() >= limit {
            return;
        }
        b.set(i, v);
        dfs(b, units, found, limit);
    }
    b.set(i, 0);
}

struct AnyShape(EngineInfo);

impl AnyShape {
    fn new() -> AnyShape {
        AnyShape(EngineInfo {
            name: "test-any-shape".into(),
            description: "DFS over boards of any shape (tests only)".into(),
            version: None,
            origin: Origin::Builtin,
            caps: Caps {
                shapes: Shapes::Any,
                counts: true,
                gives_solution: true,
                budget: BudgetMode::Polled,
                nodes: NodeUnit::None,
                guesses: false,
                parallel: true,
            },
        })
    }
}

struct AnySession;

impl Session for AnySession {
    fn solve(&mut self, puzzle: &Board, _: &Budget) -> Result<Outcome, EngineError> {
        let mut found = Vec::new();
        dfs(&mut puzzle.clone(), &puzzle.shape().units(), &mut found, 1);
        Ok(match found.pop() {
            Some(s) => Outcome::solved(s, Stats::default()),
            None => Outcome::unsolved(Status::NoSolution, Stats::default()),
        })
    }
}

impl Engine for AnyShape {
    fn info(&self) -> &EngineInfo {
        &self.0
    }
    fn session(&self) -> Result<Box<dyn Session>, EngineError> {
        Ok(Box::new(AnySession))
    }
}

/// Solves `text` with the test engine through `harness solve`'s streaming core; returns the
/// output and the counts line.
fn solve_text(text: &str, source: &str) -> (String, String) {
    solve_text_with(text, source, &AnyShape::new())
}

/// [`solve_text`] with `engine`.
fn solve_text_with(text: &str, source: &str, engine: &dyn Engine) -> (String, String) {
    let reader = PuzzleReader::from_text(text, source);
    let format = reader.format();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut out = Vec::new();
    let counts = harness::commands::solve::solve_stream(
        reader,
        source,
        &mut out,
        format,
        &harness::commands::solve::Engines::one(engine, None),
        &pool,
        None,
        None,
    )
    .unwrap();
    (String::from_utf8(out).unwrap(), counts.line())
}

/// Every puzzle of `input` and its answer in `output` (read back): the answer checked.
fn assert_answers_check(input: &str, output: &str, source: &str) {
    let puzzles: Vec<_> = PuzzleReader::from_text(input, source).collect();
    let answers: Vec<_> = PuzzleReader::from_text(output, source).collect();
    assert_eq!(puzzles.len(), answers.len(), "{output}");
    for (p, a) in puzzles.iter().zip(&answers) {
        let (p, a) = (p.puzzle.as_ref().unwrap(), a.puzzle.as_ref().unwrap());
        assert_eq!(p.shape(), a.shape());
        assert!(a.board.is_full());
        assert_eq!(verify::check_board(&p.board, &a.board, None), Ok(()));
    }
}

#[test]
fn solve_writes_each_form_at_other_shapes() {
    // 4x4 (2x2 boxes), one character a cell with a name; 6x6 after its shape line; a Latin
    // square of side 5 in integers.
    let line = "1.....3..4.....2 four\n# shape 6x6/2x3\n\
                1......2......3......4......5......6\n# shape 5x5/latin\n\
                1 0 0 0 0 0 2 0 0 0 0 0 3 0 0 0 0 0 4 0 0 0 0 0 5\n";
    let (out, counts) = solve_text(line, "l.txt");
    assert_eq!(
        counts,
        "read 3, solved 3, unsolvable 0, invalid 0, timeout 0, several 0"
    );
    assert!(out.lines().next().unwrap().ends_with(" four"), "{out}");
    assert_eq!(out.lines().next().unwrap().len(), 16 + 5);
    // The output holds the shape lines it needs: it reads back as written.
    assert!(out.contains("# shape 6x6/2x3\n") && out.contains("# shape 5x5/latin\n"));
    assert_answers_check(line, &out, "l.txt");

    // Block form of 4x4, integers.
    let block = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n";
    let (out, _) = solve_text(block, "b.txt");
    assert_eq!(out.lines().count(), 5, "{out}");
    assert_answers_check(block, &out, "b.txt");

    // .pls, written back as .pls.
    let pls = "order 3\n0 -1 -1\n-1 -1 -1\n-1 -1 2\n";
    let (out, _) = solve_text(pls, "q.pls");
    assert!(out.starts_with("order 3\n"), "{out}");
    assert_answers_check(pls, &out, "q.pls");

    // CSV: puzzle and solution columns as the line form writes them.
    let csv = "name,puzzle\nfour,1.....3..4.....2\n";
    let (out, _) = solve_text(csv, "c.csv");
    let row = out.lines().nth(1).unwrap();
    let sol = row.split(',').nth(2).unwrap();
    assert_eq!(sol.len(), 16);
    let p = PuzzleReader::from_text("1.....3..4.....2", "p")
        .next()
        .unwrap()
        .puzzle
        .unwrap();
    let s = PuzzleReader::from_text(sol, "s")
        .next()
        .unwrap()
        .puzzle
        .unwrap();
    assert_eq!(verify::check_board(&p.board, &s.board, None), Ok(()));
}

#[test]
fn solve_marks_bad_inputs_of_other_shapes() {
    let z = format!("{}Z{}", ".".repeat(11), ".".repeat(244));
    let mut dup = vec!["0"; 256];
    dup[0] = "7";
    dup[17] = "7";
    let mut above = vec!["0"; 256];
    above[3] = "17";
    let text = format!(
        "{z}\n{}\n{}\n# shape 12x12/3x3\n{}\n{}\n{}\n",
        "1".repeat(50),
        ".".repeat(1296),
        ".".repeat(144),
        above.join(" "),
        dup.join(" "),
    );
    let (out, counts) = solve_text(&text, "bad.txt");
    assert_eq!(
        counts,
        "read 7, solved 0, unsolvable 0, invalid 7, timeout 0, several 0"
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "ERROR bad.txt:1: symbol at column 12 (r1c12): Z = 35 is above 16"
    );
    assert!(
        lines[1].starts_with("ERROR bad.txt:2: 50 characters, expected 81"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].contains("one character a cell reaches 35x35; use integers"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].contains("bad.txt:4: shape line \"12x12/3x3\": 3x3 boxes do not tile"),
        "{}",
        lines[3]
    );
    assert!(
        lines[4].contains("bad.txt:5: 144 cells make a 12x12 grid"),
        "{}",
        lines[4]
    );
    assert_eq!(lines[5], "ERROR bad.txt:6: symbol at r1c4: 17 is above 16");
    assert_eq!(
        lines[6],
        "ERROR bad.txt:7: digit 7 given twice in box 1 (r1c1 and r2c2)"
    );
    // A .pls row of the wrong length.
    let (out, _) = solve_text("order 2\n0 1\n1\n", "w.pls");
    assert!(
        out.contains("# ERROR w.pls:1: pls row 2: line 3: 1 symbols, expected 2"),
        "{out}"
    );
}

#[test]
fn solve_and_count_refuse_a_solver_that_does_not_take_the_shape() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/gecode-16x16.txt");
    let first = include_str!("../../datasets/gecode-16x16.txt")
        .lines()
        .next()
        .unwrap();
    let shape = Shape::of_order(4).unwrap();
    // A named solver that takes 9x9 only is refused, naming the shape.
    harness()
        .args(["count", "--solver", "bitboard-bands", first])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "solver bitboard-bands does not take 16x16 puzzles",
        ));
    // dlx counts 16x16: the solve's answers are checked by the command.
    assert_eq!(
        solver_for(shape),
        Some(harness::generate::SHAPED_COUNTING_SOLVER)
    );
    harness()
        .args(["solve", file, "-o", "-"])
        .assert()
        .success()
        .stderr(predicate::str::contains("read 55, solved 55"));
}

/// A 4x4 puzzle with four solutions, counted by hand: rows 1-2 given as 1234 / 3412, the rest
/// empty. Columns 1 and 3 lack {2, 4}, columns 2 and 4 lack {1, 3}; choosing r3c1 (2 ways) and
/// r3c2 (2 ways) fixes the rest of rows 3 and 4, and the lower boxes hold 1-4 whatever the
/// choice: 2 x 2 = 4 solutions.
#[test]
fn count_at_4x4() {
    let puzzle = "12343412........";
    let mut found = Vec::new();
    let p = PuzzleReader::from_text(puzzle, "p")
        .next()
        .unwrap()
        .puzzle
        .unwrap();
    dfs(&mut p.board.clone(), &p.shape().units(), &mut found, 10);
    assert_eq!(found.len(), 4, "by hand: four solutions");
    for s in &found {
        assert_eq!(verify::check_board(&p.board, s, None), Ok(()));
    }
    assert!(solver_for(p.shape()).is_some());
    harness()
        .args(["count", puzzle])
        .assert()
        .success()
        .stdout("at least 2\n");
}

#[test]
fn inspect_counts_per_shape() {
    harness()
        .args(["inspect", "gecode-16", "--timeout-ms", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("shapes   55 16x16"))
        .stdout(predicate::str::contains("givens   puzzles (16x16)"))
        .stdout(predicate::str::contains("9x9 only"));
    // A file of two shapes: per-shape histograms, and the 9x9 isomorph search on the 9x9 ones.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("mixed.txt");
    let seed = "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
    std::fs::write(
        &f,
        format!("{seed}\n1.....3..4.....2\n{}\n", ".".repeat(256)),
    )
    .unwrap();
    let out = harness()
        .args(["inspect", f.to_str().unwrap(), "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let shapes = &v[0]["shapes"];
    assert_eq!(shapes[0]["shape"], "4x4");
    assert_eq!(shapes[0]["clues"]["4"], 1);
    assert_eq!(shapes[1]["shape"], "9x9");
    assert_eq!(shapes[2]["shape"], "16x16");
    assert_eq!(shapes[2]["clues"]["0"], 1);
    assert_eq!(v[0]["isomorphic_duplicates"], 0);
}

#[test]
fn pls_round_trips_and_board_line_reads_back() {
    let shape = Shape::latin(12).unwrap();
    let mut b = Board::empty(shape);
    for i in 0..12 {
        b.set(i * 13, (i % 12 + 1) as u16);
    }
    let text = render_pls(&b);
    let back: Vec<_> = PuzzleReader::from_text(&text, "x.pls").collect();
    assert_eq!(back[0].puzzle.as_ref().unwrap().board, b);
    // board_line of a 36x36 board (integers) reads back as the same board.
    let big = Board::empty(Shape::of_order(6).unwrap());
    let line = board_line(&big);
    let r = PuzzleReader::with_format(Cursor::new(line.into_bytes()), "l", None).unwrap();
    assert_eq!(r.format(), Format::Line);
    let e: Vec<_> = r.collect();
    assert_eq!(e[0].puzzle.as_ref().unwrap().board, big);
}

/// The pattern solution of order n: cell (r, c) holds (n·(r mod n) + r div n + c) mod n² + 1.
fn pattern(n: usize) -> Board {
    let side = n * n;
    let cells = (0..side * side)
        .map(|i| {
            let (r, c) = (i / side, i % side);
            ((n * (r % n) + r / n + c) % side + 1) as u16
        })
        .collect();
    Board::new(Shape::of_order(n).unwrap(), cells).unwrap()
}

/// The block form of `b`: N rows of N integers, `0` empty, a blank line after.
fn ints_block(b: &Board) -> String {
    let n = b.shape().side();
    let mut out = String::new();
    for row in b.cells().chunks(n) {
        let r: Vec<String> = row.iter().map(u16::to_string).collect();
        out.push_str(&r.join(" "));
        out.push('\n');
    }
    out.push('\n');
    out
}

#[test]
fn block_81x81_is_not_read_as_9x9_lines() {
    let solution = pattern(9);
    verify::check_board(&solution, &solution, None).unwrap();
    let mut puzzle = solution.clone();
    for i in (0..81 * 81).filter(|i| i % 3 != 0) {
        puzzle.set(i, 0);
    }
    let text = ints_block(&puzzle);
    let r = PuzzleReader::from_text(&text, "big.txt");
    assert_eq!(r.format(), Format::Block);
    let e: Vec<_> = r.collect();
    assert_eq!(e.len(), 1, "one puzzle, not 81 lines of 9x9");
    let p = e[0].puzzle.as_ref().unwrap();
    assert_eq!(p.shape().to_string(), "81x81");
    assert_eq!(p.board, puzzle);
    // A first row holding no symbol above 9 (here: empty) is an 81x81 row under a shape line.
    for i in 0..81 {
        puzzle.set(i, 0);
    }
    let text = format!(
        "# shape 81x81\n{}{}",
        ints_block(&puzzle),
        ints_block(&puzzle)
    );
    let r = PuzzleReader::from_text(&text, "big.txt");
    assert_eq!(r.format(), Format::Block);
    let e: Vec<_> = r.collect();
    assert_eq!(e.len(), 2);
    for x in &e {
        assert_eq!(x.puzzle.as_ref().unwrap().board, puzzle);
    }
    // 81 integers up to 9 with no shape line stay a 9x9 puzzle on one line.
    let nine = "0 ".repeat(80) + "5";
    assert_eq!(
        PuzzleReader::from_text(&nine, "n.txt").format(),
        Format::Line
    );
}

/// A model of `harness cnf`'s formula for `solution`: variable `cell * N + s` true exactly when
/// the cell holds s, in SAT-competition `s`/`v` lines.
fn model_of(solution: &Board) -> String {
    let n = solution.shape().side();
    let mut v = vec!["v".to_string()];
    for (cell, &s) in solution.cells().iter().enumerate() {
        for x in 1..=n {
            let var = (cell * n + x) as i64;
            v.push(if x == s as usize { var } else { -var }.to_string());
        }
    }
    v.push("0".into());
    format!("s SATISFIABLE\n{}\n", v.join(" "))
}

#[test]
fn cnf_and_decode_at_other_shapes() {
    let four = "1.3.3.1..1.3.3.1";
    let four_solution = "1234341221434321";
    let six = "# shape 6x6/2x3\n.......3...452.....41..2...4...136..\n";
    let six_solution = "154236632154526341341562265413413625";
    let sixteen = pattern(4);
    let mut sixteen_puzzle = sixteen.clone();
    for i in (0..256).filter(|i| i % 2 == 0) {
        sixteen_puzzle.set(i, 0);
    }
    let dir = tempfile::tempdir().unwrap();
    for (name, arg, stdin, side, givens, solution) in [
        (
            "4x4",
            four.to_string(),
            None,
            4,
            8,
            four_solution.to_string(),
        ),
        (
            "6x6",
            "-".to_string(),
            Some(six),
            6,
            11,
            six_solution.to_string(),
        ),
        (
            "16x16",
            board_line(&sixteen_puzzle),
            None,
            16,
            128,
            board_line(&sixteen),
        ),
    ] {
        let file = dir.path().join(format!("{name}.cnf"));
        let mut cmd = harness();
        cmd.args(["cnf", "--encoding", "full-pairwise", &arg, "-o"])
            .arg(&file);
        if let Some(s) = stdin {
            cmd.write_stdin(s);
        }
        cmd.assert().success();
        let text = std::fs::read_to_string(&file).unwrap();
        let header = text.lines().find(|l| l.starts_with("p ")).unwrap();
        let fields: Vec<&str> = header.split(' ').collect();
        assert_eq!(
            fields[2],
            (side * side * side).to_string(),
            "{name}: {header}"
        );
        let clauses = text
            .lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
            .count();
        assert_eq!(fields[3], clauses.to_string(), "{name}");
        let units = text
            .lines()
            .filter(|l| !l.starts_with('c') && l.split(' ').count() == 2)
            .count();
        assert_eq!(units, givens, "{name}: one unit clause per given");
        // Each given's unit clause is its variable.
        let shape: Shape = if side == 6 {
            "6x6/2x3".parse().unwrap()
        } else {
            Shape::square_for_side(side).unwrap()
        };
        let chars: Vec<u16> = solution
            .chars()
            .map(|c| c.to_digit(36).unwrap() as u16)
            .collect();
        let answer = Board::new(shape, chars).unwrap();
        let model = dir.path().join(format!("{name}.out"));
        std::fs::write(&model, model_of(&answer)).unwrap();
        harness()
            .arg("decode")
            .arg(&model)
            .assert()
            .success()
            .stdout(format!("{solution}\n"));
        let block: String = answer
            .cells()
            .chunks(side)
            .map(|r| {
                let r: Vec<String> = r.iter().map(u16::to_string).collect();
                r.join(" ") + "\n"
            })
            .collect();
        harness()
            .arg("decode")
            .arg(&model)
            .args(["--block", "--shape", &shape.to_string()])
            .assert()
            .success()
            .stdout(block);
    }
    // A 16x16 model read as 9x9 is named a bad model, not a panic.
    let model = dir.path().join("16x16.out");
    harness()
        .arg("decode")
        .arg(&model)
        .args(["--shape", "9x9"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("has no true digit in the model"));
}

/// `cnf`'s default at another shape than 9x9 is the reduced encoding: a variable for each
/// candidate left after the givens' peers lose theirs, counted here by hand on a 4x4 puzzle, and
/// `decode --puzzle` reads its model back (a model built from the solution through the formula's
/// numbering), checked against the givens; without `--puzzle` the message says to give it.
#[test]
fn cnf_reduced_default_and_decode_with_the_puzzle() {
    // Givens r1c1 = 1, r1c2 = 2, r2c1 = 3: 37 candidates, 208 clauses
    // (solvers::sat::Formula's test works both out cell by cell).
    let puzzle = "12..3...........";
    let solution = "1234341223414123";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.cnf");
    harness()
        .args(["cnf", puzzle, "-o"])
        .arg(&file)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "4x4, reduced-pairwise encoding, p cnf 37 208",
        ));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\np cnf 37 208\n"), "{text}");
    let shape = Shape::of_order(2).unwrap();
    let given = Board::new(
        shape,
        puzzle
            .bytes()
            .map(|b| if b == b'.' { 0 } else { u16::from(b - b'0') })
            .collect(),
    )
    .unwrap();
    let answer = Board::new(
        shape,
        solution.bytes().map(|b| u16::from(b - b'0')).collect(),
    )
    .unwrap();
    let formula = solvers::sat::Formula::new("reduced-pairwise".parse().unwrap(), &given);
    let mut v = vec!["v".to_string()];
    for cell in 0..16 {
        for s in 1..=4 {
            if let Some(x) = formula.var(cell, s) {
                v.push(
                    if usize::from(answer.get(cell)) == s {
                        x
                    } else {
                        -x
                    }
                    .to_string(),
                );
            }
        }
    }
    v.push("0".into());
    let model = dir.path().join("p.out");
    std::fs::write(&model, format!("s SATISFIABLE\n{}\n", v.join(" "))).unwrap();
    harness()
        .arg("decode")
        .arg(&model)
        .args(["--puzzle", puzzle])
        .assert()
        .success()
        .stdout(format!("{solution}\n"));
    harness()
        .arg("decode")
        .arg(&model)
        .assert()
        .failure()
        .stderr(predicate::str::contains("give the puzzle with --puzzle"));
    // The same model against another puzzle's givens (r1c1 = 2) is no solution of it.
    harness()
        .arg("decode")
        .arg(&model)
        .args(["--puzzle", "21..3..........."])
        .assert()
        .failure();
}

/// `decode` checks the grid it decodes with the checker: a model edited so that two cells of a
/// row hold one symbol, a model with two cells of a row swapped, and a Latin square's model
/// decoded with boxes each exit 1 naming the broken unit; the good model exits 0.
#[test]
fn decode_refuses_a_grid_that_breaks_a_unit() {
    let dir = tempfile::tempdir().unwrap();
    let decode = |name: &str, grid: &Board, shape: Option<&str>| {
        let model = dir.path().join(format!("{name}.out"));
        std::fs::write(&model, model_of(grid)).unwrap();
        let mut cmd = harness();
        cmd.arg("decode").arg(&model);
        if let Some(s) = shape {
            cmd.args(["--shape", s]);
        }
        cmd.assert()
    };
    let good = pattern(4);
    decode("good", &good, None).code(0);
    let mut same = good.clone();
    same.set(0, good.get(1));
    decode("same", &same, None)
        .code(1)
        .stderr(predicate::str::contains("WRONG:"))
        .stderr(predicate::str::contains("row 1 lacks"));
    let mut swapped = good.clone();
    swapped.set(0, good.get(1));
    swapped.set(1, good.get(0));
    decode("swapped", &swapped, None)
        .code(1)
        .stderr(predicate::str::contains("column 1 lacks"));
    // A cyclic Latin square of order 10: its 2x5 boxes repeat symbols.
    let latin = Board::new(
        Shape::latin(10).unwrap(),
        (0..100)
            .map(|i| ((i / 10 + i % 10) % 10) as u16 + 1)
            .collect(),
    )
    .unwrap();
    decode("latin", &latin, Some("10x10/latin")).code(0);
    decode("latin-boxes", &latin, Some("10x10/2x5"))
        .code(1)
        .stderr(predicate::str::contains("box 1 lacks"));
}

#[test]
fn merge_and_compare_a_run_of_several_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = d.join("mix.txt");
    std::fs::write(
        &data,
        "# shape 4x4\n.4.....3.1.....4\n4....2.3.......2\n..3....212...4..\n\
         # shape 6x6/2x3\n.......3...452.....41..2...4...136..\n..3..56...3..24...35.......1......4.\n\
         ...6...3.5.....6...9...5.....4.1...6...4.3...8...9.5.....7...4...5.....8.3...8...\n",
    )
    .unwrap();
    let run = |extra: &[&str], out: &str| {
        harness()
            .args(["run", "--no-report", "-s", "dlx,hybrid", "-d"])
            .arg(&data)
            .args(extra)
            .arg("-o")
            .arg(d.join(out))
            .assert()
            .success()
            .get_output()
            .stderr
            .clone()
    };
    // `hybrid` takes 9x9 grids only: the run says which puzzles it leaves out.
    let said = String::from_utf8(run(&[], "whole")).unwrap();
    assert!(
        said.contains("mix.txt: 5 puzzles of another order than 9x9, left out by hybrid"),
        "{said}"
    );
    run(&["--shard", "1/2"], "s1");
    run(&["--shard", "2/2"], "s2");
    harness()
        .args(["merge", "--no-report", "-o"])
        .arg(d.join("merged"))
        .arg(d.join("s2"))
        .arg(d.join("s1"))
        .assert()
        .success()
        .stdout(predicate::str::contains("7 rows"));
    let rows = |name: &str| -> Vec<(String, String, String, String, String)> {
        harness::record::load(&d.join(name))
            .unwrap()
            .rows
            .into_iter()
            .map(|r| {
                (
                    r.puzzle,
                    r.solver,
                    r.shape,
                    r.status.to_string(),
                    r.solution,
                )
            })
            .collect()
    };
    assert_eq!(rows("merged"), rows("whole"));
    // compare pairs the groups by dataset x shape x solver.
    let out = harness()
        .arg("compare")
        .arg(d.join("whole"))
        .arg(d.join("merged"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("mix.txt (4x4)"), "{out}");
    assert!(out.contains("(6x6/2x3)"), "{out}");
    assert!(
        out.contains("4 dataset x shape x solver groups; 0 puzzles changed"),
        "{out}"
    );
}

/// The rows of `b` as integers, `blank` for an empty cell, a blank line after.
fn blank_block(b: &Board, blank: &str) -> String {
    let n = b.shape().side();
    let mut out = String::new();
    for row in b.cells().chunks(n) {
        let r: Vec<String> = row
            .iter()
            .map(|&v| match v {
                0 => blank.to_string(),
                v => v.to_string(),
            })
            .collect();
        out.push_str(&r.join(" "));
        out.push('\n');
    }
    out.push('\n');
    out
}

/// `pattern(n)` with two cells in three emptied.
fn holed(n: usize) -> Board {
    let mut b = pattern(n);
    for i in (0..b.cells().len()).filter(|i| i % 3 != 0) {
        b.set(i, 0);
    }
    b
}

/// Integer blocks as people write them: N lines of N integers, `.`, `0` or `-` blank, are ONE
/// puzzle of side N for every square side up to the limit, with no shape line.
#[test]
fn integer_blocks_are_one_puzzle_of_their_side() {
    for n in [4, 5, 6, 7, 8, 9, 10, 11] {
        let puzzle = holed(n);
        for blank in [".", "0", "-"] {
            let text = blank_block(&puzzle, blank);
            let r = PuzzleReader::from_text(&text, "big.txt");
            assert_eq!(r.format(), Format::Block, "{n} {blank}");
            let e: Vec<_> = r.collect();
            assert_eq!(e.len(), 1, "side {}: one puzzle", n * n);
            assert_eq!(e[0].puzzle.as_ref().unwrap().board, puzzle, "{n} {blank}");
        }
    }
}

/// A grid of a side above the limit is ONE error naming the limit (`solvers::MAX_SIDE`), with or
/// without a shape line (or under one of another side): N lines of N integers for N > 400.
#[test]
fn a_side_above_the_limit_is_one_error_naming_it() {
    let limit = solvers::MAX_SIDE;
    for (side, header) in [(401, ""), (401, "# shape 400x400\n"), (441, "")] {
        let row = |r: usize| {
            let v: Vec<String> = (0..side)
                .map(|c| ((r + c) % side + 1).to_string())
                .collect();
            v.join(" ")
        };
        let text: String =
            header.to_string() + &(0..side).map(|r| row(r) + "\n").collect::<String>();
        let e: Vec<_> = PuzzleReader::from_text(&text, "big.txt").collect();
        assert_eq!(e.len(), 1, "{side} {header:?}: {:?}", e.first());
        let msg = e[0].puzzle.as_ref().unwrap_err().to_string();
        assert!(
            msg.contains(&format!("a {side}x{side} grid: its side is above {limit}")),
            "{msg}"
        );
    }
    // One puzzle of a side above the limit on one line: one error too.
    let line: Vec<&str> = vec!["0"; 401 * 401];
    let e: Vec<_> = PuzzleReader::from_text(&line.join(" "), "l.txt").collect();
    assert_eq!(e.len(), 1);
    assert!(e[0].puzzle.is_err());
}

/// Bad integer blocks are each one clear error naming file, line and cell: a short line, a
/// symbol above N, a side whose boxes are not implied (naming the squarest box split and the
/// Latin square).
#[test]
fn bad_integer_blocks_name_file_line_and_cell() {
    let puzzle = holed(10);
    let text = blank_block(&puzzle, ".");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Line 37 (row 37) one cell short.
    let short = lines[36].rsplit_once(' ').unwrap().0.to_string();
    lines[36] = short;
    let e: Vec<_> = PuzzleReader::from_text(&lines.join("\n"), "s.txt").collect();
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].puzzle.as_ref().unwrap_err().to_string(),
        "s.txt:37: block row 37: 99 cells, expected 100 (r37c100 is missing)"
    );
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut row: Vec<&str> = lines[4].split(' ').collect();
    row[6] = "101";
    lines[4] = row.join(" ");
    let e: Vec<_> = PuzzleReader::from_text(&lines.join("\n"), "a.txt").collect();
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].puzzle.as_ref().unwrap_err().to_string(),
        "a.txt:5: block row 5: symbol at r5c7: 101 is above 100"
    );
    let latin = Board::new(
        Shape::latin(50).unwrap(),
        (0..2500)
            .map(|i| ((i / 50 + i % 50) % 50) as u16 + 1)
            .collect(),
    )
    .unwrap();
    let e: Vec<_> = PuzzleReader::from_text(&blank_block(&latin, "."), "f.txt").collect();
    assert_eq!(e.len(), 1, "one error, not 50");
    let msg = e[0].puzzle.as_ref().unwrap_err().to_string();
    assert!(
        msg.starts_with("f.txt:1: 2500 cells make a 50x50 grid")
            && msg.contains("`# shape 50x50/5x10` or `# shape 50x50/latin`"),
        "{msg}"
    );
}

/// 2x2 and 3x3 Latin squares read after their shape line, in every form, the generator's own
/// output included (it was "block has 2 rows, expected 9").
#[test]
fn two_by_two_and_three_by_three_read_after_a_shape_line() {
    let dir = tempfile::tempdir().unwrap();
    for order in ["2", "3"] {
        for format in ["line", "ints", "pls"] {
            let file = dir.path().join(format!("q{order}-{format}.txt"));
            harness()
                .args(["generate", "qwh", "-q", "--count", "3", "--holes", "0.3"])
                .args(["--seed", "1", "--order", order, "--format", format, "-o"])
                .arg(&file)
                .assert()
                .success();
            harness()
                .arg("solve")
                .arg(&file)
                .arg("-o")
                .arg(dir.path().join("out.txt"))
                .assert()
                .success()
                .stderr(predicate::str::contains("read 3, solved 3"));
        }
    }
    for (text, shape) in [
        ("# shape 3x3/latin\n1 0 0\n0 0 0\n0 0 2\n", "3x3/latin"),
        ("# shape 3x3/latin\n1..\n...\n..2\n", "3x3/latin"),
        ("# shape 3x3/latin\n1......2.\n", "3x3/latin"),
        ("# shape 2x2/1x2\n1.\n..\n", "2x2/1x2"),
    ] {
        let e: Vec<_> = PuzzleReader::from_text(text, "t.txt").collect();
        assert_eq!(e.len(), 1, "{text}");
        assert_eq!(
            e[0].puzzle.as_ref().unwrap().shape().to_string(),
            shape,
            "{text}"
        );
    }
}

/// `solve` writes the shape lines its answers need: a 12x12 file, a `# shape 16x16/latin` file,
/// their CSV and integer forms read back as written, and marked entries keep their size (an
/// order-5 `.pls` error is `order 5`, a 16x16 block error 16 rows).
#[test]
fn solve_output_reads_back_with_its_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let solve = |input: &std::path::Path, out: &std::path::Path| {
        harness()
            .arg("solve")
            .arg(input)
            .arg("-o")
            .arg(out)
            .output()
            .unwrap();
        let text = std::fs::read_to_string(out).unwrap();
        let again = harness()
            .arg("solve")
            .arg(out)
            .arg("-o")
            .arg("-")
            .output()
            .unwrap();
        (text, String::from_utf8_lossy(&again.stderr).to_string())
    };
    let twelve = concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/sudoku-12x12.txt");
    let (_, again) = solve(std::path::Path::new(twelve), &dir.path().join("o12.txt"));
    assert!(again.contains("read 30, solved 30"), "{again}");
    // A Latin square of side 16 (one character a cell), and its CSV and integer forms.
    let latin = Board::new(
        Shape::latin(16).unwrap(),
        (0..256)
            .map(|i| ((i / 16 + i % 16) % 16) as u16 + 1)
            .collect(),
    )
    .unwrap();
    // One hole a row and a column (the diagonal): each forced, so one completion.
    let mut puzzle = latin.clone();
    for i in (0..256).filter(|i| i % 17 == 0) {
        puzzle.set(i, 0);
    }
    for (name, text) in [
        (
            "l16.txt",
            format!("# shape 16x16/latin\n{}\n", board_line(&puzzle)),
        ),
        (
            "l16.csv",
            format!("# shape 16x16/latin\npuzzle\n{}\n", board_line(&puzzle)),
        ),
        (
            "l16i.txt",
            format!("# shape 16x16/latin\n{}", ints_block(&puzzle)),
        ),
    ] {
        let input = dir.path().join(name);
        std::fs::write(&input, text).unwrap();
        let out = dir.path().join(format!("out-{name}"));
        let (written, again) = solve(&input, &out);
        let back: Vec<_> = PuzzleReader::from_text(&written, name).collect();
        assert_eq!(back.len(), 1, "{written}");
        let p = back[0].puzzle.as_ref().unwrap();
        assert_eq!(p.shape().to_string(), "16x16/latin", "{name}: {written}");
        assert!(again.contains("read 1, solved 1"), "{name}: {again}");
    }
    // Marked entries keep their size: a 16x16 block whose givens repeat, an order-5 square.
    let mut dup = Board::empty(Shape::of_order(4).unwrap());
    dup.set(0, 3);
    dup.set(5, 3);
    let input = dir.path().join("dup.txt");
    std::fs::write(&input, ints_block(&dup)).unwrap();
    let (written, _) = solve(&input, &dir.path().join("out-dup.txt"));
    let x_rows: Vec<&str> = written.lines().filter(|l| l.starts_with("x ")).collect();
    assert_eq!(x_rows.len(), 16, "{written}");
    assert!(
        x_rows.iter().all(|r| r.split(' ').count() == 16),
        "{written}"
    );
    let back: Vec<_> = PuzzleReader::from_text(&written, "out").collect();
    assert_eq!(back.len(), 1, "{written}");
    assert!(back[0].puzzle.is_err());
    let input = dir.path().join("bad.pls");
    std::fs::write(
        &input,
        "order 5\n0 0 -1 -1 -1\n-1 -1 -1 -1 -1\n-1 -1 -1 -1 -1\n-1 -1 -1 -1 -1\n-1 -1 -1 -1 -1\n",
    )
    .unwrap();
    let (written, _) = solve(&input, &dir.path().join("out.pls"));
    assert!(written.contains("order 5\nx x x x x\n"), "{written}");
    assert!(
        written.contains("pls: symbol 0 given twice in row 1 (r1c1 and r1c2, line 2)"),
        "{written}"
    );
}

/// Wording: a 1- or 4-character line gets a shape hint as a 25-character one does; `# shape abc`
/// is an error as `# shape 12x13` is; `# shape` and several words is a comment.
#[test]
fn short_lines_and_bad_shape_lines_are_named_alike() {
    let seed = "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
    let text = format!(
        "{seed}\n1\n1234\n{}\n# shape abc\n# shape 12x13\n# shape of the grids below\n{seed}\n",
        ".".repeat(25)
    );
    let errs: Vec<String> = PuzzleReader::from_text(&text, "w.txt")
        .filter_map(|e| e.puzzle.err().map(|e| e.to_string()))
        .collect();
    assert_eq!(errs.len(), 5, "{errs:?}");
    assert!(
        errs[0].starts_with("w.txt:2: 1 cell makes a 1x1 grid")
            && errs[0].contains("`# shape 1x1`"),
        "{errs:?}"
    );
    assert!(
        errs[1].starts_with("w.txt:3: 4 cells make a 2x2 grid")
            && errs[1].contains("`# shape 2x2/latin`"),
        "{errs:?}"
    );
    assert!(
        errs[2].starts_with("w.txt:4: 25 cells make a 5x5 grid"),
        "{errs:?}"
    );
    assert!(
        errs[3].starts_with("w.txt:5: shape line \"abc\""),
        "{errs:?}"
    );
    assert!(
        errs[4].starts_with("w.txt:6: shape line \"12x13\""),
        "{errs:?}"
    );
}

/// N lines of N integers with `.` blanks are ONE puzzle of side N for the square sides above
/// 128 too (144x144 with 12x12 boxes, 400x400 with 20x20 boxes), read without a shape line.
#[test]
fn integer_blocks_above_128_are_one_puzzle() {
    for order in [12usize, 20] {
        let side = order * order;
        let row = |r: usize| {
            let v: Vec<String> = (0..side)
                .map(|c| match (r * 7 + c) % 5 {
                    0 | 2 => ".".to_string(),
                    _ => ((r * order + r / order + c) % side + 1).to_string(),
                })
                .collect();
            v.join(" ")
        };
        let text: String = (0..side).map(|r| row(r) + "\n").collect();
        let e: Vec<_> = PuzzleReader::from_text(&text, "big.txt").collect();
        assert_eq!(e.len(), 1, "{side}");
        let board = &e[0].puzzle.as_ref().unwrap().board;
        assert_eq!(board.shape(), solvers::Shape::of_order(order).unwrap());
        let givens = text.split_whitespace().filter(|t| *t != ".").count();
        assert_eq!(board.givens(), givens, "{side}");
    }
}

/// A 144x144 and a 400x400 integer block with a tenth of the cells punched out (scattered by a
/// hash) are each one puzzle, solved by `bitmask-singles` (several-word masks above 128) and
/// checked by the checker.
#[test]
fn punched_144_and_400_blocks_solve_and_check() {
    for n in [12, 20] {
        let mut b = pattern(n);
        for i in 0..b.cells().len() {
            if (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32 & 0xff < 26 {
                b.set(i, 0);
            }
        }
        let text = blank_block(&b, ".");
        let engine = solvers::registry::BuiltinEngine::new(solvers::SolverKind::BitmaskSingles);
        let (out, counts) = solve_text_with(&text, "big.txt", &engine);
        assert!(counts.starts_with("read 1, solved 1,"), "{counts}");
        assert_answers_check(&text, &out, "big.txt");
    }
}
