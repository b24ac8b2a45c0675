//! Child processes: what they cost (CPU time, peak memory), how they ended, and killing and
//! reaping them without ever signalling a process that is not ours.
//!
//! Two ways to measure a child, both Linux:
//! - a child that stays alive between requests (the line protocol) is read from outside:
//!   its CPU time from the kernel's per-process CPU clock (`clock_getcpuclockid`, the same
//!   nanosecond count as `/proc/PID/task/*/schedstat`, which reads 0 on kernels built without
//!   schedstats), falling back to the first field of `/proc/PID/task/*/schedstat`; its peak
//!   resident memory from `VmHWM` in `/proc/PID/status`, reset after each reading by writing
//!   `5` to `/proc/PID/clear_refs`;
//! - a child that has exited is reaped with `wait4`, whose `rusage` gives user + system time and
//!   the peak resident set (`ru_maxrss`, KiB on Linux).
//!
//! Every child is started in a process group of its own, so that killing it also kills what it
//! started (`sh -c ...`, a wrapper script). A child is only signalled while it is not yet reaped
//! (a zombie keeps its pid and group id reserved), so a pid reused by the system is never hit.

use solvers::engine::Usage;
use solvers::Budget;
use std::collections::BTreeSet;
use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// The environment variable every child process carries (and its own children inherit): this
/// process's pid, a dot, and a serial number per child. It is how the processes a child started
/// are found and killed, even those that left its process group (`setsid`).
pub(crate) const OWNER_VAR: &str = "SUDOKU_HARNESS_OWNER";

/// Most bytes a child may write to any one file (its output, a result file): the kernel stops
/// it with SIGXFSZ past this (`RLIMIT_FSIZE`).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Prepares `command` for a child of ours: a process group of its own, the owner mark
/// ([`OWNER_VAR`]) and the file-size limit ([`MAX_FILE_BYTES`]); starts the guardian
/// ([`guardian`]) on first use. Returns the mark, for [`sweep`].
pub(crate) fn prepare(command: &mut Command) -> String {
    static SERIAL: AtomicU64 = AtomicU64::new(1);
    guardian();
    let mark = format!(
        "{}.{}",
        std::process::id(),
        SERIAL.fetch_add(1, Ordering::Relaxed)
    );
    command.env(OWNER_VAR, &mark).process_group(0);
    // SAFETY: setrlimit is async-signal-safe and touches only the child.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: MAX_FILE_BYTES as libc::rlim_t,
                rlim_max: MAX_FILE_BYTES as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    mark
}

/// The processes whose environment holds `OWNER_VAR=` followed by `prefix` (a whole mark, or
/// this process's pid and a dot for all of them).
fn marked(prefix: &str) -> Vec<libc::pid_t> {
    let wanted = format!("{OWNER_VAR}={prefix}");
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<libc::pid_t>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|env| {
                env.split(|&b| b == 0).any(|v| {
                    if prefix.ends_with('.') {
                        v.starts_with(wanted.as_bytes())
                    } else {
                        v == wanted.as_bytes()
                    }
                })
            })
        })
        .collect()
}

/// Kills (SIGKILL) every process still carrying `mark`: what a child left behind when it exited
/// or was killed with its group (a forked helper, a `setsid` escapee). A few rounds, for those
/// that fork while being killed.
pub(crate) fn sweep(mark: &str) {
    for _ in 0..3 {
        let left = marked(mark);
        if left.is_empty() {
            return;
        }
        for pid in left {
            // SAFETY: a plain syscall; the process carries our mark.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The guardian: a small shell process, started once per process on the first child, that
/// waits for this process to end (its standard input, a pipe whose only writer we hold, then
/// reads end-of-file), however it ends — normally, by a signal, by SIGKILL — and then kills
/// every process carrying this process's mark and removes the temporary folders of this
/// process (`TMPDIR/sudoku-*-PID-*`). It runs in a process group of its own, so Ctrl-C on the
/// terminal does not stop it first.
#[allow(clippy::zombie_processes)] // it outlives us by design: init reaps it
fn guardian() {
    static STARTED: OnceLock<Option<std::process::ChildStdin>> = OnceLock::new();
    STARTED.get_or_init(|| {
        let pid = std::process::id();
        let tmp = std::env::temp_dir();
        let script = r#"
read -r _
sweep() {
  for f in $(grep -l -a -e "$1=$2\." /proc/[0-9]*/environ 2>/dev/null); do
    p=${f#/proc/}
    kill -9 "${p%/environ}" 2>/dev/null
  done
}
sweep "$1" "$2"
rm -rf "$3"/sudoku-*-"$2"-*
sleep 0.1
sweep "$1" "$2"
"#;
        let child = Command::new("sh")
            .args(["-c", script, "guardian", OWNER_VAR, &pid.to_string()])
            .arg(&tmp)
            .env_remove(OWNER_VAR)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .ok()?;
        let mut child = child;
        let stdin = child.stdin.take();
        // Reaped by nobody while we live: it exits only after we do.
        std::mem::forget(child);
        stdin
    });
}

/// The prefix of this process's temporary folders: `sudoku-WHAT-PID-` (the guardian removes
/// them when this process ends).
pub(crate) fn temp_prefix(what: &str) -> String {
    format!("sudoku-{what}-{}-", std::process::id())
}

/// True when `budget` was cancelled (its flag is set), not merely past its deadline.
pub(crate) fn cancelled(budget: &Budget) -> bool {
    budget.exhausted(0)
        && match budget.deadline() {
            Some(d) => Instant::now() < d,
            None => true,
        }
}

/// When a request must be answered: the budget's deadline, or [`crate::UNBUDGETED_LIMIT`] from
/// now when the budget has none; pushed back by time charged apart (a program's start-up).
pub(crate) struct Due(Instant);

impl Due {
    pub(crate) fn new(budget: &Budget) -> Due {
        Due(budget
            .deadline()
            .unwrap_or_else(|| Instant::now() + crate::UNBUDGETED_LIMIT))
    }

    /// Moves the deadline `by` later.
    pub(crate) fn extend(&mut self, by: Duration) {
        self.0 += by;
    }

    /// True when the request must end: past the deadline, or cancelled.
    pub(crate) fn passed(&self, budget: &Budget) -> bool {
        Instant::now() >= self.0 || cancelled(budget)
    }

    /// How long to wait before looking again.
    pub(crate) fn wait(&self, poll: Duration) -> Duration {
        self.0.saturating_duration_since(Instant::now()).min(poll)
    }
}

/// The CPU time (user + system, all threads) that process `pid` has used so far, ns; `None`
/// when it cannot be read (the process is gone).
pub(crate) fn cpu_ns(pid: u32) -> Option<u64> {
    clock_cpu_ns(pid).or_else(|| schedstat_ns(pid))
}

fn clock_cpu_ns(pid: u32) -> Option<u64> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: plain syscalls writing into locals.
    unsafe {
        if libc::clock_getcpuclockid(pid as libc::pid_t, &mut clock) != 0 {
            return None;
        }
        let mut ts: libc::timespec = std::mem::zeroed();
        if libc::clock_gettime(clock, &mut ts) != 0 {
            return None;
        }
        Some(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
    }
}

fn schedstat_ns(pid: u32) -> Option<u64> {
    let mut total = 0u64;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        let text = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total += text.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total)
}

/// The peak resident memory of `pid` since it started or since the last [`reset_peak_rss`],
/// KiB (`VmHWM` of `/proc/PID/status`).
pub(crate) fn peak_rss_kib(pid: u32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    line["VmHWM:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Resets the peak resident memory of `pid` to its current size (errors ignored: the figure is
/// then the peak since an earlier reset).
pub(crate) fn reset_peak_rss(pid: u32) {
    let _ = std::fs::write(format!("/proc/{pid}/clear_refs"), "5");
}

/// Sends SIGKILL to the process group led by `pid` (the child and what it started). The caller
/// must not have reaped `pid` yet.
pub(crate) fn kill_group(pid: u32) {
    // SAFETY: a plain syscall; the group is ours and its leader not yet reaped.
    unsafe {
        if libc::kill(-(pid as libc::pid_t), libc::SIGKILL) != 0 {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
        }
    }
}

/// Waits until child `pid` has exited, without reaping it (`waitid` with `WNOWAIT`), so that it
/// can still be signalled safely and reaped later by [`reap`].
pub(crate) fn wait_exited(pid: u32) -> io::Result<()> {
    loop {
        // SAFETY: siginfo is a plain C struct written by the kernel.
        let r = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// True when child `pid` has exited (not reaped: see [`wait_exited`]); polls until `timeout`.
pub(crate) fn exited_within(pid: u32, timeout: Duration) -> bool {
    let end = Instant::now() + timeout;
    loop {
        // SAFETY: as in wait_exited; WNOHANG makes it return at once.
        let (r, got) = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT | libc::WNOHANG,
            );
            (r, info.si_pid() != 0)
        };
        if r != 0 || got {
            // An error (no such child) also means there is nothing left to wait for.
            return true;
        }
        if Instant::now() >= end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The children started and not yet reaped (each the leader of its process group).
fn live() -> MutexGuard<'static, BTreeSet<u32>> {
    static LIVE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Records a child just started, for [`kill_children`].
pub(crate) fn register(pid: u32) {
    live().insert(pid);
}

/// Kills every child process (and its process group) that the engines of this process have
/// started and not yet reaped: for a program about to exit without dropping its sessions
/// (a second Ctrl-C), so that no solver is left running. Sessions whose child was killed
/// report it as a crash.
///
/// It also kills what those children left behind (processes carrying this process's mark, see
/// [`OWNER_VAR`](crate::usage)) and removes this process's temporary folders. Should this process
/// end without calling it (SIGKILL), the guardian process does the same once it is gone.
pub fn kill_children() {
    for &pid in live().iter() {
        kill_group(pid);
    }
    sweep(&format!("{}.", std::process::id()));
    remove_temp_folders();
}

/// Removes this process's temporary folders (named with [`temp_prefix`]).
fn remove_temp_folders() {
    let suffix = format!("-{}-", std::process::id());
    let Ok(dir) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in dir.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("sudoku-") && name.contains(&suffix) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Reaps child `pid` (blocking until it exits): its exit status and the resources it used
/// over its whole life.
pub(crate) fn reap(pid: u32) -> io::Result<(ExitStatus, Usage)> {
    // Forgotten before it is reaped, so that `kill_children` never signals a reaped pid.
    live().remove(&pid);
    loop {
        let mut status = 0;
        // SAFETY: rusage is a plain C struct written by the kernel.
        let (r, usage) = unsafe {
            let mut ru: libc::rusage = std::mem::zeroed();
            let r = libc::wait4(pid as libc::pid_t, &mut status, 0, &mut ru);
            (r, ru)
        };
        if r == pid as libc::pid_t {
            let micros = |t: libc::timeval| t.tv_sec as f64 * 1e6 + t.tv_usec as f64;
            return Ok((
                ExitStatus::from_raw(status),
                Usage {
                    cpu_micros: micros(usage.ru_utime) + micros(usage.ru_stime),
                    peak_rss_kib: Some(usage.ru_maxrss as u64),
                    restart_micros: 0.0,
                },
            ));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// How a child ended, for messages: `exited with status 3`, `was killed by signal 11 (SIGSEGV)`.
pub(crate) fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with status {code}");
    }
    match status.signal() {
        Some(sig) => format!("was killed by signal {sig} ({})", signal_name(sig)),
        None => format!("ended with wait status {}", status.into_raw()),
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGSYS => "SIGSYS",
        libc::SIGXCPU => "SIGXCPU",
        _ => "signal",
    }
}

/// Runs `write` with SIGPIPE blocked on this thread, so that writing to a child that has exited
/// gives an `EPIPE` error instead of killing the whole program (the harness restores SIGPIPE's
/// default action so that `harness ... | head` ends quietly). A SIGPIPE raised by the write is
/// taken off the pending set before the mask is restored.
pub(crate) fn without_sigpipe<T>(write: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    // SAFETY: signal-mask syscalls on this thread's own mask, with locals.
    unsafe {
        let mut pipe: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe);
        libc::sigaddset(&mut pipe, libc::SIGPIPE);
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &pipe, &mut old);
        let was_blocked = libc::sigismember(&old, libc::SIGPIPE) == 1;
        let result = write();
        if !was_blocked {
            if matches!(&result, Err(e) if e.kind() == io::ErrorKind::BrokenPipe) {
                let mut pending: libc::sigset_t = std::mem::zeroed();
                libc::sigpending(&mut pending);
                if libc::sigismember(&pending, libc::SIGPIPE) == 1 {
                    let zero = libc::timespec {
                        tv_sec: 0,
                        tv_nsec: 0,
                    };
                    libc::sigtimedwait(&pipe, std::ptr::null_mut(), &zero);
                }
            }
            libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        }
        result
    }
}

/// At most 100 characters of `text` (then `...`), quoted and escaped as a Rust string
/// literal, for error messages that quote what was read.
pub(crate) fn clip(text: &str) -> String {
    match text.char_indices().nth(100) {
        Some((i, _)) => format!("{:?}...", &text[..i]),
        None => format!("{text:?}"),
    }
}

/// At most `max` characters of `text` (then `...`), as they are.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    #[test]
    #[allow(clippy::zombie_processes)] // reaped by `reap` (wait4), not through std
    fn a_reaped_child_reports_its_cpu_time_and_status() {
        // A shell that burns some CPU, then exits with 3.
        let child = Command::new("sh")
            .args([
                "-c",
                "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; exit 3",
            ])
            .spawn()
            .unwrap();
        let pid = child.id();
        wait_exited(pid).unwrap();
        let (status, usage) = reap(pid).unwrap();
        assert_eq!(describe_status(status), "exited with status 3");
        assert!(usage.cpu_micros > 0.0, "{usage:?}");
        assert!(usage.peak_rss_kib.unwrap() > 0);
    }

    #[test]
    #[allow(clippy::zombie_processes)] // reaped by `reap` (wait4), not through std
    fn a_live_child_is_measured_from_outside_and_killed() {
        let child = Command::new("sh")
            .args([
                "-c",
                "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 30",
            ])
            .spawn()
            .unwrap();
        let pid = child.id();
        // The loop takes some ms of CPU; wait until the clock shows it.
        let start = Instant::now();
        while cpu_ns(pid).unwrap() < 1_000_000 && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(cpu_ns(pid).unwrap() >= 1_000_000);
        assert!(peak_rss_kib(pid).unwrap() > 0);
        assert!(!exited_within(pid, Duration::from_millis(10)));
        kill_group(pid);
        assert!(exited_within(pid, Duration::from_secs(10)));
        let (status, _) = reap(pid).unwrap();
        assert_eq!(describe_status(status), "was killed by signal 9 (SIGKILL)");
    }

    #[test]
    fn clip_escapes_and_shortens() {
        assert_eq!(clip("a\"b"), "\"a\\\"b\"");
        assert_eq!(clip(&"x".repeat(150)), format!("{:?}...", "x".repeat(100)));
    }
}
