//! Integration tests of the human techniques: HoDoKu's regression library, the rater's levels, hints.
//! The modules live in tests/integration/ (one file per concern); tests/integration/common.rs
//! holds the helpers every target shares.

#[path = "integration/common.rs"]
mod common;
#[path = "integration/logic.rs"]
mod logic;
