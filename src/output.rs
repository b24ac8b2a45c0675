//! Writing a run's files whole or not at all: every file goes to a temporary name in the target
//! folder and is renamed into place once complete, so a crash never leaves a truncated file under
//! the final name.

use crate::runner::Row;
use crate::summary::SummaryRow;
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// Creates the temporary file that will be renamed to `path`: `.NAME.XXXXXX<suffix>` in `path`'s
/// folder (the same file system, so the rename is atomic).
///
/// # Errors
/// `cannot write PATH: ...` naming the path as given and why: it is a folder, its folder does not
/// exist or is not a folder, or the folder refuses a new file (permissions, a read-only file
/// system). The temporary name is never shown.
pub fn temp_beside(path: &Path, suffix: &str) -> anyhow::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let fail = |why: String| anyhow::anyhow!("cannot write {}: {why}", path.display());
    if path.is_dir() {
        return Err(fail("it is a folder; give a file name".into()));
    }
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(fail(format!("folder {} does not exist", dir.display())))
        }
        Ok(m) if !m.is_dir() => return Err(fail(format!("{} is not a folder", dir.display()))),
        _ => {}
    }
    tempfile::Builder::new()
        .prefix(&format!(
            ".{}.",
            path.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        ))
        .suffix(suffix)
        .tempfile_in(dir)
        // tempfile's message names the temporary file; say what failed in the user's terms.
        .map_err(|e| {
            fail(format!(
                "cannot create a file in {}: {}",
                dir.display(),
                std::io::Error::from(e.kind())
            ))
        })
}

/// Writes `path` atomically: `write` fills a temporary file beside it, which is flushed, synced and
/// renamed over `path`.
///
/// # Errors
/// When the folder is not writable, the writer fails, or the rename fails; `path` is then left as
/// it was.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut tmp = temp_beside(path, ".tmp")?;
    {
        let mut buf = std::io::BufWriter::new(tmp.as_file_mut());
        write(&mut buf).with_context(|| format!("writing {}", path.display()))?;
        buf.flush()
            .with_context(|| format!("writing {}", path.display()))?;
    }
    // Data can first fail to reach the disk here (a full disk with delayed allocation, NFS);
    // only file systems that cannot sync at all are let through.
    if let Err(e) = tmp.as_file().sync_all() {
        if !matches!(
            e.kind(),
            std::io::ErrorKind::Unsupported | std::io::ErrorKind::InvalidInput
        ) {
            return Err(e).with_context(|| format!("writing {}", path.display()));
        }
    }
    // tempfile creates the file with mode 0600; a result file is an ordinary file (0644).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = tmp
            .as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644));
    }
    tmp.persist(path)
        .with_context(|| format!("renaming into place: {}", path.display()))?;
    Ok(())
}

/// Writes rows as CSV with a header (atomically).
///
/// # Errors
/// As [`write_atomic`].
pub fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> anyhow::Result<()> {
    let delay = test_write_delay();
    write_atomic(path, |w| {
        let mut csv = csv::Writer::from_writer(w);
        for r in rows {
            csv.serialize(r)?;
            if let Some(d) = delay {
                csv.flush()?;
                std::thread::sleep(d);
            }
        }
        csv.flush()?;
        Ok(())
    })
}

/// A test hook: the environment variable `HARNESS_TEST_SLOW_WRITE_MS` makes [`write_csv`] sleep
/// that long after each row, so the crash-safety tests can kill a process while it writes.
/// Not for users; unset, it costs one environment lookup per file.
fn test_write_delay() -> Option<std::time::Duration> {
    std::env::var("HARNESS_TEST_SLOW_WRITE_MS")
        .ok()?
        .parse()
        .ok()
        .map(std::time::Duration::from_millis)
}

/// One dataset as recorded in `run.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct DatasetInfo {
    /// Name used in the rows.
    pub name: String,
    /// `shipped:NAME` or the path.
    pub source: String,
    /// `line`, `block` or `csv`.
    pub format: String,
    /// Puzzles in the file, invalid ones included.
    pub puzzles: usize,
    /// Puzzles that could not be read.
    pub invalid: usize,
}

/// The run's metadata, written as `run.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RunInfo {
    /// `harness` version.
    pub harness_version: String,
    /// Solver names, in report order.
    pub solvers: Vec<String>,
    /// The datasets.
    pub datasets: Vec<DatasetInfo>,
    /// Worker threads.
    pub threads: usize,
    /// Per-puzzle deadline, ms (`null` = none).
    pub timeout_ms: Option<u64>,
    /// Per-puzzle node limit (`null` = none).
    pub max_nodes: Option<u64>,
    /// Git commit the binary was built from (`-dirty` if the tree had changes).
    pub git_commit: String,
    /// `rustc --version` of the build.
    pub rustc: String,
    /// CPU model from /proc/cpuinfo.
    pub cpu: String,
    /// Logical cores on the machine.
    pub cores: usize,
    /// Host name.
    pub host: String,
    /// When the run started, RFC 3339 UTC.
    pub date: String,
    /// Wall time of the whole run, s.
    pub elapsed_seconds: f64,
    /// True when the run was stopped early (rows then cover only what finished).
    pub interrupted: bool,
    /// The command line.
    pub command: Vec<String>,
    /// This run's slice of the puzzles when run with `--shard K/N` (absent for a whole run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::shard::Shard>,
    /// For a run joined by `harness merge`: each shard's machine and timing (absent otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<crate::shard::ShardRecord>,
    /// Each solver's origin and version; for external solvers the library or command with the
    /// size and sha256 of its files (empty in run.json files written before the field existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub solver_details: Vec<crate::registry::SolverRecord>,
}

/// The CPU model name, from `/proc/cpuinfo` (`unknown` elsewhere).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// The host name (`unknown` if it cannot be read).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .or_else(|_| std::env::var("HOSTNAME"))
        .unwrap_or_else(|_| "unknown".into())
}

/// Writes `results.csv`, `summary.csv` and `run.json` into `dir` (created if missing), each
/// atomically, `run.json` last (an old `run.json` is removed first), so a folder with a
/// `run.json` holds three complete files of one run.
///
/// # Errors
/// When the folder cannot be created or a file cannot be written.
pub fn write_run(
    dir: &Path,
    rows: &[Row],
    summary: &[SummaryRow],
    info: &RunInfo,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    // run.json goes last and marks a complete folder: an old one must not vouch for new files.
    match std::fs::remove_file(dir.join("run.json")) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(e).with_context(|| format!("replacing {}", dir.join("run.json").display()))
        }
        _ => {}
    }
    // A reused folder must not keep the report of an older run beside the new results
    // (`--no-report` would otherwise leave it there, describing other solvers).
    for stale in ["index.html", "summary.md"] {
        let _ = std::fs::remove_file(dir.join(stale));
    }
    let _ = std::fs::remove_dir_all(dir.join("plots"));
    write_csv(&dir.join("results.csv"), rows)?;
    write_csv(&dir.join("summary.csv"), summary)?;
    write_atomic(&dir.join("run.json"), |w| {
        serde_json::to_writer_pretty(&mut *w, info)?;
        writeln!(w)?;
        Ok(())
    })
}

/// Checks before a long run that `dir` can be created and written, so a run never solves for an
/// hour and then fails to save.
///
/// # Errors
/// When the folder cannot be created or a file cannot be made in it.
pub fn ensure_writable(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create output folder {}", dir.display()))?;
    tempfile::tempfile_in(dir)
        .with_context(|| format!("output folder {} is not writable", dir.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.csv");
        std::fs::write(&path, "old\n").unwrap();
        // A full disk, as the writer sees it.
        let err = write_atomic(&path, |w| {
            w.write_all(b"new, partial")?;
            Err(std::io::Error::from_raw_os_error(28).into()) // ENOSPC
        })
        .unwrap_err();
        assert!(format!("{err:#}").contains("writing"), "{err:#}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "temporary file left behind");
        write_atomic(&path, |w| Ok(w.write_all(b"new\n")?)).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
    }

    #[test]
    fn unwritable_folders_are_refused_up_front() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, "x").unwrap();
        // A folder under a regular file cannot exist (this holds for root too).
        let err = ensure_writable(&file.join("sub")).unwrap_err();
        assert!(
            format!("{err:#}").starts_with("cannot create output folder"),
            "{err:#}"
        );
    }
}
