//! Simulated time: an integer count of picoseconds, and slot clocks with exact rational periods.
//!
//! A picosecond grid is fine enough that link propagation delays and timer ticks are exact, and a
//! `u64` of picoseconds spans 213 days of simulated time. A cell slot at 155.52 Mb/s lasts
//! 2 726 337.4... ps, which is not an integer: [`SlotClock`] keeps the period as the exact
//! fraction `num/den` and places slot `k` at `floor(k * num / den)`, so the long-run cell rate is
//! exact and no rounding error accumulates.

/// Simulated time in picoseconds.
pub type Time = u64;

pub const PS_PER_US: Time = 1_000_000;
pub const PS_PER_MS: Time = 1_000_000_000;
pub const PS_PER_S: Time = 1_000_000_000_000;
/// "Never": the key of a component with nothing to do.
pub const NEVER: Time = Time::MAX;

/// Bits in one ATM cell on the wire (53 octets, ITU-T I.361).
pub const CELL_BITS: u64 = 424;

/// Seconds (as given in a scenario) to picoseconds, rounded to the nearest picosecond.
pub fn from_secs_f64(s: f64) -> Time {
    (s * PS_PER_S as f64).round() as Time
}

pub fn to_secs_f64(t: Time) -> f64 {
    t as f64 / PS_PER_S as f64
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A link rate as an exact cell period `num / den` picoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellPeriod {
    pub num: u64,
    pub den: u64,
}

impl CellPeriod {
    /// From a line rate in bit/s: one cell takes 424 bits.
    pub fn from_bps(bps: u64) -> Self {
        Self::reduced(CELL_BITS as u128 * PS_PER_S as u128, bps as u128)
    }

    /// From a cell rate in cells/s.
    pub fn from_cells_per_s(cps: u64) -> Self {
        Self::reduced(PS_PER_S as u128, cps as u128)
    }

    fn reduced(num: u128, den: u128) -> Self {
        let g = gcd(num, den);
        CellPeriod { num: (num / g) as u64, den: (den / g) as u64 }
    }

    /// Cell rate in cells per second.
    pub fn cells_per_s(&self) -> f64 {
        self.den as f64 * PS_PER_S as f64 / self.num as f64
    }

    /// The period rounded up to a whole picosecond: the latency a cell needs to cross the wire.
    pub fn ceil_ps(&self) -> Time {
        self.num.div_ceil(self.den)
    }

    /// This period as an oscillator off by the relative rate error `e` runs it: `num/den *
    /// (1 + e)`, still an exact fraction, so the drifted clock's long-run rate is exact too.
    ///
    /// `e` (|e| <= [`MAX_RATE_ERROR`]) is rounded to the nearest step of `1 / (num * S)`, with
    /// `S` the largest power of ten up to 10^12 that keeps `num * S` at most 2^61 and `den * S`
    /// at most 2^40: a step of at most 1e-12 for any accepted link rate (1.5e-18 at
    /// 155.52 Mb/s), far below any oscillator's stability. The bound on `den` keeps
    /// [`SlotClock`]'s jump on its 64-bit path.
    pub fn scaled(&self, e: f64) -> Self {
        debug_assert!(e.is_finite() && e.abs() <= MAX_RATE_ERROR);
        let (num, den) = (self.num as u128, self.den as u128);
        let mut s: u128 = 1;
        while s < 1_000_000_000_000 && num * s * 10 <= 1 << 61 && den * s * 10 <= 1 << 40 {
            s *= 10;
        }
        let base = num * s;
        // |delta| <= base / 1000, so the sum stays positive and below 2^62.
        let delta = (e * base as f64).round() as i128;
        let scaled = (base as i128 + delta) as u128;
        Self::reduced(scaled, den * s)
    }
}

/// The largest relative rate error [`CellPeriod::scaled`] takes: 1000 ppm, fifty times the
/// +-20 ppm of a free-running SONET clock (the bound of `simulation.clock_ppm`).
pub const MAX_RATE_ERROR: f64 = 1e-3;

/// A transmitter's slot grid as a value: slot `k` starts at `phase + floor(k * num / den)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotGrid {
    pub period: CellPeriod,
    /// Start of slot 0, in [0, one period): the transmitter's oscillator offset.
    pub phase: Time,
}

impl SlotGrid {
    /// The start of the first slot at or after `t`.
    #[inline]
    pub fn slot_at_or_after(&self, t: Time) -> Time {
        self.mark_at_or_after(t).t
    }

    /// The first slot starting at or after `t` (slot k at phase + floor(k * num / den)), with
    /// its remainder (the same divisions as its start: the remainder comes with the quotient),
    /// for a caller holding no mark near `t` (a slotted port's merge keys,
    /// `net/port/slotted.rs`). A caller wanting only the start leaves the remainder unused and
    /// the compiler drops it.
    ///
    /// In 64 bits where the products fit (every instant of a run on a link whose `den` is
    /// small, as an undrifted link's is: 3 at 150 or 600 Mb/s), else in 128: the same value,
    /// without the 128-bit divisions' calls (a slotted switch keys every arrival so).
    #[inline(always)]
    pub fn mark_at_or_after(&self, t: Time) -> SlotMark {
        if t <= self.phase {
            return SlotMark { t: self.phase, rem: 0 };
        }
        let (num, den) = (self.period.num, self.period.den);
        if let Some(kn) = (t - self.phase).checked_mul(den).and_then(|td| td.div_ceil(num).checked_mul(num)) {
            return SlotMark { t: self.phase + kn / den, rem: kn % den };
        }
        self.mark_at_or_after_wide(t)
    }

    /// [`SlotGrid::mark_at_or_after`] in 128 bits.
    #[cold]
    #[inline(never)]
    fn mark_at_or_after_wide(&self, t: Time) -> SlotMark {
        let (num, den) = (self.period.num as u128, self.period.den as u128);
        let kn = ((t - self.phase) as u128 * den).div_ceil(num) * num;
        SlotMark { t: self.phase + (kn / den) as Time, rem: (kn % den) as u64 }
    }
}

/// A slot of a [`SlotClock`]'s grid, without the grid: its start and its remainder (two words,
/// where a clock is seven), stepped by the clock it came from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SlotMark {
    t: Time,
    rem: u64,
}

impl SlotMark {
    /// The slot's start.
    #[inline]
    pub fn time(&self) -> Time {
        self.t
    }
}

/// A slot of a [`SlotClock`]'s grid in [`SlotWalk`]'s biased form, without the grid's
/// constants: for a loop that steps two slots of one grid ([`SlotClock::step_cursor`]; the
/// busy pass's next free slot and first pending departure), where one set of constants serves
/// both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotCursor {
    t: Time,
    /// The remainder minus den (mod 2^64): the carry of adding r says the slot lasts q + 1.
    biased: u64,
}

impl SlotCursor {
    /// The slot's start.
    #[inline(always)]
    pub fn time(&self) -> Time {
        self.t
    }
}

/// Consecutive slots of a [`SlotClock`] as arrival times at the far end of a link
/// ([`SlotClock::walk`]): the grid's step in registers, with the latency added once.
#[derive(Debug, Clone, Copy)]
pub struct SlotWalk {
    at: Time,
    /// The remainder minus den (mod 2^64): the carry of adding r says the slot lasts q + 1.
    biased: u64,
    q: u64,
    r: u64,
    neg_den: u64,
}

impl SlotWalk {
    /// The arrival time of the current slot's cell; the walk moves to the following slot.
    #[inline(always)]
    pub fn next_at(&mut self) -> Time {
        let at = self.at;
        self.skip();
        at
    }

    /// The arrival time of the current slot's cell, the walk staying at that slot.
    #[inline(always)]
    pub fn at(&self) -> Time {
        self.at
    }

    /// Move to the following slot.
    #[inline(always)]
    pub fn skip(&mut self) {
        let (b, long) = self.biased.overflowing_add(self.r);
        self.biased = if long { b.wrapping_add(self.neg_den) } else { b };
        self.at += self.q + u64::from(long);
    }
}

/// The slot grid of one transmitter: slot `k` starts at `phase + floor(k * num / den)`.
///
/// The phase is where the transmitter's free-running oscillator put slot 0 (`scenario::phases`
/// draws it; 0 for every transmitter reproduces the phase-locked model). Advancing one slot costs
/// an add and a compare (no division); jumping to the first free slot after an idle period costs
/// two multiplications by reciprocals the clock keeps, and a few steps (one 128-bit division
/// only across gaps of very many slots).
#[derive(Debug, Clone)]
pub struct SlotClock {
    period: CellPeriod,
    phase: Time,
    q: u64,
    r: u64,
    /// Start time of the next slot that may carry a cell, slot `k` (the index itself is not
    /// kept: nothing reads it, and each slot would pay for its increment).
    t: Time,
    /// `k * num mod den`.
    rem: u64,
    /// `floor((2^64 - 1) / (q + 1))` and `floor((2^64 - 1) / den)`: [`SlotClock::jumped`]
    /// divides by a multiplication with these (a quotient one or two short, made good after).
    inv_q1: u64,
    inv_den: u64,
    /// The longest gap `jumped` takes by those reciprocals: its products stay in 64 bits and
    /// the slots left to step after it are at most four (`SlotClock::far_gap`); a longer one is
    /// taken by `jump_exact`.
    far: u64,
}

/// The high word of `a * b`: `floor(a * b / 2^64)`.
#[inline(always)]
fn mul_high(a: u64, b: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) >> 64) as u64
}

impl SlotClock {
    /// A grid with slot 0 at t = 0.
    pub fn new(period: CellPeriod) -> Self {
        Self::with_phase(period, 0)
    }

    /// A grid with slot 0 at `phase`.
    pub fn with_phase(period: CellPeriod, phase: Time) -> Self {
        let q = period.num / period.den;
        SlotClock {
            q,
            r: period.num % period.den,
            period,
            phase,
            t: phase,
            rem: 0,
            inv_q1: u64::MAX / q.saturating_add(1),
            inv_den: u64::MAX / period.den,
            far: Self::far_gap(q, period.den),
        }
    }

    /// The longest gap g for which `jumped`'s reciprocal step needs no overflow check and no
    /// check of what is left after it. It moves n <= (g - 1) / (q + 1) + 1 slots (n falls at
    /// most two short of that by the rounding of the reciprocal), so `n * r + rem < (n + 1) *
    /// den` fits if g <= (floor((2^64 - 1) / den) - 2) (q + 1); and each slot lasts at least
    /// q, so at most g / (q + 1) + 2q + 1 ps are left, four slots' worth or less if
    /// g <= (2q + 2)(q + 1).
    fn far_gap(q: u64, den: u64) -> u64 {
        let q1 = q.saturating_add(1);
        let no_overflow = (u64::MAX / den).saturating_sub(2).saturating_mul(q1);
        let few_left = q1.saturating_mul(2).saturating_mul(q1);
        no_overflow.min(few_left)
    }

    pub fn period(&self) -> CellPeriod {
        self.period
    }

    /// The shortest slot, in whole picoseconds: every slot lasts this long or 1 ps more, so
    /// the first slot at or after any instant starts at most this long after it.
    #[inline]
    pub fn shortest_slot(&self) -> Time {
        self.q
    }

    pub fn grid(&self) -> SlotGrid {
        SlotGrid { period: self.period, phase: self.phase }
    }

    /// Start of the next free slot.
    #[inline]
    pub fn next(&self) -> Time {
        self.t
    }

    /// The current slot is used: move to the following one.
    #[inline]
    pub fn advance(&mut self) {
        self.t += self.q;
        self.rem += self.r;
        if self.rem >= self.period.den {
            self.rem -= self.period.den;
            self.t += 1;
        }
    }

    /// The next free slot as a mark on this grid (to walk later slots with [`SlotClock::step`]).
    #[inline]
    pub fn mark(&self) -> SlotMark {
        SlotMark { t: self.t, rem: self.rem }
    }

    /// Move `m`, a mark on this grid, to the following slot.
    #[inline(always)]
    pub fn step(&self, m: &mut SlotMark) {
        m.t += self.q;
        m.rem += self.r;
        if m.rem >= self.period.den {
            m.rem -= self.period.den;
            m.t += 1;
        }
    }

    /// Move `m`, a mark on this grid, `k` slots on: [`SlotClock::step`] `k` times, in one
    /// division (a count-only port finding the slot of its `k`-th pending departure, which
    /// publishes a level, `Congestion::departures_left`).
    pub fn step_by(&self, m: &mut SlotMark, k: u32) {
        let rems = u128::from(m.rem) + u128::from(k) * u128::from(self.r);
        let den = u128::from(self.period.den);
        m.t += u64::from(k) * self.q + (rems / den) as u64;
        m.rem = (rems % den) as u64;
    }

    /// A walk of the slots from the next free one, each given as its start plus `latency`
    /// (when a cell sent in it arrives at the far end of a link), for a loop that puts many
    /// cells on a link in a row (`CellFifo::push_frame`). Ended by [`SlotClock::end_walk`].
    #[inline(always)]
    pub fn walk(&self, latency: Time) -> SlotWalk {
        SlotWalk {
            at: self.t + latency,
            biased: self.rem.wrapping_sub(self.period.den),
            q: self.q,
            r: self.r,
            neg_den: self.period.den.wrapping_neg(),
        }
    }

    /// `m`, a mark on this grid, as a cursor ([`SlotClock::step_cursor`]).
    #[inline(always)]
    pub fn cursor(&self, m: SlotMark) -> SlotCursor {
        SlotCursor { t: m.t, biased: m.rem.wrapping_sub(self.period.den) }
    }

    /// The slot `c` (a cursor on this grid) stands at, as a mark.
    #[inline(always)]
    pub fn cursor_mark(&self, c: SlotCursor) -> SlotMark {
        SlotMark { t: c.t, rem: c.biased.wrapping_add(self.period.den) }
    }

    /// Move `c`, a cursor on this grid, to the following slot: [`SlotClock::step`] with the
    /// long slot told by a carry (an add, a select and an add with carry).
    #[inline(always)]
    pub fn step_cursor(&self, c: &mut SlotCursor) {
        let (b, long) = c.biased.overflowing_add(self.r);
        c.biased = if long { b.wrapping_sub(self.period.den) } else { b };
        c.t += self.q + u64::from(long);
    }

    /// [`SlotClock::walk`] from the slot `m` (a mark on this grid) instead of the next free one.
    #[inline(always)]
    pub fn walk_from(&self, m: SlotMark, latency: Time) -> SlotWalk {
        SlotWalk {
            at: m.t + latency,
            biased: m.rem.wrapping_sub(self.period.den),
            q: self.q,
            r: self.r,
            neg_den: self.period.den.wrapping_neg(),
        }
    }

    /// The slot `w` stands at (a walk on this grid with `latency`), as a mark.
    #[inline(always)]
    pub fn walked_mark(&self, w: &SlotWalk, latency: Time) -> SlotMark {
        SlotMark { t: w.at - latency, rem: w.biased.wrapping_sub(w.neg_den) }
    }

    /// Make the slot `w` stands at (started by [`SlotClock::walk`] on this clock with
    /// `latency`) the next free one.
    #[inline(always)]
    pub fn end_walk(&mut self, w: &SlotWalk, latency: Time) {
        self.t = w.at - latency;
        self.rem = w.biased.wrapping_sub(w.neg_den);
    }

    /// The slot before `m`, a mark on this grid after its slot 0: what [`SlotClock::step`]
    /// undoes.
    #[inline]
    pub fn before(&self, m: SlotMark) -> SlotMark {
        if m.rem >= self.r {
            SlotMark { t: m.t - self.q, rem: m.rem - self.r }
        } else {
            SlotMark { t: m.t - self.q - 1, rem: m.rem + self.period.den - self.r }
        }
    }

    /// Make the next free slot the first one starting at or after `t` (never an earlier one).
    #[inline]
    pub fn align(&mut self, t: Time) {
        if t > self.t {
            self.jump(t);
        }
    }

    #[inline(never)]
    fn jump(&mut self, t: Time) {
        self.set_next(self.jumped(self.mark(), t));
    }

    /// Make `m`, a mark on this grid, the next free slot.
    #[inline(always)]
    pub fn set_next(&mut self, m: SlotMark) {
        self.t = m.t;
        self.rem = m.rem;
    }

    /// `m`, a mark on this grid, moved as [`SlotClock::align`] moves the next free slot: to
    /// the first slot starting at or after `t`, never to an earlier one (a caller that keeps
    /// the next free slot in a local, `Port::train`).
    ///
    /// The slot after `m` is taken in line when `t` is less than a slot after `m`: at a
    /// transmitter idle between two cells of a frame coming in at the same line rate, the
    /// first slot after the cell is most often taken.
    #[inline(always)]
    pub fn align_mark(&self, m: SlotMark, t: Time) -> SlotMark {
        self.align_mark_by::<false>(m, t)
    }

    /// `align_mark`, the far jump in line if `IN_LINE`.
    #[inline(always)]
    fn align_mark_by<const IN_LINE: bool>(&self, m: SlotMark, t: Time) -> SlotMark {
        if t <= m.t {
            return m;
        }
        // Within the shortest slot's length the next slot is it (it lasts q or q + 1 ps); a
        // longer gap goes out of line from `m` itself (no step in line spent before a far jump).
        if t - m.t <= self.q {
            let mut s = m;
            self.step(&mut s);
            s
        } else if IN_LINE {
            self.jumped(m, t)
        } else {
            self.jumped_far(m, t)
        }
    }

    /// The longest gap after a mark that [`SlotClock::align_mark`] crosses by stepping slot by
    /// slot (four of the longest slots; a longer one is jumped): a walk ([`SlotWalk::skip`])
    /// may step across it the same way and stand at the same slot.
    #[inline(always)]
    pub fn step_gap(&self) -> Time {
        Self::step_gap_of(self.q)
    }

    /// [`SlotClock::step_gap`] of a clock whose shortest slot is `q` (a loop that keeps `q` in
    /// a register).
    #[inline(always)]
    pub fn step_gap_of(q: Time) -> Time {
        4 * (q + 1)
    }

    /// [`SlotClock::align_mark`] with the far jump in line (a caller with no other call in
    /// its loop, `Port::train`'s walk: none of its values is then saved around a call).
    #[inline(always)]
    pub fn align_mark_in_line(&self, m: SlotMark, t: Time) -> SlotMark {
        self.align_mark_by::<true>(m, t)
    }

    /// [`SlotGrid::mark_at_or_after`] of this clock's grid.
    #[inline(always)]
    pub fn mark_at_or_after(&self, t: Time) -> SlotMark {
        self.grid().mark_at_or_after(t)
    }

    /// `jumped` out of line (the caller's loop stays small).
    #[inline(never)]
    fn jumped_far(&self, m: SlotMark, t: Time) -> SlotMark {
        self.jumped(m, t)
    }

    /// `m`, a mark on this grid, moved to the first slot starting at or after `t` (never to an
    /// earlier one, as [`SlotClock::align_mark`]), and how many slots it moved: the departures
    /// of a run in consecutive slots from `m` that start before `t` (the busy pass's retire,
    /// `net/port/busy.rs`, taken at once rather than stepped slot by slot).
    #[inline(always)]
    pub fn align_mark_counted(&self, m: SlotMark, t: Time) -> (SlotMark, u64) {
        if t <= m.t {
            return (m, 0);
        }
        self.jumped_counted(m, t)
    }

    /// The first slot starting at or after `t`, from `m` (a mark on this grid before `t`).
    #[inline(always)]
    fn jumped(&self, m: SlotMark, t: Time) -> SlotMark {
        self.jumped_counted(m, t).0
    }

    /// [`SlotClock::jumped`], and how many slots after `m` that is.
    #[inline(always)]
    fn jumped_counted(&self, mut m: SlotMark, t: Time) -> (SlotMark, u64) {
        // A few slots ahead (a port idle for a cell time or two, common on every hop): step,
        // without the divisions below.
        let gap = t - m.t;
        let mut moved = 0;
        if gap > self.step_gap() {
            if gap > self.far {
                return self.jump_exact(m, t);
            }
            // Jump without 128-bit arithmetic: each slot lasts q or q + 1 ps, so the slot
            // (gap - 1) / (q + 1) slots on starts before `t`, and most often the one after it
            // is the first at or after `t`: jump to that one, and step only if it is still
            // before `t` (stepping after a jump to the slot before was 1.06 steps per far jump
            // on WAN 5). Both divisions are multiplications by a reciprocal rounded down: the
            // first product is below gap / (q + 1), so its floor is at most (gap - 1) / (q + 1)
            // (a slot or two short of it at worst, stepped after); the second quotient is
            // corrected, so the mark is exact. `far` bounds the gap so that nothing overflows
            // and at most four slots are left to step.
            let n = mul_high(gap, self.inv_q1) + 1;
            let tot = n * self.r + m.rem;
            let den = self.period.den;
            let mut whole = mul_high(tot, self.inv_den);
            let mut rem = tot - whole * den;
            while rem >= den {
                rem -= den;
                whole += 1;
            }
            m.t += n * self.q + whole;
            m.rem = rem;
            moved = n;
            debug_assert!(self.before(m).t < t && t.saturating_sub(m.t) <= 4 * (self.q + 1));
        }
        while m.t < t {
            self.step(&mut m);
            moved += 1;
        }
        (m, moved)
    }

    /// `jumped` in one step of 128-bit arithmetic: gaps of many slots over many slots' worth
    /// of picoseconds (a fast link idle for long), where stepping would be slow.
    #[cold]
    #[inline(never)]
    fn jump_exact(&self, m: SlotMark, t: Time) -> (SlotMark, u64) {
        let (num, den) = (self.period.num as u128, self.period.den as u128);
        // smallest k with floor(k*num/den) >= t'  <=>  k*num >= t'*den  (t' = t - phase, an
        // integer; t > the mark >= phase here)
        let k = ((t - self.phase) as u128 * den).div_ceil(num);
        let prod = k * num;
        // The mark's own index: its start and remainder are k_m * num split by den.
        let from = ((m.t - self.phase) as u128 * den + u128::from(m.rem)) / num;
        (SlotMark { t: self.phase + (prod / den) as Time, rem: (prod % den) as u64 }, (k - from) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl SlotClock {
        /// The index `k` of the next slot, from its start time (slot `k` is the first that starts
        /// at or after `t`).
        fn k(&self) -> u128 {
            ((self.t - self.phase) as u128 * self.period.den as u128).div_ceil(self.period.num as u128)
        }
    }

    #[test]
    fn oc3_period_is_exact_over_a_second() {
        let p = CellPeriod::from_bps(155_520_000);
        let mut c = SlotClock::new(p);
        for _ in 0..366_792 {
            c.advance();
        }
        // 155.52e6 / 424 = 366792.45...: slot 366792 starts just before 1 s.
        assert!(c.next() < PS_PER_S && c.next() > PS_PER_S - p.ceil_ps());
        assert!((p.cells_per_s() - 155_520_000.0 / 424.0).abs() < 1e-6);
    }

    #[test]
    fn a_cursor_steps_as_a_mark_does() {
        // Periods whose remainder is far below, near and at den's half, and one of r = 0: the
        // carry of the biased remainder tells every long slot. Fails with the select or the
        // carry's add removed.
        for period in [
            CellPeriod::from_bps(155_520_000),
            CellPeriod::from_cells_per_s(365_566),
            CellPeriod::from_bps(155_520_000).scaled(-2e-5),
            CellPeriod { num: 7, den: 3 },
            CellPeriod { num: 6, den: 3 },
        ] {
            let clock = SlotClock::with_phase(period, 11);
            let mut m = clock.mark();
            let mut c = clock.cursor(m);
            for _ in 0..5000 {
                clock.step(&mut m);
                clock.step_cursor(&mut c);
                assert_eq!(c.time(), m.time(), "{period:?}");
                assert_eq!(clock.cursor_mark(c), m, "{period:?}");
            }
        }
    }

    #[test]
    fn stepping_by_k_is_stepping_k_times() {
        // Remainders far below, near and at den (a carry on every step or none), a scaled
        // period's large den: fails with the carries' division or the remainder's modulo
        // dropped.
        for period in [
            CellPeriod::from_bps(155_520_000),
            CellPeriod::from_bps(155_520_000).scaled(-2e-5),
            CellPeriod { num: 7, den: 3 },
            CellPeriod { num: 6, den: 3 },
        ] {
            let clock = SlotClock::with_phase(period, 11);
            let mut m = clock.mark();
            for start in 0..40 {
                let mut stepped = m;
                for k in 0..70 {
                    let mut by = m;
                    clock.step_by(&mut by, k);
                    assert_eq!(by, stepped, "{period:?} from slot {start}, {k} on");
                    clock.step(&mut stepped);
                }
                clock.step(&mut m);
            }
        }
    }

    #[test]
    fn a_mark_from_a_time_is_the_stepped_slot() {
        // Every instant around the first slots, then far ones (past the 64-bit products of
        // den = 2^40-ish scaled periods): the slot of the grid at or after it, with the
        // remainder stepping gives there. Fails with `kn % den` taken from another product.
        for period in [
            CellPeriod::from_bps(600_000_000),
            CellPeriod::from_bps(155_520_000).scaled(-2e-5),
            CellPeriod { num: 7, den: 3 },
        ] {
            let clock = SlotClock::with_phase(period, 11);
            let grid = clock.grid();
            let mut m = clock.mark();
            let mut t = 0;
            for _ in 0..300 {
                while t <= m.time() {
                    let got = clock.mark_at_or_after(t);
                    // The unphased rule, shifted by the phase.
                    let shifted = if t <= grid.phase {
                        grid.phase
                    } else {
                        grid.phase + unphased_slot_at_or_after(&period, t - grid.phase)
                    };
                    assert_eq!(got.time(), shifted, "{period:?} {t}");
                    assert_eq!(got, m, "{period:?} {t}");
                    t += 1 + period.ceil_ps() / 97;
                }
                clock.step(&mut m);
            }
            for t in [PS_PER_S * 3600, PS_PER_S * 3600 * 24 * 30] {
                let got = clock.mark_at_or_after(t);
                assert_eq!(got, clock.align_mark(clock.mark(), t), "{period:?} {t}");
            }
        }
    }

    #[test]
    fn align_matches_stepping() {
        let p = CellPeriod::from_cells_per_s(365_566);
        let mut stepped = SlotClock::new(p);
        for _ in 0..1000 {
            stepped.advance();
        }
        let mut jumped = SlotClock::new(p);
        jumped.align(stepped.next() - 1);
        assert_eq!(jumped.next(), stepped.next());
        assert_eq!(jumped.k(), stepped.k());
        assert_eq!(jumped.rem, stepped.rem);
        jumped.align(stepped.next()); // already there: no move
        assert_eq!(jumped.next(), stepped.next());
    }

    #[test]
    fn align_agrees_with_the_exact_formula() {
        for period in [
            CellPeriod::from_bps(155_520_000),
            CellPeriod::from_cells_per_s(365_566),
            CellPeriod::from_bps(7),
        ] {
            let mut c = SlotClock::new(period);
            let mut t: Time = 0;
            for i in 0..2000u64 {
                t += (i * 7_919_993) % 50_000_000 + 1;
                let before = c.k();
                c.align(t);
                let (num, den) = (period.num as u128, period.den as u128);
                let k = (t as u128 * den).div_ceil(num).max(before);
                assert_eq!(c.k(), k);
                assert_eq!(c.next() as u128, k * num / den);
                c.advance();
            }
        }
    }

    #[test]
    fn a_walk_gives_the_slots_advance_gives_plus_the_latency() {
        // Grids with slots of q and q + 1 in every proportion (r near 0, near den / 2, near
        // den), a drifted one, an integer period (den = 1, r = 0) and a phase; walks of every
        // length from every start of a prefix, ended and resumed on the clock.
        let nominal = CellPeriod::from_bps(155_520_000);
        let periods = [
            nominal,
            nominal.scaled(20e-6),
            CellPeriod::from_cells_per_s(365_566),
            CellPeriod { num: 7 * 1000 + 1, den: 1000 },
            CellPeriod { num: 7 * 1000 + 999, den: 1000 },
            CellPeriod { num: 2_000_000, den: 1 },
        ];
        for p in periods {
            let latency = 12_345_678;
            let mut walked = SlotClock::with_phase(p, 777);
            let mut stepped = walked.clone();
            let mut longer = 0;
            for n in 1..200u64 {
                let mut w = walked.walk(latency);
                for _ in 0..n {
                    let at = w.next_at();
                    assert_eq!(at, stepped.next() + latency, "{p:?}");
                    let before = stepped.next();
                    stepped.advance();
                    longer += u64::from(stepped.next() - before > stepped.shortest_slot());
                }
                walked.end_walk(&w, latency);
                assert_eq!((walked.next(), walked.rem), (stepped.next(), stepped.rem), "{p:?}");
            }
            // The slots of q + 1 were walked where the grid has them (none on an integer grid).
            assert_eq!(longer == 0, p.num % p.den == 0, "{p:?}");
        }
    }

    #[test]
    fn a_walk_from_a_mark_steps_as_the_mark_and_gives_it_back() {
        // `Port::train` walks from a mark and turns the walk back into one off its common
        // path: from marks at every remainder the grids have near their start, each slot of
        // the walk is the mark's slot (stepped alike), and `walked_mark` is the mark itself.
        let nominal = CellPeriod::from_bps(155_520_000);
        for p in [nominal, nominal.scaled(-20e-6), CellPeriod { num: 7 * 1000 + 999, den: 1000 }] {
            let clock = SlotClock::with_phase(p, 4321);
            let mut start = clock.mark();
            for _ in 0..300 {
                let (mut w, mut m) = (clock.walk_from(start, 0), start);
                for _ in 0..40 {
                    assert_eq!(w.at(), m.time(), "{p:?}");
                    assert_eq!(clock.walked_mark(&w, 0), m, "{p:?}");
                    w.skip();
                    clock.step(&mut m);
                }
                let with_latency = clock.walk_from(start, 777);
                assert_eq!(with_latency.at(), start.time() + 777);
                assert_eq!(clock.walked_mark(&with_latency, 777), start);
                clock.step(&mut start);
            }
        }
    }

    /// The first slot at or after `t` of a grid with period `p` and no phase (slot k at
    /// floor(k * num / den)), from the definition in 128 bits: the yardstick of the engine's.
    fn unphased_slot_at_or_after(p: &CellPeriod, t: Time) -> Time {
        let (num, den) = (p.num as u128, p.den as u128);
        let k = (t as u128 * den).div_ceil(num);
        (k * num / den) as Time
    }

    #[test]
    fn the_first_slot_at_or_after_in_64_bits_is_the_wide_one() {
        // Undrifted links (small `den`: the 64-bit path), drifted ones (`den` up to 2^40: the
        // wide path from a few seconds on), and a period whose products overflow at once.
        let mut periods: Vec<CellPeriod> =
            [1_500_000u64, 150_000_000, 155_520_000, 600_000_000, 622_080_000, 2_488_320_000]
                .iter()
                .map(|&b| CellPeriod::from_bps(b))
                .collect();
        periods.extend([20e-6, -1e-3, 3.7e-7].iter().map(|&e| CellPeriod::from_bps(155_520_000).scaled(e)));
        periods.push(CellPeriod { num: (1 << 62) + 7, den: 3 });
        let mut t: Time = 0;
        let mut ts = vec![0, 1, Time::MAX / 2, Time::MAX / 3 - 1, Time::MAX - 1];
        for i in 0..4000u64 {
            t = t.wrapping_add(i * 7_919_993_311 % 90_000_000_000_000 + 1);
            ts.push(t % 3_600_000_000_000_000);
        }
        for p in &periods {
            for &t in &ts {
                // An unphased grid: the 64-bit path where it holds, the wide one past it.
                let unphased = SlotGrid { period: *p, phase: 0 };
                assert_eq!(unphased.slot_at_or_after(t), unphased_slot_at_or_after(p, t), "{p:?} at {t}");
                // A phased grid's mark: the 64-bit path where it holds, the wide one past it.
                let grid = SlotGrid { period: *p, phase: 5 };
                if t > grid.phase && t < Time::MAX / 2 {
                    assert_eq!(grid.mark_at_or_after(t), grid.mark_at_or_after_wide(t), "{p:?} at {t}");
                }
            }
        }
    }

    #[test]
    fn a_phased_grid_is_the_unphased_one_shifted() {
        let p = CellPeriod::from_bps(155_520_000);
        let phase = 1_234_567;
        let (mut plain, mut phased) = (SlotClock::new(p), SlotClock::with_phase(p, phase));
        assert_eq!(phased.next(), phase);
        let grid = phased.grid();
        assert_eq!(grid.slot_at_or_after(0), phase);
        let mut t: Time = phase;
        for i in 0..3000u64 {
            t += (i * 7_919_993) % 50_000_000 + 1;
            plain.align(t - phase);
            phased.align(t);
            assert_eq!(phased.next(), plain.next() + phase, "at {t}");
            // A fresh clock aligned to t lands where the grid says.
            let mut fresh = SlotClock::with_phase(p, phase);
            fresh.align(t);
            assert_eq!(fresh.next(), grid.slot_at_or_after(t));
            phased.advance();
            plain.advance();
        }
    }

    #[test]
    fn a_drifted_clock_runs_at_exactly_its_scaled_rate() {
        let nominal = CellPeriod::from_bps(155_520_000);
        for e in [20e-6, -20e-6, 1e-3, -1e-3, 3.7e-7] {
            let p = nominal.scaled(e);
            // The fraction is the drawn error to within its rounding step.
            let got = p.num as f64 / p.den as f64 / (nominal.num as f64 / nominal.den as f64) - 1.0;
            assert!((got - e).abs() < 1e-15, "{e}: {got}");
            // Long run exact: after den slots the clock is exactly num picoseconds on, and at
            // any slot k it stands at floor(k * num / den), with no accumulated rounding.
            let mut c = SlotClock::with_phase(p, 5);
            let mut k: u128 = 0;
            for step in [1u64, 999, 366_792, 10_000_000] {
                for _ in 0..step {
                    c.advance();
                }
                k += step as u128;
                assert_eq!(c.next() as u128, 5 + k * p.num as u128 / p.den as u128);
            }
            // One simulated second holds 366 792.45 / (1 + e) slots, to first order
            // 366 792.45 * (1 - e): the drift is there, with its sign.
            let slots = PS_PER_S as f64 * p.den as f64 / p.num as f64;
            assert!((slots / (155_520_000.0 / 424.0) - 1.0 + e).abs() < 1e-12 + 2.0 * e * e, "{e}");
            // Jumping lands where stepping does.
            let mut jumped = SlotClock::with_phase(p, 5);
            jumped.align(c.next() - 1);
            assert_eq!((jumped.next(), jumped.k(), jumped.rem), (c.next(), c.k(), c.rem));
        }
        assert_eq!(nominal.scaled(0.0), nominal);
        // The slowest and the fastest link rates a scenario accepts stay representable.
        for p in [CellPeriod::from_bps(1), CellPeriod::from_bps(424_000_000_000_000), CellPeriod::from_bps(7)]
        {
            for e in [1e-3, -1e-3] {
                let d = p.scaled(e);
                let got = d.num as f64 / d.den as f64 / (p.num as f64 / p.den as f64) - 1.0;
                assert!((got - e).abs() < 1e-12, "{p:?} {e}: {got}");
            }
        }
    }

    #[test]
    fn a_jump_is_exact_where_a_quotient_by_a_reciprocal_falls_short() {
        // Small grids and every gap up to sixty slots: `jumped`'s quotients, taken as a
        // multiplication by a reciprocal rounded down, fall a unit short whenever the exact one
        // is whole (7/2 ps slots, 44 ps ahead: 10 slots, not 11, whose remainders sum to
        // 10 = 5 * 2, taken as 4 * 2 + 2); the mark must still be the one stepping finds, and a
        // reciprocal rounded up (a jump past `t`) fails here.
        for (num, den) in [(7, 2), (10, 3), (31, 5), (64, 7), (9, 1), (1001, 8)] {
            let period = CellPeriod { num, den };
            for phase in [0, 3] {
                for from in [0, 5, 17] {
                    for t in from..from + 60 * (num / den + 1) {
                        let mut jumped = SlotClock::with_phase(period, phase);
                        let mut stepped = SlotClock::with_phase(period, phase);
                        jumped.align(from);
                        stepped.align(from);
                        jumped.align(t);
                        while stepped.next() < t {
                            stepped.advance();
                        }
                        assert_eq!(jumped.mark(), stepped.mark(), "{num}/{den} phase {phase} {from} -> {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_jump_by_reciprocals_is_exact_up_to_its_bound_and_past_it() {
        // Gaps around `far` (the longest taken by reciprocals, without overflow checks) and
        // around four slots, on grids with a large denominator (a drifted 155.52 Mb/s clock,
        // den ~ 1e10 .. 1e12) and small ones: the mark is the grid's own first slot from `t`
        // (`jump_exact`). In a debug build an overflow of `n * r + rem` panics here (as it does
        // with `far` taken as the four-slot bound alone).
        let oc3 = CellPeriod::from_bps(155_520_000);
        // A T1-like clock (slots of ~0.27 ms) with a denominator of 2^35 and the largest
        // remainder per slot: the overflow bound, not the four slots left, is the tighter one.
        let t1 = CellPeriod { num: 274_614_969 * (1 << 35) - 1, den: 1 << 35 };
        for period in [
            oc3,
            oc3.scaled(1.7e-5),
            oc3.scaled(-3e-4),
            CellPeriod { num: 7, den: 2 },
            CellPeriod::from_bps(7),
            t1,
        ] {
            let mut c = SlotClock::with_phase(period, 12_345);
            for _ in 0..37 {
                c.advance();
            }
            let m = c.mark();
            let q1 = c.q + 1;
            assert!(c.far > 4 * q1 || period.num / period.den < 4, "{period:?}: far {}", c.far);
            if period == t1 {
                assert!(c.far < 2 * q1 * q1, "the overflow bound binds: {period:?} q {} far {}", c.q, c.far);
            }
            for gap in [
                4 * q1,
                4 * q1 + 1,
                7 * q1 + 3,
                c.far / 3,
                c.far - 1,
                c.far,
                c.far.saturating_add(1),
                c.far.saturating_mul(2),
            ] {
                let Some(t) = m.t.checked_add(gap) else { continue };
                if t - c.phase >= u64::MAX / 4 {
                    continue;
                }
                // The mark and the slots moved (`align_mark_counted`).
                assert_eq!(c.jumped_counted(m, t), c.jump_exact(m, t), "{period:?} gap {gap}");
            }
        }
    }

    #[test]
    fn a_far_jump_lands_on_the_first_slot_at_or_after_its_instant() {
        // `jumped` goes straight to the slot after the one (gap - 1) / (q + 1) slots on; on a
        // grid whose slots are nearly all q + 1 long (39/10 ps: runs of nine 4 ps slots), a
        // slot starting exactly at `t` after a run of them is where a quotient of gap / (q + 1)
        // instead would skip a slot. Every instant over 40 slots, from every remainder, against
        // stepping; `align_mark` too.
        for period in
            [CellPeriod { num: 39, den: 10 }, CellPeriod { num: 7, den: 2 }, CellPeriod { num: 41, den: 8 }]
        {
            let mut c = SlotClock::new(period);
            for _ in 0..period.den {
                let m = c.mark();
                for t in m.t + 1..m.t + 40 * (c.q + 1) {
                    let (mut want, mut slots) = (m, 0);
                    while want.t < t {
                        c.step(&mut want);
                        slots += 1;
                    }
                    assert_eq!(c.jumped(m, t), want, "{period:?} from {m:?} to {t}");
                    assert_eq!(c.align_mark_counted(m, t), (want, slots), "{period:?} from {m:?} to {t}");
                    // `align_mark` steps in line only within q ps of `m` (a slot may last q).
                    assert_eq!(c.align_mark(m, t), want, "{period:?} from {m:?} to {t}");
                }
                c.advance();
            }
        }
    }

    #[test]
    fn a_mark_aligns_and_steps_back_as_the_clock_does() {
        // `align_mark` on a mark lands where `align` moves the clock (one slot ahead, a few,
        // far), and `before` undoes a step, across remainder wraps.
        let p = CellPeriod::from_bps(155_520_000).scaled(1.7e-5);
        let mut c = SlotClock::with_phase(p, 999);
        let mut t: Time = 999;
        for i in 0..5000u64 {
            let m = c.mark();
            t += [1, 2_700_000, 2_800_000, 6_000_000, 40_000_000_000][(i % 5) as usize] + i;
            let aligned = c.align_mark(m, t);
            c.align(t);
            assert_eq!(aligned, c.mark(), "at {t}");
            let mut s = aligned;
            c.step(&mut s);
            assert_eq!(c.before(s), aligned);
            c.advance();
            assert_eq!(c.mark(), s);
        }
    }

    #[test]
    fn align_never_goes_back() {
        let mut c = SlotClock::new(CellPeriod::from_bps(155_520_000));
        c.align(10 * PS_PER_US);
        let t = c.next();
        c.align(PS_PER_US);
        assert_eq!(c.next(), t);
    }
}
