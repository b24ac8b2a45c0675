//! The `foreign` engines on real parts: C libraries compiled from `tests/fixtures`, the public
//! solvers of `../shared/anchors`, Python line-protocol programs, the SAT solvers installed
//! from Debian. A test whose part is missing says `SKIPPED <test>: <reason>` on stderr.

mod common;

mod anchors;
mod dimacs;
mod isolate;
mod line;
mod shared_lib;
