//! Fault injection: a switch port drops chosen frames of one connection, so textbook loss
//! scenarios (one loss, several losses in a window, a lost retransmission) can be built on
//! purpose. Faults act on whole frames, at their first cell, like a frame-level policy.
//!
//! The window-triggered rule is the artificial control of Goyal, Jain, Fahmy and Vandalore
//! (LCN 1998, section 2, figure 3): "the network controlled the TCP rate by dropping a packet
//! every time the TCP window reached a particular value". No switch can see a sender's window,
//! so each data frame carries the cwnd its sender had when it sent it. After a drop the rule
//! stays disarmed while segments sent at the old, large window are still arriving, and arms
//! again at the first segment sent below the threshold: one drop per climb of the window,
//! whatever the round-trip time.

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
    /// One data segment each time its sender's cwnd reaches `octets` (`armed` until then).
    Cwnd { octets: u32, armed: bool },
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
            FaultRule::Cwnd { octets, armed } => {
                if f.len == 0 {
                    return false;
                }
                let reached = f.cwnd >= *octets;
                if !reached {
                    *armed = true;
                    return false;
                }
                std::mem::replace(armed, false)
            }
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

    fn sent_at(cwnd: u32, seq: u32) -> Frame {
        Frame { cwnd, ..Frame::data(3, seq, 1024, 0) }
    }

    #[test]
    fn cwnd_rule_drops_once_per_climb_of_the_window() {
        let mut f = Fault { conn: 3, acks: false, rule: FaultRule::Cwnd { octets: 10_000, armed: true } };
        assert!(!f.hits(0, &sent_at(9_999, 0)), "below the threshold");
        assert!(f.hits(0, &sent_at(10_000, 1024)), "the first segment at the threshold");
        // Segments sent before the sender saw the loss still carry the large window.
        assert!(!f.hits(0, &sent_at(10_500, 2048)));
        assert!(!f.hits(0, &sent_at(11_000, 3072)));
        // The window halved: armed again, and the next climb drops one more.
        assert!(!f.hits(0, &sent_at(5_000, 1024)));
        assert!(!f.hits(0, &sent_at(9_000, 4096)));
        assert!(f.hits(0, &sent_at(10_240, 5120)));
        assert!(!f.hits(0, &sent_at(10_240, 6144)));
        let syn = Frame { cwnd: 20_000, ..Frame::data(3, 0, 0, 0) };
        assert!(
            !Fault { conn: 3, acks: false, rule: FaultRule::Cwnd { octets: 1, armed: true } }.hits(0, &syn)
        );
    }
}
