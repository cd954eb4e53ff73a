//! GCRA(T, tau) in its two equivalent forms (ITU-T I.371 annex A): virtual scheduling and the
//! continuous-state leaky bucket. Both decide on each cell whether it conforms; a
//! non-conforming cell leaves the state unchanged.

use crate::time::Time;

/// Virtual scheduling: a cell conforms unless it arrives more than tau before its theoretical
/// arrival time TAT.
#[derive(Debug, Clone)]
pub struct Gcra {
    pub t: Time,
    pub tau: Time,
    tat: Time,
}

impl Gcra {
    pub fn new(t: Time, tau: Time) -> Self {
        Gcra { t, tau, tat: 0 }
    }

    /// Test (and on success, account for) a cell arriving at `ta`.
    pub fn conforms(&mut self, ta: Time) -> bool {
        if self.tat > ta + self.tau {
            return false;
        }
        self.tat = self.tat.max(ta) + self.t;
        true
    }

    /// The earliest time a cell would conform (for shaping).
    pub fn earliest(&self) -> Time {
        self.tat.saturating_sub(self.tau)
    }

    pub fn tat(&self) -> Time {
        self.tat
    }
}

/// Continuous-state leaky bucket: a bucket drained at one unit per unit time, filled by T per
/// conforming cell, with limit T + tau. The engine polices with [`Gcra`]; this second form of
/// the same algorithm is the reference the tests hold it to.
#[cfg(test)]
#[derive(Debug, Clone)]
pub struct LeakyBucket {
    pub t: Time,
    pub tau: Time,
    /// Bucket content after the last conforming cell.
    x: Time,
    /// Last conformance time.
    lct: Time,
}

#[cfg(test)]
impl LeakyBucket {
    pub fn new(t: Time, tau: Time) -> Self {
        LeakyBucket { t, tau, x: 0, lct: 0 }
    }

    pub fn conforms(&mut self, ta: Time) -> bool {
        let drained = self.x.saturating_sub(ta - self.lct);
        if drained > self.tau {
            return false;
        }
        self.x = drained + self.t;
        self.lct = ta;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn hand_computed_sequence() {
        // T = 10, tau = 5: cells at 0, 3, 9, 12, 40.
        // 0: TAT 0 -> conforms, TAT 10. 3: 10 > 3 + 5 -> no. 9: 10 <= 14 -> yes, TAT 20.
        // 12: 20 > 17 -> no. 40: yes, TAT 50.
        let mut g = Gcra::new(10, 5);
        let got: Vec<bool> = [0, 3, 9, 12, 40].iter().map(|&t| g.conforms(t)).collect();
        assert_eq!(got, vec![true, false, true, false, true]);
        assert_eq!(g.tat(), 50);
        assert_eq!(g.earliest(), 45);
    }

    #[test]
    fn burst_tolerance_admits_mbs_cells_at_pcr() {
        // SCR period 10, PCR period 2, MBS 5: tau = (MBS - 1) * (T_scr - T_pcr) = 32.
        let mut g = Gcra::new(10, 32);
        let burst: Vec<bool> = (0..6).map(|i| g.conforms(i * 2)).collect();
        assert_eq!(burst, vec![true, true, true, true, true, false]);
    }

    #[test]
    fn both_forms_decide_alike_on_random_arrivals() {
        let mut rng = Rng::stream(42, "gcra");
        for (t, tau) in [(10, 0), (10, 5), (7, 40), (1000, 333)] {
            let (mut a, mut b) = (Gcra::new(t, tau), LeakyBucket::new(t, tau));
            let mut now = 0;
            for _ in 0..20_000 {
                now += (rng.uniform() * 2.0 * t as f64) as Time;
                assert_eq!(a.conforms(now), b.conforms(now), "T={t} tau={tau} at {now}");
            }
        }
    }
}
