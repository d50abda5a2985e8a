//! Maximum-weight matching on a general graph: Edmonds' blossom algorithm with dual variables
//! (Galil's O(n³) formulation), after Joris van Rantwijk's well-known `mwmatching.py`.
//!
//! The Swiss pairing ([`crate::swiss`]) builds a complete graph of the players whose edge
//! weights rank every possible pair, and takes the matching of greatest weight among those
//! that pair the most players. Written here rather than taken from a crate: `blossom` finds
//! maximum-cardinality matchings only (no weights); `mwmatching` (a port of the same Python
//! program) takes `i32` weights and has not changed since 2018; `integer-blossom` is a few
//! months old with one author. The pairing needs exact integer weights of up to about 2^100
//! (criteria stacked in priority order), and this file is short enough to own, with tests
//! against brute force.
//!
//! Weights are `i128`. They are doubled inside, so that every dual variable and every slack
//! stays an integer (the half-slack step of the algorithm then divides an even number).

/// One edge `(u, v, weight)` between two distinct vertices.
pub type Edge = (usize, usize, i128);

const NONE: usize = usize::MAX;

/// A matching of greatest total weight. With `max_cardinality`, the matching of greatest
/// weight among those with the most edges (weights may then be zero or negative).
///
/// Returns `mate`, with `mate[v]` the vertex matched to `v` (or `None`); its length is one
/// more than the largest vertex named in `edges`.
///
/// ```
/// use bao_tournament::matching::max_weight_matching;
///
/// // A path 0-1-2-3: weights 5, 6, 5. The heaviest matching takes the two outer edges
/// // (10 > 6).
/// let mate = max_weight_matching(&[(0, 1, 5), (1, 2, 6), (2, 3, 5)], false);
/// assert_eq!(mate, vec![Some(1), Some(0), Some(3), Some(2)]);
///
/// // A triangle with a pendant edge: at most two edges, and among them the heaviest.
/// let mate = max_weight_matching(&[(0, 1, 9), (1, 2, 1), (0, 2, 1), (2, 3, 1)], true);
/// assert_eq!(mate, vec![Some(1), Some(0), Some(3), Some(2)]);
/// ```
pub fn max_weight_matching(edges: &[Edge], max_cardinality: bool) -> Vec<Option<usize>> {
    if edges.is_empty() {
        return Vec::new();
    }
    let n = edges.iter().map(|&(u, v, _)| u.max(v)).max().unwrap_or(0) + 1;
    let mut m = Matcher::new(n, edges, max_cardinality);
    m.solve();
    (0..n)
        .map(|v| (m.mate[v] != NONE).then(|| m.endpoint[m.mate[v]]))
        .collect()
}

/// The state of the algorithm. Names follow `mwmatching.py`: a vertex is 0..n, a blossom
/// n..2n; an edge k has endpoints 2k and 2k+1 ("p" below), `p ^ 1` being the other end.
struct Matcher {
    n: usize,
    edges: Vec<Edge>,
    max_cardinality: bool,
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    /// 0 free, 1 S (outer), 2 T (inner); 5 marks S blossoms during `scan_blossom`.
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<i128>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

/// Python-style index into a list: negative counts from the end.
fn at(len: usize, j: isize) -> usize {
    j.rem_euclid(len as isize) as usize
}

impl Matcher {
    fn new(n: usize, edges: &[Edge], max_cardinality: bool) -> Matcher {
        assert!(
            edges.iter().all(|&(u, v, _)| u != v),
            "an edge joins two distinct vertices"
        );
        // Doubled weights keep the duals integral (see the module doc).
        let edges: Vec<Edge> = edges.iter().map(|&(u, v, w)| (u, v, 2 * w)).collect();
        let maxweight = edges.iter().map(|e| e.2).max().unwrap_or(0).max(0);
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(0, n));
        Matcher {
            n,
            max_cardinality,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            allowedge: vec![false; edges.len()],
            queue: Vec::new(),
            edges,
        }
    }

    fn slack(&self, k: usize) -> i128 {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - 2 * w
    }

    /// The vertices inside blossom (or vertex) `b`.
    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            if t < self.n {
                out.push(t);
            } else {
                stack.extend(self.blossomchilds[t].iter().rev().copied());
            }
        }
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        debug_assert!(self.label[w] == 0 && self.label[b] == 0);
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves(b);
            self.queue.extend(leaves);
        } else {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            debug_assert!(mb != NONE);
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    /// Traces back from `v` and `w` to find a new blossom's base, or `NONE` for an
    /// augmenting path.
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            debug_assert_eq!(self.label[b], 1);
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                debug_assert_eq!(self.label[b], 2);
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom slot");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = 0;
        for v in self.leaves_of(&path) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let nblist: Vec<usize> = match self.blossombestedges[bv].take() {
                Some(list) => list,
                None => self
                    .leaves(bv)
                    .into_iter()
                    .flat_map(|v| self.neighbend[v].iter().map(|p| p / 2))
                    .collect(),
            };
            for k in nblist {
                let (mut i, mut j, _) = self.edges[k];
                if self.inblossom[j] == b {
                    std::mem::swap(&mut i, &mut j);
                }
                let _ = i;
                let bj = self.inblossom[j];
                if bj != b
                    && self.label[bj] == 1
                    && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                {
                    bestedgeto[bj] = k;
                }
            }
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        let mut best = NONE;
        for &k in &list {
            if best == NONE || self.slack(k) < self.slack(best) {
                best = k;
            }
        }
        self.bestedge[b] = best;
        self.blossombestedges[b] = Some(list);
        self.blossomchilds[b] = path;
        self.blossomendps[b] = endps;
    }

    fn leaves_of(&self, blossoms: &[usize]) -> Vec<usize> {
        blossoms.iter().flat_map(|&s| self.leaves(s)).collect()
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == 0 {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            // Relabel the sub-blossoms on the even path from the entry child to the base.
            let len = childs.len();
            let endps = self.blossomendps[b].clone();
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
                j -= len as isize;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = endps[at(len, j - endptrick as isize)];
                self.label[self.endpoint[q ^ endptrick ^ 1]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[q / 2] = true;
                j += jstep;
                p = endps[at(len, j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(len, j)];
            let e = self.endpoint[p ^ 1];
            self.label[e] = 2;
            self.label[bv] = 2;
            self.labelend[e] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(len, j)] != entrychild {
                let bv = childs[at(len, j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let labelled = self.leaves(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = labelled {
                    debug_assert_eq!(self.label[v], 2);
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[mb]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = u8::MAX; // unused slot
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    /// Swaps matched and unmatched edges inside blossom `b` so that `v` becomes its base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len();
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .expect("child");
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 != 0 {
            j -= len as isize;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][at(len, j)];
            let p = self.blossomendps[b][at(len, j - endptrick as isize)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = self.blossomchilds[b][at(len, j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
        debug_assert_eq!(self.blossombase[b], v);
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                debug_assert_eq!(self.label[bs], 1);
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                debug_assert_eq!(self.label[bt], 2);
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _stage in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while !augmented {
                    let Some(v) = self.queue.pop() else { break };
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = 0;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= 0 {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with the edges allowed now: change the duals.
                let mut deltatype = 0u8;
                let mut delta: i128 = 0;
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                if !self.max_cardinality {
                    deltatype = 1;
                    delta = self.dualvar[..n].iter().copied().min().unwrap_or(0);
                }
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let kslack = self.slack(self.bestedge[b]);
                        debug_assert_eq!(kslack % 2, 0, "doubled weights keep slacks even");
                        let d = kslack / 2;
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && (deltatype == 0 || self.dualvar[b] < delta)
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                if deltatype == 0 {
                    // Max cardinality: nothing more to find; a last dual change ends it.
                    deltatype = 1;
                    delta = self.dualvar[..n].iter().copied().min().unwrap_or(0).max(0);
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] -= delta,
                        2 => self.dualvar[v] += delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] += delta,
                            2 => self.dualvar[b] -= delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            // End of a stage: expand the S blossoms whose dual reached zero.
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == 0
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (splitmix64) for the random graphs.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// The best (cardinality if asked, weight) over every matching, by trying all.
    fn brute(n: usize, edges: &[Edge], max_card: bool) -> (usize, i128) {
        #[allow(clippy::too_many_arguments)]
        fn go(
            v: usize,
            n: usize,
            used: &mut Vec<bool>,
            adj: &[Vec<(usize, i128)>],
            card: usize,
            weight: i128,
            best: &mut (usize, i128),
            max_card: bool,
        ) {
            if v == n {
                let better = if max_card {
                    (card, weight) > *best
                } else {
                    weight > best.1
                };
                if better {
                    *best = (card, weight);
                }
                return;
            }
            if used[v] {
                return go(v + 1, n, used, adj, card, weight, best, max_card);
            }
            // v unmatched.
            go(v + 1, n, used, adj, card, weight, best, max_card);
            used[v] = true;
            for &(u, w) in &adj[v] {
                if !used[u] {
                    used[u] = true;
                    go(v + 1, n, used, adj, card + 1, weight + w, best, max_card);
                    used[u] = false;
                }
            }
            used[v] = false;
        }
        let mut adj = vec![Vec::new(); n];
        for &(u, v, w) in edges {
            adj[u].push((v, w));
            adj[v].push((u, w));
        }
        let mut best = (0, 0);
        go(0, n, &mut vec![false; n], &adj, 0, 0, &mut best, max_card);
        best
    }

    fn value(mate: &[Option<usize>], edges: &[Edge]) -> (usize, i128) {
        // The matching is consistent, and uses only edges of the graph.
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m {
                assert_eq!(mate[u], Some(v));
            }
        }
        let mut card = 0;
        let mut weight = 0;
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m {
                if v < u {
                    let w = edges
                        .iter()
                        .filter(|e| (e.0 == v && e.1 == u) || (e.0 == u && e.1 == v))
                        .map(|e| e.2)
                        .max()
                        .expect("matched along an edge");
                    card += 1;
                    weight += w;
                }
            }
        }
        (card, weight)
    }

    #[test]
    fn empty_and_single_edge() {
        assert!(max_weight_matching(&[], false).is_empty());
        assert_eq!(
            max_weight_matching(&[(0, 1, 1)], false),
            vec![Some(1), Some(0)]
        );
        // A negative edge is left out, unless the cardinality matters.
        assert_eq!(max_weight_matching(&[(0, 1, -1)], false), vec![None, None]);
        assert_eq!(
            max_weight_matching(&[(0, 1, -1)], true),
            vec![Some(1), Some(0)]
        );
    }

    #[test]
    fn van_rantwijk_cases() {
        // Cases of mwmatching.py's own tests, with their known answers.
        let m = |e: &[Edge], c| max_weight_matching(e, c);
        let s = |v: &[i64]| -> Vec<Option<usize>> {
            v.iter().map(|&x| (x >= 0).then_some(x as usize)).collect()
        };
        assert_eq!(m(&[(1, 2, 10), (2, 3, 11)], false), s(&[-1, -1, 3, 2]));
        assert_eq!(
            m(&[(1, 2, 5), (2, 3, 11), (3, 4, 5)], false),
            s(&[-1, -1, 3, 2, -1])
        );
        assert_eq!(
            m(&[(1, 2, 5), (2, 3, 11), (3, 4, 5)], true),
            s(&[-1, 2, 1, 4, 3])
        );
        // S-blossom, then augment.
        assert_eq!(
            m(&[(1, 2, 8), (1, 3, 9), (2, 3, 10), (3, 4, 7)], false),
            s(&[-1, 2, 1, 4, 3])
        );
        assert_eq!(
            m(
                &[
                    (1, 2, 8),
                    (1, 3, 9),
                    (2, 3, 10),
                    (3, 4, 7),
                    (1, 6, 5),
                    (4, 5, 6)
                ],
                false
            ),
            s(&[-1, 6, 3, 2, 5, 4, 1])
        );
        // Create a T-blossom, then expand it.
        assert_eq!(
            m(
                &[
                    (1, 2, 9),
                    (1, 3, 8),
                    (2, 3, 10),
                    (1, 4, 5),
                    (4, 5, 4),
                    (1, 6, 3)
                ],
                false
            ),
            s(&[-1, 6, 3, 2, 5, 4, 1])
        );
        // Nested S-blossom, relabelled as T then expanded.
        assert_eq!(
            m(
                &[
                    (1, 2, 19),
                    (1, 3, 20),
                    (1, 8, 8),
                    (2, 3, 25),
                    (2, 4, 18),
                    (3, 5, 18),
                    (4, 5, 13),
                    (4, 7, 7),
                    (5, 6, 7)
                ],
                false
            ),
            s(&[-1, 8, 3, 2, 7, 6, 5, 4, 1])
        );
        // Blossom with an expand that relabels through the odd path.
        assert_eq!(
            m(
                &[
                    (1, 2, 45),
                    (1, 5, 45),
                    (2, 3, 50),
                    (3, 4, 45),
                    (4, 5, 50),
                    (1, 6, 30),
                    (3, 9, 35),
                    (4, 8, 26),
                    (5, 7, 40),
                    (9, 10, 5)
                ],
                false
            ),
            s(&[-1, 6, 3, 2, 8, 7, 1, 5, 4, 10, 9])
        );
        assert_eq!(
            m(
                &[
                    (1, 2, 45),
                    (1, 5, 45),
                    (2, 3, 50),
                    (3, 4, 45),
                    (4, 5, 50),
                    (1, 6, 30),
                    (3, 9, 35),
                    (4, 8, 28),
                    (5, 7, 26),
                    (9, 10, 5)
                ],
                false
            ),
            s(&[-1, 6, 3, 2, 8, 7, 1, 5, 4, 10, 9])
        );
        // Nested blossom expanded at the end with a relabelling of the inner one.
        assert_eq!(
            m(
                &[
                    (1, 2, 40),
                    (1, 3, 40),
                    (2, 3, 60),
                    (2, 4, 55),
                    (3, 5, 55),
                    (4, 5, 50),
                    (1, 8, 15),
                    (5, 7, 30),
                    (7, 6, 10),
                    (8, 10, 10),
                    (4, 9, 30)
                ],
                false
            ),
            s(&[-1, 2, 1, 5, 9, 3, 7, 6, 10, 4, 8])
        );
    }

    #[test]
    fn agrees_with_brute_force_on_random_graphs() {
        let mut rng = Rng(0x5EED);
        for case in 0..3000 {
            let n = 2 + rng.below(9) as usize;
            let density = 20 + rng.below(81);
            let wmax = [3, 10, 1000][case % 3];
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.below(100) < density {
                        let w = rng.below(wmax) as i128 - if case % 5 == 0 { 2 } else { 0 };
                        edges.push((u, v, w));
                    }
                }
            }
            if edges.is_empty() {
                continue;
            }
            for max_card in [false, true] {
                let mate = max_weight_matching(&edges, max_card);
                let got = value(&mate, &edges);
                let nv = mate.len();
                let want = brute(nv, &edges, max_card);
                if max_card {
                    assert_eq!(got, want, "case {case} {edges:?}");
                } else {
                    assert_eq!(got.1, want.1, "case {case} {edges:?}");
                }
            }
        }
    }

    #[test]
    fn huge_weights_stay_exact() {
        // Weights of the size the Swiss pairing uses: the lexicographic order must survive.
        let big: i128 = 1 << 100;
        let edges = [
            (0, 1, big + 1),
            (1, 2, big + 3),
            (2, 3, big + 1),
            (0, 3, big),
        ];
        let mate = max_weight_matching(&edges, true);
        // Two edges either way: {0-1, 2-3} weighs 2big+2, {1-2, 0-3} 2big+3.
        assert_eq!(mate, vec![Some(3), Some(2), Some(1), Some(0)]);
    }
}
