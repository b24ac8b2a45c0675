//! A run over a dataset of several shapes (9x9, 16x16 and 4x4 Sudoku, and an unreadable line)
//! with a 9x9-only engine and one that takes every shape: rows only for the pairs that apply,
//! the `shape` column, summary groups per shape with `n/a: 9x9 only` in the terminal table,
//! summary.md and index.html, scores that do not count the left-out pairs, and run.json's
//! shapes.

use harness::analysis::summary::{self, SummaryRow};
use harness::execution::runner::{self, RunOptions};
use harness::input::dataset::Dataset;
use harness::input::format::{Entry, InputError, Puzzle, Reason};
use harness::record::{self, Row, RowStatus, RunInfo};
use solvers::engine::{
    BudgetMode, Caps, Engine, EngineError, EngineInfo, NodeUnit, Origin, Session, Shapes,
};
use solvers::registry::BuiltinEngine;
use solvers::{Board, Budget, Grid, Outcome, Shape, SolverKind, Stats, Status};
use std::path::PathBuf;
use std::sync::Arc;

/// A test-only engine that takes every shape: plain backtracking over the board, the first
/// empty cell each time, digits in order (no budget polling: the puzzles are small).
struct Brute {
    info: EngineInfo,
}

impl Brute {
    fn new() -> Brute {
        Brute {
            info: EngineInfo {
                name: "brute".into(),
                description: "test-only backtracking at every shape".into(),
                version: None,
                origin: Origin::Builtin,
                caps: Caps {
                    shapes: Shapes::Any,
                    counts: false,
                    gives_solution: true,
                    budget: BudgetMode::OverrunRecorded,
                    nodes: NodeUnit::SearchTree,
                    guesses: false,
                    parallel: true,
                },
            },
        }
    }
}

struct BruteSession;

/// Fills `b` by backtracking; counts nodes.
fn fill(b: &mut Board, units: &solvers::Units, nodes: &mut u64) -> bool {
    *nodes += 1;
    let Some(i) = b.cells().iter().position(|&v| v == 0) else {
        return true;
    };
    let side = b.shape().side();
    let peers = units.peers(i);
    for v in 1..=side as u16 {
        if peers.iter().any(|&p| b.get(p as usize) == v) {
            continue;
        }
        b.set(i, v);
        if fill(b, units, nodes) {
            return true;
        }
    }
    b.set(i, 0);
    false
}

impl Session for BruteSession {
    fn solve(&mut self, puzzle: &Board, _budget: &Budget) -> Result<Outcome, EngineError> {
        let mut b = puzzle.clone();
        let units = b.shape().units();
        let mut nodes = 0;
        let stats = |nodes| Stats {
            nodes,
            ..Stats::default()
        };
        if fill(&mut b, &units, &mut nodes) {
            Ok(Outcome::solved(b, stats(nodes)))
        } else {
            Ok(Outcome {
                status: Status::NoSolution,
                solution: None,
                stats: stats(nodes),
            })
        }
    }
}

impl Engine for Brute {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn session(&self) -> Result<Box<dyn Session>, EngineError> {
        Ok(Box::new(BruteSession))
    }
}

/// The pattern solution of a Sudoku of order `n` (side n²): row r is the first row shifted by
/// n·(r mod n) + r div n; a valid grid (rows, columns and boxes each hold every digit).
fn pattern(n: usize) -> Board {
    let side = n * n;
    let cells = (0..side * side)
        .map(|i| {
            let (r, c) = (i / side, i % side);
            ((n * (r % n) + r / n + c) % side + 1) as u16
        })
        .collect();
    Board::new(Shape::of_order(n).unwrap(), cells).unwrap()
}

/// `solution` with every `k`-th cell (from `offset`) blanked.
fn holes(solution: &Board, k: usize, offset: usize) -> Board {
    let mut b = solution.clone();
    for i in (offset..b.cells().len()).step_by(k) {
        b.set(i, 0);
    }
    b
}

const SEED: &str =
    "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
const SEED_SOLUTION: &str =
    "729364158341825967865971423536192874918547632274683519652438791493716285187259346";

fn entry(index: usize, puzzle: Result<Puzzle, InputError>) -> Entry {
    Entry {
        index,
        line: index + 1,
        name: Some(format!("p{index}")),
        shape: puzzle.as_ref().ok().map(Puzzle::shape),
        puzzle,
    }
}

/// The mixed dataset: two 9x9 puzzles, two 16x16, one unreadable line, one 4x4.
fn mixed() -> Dataset {
    let grid: Grid = SEED.parse().unwrap();
    let solution: Grid = SEED_SOLUTION.parse().unwrap();
    let p16 = pattern(4);
    let p4 = pattern(2);
    let shaped = |b: Board, s: &Board| Puzzle {
        board: b,
        solution: Some(s.clone()),
    };
    let entries = vec![
        entry(1, Ok(Puzzle::classic(grid, Some(solution)))),
        entry(2, Ok(shaped(holes(&p16, 3, 0), &p16))),
        entry(3, Ok(Puzzle::classic(grid, None))),
        entry(4, Ok(shaped(holes(&p16, 17, 1), &p16))),
        entry(
            5,
            Err(InputError {
                source_name: "mixed".into(),
                line: 6,
                reason: Reason::WrongLength { found: 12 },
            }),
        ),
        entry(6, Ok(shaped(holes(&p4, 2, 0), &p4))),
    ];
    Dataset {
        name: "mixed".into(),
        source: "mixed.txt".into(),
        format: harness::input::format::Format::Line,
        entries,
    }
}

fn engines() -> Vec<Arc<dyn Engine>> {
    vec![
        Arc::new(BuiltinEngine::new(SolverKind::BitboardBands)),
        Arc::new(Brute::new()),
    ]
}

fn run_mixed() -> (Dataset, RunOptions, Vec<Row>) {
    let data = mixed();
    let opts = RunOptions {
        solvers: engines(),
        threads: Some(1),
        classes: false,
        ..RunOptions::default()
    };
    let rows = runner::run(std::slice::from_ref(&data), &opts).unwrap();
    (data, opts, rows)
}

/// The 9x9-only engine's name.
fn classic_engine() -> String {
    SolverKind::BitboardBands.name().to_string()
}

#[test]
fn rows_only_for_the_pairs_that_apply_with_their_shape() {
    let (data, opts, rows) = run_mixed();
    let bands = classic_engine();
    let got: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| (r.puzzle.clone(), r.solver.clone(), r.shape.clone()))
        .collect();
    let want: Vec<(String, String, String)> = [
        ("p1", bands.as_str(), "9x9"),
        ("p1", "brute", "9x9"),
        ("p2", "brute", "16x16"),
        ("p3", bands.as_str(), "9x9"),
        ("p3", "brute", "9x9"),
        ("p4", "brute", "16x16"),
        // An unreadable line has a row for every engine, of unknown shape.
        ("p5", bands.as_str(), ""),
        ("p5", "brute", ""),
        ("p6", "brute", "4x4"),
    ]
    .iter()
    .map(|&(p, s, sh)| (p.to_string(), s.to_string(), sh.to_string()))
    .collect();
    assert_eq!(got, want);
    // The progress bar's total counts exactly these solves.
    let planned: usize = data
        .entries
        .iter()
        .map(|e| runner::solves_of(e, &opts))
        .sum();
    assert_eq!(planned, rows.len());
    // Every answer checked right by the runner, and again here by the checker.
    for (r, e) in rows
        .iter()
        .filter(|r| r.status != RowStatus::Invalid)
        .map(|r| {
            let e = data.entries.iter().find(|e| e.label() == r.puzzle).unwrap();
            (r, e)
        })
    {
        assert_eq!(
            (r.status, r.correct),
            (RowStatus::Solved, Some(true)),
            "{r:?}"
        );
        let p = e.puzzle.as_ref().unwrap();
        let answer = Board::new(
            p.shape(),
            r.solution
                .chars()
                .map(|c| c.to_digit(36).unwrap() as u16)
                .collect(),
        )
        .unwrap();
        harness::verify::check_board(&p.board, &answer, p.solution.as_ref()).unwrap();
    }
}

fn summary_of(rows: &[Row]) -> Vec<SummaryRow> {
    let mut acc =
        summary::Accumulator::for_solvers(vec![(classic_engine(), false), ("brute".into(), true)]);
    rows.iter().for_each(|r| acc.add(r));
    let mut s = acc.finish();
    harness::analysis::scores::score(rows, Some(1e6), &mut s);
    s
}

#[test]
fn summary_groups_per_shape_with_n_a_rows_and_fair_scores() {
    let (_, _, rows) = run_mixed();
    let s = summary_of(&rows);
    let bands = classic_engine();
    let got: Vec<(&str, &str, usize, usize, usize, &str)> = s
        .iter()
        .map(|r| {
            (
                r.shape.as_str(),
                r.solver.as_str(),
                r.puzzles,
                r.solved,
                r.invalid,
                r.na.as_str(),
            )
        })
        .collect();
    // The unreadable line counts in the dataset's first shape, 9x9.
    assert_eq!(
        got,
        vec![
            ("9x9", bands.as_str(), 3, 2, 1, ""),
            ("9x9", "brute", 3, 2, 1, ""),
            ("9x9", "virtual-best", 3, 2, 1, ""),
            ("16x16", bands.as_str(), 0, 0, 0, "9x9 only"),
            ("16x16", "brute", 2, 2, 0, ""),
            ("16x16", "virtual-best", 2, 2, 0, ""),
            ("4x4", bands.as_str(), 0, 0, 0, "9x9 only"),
            ("4x4", "brute", 1, 1, 0, ""),
            ("4x4", "virtual-best", 1, 1, 0, ""),
        ]
    );
    // The n/a rows keep no score; the 9x9-only engine's 9x9 scores are those of a run over
    // the 9x9 puzzles alone (the 16x16 and 4x4 puzzles do not count against it).
    for r in s.iter().filter(|r| r.is_na()) {
        assert_eq!((r.par2_micros, r.unique_solves, r.timeouts), (None, 0, 0));
    }
    let classic_rows: Vec<Row> = rows
        .iter()
        .filter(|r| r.shape != "16x16" && r.shape != "4x4")
        .cloned()
        .collect();
    let alone = summary_of(&classic_rows);
    let find = |v: &[SummaryRow], shape: &str, solver: &str| {
        v.iter()
            .find(|r| r.shape == shape && r.solver == solver)
            .cloned()
            .unwrap()
    };
    assert_eq!(find(&s, "9x9", &bands), find(&alone, "9x9", &bands));
    // brute alone answered the 16x16 and 4x4 puzzles: unique solves, PAR-2 at its own times.
    let b16 = find(&s, "16x16", "brute");
    assert_eq!(b16.unique_solves, 2);
    let times: Vec<f64> = rows
        .iter()
        .filter(|r| r.shape == "16x16")
        .map(|r| r.micros)
        .collect();
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    assert!((b16.par2_micros.unwrap() - mean).abs() < 1e-3, "{b16:?}");

    let t = summary::table(
        &s.into_iter()
            .filter(|r| r.solver != "virtual-best")
            .collect::<Vec<_>>(),
    );
    let lines: Vec<&str> = t.lines().collect();
    assert!(lines.contains(&"mixed: 3 puzzles"), "{t}");
    assert!(lines.contains(&"mixed (16x16): 2 puzzles"), "{t}");
    assert!(lines.contains(&"mixed (4x4): 1 puzzle"), "{t}");
    let na = format!("{bands}  n/a: 9x9 only");
    assert_eq!(lines.iter().filter(|l| **l == na).count(), 2, "{t}");
    assert!(
        t.lines().all(|l| l.chars().count() <= summary::TABLE_WIDTH),
        "{t}"
    );
}

fn fixture_info() -> RunInfo {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report-run/run.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn run_json_results_csv_and_the_report_say_n_a() {
    let (_, opts, rows) = run_mixed();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mixed");
    let mut info = fixture_info();
    info.solvers = opts.solvers.iter().map(|e| e.info().name.clone()).collect();
    info.solver_details = opts
        .solvers
        .iter()
        .map(|e| harness::execution::registry::record(e.as_ref()))
        .collect();
    info.datasets = vec![record::DatasetInfo {
        name: "mixed".into(),
        source: "mixed.txt".into(),
        format: "line".into(),
        puzzles: 6,
        invalid: 1,
        shapes: [("9x9", 2), ("16x16", 2), ("4x4", 1)]
            .iter()
            .map(|&(shape, puzzles)| record::ShapeCount {
                shape: shape.into(),
                puzzles,
            })
            .collect(),
    }];
    // A complete run has exactly the rows the runner gave.
    assert_eq!(info.planned_solves(), rows.len());
    let summary = summary_of(&rows);
    record::write_run(&dir, &rows, &summary, &info).unwrap();

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(json["solver_details"][0]["shapes"], "9x9");
    assert_eq!(json["solver_details"][1]["shapes"], "any");
    assert_eq!(json["datasets"][0]["shapes"][1]["shape"], "16x16");
    assert_eq!(json["datasets"][0]["shapes"][1]["puzzles"], 2);
    // results.csv reads back with its shapes; summary.csv has the n/a rows.
    let back = record::read_rows(&dir).unwrap();
    assert_eq!(back, rows);
    let sums: Vec<SummaryRow> = csv::Reader::from_path(dir.join("summary.csv"))
        .unwrap()
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(sums, summary);

    harness::report::render(&dir).unwrap();
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    let bands = classic_engine();
    assert!(
        md.contains(&format!("| mixed (16x16) | {bands} | n/a: 9x9 only |")),
        "{md}"
    );
    assert!(md.contains("| mixed (4x4) | brute | 1 / 1 |"), "{md}");
    assert!(md.contains("- **mixed (16x16)**:"), "{md}");
    // The verdict of a group ranks only the engines that ran it.
    let verdict = md
        .lines()
        .find(|l| l.starts_with("- **mixed (16x16)**"))
        .unwrap();
    assert!(!verdict.contains(&bands), "{verdict}");
    assert!(!md.contains("Partial run"), "{md}");
    // The cactus plot of the dataset says whose curve leaves puzzles out, and why.
    assert!(
        md.contains(&format!(
            "Curves count only the puzzles each solver takes: {bands} (9x9 only: not the 16x16 \
             puzzles)"
        )),
        "{md}"
    );
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        html.contains("<td data-v=\"-1\">n/a: 9x9 only</td>"),
        "{html}"
    );
    assert!(html.contains("mixed (16x16)"), "{html}");
    // The throughput plot has a panel per group, without a bar for the engine left out.
    let svg = std::fs::read_to_string(dir.join("plots/throughput.svg")).unwrap();
    assert!(svg.contains("mixed (16x16)"), "throughput.svg");
}

#[test]
fn old_results_and_summaries_read_as_9x9() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report-run");
    let rows = record::read_rows(&fixture).unwrap();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r.shape == "9x9"));
    let info = record::read_info(&fixture).unwrap();
    assert!(info.solver_details.is_empty() && info.datasets[0].shapes.is_empty());
    assert_eq!(
        info.planned_solves(),
        info.datasets.iter().map(|d| d.puzzles).sum::<usize>() * info.solvers.len()
    );
    let old_summary = "dataset,solver,puzzles,solved,wrong,no_solution,timeouts,invalid,\
        median_micros,mean_micros,p90_micros,max_micros,puzzles_per_second,mean_nodes\n\
        seed,dlx,2,2,0,0,0,0,1.5,1.5,1.5,1.5,1000.0,3.0\n";
    std::fs::write(dir.join("summary.csv"), old_summary).unwrap();
    let s: Vec<SummaryRow> = csv::Reader::from_path(dir.join("summary.csv"))
        .unwrap()
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!((s[0].shape.as_str(), s[0].is_na()), ("9x9", false));
}
