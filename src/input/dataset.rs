//! Datasets: the sets shipped inside the binary, and loading a set by name or path.
//!
//! Shipped sets live in `datasets/` and are compiled in with `include_str!`, so `harness run`
//! needs no file on disk. `datasets/README.md` gives each file's format, count and origin.

use crate::input::format::{Entry, Format, PuzzleReader};
use anyhow::Context;
use std::path::Path;

/// A dataset compiled into the binary.
#[derive(Debug, Clone, Copy)]
pub struct Shipped {
    /// The name used on the command line and in reports.
    pub name: &'static str,
    /// The file under `datasets/`.
    pub file: &'static str,
    /// One line on what it holds.
    pub description: &'static str,
    /// The file's text.
    pub text: &'static str,
    /// Part of the default `harness run`.
    pub default: bool,
}

/// Every shipped 9x9 dataset, in report order (the other shapes: [`SHIPPED_SHAPES`]).
pub const SHIPPED: &[Shipped] = &[
    Shipped {
        name: "seed",
        file: "seed.csv",
        description: "the two puzzles of the source write-up, one the \"17-second hard case\"",
        text: include_str!("../../datasets/seed.csv"),
        default: true,
    },
    Shipped {
        name: "named-hard",
        file: "named-hard.csv",
        description: "well-known hard puzzles published under their names",
        text: include_str!("../../datasets/named-hard.csv"),
        default: true,
    },
    Shipped {
        name: "minimal-200",
        file: "minimal-200.csv",
        description: "the first 200 puzzles of minimal-1000 (a quick set; not in the default run)",
        text: include_str!("../../datasets/minimal-200.csv"),
        default: false,
    },
    Shipped {
        name: "clues30-1000",
        file: "clues30-1000.csv",
        description: "1000 generated puzzles with exactly 30 givens, unique solution",
        text: include_str!("../../datasets/clues30-1000.csv"),
        default: true,
    },
    Shipped {
        name: "minimal-1000",
        file: "minimal-1000.csv",
        description:
            "1000 generated minimal puzzles (the first 200 are minimal-200), about 24 givens",
        text: include_str!("../../datasets/minimal-1000.csv"),
        default: true,
    },
    Shipped {
        name: "clues22-200",
        file: "clues22-200.csv",
        description: "200 generated puzzles with exactly 22 givens, unique solution (sparse: the naive searches' tails)",
        text: include_str!("../../datasets/clues22-200.csv"),
        default: true,
    },
    Shipped {
        name: "level-easy",
        file: "level-easy.csv",
        description: "100 generated minimal puzzles that `harness rate` rates Easy",
        text: include_str!("../../datasets/level-easy.csv"),
        default: false,
    },
    Shipped {
        name: "level-medium",
        file: "level-medium.csv",
        description: "100 generated minimal puzzles that `harness rate` rates Medium",
        text: include_str!("../../datasets/level-medium.csv"),
        default: false,
    },
    Shipped {
        name: "level-hard",
        file: "level-hard.csv",
        description: "100 generated minimal puzzles that `harness rate` rates Hard",
        text: include_str!("../../datasets/level-hard.csv"),
        default: false,
    },
    Shipped {
        name: "level-unfair",
        file: "level-unfair.csv",
        description: "100 generated minimal puzzles that `harness rate` rates Unfair",
        text: include_str!("../../datasets/level-unfair.csv"),
        default: false,
    },
    Shipped {
        name: "level-extreme",
        file: "level-extreme.csv",
        description: "100 generated minimal puzzles that `harness rate` rates Extreme",
        text: include_str!("../../datasets/level-extreme.csv"),
        default: false,
    },
];

/// The shipped datasets of other shapes than 9x9, in report order. Kept apart from [`SHIPPED`]
/// (whose every consumer, `harness regress` and `rate` among them, takes 9x9 grids) and never in
/// the default run; found by name as the others are ([`find`], [`load`], [`open`]).
pub const SHIPPED_SHAPES: &[Shipped] = &[
    Shipped {
        name: "gecode-16",
        file: "gecode-16x16.txt",
        description: "55 16x16 puzzles (4x4 boxes) from janko.at, as Gecode's examples ship them",
        text: include_str!("../../datasets/gecode-16x16.txt"),
        default: false,
    },
    Shipped {
        name: "gecode-25",
        file: "gecode-25x25.txt",
        description: "18 25x25 puzzles (5x5 boxes), 16 minimal ones from Alain Frisch, via Gecode",
        text: include_str!("../../datasets/gecode-25x25.txt"),
        default: false,
    },
    Shipped {
        name: "sudoku-4x4",
        file: "sudoku-4x4.txt",
        description: "40 generated minimal 4x4 puzzles (2x2 boxes)",
        text: include_str!("../../datasets/sudoku-4x4.txt"),
        default: false,
    },
    Shipped {
        name: "sudoku-6x6",
        file: "sudoku-6x6.txt",
        description: "40 generated minimal 6x6 puzzles (2x3 boxes)",
        text: include_str!("../../datasets/sudoku-6x6.txt"),
        default: false,
    },
    Shipped {
        name: "sudoku-12x12",
        file: "sudoku-12x12.txt",
        description: "30 generated minimal 12x12 puzzles (3x4 boxes)",
        text: include_str!("../../datasets/sudoku-12x12.txt"),
        default: false,
    },
    Shipped {
        name: "sudoku-16x16",
        file: "sudoku-16x16.txt",
        description: "30 generated minimal 16x16 puzzles (4x4 boxes)",
        text: include_str!("../../datasets/sudoku-16x16.txt"),
        default: false,
    },
    Shipped {
        name: "qwh-20",
        file: "qwh-20.txt",
        description: "30 quasigroups with holes: order-20 Latin squares, 42% holes",
        text: include_str!("../../datasets/qwh-20.txt"),
        default: false,
    },
];

/// Refuses `reader`, read from `source`, when it holds no puzzle: the [`no_puzzle`] error of
/// that one source.
///
/// # Errors
/// When the reader holds no puzzle.
pub fn refuse_empty(reader: &mut PuzzleReader, source: &str, done: &str) -> anyhow::Result<()> {
    if reader.is_empty() {
        return Err(no_puzzle(&[(source, reader.format())], done));
    }
    Ok(())
}

/// The error of an input that holds no puzzle (an empty file, only blank and comment lines, or a
/// CSV file of its header alone), naming each source (`-` as stdin) with what it holds, and
/// saying that nothing was `done` ("run", "solved", "rated"): `run`, `solve`, `rate` and the
/// classic `-s` refuse such input alike (exit status 2), as a mistyped path would otherwise
/// pass for a finished job. Each source comes with its detected format: a CSV one has a header
/// (the format is detected from it), so without a puzzle it holds only that header.
pub fn no_puzzle(sources: &[(&str, Format)], done: &str) -> anyhow::Error {
    let name = |s: &str| if s == "-" { "stdin" } else { s }.to_string();
    let (headers, blanks): (Vec<_>, Vec<_>) = sources.iter().partition(|(_, f)| *f == Format::Csv);
    let names = |list: &[&(&str, Format)]| {
        list.iter()
            .map(|(s, _)| name(s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // What a group holds, its verbs agreeing with the group's size ("it is", "they are").
    let blank = |n: usize| {
        if n == 1 {
            "is empty or holds only blank and comment lines"
        } else {
            "are empty or hold only blank and comment lines"
        }
    };
    let header = |n: usize| {
        if n == 1 {
            "holds only a CSV header"
        } else {
            "hold only a CSV header each"
        }
    };
    let what = match (headers.len(), blanks.len()) {
        (0, n) => format!("{} {}", if n == 1 { "it" } else { "they" }, blank(n)),
        (n, 0) => format!("{} {}", if n == 1 { "it" } else { "they" }, header(n)),
        (h, b) => format!(
            "{} {}, {} {}",
            names(&blanks),
            blank(b),
            names(&headers),
            header(h)
        ),
    };
    let all: Vec<String> = sources.iter().map(|(s, _)| name(s)).collect();
    anyhow::anyhow!(
        "no puzzle in {}: {what}; nothing was {done}",
        all.join(", ")
    )
}

/// Every shipped dataset: [`SHIPPED`] (9x9), then [`SHIPPED_SHAPES`].
pub fn all_shipped() -> impl Iterator<Item = &'static Shipped> {
    SHIPPED.iter().chain(SHIPPED_SHAPES)
}

/// The shipped dataset named `name`, of any shape.
pub fn find(name: &str) -> Option<&'static Shipped> {
    all_shipped().find(|s| s.name == name)
}

/// A loaded dataset: every entry of one file, good and bad.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// Shipped name, or the file name of a path.
    pub name: String,
    /// Where it came from: `shipped:NAME` or the path as given.
    pub source: String,
    /// The detected format.
    pub format: Format,
    /// Every puzzle, in file order.
    pub entries: Vec<Entry>,
}

impl Dataset {
    /// Number of puzzles that could not be read.
    pub fn invalid(&self) -> usize {
        self.entries.iter().filter(|e| e.puzzle.is_err()).count()
    }
}

/// Loads a shipped dataset.
pub fn shipped(s: &Shipped) -> Dataset {
    let reader = PuzzleReader::from_text(s.text, s.name);
    let format = reader.format();
    Dataset {
        name: s.name.to_string(),
        source: format!("shipped:{}", s.name),
        format,
        entries: reader.collect(),
    }
}

/// Loads a dataset by shipped name, or else from the file at `spec`.
///
/// # Errors
/// When `spec` is neither a shipped name nor a readable file (the message lists the shipped
/// names), or when reading the file fails part-way.
pub fn load(spec: &str) -> anyhow::Result<Dataset> {
    if let Some(s) = find(spec) {
        return Ok(shipped(s));
    }
    let path = Path::new(spec);
    if path.is_dir() {
        anyhow::bail!("dataset {spec:?} is a folder; give a puzzle file or a shipped set name");
    }
    let file = std::fs::File::open(path).with_context(|| {
        format!(
            "dataset {spec:?} is not a shipped set{} ({}) and cannot be opened as a file",
            crate::plumbing::human::did_you_mean(spec, all_shipped().map(|s| s.name)),
            all_shipped().map(|s| s.name).collect::<Vec<_>>().join(", ")
        )
    })?;
    let mut reader = PuzzleReader::new(file, spec).with_context(|| format!("reading {spec}"))?;
    let format = reader.format();
    let entries: Vec<Entry> = reader.by_ref().collect();
    if let Some(e) = reader.io_error() {
        return Err(e).with_context(|| format!("reading {spec}"));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| spec.to_string());
    Ok(Dataset {
        name,
        source: spec.to_string(),
        format,
        entries,
    })
}

/// The datasets a run uses when none is named.
pub fn defaults() -> Vec<Dataset> {
    SHIPPED.iter().filter(|s| s.default).map(shipped).collect()
}

/// A dataset to be read as a stream: its name, source and format, and where its entries come
/// from, read again each time [`Source::entries`] is called (a shipped text, a regular file) or,
/// for an input that can be read once only (a FIFO, a device), held in memory from
/// [`open`].
#[derive(Debug, Clone)]
pub struct Source {
    /// Shipped name, or the file name of a path.
    pub name: String,
    /// Where it came from: `shipped:NAME` or the path as given.
    pub source: String,
    /// The detected format.
    pub format: Format,
    origin: Origin,
}

#[derive(Debug, Clone)]
enum Origin {
    Text(&'static str),
    File(std::path::PathBuf),
    Held(std::sync::Arc<Vec<Entry>>),
}

/// The entries of a [`Source`], in file order, read as they are asked for.
pub enum Entries {
    /// From a shipped text or a file.
    Reader(PuzzleReader),
    /// Held in memory.
    Held(std::sync::Arc<Vec<Entry>>, usize),
}

impl Entries {
    /// The I/O error that ended the iteration early, if any.
    pub fn io_error(&mut self) -> Option<std::io::Error> {
        match self {
            Entries::Reader(r) => r.io_error(),
            Entries::Held(..) => None,
        }
    }
}

impl Iterator for Entries {
    type Item = Entry;
    fn next(&mut self) -> Option<Entry> {
        match self {
            Entries::Reader(r) => r.next(),
            Entries::Held(v, i) => {
                let e = v.get(*i).cloned();
                *i += 1;
                e
            }
        }
    }
}

impl Source {
    /// Starts reading the entries again from the first.
    ///
    /// # Errors
    /// When the file can no longer be opened or its first lines cannot be read.
    pub fn entries(&self) -> anyhow::Result<Entries> {
        Ok(match &self.origin {
            Origin::Text(t) => Entries::Reader(PuzzleReader::from_text(t, &self.name)),
            Origin::File(p) => {
                let file = std::fs::File::open(p)
                    .with_context(|| format!("cannot open dataset {}", self.source))?;
                Entries::Reader(
                    PuzzleReader::with_format(file, &self.source, Some(self.format))
                        .with_context(|| format!("reading {}", self.source))?,
                )
            }
            Origin::Held(v) => Entries::Held(v.clone(), 0),
        })
    }

    /// The sha256 of the dataset, lowercase hex: of the file's bytes (or the shipped text's); for
    /// an input read once (a FIFO, a device), of its puzzles as lines of 81 characters (`.` =
    /// empty, unreadable entries as an empty line), each ending in a line feed.
    ///
    /// # Errors
    /// When the file can no longer be read.
    pub fn sha256(&self) -> anyhow::Result<String> {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        match &self.origin {
            Origin::Text(t) => h.update(t.as_bytes()),
            Origin::File(p) => {
                let mut file = std::fs::File::open(p)
                    .with_context(|| format!("cannot open dataset {}", self.source))?;
                std::io::copy(&mut file, &mut h)
                    .with_context(|| format!("reading {}", self.source))?;
            }
            Origin::Held(v) => {
                for e in v.iter() {
                    if let Ok(p) = &e.puzzle {
                        h.update(crate::input::format::board_line(&p.board).as_bytes());
                    }
                    h.update(b"\n");
                }
            }
        }
        Ok(format!("{:x}", h.finalize()))
    }
}

/// A shipped dataset as a [`Source`].
pub fn shipped_source(s: &Shipped) -> Source {
    Source {
        name: s.name.to_string(),
        source: format!("shipped:{}", s.name),
        format: PuzzleReader::from_text(s.text, s.name).format(),
        origin: Origin::Text(s.text),
    }
}

/// Opens a dataset by shipped name, or else the file at `spec`, to be read as a stream: a
/// regular file is only opened here (to detect its format) and read again by each
/// [`Source::entries`]; any other input (a FIFO, a device) is read whole now, as [`load`] does.
///
/// # Errors
/// As [`load`].
pub fn open(spec: &str) -> anyhow::Result<Source> {
    if let Some(s) = find(spec) {
        return Ok(shipped_source(s));
    }
    let path = Path::new(spec);
    if std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        let file = std::fs::File::open(path).with_context(|| format!("cannot open {spec}"))?;
        let format = PuzzleReader::new(file, spec)
            .with_context(|| format!("reading {spec}"))?
            .format();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| spec.to_string());
        return Ok(Source {
            name,
            source: spec.to_string(),
            format,
            origin: Origin::File(path.to_path_buf()),
        });
    }
    let d = load(spec)?;
    Ok(Source {
        name: d.name,
        source: d.source,
        format: d.format,
        origin: Origin::Held(std::sync::Arc::new(d.entries)),
    })
}

/// The default datasets as [`Source`]s.
pub fn default_sources() -> Vec<Source> {
    SHIPPED
        .iter()
        .filter(|s| s.default)
        .map(shipped_source)
        .collect()
}

impl From<Dataset> for Source {
    fn from(d: Dataset) -> Source {
        Source {
            name: d.name,
            source: d.source,
            format: d.format,
            origin: Origin::Held(std::sync::Arc::new(d.entries)),
        }
    }
}
