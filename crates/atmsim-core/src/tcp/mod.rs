//! TCP as the 1990s BSD-derived stacks of the studies ran it: congestion control in octets,
//! a retransmission timer counted in coarse ticks, go-back-N after a timeout, and a receiver that
//! caches out-of-order segments.
//!
//! Only the behaviour the studies measure is modelled: no connection set-up or tear-down, no
//! Nagle, the application always has full-sized segments to send (greedy) once started.

pub mod config;
mod receiver;
mod rto;
mod sender;
pub mod seq;

pub use config::{TcpConfig, Variant};
pub use receiver::{ReceiverStats, TcpReceiver};
pub use rto::Rto;
pub use sender::{SenderStats, TcpSender};

use crate::frame::Frame;
use crate::time::Time;

/// Where a TCP endpoint hands its segments: the host adapter (and the frame slab).
pub trait SegmentSink {
    fn send(&mut self, now: Time, frame: Frame, clp: bool);
}
