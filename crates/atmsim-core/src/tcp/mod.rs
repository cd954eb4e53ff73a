//! TCP as the 1990s BSD-derived stacks of the studies ran it: congestion control in octets,
//! a retransmission timer counted in coarse ticks, go-back-N after a timeout, and a receiver that
//! caches out-of-order segments.
//!
//! Only the behaviour the studies measure is modelled: set-up is a SYN / SYN-ACK exchange when
//! asked for (transfers), there is no tear-down (a transfer ends when its last octet is
//! acknowledged), and no persist timer (the receivers never close their window).

pub mod config;
mod receiver;
mod rto;
mod scoreboard;
mod sender;
pub mod seq;

pub use config::{TcpConfig, Variant};
pub use receiver::{ReceiverStats, TcpReceiver};
pub use rto::Rto;
pub use scoreboard::Scoreboard;
pub use sender::{CwndSample, SenderStats, TcpSender};

use crate::frame::Frame;
use crate::time::Time;

/// Where a TCP endpoint hands its segments: the host adapter (and the frame slab).
pub trait SegmentSink {
    fn send(&mut self, now: Time, frame: Frame, clp: bool);

    /// [`SegmentSink::send`] compiled into the caller, where the sink has such a copy: the
    /// per-segment sends (the receiver's ACK, the ACK clock's segments) take it, one call
    /// less per segment, and the frame is written where the sink keeps it instead of being
    /// built on the stack and copied there.
    #[inline(always)]
    fn send_in_line(&mut self, now: Time, frame: Frame, clp: bool) {
        self.send(now, frame, clp);
    }
}
