//! A host: TCP endpoints above, AAL5 reassembly of arriving cells, and the adapter that segments
//! frames into cells and sends them at the line's slot rate (the host's PCR).

use std::collections::VecDeque;

use super::{Captures, InputMerge, World, NO_CAPTURE};
use crate::aal5;
use crate::app::App;
use crate::cell::{Cell, VcId, F_CLP, F_EOF};
use crate::conformance::AdapterTagger;
use crate::frame::{Frame, FrameSlab, SegKind};
use crate::tcp::{SegmentSink, TcpReceiver, TcpSender};
use crate::time::{SlotClock, Time, NEVER};

#[derive(Debug, Clone)]
pub enum Endpoint {
    Sender { vc: VcId, tcp: TcpSender, app: App },
    Receiver { vc: VcId, tcp: TcpReceiver },
}

impl Endpoint {
    fn vc(&self) -> VcId {
        match self {
            Endpoint::Sender { vc, .. } | Endpoint::Receiver { vc, .. } => *vc,
        }
    }
    fn next_timer(&self) -> Time {
        match self {
            Endpoint::Sender { tcp, app, .. } => tcp.next_timer().min(app.next_timer()),
            Endpoint::Receiver { tcp, .. } => tcp.next_timer(),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct HostStats {
    pub cells_in: u64,
    pub cells_out: u64,
    pub frames_in: u64,
    /// Frames that arrived with cells missing (or merged with the next frame after a lost EOF):
    /// discarded by AAL5 reassembly.
    pub frames_corrupted: u64,
}

#[derive(Debug, Clone, Copy)]
struct TxFrame {
    frame: u32,
    vc: VcId,
    remaining: u32,
    flags: u8,
    /// No cell sent yet: the tagging decision is still to come.
    fresh: bool,
}

/// The GFR study's adapter tagging for one VC, with its counts.
#[derive(Debug, Clone)]
pub struct VcTagger {
    pub tagger: AdapterTagger,
    pub frames: u64,
    pub tagged: u64,
}

/// Segmentation side of the adapter: frames waiting for their cells to be sent, in FIFO order.
#[derive(Debug)]
struct Adapter {
    queue: VecDeque<TxFrame>,
    clock: SlotClock,
    channel: u32,
    /// Per VC, when the adapter tags (empty if it never does).
    taggers: Vec<Option<VcTagger>>,
}

/// Per-VC reassembly: cells since the last EOF, and the frame the first of them belonged to.
///
/// The first cell's reference to its frame slot is held (not released) until the EOF cell, so the
/// slot cannot be reused meanwhile and comparing slot indices tells frames apart.
#[derive(Debug, Clone, Copy, Default)]
struct Reasm {
    count: u32,
    first: u32,
    mixed: bool,
}

/// The adapter seen from a TCP endpoint: frames in, cells queued.
struct Tx<'a> {
    adapter: &'a mut Adapter,
    frames: &'a mut FrameSlab,
    vc: VcId,
    /// The host's capture point (`NO_CAPTURE` if none) and where it records.
    capture: u32,
    captures: &'a mut Captures,
}

impl<'a> Tx<'a> {
    fn new(vc: VcId, adapter: &'a mut Adapter, world: &'a mut World, capture: u32) -> Self {
        Tx { adapter, frames: &mut world.frames, vc, capture, captures: &mut world.captures }
    }
}

impl SegmentSink for Tx<'_> {
    fn send(&mut self, now: Time, mut frame: Frame, clp: bool) {
        frame.ncells = aal5::cells_for_segment(frame.len, frame.opt_len as u32);
        frame.alive = frame.ncells;
        let remaining = frame.ncells;
        let id = self.frames.insert(frame);
        if self.capture != NO_CAPTURE {
            self.captures.on_frame(self.capture, now, self.frames.get(id), self.vc, true);
        }
        if self.adapter.queue.is_empty() {
            self.adapter.clock.align(now);
        }
        let flags = if clp { F_CLP } else { 0 };
        self.adapter.queue.push_back(TxFrame { frame: id, vc: self.vc, remaining, flags, fresh: true });
    }
}

#[derive(Debug)]
pub struct Host {
    pub name: String,
    pub inputs: Vec<u32>,
    adapter: Adapter,
    pub endpoints: Vec<Endpoint>,
    /// Connection -> index in `endpoints`.
    by_conn: Vec<u32>,
    reasm: Vec<Reasm>,
    next_timer: Time,
    pub stats: HostStats,
    merge: InputMerge,
    /// Index of this host's capture point, `NO_CAPTURE` if it is not captured.
    pub capture: u32,
}

impl Host {
    pub fn new(name: String, channel: u32, clock: SlotClock, n_conns: usize, n_vcs: usize) -> Self {
        Host {
            name,
            inputs: Vec::new(),
            adapter: Adapter { queue: VecDeque::new(), clock, channel, taggers: Vec::new() },
            endpoints: Vec::new(),
            by_conn: vec![u32::MAX; n_conns],
            reasm: vec![Reasm::default(); n_vcs],
            next_timer: NEVER,
            stats: HostStats::default(),
            merge: InputMerge::default(),
            capture: NO_CAPTURE,
        }
    }

    /// Tag this VC's frames at the adapter (GFR study section 5).
    pub fn set_tagger(&mut self, vc: usize, n_vcs: usize, tagger: AdapterTagger) {
        let t = &mut self.adapter.taggers;
        t.resize(n_vcs, None);
        t[vc] = Some(VcTagger { tagger, frames: 0, tagged: 0 });
    }

    pub fn tagger(&self, vc: usize) -> Option<&VcTagger> {
        self.adapter.taggers.get(vc).and_then(Option::as_ref)
    }

    pub fn add_endpoint(&mut self, conn: u32, ep: Endpoint) {
        self.by_conn[conn as usize] = self.endpoints.len() as u32;
        self.endpoints.push(ep);
        self.refresh_timer();
    }

    fn refresh_timer(&mut self) {
        self.next_timer = self.endpoints.iter().map(Endpoint::next_timer).min().unwrap_or(NEVER);
    }

    /// Cells the adapter still holds (not yet sent).
    pub fn backlog_cells(&self) -> u64 {
        self.adapter.queue.iter().map(|f| f.remaining as u64).sum()
    }

    fn receive(&mut self, now: Time, cell: Cell, world: &mut World) {
        self.stats.cells_in += 1;
        let r = &mut self.reasm[cell.vc as usize];
        // The first cell since the last EOF keeps its hold on its frame slot (see `Reasm`).
        let pinned = r.count > 0;
        if !pinned {
            r.first = cell.frame;
            r.mixed = false;
        } else if cell.frame != r.first {
            r.mixed = true;
        }
        r.count += 1;
        if !cell.is_eof() {
            if pinned {
                world.frames.release_cell(cell.frame);
            }
            return;
        }
        let frame = *world.frames.get(cell.frame);
        let complete = !r.mixed && r.count == frame.ncells;
        r.count = 0;
        if pinned {
            world.frames.release_cell(r.first);
        }
        world.frames.release_cell(cell.frame);
        if !complete {
            self.stats.frames_corrupted += 1;
            return;
        }
        self.stats.frames_in += 1;
        if self.capture != NO_CAPTURE {
            world.captures.on_frame(self.capture, now, &frame, cell.vc, false);
        }
        let Some(&i) = self.by_conn.get(frame.conn as usize) else {
            return;
        };
        if i == u32::MAX {
            return;
        }
        let ep = &mut self.endpoints[i as usize];
        let mut tx = Tx::new(ep.vc(), &mut self.adapter, world, self.capture);
        match (ep, frame.kind) {
            (Endpoint::Receiver { tcp, .. }, SegKind::Data) => tcp.on_segment(now, &frame, &mut tx),
            (Endpoint::Sender { tcp, app, .. }, SegKind::Ack) => {
                tcp.on_ack(now, &frame, &mut tx);
                app.after(now, tcp);
            }
            _ => {}
        }
        self.refresh_timer();
    }

    fn fire_timers(&mut self, now: Time, world: &mut World) {
        for ep in self.endpoints.iter_mut() {
            if ep.next_timer() > now {
                continue;
            }
            let mut tx = Tx::new(ep.vc(), &mut self.adapter, world, self.capture);
            match ep {
                Endpoint::Sender { tcp, app, .. } => {
                    app.on_timer(now, tcp, &mut tx);
                    tcp.on_timer(now, &mut tx);
                    app.after(now, tcp);
                }
                Endpoint::Receiver { tcp, .. } => tcp.on_timer(now, &mut tx),
            }
        }
        self.refresh_timer();
    }

    fn send_cell(&mut self, world: &mut World) {
        let a = &mut self.adapter;
        let slot = a.clock.next();
        let head = a.queue.front_mut().expect("adapter has a frame");
        if head.fresh {
            head.fresh = false;
            // The tagging algorithm decides when a frame's transmission begins, for all of it.
            if let Some(Some(t)) = a.taggers.get_mut(head.vc as usize) {
                t.frames += 1;
                if !t.tagger.frame(slot, head.remaining) {
                    t.tagged += 1;
                    head.flags |= F_CLP;
                }
            }
        }
        head.remaining -= 1;
        let mut cell = Cell { vc: head.vc, frame: head.frame, flags: head.flags };
        if head.remaining == 0 {
            cell.flags |= F_EOF;
            a.queue.pop_front();
        }
        a.clock.advance();
        self.stats.cells_out += 1;
        world.transmit(a.channel, slot, cell);
    }

    pub fn advance(&mut self, horizon: Time, world: &mut World) -> u64 {
        let mut events = 0;
        self.merge.rebuild(&world.fifos, &self.inputs);
        loop {
            let (ta, i) = self.merge.peek();
            let tt = self.next_timer;
            let td = if self.adapter.queue.is_empty() { NEVER } else { self.adapter.clock.next() };
            // On ties: arrivals, then timers, then the adapter's slot.
            let t = ta.min(tt).min(td);
            if t >= horizon {
                break;
            }
            if ta == t {
                let (at, cell) = world.fifos[self.inputs[i] as usize].pop().expect("head exists");
                self.merge.popped(&world.fifos, &self.inputs);
                self.receive(at, cell, world);
            } else if tt == t {
                self.fire_timers(t, world);
            } else {
                self.send_cell(world);
            }
            events += 1;
        }
        events
    }

    pub fn next_key(&self, world: &World) -> Time {
        let td = if self.adapter.queue.is_empty() { NEVER } else { self.adapter.clock.next() };
        world.earliest(&self.inputs).0.min(self.next_timer).min(td)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::CellFifo;
    use crate::net::{Channel, Sched};
    use crate::time::CellPeriod;

    fn world() -> World {
        let period = CellPeriod::from_bps(155_520_000);
        let channels = vec![Channel {
            name: "x".into(),
            period,
            latency: 1,
            route: vec![0],
            cells: 0,
            capture: NO_CAPTURE,
        }];
        World {
            fifos: vec![CellFifo::new(0)],
            frames: FrameSlab::default(),
            channels,
            sched: Sched::new(1),
            captures: Captures::default(),
        }
    }

    fn frame(w: &mut World, ncells: u32) -> u32 {
        w.frames.insert(Frame { ncells, alive: ncells, ..Default::default() })
    }

    /// Deliver cells `keep` (indices) of a frame of `n` cells; the others are "lost" upstream.
    fn deliver(h: &mut Host, w: &mut World, f: u32, n: u32, lost: &[u32]) {
        for i in 0..n {
            let cell = Cell { frame: f, vc: 0, flags: if i + 1 == n { F_EOF } else { 0 } };
            if lost.contains(&i) {
                w.frames.release_cell(f); // what a switch does when it drops a cell
            } else {
                h.receive(0, cell, w);
            }
        }
    }

    #[test]
    fn aal5_reassembly_discards_incomplete_and_merged_frames() {
        let mut w = world();
        let mut h = Host::new("h".into(), 0, SlotClock::new(CellPeriod::from_bps(155_520_000)), 1, 1);
        let a = frame(&mut w, 12);
        deliver(&mut h, &mut w, a, 12, &[]);
        assert_eq!((h.stats.frames_in, h.stats.frames_corrupted), (1, 0));
        // A middle cell lost: the frame is short at its EOF.
        let b = frame(&mut w, 12);
        deliver(&mut h, &mut w, b, 12, &[5]);
        assert_eq!((h.stats.frames_in, h.stats.frames_corrupted), (1, 1));
        // An EOF lost: the frame runs into the next one and both are lost (one bad PDU).
        let c = frame(&mut w, 12);
        let d = frame(&mut w, 12);
        deliver(&mut h, &mut w, c, 12, &[11]);
        deliver(&mut h, &mut w, d, 12, &[]);
        assert_eq!((h.stats.frames_in, h.stats.frames_corrupted), (1, 2));
        // Then reassembly is back in step.
        let e = frame(&mut w, 2);
        deliver(&mut h, &mut w, e, 2, &[]);
        assert_eq!(h.stats.frames_in, 2);
        assert_eq!(w.frames.live(), 0, "every frame slot was released");
    }
}
