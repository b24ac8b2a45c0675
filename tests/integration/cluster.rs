//! Shards on a real scheduler: the job array of docs/scaling-out.md (`scripts/shards.sbatch`)
//! submitted to a Slurm cluster with `sbatch --wait`, and the guide's GNU parallel line on this
//! machine; each time the shards are merged with `harness merge` and the merged rows equal one
//! whole run's, timings aside.
//!
//! Ignored by the plain test run: they need `sbatch` and a cluster (`SLURM_CONF`; `.ci/run`
//! starts a one-node one with `scripts/slurm-local.sh`) or `parallel`. Without them they say
//! SKIPPED, unless `HARNESS_REQUIRE_CLUSTER=1` (set by `.ci/run`), which makes that a failure.

use super::common::skip;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Shards of both tests.
const SHARDS: usize = 4;
/// The shipped dataset of both tests (200 puzzles) and its solvers.
const DATASET: &str = "clues22-200";
const SOLVERS: &str = "bitmask-singles,dlx,bitboard-bands";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `PATH` with the test profile's `harness` first, so the scripts' `harness` is this build's.
fn path_with_harness() -> String {
    let bin = assert_cmd::cargo::cargo_bin("harness");
    let dir = bin.parent().unwrap().to_str().unwrap().to_string();
    match std::env::var("PATH") {
        Ok(p) => format!("{dir}:{p}"),
        Err(_) => dir,
    }
}

/// True when `tool` runs; otherwise skips (or fails under `HARNESS_REQUIRE_CLUSTER=1`).
fn have(tool: &str, why: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("HARNESS_REQUIRE_CLUSTER").is_none(),
            "{tool} not found ({why}) and HARNESS_REQUIRE_CLUSTER is set"
        );
        skip(&format!("{tool} not found ({why})"));
    }
    ok
}

/// The rows of a run with the timing columns cleared, in file order.
fn untimed(dir: &Path) -> Vec<harness::record::Row> {
    harness::record::read_rows(dir)
        .unwrap()
        .into_iter()
        .map(|mut r| {
            r.micros = 0.0;
            r.cpu_micros = None;
            r.peak_rss_kib = None;
            r
        })
        .collect()
}

/// Runs the whole run in `tmp/whole`, merges `tmp/shards/shard-*` into `tmp/merged`, and checks
/// the merged rows equal the whole run's.
fn merge_and_compare(tmp: &Path) {
    let shards = tmp.join("shards");
    let mut dirs: Vec<PathBuf> = (1..=SHARDS)
        .map(|k| shards.join(format!("shard-{k}")))
        .collect();
    dirs.sort();
    for d in &dirs {
        let info: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("run.json")).unwrap()).unwrap();
        assert_eq!(info["complete"], serde_json::Value::Bool(true), "{d:?}");
    }
    let merged = tmp.join("merged");
    let out = Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .arg("merge")
        .args(&dirs)
        .arg("--out")
        .arg(&merged)
        .arg("--no-report")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let whole = tmp.join("whole");
    let out = Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .args([
            "run",
            "--threads",
            "1",
            "--quiet",
            "--no-report",
            "--solver",
            SOLVERS,
            "--dataset",
            DATASET,
            "--out",
        ])
        .arg(&whole)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (m, w) = (untimed(&merged), untimed(&whole));
    // 200 puzzles x 3 solvers, every one in exactly one shard.
    assert_eq!(w.len(), 600);
    assert_eq!(m, w);
    for k in 1..=SHARDS {
        assert!(!untimed(&dirs[k - 1]).is_empty(), "shard {k} is empty");
    }
}

/// `scripts/shards.sbatch` (the guide's job array) on the cluster of `SLURM_CONF`, 4 tasks,
/// `sbatch --wait` (at most 5 minutes), merged: the rows of one whole run.
#[test]
#[ignore = "needs a Slurm cluster: scripts/slurm-local.sh start DIR; SLURM_CONF=DIR/slurm.conf cargo test --test scale cluster:: -- --ignored"]
fn slurm_array_merged_equals_one_run() {
    if !have("sbatch", "Debian's slurm-wlm") {
        return;
    }
    if std::env::var_os("SLURM_CONF").is_none() {
        assert!(
            std::env::var_os("HARNESS_REQUIRE_CLUSTER").is_none(),
            "SLURM_CONF is not set and HARNESS_REQUIRE_CLUSTER is"
        );
        skip("SLURM_CONF is not set (start a cluster with scripts/slurm-local.sh)");
        return;
    }
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let shards = tmp.path().join("shards");
    let out = Command::new("timeout")
        .arg("300")
        .arg("sbatch")
        .arg("--wait")
        .arg(format!("--array=1-{SHARDS}"))
        .arg(format!("--chdir={}", tmp.path().display()))
        .arg(root().join("scripts/shards.sbatch"))
        .env("PATH", path_with_harness())
        .env("DATASET", DATASET)
        .env("SOLVERS", SOLVERS)
        .env("OUT", &shards)
        .output()
        .unwrap();
    let logs: String = std::fs::read_dir(tmp.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("slurm-"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    assert!(
        out.status.success(),
        "sbatch: {}{}\njob output: {logs}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    merge_and_compare(tmp.path());
}

/// The guide's GNU parallel line on this machine (`-S 4/:`: four job slots on the local host,
/// no ssh), merged: the rows of one whole run.
#[test]
#[ignore = "needs GNU parallel: cargo test --test scale cluster:: -- --ignored"]
fn gnu_parallel_shards_merged_equal_one_run() {
    if !have("parallel", "Debian's parallel") {
        return;
    }
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let line = format!(
        "seq 1 {SHARDS} | parallel --will-cite -S {SHARDS}/: --wd \"$PWD\" \
         'harness run --threads 1 --quiet --no-report --solver {SOLVERS} --shard {{}}/{SHARDS} \
         --dataset {DATASET} --out shards/shard-{{}}'"
    );
    let out = Command::new("timeout")
        .args(["300", "bash", "-c", &line])
        .current_dir(tmp.path())
        .env("PATH", path_with_harness())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{line}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    merge_and_compare(tmp.path());
}
