//! Writing a run's files whole or not at all: every file goes to a temporary name in the target
//! folder and is renamed into place once complete, so a crash never leaves a truncated file under
//! the final name.
//!
//! What an output path may be ([`resolve`]): `-` (stdout); a regular file or a new name (written
//! atomically as above); a symbolic link (followed: its target is written atomically, in the
//! target's own folder, and the link stays a link); a FIFO, a character device (`/dev/null`) or
//! any other file that is not a regular file (written in place, streaming, as a shell redirection
//! would; never renamed over); `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` (the process's own
//! descriptors). Every temporary file is registered with [`crate::plumbing::interrupt`], so a signal
//! removes it.
//!
//! The terminal too: every line the harness prints goes through [`outln!`](crate::outln) and
//! [`out!`](crate::out) (stdout: a failed write, a full disk or a closed descriptor, is an
//! [`StdoutError`] the command returns, never a panic) or [`errln!`](crate::errln) (stderr: a
//! note that cannot be written is dropped, as there is nowhere left to say so). `print!` and
//! `eprint!`, which panic on a failed write, are refused by the crate's lints.

use anyhow::Context;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A line or text that could not be written to stdout (a full disk, a closed descriptor).
#[derive(Debug, thiserror::Error)]
#[error("cannot write to stdout")]
pub struct StdoutError(#[source] pub std::io::Error);

/// Writes `args` to stdout (what [`out!`](crate::out) and [`outln!`](crate::outln) call).
///
/// # Errors
/// The failed write, as a [`StdoutError`].
pub fn to_stdout(args: std::fmt::Arguments<'_>) -> Result<(), StdoutError> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)
        .and_then(|()| out.flush())
        .map_err(StdoutError)
}

/// Writes `args` to stderr (what [`errln!`](crate::errln) calls); a failed write is dropped.
pub fn to_stderr(args: std::fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// `print!` that returns a [`StdoutError`] instead of panicking when stdout cannot be written.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::plumbing::output::to_stdout(format_args!($($arg)*))
    };
}

/// `println!` that returns a [`StdoutError`] instead of panicking when stdout cannot be written.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::plumbing::output::to_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::plumbing::output::to_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` that never panics: a line stderr cannot take is dropped.
#[macro_export]
macro_rules! errln {
    () => {
        $crate::plumbing::output::to_stderr(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::plumbing::output::to_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Where an output path leads (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sink {
    /// The process's stdout (`-`, `/dev/stdout`, `/dev/fd/1`).
    Stdout,
    /// The process's stderr (`/dev/stderr`, `/dev/fd/2`).
    Stderr,
    /// A file that is not a regular file (FIFO, character or block device, another `/dev/fd/N`):
    /// opened and written in place.
    Stream(PathBuf),
    /// A regular file, or a name not yet taken: written to a temporary file in its folder and
    /// renamed over it. The path is the file itself, symbolic links followed.
    File(PathBuf),
}

/// Most symbolic links followed in a row (as the kernel's `ELOOP` limit).
const MAX_LINKS: usize = 40;

/// The descriptor number when `p` names one of the process's own descriptors: `/dev/stdin`,
/// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, `/proc/thread-self/fd/N` or
/// `/proc/<this pid>/fd/N`.
fn own_descriptor(p: &Path) -> Option<u32> {
    let s = p.to_str()?;
    match s {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let fd = if let Some(n) = s.strip_prefix("/dev/fd/") {
        n
    } else {
        let rest = s.strip_prefix("/proc/")?;
        let (who, n) = rest.split_once("/fd/")?;
        let me = std::process::id().to_string();
        if who != "self" && who != "thread-self" && who != me {
            return None;
        }
        n
    };
    fd.parse().ok()
}

/// Where writing `path` leads: see [`Sink`]. `-` is stdout.
///
/// # Errors
/// `cannot write PATH: ...` for a chain of more than 40 symbolic links, or a link that cannot be
/// read.
pub fn resolve(path: &Path) -> anyhow::Result<Sink> {
    if path.as_os_str() == "-" {
        return Ok(Sink::Stdout);
    }
    let mut p = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        match own_descriptor(&p) {
            Some(1) => return Ok(Sink::Stdout),
            Some(2) => return Ok(Sink::Stderr),
            Some(_) => return Ok(Sink::Stream(p)),
            None => {}
        }
        // A missing name, or a folder that does not exist or is not one: a new file, and
        // `temp_in` names what is wrong.
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            return Ok(Sink::File(p));
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let to = std::fs::read_link(&p)
                .with_context(|| format!("cannot write {}: reading the link", path.display()))?;
            p = match p.parent() {
                Some(dir) if to.is_relative() => dir.join(to),
                _ => to,
            };
        } else if kind.is_file() || kind.is_dir() {
            return Ok(Sink::File(p));
        } else {
            return Ok(Sink::Stream(p));
        }
    }
    anyhow::bail!(
        "cannot write {}: more than {MAX_LINKS} symbolic links in a row (a loop?)",
        path.display()
    )
}

/// A temporary file that becomes its target file when [`AtomicFile::commit`]ted; a signal before
/// that removes it ([`crate::plumbing::interrupt`]); dropped uncommitted, it is removed.
pub struct AtomicFile {
    tmp: tempfile::NamedTempFile,
    guard: crate::plumbing::interrupt::TempGuard,
    /// The file itself (symbolic links followed).
    target: PathBuf,
    /// The path as the caller gave it, for messages.
    shown: PathBuf,
}

impl AtomicFile {
    /// The temporary file's path (for writers that open a path themselves).
    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// The temporary file.
    pub fn as_file_mut(&mut self) -> &mut std::fs::File {
        self.tmp.as_file_mut()
    }

    /// Gives the file the permissions of the file it replaces (0644 for a new one) and renames
    /// it over its target.
    ///
    /// # Errors
    /// When the rename fails.
    pub fn commit(self) -> anyhow::Result<()> {
        if let Some(d) = test_write_delay() {
            std::thread::sleep(d);
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // tempfile creates the file with mode 0600; a result file is an ordinary file.
            let perms = std::fs::metadata(&self.target)
                .map(|m| m.permissions())
                .unwrap_or_else(|_| std::fs::Permissions::from_mode(0o644));
            let _ = std::fs::set_permissions(self.tmp.path(), perms);
        }
        let AtomicFile {
            tmp,
            guard,
            target,
            shown,
        } = self;
        guard
            .commit(|| tmp.persist(&target).map(|_| ()).map_err(|e| e.error))
            .with_context(|| format!("renaming into place: {}", shown.display()))
    }
}

/// Creates the temporary file that will be renamed to `path`: `.NAME.XXXXXX<suffix>` in the
/// folder of the file `path` leads to (symbolic links followed; the same file system, so the
/// rename is atomic), registered with [`crate::plumbing::interrupt`].
///
/// # Errors
/// `cannot write PATH: ...` naming the path as given and why: it is a folder, not a regular file
/// (a FIFO or device cannot be replaced; [`write_atomic`] streams into those), its folder does not
/// exist or is not a folder, or the folder refuses a new file (permissions, a read-only file
/// system). The temporary name is never shown.
pub fn temp_beside(path: &Path, suffix: &str) -> anyhow::Result<AtomicFile> {
    match resolve(path)? {
        Sink::File(target) => temp_in(path, target, suffix),
        _ => anyhow::bail!(
            "cannot write {}: not a regular file (a FIFO, a device or a descriptor)",
            path.display()
        ),
    }
}

fn temp_in(shown: &Path, target: PathBuf, suffix: &str) -> anyhow::Result<AtomicFile> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let link = if target.as_path() != shown {
        format!(" (a link to {})", target.display())
    } else {
        String::new()
    };
    let fail = |why: String| anyhow::anyhow!("cannot write {}{link}: {why}", shown.display());
    if target.is_dir() {
        return Err(fail("it is a folder; give a file name".into()));
    }
    match std::fs::metadata(&dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(fail(format!("folder {} does not exist", dir.display())))
        }
        Ok(m) if !m.is_dir() => return Err(fail(format!("{} is not a folder", dir.display()))),
        _ => {}
    }
    let prefix = format!(
        ".{}.",
        target
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    );
    let (tmp, guard) = crate::plumbing::interrupt::create_temp(
        shown,
        || {
            tempfile::Builder::new()
                .prefix(&prefix)
                .suffix(suffix)
                .tempfile_in(&dir)
        },
        |t| t.path().to_path_buf(),
    )
    // tempfile's message names the temporary file; say what failed in the user's terms.
    .map_err(|e| {
        fail(format!(
            "cannot create a file in {}: {}",
            dir.display(),
            std::io::Error::from(e.kind())
        ))
    })?;
    Ok(AtomicFile {
        tmp,
        guard,
        target,
        shown: shown.to_path_buf(),
    })
}

/// Writes `path` whole or not at all (see the module docs for what `path` may be): `write` fills
/// a temporary file beside the file `path` leads to, which is flushed, synced and renamed over
/// it. Into stdout, stderr, a FIFO or a device, `write` streams directly (buffered).
///
/// # Errors
/// When the folder is not writable, the writer fails, or the rename fails; a regular file is then
/// left as it was. A stream that fails part-way has received part of the output.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let what = || format!("writing {}", path.display());
    let target = match resolve(path)? {
        Sink::File(target) => target,
        Sink::Stdout => return stream(&mut std::io::stdout().lock(), "stdout", write),
        Sink::Stderr => return stream(&mut std::io::stderr().lock(), "stderr", write),
        Sink::Stream(p) => {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .open(&p)
                .with_context(|| format!("cannot write {}", path.display()))?;
            return stream(&mut file, &path.display().to_string(), write);
        }
    };
    let mut tmp = temp_in(path, target, ".tmp")?;
    {
        let mut buf = std::io::BufWriter::new(tmp.as_file_mut());
        write(&mut buf).with_context(what)?;
        buf.flush().with_context(what)?;
    }
    // Data can first fail to reach the disk here (a full disk with delayed allocation, NFS);
    // only file systems that cannot sync at all are let through.
    if let Err(e) = tmp.as_file_mut().sync_all() {
        if !matches!(
            e.kind(),
            std::io::ErrorKind::Unsupported | std::io::ErrorKind::InvalidInput
        ) {
            return Err(e).with_context(what);
        }
    }
    tmp.commit()
}

/// Streams `write` into `out` through a 1 MiB buffer, registered as a stream named `name` (a
/// signal then reports it as cut short).
fn stream(
    out: &mut dyn Write,
    name: &str,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let _streaming = crate::plumbing::interrupt::stream(name);
    let mut w = std::io::BufWriter::with_capacity(1 << 20, out);
    write(&mut w).with_context(|| format!("writing {name}"))?;
    w.flush().with_context(|| format!("writing {name}"))?;
    Ok(())
}

/// An optional run setting as users write it: the value, or `none`.
pub fn setting<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "none".to_string(), |v| v.to_string())
}

/// Refuses to write `out` over `input` (the same file, through any path or link): the input
/// would be replaced by the output.
///
/// # Errors
/// When both name one file: `refusing to write OUT over the input INPUT; give another output`.
pub fn refuse_same_file(input: &Path, out: &Path) -> anyhow::Result<()> {
    let same = match (std::fs::metadata(input), std::fs::metadata(out)) {
        #[cfg(unix)]
        (Ok(a), Ok(b)) => {
            use std::os::unix::fs::MetadataExt;
            a.is_file() && a.dev() == b.dev() && a.ino() == b.ino()
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => std::fs::canonicalize(input).ok() == std::fs::canonicalize(out).ok(),
        _ => false,
    };
    if same {
        anyhow::bail!(
            "refusing to write {} over the input {}: it would be replaced; give another output",
            out.display(),
            input.display()
        );
    }
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
/// that long after each row, and every file written atomically that long before it is renamed
/// into place, so the crash-safety and signal tests can stop a process while it writes.
/// Not for users; unset, it costs one environment lookup per file.
pub(crate) fn test_write_delay() -> Option<std::time::Duration> {
    std::env::var("HARNESS_TEST_SLOW_WRITE_MS")
        .ok()?
        .parse()
        .ok()
        .map(std::time::Duration::from_millis)
}

/// Checks before a long run that `dir` can be created and written, so a run never solves for an
/// hour and then fails to save.
///
/// # Errors
/// When the folder cannot be created or a file cannot be made in it.
pub fn ensure_writable(dir: &Path) -> anyhow::Result<()> {
    // `create_dir_all` says only "File exists" (or "Not a directory") when the folder, or one of
    // the folders above it, is a file: name the file.
    if let Some(file) = dir
        .ancestors()
        .find(|a| !a.as_os_str().is_empty() && std::fs::metadata(a).is_ok_and(|m| !m.is_dir()))
    {
        if file == dir {
            anyhow::bail!(
                "cannot use {} as the output folder: it is a file, not a folder; give a folder \
                 (new or existing)",
                dir.display()
            );
        }
        anyhow::bail!(
            "cannot create output folder {}: {} is a file, not a folder",
            dir.display(),
            file.display()
        );
    }
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

    #[cfg(unix)]
    #[test]
    fn resolve_tells_files_links_and_special_files_apart() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("data")).unwrap();
        std::fs::write(d.join("data/target.txt"), "x").unwrap();
        std::os::unix::fs::symlink("data/target.txt", d.join("link")).unwrap();
        std::os::unix::fs::symlink("link", d.join("link2")).unwrap();
        std::os::unix::fs::symlink("data/missing.txt", d.join("dangling")).unwrap();
        std::os::unix::fs::symlink("/dev/null", d.join("null")).unwrap();
        std::os::unix::fs::symlink("loop-b", d.join("loop-a")).unwrap();
        std::os::unix::fs::symlink("loop-a", d.join("loop-b")).unwrap();
        let fifo = d.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) on a path we own, NUL-terminated.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let file = |p: &str| Sink::File(d.join(p));
        assert_eq!(resolve(Path::new("-")).unwrap(), Sink::Stdout);
        assert_eq!(resolve(Path::new("/dev/stdout")).unwrap(), Sink::Stdout);
        assert_eq!(resolve(Path::new("/dev/fd/1")).unwrap(), Sink::Stdout);
        assert_eq!(resolve(Path::new("/proc/self/fd/2")).unwrap(), Sink::Stderr);
        assert_eq!(resolve(&d.join("new.txt")).unwrap(), file("new.txt"));
        assert_eq!(resolve(&d.join("link")).unwrap(), file("data/target.txt"));
        assert_eq!(resolve(&d.join("link2")).unwrap(), file("data/target.txt"));
        assert_eq!(
            resolve(&d.join("dangling")).unwrap(),
            file("data/missing.txt")
        );
        assert_eq!(resolve(&fifo).unwrap(), Sink::Stream(fifo.clone()));
        let null = PathBuf::from("/dev/null");
        assert_eq!(resolve(&null).unwrap(), Sink::Stream(null.clone()));
        assert_eq!(resolve(&d.join("null")).unwrap(), Sink::Stream(null));
        let e = resolve(&d.join("loop-a")).unwrap_err().to_string();
        assert!(e.contains("symbolic links in a row"), "{e}");
        // A link's target is written in its own folder, and the link stays a link.
        write_atomic(&d.join("link2"), |w| Ok(w.write_all(b"new\n")?)).unwrap();
        assert_eq!(
            std::fs::read_to_string(d.join("data/target.txt")).unwrap(),
            "new\n"
        );
        assert!(std::fs::symlink_metadata(d.join("link2"))
            .unwrap()
            .file_type()
            .is_symlink());
        let mut names: Vec<_> = std::fs::read_dir(d.join("data"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["target.txt"]);
    }

    #[test]
    fn a_file_named_as_the_output_folder_is_called_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("afile");
        std::fs::write(&file, "x").unwrap();
        let err = format!("{:#}", ensure_writable(&file).unwrap_err());
        assert!(err.contains("it is a file, not a folder"), "{err}");
        assert!(!err.contains("os error"), "{err}");
        let err = format!("{:#}", ensure_writable(&file.join("sub")).unwrap_err());
        assert!(err.contains("afile is a file, not a folder"), "{err}");
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
