#!/usr/bin/env bash
# `bao match` between two `bao engine` processes, back to back at
# `go movetime 5`, with two CPU-bound processes beside it. Expect "forfeits 0".
#
#   scripts/engine-load.sh            # 100 games (a few minutes on two cores)
#   GAMES=20 scripts/engine-load.sh   # a smoke run
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-100}
OUT=${OUT:-artifacts/engine-load}
mkdir -p "$OUT"
cargo build --release -q -p bao-cli
BAO=$PWD/target/release/bao
pids=()
for _ in 1 2; do
  timeout 3600 sh -c 'while :; do :; done' &
  pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
rm -f "$OUT/records.txt"
"$BAO" match "cmd:$BAO engine" "cmd:$BAO engine" --go "movetime 5" --games "$GAMES" \
  --seed 1 --records "$OUT/records.txt" | tee "$OUT/summary.txt"
grep -q '^forfeits 0$' "$OUT/summary.txt"
