//! Which components every path from a component upstream to a given one passes through: its
//! *dominators* in the graph walked upstream from it (the horizon's levels, `horizon.rs`).
//!
//! The walk starts at a virtual root whose successors are the senders of the component's inputs
//! and goes from each component to the senders of its inputs, so a path from the root to `u`
//! is a path from `u` to the component read backwards; `p` dominates `u` when every such path
//! passes `p`, and `u` dominates itself. The component itself is an ordinary node of the walk
//! (reached only by a loop back to it): as a node it stands for the component as a sender.
//! Immediate dominators come from the iterative algorithm of Cooper, Harvey and Kennedy ("A
//! Simple, Fast Dominance Algorithm", 2001): in reverse postorder, each node's immediate
//! dominator is the nearest common dominator of its predecessors met so far, repeated until
//! nothing changes; only the nodes with several predecessors are visited again (a node with
//! one is dominated by it alone, known from the first pass).

use crate::time::Time;

/// Not reached by the current walk (`Dominators::order`).
const UNSEEN: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct Dominators {
    /// Per component: its postorder number in the current walk, valid where `walk` matches.
    order: Vec<u32>,
    walk: Vec<u32>,
    current: u32,
    /// The walk's components in postorder; the root is number `nodes.len()`.
    nodes: Vec<u32>,
    /// Per postorder number (the root's included): its immediate dominator's.
    idom: Vec<u32>,
    /// Whether each node is a sender into the component (a successor of the root).
    from_root: Vec<bool>,
    stack: Vec<(u32, u32)>,
    /// The nodes with several predecessors, in reverse postorder (`build`).
    again: Vec<u32>,
}

impl Dominators {
    /// For a graph of `n` components.
    pub fn new(n: usize) -> Self {
        Dominators { order: vec![UNSEEN; n], walk: vec![0; n], ..Default::default() }
    }

    /// The number of `u` in the current walk (`UNSEEN`: not reached).
    fn number(&self, u: u32) -> u32 {
        if self.walk[u as usize] == self.current {
            self.order[u as usize]
        } else {
            UNSEEN
        }
    }

    /// The dominators of everything upstream of `c` (`upstream[u]`: the sender and latency of
    /// each input of `u`; `down[u]`: the components `u` sends to). `false` (and nothing known)
    /// when more than `budget` components are upstream of `c`.
    pub fn build(&mut self, c: u32, upstream: &[Vec<(u32, Time)>], down: &[Vec<u32>], budget: usize) -> bool {
        self.current += 1;
        self.nodes.clear();
        self.stack.clear();
        // Postorder by an explicit stack: (node, next input to look at); the root is `c`'s
        // inputs without `c` (`UNSEEN` as its node).
        self.stack.push((UNSEEN, 0));
        let mut seen = 0;
        while let Some(top) = self.stack.last_mut() {
            let (v, next) = *top;
            let inputs = &upstream[if v == UNSEEN { c } else { v } as usize];
            if let Some(&(w, _)) = inputs.get(next as usize) {
                top.1 += 1;
                if self.walk[w as usize] != self.current {
                    self.walk[w as usize] = self.current;
                    self.order[w as usize] = UNSEEN;
                    seen += 1;
                    if seen > budget {
                        return false;
                    }
                    self.stack.push((w, 0));
                }
            } else {
                self.stack.pop();
                if v != UNSEEN {
                    self.order[v as usize] = self.nodes.len() as u32;
                    self.nodes.push(v);
                }
            }
        }
        let root = self.nodes.len() as u32;
        self.from_root.clear();
        self.from_root.resize(self.nodes.len(), false);
        for &(w, _) in &upstream[c as usize] {
            self.from_root[self.order[w as usize] as usize] = true;
        }
        self.idom.clear();
        self.idom.resize(self.nodes.len() + 1, UNSEEN);
        self.idom[root as usize] = root;
        // The first pass visits every node; a node with one predecessor has it as its immediate
        // dominator from then on (the walk reached the node from it, so it came first), and
        // only the nodes with several are visited again until nothing changes. Most components
        // send to one other (a port to its link's far end), so the passes that confirm are short.
        self.again.clear();
        for b in (0..root).rev() {
            let (new, preds) = self.nearest_common::<true>(b, down);
            self.idom[b as usize] = new;
            if preds > 1 {
                self.again.push(b);
            }
        }
        let mut changed = !self.again.is_empty();
        while changed {
            changed = false;
            for i in 0..self.again.len() {
                let b = self.again[i];
                let (new, _) = self.nearest_common::<false>(b, down);
                if new != self.idom[b as usize] {
                    self.idom[b as usize] = new;
                    changed = true;
                }
            }
        }
        true
    }

    /// Node `b`'s immediate dominator as far as known: the nearest common dominator of its
    /// predecessors (the components `b` sends to, and the root) that have one so far; with
    /// `COUNT`, also how many predecessors it has in the walk (0 otherwise).
    #[inline(always)]
    fn nearest_common<const COUNT: bool>(&self, b: u32, down: &[Vec<u32>]) -> (u32, u32) {
        let root = self.nodes.len() as u32;
        let (mut new, mut preds) = if self.from_root[b as usize] { (root, 1) } else { (UNSEEN, 0) };
        for &x in &down[self.nodes[b as usize] as usize] {
            let x = self.number(x);
            if x == UNSEEN {
                continue;
            }
            if COUNT {
                preds += 1;
            }
            if self.idom[x as usize] != UNSEEN {
                new = if new == UNSEEN { x } else { self.meet(x, new) };
            }
        }
        (new, preds)
    }

    /// The nearest common dominator of `a` and `b` (postorder numbers): climb the one with
    /// the lower number (the root has the highest).
    fn meet(&self, mut a: u32, mut b: u32) -> u32 {
        while a != b {
            while a < b {
                a = self.idom[a as usize];
            }
            while b < a {
                b = self.idom[b as usize];
            }
        }
        a
    }

    /// Into `masks`, by postorder number, every node's union of `bit(p)` over its dominators
    /// `p` (itself included, the root left out): a dominator is an ancestor in the walk's tree,
    /// numbered after the nodes below it, so from the root down each node's is its own bit with
    /// its immediate dominator's, one step per node instead of a climb per node asked.
    pub fn masks(&self, bit: impl Fn(u32) -> u64, masks: &mut Vec<u64>) {
        let root = self.nodes.len();
        masks.clear();
        masks.resize(root + 1, 0);
        for x in (0..root).rev() {
            let up = self.idom[x] as usize;
            debug_assert!(up > x && up <= root, "a dominator is numbered after the node");
            masks[x] = masks[up] | bit(self.nodes[x]);
        }
    }

    /// How many components the last walk reached (the component itself only by a loop).
    pub fn walked(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the last walk reached `u`.
    pub fn reached(&self, u: u32) -> bool {
        self.number(u) != UNSEEN
    }

    /// `u`'s union in `masks` (`Dominators::masks`); 0 if `u` is not upstream of the component.
    pub fn mask_of(&self, u: u32, masks: &[u64]) -> u64 {
        match self.number(u) {
            UNSEEN => 0,
            x => masks[x as usize],
        }
    }

    /// Call `f` with every dominator of `u` (`u` first, the root left out); nothing if `u` is
    /// not upstream of the component.
    #[cfg(test)]
    pub fn each_dominator(&self, u: u32, mut f: impl FnMut(u32)) {
        let root = self.nodes.len() as u32;
        let mut x = self.number(u);
        if x == UNSEEN {
            return;
        }
        while x != root {
            f(self.nodes[x as usize]);
            x = self.idom[x as usize];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every dominator of `u` by brute force: `p` dominates `u` (towards `c`) when `u` cannot
    /// reach `c` without `p`.
    fn brute(upstream: &[Vec<(u32, Time)>], c: u32, u: u32) -> Vec<u32> {
        let n = upstream.len();
        let mut out = Vec::new();
        for p in 0..n as u32 {
            // Upstream from `c` around `p` (the start is `c`'s inputs).
            let mut seen = vec![false; n];
            let mut stack: Vec<u32> =
                upstream[c as usize].iter().map(|&(w, _)| w).filter(|&w| w != p).collect();
            for &w in &stack {
                seen[w as usize] = true;
            }
            while let Some(v) = stack.pop() {
                for &(w, _) in &upstream[v as usize] {
                    if w != p && !seen[w as usize] {
                        seen[w as usize] = true;
                        stack.push(w);
                    }
                }
            }
            if p == u || !seen[u as usize] {
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn the_dominators_are_those_of_the_definition() {
        let mut x: u64 = 3;
        let mut rng = move || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            x >> 33
        };
        let mut checked = 0;
        for _ in 0..300 {
            let n = 2 + (rng() % 20) as usize;
            let mut upstream = vec![Vec::new(); n];
            for inputs in upstream.iter_mut() {
                for _ in 0..rng() % 3 {
                    inputs.push(((rng() % n as u64) as u32, 1));
                }
            }
            let mut down = vec![Vec::new(); n];
            for (c, inputs) in upstream.iter().enumerate() {
                for &(u, _) in inputs {
                    down[u as usize].push(c as u32);
                }
            }
            let mut d = Dominators::new(n);
            for c in 0..n as u32 {
                assert!(d.build(c, &upstream, &down, n));
                for u in 0..n as u32 {
                    let mut got = Vec::new();
                    d.each_dominator(u, |p| got.push(p));
                    if got.is_empty() {
                        // Not upstream of `c`: no path at all.
                        continue;
                    }
                    // The masks name the same dominators, one bit each.
                    let mut masks = Vec::new();
                    d.masks(|p| 1 << p, &mut masks);
                    assert_eq!(d.mask_of(u, &masks), got.iter().map(|&p| 1u64 << p).sum::<u64>());
                    got.sort_unstable();
                    assert_eq!(got, brute(&upstream, c, u), "c {c} u {u} in {upstream:?}");
                    checked += usize::from(got.len() > 1);
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn a_walk_past_its_budget_gives_up() {
        // A chain 0 <- 1 <- 2 <- 3: three components upstream of 0.
        let upstream = vec![vec![(1, 1)], vec![(2, 1)], vec![(3, 1)], vec![]];
        let down = vec![vec![], vec![0], vec![1], vec![2]];
        let mut d = Dominators::new(4);
        assert!(!d.build(0, &upstream, &down, 2));
        assert!(d.build(0, &upstream, &down, 3));
        let mut got = Vec::new();
        d.each_dominator(3, |p| got.push(p));
        assert_eq!(got, vec![3, 2, 1]);
    }
}
