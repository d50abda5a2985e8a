#!/usr/bin/env bash
# The multi-threaded search against the single-threaded one at equal wall time per move, and
# the nodes per second per thread count (docs/levels.md, "Two threads"). Needs two idle
# cores: on a busy machine the threads compete with other work and the figures mean little.
#
#   crates/bao-research/scripts/smp.sh           # 400 games per variant at 100 ms per move
#   GAMES=20 VARIANTS=kete crates/bao-research/scripts/smp.sh    # a smoke run
#
# Each game is played one at a time (--concurrency 1) so that the two threads have the
# two cores; time:MS:T is the engine at MS milliseconds per move on T threads.
set -euo pipefail
# From the repository root: target/ and artifacts/ are the workspace's.
cd "$(dirname "$0")/../../.."
GAMES=${GAMES:-400}
MS=${MS:-100}
VARIANTS=${VARIANTS:-"kiswahili kete kimasai"}
OUT=${OUT:-artifacts/smp}
mkdir -p "$OUT"
cargo build --release -q -p bao-cli
BAO=target/release/bao

echo "nodes/s by threads (bao bestmove --time 3000, start position):"
for v in $VARIANTS; do
  for t in 1 2; do
    printf '%-10s threads %s: ' "$v" "$t"
    "$BAO" bestmove --time 3000 --threads "$t" "$v" | grep -o 'nps [0-9]*'
  done
done

for v in $VARIANTS; do
  name="$v-2threads-vs-1"
  rm -f "$OUT/$name.records"
  "$BAO" match "time:$MS:2" "time:$MS:1" --variant "$v" --games "$GAMES" --concurrency 1 \
    --seed 1 --records "$OUT/$name.records" >"$OUT/$name.txt"
  printf '%-26s %s | %s | %s\n' "$name" "$(grep '^games' "$OUT/$name.txt")" \
    "$(grep '^elo' "$OUT/$name.txt")" "$(grep '^forfeits' "$OUT/$name.txt")"
done
