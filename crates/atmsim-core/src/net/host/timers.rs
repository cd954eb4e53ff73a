//! The earliest timer of each endpoint of a host, in an indexed binary min-heap.
//!
//! A host may carry tens of thousands of background sources, each an endpoint with its own
//! next message time. Finding the endpoints due at a timer event, and the host's earliest timer
//! after it, by visiting every endpoint made each background message cost in proportion to the
//! number of sources. The heap holds each endpoint once, keyed by its earliest timer (`NEVER`
//! if none): the earliest of all is the root, the due ones are a subtree at the top, and a
//! changed timer moves its entry in O(log n).
//!
//! The keys must follow the endpoints: whoever changes an endpoint's timer calls [`set`]
//! (`Host` does, after each delivery, timer event and transmission of a timed segment).
//!
//! [`set`]: EndpointTimers::set

use crate::time::{Time, NEVER};

#[derive(Debug, Default)]
pub struct EndpointTimers {
    /// (earliest timer, endpoint index), a min-heap.
    heap: Vec<(Time, u32)>,
    /// Endpoint index -> its position in `heap`.
    pos: Vec<u32>,
    /// Scratch for `due`: heap positions still to visit.
    stack: Vec<u32>,
}

impl EndpointTimers {
    /// The next endpoint (index `pos.len()`) starts with its earliest timer at `t`.
    pub fn push(&mut self, t: Time) {
        let ep = self.pos.len() as u32;
        self.pos.push(self.heap.len() as u32);
        self.heap.push((t, ep));
        self.up(self.heap.len() - 1);
    }

    /// The earliest timer of all (`NEVER` without endpoints).
    #[inline]
    pub fn min(&self) -> Time {
        self.heap.first().map_or(NEVER, |&(t, _)| t)
    }

    /// Endpoint `ep`'s earliest timer as last set.
    #[inline]
    pub fn key(&self, ep: u32) -> Time {
        self.heap[self.pos[ep as usize] as usize].0
    }

    /// Endpoint `ep`'s earliest timer is now `t`.
    #[inline]
    pub fn set(&mut self, ep: u32, t: Time) {
        let i = self.pos[ep as usize] as usize;
        let old = self.heap[i].0;
        self.heap[i].0 = t;
        if t < old {
            self.up(i);
        } else if t > old {
            self.down(i);
        }
    }

    /// The endpoints whose timer is at or before `now`, in index order, into `out` (cleared
    /// first). Only the due entries and their children are visited.
    pub fn due(&mut self, now: Time, out: &mut Vec<u32>) {
        out.clear();
        self.stack.clear();
        if self.min() <= now {
            self.stack.push(0);
        }
        while let Some(i) = self.stack.pop() {
            let i = i as usize;
            out.push(self.heap[i].1);
            for c in [2 * i + 1, 2 * i + 2] {
                if c < self.heap.len() && self.heap[c].0 <= now {
                    self.stack.push(c as u32);
                }
            }
        }
        out.sort_unstable();
    }

    fn up(&mut self, mut i: usize) {
        while i > 0 {
            let p = (i - 1) / 2;
            if self.heap[i] >= self.heap[p] {
                break;
            }
            self.swap(i, p);
            i = p;
        }
    }

    fn down(&mut self, mut i: usize) {
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                return;
            }
            let r = l + 1;
            let c = if r < n && self.heap[r] < self.heap[l] { r } else { l };
            if self.heap[c] >= self.heap[i] {
                return;
            }
            self.swap(i, c);
            i = c;
        }
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.heap.swap(a, b);
        self.pos[self.heap[a].1 as usize] = a as u32;
        self.pos[self.heap[b].1 as usize] = b as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_endpoints_and_the_minimum_follow_every_change() {
        // A deterministic mix of changes on 50 endpoints, checked against a plain scan.
        let mut h = EndpointTimers::default();
        let mut keys: Vec<Time> = Vec::new();
        let mut x: u64 = 7;
        let mut next = |m: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        for _ in 0..50 {
            let t = if next(5) == 0 { NEVER } else { next(1000) };
            h.push(t);
            keys.push(t);
        }
        let mut out = Vec::new();
        for step in 0..5000 {
            let ep = next(50) as usize;
            let t = if next(7) == 0 { NEVER } else { next(1000) };
            h.set(ep as u32, t);
            keys[ep] = t;
            assert_eq!(h.min(), keys.iter().copied().min().unwrap(), "step {step}");
            let now = next(1000);
            h.due(now, &mut out);
            let want: Vec<u32> = (0..50).filter(|&i| keys[i as usize] <= now).collect();
            assert_eq!(out, want, "step {step}");
        }
        assert_eq!(EndpointTimers::default().min(), NEVER);
    }
}
