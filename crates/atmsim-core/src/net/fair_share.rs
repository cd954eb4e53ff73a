//! Fair-share enforcement for the CLASS study's adaptive shaping.
//!
//! The paper lists, among the features of its adaptive shaping (section 2.1), that "switches are
//! able to enforce fairness in the partition of the bandwidth among connections", uses it in the
//! two-node runs (figures 5-6: "all of them receive the same amount of bandwidth") and turns it
//! off in the Italian runs (figure 12: "with no enforcement of fairness"). It does not say how.
//! The only signal its switches have toward a source is the ternary feedback of backward RM
//! cells. Fairness is therefore enforced through that feedback, selectively per VC, as the ATM
//! Forum's switch schemes of the time did ("intelligent" marking, EPRCA): the switch compares the
//! rate the source declares in the RM cell (its current cell rate, CCR, a field of every ABR RM
//! cell, TM 4.0 clause 5.10.3.1) with the VC's fair share of the bandwidth left free by the other
//! traffic, and for a VC under enforcement its own feedback is
//!
//! - DR while the buffer is above T_h (the buffer's protection stays);
//! - otherwise DR above the share, KR within [`KEEP_BAND`] of it, IR below: a VC held back while
//!   others filled the buffer climbs back, a VC above its share comes down even when the buffer
//!   is short;
//! - but one step per declared rate: every RM cell a source sends in one round trip declares the
//!   same rate, so the switch, which remembers per VC the rate it last answered with a step,
//!   gives KR to the others. Without this a source 1 % above its share got a DR from each of the
//!   30-40 RM cells of a 1000 km round trip and fell from 50 to about 4 Mb/s (tried: the three
//!   connections of figure 5 without background then got 5 Mb/s each).
//!
//! An RM cell that already carries KR or DR keeps it (the paper's rule that feedback only gets
//! more pessimistic on the way back). Per-VC round-robin service was the alternative; it was not
//! chosen because it changes which cells a full buffer loses rather than how fast the sources
//! send, and the paper credits the fairness to "a mechanism that allows the transmission rate to
//! be controlled, and the fairness among connections to be enforced". The CCR is used rather than
//! a rate the switch measures per VC because a measured rate lags the source by a measurement
//! interval on top of the round trip, and with one N_S step per RM cell that lag made the rates
//! swing over the whole grid (tried first: it lowered the fairness of the end-to-end test below
//! that of no enforcement).
//!
//! The forward port measures, over consecutive intervals of length `interval`, the cells of all
//! traffic other than the enforced VCs, and which enforced VCs sent at all. At the end of an
//! interval the fair share, in cells per second, is
//!
//! ```text
//!   share = (C - other cells / elapsed) / (enforced VCs that sent in the interval)
//! ```
//!
//! published as a [`LevelLog`] the reverse port reads when a backward RM cell passes, as it reads
//! the buffer band (the share in force just before its instant, see `level_log`). An interval
//! is closed by the first arrival at or after its end, and its counts are divided by the time
//! actually elapsed, so a quiet spell does not distort the share.

use super::LevelLog;
use crate::abr::Feedback;
use crate::time::{CellPeriod, Time, PS_PER_S};

/// `slot` entry of a VC the meter does not enforce (counted as other traffic).
const OTHER: u32 = u32::MAX;

/// The share published while no enforced VC sends: no limit.
pub const NO_LIMIT: u32 = u32::MAX;

/// A VC declaring at least this fraction of its share, and at most the share, gets KR. An
/// assumption (the paper gives no rule): the band must hold at least one rate of the source's
/// grid C / N_S, or a VC would get IR and DR by turns forever; the steps of the grid around the
/// 30-50 Mb/s shares of the two-node runs (N_S = 3..5) are 17-25 % of the rate, around 15 Mb/s
/// (N_S = 10) 9 %. With 0.875 the band holds one grid rate for N_S >= 7 and may hold none
/// above 21 Mb/s, where the rate then alternates between the two grid rates around the share.
pub const KEEP_BAND: f64 = 0.875;

/// Declared rates within this fraction above the share count as at the share: the CCR and the
/// share are whole cells per second, rounded apart (C / 3 declared by each of three sources
/// alone on a link is a tie, not an excess).
pub const TIE: f64 = 1e-4;

/// No rate answered with a step yet.
pub const NONE_STEPPED: u32 = u32::MAX;

/// The switch's feedback for a VC under enforcement whose RM cell declares `ccr` cells/s
/// against `share`, the buffer being in `band`; `stepped` is the rate the switch last answered
/// for this VC with a step (IR or DR), updated here.
#[inline]
pub fn enforced(band: Feedback, ccr: u32, share: u32, stepped: &mut u32) -> Feedback {
    if band == Feedback::Decrease {
        return Feedback::Decrease;
    }
    let (ccr_f, share_f) = (f64::from(ccr), f64::from(share));
    let f = if ccr_f > share_f * (1.0 + TIE) {
        Feedback::Decrease
    } else if ccr_f >= KEEP_BAND * share_f {
        Feedback::Keep
    } else {
        Feedback::Increase
    };
    if f == Feedback::Keep {
        return f;
    }
    if *stepped == ccr {
        return Feedback::Keep;
    }
    *stepped = ccr;
    f
}

/// One forward port's meter of the bandwidth its enforced VCs may share.
#[derive(Debug, Clone)]
pub struct FairShareMeter {
    interval: Time,
    /// The outgoing link's cell period (C = 1 / period).
    period: CellPeriod,
    start: Time,
    next_close: Time,
    /// Per connection VC: its index among the enforced VCs, or `OTHER`.
    slot: Vec<u32>,
    /// Per enforced VC: sent in the current interval.
    sent: Vec<bool>,
    other: u64,
    /// Index of this port's share log in `World::shares`, and the share last published.
    log: u32,
    share: u32,
    /// Intervals closed.
    pub intervals: u64,
}

impl FairShareMeter {
    /// Its fair-share log (index in `World::shares`).
    pub fn log(&self) -> u32 {
        self.log
    }

    /// A meter on a link of cell period `period`, for `n_vcs` connection VCs, none enforced yet,
    /// publishing to `World::shares[log]` (which must start at `NO_LIMIT`).
    pub fn new(interval: Time, period: CellPeriod, n_vcs: usize, log: u32) -> Self {
        assert!(interval > 0, "validated: a positive interval");
        FairShareMeter {
            interval,
            period,
            start: 0,
            next_close: interval,
            slot: vec![OTHER; n_vcs],
            sent: Vec::new(),
            other: 0,
            log,
            share: NO_LIMIT,
            intervals: 0,
        }
    }

    /// Enforce a share on `vc`.
    pub fn enforce(&mut self, vc: usize) {
        self.slot[vc] = self.sent.len() as u32;
        self.sent.push(false);
    }

    /// A cell of `vc` entered the buffer at `now`.
    #[inline]
    pub fn arrival(&mut self, now: Time, vc: usize, shares: &mut [LevelLog<u32>]) {
        if now >= self.next_close {
            self.close(now, shares);
        }
        match self.slot.get(vc) {
            Some(&s) if s != OTHER => self.sent[s as usize] = true,
            _ => self.other += 1,
        }
    }

    /// End the interval at `now`: publish the share if it changed, start the next interval.
    #[cold]
    #[inline(never)]
    fn close(&mut self, now: Time, shares: &mut [LevelLog<u32>]) {
        let elapsed_s = (now - self.start) as f64 / PS_PER_S as f64;
        let c = PS_PER_S as f64 * self.period.den as f64 / self.period.num as f64;
        let active = self.sent.iter().filter(|&&s| s).count();
        let share = if active == 0 {
            NO_LIMIT
        } else {
            ((c - self.other as f64 / elapsed_s) / active as f64).clamp(0.0, f64::from(NO_LIMIT - 1)) as u32
        };
        if share != self.share {
            self.share = share;
            shares[self.log as usize].push(now, share);
        }
        self.sent.iter_mut().for_each(|s| *s = false);
        self.other = 0;
        self.intervals += 1;
        self.start = now;
        self.next_close = now + self.interval;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Feedback::*;

    /// A 1 ms interval on a link of one cell per microsecond (10^6 cells/s), VCs 0 and 1
    /// enforced, 2 and 3 other traffic.
    fn meter() -> (FairShareMeter, Vec<LevelLog<u32>>) {
        let mut m = FairShareMeter::new(1_000_000_000, CellPeriod { num: 1_000_000, den: 1 }, 4, 0);
        m.enforce(0);
        m.enforce(1);
        (m, vec![LevelLog::new(NO_LIMIT)])
    }

    fn feed(m: &mut FairShareMeter, logs: &mut [LevelLog<u32>], t0: Time, cells: &[(usize, u32)]) {
        let mut t = t0;
        for &(vc, n) in cells {
            for _ in 0..n {
                m.arrival(t, vc, logs);
                t += 1;
            }
        }
    }

    #[test]
    fn the_share_is_the_free_bandwidth_over_the_enforced_vcs_that_sent() {
        let (mut m, mut logs) = meter();
        // 400 cells of other traffic in 1 ms leave 600 000 cells/s to two VCs.
        feed(&mut m, &mut logs, 0, &[(2, 200), (3, 200), (0, 1), (1, 1)]);
        m.arrival(1_000_000_000, 2, &mut logs);
        assert_eq!(logs[0].at(1_000_000_001), 300_000);
        assert_eq!(logs[0].at(1_000_000_000), NO_LIMIT, "in force from the close on, not before");
        // VC 1 silent next interval: VC 0 may have all that is free (the closing cell of the
        // last interval counts in this one).
        feed(&mut m, &mut logs, 1_000_000_001, &[(2, 99), (0, 5)]);
        m.arrival(2_000_000_000, 0, &mut logs);
        assert_eq!(logs[0].at(2_000_000_001), 900_000);
        assert_eq!(m.intervals, 2);
    }

    #[test]
    fn a_late_close_divides_by_the_time_elapsed_and_no_sender_means_no_limit() {
        let (mut m, mut logs) = meter();
        feed(&mut m, &mut logs, 0, &[(2, 1000), (0, 1)]);
        // 1000 other cells over 4 ms: 250 000 cells/s, leaving 750 000 to VC 0.
        m.arrival(4_000_000_000, 2, &mut logs);
        assert_eq!(logs[0].at(4_000_000_001), 750_000);
        m.arrival(5_000_000_000, 2, &mut logs);
        assert_eq!(logs[0].at(5_000_000_001), NO_LIMIT);
    }

    #[test]
    fn more_other_traffic_than_capacity_leaves_a_share_of_zero() {
        let (mut m, mut logs) = meter();
        feed(&mut m, &mut logs, 0, &[(3, 1200), (0, 1), (1, 1)]);
        m.arrival(1_000_000_000, 3, &mut logs);
        assert_eq!(logs[0].at(1_000_000_001), 0);
        assert_eq!(enforced(Increase, 1, 0, &mut NONE_STEPPED.clone()), Decrease);
    }

    #[test]
    fn feedback_follows_the_declared_rate_against_the_share() {
        let fresh = |band, ccr, share| enforced(band, ccr, share, &mut NONE_STEPPED.clone());
        assert_eq!(fresh(Increase, 1001, 1000), Decrease);
        assert_eq!(fresh(Increase, 1000, 1000), Keep);
        assert_eq!(fresh(Increase, 117_925, 117_924), Keep, "a rounding tie is not an excess");
        assert_eq!(fresh(Increase, 875, 1000), Keep);
        assert_eq!(fresh(Increase, 874, 1000), Increase);
        assert_eq!(fresh(Keep, 500, 1000), Increase, "under its share: not held back by T_l");
        assert_eq!(fresh(Decrease, 500, 1000), Decrease, "above T_h every VC slows down");
        assert_eq!(fresh(Increase, 500, NO_LIMIT), Increase);
    }

    #[test]
    fn each_declared_rate_gets_one_step() {
        let mut stepped = NONE_STEPPED;
        // A round trip of RM cells all declaring 1500 against a share of 1000: one DR.
        assert_eq!(enforced(Increase, 1500, 1000, &mut stepped), Decrease);
        assert_eq!(enforced(Increase, 1500, 1000, &mut stepped), Keep);
        assert_eq!(enforced(Increase, 1500, 1000, &mut stepped), Keep);
        // The source has stepped down: its new rate is answered again.
        assert_eq!(enforced(Increase, 1200, 1000, &mut stepped), Decrease);
        assert_eq!(enforced(Increase, 600, 1000, &mut stepped), Increase);
        assert_eq!(enforced(Increase, 600, 1000, &mut stepped), Keep);
        // The buffer's protection is never held back.
        assert_eq!(enforced(Decrease, 600, 1000, &mut stepped), Decrease);
        assert_eq!(enforced(Decrease, 600, 1000, &mut stepped), Decrease);
    }
}
