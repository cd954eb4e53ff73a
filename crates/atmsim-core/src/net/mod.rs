//! The network: components that own cells (switch output ports and hosts), the channels between
//! them, and the scheduler that orders their work.
//!
//! Every link direction is a *channel*: a rate (its slot grid) and a fixed latency (one cell time
//! plus propagation). A transmitter puts each cell straight into the input FIFO of the component
//! at the far end, stamped with its arrival time; nothing is scheduled per cell. Each component
//! has one key in the global scheduler: the time of its earliest pending work.
//!
//! Components advance in batches. When the scheduler pops component `c` at time `t`, every other
//! component has finished all its work before `t`, so nothing can still arrive at `c` before
//! `t + L_c`, where `L_c` is the smallest latency of `c`'s input channels. `c` therefore processes
//! all its arrivals, departures and timers in `[t, t + L_c)` in one call: for a WAN link that is
//! thousands of cell slots per pop, and the global scheduler stays the size of the component list.
//!
//! On short links `L_c` is barely one cell time, so batches would hold about one cell. The
//! scheduler then also uses what it knows of the components upstream of `c` (`Sim::horizon`,
//! `sim/horizon.rs`): work a component `w` has pending starts no earlier than its key `k_w`, and
//! whatever it causes reaches `c` no earlier than `k_w` plus the shortest latency sum from `w`
//! to `c`, so `c` may run to the smallest such time over its nearest upstream components. The
//! plain bound stays available as the reference schedule (`[engine] schedule = "reference"`);
//! both give identical results. The keys live in a tournament tree (`sched.rs`): a component
//! going idle is just a key of `NEVER`. Components the horizon lists meet together sit side by
//! side in it (`sim/layout.rs`), so that one node's key bounds a whole group.
//!
//! Under the lookahead schedule, a first-come-first-served transmitter (a FIFO port, a host
//! adapter with plain VCs) *commits* its departures (`commit.rs`): a cell's slot is fixed when it
//! is queued, so it is sent then, and the component's key is its next arrival or timer only.

mod adapter;
mod capture;
mod commit;
mod fair_share;
mod fault;
mod host;
mod label;
mod level_log;
mod merge;
mod port;
mod sampler;
mod sched;
mod sim;
mod source_queue;

pub use adapter::{feedback_of, with_feedback, ControlledVc, RateControl, Shaper, VcTxStats};
pub use capture::{Captures, Recorder, NO_CAPTURE};
pub use commit::{Committed, CommittedRun, NO_COMMIT};
pub use fair_share::{FairShareMeter, NO_LIMIT};
pub use fault::{Fault, FaultRule};
pub use host::{Endpoint, Host, HostStats, SinkStats};
pub use label::{identity_route, Hop, Labels, NO_HOP};
pub use level_log::LevelLog;
pub use merge::{Arbitration, InputMarks, InputMerge, NO_MARK};
pub use port::{CellUpc, ClassState, FcvcHop, Port, PortStats, Upc, INFINITE};
pub use sampler::PortTrace;
pub use sched::Sched;
pub use sim::{Component, Sim, SOURCE_AHEAD};
pub use source_queue::{SourceQueue, SOURCE_QUEUE_CELLS};

use crate::cell::{Cell, CellFifo};
use crate::frame::FrameSlab;
use crate::time::{CellPeriod, Time};

/// "No route": the far end of a channel does not carry this VC.
pub const NO_ROUTE: u32 = u32::MAX;

/// One direction of a link.
#[derive(Debug)]
pub struct Channel {
    pub name: String,
    pub period: CellPeriod,
    /// From the start of a cell's slot to the arrival of its last bit at the far end.
    pub latency: Time,
    /// The sender's VC label -> input FIFO and label at the far end (the switch's routing and
    /// label translation table for cells from this link, see `label.rs`).
    pub route: Vec<Hop>,
    pub cells: u64,
    /// Capture point recording the frames crossing this channel (`NO_CAPTURE`: none).
    pub capture: u32,
}

/// Everything components share: FIFOs, frames in flight, channels and the scheduler.
#[derive(Debug)]
pub struct World {
    pub fifos: Vec<CellFifo>,
    pub frames: FrameSlab,
    pub channels: Vec<Channel>,
    pub sched: Sched,
    /// Packet captures (none unless asked for).
    pub captures: Captures,
    /// Adaptive-shaping level logs, written by forward ports and read by reverse ports.
    pub levels: Vec<LevelLog>,
    /// Fair shares (cells/s) published by forward ports that enforce them, read likewise.
    pub shares: Vec<LevelLog<u32>>,
}

impl World {
    /// Put `cell` on channel `ch` in the slot starting at `slot`.
    #[inline(always)]
    pub fn transmit(&mut self, ch: u32, slot: Time, mut cell: Cell) {
        let c = &mut self.channels[ch as usize];
        c.cells += 1;
        let at = slot + c.latency;
        let hop = c.route[cell.vc as usize];
        if c.capture != NO_CAPTURE {
            self.captures.on_cell(c.capture, slot, Cell { vc: hop.vc, ..cell }, &self.frames);
        }
        cell.vc = hop.label;
        let fifo = &mut self.fifos[hop.fifo as usize];
        if fifo.is_empty() {
            self.sched.marks.mark(fifo.mark);
        }
        fifo.push(at, cell);
        self.sched.wake(fifo.owner, at);
    }

    /// Put a committed cell into `hop`'s input, arriving at `at`, relabelled for that hop.
    ///
    /// The receiver's key is at or before the head of each of its inputs holding cells (set so
    /// after its batches, and by the wake of each input's first cell), and cells arrive in
    /// order: only a cell into an empty input can bring the key forward.
    #[inline(always)]
    pub fn deliver(&mut self, hop: Hop, at: Time, cell: Cell) {
        let fifo = &mut self.fifos[hop.fifo as usize];
        let first = fifo.is_empty();
        debug_assert!(first || self.sched.key(fifo.owner) <= at);
        fifo.push(at, Cell { vc: hop.label, ..cell });
        if first {
            self.sched.wake(fifo.owner, at);
        }
    }

    /// Put FCVC credit cell `cell` on channel `ch` at `slot`, into `fifo` at the far end.
    ///
    /// A credit cell does not take a slot of the channel's transmitter: it leaves with the data
    /// cell whose departure it counts (the credit/rate study's reverse direction carries only
    /// ACKs, so the slot it would take is almost always free). It has its own FIFO per (sending
    /// port, receiving component), because several ports of a switch may send credits back over
    /// one link, and a FIFO must have one sender to stay in time order.
    #[inline]
    pub fn send_credit(&mut self, ch: u32, fifo: u32, slot: Time, cell: Cell) {
        let at = slot + self.channels[ch as usize].latency;
        let f = &mut self.fifos[fifo as usize];
        if f.is_empty() {
            self.sched.marks.mark(f.mark);
        }
        f.push(at, cell);
        self.sched.wake(f.owner, at);
    }

    /// The earliest arrival among `inputs`: (time, position in `inputs`).
    #[inline]
    pub fn earliest(&self, inputs: &[u32]) -> (Time, usize) {
        let mut best = (crate::time::NEVER, 0);
        for (i, &f) in inputs.iter().enumerate() {
            if let Some(t) = self.fifos[f as usize].head_time() {
                if t < best.0 {
                    best = (t, i);
                }
            }
        }
        best
    }

    /// Cells on the wire (in some input FIFO) anywhere.
    pub fn cells_on_wire(&self) -> u64 {
        self.fifos.iter().map(|f| f.len() as u64).sum()
    }
}
