//! External engines on grids of other shapes: the Python line-protocol example at 16x16 (and
//! a Latin square) over `cmd:`, declared by a solvers file with `shapes = "any"`; `dimacs:` with
//! a stand-in SAT program and with minisat. Every answer is checked by
//! `harness::verify::check_board`; counts agree with dlx.

use harness::execution::registry::Registry;
use harness::verify::check_board;
use solvers::engine::{Engine, Session, Shapes};
use solvers::{Board, Budget, Shape, SolverKind, Status};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The pattern grid of `shape` (boxes: `(c·(row mod r) + row div r + col) mod N + 1`; Latin:
/// cyclic) with every cell whose index is `≡ 0, 1 or 3 mod 5` blanked.
fn puzzle(shape: Shape) -> Board {
    let n = shape.side();
    let cells = (0..n * n)
        .map(|i| {
            let (row, col) = (i / n, i % n);
            let v = match shape.boxes() {
                Some((r, c)) => c * (row % r) + row / r + col,
                None => row + col,
            };
            if matches!(i % 5, 0 | 1 | 3) {
                0
            } else {
                (v % n + 1) as u16
            }
        })
        .collect();
    Board::new(shape, cells).unwrap()
}

/// Solves and counts to 2 with `session`, checking each answer and the count against dlx's.
fn solve_and_count(name: &str, session: &mut dyn Session, shapes: &[Shape]) {
    let mut dlx = SolverKind::Dlx.session();
    let budget = || Budget::with_timeout(Duration::from_secs(60));
    for &shape in shapes {
        let p = puzzle(shape);
        let began = Instant::now();
        let out = session.solve(&p, &budget()).unwrap();
        println!(
            "{name} {shape}: {} givens, solved in {:.1} ms",
            p.givens(),
            began.elapsed().as_secs_f64() * 1e3
        );
        assert_eq!(out.status, Status::Solved, "{name} {shape}");
        check_board(&p, &out.solution.unwrap(), None)
            .unwrap_or_else(|w| panic!("{name} {shape}: {w}"));
        for puzzle in [p.clone(), Board::empty(shape)] {
            let theirs = session.count(&puzzle, 2, &budget()).unwrap();
            let ours = dlx.count(&puzzle, 2, &Budget::unlimited()).unwrap();
            assert!(theirs.complete, "{name} {shape}");
            assert_eq!(theirs.solutions, ours.solutions, "{name} {shape}");
            if let Some(first) = theirs.first {
                check_board(&puzzle, &first, None).unwrap();
            }
        }
    }
}

fn solvers_file(dir: &Path, body: &str) -> PathBuf {
    let path = dir.join("solvers.toml");
    std::fs::write(&path, body).unwrap();
    path
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3: apt-get install python3")]
fn the_python_line_solver_takes_16x16_when_declared() {
    let tmp = tempfile::tempdir().unwrap();
    let script = root().join("examples/line_solver.py");
    let file = solvers_file(
        tmp.path(),
        &format!(
            "[py]\ncmd = \"python3 {}\"\nshapes = \"any\"\n\n[py9]\ncmd = \"python3 {}\"\n",
            script.display(),
            script.display()
        ),
    );
    let registry = Registry::load(Some(&file)).unwrap();
    let engines = registry
        .resolve(&["py".to_string(), "py9".to_string()], false)
        .unwrap();
    assert_eq!(engines[0].info().caps.shapes, Shapes::Any);
    // Not declared: 9x9 only, as before.
    assert_eq!(engines[1].info().caps.shapes, Shapes::Classic);
    let mut session = engines[0].session().unwrap();
    solve_and_count(
        "line_solver.py",
        session.as_mut(),
        &[
            Shape::of_order(4).unwrap(),
            Shape::latin(5).unwrap(),
            Shape::sudoku(2, 3).unwrap(),
        ],
    );
    // 9x9 goes as before: the same request, the same answer.
    let seed: solvers::Grid =
        "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6"
            .parse()
            .unwrap();
    let out = session
        .solve(&Board::from_grid(&seed), &Budget::unlimited())
        .unwrap();
    check_board(&Board::from_grid(&seed), &out.solution.unwrap(), None).unwrap();
}

#[test]
#[cfg_attr(not(has_python3), ignore = "needs python3: apt-get install python3")]
fn dimacs_writes_and_decodes_the_formula_of_every_shape() {
    // The stand-in reads the N³ variables of the full encoding (x(cell, s) = N·cell + s); the
    // real SAT solvers of the other tests solve either encoding, so setting it for the whole
    // process changes none of their answers.
    solvers::sat::set_choice(solvers::sat::EncodingChoice::Fixed(
        solvers::sat::CnfEncoding::FULL_PAIRWISE,
    ));
    let program = root().join("foreign/tests/fixtures/shaped_sat.py");
    let engine = foreign::DimacsEngine::new(
        "shaped",
        vec!["python3".into(), program.display().to_string()],
    );
    assert_eq!(engine.info().caps.shapes, Shapes::Any);
    let mut session = engine.session().unwrap();
    solve_and_count(
        "dimacs (stand-in)",
        session.as_mut(),
        &[
            Shape::of_order(2).unwrap(),
            Shape::sudoku(3, 4).unwrap(),
            Shape::latin(5).unwrap(),
        ],
    );
}

#[test]
#[cfg_attr(not(has_minisat), ignore = "needs minisat: apt-get install minisat")]
fn minisat_solves_16x16_and_latin_squares() {
    let engine = foreign::DimacsEngine::new("minisat", vec!["minisat".into()]);
    let mut session = engine.session().unwrap();
    solve_and_count(
        "minisat",
        session.as_mut(),
        &[
            Shape::of_order(4).unwrap(),
            Shape::of_order(5).unwrap(),
            Shape::latin(10).unwrap(),
        ],
    );
}

/// The shapes the field's engines are raced at: 4x4, 6x6 (2x3 boxes), 9x9, 16x16, a Latin
/// square of order 10.
fn small_orders() -> Vec<Shape> {
    vec![
        Shape::of_order(2).unwrap(),
        Shape::sudoku(2, 3).unwrap(),
        Shape::of_order(3).unwrap(),
        Shape::of_order(4).unwrap(),
        Shape::latin(10).unwrap(),
    ]
}

/// A session of `name` from the shipped solvers.toml, declared for every shape.
fn shipped_session(name: &str) -> Box<dyn Session> {
    let registry = Registry::load(Some(&root().join("solvers.toml"))).unwrap();
    let engines = registry.resolve(&[name.to_string()], false).unwrap();
    assert_eq!(engines[0].info().caps.shapes, Shapes::Any, "{name}");
    engines[0].session().unwrap()
}

#[test]
#[cfg_attr(
    not(all(has_cadical, has_cryptominisat)),
    ignore = "needs cadical and cryptominisat5: apt-get install cadical cryptominisat"
)]
fn cadical_and_cryptominisat_solve_every_shape() {
    for name in ["cadical", "cryptominisat"] {
        solve_and_count(name, shipped_session(name).as_mut(), &small_orders());
    }
}

#[test]
#[cfg_attr(
    not(has_minizinc),
    ignore = "needs minizinc with Gecode: apt-get install minizinc"
)]
fn minizinc_gecode_solves_every_shape() {
    let mut session = shipped_session("minizinc-gecode");
    solve_and_count("minizinc-gecode", session.as_mut(), &small_orders());
}

#[test]
#[cfg_attr(
    not(has_ortools),
    ignore = "needs OR-Tools: python3 -m pip install ortools"
)]
fn cp_sat_solves_every_shape() {
    let mut session = shipped_session("cp-sat");
    solve_and_count("cp-sat", session.as_mut(), &small_orders());
}

/// A file of Latin squares of order 10 with holes, each line a puzzle after its `# shape`.
fn latin_10(dir: &Path) -> PathBuf {
    let path = dir.join("latin-10.txt");
    let mut text = String::from("# shape 10x10/latin\n");
    for k in 0..6 {
        let shape = Shape::latin(10).unwrap();
        let p = puzzle(shape);
        // Turn the pattern grid a little per line: symbol s -> s + k (mod 10), same holes.
        let line: String = (0..100)
            .map(|i| match p.get(i) {
                0 => '.',
                v => char::from_digit(u32::from((v - 1 + k) % 10 + 1), 36)
                    .unwrap()
                    .to_ascii_uppercase(),
            })
            .collect();
        text.push_str(&line);
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
#[cfg_attr(
    not(all(has_cadical, has_cryptominisat, has_minizinc, has_ortools)),
    ignore = "needs cadical, cryptominisat5, minizinc and OR-Tools: see tests/support/prerequisites.rs"
)]
#[cfg_attr(
    all(has_cadical, has_cryptominisat, has_minizinc, has_ortools),
    ignore = "heavy: the field's engines raced beside ours at 4x4, 9x9, 16x16 and Latin 10"
)]
fn the_fields_engines_race_ours_at_small_orders() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let engines = ["cadical", "cryptominisat", "minizinc-gecode", "cp-sat"];
    super::common::harness()
        .current_dir(root())
        .args([
            "run",
            "--quiet",
            "--no-report",
            "-j1",
            "--timeout-ms",
            "60000",
        ])
        .args([
            "--solver",
            &format!("sat,domain-reduction,{}", engines.join(",")),
        ])
        .args(["-d", "sudoku-4x4", "-d", "seed", "-d", "sudoku-16x16", "-d"])
        .arg(latin_10(tmp.path()))
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let mut reader = csv::Reader::from_path(out.join("results.csv")).unwrap();
    let head = reader.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let (solver, status, correct, shape) =
        (col("solver"), col("status"), col("correct"), col("shape"));
    let mut seen = std::collections::BTreeMap::<(String, String), usize>::new();
    for r in reader.records() {
        let r = r.unwrap();
        assert_eq!(&r[status], "solved", "{r:?}");
        assert_eq!(&r[correct], "true", "{r:?}");
        *seen
            .entry((r[solver].to_string(), r[shape].to_string()))
            .or_default() += 1;
    }
    for engine in engines {
        for (shape, puzzles) in [("4x4", 40), ("9x9", 2), ("16x16", 30), ("10x10/latin", 6)] {
            assert_eq!(
                seen.get(&(engine.to_string(), shape.to_string())),
                Some(&puzzles),
                "{engine} at {shape}: {seen:?}"
            );
        }
    }
}
