//! F-GCRA(T, f): the frame-based GCRA of the GFR service category (GFR study, Figure 1).
//!
//! The first cell of a frame decides for the whole frame: the frame is eligible for the
//! minimum guaranteed bandwidth if its first cell is CLP=0 and arrives no earlier than
//! TAT - f. Every cell of an eligible frame advances TAT by T; the cells of a non-eligible
//! frame do not. With T = 1/MCR, f = tau_MCR + (MBS - 1)(1/MCR - 1/PCR).

use crate::time::Time;

#[derive(Debug, Clone)]
pub struct FGcra {
    pub t: Time,
    pub f: Time,
    tat: Time,
    /// Eligibility of the frame in progress.
    eligible: bool,
}

impl FGcra {
    pub fn new(t: Time, f: Time) -> Self {
        FGcra { t, f, tat: 0, eligible: false }
    }

    /// The tolerance f for a GFR contract (all increments in picoseconds).
    pub fn tolerance(t_mcr: Time, t_pcr: Time, tau_mcr: Time, mbs: u32) -> Time {
        // Saturating: with MCR = 0 (T = NEVER) no frame is eligible whatever f is, but the
        // product would overflow.
        tau_mcr.saturating_add((mbs.saturating_sub(1) as Time).saturating_mul(t_mcr.saturating_sub(t_pcr)))
    }

    /// A cell at `ta`; returns whether it belongs to an eligible frame.
    pub fn cell(&mut self, ta: Time, first: bool, clp1: bool) -> bool {
        if first {
            // MCR = 0 (T = NEVER): no frame is eligible.
            self.eligible = !(ta.saturating_add(self.f) < self.tat || clp1 || self.t == crate::time::NEVER);
        }
        if self.eligible {
            self.tat = self.tat.max(ta) + self.t;
        }
        self.eligible
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Offer frames of `len` cells, one cell per `gap`, frames back to back.
    fn frames(g: &mut FGcra, n: usize, len: u32, gap: Time, start: Time) -> Vec<bool> {
        let mut t = start;
        let mut out = Vec::new();
        for _ in 0..n {
            let mut e = false;
            for i in 0..len {
                e = g.cell(t, i == 0, false);
                t += gap;
            }
            out.push(e);
        }
        out
    }

    #[test]
    fn frames_at_pcr_are_eligible_up_to_the_burst_then_at_mcr() {
        // MCR period 10, PCR period 1, frames of 4 cells, MBS = 8 cells (two frames):
        // f = 7 * 9 = 63. Each eligible frame advances TAT by 40.
        let f = FGcra::tolerance(10, 1, 0, 8);
        assert_eq!(f, 63);
        let mut g = FGcra::new(10, f);
        // Back to back at PCR: frame k starts at 4k; eligible while 4k + 63 >= TAT.
        // TAT after k eligible frames = 40k: frames 0, 1 eligible (TAT 80); frame 2 starts at
        // 8: 8 + 63 = 71 < 80 -> not eligible, TAT unchanged; frame 3 at 12: 75 < 80 -> not.
        assert_eq!(frames(&mut g, 4, 4, 1, 0), vec![true, true, false, false]);
        // Much later, the contract admits frames again.
        assert_eq!(frames(&mut g, 1, 4, 1, 1000), vec![true]);
    }

    #[test]
    fn clp1_frames_are_never_eligible_and_leave_tat_alone() {
        let mut g = FGcra::new(10, 100);
        assert!(!g.cell(0, true, true));
        assert!(!g.cell(1, false, false), "the frame keeps its first cell's verdict");
        assert!(g.cell(2, true, false));
        assert!(g.cell(3, false, false));
    }

    #[test]
    fn frames_at_mcr_always_eligible() {
        let mut g = FGcra::new(10, FGcra::tolerance(10, 1, 0, 4));
        // One 4-cell frame every 40 time units is exactly MCR.
        let mut all = true;
        for k in 0..100 {
            for i in 0..4 {
                all &= g.cell(k * 40 + i, i == 0, false);
            }
        }
        assert!(all);
    }

    #[test]
    fn mcr_zero_saturates_the_tolerance_and_makes_no_frame_eligible() {
        use crate::time::NEVER;
        let f = FGcra::tolerance(NEVER, 1_000, 5_000, 32);
        assert_eq!(f, NEVER);
        assert_eq!(crate::conformance::tagger::AdapterTagger::tolerance(NEVER, 1_000, 32), NEVER);
        let mut g = FGcra::new(NEVER, f);
        assert_eq!(frames(&mut g, 3, 4, 1_000, 1_000_000), vec![false; 3]);
    }
}
