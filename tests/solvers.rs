//! Integration tests of the solvers: conformance and cross-checks over `SolverKind::ALL`, the bad-Sudoku table and the cases, again on every SIMD path; grids of every shape.
//! The modules live in tests/integration/ (one file per concern); tests/integration/common.rs
//! holds the helpers every target shares.

#[path = "integration/bad_sudoku.rs"]
mod bad_sudoku;
#[path = "integration/cases.rs"]
mod cases;
#[path = "integration/common.rs"]
mod common;
#[path = "integration/conformance.rs"]
mod conformance;
#[path = "integration/crosscheck.rs"]
mod crosscheck;
#[path = "integration/exact_shapes.rs"]
mod exact_shapes;
#[path = "integration/shape_solvers.rs"]
mod shape_solvers;
#[path = "integration/simd_paths.rs"]
mod simd_paths;
