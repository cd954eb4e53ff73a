//! A host: TCP endpoints above, AAL5 reassembly of arriving cells, and the adapter that segments
//! frames into cells and sends them at the line's slot rate (the host's PCR).
//!
//! A host that cannot commit its departures (`net/commit.rs`) still sends the cells due before
//! its next arrival, timer or the end of its batch as one run (`Host::send_run`): nothing but
//! departures can happen here meanwhile, so the batch loop need not look at its inputs and
//! timers between them; with plain VCs only, the run is the adapter's committing pass.
//!
//! A data cell in the middle of its frame makes a host neither send nor answer: only an EOF or
//! control cell, a timer or the adapter do. A host whose PDUs are found whole by their cell
//! count (`HostPlan::whole_by_count`) therefore *skips middle cells* in its key: while its input
//! holds only such cells, they count from its run's last instant on (so that they are still
//! taken, and counted, in the run), and the host is neither popped for them nor bounds its
//! neighbours' batches by them (`net/mod.rs`, `work_at`). Once an EOF or control cell is in,
//! the key is the input's head again, so that the host still runs before the components its
//! answer goes to, as it did. On the default-model LAN 5 this halves the destination hosts'
//! batches (19,813 -> 10,772).

use super::adapter::{Adapter, ControlledVc, TxFrame, VcTagger};
use super::{first_work, EnginePaths, InputMerge, Labels, SourceQueue, World, NO_CAPTURE, NO_COMMIT};
use crate::aal5;
use crate::app::App;
use crate::cell::{Cell, CellFifo, VcId, F_CLP, F_CONTROL, F_EFCI, F_EOF};
use crate::conformance::AdapterTagger;
use crate::frame::{Frame, FrameSlab, SegKind};
use crate::tcp::{SegmentSink, TcpReceiver, TcpSender};
use crate::time::{SlotClock, Time, NEVER};
use crate::traffic::Generator;

mod plan;
mod tally;
mod timers;
use plan::{HostParts, HostPlan, NO_RUNS};
pub use tally::HostStats;
use timers::EndpointTimers;

#[derive(Debug, Clone)]
// Endpoints live in one vector per host and are reached on every segment and cell; boxing the
// TCP sender would add a pointer chase there to save a few hundred bytes per endpoint.
#[allow(clippy::large_enum_variant)]
// Each endpoint's `vc` is the VC's label at its host (`Host::labels`).
pub enum Endpoint {
    Sender {
        vc: VcId,
        tcp: TcpSender,
        app: App,
    },
    Receiver {
        vc: VcId,
        tcp: TcpReceiver,
    },
    /// A background (non-TCP) source: messages or bursts handed to the adapter as frames.
    Background {
        vc: VcId,
        gen: Generator,
        /// Its cells waiting in the adapter, bounded (see `source_queue.rs`).
        queue: SourceQueue,
    },
    /// Where a background source's frames end.
    Sink {
        vc: VcId,
        stats: SinkStats,
    },
}

/// What a background sink received: whole messages (a message missing a cell is useless to
/// its application, as with AAL3/4 or AAL5 reassembly) and every cell.
#[derive(Debug, Clone, Default)]
pub struct SinkStats {
    pub cells: u64,
    pub messages: u64,
    pub message_cells: u64,
    pub user_octets: u64,
}

impl Endpoint {
    fn vc(&self) -> VcId {
        match self {
            Endpoint::Sender { vc, .. }
            | Endpoint::Receiver { vc, .. }
            | Endpoint::Background { vc, .. }
            | Endpoint::Sink { vc, .. } => *vc,
        }
    }
    fn next_timer(&self) -> Time {
        match self {
            Endpoint::Sender { tcp, app, .. } => tcp.next_timer().min(app.next_timer()),
            Endpoint::Receiver { tcp, .. } => tcp.next_timer(),
            Endpoint::Background { gen, .. } => gen.next_at(),
            Endpoint::Sink { .. } => NEVER,
        }
    }
}

/// Per-VC reassembly: the cells since the last EOF, as the frame the first of them belonged to
/// and how many of them were of that frame.
///
/// The first cell's reference to its frame slot is held (not released) until the EOF cell, so the
/// slot cannot be reused meanwhile and comparing slot indices tells frames apart. The later cells
/// of that frame are held too and released with it at the EOF cell, in one step: the slot is
/// pinned until then anyway, so nothing sees the difference, and a cell in the middle of a frame
/// costs a compare and an increment. A cell of another frame (the first one's EOF was lost)
/// marks the PDU as mixed and is released at once.
#[derive(Debug, Clone, Copy, Default)]
struct Reasm {
    /// Cells of `first` held since the last EOF (0: none, the next cell starts a PDU).
    held: u32,
    first: u32,
    mixed: bool,
    /// The header flags of the last data cell: whether it carried EFCI is the CI a returned RM
    /// cell gets, for PRCA (the flags are stored whole: the cheapest per-cell record).
    last_flags: u8,
}

impl Reasm {
    /// A data cell of `frame` that does not end its PDU.
    #[inline(always)]
    fn middle(&mut self, frame: u32, frames: &mut FrameSlab) {
        if self.held == 0 {
            self.first = frame;
            self.mixed = false;
            self.held = 1;
        } else if frame == self.first {
            self.held += 1;
        } else {
            self.mixed = true;
            frames.release_cell(frame);
        }
    }

    /// At a host carrying one VC without control cells (`HostPlan::whole_by_count`), with `cell`
    /// at the head of `fifo` and nothing held: if `cell` starts a PDU whose cells are all in
    /// before `stop`, unbroken, take them (skipped unread: only the EOF's flags are recorded)
    /// and return the EOF cell, its arrival and the PDU's cell count. A frame's cells come in
    /// order with nothing between them but lost ones, so the cell where its EOF would be, had
    /// none been lost, is that EOF only if none was; and a live cell with `cell`'s frame index
    /// is of its frame (the slot stays pinned while `cell` is held).
    #[inline(always)]
    fn whole_at_head(
        &mut self,
        fifo: &mut CellFifo,
        cell: Cell,
        stop: Time,
        frames: &FrameSlab,
    ) -> Option<(Time, Cell, u32)> {
        if cell.flags & (F_EOF | F_CONTROL) != 0 || self.held != 0 {
            return None;
        }
        let n = frames.get(cell.frame).ncells;
        let (at, eof) = self.take_through_eof(fifo, cell.frame, n, stop)?;
        Some((at, eof, n))
    }

    /// [`Reasm::whole_at_head`] for a PDU whose first cells an earlier batch took (its end cut
    /// the frame; with `cell` at the head and cells held): if they are unmixed and of `cell`'s
    /// frame, the rest of the frame, had none of it been lost, ends `ncells - held` cells from
    /// the head; if all of it is in before `stop`, take it and return the EOF cell, its
    /// arrival, how many cells were taken and the PDU's cell count.
    #[inline(always)]
    fn rest_at_head(
        &mut self,
        fifo: &mut CellFifo,
        cell: Cell,
        stop: Time,
        frames: &FrameSlab,
    ) -> Option<(Time, Cell, u32, u32)> {
        if self.held == 0 || self.mixed || self.first != cell.frame || cell.flags & F_CONTROL != 0 {
            return None;
        }
        let n = frames.get(cell.frame).ncells;
        // Past the frame's cells (some were lost), the index is out of the FIFO or at a cell of
        // another frame.
        let k = n.wrapping_sub(self.held);
        let (at, eof) = self.take_through_eof(fifo, cell.frame, k, stop)?;
        self.held = 0;
        Some((at, eof, k, n))
    }

    /// If the `k`-th cell from the head of `fifo` is an EOF cell of `frame` (without control
    /// flags) arriving before `stop`, take the `k` cells (skipped unread: the cells before it
    /// are `frame`'s middle cells) and return the EOF cell and its arrival.
    #[inline(always)]
    fn take_through_eof(
        &mut self,
        fifo: &mut CellFifo,
        frame: u32,
        k: u32,
        stop: Time,
    ) -> Option<(Time, Cell)> {
        let (at, eof) = fifo.get(k.wrapping_sub(1))?;
        if at >= stop || eof.frame != frame || eof.flags & (F_EOF | F_CONTROL) != F_EOF {
            return None;
        }
        debug_assert!(fifo
            .iter()
            .take(k as usize - 1)
            .all(|&(_, c)| c.frame == frame && !c.is_eof() && !c.is_control()));
        fifo.skip(k);
        self.last_flags = eof.flags;
        Some((at, eof))
    }
}

/// The adapter seen from a TCP endpoint: frames in, cells queued (or, at a committing host
/// with nothing queued, put on the wire at once: see [`Adapter::commit_frame`]).
struct Tx<'a> {
    adapter: &'a mut Adapter,
    world: &'a mut World,
    /// The VC's label at this host (what its cells carry).
    vc: VcId,
    /// The host's labels: `vc`'s global VC (what a background frame and a capture name) is
    /// looked up only when one needs it.
    labels: &'a Labels,
    /// The host's capture point (`NO_CAPTURE` if none).
    capture: u32,
    /// The host's `commit_end` (`NO_COMMIT`: frames are queued).
    commit_end: Time,
}

impl Tx<'_> {
    /// A frame whose cell count is already known (background messages), not captured (the
    /// capture writes TCP/IP packets).
    fn send_cells(&mut self, now: Time, mut frame: Frame, ncells: u32) {
        frame.ncells = ncells;
        frame.alive = ncells;
        let id = self.world.frames.insert(frame);
        self.adapter.push(now, TxFrame { frame: id, vc: self.vc, remaining: ncells, flags: 0, fresh: true });
    }
}

impl SegmentSink for Tx<'_> {
    /// The rare sends (a SYN, a timeout's, a handshake's) share one copy.
    #[inline(never)]
    fn send(&mut self, now: Time, frame: Frame, clp: bool) {
        self.send_in_line(now, frame, clp);
    }

    #[inline(always)]
    fn send_in_line(&mut self, now: Time, mut frame: Frame, clp: bool) {
        frame.ncells = aal5::cells_for_segment(frame.len, frame.opt_len as u32);
        frame.alive = frame.ncells;
        let remaining = frame.ncells;
        let id = self.world.frames.insert(frame);
        if self.capture != NO_CAPTURE {
            let w = &mut *self.world;
            w.captures.on_frame(self.capture, now, w.frames.get(id), self.labels.global(self.vc), true);
        }
        let flags = if clp { F_CLP } else { 0 };
        if self.commit_end != NO_COMMIT
            && self.adapter.commit_frame(now, id, self.vc, remaining, flags, self.commit_end, self.world)
        {
            return;
        }
        self.adapter.push(now, TxFrame { frame: id, vc: self.vc, remaining, flags, fresh: true });
    }
}

#[derive(Debug)]
pub struct Host {
    pub name: String,
    pub inputs: Vec<u32>,
    adapter: Adapter,
    pub endpoints: Vec<Endpoint>,
    /// The VCs this host sends or receives: per-VC tables here are indexed by their labels.
    pub labels: Labels,
    /// VC label -> index in `endpoints`.
    ep_of: Vec<u32>,
    reasm: Vec<Reasm>,
    /// Each endpoint's earliest timer, always current: which are due, and the earliest of all
    /// (the host's next timer event), without visiting every endpoint.
    timers: EndpointTimers,
    /// Scratch for the endpoints due at a timer event.
    due: Vec<u32>,
    pub stats: HostStats,
    merge: InputMerge,
    /// The earliest arrival still in an input after the last batch (what `key_after_batch`
    /// reports; a host with one input reads its FIFO directly, without `merge`).
    next_arrival: Time,
    /// Index of this host's capture point, `NO_CAPTURE` if it is not captured.
    pub capture: u32,
    /// VC label -> index of its background sink in `endpoints` (empty without sinks).
    sink_of: Vec<u32>,
    /// Some sender here times from transmission completion: watch frames' last cells.
    timing_on_tx: bool,
    /// The adapter's cells are sent when queued if their slot is before this time
    /// (`NO_COMMIT`: at their slots, one event each; see `net/commit.rs`).
    commit_end: Time,
    /// The paths open here (`host/plan.rs`), chosen by `commit_until`. `runs`: sending cell
    /// by cell, the cells before the next arrival or timer go in one run
    /// ([`Host::send_run`]); with plain VCs only, in the adapter's committing pass, unless
    /// `runs` is `NO_RUNS`; else `RUNS_PLAIN`, or the index of the one background source whose
    /// cells these are (its bounded queue counts them). `whole_by_count`: a host that commits
    /// its departures (never under the reference schedule), has no sinks and carries one VC
    /// (every TCP host of the N-source model): no control cell arrives (committing rules out
    /// RM cells) and no other VC's cells come between a frame's, so a PDU is whole if its EOF
    /// cell is where the frame's cell count puts it ([`Host::advance_by_count`]). Such a host
    /// skips middle cells in its key (`skip_middle`, see the module docs).
    plan: HostPlan,
    /// The fast paths the scenario allows (`[engine]` switches, `net/plan.rs`): without
    /// `skip_middle` the host is keyed at every cell, middle cells included; without
    /// `send_runs` each departure is an iteration of the batch loop (the yardsticks).
    paths: EnginePaths,
}

impl Host {
    /// A host carrying VCs `0..n_vcs` as labels `0..n_vcs` (see `set_labels`).
    pub fn new(name: String, channel: u32, clock: SlotClock, n_vcs: usize) -> Self {
        Host {
            name,
            inputs: Vec::new(),
            adapter: Adapter::new(clock, channel),
            endpoints: Vec::new(),
            labels: Labels::identity(n_vcs),
            ep_of: vec![u32::MAX; n_vcs],
            reasm: vec![Reasm::default(); n_vcs],
            timers: EndpointTimers::default(),
            due: Vec::new(),
            stats: HostStats::default(),
            merge: InputMerge::default(),
            next_arrival: NEVER,
            capture: NO_CAPTURE,
            sink_of: Vec::new(),
            timing_on_tx: false,
            commit_end: NO_COMMIT,
            plan: HostPlan::default(),
            paths: EnginePaths::ALL,
        }
    }

    /// The VCs this host sends or receives (before any endpoint is added).
    pub fn set_labels(&mut self, labels: Labels) {
        let n = labels.len();
        self.ep_of = vec![u32::MAX; n];
        self.reasm = vec![Reasm::default(); n];
        self.labels = labels;
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

    /// Give this VC its own queue in the adapter, with its pacing and source control.
    pub fn control_vc(&mut self, n_vcs: usize, c: ControlledVc) {
        self.adapter.control_vc(n_vcs, c);
    }

    /// FCVC for the first hop: the VC sends only with credit for the next node's `buffer`
    /// cells (it gets its own adapter queue if it has none yet).
    pub fn set_credit(&mut self, vc: usize, n_vcs: usize, buffer: u32) {
        if self.adapter.controlled_vc(vc).is_none() {
            let c = ControlledVc::new(vc as VcId, None, super::adapter::RateControl::Fixed, None);
            self.adapter.control_vc(n_vcs, c);
        }
        self.adapter.set_credit(vc, buffer);
    }

    pub fn controlled_vc(&self, vc: usize) -> Option<&ControlledVc> {
        self.adapter.controlled_vc(vc)
    }

    /// Add `ep` for its VC label (one endpoint per VC at a host).
    pub fn add_endpoint(&mut self, ep: Endpoint) {
        if let Endpoint::Sink { vc, .. } = &ep {
            self.sink_of.resize(self.ep_of.len(), u32::MAX);
            self.sink_of[*vc as usize] = self.endpoints.len() as u32;
        }
        self.ep_of[ep.vc() as usize] = self.endpoints.len() as u32;
        if let Endpoint::Sender { tcp, .. } = &ep {
            self.timing_on_tx |= tcp.config().timing_excludes_transmission;
        }
        self.timers.push(ep.next_timer());
        self.endpoints.push(ep);
    }

    /// Cells the adapter still holds (not yet sent).
    pub fn backlog_cells(&self) -> u64 {
        self.adapter.backlog_cells()
    }

    /// A cell arrived: the per-cell part here, the per-frame part (and control cells) in
    /// [`Host::receive_last`].
    #[inline(always)]
    fn receive(&mut self, now: Time, cell: Cell, world: &mut World) {
        self.stats.taken(1);
        if cell.flags & (F_EOF | F_CONTROL) != 0 {
            return self.receive_last(now, cell, world);
        }
        self.count_sink_cell(cell.vc);
        let r = &mut self.reasm[cell.vc as usize];
        r.last_flags = cell.flags;
        r.middle(cell.frame, &mut world.frames);
    }

    /// A background sink counts every cell of its VC, whole frames or not.
    #[inline(always)]
    fn count_sink_cell(&mut self, vc: VcId) {
        if let Some(&i) = self.sink_of.get(vc as usize) {
            if let Some(Endpoint::Sink { stats, .. }) = self.endpoints.get_mut(i as usize) {
                stats.cells += 1;
            }
        }
    }

    /// A control cell, or the EOF cell of a PDU: AAL5 reassembly's verdict on the frame and its
    /// delivery to the VC's endpoint.
    #[inline(never)]
    fn receive_last(&mut self, now: Time, cell: Cell, world: &mut World) {
        debug_assert!(!(cell.is_control() && self.plan.past_sinks), "no control cell reaches sinks only");
        if cell.is_control() {
            self.stats.control_received();
            let ci = self.reasm[cell.vc as usize].last_flags & F_EFCI != 0;
            return self.adapter.on_control(now, cell, ci);
        }
        self.count_sink_cell(cell.vc);
        let r = &mut self.reasm[cell.vc as usize];
        r.last_flags = cell.flags;
        let (first, held, mixed) = if r.held == 0 {
            (cell.frame, 1, false)
        } else if cell.frame == r.first {
            (r.first, r.held + 1, r.mixed)
        } else {
            (r.first, r.held, true)
        };
        r.held = 0;
        self.deliver(now, cell, first, held, mixed, world);
    }

    /// The EOF cell of a PDU whose `held` cells (this one included) are all of its frame
    /// (`take_middle_cells` saw them back to back, or `Reasm::whole_at_head`/`rest_at_head`
    /// counted them): reassembly's verdict is known without its record.
    #[inline(always)]
    fn receive_whole(&mut self, now: Time, cell: Cell, held: u32, world: &mut World) {
        self.deliver(now, cell, cell.frame, held, false, world);
    }

    /// AAL5's verdict on a PDU ending with `cell`, whose `held` cells since the last EOF (this
    /// one included) began with frame `first` (`mixed`: some were of other frames), and the
    /// frame's delivery to its endpoint if it is whole.
    #[inline(always)]
    fn deliver(&mut self, now: Time, cell: Cell, first: u32, held: u32, mixed: bool, world: &mut World) {
        let frame = *world.frames.get(cell.frame);
        // Unmixed, every cell since the last EOF is one of `held`.
        let complete = !mixed && held == frame.ncells;
        world.frames.release_cells(first, held);
        if cell.frame != first {
            world.frames.release_cell(cell.frame);
        }
        if !complete {
            self.stats.frame_corrupted();
            return;
        }
        self.stats.frame_received();
        if self.capture != NO_CAPTURE && frame.kind != SegKind::Background {
            world.captures.on_frame(self.capture, now, &frame, self.labels.global(cell.vc), false);
        }
        // A complete frame is one of the VC's own (its `conn` is the VC).
        let i = self.ep_of[cell.vc as usize];
        if i == u32::MAX {
            return;
        }
        let ep = &mut self.endpoints[i as usize];
        let before = self.timers.key(i);
        debug_assert_eq!(before, ep.next_timer());
        let mut tx = Tx {
            adapter: &mut self.adapter,
            world,
            vc: cell.vc,
            labels: &self.labels,
            capture: self.capture,
            commit_end: self.commit_end,
        };
        // Each arm gives the endpoint's earliest timer after it (`Endpoint::next_timer` of the
        // kind already matched here, without a second dispatch on the kind).
        let after = match (&mut *ep, frame.kind) {
            (Endpoint::Receiver { tcp, .. }, SegKind::Data) => {
                tcp.on_segment(now, &frame, &mut tx);
                tcp.next_timer()
            }
            (Endpoint::Sender { tcp, app, .. }, SegKind::Ack) => {
                tcp.on_ack(now, &frame, &mut tx);
                app.after(now, tcp);
                tcp.next_timer().min(app.next_timer())
            }
            (Endpoint::Sink { stats, .. }, SegKind::Background) => {
                stats.messages += 1;
                stats.message_cells += u64::from(frame.ncells);
                stats.user_octets += u64::from(frame.len);
                NEVER
            }
            // Nothing was done: the timer stands.
            _ => before,
        };
        debug_assert_eq!(after, ep.next_timer());
        if after != before {
            self.timers.set(i, after);
        }
    }

    /// Fire the timers due at `now`, endpoint by endpoint in index order.
    fn fire_timers(&mut self, now: Time, world: &mut World) {
        let mut due = std::mem::take(&mut self.due);
        self.timers.due(now, &mut due);
        for &i in &due {
            let ep = &mut self.endpoints[i as usize];
            let vc = ep.vc();
            let mut tx = Tx {
                adapter: &mut self.adapter,
                world,
                vc,
                labels: &self.labels,
                capture: self.capture,
                commit_end: self.commit_end,
            };
            match ep {
                Endpoint::Sender { tcp, app, .. } => {
                    app.on_timer(now, tcp, &mut tx);
                    tcp.on_timer(now, &mut tx);
                    app.after(now, tcp);
                }
                Endpoint::Receiver { tcp, .. } => tcp.on_timer(now, &mut tx),
                Endpoint::Background { gen, queue, .. } => {
                    while gen.next_at() <= now {
                        let (ncells, len) = gen.fire();
                        if !queue.admit(ncells) {
                            continue;
                        }
                        let f = Frame {
                            conn: u32::from(tx.labels.global(vc)),
                            kind: SegKind::Background,
                            len,
                            created: now,
                            ..Default::default()
                        };
                        tx.send_cells(now, f, ncells);
                    }
                }
                Endpoint::Sink { .. } => {}
            }
            self.timers.set(i, ep.next_timer());
        }
        self.due = due;
    }

    fn send_cell(&mut self, world: &mut World) {
        let cell = self.adapter.send(world);
        self.stats.sent(1);
        if cell.is_control() {
            return;
        }
        if cell.is_eof() && self.timing_on_tx {
            self.segment_transmitted(cell, world);
        }
        // A background source's cell frees room in its bounded queue.
        if let Some(&i) = self.ep_of.get(cell.vc as usize) {
            if let Some(Endpoint::Background { queue, .. }) = self.endpoints.get_mut(i as usize) {
                queue.sent();
            }
        }
    }

    /// No runs of departures (`send_runs` off): each departure an iteration of the batch loop.
    #[inline(always)]
    fn cell_by_cell(&self) -> bool {
        !self.paths.send_runs
    }

    /// Keyed at every cell, middle cells included (`skip_middle` off).
    #[inline(always)]
    fn keyed_at_every_cell(&self) -> bool {
        !self.plan.skip_middle
    }

    /// The fast paths this host may take (`[engine]` switches), read when it commits.
    pub fn set_paths(&mut self, paths: EnginePaths) {
        self.paths = paths;
    }

    /// Send every cell whose slot starts before `limit` (at least one) and return how many:
    /// what the batch loop does, cell after cell, until the next arrival, timer or the batch's
    /// end (on ties an arrival or a timer goes first, so `limit` is the earliest of them), with
    /// the loop's own look at inputs and timers left out. A departure can change no input and
    /// no timer but a transmission-timed sender's, which the run reads after each cell. With
    /// plain VCs only, nothing to return and departures that do nothing but their transmit and
    /// the count of a lone background source (`runs`): the adapter's committing pass, with
    /// `limit` for the end.
    #[inline(never)]
    fn send_run(&mut self, limit: Time, world: &mut World) -> u64 {
        if self.plan.paced_runs && self.adapter.runs_paced() {
            let sent = if self.adapter.one_paced() {
                let (sent, data) = self.adapter.send_paced(limit, world);
                // A background source's cells free room in its bounded queue (as in `send_cell`).
                if let Some(&i) = self.ep_of.get(self.adapter.paced_vc() as usize) {
                    if let Some(Endpoint::Background { queue, .. }) = self.endpoints.get_mut(i as usize) {
                        queue.queued -= data as u32;
                    }
                }
                sent
            } else {
                let (ep_of, endpoints) = (&self.ep_of, &mut self.endpoints);
                let data = |vc: VcId, n: u32| {
                    if let Some(&i) = ep_of.get(vc as usize) {
                        if let Some(Endpoint::Background { queue, .. }) = endpoints.get_mut(i as usize) {
                            queue.queued -= n;
                        }
                    }
                };
                if self.plan.fixed_runs {
                    self.adapter.send_fixed_rr(limit, world, data)
                } else {
                    self.adapter.send_paced_rr(limit, world, data)
                }
            };
            self.stats.sent(sent);
            return sent;
        }
        if self.plan.credit_runs && self.adapter.runs_credit() {
            return self.send_credit_run(limit, world);
        }
        if self.plan.runs != NO_RUNS && self.adapter.runs_plain() {
            let sent = self.adapter.commit_plain(limit, world);
            debug_assert!(sent > 0, "a run starts with a cell due before the next event");
            self.stats.sent(sent);
            if let Some(Endpoint::Background { queue, .. }) = self.endpoints.get_mut(self.plan.runs as usize)
            {
                queue.queued -= sent as u32;
            }
            return sent;
        }
        let mut sent = 0;
        loop {
            self.send_cell(world);
            sent += 1;
            // A transmission-timed sender's timer may have moved before the next cell.
            let limit = if self.timing_on_tx { limit.min(self.timers.min()) } else { limit };
            if self.adapter.next_send() >= limit {
                return sent;
            }
        }
    }

    /// [`Host::send_run`] of a credit-controlled VC in the adapter's pass (`credit_runs`): the
    /// pass stops after each frame's last cell where a sender times from transmission, which is
    /// told then, and the run goes on to the limit as the timer it may have moved allows.
    #[inline(never)]
    fn send_credit_run(&mut self, mut limit: Time, world: &mut World) -> u64 {
        let mut sent = 0;
        loop {
            let (n, eof) = self.adapter.send_credit(limit, self.timing_on_tx, world);
            sent += n;
            if let Some(cell) = eof {
                self.segment_transmitted(cell, world);
                limit = limit.min(self.timers.min());
            }
            if self.adapter.next_send() >= limit {
                break;
            }
        }
        self.stats.sent(sent);
        sent
    }

    /// The last cell of a frame left: tell its TCP sender (`timing_excludes_transmission`).
    #[cold]
    fn segment_transmitted(&mut self, cell: Cell, world: &World) {
        let f = world.frames.get(cell.frame);
        if f.kind != SegKind::Data {
            return;
        }
        let end = self.adapter.last_slot_end();
        // The cell still carries this host's label for the sender's VC.
        if let Some(&i) = self.ep_of.get(cell.vc as usize) {
            if let Some(ep @ Endpoint::Sender { .. }) = self.endpoints.get_mut(i as usize) {
                let before = ep.next_timer();
                if let Endpoint::Sender { tcp, .. } = ep {
                    tcp.transmitted(end, f.seq, f.len);
                }
                let after = ep.next_timer();
                if after != before {
                    self.timers.set(i, after);
                }
            }
        }
    }

    /// Commit the adapter's departures up to `end` (the end of the run) from now on, if nothing
    /// here needs them one slot at a time (see `net/commit.rs`; `rm_cells`: some adapter of the
    /// scenario sends RM cells, which a destination returns ahead of its queued cells);
    /// `NO_COMMIT` turns it off.
    pub fn commit_until(&mut self, end: Time, rm_cells: bool, world: &World) {
        let mut senders =
            self.endpoints.iter().enumerate().filter(|(_, e)| !matches!(e, Endpoint::Sink { .. }));
        let lone_source = match (senders.next(), senders.next()) {
            (Some((i, Endpoint::Background { .. })), None) => Some(i as u32),
            _ => None,
        };
        let parts = HostParts {
            controlled: !self.adapter.controlled.is_empty(),
            timing_on_tx: self.timing_on_tx,
            captured: world.channels[self.adapter.channel as usize].capture != NO_CAPTURE,
            tagging: !self.adapter.taggers.is_empty(),
            rm_cells,
            background: self.endpoints.iter().any(|e| matches!(e, Endpoint::Background { .. })),
            lone_source,
            one_vc: self.labels.len() == 1,
            sinks: !self.sink_of.is_empty(),
            paced: !self.adapter.controlled.is_empty()
                && self.adapter.controlled.iter().all(|c| c.credit.is_none()),
            one_controlled: self.adapter.controlled.len() == 1,
            fixed: self.adapter.all_fixed(),
            sink_arrivals: self.capture == NO_CAPTURE
                && self
                    .endpoints
                    .iter()
                    .all(|e| matches!(e, Endpoint::Background { .. } | Endpoint::Sink { .. })),
            credit_line: self.adapter.one_credit_line(),
        };
        self.plan = HostPlan::choose(&parts, end != NO_COMMIT, self.paths);
        self.commit_end = if self.plan.commit { end } else { NO_COMMIT };
    }

    /// Does this host's adapter send RM cells (a VC under PRCA or adaptive shaping; fixed
    /// pacing and FCVC credit send none)?
    pub fn sends_rm_cells(&self) -> bool {
        self.adapter.controlled.iter().any(ControlledVc::sends_rm_cells)
    }

    /// Send every cell the adapter has for slots before `commit_end` (committing only): their
    /// slots cannot change, since a frame queued later goes behind them. One event each, as
    /// in the per-cell loop.
    #[inline]
    fn commit(&mut self, world: &mut World) -> u64 {
        // Frames TCP sent during the event went out at once if the adapter had nothing queued.
        let mut sent = self.adapter.take_committed();
        if self.adapter.next_send() < self.commit_end {
            sent += self.adapter.commit_plain(self.commit_end, world);
        }
        self.stats.sent(sent);
        sent
    }

    pub fn advance(&mut self, horizon: Time, world: &mut World) -> u64 {
        if let [input] = self.inputs[..] {
            return if self.plan.whole_by_count {
                self.advance_by_count(input as usize, horizon, world)
            } else if self.commit_end != NO_COMMIT && self.sink_of.is_empty() {
                self.advance_one_input::<true>(input as usize, horizon, world)
            } else {
                self.advance_one_input::<false>(input as usize, horizon, world)
            };
        }
        self.merge.rebuild(&world.fifos, &mut world.sched.marks, &self.inputs);
        let events = if self.commit_end != NO_COMMIT {
            self.advance_committing(horizon, world)
        } else {
            self.advance_slots(horizon, world)
        };
        self.next_arrival = self.merge.peek().0;
        events
    }

    /// `advance` for a host with one input (every host but an FCVC source, which also hears
    /// credits): its FIFO is read directly, and cells in the middle of their frames, for which
    /// nothing but reassembly's count changes, are taken in a tight loop. The same events in
    /// the same order as [`Host::advance_slots`] and [`Host::advance_committing`].
    /// `COMMITTING_PLAIN`: a committing host without background sinks (the TCP hosts of every
    /// bench case), compiled apart: its adapter's next slot is never before the horizon, since
    /// each `commit` sends every cell before the run's end (the horizon's bound).
    fn advance_one_input<const COMMITTING_PLAIN: bool>(
        &mut self,
        input: usize,
        horizon: Time,
        world: &mut World,
    ) -> u64 {
        let committing = COMMITTING_PLAIN || self.commit_end != NO_COMMIT;
        let mut events = if committing { self.commit(world) } else { 0 };
        loop {
            let (e, more) = self.one_input_step::<COMMITTING_PLAIN>(input, horizon, world);
            events += e;
            if !more {
                break;
            }
        }
        self.next_arrival = world.fifos[input].head_time().unwrap_or(NEVER);
        events
    }

    /// `advance` for a host whose PDUs are found whole by their cell count (`whole_by_count`:
    /// it commits, has no sinks and carries one VC, so no control cell arrives and no other
    /// VC's cells come between a frame's). A frame's cells come in order with nothing between
    /// them but lost ones: if the cell where a PDU's EOF would be, had none been lost, is that
    /// EOF, none was, and the PDU is delivered with its other cells skipped unread. Anything
    /// else (a PDU not yet all in before the stop, lost cells, a timer, the batch's end) takes
    /// a step of [`Host::advance_one_input`]'s loop, out of line.
    fn advance_by_count(&mut self, input: usize, horizon: Time, world: &mut World) -> u64 {
        debug_assert!(self.plan.whole_by_count && self.commit_end != NO_COMMIT && self.sink_of.is_empty());
        // Middle cells count from the run's last instant on (module docs). Set here, where the
        // world is at hand: until then (at the first run's start) the input wakes this host at
        // every cell, which is early, so safe; a floor left from an earlier run is in the past.
        if !self.keyed_at_every_cell() {
            world.fifos[input].middle_floor = self.commit_end - 1;
        }
        let mut events = self.commit(world);
        loop {
            let tt = self.timers.min();
            let stop = horizon.min(tt.saturating_add(1));
            let fifo = &mut world.fifos[input];
            match fifo.front() {
                Some((t, cell)) if t < stop => {
                    let r = &mut self.reasm[cell.vc as usize];
                    if let Some((at, eof, n)) = r.whole_at_head(fifo, cell, stop, &world.frames) {
                        self.stats.taken(u64::from(n));
                        self.receive_whole(at, eof, n, world);
                        events += u64::from(n) + self.commit(world);
                        continue;
                    }
                }
                // Nothing before the stop, and no timer before the horizon: the batch's end,
                // as the step would find it.
                _ if tt >= horizon => break,
                _ => {}
            }
            let (e, more) = self.one_input_step_apart(input, horizon, world);
            events += e;
            if !more {
                break;
            }
        }
        self.next_arrival = first_work(&world.fifos[input], 0);
        events
    }

    /// [`Host::one_input_step`] of a host whose PDUs are found whole by their count, out of
    /// line; a PDU cut by an earlier batch's end is first finished by its count (`Reasm::rest_at_head`). Here, not in `advance_by_count`'s loop:
    /// the WAN cases hardly cut a frame, and their loop runs slower with it (code layout).
    #[inline(never)]
    fn one_input_step_apart(&mut self, input: usize, horizon: Time, world: &mut World) -> (u64, bool) {
        debug_assert!(self.plan.whole_by_count, "called by advance_by_count only");
        let stop = horizon.min(self.timers.min().saturating_add(1));
        let fifo = &mut world.fifos[input];
        if let Some((_, cell)) = fifo.front().filter(|&(t, _)| t < stop) {
            let r = &mut self.reasm[cell.vc as usize];
            if let Some((at, eof, k, n)) = r.rest_at_head(fifo, cell, stop, &world.frames) {
                self.stats.taken(u64::from(k));
                self.receive_whole(at, eof, n, world);
                return (u64::from(k) + self.commit(world), true);
            }
        }
        self.one_input_step::<true>(input, horizon, world)
    }

    /// One turn of [`Host::advance_one_input`]'s loop: the cells up to the next event taken,
    /// that event handled; returns the events and whether the batch goes on (not at its end:
    /// then only the cells before the end were taken).
    #[inline(always)]
    fn one_input_step<const COMMITTING_PLAIN: bool>(
        &mut self,
        input: usize,
        horizon: Time,
        world: &mut World,
    ) -> (u64, bool) {
        let committing = COMMITTING_PLAIN || self.commit_end != NO_COMMIT;
        let tt = self.timers.min();
        // A committing adapter's next slot is at or after the end of the run.
        let td = if COMMITTING_PLAIN {
            debug_assert!(self.adapter.next_send() >= horizon);
            NEVER
        } else {
            self.adapter.next_send()
        };
        // On ties: arrivals, then timers, then the adapter's slot; so the arrivals before
        // `stop` come first.
        let stop = horizon.min(tt.saturating_add(1)).min(td.saturating_add(1));
        let (middle, last, whole) = if COMMITTING_PLAIN || self.sink_of.is_empty() {
            self.take_middle_cells::<false>(input, stop, world)
        } else {
            self.take_middle_cells::<true>(input, stop, world)
        };
        let mut events = middle;
        if let Some((at, cell)) = last {
            self.stats.taken(1);
            if whole > 0 {
                self.receive_whole(at, cell, whole, world);
            } else {
                self.receive_last(at, cell, world);
            }
        } else {
            let t = tt.min(td);
            if t >= horizon {
                return (events, false);
            }
            if tt == t {
                self.fire_timers(t, world);
            } else if self.cell_by_cell() {
                self.send_cell(world);
            } else {
                // Nothing happens here before the next arrival or timer but departures.
                let arrival = if self.plan.past_sinks {
                    NEVER
                } else {
                    world.fifos[input].head_time().unwrap_or(NEVER)
                };
                events += self.send_run(horizon.min(tt).min(arrival), world) - 1;
            }
        }
        events += 1;
        if committing {
            events += self.commit(world);
        }
        (events, true)
    }

    /// Take the cells arriving before `stop` while they are data cells in the middle of their
    /// frames; the first that is not (an EOF or control cell) is returned, taken but not
    /// processed. Returns how many were taken before it, and, if that cell ends a PDU all of
    /// whose cells were taken here back to back (none held in reassembly's record, which is then
    /// left untouched), how many cells the PDU has (else 0).
    /// `SINKS`: the host has background sinks, which count every cell.
    #[inline(always)]
    fn take_middle_cells<const SINKS: bool>(
        &mut self,
        input: usize,
        stop: Time,
        world: &mut World,
    ) -> (u64, Option<(Time, Cell)>, u32) {
        let fifo = &mut world.fifos[input];
        let frames = &mut world.frames;
        let mut n = 0;
        let mut last = None;
        let mut whole = 0;
        while let Some(t) = fifo.head_time() {
            if t >= stop {
                break;
            }
            let (at, cell) = fifo.pop().expect("a head was seen");
            if cell.flags & (F_EOF | F_CONTROL) != 0 {
                last = Some((at, cell));
                break;
            }
            n += 1;
            if SINKS {
                self.count_sink_cell(cell.vc);
            }
            // The cells of this frame that follow it unbroken (with the same flags): each
            // would only repeat what this one did, so they are counted at once.
            let more = fifo.pop_run(stop, cell);
            n += u64::from(more);
            let r = &mut self.reasm[cell.vc as usize];
            if !SINKS && r.held == 0 {
                // A PDU starts with this cell. If its EOF cell comes next, before `stop`, the
                // PDU is whole here: a live cell with this cell's frame index is of its frame
                // (the slot stays pinned while this cell is held).
                if let Some((t, eof)) = fifo.front() {
                    if t < stop && eof.frame == cell.frame && eof.flags & (F_EOF | F_CONTROL) == F_EOF {
                        fifo.pop();
                        r.last_flags = eof.flags;
                        last = Some((t, eof));
                        whole = more + 2;
                        break;
                    }
                }
            }
            r.last_flags = cell.flags;
            r.middle(cell.frame, frames);
            if more > 0 {
                if SINKS {
                    for _ in 0..more {
                        self.count_sink_cell(cell.vc);
                    }
                }
                let r = &mut self.reasm[cell.vc as usize];
                if r.first == cell.frame {
                    r.held += more;
                } else {
                    for _ in 0..more {
                        r.middle(cell.frame, frames);
                    }
                }
            }
        }
        self.stats.taken(n);
        (n, last, whole)
    }

    /// `advance` for a host sending cell by cell, its inputs merged.
    fn advance_slots(&mut self, horizon: Time, world: &mut World) -> u64 {
        let mut events = 0;
        loop {
            let (ta, _) = self.merge.peek();
            let tt = self.timers.min();
            let td = self.adapter.next_send();
            // On ties: arrivals, then timers, then the adapter's slot.
            let t = ta.min(tt).min(td);
            if t >= horizon {
                break;
            }
            if ta == t {
                let (at, cell) = self.merge.pop(&mut world.fifos, &self.inputs);
                self.receive(at, cell, world);
            } else if tt == t {
                self.fire_timers(t, world);
            } else if self.cell_by_cell() {
                self.send_cell(world);
            } else {
                // Nothing happens here before the next arrival or timer but departures.
                let arrival = if self.plan.past_sinks { NEVER } else { ta };
                events += self.send_run(horizon.min(tt).min(arrival), world) - 1;
            }
            events += 1;
        }
        events
    }

    /// `advance` for a host committing its departures: arrivals and timers are the events of
    /// the loop, and after each (and first, for cells held back at the end of an earlier run)
    /// the adapter sends what it has.
    fn advance_committing(&mut self, horizon: Time, world: &mut World) -> u64 {
        let mut events = self.commit(world);
        loop {
            let (ta, _) = self.merge.peek();
            let tt = self.timers.min();
            // On ties: arrivals, then timers (the adapter's slots are all sent already).
            let t = ta.min(tt);
            if t >= horizon {
                break;
            }
            if ta == t {
                let (at, cell) = self.merge.pop(&mut world.fifos, &self.inputs);
                self.receive(at, cell, world);
            } else {
                self.fire_timers(t, world);
            }
            events += 1 + self.commit(world);
        }
        events
    }

    /// The key at a run's start: the earliest of its inputs' heads (early for a host that skips
    /// middle cells, so safe; its batches key it as such), timers and the adapter's next slot.
    pub fn next_key(&self, world: &World) -> Time {
        let td = self.adapter.next_send();
        world.earliest(&self.inputs).0.min(self.timers.min()).min(td)
    }

    /// `next_key` right after `advance`, which noted the earliest arrival left in the inputs.
    #[inline]
    pub fn key_after_batch(&self) -> Time {
        self.next_arrival.min(self.timers.min()).min(self.adapter.next_send())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{Captures, Channel, Sched};
    use crate::time::CellPeriod;

    fn world() -> World {
        let period = CellPeriod::from_bps(155_520_000);
        let channels = vec![Channel {
            name: "x".into(),
            period,
            latency: 1,
            route: crate::net::identity_route(1, 0),
            cells: 0,
            capture: NO_CAPTURE,
        }];
        World {
            fifos: vec![CellFifo::new(0)],
            frames: FrameSlab::default(),
            channels,
            sched: Sched::new(1),
            captures: Captures::default(),
            levels: Vec::new(),
            shares: Vec::new(),
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

    /// A host with one background source of messages (up to 200 cells, 300 Mb/s on an OC-3
    /// link: its bounded queue fills and refuses messages) and nothing else; `shaped`: its
    /// cells paced to 100 Mb/s (a controlled VC).
    fn background_host(shaped: bool) -> Host {
        let link = CellPeriod::from_bps(155_520_000);
        let mut h = Host::new("h".into(), 0, SlotClock::with_phase(link, 4_321), 1);
        let source = crate::traffic::Source::messages(300e6, 20.0, 200, 0);
        let gen = Generator::new(source, crate::rng::Rng::stream(5, "runs"), 1_000);
        h.add_endpoint(Endpoint::Background { vc: 0, gen, queue: Default::default() });
        if shaped {
            let s = crate::net::Shaper::at_rate(100e6, 0.0);
            h.control_vc(1, ControlledVc::new(0, Some(s), crate::net::RateControl::Fixed, None));
        }
        h
    }

    #[test]
    fn runs_of_departures_send_what_cell_by_cell_sending_does() {
        for (shaped, paced) in [(false, true), (true, true), (true, false)] {
            runs_against_cells(shaped, paced);
        }
    }

    /// `paced`: a shaped host's runs may go in one pass (`paced_run`).
    fn runs_against_cells(shaped: bool, paced: bool) {
        // The same source at two hosts, one sending in runs (up to the next timer or the end
        // of the batch; in the adapter's committing pass if not shaped), the other a cell per
        // turn of the batch loop: after batches of random lengths the same cells are on the
        // wire at the same times, as many events were counted, and the source's queue agrees
        // (a run past a timer would free room before the source offers its next message).
        let (mut runs, mut wr) = (background_host(shaped), world());
        let (mut cells, mut wc) = (background_host(shaped), world());
        runs.paths.paced_run = paced;
        runs.commit_until(NO_COMMIT, true, &wr);
        cells.commit_until(NO_COMMIT, true, &wc);
        assert_eq!(
            runs.plan.runs,
            if shaped { NO_RUNS } else { 0 },
            "a pass counted for the source (endpoint 0)"
        );
        assert_eq!(runs.plan.paced_runs, shaped && paced, "the shaped source's runs in one pass");
        cells.paths.send_runs = false;
        let mut rng = crate::rng::Rng::stream(6, "batches");
        let (mut horizon, mut er, mut ec) = (0, 0, 0);
        for _ in 0..2_000 {
            horizon += rng.next_u64() % 400_000_000;
            // Now and then a batch ends exactly at the slot after the next cell's (a cell there
            // waits for the next batch).
            let next = runs.adapter.next_send();
            if rng.next_u64().is_multiple_of(4) && next > horizon && next != NEVER {
                let mut clock = runs.adapter.clock.clone();
                clock.align(next);
                clock.advance();
                horizon = clock.next();
            }
            er += runs.advance(horizon, &mut wr);
            ec += cells.advance(horizon, &mut wc);
            assert_eq!(er, ec);
            assert_eq!(wr.fifos[0].len(), wc.fifos[0].len());
            assert_eq!(wr.fifos[0].back(), wc.fifos[0].back());
            assert_eq!(runs.key_after_batch(), cells.key_after_batch());
            let queue = |h: &Host| match &h.endpoints[0] {
                Endpoint::Background { queue, .. } => (queue.queued, queue.messages_refused),
                _ => unreachable!(),
            };
            assert_eq!(queue(&runs), queue(&cells));
            assert_eq!(queue(&runs).0 as u64, runs.backlog_cells());
        }
        assert_eq!(runs.stats.cells_out(), cells.stats.cells_out());
        assert_eq!(wr.fifos[0].iter().collect::<Vec<_>>(), wc.fifos[0].iter().collect::<Vec<_>>());
        assert_eq!((wr.channels[0].cells, wr.sched.key(0)), (wc.channels[0].cells, wc.sched.key(0)));
        let Endpoint::Background { queue, .. } = &runs.endpoints[0] else { unreachable!() };
        assert!(queue.messages_refused > 100, "the queue was full: {}", queue.messages_refused);
    }

    #[test]
    fn frames_taken_in_batches_are_reassembled_as_cell_by_cell() {
        // Both loops: a host sending cell by cell, and a committing one (compiled apart); and
        // a committing host with one VC, whose PDUs are found whole by their cell count.
        for (committing, vcs) in [(false, 3), (true, 3), (false, 1), (true, 1)] {
            batches_against_cells(committing, vcs);
        }
    }

    fn batches_against_cells(committing: bool, vcs: usize) {
        // Frames of 1 to 14 cells on three VCs, their cells interleaved on the link, some lost
        // on the way (a lost EOF merges a frame with the next), some with EFCI from a middle
        // cell on. One host takes them in batches of random lengths through `advance` (whole
        // PDUs in one step when their cells come back to back), the other cell by cell through
        // `receive`: the same frames delivered and discarded, the same cells, the same slots
        // released, the same reassembly records. (Broken whole-PDU detection, e.g. without the
        // frame compare at the EOF, counts a merged PDU as whole and releases a slot twice.)
        let mut rng = crate::rng::Rng::stream(11, "reassembly");
        let clock = || SlotClock::new(CellPeriod::from_bps(155_520_000));
        let (mut batched, mut wb) = (Host::new("b".into(), 0, clock(), vcs), world());
        let (mut cells, mut wc) = (Host::new("c".into(), 0, clock(), vcs), world());
        wb.fifos.push(CellFifo::new(0));
        batched.inputs.push(1);
        // A run's end past every batch (as a run's end bounds every horizon).
        batched.commit_until(if committing { 1 << 60 } else { NO_COMMIT }, false, &wb);
        assert_eq!(batched.commit_end != NO_COMMIT, committing);
        assert_eq!(batched.plan.whole_by_count, committing && vcs == 1);
        let mut arrivals = Vec::new();
        let mut open: Vec<Vec<Cell>> = Vec::new();
        for _ in 0..3_000 {
            if open.len() < vcs && (open.is_empty() || rng.next_u64().is_multiple_of(3)) {
                let vc = (rng.next_u64() % vcs as u64) as VcId;
                if open.iter().all(|f| f[0].vc != vc) {
                    let n = 1 + (rng.next_u64() % 14) as u32;
                    let (fb, fc) = (frame(&mut wb, n), frame(&mut wc, n));
                    assert_eq!(fb, fc);
                    let efci_from = (rng.next_u64() % 30) as u32;
                    open.push(
                        (0..n)
                            .map(|i| {
                                let mut flags = if i + 1 == n { F_EOF } else { 0 };
                                if i >= efci_from {
                                    flags |= F_EFCI;
                                }
                                Cell { frame: fb, vc, flags }
                            })
                            .rev()
                            .collect(),
                    );
                }
            }
            // Mostly the same frame's next cell: runs of one frame, interleaved now and then.
            let k = if rng.next_u64().is_multiple_of(4) { (rng.next_u64() as usize) % open.len() } else { 0 };
            let cell = open[k].pop().expect("a frame with cells left");
            if open[k].is_empty() {
                open.remove(k);
            }
            if rng.next_u64().is_multiple_of(12) {
                wb.frames.release_cell(cell.frame);
                wc.frames.release_cell(cell.frame);
            } else {
                arrivals.push(cell);
            }
        }
        let at = |i: usize| (i as Time + 1) * 1_000;
        let record = |h: &Host| -> Vec<(u32, u32, bool, u8)> {
            h.reasm
                .iter()
                .map(|r| {
                    if r.held == 0 {
                        (0, 0, false, r.last_flags)
                    } else {
                        (r.held, r.first, r.mixed, r.last_flags)
                    }
                })
                .collect()
        };
        let (mut fed, mut taken, mut horizon, mut events) = (0, 0, 0, 0);
        while taken < arrivals.len() {
            horizon += 1 + rng.next_u64() % 40_000;
            // Cells arrive ahead of the batch too (they wait in the FIFO).
            while fed < arrivals.len() && at(fed) < horizon + 20_000 {
                wb.fifos[1].push(at(fed), arrivals[fed]);
                fed += 1;
            }
            while taken < arrivals.len() && at(taken) < horizon {
                cells.receive(at(taken), arrivals[taken], &mut wc);
                taken += 1;
            }
            // One event per cell taken (nothing is sent here).
            events += batched.advance(horizon, &mut wb);
            assert_eq!(events, batched.stats.cells_in());
            let stats = |h: &Host| (h.stats.cells_in(), h.stats.frames_in(), h.stats.frames_corrupted());
            assert_eq!(stats(&batched), stats(&cells));
            assert_eq!(wb.frames.live(), wc.frames.live());
            assert_eq!(record(&batched), record(&cells));
        }
        assert!(
            batched.stats.frames_in() > 150 && batched.stats.frames_corrupted() > 50,
            "{:?}",
            batched.stats
        );
    }

    /// LAN 5 for 2 s, built; `every_cell`: no host skips middle cells (the yardstick).
    fn lan5(every_cell: bool) -> (crate::scenario::build::Built, Time) {
        use crate::net::Component;
        let path = format!("{}/../../python/atmsim/scenarios/bench/lan5.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("a shipped scenario");
        let sets = [("simulation.duration_s".to_string(), "2".to_string())];
        let model = crate::scenario::load(&text, &sets, None).expect("a valid scenario");
        let end = model.duration;
        let mut built = crate::scenario::build::build(model);
        for comp in built.sim.comps.iter_mut() {
            if let Component::Host(h) = comp {
                h.paths.skip_middle = !every_cell;
            }
        }
        (built, end)
    }

    /// A report without the wall time.
    fn report(built: &crate::scenario::build::Built) -> serde_json::Value {
        let mut v = serde_json::to_value(crate::report::report(built, 0.0)).expect("a report");
        v.as_object_mut().expect("an object").remove("wall_s");
        v
    }

    #[test]
    fn hosts_that_skip_middle_cells_give_the_same_results_in_fewer_batches() {
        // Middle cells neither wake a host nor bound its neighbours' batches, but an EOF behind
        // them does (missing that wake, a host sleeps past its EOF to its run's end and answers
        // late), and the middle cells before a run's end are taken in that run (with the floor
        // at the end itself, they are left for the next: the reports at the end differ).
        let (mut skip, end) = lan5(false);
        let (mut every, _) = lan5(true);
        // Runs ending at odd instants, mostly while the sources send (mid-frame at some hosts).
        let mut left_mid_frame = 0;
        for k in 1..=40 {
            let at = if k == 40 { end } else { end / 40 * k + 1_234_567 * k };
            skip.sim.run_until(at);
            every.sim.run_until(at);
            assert!(report(&skip) == report(&every), "the reports at {at} ps differ");
            left_mid_frame += skip
                .sim
                .world
                .fifos
                .iter()
                .filter(|f| f.middle_floor != 0 && f.front().is_some_and(|(_, c)| !c.is_eof()))
                .count();
        }
        assert!(left_mid_frame > 5, "runs ended mid-frame at a host {left_mid_frame} times");
        use crate::net::Component;
        let skipping = skip
            .sim
            .comps
            .iter()
            .filter(|c| matches!(c, Component::Host(h) if h.plan.whole_by_count))
            .count();
        assert_eq!(skipping, 10, "every host of the N-source model skips middle cells");
        let (fewer, batches) = (skip.sim.batches, every.sim.batches);
        assert!(fewer * 20 < batches * 19, "{fewer} batches skipping middle cells, {batches} not");
        let cells = &report(&skip)["summary"]["conservation"]["cells_delivered"];
        assert!(cells.as_u64().is_some_and(|c| c > 50_000), "{cells}");
    }

    #[test]
    fn aal5_reassembly_discards_incomplete_and_merged_frames() {
        let mut w = world();
        let mut h = Host::new("h".into(), 0, SlotClock::new(CellPeriod::from_bps(155_520_000)), 1);
        let a = frame(&mut w, 12);
        deliver(&mut h, &mut w, a, 12, &[]);
        assert_eq!((h.stats.frames_in(), h.stats.frames_corrupted()), (1, 0));
        // A middle cell lost: the frame is short at its EOF.
        let b = frame(&mut w, 12);
        deliver(&mut h, &mut w, b, 12, &[5]);
        assert_eq!((h.stats.frames_in(), h.stats.frames_corrupted()), (1, 1));
        // An EOF lost: the frame runs into the next one and both are lost (one bad PDU).
        let c = frame(&mut w, 12);
        let d = frame(&mut w, 12);
        deliver(&mut h, &mut w, c, 12, &[11]);
        deliver(&mut h, &mut w, d, 12, &[]);
        assert_eq!((h.stats.frames_in(), h.stats.frames_corrupted()), (1, 2));
        // Then reassembly is back in step.
        let e = frame(&mut w, 2);
        deliver(&mut h, &mut w, e, 2, &[]);
        assert_eq!(h.stats.frames_in(), 2);
        assert_eq!(w.frames.live(), 0, "every frame slot was released");
    }
}
