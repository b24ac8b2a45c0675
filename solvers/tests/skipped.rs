//! Not a test: the closing lines of `cargo test --workspace`. Cargo runs the packages' tests in
//! name order and this package comes last (no crate has doc-tests), so these lines end the run.
//! They name each test of the `harness` package that was ignored because a prerequisite is
//! missing on this machine, why, and the command that provides it
//! ([`prerequisites::ALL`], the same table `build.rs` sets the cfgs from), and the SIMD paths
//! of `triads` that the tests could not run on this processor.

#[path = "../../tests/support/prerequisites.rs"]
mod prerequisites;

fn main() {
    // `cargo test -- --list` and filters: print nothing that could be read as a test.
    if std::env::args().skip(1).any(|a| a == "--list") {
        return;
    }
    let missing: Vec<_> = prerequisites::ALL
        .iter()
        .filter(|p| !prerequisites::present(p.cfg))
        .collect();
    println!();
    if missing.is_empty() {
        println!("skipped: none (every prerequisite of the test suite is present)");
    } else {
        let mut tests: Vec<&str> = missing
            .iter()
            .flat_map(|p| p.tests.iter().copied())
            .collect();
        tests.sort_unstable();
        tests.dedup();
        let n = tests.len();
        let noun = if n == 1 { "test" } else { "tests" };
        println!("skipped: {n} {noun}, reported `ignored` above, for want of:");
        for p in &missing {
            println!("  - {}", p.what);
            println!("    ignored: {}", p.tests.join(", "));
            println!("    enable:  {}", p.enable);
        }
    }
    println!(
        "(the other ignored tests, heavy checks and the browser, scale and cluster tests, are \
         run by .ci/run with --ignored; each one's reason is above)"
    );
    simd_paths();
}

/// The SIMD paths of `triads` the tests above could not run: the ones this processor lacks, or
/// this build (`avx512` before Rust 1.89).
fn simd_paths() {
    use solvers::triads::SimdPath;
    let names = |paths: Vec<SimdPath>| {
        paths
            .iter()
            .map(|p| p.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let missing: Vec<SimdPath> = SimdPath::ALL
        .into_iter()
        .filter(|p| !p.available())
        .collect();
    println!(
        "SIMD paths of triads tested: {}; skipped (not available on this processor or build): {}",
        names(SimdPath::available_paths()),
        if missing.is_empty() {
            "none".to_string()
        } else {
            names(missing)
        }
    );
}
