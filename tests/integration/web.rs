//! The web board: the JSON API in-process (tower's `oneshot` on the axum router, no socket), and
//! end-to-end in headless Chromium (`#[ignore]`d: run with `cargo test --test web web::e2e --
//! --ignored`; they FAIL, saying what to install, when chromium or chromedriver is missing).

use super::common::cells;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use harness::verify;
use harness::web::{autofill, server};
use serde_json::{json, Value};
use solvers::{Board, Budget, Grid, Shape, SolverKind};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tower::ServiceExt;

/// seed-example of datasets/seed.csv and its verified solution.
const SEED: &str =
    "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
const SEED_SOLUTION: &str =
    "729364158341825967865971423536192874918547632274683519652438791493716285187259346";

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Sends one request to the app in-process; returns the status and the body (JSON, or a string).
fn call(method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    rt().block_on(async {
        let mut req = Request::builder().method(method).uri(uri);
        let body = match body {
            Some(b) => {
                req = req.header("content-type", "application/json");
                Body::from(b.to_string())
            }
            None => Body::empty(),
        };
        let res = server::router()
            .oneshot(req.body(body).unwrap())
            .await
            .unwrap();
        let status = res.status();
        let bytes = axum::body::to_bytes(res.into_body(), 10 << 20)
            .await
            .unwrap();
        let v = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        (status, v)
    })
}

/// The solutions of `puzzle` counted to 2 by `kind` (which must count and take its shape).
fn count_with(kind: SolverKind, puzzle: &Board) -> u64 {
    let c = kind
        .session()
        .count(puzzle, 2, &Budget::with_timeout(Duration::from_secs(30)))
        .expect("a counting solver taking the shape");
    assert!(c.complete, "{kind} finished counting");
    c.solutions
}

#[test]
fn api_solve_returns_a_verified_solution_with_every_solver() {
    for kind in SolverKind::ALL {
        let (st, v) = call(
            "POST",
            "/api/solve",
            Some(json!({"puzzle": SEED, "solver": kind.name()})),
        );
        assert_eq!(st, StatusCode::OK, "{kind}: {v}");
        assert_eq!(v["status"], "solved", "{kind}");
        assert_eq!(v["check"], "ok", "{kind}");
        let sol = v["solution"].as_str().unwrap();
        assert_eq!(
            verify::check(&cells(SEED), &cells(sol), Some(&cells(SEED_SOLUTION))),
            Ok(())
        );
        assert!(v["stats"]["nodes"].as_u64().unwrap() >= 1, "{kind}");
        assert!(v.get("shape").is_none(), "9x9 answers are unchanged: {v}");
        assert!(v["time_us"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn api_rejects_a_bad_puzzle_with_400_naming_the_cell() {
    let dup = format!("5..5{}", ".".repeat(77));
    for route in ["/api/solve", "/api/count", "/api/candidates"] {
        let (st, v) = call("POST", route, Some(json!({ "puzzle": dup })));
        assert_eq!(st, StatusCode::BAD_REQUEST, "{route}");
        assert_eq!(
            v["error"], "bad puzzle: digit 5 given twice in row 1 (r1c1 and r1c4)",
            "{route}"
        );
    }
    // A box-only repeat, a bad character, a wrong length.
    let mut boxdup = ".".repeat(81);
    boxdup.replace_range(0..1, "3");
    boxdup.replace_range(20..21, "3");
    let (st, v) = call("POST", "/api/solve", Some(json!({ "puzzle": boxdup })));
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(
        v["error"],
        "bad puzzle: digit 3 given twice in box 1 (r1c1 and r3c3)"
    );
    let mut bad = ".".repeat(81);
    bad.replace_range(10..11, "x");
    let (st, v) = call("POST", "/api/solve", Some(json!({ "puzzle": bad })));
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("(r2c2)"), "{v}");
    let (st, v) = call("POST", "/api/solve", Some(json!({ "puzzle": "123" })));
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("3 characters"), "{v}");
    // Not the JSON asked for, an unknown solver, a timeout out of range: 400, never 500.
    let (st, _) = call("POST", "/api/solve", Some(json!({ "puzzle": 5 })));
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let (st, v) = call(
        "POST",
        "/api/solve",
        Some(json!({"puzzle": SEED, "solver": "nope"})),
    );
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("unknown solver"));
    let (st, _) = call(
        "POST",
        "/api/solve",
        Some(json!({"puzzle": SEED, "timeout_ms": 0})),
    );
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let (st, _) = call("GET", "/?puzzle=55", None);
    assert_eq!(st, StatusCode::BAD_REQUEST);
}

#[test]
fn api_generate_gives_unique_puzzles_counted_by_two_solvers() {
    for body in [
        json!({"givens": 30, "seed": 7}),
        json!({"seed": 8}),
        json!({"source": "dataset", "dataset": "named-hard", "seed": 3}),
    ] {
        let (st, v) = call("POST", "/api/generate", Some(body.clone()));
        assert_eq!(st, StatusCode::OK, "{body}: {v}");
        let p = Grid::parse_line(v["puzzle"].as_str().unwrap()).unwrap();
        let sol = cells(v["solution"].as_str().unwrap());
        assert_eq!(verify::check(p.cells(), &sol, None), Ok(()), "{body}");
        assert_eq!(v["givens"].as_u64().unwrap() as usize, p.givens());
        // Unique: counted to 2 by two independent solvers, and by the API.
        assert_eq!(
            count_with(SolverKind::DomainReduction, &Board::from_grid(&p)),
            1,
            "{body}"
        );
        assert_eq!(
            count_with(SolverKind::BitmaskSingles, &Board::from_grid(&p)),
            1,
            "{body}"
        );
        let (st, c) = call(
            "POST",
            "/api/count",
            Some(json!({"puzzle": v["puzzle"], "limit": 2})),
        );
        assert_eq!(st, StatusCode::OK);
        assert_eq!(c["solutions"], 1);
        assert_eq!(c["unique"], true);
        if body.get("givens").is_some() {
            assert_eq!(p.givens(), 30, "{body}");
        }
        if body.get("source").is_none() && body.get("givens").is_none() {
            // Minimal: removing any given breaks uniqueness.
            for i in (0..81).filter(|&i| p.get(i) != 0) {
                let mut q = p;
                q.set(i, 0);
                assert_eq!(
                    count_with(SolverKind::BitmaskSingles, &Board::from_grid(&q)),
                    2,
                    "given {i}"
                );
            }
        }
    }
    // Givens out of range are refused as `generate --clues` refuses them, at every shape.
    for (body, says) in [
        (
            json!({"givens": 5}),
            "givens 5: must be in 17..=81 for 9x9 puzzles (no 9x9 puzzle with fewer than 17 \
             givens has a unique solution)",
        ),
        (
            json!({"givens": 82}),
            "givens 82: must be in 17..=81 for 9x9 puzzles (a 9x9 grid has 81 cells)",
        ),
        (
            json!({"givens": 2, "shape": "4x4"}),
            "givens 2: must be in 3..=16 for 4x4 puzzles (with fewer than 3 givens two symbols \
             never appear, and swapping them gives a second solution)",
        ),
        (
            json!({"givens": 300, "shape": "16x16"}),
            "givens 300: must be in 15..=256 for 16x16 puzzles (a 16x16 grid has 256 cells)",
        ),
    ] {
        let (st, v) = call("POST", "/api/generate", Some(body.clone()));
        assert_eq!(st, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["error"], says, "{body}");
    }
}

#[test]
fn api_count_and_candidates() {
    // An empty grid has many solutions: the count stops at the limit.
    let (st, v) = call(
        "POST",
        "/api/count",
        Some(json!({"puzzle": ".".repeat(81), "limit": 5})),
    );
    assert_eq!(st, StatusCode::OK);
    assert_eq!(v["solutions"], 5);
    assert_eq!(v["unique"], false);
    // Candidates of the seed puzzle: every empty cell keeps its solution digit, filled cells none.
    let (st, v) = call("POST", "/api/candidates", Some(json!({ "puzzle": SEED })));
    assert_eq!(st, StatusCode::OK, "{v}");
    let cands = v["candidates"].as_array().unwrap();
    assert_eq!(cands.len(), 81);
    let (p, s) = (cells(SEED), cells(SEED_SOLUTION));
    for i in 0..81 {
        let c = cands[i].as_str().unwrap();
        if p[i] != 0 {
            assert_eq!(c, "", "cell {i}");
        } else {
            assert!(c.contains((b'0' + s[i]) as char), "cell {i}: {c}");
        }
    }
    assert!(v["contradiction"].is_null());
    // A board the rules prove stuck: row 1 holds 1-8 and column 9 holds a 9.
    let stuck = format!("12345678{}9{}", ".".repeat(9), ".".repeat(63));
    let (st, v) = call("POST", "/api/candidates", Some(json!({ "puzzle": stuck })));
    assert_eq!(st, StatusCode::OK);
    assert!(v["contradiction"].is_string(), "{v}");
}

#[test]
fn page_is_a_table_of_81_inputs_with_readonly_givens() {
    let (st, v) = call("GET", &format!("/?puzzle={SEED}"), None);
    assert_eq!(st, StatusCode::OK);
    let html = v.as_str().unwrap();
    assert_eq!(html.matches("<input class=\"cell").count(), 81);
    assert_eq!(html.matches(" readonly>").count(), 22);
    assert!(html.contains("id=\"r1c1\""));
    assert!(!html.contains("http://") && !html.contains("https://"));
    for k in SolverKind::ALL {
        assert!(html.contains(&format!("<option value=\"{}\"", k.name())));
    }
    let (st, js) = call("GET", "/app.js", None);
    assert_eq!(st, StatusCode::OK);
    assert!(!js.as_str().unwrap().contains("http"));
    let (st, _) = call("GET", "/nope", None);
    assert_eq!(st, StatusCode::NOT_FOUND);
}

// ---------------------------------------------------------------------------------------------
// Shapes other than 9x9.

/// The first puzzle of a shipped dataset file, with its stated solution when the line has one.
fn shipped_line(file: &str) -> (String, Option<String>) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("datasets")
        .join(file);
    let text = std::fs::read_to_string(path).unwrap();
    let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let mut words = line.split_whitespace();
    let puzzle = words.next().unwrap().to_string();
    (puzzle, words.next().map(str::to_string))
}

/// A solved grid of side `side`: the pattern grid of boxes `rows x cols` (row r is row 0
/// shifted), or the cyclic Latin square; the cells of every third index emptied.
fn pattern_puzzle(shape: Shape) -> (Board, Board) {
    let n = shape.side();
    let full: Vec<u16> = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            let v = match shape.boxes() {
                Some((br, bc)) => (bc * (r % br) + r / br + c) % n,
                None => (r + c) % n,
            };
            v as u16 + 1
        })
        .collect();
    let full = Board::new(shape, full).unwrap();
    assert_eq!(verify::check_board(&full, &full, None), Ok(()), "{shape}");
    let mut puzzle = full.clone();
    for i in (0..n * n).filter(|i| i % 3 == 0) {
        puzzle.set(i, 0);
    }
    (puzzle, full)
}

/// Solves `puzzle` through the API (with `shape` when given) and checks the answer with the
/// checker (and against `expected` when given); returns the answer.
fn solve_shaped(puzzle: &str, shape: Option<&str>, solver: Option<&str>) -> Value {
    let mut body = json!({ "puzzle": puzzle });
    if let Some(s) = shape {
        body["shape"] = json!(s);
    }
    if let Some(s) = solver {
        body["solver"] = json!(s);
    }
    let (st, v) = call("POST", "/api/solve", Some(body));
    assert_eq!(st, StatusCode::OK, "{shape:?} {solver:?}: {v}");
    assert_eq!(v["status"], "solved", "{shape:?} {solver:?}: {v}");
    assert_eq!(v["check"], "ok", "{shape:?} {solver:?}");
    v
}

/// The board of a puzzle line read by the format reader as `shape`.
fn board(text: &str, shape: Shape) -> Board {
    harness::input::format::read_puzzle(text, Some(shape))
        .unwrap()
        .board
}

#[test]
fn api_solves_every_shape_with_every_solver_taking_it() {
    let (p4, s4) = shipped_line("sudoku-4x4.txt");
    let (p6, s6) = shipped_line("sudoku-6x6.txt");
    let (latin, _) = pattern_puzzle(Shape::latin(7).unwrap());
    let latin = harness::input::format::board_line(&latin);
    let cases = [
        ("4x4", p4, s4),
        ("6x6/2x3", p6, s6),
        ("7x7/latin", latin, None),
    ];
    for (name, puzzle, stated) in cases {
        let shape: Shape = name.parse().unwrap();
        let given = board(&puzzle, shape);
        let stated = stated.map(|s| board(&s, shape));
        let takers: Vec<SolverKind> = SolverKind::ALL
            .iter()
            .copied()
            .filter(|k| k.caps().shapes.takes(shape))
            .collect();
        assert!(takers.len() >= 5, "{name}: {takers:?}");
        for kind in takers {
            let v = solve_shaped(&puzzle, Some(name), Some(kind.name()));
            assert_eq!(v["shape"], name, "{kind}");
            let answer = board(v["solution"].as_str().unwrap(), shape);
            assert_eq!(
                verify::check_board(&given, &answer, stated.as_ref()),
                Ok(()),
                "{name} {kind}"
            );
        }
    }
}

#[test]
fn api_solves_16x16_and_25x25_without_a_shape_and_by_name() {
    // gecode-16's first puzzle; its size says 16x16.
    let (p16, _) = shipped_line("gecode-16x16.txt");
    let shape16: Shape = "16x16".parse().unwrap();
    for (shape, solver) in [(None, None), (Some("16x16"), Some("large"))] {
        let v = solve_shaped(&p16, shape, solver);
        assert_eq!(v["shape"], "16x16");
        let answer = board(v["solution"].as_str().unwrap(), shape16);
        assert_eq!(
            verify::check_board(&board(&p16, shape16), &answer, None),
            Ok(())
        );
    }
    // A 25x25 puzzle (a pattern grid, a third of it emptied) in both forms: one character a
    // cell, and integers separated by spaces.
    let shape25 = Shape::of_order(5).unwrap();
    let (puzzle, _) = pattern_puzzle(shape25);
    let integers: Vec<String> = puzzle.cells().iter().map(u16::to_string).collect();
    for text in [
        harness::input::format::board_line(&puzzle),
        integers.join(" "),
    ] {
        let v = solve_shaped(&text, None, None);
        assert_eq!(v["shape"], "25x25");
        assert_eq!(v["solver"], "dlx");
        let answer = board(v["solution"].as_str().unwrap(), shape25);
        assert_eq!(verify::check_board(&puzzle, &answer, None), Ok(()));
    }
    // Larger than the board draws: a 36x36 puzzle in integers, through the API.
    let shape36 = Shape::of_order(6).unwrap();
    let (puzzle, _) = pattern_puzzle(shape36);
    let integers: Vec<String> = puzzle.cells().iter().map(u16::to_string).collect();
    let v = solve_shaped(&integers.join(" "), Some("36x36"), Some("large"));
    let answer = board(v["solution"].as_str().unwrap(), shape36);
    assert_eq!(verify::check_board(&puzzle, &answer, None), Ok(()));
}

#[test]
fn api_counts_candidates_and_generates_at_other_shapes() {
    let (p4, s4) = shipped_line("sudoku-4x4.txt");
    let shape: Shape = "4x4".parse().unwrap();
    let given = board(&p4, shape);
    let solution = board(&s4.unwrap(), shape);
    let (st, v) = call("POST", "/api/count", Some(json!({"puzzle": p4})));
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(
        (v["solutions"].clone(), v["unique"].clone()),
        (json!(1), json!(true))
    );
    assert_eq!(count_with(SolverKind::BitmaskSingles, &given), 1);
    // Candidates by peer elimination: every empty cell keeps its solution's symbol.
    let (st, v) = call("POST", "/api/candidates", Some(json!({"puzzle": p4})));
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["method"], harness::web::api::PEER_METHOD);
    let cands = v["candidates"].as_array().unwrap();
    assert_eq!(cands.len(), 16);
    for (i, c) in cands.iter().enumerate() {
        let c = c.as_str().unwrap();
        if given.get(i) != 0 {
            assert_eq!(c, "", "cell {i}");
            continue;
        }
        assert!(
            c.contains((b'0' + solution.get(i) as u8) as char),
            "cell {i}: {c}"
        );
        // No symbol given in the cell's row is a candidate.
        for j in (i / 4 * 4..i / 4 * 4 + 4).filter(|&j| given.get(j) != 0) {
            assert!(
                !c.contains((b'0' + given.get(j) as u8) as char),
                "cell {i}: {c}"
            );
        }
    }
    // A generated 6x6 (2x3) puzzle: its solution checked, unique by two counting solvers.
    let body = json!({"shape": "6x6/2x3", "seed": 11});
    let (st, v) = call("POST", "/api/generate", Some(body));
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["shape"], "6x6/2x3");
    let shape6: Shape = "6x6/2x3".parse().unwrap();
    let p = board(v["puzzle"].as_str().unwrap(), shape6);
    let sol = board(v["solution"].as_str().unwrap(), shape6);
    assert_eq!(verify::check_board(&p, &sol, None), Ok(()));
    assert_eq!(count_with(SolverKind::Dlx, &p), 1);
    assert_eq!(count_with(SolverKind::BitmaskSingles, &p), 1);
    // A named dataset of another shape: a puzzle of its shape (Gecode's sets state no solution).
    let body = json!({"source": "dataset", "dataset": "gecode-16", "seed": 2});
    let (st, v) = call("POST", "/api/generate", Some(body));
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["shape"], "16x16");
    assert!(v["solution"].is_null());
    assert_eq!(v["puzzle"].as_str().unwrap().len(), 256);
}

#[test]
fn api_names_what_is_wrong_with_a_shape_or_its_cells() {
    let (p16, _) = shipped_line("gecode-16x16.txt");
    let err = |body: Value| {
        let (st, v) = call("POST", "/api/solve", Some(body.clone()));
        assert_eq!(st, StatusCode::BAD_REQUEST, "{body}: {v}");
        v["error"].as_str().unwrap().to_string()
    };
    assert_eq!(
        err(json!({"puzzle": p16, "shape": "16x16/3x5"})),
        "bad shape: 3x5 boxes do not tile a 16x16 grid (3·5 = 15 cells, not 16)"
    );
    assert!(err(json!({"puzzle": p16, "shape": "hex"})).starts_with("bad shape: \"hex\" is not"));
    assert_eq!(
        err(json!({"puzzle": "1234", "shape": "16x16"})),
        "bad puzzle: 4 cells, expected 256 for 16x16"
    );
    // A 16x16 line holding Z, a symbol repeated in a box, a solver for 9x9 only.
    let z = format!("Z{}", &p16[1..]);
    assert_eq!(
        err(json!({ "puzzle": z })),
        "bad puzzle: symbol at column 1 (r1c1): Z = 35 is above 16"
    );
    let mut dup = ".".repeat(256);
    dup.replace_range(0..1, "G");
    dup.replace_range(17..18, "G");
    assert_eq!(
        err(json!({ "puzzle": dup })),
        "bad puzzle: digit 16 given twice in box 1 (r1c1 and r2c2)"
    );
    let e = err(json!({"puzzle": p16, "solver": "hybrid"}));
    assert!(
        e.starts_with("solver hybrid does not take 16x16 puzzles; solvers that do: ")
            && e.contains("dlx"),
        "{e}"
    );
    assert!(err(json!({"puzzle": ".".repeat(36)})).contains("give its shape"));
    // Hints are 9x9 only; the board draws up to 25x25.
    let (st, v) = call("POST", "/api/hint", Some(json!({ "puzzle": p16 })));
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(
        v["error"].as_str().unwrap().contains("9x9 grids only"),
        "{v}"
    );
    let (st, v) = call("GET", "/board?shape=36x36", None);
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("/api/solve"), "{v}");
}

#[test]
fn board_is_drawn_at_every_picker_shape() {
    for name in server::PICKER_SHAPES {
        let shape: Shape = name.parse().unwrap();
        let (st, v) = call("GET", &format!("/board?shape={name}"), None);
        assert_eq!(st, StatusCode::OK, "{name}");
        let html = v.as_str().unwrap();
        let n = shape.side();
        assert_eq!(html.matches("<input class=\"cell").count(), n * n, "{name}");
        assert!(html.contains(&format!("id=\"r{n}c{n}\"")), "{name}");
        // One thick right border per box edge inside a row, one thick bottom per box edge
        // inside a column; none in a Latin square.
        let (rows, cols) = shape
            .boxes()
            .map_or((0, 0), |(r, c)| (n / r - 1, n / c - 1));
        let right = html.matches("class=\"box-r").count();
        let bottom = html.matches("box-b\"").count();
        assert_eq!((right, bottom), (cols * n, rows * n), "{name}");
    }
    let (p16, _) = shipped_line("gecode-16x16.txt");
    let (st, v) = call("GET", &format!("/?shape=16x16&puzzle={p16}"), None);
    assert_eq!(st, StatusCode::OK);
    let html = v.as_str().unwrap();
    assert_eq!(html.matches("<input class=\"cell").count(), 256);
    assert!(html.contains("<option value=\"16x16\" selected>"));
    assert!(html.contains("data-shapes=\"9x9\"") && html.contains("data-shapes=\"any\""));
}

/// The `min` and `max` of the page's givens input, and the board's `data-givens-min` and
/// `data-givens-max`, as numbers.
fn givens_bounds(html: &str, min: &str, max: &str) -> (usize, usize) {
    let value = |attr: &str| -> usize {
        let start = html
            .find(&format!("{attr}=\""))
            .unwrap_or_else(|| panic!("{attr} in {html}"))
            + attr.len()
            + 2;
        let end = start + html[start..].find('"').unwrap();
        html[start..end]
            .parse()
            .unwrap_or_else(|_| panic!("{attr} is a number"))
    };
    (value(min), value(max))
}

#[test]
fn givens_range_comes_from_the_server_at_every_shape() {
    for name in server::PICKER_SHAPES {
        let shape: Shape = name.parse().unwrap();
        let n = shape.side();
        // 17..=81 at 9x9 (no 16-clue Sudoku), N-1..=N*N elsewhere.
        let want = if *name == "9x9" {
            (17, 81)
        } else {
            (n - 1, n * n)
        };
        let (st, v) = call("GET", &format!("/board?shape={name}"), None);
        assert_eq!(st, StatusCode::OK, "{name}");
        let board = v.as_str().unwrap();
        let got = givens_bounds(board, "data-givens-min", "data-givens-max");
        assert_eq!(got, want, "{name}");
        let range = harness::generate::clue_range(shape);
        assert_eq!(got, (*range.start(), *range.end()), "{name}");
        // The page opened on that shape: its givens input has the same range.
        let (st, v) = call("GET", &format!("/?shape={name}"), None);
        assert_eq!(st, StatusCode::OK, "{name}");
        let page = v.as_str().unwrap();
        let input = &page[page.find("<input id=\"givens\"").expect("a givens input")..];
        let input = &input[..input.find('>').unwrap()];
        assert_eq!(givens_bounds(input, "min", "max"), want, "{name}: {input}");
    }
    // The script takes the range of each board it draws (the shape picker redraws the board).
    let (_, js) = call("GET", "/app.js", None);
    let js = js.as_str().unwrap();
    assert!(
        js.contains("board.dataset.givensMin") && js.contains("board.dataset.givensMax"),
        "app.js"
    );
}

// ---------------------------------------------------------------------------------------------
// End to end, in headless Chromium.

/// Fails (not skips) when the browser is missing, saying what to install.
fn require_browser() {
    for bin in ["chromedriver", "chromium"] {
        let ok = Command::new(bin)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(
            ok,
            "`{bin}` is not installed: the end-to-end web test needs a browser; {}",
            autofill::INSTALL_HINT
        );
    }
}

/// `harness serve --port 0`, killed on drop.
struct Served {
    child: Child,
    url: String,
}

impl Served {
    fn start() -> Served {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("harness"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("harness serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://127.0.0.1:"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        Served { child, url }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn shots_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-e2e");
    std::fs::create_dir_all(&d).unwrap();
    d
}

async fn page_cells(client: &fantoccini::Client) -> [u8; 81] {
    let els = client
        .find_all(fantoccini::Locator::Css("#board input.cell"))
        .await
        .unwrap();
    assert_eq!(els.len(), 81);
    let mut out = [0u8; 81];
    for (i, e) in els.iter().enumerate() {
        let v = e.prop("value").await.unwrap().unwrap_or_default();
        out[i] = v.parse().unwrap_or(0);
    }
    out
}

async fn wait_status(client: &fantoccini::Client, prefix: &str) -> String {
    for _ in 0..100 {
        let t = client
            .find(fantoccini::Locator::Id("status"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        if t.starts_with(prefix) {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("status never started with {prefix:?}");
}

/// No cell of the board is marked as repeating a symbol of its units.
async fn assert_no_conflicts(client: &fantoccini::Client) {
    let conflicts = client
        .find_all(fantoccini::Locator::Css("#board input.conflict"))
        .await
        .unwrap();
    assert!(conflicts.is_empty());
}

async fn save_shot(client: &fantoccini::Client, name: &str) -> PathBuf {
    let path = shots_dir().join(name);
    std::fs::write(&path, client.screenshot().await.unwrap()).unwrap();
    eprintln!("screenshot: {}", path.display());
    path
}

#[test]
#[ignore = "needs chromium and chromium-driver: cargo test --test web web::e2e -- --ignored"]
fn e2e_board_new_puzzle_solve_and_autofill_in_headless_chromium() {
    require_browser();
    let served = Served::start();
    rt().block_on(async {
        let browser = autofill::Browser::open(None).await.expect("browser opens");
        let c = &browser.client;

        // "new puzzle" (generator, 30 givens), then "solve".
        c.goto(&served.url).await.unwrap();
        c.find(fantoccini::Locator::Id("new"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_status(c, "generator").await;
        let puzzle = page_cells(c).await;
        assert_eq!(puzzle.iter().filter(|&&v| v != 0).count(), 30);
        save_shot(c, "after-new-puzzle.png").await;

        // "candidates": pencil marks in the empty cells.
        c.find(fantoccini::Locator::Id("candidates"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_status(c, "Candidates by domain-reduction").await;
        let marks = c
            .find_all(fantoccini::Locator::Css("#board .marks"))
            .await
            .unwrap();
        // An empty cell whose row holds a given (a random 30-given puzzle can
        // leave a row with no givens at all).
        let empty = (0..81)
            .find(|&i| puzzle[i] == 0 && (0..9).any(|c| puzzle[i / 9 * 9 + c] != 0))
            .unwrap();
        assert!(!marks[empty].text().await.unwrap().trim().is_empty());
        save_shot(c, "after-candidates.png").await;

        // A digit typed twice in a row is highlighted as a conflict.
        let row = empty / 9;
        let given = (row * 9..row * 9 + 9).find(|&j| puzzle[j] != 0).unwrap();
        let els = c
            .find_all(fantoccini::Locator::Css("#board input.cell"))
            .await
            .unwrap();
        els[empty].click().await.unwrap();
        els[empty]
            .send_keys(&puzzle[given].to_string())
            .await
            .unwrap();
        let class = els[empty].attr("class").await.unwrap().unwrap();
        assert!(class.contains("conflict"), "{class}");
        save_shot(c, "conflict.png").await;
        c.find(fantoccini::Locator::Id("solve"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let status = wait_status(c, "Solved by").await;
        assert!(
            status.contains("nodes") && status.contains("checker: ok"),
            "{status}"
        );
        let solved = page_cells(c).await;
        assert_eq!(verify::check(&puzzle, &solved, None), Ok(()));
        save_shot(c, "after-solve.png").await;

        // autofill on a known puzzle; then read the cells ourselves and check them.
        c.goto(&format!("{}?puzzle={SEED}", served.url))
            .await
            .unwrap();
        let report = autofill::fill_page(c, &autofill::Selectors::default())
            .await
            .expect("autofill succeeds");
        assert_eq!(report.typed, 81 - 22);
        assert_eq!(report.unique, Some(true));
        let page = page_cells(c).await;
        assert_eq!(
            verify::check(&cells(SEED), &page, Some(&cells(SEED_SOLUTION))),
            Ok(())
        );
        assert_no_conflicts(c).await;
        save_shot(c, "after-autofill.png").await;
        browser.close().await;
    });
}

#[test]
#[ignore = "needs chromium and chromium-driver: cargo test --test web web::e2e -- --ignored"]
fn e2e_autofill_command_on_served_board_and_on_another_layout() {
    require_browser();
    let served = Served::start();
    let shot = shots_dir().join("autofill-cli.png");
    let out = super::common::harness()
        .args(["autofill", "--url", &served.url, "--screenshot"])
        .arg(&shot)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("ok: the page holds the solution"),
        "{stdout}"
    );
    assert!(shot.exists());

    // A static page of another layout: the defaults find no board; --table/--cell do.
    let fixture =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/other-layout.html");
    let url = format!("file://{}", fixture.display());
    let out = super::common::harness()
        .args(["autofill", "--url", &url])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no board on the page"));
    let out = super::common::harness()
        .args([
            "autofill",
            "--url",
            &url,
            "--table",
            "table.puzzle-grid",
            "--cell",
            "input.sq",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The Wikipedia example's solution (datasets/named-hard.csv, wikipedia-example).
    assert!(stdout.contains(
        "page now holds: 534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    ));

    // A page that throws away a typed digit: the read-back check catches it, exit 1.
    let broken = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken-cell.html");
    let out = super::common::harness()
        .args(["autofill", "--url", &format!("file://{}", broken.display())])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("r1c2 is not filled"));

    // An unsolvable board: a clear error, exit 2.
    let stuck = format!("12345678{}9{}", ".".repeat(9), ".".repeat(63));
    let out = super::common::harness()
        .args([
            "autofill",
            "--url",
            &format!("{}?puzzle={stuck}", served.url),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the board has no solution"));
}

/// Where the board screenshots of every shape go: target/screenshots/.
fn screenshots_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("screenshots");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A screenshot of the page scrolled to its top, nothing focused, under target/screenshots/.
async fn top_shot(client: &fantoccini::Client, name: &str) {
    client
        .execute(
            "window.scrollTo(0, 0); document.activeElement.blur();",
            Vec::new(),
        )
        .await
        .unwrap();
    let shot = screenshots_dir().join(name);
    std::fs::write(&shot, client.screenshot().await.unwrap()).unwrap();
    eprintln!("screenshot: {}", shot.display());
}

/// Picks `shape` in the page's shape list and waits for its empty board.
async fn pick_shape(client: &fantoccini::Client, shape: &str) {
    client
        .find(fantoccini::Locator::Id("shape"))
        .await
        .unwrap()
        .select_by_value(shape)
        .await
        .unwrap();
    wait_status(client, &format!("empty {shape} board")).await;
}

/// The board's cells as one line (`.` for an empty cell), whatever its shape.
async fn page_line(client: &fantoccini::Client) -> String {
    let els = client
        .find_all(fantoccini::Locator::Css("#board input.cell"))
        .await
        .unwrap();
    let mut out = String::new();
    for e in els {
        let v = e.prop("value").await.unwrap().unwrap_or_default();
        out.push_str(if v.is_empty() { "." } else { &v });
    }
    out
}

#[test]
#[ignore = "needs chromium and chromium-driver: cargo test --test web web::e2e -- --ignored"]
fn e2e_board_picks_16x16_pastes_a_gecode_puzzle_and_solves_it() {
    require_browser();
    let served = Served::start();
    let (p16, _) = shipped_line("gecode-16x16.txt");
    let shape16: Shape = "16x16".parse().unwrap();
    rt().block_on(async {
        let browser = autofill::Browser::open(None).await.expect("browser opens");
        let c = &browser.client;
        c.set_window_size(1400, 1000).await.unwrap();
        c.goto(&served.url).await.unwrap();
        let find = |id: &'static str| c.find(fantoccini::Locator::Id(id));

        // The givens input follows the shape of the board drawn: 17..=81 at 9x9, N-1..=N*N.
        let givens_range = || async {
            let input = find("givens").await.unwrap();
            (
                input.prop("min").await.unwrap().unwrap(),
                input.prop("max").await.unwrap().unwrap(),
            )
        };
        assert_eq!(givens_range().await, ("17".into(), "81".into()));

        // The picker draws an empty 16x16 board; the pasted puzzle is loaded and counted.
        pick_shape(c, "16x16").await;
        assert_eq!(page_line(c).await, ".".repeat(256));
        assert_eq!(givens_range().await, ("15".into(), "256".into()));
        find("puzzle-text")
            .await
            .unwrap()
            .send_keys(&p16)
            .await
            .unwrap();
        find("load").await.unwrap().click().await.unwrap();
        let status = wait_status(c, "loaded").await;
        assert!(status.ends_with("1 solution."), "{status}");
        assert_eq!(page_line(c).await, p16);
        // A solver for 9x9 only is not offered.
        let hybrid = c
            .find(fantoccini::Locator::Css("#solver option[value=hybrid]"))
            .await
            .unwrap();
        assert_eq!(
            hybrid.prop("disabled").await.unwrap().as_deref(),
            Some("true")
        );
        find("solve").await.unwrap().click().await.unwrap();
        let status = wait_status(c, "Solved by").await;
        assert!(status.contains("checker: ok"), "{status}");
        let answer = board(&page_line(c).await, shape16);
        assert_eq!(
            verify::check_board(&board(&p16, shape16), &answer, None),
            Ok(())
        );
        assert_no_conflicts(c).await;
        top_shot(c, "board-16x16.png").await;

        // 6x6 (2x3 boxes): a generated puzzle; symbols above 6 are not taken; solved, checked.
        pick_shape(c, "6x6/2x3").await;
        assert_eq!(givens_range().await, ("5".into(), "36".into()));
        find("new").await.unwrap().click().await.unwrap();
        wait_status(c, "generator").await;
        let shape6: Shape = "6x6/2x3".parse().unwrap();
        let p6 = page_line(c).await;
        let given = board(&p6, shape6);
        let empty = p6.find('.').unwrap();
        let els = c
            .find_all(fantoccini::Locator::Css("#board input.cell"))
            .await
            .unwrap();
        assert_eq!(els.len(), 36);
        els[empty].click().await.unwrap();
        for refused in ["7", "a"] {
            els[empty].send_keys(refused).await.unwrap();
            assert_eq!(els[empty].prop("value").await.unwrap().as_deref(), Some(""));
        }
        find("solve").await.unwrap().click().await.unwrap();
        wait_status(c, "Solved by dlx").await;
        let answer = board(&page_line(c).await, shape6);
        assert_eq!(verify::check_board(&given, &answer, None), Ok(()));
        find("check").await.unwrap().click().await.unwrap();
        wait_status(c, "Solved: every cell is right").await;

        // 25x25: a Gecode puzzle opened by address, with candidates.
        let (p25, _) = shipped_line("gecode-25x25.txt");
        c.goto(&format!("{}?shape=25x25&puzzle={p25}", served.url))
            .await
            .unwrap();
        assert_eq!(page_line(c).await, p25);
        top_shot(c, "board-25x25.png").await;
        find("candidates").await.unwrap().click().await.unwrap();
        wait_status(c, "Candidates by peer elimination").await;
        top_shot(c, "board-25x25-candidates.png").await;
        browser.close().await;
    });
}
