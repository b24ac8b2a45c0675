//! The [`Budget`]: how much work one solve may do before it gives up with
//! [`Status::Timeout`](crate::Status::Timeout).
//!
//! A budget is a wall-clock deadline, a node limit, and an optional shared cancel flag (set by a
//! Ctrl-C handler, say). Solvers never get killed from outside: they call [`Budget::exhausted`]
//! every [`Budget::CHECK_INTERVAL`] nodes (or at a comparable grain of their own work), which costs
//! one clock read, so a solve overruns its deadline by at most that much work.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Limits on one solve. Cheap to clone; build a fresh one per puzzle (the deadline is absolute).
#[derive(Clone, Debug, Default)]
pub struct Budget {
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// How many nodes a solver may enter between two calls of [`Budget::exhausted`]. A power of
    /// two, so solvers can test `nodes & (CHECK_INTERVAL - 1) == 0`.
    pub const CHECK_INTERVAL: u64 = 1024;

    /// No limit at all.
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    /// A deadline `timeout` from now.
    pub fn with_timeout(timeout: Duration) -> Budget {
        Budget {
            deadline: Instant::now().checked_add(timeout),
            ..Budget::default()
        }
    }

    /// Adds (or replaces) a deadline `timeout` from now.
    pub fn timeout(mut self, timeout: Option<Duration>) -> Budget {
        self.deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        self
    }

    /// Adds a limit on search-tree nodes (as counted in [`Stats::nodes`](crate::Stats::nodes)).
    /// Node limits make a run reproducible across machines, unlike deadlines.
    pub fn max_nodes(mut self, max_nodes: Option<u64>) -> Budget {
        self.max_nodes = max_nodes;
        self
    }

    /// Adds a shared cancel flag: once it is set, every solve holding this budget stops at its
    /// next check.
    pub fn cancel_flag(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.cancel = Some(flag);
        self
    }

    /// The node limit, if any.
    pub fn node_limit(&self) -> Option<u64> {
        self.max_nodes
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// True when a solve that has entered `nodes` nodes must stop: the node limit is passed, the
    /// deadline has passed, or the cancel flag is set. Costs one clock read when a deadline is set.
    #[inline]
    pub fn exhausted(&self, nodes: u64) -> bool {
        if let Some(max) = self.max_nodes {
            if nodes > max {
                return true;
            }
        }
        if let Some(flag) = &self.cancel {
            if flag.load(Ordering::Relaxed) {
                return true;
            }
        }
        match self.deadline {
            Some(d) => Instant::now() >= d,
            None => false,
        }
    }

    /// The cheap form for search loops: checks only when `nodes` is a multiple of
    /// [`Budget::CHECK_INTERVAL`], or when it passes the node limit exactly.
    #[inline(always)]
    pub fn check(&self, nodes: u64) -> bool {
        if nodes & (Self::CHECK_INTERVAL - 1) == 0 {
            return self.exhausted(nodes);
        }
        matches!(self.max_nodes, Some(max) if nodes > max)
    }
}

/// [`Budget::check`] at one comparison a node, for a search that counts its nodes one by one in
/// a local variable: it keeps the next node count at which the check can say stop (past the
/// node limit, or the next multiple of [`Budget::CHECK_INTERVAL`]) and reads the budget there only.
pub(crate) struct Poll<'a> {
    budget: &'a Budget,
    /// The node limit (`u64::MAX - 1` without one).
    cap: u64,
    /// The next node count to look at the budget.
    at: u64,
}

impl<'a> Poll<'a> {
    /// A poll of `budget` for a search that has entered no node yet.
    pub(crate) fn new(budget: &'a Budget) -> Poll<'a> {
        let cap = budget.node_limit().unwrap_or(u64::MAX - 1);
        Poll {
            budget,
            cap,
            at: Self::next(0, cap),
        }
    }

    #[inline(always)]
    fn next(nodes: u64, cap: u64) -> u64 {
        (nodes | (Budget::CHECK_INTERVAL - 1))
            .saturating_add(1)
            .min(cap.saturating_add(1))
    }

    /// What [`Budget::check`] says of `nodes`: true when the search must stop. `nodes` never
    /// decreases between calls.
    #[inline(always)]
    pub(crate) fn spent(&mut self, nodes: u64) -> bool {
        if nodes < self.at {
            return false;
        }
        self.at = Self::next(nodes, self.cap);
        nodes > self.cap || self.budget.exhausted(nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_limit_and_cancel() {
        let b = Budget::unlimited().max_nodes(Some(10));
        assert!(!b.exhausted(10));
        assert!(b.exhausted(11));
        assert!(b.check(11));
        let flag = Arc::new(AtomicBool::new(false));
        let b = Budget::unlimited().cancel_flag(flag.clone());
        assert!(!b.exhausted(0));
        flag.store(true, Ordering::Relaxed);
        assert!(b.exhausted(0));
        assert!(Budget::with_timeout(Duration::ZERO).exhausted(0));
        assert!(!Budget::with_timeout(Duration::from_secs(3600)).exhausted(0));
    }

    /// A poll answers as `check` at every node count, with or without a node limit.
    #[test]
    fn poll_answers_as_check() {
        let flag = Arc::new(AtomicBool::new(false));
        for limit in [None, Some(0), Some(5), Some(1023), Some(1024), Some(3000)] {
            let b = Budget::unlimited()
                .max_nodes(limit)
                .cancel_flag(flag.clone());
            let mut poll = Poll::new(&b);
            for nodes in 1..5000 {
                if nodes == 2500 {
                    flag.store(true, Ordering::Relaxed);
                }
                assert_eq!(poll.spent(nodes), b.check(nodes), "{limit:?} {nodes}");
            }
            flag.store(false, Ordering::Relaxed);
        }
    }
}
