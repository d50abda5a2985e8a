#!/usr/bin/env bash
# Measures the engine's strength with `bao match` (docs/levels.md, "Measured strength") and
# prints one summary line per match; full summaries and every game record go to $OUT
# (default artifacts/strength).
#
#   scripts/strength.sh                 # everything: about an hour and a half on two cores
#   scripts/strength.sh random greedy   # only some parts: random, greedy, ladder
#   GAMES=200 LADDER_GAMES=100 VARIANTS="kete" LEVELS="7 8" scripts/strength.sh ladder
#   (LEVELS: the upper level of each ladder pair, default 2 to 8)
#
# Every match is reproducible: node budgets (not times) and a fixed --seed.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-200}
LADDER_GAMES=${LADDER_GAMES:-200}
VARIANTS=${VARIANTS:-"kiswahili kete kimasai"}
LEVELS=${LEVELS:-"2 3 4 5 6 7 8"}
OUT=${OUT:-artifacts/strength}
PARTS=${*:-random greedy ladder}
mkdir -p "$OUT"
cargo build --release -q -p bao-cli
BAO=target/release/bao

one() { # name, then the match arguments
  local name=$1
  shift
  rm -f "$OUT/$name.records"
  "$BAO" match "$@" --seed 1 --records "$OUT/$name.records" >"$OUT/$name.txt"
  printf '%-28s %s | %s\n' "$name" "$(grep '^games' "$OUT/$name.txt")" \
    "$(grep '^wilson' "$OUT/$name.txt")"
}

for part in $PARTS; do
  for v in $VARIANTS; do
    case $part in
      random) one "$v-top-vs-random" level:8 random --variant "$v" --games "$GAMES" ;;
      greedy) one "$v-top-vs-greedy" level:8 greedy --variant "$v" --games "$GAMES" ;;
      ladder)
        for l in $LEVELS; do
          one "$v-level$l-vs-level$((l - 1))" "level:$l" "level:$((l - 1))" \
            --variant "$v" --games "$LADDER_GAMES"
        done
        ;;
      *) echo "unknown part '$part' (random, greedy, ladder)" >&2; exit 2 ;;
    esac
  done
done
