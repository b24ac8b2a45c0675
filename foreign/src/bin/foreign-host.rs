//! `foreign-host host-lib LIBRARY SYMBOL CONFIGURATION [--no-solution]`: hosts a shared
//! library's solver function on standard input and output over the line protocol
//! ([`foreign::line::host_lib`]), as `harness host-lib` does for `--isolate`. A small binary of
//! its own, so the `foreign` crate's tests can run isolated engines without the harness.
//!
//! Exit status: 0 when standard input ends, 2 on bad arguments or a library that cannot be
//! loaded (the reason on standard error).

use std::path::Path;
use std::process::ExitCode;

const USAGE: &str = "usage: foreign-host host-lib LIBRARY SYMBOL CONFIGURATION [--no-solution]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (library, symbol, configuration, gives_solution) = match args.as_slice() {
        [cmd, library, symbol, configuration, rest @ ..]
            if cmd == "host-lib" && (rest.is_empty() || rest == ["--no-solution"]) =>
        {
            let Ok(configuration) = configuration.parse::<u32>() else {
                eprintln!("foreign-host: bad CONFIGURATION {configuration:?}: expected a number from 0 to 4294967295");
                return ExitCode::from(2);
            };
            (library, symbol, configuration, rest.is_empty())
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match foreign::line::host_lib(Path::new(library), symbol, configuration, gives_solution) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("foreign-host: {e}");
            ExitCode::from(2)
        }
    }
}
