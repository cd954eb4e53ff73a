//! The rate-guarantee study's single-drop threshold policy (its section 3): one frame of a VC is
//! dropped each time the VC's occupancy crosses its threshold r_i; the rest of the window is
//! then accepted, so TCP halves its window once per crossing and its buffer share, hence its
//! throughput, follows r_i.

/// Per-VC memory of the policy: whether the next crossing may drop a frame.
#[derive(Debug, Clone, Copy, Default)]
pub struct Crossing {
    /// Set while the VC is below its threshold; cleared by the drop.
    pub armed: bool,
}

/// At the first cell of a frame of a VC with `xi` cells queued and threshold `ri`.
#[inline]
pub fn crossing_refuses(c: &mut Crossing, xi: u32, ri: u32) -> bool {
    if xi < ri {
        c.armed = true;
        return false;
    }
    std::mem::replace(&mut c.armed, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_drop_per_crossing() {
        let mut c = Crossing { armed: true };
        let seq = [5, 9, 10, 12, 15, 8, 11, 11];
        let drops: Vec<bool> = seq.iter().map(|&x| crossing_refuses(&mut c, x, 10)).collect();
        assert_eq!(drops, vec![false, false, true, false, false, false, true, false]);
    }
}
