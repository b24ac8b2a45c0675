//! Load shedding for the web server: how much solve work runs at once, how long a request may
//! wait for its turn, and the server's other limits ([`Limits`]).
//!
//! Solve work (`/api/solve`, `/api/count`, `/api/generate`, and the page's own generated puzzle)
//! passes the [`Gate`]: at most [`Limits::solve_slots`] run at once (one per core), at most
//! [`Limits::queue`] more wait, each for at most [`Limits::queue_wait`]; anything beyond is
//! answered at once with HTTP 503 and `Retry-After`. Counts also take one permit per solution
//! they may find from a pool of [`Limits::count_solutions`]: a counting solver may keep every
//! solution it found (the `sat` solver keeps a blocking clause per solution), so the limit of a
//! count and this pool together bound the memory counting can take.
//!
//! A request's permits travel with its work onto the blocking thread and are released when the
//! work ends (not when the client goes away), so the limit is on work actually running.

use super::error::ApiError;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

/// The server's limits. [`Limits::default`] sizes them to this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Solve work running at once (default: the logical cores).
    pub solve_slots: usize,
    /// Requests waiting for a slot at most (default: twice the slots); more get a 503.
    pub queue: usize,
    /// Longest wait for a slot before a 503 (default 5 s).
    pub queue_wait: Duration,
    /// Solutions that counts in flight may find together (default [`COUNT_SOLUTIONS`]); one
    /// count asks for its `limit`.
    pub count_solutions: u32,
    /// Open connections at most (default [`max_connections`]); a connection beyond gets a 503
    /// and is closed.
    pub max_connections: usize,
    /// Time a client has to send a request's headers, and to send the next request on a kept-
    /// alive connection (default 10 s); then the connection is closed.
    pub header_timeout: Duration,
    /// Largest request body, bytes (default 64 KiB); larger ones get 413, at once when their
    /// `Content-Length` says so.
    pub body_limit: usize,
    /// Time a client has to send a request's body once its headers are in (default 10 s); then
    /// it gets 408 and the connection is closed.
    pub body_timeout: Duration,
}

/// Default pool of [`Limits::count_solutions`]: 100,000 solutions, about 56 MB of `sat`
/// blocking clauses (0.56 KB each), whatever the number of cores.
pub const COUNT_SOLUTIONS: u32 = 100_000;

/// The default connection cap: half the process's open-file limit (so files, the listener and
/// the solvers always have descriptors left), at most 1,024, at least 16.
pub fn max_connections() -> usize {
    let mut soft: u64 = 1024 * 2;
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct we pass and nothing else.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0 {
            // rlim_t is u64 on Linux, other widths elsewhere.
            #[allow(clippy::unnecessary_cast)]
            {
                soft = lim.rlim_cur as u64;
            }
        }
    }
    (soft / 2).clamp(16, 1024) as usize
}

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Limits {
            solve_slots: cores,
            queue: 2 * cores,
            queue_wait: Duration::from_secs(5),
            count_solutions: COUNT_SOLUTIONS,
            max_connections: max_connections(),
            header_timeout: Duration::from_secs(10),
            body_limit: 64 * 1024,
            body_timeout: Duration::from_secs(10),
        }
    }
}

/// The permits of one request's work: dropped when the work ends.
pub struct Pass {
    _admitted: OwnedSemaphorePermit,
    _slot: OwnedSemaphorePermit,
    _solutions: Option<OwnedSemaphorePermit>,
}

/// The admission control of [`Limits`], plus the server's shutdown signal.
pub struct Gate {
    limits: Limits,
    /// Slots + queue: a request that cannot take one is turned away at once.
    admitted: Arc<Semaphore>,
    slots: Arc<Semaphore>,
    solutions: Arc<Semaphore>,
    shutdown: watch::Sender<bool>,
}

impl Gate {
    /// A gate with these limits.
    pub fn new(limits: Limits) -> Gate {
        Gate {
            admitted: Arc::new(Semaphore::new(limits.solve_slots + limits.queue)),
            slots: Arc::new(Semaphore::new(limits.solve_slots)),
            solutions: Arc::new(Semaphore::new(limits.count_solutions as usize)),
            shutdown: watch::channel(false).0,
            limits,
        }
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Solve work running now.
    pub fn running(&self) -> usize {
        self.limits.solve_slots - self.slots.available_permits()
    }

    /// Requests admitted: running or waiting for a slot.
    pub fn admitted(&self) -> usize {
        self.limits.solve_slots + self.limits.queue - self.admitted.available_permits()
    }

    /// Starts the shutdown: every request waiting or running is told to stop.
    pub fn shut_down(&self) {
        self.shutdown.send_replace(true);
    }

    /// Completes when the shutdown has started.
    pub async fn stopping(&self) {
        let mut rx = self.shutdown.subscribe();
        let _ = rx.wait_for(|stop| *stop).await;
    }

    /// True once the shutdown has started.
    pub fn is_stopping(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// Waits for a turn to run solve work that may find up to `solutions` solutions (0 for work
    /// that does not count).
    ///
    /// # Errors
    /// 503 (with `Retry-After`) when the queue is full, the wait is over, or the server is
    /// shutting down; 400 when `solutions` is above the whole pool.
    pub async fn enter(&self, solutions: u32) -> Result<Pass, ApiError> {
        if solutions > self.limits.count_solutions {
            return Err(ApiError::bad_request(format!(
                "limit {solutions} is above the {} solutions this server counts at once",
                self.limits.count_solutions
            )));
        }
        if self.is_stopping() {
            return Err(ApiError::shutting_down());
        }
        let admitted = self.admitted.clone().try_acquire_owned().map_err(|_| {
            ApiError::busy("the server is busy: every solve slot and queue place is taken")
        })?;
        let wait = async {
            let solutions = match solutions {
                0 => None,
                n => Some(self.solutions.clone().acquire_many_owned(n).await),
            };
            let slot = self.slots.clone().acquire_owned().await;
            (slot, solutions)
        };
        tokio::select! {
            r = tokio::time::timeout(self.limits.queue_wait, wait) => match r {
                // The semaphores are never closed.
                Ok((Ok(slot), solutions)) => Ok(Pass {
                    _admitted: admitted,
                    _slot: slot,
                    _solutions: solutions.and_then(Result::ok),
                }),
                Ok(_) => Err(ApiError::shutting_down()),
                Err(_) => Err(ApiError::busy(format!(
                    "the server is busy: no solve slot came free within {} s",
                    self.limits.queue_wait.as_secs_f64()
                ))),
            },
            () = self.stopping() => Err(ApiError::shutting_down()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    fn limits(slots: usize, queue: usize, solutions: u32) -> Limits {
        Limits {
            solve_slots: slots,
            queue,
            queue_wait: Duration::from_millis(50),
            count_solutions: solutions,
            ..Limits::default()
        }
    }

    /// Runs `f` to its end on a one-thread runtime with timers.
    fn block_on(f: impl std::future::Future<Output = ()>) {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(f);
    }

    #[test]
    fn slots_then_queue_then_503() {
        block_on(async {
            let gate = Gate::new(limits(2, 1, 10));
            let a = gate.enter(0).await.unwrap();
            let _b = gate.enter(0).await.unwrap();
            assert_eq!((gate.running(), gate.admitted()), (2, 2));
            // The queue place: waits, and gives up after queue_wait.
            let e = gate.enter(0).await.err().unwrap();
            assert_eq!(e.status, StatusCode::SERVICE_UNAVAILABLE, "{e}");
            assert!(e.message.contains("no solve slot came free"), "{e}");
            // The queue place taken by a waiter: the next one is turned away at once.
            let waiting = gate.enter(0);
            tokio::pin!(waiting);
            assert!(futures_poll_once(waiting.as_mut()).await.is_none());
            let e = gate.enter(0).await.err().unwrap();
            assert!(
                e.message.contains("every solve slot and queue place"),
                "{e}"
            );
            // A slot comes free: the waiter gets it.
            drop(a);
            assert!(waiting.await.is_ok());
        });
    }

    #[test]
    fn counts_share_a_pool_of_solutions_and_shutdown_stops_waiters() {
        block_on(async {
            let gate = Gate::new(limits(4, 4, 10));
            let e = gate.enter(11).await.err().unwrap();
            assert_eq!(e.status, StatusCode::BAD_REQUEST, "{e}");
            let seven = gate.enter(7).await.unwrap();
            // 3 solutions are left: a count of 4 waits, then gets a 503.
            let e = gate.enter(4).await.err().unwrap();
            assert_eq!(e.status, StatusCode::SERVICE_UNAVAILABLE, "{e}");
            let _three = gate.enter(3).await.unwrap();
            drop(seven);
            let _four = gate.enter(4).await.unwrap();
            gate.shut_down();
            let e = gate.enter(0).await.err().unwrap();
            assert!(e.message.contains("shutting down"), "{e}");
        });
    }

    /// Polls `f` once: `Some` if it completed.
    async fn futures_poll_once<F: std::future::Future + Unpin>(f: F) -> Option<F::Output> {
        let mut f = f;
        std::future::poll_fn(|cx| {
            std::task::Poll::Ready(match std::pin::Pin::new(&mut f).poll(cx) {
                std::task::Poll::Ready(v) => Some(v),
                std::task::Poll::Pending => None,
            })
        })
        .await
    }
}
