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
//! A host that finds its PDUs whole by their cell count skips the middle cells of its frames in
//! its key (`host.rs`, [`work_at`]): they make it neither send nor answer.

mod adapter;
mod capture;
mod commit;
mod fair_share;
mod fault;
mod host;
mod label;
mod level_log;
mod merge;
mod plan;
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
pub use plan::{CommitMode, CommitRole, EnginePaths, SchedulePlan};
pub use port::{CellUpc, ClassState, FcvcHop, Port, PortStats, Upc, INFINITE};
pub use sampler::PortTrace;
pub use sched::Sched;
pub use sim::{Component, Sim, SOURCE_AHEAD};
pub use source_queue::{SourceQueue, SOURCE_QUEUE_CELLS};

use crate::cell::{Cell, CellFifo, F_CONTROL, F_EOF};
use crate::frame::FrameSlab;
use crate::time::{CellPeriod, Time, NEVER};

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

/// A world of one channel `x` (`period`, `latency`, `n_vcs` VCs labelled as themselves) into one
/// FIFO consumed by scheduler slot 0: the adapters' unit tests send on it.
#[cfg(test)]
pub(crate) fn one_channel_world(period: CellPeriod, latency: Time, n_vcs: usize) -> World {
    World {
        fifos: vec![CellFifo::new(0)],
        frames: Default::default(),
        channels: vec![Channel {
            name: "x".into(),
            period,
            latency,
            route: identity_route(n_vcs, 0),
            cells: 0,
            capture: NO_CAPTURE,
        }],
        sched: Sched::new(1),
        captures: Default::default(),
        levels: Vec::new(),
        shares: Vec::new(),
    }
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
        self.sched.wake(fifo.owner, work_at(fifo, at, cell));
    }

    /// Put a committed cell into `hop`'s input, arriving at `at`, relabelled for that hop.
    ///
    /// The receiver's key is at or before the head of each of its inputs holding cells (set so
    /// after its batches, and by the wake of each input's first cell), and cells arrive in
    /// order: only a cell into an empty input can bring the key forward. A host that skips
    /// middle cells is keyed by what its input holds ([`work_at`]), which an EOF behind middle
    /// cells brings forward: its input is woken for such cells too.
    #[inline(always)]
    pub fn deliver(&mut self, hop: Hop, at: Time, cell: Cell) {
        let fifo = &mut self.fifos[hop.fifo as usize];
        let first = fifo.is_empty();
        fifo.push(at, Cell { vc: hop.label, ..cell });
        // (Into a host that skips middle cells, a middle cell behind others changes nothing.)
        if first || (cell.flags & (F_EOF | F_CONTROL) != 0 && fifo.middle_floor != 0) {
            self.sched.wake(fifo.owner, work_at(fifo, at, cell));
        }
        debug_assert!(self.sched.key(fifo.owner) <= fifo.taken_at(work_at(fifo, at, cell)));
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

/// When the cell just pushed into `fifo`, arriving at `at`, gives the FIFO's consumer work:
/// at `at`, unless the consumer is a host that skips middle cells (`CellFifo::middle_floor`
/// set, `net/host.rs`). Such a host is keyed at its input's head while the input holds an EOF
/// or control cell (the cells before it are taken in the same batch), and at the floor (its
/// run's last instant, so that they are still taken in the run) or the head's arrival if later
/// while it holds only data cells in the middle of their frames: those make it neither send
/// nor answer. Each time is the consumer's: a pulled port's input (`CellFifo::wake_delay`)
/// gives its receiver work a latency after it gives the port some, and the floor is the
/// receiver's own.
#[inline(always)]
pub fn work_at(fifo: &CellFifo, at: Time, cell: Cell) -> Time {
    if fifo.middle_floor == 0 {
        at + fifo.wake_delay
    } else if cell.flags & (F_EOF | F_CONTROL) != 0 {
        fifo.head_time().unwrap_or(at) + fifo.wake_delay
    } else {
        (at + fifo.wake_delay).max(fifo.middle_floor)
    }
}

/// The earliest work the cells of `fifo` from its `k`-th on (0: the head) give its consumer,
/// `NEVER` if there are none: the `k`-th's arrival, or at a host that skips middle cells
/// ([`work_at`]) the head's if an EOF or control cell is among them, else the floor or the
/// `k`-th's arrival if later. After a relay of `n` cells into `fifo`, `first_work(fifo, len - n)`
/// wakes the consumer; after a host's batch, `first_work(fifo, 0)` is its input's part of its
/// key.
#[inline]
pub fn first_work(fifo: &CellFifo, k: u32) -> Time {
    match fifo.get(k) {
        None => NEVER,
        Some((at, _)) if fifo.middle_floor == 0 => at + fifo.wake_delay,
        Some((at, cell)) => first_work_skipping(fifo, k, at, cell),
    }
}

/// Wake `fifo`'s consumer for the last `n` cells just put there ([`first_work`] of the first
/// of them). Where the consumer skips middle cells and some cell was there before, a key at or
/// before the head's work (its arrival, plus the wake delay) is already no later than any work
/// those cells can give: no scan for an EOF among them.
#[inline(always)]
pub fn wake_for_last(sched: &mut Sched, fifo: &CellFifo, n: u32) {
    let k = fifo.len() as u32 - n;
    if fifo.middle_floor != 0 && k > 0 {
        if let Some(h) = fifo.head_time() {
            if sched.key(fifo.owner) <= h + fifo.wake_delay {
                return;
            }
        }
    }
    sched.wake(fifo.owner, first_work(fifo, k));
}

/// [`first_work`] at a host that skips middle cells: the scan stops at the first EOF or control
/// cell.
fn first_work_skipping(fifo: &CellFifo, mut k: u32, at: Time, mut cell: Cell) -> Time {
    loop {
        if cell.flags & (F_EOF | F_CONTROL) != 0 {
            return fifo.head_time().unwrap_or(at) + fifo.wake_delay;
        }
        k += 1;
        match fifo.get(k) {
            Some((_, next)) => cell = next,
            None => return (at + fifo.wake_delay).max(fifo.middle_floor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::F_CLP;

    fn data(flags: u8) -> Cell {
        Cell { frame: 0, vc: 0, flags }
    }

    #[test]
    fn a_host_that_skips_middle_cells_is_keyed_by_its_eofs_and_the_floor() {
        // One input into slot 1, in a world of two slots; `skips`: its consumer skips middle
        // cells, with the floor at 1000. Cells delivered one by one, the key read after each.
        for skips in [false, true] {
            let mut w = World {
                fifos: vec![CellFifo::new(1)],
                frames: FrameSlab::default(),
                channels: Vec::new(),
                sched: Sched::new(2),
                captures: Captures::default(),
                levels: Vec::new(),
                shares: Vec::new(),
            };
            w.fifos[0].middle_floor = if skips { 1000 } else { 0 };
            let hop = Hop { fifo: 0, label: 0, vc: 0 };
            let key = |w: &World| w.sched.key(1);
            w.deliver(hop, 10, data(0));
            assert_eq!(key(&w), if skips { 1000 } else { 10 }, "a middle cell");
            w.deliver(hop, 20, data(0));
            assert_eq!(first_work(&w.fifos[0], 0), key(&w));
            // An EOF behind middle cells: the head (the cells before it go in the same batch).
            w.deliver(hop, 30, data(F_EOF));
            assert_eq!(key(&w), 10, "an EOF in");
            assert_eq!(first_work(&w.fifos[0], 0), 10);
            assert_eq!(first_work(&w.fifos[0], 2), if skips { 10 } else { 30 }, "from the EOF on");
            // What is left once the EOF is taken: middle cells again; past the floor, their own.
            for _ in 0..3 {
                w.fifos[0].pop();
            }
            w.deliver(hop, 40, data(F_CLP));
            assert_eq!(first_work(&w.fifos[0], 0), if skips { 1000 } else { 40 });
            w.fifos[0].pop();
            w.deliver(hop, 2000, data(0));
            assert_eq!(first_work(&w.fifos[0], 0), 2000);
            w.deliver(hop, 2010, data(F_CONTROL));
            assert_eq!(first_work(&w.fifos[0], 1), if skips { 2000 } else { 2010 }, "a control cell");
            assert_eq!(first_work(&w.fifos[0], 2), NEVER);
        }
    }
}
