#!/usr/bin/env bash
# Runs bao's whole test suite on a fresh machine, installing what the tests need.
#
#   scripts/test.sh
#
# 1. Installs Chromium (browser tests), nginx (deploy test) and PostgreSQL (storage tests) from Debian's packages
#    when they are missing, Rust's wasm32-unknown-unknown target (the browser engine) with rustup,
#    and starts a PostgreSQL cluster on 127.0.0.1 (scripts/start-postgres.sh); a cluster
#    it started is stopped again when it ends, one already running is left running.
# 2. Checks formatting and clippy (warnings are errors), and the dependency graph with
#    cargo-deny: licences, duplicate versions, sources (installs cargo-deny when missing).
# 3. Runs every Rust test of the workspace (unit, integration, doc tests; the spec fixtures,
#    property tests, 10,000+ random games per variant, the engine's tactical suite, the server's
#    HTTP/WebSocket/SQLite/PostgreSQL/kill -9 tests, the terminal UI tests).
# 4. Runs the browser tests in headless Chromium (tests/browser/run.sh).
# A tool that cannot be installed is a failure: nothing is skipped.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Each step says when it starts, in seconds since the script started.
step() { printf '\n==> [%ss] %s\n' "$SECONDS" "$*"; }
need_apt=()
command -v chromium >/dev/null || [ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v node >/dev/null || need_apt+=(nodejs npm)
command -v script >/dev/null || need_apt+=(bsdutils)   # the pseudo-terminal test of bao play
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need_apt+=(nginx)   # the deploy test (crates/bao-cli/tests/deploy_nginx.rs)
if [ ${#need_apt[@]} -gt 0 ]; then
    step "installing ${need_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need_apt[@]}"
fi

# The browser engine (crates/bao-wasm) is built for WebAssembly by bao-server's build script.
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    step "installing the Rust target wasm32-unknown-unknown (the browser engine)"
    rustup target add wasm32-unknown-unknown
fi

# No incremental compilation: the suite builds each crate once, from a clean clone in CI, and
# incremental data (gigabytes for ~100 test binaries) only fills the disk (a CI run once ran
# out of it while linking).
export CARGO_INCREMENTAL=0

step "starting PostgreSQL"
# A PostgreSQL this script starts is stopped when it ends (pass or fail); one that was already
# running is left alone.
if [ "$(scripts/start-postgres.sh status)" = stopped ]; then
    trap 'step "stopping the PostgreSQL this script started"; scripts/start-postgres.sh stop' EXIT
fi
BAO_TEST_POSTGRES_URL="$(scripts/start-postgres.sh | tail -1)"
export BAO_TEST_POSTGRES_URL
echo "PostgreSQL at $BAO_TEST_POSTGRES_URL"

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

step "cargo deny check bans licenses sources (deny.toml says why not advisories)"
if ! cargo deny --version >/dev/null 2>&1; then
    cargo install --locked cargo-deny
fi
cargo deny check bans licenses sources

step "cargo test (the whole workspace)"
cargo test --workspace --no-fail-fast
# What the build left on disk: a clean CI clone once ran out of it while linking.
echo "target: $(du -sh target 2>/dev/null | cut -f1); free on this disk: $(df -h --output=avail . | tail -1 | tr -d ' ')"

step "browser tests"
BAO_BIN="$PWD/target/debug/bao" tests/browser/run.sh

step "all tests passed"
