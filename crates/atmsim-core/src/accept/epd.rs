//! Early Packet Discard (Romanov & Floyd, 1995).

use super::BufferState;

/// A new frame is refused when the queue already exceeds the threshold.
#[inline]
pub fn epd_refuses(s: &BufferState, threshold: u32) -> bool {
    s.x > threshold
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threshold_is_strict() {
        let at = |x| BufferState { x, k: 1000, y: 0, active: 0, clp1: false };
        assert!(!epd_refuses(&at(800), 800));
        assert!(epd_refuses(&at(801), 800));
        assert!(!epd_refuses(&at(0), 800));
    }
}
