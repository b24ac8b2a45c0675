//! `sudoku_harness._native`: the compiled core of the Python package `sudoku_harness`.
//!
//! Functions over puzzles given as strings in every form the harness reads (or as lists of ints):
//! solve, count, check, generate, rate, hint, the solver list; batch forms that release the GIL
//! (and spread over cores with rayon when asked); and `race`, a `harness run` whose solvers may
//! be Python callables. Every call into the harness goes through [`bridge`]; Python callables
//! become engines in [`py_engine`]. Bad input raises `ValueError` naming the cell and why; no
//! Rust panic reaches Python (it becomes a `RuntimeError`).

mod bridge;
mod py_engine;

use ::solvers::engine::{Engine, Session};
use ::solvers::{Board, Shape};
use bridge::Solved;
use harness::input::format::Puzzle;
use pyo3::exceptions::{PyRuntimeError, PyTimeoutError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use rayon::prelude::*;
use std::sync::Arc;
use std::time::Duration;

/// Runs `f`, turning a Rust panic into a `RuntimeError` (a panic never crosses into Python).
fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            Err(PyRuntimeError::new_err(format!(
                "internal error in sudoku_harness (please report it): {msg}"
            )))
        }
    }
}

fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// How a puzzle was given, so that answers come back the same way.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Given {
    /// A string: answers are lines (one character a cell).
    Text,
    /// A sequence of ints: answers are lists of ints.
    Ints,
}

/// Reads a puzzle argument: a string in any form the harness reads, or a sequence of N·N ints
/// (0 = empty) of the square shape of that size or of `shape`.
fn read_puzzle(obj: &Bound<'_, PyAny>, shape: Option<&str>) -> PyResult<(Puzzle, Given)> {
    if let Ok(s) = obj.downcast::<PyString>() {
        let text = s.to_cow()?;
        let text = match shape {
            Some(sh) => format!("# shape {sh}\n{text}"),
            None => text.into_owned(),
        };
        return bridge::read(&text)
            .map(|p| (p, Given::Text))
            .map_err(value_error);
    }
    let values: Vec<i64> = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "a puzzle is a str (any form the harness reads) or a list of ints, not {}",
            type_name(obj)
        ))
    })?;
    let n = values.len();
    let side = (n as f64).sqrt().round() as usize;
    if side * side != n || n == 0 {
        return Err(value_error(format!(
            "{n} values: a puzzle is N·N cells (81 for 9x9)"
        )));
    }
    let sh = bridge::shape(shape, side).map_err(value_error)?;
    if sh.cells() != n {
        return Err(value_error(format!(
            "{n} values for a {sh} puzzle of {} cells",
            sh.cells()
        )));
    }
    for (i, &v) in values.iter().enumerate() {
        if v < 0 || v > side as i64 {
            return Err(value_error(format!(
                "value {v} at {}: expected 0 (empty) or 1..={side}",
                ::solvers::board_cell_name(sh, i)
            )));
        }
    }
    let mut text = format!("# shape {sh}\n");
    for row in values.chunks(side) {
        let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        text.push_str(&cells.join(" "));
        text.push('\n');
    }
    bridge::read_named(&text, false)
        .map(|p| (p, Given::Ints))
        .map_err(value_error)
}

/// A Python type's name, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "that".into())
}

/// A board as the caller gave its puzzle: a line, or a list of ints.
fn answer_object(py: Python<'_>, board: &Board, given: Given) -> PyResult<PyObject> {
    Ok(match given {
        Given::Text => bridge::line(board).into_pyobject(py)?.into_any().unbind(),
        Given::Ints => {
            let cells: Vec<u32> = board.cells().iter().map(|&v| v as u32).collect();
            cells.into_pyobject(py)?.into_any().unbind()
        }
    })
}

/// The engine of `solver`, or the default one for `shape`; refuses a shape it does not take.
fn engine_for(solver: Option<&str>, shape: Shape) -> PyResult<Arc<dyn Engine>> {
    let engine = match solver {
        Some(s) => bridge::engine(s).map_err(value_error)?,
        None => bridge::default_engine(shape).map_err(value_error)?,
    };
    bridge::takes(engine.as_ref(), shape).map_err(value_error)?;
    Ok(engine)
}

fn timeout(ms: Option<u64>) -> Option<Duration> {
    ms.filter(|&ms| ms > 0).map(Duration::from_millis)
}

/// Runs `call` on a new session of `engine` with the budget of `timeout_ms`, the GIL released.
///
/// # Errors
/// A session that cannot start, or the error of `call`.
fn in_session<T: Send>(
    py: Python<'_>,
    engine: &Arc<dyn Engine>,
    timeout_ms: Option<u64>,
    call: impl FnOnce(&mut dyn Session, &::solvers::Budget) -> Result<T, String> + Send,
) -> Result<T, String> {
    py.allow_threads(|| {
        let mut session = engine.session().map_err(|e| e.to_string())?;
        call(&mut *session, &bridge::budget(timeout(timeout_ms)))
    })
}

/// solve(puzzle, solver=None, timeout_ms=None, shape=None)
/// --
///
/// Solves one puzzle and returns its solution, checked by the harness's checker: a line (one
/// character a cell) for a puzzle given as a string, a list of ints for one given as a list;
/// None when the puzzle has no solution. The puzzle may be in any form the harness reads (a line
/// of 81 characters with `.` or `0` empty, integers, block form, a CSV row after its header,
/// `.pls`, after a `# shape` line); `shape` names a shape such as "12x12/3x4" or "10x10/latin".
/// `solver` is a built-in name (see solvers()), an entry of ./solvers.toml, or an external spec
/// (lib:, cmd:, dimacs:); None: the champion for 9x9. The GIL is released while solving.
///
/// Raises ValueError for a puzzle that cannot be read (naming the cell and why) or a solver
/// that is unknown or does not take its shape; TimeoutError when `timeout_ms` runs out;
/// RuntimeError when the solver fails or its answer is rejected by the checker.
#[pyfunction]
#[pyo3(signature = (puzzle, solver=None, timeout_ms=None, shape=None))]
fn solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    solver: Option<&str>,
    timeout_ms: Option<u64>,
    shape: Option<&str>,
) -> PyResult<PyObject> {
    guarded(|| {
        let (p, given) = read_puzzle(puzzle, shape)?;
        let engine = engine_for(solver, p.shape())?;
        let solved = in_session(py, &engine, timeout_ms, |session, budget| {
            Ok(bridge::solve(engine.as_ref(), session, &p, budget))
        });
        match solved.map_err(PyRuntimeError::new_err)? {
            Solved::Solution(b) => answer_object(py, &b, given),
            Solved::NoSolution => Ok(py.None()),
            Solved::Timeout => Err(PyTimeoutError::new_err(format!(
                "the budget of {} ms ran out before a solution was found",
                timeout_ms.unwrap_or(0)
            ))),
            Solved::Failed(why) => Err(PyRuntimeError::new_err(why)),
        }
    })
}

/// Solves `puzzles` with `engine` on `threads` threads (1: this thread only; 0: one per core).
fn solve_all(
    engine: &Arc<dyn Engine>,
    puzzles: &[Puzzle],
    timeout: Option<Duration>,
    threads: usize,
) -> Result<Vec<Solved>, String> {
    if threads == 1 {
        let mut session = engine.session().map_err(|e| e.to_string())?;
        return Ok(puzzles
            .iter()
            .map(|p| {
                let budget = bridge::budget(timeout);
                bridge::solve(engine.as_ref(), &mut *session, p, &budget)
            })
            .collect());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    let sessions = harness::execution::sessions::Sessions::new(pool.current_num_threads(), 1);
    Ok(pool.install(|| {
        puzzles
            .par_iter()
            .map(|p| {
                sessions.with(0, engine.as_ref(), |s| match s {
                    Ok(session) => {
                        let budget = bridge::budget(timeout);
                        bridge::solve(engine.as_ref(), session, p, &budget)
                    }
                    Err(e) => Solved::Failed(e),
                })
            })
            .collect()
    }))
}

/// Reads every puzzle of a sequence; a bad one raises ValueError naming its index.
fn read_puzzles(
    puzzles: &Bound<'_, PyAny>,
    shape: Option<&str>,
) -> PyResult<(Vec<Puzzle>, Vec<Given>)> {
    if puzzles.downcast::<PyString>().is_ok() {
        return Err(PyTypeError::new_err(
            "give a list of puzzles (a single puzzle goes to solve())",
        ));
    }
    let mut out = Vec::new();
    let mut given = Vec::new();
    for (i, item) in puzzles.try_iter()?.enumerate() {
        let (p, g) = read_puzzle(&item?, shape).map_err(|e| {
            Python::with_gil(|py| {
                if e.is_instance_of::<PyValueError>(py) {
                    value_error(format!("puzzle {i}: {}", e.value(py)))
                } else {
                    e
                }
            })
        })?;
        out.push(p);
        given.push(g);
    }
    Ok((out, given))
}

/// solve_many(puzzles, solver=None, timeout_ms=None, threads=1, shape=None)
/// --
///
/// Solves every puzzle of a sequence, as solve() does, and returns the solutions in order (None
/// where a puzzle has no solution or its budget ran out). The GIL is released while the puzzles
/// are solved; `threads` spreads them over worker threads (0: one per core; 1, the default: this
/// thread, as `harness run -j 1`).
///
/// Raises ValueError naming the first puzzle that cannot be read (its index, cell and why), and
/// RuntimeError when the solver fails or an answer is rejected by the checker.
#[pyfunction]
#[pyo3(signature = (puzzles, solver=None, timeout_ms=None, threads=1, shape=None))]
fn solve_many(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    solver: Option<&str>,
    timeout_ms: Option<u64>,
    threads: usize,
    shape: Option<&str>,
) -> PyResult<Py<PyList>> {
    guarded(|| {
        let (ps, given) = read_puzzles(puzzles, shape)?;
        let mut engines: Vec<(Shape, Arc<dyn Engine>)> = Vec::new();
        for p in &ps {
            if !engines.iter().any(|(s, _)| *s == p.shape()) {
                engines.push((p.shape(), engine_for(solver, p.shape())?));
            }
        }
        let t = timeout(timeout_ms);
        let solved = py.allow_threads(|| -> Result<Vec<Solved>, String> {
            if engines.len() == 1 {
                return solve_all(&engines[0].1, &ps, t, threads);
            }
            // Mixed shapes: each shape's puzzles with its engine, answers back in order.
            let mut out: Vec<Option<Solved>> = ps.iter().map(|_| None).collect();
            for (shape, engine) in &engines {
                let idx: Vec<usize> = (0..ps.len()).filter(|&i| ps[i].shape() == *shape).collect();
                let some: Vec<Puzzle> = idx.iter().map(|&i| ps[i].clone()).collect();
                for (i, s) in idx.into_iter().zip(solve_all(engine, &some, t, threads)?) {
                    out[i] = Some(s);
                }
            }
            Ok(out.into_iter().flatten().collect())
        });
        let solved = solved.map_err(PyRuntimeError::new_err)?;
        let list = PyList::empty(py);
        for (i, (s, g)) in solved.iter().zip(&given).enumerate() {
            match s {
                Solved::Solution(b) => list.append(answer_object(py, b, *g)?)?,
                Solved::NoSolution | Solved::Timeout => list.append(py.None())?,
                Solved::Failed(why) => {
                    return Err(PyRuntimeError::new_err(format!("puzzle {i}: {why}")))
                }
            }
        }
        Ok(list.unbind())
    })
}

/// count(puzzle, limit=2, solver=None, timeout_ms=None, shape=None)
/// --
///
/// Counts the puzzle's solutions up to `limit` (2 tells "one" from "several") with a counting
/// solver (default: the champion for 9x9). Returns the count; a count equal to `limit` means
/// "at least". Raises ValueError for a bad puzzle or a solver that does not count or take its
/// shape, TimeoutError when `timeout_ms` runs out before the count is done.
#[pyfunction]
#[pyo3(signature = (puzzle, limit=2, solver=None, timeout_ms=None, shape=None))]
fn count(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    limit: u64,
    solver: Option<&str>,
    timeout_ms: Option<u64>,
    shape: Option<&str>,
) -> PyResult<u64> {
    guarded(|| {
        let (p, _) = read_puzzle(puzzle, shape)?;
        let engine = engine_for(solver, p.shape())?;
        let counted = in_session(py, &engine, timeout_ms, |session, budget| {
            bridge::count(engine.as_ref(), session, &p, limit.max(1), budget)
        });
        match counted {
            Ok((n, true)) => Ok(n),
            Ok((n, false)) => Err(PyTimeoutError::new_err(format!(
                "the budget of {} ms ran out: at least {n} solutions found",
                timeout_ms.unwrap_or(0)
            ))),
            Err(why) if why.contains("does not count") => Err(value_error(why)),
            Err(why) => Err(PyRuntimeError::new_err(why)),
        }
    })
}

/// Reads an answer for `puzzle`: a string or a list of ints of its shape (consistency is the
/// checker's business, not the reader's).
fn read_answer(puzzle: &Puzzle, answer: &Bound<'_, PyAny>) -> PyResult<Board> {
    let cells = py_engine::answer_cells(answer, puzzle.shape())
        .map_err(|e| value_error(e.to_string().replacen("protocol: answer", "answer", 1)))?;
    bridge::board(puzzle.shape(), cells).map_err(value_error)
}

/// why_wrong(puzzle, answer, shape=None)
/// --
///
/// The checker's verdict on an answer: None when it is right (every cell filled with 1..N,
/// every given kept, every row, column and box holding each symbol once), else why it is wrong,
/// naming the cell or unit. A puzzle given as CSV with a solution column is judged by the
/// harness's rule: a different valid answer is right (the puzzle has several solutions).
#[pyfunction]
#[pyo3(signature = (puzzle, answer, shape=None))]
fn why_wrong(
    puzzle: &Bound<'_, PyAny>,
    answer: &Bound<'_, PyAny>,
    shape: Option<&str>,
) -> PyResult<Option<String>> {
    guarded(|| {
        let (p, _) = read_puzzle(puzzle, shape)?;
        let a = read_answer(&p, answer)?;
        Ok(bridge::check(&p, &a).err())
    })
}

/// check(puzzle, answer, shape=None)
/// --
///
/// True when `answer` solves `puzzle` (see why_wrong() for the reason when it does not).
/// Raises ValueError for a puzzle that cannot be read or an answer that is not a grid of its
/// shape.
#[pyfunction]
#[pyo3(signature = (puzzle, answer, shape=None))]
fn check(
    puzzle: &Bound<'_, PyAny>,
    answer: &Bound<'_, PyAny>,
    shape: Option<&str>,
) -> PyResult<bool> {
    why_wrong(puzzle, answer, shape).map(|w| w.is_none())
}

/// What to generate, from the Python arguments.
fn make_of(
    kind: &str,
    shape: &str,
    order: Option<usize>,
    clues: Option<usize>,
    holes: f64,
    balanced: bool,
) -> PyResult<(bridge::Make, Shape)> {
    let sh = match (kind, order) {
        ("qwh", Some(n)) => bridge::shape(Some(&format!("{n}x{n}/latin")), n),
        _ => bridge::shape(Some(shape), 9),
    }
    .map_err(value_error)?;
    let make = match kind {
        "grid" => bridge::Make::Grid,
        "puzzle" => bridge::Make::Puzzle { clues },
        "qwh" => {
            if !(0.0..=1.0).contains(&holes) {
                return Err(value_error(format!(
                    "holes={holes}: the share of cells emptied is between 0 and 1"
                )));
            }
            let latin = bridge::shape(Some(&format!("{0}x{0}/latin", sh.side())), 0)
                .map_err(value_error)?;
            return Ok((bridge::Make::Qwh { holes, balanced }, latin));
        }
        other => {
            return Err(value_error(format!(
                "kind {other:?}: expected \"grid\", \"puzzle\" or \"qwh\""
            )))
        }
    };
    Ok((make, sh))
}

/// generate(kind="puzzle", seed=0, index=0, shape="9x9", clues=None, order=None, holes=0.42, balanced=False)
/// --
///
/// Makes one grid, puzzle or quasigroup with holes, the same for the same arguments on every
/// machine (item `index` of the batch seeded by `seed`), and returns it as a line (one
/// character a cell, `.` empty; integers above 35x35).
///
/// kind: "grid" (a solved grid of `shape`), "puzzle" (a puzzle of `shape` with exactly one
/// solution: minimal, or down to `clues` givens), or "qwh" (a random Latin square of order
/// `order`, or of the side of `shape`, with a share `holes` of its cells emptied, `balanced`: as
/// many in every row and column). Raises ValueError for a shape, clue count or kind the generators refuse, or a clue
/// target not reached.
#[pyfunction]
#[pyo3(signature = (kind="puzzle", seed=0, index=0, shape="9x9", clues=None, order=None, holes=0.42, balanced=false))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    kind: &str,
    seed: u64,
    index: u64,
    shape: &str,
    clues: Option<usize>,
    order: Option<usize>,
    holes: f64,
    balanced: bool,
) -> PyResult<String> {
    guarded(|| {
        let (make, sh) = make_of(kind, shape, order, clues, holes, balanced)?;
        let (board, _) = py
            .allow_threads(|| bridge::generate(make, sh, seed, index))
            .map_err(value_error)?;
        Ok(bridge::line(&board))
    })
}

/// generate_many(n, kind="puzzle", seed=0, shape="9x9", clues=None, order=None, holes=0.42, balanced=False, threads=1)
/// --
///
/// Items 0..n of the batch generate() makes for these arguments, in order, made with the GIL
/// released on `threads` threads (0: one per core); the list is the same whatever `threads`.
#[pyfunction]
#[pyo3(signature = (n, kind="puzzle", seed=0, shape="9x9", clues=None, order=None, holes=0.42, balanced=false, threads=1))]
#[allow(clippy::too_many_arguments)]
fn generate_many(
    py: Python<'_>,
    n: u64,
    kind: &str,
    seed: u64,
    shape: &str,
    clues: Option<usize>,
    order: Option<usize>,
    holes: f64,
    balanced: bool,
    threads: usize,
) -> PyResult<Vec<String>> {
    guarded(|| {
        let (make, sh) = make_of(kind, shape, order, clues, holes, balanced)?;
        let made = py.allow_threads(|| -> Result<Vec<String>, String> {
            let one = |i: u64| bridge::generate(make, sh, seed, i).map(|(b, _)| bridge::line(&b));
            if threads == 1 {
                return (0..n).map(one).collect();
            }
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| e.to_string())?;
            pool.install(|| (0..n).into_par_iter().map(one).collect())
        });
        made.map_err(value_error)
    })
}

/// A rating as a dict.
fn rating_dict<'py>(py: Python<'py>, r: &bridge::Rated) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("score", r.score)?;
    d.set_item("level", &r.level)?;
    d.set_item("hardest", &r.hardest)?;
    d.set_item("guesses", r.guesses)?;
    let t = PyDict::new(py);
    for (name, n) in &r.techniques {
        t.set_item(name, n)?;
    }
    d.set_item("techniques", t)?;
    Ok(d)
}

/// rate(puzzle)
/// --
///
/// Rates a 9x9 puzzle as `harness rate` does (HoDoKu's scale): a dict with "score", "level"
/// ("Easy" ... "Extreme", "Beyond" when a guess was needed), "hardest" (the hardest technique
/// used), "guesses" and "techniques" (steps of each technique used). Raises ValueError for
/// another shape or a puzzle without exactly one solution.
#[pyfunction]
fn rate<'py>(py: Python<'py>, puzzle: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    guarded(|| {
        let (p, _) = read_puzzle(puzzle, None)?;
        let r = py.allow_threads(|| bridge::rate(&p)).map_err(value_error)?;
        rating_dict(py, &r)
    })
}

/// rate_many(puzzles, threads=1)
/// --
///
/// Rates every puzzle of a sequence, as rate() does, with the GIL released on `threads` threads
/// (0: one per core). Returns one dict per puzzle, in order; a puzzle that cannot be rated gets
/// {"error": why} instead of raising.
#[pyfunction]
#[pyo3(signature = (puzzles, threads=1))]
fn rate_many(py: Python<'_>, puzzles: &Bound<'_, PyAny>, threads: usize) -> PyResult<Py<PyList>> {
    guarded(|| {
        let (ps, _) = read_puzzles(puzzles, None)?;
        let rated = py.allow_threads(|| -> Result<Vec<Result<bridge::Rated, String>>, String> {
            if threads == 1 {
                return Ok(ps.iter().map(bridge::rate).collect());
            }
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| e.to_string())?;
            Ok(pool.install(|| ps.par_iter().map(bridge::rate).collect()))
        });
        let list = PyList::empty(py);
        for r in rated.map_err(PyRuntimeError::new_err)? {
            match r {
                Ok(r) => list.append(rating_dict(py, &r)?)?,
                Err(why) => {
                    let d = PyDict::new(py);
                    d.set_item("error", why)?;
                    list.append(d)?;
                }
            }
        }
        Ok(list.unbind())
    })
}

/// hint(puzzle)
/// --
///
/// The next step a person would take on a 9x9 board, as `harness hint` describes it: the
/// technique, its level and cost, the cells and candidates that prove it, what it places or
/// eliminates. None when the board is full. Raises ValueError for a board without solution or
/// with several (no step leads to one answer), or of another shape.
#[pyfunction]
fn hint(py: Python<'_>, puzzle: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    guarded(|| {
        let (p, _) = read_puzzle(puzzle, None)?;
        py.allow_threads(|| bridge::hint(&p)).map_err(value_error)
    })
}

/// solvers()
/// --
///
/// The built-in solvers, in the harness's order: dicts with "name", "description", "shapes"
/// ("9x9" or "any") and "counts" (it counts solutions; count() needs one that does).
#[pyfunction]
#[pyo3(name = "solvers")]
fn list_solvers(py: Python<'_>) -> PyResult<Py<PyList>> {
    let list = PyList::empty(py);
    for s in bridge::solvers() {
        let d = PyDict::new(py);
        d.set_item("name", s.name)?;
        d.set_item("description", s.description)?;
        d.set_item("shapes", s.shapes)?;
        d.set_item("counts", s.counts)?;
        list.append(d)?;
    }
    Ok(list.unbind())
}

/// A JSON value as a Python object (rows of results.csv).
fn json_to_py(py: Python<'_>, v: &serde_json::Value) -> PyResult<PyObject> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.into_pyobject(py)?.into_any().unbind(),
            (_, Some(u), _) => u.into_pyobject(py)?.into_any().unbind(),
            (_, _, Some(f)) => f.into_pyobject(py)?.into_any().unbind(),
            _ => py.None(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(json_to_py(py, x)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

/// The engine of one item of `race`'s solver list: a name or spec, a callable, or a (name,
/// callable) pair.
fn race_engine(item: &Bound<'_, PyAny>) -> PyResult<Vec<Arc<dyn Engine>>> {
    if let Ok(s) = item.downcast::<PyString>() {
        let spec = s.to_cow()?;
        if spec == "all" {
            return bridge::solvers()
                .iter()
                .map(|s| bridge::engine(&s.name).map_err(value_error))
                .collect();
        }
        return Ok(vec![bridge::engine(&spec).map_err(value_error)?]);
    }
    let (name, func) = match item.downcast::<PyTuple>() {
        Ok(t) if t.len() == 2 => (Some(t.get_item(0)?.extract::<String>()?), t.get_item(1)?),
        _ => (None, item.clone()),
    };
    if !func.is_callable() {
        return Err(PyTypeError::new_err(format!(
            "a solver is a name (str), a callable str -> str | None, or a (name, callable) \
             pair, not {}",
            type_name(&func)
        )));
    }
    let attr = |a: &str| -> Option<String> { func.getattr(a).ok()?.extract().ok() };
    let qualname = attr("__qualname__").unwrap_or_else(|| type_name(&func));
    let module = attr("__module__").unwrap_or_default();
    let full = if module.is_empty() {
        qualname.clone()
    } else {
        format!("{module}.{qualname}")
    };
    let name = name
        .or_else(|| attr("__name__"))
        .unwrap_or_else(|| qualname.clone());
    if name.is_empty() || name.contains([',', '\n', '"']) {
        return Err(value_error(format!(
            "solver name {name:?}: give a name without commas, quotes or line ends, e.g. \
             (\"mine\", func)"
        )));
    }
    Ok(vec![Arc::new(py_engine::PythonEngine::new(
        name,
        full,
        func.unbind(),
    ))])
}

/// race(solvers, puzzles, timeout_ms=1000, threads=1, out=None, report=None, max_nodes=None, repeat=1, name="puzzles")
/// --
///
/// Races solvers over puzzles as `harness run` does, with the same budget, checker and
/// statistics, and returns its rows (the columns of results.csv) as a list of dicts, ready for
/// pandas.DataFrame(rows) or csv.DictWriter.
///
/// solvers: built-in names ("hybrid", "dlx", ... or "all"), entries of ./solvers.toml, external
/// specs ("cmd:./my-solver", "lib:PATH:SYMBOL", "dimacs:minisat"), and Python callables taking
/// the puzzle as one line (81 characters for 9x9, `.` empty) and returning the solved grid (a str,
/// or a list of ints) or None for "no solution"; a (name, callable) pair names a callable. A
/// callable is called in this process and timed around the call alone; one that raises gives an
/// "error" row, one that returns something else than a grid an "error" row, a grid that is not a
/// solution a "wrong" row, and the race goes on. A call cannot be interrupted: an answer after the
/// deadline is a "timeout" row.
///
/// puzzles: a shipped dataset's name ("seed", "named-hard", "minimal-200", ...) or a file path,
/// or a list of puzzles (str in any form, or lists of ints), raced as a dataset called `name`.
/// threads: worker threads (1 by default: the callables share one interpreter lock; None or 0: one
/// per core). out: the run folder to write (results.csv, summary.csv, run.json, and the report unless
/// report=False), as `harness run --out`; None: nothing is kept. The GIL is released while the
/// built-in solvers run.
#[pyfunction]
#[pyo3(signature = (solvers, puzzles, timeout_ms=1000, threads=Some(1), out=None, report=None, max_nodes=None, repeat=1, name="puzzles"))]
#[allow(clippy::too_many_arguments)]
fn race(
    py: Python<'_>,
    solvers: &Bound<'_, PyAny>,
    puzzles: &Bound<'_, PyAny>,
    timeout_ms: u64,
    threads: Option<usize>,
    out: Option<std::path::PathBuf>,
    report: Option<bool>,
    max_nodes: Option<u64>,
    repeat: u32,
    name: &str,
) -> PyResult<Py<PyList>> {
    guarded(|| {
        let mut engines: Vec<Arc<dyn Engine>> = Vec::new();
        if solvers.downcast::<PyString>().is_ok() {
            engines = race_engine(solvers)?;
        } else {
            for item in solvers.try_iter()? {
                engines.extend(race_engine(&item?)?);
            }
        }
        if engines.is_empty() {
            return Err(value_error("no solver to race"));
        }
        for (i, e) in engines.iter().enumerate() {
            let n = &e.info().name;
            if engines[..i].iter().any(|o| o.info().name == *n) {
                return Err(value_error(format!(
                    "two solvers are named {n:?} (rows are keyed by solver name); name one with \
                     a (name, callable) pair"
                )));
            }
        }
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || "-_.".contains(c))
        {
            return Err(value_error(format!(
                "name {name:?}: a dataset name is letters, digits, '-', '_' and '.'"
            )));
        }
        let scratch = tempfile::tempdir()
            .map_err(|e| PyRuntimeError::new_err(format!("cannot make a temporary folder: {e}")))?;
        let datasets = if let Ok(s) = puzzles.downcast::<PyString>() {
            vec![s.to_cow()?.into_owned()]
        } else if let Ok(path) = puzzles.extract::<std::path::PathBuf>() {
            vec![path.display().to_string()]
        } else {
            let (ps, _) = read_puzzles(puzzles, None)?;
            if ps.is_empty() {
                return Err(value_error("no puzzle to race"));
            }
            // Named as the dataset is to be: a file's name is its dataset's.
            let file = scratch.path().join(name);
            bridge::write_dataset(&file, &ps)
                .map_err(|e| PyRuntimeError::new_err(format!("cannot write the puzzles: {e}")))?;
            vec![file.display().to_string()]
        };
        let keep = out.is_some();
        let args = bridge::RaceArgs {
            datasets,
            timeout_ms,
            max_nodes,
            threads: threads.filter(|&n| n > 0),
            out: out.unwrap_or_else(|| scratch.path().join("run")),
            report: report.unwrap_or(keep),
            repeat: repeat.max(1),
        };
        let rows = py
            .allow_threads(|| bridge::race(&args, engines))
            .map_err(|e| value_error(format!("{e:#}")))?;
        let list = PyList::empty(py);
        for r in &rows {
            list.append(json_to_py(py, r)?)?;
        }
        Ok(list.unbind())
    })
}

/// The compiled module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(why_wrong, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(generate_many, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(rate_many, m)?)?;
    m.add_function(wrap_pyfunction!(hint, m)?)?;
    m.add_function(wrap_pyfunction!(list_solvers, m)?)?;
    m.add_function(wrap_pyfunction!(race, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
