//! `harness merge DIR... --out DIR`: joins the shards of a `harness run --shard K/N` into one run
//! (results.csv, summary.csv, run.json listing each shard's machine) and renders its report.
//! The shards' rows are streamed, never held: memory stays flat whatever the run's length.

use crate::cli::MergeArgs;
use crate::record;
use crate::record::merge::{self, ShardRun};
use crate::{analysis::summary, plumbing::output};
use anyhow::Context;

/// Merges the shards and writes the run.
///
/// # Errors
/// When a folder cannot be read, the shards do not form one complete split of one run or a
/// shard's rows are not the ones its run.json counts (see [`merge::MergeError`]), or the output
/// cannot be written. Nothing of the merged run is left in `--out` then.
pub fn merge(args: &MergeArgs) -> anyhow::Result<()> {
    let runs = args
        .dirs
        .iter()
        .map(|d| {
            Ok(ShardRun {
                dir: d.clone(),
                info: record::read_info(d)?,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut plan = merge::plan(&runs, std::env::args().collect())?;
    for w in &plan.warnings {
        errln!("warning: {w}");
    }
    output::ensure_writable(&args.out)?;
    let saving = || format!("saving the merged run to {}", args.out.display());
    record::clear_run(&args.out).with_context(saving)?;
    let mut acc = summary::Accumulator::for_run(&plan.info);
    let mut scorer =
        crate::analysis::scores::Scorer::new(plan.info.timeout_ms.map(|ms| ms as f64 * 1e3));
    let mut rows = 0;
    output::write_atomic(&args.out.join("results.csv"), |w| {
        let mut csv = csv::Writer::from_writer(w);
        rows = plan.rows(|r| {
            csv.serialize(r)?;
            acc.add(r);
            scorer.add(r);
            Ok(())
        })?;
        csv.flush()?;
        Ok(())
    })?;
    let mut summary = acc.finish();
    scorer.finish(&mut summary);
    record::finish_run(&args.out, &summary, &plan.info).with_context(saving)?;
    outln!(
        "merged {} ({}): {} into {}",
        crate::plumbing::human::plural(runs.len(), "shard"),
        plan.info.host,
        crate::plumbing::human::plural(rows, "row"),
        args.out.display()
    )?;
    if !args.no_report {
        let report = crate::report::render(&args.out)?;
        outln!("report: {}", report.index.display())?;
    }
    Ok(())
}
