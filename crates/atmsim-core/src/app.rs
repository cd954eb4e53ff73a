//! Applications above TCP: what data a connection has to send, and when.
//!
//! - `Greedy`: an endless supply from the start (the UBR+ and CLASS studies).
//! - `Transfers`: fixed-size transfers, each on a new connection (SYN handshake), separated by
//!   exponentially distributed idle times (the GFR study: 10 MB, mean 0.1 s).
//! - `Messages`: a long-lived connection fed messages of exponential length at Poisson
//!   instants, with the mean rate given (the credit/rate study's ON-OFF clients).

use crate::rng::Rng;
use crate::tcp::{SegmentSink, TcpSender};
use crate::time::{from_secs_f64, Time, NEVER};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AppKind {
    Greedy,
    Transfers { bytes: u64, mean_idle_s: f64 },
    Messages { mean_bytes: f64, rate_bps: f64 },
}

#[derive(Debug, Clone, Default)]
pub struct AppStats {
    pub transfers_completed: u64,
    pub transfers_aborted: u64,
    /// Sum of the completed transfers' durations (SYN sent to last octet acknowledged).
    pub transfer_time_sum: Time,
    pub messages: u64,
    pub message_bytes: u64,
}

#[derive(Debug, Clone)]
pub struct App {
    pub kind: AppKind,
    rng: Rng,
    /// The next application event.
    next: Time,
    /// Start of the transfer in progress.
    running: Option<Time>,
    pub stats: AppStats,
}

impl App {
    pub fn new(kind: AppKind, start: Time, rng: Rng) -> Self {
        App { kind, rng, next: start, running: None, stats: AppStats::default() }
    }

    pub fn next_timer(&self) -> Time {
        self.next
    }

    /// The application's own event: start, next transfer, or next message.
    pub fn on_timer(&mut self, now: Time, tcp: &mut TcpSender, out: &mut impl SegmentSink) {
        if self.next > now {
            return;
        }
        match self.kind {
            AppKind::Greedy => {
                self.next = NEVER;
                tcp.open(now, false, out);
                tcp.write(now, u64::MAX, out);
            }
            AppKind::Transfers { bytes, .. } => {
                self.next = NEVER;
                self.running = Some(now);
                tcp.open(now, true, out);
                tcp.write(now, bytes, out);
            }
            AppKind::Messages { mean_bytes, rate_bps } => {
                if !tcp.is_open() {
                    tcp.open(now, false, out);
                }
                // At least one octet: a message is never empty.
                let len = self.rng.exponential(mean_bytes).round().max(1.0) as u64;
                self.stats.messages += 1;
                self.stats.message_bytes += len;
                tcp.write(now, len, out);
                let mean_gap_s = mean_bytes * 8.0 / rate_bps;
                self.next = now + from_secs_f64(self.rng.exponential(mean_gap_s)).max(1);
            }
        }
    }

    /// After TCP did something: notice a finished or aborted transfer. (Only a transfer in
    /// progress has anything to notice: tested here, in the host's per-ACK path, before the
    /// call.)
    #[inline(always)]
    pub fn after(&mut self, now: Time, tcp: &mut TcpSender) {
        if self.running.is_some() {
            self.transfer_after(now, tcp);
        }
    }

    #[inline(never)]
    fn transfer_after(&mut self, now: Time, tcp: &mut TcpSender) {
        let AppKind::Transfers { mean_idle_s, .. } = self.kind else { return };
        let Some(started) = self.running else { return };
        if tcp.is_done() {
            self.stats.transfers_completed += 1;
            self.stats.transfer_time_sum += now - started;
            tcp.close();
        } else if !tcp.is_open() {
            self.stats.transfers_aborted += 1;
        } else {
            return;
        }
        self.running = None;
        self.next = now + from_secs_f64(self.rng.exponential(mean_idle_s));
    }
}
