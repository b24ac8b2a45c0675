//! Per-thread sessions: what every parallel part of the harness (the runner, `solve`,
//! `generate`, the manifest's counts) uses to give each rayon worker thread its own
//! [`Session`] of each engine.

use solvers::engine::{Engine, Session};
use std::sync::Mutex;

/// Sessions of every engine, one set per worker thread: a worker takes its own slot (by rayon's
/// thread index), so the locks are never contended; a session is opened on first use.
pub struct Sessions {
    slots: Vec<Mutex<ThreadSessions>>,
}

/// One worker thread's sessions, one slot per engine (opened on first use).
type ThreadSessions = Vec<Option<Box<dyn Session>>>;

impl Sessions {
    /// Room for `engines` sessions on each of `threads` worker threads (and one more slot for
    /// calls from outside the pool).
    pub fn new(threads: usize, engines: usize) -> Sessions {
        Sessions {
            slots: (0..=threads)
                .map(|_| Mutex::new((0..engines).map(|_| None).collect()))
                .collect(),
        }
    }

    /// Runs `f` with this thread's session of engine `s`, opening it if needed; an engine that
    /// cannot open a session gives the error to `f`.
    pub fn with<R>(
        &self,
        s: usize,
        engine: &dyn Engine,
        f: impl FnOnce(Result<&mut dyn Session, String>) -> R,
    ) -> R {
        let slot = rayon::current_thread_index()
            .unwrap_or(self.slots.len() - 1)
            .min(self.slots.len() - 1);
        let mut guard = self.slots[slot].lock().unwrap_or_else(|p| p.into_inner());
        if guard[s].is_none() {
            match engine.session() {
                Ok(session) => guard[s] = Some(session),
                Err(e) => return f(Err(e.to_string())),
            }
        }
        f(Ok(guard[s].as_deref_mut().expect("opened above")))
    }
}
