//! TCP parameters, all settable per connection from a scenario.

use crate::time::{Time, PS_PER_MS, PS_PER_S};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// 4.3BSD-Tahoe: timeout -> slow start and go-back-N; fast retransmit (if enabled) also
    /// drops to one segment.
    Tahoe,
    /// 4.3BSD-Reno / 4.4BSD: fast retransmit followed by fast recovery (window inflation),
    /// left on the first new ACK.
    Reno,
    /// RFC 6582: fast recovery lasts until everything sent before it is acknowledged; each
    /// partial ACK retransmits the next hole.
    NewReno,
    /// RFC 2018 selective acknowledgements with conservative loss recovery (RFC 6675's pipe
    /// algorithm, the Fall & Floyd style the GFR study cites).
    Sack,
}

/// TCP option lengths on the wire, padded to 32-bit words (RFC 1323 appendix A layout).
pub const TIMESTAMP_OPTION: u32 = 12;
/// SACK option: kind, length, 8 octets per block, padded with two NOPs (RFC 2018).
pub fn sack_option(blocks: u32) -> u32 {
    if blocks == 0 {
        0
    } else {
        2 + 2 + 8 * blocks
    }
}
/// Room for TCP options in a header (RFC 793: data offset of 15 words).
pub const MAX_OPTIONS: u32 = 40;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TcpConfig {
    pub variant: Variant,
    /// Maximum segment size: data octets per segment.
    pub mss: u32,
    /// Receive buffer: the window the receiver advertises, in octets.
    pub rcv_window: u32,
    /// RFC 1323 window scaling; without it the window is capped at 65535 octets.
    pub window_scaling: bool,
    /// Timer granularity: the period of the BSD slow timer.
    pub tick: Time,
    /// Offset of this host's slow-timer ticks from time 0 (0 <= phase < tick). Hosts have
    /// independent clocks; 0 for all puts every timer on the same ticks.
    pub tick_phase: Time,
    /// Lower bound of the retransmission timeout, in ticks (BSD TCPTV_MIN: 2 ticks).
    pub min_rto_ticks: u32,
    /// Timeout before the first RTT sample.
    pub initial_rto: Time,
    /// Upper bound of the retransmission timeout (BSD TCPTV_REXMTMAX: 64 s).
    pub max_rto: Time,
    /// Consecutive timeouts of one segment after which the connection is dropped
    /// (BSD TCP_MAXRXTSHIFT: 12).
    pub max_backoffs: u32,
    pub fast_retransmit: bool,
    /// Duplicate ACKs that trigger fast retransmit (BSD tcprexmtthresh: 3).
    pub dupack_threshold: u32,
    /// Congestion window at start, in segments.
    pub initial_cwnd_segments: u32,
    /// Slow-start threshold at start, in octets (BSD: the largest possible window).
    pub initial_ssthresh: u32,
    /// Initial send sequence number (lets tests exercise 32-bit wrap).
    pub iss: u32,
    /// Delayed ACKs (RFC 1122 4.2.3.2): ACK every second full segment, or on the delayed-ACK
    /// timer (the BSD fast timer), and at once for out-of-order data.
    pub delayed_ack: bool,
    /// Period of the delayed-ACK timer (BSD fast timer: 200 ms).
    pub delack_tick: Time,
    /// RFC 1323 timestamps on every segment (12 option octets), used for RTT measurement.
    pub timestamps: bool,
    /// Whether the MSS bounds data *and options* of a segment, as 4.4BSD and RFC 6691 do (a
    /// full segment then has the same size with or without options and carries less data), or
    /// data alone (the options make every segment longer).
    pub mss_includes_options: bool,
    /// Send socket buffer: unacknowledged data is limited to it.
    pub snd_buffer: u32,
    /// Disable Nagle's algorithm (send a short segment even with data outstanding).
    pub nodelay: bool,
    /// The receiver keeps segments that arrive beyond a hole and delivers them once it is
    /// filled (4.3BSD-Reno's `tcp_reass`, and every preset). Off, it drops them and only sends
    /// the duplicate ACK: the go-back-N receiver of early TCP implementations, with which every
    /// segment after a loss must be sent again. An experiment knob for the CLASS study, whose
    /// efficiency of about 0.5 past the knee this would explain (`docs/ajmone-marsan-reproduction.md`).
    pub cache_out_of_order: bool,
    /// RTT samples and the retransmission timer start when the segment's last cell has left the
    /// host, not when TCP hands the segment to its adapter. Gerla, Pazos and Signore's TCP:
    /// "timers and round-trip estimations do not include transmission times, meaning that the
    /// reference instant is the time of a segment transmission completion". Under rate-based
    /// control a segment can wait long in the adapter at a low allowed rate; that wait then
    /// counts neither as round-trip time nor against the timer.
    pub timing_excludes_transmission: bool,
}

/// Largest window without scaling (RFC 793: a 16-bit field).
pub const MAX_UNSCALED_WINDOW: u32 = 65_535;
/// Largest window with scaling (RFC 1323 section 2.3: shift at most 14).
pub const MAX_SCALED_WINDOW: u32 = 65_535 << 14;

impl TcpConfig {
    /// The UBR+ study's stack (section 3.1): MSS 512, 100 ms ticks, no fast retransmit,
    /// 64 KB window (LAN; its WAN runs use 600000 octets with window scaling).
    pub fn ubr_plus() -> Self {
        TcpConfig {
            variant: Variant::Tahoe,
            mss: 512,
            rcv_window: 65_535,
            window_scaling: false,
            tick: 100 * PS_PER_MS,
            tick_phase: 0,
            min_rto_ticks: 2,
            initial_rto: 3 * PS_PER_S,
            max_rto: 64 * PS_PER_S,
            max_backoffs: 12,
            fast_retransmit: false,
            dupack_threshold: 3,
            initial_cwnd_segments: 1,
            initial_ssthresh: MAX_SCALED_WINDOW,
            iss: 0,
            delayed_ack: false,
            delack_tick: 200 * PS_PER_MS,
            timestamps: false,
            mss_includes_options: true,
            snd_buffer: MAX_SCALED_WINDOW,
            nodelay: false,
            cache_out_of_order: true,
            timing_excludes_transmission: false,
        }
    }

    /// GFR study, Table 2.1 (`TCP_default`): 4.4BSD-Lite Reno with timestamps, MSS 9140,
    /// 196608-octet socket buffers (window scaling), 0.2 s timer, 3 duplicate ACKs, no delayed
    /// ACK.
    pub fn tcp_default() -> Self {
        TcpConfig {
            variant: Variant::Reno,
            mss: 9140,
            rcv_window: 196_608,
            window_scaling: true,
            tick: 200 * PS_PER_MS,
            fast_retransmit: true,
            timestamps: true,
            snd_buffer: 196_608,
            ..Self::ubr_plus()
        }
    }

    /// GFR study, Table 2.2 (`TCP_fast`): `TCP_default` with a 10 ms timer and 2 duplicate ACKs.
    pub fn tcp_fast() -> Self {
        TcpConfig { tick: 10 * PS_PER_MS, dupack_threshold: 2, ..Self::tcp_default() }
    }

    /// GFR study, Table 2.3 (`TCP_SACK`): `TCP_default` with selective acknowledgements.
    pub fn tcp_sack() -> Self {
        TcpConfig { variant: Variant::Sack, ..Self::tcp_default() }
    }

    /// CLASS study: 4.3BSD-Reno (no delayed or selective ACKs), MSS 9140, the 4.3BSD 500 ms
    /// slow timer, and a window large enough for one connection to fill its path (the study
    /// says so without a number: 1 MB here, with window scaling).
    pub fn reno_class() -> Self {
        TcpConfig {
            variant: Variant::Reno,
            mss: 9140,
            rcv_window: 1 << 20,
            window_scaling: true,
            tick: 500 * PS_PER_MS,
            fast_retransmit: true,
            snd_buffer: 1 << 20,
            ..Self::ubr_plus()
        }
    }

    /// Option octets on a data segment.
    pub fn data_options(&self) -> u32 {
        if self.timestamps {
            TIMESTAMP_OPTION
        } else {
            0
        }
    }

    /// Data octets in a full-sized segment.
    pub fn seg_data(&self) -> u32 {
        if self.mss_includes_options {
            self.mss.saturating_sub(self.data_options()).max(1)
        } else {
            self.mss
        }
    }

    /// SACK blocks that fit beside the other options (RFC 2018: 4, or 3 with timestamps).
    pub fn max_sack_blocks(&self) -> u32 {
        if self.variant != Variant::Sack {
            return 0;
        }
        let room = MAX_OPTIONS - self.data_options();
        (1..=4).rev().find(|&b| sack_option(b) <= room).unwrap_or(0)
    }

    /// Window scale shift the receiver announces (RFC 1323 section 2.2).
    pub fn window_shift(&self) -> u32 {
        let mut s = 0;
        while self.window_scaling && (self.rcv_window >> s) > MAX_UNSCALED_WINDOW && s < 14 {
            s += 1;
        }
        s
    }

    /// The window the receiver can advertise: the buffer, truncated to the scale's granularity.
    pub fn advertised_window(&self) -> u32 {
        let s = self.window_shift();
        let w = if self.window_scaling { self.rcv_window } else { self.rcv_window.min(MAX_UNSCALED_WINDOW) };
        (w >> s) << s
    }

    /// Index of the slow-timer tick interval that contains `t`.
    pub fn tick_index(&self, t: Time) -> u64 {
        (t + self.tick - self.tick_phase) / self.tick
    }

    /// Start of tick interval `i` (inverse of [`TcpConfig::tick_index`]).
    pub fn tick_start(&self, i: u64) -> Time {
        (i * self.tick + self.tick_phase).saturating_sub(self.tick)
    }

    pub fn max_rto_ticks(&self) -> u32 {
        (self.max_rto / self.tick).max(1) as u32
    }

    pub fn initial_rto_ticks(&self) -> u32 {
        self.initial_rto.div_ceil(self.tick).max(1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_space_and_segment_data() {
        let sack = TcpConfig::tcp_sack();
        assert_eq!(sack.max_sack_blocks(), 3);
        assert_eq!(TcpConfig { timestamps: false, ..sack }.max_sack_blocks(), 4);
        assert_eq!(TcpConfig::tcp_default().max_sack_blocks(), 0);
        // 4.4BSD: the timestamp option comes out of the MSS.
        assert_eq!(TcpConfig::tcp_default().seg_data(), 9128);
        assert_eq!(TcpConfig { mss_includes_options: false, ..TcpConfig::tcp_default() }.seg_data(), 9140);
        assert_eq!(TcpConfig::tcp_fast().tick, 10 * PS_PER_MS);
        assert_eq!(TcpConfig::tcp_fast().dupack_threshold, 2);
    }

    #[test]
    fn window_scaling_of_the_wan_runs() {
        let c = TcpConfig { rcv_window: 600_000, window_scaling: true, ..TcpConfig::ubr_plus() };
        assert_eq!(c.window_shift(), 4);
        assert_eq!(c.advertised_window(), 600_000);
        let unscaled = TcpConfig { rcv_window: 600_000, ..TcpConfig::ubr_plus() };
        assert_eq!(unscaled.advertised_window(), 65_535);
    }
}
