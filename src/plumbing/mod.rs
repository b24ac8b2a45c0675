//! What every command shares below everything else: writing files whole or not at all and
//! printing without panics ([`output`], with the `out!`, `outln!` and `errln!` macros), numbers
//! for people ([`human`]), and the one signal handler ([`interrupt`]).

#[macro_use]
pub mod output;

pub mod human;
pub mod interrupt;
