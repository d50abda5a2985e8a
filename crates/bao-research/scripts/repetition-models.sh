#!/bin/sh
# The one-ring and parked-pile computations of crates/bao-research/notes/repetition.md
# (BRD-7.5). One core, niced; the exhaustive runs take minutes and some 1 GB of
# memory, the larger class searches longer (each is cut off by `timeout`).
# Usage: crates/bao-research/scripts/repetition-models.sh
set -eu
# From the repository root: target/ and artifacts/ are the workspace's.
cd "$(dirname "$0")/../../.."
cargo build --release -q -p bao-research --bin repetition_ring --bin repetition_piles \
  --bin repetition_search --bin repetition_mirror
ring=target/release/repetition_ring
run() { nice -n 19 timeout 900 "$@" | grep -v '^ ' || true; }
# The model against legal_moves.
run $ring check 3000
# Every ring of 2..11 seeds; then only rings no capture can start from.
run $ring scc 2 11
run $ring scc 2 12 --no-reach
# Front row 1,0,1,0,... (either phase), every back row.
run $ring alt 5 20 --no-reach
for b in 12 16 20 24; do run $ring alt $b $b; done
# Random roots, cycles that never leave a class (mask 0: no reach; else fronts inside MASK).
for n in 10 12 14 16 20 24 32; do run $ring mask $n 0 0 20000; done
run $ring mask 12 11111111 255 20
for n in 12 16; do run $ring mask $n 01010101 3 3000; run $ring mask $n 10101010 3 3000; done
for n in 17 18; do run $ring mask $n 01010101 3 30000; done
for n in 20 24 28 32; do run $ring mask $n 01010101 4 5000; done
for m in 00001111 11110000 00110011; do for n in 8 12 16; do run $ring mask $n $m 3 3000; done; done
# Quiet play of two random rings of 32 seeds each.
run $ring pair 32 2000 100000
# Cycles with captures around a parked pile per side: exhaustive for few other seeds, then
# breadth first from random constructed roots.
for a in 4 5; do run target/release/repetition_piles kiswahili - $a B5 b5; done
for a in 8 12 16 20; do
  run target/release/repetition_search kiswahili - --piles $a --games 400 --depth 14 \
    --nodes 50000 --seed $a
done
for a in 8 16; do
  run target/release/repetition_search kete - --piles $a --games 400 --depth 14 \
    --nodes 50000 --seed $a
done
# Mirror half-cycles from random-game roots, and from roots whose two rings are equal.
for v in kiswahili kete; do
  run target/release/repetition_search $v - --games 10 --every 6 --depth 20 \
    --nodes 100000 --seed 3
  run target/release/repetition_search $v - --symmetric --games 200 --depth 20 \
    --nodes 50000 --seed 2
done
# The shortest cycles with captures: one-ply mirrors and two-ply cycles (clean moves and their
# pairs, takasa moves that bring the ring back), bounded by the laps of a move; the lazy
# search's moves against legal_moves first. Then exchanges from constructed roots.
mirror=target/release/repetition_mirror
run $mirror check kiswahili 30000 7
run $mirror check kete 30000 8
run $mirror kiswahili 12
run $mirror kete 8
run $mirror kiswahili 6 32 --clean 12
run $mirror kiswahili 16 32 --answer 1,0,0,8,0,0,0,8 3,0,4,4,0,3,3,0
run $mirror kiswahili 6 32 --answer 3,0,4,4,0,3,3,0 1,0,0,8,0,0,0,8
run $mirror kiswahili 20 32 --quiet
run target/release/repetition_search kiswahili - --exchange --games 200 --depth 12 \
  --nodes 30000 --seed 2
run target/release/repetition_search kete - --exchange --games 200 --depth 12 \
  --nodes 30000 --seed 3
