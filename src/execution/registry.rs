//! The registry: every solver a command can name, built-in or external, as an
//! [`Engine`](solvers::engine::Engine).
//!
//! A `--solver` value is one of
//! - a built-in name (`bitboard-bands`, see `harness list`) or `all` (every built-in solver);
//! - `sat-minimal`, `sat-efficient`, `sat-extended`, `sat-redundant`: the `sat` solver on one
//!   of its CNF encodings (not part of `all`; `sat` is the fastest of them); `cp-norestart`:
//!   `cp` without restarts (not part of `all`);
//! - a name from the solvers file (`tdoku`, `minisat`, ...);
//! - an inline spec, optionally named: `[NAME=]lib:PATH:SYMBOL[:CONFIGURATION]` (a shared
//!   library with tdoku's adapter signature), `[NAME=]cmd:PROGRAM ARGS...` (a program speaking the
//!   line protocol), `[NAME=]dimacs:PROGRAM ARGS...` (an external SAT solver on our CNF).
//!
//! The solvers file is TOML, one table per solver (paths relative to the file's folder):
//!
//! ```toml
//! [tdoku]
//! lib = "target/anchors/libtdoku.so"
//! symbol = "TdokuSolverDpllTriadSimd"
//! configuration = 0          # optional, default 0
//! description = "tdoku: DPLL over box triads, SIMD"
//! gives_solution = true      # optional, default true
//!
//! [py]
//! cmd = "python3 examples/line_solver.py"
//! counts = true              # optional, default true
//! shapes = "any"             # optional: "9x9" (default) or "any" (the shaped requests)
//!
//! [minisat]
//! dimacs = "minisat"
//! ```
//!
//! It is read from `--solvers FILE`, else from `solvers.toml` in the current folder when there
//! is one.

use crate::execution::perf::ReferenceOrigin;
use crate::record::{EngineKind, FileRecord, NodeCount, SolverRecord};
use anyhow::{bail, Context};
use foreign::ForeignOrigin;
use serde::Deserialize;
use solvers::engine::{Engine, NodeUnit, Origin};
use solvers::registry::BuiltinEngine;
use solvers::SolverKind;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The solvers file looked for in the current folder when `--solvers` is not given.
pub const DEFAULT_SOLVERS_FILE: &str = "solvers.toml";

/// One external solver, as written in an inline spec or a solvers-file table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExternalSpec {
    /// `lib:PATH:SYMBOL[:CONFIGURATION]`.
    Lib {
        /// The shared library.
        path: PathBuf,
        /// The adapter function.
        symbol: String,
        /// Its `configuration` argument.
        configuration: u32,
        /// False for libraries that return only a count (fast_solv_9r2).
        gives_solution: bool,
    },
    /// `cmd:PROGRAM ARGS...`.
    Cmd {
        /// Program and arguments.
        command: Vec<String>,
        /// Whether it answers `count` requests.
        counts: bool,
        /// The grid shapes it takes (`shapes = "any"`; 9x9 only when not declared).
        shapes: solvers::engine::Shapes,
    },
    /// `dimacs:PROGRAM ARGS...`.
    Dimacs {
        /// Program and arguments.
        command: Vec<String>,
    },
}

/// A named external solver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct External {
    /// The name rows, plots and tables show.
    pub name: String,
    /// What it is.
    pub spec: ExternalSpec,
    /// A description for `harness list` (solvers file only).
    pub description: Option<String>,
}

/// One table of the solvers file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileEntry {
    lib: Option<PathBuf>,
    symbol: Option<String>,
    configuration: Option<u32>,
    gives_solution: Option<bool>,
    cmd: Option<String>,
    counts: Option<bool>,
    shapes: Option<String>,
    dimacs: Option<String>,
    description: Option<String>,
}

/// Built-in solvers plus the solvers file's entries.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// The solvers file's entries, by name, in file order.
    pub external: Vec<External>,
    /// Where they came from.
    pub file: Option<PathBuf>,
}

/// The words of a solvers file's command with its relative paths anchored at `base`, the
/// file's folder: the program when it names a path (`./solve`, `bin/solve`; a bare name is
/// looked up on `PATH`), and each argument that is not an option and either names a path
/// (`examples/solver.py`) or a file beside the solvers file (`solver.py`).
fn anchor_paths(mut command: Vec<String>, base: &Path) -> Vec<String> {
    if base.as_os_str().is_empty() {
        return command;
    }
    for (i, word) in command.iter_mut().enumerate() {
        let path = Path::new(word.as_str());
        let relative = path.is_relative() && !word.starts_with('-') && !word.contains('=');
        let names_path = word.contains('/') || (i > 0 && base.join(path).is_file());
        if relative && names_path {
            *word = base.join(path).to_string_lossy().into_owned();
        }
    }
    command
}

fn split_command(text: &str, what: &str) -> anyhow::Result<Vec<String>> {
    let words =
        shlex::split(text).with_context(|| format!("{what}: unbalanced quotes in {text:?}"))?;
    if words.is_empty() {
        bail!("{what}: no program given");
    }
    Ok(words)
}

/// The default name of an external solver: the symbol, or the file stem of the program (or of
/// its script, for `python3 solver.py`): for `cmd:`, the last word that is neither an option
/// (`-v`, `--threads`) nor a number (`2`, `0.5`), so `cmd:python3 solver.py --threads 2` and
/// `cmd:./solve 3` are `solver` and `solve`. Two solvers that get one name are refused by
/// [`Registry::resolve`], which asks for `NAME=`.
fn default_name(spec: &ExternalSpec) -> String {
    let stem = |w: &str| {
        Path::new(w)
            .file_stem()
            .map_or_else(|| w.to_string(), |s| s.to_string_lossy().into_owned())
    };
    let number = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_digit() || c == '.') && w.parse::<f64>().is_ok()
    };
    match spec {
        ExternalSpec::Lib { symbol, .. } => symbol.clone(),
        ExternalSpec::Cmd { command, .. } => {
            let last = command
                .iter()
                .rev()
                .find(|w| !w.starts_with('-') && !number(w));
            stem(last.unwrap_or(&command[0]))
        }
        ExternalSpec::Dimacs { command } => stem(&command[0]),
    }
}

/// Parses an inline spec (`[NAME=]lib:...`, `cmd:...`, `dimacs:...`); `None` when `text` is not
/// one (a plain solver name).
///
/// # Errors
/// A malformed spec: missing symbol, bad configuration number, empty command.
pub fn parse_inline(text: &str) -> anyhow::Result<Option<External>> {
    let text = text.trim();
    let (name, rest) = match text.split_once('=') {
        Some((n, r)) if !n.contains(':') && !n.is_empty() => (Some(n.trim()), r.trim()),
        _ => (None, text),
    };
    let spec = if let Some(r) = rest.strip_prefix("lib:") {
        let mut parts: Vec<&str> = r.rsplitn(3, ':').collect();
        parts.reverse();
        let (path, symbol, configuration) = match parts.as_slice() {
            [p, s, c] if c.chars().all(|ch| ch.is_ascii_digit()) && !c.is_empty() => {
                let Ok(n) = c.parse::<u32>() else {
                    bail!(
                        "{text:?}: configuration {c} is too large (at most {})",
                        u32::MAX
                    );
                };
                (p.to_string(), s.to_string(), n)
            }
            // A path holding a colon, unless the part before it is the library: then the last
            // part was meant as a configuration number.
            [p, s, c] if Path::new(p).is_file() && !Path::new(&format!("{p}:{s}")).exists() => {
                bail!(
                    "{text:?}: configuration {c:?} is not a number (expected \
                     lib:PATH:SYMBOL[:CONFIGURATION], CONFIGURATION from 0 to {})",
                    u32::MAX
                )
            }
            [p, s, c] => (format!("{p}:{s}"), c.to_string(), 0),
            [p, s] => (p.to_string(), s.to_string(), 0),
            _ => bail!("{text:?}: expected lib:PATH:SYMBOL[:CONFIGURATION]"),
        };
        if path.is_empty() || symbol.is_empty() {
            bail!("{text:?}: expected lib:PATH:SYMBOL[:CONFIGURATION]");
        }
        ExternalSpec::Lib {
            path: PathBuf::from(path),
            symbol,
            configuration,
            gives_solution: true,
        }
    } else if let Some(r) = rest.strip_prefix("cmd:") {
        ExternalSpec::Cmd {
            command: split_command(r, text)?,
            counts: true,
            shapes: solvers::engine::Shapes::Classic,
        }
    } else if let Some(r) = rest.strip_prefix("dimacs:") {
        ExternalSpec::Dimacs {
            command: split_command(r, text)?,
        }
    } else {
        return Ok(None);
    };
    let name = name.map_or_else(|| default_name(&spec), str::to_string);
    Ok(Some(External {
        name,
        spec,
        description: None,
    }))
}

impl Registry {
    /// The built-in solvers plus the solvers file: `file` if given, else `solvers.toml` in the
    /// current folder if it exists.
    ///
    /// # Errors
    /// A solvers file that cannot be read or parsed (the message names the file and the table).
    pub fn load(file: Option<&Path>) -> anyhow::Result<Registry> {
        let path = match file {
            Some(p) => p.to_path_buf(),
            None => {
                let p = PathBuf::from(DEFAULT_SOLVERS_FILE);
                if !p.is_file() {
                    return Ok(Registry::default());
                }
                p
            }
        };
        let text = std::fs::read_to_string(&path).with_context(|| {
            let mut message = format!("cannot read the solvers file {}", path.display());
            let given = path.to_string_lossy();
            let solvers = given.contains(',')
                || given.parse::<SolverKind>().is_ok()
                || BuiltinEngine::variant_named(&given).is_some()
                || given == "all";
            if solvers && !path.exists() {
                message.push_str(&format!(
                    " (--solvers names a solvers file; to choose solvers, use --solver {given})"
                ));
            }
            message
        })?;
        Registry::parse(&text, &path)
    }

    /// Parses a solvers file's text; `path` names it in errors and anchors relative paths.
    ///
    /// # Errors
    /// TOML errors, unknown keys, a table with none or several of `lib`, `cmd`, `dimacs`, a
    /// `lib` without `symbol`, a name that is a built-in solver's.
    pub fn parse(text: &str, path: &Path) -> anyhow::Result<Registry> {
        let file = path.display();
        let tables: toml::Table =
            toml::from_str(text).with_context(|| format!("{file}: not a valid solvers file"))?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut external = Vec::new();
        for (name, value) in tables {
            if name.parse::<SolverKind>().is_ok()
                || BuiltinEngine::variant_named(&name).is_some()
                || name == "all"
            {
                bail!("{file}: [{name}] is the name of a built-in solver; choose another");
            }
            let e: FileEntry = value
                .try_into()
                .with_context(|| format!("{file}: in [{name}]"))?;
            if e.shapes.is_some() && e.cmd.is_none() {
                bail!("{file}: [{name}] shapes = ... is for cmd = ... solvers");
            }
            let kinds = [e.lib.is_some(), e.cmd.is_some(), e.dimacs.is_some()];
            if kinds.iter().filter(|k| **k).count() != 1 {
                bail!("{file}: [{name}] needs exactly one of lib = ..., cmd = ..., dimacs = ...");
            }
            let spec = if let Some(lib) = e.lib {
                let Some(symbol) = e.symbol else {
                    bail!("{file}: [{name}] has lib = ... but no symbol = ...");
                };
                ExternalSpec::Lib {
                    path: base.join(lib),
                    symbol,
                    configuration: e.configuration.unwrap_or(0),
                    gives_solution: e.gives_solution.unwrap_or(true),
                }
            } else if let Some(cmd) = e.cmd {
                let shapes = match e.shapes.as_deref() {
                    None => solvers::engine::Shapes::Classic,
                    Some(text) => match solvers::engine::Shapes::parse(text) {
                        Some(s) => s,
                        None => bail!(
                            "{file}: [{name}] shapes = {text:?}: expected \"9x9\", \"any\" or \"up to NxN\""
                        ),
                    },
                };
                ExternalSpec::Cmd {
                    command: anchor_paths(split_command(&cmd, &format!("{file}: [{name}]"))?, base),
                    counts: e.counts.unwrap_or(true),
                    shapes,
                }
            } else {
                ExternalSpec::Dimacs {
                    command: anchor_paths(
                        split_command(
                            e.dimacs.as_deref().unwrap_or_default(),
                            &format!("{file}: [{name}]"),
                        )?,
                        base,
                    ),
                }
            };
            external.push(External {
                name,
                spec,
                description: e.description,
            });
        }
        Ok(Registry {
            external,
            file: Some(path.to_path_buf()),
        })
    }

    /// The external solver of this name in the solvers file.
    pub fn find(&self, name: &str) -> Option<&External> {
        self.external.iter().find(|e| e.name == name)
    }

    /// Resolves `--solver` values (empty or `all`: every built-in solver) into engines, in the
    /// order given. A solver named twice (`dlx,dlx`, or `all,dlx`: `all` names every built-in
    /// one) is refused, as `--dataset seed --dataset seed` is: a repeated name is more often a
    /// slip (another solver meant) than a wish, and results are keyed by solver name.
    /// `isolate` hosts every `lib:` solver in a child process.
    ///
    /// # Errors
    /// An unknown name (the message lists the known ones), a malformed spec, a solver named
    /// twice, two solvers of one name, or an external solver that cannot be loaded.
    pub fn resolve(&self, specs: &[String], isolate: bool) -> anyhow::Result<Vec<Arc<dyn Engine>>> {
        let all = || {
            SolverKind::ALL
                .iter()
                .map(|&k| (Arc::new(BuiltinEngine::new(k)) as Arc<dyn Engine>, "all"))
                .collect::<Vec<_>>()
        };
        if specs.is_empty() {
            return Ok(all().into_iter().map(|(e, _)| e).collect());
        }
        // Each engine with the `--solver` value that named it.
        let mut out: Vec<(Arc<dyn Engine>, &str)> = Vec::new();
        for spec in specs {
            let spec = spec.trim();
            let named = if spec == "all" {
                all()
            } else {
                vec![(self.engine(spec, isolate)?, spec)]
            };
            for (engine, spec) in named {
                let name = &engine.info().name;
                if let Some((o, first)) = out.iter().find(|(o, _)| o.info().name == *name) {
                    if o.info().origin != engine.info().origin {
                        bail!(
                            "two solvers are named {name:?}; name one with NAME=... (e.g. \
                             other={spec})"
                        );
                    }
                    let by = match (*first, spec) {
                        ("all", "all") => "--solver all is given twice".to_string(),
                        ("all", _) | (_, "all") => {
                            format!("--solver {name} is given twice (`all` names it too)")
                        }
                        _ => format!("--solver {name} is given twice"),
                    };
                    bail!("{by}; give each solver once");
                }
                out.push((engine, spec));
            }
        }
        Ok(out.into_iter().map(|(e, _)| e).collect())
    }

    /// The engine of one `--solver` value (not `all`).
    ///
    /// # Errors
    /// As [`Registry::resolve`].
    pub fn engine(&self, spec: &str, isolate: bool) -> anyhow::Result<Arc<dyn Engine>> {
        if let Ok(k) = spec.parse::<SolverKind>() {
            return Ok(Arc::new(BuiltinEngine::new(k)));
        }
        if let Some(e) = BuiltinEngine::variant_named(spec) {
            return Ok(Arc::new(e));
        }
        let external = match parse_inline(spec)? {
            Some(e) => e,
            None => match self.find(spec) {
                Some(e) => e.clone(),
                None => bail!("{}", self.unknown(spec)),
            },
        };
        build_external(&external, isolate).map_err(|e| with_remedy(&external, e))
    }

    /// The message for an unknown solver name.
    fn unknown(&self, name: &str) -> String {
        let builtin: Vec<&str> = SolverKind::ALL
            .iter()
            .map(|k| k.name())
            .chain(solvers::registry::variant_names())
            .collect();
        let known = builtin
            .iter()
            .copied()
            .chain(self.external.iter().map(|e| e.name.as_str()));
        let mut msg = format!(
            "unknown solver {name:?}{}; built-in: {}",
            crate::plumbing::human::did_you_mean(name, known),
            builtin.join(", ")
        );
        match &self.file {
            Some(f) if !self.external.is_empty() => msg.push_str(&format!(
                "; from {}: {}",
                f.display(),
                self.external
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Some(f) => msg.push_str(&format!(
                "; external solvers are given as lib:PATH:SYMBOL, cmd:PROGRAM or \
                 dimacs:PROGRAM, or named in a solvers file ({} names none)",
                f.display()
            )),
            None => msg.push_str(&format!(
                "; external solvers are given as lib:PATH:SYMBOL, cmd:PROGRAM or \
                 dimacs:PROGRAM, or named in a solvers file (--solvers FILE; there is no \
                 {DEFAULT_SOLVERS_FILE} in the current folder, {})",
                std::env::current_dir().map_or_else(|_| ".".into(), |d| d.display().to_string())
            )),
        }
        msg
    }
}

/// Builds the engine of an external solver and checks that it can work (see [`preflight`]).
/// With `isolate`, a `lib:` solver is hosted in a child process running this executable's
/// `host-lib` subcommand.
///
/// # Errors
/// A library or symbol that cannot be loaded, a program that is not found on `PATH`, or that
/// fails its pre-flight.
pub fn build_external(e: &External, isolate: bool) -> anyhow::Result<Arc<dyn Engine>> {
    let engine = build_unchecked(e, isolate)?;
    let checked = match &e.spec {
        ExternalSpec::Dimacs { .. } => engine.session().map(drop),
        _ if engine.info().origin.out_of_process() => {
            let command = match ForeignOrigin::of(&engine.info().origin) {
                Some(ForeignOrigin::LineProtocol { command }) => command.clone(),
                _ => isolated_command(e),
            };
            foreign::LineEngine::program(&e.name, command).preflight()
        }
        _ => Ok(()),
    };
    match checked {
        Ok(()) => Ok(engine),
        Err(err) => Err(preflight_error(e, &err)),
    }
}

/// The command an isolated `lib:` engine runs.
fn isolated_command(e: &External) -> Vec<String> {
    let ExternalSpec::Lib {
        path,
        symbol,
        configuration,
        gives_solution,
    } = &e.spec
    else {
        return Vec::new();
    };
    let exe = std::env::current_exe().unwrap_or_default();
    foreign::line::isolated(&e.name, exe, path, symbol, *configuration, *gives_solution)
        .command()
        .to_vec()
}

/// `engine` with the description of its solvers-file entry, if it has one.
fn described<E: foreign::Described + 'static>(
    engine: E,
    description: &Option<String>,
) -> Arc<dyn Engine> {
    match description {
        Some(d) => Arc::new(engine.with_description(d.clone())),
        None => Arc::new(engine),
    }
}

fn build_unchecked(e: &External, isolate: bool) -> anyhow::Result<Arc<dyn Engine>> {
    Ok(match &e.spec {
        ExternalSpec::Lib {
            path,
            symbol,
            configuration,
            gives_solution,
        } if isolate => {
            if !path.is_file() {
                bail!("{}: library {} not found", e.name, path.display());
            }
            let exe = std::env::current_exe()
                .context("finding this executable to host an isolated library")?;
            let engine = foreign::line::isolated(
                &e.name,
                exe,
                path,
                symbol,
                *configuration,
                *gives_solution,
            );
            described(engine, &e.description)
        }
        ExternalSpec::Lib {
            path,
            symbol,
            configuration,
            gives_solution,
        } => {
            let engine = foreign::SharedLibEngine::load(
                &e.name,
                path,
                symbol,
                *configuration,
                *gives_solution,
            )
            .map_err(|err| anyhow::anyhow!("{}: {err}", e.name))?;
            described(engine, &e.description)
        }
        ExternalSpec::Cmd {
            command,
            counts,
            shapes,
        } => {
            if find_program(&command[0]).is_none() {
                bail!("{}: program {:?} not found", e.name, command[0]);
            }
            let caps = solvers::engine::Caps {
                shapes: *shapes,
                counts: *counts,
                ..foreign::LineEngine::program_caps()
            };
            let origin = ForeignOrigin::LineProtocol {
                command: command.clone(),
            }
            .into();
            let engine = foreign::LineEngine::new(&e.name, command.clone(), caps, origin);
            described(engine, &e.description)
        }
        ExternalSpec::Dimacs { command } => {
            if find_program(&command[0]).is_none() {
                bail!("{}: SAT solver {:?} not found", e.name, command[0]);
            }
            let engine = foreign::DimacsEngine::new(&e.name, command.clone());
            described(engine, &e.description)
        }
    })
}

/// The error of a solver that failed its pre-flight (a program or script that is not found or
/// exits at once, an isolated library that does not load or lacks its symbol, a temporary folder
/// that cannot take a formula), naming the solver, and the relative paths among the command's
/// arguments that do not exist from the current folder.
fn preflight_error(external: &External, e: &solvers::engine::EngineError) -> anyhow::Error {
    let mut message = format!("{}: {e}", external.name);
    if let ExternalSpec::Cmd { command, .. } | ExternalSpec::Dimacs { command } = &external.spec {
        let missing: Vec<&str> = command[1..]
            .iter()
            .map(String::as_str)
            .filter(|a| !a.starts_with('-') && a.contains('/') && Path::new(a).is_relative())
            .filter(|a| !Path::new(a).exists())
            .collect();
        if !missing.is_empty() {
            let here = std::env::current_dir().unwrap_or_default();
            message.push_str(&format!(
                " (not found from the current folder {}: {}; paths in an inline command are \
                 relative to the folder harness runs in, those of a solvers file to its folder)",
                here.display(),
                missing.join(", ")
            ));
        }
    }
    anyhow::anyhow!(message)
}

fn sha256_file(path: &Path) -> Option<FileRecord> {
    use sha2::Digest;
    let data = std::fs::read(path).ok()?;
    let digest = sha2::Sha256::digest(&data);
    Some(FileRecord {
        path: path.display().to_string(),
        bytes: data.len() as u64,
        sha256: digest.iter().map(|b| format!("{b:02x}")).collect(),
    })
}

/// `program` looked up as a shell would: a path if it has a `/`, else each folder of `PATH`.
pub fn find_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return p.is_file().then_some(p);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(program))
            .find(|p| p.is_file())
    })
}

/// The kind run.json records of an engine from `origin`.
fn engine_kind(origin: &Origin) -> EngineKind {
    if *origin == Origin::Builtin {
        return EngineKind::Builtin;
    }
    match ForeignOrigin::of(origin) {
        Some(ForeignOrigin::SharedLib { .. }) => EngineKind::Lib,
        Some(ForeignOrigin::LineProtocol { .. }) => EngineKind::Cmd,
        Some(ForeignOrigin::Dimacs { .. }) => EngineKind::Dimacs,
        // A Python callable of the `sudoku_harness` package (its origin's kind is `python`).
        None if origin.kind() == "python" => EngineKind::Python,
        // The one other outside origin the harness builds.
        None => {
            debug_assert!(origin.downcast::<ReferenceOrigin>().is_some());
            EngineKind::Reference
        }
    }
}

/// The record of `engine` for run.json.
pub fn record(engine: &dyn Engine) -> SolverRecord {
    let info = engine.info();
    let (command, files): (Vec<String>, Vec<FileRecord>) = match ForeignOrigin::of(&info.origin) {
        None => (Vec::new(), Vec::new()),
        Some(ForeignOrigin::SharedLib {
            path,
            symbol,
            configuration,
            ..
        }) => (
            vec![
                path.display().to_string(),
                symbol.clone(),
                configuration.to_string(),
            ],
            sha256_file(path).into_iter().collect(),
        ),
        Some(ForeignOrigin::LineProtocol { command } | ForeignOrigin::Dimacs { command }) => {
            let mut files: Vec<FileRecord> = find_program(&command[0])
                .and_then(|p| sha256_file(&p))
                .into_iter()
                .collect();
            files.extend(
                command[1..]
                    .iter()
                    .filter(|a| Path::new(a).is_file())
                    .filter_map(|a| sha256_file(Path::new(a))),
            );
            (command.clone(), files)
        }
    };
    SolverRecord {
        name: info.name.clone(),
        kind: engine_kind(&info.origin),
        version: info.version.clone(),
        command,
        files,
        nodes: Some(match info.caps.nodes {
            NodeUnit::SearchTree => NodeCount::SearchTree,
            NodeUnit::SolverCalls => NodeCount::SolverCalls,
            NodeUnit::None => NodeCount::None,
        }),
        gives_solution: Some(info.caps.gives_solution),
        shapes: Some(info.caps.shapes.as_str().to_string()),
        encoding: uses_cnf_choice(engine).then(solvers::sat::choice_description),
    }
}

/// True for the engines whose CNF encoding `--encoding` sets: the `sat` solver and every
/// `dimacs:` engine.
fn uses_cnf_choice(engine: &dyn Engine) -> bool {
    let info = engine.info();
    match ForeignOrigin::of(&info.origin) {
        Some(ForeignOrigin::Dimacs { .. }) => true,
        Some(_) => false,
        None => info.origin == Origin::Builtin && info.name == SolverKind::Sat.name(),
    }
}

/// The solvers file entries as text lines for `harness list`, `(name, kind, what)`.
pub fn describe(e: &External) -> (String, &'static str, String) {
    let (kind, what) = match &e.spec {
        ExternalSpec::Lib {
            path,
            symbol,
            configuration,
            ..
        } => (
            "lib",
            format!("{}:{symbol}:{configuration}", path.display()),
        ),
        ExternalSpec::Cmd { command, .. } => ("cmd", command.join(" ")),
        ExternalSpec::Dimacs { command } => ("dimacs", command.join(" ")),
    };
    (e.name.clone(), kind, what)
}

/// The command that makes an unavailable external solver available, for `harness list`: the
/// anchors' scripts for one of the three anchor libraries, the Debian package for a SAT solver
/// program; `None` when there is no standard remedy (a library or program of the user's own).
pub fn remedy(e: &External) -> Option<String> {
    const ANCHORS: [&str; 3] = ["libtdoku.so", "libkudoku.so", "libfast_solv_9r2.so"];
    match &e.spec {
        ExternalSpec::Lib { path, .. } => {
            let file = path.file_name()?.to_str()?;
            ANCHORS.contains(&file).then(|| {
                "build the anchors: scripts/fetch-data.sh DIR; \
                 scripts/build-anchors.sh DIR/anchors target/anchors"
                    .to_string()
            })
        }
        ExternalSpec::Dimacs { command } => {
            let program = Path::new(command.first()?).file_name()?.to_str()?;
            let package = program.trim_end_matches(|c: char| c.is_ascii_digit());
            Some(format!("install it: apt-get install {package}"))
        }
        ExternalSpec::Cmd { .. } => None,
    }
}

/// `error` (of [`build_external`], which names the solver) followed by its [`remedy`], when
/// there is one: `minisat: SAT solver "minisat" not found; install it: apt-get install minisat`.
/// The error already names the solver, so the remedy is added after it rather than wrapped
/// around it (which said the name twice).
pub fn with_remedy(e: &External, error: anyhow::Error) -> anyhow::Error {
    match remedy(e) {
        Some(fix) => anyhow::anyhow!("{error:#}; {fix}"),
        None => error,
    }
}

/// Solver names keyed for quick lookups (name -> position), for callers that order series.
pub fn positions(engines: &[Arc<dyn Engine>]) -> BTreeMap<String, usize> {
    engines
        .iter()
        .enumerate()
        .map(|(i, e)| (e.info().name.clone(), i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remedy_names_the_command_that_fixes_it() {
        let of = |spec| {
            remedy(&External {
                name: "x".into(),
                spec,
                description: None,
            })
        };
        let lib = |path: &str| ExternalSpec::Lib {
            path: path.into(),
            symbol: "f".into(),
            configuration: 0,
            gives_solution: true,
        };
        let anchors = of(lib("target/anchors/libkudoku.so")).expect("a remedy");
        assert!(anchors.contains("scripts/build-anchors.sh"), "{anchors}");
        assert_eq!(of(lib("mine/libsolver.so")), None);
        let dimacs = |p: &str| ExternalSpec::Dimacs {
            command: vec![p.into()],
        };
        assert_eq!(
            of(dimacs("/usr/bin/cryptominisat5")).as_deref(),
            Some("install it: apt-get install cryptominisat")
        );
        let cmd = ExternalSpec::Cmd {
            command: vec!["python3".into()],
            counts: false,
            shapes: solvers::engine::Shapes::Classic,
        };
        assert_eq!(of(cmd), None);
    }

    #[test]
    fn inline_specs() {
        let e = parse_inline("tdoku=lib:target/anchors/libtdoku.so:TdokuSolverDpllTriadSimd")
            .unwrap()
            .unwrap();
        assert_eq!(e.name, "tdoku");
        assert_eq!(
            e.spec,
            ExternalSpec::Lib {
                path: "target/anchors/libtdoku.so".into(),
                symbol: "TdokuSolverDpllTriadSimd".into(),
                configuration: 0,
                gives_solution: true
            }
        );
        let e = parse_inline("lib:x.so:TdokuSolverBasic:1")
            .unwrap()
            .unwrap();
        assert_eq!(e.name, "TdokuSolverBasic");
        assert!(matches!(
            e.spec,
            ExternalSpec::Lib {
                configuration: 1,
                ..
            }
        ));
        let e = parse_inline("cmd:python3 examples/line_solver.py --x=1")
            .unwrap()
            .unwrap();
        assert_eq!(e.name, "line_solver");
        assert!(matches!(&e.spec, ExternalSpec::Cmd { command, .. } if command.len() == 3));
        let e = parse_inline("cadical=dimacs:cadical -q").unwrap().unwrap();
        assert_eq!(e.name, "cadical");
        assert_eq!(
            e.spec,
            ExternalSpec::Dimacs {
                command: vec!["cadical".into(), "-q".into()]
            }
        );
        assert_eq!(
            parse_inline("dimacs:minisat").unwrap().unwrap().name,
            "minisat"
        );
        assert!(parse_inline("bitboard-bands").unwrap().is_none());
        assert!(parse_inline("lib:nosymbol").is_err());
        assert!(parse_inline("cmd:").is_err());
        assert!(parse_inline("cmd:python3 'unclosed").is_err());
    }

    /// A `cmd:` solver is named after its program or script, never after a number or an option
    /// at the end of its command.
    #[test]
    fn a_cmd_solver_is_named_after_its_program() {
        for (spec, name) in [
            ("cmd:python3 examples/line_solver.py", "line_solver"),
            ("cmd:python3 solver.py 2", "solver"),
            ("cmd:./solve 3", "solve"),
            ("cmd:./solve -j 4", "solve"),
            ("cmd:python3 solver.py --threads 2 --ratio 0.5", "solver"),
            ("cmd:/opt/bin/solve-2 -v", "solve-2"),
            ("mine=cmd:./solve 3", "mine"),
        ] {
            let e = parse_inline(spec).unwrap().unwrap();
            assert_eq!(e.name, name, "{spec}");
        }
    }

    #[test]
    fn a_bad_configuration_number_is_named_as_such() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("libx.so");
        std::fs::write(&lib, b"").unwrap();
        let spec = format!("lib:{}:F:abc", lib.display());
        let e = parse_inline(&spec).unwrap_err().to_string();
        assert!(e.contains("configuration \"abc\" is not a number"), "{e}");
        let spec = format!("lib:{}:F:99999999999", lib.display());
        let e = parse_inline(&spec).unwrap_err().to_string();
        assert!(
            e.ends_with("configuration 99999999999 is too large (at most 4294967295)"),
            "{e}"
        );
        // A path with a colon in it stays a path.
        let odd = dir.path().join("a:b");
        std::fs::create_dir(&odd).unwrap();
        let e = parse_inline(&format!("lib:{}:F", odd.join("libx.so").display()))
            .unwrap()
            .unwrap();
        assert!(matches!(
            e.spec,
            ExternalSpec::Lib {
                configuration: 0,
                ..
            }
        ));
    }

    #[test]
    fn solvers_file() {
        let text = r#"
[tdoku]
lib = "anchors/libtdoku.so"
symbol = "TdokuSolverDpllTriadSimd"
description = "tdoku"

[fast]
lib = "anchors/libfast_solv_9r2.so"
symbol = "FastSolv9r2"
gives_solution = false

[minisat]
dimacs = "minisat"

[py]
cmd = "python3 solver.py"
shapes = "any"
"#;
        let r = Registry::parse(text, Path::new("conf/solvers.toml")).unwrap();
        assert_eq!(r.external.len(), 4);
        assert!(matches!(
            r.find("py").unwrap().spec,
            ExternalSpec::Cmd {
                shapes: solvers::engine::Shapes::Any,
                ..
            }
        ));
        let t = r.find("tdoku").unwrap();
        assert!(
            matches!(&t.spec, ExternalSpec::Lib { path, .. } if path == Path::new("conf/anchors/libtdoku.so"))
        );
        assert!(matches!(
            r.find("fast").unwrap().spec,
            ExternalSpec::Lib {
                gives_solution: false,
                ..
            }
        ));
        for (bad, says) in [
            ("[x]\nlib = \"a.so\"\n", "no symbol"),
            ("[x]\ncmd = \"a\"\ndimacs = \"b\"\n", "exactly one"),
            ("[dlx]\ncmd = \"a\"\n", "built-in"),
            ("[x]\ncmd = \"a\"\ncolour = 1\n", "unknown field"),
            (
                "[x]\ncmd = \"a\"\nshapes = \"16x16\"\n",
                "expected \"9x9\", \"any\" or \"up to NxN\"",
            ),
            ("[x]\ndimacs = \"a\"\nshapes = \"any\"\n", "is for cmd"),
        ] {
            let err = format!(
                "{:#}",
                Registry::parse(bad, Path::new("s.toml")).unwrap_err()
            );
            assert!(err.contains(says), "{bad:?}: {err}");
            assert!(err.contains("s.toml"), "{err}");
        }
    }

    #[test]
    fn sat_encodings_are_built_in_names() {
        let reg = Registry::default();
        for name in [
            "sat-minimal",
            "sat-efficient",
            "sat-extended",
            "sat-redundant",
        ] {
            let e = reg.engine(name, false).unwrap();
            assert_eq!(e.info().name, name);
            assert_eq!(e.info().origin, Origin::Builtin);
        }
        let names: Vec<String> = reg
            .resolve(&["all".to_string()], false)
            .unwrap()
            .iter()
            .map(|e| e.info().name.clone())
            .collect();
        assert!(names.contains(&"sat".to_string()));
        assert!(!names.iter().any(|n| n.starts_with("sat-")), "{names:?}");
        let err = Registry::parse("[sat-minimal]\ndimacs = \"minisat\"\n", Path::new("s.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("name of a built-in solver"), "{err}");
        let err = reg.engine("sat-tiny", false).err().unwrap().to_string();
        assert!(err.contains("sat-redundant"), "{err}");
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        let err = Registry::default()
            .engine("tdoku", false)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("unknown solver \"tdoku\""), "{err}");
        assert!(err.contains("bitboard-bands"), "{err}");
        assert!(err.contains("lib:PATH:SYMBOL"), "{err}");
    }
}
