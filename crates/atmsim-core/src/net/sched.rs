//! The global scheduler: one key per component, in a tournament tree of keys.
//!
//! The components are the leaves of a complete binary tree (padded to a power of two with
//! leaves that never have work); every inner node holds the smaller key of its two children, so
//! the root holds the earliest key of all. A component whose key goes to `NEVER` simply keeps
//! that key: nothing is removed, and nothing re-inserted when an idle component is woken again.
//!
//! [`Sched::set`] rewrites one leaf and replays the minimum on its path to the root, one load of
//! the sibling and one comparison per level, and stops at the first node whose minimum comes
//! out as it was (everything above is then unchanged); it never moves another component's entry
//! and keeps no position array, where a binary heap sifts with a choice between two children at
//! every level and updates positions at every swap. [`Sched::first_before`] finds the winner
//! from the root down, taking the left child when its minimum is the root's. The simulator's
//! loop is built for the depth of its tree ([`Sched::first_before_at`], [`Sched::set_first_at`]):
//! both walks are then unrolled, a compare, a load and a write per level without a loop test or
//! index arithmetic (LAN 5: 6 levels, about 30 instructions less per batch).
//!
//! Equal keys therefore go to the lower index. The indices are the simulator's *slots*: it
//! places alike components side by side (`sim/layout.rs`), so that the node over their block
//! holds their earliest key, which the horizon scan reads as one entry. Tie order cannot change
//! a result: a component popped at `t` processes only work before its horizon, a time no other
//! component's work at `t` can reach before (`Sim::horizon`); the reports of every shipped and
//! bench scenario are identical to those of the binary heap, which took equal keys in the order
//! they were set, and to those of slots in component order.

use super::merge::InputMarks;
use crate::time::{Time, NEVER};

#[derive(Debug)]
pub struct Sched {
    /// Leaves: the first index of the bottom row (a power of two, at least 1).
    leaves: usize,
    /// `tree[1]` is the root, node `i`'s children are `2i` and `2i + 1`, component `c`'s leaf is
    /// `leaves + c`. Each node holds the smallest key below it; the winner is found from the
    /// root down (the left child on ties). `tree[0]` is unused.
    tree: Vec<Time>,
    /// Which inputs of the components with several may hold cells (`merge.rs`): the key says
    /// when a component has work, the marks where its cells are. Set as a host sends and after
    /// each batch of a port, read and cleared at the start of a consumer's batch.
    pub marks: InputMarks,
}

impl Sched {
    pub fn new(components: usize) -> Self {
        let leaves = Sched::leaves_for(components);
        // Padding leaves never have work: past the components, they lose every tie.
        Sched { leaves, tree: vec![NEVER; 2 * leaves], marks: InputMarks::default() }
    }

    /// The first leaf index of a tree for `components` components.
    pub fn leaves_for(components: usize) -> usize {
        components.max(1).next_power_of_two()
    }

    /// The first leaf index of this tree (`tree` index of component 0).
    pub fn leaves(&self) -> usize {
        self.leaves
    }

    /// The tree's depth: `leaves == 1 << depth`. The simulator runs its loop for the depth of
    /// its tree ([`Sched::first_before_at`], [`Sched::set_first_at`]: the walks unrolled).
    pub fn depth(&self) -> u32 {
        self.leaves.trailing_zeros()
    }

    /// The tree: node `i` holds the smallest key below it (a leaf: that component's key).
    #[inline]
    pub fn tree(&self) -> &[Time] {
        &self.tree
    }

    /// Component `c`'s key: its earliest work (`NEVER`: none).
    #[inline]
    pub fn key(&self, c: u32) -> Time {
        self.tree[self.leaves + c as usize]
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
        self.update::<true>(c, t);
    }

    /// [`Sched::set`] for the component [`Sched::first_before`] just named. Its key was the
    /// smallest, so every node on its path held it: each is rewritten (no test for an
    /// unchanged minimum, which would fail at every level but where another key ties).
    #[inline]
    pub fn set_first(&mut self, c: u32, t: Time) {
        self.update::<false>(c, t);
    }

    /// [`Sched::set_first`] in a tree of depth `D` (`ANY_DEPTH`: any): the climb unrolled.
    #[inline(always)]
    pub fn set_first_at<const D: u32>(&mut self, c: u32, t: Time) {
        if D == ANY_DEPTH {
            return self.set_first(c, t);
        }
        assert!(self.leaves + (c as usize) < self.tree.len(), "a component of the tree");
        // SAFETY: asserted just above.
        unsafe { self.set_first_at_unchecked::<D>(c, t) }
    }

    /// [`Sched::set_first_at`] without its check (the simulator's loop makes one per batch for
    /// both walks: [`Sched::fits`]).
    ///
    /// # Safety
    /// `self.leaves() + c < self.tree().len()` (with `D` not `ANY_DEPTH`: where
    /// `self.fits::<D>()`, any `c` below `1 << D`).
    #[inline(always)]
    pub unsafe fn set_first_at_unchecked<const D: u32>(&mut self, c: u32, t: Time) {
        if D == ANY_DEPTH {
            return self.set_first(c, t);
        }
        debug_assert_eq!(self.depth(), D);
        let tree = &mut self.tree[..];
        let mut i = self.leaves + c as usize;
        let mut m = t;
        // `i < tree.len()` from here on (see `sibling`). In a tree of another depth the walk
        // would stop short of the root or rewrite `tree[0]` (unused), never leave the tree.
        // SAFETY: the caller.
        unsafe { *tree.get_unchecked_mut(i) = m };
        for _ in 0..D {
            m = m.min(Sched::sibling(tree, i));
            i >>= 1;
            // SAFETY: `i` halved from an index below `tree.len()`.
            unsafe { *tree.get_unchecked_mut(i) = m };
        }
    }

    /// Write `t` at `c`'s leaf and the minima on its path to the root; with `STOP_UNCHANGED`,
    /// stop at the first node whose minimum does not change (everything above it holds).
    #[inline(always)]
    fn update<const STOP_UNCHANGED: bool>(&mut self, c: u32, t: Time) {
        let tree = &mut self.tree[..];
        let mut i = self.leaves + c as usize;
        let mut m = t;
        // Bounds-checked once: `i < tree.len()` from here on (see `sibling`).
        tree[i] = m;
        while i > 1 {
            m = m.min(Sched::sibling(tree, i));
            i >>= 1;
            // SAFETY: `i` halved from an index below `tree.len()`.
            let node = unsafe { tree.get_unchecked_mut(i) };
            if STOP_UNCHANGED && *node == m {
                return;
            }
            *node = m;
        }
    }

    /// The key of node `i`'s sibling, for an `i` in `1..tree.len()`.
    #[inline(always)]
    fn sibling(tree: &[Time], i: usize) -> Time {
        debug_assert!(i < tree.len() && tree.len().is_multiple_of(2));
        // SAFETY: the tree has `2 * leaves` nodes, an even number, so `i < tree.len()` (the
        // callers' bounds-checked write at the leaf, then only halving) gives `i ^ 1 < tree.len()`.
        unsafe { *tree.get_unchecked(i ^ 1) }
    }

    /// The component with the earliest key, if that key is before `end`; its key becomes `NEVER`.
    #[inline]
    pub fn pop_before(&mut self, end: Time) -> Option<(Time, u32)> {
        let first = self.first_before(end)?;
        self.set_first(first.1, NEVER);
        Some(first)
    }

    /// The component with the earliest key (the lowest index among equal keys), if that key is
    /// before `end`, left in place: the caller advances it and then [`Sched::set_first`]s its
    /// new key. Nothing can wake it to an earlier time meanwhile: every other component's work
    /// is at or after its key.
    #[inline]
    pub fn first_before(&self, end: Time) -> Option<(Time, u32)> {
        let t = self.tree[1];
        if t >= end {
            return None;
        }
        let mut i = 1;
        while i < self.leaves {
            // SAFETY: `i < leaves`, so `2 * i + 1 < 2 * leaves == tree.len()`.
            let left = unsafe { *self.tree.get_unchecked(2 * i) };
            i = 2 * i + usize::from(left != t);
        }
        Some((t, (i - self.leaves) as u32))
    }

    /// [`Sched::first_before`] in a tree of depth `D` (`ANY_DEPTH`: any): the walk unrolled.
    #[inline(always)]
    pub fn first_before_at<const D: u32>(&self, end: Time) -> Option<(Time, u32)> {
        assert!(self.fits::<D>(), "a tree of depth {D}");
        // SAFETY: asserted just above.
        unsafe { self.first_before_at_unchecked::<D>(end) }
    }

    /// The tree is one of depth `D` (`ANY_DEPTH`: any tree): the walks for depth `D` stay in
    /// it, and the component [`Sched::first_before_at`] names is one of its leaves.
    #[inline(always)]
    pub fn fits<const D: u32>(&self) -> bool {
        D == ANY_DEPTH || self.tree.len() == 2 << D
    }

    /// [`Sched::first_before_at`] without its check (the simulator's loop makes one per batch
    /// for both walks). With `D` not `ANY_DEPTH`, the component named is below `1 << D`.
    ///
    /// # Safety
    /// `self.fits::<D>()`.
    #[inline(always)]
    pub unsafe fn first_before_at_unchecked<const D: u32>(&self, end: Time) -> Option<(Time, u32)> {
        if D == ANY_DEPTH {
            return self.first_before(end);
        }
        debug_assert_eq!(self.depth(), D);
        // Every node the walk reads is below `2 << D` (`i < 1 << D` before each step).
        debug_assert!(self.tree.len() >= 2 << D, "a tree of depth {D}");
        // SAFETY: `1 < 2 << D <= tree.len()` (the caller).
        let t = unsafe { *self.tree.get_unchecked(1) };
        if t >= end {
            return None;
        }
        let mut i = 1;
        for _ in 0..D {
            // SAFETY: `i < 1 << D`, so `2 * i + 1 < 2 << D <= tree.len()`.
            let left = unsafe { *self.tree.get_unchecked(2 * i) };
            i = 2 * i + usize::from(left != t);
        }
        Some((t, (i - (1 << D)) as u32))
    }
}

/// "A tree of any depth" for [`Sched::first_before_at`] and [`Sched::set_first_at`]: the
/// walks as loops.
pub const ANY_DEPTH: u32 = u32::MAX;

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

    /// Pop (the first, then its new key) with the walks unrolled for depth `D`.
    fn pop_at<const D: u32>(s: &mut Sched, end: Time, next: Time) -> Option<(Time, u32)> {
        let first = s.first_before_at::<D>(end)?;
        s.set_first_at::<D>(first.1, next);
        Some(first)
    }

    #[test]
    fn the_unrolled_walks_pop_as_the_loops() {
        // Two trees under the same random sets and wakes; pops re-key the popped component
        // (sometimes to NEVER), one tree by the loops, the other by the walks for its depth;
        // every node must agree after every operation.
        for n in [1usize, 2, 5, 16, 17, 37] {
            let (mut a, mut b) = (Sched::new(n), Sched::new(n));
            let mut x: u64 = 99 + n as u64;
            for _ in 0..20_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let c = ((x >> 33) % n as u64) as u32;
                let t = (x >> 45) % 1000;
                match (x >> 20) % 3 {
                    0 => {
                        a.set(c, t);
                        b.set(c, t);
                    }
                    1 => {
                        a.wake(c, t);
                        b.wake(c, t);
                    }
                    _ => {
                        let next = if (x >> 12).is_multiple_of(4) { NEVER } else { 900 + t };
                        let want = a.first_before(950).inspect(|f| a.set_first(f.1, next));
                        let got = match b.depth() {
                            0 => pop_at::<0>(&mut b, 950, next),
                            1 => pop_at::<1>(&mut b, 950, next),
                            3 => pop_at::<3>(&mut b, 950, next),
                            4 => pop_at::<4>(&mut b, 950, next),
                            5 => pop_at::<5>(&mut b, 950, next),
                            6 => pop_at::<6>(&mut b, 950, next),
                            d => panic!("depth {d}"),
                        };
                        assert_eq!(got, want);
                    }
                }
                assert_eq!(a.tree, b.tree, "n = {n}");
            }
        }
    }

    #[test]
    fn only_a_tree_of_the_depth_fits_its_walks() {
        // The simulator's loop checks `fits` once for both unchecked walks.
        let s = Sched::new(5);
        assert!(s.fits::<3>() && s.fits::<ANY_DEPTH>());
        assert!(!s.fits::<2>() && !s.fits::<4>());
        let caught = std::panic::catch_unwind(|| Sched::new(5).first_before_at::<4>(NEVER)).is_err();
        assert!(caught, "a walk for another depth");
        let caught = std::panic::catch_unwind(|| Sched::new(4).set_first_at::<2>(4, 0)).is_err();
        assert!(caught, "a leaf past the tree");
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
