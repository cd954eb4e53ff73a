//! The GFR study's adapter tagging algorithm (its section 5): at the start of each frame, the
//! adapter decides whether the whole frame, sent back to back at PCR, fits the MCR contract;
//! if so its cells go out CLP=0 and TAT advances by the frame's length at MCR, otherwise they
//! all go out CLP=1. With MFS-sized frames it is equivalent to F-GCRA(T_MCR, tau).

use crate::time::Time;

#[derive(Debug, Clone)]
pub struct AdapterTagger {
    pub t_mcr: Time,
    pub t_pcr: Time,
    /// Tolerance: the study allows a burst of 2 * MFS CLP=0 cells at PCR, that is
    /// tau = (2 * MFS - 1) * (T_MCR - T_PCR).
    pub tau: Time,
    tat: Time,
}

impl AdapterTagger {
    pub fn new(t_mcr: Time, t_pcr: Time, tau: Time) -> Self {
        AdapterTagger { t_mcr, t_pcr, tau, tat: 0 }
    }

    /// The study's tolerance for a burst of `mbs` cells at PCR.
    pub fn tolerance(t_mcr: Time, t_pcr: Time, mbs: u32) -> Time {
        // Saturating: with MCR = 0 (T_MCR = NEVER) every frame is tagged whatever the tolerance
        // is, but the product would overflow.
        (mbs.saturating_sub(1) as Time).saturating_mul(t_mcr.saturating_sub(t_pcr))
    }

    /// A frame of `len` cells starts at `ta`: true sends it CLP=0, false tags it CLP=1.
    pub fn frame(&mut self, ta: Time, len: u32) -> bool {
        // MCR = 0 (T_MCR = NEVER): nothing is eligible, every frame is tagged.
        if self.t_mcr == crate::time::NEVER {
            return false;
        }
        let n = len.saturating_sub(1) as Time;
        let last_at_pcr = ta + n * self.t_pcr;
        let base = self.tat.max(ta);
        // Conforming if the frame's last cell, sent at PCR, is no earlier than its theoretical
        // time at MCR minus the tolerance.
        if last_at_pcr + self.tau >= base + n * self.t_mcr {
            self.tat = base + len as Time * self.t_mcr;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_two_mfs_frames_at_pcr_then_tags() {
        // T_MCR 10, T_PCR 1, MFS 4, burst of 2 * MFS = 8 cells: tau = 7 * 9 = 63.
        let tau = AdapterTagger::tolerance(10, 1, 8);
        let mut a = AdapterTagger::new(10, 1, tau);
        let verdicts: Vec<bool> = (0..4).map(|k| a.frame(k * 4, 4)).collect();
        // Frame 0 at 0: 3 + 63 >= 0 + 30 -> CLP=0, TAT 40. Frame 1 at 4: 7 + 63 >= 40 + 30 ->
        // CLP=0, TAT 80. Frame 2 at 8: 11 + 63 = 74 < 80 + 30 -> tagged. Frame 3 likewise.
        assert_eq!(verdicts, vec![true, true, false, false]);
    }

    #[test]
    fn frames_spaced_at_mcr_conform_with_one_frame_of_tolerance() {
        // Cells inside a frame go at PCR, so even frames spaced at MCR need the tolerance of
        // one frame, (MFS - 1) * (T_MCR - T_PCR); with none, every frame is tagged.
        let mut a = AdapterTagger::new(10, 1, AdapterTagger::tolerance(10, 1, 4));
        assert!((0..1000).all(|k| a.frame(k * 40, 4)));
        let mut strict = AdapterTagger::new(10, 1, 0);
        assert!((0..10).all(|k| !strict.frame(k * 40, 4)));
    }
}
