//! `harness compare RUN_A RUN_B`: per dataset x shape x solver, median µs in each run, the ratio B/A,
//! nodes in each, and changed statuses or answers; a table, and CSV with `-o`.

use crate::cli::CompareArgs;
use crate::plumbing::output;
use crate::record;
use crate::report::compare;

/// Compares the two runs and prints the table (and writes the CSV).
///
/// # Errors
/// When a run folder cannot be read or the CSV cannot be written.
pub fn compare(args: &CompareArgs) -> anyhow::Result<()> {
    let a = record::load(&args.run_a)?;
    let b = record::load(&args.run_b)?;
    let rows = compare::compare(&a, &b);
    outln!("A = {} ({})", a.dir.display(), a.info.date)?;
    outln!("B = {} ({})", b.dir.display(), b.info.date)?;
    for w in compare::warnings(&a, &b) {
        outln!("warning: {w}")?;
    }
    out!("{}", compare::table(&rows))?;
    outln!(
        "{}",
        crate::plumbing::human::wrap(
            "B/A: ratio of median µs over the puzzles of both runs, with its 95% interval \
             (blocks of puzzles timed together resampled, so it covers run-to-run noise); \
             faster or slower only when the interval excludes 1 and the ratio is beyond 5%, \
             else same"
        )
    )?;
    for w in compare::common_shifts(&rows) {
        outln!("{}", crate::plumbing::human::wrap(&format!("warning: {w}")))?;
    }
    let changed: usize = rows
        .iter()
        .map(|r| r.status_changed.unwrap_or(0) + r.answer_changed.unwrap_or(0))
        .sum();
    outln!(
        "{}",
        crate::plumbing::human::wrap(&format!(
            "{}; {} changed status or answer",
            crate::plumbing::human::plural(rows.len(), "dataset x shape x solver group"),
            crate::plumbing::human::plural(changed, "puzzle")
        ))
    )?;
    if let Some(path) = &args.out {
        output::write_csv(path, &rows)?;
        outln!("wrote {}", path.display())?;
    }
    Ok(())
}
