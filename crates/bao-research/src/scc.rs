//! The one strongly-connected-components routine of the repetition programs (BRD-7.5).
//!
//! The graphs are implicit (positions or rings and the moves between them) and often too big to
//! build first, so this is Tarjan's algorithm run iteratively and lazily: nodes are numbered in
//! the order they are first visited, successors are asked for once per node, and every
//! component that holds a cycle (two or more nodes, or one with a move to itself) is handed to
//! the caller as it is closed. A repeating line is a cycle, so that is all the programs need.

use std::collections::HashMap;
use std::hash::Hash;

/// Where the search keeps the number of each node it has visited.
pub trait NodeIndex<N> {
    /// The number given to `node`, if it has been visited.
    fn get(&self, node: &N) -> Option<u32>;
    /// Remember that `node` was visited as number `id`.
    fn insert(&mut self, node: N, id: u32);
}

impl<N: Hash + Eq> NodeIndex<N> for HashMap<N, u32> {
    fn get(&self, node: &N) -> Option<u32> {
        HashMap::get(self, node).copied()
    }
    fn insert(&mut self, node: N, id: u32) {
        HashMap::insert(self, node, id);
    }
}

/// For nodes that are already numbers below a known bound (rings ranked by a bijection): a
/// table instead of a hash map, four bytes a node.
pub struct Dense(Vec<u32>);

impl Dense {
    const UNSEEN: u32 = u32::MAX;

    /// Room for the nodes `0..total`.
    pub fn new(total: usize) -> Self {
        Dense(vec![Self::UNSEEN; total])
    }
}

impl NodeIndex<u32> for Dense {
    fn get(&self, node: &u32) -> Option<u32> {
        Some(self.0[*node as usize]).filter(|&i| i != Self::UNSEEN)
    }
    fn insert(&mut self, node: u32, id: u32) {
        self.0[node as usize] = id;
    }
}

/// Tarjan's search over an implicit graph; the state is kept between roots, so a node reached
/// from an earlier root is not searched again.
pub struct Scc<N, I = HashMap<N, u32>> {
    index: I,
    /// Visited nodes by number.
    nodes: Vec<N>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
}

impl<N: Hash + Eq + Clone> Scc<N> {
    /// A search that keeps its nodes in a hash map.
    pub fn new() -> Self {
        Self::with_index(HashMap::new())
    }
}

impl<N: Hash + Eq + Clone> Default for Scc<N> {
    fn default() -> Self {
        Self::new()
    }
}

/// One node on the depth-first path: its number, where its successors not yet tried begin on
/// the shared `pending` stack, and whether it has a move to itself.
struct Frame {
    v: u32,
    base: usize,
    self_loop: bool,
}

impl<N: Clone, I: NodeIndex<N>> Scc<N, I> {
    /// A search that keeps its node numbers in `index`.
    pub fn with_index(index: I) -> Self {
        Scc {
            index,
            nodes: Vec::new(),
            low: Vec::new(),
            on_stack: Vec::new(),
        }
    }

    /// The visited nodes; a node's number is its place here.
    pub fn nodes(&self) -> &[N] {
        &self.nodes
    }

    /// Has `node` been visited (from this root or an earlier one)?
    pub fn contains(&self, node: &N) -> bool {
        self.index.get(node).is_some()
    }

    fn visit(&mut self, node: N) -> u32 {
        let id = self.nodes.len() as u32;
        self.index.insert(node.clone(), id);
        self.nodes.push(node);
        self.low.push(id);
        self.on_stack.push(true);
        id
    }

    /// Searches everything reachable from `root` that was not visited before. `successors`
    /// gives a node's successors; they are tried last first. `admit(node, visited)` is asked
    /// before a new node is visited (`visited`: the nodes visited so far); a refused node is
    /// skipped, which bounds the search (a node budget). `cycle(members, nodes)` gets each
    /// component that holds a cycle, its members as node numbers, the component's first
    /// visited node last.
    pub fn explore<S, It>(
        &mut self,
        root: N,
        mut successors: S,
        mut admit: impl FnMut(&N, usize) -> bool,
        mut cycle: impl FnMut(&[u32], &[N]),
    ) where
        S: FnMut(&N) -> It,
        It: IntoIterator<Item = N>,
    {
        if self.contains(&root) {
            return;
        }
        // The successors not yet tried of every node on the path, one stack for all of them:
        // a node's own lie above those of the nodes before it on the path.
        let mut pending: Vec<N> = Vec::new();
        let mut path: Vec<Frame> = Vec::new();
        let mut stack: Vec<u32> = Vec::new();
        pending.extend(successors(&root));
        let v = self.visit(root);
        stack.push(v);
        path.push(Frame {
            v,
            base: 0,
            self_loop: false,
        });
        while let Some(top) = path.last_mut() {
            let v = top.v;
            if pending.len() > top.base {
                let w = pending.pop().expect("a pending successor");
                match self.index.get(&w) {
                    None => {
                        if !admit(&w, self.nodes.len()) {
                            continue;
                        }
                        let base = pending.len();
                        pending.extend(successors(&w));
                        let j = self.visit(w);
                        stack.push(j);
                        path.push(Frame {
                            v: j,
                            base,
                            self_loop: false,
                        });
                    }
                    Some(j) => {
                        if j == v {
                            top.self_loop = true;
                        }
                        if self.on_stack[j as usize] {
                            self.low[v as usize] = self.low[v as usize].min(j);
                        }
                    }
                }
            } else {
                let self_loop = top.self_loop;
                path.pop();
                if let Some(parent) = path.last() {
                    let u = parent.v as usize;
                    self.low[u] = self.low[u].min(self.low[v as usize]);
                }
                if self.low[v as usize] == v {
                    // v is the first visited node of its component: everything above it on the
                    // stack belongs to the component.
                    let at = stack
                        .iter()
                        .rposition(|&w| w == v)
                        .expect("v is on the stack");
                    let members: Vec<u32> = stack.drain(at..).rev().collect();
                    for &w in &members {
                        self.on_stack[w as usize] = false;
                    }
                    if members.len() > 1 || self_loop {
                        cycle(&members, &self.nodes);
                    }
                }
            }
        }
    }
}
