//! `harness list`: the solvers and the shipped datasets.

use crate::dataset::{self, SHIPPED};
use solvers::SolverKind;

/// Prints the registry of solvers and the shipped datasets with their sizes.
pub fn list() {
    println!("solvers:");
    for k in SolverKind::ALL {
        println!("  {:<18} {}", k.name(), k.description());
    }
    println!("\nshipped datasets (use with --dataset NAME):");
    for s in SHIPPED {
        let ds = dataset::shipped(s);
        println!(
            "  {:<18} {:>6} puzzles{}  datasets/{}: {}",
            s.name,
            ds.entries.len(),
            if s.default {
                " (default)"
            } else {
                "          "
            },
            s.file,
            s.description
        );
    }
}
