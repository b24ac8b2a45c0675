//! Sets the cfg `avx512_intrinsics` when the compiler has the AVX-512 intrinsics and target
//! features stable (Rust 1.89): `triads` compiles its `avx512` path only then, so the crate
//! still builds on the workspace's minimum Rust version, without that path.
use std::process::Command;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(avx512_intrinsics)");
    println!("cargo:rerun-if-changed=build.rs");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let minor = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| {
            // "rustc 1.95.0 (...)": the minor version.
            let text = String::from_utf8_lossy(&o.stdout).into_owned();
            let version = text.split_whitespace().nth(1)?.to_string();
            version.split('.').nth(1)?.parse::<u32>().ok()
        });
    if minor.is_some_and(|m| m >= 89) {
        println!("cargo:rustc-cfg=avx512_intrinsics");
    }
}
