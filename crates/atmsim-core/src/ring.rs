//! A first-in first-out ring of `Copy` values: the container of every per-cell queue on the
//! engine's hot path (the cells on a link, a port's committed departures).
//!
//! The standard `VecDeque` does the same job, but each of its operations wraps its index with
//! a compare against the capacity and reads the capacity through its raw buffer; a cell crosses
//! three or four such queues per hop, and their operations were a tenth of the instructions per
//! bottleneck cell. Here the capacity is a power of two and the head and tail are free-running
//! counters: an index is one mask, the length one subtraction.

/// The walk [`Ring::relay_chunks`] takes over each stretch of values that wraps in neither ring
/// (a caller whose loop keeps its state in registers across values, and leaves the loop for a
/// rare case without a call inside it: `Port::train`).
pub trait ChunkRelayer<T, U> {
    /// Move a prefix of `src` into the same prefix of `dst` (of the same length), each value
    /// mapped; returns the prefix's length (less than `src.len()`: the walk stops there).
    fn relay_chunk(&mut self, src: &[T], dst: &mut [U]) -> usize;
}

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

    /// Move at most `limit` values from the front of this ring to the back of `out`, each
    /// mapped by `f` a stretch at a time ([`ChunkRelayer`]: a stretch wraps in neither ring),
    /// until `f` keeps one here, this ring is empty or `out` is full (it does not grow here);
    /// returns how many moved. What `front`, `pop_front` and `push_back` do in a loop, with one
    /// bound for the whole walk instead of an emptiness and a capacity check per value, and the
    /// two rings walked as plain slices between wrap-arounds (the cells of frames crossing an
    /// idle port, `Port::train`; a busy port's pass, `Port::busy_pass`).
    #[inline(always)]
    pub fn relay_chunks<U: Copy + Default>(
        &mut self,
        out: &mut Ring<U>,
        limit: usize,
        f: &mut impl ChunkRelayer<T, U>,
    ) -> usize {
        let n = self.len().min(out.buf.len() - out.len()).min(limit);
        let (from, to) = (self.mask(), out.mask());
        let mut moved = 0;
        while moved < n {
            let i = self.head.wrapping_add(moved) & from;
            let o = out.tail.wrapping_add(moved) & to;
            let len = (n - moved).min(self.buf.len() - i).min(out.buf.len() - o);
            let k = f.relay_chunk(&self.buf[i..i + len], &mut out.buf[o..o + len]);
            debug_assert!(k <= len);
            moved += k;
            if k < len {
                break;
            }
        }
        self.head = self.head.wrapping_add(moved);
        out.tail = out.tail.wrapping_add(moved);
        moved
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

    /// The `k`-th value from the front (0: the first), if `k < len()`.
    #[inline]
    pub fn get(&self, k: usize) -> Option<&T> {
        if k >= self.len() {
            return None;
        }
        Some(self.at(self.head.wrapping_add(k)))
    }

    /// The `n`-th value from the back (1: the last), if `1 <= n <= len()`.
    #[inline]
    pub fn nth_back(&self, n: usize) -> Option<&T> {
        if n == 0 || n > self.len() {
            return None;
        }
        Some(self.at(self.tail.wrapping_sub(n)))
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

    /// `pop_front` where a value is known to be held.
    #[inline(always)]
    pub fn pop_front_held(&mut self) -> T {
        debug_assert!(!self.is_empty(), "pop from an empty ring");
        let v = *self.at(self.head);
        self.head = self.head.wrapping_add(1);
        v
    }

    /// Drop the first `k <= len()` values.
    #[inline]
    pub fn skip_front(&mut self, k: usize) {
        assert!(k <= self.len(), "skipping {k} of {} values", self.len());
        self.head = self.head.wrapping_add(k);
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

    /// Moves values below its first field (negated), a stretch at a time, counting the
    /// stretches it was handed.
    struct BelowChunks(u64, usize);

    impl ChunkRelayer<u64, u64> for BelowChunks {
        fn relay_chunk(&mut self, src: &[u64], dst: &mut [u64]) -> usize {
            assert_eq!(src.len(), dst.len());
            self.1 += 1;
            let k = src.iter().position(|&v| v >= self.0).unwrap_or(src.len());
            for (d, &v) in dst.iter_mut().zip(&src[..k]) {
                *d = !v;
            }
            k
        }
    }

    #[test]
    fn relaying_is_popping_and_pushing_one_by_one() {
        // Two rings filled and drained at different paces, so that both wrap and the walk
        // crosses either end; against two deques moved value by value.
        let (mut a, mut b) = (Ring::<u64>::new(), Ring::<u64>::new());
        let (mut da, mut db) = (VecDeque::new(), VecDeque::new());
        let mut x: u64 = 11;
        let mut next = 0u64;
        let mut wrapped = 0;
        for step in 0..20_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            for _ in 0..(x >> 33) % 9 {
                a.push_back(next);
                da.push_back(next);
                next += 1;
            }
            if step % 3 == 0 {
                for _ in 0..(x >> 40) % 20 {
                    assert_eq!(b.pop_front(), db.pop_front());
                }
            }
            let (stop, limit) = (next.saturating_sub((x >> 50) % 6), ((x >> 20) % 16) as usize);
            let room = b.capacity() - b.len();
            let mut want = 0;
            while want < limit.min(room) {
                let Some(&v) = da.front() else { break };
                if v >= stop {
                    break;
                }
                da.pop_front();
                db.push_back(!v);
                want += 1;
            }
            let (moved_from, moved_to) = (a.head.wrapping_add(want), b.tail.wrapping_add(want));
            let mut chunks = BelowChunks(stop, 0);
            assert_eq!(a.relay_chunks(&mut b, limit, &mut chunks), want);
            wrapped += usize::from(chunks.1 > 1);
            assert!(a.iter().eq(da.iter()) && b.iter().eq(db.iter()));
            assert_eq!((a.head, b.tail), (moved_from, moved_to));
            // `b` grows only here (a relay fills at most its room).
            b.push_back(u64::MAX);
            db.push_back(u64::MAX);
        }
        assert!(wrapped > 100, "walks across a ring's end: {wrapped}");
        assert_eq!(b.nth_back(1), db.back());
        assert_eq!(b.nth_back(b.len()), db.front());
        assert_eq!((b.nth_back(0), b.nth_back(b.len() + 1)), (None, None));
        assert_eq!(a.get(0), da.front());
        assert_eq!(a.get(a.len()), None);
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
