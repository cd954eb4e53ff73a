//! The receiving side: cumulative ACKs, one per segment (no delayed ACK), out-of-order segments
//! cached and delivered once the hole is filled.

use super::{seq, SegmentSink, TcpConfig};
use crate::frame::{Frame, SegKind};
use crate::time::Time;

#[derive(Debug, Clone, Default)]
pub struct ReceiverStats {
    /// In-order octets handed to the application (goodput numerator).
    pub bytes_delivered: u64,
    pub segments_received: u64,
    /// Segments that carried nothing new.
    pub duplicate_segments: u64,
    pub acks_sent: u64,
    /// Sum over delivered segments of the time from hand-over to the source adapter to delivery.
    pub delay_sum: Time,
    pub delay_samples: u64,
}

#[derive(Debug, Clone)]
pub struct TcpReceiver {
    pub conn: u32,
    rcv_nxt: u32,
    wnd: u32,
    /// Out-of-order data held back, as disjoint sorted [start, end) ranges.
    ooo: Vec<(u32, u32)>,
    pub stats: ReceiverStats,
}

impl TcpReceiver {
    pub fn new(conn: u32, cfg: &TcpConfig) -> Self {
        TcpReceiver {
            conn,
            rcv_nxt: cfg.iss,
            wnd: cfg.advertised_window(),
            ooo: Vec::new(),
            stats: ReceiverStats::default(),
        }
    }

    pub fn rcv_nxt(&self) -> u32 {
        self.rcv_nxt
    }

    pub fn on_segment(&mut self, now: Time, f: &Frame, out: &mut impl SegmentSink) {
        self.stats.segments_received += 1;
        let (start, end) = (f.seq, f.seq.wrapping_add(f.len));
        if seq::le(end, self.rcv_nxt) {
            self.stats.duplicate_segments += 1;
        } else if seq::le(start, self.rcv_nxt) {
            let before = self.rcv_nxt;
            self.rcv_nxt = end;
            self.pull_cached();
            self.stats.bytes_delivered += self.rcv_nxt.wrapping_sub(before) as u64;
            self.stats.delay_sum += now - f.created;
            self.stats.delay_samples += 1;
        } else {
            self.cache(start, end);
        }
        self.stats.acks_sent += 1;
        out.send(
            now,
            Frame {
                conn: self.conn,
                kind: SegKind::Ack,
                seq: 0,
                ack: self.rcv_nxt,
                len: 0,
                wnd: self.wnd,
                ncells: 0,
                alive: 0,
                created: now,
                retransmission: false,
                serial: 0,
            },
            false,
        );
    }

    fn cache(&mut self, start: u32, end: u32) {
        let i = self.ooo.partition_point(|&(s, _)| seq::lt(s, start));
        self.ooo.insert(i, (start, end));
        // Merge overlapping or touching neighbours.
        let mut merged: usize = 0;
        for j in 1..self.ooo.len() {
            let (s, e) = self.ooo[j];
            let last = &mut self.ooo[merged];
            if seq::le(s, last.1) {
                last.1 = seq::max(last.1, e);
            } else {
                merged += 1;
                self.ooo[merged] = (s, e);
            }
        }
        self.ooo.truncate(merged + 1);
    }

    fn pull_cached(&mut self) {
        let mut n = 0;
        for &(s, e) in &self.ooo {
            if seq::gt(s, self.rcv_nxt) {
                break;
            }
            self.rcv_nxt = seq::max(self.rcv_nxt, e);
            n += 1;
        }
        self.ooo.drain(..n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Acks(Vec<u32>);
    impl SegmentSink for Acks {
        fn send(&mut self, _now: Time, f: Frame, _clp: bool) {
            self.0.push(f.ack);
        }
    }

    fn seg(seq: u32, len: u32) -> Frame {
        Frame {
            conn: 0,
            kind: SegKind::Data,
            seq,
            ack: 0,
            len,
            wnd: 0,
            ncells: 0,
            alive: 0,
            created: 0,
            retransmission: false,
            serial: 0,
        }
    }

    #[test]
    fn caches_out_of_order_and_delivers_once() {
        let mut r = TcpReceiver::new(0, &TcpConfig::ubr_plus());
        let mut acks = Acks::default();
        r.on_segment(1, &seg(0, 100), &mut acks);
        r.on_segment(2, &seg(200, 100), &mut acks); // hole at 100
        r.on_segment(3, &seg(300, 100), &mut acks);
        r.on_segment(4, &seg(200, 100), &mut acks); // duplicate of cached data
        assert_eq!(acks.0, vec![100, 100, 100, 100]);
        r.on_segment(5, &seg(100, 100), &mut acks);
        assert_eq!(*acks.0.last().unwrap(), 400);
        assert_eq!(r.stats.bytes_delivered, 400);
        r.on_segment(6, &seg(0, 100), &mut acks);
        assert_eq!(r.stats.bytes_delivered, 400);
        assert_eq!(r.stats.duplicate_segments, 1);
    }

    #[test]
    fn delivers_across_sequence_wrap() {
        let cfg = TcpConfig { iss: u32::MAX - 99, ..TcpConfig::ubr_plus() };
        let mut r = TcpReceiver::new(0, &cfg);
        let mut acks = Acks::default();
        r.on_segment(1, &seg((u32::MAX - 99).wrapping_add(200), 100), &mut acks);
        r.on_segment(2, &seg(u32::MAX - 99, 100), &mut acks);
        r.on_segment(3, &seg((u32::MAX - 99).wrapping_add(100), 100), &mut acks);
        assert_eq!(r.rcv_nxt(), (u32::MAX - 99).wrapping_add(300));
        assert_eq!(r.stats.bytes_delivered, 300);
    }
}
