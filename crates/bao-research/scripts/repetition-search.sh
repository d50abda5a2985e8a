#!/bin/sh
# Bounded search for threefold repetition (BRD-7.5): the runs reported in docs/spec-notes.md
# and crates/bao-research/notes/repetition.md. One core, about a minute of CPU per line.
# Usage: crates/bao-research/scripts/repetition-search.sh [extra args for every run,
#        e.g. --seed 2]
set -eu
# From the repository root: target/ and artifacts/ are the workspace's.
cd "$(dirname "$0")/../../.."
cargo build --release -q -p bao-research --bin repetition_search
bin=target/release/repetition_search
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
cargo build --release -q -p bao-research --bin selfplay_repetition
for v in kiswahili kete kimasai; do
  nice target/release/selfplay_repetition "$v" - 200 2 | tail -n 1
  nice target/release/selfplay_repetition "$v" - 40 4 | tail -n 1
done
# Walks that follow a fixed policy (repetition_policy.rs): kimasai comes back to a position;
# the first run finds the 2,301-move game of tests/data/kimasai-game-to-repetition.txt.
cargo build --release -q -p bao-research --bin repetition_policy
policy() { nice target/release/repetition_policy "$@" | grep -v '^[AaBb][1-8] '; }
policy kimasai - --games 300 --policy low --walk 30000 --seed 4 --feed 2
for p in balance top low hash; do
  policy kiswahili - --games 300 --every 4 --policy "$p" --walk 20000 --seed 1
  policy kete - --games 300 --every 4 --policy "$p" --walk 20000 --seed 1
done
# Beams that keep the game going (repetition_beam.rs): kiswahili and kete lines of 3,000
# plies; steering back to the root finds the first kiswahili cycle (48 plies, second root),
# and steering to that cycle finds cycles from every root, the games of
# tests/data/kiswahili-game-to-repetition.txt (fourth root) and kete-game-to-repetition.txt
# (sixth root). A few minutes of one core each.
cargo build --release -q -p bao-research --bin repetition_beam
beam() { nice target/release/repetition_beam "$@" | grep -v '^  \(game\|moves to\)'; }
beam kiswahili - --roots 10 --width 1000 --depth 3000 --score balance --seed 1
beam kete - --roots 10 --width 1000 --depth 3000 --score balance --seed 1
beam kiswahili - --roots 10 --width 1000 --depth 3000 --score home --seed 1
cycle="a7L* B7R a6L B8R a5L* A8L a4R* A6L* a7L A5L a8L* A7L* a7L A3R* a6L* A8R* a5L* A6R* \
a4L B7R a3R* A8R* a5L* B5R* a4R* B6L* a6L* B8R* a5L A8R* a3R* A7R* a7L B3L* a5R* B2L* a6L* \
B7L* a4R B6L* a3R* B1R* a6R* B5R* a4R* B6R* a5L* B2R*"
first="1,16,8,1,0,1,14,7/1,4,1,0,1,1,1,0/0,0,0,0,0,0,0,1/0,0,1,0,1,1,2,1 N 0/0 - 0"
for v in kiswahili kete; do
  beam "$v" - --roots 10 --width 1000 --depth 1500 --score home --seed 1 \
    --target "$v $first" --cycle "$cycle"
done
# Policy walks that look ahead to keep the game going.
for p in balance low top hash; do
  policy kiswahili - --games 5 --policy "$p" --walk 20000 --survive 24 --seed 1
done
