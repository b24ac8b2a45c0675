//! Splitting a run over machines: `harness run --shard K/N` runs one deterministic slice of the
//! puzzles, `harness merge` joins the slices back into one run.
//!
//! The slice rule: number every puzzle of every dataset of the run 0, 1, 2, ... in order (datasets
//! in command-line order, puzzles in file order, unreadable ones included); shard `K/N` takes the
//! puzzles whose number is `K-1` modulo `N`. Every solver runs every puzzle of its shard, so the
//! cross-check of `no_solution` answers between solvers stays within one shard. Dealing puzzles
//! round-robin spreads the hard ones of a file (often grouped) over the shards.

use crate::record::{DatasetInfo, Row, Run, RunInfo, Shard, ShardRecord};
use std::collections::HashMap;
use std::path::PathBuf;

/// Why shards cannot be merged.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no run folder given")]
    Empty,
    /// A folder holds a whole run, not a shard.
    #[error("{0}: not a shard (its run.json has no \"shard\"; it was not run with --shard K/N)")]
    NotAShard(PathBuf),
    /// Shards of different splits.
    #[error("{dir}: shard {shard} is from a split into {found} shards, but {first} is from a split into {expected}")]
    ShardCount {
        /// The odd folder.
        dir: PathBuf,
        /// Its shard.
        shard: Shard,
        /// Its count.
        found: usize,
        /// The first folder.
        first: PathBuf,
        /// The first folder's count.
        expected: usize,
    },
    /// The same shard twice.
    #[error("shard {shard} given twice: {a} and {b}")]
    Duplicate {
        /// The shard.
        shard: Shard,
        /// One folder.
        a: PathBuf,
        /// The other.
        b: PathBuf,
    },
    /// Shards missing.
    #[error("missing shard(s) {missing} of {count}: a merged run needs every shard")]
    Missing {
        /// The missing shards, e.g. `2/3, 3/3`.
        missing: String,
        /// How many shards the split has.
        count: usize,
    },
    /// Shards of different runs.
    #[error("{dir}: {what} differ from {first}'s ({a} vs {b}); shards of one run must share solvers, datasets and budget")]
    Incompatible {
        /// The odd folder.
        dir: PathBuf,
        /// The first folder.
        first: PathBuf,
        /// What differs: `solvers`, `datasets`, `time budget`, `node budget`.
        what: &'static str,
        /// The first folder's value.
        a: String,
        /// The odd folder's value.
        b: String,
    },
    /// A row present in two shards.
    #[error("{dir}: row {dataset} / {puzzle} (line {line}) / {solver} is also in another shard")]
    DuplicateRow {
        /// The folder.
        dir: PathBuf,
        /// Dataset.
        dataset: String,
        /// Puzzle.
        puzzle: String,
        /// Line.
        line: usize,
        /// Solver.
        solver: String,
    },
}

/// Datasets as compared between shards: name, source and format (counts differ per shard).
fn dataset_keys(d: &[DatasetInfo]) -> Vec<(String, String, String)> {
    d.iter()
        .map(|d| (d.name.clone(), d.source.clone(), d.format.clone()))
        .collect()
}

/// A merged run: its `run.json` and its rows, in dataset, puzzle, solver order (as one unsharded
/// run writes them), plus warnings (e.g. shards built from different commits).
#[derive(Debug)]
pub struct Merged {
    /// The merged `run.json` (`shard` absent, `shards` listing each shard).
    pub info: RunInfo,
    /// Every row of every shard.
    pub rows: Vec<Row>,
    /// Things worth knowing that do not stop the merge.
    pub warnings: Vec<String>,
}

/// Merges the shards `runs` (any order) into one run.
///
/// # Errors
/// [`MergeError`] when a folder is not a shard, the shards come from different splits or from
/// runs with different solvers, datasets or budgets, a shard is missing or given twice, or a row
/// appears in two shards.
pub fn merge(runs: &[Run], command: Vec<String>) -> Result<Merged, MergeError> {
    let first = runs.first().ok_or(MergeError::Empty)?;
    let first_shard = first
        .info
        .shard
        .ok_or_else(|| MergeError::NotAShard(first.dir.clone()))?;
    let count = first_shard.count;
    let mut by_index: HashMap<usize, &Run> = HashMap::new();
    let mut warnings = Vec::new();
    for r in runs {
        let shard = r
            .info
            .shard
            .ok_or_else(|| MergeError::NotAShard(r.dir.clone()))?;
        if shard.count != count {
            return Err(MergeError::ShardCount {
                dir: r.dir.clone(),
                shard,
                found: shard.count,
                first: first.dir.clone(),
                expected: count,
            });
        }
        if let Some(other) = by_index.insert(shard.index, r) {
            return Err(MergeError::Duplicate {
                shard,
                a: other.dir.clone(),
                b: r.dir.clone(),
            });
        }
        let incompatible = |what, a: String, b: String| MergeError::Incompatible {
            dir: r.dir.clone(),
            first: first.dir.clone(),
            what,
            a,
            b,
        };
        if r.info.solvers != first.info.solvers {
            return Err(incompatible(
                "solvers",
                first.info.solvers.join(","),
                r.info.solvers.join(","),
            ));
        }
        let digests = |i: &RunInfo| {
            i.solver_details
                .iter()
                .flat_map(|d| {
                    d.files
                        .iter()
                        .map(move |f| format!("{}:{}", d.name, f.sha256))
                })
                .collect::<Vec<_>>()
        };
        if digests(&r.info) != digests(&first.info) {
            return Err(incompatible(
                "external solvers' files (sha256)",
                digests(&first.info).join(","),
                digests(&r.info).join(","),
            ));
        }
        if dataset_keys(&r.info.datasets) != dataset_keys(&first.info.datasets) {
            let names = |d: &[DatasetInfo]| {
                d.iter()
                    .map(|d| d.source.clone())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            return Err(incompatible(
                "datasets",
                names(&first.info.datasets),
                names(&r.info.datasets),
            ));
        }
        if r.info.timeout_ms != first.info.timeout_ms {
            return Err(incompatible(
                "time budget",
                format!("{:?} ms", first.info.timeout_ms),
                format!("{:?} ms", r.info.timeout_ms),
            ));
        }
        if r.info.max_nodes != first.info.max_nodes {
            return Err(incompatible(
                "node budget",
                format!("{:?}", first.info.max_nodes),
                format!("{:?}", r.info.max_nodes),
            ));
        }
        if r.info.git_commit != first.info.git_commit {
            warnings.push(format!(
                "{} was built from commit {}, {} from {}",
                r.dir.display(),
                r.info.git_commit,
                first.dir.display(),
                first.info.git_commit
            ));
        }
        if r.info.interrupted {
            warnings.push(format!(
                "{} (shard {shard}) was interrupted: its rows are incomplete",
                r.dir.display()
            ));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            missing: missing.join(", "),
            count,
        });
    }
    let ordered: Vec<&Run> = (1..=count).map(|i| by_index[&i]).collect();

    let ds_pos = |name: &str| {
        first
            .info
            .datasets
            .iter()
            .position(|d| d.name == name)
            .unwrap_or(usize::MAX)
    };
    let sv_pos = |name: &str| {
        first
            .info
            .solvers
            .iter()
            .position(|s| s == name)
            .unwrap_or(usize::MAX)
    };
    let mut seen = std::collections::HashSet::new();
    let mut rows = Vec::new();
    for r in &ordered {
        for row in &r.rows {
            let key = (
                row.dataset.clone(),
                row.line,
                row.puzzle.clone(),
                row.solver.clone(),
            );
            if !seen.insert(key) {
                return Err(MergeError::DuplicateRow {
                    dir: r.dir.clone(),
                    dataset: row.dataset.clone(),
                    puzzle: row.puzzle.clone(),
                    line: row.line,
                    solver: row.solver.clone(),
                });
            }
            rows.push(row.clone());
        }
    }
    rows.sort_by(|a, b| {
        (ds_pos(&a.dataset), a.line, sv_pos(&a.solver)).cmp(&(
            ds_pos(&b.dataset),
            b.line,
            sv_pos(&b.solver),
        ))
    });

    let mut datasets = first.info.datasets.clone();
    for (i, d) in datasets.iter_mut().enumerate() {
        d.puzzles = ordered.iter().map(|r| r.info.datasets[i].puzzles).sum();
        d.invalid = ordered.iter().map(|r| r.info.datasets[i].invalid).sum();
    }
    let distinct = |f: &dyn Fn(&RunInfo) -> String| {
        let mut v: Vec<String> = Vec::new();
        for r in &ordered {
            let x = f(&r.info);
            if !v.contains(&x) {
                v.push(x);
            }
        }
        v.join(", ")
    };
    let info = RunInfo {
        harness_version: distinct(&|i| i.harness_version.clone()),
        solvers: first.info.solvers.clone(),
        datasets,
        threads: ordered.iter().map(|r| r.info.threads).sum(),
        timeout_ms: first.info.timeout_ms,
        max_nodes: first.info.max_nodes,
        git_commit: distinct(&|i| i.git_commit.clone()),
        rustc: distinct(&|i| i.rustc.clone()),
        cpu: distinct(&|i| i.cpu.clone()),
        cores: ordered.iter().map(|r| r.info.cores).sum(),
        host: distinct(&|i| i.host.clone()),
        date: ordered
            .iter()
            .map(|r| r.info.date.clone())
            .min()
            .unwrap_or_default(),
        elapsed_seconds: ordered
            .iter()
            .map(|r| r.info.elapsed_seconds)
            .fold(0.0, f64::max),
        interrupted: ordered.iter().any(|r| r.info.interrupted),
        complete: ordered.iter().all(|r| r.info.complete),
        command,
        solver_details: first.info.solver_details.clone(),
        transform: first.info.transform,
        isomorphs: first.info.isomorphs,
        repeat: first.info.repeat,
        block: first.info.block,
        load_before: ordered
            .iter()
            .filter_map(|r| r.info.load_before)
            .reduce(f64::max),
        load_after: ordered
            .iter()
            .filter_map(|r| r.info.load_after)
            .reduce(f64::max),
        manifests: first
            .info
            .manifests
            .iter()
            .map(|m| {
                // Each shard counted the classes of its own puzzles.
                let mut m = m.clone();
                m.classes = m.classes.map(|_| {
                    let mut c = crate::manifest::Classes::default();
                    for r in &ordered {
                        if let Some(x) = r
                            .info
                            .manifests
                            .iter()
                            .find(|x| x.name == m.name)
                            .and_then(|x| x.classes)
                        {
                            c.none += x.none;
                            c.one += x.one;
                            c.several += x.several;
                            c.unknown += x.unknown;
                        }
                    }
                    c
                });
                m
            })
            .collect(),
        shard: None,
        shards: ordered
            .iter()
            .map(|r| ShardRecord {
                shard: r.info.shard.map(|s| s.to_string()).unwrap_or_default(),
                dir: r.dir.display().to_string(),
                host: r.info.host.clone(),
                cpu: r.info.cpu.clone(),
                cores: r.info.cores,
                threads: r.info.threads,
                git_commit: r.info.git_commit.clone(),
                date: r.info.date.clone(),
                elapsed_seconds: r.info.elapsed_seconds,
                interrupted: r.info.interrupted,
            })
            .collect(),
    };
    Ok(Merged {
        info,
        rows,
        warnings,
    })
}
