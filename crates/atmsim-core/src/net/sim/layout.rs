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
//!
//! When the components in no group would take the tree past a power of two (the N-source
//! networks: four groups of 5 fill 32 leaves, the two trunk ports make it 64), they are
//! *guests* in the groups' padding leaves instead: one level less for every pop, re-key and wake.
//! A guest's key is then under its host group's node too. A list still reads the group as one
//! entry where that changes nothing: where each guest is on the list no farther than the group,
//! so that the guest's own entry is never above what it adds to the node's (`horizon.rs`);
//! elsewhere it reads the members' aligned sub-blocks ([`Layout::cover`]). Guests go where they
//! cost the fewest such lists (in the bench networks: each trunk port in the block of the group
//! just upstream of it, which only its own list reads closer than itself).

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
    /// Components in no group kept in the block's leaves past the members (see the module
    /// doc): the node's key is the smallest of theirs too.
    pub guests: Vec<u32>,
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
        Layout::place(n, (0..n as u32).map(|c| (vec![c], Vec::new())).collect())
    }

    /// The groups `lists` meet (see the module doc), side by side, for `n` components;
    /// `guests`: components in no group may fill the groups' padding (see the module doc).
    pub fn grouped(n: usize, lists: &[List], guests: bool) -> Self {
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
        let alone: Vec<u32> = (0..n as u32).filter(|&c| !taken[c as usize]).collect();
        let guests =
            if guests { Layout::guests(&blocks, &alone, lists) } else { vec![Vec::new(); blocks.len()] };
        let hosted: Vec<u32> = guests.iter().flatten().copied().collect();
        let mut blocks: Vec<(Vec<u32>, Vec<u32>)> = blocks.into_iter().zip(guests).collect();
        blocks.extend(alone.iter().filter(|c| !hosted.contains(c)).map(|&c| (vec![c], Vec::new())));
        Layout::place(n, blocks)
    }

    /// Per group (`blocks`), the components of `alone` to keep in its padding leaves: none
    /// unless that makes the tree smaller; then as few as that takes, each where it costs the
    /// fewest lists on which the group would no longer be one entry (`Layout::whole`; each
    /// guest's cost counted as if it were its block's only one).
    fn guests(blocks: &[Vec<u32>], alone: &[u32], lists: &[List]) -> Vec<Vec<u32>> {
        let mut guests = vec![Vec::new(); blocks.len()];
        let room: Vec<usize> = blocks.iter().map(|m| m.len().next_power_of_two() - m.len()).collect();
        let grouped: usize = blocks.iter().map(|m| m.len().next_power_of_two()).sum();
        let target = grouped.max(1).next_power_of_two();
        let Some(need) = (grouped + alone.len()).checked_sub(target) else { return guests };
        // Set-up time stays linear in the lists: no search over many candidates.
        if need == 0 || need > room.iter().sum() || alone.len() * blocks.len() > 1 << 12 {
            return guests;
        }
        let mut block = BTreeMap::new();
        for (g, m) in blocks.iter().enumerate() {
            block.extend(m.iter().map(|&u| (u, g)));
        }
        let lone: BTreeMap<u32, usize> = alone.iter().enumerate().map(|(i, &x)| (x, i)).collect();
        // Per group, the lists that read it as one entry; per (guest, group), those of them on
        // which the guest is no farther than the group (its entry on them would change nothing).
        let mut spanned = vec![0usize; blocks.len()];
        let mut harmless: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        for list in lists {
            let mut on: BTreeMap<usize, (usize, Time, Time)> = BTreeMap::new();
            for &(u, d) in list.near {
                if let Some(&g) = block.get(&u) {
                    let e = on.entry(g).or_insert((0, d, d));
                    e.0 += 1;
                    e.2 = d;
                }
            }
            for (&g, &(count, first, last)) in &on {
                if count == blocks[g].len() && count > 1 && last - first <= first >> SPREAD {
                    spanned[g] += 1;
                    for &(x, _) in list.near.iter().take_while(|e| e.1 <= first) {
                        if let Some(&i) = lone.get(&x) {
                            *harmless.entry((i, g)).or_default() += 1;
                        }
                    }
                }
            }
        }
        let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
        for i in 0..alone.len() {
            for g in (0..blocks.len()).filter(|&g| room[g] > 0) {
                pairs.push((spanned[g] - harmless.get(&(i, g)).copied().unwrap_or(0), i, g));
            }
        }
        pairs.sort_unstable();
        let (mut left, mut placed) = (room, vec![false; alone.len()]);
        for (_, i, g) in pairs {
            if placed.iter().filter(|&&p| p).count() == need {
                break;
            }
            if !placed[i] && left[g] > 0 {
                placed[i] = true;
                left[g] -= 1;
                guests[g].push(alone[i]);
            }
        }
        guests
    }

    /// Whether a list that holds all of a group's members, the nearest at `first`, may read
    /// the group's node as one entry although `guests` share its block: each guest is on the
    /// list no farther than `first`, so its own entry, read no later, already bounds what its
    /// key adds to the node's.
    pub fn whole(guests: &[u32], first: Time, list: &[(u32, Time)]) -> bool {
        guests.iter().all(|x| list.iter().any(|&(u, d)| u == *x && d <= first))
    }

    /// The tree node of the largest aligned block of `c`'s group's members alone (no guest)
    /// that holds `c`: the members fill the first leaves of their block, so they split into
    /// blocks of the powers of two of their count, largest first.
    pub fn cover(&self, c: u32) -> u32 {
        let g = &self.groups[self.group[c as usize] as usize];
        let at = self.slot[g.members[0] as usize] as usize;
        let i = self.slot[c as usize] as usize - at;
        let (mut start, mut size) = (0, g.members.len().next_power_of_two());
        loop {
            if g.members.len() - start >= size {
                if i < start + size {
                    // `at + start` is a multiple of `size`: the sizes before it are larger.
                    return ((self.leaves + at + start) / size) as u32;
                }
                start += size;
            }
            size /= 2;
        }
    }

    /// Each block of components (members, guests) in an aligned block of leaves.
    fn place(n: usize, mut blocks: Vec<(Vec<u32>, Vec<u32>)>) -> Self {
        // Larger blocks first (each then starts at a multiple of its size), then by first member.
        blocks.sort_by_key(|(m, _)| (std::cmp::Reverse(m.len().next_power_of_two()), m[0]));
        let total: usize = blocks.iter().map(|(m, _)| m.len().next_power_of_two()).sum();
        let leaves = total.max(1).next_power_of_two();
        let (mut slot, mut group) = (vec![0; n], vec![0; n]);
        let mut groups = Vec::with_capacity(blocks.len());
        let mut at = 0;
        for (m, guests) in blocks {
            let size = m.len().next_power_of_two();
            debug_assert!(m.len() + guests.len() <= size);
            for (i, &c) in m.iter().enumerate() {
                slot[c as usize] = (at + i) as u32;
                group[c as usize] = groups.len() as u32;
            }
            // The node over leaves `leaves + at .. + size`: `size` divides `at` and `leaves`.
            let node = ((leaves + at) / size) as u32;
            let first_guest = at + m.len();
            groups.push(Group { members: m, node, guests: guests.clone() });
            // Each guest is a group of its own at its leaf, past the members.
            for (i, x) in guests.into_iter().enumerate() {
                slot[x as usize] = (first_guest + i) as u32;
                group[x as usize] = groups.len() as u32;
                groups.push(Group {
                    members: vec![x],
                    node: (leaves + first_guest + i) as u32,
                    guests: Vec::new(),
                });
            }
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
        let l = Layout::grouped(6, &[List { near: &a, cut: false }, List { near: &b, cut: false }], true);
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
            true,
        );
        assert_eq!(l.groups[l.group[0] as usize].members, vec![0, 1]);
        assert_eq!(l.groups[l.group[4] as usize].members, vec![4]);
        // The last cluster of a cut list is left out.
        let l = Layout::grouped(6, &[List { near: &a, cut: true }], true);
        assert_eq!(l.groups[l.group[0] as usize].members, vec![0, 1]);
        assert_eq!(l.groups[l.group[2] as usize].members, vec![2]);
    }

    #[test]
    fn every_group_fills_its_own_aligned_block() {
        let a: Vec<(u32, Time)> = (0..5).map(|u| (u, 1_000_000 + u64::from(u))).collect();
        let b: Vec<(u32, Time)> = (5..8).map(|u| (u, 2_000_000 + u64::from(u))).collect();
        let l = Layout::grouped(9, &[List { near: &a, cut: false }, List { near: &b, cut: false }], true);
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
    fn lone_components_fill_padding_only_to_shrink_the_tree_and_where_it_costs_least() {
        // Two groups of 5 (blocks of 8: 16 leaves) and three alone: 19 leaves, a tree of 32.
        let a: Vec<(u32, Time)> = (0..5).map(|u| (u, 1000)).collect();
        let b: Vec<(u32, Time)> = (5..10).map(|u| (u, 2000)).collect();
        // 10 is nearer than group a on one list, farther on another; 11 and 12 are on no list.
        let mut a10 = vec![(10, 900)];
        a10.extend(&a);
        let mut a10b = a.clone();
        a10b.push((10, 1500));
        let lists = [
            List { near: &a10, cut: false },
            List { near: &a10b, cut: false },
            List { near: &b, cut: false },
        ];
        let l = Layout::grouped(13, &lists, true);
        assert_eq!(l.leaves, 16, "three guests in the six padding leaves");
        let ga = &l.groups[l.group[0] as usize];
        let gb = &l.groups[l.group[5] as usize];
        assert_eq!(ga.guests.len() + gb.guests.len(), 3);
        // Group b is read as one entry on one list, which holds no guest: any guest costs one.
        // Group a on two: 10 costs it one (the list where 10 is farther), 11 and 12 two each.
        assert!(ga.guests.contains(&10), "{:?} {:?}", ga.guests, gb.guests);
        for g in [ga, gb] {
            let size = g.members.len().next_power_of_two();
            let first = g.node as usize * size - l.leaves;
            for (i, &x) in g.guests.iter().enumerate() {
                assert_eq!(l.slot[x as usize] as usize, first + g.members.len() + i, "past the members");
                assert_eq!(
                    l.groups[l.group[x as usize] as usize].node as usize,
                    l.leaves + l.slot[x as usize] as usize
                );
            }
            // Covers: members 0-3 under one node of 4, the fifth alone; no guest under either.
            let four = (l.leaves + first) / 4;
            for &m in &g.members[..4] {
                assert_eq!(l.cover(m) as usize, four);
            }
            assert_eq!(l.cover(g.members[4]) as usize, l.leaves + first + 4);
        }
        assert!(Layout::whole(&[10], 1000, &a10) && !Layout::whole(&[10], 1000, &a10b));
        // None when not asked for, nor when the padding cannot make the tree smaller (one block
        // of 8 and six alone: 14 leaves, 16 with or without three guests).
        let l = Layout::grouped(13, &lists, false);
        assert_eq!(l.leaves, 32);
        assert!(l.groups.iter().all(|g| g.guests.is_empty()));
        let l = Layout::grouped(11, &[List { near: &a, cut: false }], true);
        assert_eq!(l.leaves, 16);
        assert!(l.groups.iter().all(|g| g.guests.is_empty()));
    }

    #[test]
    fn identity_keeps_index_order() {
        let l = Layout::identity(5);
        assert_eq!(l.leaves, 8);
        assert_eq!(l.slot, vec![0, 1, 2, 3, 4]);
        assert_eq!(l.groups[l.group[3] as usize], Group { members: vec![3], node: 11, guests: Vec::new() });
    }
}
