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
//!
//! Flow control (the credit/rate and CLASS studies) adds control cells, handled off the data
//! path (one flag test per arrival): RM cells queue like data cells but never touch the frame
//! state, the policy or the UPC; backward RM cells first get the adaptive-shaping feedback of
//! this switch's forward port ([`LevelLog`](super::LevelLog)); FCVC credit cells are consumed here. A data
//! cell arriving above `efci_threshold` gets EFCI (PRCA). FCVC (per VC, per hop): a port that
//! forwards an FCVC VC gives it its own buffer of N2 + N3 cells and sends a credit cell back to
//! the previous hop every N2 cells it sends; a port whose next hop is such a switch holds a
//! credit balance per VC and its scheduler skips VCs without credit.

use super::fair_share::enforced;
use super::{
    feedback_of, with_feedback, Arbitration, FairShareMeter, Fault, InputMerge, LevelLog, PortTrace, World,
};
use crate::abr::{CreditReceiver, CreditSender, Feedback};
use crate::accept::{BufferState, DropReason, Policy, VcPolicy, DROP_REASONS};
use crate::cell::{rm, Cell, F_BACKWARD, F_CLP, F_CREDIT, F_EFCI};
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

/// FCVC at the port that forwards a VC (the downstream end of the hop before it).
#[derive(Debug, Clone)]
pub struct FcvcHop {
    rx: CreditReceiver,
    /// Channel back to the previous hop, and the FIFO there that takes this port's credits.
    channel: u32,
    fifo: u32,
    /// The VC's buffer here (N2 + N3), its occupancy and the largest occupancy seen.
    pub limit: u32,
    pub y: u32,
    pub max_y: u32,
}

/// Publishes this port's adaptive-shaping band (its occupancy against T_l and T_h).
#[derive(Debug, Clone, Copy)]
struct LevelWriter {
    /// Index in `World::levels`.
    log: u32,
    t_low: u32,
    t_high: u32,
}

#[derive(Debug, Clone, Default)]
pub struct PortStats {
    /// Data and RM cells (credit cells are counted apart: they never queue).
    pub cells_in: u64,
    pub cells_out: u64,
    /// RM cells that arrived (both directions; included in `cells_in`).
    pub rm_cells: u64,
    /// Backward RM cells whose feedback this switch made more pessimistic.
    pub rm_feedback_raised: u64,
    /// Of those, the ones set to DR by the fair-share rule where the buffer band alone would
    /// not have given DR.
    pub rm_fair_share_decreases: u64,
    /// Data cells queued with EFCI set here.
    pub efci_marked: u64,
    /// FCVC credit cells consumed here and sent from here.
    pub credit_cells_in: u64,
    pub credit_cells_out: u64,
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
    /// Cells in `queue`, and those of them in a buffer of their own (a priority queue's
    /// guaranteed class, FCVC per-VC buffers): counted here so the per-cell path never asks the
    /// queue (an enum) for its length.
    queued: u32,
    queued_own: u32,
    /// Per VC: has a buffer of its own (outside `capacity`, no policy); `has_own` is false when
    /// no VC does, so the common case costs one test.
    own: Vec<bool>,
    has_own: bool,
    /// No departure while `queued <= stall_floor`: 0 normally; the queue length when every
    /// queued cell belongs to a VC without credit, until the next arrival (one compare either way,
    /// as the plain emptiness test it replaces).
    stall_floor: u32,
    /// Some flow-control feature is on (EFCI, a published level, FCVC counting or gating): the
    /// arrival and departure paths take their hooks only then, so plain ports pay one test.
    hooks: bool,
    /// Per VC, when the next hop is an FCVC switch: the credit balance (empty if none is).
    credit: Vec<Option<CreditSender>>,
    /// Per VC, when this port forwards it under FCVC (empty if none).
    fcvc: Vec<Option<FcvcHop>>,
    /// Data cells arriving above this shared-buffer occupancy get EFCI (`INFINITE`: never).
    efci_threshold: u32,
    /// The occupancy band `[band_lo, band_lo + band_span]` whose leaving is published to
    /// `level` (the whole range, never left, when nothing reads it).
    band_lo: u32,
    band_span: u32,
    level: Option<LevelWriter>,
    /// Per VC: the level log (index in `World::levels`) of the VC's forward port at this
    /// switch, read by backward RM cells.
    rm_levels: Vec<Option<u32>>,
    /// Per VC: the fair-share decision log of the VC's forward port at this switch (see
    /// `fair_share`), read with `rm_levels`.
    rm_shares: Vec<Option<u32>>,
    /// This port is a forward port that enforces fair shares (the CLASS study's two-node runs).
    pub fair_share: Option<Box<FairShareMeter>>,
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
            queued_own: 0,
            own: Vec::new(),
            has_own: false,
            stall_floor: 0,
            hooks: false,
            credit: Vec::new(),
            fcvc: Vec::new(),
            efci_threshold: INFINITE,
            band_lo: 0,
            band_span: u32::MAX,
            level: None,
            rm_levels: Vec::new(),
            rm_shares: Vec::new(),
            fair_share: None,
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
        if let Queue::Priority { guaranteed, .. } = &queue {
            self.own = guaranteed.clone();
            self.has_own = self.own.contains(&true);
        }
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

    /// Cells in the shared buffer (what `capacity`, the policies, EFCI and the adaptive-shaping
    /// thresholds see).
    #[inline]
    fn shared_level(&self) -> u32 {
        self.queued - self.queued_own + self.held
    }

    /// Mark data cells arriving above `threshold` shared cells with EFCI (PRCA).
    pub fn set_efci_threshold(&mut self, threshold: u32) {
        self.efci_threshold = threshold;
        self.hooks = true;
    }

    /// Publish this port's band against `t_low` / `t_high` to `World::levels[log]` (the CLASS
    /// study's forward port); the log must start in the band of an empty buffer.
    pub fn publish_level(&mut self, log: u32, t_low: u32, t_high: u32) {
        self.level = Some(LevelWriter { log, t_low, t_high });
        self.hooks = true;
        self.set_band(0);
    }

    /// Backward RM cells of `vc` take their feedback from `World::levels[log]` (its forward
    /// port's level).
    pub fn read_level(&mut self, vc: usize, n_vcs: usize, log: u32) {
        self.rm_levels.resize(n_vcs, None);
        self.rm_levels[vc] = Some(log);
    }

    /// Enforce fair shares among the rate-controlled VCs leaving here (`meter` knows them and
    /// their logs).
    pub fn enforce_fair_share(&mut self, meter: FairShareMeter) {
        self.fair_share = Some(Box::new(meter));
        self.hooks = true;
    }

    /// Backward RM cells of `vc` are judged against the fair share in `World::shares[log]`.
    pub fn read_share(&mut self, vc: usize, n_vcs: usize, log: u32) {
        self.rm_shares.resize(n_vcs, None);
        self.rm_shares[vc] = Some(log);
    }

    /// The next hop is an FCVC switch giving `vc` a buffer of `buffer` cells: send only on
    /// credit. The queue must skip blocked VCs (`Queue::skips_blocked_vcs`).
    pub fn gate_credit(&mut self, vc: usize, n_vcs: usize, buffer: u32) {
        self.credit.resize(n_vcs, None);
        self.credit[vc] = Some(CreditSender::new(buffer));
        self.hooks = true;
    }

    /// This port forwards `vc` under FCVC: a buffer of its own of `limit` (N2 + N3) cells, and a
    /// credit cell every `n2` cells sent, on `channel` into `fifo` at the previous hop.
    pub fn count_credit(&mut self, vc: usize, n_vcs: usize, n2: u32, limit: u32, channel: u32, fifo: u32) {
        self.fcvc.resize(n_vcs, None);
        self.fcvc[vc] = Some(FcvcHop { rx: CreditReceiver::new(n2), channel, fifo, limit, y: 0, max_y: 0 });
        self.own.resize(n_vcs, false);
        self.own[vc] = true;
        self.has_own = true;
        self.hooks = true;
    }

    /// FCVC state of `vc` here, if this port forwards it under FCVC.
    pub fn fcvc_hop(&self, vc: usize) -> Option<&FcvcHop> {
        self.fcvc.get(vc).and_then(Option::as_ref)
    }

    /// The credit balance of `vc` toward the next hop, if it is gated here.
    pub fn credit_balance(&self, vc: usize) -> Option<u32> {
        self.credit.get(vc).and_then(Option::as_ref).map(CreditSender::balance)
    }

    #[inline]
    fn push(&mut self, cell: Cell, own: bool) {
        self.queue.push(cell);
        self.queued += 1;
        self.queued_own += u32::from(own);
    }

    /// The shared occupancy is now `x`: publish it if it left its band (one compare when it did
    /// not, or when nothing is published: the band is then the whole range).
    #[inline(always)]
    fn level_moved(&mut self, now: Time, x: u32, levels: &mut [LevelLog]) {
        if x.wrapping_sub(self.band_lo) > self.band_span {
            self.band_changed(now, x, levels);
        }
    }

    #[cold]
    #[inline(never)]
    fn band_changed(&mut self, now: Time, x: u32, levels: &mut [LevelLog]) {
        let f = self.set_band(x);
        if let Some(w) = self.level {
            levels[w.log as usize].push(now, f);
        }
    }

    /// Make the band around `x` current; returns its feedback. The bands follow
    /// `Feedback::at_switch`: below T_l, T_l..=T_h, above T_h.
    fn set_band(&mut self, x: u32) -> Feedback {
        let Some(w) = &self.level else { return Feedback::Increase };
        let f = Feedback::Increase.at_switch(x, w.t_low, w.t_high);
        let (lo, hi) = match f {
            Feedback::Increase => (0, w.t_low - 1),
            Feedback::Keep => (w.t_low, w.t_high),
            Feedback::Decrease => (w.t_high + 1, u32::MAX),
        };
        self.band_lo = lo;
        self.band_span = hi - lo;
        f
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
        if cell.is_control() {
            return self.enqueue_control(now, cell, world);
        }
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
        // Guaranteed traffic of a priority port has its own buffer, and so has an FCVC VC (whose
        // credits keep it from overflowing): no policy, no limit.
        let guaranteed = self.has_own && self.own[vc];
        let x = self.shared_level();
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
        if self.hooks {
            self.arrival_hooks(now, &mut cell, x, guaranteed, world);
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

    /// Flow control for an accepted data cell arriving at shared occupancy `x`: EFCI, and the
    /// occupancy it is about to add to (own buffer or shared level).
    #[inline(never)]
    fn arrival_hooks(&mut self, now: Time, cell: &mut Cell, x: u32, own: bool, world: &mut World) {
        if let Some(m) = self.fair_share.as_deref_mut() {
            m.arrival(now, cell.vc as usize, &mut world.shares);
        }
        if own {
            self.own_arrival(cell.vc as usize);
            return;
        }
        if x > self.efci_threshold {
            cell.flags |= F_EFCI;
            self.stats.efci_marked += 1;
        }
        self.level_moved(now, x + 1, &mut world.levels);
    }

    /// A cell entered `vc`'s own buffer: track an FCVC VC's occupancy against N2 + N3.
    #[inline]
    fn own_arrival(&mut self, vc: usize) {
        if let Some(Some(h)) = self.fcvc.get_mut(vc) {
            h.y += 1;
            h.max_y = h.max_y.max(h.y);
        }
    }

    /// An RM or credit cell (see the module comment). Neither belongs to a frame: no frame
    /// state, no policy, no UPC, and no frame slot to release when one is dropped.
    #[cold]
    #[inline(never)]
    fn enqueue_control(&mut self, now: Time, mut cell: Cell, world: &mut World) {
        let vc = cell.vc as usize;
        if cell.flags & F_CREDIT != 0 {
            self.stats.credit_cells_in += 1;
            if let Some(Some(c)) = self.credit.get_mut(vc) {
                c.credit_low32(cell.frame);
            }
            return;
        }
        self.stats.cells_in += 1;
        self.stats.rm_cells += 1;
        if cell.flags & F_BACKWARD != 0 {
            if let Some(&Some(log)) = self.rm_levels.get(vc) {
                // The forward port's band when this RM cell passes (see `level_log` for how
                // stale it can be).
                let band = world.levels[log as usize].at(now);
                let here = match self.rm_shares.get(vc) {
                    Some(&Some(s)) => enforced(band, rm::ccr(cell.frame), world.shares[s as usize].at(now)),
                    _ => band,
                };
                if here > feedback_of(cell.frame) {
                    cell.frame = with_feedback(cell.frame, here);
                    self.stats.rm_feedback_raised += 1;
                    if here == Feedback::Decrease && band != Feedback::Decrease {
                        self.stats.rm_fair_share_decreases += 1;
                    }
                }
            }
        }
        let own = self.has_own && self.own[vc];
        let x = self.shared_level();
        if !own && x >= self.capacity {
            self.stats.drops[DropReason::Overflow as usize] += 1;
            return;
        }
        self.account(now);
        let cs = &mut self.classes[self.class[vc] as usize];
        if cs.y == 0 {
            self.active += 1;
        }
        cs.set(now, cs.y + 1);
        if let Some(m) = self.fair_share.as_deref_mut() {
            m.arrival(now, vc, &mut world.shares);
        }
        // Straight to the queue even at a frame-merging port: an RM cell is not part of a frame.
        self.push(cell, own);
        if own {
            self.own_arrival(vc);
        } else {
            self.level_moved(now, x + 1, &mut world.levels);
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

    /// Send the next cell in the slot starting now.
    #[inline(always)]
    fn dequeue(&mut self, world: &mut World) {
        if self.hooks {
            return self.dequeue_hooked(world);
        }
        let slot = self.clock.next();
        self.account(slot);
        let cell = self.queue.pop(|_| true).expect("dequeue from an empty port");
        self.sent(slot, cell, world);
    }

    /// A cell leaves in `slot`: the counts, and the transmitter.
    #[inline(always)]
    fn sent(&mut self, slot: Time, cell: Cell, world: &mut World) -> bool {
        self.queued -= 1;
        let vc = cell.vc as usize;
        let own = self.has_own && self.own[vc];
        self.queued_own -= u32::from(own);
        let cs = &mut self.classes[self.class[vc] as usize];
        cs.set(slot, cs.y - 1);
        if cs.y == 0 {
            self.active -= 1;
        }
        self.stats.cells_out += 1;
        world.transmit(self.channel, slot, cell);
        self.clock.advance();
        own
    }

    /// `dequeue` with flow control: only VCs with credit may send (if none may, stall until the
    /// next arrival), FCVC counting, and the published level.
    #[inline(never)]
    fn dequeue_hooked(&mut self, world: &mut World) {
        let popped = if self.credit.is_empty() { self.queue.pop(|_| true) } else { self.pop_gated() };
        let Some(cell) = popped else {
            self.stall_floor = self.queued;
            return;
        };
        let slot = self.clock.next();
        self.account(slot);
        if self.sent(slot, cell, world) {
            self.own_departure(cell.vc as usize, slot, world);
        } else {
            let x = self.shared_level();
            self.level_moved(slot, x, &mut world.levels);
        }
    }

    /// The next cell of a VC with credit (or not gated), debiting its balance.
    #[inline(never)]
    fn pop_gated(&mut self) -> Option<Cell> {
        let credit = &self.credit;
        let cell = self.queue.pop(|vc| credit[vc].as_ref().is_none_or(CreditSender::can_send))?;
        if let Some(c) = &mut self.credit[cell.vc as usize] {
            c.sent();
        }
        Some(cell)
    }

    /// A cell left `vc`'s own buffer in `slot`: under FCVC, count it and send a credit cell
    /// back to the previous hop every N2 cells (credit/rate study II.B).
    #[inline]
    fn own_departure(&mut self, vc: usize, slot: Time, world: &mut World) {
        let Some(Some(h)) = self.fcvc.get_mut(vc) else { return };
        h.y -= 1;
        if let Some(count) = h.rx.forwarded() {
            // The count's low 32 bits (see `cell::F_CREDIT`).
            let credit = Cell { frame: count as u32, vc: vc as u16, flags: F_CREDIT };
            world.send_credit(h.channel, h.fifo, slot, credit);
            self.stats.credit_cells_out += 1;
        }
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
            let td = if self.queued <= self.stall_floor { NEVER } else { self.clock.next() };
            // Arrivals first on ties: a cell arriving at a slot boundary may leave in that slot.
            if ta <= td {
                if ta >= stop {
                    break;
                }
                let (_, cell) = world.fifos[self.inputs[i] as usize].pop().expect("head exists");
                self.merge.popped(&world.fifos, &self.inputs);
                // An idle or stalled transmitter next sends in the first slot from `ta` (`ta`, not
                // the cell's own time: they differ only in a slotted port; after a stall, the
                // arrival may be the credit or the cell of a VC that can send).
                if self.queued <= self.stall_floor {
                    self.clock.align(ta);
                    self.stall_floor = 0;
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
        if self.queued <= self.stall_floor {
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
    use crate::cell::{rm, VcId, F_EOF, F_RM};
    use crate::conformance::FGcra;
    use crate::frame::{Frame, FrameSlab};
    use crate::net::LevelLog;
    use crate::net::{Channel, Sched, NO_CAPTURE};
    use crate::sched::RoundRobin;
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
            levels: Vec::new(),
            shares: Vec::new(),
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

    #[test]
    fn efci_marks_data_cells_arriving_above_the_threshold_only() {
        let (mut p, mut w) = fixture(100, Policy::TailDrop);
        p.set_efci_threshold(5);
        offer(&mut p, &mut w, 0, 0, 10);
        // The cell arriving at occupancy x is marked when x > 5: the 7th to the 10th.
        let marked: Vec<bool> =
            std::iter::from_fn(|| p.queue.pop(|_| true)).map(|c| c.flags & F_EFCI != 0).collect();
        assert_eq!(marked, [false, false, false, false, false, false, true, true, true, true]);
        assert_eq!(p.stats.efci_marked, 4);
    }

    #[test]
    fn rm_cells_queue_without_frame_state_and_overflow_without_a_frame_release() {
        let (mut p, mut w) = fixture(2, Policy::Epd { threshold: 0 });
        let live = w.frames.live();
        // EPD at threshold 0 refuses every new frame when the buffer holds anything, but an RM
        // cell is not a frame: it queues.
        p.enqueue(0, Cell { frame: 0, vc: 0, flags: F_RM }, &mut w);
        p.enqueue(0, Cell { frame: 0, vc: 0, flags: F_RM }, &mut w);
        assert_eq!(p.queue_len(), 2);
        p.enqueue(0, Cell { frame: 0, vc: 0, flags: F_RM | F_BACKWARD }, &mut w);
        assert_eq!(p.stats.drops[DropReason::Overflow as usize], 1, "full: dropped as overflow");
        assert_eq!((p.stats.frames_dropped, w.frames.live()), (0, live), "no frame touched");
        assert_eq!((p.stats.cells_in, p.stats.rm_cells), (3, 3));
        // A credit cell is consumed, never queued, and counted apart.
        p.enqueue(0, Cell { frame: 10, vc: 1, flags: F_CREDIT }, &mut w);
        assert_eq!((p.queue_len(), p.stats.cells_in, p.stats.credit_cells_in), (2, 3, 1));
        // The VC's next data frame starts clean.
        p.dequeue(&mut w);
        p.dequeue(&mut w);
        assert_eq!(offer(&mut p, &mut w, 0, 1, 1), 1);
    }

    fn backward_rm(t: Time, p: &mut Port, w: &mut World, f: Feedback) -> Feedback {
        p.enqueue(t, Cell { frame: with_feedback(rm::CI, f), vc: 0, flags: F_RM | F_BACKWARD }, w);
        let c = p.queue.pop(|_| true).unwrap();
        p.queued -= 1;
        assert_eq!(c.frame & rm::CI, rm::CI, "CI untouched");
        feedback_of(c.frame)
    }

    #[test]
    fn backward_rm_feedback_only_gets_more_pessimistic_from_the_forward_log() {
        use Feedback::*;
        let (mut p, mut w) = fixture(100, Policy::TailDrop);
        let mut log = LevelLog::new(Increase, 1_000_000);
        log.push(100, Keep);
        log.push(200, Decrease);
        w.levels.push(log);
        p.read_level(0, 4, 0);
        assert_eq!(backward_rm(50, &mut p, &mut w, Increase), Increase);
        assert_eq!(backward_rm(50, &mut p, &mut w, Keep), Keep, "never more optimistic");
        assert_eq!(backward_rm(150, &mut p, &mut w, Increase), Keep);
        assert_eq!(backward_rm(250, &mut p, &mut w, Keep), Decrease);
        assert_eq!(p.stats.rm_feedback_raised, 2);
        // Forward RM cells are left alone.
        p.enqueue(250, Cell { frame: 0, vc: 0, flags: F_RM }, &mut w);
        assert_eq!(feedback_of(p.queue.pop(|_| true).unwrap().frame), Increase);
    }

    #[test]
    fn forward_port_publishes_each_band_change_with_its_time() {
        use Feedback::*;
        let (mut p, mut w) = fixture(100, Policy::TailDrop);
        w.levels.push(LevelLog::new(Increase, PS_PER_US * 1000));
        p.publish_level(0, 2, 4);
        for t in 1..=5 {
            p.enqueue(t * 10, Cell { frame: t as u32, vc: 0, flags: F_EOF }, &mut w);
        }
        // x = 2 at 20 (T_l): Keep; x = 5 at 50 (> T_h): Decrease.
        let l = &w.levels[0];
        assert_eq!(l.len(), 3);
        assert_eq!([l.at(19), l.at(20), l.at(49), l.at(50)], [Increase, Keep, Keep, Decrease]);
        p.advance(PS_PER_US * 100, &mut w);
        // Emptied: back to Increase after the departure that left one cell.
        let l = &w.levels[0];
        assert_eq!(l.at(PS_PER_US * 100), Increase);
        assert_eq!(l.len(), 5, "Keep at x = 4, Increase at x = 1");
    }

    /// A round-robin port whose VC 0 is credit-gated with `buffer` cells of credit, its output in
    /// FIFO 0 and credit cells for it arriving in FIFO 1 (an input).
    fn gated(buffer: u32) -> (Port, World) {
        let (mut p, mut w) = fixture(100, Policy::TailDrop);
        p.configure(
            Queue::RoundRobin(RoundRobin::new(4)),
            vec![0, 1, 2, 3],
            vec![VcPolicy::default(); 4],
            Rng::stream(0, "m"),
            false,
        );
        p.gate_credit(0, 4, buffer);
        w.fifos.push(CellFifo::new(0));
        p.inputs.push(1);
        (p, w)
    }

    fn sent(w: &World) -> Vec<(Time, u16)> {
        w.fifos[0].iter().map(|&(t, c)| (t, c.vc)).collect()
    }

    #[test]
    fn credit_gating_skips_blocked_vcs_idles_and_resumes_on_credit() {
        let (mut p, mut w) = gated(2);
        offer(&mut p, &mut w, 0, 0, 4);
        offer(&mut p, &mut w, 1, 1, 2);
        p.advance(PS_PER_US * 100, &mut w);
        let vcs: Vec<u16> = sent(&w).iter().map(|x| x.1).collect();
        assert_eq!(vcs, [0, 1, 0, 1], "VC 0 stops after its 2 credits; VC 1 is not held up");
        assert_eq!((p.queue_len(), p.credit_balance(0)), (2, Some(0)));
        assert_eq!(p.next_key(&w), NEVER, "blocked cells only: no departure scheduled");
        // A credit cell (count 1: one cell forwarded downstream) at 200 us wakes the port.
        let t_credit = PS_PER_US * 200;
        w.fifos[1].push(t_credit, Cell { frame: 1, vc: 0, flags: F_CREDIT });
        assert_eq!(p.next_key(&w), t_credit);
        p.advance(PS_PER_US * 300, &mut w);
        let out = sent(&w);
        assert_eq!(out.len(), 5, "one credit, one cell");
        let slot = CellPeriod::from_bps(155_520_000);
        let mut clock = SlotClock::new(slot);
        clock.align(t_credit);
        assert_eq!(out[4], (clock.next() + 1, 0), "sent in the first slot from the credit");
        assert_eq!((p.stats.credit_cells_in, p.credit_balance(0)), (1, Some(0)));
    }

    #[test]
    fn a_credit_cell_with_the_count_every_n2_cells_sent() {
        let (mut p, mut w) = fixture(100, Policy::TailDrop);
        w.fifos.push(CellFifo::new(0));
        p.count_credit(0, 4, 3, 4, 0, 1);
        offer(&mut p, &mut w, 0, 0, 7);
        offer(&mut p, &mut w, 1, 1, 2);
        assert_eq!(p.queue_len(), 9);
        assert_eq!(p.shared_level(), 2, "the FCVC VC's cells are in its own buffer");
        p.advance(PS_PER_US * 100, &mut w);
        let out = sent(&w);
        let credits: Vec<(Time, u32)> = w.fifos[1].iter().map(|&(t, c)| (t, c.frame)).collect();
        // Departures of VC 0's 3rd and 6th cells (the FIFO sends VC 0's seven first), + latency.
        assert_eq!(credits, [(out[2].0, 3), (out[5].0, 6)]);
        assert!(w.fifos[1].iter().all(|&(_, c)| c.flags == F_CREDIT && c.vc == 0));
        assert_eq!(p.stats.credit_cells_out, 2);
        let h = p.fcvc_hop(0).unwrap();
        assert_eq!((h.y, h.max_y), (0, 7));
    }
}
