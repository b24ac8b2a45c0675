//! Integration tests of the web board: the API in-process, the limits on sockets, the browser end to end.
//! The modules live in tests/integration/ (one file per concern); tests/integration/common.rs
//! holds the helpers every target shares.

#[path = "integration/common.rs"]
mod common;
#[path = "integration/web.rs"]
mod web;
#[path = "integration/web_limits.rs"]
mod web_limits;
