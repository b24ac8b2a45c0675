//! Writing a run folder: `results.csv` (whole rows, appended as a run goes, or all at once),
//! `summary.csv` and `run.json`, each atomically ([`crate::plumbing::output::write_atomic`]).

use super::{Row, RunInfo};
use crate::plumbing::output::{test_write_delay, write_atomic, write_csv};
use anyhow::Context;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Writes `results.csv`, `summary.csv` and `run.json` into `dir` (created if missing), each
/// atomically, `run.json` last (an old `run.json` is removed first), so a folder with a
/// `run.json` holds three complete files of one run.
///
/// # Errors
/// When the folder cannot be created or a file cannot be written.
pub fn write_run(
    dir: &Path,
    rows: &[Row],
    summary: &[impl Serialize],
    info: &RunInfo,
) -> anyhow::Result<()> {
    clear_run(dir)?;
    write_csv(&dir.join("results.csv"), rows)?;
    write_csv(&dir.join("summary.csv"), summary)?;
    write_info(dir, info)
}

/// Makes `dir` (created if missing) ready for a run written file by file, run.json last:
/// removes an older run's run.json (it must not vouch for new files) and its report (which
/// `--no-report` would otherwise leave beside the new results).
///
/// # Errors
/// When the folder cannot be created or run.json cannot be removed.
pub fn clear_run(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    match std::fs::remove_file(dir.join("run.json")) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(e).with_context(|| format!("replacing {}", dir.join("run.json").display()))
        }
        _ => {}
    }
    for stale in ["index.html", "plots.html", "details.html", "summary.md"] {
        let _ = std::fs::remove_file(dir.join(stale));
    }
    let _ = std::fs::remove_dir_all(dir.join("plots"));
    Ok(())
}

/// Starts a run in `dir` (created if missing) whose rows are appended as they finish: removes
/// the files of an older run there (run.json first, summary.csv, the report), then writes
/// `info` as run.json (atomically; the caller sets `complete: false`, `interrupted: true`, so a
/// run killed from here on says its rows are partial), then creates `results.csv` empty.
///
/// # Errors
/// When the folder cannot be created or a file cannot be removed or written.
pub fn start_run(dir: &Path, info: &RunInfo) -> anyhow::Result<ResultsWriter> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for stale in [
        "run.json",
        "results.csv",
        "summary.csv",
        "index.html",
        "plots.html",
        "details.html",
        "summary.md",
    ] {
        match std::fs::remove_file(dir.join(stale)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("replacing {}", dir.join(stale).display()))
            }
            _ => {}
        }
    }
    let _ = std::fs::remove_dir_all(dir.join("plots"));
    write_info(dir, info)?;
    ResultsWriter::open(&dir.join("results.csv"), None)
}

/// Ends a run started with [`start_run`]: writes `summary.csv`, then `info` as run.json (each
/// atomically).
///
/// # Errors
/// When a file cannot be written.
pub fn finish_run(dir: &Path, summary: &[impl Serialize], info: &RunInfo) -> anyhow::Result<()> {
    write_csv(&dir.join("summary.csv"), summary)?;
    write_info(dir, info)
}

/// Writes `info` as `dir/run.json`, atomically.
///
/// # Errors
/// As [`write_atomic`].
pub fn write_info(dir: &Path, info: &RunInfo) -> anyhow::Result<()> {
    write_atomic(&dir.join("run.json"), |w| {
        serde_json::to_writer_pretty(&mut *w, info)?;
        writeln!(w)?;
        Ok(())
    })
}

/// `results.csv` written in place as a run goes: each [`ResultsWriter::append`] writes whole
/// rows and flushes them to the file, so a process killed between two appends leaves only whole
/// lines (one killed inside an append may leave a cut last line, without its newline). A signal
/// reports the file as cut short while it is open.
pub struct ResultsWriter {
    csv: csv::Writer<std::io::BufWriter<std::fs::File>>,
    path: PathBuf,
    delay: Option<std::time::Duration>,
    _streaming: crate::plumbing::interrupt::StreamGuard,
}

impl ResultsWriter {
    /// Opens `path` for rows: created or emptied when `keep` is `None` (the header comes with the
    /// first row); else cut to its first `keep` bytes (whole lines, header included) and
    /// appended to.
    ///
    /// # Errors
    /// When the file cannot be opened or cut.
    pub fn open(path: &Path, keep: Option<u64>) -> anyhow::Result<ResultsWriter> {
        let what = || format!("cannot write {}", path.display());
        let file = match keep {
            None => std::fs::File::create(path).with_context(what)?,
            Some(len) => {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .with_context(what)?;
                f.set_len(len).with_context(what)?;
                let mut f = f;
                std::io::Seek::seek(&mut f, std::io::SeekFrom::End(0)).with_context(what)?;
                f
            }
        };
        let csv = csv::WriterBuilder::new()
            .has_headers(keep.map_or(true, |len| len == 0))
            .from_writer(std::io::BufWriter::with_capacity(1 << 20, file));
        Ok(ResultsWriter {
            csv,
            path: path.to_path_buf(),
            delay: test_write_delay(),
            _streaming: crate::plumbing::interrupt::stream(&path.display().to_string()),
        })
    }

    /// Appends `rows` and flushes them to the file.
    ///
    /// # Errors
    /// When writing fails (a full disk): the file then ends somewhere in these rows.
    pub fn append(&mut self, rows: &[Row]) -> anyhow::Result<()> {
        let what = || format!("writing {}", self.path.display());
        for r in rows {
            self.csv.serialize(r).with_context(what)?;
            if let Some(d) = self.delay {
                self.csv.flush().with_context(what)?;
                std::thread::sleep(d);
            }
        }
        self.csv.flush().with_context(what)?;
        Ok(())
    }

    /// Flushes, syncs and closes the file.
    ///
    /// # Errors
    /// When the data cannot be written or synced.
    pub fn finish(self) -> anyhow::Result<()> {
        let what = || format!("writing {}", self.path.display());
        let file = self
            .csv
            .into_inner()
            .map_err(|e| anyhow::anyhow!("{}", e.error()))
            .with_context(what)?
            .into_inner()
            .map_err(|e| anyhow::anyhow!("{}", e.error()))
            .with_context(what)?;
        if let Err(e) = file.sync_all() {
            if !matches!(
                e.kind(),
                std::io::ErrorKind::Unsupported | std::io::ErrorKind::InvalidInput
            ) {
                return Err(e).with_context(what);
            }
        }
        crate::plumbing::interrupt::mark_kept(&self.path);
        Ok(())
    }
}
