#!/usr/bin/env bash
# Browser tests of the bao web app: builds `bao`, starts `bao serve` on a free
# loopback port with a temporary SQLite file, runs the tests in tests/browser/tests/ in a real
# headless Chromium (Debian's /usr/bin/chromium driven by playwright-core), then stops the server.
#
# Needs: Node >= 20 with npm, and Chromium (apt-get install -y chromium). A missing tool is a
# FAILURE, never a skip. Screenshots go to artifacts/browser/.
#
# Environment: BAO_BIN (a prebuilt bao; default: cargo build -p bao-cli), BAO_CHROMIUM
# (default /usr/bin/chromium), BAO_TEST_FILTER (only tests whose name matches).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
chromium="${BAO_CHROMIUM:-/usr/bin/chromium}"

fail() {
  echo "browser tests: FAILED: $*" >&2
  exit 1
}

[ -x "$chromium" ] || fail "Chromium not found at $chromium (install it: apt-get install -y chromium)"
command -v node >/dev/null || fail "node not found (Node 20 or later is needed)"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
  fail "Node $(node --version) is too old; Node 20 or later is needed"

if [ -z "${BAO_BIN:-}" ]; then
  (cd "$root" && cargo build -p bao-cli) || fail "cargo build -p bao-cli"
  BAO_BIN="$root/target/debug/bao"
fi
[ -x "$BAO_BIN" ] || fail "no bao binary at $BAO_BIN"
export BAO_BIN BAO_CHROMIUM="$chromium"

cd "$here"
if [ ! -f node_modules/playwright-core/package.json ] || [ ! -f node_modules/axe-core/package.json ]; then
  command -v npm >/dev/null || fail "npm not found"
  npm ci --no-audit --no-fund || fail "npm ci"
fi

# The page scripts are ES modules: check their syntax first, so that a merge that declares a
# name twice fails here, naming the file, instead of as a dozen browser timeouts.
syntax="$(mktemp -d)"
for f in "$root"/crates/bao-server/web/static/*.js; do
  cp "$f" "$syntax/$(basename "$f" .js).mjs"
  node --check "$syntax/$(basename "$f" .js).mjs" || { rm -rf "$syntax"; fail "syntax error in $f"; }
done
rm -rf "$syntax"

tmp="$(mktemp -d)"
port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();})')"
mkdir -p "$root/artifacts/browser"
log="$root/artifacts/browser/server.log"

"$BAO_BIN" serve --addr "127.0.0.1:$port" --database "sqlite://$tmp/bao.db" --sync normal >"$log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

export BAO_URL="http://127.0.0.1:$port"
# Tests that act as the site's operator (`bao admin`) open the same database.
export BAO_DATABASE="sqlite://$tmp/bao.db"
# Wait for the server (the first start creates the database).
node -e '
  const url = process.env.BAO_URL + "/api/health";
  const t0 = Date.now();
  (async function poll() {
    try { const r = await fetch(url); if (r.ok) process.exit(0); } catch {}
    if (Date.now() - t0 > 60000) { console.error("the server did not answer " + url); process.exit(1); }
    setTimeout(poll, 200);
  })();
' || { cat "$log" >&2; fail "bao serve did not start"; }

args=(--test --test-concurrency=1)
if [ -n "${BAO_TEST_FILTER:-}" ]; then args+=(--test-name-pattern="$BAO_TEST_FILTER"); fi
status=0
node "${args[@]}" tests/*.test.mjs || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- server log (last 40 lines) ---" >&2
  tail -n 40 "$log" >&2 || true
  fail "some browser tests failed (screenshots in artifacts/browser/)"
fi
echo "browser tests: all passed (screenshots in artifacts/browser/)"
