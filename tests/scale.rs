//! Integration tests at scale: a million puzzles in flat memory, shards on a scheduler, and
//! `harness scale`'s scaling studies.
//! The modules live in tests/integration/ (one file per concern); tests/integration/common.rs
//! holds the helpers every target shares.

#[path = "integration/cluster.rs"]
mod cluster;
#[path = "integration/common.rs"]
mod common;
#[path = "integration/scale.rs"]
mod scale;
#[path = "integration/scale_study.rs"]
mod scale_study;
