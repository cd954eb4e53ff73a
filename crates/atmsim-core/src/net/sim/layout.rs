//! Where each component's key sits in the scheduler's tree: components that play the same part
//! in the network side by side, so that one tree node holds the earliest key of the group.
//!
//! The horizon scan (`horizon.rs`) reads, for the component it bounds, the keys of its nearest
//! upstream components one by one. In a network of N sources through one bottleneck most of
//! those are groups of N alike components at (almost) the same distance: the N sources, their N
//! access ports, the N destinations. If a group fills one aligned block of the tree's leaves, the
//! block's node holds the group's smallest key, and `min key + min distance` over the group is a
//! lower bound of every member's `key + distance`: one entry instead of N, a bound lower only by
//! the spread of the members' distances (tens of picoseconds of clock drift; `horizon.rs` groups
//! only members within a small fraction of their distance of each other), and always safe.
//!
//! Alike components are found by colour refinement on the graph of channels: a component starts
//! with the colour of its kind, number of inputs and own lookahead, and is then told apart by the
//! colours of its senders and receivers and the latencies of those channels (rounded to 12
//! significant bits, so that drift does not split a group), until no colour splits further (or a
//! few rounds have passed). The colours only place keys: a coarser or finer split changes how
//! many entries a scan reads, never a bound's safety.
//!
//! Each colour with several members takes an aligned block of a power of two leaves (larger blocks
//! first, so each is aligned to its size); members keep their index order inside it, and the
//! block's unused leaves are padding that never has work.

use crate::time::{Time, NEVER};
use std::collections::BTreeMap;

/// Rounds of refinement at most: every group of the bench and study networks settles in fewer;
/// a longer chain of distinct components is left partly unsplit, which is only less grouping.
const ROUNDS: usize = 16;

/// The placement of components' keys in the scheduler's tree.
#[derive(Debug, Clone)]
pub struct Layout {
    /// First leaf index of the tree (a power of two).
    pub leaves: usize,
    /// Per component: its leaf, counted from the first (`0..leaves`).
    pub slot: Vec<u32>,
    /// Per component: its group (`groups` index).
    pub group: Vec<u32>,
    /// Per group: its members, in index order, and the tree node whose key is the smallest of
    /// theirs (the member's own leaf for a group of one).
    pub groups: Vec<Group>,
}

/// Alike components in one aligned block of leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub members: Vec<u32>,
    /// The tree node over the block (`tree` index).
    pub node: u32,
}

impl Layout {
    /// Each component at the leaf of its own index (the reference schedule, and tests).
    pub fn identity(n: usize) -> Self {
        let leaves = n.max(1).next_power_of_two();
        Layout {
            leaves,
            slot: (0..n as u32).collect(),
            group: (0..n as u32).collect(),
            groups: (0..n as u32).map(|c| Group { members: vec![c], node: leaves as u32 + c }).collect(),
        }
    }

    /// Alike components side by side. `kind[c]`: what `c` is (port, host); `lookahead[c]`: its
    /// smallest input latency; `upstream[c]`: the sender and latency of each of its inputs.
    pub fn grouped(kind: &[u8], lookahead: &[Time], upstream: &[Vec<(u32, Time)>]) -> Self {
        let colour = refine(kind, lookahead, upstream);
        let mut members: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for (c, &k) in colour.iter().enumerate() {
            members.entry(k).or_default().push(c as u32);
        }
        let mut blocks: Vec<Vec<u32>> = members.into_values().collect();
        // Larger blocks first (each then starts at a multiple of its size), then by first member.
        blocks.sort_by_key(|m| (std::cmp::Reverse(m.len().next_power_of_two()), m[0]));
        let total: usize = blocks.iter().map(|m| m.len().next_power_of_two()).sum();
        let leaves = total.max(1).next_power_of_two();
        let n = kind.len();
        let (mut slot, mut group) = (vec![0; n], vec![0; n]);
        let mut groups = Vec::with_capacity(blocks.len());
        let mut at = 0;
        for m in blocks {
            let size = m.len().next_power_of_two();
            for (i, &c) in m.iter().enumerate() {
                slot[c as usize] = (at + i) as u32;
                group[c as usize] = groups.len() as u32;
            }
            // The node over leaves `leaves + at .. + size`: `size` divides `at` and `leaves`.
            let node = ((leaves + at) / size) as u32;
            groups.push(Group { members: m, node });
            at += size;
        }
        Layout { leaves, slot, group, groups }
    }
}

/// A latency rounded to 12 significant bits (about 0.02 %): links alike but for clock drift
/// (20 ppm) share a value, unless they straddle a rounding boundary (then they are not grouped).
fn rounded(t: Time) -> Time {
    if t == NEVER {
        return NEVER;
    }
    let shift = (64 - t.leading_zeros()).saturating_sub(12);
    (t >> shift) << shift
}

/// Colour refinement: components with the same colour have alike kinds, lookaheads and inputs
/// and outputs of alike colours over alike latencies (up to `ROUNDS` hops away).
fn refine(kind: &[u8], lookahead: &[Time], upstream: &[Vec<(u32, Time)>]) -> Vec<u32> {
    let n = kind.len();
    let mut downstream = vec![Vec::new(); n];
    for (c, inputs) in upstream.iter().enumerate() {
        for &(u, latency) in inputs {
            downstream[u as usize].push((c as u32, latency));
        }
    }
    let canon = |sigs: Vec<Vec<u64>>| -> (Vec<u32>, usize) {
        let mut ids: BTreeMap<&[u64], u32> = BTreeMap::new();
        for s in &sigs {
            let next = ids.len() as u32;
            ids.entry(s).or_insert(next);
        }
        (sigs.iter().map(|s| ids[s.as_slice()]).collect(), ids.len())
    };
    let start = (0..n)
        .map(|c| {
            vec![
                u64::from(kind[c]),
                upstream[c].len() as u64,
                downstream[c].len() as u64,
                rounded(lookahead[c]),
            ]
        })
        .collect();
    let (mut colour, mut count) = canon(start);
    for _ in 0..ROUNDS {
        let sigs = (0..n)
            .map(|c| {
                let side = |edges: &[(u32, Time)]| {
                    let mut v: Vec<(u64, u64)> =
                        edges.iter().map(|&(u, l)| (u64::from(colour[u as usize]), rounded(l))).collect();
                    v.sort_unstable();
                    v
                };
                let mut s = vec![u64::from(colour[c])];
                for (a, b) in side(&upstream[c]) {
                    s.extend([a, b]);
                }
                s.push(u64::MAX);
                for (a, b) in side(&downstream[c]) {
                    s.extend([a, b]);
                }
                s
            })
            .collect();
        let (next, next_count) = canon(sigs);
        colour = next;
        if next_count == count {
            break;
        }
        count = next_count;
    }
    colour
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kinds, lookaheads and inputs of a network.
    type Network = (Vec<u8>, Vec<Time>, Vec<Vec<(u32, Time)>>);

    /// N sources -> N access links -> one port -> N destinations, as in the bench networks:
    /// components 0..N sources, N the bottleneck, N+1..2N+1 destinations.
    fn star(n: u32) -> Network {
        let mut upstream = vec![Vec::new(); 2 * n as usize + 1];
        let mut kind = vec![1; 2 * n as usize + 1];
        kind[n as usize] = 0;
        for s in 0..n {
            // Drift: each link a few picoseconds off the others.
            upstream[n as usize].push((s, 3_726_000 + 7 * u64::from(s)));
            upstream[(n + 1 + s) as usize].push((n, 3_726_000 + 11 * u64::from(s)));
        }
        let lookahead = upstream.iter().map(|u| u.iter().map(|&(_, l)| l).min().unwrap_or(NEVER)).collect();
        (kind, lookahead, upstream)
    }

    #[test]
    fn alike_components_share_an_aligned_block() {
        let (kind, lookahead, upstream) = star(5);
        let l = Layout::grouped(&kind, &lookahead, &upstream);
        // Sources, destinations, the bottleneck: blocks of 8, 8 and 1 in 32 leaves.
        assert_eq!(l.leaves, 32);
        assert_eq!(l.groups.len(), 3);
        let sources = &l.groups[l.group[0] as usize];
        assert_eq!(sources.members, vec![0, 1, 2, 3, 4]);
        let dests = &l.groups[l.group[6] as usize];
        assert_eq!(dests.members, vec![6, 7, 8, 9, 10]);
        assert_eq!(l.groups[l.group[5] as usize].members, vec![5]);
        // Every group's node covers exactly its block: the members' leaves and padding.
        let mut seen = vec![false; l.leaves];
        for g in &l.groups {
            let size = g.members.len().next_power_of_two();
            let first = g.node as usize * size - l.leaves;
            for (i, &c) in g.members.iter().enumerate() {
                assert_eq!(l.slot[c as usize] as usize, first + i);
            }
            for s in seen.iter_mut().skip(first).take(size) {
                assert!(!*s, "blocks overlap");
                *s = true;
            }
        }
    }

    #[test]
    fn different_latencies_or_neighbours_split_a_group() {
        let (kind, lookahead, mut upstream) = star(4);
        // Source 3's link is twice as long: its destination and itself stand apart.
        upstream[4][3].1 *= 2;
        let l = Layout::grouped(&kind, &lookahead, &upstream);
        assert_eq!(l.groups[l.group[0] as usize].members, vec![0, 1, 2]);
        assert_eq!(l.groups[l.group[3] as usize].members, vec![3]);
        // Destinations all hang off the bottleneck alike.
        assert_eq!(l.groups[l.group[5] as usize].members, vec![5, 6, 7, 8]);
    }

    #[test]
    fn identity_keeps_index_order() {
        let l = Layout::identity(5);
        assert_eq!(l.leaves, 8);
        assert_eq!(l.slot, vec![0, 1, 2, 3, 4]);
        assert_eq!(l.groups[3], Group { members: vec![3], node: 11 });
    }
}
