//! What comes in: puzzle files of every format and shape ([`format`]), the shipped and named
//! datasets ([`dataset`]), and the isomorphs of a 9x9 grid with its canonical form
//! ([`isomorph`]), and the words for refusing a puzzle ([`refusal`]). Depends on the checker ([`crate::verify`]), the generators' grid transforms
//! and [`crate::plumbing`] only.

pub mod dataset;
pub mod format;
pub mod isomorph;
pub mod refusal;
