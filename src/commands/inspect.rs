//! `harness inspect`: the manifest of each dataset ([`crate::execution::manifest`]).

use crate::cli::InspectArgs;
use crate::execution::manifest::{self, Options};
use std::time::Duration;

/// Prints the manifest of each dataset, as text or JSON.
///
/// # Errors
/// An unknown dataset or an unreadable file.
pub fn inspect(args: &InspectArgs) -> anyhow::Result<()> {
    let opts = Options {
        classes: Some(Duration::from_millis(args.timeout_ms.max(1))),
        isomorph_limit: usize::MAX,
        exact_limit: usize::MAX,
    };
    let mut all = Vec::new();
    for d in &args.datasets {
        let src = crate::input::dataset::open(d)?;
        all.push(manifest::manifest(&src, opts)?);
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&all)?)?;
    } else {
        let texts: Vec<String> = all.iter().map(manifest::text).collect();
        out!("{}", texts.join("\n"))?;
    }
    Ok(())
}
