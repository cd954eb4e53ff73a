//! The GFR study's two switch implementations' acceptance rules (its section 3), decided at
//! the first cell of a frame.
//!
//! - FIFO-based (GFR.2 only): HBO is an EPD threshold for every frame; LBO an EPD threshold for
//!   CLP=1 frames ("above the LBO threshold, newly arriving CLP=1 frames are not accepted").
//! - WFQ-based: CLP=1 frames are accepted only while the buffer is below LBO; CLP=0 frames
//!   always up to HBO, and above HBO only while their VC's queue is below its threshold T_i.
//!
//! LBO plays "the same role" in both switches (the paper's words), so both accept a CLP=1
//! frame only while the buffer holds fewer than LBO cells: LBO is the room CLP=1 frames may
//! use. Read as a strict "X > LBO" the FIFO rule would admit CLP=1 frames into an empty buffer
//! at LBO = 0, where the paper states that "all the CLP=1 AAL5-PDUs are discarded at the
//! bottleneck switch" (its section 6, the throughput collapse).

/// FIFO-based GFR switch: refuse the frame?
#[inline]
pub fn fifo_gfr_refuses(x: u32, clp1: bool, lbo: u32, hbo: u32) -> bool {
    x > hbo || (clp1 && x >= lbo)
}

/// WFQ-based GFR switch: refuse the frame? `xi` is the VC's queue, `ti` its threshold.
#[inline]
pub fn wfq_gfr_refuses(x: u32, clp1: bool, lbo: u32, hbo: u32, xi: u32, ti: u32) -> bool {
    if clp1 {
        x >= lbo
    } else {
        x > hbo && xi >= ti
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_thresholds_of_the_study() {
        // HBO 7168, LBO 6144: a CLP=1 frame needs room below LBO, as in the WFQ switch.
        assert!(!fifo_gfr_refuses(6143, true, 6144, 7168));
        assert!(fifo_gfr_refuses(6144, true, 6144, 7168));
        assert!(!fifo_gfr_refuses(6144, false, 6144, 7168), "CLP=0 frames ignore LBO");
        assert!(!fifo_gfr_refuses(7168, false, 6144, 7168));
        assert!(fifo_gfr_refuses(7169, false, 6144, 7168));
    }

    #[test]
    fn lbo_zero_refuses_every_clp1_frame() {
        // Section 6: with LBO = 0 "all the CLP=1 AAL5-PDUs are discarded", the empty buffer too.
        assert!(fifo_gfr_refuses(0, true, 0, 7168));
        assert!(wfq_gfr_refuses(0, true, 0, 7168, 0, 400));
        assert!(!fifo_gfr_refuses(0, false, 0, 7168));
    }

    #[test]
    fn wfq_per_vc_threshold_above_hbo() {
        let (lbo, hbo) = (6144, 7168);
        assert!(wfq_gfr_refuses(6144, true, lbo, hbo, 0, 400), "CLP=1 only below LBO");
        assert!(!wfq_gfr_refuses(6143, true, lbo, hbo, 0, 400));
        assert!(!wfq_gfr_refuses(7168, false, lbo, hbo, 5000, 400), "CLP=0 always up to HBO");
        assert!(!wfq_gfr_refuses(7169, false, lbo, hbo, 399, 400), "above HBO: VC below T_i");
        assert!(wfq_gfr_refuses(7169, false, lbo, hbo, 400, 400));
    }
}
