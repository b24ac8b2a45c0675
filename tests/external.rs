//! Integration tests of external solvers: the anchors, a crashing library, the line protocol, minisat.
//! The modules live in tests/integration/ (one file per concern); tests/integration/common.rs
//! holds the helpers every target shares.

#[path = "integration/common.rs"]
mod common;
#[path = "integration/external.rs"]
mod external;
#[path = "integration/external_shapes.rs"]
mod external_shapes;
