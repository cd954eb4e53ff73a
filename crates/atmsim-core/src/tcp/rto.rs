//! The BSD retransmission-timeout estimator, in ticks of the slow timer (Jacobson 1988 as coded
//! in 4.3BSD-Reno / 4.4BSD `tcp_xmit_timer`): srtt scaled by 8, rttvar by 4, and
//! RTO = srtt + 4 * rttvar, bounded below by max(min RTO, measured RTT + 2 ticks).

#[derive(Debug, Clone)]
pub struct Rto {
    /// Smoothed RTT in ticks, times 8; 0 before the first sample.
    srtt8: i64,
    /// RTT mean deviation in ticks, times 4.
    rttvar4: i64,
    /// The current (un-backed-off) timeout in ticks.
    base: u32,
    /// The timeout in force, backoff included.
    cur: u32,
    min: u32,
    max: u32,
}

impl Rto {
    pub fn new(initial_ticks: u32, min_ticks: u32, max_ticks: u32) -> Self {
        // A bound pair the wrong way round (rejected by scenario validation) must not panic.
        let max_ticks = max_ticks.max(min_ticks);
        let base = initial_ticks.clamp(min_ticks, max_ticks);
        Rto { srtt8: 0, rttvar4: 0, base, cur: base, min: min_ticks, max: max_ticks }
    }

    /// The timeout to arm, in ticks.
    pub fn current(&self) -> u32 {
        self.cur
    }

    /// Smoothed RTT in ticks, if any sample was taken.
    pub fn srtt_ticks(&self) -> Option<f64> {
        (self.srtt8 > 0).then(|| self.srtt8 as f64 / 8.0)
    }

    /// A new RTT sample: `ticks` is the BSD `t_rtt` count (1 + slow-timer ticks elapsed).
    pub fn sample(&mut self, ticks: u32) {
        let rtt = ticks as i64;
        if self.srtt8 != 0 {
            // Errors are measured against srtt in whole ticks, as `t_rtt` starts at 1.
            let mut delta = rtt - 1 - (self.srtt8 >> 3);
            self.srtt8 = (self.srtt8 + delta).max(1);
            delta = delta.abs() - (self.rttvar4 >> 2);
            self.rttvar4 = (self.rttvar4 + delta).max(1);
        } else {
            self.srtt8 = rtt << 3;
            self.rttvar4 = rtt << 1;
        }
        let val = ((self.srtt8 >> 3) + self.rttvar4).max(0) as u32;
        let floor = self.min.max(ticks + 2);
        self.base = val.clamp(floor.min(self.max), self.max);
        self.cur = self.base;
    }

    /// A timeout fired for the `shift`-th time in a row: back off (BSD tcp_backoff table,
    /// doubling up to 64 times).
    pub fn back_off(&mut self, shift: u32) {
        let mult = 1u64 << shift.min(6);
        self.cur = (self.base as u64 * mult).clamp(self.min as u64, self.max as u64) as u32;
        // After several timeouts the estimate is suspect: BSD folds srtt into rttvar and
        // forgets srtt so the next sample starts afresh.
        if shift > 3 && self.srtt8 != 0 {
            self.rttvar4 += self.srtt8 >> 3;
            self.srtt8 = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sample_sets_rto_to_three_halves_of_twice_rtt() {
        // rtt = 1 tick: srtt8 = 8, rttvar4 = 2 -> RTO = 1 + 2 = 3, floor max(2, 3) = 3.
        let mut r = Rto::new(30, 2, 640);
        assert_eq!(r.current(), 30);
        r.sample(1);
        assert_eq!(r.current(), 3);
        assert_eq!(r.srtt_ticks(), Some(1.0));
    }

    #[test]
    fn backoff_doubles_and_is_capped() {
        let mut r = Rto::new(30, 2, 640);
        r.sample(1);
        r.back_off(1);
        assert_eq!(r.current(), 6);
        r.back_off(2);
        assert_eq!(r.current(), 12);
        r.back_off(12);
        assert_eq!(r.current(), 192);
        let mut capped = Rto::new(30, 2, 100);
        capped.back_off(10);
        assert_eq!(capped.current(), 100);
    }

    #[test]
    fn steady_samples_converge() {
        let mut r = Rto::new(30, 2, 640);
        for _ in 0..50 {
            r.sample(5);
        }
        // srtt -> 4 (t_rtt - 1), rttvar -> small: RTO close to max(4 + 4*var, 5 + 2).
        assert_eq!(r.current(), 7);
    }
}
