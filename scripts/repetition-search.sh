#!/bin/sh
# Bounded search for threefold repetition (BRD-7.5, issue 14): the runs reported in
# docs/spec-notes.md. One core, about a minute of CPU per line.
# Usage: scripts/repetition-search.sh [extra args for every run, e.g. --seed 2]
set -eu
cd "$(dirname "$0")/.."
cargo build --release -q -p bao-rules --example repetition_search
bin=target/release/examples/repetition_search
run() { nice "$bin" "$@" | tail -n 4; }
# Kiswahili and kete: captures are compulsory, so the graph is narrow and can be searched deep.
run kiswahili - --games 10 --every 6 --depth 12 --nodes 50000 "$@"
run kiswahili takasia=false,never_ending=draw --games 10 --every 6 --depth 12 --nodes 50000 --quiet "$@"
run kete - --games 10 --every 6 --depth 12 --nodes 50000 "$@"
run kete takasia=false,never_ending=draw --games 10 --every 6 --depth 12 --nodes 50000 --quiet "$@"
# Kimasai: every occupied pit may be played, so the graph is wide and the depth small.
run kimasai - --games 5 --every 10 --depth 6 --nodes 50000 --quiet "$@"
run kimasai capture_compulsory=true --games 5 --every 10 --depth 6 --nodes 50000 "$@"
run kimasai never_ending=draw,front_row_empty=illegal --games 5 --every 10 --depth 6 --nodes 50000 --quiet "$@"
# Root games to the end, looking for any position seen twice (no search).
run kiswahili - --games 3000 --every 1000000 --depth 0 --nodes 1 --max-ply 3000 "$@"
run kimasai - --games 3000 --every 1000000 --depth 0 --nodes 1 --max-ply 3000 --quiet "$@"
# Quiet walks from second-stage positions.
run kiswahili - --games 3000 --every 2 --walk 5000 "$@"
run kete - --games 3000 --every 2 --walk 5000 "$@"
run kimasai - --games 300 --every 10 --walk 20000 "$@"
# Self-play between engines that know the history (VARIANT RULES GAMES LEVEL).
cargo build --release -q -p bao-engine --example selfplay_repetition
for v in kiswahili kete kimasai; do
  nice target/release/examples/selfplay_repetition "$v" - 200 2 | tail -n 1
  nice target/release/examples/selfplay_repetition "$v" - 40 4 | tail -n 1
done
# Walks that follow a fixed policy (repetition_policy.rs): kimasai comes back to a position;
# the first run finds the 2,301-move game of tests/data/kimasai-game-to-repetition.txt.
cargo build --release -q -p bao-rules --example repetition_policy
policy() { nice target/release/examples/repetition_policy "$@" | grep -v '^[AaBb][1-8] '; }
policy kimasai - --games 300 --policy low --walk 30000 --seed 4 --feed 2
for p in balance top low hash; do
  policy kiswahili - --games 300 --every 4 --policy "$p" --walk 20000 --seed 1
  policy kete - --games 300 --every 4 --policy "$p" --walk 20000 --seed 1
done
