//! `harness rerun RUN_DIR --out NEW`: the run recorded in RUN_DIR/run.json again, with the same
//! arguments (its `command`, minus the output folder and any `--resume`), after checking that
//! every dataset still has the sha256 the run recorded.

use crate::cli::{Cli, Command, RerunArgs};
use crate::commands::run::RunEnd;
use clap::Parser;

/// The recorded command's arguments (after the program name) without `--out`/`-o` and
/// `--resume` and their values, then `--out NEW`.
pub fn rerun_args(command: &[String], out: &str) -> Vec<String> {
    let mut args = vec!["harness".to_string()];
    let mut it = command.iter().skip(1);
    while let Some(a) = it.next() {
        if matches!(a.as_str(), "--out" | "-o" | "--resume") {
            it.next();
            continue;
        }
        if a.starts_with("--out=")
            || a.starts_with("--resume=")
            || (a.starts_with("-o") && a.len() > 2 && !a.starts_with("--"))
        {
            continue;
        }
        args.push(a.clone());
    }
    args.push("--out".into());
    args.push(out.into());
    args
}

/// Repeats the run.
///
/// # Errors
/// When run.json cannot be read, its command is not a `run`, a dataset's sha256 changed, or the
/// run itself fails.
pub fn rerun(args: &RerunArgs) -> anyhow::Result<RunEnd> {
    let info = crate::record::read_info(&args.run_dir)?;
    let argv = rerun_args(&info.command, &args.out.to_string_lossy());
    let cli = Cli::try_parse_from(&argv).map_err(|e| {
        anyhow::anyhow!(
            "{}/run.json's command cannot be repeated ({}): {e}",
            args.run_dir.display(),
            info.command.join(" ")
        )
    })?;
    let Some(Command::Run(run_args)) = cli.command else {
        anyhow::bail!(
            "{}/run.json's command is not a `harness run`: {}",
            args.run_dir.display(),
            info.command.join(" ")
        );
    };
    for m in &info.manifests {
        let spec = m.source.strip_prefix("shipped:").unwrap_or(&m.source);
        let src = crate::input::dataset::open(spec)?;
        let now = src.sha256()?;
        if now != m.sha256 {
            anyhow::bail!(
                "dataset {} has changed since the run (sha256 {} then, {now} now); cannot repeat it",
                m.source,
                m.sha256
            );
        }
    }
    errln!("rerun: {}", argv[1..].join(" "));
    crate::commands::run::run(&run_args)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_output_folder_is_replaced() {
        let cmd: Vec<String> = [
            "/x/harness",
            "run",
            "-s",
            "dlx",
            "--out",
            "old",
            "-j",
            "1",
            "-oold2",
            "--resume=r",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            super::rerun_args(&cmd, "new"),
            ["harness", "run", "-s", "dlx", "-j", "1", "--out", "new"]
        );
    }
}
