//! The receiving side: cumulative ACKs, immediate or delayed (RFC 1122 4.2.3.2), SACK blocks
//! (RFC 2018), timestamp echo (RFC 1323), and a cache of out-of-order segments delivered once
//! the hole is filled.

use super::config::{sack_option, TIMESTAMP_OPTION};
use super::{seq, SegmentSink, TcpConfig};
use crate::frame::{Frame, SYN};
use crate::time::{Time, NEVER};

#[derive(Debug, Clone, Default)]
pub struct ReceiverStats {
    /// In-order octets handed to the application (goodput numerator).
    pub bytes_delivered: u64,
    pub segments_received: u64,
    /// Segments that carried nothing new.
    pub duplicate_segments: u64,
    pub acks_sent: u64,
    /// Sum over segments that advanced delivery of the time from hand-over to the source
    /// adapter to delivery.
    pub delay_sum: Time,
    pub delay_samples: u64,
    pub connections: u64,
}

#[derive(Debug, Clone)]
pub struct TcpReceiver {
    pub conn: u32,
    cfg: TcpConfig,
    rcv_nxt: u32,
    wnd: u32,
    /// Out-of-order data held back, as disjoint sorted [start, end) ranges.
    ooo: Vec<(u32, u32)>,
    /// SACK blocks of the last ACK, most recent first (RFC 2018 section 4 ordering). Kept
    /// only when ACKs carry SACK blocks: nothing else reads it.
    reported: Vec<(u32, u32)>,
    /// SACK blocks an ACK can carry (`TcpConfig::max_sack_blocks`: 0 without SACK), fixed
    /// for the connection and needed at every ACK.
    sack_blocks: usize,
    /// Full segments received and not yet acknowledged (delayed ACK).
    unacked: u32,
    /// Delayed-ACK deadline (a fast-timer tick), if an ACK is being held.
    delack: Option<Time>,
    ts_recent: u32,
    last_ack_sent: u32,
    pub stats: ReceiverStats,
}

impl TcpReceiver {
    pub fn config(&self) -> &TcpConfig {
        &self.cfg
    }

    pub fn new(conn: u32, cfg: &TcpConfig) -> Self {
        TcpReceiver {
            conn,
            cfg: *cfg,
            rcv_nxt: cfg.iss,
            wnd: cfg.advertised_window(),
            ooo: Vec::new(),
            reported: Vec::new(),
            sack_blocks: cfg.max_sack_blocks() as usize,
            unacked: 0,
            delack: None,
            ts_recent: 0,
            last_ack_sent: cfg.iss,
            stats: ReceiverStats::default(),
        }
    }

    pub fn rcv_nxt(&self) -> u32 {
        self.rcv_nxt
    }

    pub fn next_timer(&self) -> Time {
        self.delack.unwrap_or(NEVER)
    }

    /// The delayed-ACK timer fired.
    pub fn on_timer(&mut self, now: Time, out: &mut impl SegmentSink) {
        if self.delack.is_some_and(|t| t <= now) {
            self.send_ack_apart(now, 0, out);
        }
    }

    pub fn on_segment(&mut self, now: Time, f: &Frame, out: &mut impl SegmentSink) {
        if f.flags & SYN != 0 {
            // A new connection: forget the old one and answer with a SYN-ACK.
            self.rcv_nxt = f.seq.wrapping_add(1);
            self.ooo.clear();
            self.reported.clear();
            self.unacked = 0;
            self.delack = None;
            self.ts_recent = f.ts_val;
            self.stats.connections += 1;
            self.send_ack_apart(now, SYN, out);
            return;
        }
        // One place sends the ACK of a data segment, with `send_ack` compiled into it: a
        // segment's delivery and its ACK are one call from the host, not two.
        if self.take_segment(now, f) {
            self.send_ack(now, 0, out);
        }
    }

    /// A data segment: the receive state moves on; true if an ACK is to go at once.
    #[inline(always)]
    fn take_segment(&mut self, now: Time, f: &Frame) -> bool {
        self.stats.segments_received += 1;
        // RFC 1323 section 4.2: remember the timestamp of the segment the next ACK covers.
        if self.cfg.timestamps && seq::le(f.seq, self.last_ack_sent) {
            self.ts_recent = f.ts_val;
        }
        let (start, end) = (f.seq, f.seq.wrapping_add(f.len));
        if seq::le(end, self.rcv_nxt) {
            // Nothing new: ACK at once so the sender learns where we are.
            self.stats.duplicate_segments += 1;
            return true;
        }
        if seq::gt(start, self.rcv_nxt) {
            if !self.cfg.cache_out_of_order {
                // A go-back-N receiver: the segment is lost here; a duplicate ACK still goes back.
                return true;
            }
            // A hole: cache, and ACK at once (a duplicate ACK, with SACK blocks).
            self.cache(start, end);
            if self.sack_blocks > 0 {
                self.note_block(start, end);
            }
            return true;
        }
        let filled_hole = !self.ooo.is_empty();
        let before = self.rcv_nxt;
        self.rcv_nxt = end;
        self.pull_cached();
        self.stats.bytes_delivered += self.rcv_nxt.wrapping_sub(before) as u64;
        self.stats.delay_sum += now - f.created;
        self.stats.delay_samples += 1;
        if filled_hole || !self.cfg.delayed_ack {
            return true;
        }
        // Delayed ACK: every second full segment at once, otherwise on the next fast tick.
        self.unacked += 1;
        if self.unacked >= 2 {
            return true;
        }
        if self.delack.is_none() {
            let tick = self.cfg.delack_tick;
            let phase = self.cfg.tick_phase % tick;
            self.delack = Some(((now + tick - phase) / tick) * tick + phase);
        }
        false
    }

    /// [`TcpReceiver::send_ack`] for the rare callers (a SYN-ACK, the delayed-ACK timer).
    #[inline(never)]
    fn send_ack_apart(&mut self, now: Time, flags: u8, out: &mut impl SegmentSink) {
        self.send_ack(now, flags, out);
    }

    #[inline(always)]
    fn send_ack(&mut self, now: Time, flags: u8, out: &mut impl SegmentSink) {
        let mut f = Frame::ack(self.conn, self.rcv_nxt, self.wnd, now);
        f.flags = flags;
        let mut opt = 0;
        if self.cfg.timestamps {
            f.ts_val = self.cfg.tick_index(now) as u32;
            f.ts_ecr = self.ts_recent;
            opt += TIMESTAMP_OPTION;
        }
        let max_blocks = self.sack_blocks;
        if max_blocks > 0 && !self.ooo.is_empty() {
            // Most recent first, each still held and not yet covered by rcv_nxt.
            // Built apart and stored whole: a frame whose blocks are written in place through
            // a slice is copied once more on its way to `send` (96 octets per ACK).
            let mut sack = [(0, 0); 4];
            let mut n = 0;
            for &(s, e) in &self.reported {
                if n == max_blocks {
                    break;
                }
                if let Some(&r) = self.ooo.iter().find(|&&(a, b)| seq::le(a, s) && seq::le(e, b)) {
                    if !sack[..n].contains(&r) {
                        sack[n] = r;
                        n += 1;
                    }
                }
            }
            f.sack = sack;
            f.nsack = n as u8;
            opt += sack_option(n as u32);
        }
        f.opt_len = opt as u8;
        self.reported.retain(|&(_, e)| seq::gt(e, self.rcv_nxt));
        self.last_ack_sent = self.rcv_nxt;
        self.unacked = 0;
        self.delack = None;
        self.stats.acks_sent += 1;
        out.send_in_line(now, f, false);
    }

    /// The block holding the newest segment goes first in the next ACK.
    fn note_block(&mut self, start: u32, end: u32) {
        self.reported.retain(|&(s, e)| !(seq::le(start, s) && seq::le(e, end)));
        self.reported.insert(0, (start, end));
        self.reported.truncate(8);
    }

    fn cache(&mut self, start: u32, end: u32) {
        // The cached ranges are sorted, disjoint and apart (no two touch): only the range just
        // before the new one, and those after it that it reaches, can join it. Whole-list
        // merging after each insertion cost a pass over every range held, per segment cached
        // (a WAN window with many holes holds a hundred).
        let i = self.ooo.partition_point(|&(s, _)| seq::lt(s, start));
        let (first, lo, mut hi) = match i.checked_sub(1) {
            Some(p) if seq::le(start, self.ooo[p].1) => (p, self.ooo[p].0, seq::max(self.ooo[p].1, end)),
            _ => (i, start, end),
        };
        let mut last = i;
        while let Some(&(s, e)) = self.ooo.get(last) {
            if !seq::le(s, hi) {
                break;
            }
            hi = seq::max(hi, e);
            last += 1;
        }
        // Ranges first..last become one.
        if first == last {
            self.ooo.insert(first, (lo, hi));
        } else {
            self.ooo[first] = (lo, hi);
            self.ooo.drain(first + 1..last);
        }
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
    use crate::tcp::Variant;

    #[derive(Default)]
    struct Acks(Vec<Frame>);
    impl SegmentSink for Acks {
        fn send(&mut self, _now: Time, f: Frame, _clp: bool) {
            self.0.push(f);
        }
    }
    impl Acks {
        fn acks(&self) -> Vec<u32> {
            self.0.iter().map(|f| f.ack).collect()
        }
    }

    fn seg(seq: u32, len: u32) -> Frame {
        Frame::data(0, seq, len, 0)
    }

    #[test]
    fn caches_out_of_order_and_delivers_once() {
        let mut r = TcpReceiver::new(0, &TcpConfig::ubr_plus());
        let mut acks = Acks::default();
        r.on_segment(1, &seg(0, 100), &mut acks);
        r.on_segment(2, &seg(200, 100), &mut acks); // hole at 100
        r.on_segment(3, &seg(300, 100), &mut acks);
        r.on_segment(4, &seg(200, 100), &mut acks); // duplicate of cached data
        assert_eq!(acks.acks(), vec![100, 100, 100, 100]);
        r.on_segment(5, &seg(100, 100), &mut acks);
        assert_eq!(*acks.acks().last().unwrap(), 400);
        assert_eq!(r.stats.bytes_delivered, 400);
        r.on_segment(6, &seg(0, 100), &mut acks);
        assert_eq!(r.stats.bytes_delivered, 400);
        assert_eq!(r.stats.duplicate_segments, 1);
        assert!(acks.0.iter().all(|f| f.nsack == 0), "no SACK without the SACK variant");
    }

    /// The cache against a plain model: insert, then merge the whole sorted list.
    #[test]
    fn cached_ranges_merge_as_a_full_pass_would() {
        fn full_pass(ooo: &mut Vec<(u32, u32)>, start: u32, end: u32) {
            let i = ooo.partition_point(|&(s, _)| seq::lt(s, start));
            ooo.insert(i, (start, end));
            let mut merged = Vec::<(u32, u32)>::new();
            for &(s, e) in ooo.iter() {
                match merged.last_mut() {
                    Some(last) if seq::le(s, last.1) => last.1 = seq::max(last.1, e),
                    _ => merged.push((s, e)),
                }
            }
            *ooo = merged;
        }
        // Ranges near the sequence wrap, of assorted lengths, touching, overlapping, covering.
        let base = u32::MAX - 5000;
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        for _round in 0..200 {
            let mut r = TcpReceiver::new(0, &TcpConfig::ubr_plus());
            let mut model = Vec::new();
            for _ in 0..40 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let start = base.wrapping_add((x % 10_000) as u32 / 100 * 100);
                let end = start.wrapping_add(100 * (1 + (x >> 32) % 4) as u32);
                r.cache(start, end);
                full_pass(&mut model, start, end);
                assert_eq!(r.ooo, model);
            }
        }
    }

    #[test]
    fn a_go_back_n_receiver_drops_what_arrives_beyond_a_hole() {
        let cfg = TcpConfig { cache_out_of_order: false, ..TcpConfig::ubr_plus() };
        let mut r = TcpReceiver::new(0, &cfg);
        let mut acks = Acks::default();
        r.on_segment(1, &seg(0, 100), &mut acks);
        r.on_segment(2, &seg(200, 100), &mut acks); // hole at 100: dropped
        r.on_segment(3, &seg(100, 100), &mut acks);
        assert_eq!(acks.acks(), vec![100, 100, 200], "the hole filled, nothing beyond it kept");
        r.on_segment(4, &seg(200, 100), &mut acks);
        assert_eq!((r.rcv_nxt(), r.stats.bytes_delivered), (300, 300));
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

    #[test]
    fn sack_blocks_newest_first_and_limited_by_option_space() {
        let cfg = TcpConfig { variant: Variant::Sack, timestamps: true, ..TcpConfig::ubr_plus() };
        let mut r = TcpReceiver::new(0, &cfg);
        let mut acks = Acks::default();
        r.on_segment(1, &seg(0, 100), &mut acks);
        for (i, s) in [200u32, 400, 600, 800].iter().enumerate() {
            r.on_segment(2 + i as Time, &seg(*s, 100), &mut acks);
        }
        let last = acks.0.last().unwrap();
        assert_eq!(last.ack, 100);
        // Timestamps leave room for 3 blocks; the newest block comes first.
        assert_eq!(last.sack_blocks(), &[(800, 900), (600, 700), (400, 500)]);
        assert_eq!(last.opt_len as u32, TIMESTAMP_OPTION + sack_option(3));
        // Filling 100..200 merges with 200..300; ACK 300, blocks left above it.
        r.on_segment(9, &seg(100, 100), &mut acks);
        let last = acks.0.last().unwrap();
        assert_eq!(last.ack, 300);
        assert_eq!(last.sack_blocks(), &[(800, 900), (600, 700), (400, 500)]);
        // A segment adjacent to a block is reported as the merged block, first.
        r.on_segment(10, &seg(500, 100), &mut acks);
        assert_eq!(acks.0.last().unwrap().sack_blocks()[0], (400, 700));
    }

    #[test]
    fn delayed_ack_every_second_segment_or_on_the_fast_tick() {
        let cfg = TcpConfig { delayed_ack: true, ..TcpConfig::ubr_plus() };
        let tick = cfg.delack_tick;
        let mut r = TcpReceiver::new(0, &cfg);
        let mut acks = Acks::default();
        r.on_segment(5, &seg(0, 512), &mut acks);
        assert!(acks.0.is_empty());
        assert_eq!(r.next_timer(), tick);
        r.on_segment(6, &seg(512, 512), &mut acks);
        assert_eq!(acks.acks(), vec![1024]);
        assert_eq!(r.next_timer(), NEVER);
        r.on_segment(7, &seg(1024, 512), &mut acks);
        r.on_timer(tick, &mut acks);
        assert_eq!(acks.acks(), vec![1024, 1536]);
        // Out of order: at once.
        r.on_segment(tick + 1, &seg(4096, 512), &mut acks);
        assert_eq!(acks.acks(), vec![1024, 1536, 1536]);
    }

    #[test]
    fn syn_resets_and_is_answered() {
        let mut r = TcpReceiver::new(0, &TcpConfig::ubr_plus());
        let mut acks = Acks::default();
        r.on_segment(1, &seg(0, 100), &mut acks);
        let mut syn = seg(5000, 0);
        syn.flags = SYN;
        r.on_segment(2, &syn, &mut acks);
        let synack = acks.0.last().unwrap();
        assert_eq!((synack.flags, synack.ack), (SYN, 5001));
        r.on_segment(3, &seg(5001, 100), &mut acks);
        assert_eq!(r.rcv_nxt(), 5101);
    }
}
