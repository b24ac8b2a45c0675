//! The encoding ablation at every size of docs/sat.md ("Encodings that scale"): for each puzzle of
//! the files given, each CNF encoding's size (variables, clauses) and the CPU time of varisat and
//! of CaDiCaL on it, one process per formula under a kill timer, the answer decoded and checked.
//!
//! ```text
//! cargo run --release --example cnf_scaling -- [--timeout 20] [--max-clauses 20000000]
//!     [--encodings all|reduced|E1,E2,...] [--solvers varisat,cadical] FILE...
//! ```
//!
//! scripts/cnf-ablation.sh makes the instances (punched Sudoku from 9x9 to 100x100, quasigroups
//! with holes to order 60) and runs this over them. For each puzzle and encoding it prints a
//! Markdown row: the file, the shape, the encoding, variables, clauses, the time to build the
//! formula, and per solver the CPU seconds of the child (user + system, `wait4`), `>T` when it
//! was killed at the timeout, `-` when the formula has more than `--max-clauses` clauses (not
//! written). varisat runs in a child process of this example (`--varisat FILE`), as it cannot be
//! interrupted.

use anyhow::{bail, Context};
use harness::input::format::PuzzleReader;
use solvers::sat::{parse_sat_output, CnfEncoding, Formula, SatAnswer};
use solvers::Board;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Args {
    timeout: f64,
    max_clauses: usize,
    encodings: Vec<CnfEncoding>,
    solvers: Vec<String>,
    files: Vec<PathBuf>,
}

fn args() -> anyhow::Result<Args> {
    let mut a = Args {
        timeout: 20.0,
        max_clauses: 20_000_000,
        encodings: CnfEncoding::all(),
        solvers: vec!["varisat".into(), "cadical".into()],
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--timeout" => a.timeout = value()?.parse()?,
            "--max-clauses" => a.max_clauses = value()?.parse()?,
            "--encodings" => {
                let v = value()?;
                a.encodings = match v.as_str() {
                    "all" => CnfEncoding::all(),
                    "reduced" => CnfEncoding::all()
                        .into_iter()
                        .filter(|e| e.reduced)
                        .collect(),
                    list => list
                        .split(',')
                        .map(|e| e.parse().map_err(|m: String| anyhow::anyhow!(m)))
                        .collect::<anyhow::Result<_>>()?,
                }
            }
            "--solvers" => a.solvers = value()?.split(',').map(str::to_string).collect(),
            f if f.starts_with("--") => {
                bail!("unknown argument {f:?} (see the example's doc comment)")
            }
            file => a.files.push(PathBuf::from(file)),
        }
    }
    Ok(a)
}

/// The child mode: solve one DIMACS file with varisat, print the answer in SAT-competition form.
fn varisat_child(path: &Path) -> anyhow::Result<()> {
    let mut s = varisat::Solver::new();
    s.add_dimacs_cnf(std::fs::File::open(path)?)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let sat = s.solve().map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut out = std::io::stdout().lock();
    if sat {
        writeln!(out, "s SATISFIABLE")?;
        let lits: Vec<String> = s
            .model()
            .unwrap_or_default()
            .iter()
            .map(|l| l.to_dimacs().to_string())
            .collect();
        writeln!(out, "v {} 0", lits.join(" "))?;
    } else {
        writeln!(out, "s UNSATISFIABLE")?;
    }
    Ok(())
}

/// Runs `command` with a kill timer: (CPU seconds of the child, its stdout), or `None` at the
/// timeout.
fn timed(mut command: Command, timeout: f64) -> anyhow::Result<Option<(f64, String)>> {
    let out = tempfile::tempfile()?;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(Stdio::null())
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    let mut killed = false;
    loop {
        if child.try_wait()?.is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs_f64(timeout) {
            let _ = child.kill();
            killed = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // try_wait reaped the child; its resource usage is in RUSAGE_CHILDREN, read as a difference.
    let _ = child.wait();
    let _ = pid;
    if killed {
        return Ok(None);
    }
    let cpu = children_cpu();
    let mut text = String::new();
    use std::io::{Read, Seek};
    let mut out = out;
    out.seek(std::io::SeekFrom::Start(0))?;
    out.read_to_string(&mut text)?;
    Ok(Some((cpu, text)))
}

/// User + system CPU seconds of all reaped children so far.
fn children_cpu() -> f64 {
    // SAFETY: getrusage writes into the zeroed struct we own.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    t(u.ru_utime) + t(u.ru_stime)
}

fn main() -> anyhow::Result<()> {
    let mut raw = std::env::args().skip(1);
    if raw.next().as_deref() == Some("--varisat") {
        return varisat_child(Path::new(&raw.next().context("--varisat FILE")?));
    }
    let a = args()?;
    let exe = std::env::current_exe()?;
    let dir = tempfile::tempdir()?;
    let cnf = dir.path().join("f.cnf");
    println!(
        "| file | shape | holes | encoding | variables | clauses | build s | {} |",
        a.solvers
            .iter()
            .map(|s| format!("{s} CPU s"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!(
        "|---|---|---:|---|---:|---:|---:|{}",
        "---:|".repeat(a.solvers.len())
    );
    for file in &a.files {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let reader = PuzzleReader::from_text(&text, &file.display().to_string());
        let puzzles: Vec<Board> = reader
            .map(|e| e.puzzle.map(|p| p.board))
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        for (k, puzzle) in puzzles.iter().enumerate() {
            let shape = puzzle.shape();
            let holes = shape.cells() - puzzle.givens();
            for &e in &a.encodings {
                let t = Instant::now();
                let f = Formula::new(e, puzzle);
                let build = t.elapsed().as_secs_f64();
                let mut cells = Vec::new();
                if f.clauses() > a.max_clauses {
                    cells = vec!["-".to_string(); a.solvers.len()];
                } else {
                    let mut w = std::io::BufWriter::new(std::fs::File::create(&cnf)?);
                    f.write_dimacs::<[i32; 0]>(&[], &mut w)?;
                    w.flush()?;
                    drop(w);
                    for s in &a.solvers {
                        let mut c = match s.as_str() {
                            "varisat" => {
                                let mut c = Command::new(&exe);
                                c.arg("--varisat");
                                c
                            }
                            "cadical" => {
                                let mut c = Command::new("cadical");
                                c.arg("-q");
                                c
                            }
                            other => Command::new(other),
                        };
                        c.arg(&cnf);
                        let before = children_cpu();
                        cells.push(match timed(c, a.timeout)? {
                            None => format!(">{}", a.timeout),
                            Some((after, out)) => {
                                let cpu = after - before;
                                match parse_sat_output(&out) {
                                    Ok(SatAnswer::Satisfiable(model)) => {
                                        let b = f.decode(&model).map_err(|m| {
                                            anyhow::anyhow!("{name} #{} {e} {s}: {m}", k + 1)
                                        })?;
                                        if let Err(w) =
                                            harness::verify::check_board(puzzle, &b, None)
                                        {
                                            bail!("{name} #{} {e} {s}: wrong answer: {w}", k + 1);
                                        }
                                        format!("{cpu:.2}")
                                    }
                                    Ok(_) => format!("{cpu:.2} (unsat?)"),
                                    Err(m) => format!("error: {m}"),
                                }
                            }
                        });
                    }
                }
                println!(
                    "| {name}#{} | {shape} | {:.0}% | {e} | {} | {} | {build:.2} | {} |",
                    k + 1,
                    100.0 * holes as f64 / shape.cells() as f64,
                    f.variables(),
                    f.clauses(),
                    cells.join(" | ")
                );
            }
        }
    }
    Ok(())
}
