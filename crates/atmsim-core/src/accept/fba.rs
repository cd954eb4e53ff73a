//! Fair Buffer Allocation (Heinanen & Kilkki; as defined in the UBR+ paper section 7).
//!
//! Refuse a new frame of VC i when X > R and Y_i * N_a / X > Z * (K - R) / (X - R): the allowed
//! load ratio shrinks from "anything" just above R towards Z as the buffer fills.

use super::BufferState;

#[inline]
pub fn fba_refuses(s: &BufferState, r: u32, z: f64) -> bool {
    if s.x <= r {
        return false;
    }
    // Multiply out both denominators (X > R >= 0, so both are positive).
    let lhs = s.y as f64 * s.active as f64 * (s.x - r) as f64;
    let rhs = z * (s.k - r) as f64 * s.x as f64;
    lhs > rhs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_thresholds() {
        // K = 1000, R = 900, Z = 0.8, X = 950: allowed ratio 0.8 * 100 / 50 = 1.6;
        // with 5 active VCs the fair share is 190 cells, so the cut is at 304 cells.
        let s = |y| BufferState { x: 950, k: 1000, y, active: 5, clp1: false };
        assert!(!fba_refuses(&s(304), 900, 0.8));
        assert!(fba_refuses(&s(305), 900, 0.8));
        // Nearly full buffer, X = 1000: ratio Z exactly: cut at 0.8 * 200 = 160 cells.
        let full = |y| BufferState { x: 1000, k: 1000, y, active: 5, clp1: false };
        assert!(!fba_refuses(&full(160), 900, 0.8));
        assert!(fba_refuses(&full(161), 900, 0.8));
    }

    #[test]
    fn nothing_refused_at_or_below_r() {
        let s = BufferState { x: 900, k: 1000, y: 900, active: 1, clp1: false };
        assert!(!fba_refuses(&s, 900, 0.8));
    }

    #[test]
    fn just_above_r_allows_large_shares() {
        // X = R + 1: allowed ratio Z * (K - R) = 80: even a lone VC (ratio 1) passes.
        let s = BufferState { x: 901, k: 1000, y: 901, active: 1, clp1: false };
        assert!(!fba_refuses(&s, 900, 0.8));
    }
}
