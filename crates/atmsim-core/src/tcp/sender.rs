//! The sending side of a TCP connection.
//!
//! Congestion control follows the BSD code the studies ran: the window grows by one segment per
//! ACK in slow start and by MSS*MSS/cwnd above ssthresh; a timeout halves ssthresh, drops the
//! window to one segment and goes back to the oldest unacknowledged octet. What happens on
//! duplicate ACKs depends on the [`Variant`] (one `match` in [`TcpSender::on_dupack`]).

use super::{seq, Rto, Scoreboard, SegmentSink, TcpConfig, Variant};
use crate::frame::{Frame, SYN};
use crate::time::{Time, NEVER};

#[derive(Debug, Clone, Default)]
pub struct SenderStats {
    pub segments_sent: u64,
    pub segments_retransmitted: u64,
    /// Data octets sent, retransmissions included (the CLASS study's offered load).
    pub bytes_sent: u64,
    pub bytes_retransmitted: u64,
    pub rto_expirations: u64,
    pub fast_retransmits: u64,
    pub rtt_samples: u64,
    pub rtt_sum: Time,
    /// Connections given up after too many successive timeouts.
    pub aborts: u64,
}

/// Connection state, as far as the sender needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Not opened yet, finished, or aborted.
    Closed,
    /// SYN sent, waiting for the SYN-ACK.
    SynSent,
    Established,
}

/// A point of the congestion-window trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CwndSample {
    pub t: Time,
    pub cwnd: u32,
    pub ssthresh: u32,
}

#[derive(Debug, Clone)]
pub struct TcpSender {
    pub conn: u32,
    cfg: TcpConfig,
    /// Data octets in a full-sized segment (`TcpConfig::seg_data`), fixed for the connection
    /// and read several times per ACK: kept rather than derived from the options each time.
    mss: u32,
    state: State,
    iss: u32,
    snd_una: u32,
    snd_nxt: u32,
    snd_max: u32,
    snd_wnd: u32,
    max_sndwnd: u32,
    cwnd: u32,
    ssthresh: u32,
    dupacks: u32,
    /// Fast recovery in progress, until everything below this point is acknowledged.
    recovery: Option<u32>,
    /// RFC 6582 `recover`: no new fast retransmit for losses from before this point.
    recover: u32,
    sb: Scoreboard,
    /// RFC 6675 HighRxt: the highest octet retransmitted in this recovery.
    high_rxt: u32,
    /// NewReno: the first partial ACK of a recovery restarts the timer, later ones do not.
    partial_acked: bool,
    rto: Rto,
    /// Consecutive timeouts of the oldest segment (BSD t_rxtshift).
    backoff: u32,
    /// The segment being timed for an RTT sample, and when it was sent (Karn: never a
    /// retransmitted one). Unused with timestamps, which time every ACK.
    timing: Option<(u32, Time)>,
    /// Retransmission timer deadline (a slow-timer tick), if running.
    rexmt: Option<Time>,
    /// The deadline [`TcpSender::arm_rexmt`] found last, kept for the rest of its tick interval.
    rexmt_memo: RexmtMemo,
    /// With `timing_excludes_transmission`: the octet whose segment's transmission completion
    /// (re)starts the running timer, while that segment still waits in the adapter.
    rexmt_on_tx: Option<u32>,
    /// With `timing_excludes_transmission`: every octet below this has finished transmission
    /// (since the last go-back-N restart).
    tx_done: u32,
    /// Application data handed over and never sent (u64::MAX: unlimited).
    unsent: u64,
    /// Latest timestamp from the peer, echoed in our segments.
    ts_recent: u32,
    pub stats: SenderStats,
    /// Congestion-window trace, when asked for.
    pub trace: Option<Vec<CwndSample>>,
}

/// A retransmission deadline and where it holds: for every `now` in the slow-timer tick
/// interval that ends (exclusive) at `end`, a timeout of `ticks` ticks armed at `now` fires at
/// `deadline` (the interval's tick index is all that [`TcpConfig::tick_index`] keeps of `now`).
#[derive(Debug, Clone, Copy, Default)]
struct RexmtMemo {
    end: Time,
    /// 0 (never a timeout: [`Rto`] keeps at least one tick) until filled.
    ticks: u32,
    deadline: Time,
}

impl RexmtMemo {
    /// The deadline, if `now` lies in the remembered interval `[end - tick, end)` and the
    /// timeout is the remembered one.
    #[inline(always)]
    fn get(&self, now: Time, ticks: u32, tick: Time) -> Option<Time> {
        // end - tick <= now < end, as one unsigned compare (end - now in 1..=tick).
        (self.ticks == ticks && self.end.wrapping_sub(now).wrapping_sub(1) < tick).then_some(self.deadline)
    }

    /// Find the deadline the long way and remember it for the rest of `now`'s tick interval.
    #[cold]
    #[inline(never)]
    fn fill(&mut self, c: &TcpConfig, now: Time, ticks: u32) -> Time {
        let i = c.tick_index(now);
        // Interval i is [tick_start(i), tick_start(i + 1)) (its start clipped at 0 for i = 0).
        *self = RexmtMemo { end: c.tick_start(i + 1), ticks, deadline: c.tick_start(i + ticks as u64) };
        self.deadline
    }
}

impl TcpSender {
    pub fn new(conn: u32, cfg: TcpConfig) -> Self {
        TcpSender {
            conn,
            mss: cfg.seg_data(),
            state: State::Closed,
            iss: cfg.iss,
            snd_una: cfg.iss,
            snd_nxt: cfg.iss,
            snd_max: cfg.iss,
            snd_wnd: cfg.advertised_window(),
            max_sndwnd: cfg.advertised_window(),
            cwnd: cfg.initial_cwnd_segments * cfg.seg_data(),
            ssthresh: cfg.initial_ssthresh,
            dupacks: 0,
            recovery: None,
            // Below the ISS, so that a loss in the very first window can start a recovery.
            recover: cfg.iss.wrapping_sub(1),
            sb: Scoreboard::default(),
            high_rxt: cfg.iss,
            partial_acked: false,
            rto: Rto::new(cfg.initial_rto_ticks(), cfg.min_rto_ticks, cfg.max_rto_ticks()),
            backoff: 0,
            timing: None,
            rexmt: None,
            rexmt_memo: RexmtMemo::default(),
            rexmt_on_tx: None,
            tx_done: cfg.iss,
            unsent: 0,
            ts_recent: 0,
            stats: SenderStats::default(),
            trace: None,
            cfg,
        }
    }

    pub fn config(&self) -> &TcpConfig {
        &self.cfg
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
    pub fn snd_max(&self) -> u32 {
        self.snd_max
    }
    pub fn in_recovery(&self) -> bool {
        self.recovery.is_some()
    }
    pub fn is_open(&self) -> bool {
        self.state != State::Closed
    }

    /// All data handed over has been sent and acknowledged.
    pub fn is_done(&self) -> bool {
        self.state == State::Established && self.unsent == 0 && self.snd_una == self.snd_max
    }

    pub fn next_timer(&self) -> Time {
        self.rexmt.unwrap_or(NEVER)
    }

    /// Open a connection with fresh state. With `handshake`, a SYN goes out first and data
    /// waits for the SYN-ACK; without, the connection is taken as established (a long-lived
    /// connection whose set-up is not part of the experiment).
    pub fn open(&mut self, now: Time, handshake: bool, out: &mut impl SegmentSink) {
        let iss = if self.state == State::Closed && self.snd_max != self.cfg.iss {
            // A new incarnation starts well past the old one's sequence space (BSD tcp_iss).
            self.snd_max.wrapping_add(1 << 20)
        } else {
            self.iss
        };
        let (stats, trace) = (std::mem::take(&mut self.stats), self.trace.take());
        *self = TcpSender { stats, trace, ..TcpSender::new(self.conn, TcpConfig { iss, ..self.cfg }) };
        if handshake {
            self.state = State::SynSent;
            self.send_syn(now, out);
        } else {
            self.state = State::Established;
            self.output(now, out);
        }
        self.note(now);
    }

    /// The application hands over `bytes` more octets (u64::MAX: an endless supply).
    pub fn write(&mut self, now: Time, bytes: u64, out: &mut impl SegmentSink) {
        self.unsent = self.unsent.saturating_add(bytes);
        self.output(now, out);
    }

    /// Stop: nothing more is sent and no timer runs.
    pub fn close(&mut self) {
        self.state = State::Closed;
        self.rexmt = None;
    }

    fn send_syn(&mut self, now: Time, out: &mut impl SegmentSink) {
        let mut f = Frame::data(self.conn, self.iss, 0, now);
        f.flags = SYN;
        f.retransmission = self.backoff > 0;
        self.add_options(&mut f, now);
        out.send(now, f, false);
        self.snd_nxt = self.iss.wrapping_add(1);
        self.snd_max = self.snd_nxt;
        if self.backoff == 0 {
            self.timing = Some((self.iss, now));
        }
        self.arm_rexmt(now);
    }

    /// A timer deadline has come: the retransmission timer fired.
    pub fn on_timer(&mut self, now: Time, out: &mut impl SegmentSink) {
        if self.rexmt.is_some_and(|t| t <= now) {
            self.timeout(now, out);
            self.note(now);
        }
    }

    fn arm_rexmt(&mut self, now: Time) {
        // BSD counts the timer down on slow-timer ticks: a timeout of n ticks armed at `now`
        // fires on the n-th tick after it. Every ACK of new data restarts the timer, and an
        // ACK clock of a few hundred microseconds restarts it hundreds of times in one 100 ms
        // tick, to the same deadline: the memo answers those without the division.
        let ticks = self.rto.current();
        let deadline = match self.rexmt_memo.get(now, ticks, self.cfg.tick) {
            Some(d) => d,
            None => self.rexmt_memo.fill(&self.cfg, now, ticks),
        };
        debug_assert_eq!(deadline, self.cfg.tick_start(self.cfg.tick_index(now) + ticks as u64));
        self.rexmt = Some(deadline);
        // Timing from transmission completion: if the oldest outstanding segment has not left
        // the host yet, the timer starts again when it has.
        self.rexmt_on_tx = (self.cfg.timing_excludes_transmission && seq::ge(self.snd_una, self.tx_done))
            .then_some(self.snd_una);
    }

    /// The host's adapter put the last cell of data segment [seq, seq + len) on the link at
    /// `end`. Only with `timing_excludes_transmission`: the timed segment's RTT sample and
    /// the retransmission timer count from here.
    pub fn transmitted(&mut self, end: Time, seq: u32, len: u32) {
        if !self.cfg.timing_excludes_transmission || len == 0 {
            return;
        }
        let last = seq.wrapping_add(len);
        if seq::gt(last, self.tx_done) {
            self.tx_done = last;
        }
        if let Some((s, _)) = self.timing {
            if s == seq {
                self.timing = Some((s, end));
            }
        }
        if let Some(waiting) = self.rexmt_on_tx {
            if self.rexmt.is_some() && seq::ge(waiting, seq) && seq::lt(waiting, last) {
                self.rexmt_on_tx = None;
                let c = &self.cfg;
                self.rexmt = Some(c.tick_start(c.tick_index(end) + self.rto.current() as u64));
            }
        }
    }

    fn timeout(&mut self, now: Time, out: &mut impl SegmentSink) {
        self.stats.rto_expirations += 1;
        self.backoff += 1;
        if self.backoff > self.cfg.max_backoffs {
            // BSD tcp_timers: too many retransmissions, the connection is dropped.
            self.stats.aborts += 1;
            self.close();
            return;
        }
        self.rto.back_off(self.backoff);
        self.timing = None;
        if self.state == State::SynSent {
            self.send_syn(now, out);
            return;
        }
        self.ssthresh = self.half_window();
        self.cwnd = self.mss;
        self.dupacks = 0;
        self.recovery = None;
        // RFC 6582 step 4: duplicate ACKs for data sent before the timeout start no recovery.
        self.recover = self.snd_max;
        // The receiver may renege on SACKed data (RFC 2018): start over from snd_una.
        self.sb.clear();
        self.high_rxt = self.snd_una;
        // Go-back-N: everything from the oldest unacknowledged octet is sent again.
        self.snd_nxt = self.snd_una;
        self.tx_done = self.snd_una;
        self.arm_rexmt(now);
        self.output(now, out);
    }

    /// max(2 segments, min(cwnd, window) / 2), rounded down to whole segments.
    fn half_window(&self) -> u32 {
        let mss = self.mss;
        (self.cwnd.min(self.snd_wnd) / 2 / mss).max(2) * mss
    }

    /// An ACK (or the SYN-ACK) arrived.
    pub fn on_ack(&mut self, now: Time, f: &Frame, out: &mut impl SegmentSink) {
        match self.state {
            State::Closed => return,
            // The SYN-ACK: the connection is established (the SYN was timed like data).
            State::SynSent => {
                if f.flags & SYN == 0 || f.ack != self.iss.wrapping_add(1) {
                    return;
                }
                self.state = State::Established;
                self.snd_una = f.ack;
                self.snd_wnd = f.wnd;
                self.ts_recent = f.ts_val;
                self.rtt_sample(now, f);
                self.rexmt = None;
                self.output(now, out);
                return;
            }
            State::Established => {}
        }
        if seq::gt(f.ack, self.snd_max) {
            return;
        }
        if self.cfg.timestamps {
            self.ts_recent = f.ts_val;
        }
        if self.cfg.variant == Variant::Sack {
            self.sb.update(f.ack, self.snd_max, f.sack_blocks());
        }
        if seq::le(f.ack, self.snd_una) {
            let window_update = f.wnd != self.snd_wnd;
            self.set_window(f.wnd);
            let duplicate = f.ack == self.snd_una && self.snd_max != self.snd_una && !window_update;
            if duplicate {
                self.dupacks += 1;
                self.on_dupack(now, out);
            } else {
                self.dupacks = 0;
            }
            self.note(now);
            return;
        }
        self.on_new_ack(now, f, out);
        self.note(now);
    }

    fn set_window(&mut self, wnd: u32) {
        self.snd_wnd = wnd;
        self.max_sndwnd = self.max_sndwnd.max(wnd);
    }

    /// The `dupacks`-th duplicate ACK in a row.
    fn on_dupack(&mut self, now: Time, out: &mut impl SegmentSink) {
        let thresh = self.cfg.dupack_threshold;
        let mss = self.mss;
        match self.cfg.variant {
            _ if !self.cfg.fast_retransmit => {}
            // 4.3BSD-Tahoe: resend the missing segment, then slow start from one segment.
            Variant::Tahoe => {
                if self.dupacks == thresh {
                    self.fast_retransmit(now, out);
                    self.cwnd = mss;
                }
            }
            // 4.3BSD-Reno: resend, halve, and inflate the window by the segments that left.
            Variant::Reno => {
                if self.dupacks == thresh {
                    self.fast_retransmit(now, out);
                    self.recovery = Some(self.snd_max);
                    self.cwnd = self.ssthresh + thresh * mss;
                } else if self.dupacks > thresh {
                    self.cwnd = self.cwnd.saturating_add(mss);
                    self.output(now, out);
                }
            }
            // RFC 6582: as Reno, but only for losses after `recover`.
            Variant::NewReno => {
                if self.dupacks == thresh && self.recovery.is_none() && seq::gt(self.snd_una, self.recover) {
                    self.fast_retransmit(now, out);
                    self.recover = self.snd_max;
                    self.recovery = Some(self.snd_max);
                    self.partial_acked = false;
                    self.cwnd = self.ssthresh + thresh * mss;
                } else if self.recovery.is_some() {
                    self.cwnd = self.cwnd.saturating_add(mss);
                    self.output(now, out);
                }
            }
            // RFC 6675: enter on the threshold or when enough is SACKed above snd_una; then
            // the pipe estimate, not the window, clocks transmissions.
            Variant::Sack => {
                if self.recovery.is_none() {
                    let lost = self.sb.sacked_above(self.snd_una) > ((thresh - 1) * mss) as u64;
                    if (self.dupacks >= thresh || lost) && seq::gt(self.snd_una, self.recover) {
                        self.enter_sack_recovery(now, out);
                    }
                } else {
                    self.sack_output(now, out);
                }
            }
        }
    }

    /// Resend the oldest unacknowledged segment at once and halve ssthresh.
    fn fast_retransmit(&mut self, now: Time, out: &mut impl SegmentSink) {
        self.stats.fast_retransmits += 1;
        self.ssthresh = self.half_window();
        self.timing = None;
        self.arm_rexmt(now);
        let len = self.mss.min(self.snd_max.wrapping_sub(self.snd_una));
        self.send_at(now, self.snd_una, len, out);
    }

    fn enter_sack_recovery(&mut self, now: Time, out: &mut impl SegmentSink) {
        self.stats.fast_retransmits += 1;
        self.ssthresh = self.half_window();
        self.cwnd = self.ssthresh;
        self.recover = self.snd_max;
        self.recovery = Some(self.snd_max);
        self.timing = None;
        self.high_rxt = self.snd_una;
        self.arm_rexmt(now);
        // The first hole is retransmitted at once, whatever the pipe (RFC 6675 step 4.3).
        let hole_end = self.sb.next_hole(self.snd_una).map_or(self.snd_max, |(_, e)| e);
        let len = self.mss.min(hole_end.wrapping_sub(self.snd_una));
        self.send_at(now, self.snd_una, len, out);
        self.high_rxt = self.snd_una.wrapping_add(len);
        self.sack_output(now, out);
    }

    fn on_new_ack(&mut self, now: Time, f: &Frame, out: &mut impl SegmentSink) {
        let ack = f.ack;
        let mss = self.mss;
        let acked = ack.wrapping_sub(self.snd_una);
        self.set_window(f.wnd);
        self.rtt_sample(now, f);
        self.snd_una = ack;
        if seq::lt(self.snd_nxt, ack) {
            self.snd_nxt = ack;
        }
        if seq::lt(self.high_rxt, ack) {
            self.high_rxt = ack;
        }
        self.dupacks = 0;
        let mut restart_timer = true;
        let mut grow = true;
        match (self.cfg.variant, self.recovery) {
            (_, None) => {}
            // Reno leaves recovery on the first new ACK, deflating to ssthresh.
            (Variant::Reno | Variant::Tahoe, Some(_)) => {
                self.cwnd = self.cwnd.min(self.ssthresh);
                self.recovery = None;
            }
            // RFC 6582 full ACK: leave recovery with cwnd = min(ssthresh, flight + 1 segment).
            (Variant::NewReno, Some(point)) if seq::ge(ack, point) => {
                let flight = self.snd_max.wrapping_sub(ack);
                self.cwnd = self.ssthresh.min(flight.max(mss) + mss);
                self.recovery = None;
                grow = false;
            }
            // RFC 6582 partial ACK: the next hole is lost too; resend it and deflate by what
            // was acknowledged (plus one segment back).
            (Variant::NewReno, Some(_)) => {
                let len = mss.min(self.snd_max.wrapping_sub(ack));
                self.send_at(now, ack, len, out);
                self.cwnd = self
                    .cwnd
                    .saturating_sub(acked)
                    .saturating_add(if acked >= mss { mss } else { 0 })
                    .max(mss);
                restart_timer = !self.partial_acked;
                self.partial_acked = true;
                grow = false;
            }
            (Variant::Sack, Some(point)) if seq::ge(ack, point) => {
                self.recovery = None;
                grow = false;
            }
            (Variant::Sack, Some(_)) => grow = false,
        }
        if ack == self.snd_max {
            self.rexmt = None;
        } else if restart_timer {
            self.arm_rexmt(now);
        }
        if grow {
            self.open_window();
        }
        if self.recovery.is_some() && self.cfg.variant == Variant::Sack {
            self.sack_output(now, out);
        } else {
            // The ACK clock's own transmissions: `output` compiled in here, one call less per
            // ACK (the other callers share the out-of-line copy).
            self.output_inline(now, out);
        }
    }

    /// An RTT sample: from the echoed timestamp when timestamps are on (RFC 1323 RTTM, every
    /// ACK of new data), else from the timed segment if this ACK covers it (Karn's rule).
    #[inline(always)]
    fn rtt_sample(&mut self, now: Time, f: &Frame) {
        let ticks = if self.cfg.timestamps && f.ts_ecr != 0 {
            (self.cfg.tick_index(now) as u32).wrapping_sub(f.ts_ecr) + 1
        } else {
            match self.timing {
                Some((s, sent)) if seq::gt(f.ack, s) => {
                    self.timing = None;
                    self.stats.rtt_sum += now - sent;
                    self.stats.rtt_samples += 1;
                    (self.cfg.tick_index(now) - self.cfg.tick_index(sent)) as u32 + 1
                }
                _ => return,
            }
        };
        if self.cfg.timestamps {
            // The echoed tick is coarse; the mean RTT statistic uses the exact send time of
            // the segment this ACK covers when one is being timed.
            if let Some((s, sent)) = self.timing {
                if seq::gt(f.ack, s) {
                    self.timing = None;
                    self.stats.rtt_sum += now - sent;
                    self.stats.rtt_samples += 1;
                }
            }
        }
        self.rto.sample(ticks);
        self.backoff = 0;
    }

    /// Slow start below ssthresh, congestion avoidance (one segment per window) above.
    fn open_window(&mut self) {
        let mss = self.mss;
        let incr =
            if self.cwnd > self.ssthresh { (mss as u64 * mss as u64 / self.cwnd as u64) as u32 } else { mss };
        let cap = if self.cfg.window_scaling {
            super::config::MAX_SCALED_WINDOW
        } else {
            super::config::MAX_UNSCALED_WINDOW
        };
        self.cwnd = self.cwnd.saturating_add(incr.max(1)).min(cap);
    }

    /// The usable window: congestion window, peer's window and send buffer.
    fn window(&self) -> u32 {
        self.cwnd.min(self.snd_wnd).min(self.cfg.snd_buffer)
    }

    /// Octets that could be sent from `snd_nxt`: unsent retransmission region plus new data.
    fn available(&self) -> u64 {
        (self.snd_max.wrapping_sub(self.snd_nxt) as u64).saturating_add(self.unsent)
    }

    /// Send what the window allows, from `snd_nxt` (BSD tcp_output, without the persist timer:
    /// a zero window does not occur in these studies' receivers).
    #[inline(never)]
    fn output(&mut self, now: Time, out: &mut impl SegmentSink) {
        self.output_inline(now, out);
    }

    /// [`TcpSender::output`], compiled into its caller.
    #[inline(always)]
    fn output_inline(&mut self, now: Time, out: &mut impl SegmentSink) {
        if self.state != State::Established {
            return;
        }
        let mss = self.mss;
        // `send_at` moves snd_nxt, snd_max and the unsent count, never the window, snd_una or
        // the largest window offered: those are read once, not again after every segment.
        let win = self.window();
        let una = self.snd_una;
        let half_largest = self.max_sndwnd / 2;
        loop {
            debug_assert_eq!((win, una, half_largest), (self.window(), self.snd_una, self.max_sndwnd / 2));
            let flight = self.snd_nxt.wrapping_sub(una);
            if flight >= win {
                return;
            }
            let avail = self.available();
            if avail == 0 {
                return;
            }
            let len = (mss as u64).min(avail).min((win - flight) as u64) as u32;
            if len < mss {
                // Silly-window avoidance and Nagle: a short segment goes only if it empties the
                // buffer with nothing outstanding (or with Nagle off), or fills half the
                // largest window the peer offered. A retransmission always goes (BSD: snd_nxt <
                // snd_max), or a short last segment could wait forever after a timeout.
                let empties = len as u64 == avail;
                let idle = self.snd_max == una;
                let retransmitting = seq::lt(self.snd_nxt, self.snd_max);
                if !(empties && (idle || self.cfg.nodelay)) && len < half_largest && !retransmitting {
                    return;
                }
            }
            self.send_at_inline(now, self.snd_nxt, len, out);
        }
    }

    /// RFC 6675 NextSeg loop: send while the pipe leaves a segment of room in cwnd.
    fn sack_output(&mut self, now: Time, out: &mut impl SegmentSink) {
        let mss = self.mss;
        loop {
            if self.cwnd < self.pipe().saturating_add(mss) {
                return;
            }
            let from = seq::max(self.high_rxt, self.snd_una);
            let hole = self.sb.holes(from).next();
            // (1) the first lost hole not yet retransmitted
            if let Some((a, b, _)) = hole.filter(|&(_, _, above)| above > self.lost_above()) {
                let len = mss.min(b.wrapping_sub(a));
                self.send_at(now, a, len, out);
                self.high_rxt = a.wrapping_add(len);
                continue;
            }
            // (2) new data, if the peer's window allows
            let flight = self.snd_max.wrapping_sub(self.snd_una);
            if self.unsent > 0 && flight < self.snd_wnd.min(self.cfg.snd_buffer) {
                let room = self.snd_wnd.min(self.cfg.snd_buffer) - flight;
                let len = (mss as u64).min(self.unsent).min(room as u64) as u32;
                self.snd_nxt = self.snd_max;
                self.send_at(now, self.snd_max, len, out);
                continue;
            }
            // (3) a hole not yet deemed lost
            if let Some((a, b, _)) = hole {
                let len = mss.min(b.wrapping_sub(a));
                self.send_at(now, a, len, out);
                self.high_rxt = a.wrapping_add(len);
                continue;
            }
            return;
        }
    }

    /// RFC 6675 IsLost: an octet is lost when more than this is SACKed above it ((DupThresh -
    /// 1) segments' worth).
    fn lost_above(&self) -> u64 {
        ((self.cfg.dupack_threshold - 1) * self.mss) as u64
    }

    /// RFC 6675 SetPipe, per hole: octets not SACKed and not lost count once, octets
    /// retransmitted in this recovery count (again).
    fn pipe(&self) -> u32 {
        let mut pipe: u64 = 0;
        let top = self.sb.highest().unwrap_or(self.snd_una);
        if seq::lt(top, self.snd_max) {
            pipe += self.snd_max.wrapping_sub(seq::max(top, self.snd_una)) as u64;
        }
        let lost_above = self.lost_above();
        for (a, b, above) in self.sb.holes(self.snd_una) {
            if above <= lost_above {
                pipe += b.wrapping_sub(a) as u64;
            }
            if seq::gt(self.high_rxt, a) {
                let end = if seq::lt(self.high_rxt, b) { self.high_rxt } else { b };
                pipe += end.wrapping_sub(a) as u64;
            }
        }
        pipe.min(u32::MAX as u64) as u32
    }

    /// Put one segment [s, s + len) on the wire.
    #[inline(never)]
    fn send_at(&mut self, now: Time, s: u32, len: u32, out: &mut impl SegmentSink) {
        self.send_at_inline(now, s, len, out);
    }

    /// [`TcpSender::send_at`], compiled into its caller.
    #[inline(always)]
    fn send_at_inline(&mut self, now: Time, s: u32, len: u32, out: &mut impl SegmentSink) {
        if len == 0 {
            return;
        }
        let retransmission = seq::lt(s, self.snd_max);
        let mut f = Frame::data(self.conn, s, len, now);
        f.retransmission = retransmission;
        f.cwnd = self.cwnd;
        self.add_options(&mut f, now);
        out.send_in_line(now, f, false);
        self.stats.segments_sent += 1;
        self.stats.bytes_sent += len as u64;
        let end = s.wrapping_add(len);
        if retransmission {
            self.stats.segments_retransmitted += 1;
            self.stats.bytes_retransmitted += len.min(self.snd_max.wrapping_sub(s)) as u64;
        } else if self.timing.is_none() {
            self.timing = Some((s, now));
        }
        if seq::gt(end, self.snd_max) {
            let new = end.wrapping_sub(self.snd_max) as u64;
            self.unsent = self.unsent.saturating_sub(new);
            self.snd_max = end;
        }
        if s == self.snd_nxt {
            self.snd_nxt = end;
        }
        if self.rexmt.is_none() {
            self.arm_rexmt(now);
        }
    }

    fn add_options(&self, f: &mut Frame, now: Time) {
        if self.cfg.timestamps {
            f.ts_val = self.cfg.tick_index(now) as u32;
            f.ts_ecr = self.ts_recent;
            f.opt_len = super::config::TIMESTAMP_OPTION as u8;
        }
    }

    /// Record the window in the trace if it changed.
    fn note(&mut self, t: Time) {
        if let Some(tr) = &mut self.trace {
            let s = CwndSample { t, cwnd: self.cwnd, ssthresh: self.ssthresh };
            if tr.last().is_none_or(|l| (l.cwnd, l.ssthresh) != (s.cwnd, s.ssthresh)) {
                tr.push(s);
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
    impl Capture {
        fn take(&mut self) -> Vec<Frame> {
            std::mem::take(&mut self.0)
        }
    }

    fn ack(a: u32) -> Frame {
        Frame::ack(0, a, 65_535, 0)
    }

    fn sack(a: u32, blocks: &[(u32, u32)]) -> Frame {
        let mut f = ack(a);
        f.sack[..blocks.len()].copy_from_slice(blocks);
        f.nsack = blocks.len() as u8;
        f
    }

    /// A greedy sender opened at 0 with `cwnd` segments of 512 octets.
    fn greedy(variant: Variant, cwnd: u32) -> (TcpSender, Capture) {
        let c = TcpConfig {
            variant,
            fast_retransmit: true,
            initial_cwnd_segments: cwnd,
            ..TcpConfig::ubr_plus()
        };
        let mut s = TcpSender::new(0, c);
        let mut cap = Capture::default();
        s.open(0, false, &mut cap);
        s.write(0, u64::MAX, &mut cap);
        (s, cap)
    }

    #[test]
    fn slow_start_doubles_per_round_and_wraps_sequence_space() {
        let c = TcpConfig { iss: u32::MAX - 1000, ..TcpConfig::ubr_plus() };
        let mut s = TcpSender::new(0, c);
        let mut cap = Capture::default();
        s.open(0, false, &mut cap);
        s.write(0, u64::MAX, &mut cap);
        let mut now = 10 * PS_PER_MS;
        for round in 0..4 {
            let sent = cap.take();
            assert_eq!(sent.len(), 1 << round, "round {round}");
            for f in sent {
                s.on_ack(now, &ack(f.seq.wrapping_add(f.len)), &mut cap);
            }
            now += 10 * PS_PER_MS;
        }
        assert_eq!(s.cwnd(), 16 * 512);
        assert!(seq::lt(c.iss, s.snd_una()) && s.snd_una() < c.iss, "sequence space wrapped");
    }

    #[test]
    fn timing_from_transmission_completion_excludes_the_wait_in_the_adapter() {
        // One segment waits 300 ms in the adapter (a low allowed cell rate), leaves at 300 ms
        // and is acknowledged at 310 ms.
        let ms = PS_PER_MS;
        for excluded in [false, true] {
            let c = TcpConfig { tick: ms, timing_excludes_transmission: excluded, ..TcpConfig::ubr_plus() };
            let mut s = TcpSender::new(0, c);
            let mut cap = Capture::default();
            s.open(0, false, &mut cap);
            s.write(0, 512, &mut cap);
            let f = cap.take()[0];
            let armed = s.next_timer();
            s.transmitted(300 * ms, f.seq, f.len);
            // The timer (3 s before any sample) starts again from the completion, or not at all.
            let shift = if excluded { 300 * ms } else { 0 };
            assert_eq!(s.next_timer(), armed + shift, "excluded = {excluded}");
            s.on_ack(310 * ms, &ack(f.seq + f.len), &mut cap);
            let rtt = s.stats.rtt_sum / s.stats.rtt_samples;
            assert_eq!(rtt, if excluded { 10 * ms } else { 310 * ms });
        }
    }

    #[test]
    fn the_timer_waits_for_the_oldest_segment_to_leave() {
        // Two segments queued; the first ACK restarts the timer for the second, which is still
        // in the adapter: the timer runs from the second's completion, not from the ACK.
        let ms = PS_PER_MS;
        let c = TcpConfig {
            tick: ms,
            timing_excludes_transmission: true,
            initial_cwnd_segments: 2,
            ..TcpConfig::ubr_plus()
        };
        let mut s = TcpSender::new(0, c);
        let mut cap = Capture::default();
        s.open(0, false, &mut cap);
        s.write(0, 1024, &mut cap);
        let sent = cap.take();
        s.transmitted(100 * ms, sent[0].seq, sent[0].len);
        s.on_ack(110 * ms, &ack(sent[0].seq + sent[0].len), &mut cap);
        let restarted = s.next_timer();
        s.transmitted(200 * ms, sent[1].seq, sent[1].len);
        assert_eq!(s.next_timer(), restarted + 90 * ms);
        // A segment that already left does not move the timer again.
        s.transmitted(250 * ms, sent[1].seq, sent[1].len);
        assert_eq!(s.next_timer(), restarted + 90 * ms);
    }

    /// The memo against the division it replaces, at instants that walk forwards and back
    /// across tick boundaries (phases up to one tick, timeouts that change between calls).
    #[test]
    fn the_timer_memo_gives_the_deadline_the_division_gives() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut hits = 0;
        for _ in 0..300 {
            let tick = 1 + next() % 50;
            let c = TcpConfig { tick, tick_phase: next() % tick, ..TcpConfig::ubr_plus() };
            let mut memo = RexmtMemo::default();
            let mut now = next() % (3 * tick);
            for _ in 0..200 {
                now = match next() % 8 {
                    0 => now.saturating_sub(next() % (2 * tick)),
                    1 => now + next() % (5 * tick),
                    // One before, at and after a tick boundary.
                    2 => (c.tick_start(c.tick_index(now) + 1) + next() % 3).saturating_sub(1),
                    _ => now + next() % 3,
                };
                let ticks = 1 + (next() % 16 / 13) as u32;
                let want = c.tick_start(c.tick_index(now) + ticks as u64);
                let got = match memo.get(now, ticks, tick) {
                    Some(d) => {
                        hits += 1;
                        d
                    }
                    None => memo.fill(&c, now, ticks),
                };
                assert_eq!(got, want, "tick {tick} phase {} now {now} ticks {ticks}", c.tick_phase);
            }
        }
        assert!(hits > 20_000, "the memo answered {hits} times");
    }

    #[test]
    fn timeout_halves_ssthresh_and_goes_back_n() {
        let (mut s, mut cap) = greedy(Variant::Tahoe, 8);
        let sent = cap.take();
        assert_eq!(sent.len(), 8);
        let deadline = s.next_timer();
        assert_eq!(deadline % (100 * PS_PER_MS), 0, "timeouts fire on ticks");
        s.on_timer(deadline, &mut cap);
        assert_eq!(s.stats.rto_expirations, 1);
        assert_eq!(s.ssthresh(), 4 * 512);
        assert_eq!(s.cwnd(), 512);
        let again = cap.take();
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].seq, sent[0].seq);
        assert!(again[0].retransmission);
        // Go-back-N: the ACK of the first lets the next two (already sent once) go again.
        s.on_ack(deadline + 1, &ack(512), &mut cap);
        let next: Vec<u32> = cap.take().iter().map(|f| f.seq).collect();
        assert_eq!(next, vec![512, 1024]);
        assert_eq!(s.stats.segments_retransmitted, 3);
    }

    #[test]
    fn timer_phase_shifts_the_ticks_timeouts_fire_on() {
        let tick = 100 * PS_PER_MS;
        let c = TcpConfig { tick_phase: 30 * PS_PER_MS, ..TcpConfig::ubr_plus() };
        let mut s = TcpSender::new(0, c);
        let mut cap = Capture::default();
        s.open(0, false, &mut cap);
        s.write(0, u64::MAX, &mut cap);
        // Initial RTO 3 s = 30 ticks, counted from the tick interval holding t = 0, which began
        // at -70 ms: the timeout fires on the 30th tick after it, at 30 ms + 29 ticks.
        assert_eq!(s.next_timer() % tick, 30 * PS_PER_MS);
        assert_eq!(s.next_timer(), 30 * PS_PER_MS + 29 * tick);
    }

    #[test]
    fn aborts_after_max_backoffs() {
        let c = TcpConfig { max_backoffs: 3, ..TcpConfig::ubr_plus() };
        let mut s = TcpSender::new(0, c);
        let mut cap = Capture::default();
        s.open(0, false, &mut cap);
        s.write(0, u64::MAX, &mut cap);
        for _ in 0..4 {
            let t = s.next_timer();
            s.on_timer(t, &mut cap);
        }
        assert_eq!(s.stats.aborts, 1);
        assert!(!s.is_open());
        assert_eq!(s.next_timer(), NEVER);
        assert_eq!(s.stats.rto_expirations, 4);
    }

    #[test]
    fn tahoe_fast_retransmit_drops_to_one_segment() {
        let (mut s, mut cap) = greedy(Variant::Tahoe, 10);
        cap.take();
        for _ in 0..3 {
            s.on_ack(PS_PER_MS, &ack(0), &mut cap);
        }
        let r = cap.take();
        assert_eq!((r.len(), r[0].seq, s.cwnd(), s.ssthresh()), (1, 0, 512, 5 * 512));
    }

    #[test]
    fn reno_fast_retransmit_and_recovery() {
        let (mut s, mut cap) = greedy(Variant::Reno, 10);
        cap.take();
        for i in 0..3 {
            s.on_ack(PS_PER_MS * (i + 1), &ack(0), &mut cap);
        }
        assert_eq!(s.stats.fast_retransmits, 1);
        let r = cap.take();
        assert_eq!((r.len(), r[0].seq), (1, 0));
        assert_eq!(s.ssthresh(), 5 * 512);
        assert_eq!(s.cwnd(), 8 * 512);
        // Inflation: each further duplicate lets one new segment out once cwnd passes the flight.
        for i in 0..4 {
            s.on_ack(PS_PER_MS * (10 + i), &ack(0), &mut cap);
        }
        assert_eq!(s.cwnd(), 12 * 512);
        assert_eq!(cap.take().len(), 2);
        // The repair is acknowledged: deflate to ssthresh, then the BSD increase, which is
        // still slow start at cwnd == ssthresh.
        s.on_ack(PS_PER_MS * 20, &ack(10 * 512), &mut cap);
        assert_eq!(s.cwnd(), 6 * 512);
        assert!(!s.in_recovery());
    }

    #[test]
    fn newreno_retransmits_each_hole_on_partial_acks_without_timeout() {
        // Segments 0 and 3 (of 10) are lost.
        let (mut s, mut cap) = greedy(Variant::NewReno, 10);
        cap.take();
        for i in 0..3 {
            s.on_ack(PS_PER_MS * (i + 1), &ack(0), &mut cap);
        }
        assert_eq!(cap.take()[0].seq, 0);
        assert!(s.in_recovery());
        // The repair of segment 0 is acknowledged up to the next hole: a partial ACK.
        s.on_ack(PS_PER_MS * 10, &ack(3 * 512), &mut cap);
        let sent = cap.take();
        assert_eq!(sent[0].seq, 3 * 512, "the next hole goes at once");
        assert!(s.in_recovery(), "still in recovery until everything sent before is acked");
        // The full ACK ends recovery with cwnd <= ssthresh.
        s.on_ack(PS_PER_MS * 20, &ack(s.snd_max()), &mut cap);
        assert!(!s.in_recovery());
        assert!(s.cwnd() <= s.ssthresh());
        assert_eq!(s.stats.rto_expirations, 0);
        assert_eq!(s.stats.fast_retransmits, 1);
    }

    #[test]
    fn newreno_does_not_restart_recovery_for_losses_before_a_timeout() {
        let (mut s, mut cap) = greedy(Variant::NewReno, 10);
        cap.take();
        let t = s.next_timer();
        s.on_timer(t, &mut cap);
        cap.take();
        // Old duplicates (for data sent before the timeout) arrive: no fast retransmit.
        for i in 0..3 {
            s.on_ack(t + i + 1, &ack(0), &mut cap);
        }
        assert_eq!(s.stats.fast_retransmits, 0);
    }

    #[test]
    fn sack_repairs_several_holes_in_one_recovery() {
        // 10 segments out; 0, 2 and 5 are lost; the receiver SACKs the rest.
        let (mut s, mut cap) = greedy(Variant::Sack, 10);
        cap.take();
        let seg = |i: u32| i * 512;
        let mut blocks: Vec<(u32, u32)> = Vec::new();
        for (i, &got) in [1u32, 3, 4, 6, 7, 8, 9].iter().enumerate() {
            // Newest block first, as the receiver reports them.
            let b = match got {
                1 => (seg(1), seg(2)),
                3 | 4 => (seg(3), seg(got + 1)),
                _ => (seg(6), seg(got + 1)),
            };
            blocks.retain(|x| x.0 != b.0);
            blocks.insert(0, b);
            s.on_ack(PS_PER_MS * (i as u64 + 1), &sack(0, &blocks[..blocks.len().min(3)]), &mut cap);
        }
        assert!(s.in_recovery());
        let rexmit: Vec<u32> = cap.take().iter().filter(|f| f.retransmission).map(|f| f.seq / 512).collect();
        assert_eq!(rexmit, vec![0, 2, 5], "every hole once, oldest first");
        // Everything repaired: one cumulative ACK ends recovery, no timeout was needed.
        s.on_ack(PS_PER_MS * 50, &ack(s.snd_max()), &mut cap);
        assert!(!s.in_recovery());
        assert_eq!(s.stats.rto_expirations, 0);
        assert_eq!(s.ssthresh(), 5 * 512);
        assert_eq!(s.cwnd(), 5 * 512);
    }

    #[test]
    fn handshake_then_data_and_transfer_completion() {
        let c = TcpConfig { timestamps: true, ..TcpConfig::ubr_plus() };
        let mut s = TcpSender::new(0, c);
        let mut cap = Capture::default();
        s.open(0, true, &mut cap);
        s.write(0, 1000, &mut cap);
        let syn = cap.take();
        assert_eq!((syn.len(), syn[0].flags, syn[0].len), (1, SYN, 0));
        let mut synack = ack(1);
        synack.flags = SYN;
        synack.ts_ecr = syn[0].ts_val;
        s.on_ack(PS_PER_MS, &synack, &mut cap);
        let data = cap.take();
        // 1000 octets: one full segment (512 - 12 octets of timestamp option), then the rest
        // is held by Nagle until the first is acknowledged.
        assert_eq!(data.iter().map(|f| (f.seq, f.len, f.opt_len)).collect::<Vec<_>>(), vec![(1, 500, 12)]);
        s.on_ack(2 * PS_PER_MS, &ack(501), &mut cap);
        assert_eq!(cap.take().iter().map(|f| f.len).collect::<Vec<_>>(), vec![500]);
        assert!(!s.is_done());
        s.on_ack(3 * PS_PER_MS, &ack(1001), &mut cap);
        assert!(s.is_done());
    }
}
