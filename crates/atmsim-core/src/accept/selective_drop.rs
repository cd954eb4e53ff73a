//! Selective Drop (Goyal, Jain et al., UBR+ paper section 6).
//!
//! The fair allocation is X / N_a; a VC's load ratio is Y_i / (X / N_a) = Y_i * N_a / X. Above
//! the minimum threshold R, a new frame of a VC whose load ratio exceeds Z is refused.

use super::BufferState;

#[inline]
pub fn selective_drop_refuses(s: &BufferState, r: u32, z: f64) -> bool {
    // X > R > 0 guards the division; Y_i * N_a > Z * X is the load ratio test without dividing.
    s.x > r && (s.y as f64) * (s.active as f64) > z * s.x as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_only_above_r_and_above_fair_share() {
        // 5 active VCs, X = 950 > R = 900: fair share 190; Z = 0.8 cuts at 152 cells.
        let s = |y| BufferState { x: 950, k: 1000, y, active: 5, clp1: false };
        assert!(!selective_drop_refuses(&s(152), 900, 0.8));
        assert!(selective_drop_refuses(&s(153), 900, 0.8));
        // Below R nothing is refused however unfair the VC.
        let low = BufferState { x: 900, k: 1000, y: 900, active: 1, clp1: false };
        assert!(!selective_drop_refuses(&low, 900, 0.8));
        // A VC with no cells queued has load ratio 0.
        assert!(!selective_drop_refuses(&s(0), 900, 0.8));
    }

    #[test]
    fn single_active_vc_with_z_below_one_is_refused_above_r() {
        // N_a = 1 and Y = X: load ratio 1 > Z = 0.8.
        let s = BufferState { x: 901, k: 1000, y: 901, active: 1, clp1: false };
        assert!(selective_drop_refuses(&s, 900, 0.8));
        assert!(!selective_drop_refuses(&s, 900, 1.0));
    }
}
