//! The global scheduler: one key per component, in a tournament (winner) tree.
//!
//! The components are the leaves of a complete binary tree (padded to a power of two with
//! leaves that never win); every inner node holds the winner of its two children, the
//! (key, component) pair with the smaller key, and the root holds the component with the
//! earliest work. A component whose key goes to `NEVER` simply keeps that key: it never wins
//! while any other component has work, so there is nothing to remove and re-insert when an idle
//! component is woken again.
//!
//! [`Sched::set`] rewrites one leaf and replays the matches on its path to the root, and stops
//! as soon as a node's winner comes out as it was (everything above is then unchanged). A
//! binary heap moves an entry by sifting, with a position array kept up to date at every swap
//! and a choice between two children at every level; here a level is one load of the sibling
//! and one comparison, and `set` never moves another component's entry.
//!
//! Equal keys go to the lower component index (key and index are compared as one number). Tie order
//! cannot change a result: a component popped at `t` processes only work before its horizon,
//! a time no other component's work at `t` can reach before (`Sim::horizon`).

use crate::time::{Time, NEVER};

/// A node of the tree: the key in the high 64 bits and the component in the low 32, so that
/// one unsigned comparison orders by key and then by index.
type Entry = u128;

#[inline(always)]
fn entry(t: Time, c: u32) -> Entry {
    (t as Entry) << 64 | c as Entry
}

#[derive(Debug)]
pub struct Sched {
    /// Leaves: the first index of the bottom row (a power of two, at least 1).
    leaves: usize,
    /// `tree[1]` is the root, node `i`'s children are `2i` and `2i + 1`, component `c`'s leaf is
    /// `leaves + c`. Each node holds the winner below it. `tree[0]` is unused.
    tree: Vec<Entry>,
}

impl Sched {
    pub fn new(components: usize) -> Self {
        let leaves = components.max(1).next_power_of_two();
        let mut tree = vec![0; 2 * leaves];
        // Padding leaves carry indices past the components': they lose every tie.
        for c in 0..leaves {
            tree[leaves + c] = entry(NEVER, c as u32);
        }
        for i in (1..leaves).rev() {
            tree[i] = tree[2 * i].min(tree[2 * i + 1]);
        }
        Sched { leaves, tree }
    }

    /// Component `c`'s key: its earliest work (`NEVER`: none).
    #[inline]
    pub fn key(&self, c: u32) -> Time {
        (self.tree[self.leaves + c as usize] >> 64) as Time
    }

    /// Component `c` has work at `t` (keeps an earlier key).
    #[inline]
    pub fn wake(&mut self, c: u32, t: Time) {
        if t < self.key(c) {
            self.set(c, t);
        }
    }

    /// Component `c`'s earliest work is at `t` (NEVER: none).
    #[inline]
    pub fn set(&mut self, c: u32, t: Time) {
        let tree = &mut self.tree[..];
        let mut i = self.leaves + c as usize;
        let mut w = entry(t, c);
        tree[i] = w;
        while i > 1 {
            w = w.min(tree[i ^ 1]);
            i >>= 1;
            if tree[i] == w {
                return;
            }
            tree[i] = w;
        }
    }

    /// [`Sched::set`] for the component [`Sched::first_before`] just named, which wins every match
    /// on its path: all of them are replayed, without looking for one that comes out unchanged.
    #[inline]
    pub fn set_first(&mut self, c: u32, t: Time) {
        debug_assert_eq!(self.tree[1] as u32, c, "set_first on the winner only");
        let tree = &mut self.tree[..];
        // The length is a power of two: masked indices need no bounds check, and change nothing
        // (every index on the path is below it).
        let mask = tree.len() - 1;
        let mut i = self.leaves + c as usize;
        let mut w = entry(t, c);
        tree[i] = w;
        while i > 1 {
            w = w.min(tree[(i ^ 1) & mask]);
            i >>= 1;
            tree[i & mask] = w;
        }
    }

    /// The component with the earliest key, if that key is before `end`; its key becomes `NEVER`.
    #[inline]
    pub fn pop_before(&mut self, end: Time) -> Option<(Time, u32)> {
        let first = self.first_before(end)?;
        self.set_first(first.1, NEVER);
        Some(first)
    }

    /// The component with the earliest key, if that key is before `end`, left in place: the
    /// caller advances it and then [`Sched::set_first`]s its new key. Nothing can wake it to an
    /// earlier time meanwhile: every other component's work is at or after its key.
    #[inline]
    pub fn first_before(&self, end: Time) -> Option<(Time, u32)> {
        let root = self.tree[1];
        let t = (root >> 64) as Time;
        (t < end).then_some((t, root as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_go_to_the_lower_index_and_a_popped_component_is_gone() {
        let mut s = Sched::new(3);
        s.set(2, 10);
        s.set(0, 10);
        s.set(1, 20);
        s.wake(1, 5);
        s.wake(1, 7); // later than its key: ignored
        assert_eq!(s.key(1), 5);
        assert_eq!(s.pop_before(100), Some((5, 1)));
        assert_eq!(s.pop_before(100), Some((10, 0)));
        assert_eq!(s.pop_before(100), Some((10, 2)));
        assert_eq!(s.pop_before(100), None); // 1 was popped at 5: nothing of it is left
    }

    #[test]
    fn keys_move_both_ways_and_the_tree_pops_in_key_order() {
        // Deterministic pseudo-random sets, wakes and pops against a plain scan, for sizes with
        // and without padding leaves (one component, a power of two, one past it).
        for n in [1usize, 2, 16, 17, 37] {
            let mut s = Sched::new(n);
            let mut key = vec![NEVER; n];
            let mut x: u64 = 12345 + n as u64;
            for _ in 0..20_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let c = ((x >> 33) % n as u64) as u32;
                let t = (x >> 45) % 1000;
                match (x >> 20) % 4 {
                    0 => {
                        s.set(c, t);
                        key[c as usize] = t;
                    }
                    1 => {
                        s.set(c, NEVER);
                        key[c as usize] = NEVER;
                    }
                    2 => {
                        s.wake(c, t);
                        key[c as usize] = key[c as usize].min(t);
                    }
                    _ => {
                        // The brute-force winner: the smallest key, the lowest index among equals.
                        let want = (0..n).map(|i| (key[i], i as u32)).min().unwrap();
                        match s.pop_before(900) {
                            Some(got) => {
                                assert_eq!(got, want);
                                key[got.1 as usize] = NEVER;
                            }
                            None => assert!(want.0 >= 900),
                        }
                    }
                }
                for (i, &k) in key.iter().enumerate() {
                    assert_eq!(s.key(i as u32), k);
                }
            }
        }
    }

    #[test]
    fn nothing_at_or_after_end() {
        let mut s = Sched::new(1);
        assert_eq!(s.first_before(NEVER), None, "no work at all");
        s.set(0, 100);
        assert_eq!(s.pop_before(100), None);
        assert_eq!(s.first_before(101), Some((100, 0)));
    }
}
