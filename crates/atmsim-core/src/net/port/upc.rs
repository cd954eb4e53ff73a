//! Usage parameter control at the network ingress (GFR, ATM Forum TM 4.1 section 4.5.6): an
//! F-GCRA per VC judges each frame by its first cell; GFR.2 tags the frames it finds
//! non-eligible (CLP = 1) so that the buffer policy can treat them apart, GFR.1 only counts them.

use crate::cell::{Cell, F_CLP};
use crate::conformance::FGcra;
use crate::time::Time;

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
