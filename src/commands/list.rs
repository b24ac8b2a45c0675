//! `harness list`: the solvers (built-in, and external ones from the solvers file, with what
//! each can do) and the shipped datasets.

use crate::cli::ListArgs;
use crate::execution::registry::{self, Registry};
use crate::input::dataset;
use solvers::engine::{Caps, Engine};
use solvers::registry::BuiltinEngine;
use solvers::SolverKind;

/// What an engine can do, in a few words: `counts`, `solves only`, `no solution written`.
pub fn caps_words(caps: &Caps) -> String {
    let mut words = vec![if caps.counts { "counts" } else { "solves only" }];
    if !caps.gives_solution {
        words.push("writes no solution (unchecked)");
    }
    words.join(", ")
}

/// Prints the registry of solvers and the shipped datasets with their sizes.
///
/// # Errors
/// A solvers file that cannot be read or parsed.
pub fn list(args: &ListArgs) -> anyhow::Result<()> {
    // Read first, so that a missing or malformed file is an error before any output.
    let reg = Registry::load(args.solvers.as_deref())?;
    outln!("built-in solvers:")?;
    for &k in SolverKind::ALL {
        let e = BuiltinEngine::new(k);
        let head = format!("  {:<18} {:<12} ", k.name(), caps_words(&e.info().caps));
        outln!(
            "{}",
            crate::plumbing::human::hanging(&head, k.description())
        )?;
    }
    outln!("\nbuilt-in solvers under another configuration (not part of `all`):")?;
    for name in solvers::registry::variant_names() {
        let engine = BuiltinEngine::variant_named(name).expect("a variant's name builds it");
        let info = engine.info();
        let head = format!("  {:<18} {:<12} ", name, caps_words(&info.caps));
        outln!(
            "{}",
            crate::plumbing::human::hanging(&head, &info.description)
        )?;
    }
    match &reg.file {
        Some(file) => {
            outln!("\nexternal solvers from {}:", file.display())?;
            for e in &reg.external {
                let (name, kind, what) = registry::describe(e);
                let state = match registry::build_external(e, false) {
                    Ok(engine) => caps_words(&engine.info().caps),
                    Err(err) => format!("NOT AVAILABLE: {:#}", registry::with_remedy(e, err)),
                };
                let head = format!("  {name:<18} {kind:<7} ");
                let pad = " ".repeat(head.chars().count());
                outln!("{}", crate::plumbing::human::hanging(&head, &what))?;
                if let Some(d) = &e.description {
                    outln!("{}", crate::plumbing::human::hanging(&pad, d))?;
                }
                outln!("{}", crate::plumbing::human::hanging(&pad, &state))?;
            }
        }
        None => outln!(
            "\n{}",
            crate::plumbing::human::wrap(&format!(
                "no solvers file ({} here, or --solvers FILE): external solvers can still be \
                 given inline as lib:PATH:SYMBOL, cmd:PROGRAM, dimacs:PROGRAM",
                registry::DEFAULT_SOLVERS_FILE
            ))
        )?,
    }
    outln!("\nshipped datasets (use with --dataset NAME):")?;
    for s in dataset::all_shipped() {
        let ds = dataset::shipped(s);
        let head = format!(
            "  {:<18} {:>6} puzzles{}  ",
            s.name,
            ds.entries.len(),
            if s.default {
                " (default)"
            } else {
                "          "
            }
        );
        let text = format!("datasets/{}: {}", s.file, s.description);
        outln!("{}", crate::plumbing::human::hanging(&head, &text))?;
    }
    Ok(())
}
