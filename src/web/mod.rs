//! # The web board and browser automation
//!
//! - [`server`]: `harness serve`, an axum app bound to 127.0.0.1 serving the board page of any
//!   shape up to 25x25 (its HTML, CSS and JavaScript compiled in with `include_str!` from
//!   `src/web/assets/`, nothing fetched from the network) and the JSON API.
//! - [`api`]: the JSON API under `/api/` (solve, count, candidates, generate, info): request and
//!   response shapes, puzzle validation (HTTP 400 with a message naming the cell), handlers.
//! - [`gate`]: load shedding: how much solve work runs at once, the queue, the 503s, the
//!   connection and header limits ([`gate::Limits`]).
//! - [`engine`]: the two services the API takes from elsewhere in the project, puzzle generation
//!   and candidates (pencil marks), behind a small interface.
//! - [`autofill`]: `harness autofill`, which drives a browser over WebDriver (fantoccini): reads a
//!   board from a page's input cells, solves it, types the missing digits and checks the page.
//!
//! Puzzles travel as strings, row-major, `.` or `0` for an empty cell: 81 characters for 9x9
//! (the line form of [`solvers::Grid::parse_line`]), the line form of [`crate::input::format`] for the
//! other shapes (one character a cell up to 35x35, integers above), with an optional `shape`.
//! The board draws every shape up to 25x25 ([`server::PICKER_SHAPES`] in its shape list).

pub mod api;
pub mod autofill;
pub mod engine;
pub mod error;
pub mod gate;
pub mod server;
