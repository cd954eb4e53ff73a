//! PRCA, the Proportional Rate Control Algorithm (credit/rate study section II.A; ATM Forum
//! 1994): the source lowers its allowed rate ACR by ADR after every cell, never below MCR, sends
//! an RM cell every NRM cells, and on an RM cell returned without congestion indication makes
//! up the last cycle's decrease and adds AIR, never above PCR; ADR = ACR / 2^MDF is recomputed
//! then. Rates are cell rates in bit/s of cells (424 bits each).

#[derive(Debug, Clone)]
pub struct Prca {
    pub acr: f64,
    adr: f64,
    pub mcr: f64,
    pub pcr: f64,
    pub air: f64,
    pub mdf: u32,
    pub nrm: u32,
    /// Data cells since the last RM cell.
    since_rm: u32,
}

impl Prca {
    pub fn new(pcr: f64, mcr: f64, air: f64, mdf: u32, nrm: u32, icr: f64) -> Self {
        let acr = icr.clamp(mcr, pcr);
        Prca { acr, adr: acr / f64::from(1u32 << mdf), mcr, pcr, air, mdf, nrm, since_rm: 0 }
    }

    /// The credit/rate study's parameters: PCR 12 Mb/s, MCR 500 kb/s, AIR 3.2 Mb/s, MDF 5,
    /// NRM 32; the source starts at PCR.
    pub fn gerla() -> Self {
        Prca::new(12e6, 0.5e6, 3.2e6, 5, 32, 12e6)
    }

    /// A data cell was sent: decrease the rate; true if an RM cell is due now.
    pub fn cell_sent(&mut self) -> bool {
        self.acr = (self.acr - self.adr).max(self.mcr);
        self.since_rm += 1;
        if self.since_rm >= self.nrm {
            self.since_rm = 0;
            return true;
        }
        false
    }

    /// An RM cell came back; `congested` is its CI bit.
    pub fn rm_returned(&mut self, congested: bool) {
        if congested {
            return;
        }
        self.acr = (self.acr + self.nrm as f64 * self.adr + self.air).min(self.pcr);
        self.adr = self.acr / f64::from(1u32 << self.mdf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decreases_per_cell_and_recovers_on_good_news() {
        let mut p = Prca::new(100.0, 10.0, 5.0, 2, 4, 100.0);
        // ADR = 25: the rate falls to MCR within a few cells.
        let rm: Vec<bool> = (0..4).map(|_| p.cell_sent()).collect();
        assert_eq!(rm, vec![false, false, false, true]);
        assert_eq!(p.acr, 10.0);
        p.rm_returned(true);
        assert_eq!(p.acr, 10.0, "congestion: no increase");
        p.rm_returned(false);
        // 10 + 4 * 25 + 5, capped at PCR.
        assert_eq!(p.acr, 100.0);
    }

    #[test]
    fn without_feedback_the_rate_decays_to_mcr_and_stays() {
        let mut p = Prca::gerla();
        for _ in 0..10_000 {
            p.cell_sent();
        }
        assert_eq!(p.acr, 0.5e6);
    }

    #[test]
    fn steady_good_news_holds_the_rate_near_pcr() {
        let mut p = Prca::gerla();
        for _ in 0..100 {
            for _ in 0..31 {
                p.cell_sent();
            }
            assert!(p.cell_sent());
            p.rm_returned(false);
        }
        assert_eq!(p.acr, 12e6);
    }
}
