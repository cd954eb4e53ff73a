//! The global scheduler: one key per component, in an indexed binary heap ordered by
//! (time, sequence).
//!
//! Each component is in the heap at most once, at its current key: [`Sched::wake`] lowers a key
//! in place and [`Sched::set`] moves it either way (or takes the component out for `NEVER`), so
//! the heap never holds more entries than there are components and a pop never meets a stale one.
//! The sequence number makes ties deterministic: equal times pop in the order they were set.
//! (Tie order cannot change a result: a component popped at `t` only processes work before
//! `t + L`, and nothing another component does at `t` can reach it before then.)

use crate::time::{Time, NEVER};

/// Position meaning "not in the heap".
const OUT: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct Sched {
    key: Vec<Time>,
    /// Per component: its index in `heap`, or `OUT`.
    pos: Vec<u32>,
    /// (time, sequence, component), a binary min-heap on (time, sequence).
    heap: Vec<(Time, u64, u32)>,
    seq: u64,
}

impl Sched {
    pub fn new(components: usize) -> Self {
        Sched {
            key: vec![NEVER; components],
            pos: vec![OUT; components],
            heap: Vec::with_capacity(components),
            seq: 0,
        }
    }

    /// Component `c`'s key: its earliest work (`NEVER`: none).
    #[inline]
    pub fn key(&self, c: u32) -> Time {
        self.key[c as usize]
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
        let ci = c as usize;
        let old = self.key[ci];
        self.key[ci] = t;
        let at = self.pos[ci];
        if at != OUT && t == old {
            // Already queued at `t`: it keeps its place among equal times.
            return;
        }
        if t == NEVER {
            if at != OUT {
                self.remove(at as usize);
            }
            return;
        }
        self.seq += 1;
        let entry = (t, self.seq, c);
        if at == OUT {
            self.heap.push(entry);
            self.pos[ci] = (self.heap.len() - 1) as u32;
            self.up(self.heap.len() - 1);
        } else {
            self.heap[at as usize] = entry;
            if t < old {
                self.up(at as usize);
            } else {
                self.down(at as usize);
            }
        }
    }

    /// The component with the earliest key, if that key is before `end`; its key becomes `NEVER`.
    #[inline]
    pub fn pop_before(&mut self, end: Time) -> Option<(Time, u32)> {
        let &(t, _, c) = self.heap.first()?;
        if t >= end {
            return None;
        }
        self.remove(0);
        self.key[c as usize] = NEVER;
        Some((t, c))
    }

    /// The component with the earliest key, if that key is before `end`, left in place: the
    /// caller advances it and then [`Sched::set`]s its new key, which moves it down from the top
    /// in one pass (no removal and reinsertion). Nothing can wake it to an earlier time meanwhile:
    /// every other component's work is at or after its key.
    #[inline]
    pub fn first_before(&self, end: Time) -> Option<(Time, u32)> {
        let &(t, _, c) = self.heap.first()?;
        (t < end).then_some((t, c))
    }

    fn remove(&mut self, i: usize) {
        let gone = self.heap[i].2;
        self.pos[gone as usize] = OUT;
        let last = self.heap.pop().expect("non-empty");
        if i < self.heap.len() {
            let moved_up = last < self.heap[i];
            self.heap[i] = last;
            self.pos[last.2 as usize] = i as u32;
            if moved_up {
                self.up(i);
            } else {
                self.down(i);
            }
        }
    }

    #[inline]
    fn up(&mut self, mut i: usize) {
        let e = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if (p.0, p.1) <= (e.0, e.1) {
                break;
            }
            self.heap[i] = p;
            self.pos[p.2 as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = e;
        self.pos[e.2 as usize] = i as u32;
    }

    #[inline]
    fn down(&mut self, mut i: usize) {
        let n = self.heap.len();
        let e = self.heap[i];
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let m = if r < n && (self.heap[r].0, self.heap[r].1) < (self.heap[l].0, self.heap[l].1) {
                r
            } else {
                l
            };
            let child = self.heap[m];
            if (e.0, e.1) <= (child.0, child.1) {
                break;
            }
            self.heap[i] = child;
            self.pos[child.2 as usize] = i as u32;
            i = m;
        }
        self.heap[i] = e;
        self.pos[e.2 as usize] = i as u32;
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
        assert_eq!(s.pop_before(100), None); // 1 was popped at 5: nothing of it is left
    }

    #[test]
    fn keys_move_both_ways_and_the_heap_pops_in_key_order() {
        // A deterministic pseudo-random sequence of sets, wakes and pops against a plain scan.
        let n = 37;
        let mut s = Sched::new(n);
        let mut key = vec![NEVER; n];
        let mut x: u64 = 12345;
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
                    let want = key.iter().copied().min().unwrap();
                    match s.pop_before(900) {
                        Some((t, c)) => {
                            assert_eq!(t, want);
                            assert_eq!(key[c as usize], t);
                            key[c as usize] = NEVER;
                        }
                        None => assert!(want >= 900),
                    }
                }
            }
            assert!(s.heap.len() <= n);
        }
    }

    #[test]
    fn nothing_at_or_after_end() {
        let mut s = Sched::new(1);
        s.set(0, 100);
        assert_eq!(s.pop_before(100), None);
    }
}
