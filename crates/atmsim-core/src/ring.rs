//! A first-in first-out ring of `Copy` values: the container of every per-cell queue on the
//! engine's hot path (the cells on a link, a port's committed departures).
//!
//! The standard `VecDeque` does the same job, but each of its operations wraps its index with
//! a compare against the capacity and reads the capacity through its raw buffer; a cell crosses
//! three or four such queues per hop, and their operations were a tenth of the instructions per
//! bottleneck cell. Here the capacity is a power of two and the head and tail are free-running
//! counters: an index is one mask, the length one subtraction.

/// A growable FIFO ring with a power-of-two capacity.
#[derive(Debug, Clone)]
pub struct Ring<T> {
    buf: Vec<T>,
    /// Positions of the first value and one past the last, counted since creation (wrapping);
    /// a value lives at `position & (buf.len() - 1)`.
    head: usize,
    tail: usize,
}

impl<T> Default for Ring<T> {
    fn default() -> Self {
        Ring { buf: Vec::new(), head: 0, tail: 0 }
    }
}

impl<T: Copy + Default> Ring<T> {
    /// An empty ring (allocates at the first push).
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn mask(&self) -> usize {
        self.buf.len().wrapping_sub(1)
    }

    /// Values queued.
    #[inline]
    pub fn len(&self) -> usize {
        self.tail.wrapping_sub(self.head)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.head == self.tail
    }

    /// Values it holds without growing (it never shrinks).
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    #[inline]
    pub fn push_back(&mut self, v: T) {
        if self.len() == self.buf.len() {
            self.grow();
        }
        let i = self.tail & self.mask();
        // SAFETY: `buf.len()` is zero or a power of two (`grow` is the only place that sizes it,
        // from 0 to at least 8, doubling), and here it exceeds `len() >= 0`, so it is a power of
        // two, `mask()` is `buf.len() - 1` and `i <= mask() < buf.len()`.
        unsafe { *self.buf.get_unchecked_mut(i) = v };
        self.tail = self.tail.wrapping_add(1);
    }

    /// Push `n` values made by `f` in order: what `n` calls of [`Ring::push_back`] do, with one
    /// capacity check, and the ring walked as at most two plain slices instead of one masked
    /// index per value (a frame's cells go on a link this way, `CellFifo::push_frame`).
    #[inline(always)]
    pub fn push_back_n(&mut self, n: usize, mut f: impl FnMut() -> T) {
        if self.buf.len() - self.len() < n {
            self.grow_to(self.len() + n);
        }
        let start = self.tail & self.mask();
        let to_end = n.min(self.buf.len() - start);
        let wrapped = n - to_end;
        for v in &mut self.buf[start..start + to_end] {
            *v = f();
        }
        for v in &mut self.buf[..wrapped] {
            *v = f();
        }
        self.tail = self.tail.wrapping_add(n);
    }

    /// Pop the values from the front while `keep` holds for them, and return how many: what
    /// `front` + `pop_front` in a loop do, the ring walked as at most two plain slices (a
    /// frame's cells are taken off a link this way, `CellFifo::pop_run`).
    #[inline]
    pub fn pop_while(&mut self, mut keep: impl FnMut(&T) -> bool) -> usize {
        let len = self.len();
        // Most often (a short batch) nothing or one value is to be taken: decided on the head.
        if len == 0 || !keep(self.at(self.head)) {
            return 0;
        }
        let start = self.head & self.mask();
        let to_end = len.min(self.buf.len() - start);
        let k = match self.buf[start..start + to_end].iter().position(|v| !keep(v)) {
            Some(k) => k,
            None => to_end + self.buf[..len - to_end].iter().position(|v| !keep(v)).unwrap_or(len - to_end),
        };
        self.head = self.head.wrapping_add(k);
        k
    }

    /// The last value, to amend in place (`None` if empty).
    #[inline]
    pub fn back_mut(&mut self) -> Option<&mut T> {
        if self.is_empty() {
            return None;
        }
        let i = self.tail.wrapping_sub(1) & self.mask();
        // SAFETY: as in `at`: a value is held, so `buf.len()` is a power of two and `i < buf.len()`.
        Some(unsafe { self.buf.get_unchecked_mut(i) })
    }

    /// The slot of position `pos`, which must hold a value (`head <= pos < tail`).
    #[inline(always)]
    fn at(&self, pos: usize) -> &T {
        debug_assert!(pos.wrapping_sub(self.head) < self.len());
        // SAFETY: a value is held, so `buf.len() >= len() >= 1`; `buf.len()` is a power of two
        // (see `push_back`), so `pos & mask() < buf.len()`.
        unsafe { self.buf.get_unchecked(pos & self.mask()) }
    }

    #[inline]
    pub fn front(&self) -> Option<&T> {
        if self.is_empty() {
            return None;
        }
        Some(self.at(self.head))
    }

    #[inline]
    pub fn back(&self) -> Option<&T> {
        if self.is_empty() {
            return None;
        }
        Some(self.at(self.tail.wrapping_sub(1)))
    }

    #[inline]
    pub fn pop_front(&mut self) -> Option<T> {
        if self.is_empty() {
            return None;
        }
        let v = *self.at(self.head);
        self.head = self.head.wrapping_add(1);
        Some(v)
    }

    /// The values from first to last.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        let mask = self.mask();
        (0..self.len()).map(move |k| &self.buf[self.head.wrapping_add(k) & mask])
    }

    /// Double the capacity (at least 8), the values moved to the front in order.
    #[cold]
    fn grow(&mut self) {
        self.grow_to(self.len() + 1);
    }

    /// Double the capacity (at least 8) until it holds `need` values, the values moved to the
    /// front in order.
    #[cold]
    fn grow_to(&mut self, need: usize) {
        let mut cap = (self.buf.len() * 2).max(8);
        while cap < need {
            cap *= 2;
        }
        let mut buf = Vec::with_capacity(cap);
        buf.extend(self.iter().copied());
        let len = buf.len();
        buf.resize(cap, T::default());
        self.buf = buf;
        self.head = 0;
        self.tail = len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    #[test]
    fn behaves_as_a_vecdeque_through_growth_and_wrap_around() {
        // A deterministic mix of pushes and pops against the standard deque.
        let (mut r, mut d) = (Ring::<u64>::new(), VecDeque::new());
        let mut x: u64 = 99;
        for step in 0..50_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            // Pushes outnumber pops early on (growth), then pops catch up (wrap-around).
            let push_odds = if step < 25_000 { 60 } else { 45 };
            if (x >> 33) % 100 < push_odds {
                r.push_back(step);
                d.push_back(step);
            } else {
                assert_eq!(r.pop_front(), d.pop_front());
            }
            assert_eq!((r.len(), r.front(), r.back()), (d.len(), d.front(), d.back()));
        }
        assert!(r.iter().eq(d.iter()));
        assert!(r.capacity().is_power_of_two() && r.capacity() >= r.len());
        while let Some(v) = d.pop_front() {
            assert_eq!(r.pop_front(), Some(v));
        }
        assert!(r.is_empty() && r.pop_front().is_none() && r.front().is_none());
    }

    #[test]
    fn pushing_n_at_once_is_pushing_one_by_one_through_growth_and_wrap_around() {
        // Runs of 0..40 values pushed at once against the standard deque, with pops between
        // them, so that runs start near the end of the buffer and wrap, and force growth by
        // more than one doubling.
        let (mut r, mut d) = (Ring::<u64>::new(), VecDeque::new());
        let mut x: u64 = 7;
        let mut next = 0u64;
        for step in 0..20_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let n = ((x >> 33) % 40) as usize;
            if step % 3 != 0 {
                let first = next;
                r.push_back_n(n, || {
                    next += 1;
                    next - 1
                });
                d.extend(first..first + n as u64);
                if let Some(b) = r.back_mut() {
                    *b += 1_000_000;
                    *d.back_mut().unwrap() += 1_000_000;
                }
            } else {
                for _ in 0..n + 10 {
                    assert_eq!(r.pop_front(), d.pop_front());
                }
            }
            assert_eq!((r.len(), r.front(), r.back()), (d.len(), d.front(), d.back()));
        }
        assert!(r.iter().eq(d.iter()));
        assert!(r.capacity().is_power_of_two() && r.capacity() >= r.len());
    }

    #[test]
    fn popping_while_a_test_holds_is_popping_one_by_one() {
        // Values in runs of equal ones (as a frame's cells), pushed and popped run by run
        // against the standard deque: the runs cross the end of the buffer and growth.
        let (mut r, mut d) = (Ring::<u64>::new(), VecDeque::new());
        let mut x: u64 = 3;
        for step in 0..20_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let n = (x >> 33) % 12;
            for _ in 0..n {
                r.push_back(step);
                d.push_back(step);
            }
            if step % 2 == 0 {
                let Some(&v) = d.front() else { continue };
                let mut expect = 0;
                while d.front() == Some(&v) {
                    d.pop_front();
                    expect += 1;
                }
                assert_eq!(r.pop_while(|&w| w == v), expect);
            }
            assert_eq!(r.pop_while(|_| false), 0);
            assert_eq!((r.len(), r.front(), r.back()), (d.len(), d.front(), d.back()));
        }
        assert_eq!(r.pop_while(|_| true), d.len());
        assert!(r.is_empty() && r.pop_while(|_| true) == 0);
    }
}
