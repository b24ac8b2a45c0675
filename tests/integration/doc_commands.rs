//! The commands of the user guide, run: docs that cannot rot.
//!
//! Every fenced `sh` block of `README.md` and `docs/*.md` is marked, on its opening fence, either
//! ```` ```sh runnable ```` or ```` ```sh not-runnable ```` (a server that does not end, a file
//! the reader brings, minutes of measuring). A block with neither mark fails
//! [`every_sh_block_is_marked`], so no command enters the guide untested by accident.
//!
//! [`runnable_commands_succeed`] runs each page's runnable blocks in page order, in a fresh folder
//! per page, against the binary under test, and wants exit status 0 from every command:
//!
//! - `harness ...` and `cargo run --release -- ...` both call the binary under test (a folder
//!   holding a `harness` link comes first on `PATH`). Each command runs under `sh -c`, so pipes
//!   and redirections work; a line ending in `\` continues on the next; `#` starts a comment.
//! - Before a page's first command the folder holds `my-puzzles.txt`, the reader's own file of
//!   the guide: the six puzzles of the shipped `seed` and `named-hard` sets, one per line.
//! - A tiny set: `harness run` without `--dataset`/`-d` gets `--dataset seed` (2 puzzles), so the
//!   quick start's full run is checked for its exit status and its files, not waited for.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// One fenced `sh` block.
#[derive(Debug, Clone, PartialEq)]
struct Block {
    /// The page, relative to the project root.
    file: String,
    /// 1-based line of the opening fence.
    line: usize,
    /// The mark: `Some(true)` runnable, `Some(false)` not-runnable, `None` unmarked.
    runnable: Option<bool>,
    /// The lines between the fences.
    text: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The pages of the guide: `README.md`, then `docs/*.md` in name order.
fn pages() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    let mut all = vec![root().join("README.md")];
    all.extend(docs);
    all
}

/// The fenced `sh` blocks of a Markdown text (fences of three or more backticks).
fn sh_blocks(file: &str, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(usize, Option<Option<bool>>, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        match &mut open {
            None if t.starts_with("```") => {
                let info: Vec<&str> = t.trim_start_matches('`').split_whitespace().collect();
                let sh = matches!(info.first(), Some(&"sh") | Some(&"bash") | Some(&"shell"));
                let mark = match info.get(1) {
                    Some(&"runnable") => Some(true),
                    Some(&"not-runnable") => Some(false),
                    _ => None,
                };
                open = Some((i + 1, sh.then_some(mark), String::new()));
            }
            Some((start, kind, body)) => {
                if t.starts_with("```") {
                    if let Some(mark) = kind {
                        out.push(Block {
                            file: file.to_string(),
                            line: *start,
                            runnable: *mark,
                            text: std::mem::take(body),
                        });
                    }
                    open = None;
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
            None => {}
        }
    }
    out
}

/// The commands of a block: `\` continuations joined, blank and comment-only lines dropped.
fn commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        let l = line.trim();
        if cur.is_empty() && (l.is_empty() || l.starts_with('#')) {
            continue;
        }
        match l.strip_suffix('\\') {
            Some(head) => {
                cur.push_str(head);
                cur.push(' ');
            }
            None => {
                cur.push_str(l);
                out.push(std::mem::take(&mut cur));
            }
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// A command as the test runs it (see the module docs): `cargo run --release --` is the binary,
/// and `harness run` without a dataset runs on the `seed` set.
fn rewrite(cmd: &str) -> String {
    let cmd = cmd.replace("cargo run --release -- ", "harness ");
    let words: Vec<&str> = cmd.split_whitespace().collect();
    let names_a_dataset = words
        .iter()
        .any(|w| *w == "-d" || *w == "--dataset" || w.starts_with("--dataset="));
    if words.first() == Some(&"harness") && words.get(1) == Some(&"run") && !names_a_dataset {
        cmd.replacen("harness run", "harness run --dataset seed", 1)
    } else {
        cmd
    }
}

/// Every block of every page.
fn all_blocks() -> Vec<Block> {
    pages()
        .iter()
        .flat_map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let name = p.strip_prefix(root()).unwrap().display().to_string();
            sh_blocks(&name, &text)
        })
        .collect()
}

#[test]
fn every_sh_block_is_marked() {
    let blocks = all_blocks();
    assert!(blocks.len() > 20, "{} sh blocks in the guide", blocks.len());
    let unmarked: Vec<String> = blocks
        .iter()
        .filter(|b| b.runnable.is_none())
        .map(|b| format!("{}:{}", b.file, b.line))
        .collect();
    assert!(
        unmarked.is_empty(),
        "sh blocks marked neither `sh runnable` nor `sh not-runnable`: {unmarked:?}"
    );
    let runnable = blocks.iter().filter(|b| b.runnable == Some(true)).count();
    assert!(runnable >= 15, "{runnable} of {} runnable", blocks.len());
}

/// `my-puzzles.txt`: the shipped `seed` and `named-hard` puzzles, one per line.
fn my_puzzles(dir: &Path) {
    let mut text = String::new();
    for set in ["seed", "named-hard"] {
        let csv = std::fs::read_to_string(root().join(format!("datasets/{set}.csv"))).unwrap();
        for row in csv.lines().skip(1) {
            let cells: Vec<&str> = row.split(',').collect();
            text.push_str(&format!("{} {}\n", cells[1], cells[0]));
        }
    }
    std::fs::write(dir.join("my-puzzles.txt"), text).unwrap();
}

#[test]
fn runnable_commands_succeed() {
    let bin = assert_cmd::cargo::cargo_bin("harness");
    let links = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&bin, links.path().join("harness")).unwrap();
    let path = format!(
        "{}:{}",
        links.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let blocks = all_blocks();
    let mut ran = 0;
    for page in pages() {
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        let mine: Vec<&Block> = blocks
            .iter()
            .filter(|b| b.file == name && b.runnable == Some(true))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        my_puzzles(dir.path());
        for b in mine {
            for cmd in commands(&b.text) {
                let run = rewrite(&cmd);
                let out = assert_cmd::Command::new("sh")
                    .arg("-c")
                    .arg(&run)
                    .current_dir(dir.path())
                    .env("PATH", &path)
                    .timeout(Duration::from_secs(120))
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "{}:{}: `{cmd}` (run as `{run}`) failed: {}\nstdout:\n{}\nstderr:\n{}",
                    b.file,
                    b.line,
                    out.status,
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
                ran += 1;
            }
        }
    }
    assert!(ran > 20, "{ran} commands ran");
}

#[test]
fn blocks_commands_and_rewrites() {
    let md = "text\n```sh runnable\nharness run \\\n  --solver dlx   # one\n\n# note\nharness list\n```\n\
              ```text\nharness no\n```\n````sh not-runnable\nharness serve\n````\n```sh\nx\n```\n";
    let b = sh_blocks("p.md", md);
    assert_eq!(b.len(), 3);
    assert_eq!((b[0].line, b[0].runnable), (2, Some(true)));
    assert_eq!(
        commands(&b[0].text),
        vec!["harness run  --solver dlx   # one", "harness list"]
    );
    assert_eq!((b[1].line, b[1].runnable), (12, Some(false)));
    assert_eq!((b[2].line, b[2].runnable), (15, None));
    assert_eq!(
        rewrite("cargo run --release -- run"),
        "harness run --dataset seed"
    );
    assert_eq!(
        rewrite("harness run -s dlx -d named-hard"),
        "harness run -s dlx -d named-hard"
    );
    assert_eq!(
        rewrite("harness solve my-puzzles.txt | head -2"),
        "harness solve my-puzzles.txt | head -2"
    );
}
