//! The global scheduler: one key per component, a heap ordered by (time, sequence).
//!
//! Keys are lowered by [`Sched::wake`] and reset by [`Sched::set`]; the heap keeps stale entries
//! and skips them when popped (an entry is live only if it still equals its component's key). The
//! sequence number makes ties deterministic: equal times pop in the order they were scheduled.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::time::{Time, NEVER};

#[derive(Debug, Default)]
pub struct Sched {
    key: Vec<Time>,
    heap: BinaryHeap<Reverse<(Time, u64, u32)>>,
    seq: u64,
}

impl Sched {
    pub fn new(components: usize) -> Self {
        Sched { key: vec![NEVER; components], heap: BinaryHeap::new(), seq: 0 }
    }

    /// Component `c` has work at `t` (keeps an earlier key).
    #[inline]
    pub fn wake(&mut self, c: u32, t: Time) {
        if t < self.key[c as usize] {
            self.set(c, t);
        }
    }

    /// Component `c`'s earliest work is at `t` (NEVER: none).
    #[inline]
    pub fn set(&mut self, c: u32, t: Time) {
        self.key[c as usize] = t;
        if t != NEVER {
            self.seq += 1;
            self.heap.push(Reverse((t, self.seq, c)));
        }
    }

    /// The component with the earliest key, if that key is before `end`.
    pub fn pop_before(&mut self, end: Time) -> Option<(Time, u32)> {
        while let Some(&Reverse((t, _, c))) = self.heap.peek() {
            if t >= end {
                return None;
            }
            self.heap.pop();
            if self.key[c as usize] == t {
                self.key[c as usize] = NEVER;
                return Some((t, c));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_pop_in_schedule_order_and_stale_entries_are_skipped() {
        let mut s = Sched::new(3);
        s.set(2, 10);
        s.set(0, 10);
        s.set(1, 20);
        s.wake(1, 5);
        s.wake(1, 7); // later than its key: ignored
        assert_eq!(s.pop_before(100), Some((5, 1)));
        assert_eq!(s.pop_before(100), Some((10, 2)));
        assert_eq!(s.pop_before(100), Some((10, 0)));
        assert_eq!(s.pop_before(100), None); // the stale (20, 1) entry
    }

    #[test]
    fn nothing_at_or_after_end() {
        let mut s = Sched::new(1);
        s.set(0, 100);
        assert_eq!(s.pop_before(100), None);
    }
}
