#!/usr/bin/env bash
# Do the levels still play the same games as an older build (docs/levels.md)? Levels have node
# budgets, not times, so the same build plays the same moves on every machine, and a change
# that only made the engine faster must leave every game of a seeded match unchanged.
#
#   scripts/levels-unchanged.sh            # against 189f44a, the build of the last full
#                                          # strength run (docs/levels.md)
#   GAMES=50 scripts/levels-unchanged.sh OLD_COMMIT
#
# Builds OLD in a temporary worktree (its own target directory: a few minutes the first
# time), plays level 8 against greedy and level 6 against level 5 in each variant with both
# builds (--seed 1), and compares the games round by round (the Date tag aside).
# OLD_BAO=path/to/bao uses an old binary already built instead.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${1:-189f44a}
GAMES=${GAMES:-20}
WORK=${WORK:-target/levels-unchanged}
mkdir -p "$WORK"
cargo build --release -q -p bao-cli
NEW_BAO=target/release/bao
if [ -n "${OLD_BAO:-}" ]; then
  echo "old build: $OLD_BAO (OLD_BAO set; $OLD not built)"
else
  if [ ! -d "$WORK/old" ]; then git worktree add -q --detach "$WORK/old" "$OLD"; fi
  git -C "$WORK/old" checkout -q --detach "$OLD"
  (cd "$WORK/old" && CARGO_TARGET_DIR="$PWD/../target" cargo build --release -q -p bao-cli)
  OLD_BAO=$WORK/target/release/bao
fi

# One line per game: round, then the header and moves without the Date tag.
games() {
  awk 'BEGIN { RS = "" } /^\[/ { h = $0; next } {
         gsub(/\n/, " ", h); gsub(/\[Date "[^"]*"\] ?/, "", h); gsub(/\n/, " ")
         match(h, /\[Round "[0-9]+"\]/); r = substr(h, RSTART + 8, RLENGTH - 10)
         print r "\t" h "\t" $0 }' "$1" | sort -t "$(printf '\t')" -k1,1
}

status=0
for v in kiswahili kete kimasai; do
  for m in "level:8 greedy" "level:6 level:5"; do
    for b in old new; do
      bin=$NEW_BAO
      [ "$b" = old ] && bin=$OLD_BAO
      # shellcheck disable=SC2086
      "$bin" match $m --variant "$v" --games "$GAMES" --seed 1 --records "$WORK/$b.txt" >/dev/null
      rm -f "$WORK/$b.games"
      games "$WORK/$b.txt" >"$WORK/$b.games"
    done
    same=$(join -t $'\t' "$WORK/old.games" "$WORK/new.games" | awk -F'\t' '$2 == $4 && $3 == $5' | wc -l)
    printf '%-10s %-16s %s of %s games the same\n' "$v" "$m" "$same" "$GAMES"
    [ "$same" = "$GAMES" ] || status=1
    rm -f "$WORK/old.txt" "$WORK/new.txt"
  done
done
exit $status
