//! Fault injection: a switch port drops chosen frames of one connection, so textbook loss
//! scenarios (one loss, several losses in a window, a lost retransmission) can be built on
//! purpose. Faults act on whole frames, at their first cell, like a frame-level policy.

use crate::frame::{Frame, SegKind};
use crate::rng::Rng;
use crate::time::Time;

#[derive(Debug, Clone)]
pub enum FaultRule {
    /// The data segment starting at `seq`: its first `times` transmissions are dropped.
    Segment { seq: u32, times: u32 },
    /// Every frame entering the port in [from, to).
    Window { from: Time, to: Time },
    /// Each frame independently with probability `p`.
    Random { p: f64, rng: Rng },
}

#[derive(Debug, Clone)]
pub struct Fault {
    pub conn: u32,
    /// Act on the connection's ACKs instead of its data.
    pub acks: bool,
    pub rule: FaultRule,
}

impl Fault {
    /// Whether the frame now entering the port is to be dropped.
    pub fn hits(&mut self, now: Time, f: &Frame) -> bool {
        let kind = if self.acks { SegKind::Ack } else { SegKind::Data };
        if f.conn != self.conn || f.kind != kind {
            return false;
        }
        match &mut self.rule {
            FaultRule::Segment { seq, times } => {
                if f.seq == *seq && f.len > 0 && *times > 0 {
                    *times -= 1;
                    return true;
                }
                false
            }
            FaultRule::Window { from, to } => (*from..*to).contains(&now),
            FaultRule::Random { p, rng } => rng.uniform() < *p,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_rule_drops_the_first_copies_only() {
        let mut f = Fault { conn: 1, acks: false, rule: FaultRule::Segment { seq: 1024, times: 2 } };
        let seg = Frame::data(1, 1024, 512, 0);
        assert!(!f.hits(0, &Frame::data(2, 1024, 512, 0)), "other connection");
        assert!(!f.hits(0, &Frame::ack(1, 1024, 0, 0)), "ACKs are not data");
        assert!(f.hits(0, &seg));
        assert!(f.hits(0, &seg));
        assert!(!f.hits(0, &seg), "the third copy gets through");
    }

    #[test]
    fn window_and_random_rules() {
        let mut w = Fault { conn: 0, acks: true, rule: FaultRule::Window { from: 10, to: 20 } };
        let a = Frame::ack(0, 1, 0, 0);
        assert!(!w.hits(9, &a) && w.hits(10, &a) && w.hits(19, &a) && !w.hits(20, &a));
        let mut r =
            Fault { conn: 0, acks: false, rule: FaultRule::Random { p: 0.25, rng: Rng::stream(1, "f") } };
        let d = Frame::data(0, 0, 1, 0);
        let hits = (0..20_000).filter(|_| r.hits(0, &d)).count();
        assert!((4_500..5_500).contains(&hits), "{hits}");
    }
}
