//! Splitting a run over machines: `harness run --shard K/N` runs one deterministic slice of the
//! puzzles, `harness merge` joins the slices back into one run.
//!
//! The slice rule: number every puzzle of every dataset of the run 0, 1, 2, ... in order (datasets
//! in command-line order, puzzles in file order, unreadable ones included); shard `K/N` takes the
//! puzzles whose number is `K-1` modulo `N`. Every solver runs every puzzle of its shard, so the
//! cross-check of `no_solution` answers between solvers stays within one shard. Dealing puzzles
//! round-robin spreads the hard ones of a file (often grouped) over the shards.

use crate::record::{DatasetInfo, Row, RunInfo, Shard, ShardRecord};
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
    #[error("missing {} {missing} of {count}: a merged run needs every shard", crate::plumbing::human::noun_for(missing.split(", ").count(), "shard"))]
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
    /// A shard that did not finish, or whose rows fall short of its run.json's counts.
    #[error("{dir}: shard {shard} is incomplete: {why}; finish it (`harness run --resume {dir}` with its arguments) before merging")]
    Incomplete {
        /// The folder.
        dir: PathBuf,
        /// Its shard.
        shard: Shard,
        /// What is missing.
        why: String,
    },
    /// A shard whose rows are not those its run.json describes (edited, or from another run).
    #[error("{dir}: {why}; its results.csv is not the one its run wrote")]
    BadRows {
        /// The folder.
        dir: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// Datasets as compared between shards: name, source and format (counts differ per shard).
fn dataset_keys(d: &[DatasetInfo]) -> Vec<(String, String, String)> {
    d.iter()
        .map(|d| (d.name.clone(), d.source.clone(), d.format.clone()))
        .collect()
}

/// One shard to merge: its folder and its `run.json`.
#[derive(Debug, Clone)]
pub struct ShardRun {
    /// The shard's run folder.
    pub dir: PathBuf,
    /// Its `run.json`.
    pub info: RunInfo,
}

/// A merge checked on the shards' `run.json` files, ready to stream their rows: the merged
/// `run.json`, the shards in order, warnings (e.g. shards built from different commits).
#[derive(Debug)]
pub struct Plan {
    /// The merged `run.json` (`shard` absent, `shards` listing each shard).
    pub info: RunInfo,
    /// The shards, 1/N first.
    pub shards: Vec<ShardRun>,
    /// Things worth knowing that do not stop the merge.
    pub warnings: Vec<String>,
}

/// Checks that the shards `runs` (any order) form one complete split of one run, and plans
/// their merge from their `run.json` files alone (no row is read here: see [`Plan::rows`]).
///
/// # Errors
/// [`MergeError`] when a folder is not a shard, the shards come from different splits or from
/// runs with different solvers, datasets or budgets, a shard is missing, given twice, or did not
/// finish (killed or interrupted).
pub fn plan(runs: &[ShardRun], command: Vec<String>) -> Result<Plan, MergeError> {
    let first = runs.first().ok_or(MergeError::Empty)?;
    let count = shard_of(first)?.count;
    let mut by_index: HashMap<usize, &ShardRun> = HashMap::new();
    let mut warnings = Vec::new();
    for r in runs {
        let shard = shard_of(r)?;
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
        check_same_run(first, r)?;
        if !r.info.complete || r.info.interrupted {
            return Err(MergeError::Incomplete {
                dir: r.dir.clone(),
                shard,
                why: "its run.json says it did not finish (\"complete\": false: killed or \
                      interrupted)"
                    .into(),
            });
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
    let shards: Vec<ShardRun> = (1..=count).map(|i| by_index[&i].clone()).collect();
    Ok(Plan {
        info: merged_info(&shards, command),
        shards,
        warnings,
    })
}

/// The shard of `r`, or why it is not one.
fn shard_of(r: &ShardRun) -> Result<Shard, MergeError> {
    r.info
        .shard
        .ok_or_else(|| MergeError::NotAShard(r.dir.clone()))
}

/// Refuses `r` unless it is a shard of the same run as `first`: solvers (and their files'
/// sha256), datasets, budgets and isomorph options.
fn check_same_run(first: &ShardRun, r: &ShardRun) -> Result<(), MergeError> {
    let check = |what: &'static str, a: String, b: String| {
        if a == b {
            return Ok(());
        }
        Err(MergeError::Incompatible {
            dir: r.dir.clone(),
            first: first.dir.clone(),
            what,
            a,
            b,
        })
    };
    let (f, i) = (&first.info, &r.info);
    check("solvers", f.solvers.join(","), i.solvers.join(","))?;
    let digests = |i: &RunInfo| {
        i.solver_details
            .iter()
            .flat_map(|d| {
                d.files
                    .iter()
                    .map(move |f| format!("{}:{}", d.name, f.sha256))
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    check("external solvers' files (sha256)", digests(f), digests(i))?;
    // Each side shows its own datasets (name, source and format: what must match).
    let sources = |i: &RunInfo| {
        let keys: Vec<String> = dataset_keys(&i.datasets)
            .into_iter()
            .map(|(name, source, format)| match name == source {
                true => format!("{source} ({format})"),
                false => format!("{name}: {source} ({format})"),
            })
            .collect();
        keys.join(", ")
    };
    check("datasets", sources(f), sources(i))?;
    let hashes = |i: &RunInfo| {
        let v: Vec<String> = i.manifests.iter().map(|m| m.sha256.clone()).collect();
        v.join(",")
    };
    check("dataset files (sha256)", hashes(f), hashes(i))?;
    use crate::plumbing::output::setting;
    let ms = |v: Option<u64>| v.map_or("none".to_string(), |v| format!("{v} ms"));
    check("time budget", ms(f.timeout_ms), ms(i.timeout_ms))?;
    check("node budget", setting(f.max_nodes), setting(i.max_nodes))?;
    let iso = |i: &RunInfo| {
        format!(
            "transform {}, isomorphs {}, repeat {}",
            setting(i.transform),
            setting(i.isomorphs),
            setting(i.repeat)
        )
    };
    check("isomorph options", iso(f), iso(i))
}

/// The merged run.json of the checked `shards` (in order).
fn merged_info(shards: &[ShardRun], command: Vec<String>) -> RunInfo {
    let first = &shards[0].info;
    let infos: Vec<&RunInfo> = shards.iter().map(|r| &r.info).collect();
    let mut datasets = first.datasets.clone();
    for (i, d) in datasets.iter_mut().enumerate() {
        d.puzzles = infos.iter().map(|r| r.datasets[i].puzzles).sum();
        d.invalid = infos.iter().map(|r| r.datasets[i].invalid).sum();
        // Each shape's puzzles, summed over the shards (shapes in the order the shards list
        // them).
        d.shapes.clear();
        for c in infos.iter().flat_map(|r| &r.datasets[i].shapes) {
            match d.shapes.iter_mut().find(|m| m.shape == c.shape) {
                Some(m) => m.puzzles += c.puzzles,
                None => d.shapes.push(c.clone()),
            }
        }
    }
    let distinct = |f: &dyn Fn(&RunInfo) -> String| {
        let mut v: Vec<String> = Vec::new();
        for r in &infos {
            let x = f(r);
            if !v.contains(&x) {
                v.push(x);
            }
        }
        v.join(", ")
    };
    RunInfo {
        harness_version: distinct(&|i| i.harness_version.clone()),
        solvers: first.solvers.clone(),
        datasets,
        threads: infos.iter().map(|r| r.threads).sum(),
        timeout_ms: first.timeout_ms,
        max_nodes: first.max_nodes,
        git_commit: distinct(&|i| i.git_commit.clone()),
        rustc: distinct(&|i| i.rustc.clone()),
        cpu: distinct(&|i| i.cpu.clone()),
        cores: infos.iter().map(|r| r.cores).sum(),
        host: distinct(&|i| i.host.clone()),
        date: infos
            .iter()
            .map(|r| r.date.clone())
            .min()
            .unwrap_or_default(),
        elapsed_seconds: infos.iter().map(|r| r.elapsed_seconds).fold(0.0, f64::max),
        // Until every row is streamed and counted, the merged run is not complete.
        interrupted: true,
        complete: false,
        command,
        solver_details: first.solver_details.clone(),
        transform: first.transform,
        isomorphs: first.isomorphs,
        repeat: first.repeat,
        block: first.block,
        load_before: infos.iter().filter_map(|r| r.load_before).reduce(f64::max),
        load_after: infos.iter().filter_map(|r| r.load_after).reduce(f64::max),
        manifests: merged_manifests(&infos),
        shard: None,
        shards: shards.iter().map(shard_record).collect(),
    }
}

/// The first shard's manifests, with the puzzle classes each shard counted of its own puzzles
/// added up.
fn merged_manifests(infos: &[&RunInfo]) -> Vec<crate::record::manifest::Manifest> {
    let mut out = infos[0].manifests.clone();
    for m in &mut out {
        m.classes = m.classes.map(|_| {
            let mut c = crate::record::manifest::Classes::default();
            for r in infos {
                let of = r.manifests.iter().find(|x| x.name == m.name);
                if let Some(x) = of.and_then(|x| x.classes) {
                    c.none += x.none;
                    c.one += x.one;
                    c.several += x.several;
                    c.unknown += x.unknown;
                }
            }
            c
        });
    }
    out
}

/// What the merged run.json lists of one shard.
fn shard_record(r: &ShardRun) -> ShardRecord {
    ShardRecord {
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
    }
}

impl Plan {
    /// The solvers that give a row for a puzzle of `shape` (every solver for an unreadable
    /// puzzle, whose shape is empty), in run order.
    fn solvers_for(&self, shape: &str) -> Vec<&str> {
        self.info
            .solvers
            .iter()
            .filter(|s| self.info.solver_takes(s, shape))
            .map(String::as_str)
            .collect()
    }

    /// Streams every shard's rows to `emit` in whole-run order: each shard's results.csv is in
    /// run order, so the shards' files are read side by side and the earliest puzzle (dataset,
    /// line) among their next rows goes first, one puzzle's rows at a time; memory is one
    /// puzzle's rows per shard. A puzzle has one row per solver that takes its shape and copy
    /// (none when no solver takes it), so a run of several shapes merges too. Checks each shard
    /// holds exactly the rows its run.json counts, whole puzzles in run order; on success
    /// marks the merged run.json complete and returns the rows emitted.
    ///
    /// # Errors
    /// [`MergeError::Incomplete`] or [`MergeError::BadRows`] when a shard's results.csv was cut,
    /// edited or holds rows of another run; a read error; an error of `emit`.
    pub fn rows(
        &mut self,
        mut emit: impl FnMut(&Row) -> anyhow::Result<()>,
    ) -> anyhow::Result<u64> {
        let mut readers = Vec::new();
        let mut heads = Vec::new();
        for s in &self.shards {
            let mut r = crate::record::RowReader::open(&s.dir)?;
            heads.push(r.next_row()?.map(|(row, _)| row));
            readers.push(r);
        }
        let expected: Vec<usize> = self
            .shards
            .iter()
            .map(|s| s.info.planned_solves())
            .collect();
        let mut last: Option<(usize, usize)> = None;
        let mut group = Vec::new();
        let mut emitted = 0u64;
        loop {
            // The shard whose next row is the earliest in run order.
            let mut next: Option<((usize, usize), usize)> = None;
            for (k, h) in heads.iter().enumerate() {
                if let Some(row) = h {
                    let at = (self.dataset_index(k, row)?, row.line);
                    if next.map_or(true, |(a, _)| at < a) {
                        next = Some((at, k));
                    }
                }
            }
            let Some((_, k)) = next else { break };
            group.clear();
            while let Some(row) = heads[k].take() {
                let same = group.first().map_or(true, |h: &Row| {
                    h.dataset == row.dataset && h.line == row.line && h.puzzle == row.puzzle
                });
                if !same {
                    heads[k] = Some(row);
                    break;
                }
                group.push(row);
                if readers[k].rows_read() > expected[k] {
                    break;
                }
                heads[k] = readers[k].next_row()?.map(|(row, _)| row);
            }
            if readers[k].rows_read() > expected[k] {
                return Err(self
                    .bad(
                        k,
                        format!(
                            "results.csv holds more rows than the {} its run.json counts",
                            expected[k]
                        ),
                    )
                    .into());
            }
            if heads[k].is_none() && readers[k].rows_read() < expected[k] {
                // The file ends early: say so rather than that its last puzzle is short.
                return Err(self.short(k, expected[k], readers[k].rows_read()).into());
            }
            last = Some(self.check_group(k, &group, last)?);
            for r in &group {
                emit(r)?;
            }
            emitted += group.len() as u64;
        }
        for (k, rdr) in readers.iter().enumerate() {
            if rdr.rows_read() < expected[k] {
                return Err(self.short(k, expected[k], rdr.rows_read()).into());
            }
        }
        self.info.interrupted = false;
        self.info.complete = true;
        Ok(emitted)
    }

    /// The place in the run's dataset list of `row`'s dataset, read from shard `k`.
    fn dataset_index(&self, k: usize, row: &Row) -> Result<usize, MergeError> {
        let ds = self
            .info
            .datasets
            .iter()
            .position(|d| d.name == row.dataset);
        ds.ok_or_else(|| {
            self.bad(
                k,
                format!(
                    "a row of dataset {:?}, which run.json does not list",
                    row.dataset
                ),
            )
        })
    }

    /// Checks one puzzle's rows read from shard `k`: one row per solver that takes its shape
    /// and copy, the solvers in run order, after the puzzle `last` (dataset index, line) merged
    /// before it. Returns this puzzle's place.
    fn check_group(
        &self,
        k: usize,
        group: &[Row],
        last: Option<(usize, usize)>,
    ) -> Result<(usize, usize), MergeError> {
        let head = &group[0];
        let ds = self.dataset_index(k, head)?;
        let solvers = self.solvers_for(&head.shape);
        let n = solvers.len().max(1);
        let per = solvers.len() * self.info.isomorphs.unwrap_or(1).max(1) as usize;
        if group.len() != per {
            return Err(self.bad(
                k,
                format!(
                    "line {} of {} ({}) has {} rows, not {} (one per solver that takes {}{})",
                    head.line,
                    head.dataset,
                    head.shape,
                    group.len(),
                    per,
                    head.shape,
                    if per > solvers.len() { " and copy" } else { "" }
                ),
            ));
        }
        for (i, r) in group.iter().enumerate() {
            if r.solver != solvers[i % n] {
                return Err(self.bad(
                    k,
                    format!(
                        "line {} of {}: row of solver {} where {} was expected",
                        r.line,
                        r.dataset,
                        r.solver,
                        solvers[i % n]
                    ),
                ));
            }
        }
        let at = (ds, head.line);
        if last.is_some_and(|l| l >= at) {
            return Err(self.bad(
                k,
                format!(
                    "line {} of {} is out of run order, or also in another shard",
                    head.line, head.dataset
                ),
            ));
        }
        Ok(at)
    }

    /// The error of shard `k` whose rows end early.
    fn short(&self, k: usize, expected: usize, found: usize) -> MergeError {
        let s = &self.shards[k];
        MergeError::Incomplete {
            dir: s.dir.clone(),
            shard: s.info.shard.expect("checked in plan"),
            why: format!(
                "its results.csv holds {}, its run.json counts {expected} (rows deleted or the \
                 file cut)",
                crate::plumbing::human::plural(found, "whole row")
            ),
        }
    }

    /// A [`MergeError::BadRows`] of shard `k`.
    fn bad(&self, k: usize, why: String) -> MergeError {
        MergeError::BadRows {
            dir: self.shards[k].dir.clone(),
            why,
        }
    }
}
