//! A switch output port: the cells routed to it from any input link, a buffer with a
//! buffer-acceptance policy, and the transmitter of the outgoing link.
//!
//! In the style of ns-3's `QueueDisc`, [`Port::enqueue`] counts every arrival and every drop and
//! keeps the per-VC accounting; the [`Policy`] only decides. The frame state machine lives here
//! because every frame-aware policy shares it: a frame refused at its first cell is discarded whole
//! (EOF included), and a frame that loses a cell to overflow is, under PPD, discarded up to but not
//! including its EOF cell, which still delimits the frame for the reassembler.

use std::collections::VecDeque;

use super::{Arbitration, Fault, InputMerge, PortTrace, World};
use crate::accept::{BufferState, DropReason, Policy, DROP_REASONS};
use crate::cell::Cell;
use crate::time::{SlotClock, Time, NEVER};

/// Buffer capacity meaning "never full".
pub const INFINITE: u32 = u32::MAX;

/// What happens to the rest of the frame now arriving on a VC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Discard {
    #[default]
    None,
    /// Refused at its first cell: drop every remaining cell.
    Frame,
    /// Lost a cell to overflow (PPD): drop the rest, but try to keep the EOF cell.
    Partial,
}

#[derive(Debug, Clone, Copy, Default)]
struct VcState {
    /// Cells of this VC in the buffer (Y_i).
    y: u32,
    /// A frame is in progress: the next cell is not a first cell.
    in_frame: bool,
    discard: Discard,
    /// This frame already lost a cell here (counts it once in `frames_dropped`).
    damaged: bool,
}

#[derive(Debug, Clone, Default)]
pub struct PortStats {
    pub cells_in: u64,
    pub cells_out: u64,
    pub drops: [u64; DROP_REASONS],
    pub frames_dropped: u64,
    pub max_queue: u32,
    /// Integral of the queue length over time, in cell-picoseconds.
    pub queue_area: u128,
    pub last_change: Time,
}

impl PortStats {
    pub fn cells_dropped(&self) -> u64 {
        self.drops.iter().sum()
    }
}

#[derive(Debug)]
pub struct Port {
    pub name: String,
    /// Input FIFOs feeding this port (one per incoming link that routes a VC here).
    pub inputs: Vec<u32>,
    /// Outgoing channel.
    pub channel: u32,
    clock: SlotClock,
    queue: VecDeque<Cell>,
    capacity: u32,
    pub policy: Policy,
    vcs: Vec<VcState>,
    /// VCs with at least one queued cell (N_a), kept in O(1) per cell.
    active: u32,
    pub stats: PortStats,
    merge: InputMerge,
    /// Injected faults (usually none: checked only at first cells, and only if present).
    pub faults: Vec<Fault>,
    /// The next trace boundary; `NEVER` without `[trace]`, so the check per event is one compare.
    next_sample: Time,
    pub trace: Option<Box<PortTrace>>,
}

impl Port {
    pub fn new(
        name: String,
        channel: u32,
        clock: SlotClock,
        capacity: u32,
        policy: Policy,
        n_vcs: usize,
    ) -> Self {
        Port {
            name,
            inputs: Vec::new(),
            channel,
            clock,
            queue: VecDeque::new(),
            capacity,
            policy,
            vcs: vec![VcState::default(); n_vcs],
            active: 0,
            stats: PortStats::default(),
            merge: InputMerge::default(),
            faults: Vec::new(),
            next_sample: NEVER,
            trace: None,
        }
    }

    /// Record the series `trace` asks for, from its first boundary on.
    pub fn start_trace(&mut self, trace: PortTrace) {
        self.next_sample = trace.first();
        self.trace = Some(Box::new(trace));
    }

    /// Take the samples of every boundary up to `upto`. The caller guarantees that every event
    /// before `upto` has been processed and none at or after it, so the state is the boundary's
    /// (constant since the last event).
    #[cold]
    #[inline(never)]
    fn sample(&mut self, upto: Time) {
        let Some(tr) = self.trace.as_deref_mut() else { return };
        while self.next_sample <= upto {
            let vcs = &self.vcs;
            let queue = self.queue.len() as u32;
            self.next_sample = tr.due(self.next_sample, queue, |vc| vcs[vc as usize].y, self.stats.cells_out);
        }
    }

    pub fn set_arbitration(&mut self, a: Arbitration) {
        self.merge.arbitration = a;
    }

    pub fn queue_len(&self) -> u32 {
        self.queue.len() as u32
    }

    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    fn account(&mut self, now: Time) {
        let s = &mut self.stats;
        s.queue_area += self.queue.len() as u128 * (now - s.last_change) as u128;
        s.last_change = now;
    }

    fn drop_cell(&mut self, vc: usize, reason: DropReason, world: &mut World, cell: Cell) {
        self.stats.drops[reason as usize] += 1;
        let v = &mut self.vcs[vc];
        if !v.damaged {
            v.damaged = true;
            self.stats.frames_dropped += 1;
        }
        world.frames.release_cell(cell.frame);
    }

    /// A cell arrives at `now`: count it, run the frame state machine and the policy.
    pub fn enqueue(&mut self, now: Time, cell: Cell, world: &mut World) {
        self.stats.cells_in += 1;
        let vc = cell.vc as usize;
        let eof = cell.is_eof();
        let x = self.queue.len() as u32;
        let first = !self.vcs[vc].in_frame;
        {
            let v = &mut self.vcs[vc];
            v.in_frame = !eof;
            if first {
                v.discard = Discard::None;
                v.damaged = false;
            }
        }
        let full = x >= self.capacity;
        match self.vcs[vc].discard {
            // The frame was refused at its first cell: nothing of it enters.
            Discard::Frame => return self.drop_cell(vc, DropReason::PartialPacket, world, cell),
            // PPD: the frame is already damaged; only its EOF cell may still pass.
            Discard::Partial if !eof || full => {
                return self.drop_cell(vc, DropReason::PartialPacket, world, cell)
            }
            Discard::Partial => {}
            // A new frame: an injected fault or the policy may refuse it whole.
            Discard::None if first => {
                if !self.faults.is_empty() {
                    let f = world.frames.get(cell.frame);
                    if self.faults.iter_mut().any(|x| x.hits(now, f)) {
                        if !eof {
                            self.vcs[vc].discard = Discard::Frame;
                        }
                        return self.drop_cell(vc, DropReason::Fault, world, cell);
                    }
                }
                let state = BufferState { x, k: self.capacity, y: self.vcs[vc].y, active: self.active };
                if let Some(reason) = self.policy.frame_decision(&state) {
                    if !eof {
                        self.vcs[vc].discard = Discard::Frame;
                    }
                    return self.drop_cell(vc, reason, world, cell);
                }
            }
            Discard::None => {}
        }
        if full {
            if !eof && self.policy.discards_partial_packets() {
                self.vcs[vc].discard = Discard::Partial;
            }
            return self.drop_cell(vc, DropReason::Overflow, world, cell);
        }
        self.account(now);
        let v = &mut self.vcs[vc];
        if v.y == 0 {
            self.active += 1;
        }
        v.y += 1;
        self.queue.push_back(cell);
        self.stats.max_queue = self.stats.max_queue.max(x + 1);
    }

    /// Send the head cell in the slot starting now.
    fn dequeue(&mut self, world: &mut World) {
        let slot = self.clock.next();
        self.account(slot);
        let cell = self.queue.pop_front().expect("dequeue from an empty port");
        let v = &mut self.vcs[cell.vc as usize];
        v.y -= 1;
        if v.y == 0 {
            self.active -= 1;
        }
        self.stats.cells_out += 1;
        world.transmit(self.channel, slot, cell);
        self.clock.advance();
    }

    /// Process every arrival and departure before `horizon`; returns the number of events.
    pub fn advance(&mut self, horizon: Time, world: &mut World) -> u64 {
        let mut events = 0;
        self.merge.rebuild(&world.fifos, &self.inputs);
        loop {
            // Stop at the next trace boundary too (`NEVER` without a trace, so an untraced port
            // pays nothing per event): there everything before the boundary has happened and
            // nothing at or after it, which is the state to sample.
            let stop = horizon.min(self.next_sample);
            events += self.process(stop, world);
            if self.next_sample > horizon {
                return events;
            }
            self.sample(self.next_sample);
        }
    }

    /// Process every arrival and departure before `stop`.
    #[inline(always)]
    fn process(&mut self, stop: Time, world: &mut World) -> u64 {
        let mut events = 0;
        loop {
            let (ta, i) = self.merge.peek();
            let td = if self.queue.is_empty() { NEVER } else { self.clock.next() };
            // Arrivals first on ties: a cell arriving at a slot boundary may leave in that slot.
            if ta <= td {
                if ta >= stop {
                    break;
                }
                let (t, cell) = world.fifos[self.inputs[i] as usize].pop().expect("head exists");
                self.merge.popped(&world.fifos, &self.inputs);
                if self.queue.is_empty() {
                    self.clock.align(t);
                }
                self.enqueue(t, cell, world);
            } else {
                if td >= stop {
                    break;
                }
                self.dequeue(world);
            }
            events += 1;
        }
        events
    }

    pub fn next_key(&self, world: &World) -> Time {
        let ta = world.earliest(&self.inputs).0;
        if self.queue.is_empty() {
            ta
        } else {
            ta.min(self.clock.next())
        }
    }

    /// Close the time integral and take the last trace samples at the end of the run.
    pub fn finish(&mut self, end: Time) {
        self.account(end);
        if end >= self.next_sample {
            self.sample(end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::CellFifo;
    use crate::cell::{VcId, F_EOF};
    use crate::frame::{Frame, FrameSlab};
    use crate::net::{Channel, Sched, NO_CAPTURE};
    use crate::time::{CellPeriod, PS_PER_US};

    /// A port with capacity `k` whose output goes nowhere (only enqueue is exercised).
    fn fixture(k: u32, policy: Policy) -> (Port, World) {
        let period = CellPeriod::from_bps(155_520_000);
        let mut frames = FrameSlab::default();
        for _ in 0..8 {
            frames.insert(Frame { ncells: 1000, alive: 1000, ..Default::default() });
        }
        // Everything the port sends lands in one sink FIFO.
        let channels = vec![Channel {
            name: "x".into(),
            period,
            latency: 1,
            route: vec![0; 4],
            cells: 0,
            capture: NO_CAPTURE,
        }];
        let world = World {
            fifos: vec![CellFifo::new(0)],
            frames,
            channels,
            sched: Sched::new(1),
            captures: Default::default(),
        };
        (Port::new("p".into(), 0, SlotClock::new(period), k, policy, 4), world)
    }

    /// Offer a frame of `n` cells on `vc`; returns how many were accepted.
    fn offer(p: &mut Port, w: &mut World, vc: VcId, frame: u32, n: u32) -> u32 {
        let before = p.queue_len();
        for i in 0..n {
            let flags = if i + 1 == n { F_EOF } else { 0 };
            p.enqueue(0, Cell { frame, vc, flags }, w);
        }
        p.queue_len() - before
    }

    #[test]
    fn tail_drop_cuts_frames_and_counts_each_once() {
        let (mut p, mut w) = fixture(10, Policy::TailDrop);
        assert_eq!(offer(&mut p, &mut w, 0, 0, 8), 8);
        // Two cells fit, the next three are lost, tail drop keeps nothing else in mind.
        assert_eq!(offer(&mut p, &mut w, 1, 1, 5), 2);
        assert_eq!(p.stats.drops[DropReason::Overflow as usize], 3);
        assert_eq!(p.stats.frames_dropped, 1);
        assert_eq!(p.stats.cells_in, 13);
    }

    #[test]
    fn ppd_drops_the_rest_of_the_frame_but_keeps_its_eof() {
        let (mut p, mut w) = fixture(10, Policy::Ppd);
        offer(&mut p, &mut w, 0, 0, 9);
        // One cell fits; the second overflows; the rest go to PPD.
        p.enqueue(0, Cell { frame: 1, vc: 1, flags: 0 }, &mut w);
        p.enqueue(0, Cell { frame: 1, vc: 1, flags: 0 }, &mut w);
        assert_eq!(p.stats.drops[DropReason::Overflow as usize], 1);
        // Room again: PPD still refuses the middle of the damaged frame...
        p.dequeue(&mut w);
        p.dequeue(&mut w);
        p.enqueue(0, Cell { frame: 1, vc: 1, flags: 0 }, &mut w);
        assert_eq!(p.stats.drops[DropReason::PartialPacket as usize], 1);
        // ...but lets its EOF cell through to delimit the frame.
        let q = p.queue_len();
        p.enqueue(0, Cell { frame: 1, vc: 1, flags: F_EOF }, &mut w);
        assert_eq!(p.queue_len(), q + 1);
        // The next frame on the VC starts clean.
        assert_eq!(offer(&mut p, &mut w, 1, 2, 1), 1);
        assert_eq!(p.stats.frames_dropped, 1);
    }

    #[test]
    fn epd_refuses_whole_frames_above_the_threshold() {
        let (mut p, mut w) = fixture(20, Policy::Epd { threshold: 5 });
        assert_eq!(offer(&mut p, &mut w, 0, 0, 6), 6); // started below the threshold: all in
        assert_eq!(offer(&mut p, &mut w, 1, 1, 4), 0); // X = 6 > 5: whole frame, EOF included
        assert_eq!(p.stats.drops[DropReason::EarlyPacket as usize], 1);
        assert_eq!(p.stats.drops[DropReason::PartialPacket as usize], 3);
        assert_eq!(p.stats.frames_dropped, 1);
        // A frame already under way when the threshold is crossed is still accepted.
        let (mut p, mut w) = fixture(20, Policy::Epd { threshold: 5 });
        p.enqueue(0, Cell { frame: 0, vc: 0, flags: 0 }, &mut w);
        offer(&mut p, &mut w, 1, 1, 8);
        assert_eq!(offer(&mut p, &mut w, 0, 0, 3), 3);
    }

    #[test]
    fn per_vc_occupancy_and_active_count_follow_the_queue() {
        let (mut p, mut w) = fixture(100, Policy::TailDrop);
        offer(&mut p, &mut w, 0, 0, 3);
        offer(&mut p, &mut w, 2, 1, 2);
        assert_eq!((p.vcs[0].y, p.vcs[2].y, p.active), (3, 2, 2));
        for _ in 0..3 {
            p.dequeue(&mut w);
        }
        assert_eq!((p.vcs[0].y, p.vcs[2].y, p.active), (0, 2, 1));
    }

    #[test]
    fn fba_refuses_the_vc_above_its_share_and_admits_the_others() {
        // K = 100, R = 50, Z = 0.8. At X = 60 a lone VC may hold 0.8 * 50 / 10 = 4 fair shares:
        // it is admitted. At X = 95 the allowance falls to 0.8 * 50 / 45 < 1 share: refused.
        let (mut p, mut w) = fixture(100, Policy::Fba { r: 50, z: 0.8 });
        offer(&mut p, &mut w, 0, 0, 60);
        assert_eq!(offer(&mut p, &mut w, 0, 1, 35), 35);
        assert_eq!(offer(&mut p, &mut w, 0, 1, 2), 0);
        assert_eq!(p.stats.drops[DropReason::Fba as usize], 1);
        assert_eq!(offer(&mut p, &mut w, 1, 2, 2), 2, "an idle VC is below any share");
    }

    /// A port on a 1 us cell grid with three cells of VC 0 and one of VC 1 queued at time 0,
    /// traced every 2 us until 9 us, advanced to 9 us in steps of `step`.
    fn traced(step: Time) -> PortTrace {
        let (_, mut w) = fixture(10, Policy::TailDrop);
        let period = CellPeriod::from_cells_per_s(1_000_000);
        let mut p = Port::new("p".into(), 0, SlotClock::new(period), 10, Policy::TailDrop, 4);
        let mut tr = PortTrace::new(2 * PS_PER_US, 9 * PS_PER_US, period, true, true);
        tr.watch_vcs(vec![0, 1]);
        p.start_trace(tr);
        offer(&mut p, &mut w, 0, 0, 3);
        offer(&mut p, &mut w, 1, 1, 1);
        let mut t = 0;
        while t < 9 * PS_PER_US {
            t = (t + step).min(9 * PS_PER_US);
            p.advance(t, &mut w);
        }
        p.finish(9 * PS_PER_US);
        *p.trace.take().unwrap()
    }

    #[test]
    fn trace_samples_the_state_at_each_boundary_instant() {
        // Departures at 0, 1, 2 and 3 us. The boundary at 2 us sees the two before it, not the
        // one at 2 us itself; utilisation counts cells whose slot starts in the interval.
        let tr = traced(9 * PS_PER_US);
        assert_eq!(tr.t, [2, 4, 6, 8].map(|k| k * PS_PER_US));
        assert_eq!(tr.cells, [2, 0, 0, 0]);
        assert_eq!(tr.per_vc, [vec![1, 0, 0, 0], vec![1, 0, 0, 0]]);
        assert_eq!(tr.util, [1.0, 1.0, 0.0, 0.0]);
        // However the run is cut into batches, the samples are the same.
        for step in [1, 999_999, PS_PER_US, 2 * PS_PER_US, 3 * PS_PER_US + 7] {
            let other = traced(step);
            assert_eq!((&other.t, &other.cells, &other.util), (&tr.t, &tr.cells, &tr.util), "step {step}");
        }
    }
}
