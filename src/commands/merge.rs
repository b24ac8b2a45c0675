//! `harness merge DIR... --out DIR`: joins the shards of a `harness run --shard K/N` into one run
//! (results.csv, summary.csv, run.json listing each shard's machine) and renders its report.

use crate::cli::MergeArgs;
use crate::record;
use crate::{output, shard, summary};
use anyhow::Context;

/// Merges the shards and writes the run.
///
/// # Errors
/// When a folder cannot be read, the shards do not form one complete split of one run (see
/// [`shard::MergeError`]), or the output cannot be written.
pub fn merge(args: &MergeArgs) -> anyhow::Result<()> {
    let runs = args
        .dirs
        .iter()
        .map(|d| record::load(d))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let merged = shard::merge(&runs, std::env::args().collect())?;
    for w in &merged.warnings {
        eprintln!("warning: {w}");
    }
    output::ensure_writable(&args.out)?;
    let mut summary = summary::summarize(&merged.rows);
    crate::scores::score(
        &merged.rows,
        merged.info.timeout_ms.map(|ms| ms as f64 * 1e3),
        &mut summary,
    );
    record::write_run(&args.out, &merged.rows, &summary, &merged.info)
        .with_context(|| format!("saving the merged run to {}", args.out.display()))?;
    println!(
        "merged {} shards ({}): {} rows into {}",
        runs.len(),
        merged.info.host,
        merged.rows.len(),
        args.out.display()
    );
    if !args.no_report {
        let report = crate::report::render(&args.out)?;
        println!("report: {}", report.index.display());
    }
    Ok(())
}
