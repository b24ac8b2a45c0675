//! Records the git commit and the rustc version for `run.json`, and finds the tests'
//! prerequisites (`tests/support/prerequisites.rs`): one cfg per prerequisite present, so a test
//! lacking one is reported ignored with its reason instead of passing.
use std::process::Command;

#[path = "tests/support/prerequisites.rs"]
mod prerequisites;

fn output(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Sets a cfg per prerequisite present, and asks cargo to run this again when one may appear:
/// `HARNESS_DATA`, `PATH` or `PYTHON` changes, or a program lands in a folder of `PATH` or a
/// package in Python's site folders.
fn prerequisites() {
    for p in prerequisites::ALL {
        println!("cargo:rustc-check-cfg=cfg({})", p.cfg);
        if prerequisites::present(p.cfg) {
            println!("cargo:rustc-cfg={}", p.cfg);
        }
    }
    if let Some(dir) = prerequisites::harness_data() {
        println!("cargo:rustc-env=HARNESS_DATA_DIR={}", dir.display());
    }
    for var in ["HARNESS_DATA", "PATH", "PYTHON"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let mut watched: Vec<std::path::PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    let site =
        "import site; print('\\n'.join(site.getsitepackages() + [site.getusersitepackages()]))";
    if let Some(dirs) = output(&prerequisites::python(), &["-c", site]) {
        watched.extend(dirs.lines().map(Into::into));
    }
    for dir in watched.iter().filter(|d| d.is_dir()) {
        println!("cargo:rerun-if-changed={}", dir.display());
    }
}

fn main() {
    let commit = output("git", &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = output("git", &["status", "--porcelain", "--untracked-files=no"])
        .map(|s| !s.is_empty())
        .unwrap_or(false);
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = output(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into());
    println!(
        "cargo:rustc-env=HARNESS_GIT_COMMIT={commit}{}",
        if dirty { "-dirty" } else { "" }
    );
    println!("cargo:rustc-env=HARNESS_RUSTC_VERSION={version}");
    // The cargo profile this build uses (`debug`, `release`, `max`, ...): the folder of
    // target/ that OUT_DIR (target/PROFILE/build/harness-*/out) lies in.
    let profile = std::env::var("OUT_DIR")
        .ok()
        .and_then(|out| {
            let out = std::path::PathBuf::from(out);
            let build = out
                .ancestors()
                .find(|a| a.ends_with("build"))?
                .to_path_buf();
            Some(build.parent()?.file_name()?.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=HARNESS_PROFILE={profile}");
    // The git files that change with the commit and the work tree, wherever the git folder is
    // (a linked work tree's `.git` is a file naming it). A watched path that does not exist
    // would run this again on every build, so only existing ones are watched.
    for file in ["HEAD", "index"] {
        if let Some(path) = output("git", &["rev-parse", "--git-path", file]) {
            if std::path::Path::new(&path).exists() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=tests/support/prerequisites.rs");
    prerequisites();
}
