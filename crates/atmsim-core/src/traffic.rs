//! Background (non-TCP) traffic sources, as bursts of cells for a host adapter to send.
//!
//! - `Cbr`: one cell every period.
//! - `OnOff`: exponential ON periods at the peak rate and exponential OFF periods; the credit/rate
//!   study's guaranteed sources, whose burstiness b_g = peak / mean rate sets the OFF mean:
//!   mean OFF = mean ON * (b_g - 1). Fourteen of them make its MMDP.
//! - `Messages`: Poisson message arrivals with truncated geometric lengths in cells (the CLASS
//!   study: mean 20 cells, at most 200, AAL3/4 segmented: 44 user octets per cell).

use crate::rng::Rng;
use crate::time::{from_secs_f64, Time};

/// Cells of a burst, sent one per `period` from `at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Burst {
    pub at: Time,
    pub cells: u32,
    pub period: Time,
}

#[derive(Debug, Clone)]
pub enum Source {
    Cbr { period: Time },
    OnOff { peak_period: Time, mean_on_s: f64, mean_off_s: f64 },
    Messages { mean_gap_s: f64, geometric_p: f64, max_cells: u32, period: Time },
}

/// User octets per cell with AAL3/4 (48 - 2 SAR header - 2 SAR trailer).
pub const AAL34_PAYLOAD: u32 = 44;

impl Source {
    /// An on-off source of `peak_bps` user bits per second (48 user octets per cell), mean burst
    /// `mean_burst_bytes` at the peak rate, and burstiness `b` (peak / mean).
    pub fn on_off(peak_bps: f64, mean_burst_bytes: f64, b: f64) -> Self {
        let mean_on_s = mean_burst_bytes * 8.0 / peak_bps;
        Source::OnOff {
            peak_period: from_secs_f64(48.0 * 8.0 / peak_bps),
            mean_on_s,
            mean_off_s: mean_on_s * (b - 1.0),
        }
    }

    /// Poisson messages carrying `user_bps` of user data on average, lengths truncated geometric
    /// with mean `mean_cells` and at most `max_cells`, cells sent back to back at `period`.
    pub fn messages(user_bps: f64, mean_cells: f64, max_cells: u32, period: Time) -> Self {
        let p = geometric_p_for_mean(mean_cells, max_cells);
        let cells_per_s = user_bps / (AAL34_PAYLOAD as f64 * 8.0);
        Source::Messages { mean_gap_s: mean_cells / cells_per_s, geometric_p: p, max_cells, period }
    }

    /// The burst after one that started at `after` (the first one: `after` = the start time).
    pub fn next(&self, after: Time, rng: &mut Rng) -> Burst {
        match *self {
            Source::Cbr { period } => Burst { at: after + period, cells: 1, period },
            Source::OnOff { peak_period, mean_on_s, mean_off_s } => {
                let on = from_secs_f64(rng.exponential(mean_on_s));
                let cells = (on / peak_period).max(1) as u32;
                let off = from_secs_f64(rng.exponential(mean_off_s));
                Burst { at: after + off, cells, period: peak_period }
            }
            Source::Messages { mean_gap_s, geometric_p, max_cells, period } => {
                let gap = from_secs_f64(rng.exponential(mean_gap_s));
                Burst { at: after + gap, cells: truncated_geometric(rng, geometric_p, max_cells), period }
            }
        }
    }
}

impl Source {
    /// User octets a cell carries: 44 with AAL3/4 (messages), 48 otherwise (the credit/rate
    /// study counts its VBR peak rate at 48 user octets per cell).
    pub fn payload(&self) -> u32 {
        match self {
            Source::Messages { .. } => AAL34_PAYLOAD,
            _ => 48,
        }
    }

    /// Mean cell rate (cells per second), for shaping at beta times it.
    pub fn mean_cells_per_s(&self) -> f64 {
        let per_s = |period: Time| 1e12 / period as f64;
        match *self {
            Source::Cbr { period } => per_s(period),
            Source::OnOff { peak_period, mean_on_s, mean_off_s } => {
                per_s(peak_period) * mean_on_s / (mean_on_s + mean_off_s)
            }
            Source::Messages { mean_gap_s, geometric_p, max_cells, .. } => {
                truncated_mean(geometric_p, max_cells) / mean_gap_s
            }
        }
    }
}

/// A source running in time: the burst due next, drawn from the source's own stream.
#[derive(Debug, Clone)]
pub struct Generator {
    pub source: Source,
    rng: Rng,
    due: Burst,
    pub bursts: u64,
    pub cells: u64,
}

impl Generator {
    pub fn new(source: Source, mut rng: Rng, start: Time) -> Self {
        let due = source.next(start, &mut rng);
        Generator { source, rng, due, bursts: 0, cells: 0 }
    }

    pub fn next_at(&self) -> Time {
        self.due.at
    }

    /// Take the burst due now: (cells, user octets). An on-off source's next OFF period starts
    /// when this burst's ON period ends; message arrivals are independent of their lengths.
    pub fn fire(&mut self) -> (u32, u32) {
        let b = self.due;
        let after = match self.source {
            Source::OnOff { .. } => b.at + b.cells as Time * b.period,
            _ => b.at,
        };
        self.due = self.source.next(after, &mut self.rng);
        self.bursts += 1;
        self.cells += u64::from(b.cells);
        (b.cells, b.cells * self.source.payload())
    }
}

/// A geometric length on 1, 2, ... with success probability p, redrawn until it is <= max.
pub fn truncated_geometric(rng: &mut Rng, p: f64, max: u32) -> u32 {
    loop {
        let u = 1.0 - rng.uniform();
        let k = (u.ln() / (1.0 - p).ln()).floor() as u64 + 1;
        if k <= max as u64 {
            return k as u32;
        }
    }
}

/// Mean of the geometric law on 1..=max.
fn truncated_mean(p: f64, max: u32) -> f64 {
    let q = 1.0 - p;
    let (mut num, mut den, mut w) = (0.0, 0.0, p);
    for k in 1..=max {
        num += k as f64 * w;
        den += w;
        w *= q;
    }
    num / den
}

/// The p whose truncated law has the given mean (bisection: the mean falls as p grows).
pub fn geometric_p_for_mean(mean: f64, max: u32) -> f64 {
    let (mut lo, mut hi) = (1e-9, 1.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if truncated_mean(mid, max) > mean {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::to_secs_f64;

    #[test]
    fn truncated_geometric_has_the_asked_mean_and_bound() {
        let p = geometric_p_for_mean(20.0, 200);
        assert!((truncated_mean(p, 200) - 20.0).abs() < 1e-9);
        let mut rng = Rng::stream(1, "geo");
        let n = 200_000;
        let draws: Vec<u32> = (0..n).map(|_| truncated_geometric(&mut rng, p, 200)).collect();
        let mean = draws.iter().map(|&k| k as f64).sum::<f64>() / n as f64;
        assert!((mean - 20.0).abs() < 0.2, "{mean}");
        assert!(draws.iter().all(|&k| (1..=200).contains(&k)));
    }

    #[test]
    fn on_off_mean_rate_is_peak_over_burstiness() {
        // Credit/rate study: 10 Mb/s peak, 4.8 KB mean burst, b = 1.2: mean 8.33 Mb/s.
        let s = Source::on_off(10e6, 4800.0, 1.2);
        let mut rng = Rng::stream(2, "vbr");
        let (mut t, mut cells) = (0, 0u64);
        for _ in 0..100_000 {
            let b = s.next(t, &mut rng);
            cells += b.cells as u64;
            t = b.at + b.cells as u64 * b.period;
        }
        let rate = cells as f64 * 48.0 * 8.0 / to_secs_f64(t);
        assert!((rate / (10e6 / 1.2) - 1.0).abs() < 0.02, "{rate}");
    }

    #[test]
    fn generator_mean_rate_matches_the_source() {
        let s = Source::on_off(10e6, 4800.0, 1.3);
        let mean = s.mean_cells_per_s();
        let mut g = Generator::new(s, Rng::stream(4, "g"), 0);
        let mut last = 0;
        while g.next_at() < 2_000 * 1_000_000_000_000 {
            last = g.next_at();
            g.fire();
        }
        let rate = g.cells as f64 / to_secs_f64(last);
        assert!((rate / mean - 1.0).abs() < 0.03, "{rate} vs {mean}");
        assert!((mean * 48.0 * 8.0 - 10e6 / 1.3).abs() < 1e3);
    }

    #[test]
    fn messages_carry_the_asked_user_rate() {
        let s = Source::messages(15e6, 20.0, 200, 1);
        let mut rng = Rng::stream(3, "bg");
        let (mut t, mut cells) = (0, 0u64);
        for _ in 0..200_000 {
            let b = s.next(t, &mut rng);
            cells += b.cells as u64;
            t = b.at;
        }
        let user_bps = cells as f64 * 44.0 * 8.0 / to_secs_f64(t);
        assert!((user_bps / 15e6 - 1.0).abs() < 0.02, "{user_bps}");
    }
}
