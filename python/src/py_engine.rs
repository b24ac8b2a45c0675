//! A Python callable as a harness engine, so that `race` runs it beside the built-in and external
//! solvers under the same runner: the same budget, timing (wall and CPU of the solving thread,
//! around the call alone, in this process), checker and statistics.
//!
//! The callable gets the puzzle as one line (one character a cell, `.` empty; integers separated
//! by spaces above 35x35) and returns the solved grid (a string in the same form, or with `0`
//! for empty, whitespace ignored; or a list of N·N ints), or `None` for "no solution". A call
//! that raises is an `error` row naming the exception; an answer that cannot be read as a grid
//! of the puzzle's shape is an `error` row saying why; a readable grid that is not a solution is
//! a `wrong` row (the checker names the cell or unit). A call cannot be interrupted: an answer
//! that comes after the deadline is a `timeout`, and the overrun shows in its time.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use solvers::engine::{
    BudgetMode, Caps, Engine, EngineError, EngineInfo, ExternalOrigin, NodeUnit, Origin, Session,
    Shapes,
};
use solvers::{Board, Budget, Outcome, Shape, Stats, Status};
use std::any::Any;
use std::sync::Arc;
use std::time::Instant;

/// Where a Python engine comes from: the callable's module and qualified name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PythonOrigin {
    /// `module.qualname` of the callable.
    pub qualname: String,
}

impl ExternalOrigin for PythonOrigin {
    fn kind(&self) -> &'static str {
        "python"
    }

    fn out_of_process(&self) -> bool {
        false
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same_as(&self, other: &dyn ExternalOrigin) -> bool {
        other
            .as_any()
            .downcast_ref::<PythonOrigin>()
            .is_some_and(|o| o == self)
    }
}

/// A Python callable `str -> str | None` as an engine.
pub struct PythonEngine {
    info: EngineInfo,
    func: Arc<Py<PyAny>>,
}

impl PythonEngine {
    /// The engine of `func`, shown as `name`.
    pub fn new(name: String, qualname: String, func: Py<PyAny>) -> PythonEngine {
        PythonEngine {
            info: EngineInfo {
                name,
                description: format!("Python callable {qualname}"),
                version: None,
                origin: Origin::external(PythonOrigin { qualname }),
                caps: Caps {
                    shapes: Shapes::Any,
                    counts: false,
                    gives_solution: true,
                    budget: BudgetMode::OverrunRecorded,
                    nodes: NodeUnit::None,
                    guesses: false,
                    // One interpreter lock: calls on several threads take turns.
                    parallel: false,
                },
            },
            func: Arc::new(func),
        }
    }
}

impl Engine for PythonEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn session(&self) -> Result<Box<dyn Session>, EngineError> {
        Ok(Box::new(PythonSession {
            func: self.func.clone(),
        }))
    }
}

/// One worker thread's calls of the callable.
struct PythonSession {
    func: Arc<Py<PyAny>>,
}

impl PythonSession {
    /// Calls the function on `puzzle`'s line and reads its answer as a board of its shape.
    fn call(&self, puzzle: &Board, budget: &Budget) -> Result<Outcome, EngineError> {
        let line = crate::bridge::line(puzzle);
        let shape = puzzle.shape();
        let answer = Python::with_gil(|py| -> Result<Option<Vec<solvers::Symbol>>, EngineError> {
            let result = self
                .func
                .bind(py)
                .call1((line,))
                .map_err(|e| EngineError::Crashed(raised(py, &e)))?;
            if result.is_none() {
                return Ok(None);
            }
            answer_cells(&result, shape).map(Some)
        })?;
        if budget.deadline().is_some_and(|d| Instant::now() >= d) {
            return Ok(Outcome::unsolved(Status::Timeout, Stats::default()));
        }
        match answer {
            None => Ok(Outcome::unsolved(Status::NoSolution, Stats::default())),
            Some(cells) => {
                let board = Board::new(shape, cells)
                    .map_err(|e| EngineError::Protocol(format!("answer: {e}")))?;
                Ok(Outcome::solved(board, Stats::default()))
            }
        }
    }
}

/// `raised ValueError: message` for an exception (its traceback is not kept).
fn raised(py: Python<'_>, e: &PyErr) -> String {
    let kind = e
        .get_type(py)
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "an exception".into());
    format!("raised {kind}: {}", e.value(py))
}

/// The cells of an answer of `shape`: a string of N·N symbols (`1`-`9`, `A` = 10 ..., `.` or `0`
/// empty; whitespace and `|` `+` `-` separators ignored), N·N integers separated by spaces or
/// commas, or a sequence of N·N ints.
pub fn answer_cells(
    result: &Bound<'_, PyAny>,
    shape: Shape,
) -> Result<Vec<solvers::Symbol>, EngineError> {
    let n = shape.cells();
    let side = shape.side();
    let bad = |why: String| EngineError::Protocol(format!("answer {why}"));
    if let Ok(s) = result.downcast::<PyString>() {
        let text = s.to_cow().map_err(|_| bad("is not valid text".into()))?;
        return text_cells(&text, shape).map_err(bad);
    }
    if result.downcast::<PyList>().is_ok() || result.downcast::<PyTuple>().is_ok() {
        let values: Vec<i64> = result.extract().map_err(|_| {
            bad("is a sequence of something else than ints: return a str or a list of ints".into())
        })?;
        if values.len() != n {
            return Err(bad(format!(
                "has {} values; a {shape} grid has {n}",
                values.len()
            )));
        }
        return values
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                solvers::Symbol::try_from(v)
                    .ok()
                    .filter(|&v| (v as usize) <= side)
                    .ok_or_else(|| {
                        bad(format!(
                            "value {v} at {} is outside 0..={side}",
                            cell(shape, i)
                        ))
                    })
            })
            .collect();
    }
    let kind = result
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    Err(bad(format!(
        "is a {kind}: return a str (the solved grid), a list of ints, or None for no solution"
    )))
}

/// The cell name `rRcC` of cell `i`.
fn cell(shape: Shape, i: usize) -> String {
    solvers::board_cell_name(shape, i)
}

/// The cells of an answer given as text.
fn text_cells(text: &str, shape: Shape) -> Result<Vec<solvers::Symbol>, String> {
    let n = shape.cells();
    let side = shape.side();
    let symbols: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '|' | '+' | '-'))
        .collect();
    if symbols.len() == n {
        return symbols
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let v = match c {
                    '.' | '0' | '_' => Some(0),
                    '1'..='9' => Some(solvers::Symbol::from(c as u8 - b'0')),
                    'A'..='Z' => Some(solvers::Symbol::from(c as u8 - b'A' + 10)),
                    'a'..='z' => Some(solvers::Symbol::from(c as u8 - b'a' + 10)),
                    _ => None,
                };
                v.filter(|&v| (v as usize) <= side).ok_or_else(|| {
                    format!("has {c:?} at {}: not a symbol of {shape}", cell(shape, i))
                })
            })
            .collect();
    }
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() == n {
        return tokens
            .iter()
            .enumerate()
            .map(|(i, t)| {
                t.parse::<solvers::Symbol>()
                    .ok()
                    .filter(|&v| (v as usize) <= side)
                    .ok_or_else(|| {
                        format!("has {t:?} at {}: not a symbol of {shape}", cell(shape, i))
                    })
            })
            .collect();
    }
    let shown: String = text.chars().take(40).collect();
    let more = if text.chars().count() > 40 { "..." } else { "" };
    Err(format!(
        "{shown:?}{more} is not a {shape} grid: {} symbols, expected {n}",
        symbols.len()
    ))
}

impl Session for PythonSession {
    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Result<Outcome, EngineError> {
        self.call(puzzle, budget)
    }
}
