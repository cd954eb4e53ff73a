//! Differential FBA (rate-guarantee study, section 4): per-VC thresholds R_i in a FIFO buffer,
//! a congestion threshold R, a scale Z > 1 and weights W_i. At the first cell of a frame:
//!
//! ```text
//! accept if X_i < R_i and X < R
//! else accept if X < R and X_i < Z R_i and the frame is untagged and
//!                u > W_i (X_i - R_i) / (R_i (Z - 1))
//! else drop the frame
//! ```
//!
//! with u uniform in (0, 1): above its threshold a VC loses frames with a probability growing
//! linearly from 0 at R_i to W_i at Z R_i. (A full buffer still drops cells, with PPD.)

/// Refuse the frame? `u` is the uniform draw (used only in the probabilistic band).
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn dfba_refuses(
    x: u32,
    r: u32,
    xi: u32,
    ri: u32,
    z: f64,
    wi: f64,
    tagged: bool,
    u: impl FnOnce() -> f64,
) -> bool {
    if xi < ri && x < r {
        return false;
    }
    if x < r && (xi as f64) < z * ri as f64 && !tagged {
        let p = if ri == 0 { 1.0 } else { wi * (xi as f64 - ri as f64) / (ri as f64 * (z - 1.0)) };
        return u() <= p;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_regions() {
        let never = || panic!("no draw needed");
        // Below both thresholds: accepted, no draw.
        assert!(!dfba_refuses(100, 1000, 10, 20, 1.5, 1.0, false, never));
        // Above R: refused without a draw.
        assert!(dfba_refuses(1000, 1000, 10, 20, 1.5, 1.0, false, never));
        // Above Z R_i: refused.
        assert!(dfba_refuses(100, 1000, 30, 20, 1.5, 1.0, false, never));
        // Tagged above R_i: refused.
        assert!(dfba_refuses(100, 1000, 25, 20, 1.5, 1.0, true, never));
        // In the band: X_i = 25, R_i = 20, Z = 1.5, W = 1: p = 5 / 10 = 0.5.
        assert!(!dfba_refuses(100, 1000, 25, 20, 1.5, 1.0, false, || 0.51));
        assert!(dfba_refuses(100, 1000, 25, 20, 1.5, 1.0, false, || 0.49));
        // W scales the probability: W = 0.5 gives p = 0.25.
        assert!(!dfba_refuses(100, 1000, 25, 20, 1.5, 0.5, false, || 0.3));
    }
}
