//! Where a foreign engine comes from: the details the harness records in run.json and the
//! runner consults (is it in another process, what command does it run).

use solvers::engine::{ExternalOrigin, Origin};
use std::any::Any;
use std::path::PathBuf;

/// Where a foreign engine comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForeignOrigin {
    /// A shared library with tdoku's adapter signature, called in-process:
    /// `size_t f(const char *puzzle, size_t limit, uint32_t configuration, char *solution, size_t *num_guesses)`.
    SharedLib {
        /// The library file.
        path: PathBuf,
        /// The function's symbol.
        symbol: String,
        /// The `configuration` argument passed on every call.
        configuration: u32,
        /// True when the library is hosted in a child process (`--isolate`).
        isolated: bool,
    },
    /// A program speaking the line protocol on stdin/stdout, started once and kept running.
    LineProtocol {
        /// Program and arguments.
        command: Vec<String>,
    },
    /// An external SAT solver run once per puzzle on the DIMACS CNF of the puzzle.
    Dimacs {
        /// Program and arguments (the CNF file's path is appended).
        command: Vec<String>,
    },
}

impl ForeignOrigin {
    /// The foreign origin of an engine, if it is one.
    pub fn of(origin: &Origin) -> Option<&ForeignOrigin> {
        origin.downcast::<ForeignOrigin>()
    }
}

impl ExternalOrigin for ForeignOrigin {
    /// `lib`, `cmd` or `dimacs`.
    fn kind(&self) -> &'static str {
        match self {
            ForeignOrigin::SharedLib { .. } => "lib",
            ForeignOrigin::LineProtocol { .. } => "cmd",
            ForeignOrigin::Dimacs { .. } => "dimacs",
        }
    }

    fn out_of_process(&self) -> bool {
        matches!(
            self,
            ForeignOrigin::LineProtocol { .. }
                | ForeignOrigin::Dimacs { .. }
                | ForeignOrigin::SharedLib { isolated: true, .. }
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same_as(&self, other: &dyn ExternalOrigin) -> bool {
        other.as_any().downcast_ref::<ForeignOrigin>() == Some(self)
    }
}

impl From<ForeignOrigin> for Origin {
    fn from(origin: ForeignOrigin) -> Origin {
        Origin::external(origin)
    }
}
