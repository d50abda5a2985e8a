#!/usr/bin/env python3
"""One ring alone under the kiswahili/kete mtaji takasa rules: shortest cycles (BRD-7.5).

An independent, deliberately small model (not the Rust rules crate), used for the argument in
crates/bao-research/notes/repetition.md ("Before the cycles were found"). It enumerates every
ring of k seeds whose front row is not empty and the moves of KIS-5.4 (front pits with 2+ seeds
first, else back pits with 2+), KIS-5.5 (lone kichwa), BRD-5 sowing with relays, never-ending
moves removed (BRD-6.2) and moves that leave the front row empty removed (the mover would lose,
BRD-7.2). It assumes the mover
has no capture move, no house and no block, so the opponent's ring plays no part.

  crates/bao-research/scripts/repetition-ring-model.py ring 6    # whole ring, k = 2..6
  crates/bao-research/scripts/repetition-ring-model.py cut 6 11  # pit 11 (B5) never sown into
  crates/bao-research/scripts/repetition-ring-model.py arc 12    # only B4..B1, A1..A4 used
Ring indices as BRD-3.1: A1..A8 = 0..7, B8..B1 = 8..15. Takes minutes for the larger k.
"""
import sys
from collections import deque


def moves(ring, allowed):
    front = [r for r in range(8) if ring[r] >= 2]
    pits = front if front else [r for r in range(8, 16) if ring[r] >= 2]
    occupied_front = [r for r in range(8) if ring[r] > 0]
    out = []
    for r in pits:
        for d in (1, -1):
            if occupied_front == [r] and ((r == 0 and d == -1) or (r == 7 and d == 1)):
                continue
            h = list(ring)
            cur = r
            seen = set()
            ok = True
            while ok:
                n = h[cur]
                h[cur] = 0
                for _ in range(n):
                    cur = (cur + d) % 16
                    h[cur] += 1
                    if cur not in allowed:
                        ok = False
                if not ok or h[cur] == 1:
                    break
                state = (tuple(h), cur)
                if state in seen:
                    ok = False
                    break
                seen.add(state)
            if ok and sum(h[:8]) > 0:
                out.append(((r, d), tuple(h)))
    return out


def compositions(n, k):
    if n == 1:
        yield (k,)
        return
    for c in range(k + 1):
        for rest in compositions(n - 1, k - c):
            yield (c,) + rest


def shortest_cycle(pits, k):
    allowed = set(pits)
    nodes = []
    for c in compositions(len(pits), k):
        ring = [0] * 16
        for i, x in zip(pits, c):
            ring[i] = x
        if sum(ring[:8]) > 0:
            nodes.append(tuple(ring))
    index = {r: i for i, r in enumerate(nodes)}
    adj = [[index[t] for _, t in moves(r, allowed)] for r in nodes]
    best = None
    for s in range(len(nodes)):
        dist = {s: 0}
        queue = deque([s])
        found = None
        while queue and found is None:
            u = queue.popleft()
            if best and dist[u] + 1 >= best[0]:
                break
            for v in adj[u]:
                if v == s:
                    found = dist[u] + 1
                    break
                if v not in dist:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        if found and (best is None or found < best[0]):
            best = (found, nodes[s])
    return len(nodes), best


def main():
    mode, kmax = sys.argv[1], int(sys.argv[2])
    if mode == "ring":
        pits = list(range(16))
    elif mode == "cut":
        pits = [i for i in range(16) if i != int(sys.argv[3])]
    elif mode == "arc":
        pits = [12, 13, 14, 15, 0, 1, 2, 3]
    else:
        sys.exit(__doc__)
    for k in range(2, kmax + 1):
        count, best = shortest_cycle(pits, k)
        print(f"{mode} k={k} rings={count} shortest-cycle={best}", flush=True)


if __name__ == "__main__":
    main()
