//! `harness report RUN_DIR`: renders a run's plots, `summary.md` and `index.html`.

use crate::cli::ReportArgs;

/// Renders the report of `args.dir` and prints where it is.
///
/// # Errors
/// When `run.json` or `results.csv` cannot be read, or a file cannot be written.
pub fn report(args: &ReportArgs) -> anyhow::Result<()> {
    let report = crate::report::render(&args.dir)?;
    outln!(
        "wrote {} files; open {}",
        report.files.len(),
        report.index.display()
    )?;
    Ok(())
}
