//! A switch output port: the cells routed to it from any input link, a buffer with a
//! buffer-acceptance policy, and the transmitter of the outgoing link.
//!
//! In the style of ns-3's `QueueDisc`, [`Port::enqueue`] counts every arrival and every drop and
//! keeps the per-VC accounting; the [`Policy`] only decides. The frame state machine lives here
//! because every frame-aware policy shares it: a frame refused at its first cell is discarded whole
//! (EOF included), and a frame that loses a cell to overflow is, under PPD, discarded up to but not
//! including its EOF cell, which still delimits the frame for the reassembler.
//!
//! Accounting is per *class*: a class is a VC as the port sees it. Normally each connection's VC
//! is its own class; VCs merged onto one backbone VC share a class, so per-VC policies and
//! schedulers treat them as the one VC they are there. The frame state machine stays per
//! connection. An edge port that merges VCs (`merge_frames`) holds each frame until its EOF
//! cell and then queues it whole, so frames of one merged VC never interleave.

use super::{Arbitration, Fault, InputMerge, PortTrace, World};
use crate::accept::{BufferState, DropReason, Policy, VcPolicy, DROP_REASONS};
use crate::cell::{Cell, F_CLP};
use crate::conformance::FGcra;
use crate::rng::Rng;
use crate::sched::Queue;
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

/// Per connection: the frame state machine.
#[derive(Debug, Clone, Copy, Default)]
struct VcState {
    /// A frame is in progress: the next cell is not a first cell.
    in_frame: bool,
    discard: Discard,
    /// This frame already lost a cell here (counts it once in `frames_dropped`).
    damaged: bool,
}

/// Per accounting class (see the module comment): occupancy, policy state, and the integral of
/// the occupancy over time.
#[derive(Debug, Clone, Default)]
pub struct ClassState {
    /// Cells of this class in the buffer (Y_i / X_i).
    pub y: u32,
    pub policy: VcPolicy,
    pub area: u128,
    last: Time,
}

impl ClassState {
    #[inline]
    fn set(&mut self, now: Time, y: u32) {
        self.area += self.y as u128 * (now - self.last) as u128;
        self.last = now;
        self.y = y;
    }
}

/// Usage parameter control at the network ingress: F-GCRA per VC; GFR.2 tags the frames it
/// finds non-eligible (CLP=1), GFR.1 only counts them.
#[derive(Debug, Clone)]
pub struct Upc {
    pub fgcra: FGcra,
    pub tag: bool,
    pub frames: u64,
    pub non_eligible: u64,
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
    queue: Queue,
    capacity: u32,
    pub policy: Policy,
    vcs: Vec<VcState>,
    /// Connection VC -> accounting class.
    class: Vec<u16>,
    pub classes: Vec<ClassState>,
    /// Classes with at least one queued cell (N_a), kept in O(1) per cell.
    active: u32,
    /// DFBA's draws.
    rng: Rng,
    /// Per connection VC, when this port is its network ingress (empty if none is).
    pub upc: Vec<Option<Upc>>,
    /// Frames held until complete (edge ports that merge VCs); empty otherwise.
    staged: Vec<Vec<Cell>>,
    held: u32,
    /// Cells in `queue`, and those of them in a priority queue's guaranteed class: counted here
    /// so the per-cell path never asks the queue (an enum) for its length.
    queued: u32,
    queued_guaranteed: u32,
    /// The queue has a guaranteed class (a priority queue).
    priority: bool,
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
            queue: Queue::fifo(),
            capacity,
            policy,
            vcs: vec![VcState::default(); n_vcs],
            class: (0..n_vcs as u16).collect(),
            classes: vec![ClassState::default(); n_vcs],
            active: 0,
            rng: Rng::stream(0, "port"),
            upc: Vec::new(),
            staged: Vec::new(),
            held: 0,
            queued: 0,
            queued_guaranteed: 0,
            priority: false,
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
            let (classes, class) = (&self.classes, &self.class);
            let queue = self.queued + self.held;
            self.next_sample = tr.due(
                self.next_sample,
                queue,
                |vc| classes[class[vc as usize] as usize].y,
                self.stats.cells_out,
            );
        }
    }

    /// How simultaneous arrivals are ordered (`rng` for `Random`), and whether arrivals count
    /// from the next boundary of this port's slot grid (a slotted switch, see `merge.rs`).
    pub fn set_arbitration(&mut self, a: Arbitration, slotted: bool, rng: Rng) {
        self.merge.arbitration = a;
        self.merge.rng = (a == Arbitration::Random).then_some(rng);
        self.merge.grid = slotted.then(|| self.clock.period());
    }

    /// Per-VC set-up: the queue discipline, the VC -> class map (with one `VcPolicy` per class),
    /// the random stream, and frame merging.
    pub fn configure(
        &mut self,
        queue: Queue,
        class: Vec<u16>,
        policies: Vec<VcPolicy>,
        rng: Rng,
        merge_frames: bool,
    ) {
        self.priority = matches!(queue, Queue::Priority { .. });
        self.queue = queue;
        self.classes =
            policies.into_iter().map(|policy| ClassState { policy, ..Default::default() }).collect();
        self.class = class;
        self.rng = rng;
        if merge_frames {
            self.staged = vec![Vec::new(); self.vcs.len()];
        }
    }

    /// Cells in the buffer: queued, and held for frame merging.
    pub fn queue_len(&self) -> u32 {
        self.queued + self.held
    }

    #[inline]
    fn push(&mut self, cell: Cell, guaranteed: bool) {
        self.queue.push(cell);
        self.queued += 1;
        self.queued_guaranteed += u32::from(guaranteed);
    }

    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    fn account(&mut self, now: Time) {
        let s = &mut self.stats;
        s.queue_area += (self.queued + self.held) as u128 * (now - s.last_change) as u128;
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

    /// A cell arrives at `now`: count it, police it, run the frame state machine and the policy.
    pub fn enqueue(&mut self, now: Time, mut cell: Cell, world: &mut World) {
        self.stats.cells_in += 1;
        let vc = cell.vc as usize;
        let c = self.class[vc] as usize;
        let eof = cell.is_eof();
        let first = !self.vcs[vc].in_frame;
        if !self.upc.is_empty() {
            if let Some(u) = self.upc[vc].as_mut() {
                let eligible = u.fgcra.cell(now, first, cell.clp());
                if first {
                    u.frames += 1;
                    u.non_eligible += u64::from(!eligible);
                }
                if !eligible && u.tag {
                    cell.flags |= F_CLP;
                }
            }
        }
        {
            let v = &mut self.vcs[vc];
            v.in_frame = !eof;
            if first {
                v.discard = Discard::None;
                v.damaged = false;
            }
        }
        // Guaranteed traffic of a priority port has its own buffer: no policy, no limit.
        let guaranteed = self.priority && self.queue.is_guaranteed(vc);
        let x = self.queued - self.queued_guaranteed + self.held;
        let full = !guaranteed && x >= self.capacity;
        match self.vcs[vc].discard {
            // The frame was refused at its first cell: nothing of it enters.
            Discard::Frame => return self.drop_cell(vc, DropReason::PartialPacket, world, cell),
            // PPD: the frame is already damaged; only its EOF cell may still pass.
            Discard::Partial if !eof || full => {
                return self.drop_cell(vc, DropReason::PartialPacket, world, cell)
            }
            Discard::Partial => {}
            // A new frame: an injected fault or the policy may refuse it whole.
            Discard::None if first && !guaranteed => {
                if !self.faults.is_empty() {
                    let f = world.frames.get(cell.frame);
                    if self.faults.iter_mut().any(|x| x.hits(now, f)) {
                        if !eof {
                            self.vcs[vc].discard = Discard::Frame;
                        }
                        return self.drop_cell(vc, DropReason::Fault, world, cell);
                    }
                }
                let state = BufferState {
                    x,
                    k: self.capacity,
                    y: self.classes[c].y,
                    active: self.active,
                    clp1: cell.clp(),
                };
                if let Some(reason) =
                    self.policy.frame_decision(&state, &mut self.classes[c].policy, &mut self.rng)
                {
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
        let cs = &mut self.classes[c];
        if cs.y == 0 {
            self.active += 1;
        }
        cs.set(now, cs.y + 1);
        if self.staged.is_empty() {
            self.push(cell, guaranteed);
        } else {
            self.stage(vc, cell, guaranteed);
        }
        self.stats.max_queue = self.stats.max_queue.max(self.queue_len());
    }

    /// Frame merging: hold the frame's cells; queue them all at its EOF cell. A frame that lost
    /// a cell here is not merged (an edge device reassembling frames would discard it).
    fn stage(&mut self, vc: usize, cell: Cell, guaranteed: bool) {
        self.staged[vc].push(cell);
        self.held += 1;
        if !cell.is_eof() {
            return;
        }
        let frame = std::mem::take(&mut self.staged[vc]);
        self.held -= frame.len() as u32;
        for c in frame {
            self.push(c, guaranteed);
        }
    }

    /// Send the head cell in the slot starting now.
    fn dequeue(&mut self, world: &mut World) {
        let slot = self.clock.next();
        self.account(slot);
        let cell = self.queue.pop(|_| true).expect("dequeue from an empty port");
        self.queued -= 1;
        if self.priority && self.queue.is_guaranteed(cell.vc as usize) {
            self.queued_guaranteed -= 1;
        }
        let cs = &mut self.classes[self.class[cell.vc as usize] as usize];
        cs.set(slot, cs.y - 1);
        if cs.y == 0 {
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
            let td = if self.queued == 0 { NEVER } else { self.clock.next() };
            // Arrivals first on ties: a cell arriving at a slot boundary may leave in that slot.
            if ta <= td {
                if ta >= stop {
                    break;
                }
                let (_, cell) = world.fifos[self.inputs[i] as usize].pop().expect("head exists");
                self.merge.popped(&world.fifos, &self.inputs);
                // `ta`, not the cell's own time: they differ only in a slotted port.
                if self.queued == 0 {
                    self.clock.align(ta);
                }
                self.enqueue(ta, cell, world);
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
        let ta = self.merge.key(world.earliest(&self.inputs).0);
        if self.queued == 0 {
            ta
        } else {
            ta.min(self.clock.next())
        }
    }

    /// Close the time integrals and take the last trace samples at the end of the run.
    pub fn finish(&mut self, end: Time) {
        self.account(end);
        for c in self.classes.iter_mut() {
            c.set(end, c.y);
        }
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
    use crate::conformance::FGcra;
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
        assert_eq!((p.classes[0].y, p.classes[2].y, p.active), (3, 2, 2));
        for _ in 0..3 {
            p.dequeue(&mut w);
        }
        assert_eq!((p.classes[0].y, p.classes[2].y, p.active), (0, 2, 1));
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

    #[test]
    fn upc_tags_non_eligible_frames_and_lbo_refuses_them() {
        // F-GCRA with T = 100 ps and no tolerance: a 4-cell frame at 1 ps per cell conforms only
        // for its first cell's test... the frame's verdict is its first cell's: eligible; the next
        // frame right behind it is early and gets tagged, and LBO = 0 then refuses it.
        let (mut p, mut w) = fixture(100, Policy::FifoGfr { lbo: 0, hbo: 100 });
        p.upc = vec![
            Some(Upc { fgcra: FGcra::new(100, 0), tag: true, frames: 0, non_eligible: 0 }),
            None,
            None,
            None,
        ];
        let mut t = 0;
        for frame in 0..2 {
            for i in 0..4 {
                let flags = if i == 3 { F_EOF } else { 0 };
                p.enqueue(t, Cell { frame, vc: 0, flags }, &mut w);
                t += 1;
            }
        }
        let u = p.upc[0].as_ref().unwrap();
        assert_eq!((u.frames, u.non_eligible), (2, 1));
        assert_eq!(p.queue_len(), 4, "the eligible frame queued, the tagged one refused at LBO");
        assert_eq!(p.stats.drops[DropReason::Lbo as usize], 1);
    }

    #[test]
    fn merged_frames_are_queued_whole_and_in_order_of_completion() {
        let (mut p, mut w) = fixture(100, Policy::TailDrop);
        // VCs 0 and 1 share class 0 (merged); frames arrive interleaved cell by cell.
        p.configure(Queue::fifo(), vec![0, 0, 2, 3], vec![VcPolicy::default(); 4], Rng::stream(0, "m"), true);
        for i in 0..3 {
            let flags = if i == 2 { F_EOF } else { 0 };
            p.enqueue(0, Cell { frame: 1, vc: 1, flags }, &mut w);
            p.enqueue(0, Cell { frame: 0, vc: 0, flags: if i == 1 { F_EOF } else { 0 } }, &mut w);
        }
        // VC 0's 2-cell frame completed first, then VC 1's 3-cell frame; VC 0 then starts anew.
        assert_eq!(p.queue_len(), 6);
        assert_eq!(p.classes[0].y, 6, "one class for the merged VCs");
        let order: Vec<u16> = (0..5).map(|_| p.queue.pop(|_| true).unwrap().vc).collect();
        assert_eq!(order, vec![0, 0, 1, 1, 1]);
        assert_eq!(p.held, 1, "the third VC 0 cell waits for its frame's EOF");
    }

    #[test]
    fn guaranteed_cells_bypass_the_best_effort_buffer() {
        let (mut p, mut w) = fixture(2, Policy::TailDrop);
        let q = Queue::Priority {
            high: Default::default(),
            low: Default::default(),
            guaranteed: vec![true, false, false, false],
        };
        p.configure(q, vec![0, 1, 2, 3], vec![VcPolicy::default(); 4], Rng::stream(0, "m"), false);
        assert_eq!(offer(&mut p, &mut w, 1, 1, 5), 2, "best effort limited to its 2 cells");
        assert_eq!(offer(&mut p, &mut w, 0, 0, 5), 5, "guaranteed traffic is not");
        assert_eq!(p.queue.pop(|_| true).unwrap().vc, 0, "and goes first");
    }
}
