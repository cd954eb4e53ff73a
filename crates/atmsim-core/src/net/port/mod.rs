//! A switch output port: the cells routed to it from any input link, a buffer with a
//! buffer-acceptance policy, and the transmitter of the outgoing link.
//!
//! In the style of ns-3's `QueueDisc`, [`Port::enqueue`] counts every arrival and every drop by
//! reason and keeps the per-VC accounting; the [`Policy`] only decides. This file is that core:
//! enqueue, dequeue and the batch loop. Each optional feature is a part of its own, reached from
//! the per-cell path through a plain field (no dynamic dispatch) and, where it is rare, behind
//! one flag test:
//!
//! - [`frame_discard`]: the frame state machine (EPD/PPD) every frame-aware policy shares;
//! - [`upc`]: usage parameter control (GFR) at the network ingress;
//! - [`fcvc`]: FCVC per-VC buffers, credit cells sent back and credit gating of the scheduler;
//! - [`congestion`]: EFCI marking, the published adaptive-shaping level and the feedback it
//!   writes into backward RM cells;
//! - [`staging`]: frame merging at an edge port;
//! - [`trace`]: sampling the port's state for `[trace]`;
//! - [`accounting`]: per-class occupancy and the port's counters.
//!
//! Accounting is per *class*: a class is a VC as the port sees it. Normally each connection's VC
//! is its own class; VCs merged onto one backbone VC share a class, so per-VC policies and
//! schedulers treat them as the one VC they are there. The frame state machine stays per
//! connection.
//!
//! Control cells (the credit/rate and CLASS studies) are handled off the data path (one flag
//! test per arrival): RM cells queue like data cells but never touch the frame state, the policy
//! or the UPC; FCVC credit cells are consumed here.

mod accounting;
mod admission;
mod busy;
mod congestion;
mod fcvc;
mod frame_discard;
mod interleave;
mod merged;
mod plan;
mod priority;
mod slotted;
mod spaced;
mod staging;
mod trace;
mod train;
mod upc;
mod vc_train;

pub use accounting::{ClassState, PortStats};
pub use fcvc::FcvcHop;
pub use upc::{CellUpc, Upc};

use super::commit::{Committed, CommittedRun, NO_COMMIT};
use super::{
    Arbitration, EnginePaths, FairShareMeter, Fault, Hop, InputMerge, Labels, LevelLog, PortTrace, World,
    NO_CAPTURE, NO_HOP, NO_ROUTE,
};
use crate::accept::{DropReason, Policy, VcPolicy};
use crate::cell::{Cell, VcId, F_BACKWARD, F_CREDIT, F_EFCI, F_RM};
use crate::rng::Rng;
use crate::sched::Queue;
use crate::time::{SlotClock, Time, NEVER};
use congestion::{Congestion, Raised};
use fcvc::Fcvc;
use frame_discard::FrameState;
use plan::{PortParts, PortPlan};
use staging::Staging;

/// `Port::slot` of a port driven outside a `Sim`.
const NO_SLOT: u32 = u32::MAX;

/// The kinds `Port::enqueue_as` is compiled for.
const ANY_PORT: u8 = 0;
const SPACED_PORT: u8 = 1;
const MERGING_PORT: u8 = 2;

/// What `Port::verdict` reads of a data cell `Port::enqueue_as` has begun: when it came, its VC
/// label and class, whether it is its frame's first or last cell, whether the buffer it would
/// enter is full, whether that buffer is its own, and the shared occupancy.
struct Arrival {
    now: Time,
    vc: usize,
    c: usize,
    first: bool,
    eof: bool,
    full: bool,
    guaranteed: bool,
    x: u32,
}

/// Buffer capacity meaning "never full".
pub const INFINITE: u32 = u32::MAX;

/// Per VC label: what the per-cell path reads about the VC, in one entry, so that a cell costs
/// one table lookup (and one bounds check) where parallel tables cost one each.
#[derive(Debug, Clone, Copy)]
struct PortVc {
    frame: FrameState,
    /// The VC's accounting class.
    class: u16,
    /// The output channel's route for this label, copied by `commit_until` for the plain and
    /// spaced paths (`NO_HOP` until then; the other paths read the channel's own table).
    hop: Hop,
    /// Time in the buffer of this label's cells committed on arrival by the fast path of a
    /// count-only port, not yet added to its class's integral nor to the port's (done by
    /// `finish`): the entry is read for the cell anyway, the class and the port's sum need not be.
    sojourn: u128,
}

impl PortVc {
    fn new(class: u16) -> Self {
        PortVc { frame: FrameState::default(), class, hop: NO_HOP, sojourn: 0 }
    }
}

/// The VC entry of a cell leaving the buffer, and its class's state, read without bounds
/// checks.
///
/// # Safety
/// `vc` is the VC of a cell that was in the port's buffer: every enqueue path indexes the VC
/// table with it at the cell's arrival, and the table is replaced only with the buffer empty
/// (`Port::set_labels`); every VC's class is one of the port's (`Port::new`, `set_labels`,
/// `Port::configure`).
#[inline(always)]
unsafe fn departing<'a>(
    vcs: &'a [PortVc],
    classes: &'a mut [ClassState],
    vc: usize,
) -> (&'a PortVc, &'a mut ClassState) {
    debug_assert!(vc < vcs.len());
    // SAFETY: the caller.
    let v = unsafe { vcs.get_unchecked(vc) };
    debug_assert!((v.class as usize) < classes.len());
    // SAFETY: as above.
    (v, unsafe { classes.get_unchecked_mut(v.class as usize) })
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
    /// The VCs crossing this port: every per-VC table here is indexed by their labels (a cell's
    /// `vc` is its label here, see `net/label.rs`).
    pub labels: Labels,
    /// Per VC label: frame state, class and next hop.
    vcs: Vec<PortVc>,
    /// Private: every `PortVc::class` indexes it (`Port::configure`), and departures read it
    /// unchecked (`departing`); read through `Port::classes`.
    classes: Vec<ClassState>,
    /// Per class: the global VC that names it (the report's key).
    pub class_vcs: Vec<VcId>,
    /// Classes with at least one queued cell (N_a), kept in O(1) per cell.
    active: u32,
    /// DFBA's draws.
    rng: Rng,
    /// Per connection VC, when this port is its network ingress (empty if none is).
    pub upc: Vec<Option<Upc>>,
    /// Per VC, the cell-level GCRA UPC policing it here (empty if none does).
    pub cell_upc: Vec<Option<CellUpc>>,
    /// Frames held until complete (edge ports that merge VCs).
    staging: Staging,
    /// Cells in `queue`, and those of them in a buffer of their own (a priority queue's
    /// guaranteed class, FCVC per-VC buffers): counted here so the per-cell path never asks the
    /// queue (an enum) for its length.
    queued: u32,
    queued_own: u32,
    /// Per VC: has a buffer of its own (outside `capacity`, no policy); `has_own` is false when
    /// no VC does, so the common case costs one test.
    own: Vec<bool>,
    has_own: bool,
    /// Per VC, for the priority path (`priority.rs`, `PRIORITY_OWN` and the other bits): its
    /// buffer, class and FCVC forwarding in one byte, set by `commit_until` where that path is
    /// open.
    priority_kinds: Vec<u8>,
    /// No departure while `queued <= stall_floor`: 0 normally; the queue length when every
    /// queued cell belongs to a VC without credit, until the next arrival (one compare either way,
    /// as the plain emptiness test it replaces).
    stall_floor: u32,
    /// Some flow-control feature is on (EFCI, a published level, FCVC counting or gating): the
    /// arrival and departure paths take their hooks only then, so plain ports pay one test.
    hooks: bool,
    fcvc: Fcvc,
    congestion: Congestion,
    /// This port's slot in the scheduler (`NO_SLOT`: not in a `Sim`, unit tests).
    slot: u32,
    pub stats: PortStats,
    merge: InputMerge,
    /// The slotted pass's inputs, kept from one pass to the next (`slotted.rs`).
    slotted_heads: Vec<slotted::Head>,
    /// Injected faults (usually none: checked only at first cells, and only if present).
    pub faults: Vec<Fault>,
    /// The next trace boundary; `NEVER` without `[trace]`, so the check per event is one compare.
    next_sample: Time,
    pub trace: Option<Box<PortTrace>>,
    /// Data cells arrived per VC, counted only when a trace records arrival rates (empty
    /// otherwise, so the count costs an untraced port one failed bounds check).
    vc_arrivals: Vec<u64>,
    /// Cells are sent when queued if their slot is before this time (`NO_COMMIT`: at their
    /// slots, one departure event each; see `net/commit.rs`).
    commit_end: Time,
    /// Departures sent ahead whose slots have not come: still in `queued` until retired.
    committed: Committed,
    /// The paths open here (`plan.rs`), chosen by `commit_until`. `count_only`: under a policy
    /// that reads no per-VC occupancy, or at a port with one class (whose occupancy is the
    /// port's), the committed departures are counted in `run` instead of `committed`, and a
    /// class counts a cell as gone when it is committed (see `CommittedRun`); the policy is
    /// then handed the port's occupancy as the class's (`Port::vc_state`). `plain`: none of
    /// the per-cell features is on, arrivals take `enqueue_plain`. `train`, `busy`,
    /// `interleave`, `paired`: the passes of `train.rs`, `busy.rs` and `interleave.rs`.
    /// `keyed`: committing as a level log's writer or reader (`net/level_log.rs`): the key
    /// keeps the committed departure that takes a published level out of its band
    /// (`Port::leaving_slot`), and each batch retires up to its end, so no change of the level
    /// before the key is left unlogged.
    plan: PortPlan,
    run: CommittedRun,
    /// The output channel's latency (copied with the routes by `commit_until`).
    latency: Time,
    /// The fast paths the scenario allows (`[engine]` switches, `net/plan.rs`).
    paths: EnginePaths,
    /// The most cells a train may take (`Port::train_limit`).
    train_limit: usize,
    /// The most cells a busy pass may take (`Port::busy_limit`): set with `train_limit`.
    busy_limit: usize,
    /// How far apart a run's head and its end must be for the run to hold the four cells a
    /// busy pass needs (`NEVER`: no passes): three of the shortest slots of any link, less a
    /// margin for oscillator drift (`Port::input_spacing`). Set with `busy_limit`.
    pass_span: Time,
    /// The shortest slot of any link, less that margin (0: not yet read from the channels).
    input_spacing: Time,
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
            labels: Labels::identity(n_vcs),
            vcs: (0..n_vcs as u16).map(PortVc::new).collect(),
            classes: vec![ClassState::default(); n_vcs],
            class_vcs: (0..n_vcs as VcId).collect(),
            active: 0,
            rng: Rng::stream(0, "port"),
            upc: Vec::new(),
            cell_upc: Vec::new(),
            staging: Staging::default(),
            queued: 0,
            queued_own: 0,
            own: Vec::new(),
            has_own: false,
            priority_kinds: Vec::new(),
            stall_floor: 0,
            hooks: false,
            slot: NO_SLOT,
            fcvc: Fcvc::default(),
            congestion: Congestion::default(),
            stats: PortStats::default(),
            merge: InputMerge::default(),
            slotted_heads: Vec::new(),
            faults: Vec::new(),
            next_sample: NEVER,
            trace: None,
            vc_arrivals: Vec::new(),
            commit_end: NO_COMMIT,
            committed: Committed::default(),
            plan: PortPlan::default(),
            run: CommittedRun::default(),
            latency: 0,
            paths: EnginePaths::ALL,
            train_limit: 0,
            busy_limit: 0,
            pass_span: NEVER,
            input_spacing: 0,
        }
    }

    /// The fast paths this port may take (`[engine]` switches), read when it commits.
    pub fn set_paths(&mut self, paths: EnginePaths) {
        self.paths = paths;
    }

    /// This port's slot in the scheduler (`Sim::new`).
    pub fn set_slot(&mut self, slot: u32) {
        self.slot = slot;
    }

    /// The VCs crossing this port: sizes the per-VC state, one class per VC until `configure`.
    /// At set-up only: no cell may be in the buffer (`departing` reads a queued cell's VC entry
    /// unchecked, as indexed at the cell's arrival).
    pub fn set_labels(&mut self, labels: Labels) {
        assert_eq!(self.queue_len(), 0, "a port's VCs set with cells in its buffer");
        let n = labels.len();
        self.vcs = (0..n as u16).map(PortVc::new).collect();
        self.classes = vec![ClassState::default(); n];
        self.class_vcs = labels.vcs().to_vec();
        self.labels = labels;
    }

    /// The grid a slotted port moves its arrivals to (`None`: it takes them as they come).
    pub fn arrival_grid(&self) -> Option<crate::time::SlotGrid> {
        self.merge.grid
    }

    /// How simultaneous arrivals are ordered (`rng` for `Random`), and whether arrivals count
    /// from the next boundary of this port's slot grid (a slotted switch, see `merge.rs`).
    pub fn set_arbitration(&mut self, a: Arbitration, slotted: bool, rng: Rng) {
        self.merge.arbitration = a;
        self.merge.rng = (a == Arbitration::Random).then_some(rng);
        self.merge.grid = slotted.then(|| self.clock.grid());
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
        assert_eq!(self.queue_len(), 0, "a port configured with cells in its buffer");
        if let Queue::Priority { guaranteed, .. } = &queue {
            self.own = guaranteed.clone();
            self.has_own = self.own.contains(&true);
        }
        self.queue = queue;
        self.classes = policies.into_iter().map(ClassState::new).collect();
        debug_assert_eq!(class.len(), self.vcs.len(), "one class per VC label");
        // Every VC's class is one of the port's (as `new` and `set_labels` leave them):
        // `departing` and the spaced arrival read them unchecked.
        assert!(
            class.iter().all(|&c| usize::from(c) < self.classes.len()),
            "a VC's class past the port's classes"
        );
        for (v, c) in self.vcs.iter_mut().zip(class) {
            v.class = c;
        }
        self.rng = rng;
        if merge_frames {
            self.staging = Staging::new(self.vcs.len());
        }
    }

    /// Cells in the buffer: queued, and held for frame merging.
    pub fn queue_len(&self) -> u32 {
        self.queued + self.staging.held
    }

    /// Per accounting class: its occupancy and time integral.
    pub fn classes(&self) -> &[ClassState] {
        &self.classes
    }

    /// Cells in the shared buffer (what `capacity`, the policies, EFCI and the adaptive-shaping
    /// thresholds see).
    #[inline]
    fn shared_level(&self) -> u32 {
        self.queued - self.queued_own + self.staging.held
    }

    /// Mark data cells arriving above `threshold` shared cells with EFCI (PRCA).
    pub fn set_efci_threshold(&mut self, threshold: u32) {
        self.congestion.efci_threshold = threshold;
        self.hooks = true;
    }

    /// Publish this port's band against `t_low` / `t_high` to `World::levels[log]` (the CLASS
    /// study's forward port); the log must start in the band of an empty buffer.
    pub fn publish_level(&mut self, log: u32, t_low: u32, t_high: u32) {
        self.congestion.publish(log, t_low, t_high);
        self.hooks = true;
    }

    /// Backward RM cells of `vc` take their feedback from `World::levels[log]` (its forward
    /// port's level).
    pub fn read_level(&mut self, vc: usize, n_vcs: usize, log: u32) {
        self.congestion.read(vc, n_vcs, log);
    }

    /// Enforce fair shares among the adaptive VCs leaving here (`meter` knows them and its log).
    pub fn enforce_fair_share(&mut self, meter: FairShareMeter) {
        self.congestion.enforce(meter);
        self.hooks = true;
    }

    /// Backward RM cells of `vc` are judged against the fair share in `World::shares[log]`.
    pub fn read_share(&mut self, vc: usize, n_vcs: usize, log: u32) {
        self.congestion.read_share(vc, n_vcs, log);
    }

    /// The next hop is an FCVC switch giving `vc` a buffer of `buffer` cells: send only on
    /// credit. The queue must skip blocked VCs (`Queue::skips_blocked_vcs`).
    pub fn gate_credit(&mut self, vc: usize, n_vcs: usize, buffer: u32) {
        self.fcvc.gate(vc, n_vcs, buffer);
        self.hooks = true;
    }

    /// This port forwards `vc` under FCVC, in the buffer and with the credit return of `hop`.
    pub fn count_credit(&mut self, vc: usize, n_vcs: usize, hop: FcvcHop) {
        self.fcvc.forward(vc, n_vcs, hop);
        self.own.resize(n_vcs, false);
        self.own[vc] = true;
        self.has_own = true;
        self.hooks = true;
    }

    /// FCVC state of `vc` here, if this port forwards it under FCVC.
    pub fn fcvc_hop(&self, vc: usize) -> Option<&FcvcHop> {
        self.fcvc.hop(vc)
    }

    /// The credit balance of `vc` toward the next hop, if it is gated here.
    pub fn credit_balance(&self, vc: usize) -> Option<u32> {
        self.fcvc.balance(vc)
    }

    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    #[inline(always)]
    fn push(&mut self, cell: Cell, own: bool, world: &mut World) {
        self.queued += 1;
        self.queued_own += u32::from(own);
        // Committing, nothing held back: the cell leaves in the next free slot, known now.
        if self.commit_end != NO_COMMIT && self.queued == self.pending() + 1 {
            let slot = self.clock.next();
            if slot < self.commit_end {
                return self.commit(slot, cell, world);
            }
        }
        self.queue.push(cell);
    }

    /// Send `cell` in `slot` now; its departure is retired from the occupancy at `slot`
    /// (`retire`). The sums a departure adds to are added at once.
    #[inline(always)]
    fn commit(&mut self, slot: Time, cell: Cell, world: &mut World) {
        let c = self.vcs[cell.vc as usize].class;
        if self.plan.count_only {
            self.run.push(self.clock.mark());
            if self.classes[c as usize].depart(slot) {
                self.active -= 1;
            }
        } else {
            self.committed.push(slot, c);
            self.classes[c as usize].leave_at(slot);
        }
        self.stats.depart(slot);
        self.stats.sent(1);
        world.transmit(self.channel, slot, cell);
        self.clock.advance();
    }

    /// The committed departures in slots before `t` happen: occupancy and active classes (their
    /// time integrals took the departure when it was committed).
    #[inline(always)]
    fn retire(&mut self, t: Time, levels: &mut [LevelLog]) {
        match (self.hooks, self.plan.count_only) {
            (false, true) => self.retire_as::<false, true>(t, levels),
            (true, true) => self.retire_logged(t, levels),
            (_, false) => self.retire_as::<false, false>(t, levels),
        }
    }

    /// `retire` at a keyed port with hooks that counts only, out of line: in line, it cost the
    /// committing path of the ports without hooks up to 0.6 % (register allocation).
    #[cold]
    #[inline(never)]
    fn retire_logged(&mut self, t: Time, levels: &mut [LevelLog]) {
        self.retire_as::<true, true>(t, levels)
    }

    /// `retire` at a port whose `count_only` is `COUNT` and whose hooks act if `HOOKED` (known
    /// to the caller: the plain path is compiled for each, so the per-arrival path tests the
    /// flags once per batch; a port that does not count only tests its hooks per departure).
    #[inline(always)]
    fn retire_as<const HOOKED: bool, const COUNT: bool>(&mut self, t: Time, levels: &mut [LevelLog]) {
        debug_assert_eq!(COUNT, self.plan.count_only);
        debug_assert!(!HOOKED || self.hooks);
        if COUNT {
            if !HOOKED {
                self.queued -= self.run.retire_before(t, &self.clock);
                return;
            }
            // A keyed port counting only: the departures' level moves, in time order with the
            // arrivals' (logged as they are taken, each after the departures before it).
            let (first, x) = (self.run.first_mark(), self.shared_level());
            let n = self.run.retire_before(t, &self.clock);
            self.queued -= n;
            self.congestion.departures_retired(first, x, n, &self.clock, levels);
            return;
        }
        while let Some((slot, c)) = self.committed.pop_before(t) {
            self.queued -= 1;
            if self.classes[c as usize].retire() {
                self.active -= 1;
            }
            if self.hooks {
                // The departure's level move, in time order with the arrivals' (logged as they
                // are taken, each after the departures before it).
                let x = self.shared_level();
                self.congestion.level_moved(slot, x, levels);
            }
        }
    }

    /// Committed departures not yet retired.
    #[inline]
    fn pending(&self) -> u32 {
        if self.plan.count_only {
            self.run.len()
        } else {
            self.committed.len()
        }
    }

    /// No cell that this port has not sent yet can leave before this (`Sim`'s horizons): a
    /// committing port sends in queue order in consecutive free slots of its grid, so a cell
    /// queued later takes a slot at or after its next free one. 0 (no bound) if it does not
    /// commit.
    #[inline]
    pub fn unsent_not_before(&self) -> Time {
        if self.commit_end != NO_COMMIT {
            self.clock.next()
        } else {
            0
        }
    }

    /// In this run, this port may take every cell of its input at any time, and so be run by
    /// its receiver (`Sim`'s `pull`): it commits on the plain path, without hooks or level logs
    /// (`PortPlan::pulled`), and has one input.
    pub fn may_be_pulled(&self) -> bool {
        self.commit_end != NO_COMMIT && self.plan.pulled && self.inputs.len() == 1 && !self.congestion.logs()
    }

    /// The FIFO its cells go to (`NO_HOP`'s: it sends nothing).
    pub fn output_fifo(&self, world: &World) -> Option<u32> {
        let route = &world.channels[self.channel as usize].route;
        let f = route.iter().find(|h| h.fifo != NO_ROUTE)?.fifo;
        route.iter().all(|h| h.fifo == NO_ROUTE || h.fifo == f).then_some(f)
    }

    /// This port writes or reads a level log (or a fair-share log): it commits keyed
    /// (`net/level_log.rs`).
    pub fn uses_level_logs(&self) -> bool {
        self.congestion.logs()
    }

    /// The shortest cell spacing of any link ([`Port::input_spacing`] of all of them), found
    /// once by the caller for every port; a port not told finds it itself when it commits.
    pub fn set_input_spacing(&mut self, spacing: Time) {
        self.input_spacing = spacing;
    }

    /// Commit departures up to `end` (the end of the run) from now on, if nothing here needs
    /// the per-cell path (see `net/commit.rs` for the conditions); `NO_COMMIT` turns it off.
    pub fn commit_until(&mut self, end: Time, world: &World) {
        self.commit_as(end, false, world);
    }

    /// `commit_until` for a level log's writer or reader (`keyed`): the port's key keeps the
    /// committed departure that moves its published level, so a FIFO port whose hooks act at
    /// arrivals (EFCI, fair share metering) or can be logged at retirement (its published
    /// level) may commit too.
    pub fn commit_keyed_until(&mut self, end: Time, world: &World) {
        self.commit_as(end, true, world);
    }

    fn commit_as(&mut self, end: Time, keyed: bool, world: &World) {
        let ch = &world.channels[self.channel as usize];
        let parts = PortParts {
            fifo: matches!(self.queue, Queue::Fifo(_)),
            spacing: matches!(self.queue, Queue::VirtualSpacing(_)),
            own_buffers: self.has_own,
            hooks: self.hooks,
            credit: !self.fcvc.is_off(),
            merging: self.staging.on(),
            traced: self.trace.is_some(),
            arrival_counts: !self.vc_arrivals.is_empty(),
            captured: ch.capture != NO_CAPTURE,
            upc: self.upc.iter().any(Option::is_some) || self.cell_upc.iter().any(Option::is_some),
            faults: !self.faults.is_empty(),
            slotted: self.merge.grid.is_some(),
            one_class: self.classes.len() == 1,
            buffer: self.capacity > 0,
            policy: self.policy.facts(),
            priority: matches!(self.queue, Queue::Priority { .. }),
            one_vc: self.vcs.len() == 1,
            efci: self.congestion.marks_efci(),
        };
        // Every departure committed in an earlier run has been retired at its end (`finish`),
        // so the way they are kept may change here.
        debug_assert_eq!(self.pending(), 0);
        self.plan = PortPlan::choose(&parts, end != NO_COMMIT, keyed, self.paths);
        self.commit_end = if self.plan.commit { end } else { NO_COMMIT };
        self.train_limit = Port::train_limit(&self.clock);
        self.busy_limit = Port::busy_limit(&self.clock, self.capacity);
        if self.input_spacing == 0 {
            self.input_spacing = Port::input_spacing(world.channels.iter().map(|c| c.period));
        }
        self.pass_span = if self.plan.busy { self.input_spacing.saturating_mul(3) } else { NEVER };
        if self.plan.plain || self.plan.spaced || self.plan.priority {
            self.latency = ch.latency;
            for (label, v) in self.vcs.iter_mut().enumerate() {
                v.hop = ch.route.get(label).copied().unwrap_or(NO_HOP);
            }
        }
        if self.plan.priority {
            self.priority_kinds = self.priority_kinds();
        }
    }

    fn drop_cell(&mut self, vc: usize, reason: DropReason, world: &mut World, cell: Cell) {
        self.stats.dropped(reason, self.vcs[vc].frame.damage());
        world.frames.release_cell(cell.frame);
    }

    /// A cell arrives at `now`: count it, police it, run the frame state machine and the policy.
    pub fn enqueue(&mut self, now: Time, cell: Cell, world: &mut World) {
        self.enqueue_as::<ANY_PORT>(now, cell, world)
    }

    /// `enqueue`, compiled without the parts a port of kind `KIND` has not: `SPACED_PORT`
    /// (`spaced.rs`: no arrival counts, own buffers, hooks or staging, not committing),
    /// `MERGING_PORT` (`merged.rs`: committing with staging, no arrival counts, own buffers or
    /// hooks), `ANY_PORT` (every part tested).
    #[inline(always)]
    fn enqueue_as<const KIND: u8>(&mut self, now: Time, mut cell: Cell, world: &mut World) {
        debug_assert!(KIND != SPACED_PORT || self.plan.spaced);
        debug_assert!(KIND != MERGING_PORT || Port::merging_lean(self));
        // The parts neither kind has.
        const fn lean(kind: u8) -> bool {
            kind != ANY_PORT
        }
        if cell.is_control() {
            return self.enqueue_control(now, cell, world);
        }
        self.stats.taken(1);
        let vc = cell.vc as usize;
        if !lean(KIND) {
            if let Some(n) = self.vc_arrivals.get_mut(vc) {
                *n += 1;
            }
        }
        let c = self.vcs[vc].class as usize;
        let eof = cell.is_eof();
        let first = self.vcs[vc].frame.begin(eof);
        if !self.cell_upc.is_empty() {
            if let Some(u) = self.cell_upc[vc].as_mut() {
                if !u.police(now, &mut cell) {
                    return self.drop_cell(vc, DropReason::Upc, world, cell);
                }
            }
        }
        if !self.upc.is_empty() {
            if let Some(u) = self.upc[vc].as_mut() {
                u.police(now, first, &mut cell);
            }
        }
        // Guaranteed traffic of a priority port has its own buffer, and so has an FCVC VC (whose
        // credits keep it from overflowing): no policy, no limit.
        let guaranteed = !lean(KIND) && self.has_own && self.own[vc];
        let x = match KIND {
            SPACED_PORT => self.queued,
            MERGING_PORT => self.queued + self.staging.held,
            _ => self.shared_level(),
        };
        let full = !guaranteed && x >= self.capacity;
        // A cell after the first of a frame still whole here, with room, is admitted: the
        // frame state machine's verdict there, without its set-up.
        if first || full || !self.vcs[vc].frame.passing() {
            let count_only = KIND != SPACED_PORT && self.plan.count_only;
            let arrival = Arrival { now, vc, c, first, eof, full, guaranteed, x };
            if let Some(reason) = self.verdict(&arrival, count_only, cell, world) {
                return self.drop_cell(vc, reason, world, cell);
            }
        }
        if !lean(KIND) && self.hooks {
            self.arrival_hooks(now, &mut cell, x, guaranteed, world);
        }
        self.stats.arrive(now);
        if self.classes[c].arrive(now) {
            self.active += 1;
        }
        if KIND == SPACED_PORT {
            // Not committing: the cell queues (`spaced.rs`).
            self.queued += 1;
            self.queue_spaced(cell);
            self.stats.reached(self.queued);
            return;
        }
        if KIND != MERGING_PORT && !self.staging.on() {
            self.push(cell, guaranteed, world);
        } else if let Some(frame) = self.staging.stage(vc, cell) {
            self.queue_frame(vc, frame, guaranteed, world);
        }
        self.stats.reached(self.queue_len());
    }

    /// The frame state machine's verdict on a data cell that `enqueue_as` cannot admit at
    /// once (a first cell, a full buffer, a frame refused or cut): the policy asked at a first
    /// cell, an injected fault before it. Out of line: most cells never come here.
    #[inline(never)]
    fn verdict(&mut self, a: &Arrival, count_only: bool, cell: Cell, world: &World) -> Option<DropReason> {
        let state = admission::policy_view(
            count_only,
            &self.classes,
            a.c,
            self.active,
            a.x,
            self.capacity,
            cell.clp(),
        );
        let (policy, faults, classes, rng) =
            (&self.policy, &mut self.faults, &mut self.classes, &mut self.rng);
        let (now, c) = (a.now, a.c);
        self.vcs[a.vc].frame.verdict(
            a.first,
            a.eof,
            a.full,
            a.guaranteed,
            || policy.discards_partial_packets(),
            || {
                if !faults.is_empty() {
                    let f = world.frames.get(cell.frame);
                    if faults.iter_mut().any(|x| x.hits(now, f)) {
                        return Some(DropReason::Fault);
                    }
                }
                policy.frame_decision(&state, &mut classes[c].policy, rng)
            },
        )
    }

    /// `enqueue` at a plain committing port (`self.plan.plain`, see `commit_until`): none of the
    /// optional parts is on, so a data cell meets only the frame state machine, the policy and the
    /// buffer limit, and is sent at once unless cells are held at the end of the run (the
    /// channel's cell count is added per batch, by `process_plain`).
    ///
    /// The cell of a whole frame that is not its first needs no policy: it enters if the buffer
    /// has room (the policies decide per frame, at first cells; `FrameState::verdict` does the
    /// rest of the state machine exactly as `enqueue` does).
    #[inline(always)]
    fn enqueue_plain<const HOOKED: bool, const COUNT: bool>(
        &mut self,
        now: Time,
        mut cell: Cell,
        world: &mut World,
    ) {
        if cell.is_control() {
            return self.enqueue_control(now, cell, world);
        }
        self.stats.taken(1);
        let vc = cell.vc as usize;
        let v = &mut self.vcs[vc];
        let eof = cell.is_eof();
        let first = v.frame.begin(eof);
        // No own buffers, no merging: the shared level is the queue.
        let x = self.queued;
        let full = x >= self.capacity;
        let c = v.class as usize;
        if first || full || !v.frame.passing() {
            // The state machine asks the policy exactly at a first cell here (its frame has just
            // begun clean, and no buffer is a VC's own): asked before it, so that neither call
            // needs a closure over the policy's many inputs.
            let refused = if first {
                let state = admission::policy_view(
                    COUNT,
                    &self.classes,
                    c,
                    self.active,
                    x,
                    self.capacity,
                    cell.clp(),
                );
                self.policy.frame_decision(&state, &mut self.classes[c].policy, &mut self.rng)
            } else {
                None
            };
            let policy = &self.policy;
            let verdict =
                v.frame.verdict(first, eof, full, false, || policy.discards_partial_packets(), || refused);
            if let Some(reason) = verdict {
                return self.drop_cell(vc, reason, world, cell);
            }
        }
        // A keyed port's arrival hooks (`arrival_hooks` without own buffers); a plain port's path
        // is compiled without them.
        if HOOKED && self.congestion.data_arrival(now, vc, x, &mut world.levels, &mut world.shares) {
            cell.flags |= F_EFCI;
            self.stats.efci_set();
        }
        let hop = v.hop;
        self.queued += 1;
        self.stats.reached(self.queued);
        let slot = self.clock.next();
        let pending = if COUNT { self.run.len() } else { self.committed.len() };
        // Nothing held back and the slot is in this run: the cell leaves in it, sent now.
        if self.queued == pending + 1 && slot < self.commit_end {
            if COUNT {
                // The port's integral takes the label's sum at `finish`.
                v.sojourn = v.sojourn.wrapping_add((slot - now) as u128);
                self.run.push(self.clock.mark());
            } else {
                if self.classes[c].stay(now, slot) {
                    self.active += 1;
                }
                self.committed.push(slot, c as u16);
                self.stats.stay(now, slot);
            }
            self.stats.sent(1);
            self.clock.advance();
            world.deliver(hop, slot + self.latency, cell);
            return;
        }
        if self.classes[c].arrive(now) {
            self.active += 1;
        }
        self.stats.arrive(now);
        self.queue.push(cell);
    }

    /// Flow control for an accepted data cell arriving at shared occupancy `x`: EFCI, and the
    /// occupancy it is about to add to (own buffer or shared level).
    #[inline(never)]
    fn arrival_hooks(&mut self, now: Time, cell: &mut Cell, x: u32, own: bool, world: &mut World) {
        if own {
            self.congestion.metered(now, cell.vc as usize, &mut world.shares);
            self.fcvc.arrived(cell.vc as usize);
            return;
        }
        if self.congestion.data_arrival(now, cell.vc as usize, x, &mut world.levels, &mut world.shares) {
            cell.flags |= F_EFCI;
            self.stats.efci_set();
        }
    }

    /// An RM or credit cell (see the module comment). Neither belongs to a frame: no frame
    /// state, no policy, no UPC, and no frame slot to release when one is dropped.
    #[cold]
    #[inline(never)]
    fn enqueue_control(&mut self, now: Time, mut cell: Cell, world: &mut World) {
        let vc = cell.vc as usize;
        if cell.flags & F_CREDIT != 0 {
            self.stats.credit_taken();
            self.fcvc.credit_cell(cell);
            return;
        }
        self.stats.rm_taken();
        if cell.flags & F_BACKWARD != 0 {
            match self.congestion.backward_rm(now, &mut cell, &world.levels, &world.shares) {
                Raised::No => {}
                Raised::Band => self.stats.rm_raised(false),
                Raised::FairShare => self.stats.rm_raised(true),
            }
        }
        let own = self.has_own && self.own[vc];
        let x = self.shared_level();
        if !own && x >= self.capacity {
            self.stats.dropped(DropReason::Overflow, false);
            return;
        }
        self.stats.arrive(now);
        if self.classes[self.vcs[vc].class as usize].arrive(now) {
            self.active += 1;
        }
        self.congestion.metered(now, vc, &mut world.shares);
        // Straight to the queue even at a frame-merging port: an RM cell is not part of a frame.
        self.push(cell, own, world);
        if own {
            self.fcvc.arrived(vc);
        } else {
            self.congestion.level_moved(now, x + 1, &mut world.levels);
        }
        self.stats.reached(self.queue_len());
    }

    /// Send the next cell in the slot starting now.
    #[inline(always)]
    fn dequeue(&mut self, world: &mut World) {
        if self.hooks {
            return self.dequeue_hooked(world);
        }
        let slot = self.clock.next();
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
        self.stats.depart(slot);
        if self.classes[self.vcs[vc].class as usize].depart(slot) {
            self.active -= 1;
        }
        self.stats.sent(1);
        world.transmit(self.channel, slot, cell);
        self.clock.advance();
        own
    }

    /// `dequeue` with flow control: only VCs with credit may send (if none may, stall until the
    /// next arrival), FCVC counting, and the published level.
    #[inline(never)]
    fn dequeue_hooked(&mut self, world: &mut World) {
        let popped =
            if self.fcvc.gating() { self.fcvc.pop_gated(&mut self.queue) } else { self.queue.pop(|_| true) };
        let Some(cell) = popped else {
            self.stall_floor = self.queued;
            return;
        };
        let slot = self.clock.next();
        if self.sent(slot, cell, world) {
            if self.fcvc.departed(cell.vc as usize, slot, world) {
                self.stats.credit_sent();
            }
        } else {
            let x = self.shared_level();
            self.congestion.level_moved(slot, x, &mut world.levels);
        }
    }

    /// Process every arrival and departure before `horizon`; returns the number of events.
    pub fn advance(&mut self, horizon: Time, world: &mut World) -> u64 {
        let horizon = if self.congestion.logs() { self.start_logged(horizon, world) } else { horizon };
        let mut events = 0;
        if self.commit_end != NO_COMMIT {
            // No trace here (it would sample per slot): the batch ends at the horizon.
            let events = if self.plan.plain {
                if self.hooks {
                    self.process_plain_hooked(horizon, world)
                } else if self.plan.count_only {
                    self.process_plain::<false, true>(horizon, world)
                } else {
                    self.process_plain::<false, false>(horizon, world)
                }
            } else {
                self.merge.rebuild(&world.fifos, &mut world.sched.marks, &self.inputs);
                self.process_committing(horizon, world)
            };
            if self.plan.keyed {
                // The departures before the horizon happen in this batch, as on the per-cell
                // path: the key is then the next one's slot, and the level log is complete up
                // to the horizon.
                self.retire(horizon, &mut world.levels);
            }
            return events;
        }
        if self.plan.spaced {
            return self.process_spaced(horizon, world);
        }
        self.merge.rebuild(&world.fifos, &mut world.sched.marks, &self.inputs);
        if self.plan.priority {
            // No trace here (`PortPlan::choose`).
            return self.process_priority(horizon, world);
        }
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

    /// A batch to `horizon` of a port that writes or reads a level log starts
    /// (`net/level_log.rs`): no reader asks for a time before its start, so the logs it writes
    /// are pruned; and a reader reads exactly only there, so the batch stops before any later
    /// backward RM cell that reads one. Returns where the batch stops.
    #[inline(never)]
    fn start_logged(&self, horizon: Time, world: &mut World) -> Time {
        // The batch started at this port's key, still in the scheduler, and the earliest of
        // all (`Sim::run_batches` pops it). A port driven outside `Sim` has no slot: nothing
        // to prune or stop at.
        if self.slot == NO_SLOT {
            return horizon;
        }
        let started = world.sched.key(self.slot);
        self.congestion.prune_logs(started, &mut world.levels, &mut world.shares);
        if self.congestion.reading() {
            self.first_read_after(started, horizon, world)
        } else {
            horizon
        }
    }

    /// The key of the first backward RM cell in the inputs that reads a level log and is taken
    /// into account after `started` (the batch's start) and before `horizon`; else `horizon`.
    fn first_read_after(&self, started: Time, horizon: Time, world: &World) -> Time {
        let mut first = horizon;
        for &f in &self.inputs {
            for &(t, cell) in world.fifos[f as usize].iter() {
                // A cell's key is at or after its time, and later cells' keys are no earlier: a
                // time at or past `first` ends the input, and only a reading RM cell's key is
                // needed (under a slot grid a division).
                if t >= first {
                    break;
                }
                if cell.flags & (F_RM | F_BACKWARD) == F_RM | F_BACKWARD
                    && self.congestion.reads(cell.vc as usize)
                {
                    let k = self.merge.key(t);
                    if k >= first {
                        break;
                    }
                    if k > started {
                        first = k;
                        break;
                    }
                }
            }
        }
        first
    }

    /// Process every arrival and departure before `stop`.
    #[inline(always)]
    fn process(&mut self, stop: Time, world: &mut World) -> u64 {
        let mut events = 0;
        loop {
            let (ta, _) = self.merge.peek();
            let td = if self.queued <= self.stall_floor { NEVER } else { self.clock.next() };
            // Arrivals first on ties: a cell arriving at a slot boundary may leave in that slot.
            if ta <= td {
                if ta >= stop {
                    break;
                }
                let (_, cell) = self.merge.pop(&mut world.fifos, &self.inputs);
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

    /// `process` for a port committing its departures (`net/commit.rs`): only arrivals are
    /// events of the loop; each accepted cell is sent at once, unless its slot is at or after
    /// the end of the run (then it and every cell behind it wait in `queue`).
    fn process_committing(&mut self, stop: Time, world: &mut World) -> u64 {
        if Port::merging_lean(self) {
            self.process_committing_as::<MERGING_PORT>(stop, world)
        } else {
            self.process_committing_as::<ANY_PORT>(stop, world)
        }
    }

    /// `process_committing`, its arrivals by `enqueue_as::<KIND>` (`ANY_PORT`: `enqueue`).
    #[inline(always)]
    fn process_committing_as<const KIND: u8>(&mut self, stop: Time, world: &mut World) -> u64 {
        let mut events = if self.queued > self.pending() { self.release_held(world) } else { 0 };
        loop {
            let (mut ta, i) = self.merge.peek();
            if ta >= stop {
                break;
            }
            // The earliest input's cells before the runner-up's, in a row (as `process_plain`
            // reads them), the merge told once at the end of the run.
            let (f, until) = (self.inputs[i] as usize, self.merge.run_until().min(stop));
            loop {
                let Some((_, cell)) = world.fifos[f].pop() else { unreachable!("the head was read") };
                self.retire(ta, &mut world.levels);
                // A no-op unless the port is idle at `ta` (as in `process`): the first free
                // slot of a busy port is after a departure not yet retired, so after `ta`.
                self.clock.align(ta);
                let sent = self.stats.cells_out();
                if KIND == MERGING_PORT {
                    self.enqueue_as::<MERGING_PORT>(ta, cell, world);
                } else {
                    self.enqueue(ta, cell, world);
                }
                events += 1 + (self.stats.cells_out() - sent);
                ta = self.merge.lone_key(&world.fifos[f]);
                if ta >= until {
                    break;
                }
            }
            self.merge.ran(ta);
        }
        events
    }

    /// `process_plain` at a keyed port whose hooks act, out of line: the batch loop inlines
    /// the paths of the ports without hooks (most), and a fourth path in line there cost
    /// them up to 0.8 % (register allocation across `advance`).
    #[inline(never)]
    fn process_plain_hooked(&mut self, stop: Time, world: &mut World) -> u64 {
        if self.plan.count_only {
            self.process_plain::<true, true>(stop, world)
        } else {
            self.process_plain::<true, false>(stop, world)
        }
    }

    /// `process_committing` at a plain port (`enqueue_plain`).
    fn process_plain<const HOOKED: bool, const COUNT: bool>(&mut self, stop: Time, world: &mut World) -> u64 {
        let mut events = if self.queued > self.pending() { self.release_held(world) } else { 0 };
        // Events: each arrival, and each departure committed (counted once, at the end).
        let ch = self.channel as usize;
        let (out, on_wire) = (self.stats.cells_out(), world.channels[ch].cells);
        if let Some(f) = InputMerge::lone(&self.inputs) {
            // One input (most ports): its FIFO is the merge, read without the heap.
            if COUNT && self.plan.train && Port::holds_train(&world.fifos[f], stop) {
                // Several VCs: trains across VCs too (`vc_train.rs`).
                events += if self.plan.vc_train {
                    self.lone_vc_trains(f, stop, world)
                } else {
                    self.lone_trains(f, stop, world)
                };
            }
            loop {
                let ta = self.merge.lone_key(&world.fifos[f]);
                if ta >= stop {
                    self.merge.set_lone(ta);
                    break;
                }
                let Some((_, cell)) = world.fifos[f].pop() else { unreachable!("the head was read") };
                self.arrive_plain_as::<HOOKED, COUNT>(ta, cell, world);
                events += 1;
            }
        } else {
            self.merge.rebuild(&world.fifos, &mut world.sched.marks, &self.inputs);
            // The input of the run before (`usize::MAX`: none in this batch, or a pass).
            let mut prev = usize::MAX;
            let rotating = self.merge.arbitration == Arbitration::Rotating;
            loop {
                // A slot grid: the merge's cells in one pass (`slotted.rs`) up to one it leaves
                // to the per-cell path, which takes it in the run below.
                if COUNT && self.plan.slotted && self.clock.next() < self.commit_end {
                    events += self.slotted_pass(stop, world);
                }
                let (mut ta, i) = self.merge.peek();
                if ta >= stop {
                    break;
                }
                // The earliest input's cells before the runner-up's come next, in a row, read
                // as a lone input's; the merge is told once at the end of the run.
                let (f, until) = (self.inputs[i] as usize, self.merge.run_until().min(stop));
                let e0 = events;
                loop {
                    // Four or more cells left in the run: the VC's cells at its head, at a busy
                    // count-only port, in a pass (`busy.rs`; on a shorter run the pass's set-up
                    // costs more than it saves). Most runs here are one or two cells, whose end
                    // is too close to their head for four cells of any link (`pass_span`): told
                    // without reading the FIFO.
                    if COUNT
                        && until.saturating_sub(ta) > self.pass_span
                        && world.fifos[f].time_at(3).is_some_and(|t| t < until)
                    {
                        events += self.busy_pass(f, until, world);
                        ta = self.merge.lone_key(&world.fifos[f]);
                        if ta >= until {
                            break;
                        }
                    }
                    let Some((_, cell)) = world.fifos[f].pop() else { unreachable!("the head was read") };
                    self.arrive_plain_as::<HOOKED, COUNT>(ta, cell, world);
                    events += 1;
                    ta = self.merge.lone_key(&world.fifos[f]);
                    if ta >= until {
                        break;
                    }
                }
                self.merge.ran(ta);
                // A run cut by a tie (another input's cell at the same instant, as where the
                // transmitters share one slot grid): the inputs interleave from here, one cell
                // each, taken in merge order in one pass (`interleave.rs`) up to a cell it
                // leaves to the per-cell path or a run long enough for a busy pass.
                if COUNT && ta == until {
                    if self.plan.interleave {
                        events += self.interleaved_pass(stop, world);
                    }
                    prev = usize::MAX;
                } else if COUNT
                    && self.plan.paired
                    && rotating
                    && events == e0 + 1
                    && prev != i
                    && prev != usize::MAX
                    && {
                        let (h, j) = self.merge.peek();
                        j == prev && h < stop
                    }
                {
                    // A one-cell run of another input between two runs of the head's, at
                    // distinct instants (sources sending at once on independent slot grids):
                    // the two inputs' cells without the heap while they alternate. (Entered
                    // after longer runs too, it costs more than it saves on the bench cases.)
                    events += self.paired_pass((prev, i), stop, world);
                    prev = usize::MAX;
                } else {
                    prev = i;
                }
            }
        }
        // Each departure of the batch is a cell on the channel: those of control cells were
        // counted there by `World::transmit`, the fast path's were not.
        let sent = self.stats.cells_out() - out;
        world.channels[ch].cells = on_wire + sent;
        events + sent
    }

    /// An arrival at `ta` at a plain port: the committed departures before it leave, an idle
    /// transmitter moves to the first slot from `ta`, and the cell is taken.
    #[inline(always)]
    fn arrive_plain(&mut self, ta: Time, cell: Cell, world: &mut World) {
        // Only a port taking trains calls it, which counts only.
        self.arrive_plain_as::<false, true>(ta, cell, world);
    }

    /// `arrive_plain`, at a keyed port with hooks if `HOOKED`.
    #[inline(always)]
    fn arrive_plain_as<const HOOKED: bool, const COUNT: bool>(
        &mut self,
        ta: Time,
        cell: Cell,
        world: &mut World,
    ) {
        self.retire_as::<HOOKED, COUNT>(ta, &mut world.levels);
        self.clock.align(ta);
        self.enqueue_plain::<HOOKED, COUNT>(ta, cell, world);
    }

    /// Cells held back at the end of an earlier run (their slots were at or after its end):
    /// commit those whose slots come before this run's end, in order. Called only when some
    /// are held (once per run, at most, apart from the batches of its end).
    #[cold]
    #[inline(never)]
    fn release_held(&mut self, world: &mut World) -> u64 {
        let mut sent = 0;
        while self.queued > self.pending() && self.clock.next() < self.commit_end {
            let cell = self.queue.pop(|_| true).expect("held cells are queued");
            self.commit(self.clock.next(), cell, world);
            sent += 1;
        }
        sent
    }

    pub fn next_key(&self, world: &World) -> Time {
        self.key_from(self.merge.key(world.earliest(&self.inputs).0))
    }

    /// `next_key` right after `advance`: the batch's merge holds the head of every input (no
    /// other component ran meanwhile), so the earliest arrival is its top, without a scan.
    #[inline]
    pub fn key_after_batch(&self) -> Time {
        self.key_from(self.merge.peek().0)
    }

    /// The key with the next arrival (as the merge orders it) at `ta`.
    #[inline]
    fn key_from(&self, ta: Time) -> Time {
        if self.plan.keyed {
            return self.keyed_key_from(ta);
        }
        // Committed departures are not work to do: only cells still queued are.
        if self.queued <= self.stall_floor + self.pending() {
            ta
        } else {
            ta.min(self.clock.next())
        }
    }

    /// `key_from` at a keyed port, out of line (in line, it cost the other ports' keys: the
    /// benchmark's batches end with one).
    #[inline(never)]
    fn keyed_key_from(&self, ta: Time) -> Time {
        // The next arrival, the next departure not committed, and the committed departure that
        // first takes a published level out of its band: the others move nothing a reader
        // reads (`net/level_log.rs`), and are retired with the next batch.
        let held = if self.queued > self.pending() { self.clock.next() } else { NEVER };
        ta.min(self.leaving_slot()).min(held)
    }

    /// The slot of the committed departure that first takes the published level out of its
    /// band, no cell arriving before it (`NEVER`: none does).
    #[inline]
    fn leaving_slot(&self) -> Time {
        match self.congestion.departures_to_leave(self.shared_level()) {
            Some(k) if self.plan.count_only => self.run.slot_of(k - 1, &self.clock),
            Some(k) => self.committed.slot_of(k - 1),
            None => NEVER,
        }
    }

    /// Close the time integrals and take the last trace samples at the end of the run.
    pub fn finish(&mut self, end: Time) {
        // A keyed port's key kept the departure that leaves its band: any before the end
        // happened in a batch, so no level move is left to log here.
        debug_assert!(!self.plan.keyed || self.leaving_slot() >= end);
        self.retire(end, &mut []);
        for v in &mut self.vcs {
            // The time in the buffer of the cells committed on arrival at a count-only port:
            // the class's, and the port's (not added per cell, `enqueue_plain`).
            let sojourn = std::mem::take(&mut v.sojourn);
            self.classes[v.class as usize].pass(sojourn);
            self.stats.stayed(sojourn);
        }
        self.stats.close(end, self.queue_len());
        if end >= self.next_sample {
            self.sample(end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abr::Feedback;
    use crate::cell::CellFifo;
    use crate::cell::{rm, VcId, F_EOF};
    use crate::conformance::FGcra;
    use crate::frame::{Frame, FrameSlab};
    use crate::net::{feedback_of, with_feedback, LevelLog};
    use crate::net::{Channel, Sched, NO_CAPTURE};
    use crate::sched::RoundRobin;
    use crate::time::{CellPeriod, PS_PER_US};

    /// A port with capacity `k` whose output goes nowhere (only enqueue is exercised).
    pub(super) fn fixture(k: u32, policy: Policy) -> (Port, World) {
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
            route: crate::net::identity_route(4, 0),
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
        assert_eq!(p.stats.drops(DropReason::Overflow), 3);
        assert_eq!(p.stats.frames_dropped(), 1);
        assert_eq!(p.stats.cells_in(), 13);
    }

    #[test]
    fn ppd_drops_the_rest_of_the_frame_but_keeps_its_eof() {
        let (mut p, mut w) = fixture(10, Policy::Ppd);
        offer(&mut p, &mut w, 0, 0, 9);
        // One cell fits; the second overflows; the rest go to PPD.
        p.enqueue(0, Cell { frame: 1, vc: 1, flags: 0 }, &mut w);
        p.enqueue(0, Cell { frame: 1, vc: 1, flags: 0 }, &mut w);
        assert_eq!(p.stats.drops(DropReason::Overflow), 1);
        // Room again: PPD still refuses the middle of the damaged frame...
        p.dequeue(&mut w);
        p.dequeue(&mut w);
        p.enqueue(0, Cell { frame: 1, vc: 1, flags: 0 }, &mut w);
        assert_eq!(p.stats.drops(DropReason::PartialPacket), 1);
        // ...but lets its EOF cell through to delimit the frame.
        let q = p.queue_len();
        p.enqueue(0, Cell { frame: 1, vc: 1, flags: F_EOF }, &mut w);
        assert_eq!(p.queue_len(), q + 1);
        // The next frame on the VC starts clean.
        assert_eq!(offer(&mut p, &mut w, 1, 2, 1), 1);
        assert_eq!(p.stats.frames_dropped(), 1);
    }

    #[test]
    #[should_panic(expected = "a port's VCs set with cells in its buffer")]
    fn vcs_are_not_reset_under_queued_cells() {
        // The spaced path reads a queued cell's VC entry unchecked: the table it was indexed
        // in must outlive the cell.
        let (mut p, mut w) = fixture(10, Policy::TailDrop);
        offer(&mut p, &mut w, 0, 0, 2);
        p.set_labels(Labels::identity(1));
    }

    #[test]
    #[should_panic(expected = "a VC's class past the port's classes")]
    fn a_class_past_the_port_s_classes_is_refused() {
        let (mut p, _) = fixture(10, Policy::TailDrop);
        let n = p.vcs.len();
        p.configure(Queue::fifo(), vec![1; n], vec![VcPolicy::default()], Rng::stream(0, "t"), false);
    }

    #[test]
    fn epd_refuses_whole_frames_above_the_threshold() {
        let (mut p, mut w) = fixture(20, Policy::Epd { threshold: 5 });
        assert_eq!(offer(&mut p, &mut w, 0, 0, 6), 6); // started below the threshold: all in
        assert_eq!(offer(&mut p, &mut w, 1, 1, 4), 0); // X = 6 > 5: whole frame, EOF included
        assert_eq!(p.stats.drops(DropReason::EarlyPacket), 1);
        assert_eq!(p.stats.drops(DropReason::PartialPacket), 3);
        assert_eq!(p.stats.frames_dropped(), 1);
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
        assert_eq!(p.stats.drops(DropReason::Fba), 1);
        assert_eq!(offer(&mut p, &mut w, 1, 2, 2), 2, "an idle VC is below any share");
    }

    /// A port on a 1 us cell grid with three cells of VC 0 and one of VC 1 queued at time 0,
    /// traced every 2 us until 9 us, advanced to 9 us in steps of `step`.
    fn traced(step: Time) -> PortTrace {
        let (_, mut w) = fixture(10, Policy::TailDrop);
        let period = CellPeriod::from_cells_per_s(1_000_000);
        let mut p = Port::new("p".into(), 0, SlotClock::new(period), 10, Policy::TailDrop, 4);
        let mut tr = PortTrace::new(2 * PS_PER_US, 9 * PS_PER_US, period, true, true);
        tr.watch_vcs(vec![0, 1], vec![0, 1]);
        tr.watch_arrivals(vec![1, 0], vec![1, 0]);
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
        // Arrival rates in cells/s over each 2 us interval, in the order asked for.
        assert_eq!(tr.arrival_rate, [vec![0.5e6, 0.0, 0.0, 0.0], vec![1.5e6, 0.0, 0.0, 0.0]]);
        // However the run is cut into batches, the samples are the same.
        for step in [1, 999_999, PS_PER_US, 2 * PS_PER_US, 3 * PS_PER_US + 7] {
            let other = traced(step);
            assert_eq!((&other.t, &other.cells, &other.util), (&tr.t, &tr.cells, &tr.util), "step {step}");
            assert_eq!(other.arrival_rate, tr.arrival_rate, "step {step}");
        }
    }

    #[test]
    fn arrival_rates_count_refused_cells_too() {
        // What a source offers the switch: a cell counts on arrival, whether or not the buffer
        // takes it (Bonaventure measures the privileged source's arrival rate at the bottleneck).
        let (_, mut w) = fixture(10, Policy::TailDrop);
        let period = CellPeriod::from_cells_per_s(1_000_000);
        let mut p = Port::new("p".into(), 0, SlotClock::new(period), 2, Policy::TailDrop, 4);
        let mut tr = PortTrace::new(4 * PS_PER_US, 4 * PS_PER_US, period, false, false);
        tr.watch_arrivals(vec![0], vec![0]);
        p.start_trace(tr);
        assert_eq!(offer(&mut p, &mut w, 0, 0, 6), 2);
        p.advance(4 * PS_PER_US, &mut w);
        p.finish(4 * PS_PER_US);
        assert_eq!(p.trace.take().unwrap().arrival_rate, [vec![1.5e6]]);
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
        assert_eq!(p.stats.drops(DropReason::Lbo), 1);
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
        assert_eq!(p.staging.held, 1, "the third VC 0 cell waits for its frame's EOF");
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
        assert_eq!(p.stats.efci_marked(), 4);
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
        assert_eq!(p.stats.drops(DropReason::Overflow), 1, "full: dropped as overflow");
        assert_eq!((p.stats.frames_dropped(), w.frames.live()), (0, live), "no frame touched");
        assert_eq!((p.stats.cells_in(), p.stats.rm_cells()), (3, 3));
        // A credit cell is consumed, never queued, and counted apart.
        p.enqueue(0, Cell { frame: 10, vc: 1, flags: F_CREDIT }, &mut w);
        assert_eq!((p.queue_len(), p.stats.cells_in(), p.stats.credit_cells_in()), (2, 3, 1));
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
        let mut log = LevelLog::new(Increase);
        log.push(100, Keep);
        log.push(200, Decrease);
        w.levels.push(log);
        p.read_level(0, 4, 0);
        assert_eq!(backward_rm(50, &mut p, &mut w, Increase), Increase);
        assert_eq!(backward_rm(50, &mut p, &mut w, Keep), Keep, "never more optimistic");
        assert_eq!(backward_rm(150, &mut p, &mut w, Increase), Keep);
        assert_eq!(backward_rm(250, &mut p, &mut w, Keep), Decrease);
        assert_eq!(p.stats.rm_feedback_raised(), 2);
        // Forward RM cells are left alone.
        p.enqueue(250, Cell { frame: 0, vc: 0, flags: F_RM }, &mut w);
        assert_eq!(feedback_of(p.queue.pop(|_| true).unwrap().frame), Increase);
    }

    #[test]
    fn forward_port_publishes_each_band_change_with_its_time() {
        use Feedback::*;
        let (mut p, mut w) = fixture(100, Policy::TailDrop);
        w.levels.push(LevelLog::new(Increase));
        p.publish_level(0, 2, 4);
        // The cells are offered straight to `enqueue`, so no departure happens between them; the
        // batch loop would have started the idle transmitter at the first arrival, so start it
        // after the last one here (the log is written in time order: a departure at slot 0
        // would come after the arrivals' entries).
        p.clock.align(60);
        for t in 1..=5 {
            p.enqueue(t * 10, Cell { frame: t as u32, vc: 0, flags: F_EOF }, &mut w);
        }
        // x = 2 at 20 (T_l): Keep; x = 5 at 50 (> T_h): Decrease.
        let l = &w.levels[0];
        assert_eq!(l.len(), 3);
        // In force from each instant on: read just after it.
        assert_eq!([l.at(20), l.at(21), l.at(50), l.at(51)], [Increase, Keep, Keep, Decrease]);
        p.advance(PS_PER_US * 100, &mut w);
        // Emptied: back to Increase after the departure that left one cell.
        let l = &w.levels[0];
        assert_eq!(l.at(PS_PER_US * 100), Increase);
        assert_eq!(l.len(), 5, "Keep at x = 4, Increase at x = 1");
    }

    /// An EPD port with a 40-cell buffer on a 1 us grid, and its input (FIFO 1) holding frames
    /// of 1 to 12 cells on VCs 0-3 in bursts faster than the line, with idle gaps, until `until`.
    fn busy_port(until: Time) -> (Port, World) {
        busy_port_with(until, Policy::Epd { threshold: 25 })
    }

    /// `busy_port` under `policy`.
    fn busy_port_with(until: Time, policy: Policy) -> (Port, World) {
        let (_, mut w) = fixture(40, policy);
        let period = CellPeriod::from_cells_per_s(1_000_000);
        let mut p = Port::new("p".into(), 0, SlotClock::with_phase(period, 333), 40, policy, 4);
        w.fifos.push(CellFifo::new(0));
        p.inputs.push(1);
        let mut rng = Rng::stream(7, "arrivals");
        let mut t: Time = 0;
        while t < until {
            let vc = (rng.next_u64() % 4) as VcId;
            let n = 1 + (rng.next_u64() % 12) as u32;
            let frame = w.frames.insert(Frame { ncells: n, alive: n, ..Default::default() });
            for i in 0..n {
                t += if i == 0 { rng.next_u64() % (3 * PS_PER_US) } else { 300_000 };
                let flags = if i + 1 == n { F_EOF } else { 0 };
                w.fifos[1].push(t, Cell { frame, vc, flags });
            }
        }
        (p, w)
    }

    /// Run `p` from `from` to `to` in batches of `step`, committing its departures or not.
    fn run_port(p: &mut Port, w: &mut World, commit: bool, from: Time, to: Time, step: Time) {
        p.commit_until(if commit { to } else { crate::net::NO_COMMIT }, w);
        let mut now = from;
        while now < to {
            now = (now + step).min(to);
            p.advance(now, w);
        }
        p.finish(to);
    }

    #[test]
    fn committed_departures_leave_the_same_cells_in_the_same_slots() {
        let end = 400 * PS_PER_US;
        let (mut reference, mut rw) = busy_port(end + 50 * PS_PER_US);
        run_port(&mut reference, &mut rw, false, 0, end, PS_PER_US);
        assert!(reference.stats.cells_dropped() > 0 && reference.stats.cells_out() > 200, "a busy port");
        for step in [PS_PER_US, 7 * PS_PER_US + 3, end] {
            let (mut p, mut w) = busy_port(end + 50 * PS_PER_US);
            run_port(&mut p, &mut w, true, 0, end, step);
            let (a, b): (Vec<_>, Vec<_>) = (w.fifos[0].iter().collect(), rw.fifos[0].iter().collect());
            assert_eq!(a, b, "step {step}: cells and times on the wire");
            let s = (
                p.stats.drops_by_reason(),
                p.stats.cells_in(),
                p.stats.cells_out(),
                p.stats.max_queue(),
                p.stats.queue_area(),
            );
            let r = &reference.stats;
            assert_eq!(
                s,
                (r.drops_by_reason(), r.cells_in(), r.cells_out(), r.max_queue(), r.queue_area()),
                "step {step}"
            );
            assert_eq!((p.queue_len(), p.active), (reference.queue_len(), reference.active));
            let areas = |p: &Port| p.classes.iter().map(|c| (c.y, c.area(end))).collect::<Vec<_>>();
            assert_eq!(areas(&p), areas(&reference));
            assert_eq!(p.pending(), 0, "every committed departure retired at the end");
        }
    }

    #[test]
    fn the_plain_fast_path_matches_the_per_cell_path_under_every_policy() {
        // Every policy on the busy port, committing through `enqueue_plain` against the per-cell
        // reference: drops by reason, frames, wire, integrals and per-class state all equal.
        // With four classes, and with the four VCs in one class (count-only under every policy:
        // the class's occupancy is the port's).
        for one_class in [false, true] {
            plain_fast_path_matches(one_class);
        }
    }

    fn plain_fast_path_matches(one_class: bool) {
        let end = 300 * PS_PER_US;
        let policies = [
            Policy::TailDrop,
            Policy::Ppd,
            Policy::Epd { threshold: 20 },
            Policy::SelectiveDrop { r: 10, z: 0.8 },
            Policy::Fba { r: 10, z: 0.8 },
            Policy::FifoGfr { lbo: 15, hbo: 30 },
            Policy::WfqGfr { lbo: 15, hbo: 30 },
            Policy::Dfba { r: 10, z: 0.8 },
            Policy::ThresholdDrop,
        ];
        for policy in policies {
            let setup = |p: &mut Port| {
                let vc = |t| VcPolicy { threshold: t, weight: 0.25, ..Default::default() };
                let (class, policies) = if one_class {
                    (vec![0; 4], vec![vc(12)])
                } else {
                    (vec![0, 1, 2, 3], vec![vc(4), vc(8), vc(6), vc(10)])
                };
                p.configure(Queue::fifo(), class, policies, Rng::stream(3, "d"), false);
            };
            let (mut reference, mut rw) = busy_port_with(end + 50 * PS_PER_US, policy);
            setup(&mut reference);
            run_port(&mut reference, &mut rw, false, 0, end, PS_PER_US);
            let (mut p, mut w) = busy_port_with(end + 50 * PS_PER_US, policy);
            setup(&mut p);
            p.commit_until(end, &w);
            assert!(p.plan.plain, "{policy:?}: the fast path is taken");
            assert_eq!(p.plan.count_only, one_class || !policy.reads_vc_occupancy());
            run_port(&mut p, &mut w, true, 0, end, 5 * PS_PER_US + 1);
            let name = policy.name();
            assert!(reference.stats.cells_dropped() > 0, "{name}: the buffer overflows");
            assert_eq!(
                w.fifos[0].iter().collect::<Vec<_>>(),
                rw.fifos[0].iter().collect::<Vec<_>>(),
                "{name}"
            );
            assert_eq!(w.channels[0].cells, rw.channels[0].cells, "{name}");
            let s = |p: &Port| {
                let c = &p.stats;
                (
                    c.drops_by_reason(),
                    c.frames_dropped(),
                    c.cells_in(),
                    c.cells_out(),
                    c.max_queue(),
                    c.queue_area(),
                    p.active,
                )
            };
            assert_eq!(s(&p), s(&reference), "{name}");
            let areas = |p: &Port| p.classes.iter().map(|c| (c.y, c.area(end))).collect::<Vec<_>>();
            assert_eq!(areas(&p), areas(&reference), "{name}");
        }
    }

    #[test]
    fn a_keyed_port_writes_the_per_cell_level_log_and_keys_each_band_change() {
        // The busy port publishing its band (T_l 20, T_h 26 of its 40 cells), cell by cell and
        // committing keyed, in the same batches: the same cells on the wire, the same band
        // changes at the same times; after every batch the keyed port's key is never past the
        // per-cell path's next band change (a reader would miss it), and never before the
        // per-cell path's own key (it skips only departures that leave the band as it is).
        // Under EPD the keyed port counts its departures only (`CommittedRun`: the slot of the
        // one leaving the band is counted from the first); under FBA, which reads per-VC
        // occupancy, it keeps them in the ring.
        for policy in [Policy::Epd { threshold: 25 }, Policy::Fba { r: 1, z: 0.5 }] {
            keyed_port_logs_as_the_per_cell_path(policy);
        }
    }

    fn keyed_port_logs_as_the_per_cell_path(policy: Policy) {
        let end = 400 * PS_PER_US;
        let run = |keyed: bool, plain: bool, step: Time| {
            let (mut p, mut w) = busy_port_with(end + 50 * PS_PER_US, policy);
            if !plain {
                // Counting arrivals per VC (as a trace would) keeps the port off `enqueue_plain`.
                p.vc_arrivals = vec![0; 4];
            }
            w.levels.push(LevelLog::new(Feedback::Increase));
            p.publish_level(0, 20, 26);
            p.set_efci_threshold(10);
            if keyed {
                p.commit_keyed_until(end, &w);
                assert!(p.plan.keyed && p.commit_end == end, "a FIFO port with level and EFCI hooks commits");
                assert_eq!(p.plan.plain, plain);
                assert_eq!(p.plan.count_only, matches!(policy, Policy::Epd { .. }));
            } else {
                p.commit_until(crate::net::NO_COMMIT, &w);
            }
            let (mut now, mut keys) = (0, Vec::new());
            while now < end {
                now = (now + step).min(end);
                p.advance(now, &mut w);
                keys.push((now, p.key_after_batch()));
            }
            p.finish(end);
            let wire: Vec<(Time, Cell)> = w.fifos[0].iter().map(|&(t, c)| (t, c)).collect();
            (
                wire,
                w.levels[0].changes(),
                keys,
                p.stats.efci_marked(),
                p.stats.queue_area(),
                p.stats.drops_by_reason(),
            )
        };
        for (step, plain) in
            [PS_PER_US, 7 * PS_PER_US + 3, 40 * PS_PER_US].into_iter().zip([true, false, true])
        {
            let (reference, keyed) = (run(false, plain, step), run(true, plain, step));
            assert!(
                reference.1.len() > 20 && reference.3 > 0,
                "the band moves often, EFCI marks: {} {}",
                reference.1.len(),
                reference.3
            );
            assert_eq!(keyed.0, reference.0, "{policy:?} step {step}: cells and times on the wire");
            assert_eq!(keyed.1, reference.1, "{policy:?} step {step}: band changes");
            let mut skipped = 0;
            for (&(now, k), &(_, r)) in keyed.2.iter().zip(&reference.2) {
                let next_change = reference.1.iter().map(|&(t, _)| t).find(|&t| t >= now).unwrap_or(NEVER);
                assert!(
                    k <= next_change.max(now),
                    "{policy:?} step {step}, at {now}: key {k} past the change at {next_change}"
                );
                assert!(k >= r, "{policy:?} step {step}, at {now}: key {k} before the per-cell path's {r}");
                skipped += usize::from(k > r);
            }
            assert!(skipped > 0, "{policy:?} step {step}: some departure left out of the key");
            assert_eq!(
                (keyed.3, keyed.4, keyed.5),
                (reference.3, reference.4, reference.5),
                "{policy:?} step {step}"
            );
        }
    }

    #[test]
    fn cells_due_at_or_after_the_end_wait_and_go_in_the_next_run() {
        // A run to 200 us leaves cells queued (their slots are after it) and sends none past
        // it; the next run to 400 us sends them in order, as one run to 400 us does.
        let (half, end) = (200 * PS_PER_US, 400 * PS_PER_US);
        let (mut whole, mut ww) = busy_port(end + 50 * PS_PER_US);
        run_port(&mut whole, &mut ww, true, 0, end, 3 * PS_PER_US);
        let (mut p, mut w) = busy_port(end + 50 * PS_PER_US);
        run_port(&mut p, &mut w, true, 0, half, 3 * PS_PER_US);
        assert!(p.queue_len() > 0 && p.pending() == 0, "cells held at the end, none committed");
        let latency = w.channels[0].latency;
        assert!(w.fifos[0].iter().all(|&(at, _)| at - latency < half), "nothing sent in a slot past the end");
        let sent_half = w.fifos[0].len();
        run_port(&mut p, &mut w, true, half, end, 3 * PS_PER_US);
        assert!(w.fifos[0].len() > sent_half);
        let (a, b): (Vec<_>, Vec<_>) = (w.fifos[0].iter().collect(), ww.fifos[0].iter().collect());
        assert_eq!(a, b);
        assert_eq!(
            (p.stats.cells_out(), p.stats.queue_area()),
            (whole.stats.cells_out(), whole.stats.queue_area())
        );
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
        assert_eq!((p.stats.credit_cells_in(), p.credit_balance(0)), (1, Some(0)));
    }

    #[test]
    fn a_credit_cell_with_the_count_every_n2_cells_sent() {
        let (mut p, mut w) = fixture(100, Policy::TailDrop);
        w.fifos.push(CellFifo::new(0));
        p.count_credit(0, 4, FcvcHop::new(3, 4, 0, 1, 0));
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
        assert_eq!(p.stats.credit_cells_out(), 2);
        let h = p.fcvc_hop(0).unwrap();
        assert_eq!((h.y, h.max_y), (0, 7));
    }
}
