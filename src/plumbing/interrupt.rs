//! Ctrl-C (SIGINT), SIGTERM and SIGHUP, for every command, in one place.
//!
//! [`install`] (called once by the binary, before any command runs) puts one handler in place,
//! with the `ctrlc` crate; it runs on its own thread. What a signal does:
//!
//! - By default, the process stops at once with exit status 130: every temporary file still
//!   being written (registered here by [`crate::plumbing::output`], which makes them all) is removed, and one
//!   line on stderr says what was kept (the files this process finished), what was removed, and
//!   which output (stdout, a FIFO, a device) got only part of what it was to receive.
//! - While a [`SignalGuard`] from [`on_signal`] is alive, the first signal calls its callback
//!   instead (`harness run` stops its solves and saves the finished rows; `harness serve` shuts
//!   down); any later signal stops the process at once as above.
//!
//! Temporary files are registered and renamed into place under one lock, which the handler
//! takes before removing them: a file is either renamed whole under its final name (and listed
//! as kept) or removed, never both, never half.
//!
//! Without [`install`] (the library used in-process, as the tests do), nothing here reacts to
//! signals; the registry is kept all the same, at the cost of one short lock per file written.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The exit status after a signal (128 + SIGINT, as shells report it).
pub const EXIT_STATUS: u8 = 130;

/// Most file names listed in the message before it says "and N more".
const NAMES_SHOWN: usize = 8;

type Callback = Arc<dyn Fn() + Send + Sync>;

/// What the handler needs to clean up and report.
#[derive(Default)]
struct Registry {
    /// Temporary files being written: (id, temporary path, final path as the user named it).
    temps: Vec<(u64, PathBuf, PathBuf)>,
    /// Outputs written in place, as a stream (stdout, a FIFO, a device): (id, name).
    streams: Vec<(u64, String)>,
    /// Files this process finished (renamed into place), as named by the user.
    kept: Vec<PathBuf>,
    /// A sentence added to the message (what to do next), if any.
    note: Option<String>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    temps: Vec::new(),
    streams: Vec::new(),
    kept: Vec::new(),
    note: None,
});
static CALLBACK: Mutex<Option<Callback>> = Mutex::new(None);
static SIGNALS: AtomicUsize = AtomicUsize::new(0);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn registry() -> MutexGuard<'static, Registry> {
    // A panic while holding the lock leaves the lists usable: keep going.
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Installs the process's signal handler (SIGINT, SIGTERM, SIGHUP). Call once, first thing.
///
/// # Errors
/// When a handler cannot be installed (then signals keep their default action, which leaves
/// temporary files behind).
pub fn install() -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(handle)
}

fn handle() {
    let n = SIGNALS.fetch_add(1, Ordering::SeqCst) + 1;
    let callback = CALLBACK.lock().unwrap_or_else(|e| e.into_inner()).clone();
    match callback {
        Some(cb) if n == 1 => cb(),
        Some(_) => exit_now("interrupted again: stopping now"),
        None => exit_now("interrupted"),
    }
}

/// How many signals the process has received so far.
pub fn signals() -> usize {
    SIGNALS.load(Ordering::SeqCst)
}

/// Removes every registered temporary file, prints on stderr `HEADLINE (status 130): ...` saying
/// what was kept, removed and cut short, and exits with status 130.
pub fn exit_now(headline: &str) -> ! {
    // Held until the exit: no file can be renamed into place after this point.
    let reg = registry();
    let mut removed = Vec::new();
    for (_, tmp, target) in &reg.temps {
        let _ = std::fs::remove_file(tmp);
        removed.push(target.clone());
    }
    errln!("\n{}", message(headline, &reg, &removed));
    // External solvers run in process groups of their own: end them with us.
    foreign::kill_children();
    std::process::exit(i32::from(EXIT_STATUS));
}

fn names(paths: &[PathBuf]) -> String {
    let mut out: Vec<String> = paths
        .iter()
        .take(NAMES_SHOWN)
        .map(|p| p.display().to_string())
        .collect();
    if paths.len() > NAMES_SHOWN {
        out.push(format!("and {} more", paths.len() - NAMES_SHOWN));
    }
    out.join(", ")
}

fn message(headline: &str, reg: &Registry, removed: &[PathBuf]) -> String {
    let mut parts = Vec::new();
    if !reg.kept.is_empty() {
        parts.push(format!(
            "kept {}: {}",
            crate::plumbing::human::plural(reg.kept.len(), "complete file"),
            names(&reg.kept)
        ));
    }
    if !removed.is_empty() {
        let (old, new): (Vec<PathBuf>, Vec<PathBuf>) =
            removed.iter().cloned().partition(|p| p.exists());
        if !new.is_empty() {
            parts.push(format!(
                "not written (unfinished, removed): {}",
                names(&new)
            ));
        }
        if !old.is_empty() {
            parts.push(format!(
                "left as it was (the unfinished new version removed): {}",
                names(&old)
            ));
        }
    }
    for (_, name) in &reg.streams {
        parts.push(format!("{name} got only part of its output"));
    }
    if parts.is_empty() {
        parts.push("nothing was written".into());
    }
    let mut text = format!("{headline} (status {EXIT_STATUS}): {}", parts.join("; "));
    if let Some(note) = &reg.note {
        text.push_str("; ");
        text.push_str(note);
    }
    text
}

/// Sets (or clears) a sentence added to the message a signal prints, such as how to finish what
/// was cut short.
pub fn set_note(note: Option<String>) {
    registry().note = note;
}

/// While alive, the first signal calls the callback of [`on_signal`] instead of exiting.
#[must_use = "the callback is removed when the guard is dropped"]
pub struct SignalGuard(());

impl Drop for SignalGuard {
    fn drop(&mut self) {
        *CALLBACK.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// Makes the first signal call `callback` (on the handler's thread) for as long as the guard
/// lives; a later signal, or one after the guard is dropped, exits as [`exit_now`] does. If a
/// signal already came, the callback is called at once.
pub fn on_signal(callback: impl Fn() + Send + Sync + 'static) -> SignalGuard {
    let cb: Callback = Arc::new(callback);
    *CALLBACK.lock().unwrap_or_else(|e| e.into_inner()) = Some(cb.clone());
    if signals() > 0 {
        cb();
    }
    SignalGuard(())
}

/// A registered temporary file: removed by the handler on a signal until [`TempGuard::commit`].
/// Dropping the guard unregisters it (the caller removes the file, as `tempfile` does).
pub struct TempGuard {
    id: u64,
}

/// Creates a temporary file with `create` and registers it (path from `path_of`) as the
/// unfinished version of `target`, both under the registry's lock, so a signal can never leave
/// it behind.
///
/// # Errors
/// Those of `create`.
pub fn create_temp<T, E>(
    target: &Path,
    create: impl FnOnce() -> Result<T, E>,
    path_of: impl FnOnce(&T) -> PathBuf,
) -> Result<(T, TempGuard), E> {
    let mut reg = registry();
    let made = create()?;
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    reg.temps.push((id, path_of(&made), target.to_path_buf()));
    Ok((made, TempGuard { id }))
}

impl TempGuard {
    /// Runs `rename` (which puts the temporary file in place) under the registry's lock, then
    /// records `target` as kept when it succeeded.
    ///
    /// # Errors
    /// Those of `rename`.
    pub fn commit<E>(self, rename: impl FnOnce() -> Result<(), E>) -> Result<(), E> {
        let mut reg = registry();
        let result = rename();
        if let Some(i) = reg.temps.iter().position(|t| t.0 == self.id) {
            let (_, _, target) = reg.temps.remove(i);
            if result.is_ok() && !reg.kept.contains(&target) {
                reg.kept.push(target);
            }
        }
        drop(reg);
        std::mem::forget(self);
        result
    }
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        registry().temps.retain(|t| t.0 != self.id);
    }
}

/// Records `path`, a file this process finished writing in place (not through a temporary
/// file), as kept: a later signal lists it among the complete files.
pub fn mark_kept(path: &std::path::Path) {
    let mut reg = registry();
    if !reg.kept.iter().any(|k| k == path) {
        reg.kept.push(path.to_path_buf());
    }
}

/// A registered output written in place (stdout, a FIFO, a device): a signal reports it as cut
/// short until the guard is dropped.
pub struct StreamGuard {
    id: u64,
}

/// Registers `name` (`stdout`, or a path) as an output being streamed.
pub fn stream(name: &str) -> StreamGuard {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    registry().streams.push((id, name.to_string()));
    StreamGuard { id }
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        registry().streams.retain(|s| s.0 != self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_says_what_was_kept_removed_and_cut_short() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.txt");
        std::fs::write(&old, "x").unwrap();
        let reg = Registry {
            kept: vec![PathBuf::from("run/results.csv")],
            streams: vec![(1, "stdout".into())],
            note: Some("run `harness report run`".into()),
            ..Registry::default()
        };
        let removed = [old.clone(), dir.path().join("new.txt")];
        let m = message("interrupted", &reg, &removed);
        assert!(m.starts_with("interrupted (status 130): kept 1 complete file: run/results.csv"));
        assert!(m.contains(&format!(
            "not written (unfinished, removed): {}",
            removed[1].display()
        )));
        assert!(m.contains(&format!(
            "left as it was (the unfinished new version removed): {}",
            old.display()
        )));
        assert!(m.contains("stdout got only part of its output"));
        assert!(m.ends_with("; run `harness report run`"), "{m}");
        assert_eq!(
            message("interrupted", &Registry::default(), &[]),
            "interrupted (status 130): nothing was written"
        );
    }

    #[test]
    fn a_committed_file_is_kept_and_a_dropped_one_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let temp_for = |target: &Path| {
            create_temp(
                target,
                || tempfile::NamedTempFile::new_in(dir.path()),
                |t| t.path().to_path_buf(),
            )
            .unwrap()
        };
        let target = dir.path().join("a.txt");
        let (tmp, guard) = temp_for(&target);
        assert!(registry().temps.iter().any(|t| t.1 == tmp.path()));
        guard.commit(|| tmp.persist(&target).map(|_| ())).unwrap();
        let reg = registry();
        assert!(reg.kept.contains(&target));
        assert!(!reg.temps.iter().any(|t| t.2 == target));
        drop(reg);
        let other = dir.path().join("b.txt");
        let (_tmp, guard) = temp_for(&other);
        drop(guard);
        assert!(!registry().temps.iter().any(|t| t.2 == other));
    }
}
