//! TCP parameters, all settable per connection from a scenario.

use crate::time::{Time, PS_PER_MS, PS_PER_S};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// 4.3BSD-Tahoe: timeout -> slow start and go-back-N; fast retransmit (if enabled) also
    /// drops to one segment.
    Tahoe,
    /// 4.3BSD-Reno: fast retransmit followed by fast recovery (window inflation).
    Reno,
}

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
        }
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
    fn window_scaling_of_the_wan_runs() {
        let c = TcpConfig { rcv_window: 600_000, window_scaling: true, ..TcpConfig::ubr_plus() };
        assert_eq!(c.window_shift(), 4);
        assert_eq!(c.advertised_window(), 600_000);
        let unscaled = TcpConfig { rcv_window: 600_000, ..TcpConfig::ubr_plus() };
        assert_eq!(unscaled.advertised_window(), 65_535);
    }
}
