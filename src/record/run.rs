//! Reading a run back from its folder: `run.json` and `results.csv`, nothing else (the report,
//! `compare` and `merge` never rerun a solver and never need the puzzle files).

use super::{EngineKind, NodeCount, Row, RunInfo};
use anyhow::Context;
use std::path::{Path, PathBuf};

/// A run as saved on disk.
#[derive(Debug, Clone)]
pub struct Run {
    /// The run's folder.
    pub dir: PathBuf,
    /// `run.json`.
    pub info: RunInfo,
    /// `results.csv`, in file order.
    pub rows: Vec<Row>,
    /// Solver names in report order: `run.json`'s `solvers` (which follows the registry order,
    /// `SolverKind::ALL`), then any other solver found in the rows.
    pub solvers: Vec<String>,
    /// Dataset names in report order: `run.json`'s `datasets`, then any other found in the rows.
    pub datasets: Vec<String>,
}

impl Run {
    /// The rows of one dataset x solver pair, in file order.
    pub fn rows_of<'a>(
        &'a self,
        dataset: &'a str,
        solver: &'a str,
    ) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows
            .iter()
            .filter(move |r| r.dataset == dataset && r.solver == solver)
    }

    /// True when `solver`'s `nodes` are search-tree nodes (as run.json records; for runs written
    /// before it did, the built-in solvers but `sat`, whose nodes are varisat calls).
    pub fn counts_search_nodes(&self, solver: &str) -> bool {
        match self.info.solver_details.iter().find(|d| d.name == solver) {
            Some(d) => d.nodes.map_or(d.kind == EngineKind::Builtin, |n| {
                n == NodeCount::SearchTree
            }),
            None => solver != "sat" && solver.parse::<solvers::SolverKind>().is_ok(),
        }
    }

    /// Per-puzzle time budget, µs, if the run had one.
    pub fn budget_micros(&self) -> Option<f64> {
        self.info.timeout_ms.map(|ms| ms as f64 * 1e3)
    }
}

/// Reads `run.json` of the run in `dir`.
///
/// # Errors
/// When the file is missing or is not a run description (the message names the file).
pub fn read_info(dir: &Path) -> anyhow::Result<RunInfo> {
    let path = dir.join("run.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {} (is this a run folder?)", path.display()))?;
    let mut info: RunInfo = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a run.json", path.display()))?;
    // An interrupted run is never complete (run.json files older than the `complete` field).
    info.complete &= !info.interrupted;
    Ok(info)
}

/// The length of `file`'s whole lines: up to and including its last newline (a run killed while
/// appending may leave a cut last line, which is not a row).
///
/// # Errors
/// When the file cannot be read.
pub fn whole_lines_len(file: &mut std::fs::File) -> std::io::Result<u64> {
    use std::io::{Read, Seek, SeekFrom};
    let len = file.seek(SeekFrom::End(0))?;
    let mut end = len;
    let mut buf = vec![0u8; 64 * 1024];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let n = (end - start) as usize;
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut buf[..n])?;
        if let Some(i) = buf[..n].iter().rposition(|&b| b == b'\n') {
            file.seek(SeekFrom::Start(0))?;
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    file.seek(SeekFrom::Start(0))?;
    Ok(0)
}

/// The whole lines of a run's `results.csv`, read as a stream of rows (a cut last line, left by
/// a killed run, is not read).
pub struct RowReader {
    rdr: csv::Reader<std::io::BufReader<std::io::Take<std::fs::File>>>,
    headers: csv::StringRecord,
    rec: csv::StringRecord,
    path: PathBuf,
    read: usize,
    len: u64,
}

impl RowReader {
    /// Opens `results.csv` in `dir`.
    ///
    /// # Errors
    /// When the file is missing or its header does not parse.
    pub fn open(dir: &Path) -> anyhow::Result<RowReader> {
        use std::io::Read;
        let path = dir.join("results.csv");
        let mut file = std::fs::File::open(&path)
            .with_context(|| format!("cannot read {} (is this a run folder?)", path.display()))?;
        let len =
            whole_lines_len(&mut file).with_context(|| format!("reading {}", path.display()))?;
        let mut rdr =
            csv::Reader::from_reader(std::io::BufReader::with_capacity(1 << 20, file.take(len)));
        let headers = if len == 0 {
            csv::StringRecord::new()
        } else {
            rdr.headers()
                .with_context(|| format!("{}:1: bad header", path.display()))?
                .clone()
        };
        Ok(RowReader {
            rdr,
            headers,
            rec: csv::StringRecord::new(),
            path,
            read: 0,
            len,
        })
    }

    /// The next row and the byte offset where its line starts; `None` after the last.
    ///
    /// # Errors
    /// When a record does not parse (the message names file and line).
    pub fn next_row(&mut self) -> anyhow::Result<Option<(Row, u64)>> {
        let bad = |p: &Path, i: usize| format!("{}:{}: bad row", p.display(), i + 2);
        if !self
            .rdr
            .read_record(&mut self.rec)
            .with_context(|| bad(&self.path, self.read))?
        {
            return Ok(None);
        }
        let at = self.rec.position().map_or(0, |p| p.byte());
        let row: Row = self
            .rec
            .deserialize(Some(&self.headers))
            .with_context(|| bad(&self.path, self.read))?;
        self.read += 1;
        Ok(Some((row, at)))
    }

    /// Rows read so far.
    pub fn rows_read(&self) -> usize {
        self.read
    }

    /// The length of the file's whole lines, bytes.
    pub fn whole_len(&self) -> u64 {
        self.len
    }
}

/// Reads the whole lines of `results.csv` in `dir` as a stream, calling `f` with each row and
/// the byte offset where its line starts; returns the length of the whole lines read.
///
/// # Errors
/// When the file is missing, a record does not parse (the message names file and line), or `f`
/// fails.
pub fn for_each_row(
    dir: &Path,
    mut f: impl FnMut(Row, u64) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    let mut rows = RowReader::open(dir)?;
    while let Some((row, at)) = rows.next_row()? {
        f(row, at)?;
    }
    Ok(rows.whole_len())
}

/// Reads the rows of `results.csv` in `dir` (its whole lines: see [`for_each_row`]).
///
/// # Errors
/// When the file is missing or a record does not parse (the message names file and line).
pub fn read_rows(dir: &Path) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    for_each_row(dir, |r, _| {
        rows.push(r);
        Ok(())
    })?;
    Ok(rows)
}

/// Loads the run saved in `dir`.
///
/// # Errors
/// As [`read_info`] and [`read_rows`].
pub fn load(dir: &Path) -> anyhow::Result<Run> {
    let info = read_info(dir)?;
    let rows = read_rows(dir)?;
    let mut solvers = info.solvers.clone();
    let mut datasets: Vec<String> = info.datasets.iter().map(|d| d.name.clone()).collect();
    for r in &rows {
        if !solvers.contains(&r.solver) {
            solvers.push(r.solver.clone());
        }
        if !datasets.contains(&r.dataset) {
            datasets.push(r.dataset.clone());
        }
    }
    // A dataset with no row in this run (an empty shard) has nothing to plot.
    datasets.retain(|d| rows.iter().any(|r| &r.dataset == d));
    Ok(Run {
        dir: dir.to_path_buf(),
        info,
        rows,
        solvers,
        datasets,
    })
}
