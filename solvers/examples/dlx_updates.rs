//! Prints the `dlx` solver's counters and Knuth's link updates (nodes removed from a column list
//! by `cover`) for each puzzle of a file, then the medians. The shared `Stats` (and so
//! `results.csv`) has no column for link updates; this is where to see them.
//!
//! ```sh
//! cargo run --release -p solvers --example dlx_updates -- FILE [--quiet]
//! ```

use solvers::{dlx, Budget, Grid};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: dlx_updates FILE [--quiet] (one 81-character puzzle per line)");
        std::process::exit(2);
    };
    let quiet = args.next().as_deref() == Some("--quiet");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let (mut nodes, mut updates) = (Vec::new(), Vec::new());
    let mut solver = dlx::Dlx::default();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let Some(Ok(p)) = line.split_whitespace().next().map(str::parse::<Grid>) else {
            continue;
        };
        let (out, u) = solver.solve_with_updates(&p, &Budget::unlimited());
        if !quiet {
            println!(
                "{} {} nodes={} guesses={} backtracks={} link_updates={u}",
                p, out.status, out.stats.nodes, out.stats.guesses, out.stats.backtracks
            );
        }
        nodes.push(out.stats.nodes);
        updates.push(u);
    }
    if nodes.is_empty() {
        println!("no puzzle in {path}");
        return;
    }
    nodes.sort_unstable();
    updates.sort_unstable();
    println!(
        "{} puzzles: median nodes {}, median link updates {}, max link updates {}",
        nodes.len(),
        nodes[nodes.len() / 2],
        updates[updates.len() / 2],
        updates[updates.len() - 1]
    );
}
