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

    /// The start of the first slot of a grid with this period (slot k at floor(k * num / den))
    /// that begins at or after `t`.
    pub fn slot_at_or_after(&self, t: Time) -> Time {
        let (num, den) = (self.num as u128, self.den as u128);
        let k = (t as u128 * den).div_ceil(num);
        (k * num / den) as Time
    }

    /// The period rounded up to a whole picosecond: the latency a cell needs to cross the wire.
    pub fn ceil_ps(&self) -> Time {
        self.num.div_ceil(self.den)
    }
}

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
        if t <= self.phase {
            self.phase
        } else {
            self.phase + self.period.slot_at_or_after(t - self.phase)
        }
    }
}

/// The slot grid of one transmitter: slot `k` starts at `phase + floor(k * num / den)`.
///
/// The phase is where the transmitter's free-running oscillator put slot 0 (`scenario::phases`
/// draws it; 0 for every transmitter reproduces the phase-locked model). Advancing one slot costs
/// an add and a compare (no division); jumping to the first free slot after an idle period costs
/// one 128-bit division.
#[derive(Debug, Clone)]
pub struct SlotClock {
    period: CellPeriod,
    phase: Time,
    q: u64,
    r: u64,
    /// Index of the next slot that may carry a cell.
    k: u64,
    /// Start time of slot `k`.
    t: Time,
    /// `k * num mod den`.
    rem: u64,
}

impl SlotClock {
    /// A grid with slot 0 at t = 0.
    pub fn new(period: CellPeriod) -> Self {
        Self::with_phase(period, 0)
    }

    /// A grid with slot 0 at `phase`.
    pub fn with_phase(period: CellPeriod, phase: Time) -> Self {
        SlotClock {
            q: period.num / period.den,
            r: period.num % period.den,
            period,
            phase,
            k: 0,
            t: phase,
            rem: 0,
        }
    }

    pub fn period(&self) -> CellPeriod {
        self.period
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
        self.k += 1;
        self.t += self.q;
        self.rem += self.r;
        if self.rem >= self.period.den {
            self.rem -= self.period.den;
            self.t += 1;
        }
    }

    /// Make the next free slot the first one starting at or after `t` (never an earlier one).
    #[inline]
    pub fn align(&mut self, t: Time) {
        if t > self.t {
            self.jump(t);
        }
    }

    fn jump(&mut self, t: Time) {
        // Jump close without 128-bit arithmetic: each slot lasts q or q + 1 ps, so skipping
        // gap / (q + 1) slots cannot pass `t`; then step the few slots that remain.
        let n = (t - self.t) / (self.q + 1);
        if let Some(tot) = n.checked_mul(self.r).and_then(|x| x.checked_add(self.rem)) {
            self.k += n;
            self.t += n * self.q + tot / self.period.den;
            self.rem = tot % self.period.den;
            if t - self.t.min(t) <= 4 * (self.q + 1) {
                while self.t < t {
                    self.advance();
                }
                return;
            }
        }
        let (num, den) = (self.period.num as u128, self.period.den as u128);
        // smallest k with floor(k*num/den) >= t'  <=>  k*num >= t'*den  (t' = t - phase, an
        // integer; t > self.t >= phase here)
        let k = ((t - self.phase) as u128 * den).div_ceil(num);
        let prod = k * num;
        self.k = k as u64;
        self.t = self.phase + (prod / den) as Time;
        self.rem = (prod % den) as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn align_matches_stepping() {
        let p = CellPeriod::from_cells_per_s(365_566);
        let mut stepped = SlotClock::new(p);
        for _ in 0..1000 {
            stepped.advance();
        }
        let mut jumped = SlotClock::new(p);
        jumped.align(stepped.next() - 1);
        assert_eq!(jumped.next(), stepped.next());
        assert_eq!(jumped.k, stepped.k);
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
                let before = c.k as u128;
                c.align(t);
                let (num, den) = (period.num as u128, period.den as u128);
                let k = (t as u128 * den).div_ceil(num).max(before);
                assert_eq!(c.k as u128, k);
                assert_eq!(c.next() as u128, k * num / den);
                c.advance();
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
    fn align_never_goes_back() {
        let mut c = SlotClock::new(CellPeriod::from_bps(155_520_000));
        c.align(10 * PS_PER_US);
        let t = c.next();
        c.align(PS_PER_US);
        assert_eq!(c.next(), t);
    }
}
