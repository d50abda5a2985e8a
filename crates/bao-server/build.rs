//! Builds the browser engine (crates/bao-wasm) for `wasm32-unknown-unknown` and leaves it
//! in `OUT_DIR/bao.wasm`, which src/web/assets.rs embeds as `/static/bao.wasm` (docs/api.md, "Offline"):
//! `cargo run --release -p bao-cli -- serve` on a fresh clone serves the offline engine with
//! no other tool than cargo and rustup.
//!
//! The inner `cargo build` uses its own target directory (`target/bao-wasm`, shared by every
//! profile of the outer build), so it never waits for the lock the outer build holds; it
//! joins the outer build's jobserver, so both together use no more cores than asked for.
//! It runs again only when a source of the five crates it compiles, or the lock file, changes.

use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest
        .parent()
        .and_then(Path::parent)
        .expect("bao-server lives in crates/ of the workspace")
        .to_path_buf();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    for dir in [
        "crates/bao-wasm",
        "crates/bao-rules/src",
        "crates/bao-rules/Cargo.toml",
        "crates/bao-engine/src",
        "crates/bao-engine/Cargo.toml",
        "crates/bao-render/src",
        "crates/bao-render/Cargo.toml",
        "crates/bao-learn/src",
        "crates/bao-learn/lessons",
        "crates/bao-learn/Cargo.toml",
        "Cargo.toml",
        "Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    println!("cargo:rerun-if-env-changed=BAO_WASM_TARGET_DIR");

    // OUT_DIR is TARGET_DIR[/TRIPLE]/PROFILE/build/bao-server-HASH/out.
    let target_dir = std::env::var_os("BAO_WASM_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| out.ancestors().nth(4).map(|d| d.join("bao-wasm")))
        .unwrap_or_else(|| out.join("bao-wasm"));

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    ensure_target(&rustc);

    let mut cmd = Command::new(&cargo);
    cmd.current_dir(&root)
        .args([
            "build",
            "-p",
            "bao-wasm",
            "--target",
            TARGET,
            "--profile",
            "wasm",
        ])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target_dir);
    // The outer build's settings for its own (host) target must not leak into the wasm
    // build: its flags (coverage, target-cpu), clippy's wrapper, a --target of its own.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_BUILD_TARGET",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        cmd.env_remove(var);
    }
    let result = cmd.output().unwrap_or_else(|e| {
        panic!("bao-server: could not run `cargo build -p bao-wasm --target {TARGET}`: {e}")
    });
    if !result.status.success() {
        panic!(
            "bao-server: building the browser engine failed (`cargo build -p bao-wasm --target {TARGET} --profile wasm`):\n{}",
            String::from_utf8_lossy(&result.stderr)
        );
    }
    let wasm = target_dir.join(TARGET).join("wasm").join("bao_wasm.wasm");
    std::fs::copy(&wasm, out.join("bao.wasm")).unwrap_or_else(|e| {
        panic!(
            "bao-server: the browser engine was built but {} cannot be read: {e}",
            wasm.display()
        )
    });
}

/// Makes sure the wasm32 standard library is installed: through rustup when it is missing
/// (as `scripts/test.sh` also does), or a clear error saying what to run.
fn ensure_target(rustc: &std::ffi::OsStr) {
    let installed = || {
        Command::new(rustc)
            .args(["--print", "sysroot"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| {
                let sysroot = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
                sysroot
                    .join("lib/rustlib")
                    .join(TARGET)
                    .join("lib")
                    .is_dir()
            })
            // Without an answer, let the build itself say what is wrong.
            .unwrap_or(true)
    };
    if installed() {
        return;
    }
    let added = Command::new("rustup")
        .args(["target", "add", TARGET])
        .status()
        .is_ok_and(|s| s.success());
    if !added || !installed() {
        panic!(
            "bao-server needs the Rust standard library for {TARGET} to build the browser engine \
             (offline play). Install it with:\n\n    rustup target add {TARGET}\n"
        );
    }
}
