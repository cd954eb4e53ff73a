//! Where each component's key sits in the scheduler's tree: components that the horizon scan
//! meets together side by side, so that one tree node holds the earliest key of the group.
//!
//! The horizon scan (`horizon.rs`) reads, for the component it bounds, the keys of its nearest
//! upstream components one by one. In a network of N sources through one bottleneck most of
//! those come in sets of N alike components at (almost) the same distance: the N sources, their
//! N access ports, the N destinations. If such a set fills one aligned block of the tree's
//! leaves, the block's node holds the set's smallest key, and `min key + min distance` over the
//! set is a lower bound of every member's `key + distance`: one entry instead of N, a bound
//! lower only by the spread of the members' distances (tens of picoseconds of clock drift), and
//! always safe.
//!
//! The groups come from the lists themselves. Each list is cut into *clusters*: runs of entries
//! within [`SPREAD`] (1/4096) of the run's first distance (the last cluster of a list cut at
//! `NEAR` entries may be partial and is left out). A cluster met on `k` lists would save
//! `k * (size - 1)` entries as a group; clusters become groups in that order, each only if none
//! of its members is in a group yet. A list reads a group as one entry wherever the whole group
//! is on it within the spread (`horizon.rs`), its members one by one elsewhere. Components in no
//! group stand alone.
//!
//! Each group takes an aligned block of a power of two leaves (larger blocks first, so each is
//! aligned to its size); members keep their index order inside it, and the block's unused
//! leaves are padding that never has work.

use super::horizon::SPREAD;
use crate::time::Time;
use std::collections::BTreeMap;

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

/// Components side by side in one aligned block of leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub members: Vec<u32>,
    /// The tree node over the block (`tree` index).
    pub node: u32,
}

/// One component's nearest upstream components and their distances, in order of distance, and
/// whether the list was cut short (more components were as near as its last).
pub struct List<'a> {
    pub near: &'a [(u32, Time)],
    pub cut: bool,
}

impl Layout {
    /// Each component at the leaf of its own index (the reference schedule, and tests).
    pub fn identity(n: usize) -> Self {
        Layout::place(n, (0..n as u32).map(|c| vec![c]).collect())
    }

    /// The groups `lists` meet (see the module doc), side by side, for `n` components.
    pub fn grouped(n: usize, lists: &[List]) -> Self {
        // Every cluster of two or more, with the number of lists it saves an entry on each.
        let mut seen: BTreeMap<Vec<u32>, usize> = BTreeMap::new();
        for list in lists {
            let mut clusters = clusters(list.near);
            if list.cut {
                clusters.pop();
            }
            for cluster in clusters.into_iter().filter(|c| c.len() > 1) {
                let mut members: Vec<u32> = cluster.iter().map(|&(u, _)| u).collect();
                members.sort_unstable();
                *seen.entry(members).or_default() += 1;
            }
        }
        // The ones that save the most entries first; a component goes to one group only.
        let mut candidates: Vec<(usize, Vec<u32>)> =
            seen.into_iter().map(|(m, lists)| ((m.len() - 1) * lists, m)).collect();
        candidates.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let mut taken = vec![false; n];
        let mut blocks = Vec::new();
        for (_, members) in candidates {
            if members.iter().all(|&u| !taken[u as usize]) {
                for &u in &members {
                    taken[u as usize] = true;
                }
                blocks.push(members);
            }
        }
        blocks.extend((0..n as u32).filter(|&c| !taken[c as usize]).map(|c| vec![c]));
        Layout::place(n, blocks)
    }

    /// Each block of components in an aligned block of leaves.
    fn place(n: usize, mut blocks: Vec<Vec<u32>>) -> Self {
        // Larger blocks first (each then starts at a multiple of its size), then by first member.
        blocks.sort_by_key(|m| (std::cmp::Reverse(m.len().next_power_of_two()), m[0]));
        let total: usize = blocks.iter().map(|m| m.len().next_power_of_two()).sum();
        let leaves = total.max(1).next_power_of_two();
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

/// A list cut into runs of entries within [`SPREAD`] of the run's first distance.
pub fn clusters(list: &[(u32, Time)]) -> Vec<&[(u32, Time)]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=list.len() {
        if i == list.len() || list[i].1 - list[start].1 > list[start].1 >> SPREAD {
            out.push(&list[start..i]);
            start = i;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clusters_met_most_become_groups() {
        // Distances within 1/4096 are alike: 4096 and 4097 are, 4096 and 4098 are not.
        let a = [(0, 4096), (1, 4097), (2, 8192), (3, 8192)];
        let b = [(1, 4096), (0, 4096), (4, 4096), (2, 4098)];
        let c = [(1, 4096), (0, 4096), (4, 4096)];
        let l = Layout::grouped(6, &[List { near: &a, cut: false }, List { near: &b, cut: false }]);
        // {0, 1, 4} saves two entries on b, {0, 1} one on a: the first wins, then {2, 3}.
        assert_eq!(l.groups[l.group[0] as usize].members, vec![0, 1, 4]);
        assert_eq!(l.groups[l.group[2] as usize].members, vec![2, 3]);
        assert_eq!(l.groups[l.group[5] as usize].members, vec![5]);
        // {0, 1} on three lists (three entries saved) beats {0, 1, 4} on one (two).
        let l = Layout::grouped(
            6,
            &[
                List { near: &a, cut: false },
                List { near: &a, cut: false },
                List { near: &a, cut: false },
                List { near: &c, cut: false },
            ],
        );
        assert_eq!(l.groups[l.group[0] as usize].members, vec![0, 1]);
        assert_eq!(l.groups[l.group[4] as usize].members, vec![4]);
        // The last cluster of a cut list is left out.
        let l = Layout::grouped(6, &[List { near: &a, cut: true }]);
        assert_eq!(l.groups[l.group[0] as usize].members, vec![0, 1]);
        assert_eq!(l.groups[l.group[2] as usize].members, vec![2]);
    }

    #[test]
    fn every_group_fills_its_own_aligned_block() {
        let a: Vec<(u32, Time)> = (0..5).map(|u| (u, 1_000_000 + u64::from(u))).collect();
        let b: Vec<(u32, Time)> = (5..8).map(|u| (u, 2_000_000 + u64::from(u))).collect();
        let l = Layout::grouped(9, &[List { near: &a, cut: false }, List { near: &b, cut: false }]);
        // Blocks of 8 and 4, then 8 alone: 13 leaves in 16.
        assert_eq!(l.leaves, 16);
        let mut seen = vec![false; l.leaves];
        for g in &l.groups {
            let size = g.members.len().next_power_of_two();
            let first = g.node as usize * size - l.leaves;
            for (i, &c) in g.members.iter().enumerate() {
                assert_eq!(l.slot[c as usize] as usize, first + i);
                assert_eq!(l.groups[l.group[c as usize] as usize], *g);
            }
            for s in seen.iter_mut().skip(first).take(size) {
                assert!(!*s, "blocks overlap");
                *s = true;
            }
        }
        assert_eq!(l.groups[l.group[0] as usize].members, vec![0, 1, 2, 3, 4]);
        assert_eq!(l.groups[l.group[6] as usize].members, vec![5, 6, 7]);
    }

    #[test]
    fn identity_keeps_index_order() {
        let l = Layout::identity(5);
        assert_eq!(l.leaves, 8);
        assert_eq!(l.slot, vec![0, 1, 2, 3, 4]);
        assert_eq!(l.groups[l.group[3] as usize], Group { members: vec![3], node: 11 });
    }
}
