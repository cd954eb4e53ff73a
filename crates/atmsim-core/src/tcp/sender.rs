//! The sending side of a TCP connection with a greedy application.

use super::{seq, Rto, SegmentSink, TcpConfig, Variant};
use crate::frame::{Frame, SegKind};
use crate::time::{Time, NEVER};

#[derive(Debug, Clone, Default)]
pub struct SenderStats {
    pub segments_sent: u64,
    pub segments_retransmitted: u64,
    pub bytes_sent: u64,
    pub bytes_retransmitted: u64,
    pub rto_expirations: u64,
    pub fast_retransmits: u64,
    pub rtt_samples: u64,
    pub rtt_sum: Time,
    pub aborted: bool,
}

/// The sender's timers, each carrying its deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Timer {
    /// The application starts sending at this time.
    Start(Time),
    /// The retransmission timer, expiring on a slow-timer tick.
    Rexmt(Time),
    Idle,
}

#[derive(Debug, Clone)]
pub struct TcpSender {
    pub conn: u32,
    cfg: TcpConfig,
    snd_una: u32,
    snd_nxt: u32,
    snd_max: u32,
    snd_wnd: u32,
    cwnd: u32,
    ssthresh: u32,
    dupacks: u32,
    rto: Rto,
    /// Consecutive timeouts of the oldest segment (BSD t_rxtshift).
    backoff: u32,
    /// The segment being timed for an RTT sample, and when it was sent (Karn: never a
    /// retransmitted one).
    timing: Option<(u32, Time)>,
    timer: Timer,
    pub stats: SenderStats,
}

impl TcpSender {
    pub fn new(conn: u32, cfg: TcpConfig, start: Time) -> Self {
        TcpSender {
            conn,
            snd_una: cfg.iss,
            snd_nxt: cfg.iss,
            snd_max: cfg.iss,
            // Until the first ACK the peer's window is the configured buffer.
            snd_wnd: cfg.advertised_window(),
            cwnd: cfg.initial_cwnd_segments * cfg.mss,
            ssthresh: cfg.initial_ssthresh,
            dupacks: 0,
            rto: Rto::new(cfg.initial_rto_ticks(), cfg.min_rto_ticks, cfg.max_rto_ticks()),
            backoff: 0,
            timing: None,
            timer: Timer::Start(start),
            stats: SenderStats::default(),
            cfg,
        }
    }

    pub fn next_timer(&self) -> Time {
        match self.timer {
            Timer::Start(t) | Timer::Rexmt(t) => t,
            Timer::Idle => NEVER,
        }
    }

    pub fn cwnd(&self) -> u32 {
        self.cwnd
    }
    pub fn ssthresh(&self) -> u32 {
        self.ssthresh
    }
    pub fn snd_una(&self) -> u32 {
        self.snd_una
    }

    /// A timer deadline has come.
    pub fn on_timer(&mut self, now: Time, out: &mut impl SegmentSink) {
        match self.timer {
            // The application opens the connection and starts pushing data.
            Timer::Start(t) if t <= now => {
                self.timer = Timer::Idle;
                self.output(now, out);
            }
            // The oldest outstanding segment was not acknowledged in time.
            Timer::Rexmt(t) if t <= now => self.timeout(now, out),
            _ => {}
        }
    }

    fn arm_rexmt(&mut self, now: Time) {
        // BSD counts the timer down on slow-timer ticks: a timeout of n ticks armed at `now`
        // fires on the n-th tick after it.
        let c = &self.cfg;
        self.timer = Timer::Rexmt(c.tick_start(c.tick_index(now) + self.rto.current() as u64));
    }

    fn timeout(&mut self, now: Time, out: &mut impl SegmentSink) {
        self.stats.rto_expirations += 1;
        self.backoff += 1;
        if self.backoff > self.cfg.max_backoffs {
            // BSD tcp_timers: too many retransmissions, the connection is dropped.
            self.stats.aborted = true;
            self.timer = Timer::Idle;
            return;
        }
        self.rto.back_off(self.backoff);
        self.timing = None;
        self.enter_loss_recovery();
        self.cwnd = self.cfg.mss;
        // Go-back-N: everything from the oldest unacknowledged octet is sent again.
        self.snd_nxt = self.snd_una;
        self.arm_rexmt(now);
        self.output(now, out);
    }

    /// ssthresh = max(2 segments, min(cwnd, window) / 2), rounded down to whole segments.
    fn enter_loss_recovery(&mut self) {
        let mss = self.cfg.mss;
        let half = self.cwnd.min(self.snd_wnd) / 2 / mss;
        self.ssthresh = half.max(2) * mss;
        self.dupacks = 0;
    }

    /// An acknowledgement arrived.
    pub fn on_ack(&mut self, now: Time, ack: u32, wnd: u32, out: &mut impl SegmentSink) {
        if self.stats.aborted || seq::gt(ack, self.snd_max) {
            return;
        }
        let mss = self.cfg.mss;
        if seq::le(ack, self.snd_una) {
            let window_update = wnd != self.snd_wnd;
            self.snd_wnd = wnd;
            if ack != self.snd_una || self.snd_max == self.snd_una || window_update {
                self.dupacks = 0;
                return;
            }
            self.dupacks += 1;
            if !self.cfg.fast_retransmit {
                return;
            }
            let thresh = self.cfg.dupack_threshold;
            match self.cfg.variant {
                // The threshold-th duplicate: resend the missing segment at once.
                _ if self.dupacks == thresh => self.fast_retransmit(now, out),
                // Reno fast recovery: each further duplicate means a segment left the network.
                Variant::Reno if self.dupacks > thresh => {
                    self.cwnd = self.cwnd.saturating_add(mss);
                    self.output(now, out);
                }
                _ => {}
            }
            return;
        }

        // New data acknowledged.
        self.snd_wnd = wnd;
        if self.cfg.variant == Variant::Reno && self.dupacks >= self.cfg.dupack_threshold {
            // Leaving fast recovery: deflate the window to ssthresh.
            self.cwnd = self.cwnd.min(self.ssthresh);
        }
        self.dupacks = 0;
        if let Some((s, sent)) = self.timing {
            if seq::gt(ack, s) {
                let ticks = (self.cfg.tick_index(now) - self.cfg.tick_index(sent)) as u32 + 1;
                self.rto.sample(ticks);
                self.backoff = 0;
                self.timing = None;
                self.stats.rtt_samples += 1;
                self.stats.rtt_sum += now - sent;
            }
        }
        self.snd_una = ack;
        if seq::lt(self.snd_nxt, ack) {
            self.snd_nxt = ack;
        }
        if ack == self.snd_max {
            self.timer = Timer::Idle;
        } else {
            self.arm_rexmt(now);
        }
        self.open_window();
        self.output(now, out);
    }

    fn fast_retransmit(&mut self, now: Time, out: &mut impl SegmentSink) {
        let mss = self.cfg.mss;
        self.stats.fast_retransmits += 1;
        let dup = self.dupacks;
        self.enter_loss_recovery();
        self.dupacks = dup;
        self.timing = None;
        self.arm_rexmt(now);
        let resume = self.snd_nxt;
        self.snd_nxt = self.snd_una;
        self.cwnd = mss;
        self.output(now, out);
        if seq::gt(resume, self.snd_nxt) {
            self.snd_nxt = resume;
        }
        self.cwnd = match self.cfg.variant {
            Variant::Tahoe => mss,
            // Reno: the threshold's duplicates each mean a segment has left the network.
            Variant::Reno => self.ssthresh + self.cfg.dupack_threshold * mss,
        };
    }

    /// Slow start below ssthresh, congestion avoidance (one segment per window) above.
    fn open_window(&mut self) {
        let mss = self.cfg.mss;
        let incr =
            if self.cwnd > self.ssthresh { (mss as u64 * mss as u64 / self.cwnd as u64) as u32 } else { mss };
        let cap = if self.cfg.window_scaling {
            super::config::MAX_SCALED_WINDOW
        } else {
            super::config::MAX_UNSCALED_WINDOW
        };
        self.cwnd = self.cwnd.saturating_add(incr.max(1)).min(cap);
    }

    /// Send as many full segments as the window allows.
    fn output(&mut self, now: Time, out: &mut impl SegmentSink) {
        if self.stats.aborted || matches!(self.timer, Timer::Start(_)) {
            return;
        }
        let mss = self.cfg.mss;
        let win = self.cwnd.min(self.snd_wnd);
        while self.snd_nxt.wrapping_sub(self.snd_una) + mss <= win {
            let retransmission = seq::lt(self.snd_nxt, self.snd_max);
            out.send(
                now,
                Frame {
                    conn: self.conn,
                    kind: SegKind::Data,
                    seq: self.snd_nxt,
                    ack: 0,
                    len: mss,
                    wnd: 0,
                    ncells: 0,
                    alive: 0,
                    created: now,
                    retransmission,
                    serial: 0,
                },
                false,
            );
            self.stats.segments_sent += 1;
            self.stats.bytes_sent += mss as u64;
            if retransmission {
                self.stats.segments_retransmitted += 1;
                self.stats.bytes_retransmitted += mss as u64;
            } else if self.timing.is_none() {
                self.timing = Some((self.snd_nxt, now));
            }
            self.snd_nxt = self.snd_nxt.wrapping_add(mss);
            self.snd_max = seq::max(self.snd_max, self.snd_nxt);
            if self.timer == Timer::Idle {
                self.arm_rexmt(now);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::PS_PER_MS;

    #[derive(Default)]
    struct Capture(Vec<Frame>);
    impl SegmentSink for Capture {
        fn send(&mut self, _now: Time, frame: Frame, _clp: bool) {
            self.0.push(frame);
        }
    }

    fn cfg() -> TcpConfig {
        TcpConfig { iss: u32::MAX - 1000, ..TcpConfig::ubr_plus() }
    }

    #[test]
    fn slow_start_doubles_per_round_and_wraps_sequence_space() {
        let c = cfg();
        let mut s = TcpSender::new(0, c, 0);
        let mut cap = Capture::default();
        s.on_timer(0, &mut cap);
        assert_eq!(cap.0.len(), 1);
        let mut now = 10 * PS_PER_MS;
        for round in 0..4 {
            let sent: Vec<Frame> = std::mem::take(&mut cap.0);
            assert_eq!(sent.len(), 1 << round, "round {round}");
            for f in sent {
                s.on_ack(now, f.seq.wrapping_add(f.len), 65_535, &mut cap);
            }
            now += 10 * PS_PER_MS;
        }
        assert_eq!(s.cwnd(), 16 * 512);
        assert!(seq::lt(c.iss, s.snd_una()) && s.snd_una() < c.iss, "sequence space wrapped");
    }

    #[test]
    fn timeout_halves_ssthresh_and_goes_back_n() {
        let mut s = TcpSender::new(0, TcpConfig::ubr_plus(), 0);
        let mut cap = Capture::default();
        s.on_timer(0, &mut cap);
        // Grow the window to 8 segments.
        let mut now = PS_PER_MS;
        while s.cwnd() < 8 * 512 {
            let f = cap.0.remove(0);
            s.on_ack(now, f.seq + f.len, 65_535, &mut cap);
            now += PS_PER_MS;
        }
        let outstanding = cap.0.len();
        assert_eq!(outstanding, 8);
        let first = cap.0[0].seq;
        cap.0.clear();
        let deadline = s.next_timer();
        assert_eq!(deadline % (100 * PS_PER_MS), 0, "timeouts fire on ticks");
        s.on_timer(deadline, &mut cap);
        assert_eq!(s.stats.rto_expirations, 1);
        assert_eq!(s.ssthresh(), 4 * 512);
        assert_eq!(s.cwnd(), 512);
        assert_eq!(cap.0.len(), 1);
        assert_eq!(cap.0[0].seq, first);
        assert!(cap.0[0].retransmission);
    }

    #[test]
    fn timer_phase_shifts_the_ticks_timeouts_fire_on() {
        let tick = 100 * PS_PER_MS;
        let c = TcpConfig { tick_phase: 30 * PS_PER_MS, ..TcpConfig::ubr_plus() };
        let mut s = TcpSender::new(0, c, 0);
        let mut cap = Capture::default();
        s.on_timer(0, &mut cap);
        // Initial RTO 3 s = 30 ticks, counted from the tick interval holding t = 0, which began
        // at -70 ms: the timeout fires on the 30th tick after it, at 30 ms + 29 ticks.
        assert_eq!(s.next_timer() % tick, 30 * PS_PER_MS);
        assert_eq!(s.next_timer(), 30 * PS_PER_MS + 29 * tick);
    }

    #[test]
    fn aborts_after_max_backoffs() {
        let c = TcpConfig { max_backoffs: 3, ..TcpConfig::ubr_plus() };
        let mut s = TcpSender::new(0, c, 0);
        let mut cap = Capture::default();
        s.on_timer(0, &mut cap);
        for _ in 0..4 {
            let t = s.next_timer();
            s.on_timer(t, &mut cap);
        }
        assert!(s.stats.aborted);
        assert_eq!(s.next_timer(), NEVER);
        assert_eq!(s.stats.rto_expirations, 4);
    }

    #[test]
    fn reno_fast_retransmit_and_recovery() {
        let c = TcpConfig {
            variant: Variant::Reno,
            fast_retransmit: true,
            initial_cwnd_segments: 10,
            ..TcpConfig::ubr_plus()
        };
        let mut s = TcpSender::new(0, c, 0);
        let mut cap = Capture::default();
        s.on_timer(0, &mut cap);
        assert_eq!(cap.0.len(), 10);
        let lost = cap.0[0].seq;
        cap.0.clear();
        for i in 0..3 {
            s.on_ack(PS_PER_MS * (i + 1), lost, 65_535, &mut cap);
        }
        assert_eq!(s.stats.fast_retransmits, 1);
        assert_eq!(cap.0.len(), 1);
        assert_eq!(cap.0[0].seq, lost);
        assert_eq!(s.ssthresh(), 5 * 512);
        assert_eq!(s.cwnd(), 8 * 512);
        // Inflation: each further duplicate lets one new segment out once cwnd passes the flight.
        for i in 0..4 {
            s.on_ack(PS_PER_MS * (10 + i), lost, 65_535, &mut cap);
        }
        assert_eq!(s.cwnd(), 12 * 512);
        assert_eq!(cap.0.len(), 1 + 2);
        // The repair is acknowledged: deflate to ssthresh, then the BSD increase, which is
        // still slow start at cwnd == ssthresh.
        s.on_ack(PS_PER_MS * 20, lost + 10 * 512, 65_535, &mut cap);
        assert_eq!(s.cwnd(), 6 * 512);
    }
}
