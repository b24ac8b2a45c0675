//! What some tests need beyond a clone of the repository: the public data (`HARNESS_DATA`) and a
//! few installed programs. Found by `build.rs`, which sets one cfg per prerequisite so that a
//! test lacking one is reported `ignored` with its reason
//! (`#[cfg_attr(not(harness_data), ignore = "...")]`), and by the `skipped` target of the
//! `solvers` package, whose lines end `cargo test --workspace` naming what was skipped.
//! Plain std: this file is compiled into both.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One prerequisite: the cfg it sets, what it is, the command that provides it, and the tests
/// that are ignored without it.
pub struct Prerequisite {
    /// The cfg `build.rs` sets when it is present.
    pub cfg: &'static str,
    /// What it is, for a person.
    pub what: &'static str,
    /// The command that provides it.
    pub enable: &'static str,
    /// The tests ignored without it, as `TARGET MODULE::NAME` (run one with
    /// `cargo test --test TARGET MODULE::NAME`).
    pub tests: &'static [&'static str],
}

/// Every prerequisite of the test suite.
pub const ALL: &[Prerequisite] = &[
    Prerequisite {
        cfg: "harness_data",
        what: "HARNESS_DATA, the folder of public data (datasets/, cases/hodoku-reglib/, anchors/)",
        enable: "scripts/fetch-data.sh DIR, then HARNESS_DATA=DIR cargo test --workspace",
        tests: &[
            "logic logic::reglib_pass_table",
            "logic logic::level_parity_with_hodoku_py",
            "external external::anchors_race_beside_ours_with_every_answer_checked",
            "external external::bench_gives_ratios_against_an_external_solver",
        ],
    },
    Prerequisite {
        cfg: "has_gxx",
        what: "g++ and gcc, to build the anchors",
        enable: "apt-get install g++",
        tests: &[
            "external external::anchors_race_beside_ours_with_every_answer_checked",
            "external external::bench_gives_ratios_against_an_external_solver",
        ],
    },
    Prerequisite {
        cfg: "has_cc",
        what: "a C compiler (cc), to build the test libraries",
        enable: "apt-get install gcc",
        tests: &["external external::a_segfaulting_library_under_isolate_gives_error_rows_and_the_run_goes_on"],
    },
    Prerequisite {
        cfg: "has_minisat",
        what: "minisat, a SAT solver raced through dimacs:",
        enable: "apt-get install minisat",
        tests: &["external external::minisat_models_decode_to_the_checked_solution"],
    },
    Prerequisite {
        cfg: "has_python3",
        what: "python3, to run examples/line_solver.py",
        enable: "apt-get install python3",
        tests: &[
            "external external::the_python_line_solver_races_and_counts",
            "external external::a_hanging_cmd_solver_costs_each_puzzle_its_budget_and_restarts_are_noted_apart",
            "external external::killed_with_sigkill_midway_a_run_leaves_no_process_and_no_temporary_folder",
            "external external::a_cmd_script_that_is_not_found_is_refused_before_the_run_naming_it",
            "external external::a_line_program_answering_solved_gives_solved_unchecked_rows",
        ],
    },
    Prerequisite {
        cfg: "has_cadical",
        what: "cadical, a CDCL SAT solver raced through dimacs:",
        enable: "apt-get install cadical",
        tests: &["external external_shapes::cadical_and_cryptominisat_solve_every_shape"],
    },
    Prerequisite {
        cfg: "has_cryptominisat",
        what: "cryptominisat5, a CDCL SAT solver raced through dimacs:",
        enable: "apt-get install cryptominisat",
        tests: &["external external_shapes::cadical_and_cryptominisat_solve_every_shape"],
    },
    Prerequisite {
        cfg: "has_minizinc",
        what: "minizinc with its Gecode back end, run by examples/engines/minizinc_gecode.py",
        enable: "apt-get install minizinc",
        tests: &["external external_shapes::minizinc_gecode_solves_every_shape"],
    },
    Prerequisite {
        cfg: "has_ortools",
        what: "OR-Tools importable by python3 (CP-SAT, run by examples/engines/cp_sat.py)",
        enable: "python3 -m pip install ortools",
        tests: &["external external_shapes::cp_sat_solves_every_shape"],
    },
    Prerequisite {
        cfg: "has_hodoku_py",
        what: "hodoku-py importable by python3 (or $PYTHON), the reference rater",
        enable: "python3 -m pip install hodoku-py",
        tests: &[
            "logic logic::level_parity_with_hodoku_py",
            "logic logic::level_sets_agree_with_hodoku_py",
        ],
    },
];

/// The folder `HARNESS_DATA` names, if it is set and is a folder.
pub fn harness_data() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("HARNESS_DATA")?);
    dir.is_dir().then_some(dir)
}

/// Whether `program` is an executable file in a folder of `PATH`.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| is_executable(&d.join(program))))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The Python that runs hodoku-py: `$PYTHON`, else `python3`.
pub fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Whether the prerequisite named by `cfg` is present on this machine now.
pub fn present(cfg: &str) -> bool {
    match cfg {
        "harness_data" => harness_data().is_some(),
        "has_gxx" => on_path("g++") && on_path("gcc"),
        "has_cc" => on_path("cc"),
        "has_minisat" => on_path("minisat"),
        "has_python3" => on_path("python3"),
        "has_cadical" => on_path("cadical"),
        "has_cryptominisat" => on_path("cryptominisat5"),
        "has_minizinc" => {
            on_path("python3")
                && Command::new("minizinc")
                    .arg("--solvers")
                    .output()
                    .is_ok_and(|o| {
                        o.status.success()
                            && String::from_utf8_lossy(&o.stdout).contains("org.gecode.gecode")
                    })
        }
        "has_ortools" => Command::new("python3")
            .args(["-c", "import ortools.sat.python.cp_model"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success()),
        "has_hodoku_py" => Command::new(python())
            .args(["-c", "import hodoku.api"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success()),
        _ => false,
    }
}
