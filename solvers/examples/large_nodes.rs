//! Runs the `large` solver (or another that takes every shape, named first) over puzzle files of
//! any shape under a node budget (or a time budget: `2000ms`) and prints, per puzzle, its status, nodes, backtracks and time, and whether the answer is a full grid without a conflict
//! that keeps the givens; then how many were solved and the total nodes.
//!
//! ```sh
//! cargo run --release -p solvers --example large_nodes -- [SOLVER] MAX_NODES|MSms FILE...
//! ```
//!
//! A file is `ints` (`# shape NxN` or `# shape NxN/RxC`, then N rows of N integers, 0 empty, a
//! blank line after each grid) or one puzzle a line, one character a cell (`.` or `0` empty,
//! 1-9, then A = 10 ... Z = 35; its side is the square root of the line's length).

use solvers::{Board, Budget, Shape, SolverKind, Status};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let kind = match args.peek().map(|a| a.parse::<SolverKind>()) {
        Some(Ok(kind)) => {
            args.next();
            kind
        }
        _ => SolverKind::Large,
    };
    let limit = args.next().unwrap_or_default();
    let ms = limit.strip_suffix("ms").and_then(|a| a.parse::<u64>().ok());
    let max = limit.parse::<u64>().ok();
    if ms.is_none() && max.is_none() {
        eprintln!("usage: large_nodes [SOLVER] MAX_NODES|MILLISECONDSms FILE...");
        std::process::exit(2);
    }
    let mut solver = kind.build();
    let (mut solved, mut total, mut nodes) = (0, 0, 0u64);
    for path in args {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (i, p) in boards(&text).into_iter().enumerate() {
            let budget = Budget::unlimited()
                .max_nodes(max)
                .timeout(ms.map(std::time::Duration::from_millis));
            let t = Instant::now();
            let out = solver
                .solve(&p, &budget)
                .expect("the solver takes the board's shape");
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let ok = out.solution.as_ref().is_some_and(|s| {
                s.is_full()
                    && s.first_conflict().is_none()
                    && p.cells()
                        .iter()
                        .enumerate()
                        .all(|(i, &v)| v == 0 || s.get(i) == v)
            });
            assert!(
                out.status != Status::Solved || ok,
                "{path} #{i}: a wrong answer"
            );
            total += 1;
            solved += usize::from(ok);
            nodes += out.stats.nodes;
            println!(
                "{path} #{i} {} {}: {} nodes, {} backtracks, {:.0} ms",
                p.shape(),
                out.status,
                out.stats.nodes,
                out.stats.backtracks,
                ms
            );
        }
    }
    println!("solved {solved} of {total}, {nodes} nodes");
}

/// The puzzles of a file in either format.
fn boards(text: &str) -> Vec<Board> {
    let mut out = Vec::new();
    let mut shape = None;
    let mut rows: Vec<u16> = Vec::new();
    let flush = |rows: &mut Vec<u16>, shape: Option<Shape>, out: &mut Vec<Board>| {
        if !rows.is_empty() {
            let s = shape.expect("a # shape line");
            out.push(Board::new(s, std::mem::take(rows)).expect("a board"));
        }
    };
    for line in text.lines().map(str::trim) {
        if let Some(s) = line.strip_prefix("# shape ") {
            shape = Some(s.parse().expect("a shape"));
        } else if line.starts_with('#') {
        } else if line.is_empty() {
            flush(&mut rows, shape, &mut out);
        } else if line.contains(' ') {
            rows.extend(line.split_whitespace().map(|v| v.parse::<u16>().unwrap()));
        } else {
            let cells: Vec<u16> = line
                .chars()
                .map(|c| match c {
                    '.' | '0' => 0,
                    '1'..='9' => (c as u8 - b'0') as u16,
                    'A'..='Z' => (c as u8 - b'A' + 10) as u16,
                    _ => panic!("{c}"),
                })
                .collect();
            let side = (cells.len() as f64).sqrt() as usize;
            let s = shape.unwrap_or_else(|| Shape::square_for_side(side).expect("a square"));
            out.push(Board::new(s, cells).expect("a board"));
        }
    }
    flush(&mut rows, shape, &mut out);
    out
}
