//! Usage parameter control at the network ingress.
//!
//! - [`Upc`] (GFR, ATM Forum TM 4.1 section 4.5.6): an F-GCRA per VC judges each frame by its
//!   first cell; GFR.2 tags the frames it finds non-eligible (CLP = 1) so that the buffer policy
//!   can treat them apart, GFR.1 only counts them.
//! - [`CellUpc`] (ITU-T I.371 section 6.2.3 / ATM Forum TM 4.0 section 4.5): GCRA(T, tau) on every
//!   cell of the VC (the CLP = 0+1 flow), before the buffer policy sees it. A non-conforming cell
//!   is tagged CLP = 1 or discarded, and leaves the GCRA's state unchanged, so in the long run a
//!   source above its contract keeps exactly 1/T of conforming cells, provided tau covers the
//!   spacing of its arrivals (with tau below the gap between two arrivals, GCRA(T, tau) restarts
//!   from each conforming arrival and admits less: that is the contract, not a model error).

use crate::cell::{Cell, F_CLP};
use crate::conformance::{FGcra, Gcra};
use crate::time::Time;

/// The cell-level UPC of one VC at the port it enters the policed switch through.
#[derive(Debug, Clone)]
pub struct CellUpc {
    pub gcra: Gcra,
    /// Discard non-conforming cells (else tag them CLP = 1).
    pub drop: bool,
    pub conforming: u64,
    pub tagged: u64,
    pub dropped: u64,
}

impl CellUpc {
    pub fn new(t: Time, tau: Time, drop: bool) -> Self {
        CellUpc { gcra: Gcra::new(t, tau), drop, conforming: 0, tagged: 0, dropped: 0 }
    }

    /// Police a data cell arriving at `now`: false if it is to be discarded.
    #[inline]
    pub fn police(&mut self, now: Time, cell: &mut Cell) -> bool {
        if self.gcra.conforms(now) {
            self.conforming += 1;
            return true;
        }
        if self.drop {
            self.dropped += 1;
            return false;
        }
        self.tagged += 1;
        cell.flags |= F_CLP;
        true
    }
}

/// The UPC of one VC at its ingress port.
#[derive(Debug, Clone)]
pub struct Upc {
    pub fgcra: FGcra,
    /// GFR.2: tag non-eligible frames.
    pub tag: bool,
    pub frames: u64,
    pub non_eligible: u64,
}

impl Upc {
    /// Police a data cell arriving at `now` (`first`: the first cell of its frame).
    #[inline]
    pub(super) fn police(&mut self, now: Time, first: bool, cell: &mut Cell) {
        let eligible = self.fgcra.cell(now, first, cell.clp());
        if first {
            self.frames += 1;
            self.non_eligible += u64::from(!eligible);
        }
        if !eligible && self.tag {
            cell.flags |= F_CLP;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell() -> Cell {
        Cell { frame: 0, vc: 0, flags: 0 }
    }

    #[test]
    fn non_conforming_cells_are_tagged_or_dropped_and_leave_the_state_alone() {
        // T = 10, tau = 5; arrivals 0, 3, 9, 12, 40 (the GCRA's own hand-computed sequence):
        // conforming, not, conforming, not, conforming.
        for drop in [false, true] {
            let mut u = CellUpc::new(10, 5, drop);
            let got: Vec<(bool, bool)> = [0, 3, 9, 12, 40]
                .iter()
                .map(|&t| {
                    let mut c = cell();
                    let kept = u.police(t, &mut c);
                    (kept, c.clp())
                })
                .collect();
            let (n, y) = (false, true);
            if drop {
                assert_eq!(got, vec![(y, n), (n, n), (y, n), (n, n), (y, n)]);
                assert_eq!((u.conforming, u.tagged, u.dropped), (3, 0, 2));
            } else {
                assert_eq!(got, vec![(y, n), (y, y), (y, n), (y, y), (y, n)]);
                assert_eq!((u.conforming, u.tagged, u.dropped), (3, 2, 0));
            }
            assert_eq!(u.gcra.tat(), 50);
        }
    }

    #[test]
    fn a_source_above_its_contract_keeps_exactly_the_contract() {
        // Cells every 7 units against T = 10, tau = 20: 7/10 of them conform in the long run.
        let mut u = CellUpc::new(10, 20, true);
        let n = 100_000u64;
        for i in 0..n {
            u.police(i * 7, &mut cell());
        }
        let share = u.conforming as f64 / n as f64;
        assert!((share - 0.7).abs() < 1e-4, "{share}");
        assert_eq!(u.conforming + u.dropped, n);
    }
}
