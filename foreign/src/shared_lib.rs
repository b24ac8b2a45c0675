//! `lib:` engines: a shared library with tdoku's adapter signature, loaded at run time and called
//! in-process, so a solve of a microsecond is timed as the built-in solvers' are.
//!
//! The signature (tdoku's `src/all_solvers.h`, shared by its 20-odd solver adapters):
//!
//! ```c
//! size_t f(const char *puzzle,     /* 81 chars, '1'-'9' given, '.' empty, NUL-terminated */
//!          size_t limit,           /* stop after this many solutions */
//!          uint32_t configuration, /* solver-specific flags */
//!          char *solution,         /* 81 chars out (tdoku writes it only when limit == 1) */
//!          size_t *num_guesses);   /* out: guesses made */
//! /* returns the number of solutions found, at most limit */
//! ```
//!
//! Such solvers keep their search state in globals, so the calls into one library file are
//! serialized by a lock that every engine and session on that file shares (keyed by the file's
//! canonical path: the dynamic loader maps a file once, however often it is opened). A C call
//! cannot be interrupted: an answer that comes back after the budget's deadline is recorded as a
//! timeout ([`BudgetMode::OverrunRecorded`]). A library that crashes takes the process with it;
//! run it isolated in a child process for that ([`crate::line::isolated`]).

use crate::ForeignOrigin;
use solvers::engine::{
    classic, BudgetMode, Caps, Engine, EngineError, EngineInfo, NodeUnit, Session,
};
use solvers::{Board, Budget, Count, Grid, Outcome, Stats, Status};
use std::collections::HashMap;
use std::os::raw::c_char;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// tdoku's adapter signature.
type AdapterFn = unsafe extern "C" fn(
    puzzle: *const c_char,
    limit: usize,
    configuration: u32,
    solution: *mut c_char,
    num_guesses: *mut usize,
) -> usize;

/// A shared library's solver function, called in-process.
pub struct SharedLibEngine {
    info: EngineInfo,
    loaded: Arc<Loaded>,
}

/// The loaded library and the function, kept together so the function never outlives its code.
struct Loaded {
    function: AdapterFn,
    configuration: u32,
    gives_solution: bool,
    symbol: String,
    /// Serializes the calls into this library file (shared with every engine on the same file).
    lock: Arc<Mutex<()>>,
    // Dropped last: unloading the library invalidates `function`.
    _library: libloading::Library,
}

/// The lock of the library at `path`, shared by every engine that loads the same file.
fn lock_for(canonical: &Path) -> Arc<Mutex<()>> {
    static LOCKS: OnceLock<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>> = OnceLock::new();
    let mut locks = LOCKS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    locks.entry(canonical.to_path_buf()).or_default().clone()
}

impl SharedLibEngine {
    /// Loads `symbol` from the library at `path`; every call passes `configuration`.
    /// `gives_solution` says whether the function writes the solution it found (false for
    /// fast_solv_9r2, which only counts: its solves are then "solved, unchecked").
    ///
    /// Loading runs the library's initializers in this process: load only libraries you trust.
    ///
    /// # Errors
    /// [`EngineError::Load`] naming the file when it is missing or not a loadable library, or the
    /// symbol when the library does not export it.
    pub fn load(
        name: &str,
        path: &Path,
        symbol: &str,
        configuration: u32,
        gives_solution: bool,
    ) -> Result<SharedLibEngine, EngineError> {
        let canonical = path
            .canonicalize()
            .map_err(|e| EngineError::Load(format!("{}: {e}", path.display())))?;
        // SAFETY: loading a library runs its initializers; the caller vouches for the file
        // (documented above). `canonical` is an existing file.
        let library = unsafe { libloading::Library::new(&canonical) }
            .map_err(|e| EngineError::Load(format!("{}: {e}", path.display())))?;
        // SAFETY: the symbol is declared to have tdoku's adapter signature; the function pointer
        // is stored beside the library, which outlives it.
        let function: AdapterFn = unsafe {
            *library.get::<AdapterFn>(symbol.as_bytes()).map_err(|e| {
                EngineError::Load(format!("symbol {symbol:?} in {}: {e}", path.display()))
            })?
        };
        let info = EngineInfo {
            name: name.to_string(),
            description: format!(
                "{symbol} (configuration {configuration}) in {}{}",
                path.display(),
                if gives_solution {
                    ""
                } else {
                    ", writes no solution"
                }
            ),
            version: None,
            origin: ForeignOrigin::SharedLib {
                path: path.to_path_buf(),
                symbol: symbol.to_string(),
                configuration,
                isolated: false,
            }
            .into(),
            caps: Caps {
                shapes: solvers::engine::Shapes::Classic,
                counts: true,
                gives_solution,
                budget: BudgetMode::OverrunRecorded,
                nodes: NodeUnit::None,
                guesses: true,
                parallel: false,
            },
        };
        Ok(SharedLibEngine {
            info,
            loaded: Arc::new(Loaded {
                function,
                configuration,
                gives_solution,
                symbol: symbol.to_string(),
                lock: lock_for(&canonical),
                _library: library,
            }),
        })
    }
}

crate::described_by_info!(SharedLibEngine);

impl Engine for SharedLibEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn session(&self) -> Result<Box<dyn Session>, EngineError> {
        Ok(Box::new(SharedLibSession {
            loaded: self.loaded.clone(),
        }))
    }
}

/// A session on a library: the library's lock is taken per call, so sessions on several threads
/// take turns.
struct SharedLibSession {
    loaded: Arc<Loaded>,
}

/// What one call returned.
struct Call {
    solutions: usize,
    solution: [u8; 82],
    guesses: usize,
}

impl Loaded {
    fn guard(&self) -> MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Calls the function on `puzzle` with `limit`, under the library's lock.
    fn call(&self, puzzle: &Grid, limit: usize) -> Call {
        let mut text = [0u8; 82];
        for (t, &v) in text.iter_mut().zip(puzzle.cells()) {
            *t = if v == 0 { b'.' } else { b'0' + v };
        }
        let mut call = Call {
            solutions: 0,
            solution: [0u8; 82],
            guesses: 0,
        };
        let _guard = self.guard();
        // SAFETY: the adapter contract: an 81-character NUL-terminated puzzle, a writable
        // buffer of 82 bytes (81 digits + NUL) and a writable guess counter; calls into the
        // library are serialized by its lock.
        call.solutions = unsafe {
            (self.function)(
                text.as_ptr().cast(),
                limit,
                self.configuration,
                call.solution.as_mut_ptr().cast(),
                &mut call.guesses,
            )
        };
        call
    }

    fn check_count(&self, call: &Call, limit: usize) -> Result<(), EngineError> {
        if call.solutions > limit {
            return Err(EngineError::Protocol(format!(
                "{} returned {} solutions for a limit of {limit}",
                self.symbol, call.solutions
            )));
        }
        Ok(())
    }
}

/// The solution buffer as a grid: 81 digits `1`-`9`.
fn parse_solution(symbol: &str, buffer: &[u8; 82]) -> Result<Grid, EngineError> {
    let digits = &buffer[..81];
    if digits.iter().all(|b| (b'1'..=b'9').contains(b)) {
        let mut cells = [0u8; 81];
        for (c, &b) in cells.iter_mut().zip(digits) {
            *c = b - b'0';
        }
        return Ok(Grid::from_cells(cells).expect("digits 1..=9"));
    }
    let written = buffer.iter().position(|&b| b == 0).unwrap_or(81).min(81);
    let text = String::from_utf8_lossy(&buffer[..written]);
    Err(EngineError::Protocol(format!(
        "{symbol} reported a solution but its solution buffer holds {} ({written} bytes before \
         the first NUL), not 81 digits 1-9",
        crate::usage::clip(&text)
    )))
}

impl Session for SharedLibSession {
    fn solve(&mut self, puzzle: &Board, budget: &Budget) -> Result<Outcome, EngineError> {
        let puzzle = &classic(puzzle)?;
        if budget.exhausted(0) {
            return Ok(Outcome::unsolved(Status::Timeout, Stats::default()));
        }
        let l = &*self.loaded;
        let call = l.call(puzzle, 1);
        let stats = Stats {
            guesses: call.guesses as u64,
            ..Stats::default()
        };
        l.check_count(&call, 1)?;
        let outcome = match call.solutions {
            0 => Outcome::unsolved(Status::NoSolution, stats),
            _ if l.gives_solution => Outcome::solved(
                Board::from(parse_solution(&l.symbol, &call.solution)?),
                stats,
            ),
            _ => Outcome {
                status: Status::Solved,
                solution: None,
                stats,
            },
        };
        if budget.exhausted(0) {
            // The answer came after the deadline: another solver would have stopped.
            return Ok(Outcome::unsolved(Status::Timeout, stats));
        }
        Ok(outcome)
    }

    fn count(&mut self, puzzle: &Board, limit: u64, budget: &Budget) -> Result<Count, EngineError> {
        let puzzle = &classic(puzzle)?;
        if budget.exhausted(0) {
            return Ok(Count {
                solutions: 0,
                complete: false,
                first: None,
                stats: Stats::default(),
            });
        }
        let limit = usize::try_from(limit.max(1)).unwrap_or(usize::MAX);
        let call = self.loaded.call(puzzle, limit);
        self.loaded.check_count(&call, limit)?;
        Ok(Count {
            solutions: call.solutions as u64,
            complete: !budget.exhausted(0),
            first: None,
            stats: Stats {
                guesses: call.guesses as u64,
                ..Stats::default()
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_lock_per_file_whatever_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("libx.so");
        std::fs::write(&file, b"not a library").unwrap();
        let link = dir.path().join("liby.so");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let dotted = dir.path().join(".").join("libx.so");
        let a = lock_for(&file.canonicalize().unwrap());
        let b = lock_for(&link.canonicalize().unwrap());
        let c = lock_for(&dotted.canonicalize().unwrap());
        assert!(Arc::ptr_eq(&a, &b) && Arc::ptr_eq(&a, &c));
        let other = dir.path().join("libz.so");
        std::fs::write(&other, b"").unwrap();
        assert!(!Arc::ptr_eq(&a, &lock_for(&other.canonicalize().unwrap())));
    }

    #[test]
    fn a_missing_file_or_a_non_library_is_a_load_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("libjunk.so"), b"not a library").unwrap();
        for name in ["libnone.so", "libjunk.so"] {
            let e = SharedLibEngine::load("x", &dir.path().join(name), "f", 0, true)
                .err()
                .unwrap();
            assert!(
                matches!(&e, EngineError::Load(m) if m.contains(name)),
                "{e}"
            );
        }
    }

    #[test]
    fn a_bad_solution_buffer_is_named() {
        let mut buffer = [0u8; 82];
        buffer[..5].copy_from_slice(b"hello");
        let e = parse_solution("F", &buffer).unwrap_err();
        assert_eq!(
            e.to_string(),
            "protocol: F reported a solution but its solution buffer holds \"hello\" (5 bytes \
             before the first NUL), not 81 digits 1-9"
        );
        let mut good = [b'5'; 82];
        good[81] = 0;
        assert_eq!(
            parse_solution("F", &good).unwrap().to_digits(),
            "5".repeat(81)
        );
    }
}
