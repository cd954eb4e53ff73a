//! The host adapter: AAL5 segmentation and the cell scheduler in front of the access link.
//!
//! Frames of plain VCs (no shaping, no rate or credit control) wait in one FIFO and leave at
//! the line rate, cell after cell, as a simple SAR chip sends them. A VC with a source control
//! gets its own queue:
//!
//! - GCRA shaping (the CLASS study, section 2): cells are delayed, never dropped, to conform to
//!   GCRA(T, tau) in its virtual-scheduling form: a cell may leave at t >= TAT - tau, and then
//!   TAT <- max(TAT, t) + T (ITU-T I.371 annex 1).
//! - PRCA (the credit/rate study, II.A): the same pacing with T = 1 / ACR, ACR moved by the
//!   [`Prca`] state machine; an RM cell after every NRM data cells.
//! - Adaptive shaping (the CLASS study, section 2.1): T = N_S cell times of the access link,
//!   N_S moved by one per returning RM cell; an RM cell (feedback IR) after every N_RM data cells.
//! - FCVC (the credit/rate study, II.B): a cell leaves only with credit for the next hop's
//!   per-VC buffer.
//!
//! At each slot the adapter sends, in this order: an RM cell being returned to its source
//! (the destination's turnaround), then the first ready queue in round-robin order among the
//! plain FIFO and the controlled VCs. The time of the next cell is cached and recomputed only
//! when something changes (a frame, a credit, an RM cell, a departure); so is each controlled
//! VC's own ready time, as an integer, in a tournament tree whose root is the earliest (a host
//! of the credit/rate study paces 14 sources: a departure costs one walk up the tree, not a
//! look at every VC's shaper).

use std::collections::VecDeque;

mod credit_run;
mod fixed_run;
mod paced_run;

use super::World;
use crate::abr::{AdaptiveShaper, CreditSender, Feedback, Prca};
use crate::cell::{rm, Cell, VcId, F_BACKWARD, F_CLP, F_CREDIT, F_EOF, F_RM};
use crate::conformance::AdapterTagger;
use crate::time::{CellPeriod, SlotClock, SlotMark, Time, NEVER};

/// Bits per cell (`time::CELL_BITS`), to turn bit rates of cells into cell periods.
const CELL_BITS: f64 = crate::time::CELL_BITS as f64;
const PS_PER_S: f64 = 1e12;
/// 2^63: below it an f64 converts to i64 and u64 alike.
const I64_BOUND: f64 = 9_223_372_036_854_775_808.0;

/// `VcControl::slot_of` for a plain VC.
const PLAIN: u16 = u16::MAX;

#[derive(Debug, Clone, Copy)]
pub struct TxFrame {
    pub frame: u32,
    pub vc: VcId,
    pub remaining: u32,
    pub flags: u8,
    /// No cell sent yet: the tagging decision is still to come.
    pub fresh: bool,
}

/// The GFR study's adapter tagging for one VC, with its counts.
#[derive(Debug, Clone)]
pub struct VcTagger {
    pub tagger: AdapterTagger,
    pub frames: u64,
    pub tagged: u64,
}

/// GCRA(T, tau) as a shaper on a slotted link, in picoseconds (f64 holds every instant of a run
/// exactly enough: 2^53 ps is over two hours).
///
/// Virtual scheduling (ITU-T I.371 annex A) decides when each cell becomes eligible: at
/// TAT - tau. The link can only start it at the next slot boundary, up to one cell time P of the
/// link later (more if other queues of the adapter hold the slots). The next TAT counts from the
/// theoretical time, not from that slot: TAT <- max(TAT, d - P) + T for a cell that left in the
/// slot starting at d. Counting from d instead (as a naive shaper does) adds the slot rounding to
/// every period: 50 Mb/s on a 155.52 Mb/s link became one cell every 4 slots, 38.88 Mb/s.
///
/// What this guarantees:
/// - Rate: while the VC is backlogged and alone on the adapter, d - P < TAT - tau <= TAT, so TAT
///   advances by exactly T per cell and the long-run rate is 1/T for any T >= P.
/// - Conformance: the departures conform to GCRA(T, tau + P). By induction the checker's
///   TAT' <= TAT + P: TAT'_next = max(TAT', d) + T <= max(TAT, d - P) + P + T = TAT_next + P;
///   and a cell leaves at d >= TAT - tau >= TAT' - (tau + P). The extra P is the cell delay
///   variation the slot grid itself introduces (a spacer cannot place cells between slots); a
///   cell held up by other queues for longer than P gives up the excess (`d - P` wins the max),
///   so contention never lets the VC burst beyond tau + P later.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shaper {
    pub t: f64,
    pub tau: f64,
    tat: f64,
    /// The theoretical departure of the last cell, from which `tat` was counted.
    base: f64,
}

impl Shaper {
    pub fn new(t_ps: f64, tau_ps: f64) -> Self {
        Shaper { t: t_ps, tau: tau_ps, tat: 0.0, base: f64::NEG_INFINITY }
    }

    /// A shaper at `bps` bits per second of cells (53 octets each).
    pub fn at_rate(bps: f64, tau_ps: f64) -> Self {
        Shaper::new(CELL_BITS * PS_PER_S / bps, tau_ps)
    }

    /// The earliest instant the next cell conforms. Truncated to the picosecond: slot starts
    /// are truncated too, so a cell due exactly at a slot's real start is not pushed past it.
    #[inline]
    pub fn earliest(&self) -> Time {
        let e = self.tat - self.tau;
        // `(e).max(0.0) as Time`, through the signed conversion where it is exact (below
        // 2^63): the unsigned one costs twice the instructions on x86-64, once per cell.
        if e <= 0.0 {
            0
        } else if e < I64_BOUND {
            // SAFETY: `e` is in (0, 2^63) (a NaN fails both tests): it truncates to an `i64`.
            // `as` would add its saturation's compares and moves, which LLVM keeps here.
            unsafe { e.to_int_unchecked::<i64>() as Time }
        } else {
            e as Time
        }
    }

    /// A cell left in the slot starting at `at` on a link whose slots last `slot` ps.
    #[inline]
    pub fn sent(&mut self, at: Time, slot: CellPeriod) {
        self.sent_after(at, slot_ps(slot));
    }

    /// [`Shaper::sent`] with the slot's length already as `slot_ps(slot)` (the same value, so
    /// the same TAT, without a division per cell).
    #[inline]
    fn sent_after(&mut self, at: Time, slot_ps: f64) {
        // `self.tat.max(at as f64 - slot_ps)`: the instant through the signed conversion where
        // it is exact (below 2^63, every slot), and the larger without `max`'s NaN handling
        // (the TAT is never NaN: it starts at 0 and grows by finite or infinite periods), a
        // dozen instructions fewer per paced cell, the same value.
        let at = if at < I64_BOUND as Time { at as i64 as f64 } else { at as f64 };
        let d = at - slot_ps;
        self.base = if d > self.tat { d } else { self.tat };
        self.tat = self.base + self.t;
    }

    /// A new rate takes effect at once (an ABR source's rate is allowed now, TM 4.0 5.10.4):
    /// the next cell is due one new period after the last.
    pub fn retune(&mut self, t_ps: f64) {
        self.t = t_ps;
        if self.base.is_finite() {
            self.tat = self.base + t_ps;
        }
    }
}

/// The source's rate control of an ABR-like VC.
#[derive(Debug, Clone)]
pub enum RateControl {
    /// Fixed pacing (or none): the shaper's T never changes.
    Fixed,
    Prca(Prca),
    /// C / N_S with C the access link's cell rate.
    Adaptive {
        shaper: AdaptiveShaper,
        nrm: u32,
        since_rm: u32,
    },
}

/// Counts of a controlled VC at its source.
#[derive(Debug, Clone, Default)]
pub struct VcTxStats {
    pub cells: u64,
    pub rm_sent: u64,
    pub rm_returned: u64,
    /// RM cells that came back with congestion (PRCA CI, or adaptive DR).
    pub rm_congested: u64,
}

/// A VC with its own queue: pacing, rate control, credit.
#[derive(Debug, Clone)]
pub struct ControlledVc {
    pub vc: VcId,
    queue: VecDeque<TxFrame>,
    /// `None`: line rate (a credit-only VC).
    pub shaper: Option<Shaper>,
    pub rate: RateControl,
    pub credit: Option<CreditSender>,
    /// An RM cell goes before the next data cell.
    rm_due: bool,
    pub stats: VcTxStats,
}

impl ControlledVc {
    pub fn new(vc: VcId, shaper: Option<Shaper>, rate: RateControl, credit: Option<CreditSender>) -> Self {
        ControlledVc {
            vc,
            queue: VecDeque::new(),
            shaper,
            rate,
            credit,
            rm_due: false,
            stats: Default::default(),
        }
    }

    /// Does this VC send RM cells (its rate control moves on their return)?
    pub fn sends_rm_cells(&self) -> bool {
        !matches!(self.rate, RateControl::Fixed)
    }

    fn backlogged(&self) -> bool {
        self.rm_due || !self.queue.is_empty()
    }

    /// When this VC could send next (`NEVER` if it has nothing or no credit).
    fn ready_at(&self) -> Time {
        if !self.backlogged() || self.credit.as_ref().is_some_and(|c| !c.can_send()) {
            return NEVER;
        }
        self.shaper.as_ref().map_or(0, Shaper::earliest)
    }

    /// [`ControlledVc::ready_at`] of a VC without credit (a paced run's, `runs_paced`): no
    /// credit to look at.
    #[inline(always)]
    fn paced_ready_at(&self) -> Time {
        debug_assert!(self.credit.is_none());
        if !self.backlogged() {
            return NEVER;
        }
        self.shaper.as_ref().map_or(0, Shaper::earliest)
    }

    /// A data cell left: the rate control's bookkeeping and the shaper's new increment.
    fn after_data_cell(&mut self, link: CellPeriod) {
        match &mut self.rate {
            RateControl::Fixed => {}
            RateControl::Prca(p) => {
                self.rm_due |= p.cell_sent();
                if let Some(s) = &mut self.shaper {
                    s.retune(CELL_BITS * PS_PER_S / p.acr);
                }
            }
            RateControl::Adaptive { shaper, nrm, since_rm } => {
                *since_rm += 1;
                if *since_rm >= *nrm {
                    *since_rm = 0;
                    self.rm_due = true;
                }
                if let Some(s) = &mut self.shaper {
                    s.retune(adaptive_t(shaper, link));
                }
            }
        }
    }

    /// The rate the VC sends at now, in cells per second (what its RM cells declare as CCR):
    /// adaptive C / N_S, PRCA's ACR, else 0.
    fn ccr(&self, link: CellPeriod) -> f64 {
        match &self.rate {
            RateControl::Fixed => 0.0,
            RateControl::Prca(p) => p.acr / CELL_BITS,
            RateControl::Adaptive { shaper, .. } => PS_PER_S / adaptive_t(shaper, link),
        }
    }

    /// A backward RM cell came home with `payload`.
    fn on_rm(&mut self, payload: u32, link: CellPeriod) {
        self.stats.rm_returned += 1;
        match &mut self.rate {
            RateControl::Fixed => {}
            RateControl::Prca(p) => {
                let congested = payload & rm::CI != 0;
                self.stats.rm_congested += u64::from(congested);
                p.rm_returned(congested);
                if let Some(s) = &mut self.shaper {
                    s.retune(CELL_BITS * PS_PER_S / p.acr);
                }
            }
            RateControl::Adaptive { shaper, .. } => {
                let f = feedback_of(payload);
                self.stats.rm_congested += u64::from(f == Feedback::Decrease);
                shaper.on_rm(f);
                if let Some(s) = &mut self.shaper {
                    s.retune(adaptive_t(shaper, link));
                }
            }
        }
    }
}

/// Each controlled VC's ready time (`ControlledVc::ready_at`) at the leaves of a tournament
/// tree whose inner nodes hold the smaller of their children: the earliest of all is the root,
/// and a change costs one walk up (log2 of the VCs), where a scan after every cell cost a look
/// at every VC (14 paced sources at one host in the credit/rate study).
#[derive(Debug, Clone, Default)]
struct ReadyTree {
    /// Node 1 is the root, node k's children are 2k and 2k + 1; the leaves are
    /// `width..width + n` (`width` a power of two, unused leaves `NEVER`); node 0 unused.
    node: Vec<Time>,
    width: usize,
    n: usize,
}

impl ReadyTree {
    /// Room for one more VC, ready at `at`.
    fn push(&mut self, at: Time) {
        let n = self.n + 1;
        if n > self.width {
            let width = n.next_power_of_two();
            let mut node = vec![NEVER; 2 * width];
            node[width..width + self.n].copy_from_slice(self.leaves());
            for k in (1..width).rev() {
                node[k] = node[2 * k].min(node[2 * k + 1]);
            }
            (self.node, self.width) = (node, width);
        }
        self.n = n;
        self.set(n - 1, at);
    }

    #[inline]
    fn set(&mut self, i: usize, at: Time) {
        assert!(i < self.n, "VC {i} of {}", self.n);
        debug_assert_eq!(self.node.len(), 2 * self.width);
        let node = self.node.as_mut_ptr();
        let mut k = self.width + i;
        // SAFETY: `node` has 2 * width entries (`push` makes it so, and nothing else resizes
        // it), width a power of two, and i < n <= width; so k = width + i < 2 * width. In the
        // walk, k ^ 1 differs from k in bit 0 only and 2 * width is even, so k ^ 1 < 2 * width
        // too; and k >> 1 < k. Every index is in bounds. (Checked indexing cost three bounds
        // checks per level of the walk, once per paced cell: 4 % of a credit/rate study run.)
        unsafe {
            *node.add(k) = at;
            while k > 1 {
                let m = (*node.add(k)).min(*node.add(k ^ 1));
                k >>= 1;
                *node.add(k) = m;
            }
        }
    }

    /// The earliest ready time (`NEVER` without VCs).
    #[inline]
    fn min(&self) -> Time {
        self.node.get(1).copied().unwrap_or(NEVER)
    }

    /// The ready times in VC order.
    #[inline]
    fn leaves(&self) -> &[Time] {
        &self.node[self.width..self.width + self.n]
    }
}

/// A slot's length in picoseconds as the shaper counts it.
#[inline]
fn slot_ps(slot: CellPeriod) -> f64 {
    slot.num as f64 / slot.den as f64
}

/// N_S cell times of the access link.
fn adaptive_t(s: &AdaptiveShaper, link: CellPeriod) -> f64 {
    s.n_s as f64 * link.num as f64 / link.den as f64
}

/// The ternary feedback an RM cell carries.
pub fn feedback_of(payload: u32) -> Feedback {
    match (payload & rm::FEEDBACK_MASK) >> rm::FEEDBACK_SHIFT {
        0 => Feedback::Increase,
        1 => Feedback::Keep,
        _ => Feedback::Decrease,
    }
}

/// The payload bits for `f` (other bits kept).
pub fn with_feedback(payload: u32, f: Feedback) -> u32 {
    let code = match f {
        Feedback::Increase => 0,
        Feedback::Keep => 1,
        Feedback::Decrease => 2,
    };
    (payload & !rm::FEEDBACK_MASK) | (code << rm::FEEDBACK_SHIFT)
}

#[derive(Debug)]
pub struct Adapter {
    /// Frames of plain VCs, in FIFO order.
    plain: VecDeque<TxFrame>,
    pub controlled: Vec<ControlledVc>,
    /// Per controlled VC (same index): its `ready_at`, kept current wherever the VC changes
    /// (a frame, a credit, an RM cell, a departure), so that finding the next slot and the
    /// round robin read one integer per VC instead of re-deriving it from the shaper's floats.
    ready: ReadyTree,
    /// `slot_ps` of the clock's period.
    slot_ps: f64,
    /// VC -> index in `controlled`, `PLAIN` otherwise (empty while no VC is controlled).
    slot_of: Vec<u16>,
    /// RM cells turned around at this destination, sent before anything else.
    control: VecDeque<Cell>,
    pub clock: SlotClock,
    pub channel: u32,
    /// Per VC, when the adapter tags (empty if it never does).
    pub taggers: Vec<Option<VcTagger>>,
    /// Round robin: the queue served first next time (0 = the plain FIFO, i + 1 = controlled i).
    rr: usize,
    /// Start of the slot of the next cell (`NEVER`: nothing can go).
    next: Time,
    /// Cells put on the wire by `commit_frame` and not yet counted by the host.
    committed: u64,
    /// The longest slot of the clock: floor(num / den) picoseconds or one more.
    longest: Time,
    /// When `next` is a later slot than the clock's next one (a paced VC not yet eligible):
    /// that slot on the clock's grid, kept from `recompute` so that `send` does not jump again.
    ahead: SlotMark,
}

impl Adapter {
    pub fn new(clock: SlotClock, channel: u32) -> Self {
        let ahead = clock.mark();
        let period = clock.period();
        Adapter {
            ready: ReadyTree::default(),
            slot_ps: slot_ps(period),
            committed: 0,
            longest: period.num.div_ceil(period.den),
            plain: VecDeque::new(),
            controlled: Vec::new(),
            slot_of: Vec::new(),
            control: VecDeque::new(),
            clock,
            channel,
            taggers: Vec::new(),
            rr: 0,
            next: NEVER,
            ahead,
        }
    }

    /// Give `vc` its own controlled queue.
    pub fn control_vc(&mut self, n_vcs: usize, c: ControlledVc) {
        self.slot_of.resize(n_vcs, PLAIN);
        self.slot_of[c.vc as usize] = self.controlled.len() as u16;
        self.ready.push(c.ready_at());
        self.controlled.push(c);
    }

    /// FCVC for `vc`, a controlled VC: it sends only with credit for `buffer` cells downstream.
    pub fn set_credit(&mut self, vc: usize, buffer: u32) {
        let i = self.slot(vc).expect("a controlled VC");
        self.controlled[i].credit = Some(CreditSender::new(buffer));
        self.ready.set(i, self.controlled[i].ready_at());
    }

    pub fn controlled_vc(&self, vc: usize) -> Option<&ControlledVc> {
        self.slot(vc).map(|i| &self.controlled[i])
    }

    /// The index in `controlled` of `vc`'s queue (`None`: a plain VC).
    fn slot(&self, vc: usize) -> Option<usize> {
        match self.slot_of.get(vc) {
            Some(&i) if i != PLAIN => Some(i as usize),
            _ => None,
        }
    }

    /// Start of the slot the next cell leaves in, `NEVER` if none can.
    #[inline]
    pub fn next_send(&self) -> Time {
        self.next
    }

    /// Right after [`Adapter::send`]: when the cell just sent has left entirely (the end of
    /// its slot, where the next slot of the grid starts).
    pub fn last_slot_end(&self) -> Time {
        self.clock.next()
    }

    /// Cells waiting (data cells of queued frames).
    pub fn backlog_cells(&self) -> u64 {
        let queued = |q: &VecDeque<TxFrame>| q.iter().map(|f| f.remaining as u64).sum::<u64>();
        queued(&self.plain) + self.controlled.iter().map(|c| queued(&c.queue)).sum::<u64>()
    }

    /// Recompute `next` after a change at `now` (slots before `now` are gone).
    fn refresh(&mut self, now: Time) {
        self.clock.align(now);
        self.recompute();
    }

    /// Recompute `next` from the clock as it is.
    #[inline]
    fn recompute(&mut self) {
        if self.controlled.is_empty() {
            let idle = self.control.is_empty() && self.plain.is_empty();
            self.next = if idle { NEVER } else { self.clock.next() };
            return;
        }
        if !(self.control.is_empty() && self.plain.is_empty()) {
            self.next = self.clock.next();
            return;
        }
        let ready = self.ready.min();
        self.next = if ready == NEVER {
            NEVER
        } else if ready <= self.clock.next() {
            self.clock.next()
        } else {
            self.ahead = self.clock.align_mark(self.clock.mark(), ready);
            self.ahead.time()
        };
    }

    pub fn push(&mut self, now: Time, f: TxFrame) {
        match self.slot(f.vc as usize) {
            Some(i) => {
                self.controlled[i].queue.push_back(f);
                self.ready.set(i, self.controlled[i].ready_at());
            }
            None => self.plain.push_back(f),
        }
        self.refresh(now);
    }

    /// A control cell for this host's adapter arrived at `now`: a credit, a backward RM cell
    /// for one of its sources, or a forward RM cell to return (`ci`: the destination saw EFCI
    /// on the VC's last data cell).
    pub fn on_control(&mut self, now: Time, cell: Cell, ci: bool) {
        let link = self.clock.period();
        if cell.flags & (F_CREDIT | F_BACKWARD) != 0 {
            if let Some(i) = self.slot(cell.vc as usize) {
                let c = &mut self.controlled[i];
                if cell.flags & F_CREDIT != 0 {
                    if let Some(cr) = &mut c.credit {
                        cr.credit_low32(cell.frame);
                    }
                } else {
                    c.on_rm(cell.frame, link);
                }
                self.ready.set(i, c.ready_at());
            }
        } else {
            // Turnaround (TM 4.0 clause 5.10.5): same VC, DIR = backward, CI from EFCI.
            let payload = if ci { cell.frame | rm::CI } else { cell.frame };
            self.control.push_back(Cell { frame: payload, vc: cell.vc, flags: F_RM | F_BACKWARD });
        }
        self.refresh(now);
    }

    /// Send the next cell in the slot starting at `self.next`.
    pub fn send(&mut self, world: &mut World) -> Cell {
        let slot = self.next;
        if slot > self.clock.next() {
            // `recompute` found this slot on the clock's grid (the same state as aligning
            // again: a slot's index fixes the clock).
            self.clock.set_next(self.ahead);
        }
        debug_assert_eq!(self.clock.next(), slot);
        let cell = if let Some(c) = self.control.pop_front() {
            c
        } else if self.controlled.is_empty() {
            // Only plain VCs (the common case): no round robin to run.
            Self::next_cell(&mut self.plain, &mut self.taggers, slot)
        } else {
            self.pick(slot)
        };
        self.clock.advance();
        world.transmit(self.channel, slot, cell);
        self.recompute();
        cell
    }

    /// Send every cell of the plain FIFO whose slot starts before `end`, frame by frame, and
    /// return how many: what repeated [`Adapter::send`] calls would send in those slots, for an
    /// adapter with plain VCs only, nothing to return (no RM cells) and an uncaptured channel
    /// (the conditions of committing, `net/commit.rs`). A frame's cells share their hop, so the
    /// channel's route is read once per frame, and the receiver is woken once, for the first
    /// cell. Tagging decides at the first cell's slot, as in `send`: that slot is known here.
    pub fn commit_plain(&mut self, end: Time, world: &mut World) -> u64 {
        debug_assert!(self.controlled.is_empty() && self.control.is_empty());
        let mut sent = 0u64;
        let ch = &mut world.channels[self.channel as usize];
        let latency = ch.latency;
        let longest = self.longest;
        // A local copy the loop keeps in registers (the FIFO's stores cannot touch it).
        let mut clock = self.clock.clone();
        while let Some(head) = self.plain.front_mut() {
            let first = clock.next();
            if first >= end {
                break;
            }
            // (Untagged adapters, most, only clear the flag.)
            if head.fresh && !self.taggers.is_empty() {
                Self::start_frame(head, &mut self.taggers, first);
            }
            head.fresh = false;
            let hop = ch.route[head.vc as usize];
            let fifo = &mut world.fifos[hop.fifo as usize];
            let cell = Cell { vc: hop.label, frame: head.frame, flags: head.flags };
            let n = head.remaining;
            world.sched.wake(fifo.owner, first + latency);
            if fifo.is_empty() {
                world.sched.marks.mark(fifo.mark);
            }
            if first.saturating_add(u64::from(n - 1) * longest) < end {
                // The whole frame leaves before `end`: no per-cell test of the end.
                fifo.push_frame(n, &mut clock, latency, cell);
                sent += u64::from(n);
                self.plain.pop_front();
                continue;
            }
            // The end falls within the frame: its cells up to the end, the rest stays queued.
            while clock.next() < end {
                head.remaining -= 1;
                sent += 1;
                if head.remaining == 0 {
                    fifo.push(clock.next() + latency, Cell { flags: cell.flags | F_EOF, ..cell });
                    clock.advance();
                    break;
                }
                fifo.push(clock.next() + latency, cell);
                clock.advance();
            }
            if head.remaining > 0 {
                break;
            }
            self.plain.pop_front();
        }
        self.clock = clock;
        ch.cells += sent;
        self.recompute();
        sent
    }

    /// At a committing host (the conditions of [`Adapter::commit_plain`]) with nothing queued:
    /// put a fresh frame (`n` cells of slab frame `frame` on `vc`, header `flags`), handed over
    /// at `now`, on the wire at once if all of it leaves before `end`, in the slots `push` and
    /// `commit_plain` would give it; false (nothing done) if not, and the frame is to be
    /// pushed. Saves queueing a frame only to take it out again when the event ends. The cells
    /// are counted in `committed` (see `take_committed`). Given by its parts, not as a
    /// `TxFrame`: the caller's frame is not built on the stack to be read back.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn commit_frame(
        &mut self,
        now: Time,
        frame: u32,
        vc: VcId,
        n: u32,
        flags: u8,
        end: Time,
        world: &mut World,
    ) -> bool {
        debug_assert!(self.controlled.is_empty() && self.control.is_empty());
        if !self.plain.is_empty() {
            return false;
        }
        // The clock moved to `now` in line: it is behind `now` for most frames handed over
        // (the adapter idle since its last frame), and out of line the jump's call and the
        // values saved around it cost more than the jump. Kept only if the frame is
        // committed: otherwise `push` aligns the clock the same way.
        let start = self.clock.align_mark_in_line(self.clock.mark(), now);
        let first = start.time();
        if first.saturating_add(u64::from(n - 1) * self.longest) >= end {
            return false;
        }
        let mut flags = flags;
        if !self.taggers.is_empty() {
            flags = self.tag_committed(frame, vc, n, flags, first);
        }
        let ch = &mut world.channels[self.channel as usize];
        let latency = ch.latency;
        let hop = ch.route[vc as usize];
        let fifo = &mut world.fifos[hop.fifo as usize];
        let cell = Cell { vc: hop.label, frame, flags };
        world.sched.wake(fifo.owner, first + latency);
        if fifo.is_empty() {
            world.sched.marks.mark(fifo.mark);
        }
        // A local copy the loop keeps in registers; only the next slot changes.
        let mut clock = self.clock.clone();
        clock.set_next(start);
        if n <= 2 {
            // A bare ACK (two cells): pushed one by one, for less than the frame loop's set-up.
            // (One push in the code, not two: compiled into a caller, the second was called.)
            for k in (0..n).rev() {
                let eof = if k == 0 { F_EOF } else { 0 };
                fifo.push(clock.next() + latency, Cell { flags: flags | eof, ..cell });
                clock.advance();
            }
        } else {
            fifo.push_frame(n, &mut clock, latency, cell);
        }
        self.clock.set_next(clock.mark());
        ch.cells += u64::from(n);
        self.committed += u64::from(n);
        // Nothing queued: no next cell.
        self.next = NEVER;
        true
    }

    /// The tagging decision for a frame committed at its first slot `first`: its flags.
    #[cold]
    #[inline(never)]
    fn tag_committed(&mut self, frame: u32, vc: VcId, n: u32, flags: u8, first: Time) -> u8 {
        let mut f = TxFrame { frame, vc, remaining: n, flags, fresh: true };
        Self::start_frame(&mut f, &mut self.taggers, first);
        f.flags
    }

    /// Plain VCs only and no RM cell to return: what [`Adapter::commit_plain`] can send.
    #[inline]
    pub fn runs_plain(&self) -> bool {
        self.controlled.is_empty() && self.control.is_empty()
    }

    /// Cells `commit_frame` sent since the last call.
    #[inline]
    pub fn take_committed(&mut self) -> u64 {
        std::mem::take(&mut self.committed)
    }

    /// The cell of the first ready queue in round-robin order.
    fn pick(&mut self, slot: Time) -> Cell {
        // Round-robin order from `rr`: controlled VCs rr - 1 to the last, the plain FIFO, then
        // controlled VCs 0 to rr - 2 (with rr = 0: the plain FIFO, then every controlled VC).
        let plain = !self.plain.is_empty();
        let due = |r: &Time| *r <= slot;
        let i = if self.rr == 0 && plain {
            None
        } else if !plain && self.controlled.len() == 1 {
            // The one queue that can be ready (`send` is called for a ready one).
            Some(0)
        } else {
            let from = self.rr.saturating_sub(1);
            let ready = self.ready.leaves();
            match ready[from..].iter().position(due) {
                Some(k) => Some(from + k),
                None if plain => None,
                None => Some(ready[..from].iter().position(due).expect("send called with no ready queue")),
            }
        };
        let Some(i) = i else {
            self.rr = 1;
            return Self::next_cell(&mut self.plain, &mut self.taggers, slot);
        };
        // The queue after controlled VC i (queue i + 1 of controlled.len() + 1).
        self.rr = if i + 1 == self.controlled.len() { 0 } else { i + 2 };
        let c = &mut self.controlled[i];
        c.stats.cells += 1;
        if let Some(s) = &mut c.shaper {
            s.sent_after(slot, self.slot_ps);
        }
        if let Some(cr) = &mut c.credit {
            cr.sent();
        }
        let cell = if c.rm_due {
            c.rm_due = false;
            c.stats.rm_sent += 1;
            Cell { frame: rm::with_ccr(c.ccr(self.clock.period())), vc: c.vc, flags: F_RM }
        } else {
            let cell = Self::next_cell(&mut c.queue, &mut self.taggers, slot);
            c.after_data_cell(self.clock.period());
            cell
        };
        self.ready.set(i, c.ready_at());
        cell
    }

    /// The next cell of the head frame of `queue` (tagging the frame at its first cell).
    #[inline(always)]
    fn next_cell(queue: &mut VecDeque<TxFrame>, taggers: &mut [Option<VcTagger>], slot: Time) -> Cell {
        let head = queue.front_mut().expect("a ready queue has a frame");
        if head.fresh {
            Self::start_frame(head, taggers, slot);
        }
        head.remaining -= 1;
        let mut cell = Cell { vc: head.vc, frame: head.frame, flags: head.flags };
        if head.remaining == 0 {
            cell.flags |= F_EOF;
            queue.pop_front();
        }
        cell
    }

    /// A frame's first cell is about to leave.
    #[inline(never)]
    fn start_frame(head: &mut TxFrame, taggers: &mut [Option<VcTagger>], slot: Time) {
        head.fresh = false;
        // The tagging algorithm decides when a frame's transmission begins, for all of it.
        if let Some(Some(t)) = taggers.get_mut(head.vc as usize) {
            t.frames += 1;
            if !t.tagger.frame(slot, head.remaining) {
                t.tagged += 1;
                head.flags |= F_CLP;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::Gcra;

    fn world(n_vcs: usize) -> World {
        crate::net::one_channel_world(CellPeriod::from_cells_per_s(1_000_000), 1, n_vcs)
    }

    fn frame(vc: VcId, n: u32) -> TxFrame {
        TxFrame { frame: 0, vc, remaining: n, flags: 0, fresh: true }
    }

    /// Send everything the adapter will send before `end`; the departure slots.
    fn drain(a: &mut Adapter, w: &mut World, end: Time) -> Vec<(Time, Cell)> {
        let mut out = Vec::new();
        while a.next_send() < end {
            let t = a.next_send();
            out.push((t, a.send(w)));
        }
        out
    }

    const US: Time = 1_000_000;

    #[test]
    fn plain_frames_leave_back_to_back_at_the_line_rate() {
        let mut w = world(1);
        let mut a = Adapter::new(SlotClock::new(CellPeriod::from_cells_per_s(1_000_000)), 0);
        a.push(5 * US + 3, frame(0, 3));
        let out = drain(&mut a, &mut w, NEVER);
        let times: Vec<Time> = out.iter().map(|x| x.0).collect();
        assert_eq!(times, vec![6 * US, 7 * US, 8 * US]);
        assert!(out[2].1.is_eof() && !out[1].1.is_eof());
    }

    #[test]
    fn committing_a_plain_fifo_sends_what_slot_by_slot_sending_does() {
        // Frames of two VCs queued at various times on a grid with a phase; the run ends in the
        // middle of a frame. Committing sends the same cells in the same slots, stops before the
        // end and leaves the rest (and the next slot) as slot-by-slot sending does.
        let link = CellPeriod::from_bps(155_520_000);
        let frames = [(0, 0, 5), (1, 1, 3), (40 * US, 0, 12), (41 * US, 1, 1), (90 * US, 0, 30)];
        let end = 100 * US;
        let (mut slotted, mut ws) = (Adapter::new(SlotClock::with_phase(link, 4321), 0), world(2));
        let (mut committed, mut wc) = (Adapter::new(SlotClock::with_phase(link, 4321), 0), world(2));
        let mut sent = 0;
        for (i, &(at, vc, n)) in frames.iter().enumerate() {
            let until = frames.get(i + 1).map_or(end, |f| f.0);
            let f = TxFrame { frame: i as u32, ..frame(vc, n) };
            slotted.push(at, f);
            committed.push(at, f);
            drain(&mut slotted, &mut ws, until);
            sent += committed.commit_plain(until, &mut wc);
        }
        let cells = |w: &World| w.fifos[0].iter().copied().collect::<Vec<_>>();
        assert_eq!(cells(&wc), cells(&ws));
        assert_eq!((sent, wc.channels[0].cells), (ws.fifos[0].len() as u64, ws.channels[0].cells));
        assert!(committed.backlog_cells() > 0, "the last frame is cut by the end");
        assert_eq!(committed.backlog_cells(), slotted.backlog_cells());
        assert_eq!(committed.next_send(), slotted.next_send());
        assert_eq!(wc.sched.key(0), ws.sched.key(0), "the receiver is woken for the first cell");
    }

    #[test]
    fn a_frame_committed_at_once_leaves_as_a_queued_and_committed_one_does() {
        // Frames handed over one by one, each sent at once when the adapter is empty and whole
        // before the end, else queued and committed: the same cells in the same slots, and the
        // same cells counted, as pushing every frame and committing after each.
        let link = CellPeriod::from_bps(155_520_000);
        let frames = [(0, 0, 5), (1, 1, 3), (1, 0, 2), (40 * US, 0, 12), (41 * US, 1, 1), (99 * US, 0, 30)];
        let end = 100 * US;
        let (mut queued, mut wq) = (Adapter::new(SlotClock::with_phase(link, 999), 0), world(2));
        let (mut direct, mut wd) = (Adapter::new(SlotClock::with_phase(link, 999), 0), world(2));
        let (mut sent_q, mut sent_d, mut at_once) = (0, 0, 0);
        for (i, &(at, vc, n)) in frames.iter().enumerate() {
            let f = TxFrame { frame: i as u32, ..frame(vc, n) };
            queued.push(at, f);
            sent_q += queued.commit_plain(end, &mut wq);
            if direct.commit_frame(at, f.frame, f.vc, f.remaining, f.flags, end, &mut wd) {
                at_once += 1;
            } else {
                direct.push(at, f);
            }
            sent_d += direct.take_committed() + direct.commit_plain(end, &mut wd);
        }
        let cells = |w: &World| w.fifos[0].iter().copied().collect::<Vec<_>>();
        assert_eq!(cells(&wd), cells(&wq));
        assert_eq!((sent_d, wd.channels[0].cells), (sent_q, wq.channels[0].cells));
        assert_eq!(direct.backlog_cells(), queued.backlog_cells());
        assert!(direct.backlog_cells() > 0, "the last frame is cut by the end");
        assert_eq!(direct.next_send(), queued.next_send());
        assert_eq!(wd.sched.key(0), wq.sched.key(0));
        // The second frame of the same instant found the first on the wire, not queued: at once
        // too; only the last (crossing the end) was queued.
        assert_eq!(at_once, frames.len() - 1);
    }

    /// The departures of `n` cells of one backlogged VC shaped by GCRA(t, tau) on `link`.
    fn shaped(link: CellPeriod, t: f64, tau: f64, n: u32) -> Vec<Time> {
        let mut w = world(1);
        let mut a = Adapter::new(SlotClock::with_phase(link, 777), 0);
        a.control_vc(1, ControlledVc::new(0, Some(Shaper::new(t, tau)), RateControl::Fixed, None));
        a.push(0, frame(0, n));
        drain(&mut a, &mut w, NEVER).iter().map(|x| x.0).collect()
    }

    #[test]
    fn shaped_output_conforms_to_its_gcra_plus_one_slot() {
        // T = 3.7 cell times, tau = 5 cell times: a burst of 3 goes early, then the pace holds.
        let link = CellPeriod::from_cells_per_s(1_000_000);
        let (t, tau) = (3.7 * US as f64, 5.0 * US as f64);
        let out = shaped(link, t, tau, 200);
        assert_eq!(out.len(), 200);
        // An independent GCRA(T, tau + one slot), with a picosecond of slack for the truncation
        // to whole picoseconds, accepts every departure (the proof is on `Shaper`).
        let mut g = Gcra::new(t.floor() as Time, tau as Time + US + 1);
        for &at in &out {
            assert!(g.conforms(at), "cell at {at} ps does not conform");
        }
        // And it is not slower than needed: 200 cells in 199 T - tau, give or take a slot.
        let span = (out[199] - out[0]) as f64;
        assert!((span - (199.0 * t - tau)).abs() <= 1.0 * US as f64 + 1.0, "{span}");
    }

    #[test]
    fn shaping_delivers_its_rate_for_any_rate_below_the_link() {
        // 155.52 Mb/s: 50 Mb/s is 3.11 slots per cell. A shaper that restarted T from the
        // slot-aligned departure sent one cell every 4 slots (38.88 Mb/s).
        let link = CellPeriod::from_bps(155_520_000);
        let p = link.num as f64 / link.den as f64;
        for bps in [10e6, 20e6, 50e6, 77.76e6, 100e6, 150e6, 155.52e6] {
            for tau in [0.0, 0.5 * p, 3.0 * p] {
                let s = Shaper::at_rate(bps, tau);
                let n = 20_000;
                let out = shaped(link, s.t, tau, n);
                // The last of n cells: tau early at most, one slot late at most.
                let ideal = out[0] as f64 + (n - 1) as f64 * s.t;
                let last = out[n as usize - 1] as f64;
                assert!(last >= ideal - tau - 1.0 && last < ideal + p, "{bps} tau {tau}: {last} vs {ideal}");
                let rate = (n - 1) as f64 * 424e12 / (last - out[0] as f64);
                assert!((rate / bps - 1.0).abs() < 2e-4 + tau / (n as f64 * s.t), "{bps}: {rate}");
                let mut g = Gcra::new(s.t.floor() as Time, (tau + p).ceil() as Time + 1);
                assert!(out.iter().all(|&at| g.conforms(at)), "{bps} tau {tau}: GCRA(T, tau + P)");
            }
        }
        // The slot is part of the statement: where T is not a whole number of slots, the
        // departures do not conform to GCRA(T, 0) itself.
        let s = Shaper::at_rate(50e6, 0.0);
        let mut g = Gcra::new(s.t as Time, 0);
        assert!(!shaped(link, s.t, 0.0, 100).iter().all(|&at| g.conforms(at)));
    }

    #[test]
    fn a_vc_held_up_by_other_queues_does_not_burst_beyond_tau_plus_one_slot() {
        // The plain FIFO takes every other slot while it has frames: the shaped VC (T = 1.5
        // slots, tau = 0) is held up, then gets the link alone and must not catch up.
        let link = CellPeriod::from_cells_per_s(1_000_000);
        let mut w = world(2);
        let mut a = Adapter::new(SlotClock::new(link), 0);
        let t = 1.5 * US as f64;
        a.control_vc(2, ControlledVc::new(1, Some(Shaper::new(t, 0.0)), RateControl::Fixed, None));
        a.push(0, frame(0, 300));
        a.push(0, frame(1, 400));
        let out: Vec<Time> =
            drain(&mut a, &mut w, NEVER).iter().filter(|x| x.1.vc == 1).map(|x| x.0).collect();
        assert_eq!(out.len(), 400);
        let mut g = Gcra::new(t as Time, US + 1);
        assert!(out.iter().all(|&at| g.conforms(at)));
    }

    #[test]
    fn controlled_and_plain_queues_share_slots_in_turn() {
        let mut w = world(2);
        let mut a = Adapter::new(SlotClock::new(CellPeriod::from_cells_per_s(1_000_000)), 0);
        a.control_vc(2, ControlledVc::new(1, None, RateControl::Fixed, None));
        a.push(0, frame(0, 3));
        a.push(0, frame(1, 3));
        let vcs: Vec<u16> = drain(&mut a, &mut w, NEVER).iter().map(|x| x.1.vc).collect();
        assert_eq!(vcs, vec![0, 1, 0, 1, 0, 1]);
    }

    #[test]
    fn without_credit_a_vc_waits_and_resumes_on_a_credit_cell() {
        let mut w = world(1);
        let mut a = Adapter::new(SlotClock::new(CellPeriod::from_cells_per_s(1_000_000)), 0);
        a.control_vc(1, ControlledVc::new(0, None, RateControl::Fixed, Some(CreditSender::new(2))));
        a.push(0, frame(0, 5));
        assert_eq!(drain(&mut a, &mut w, NEVER).len(), 2, "two cells of credit");
        assert_eq!(a.next_send(), NEVER);
        a.on_control(10 * US, Cell { frame: 3, vc: 0, flags: F_CREDIT }, false);
        let out = drain(&mut a, &mut w, NEVER);
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].0, 10 * US, "sends at the first slot after the credit");
    }

    #[test]
    fn prca_sends_an_rm_cell_every_nrm_cells_and_slows_without_good_news() {
        let mut w = world(1);
        let link = CellPeriod::from_cells_per_s(1_000_000);
        let mut a = Adapter::new(SlotClock::new(link), 0);
        // PCR = the line rate (424 Mb/s of cells at 1 M cells/s), NRM 4, MDF 2.
        let p = Prca::new(424e6, 424e4, 0.0, 2, 4, 424e6);
        a.control_vc(1, ControlledVc::new(0, Some(Shaper::at_rate(424e6, 0.0)), RateControl::Prca(p), None));
        a.push(0, frame(0, 8));
        let out = drain(&mut a, &mut w, NEVER);
        let rm_at: Vec<usize> =
            out.iter().enumerate().filter(|(_, c)| c.1.flags & F_RM != 0).map(|x| x.0).collect();
        assert_eq!(rm_at, vec![4, 9], "an RM cell after every 4 data cells");
        // ACR falls by a quarter of PCR per cell (1, 0.75, 0.5, 0.25 of PCR), and each new
        // rate applies at once: gaps of 1.33 -> 2, 2 and 4 slots.
        let gaps: Vec<Time> = out[..4].windows(2).map(|w| (w[1].0 - w[0].0) / US).collect();
        assert_eq!(gaps, vec![2, 2, 4]);
        let c = a.controlled_vc(0).unwrap();
        assert_eq!(c.stats.rm_sent, 2);
    }

    #[test]
    fn the_earliest_instant_converts_as_the_unsigned_cast_does() {
        let mut s = Shaper::new(1.0, 2.5);
        for tat in [
            -1e300,
            -3.0,
            0.0,
            2.5,
            2.75,
            3.0,
            1e6 + 0.9,
            9.2e18,
            9.223372036854775e18,
            1.8e19,
            1e300,
            f64::NAN,
        ] {
            s.tat = tat;
            assert_eq!(s.earliest(), (tat - s.tau).max(0.0) as Time, "tat {tat}");
        }
    }

    #[test]
    fn only_rate_controlled_vcs_send_rm_cells() {
        // What lets the hosts of a scenario with only paced or credit VCs commit their cells
        // (`Host::sends_rm_cells`): such VCs put no RM cell on the wire, so no destination
        // ever has one to return ahead of its queued cells.
        let link = CellPeriod::from_cells_per_s(1_000_000);
        let mut w = world(4);
        let mut a = Adapter::new(SlotClock::new(link), 0);
        a.control_vc(
            4,
            ControlledVc::new(0, Some(Shaper::new(2.0 * US as f64, 0.0)), RateControl::Fixed, None),
        );
        a.control_vc(4, ControlledVc::new(1, None, RateControl::Fixed, None));
        a.set_credit(1, 1_000);
        let prca =
            ControlledVc::new(2, Some(Shaper::at_rate(424e6, 0.0)), RateControl::Prca(Prca::gerla()), None);
        let adaptive = RateControl::Adaptive { shaper: AdaptiveShaper::new(3, 100), nrm: 32, since_rm: 0 };
        let adaptive = ControlledVc::new(3, Some(Shaper::new(3.0 * US as f64, 0.0)), adaptive, None);
        assert!(prca.sends_rm_cells() && adaptive.sends_rm_cells());
        assert!(a.controlled.iter().all(|c| !c.sends_rm_cells()));
        a.push(0, frame(0, 300));
        a.push(0, frame(1, 300));
        let out = drain(&mut a, &mut w, NEVER);
        assert_eq!(out.len(), 600);
        assert!(out.iter().all(|(_, c)| c.flags & F_RM == 0));
    }

    #[test]
    fn the_ready_tree_holds_the_earliest_of_its_leaves() {
        // Grown one VC at a time past several powers of two, and changed at random: the root is
        // the brute-force minimum of the leaves after every step.
        let mut rng = crate::rng::Rng::stream(3, "ready tree");
        let (mut tree, mut brute) = (ReadyTree::default(), Vec::new());
        assert_eq!(tree.min(), NEVER);
        for n in 1..=40 {
            let at = rng.next_u64() % 1000;
            tree.push(at);
            brute.push(at);
            for _ in 0..50 {
                let i = (rng.next_u64() % n) as usize;
                brute[i] = if rng.next_u64().is_multiple_of(5) { NEVER } else { rng.next_u64() % 1000 };
                tree.set(i, brute[i]);
                assert_eq!(tree.leaves(), &brute[..]);
                assert_eq!(tree.min(), brute.iter().copied().min().unwrap());
            }
        }
    }

    /// Every cached `ready` entry equals what its VC derives from its state now.
    fn assert_ready_current(a: &Adapter) {
        let derived: Vec<Time> = a.controlled.iter().map(ControlledVc::ready_at).collect();
        assert_eq!(a.ready.leaves(), derived);
        assert_eq!(a.ready.min(), derived.iter().copied().min().unwrap_or(NEVER));
    }

    #[test]
    fn the_cached_ready_times_follow_every_change_of_a_vc() {
        // Plain VC 0 and one controlled VC of each kind (fixed pacing, PRCA, adaptive, credit
        // only, pacing with credit), driven by frames, credits, returned RM cells and sends in
        // a random order: after each step the cache is what the VCs' states give.
        let link = CellPeriod::from_bps(155_520_000);
        let mut w = world(6);
        let mut a = Adapter::new(SlotClock::with_phase(link, 1234), 0);
        let p = link.num as f64 / link.den as f64;
        a.control_vc(6, ControlledVc::new(1, Some(Shaper::new(2.5 * p, p)), RateControl::Fixed, None));
        let prca = Prca::new(100e6, 1e6, 10e6, 4, 8, 100e6);
        a.control_vc(
            6,
            ControlledVc::new(2, Some(Shaper::at_rate(100e6, 0.0)), RateControl::Prca(prca), None),
        );
        let adaptive = RateControl::Adaptive { shaper: AdaptiveShaper::new(3, 50), nrm: 8, since_rm: 0 };
        a.control_vc(6, ControlledVc::new(3, Some(Shaper::new(3.0 * p, 0.0)), adaptive, None));
        a.control_vc(6, ControlledVc::new(4, None, RateControl::Fixed, None));
        a.set_credit(4, 3);
        a.control_vc(6, ControlledVc::new(5, Some(Shaper::new(1.5 * p, 0.0)), RateControl::Fixed, None));
        a.set_credit(5, 2);
        assert_ready_current(&a);
        let mut rng = crate::rng::Rng::stream(7, "ready cache");
        let (mut now, mut credits, mut sent) = (0, [0u32; 6], 0);
        for _ in 0..5_000 {
            now += rng.next_u64() % (4 * US);
            let vc = (rng.next_u64() % 6) as VcId;
            match rng.next_u64() % 4 {
                0 => a.push(now, frame(vc, 1 + (rng.next_u64() % 20) as u32)),
                1 => {
                    credits[vc as usize] += 1 + (rng.next_u64() % 4) as u32;
                    a.on_control(now, Cell { frame: credits[vc as usize], vc, flags: F_CREDIT }, false);
                }
                2 => {
                    let f = [Feedback::Increase, Feedback::Keep, Feedback::Decrease]
                        [(rng.next_u64() % 3) as usize];
                    let ci = if rng.next_u64() & 1 == 0 { rm::CI } else { 0 };
                    let payload = with_feedback(ci, f);
                    a.on_control(now, Cell { frame: payload, vc, flags: F_RM | F_BACKWARD }, false);
                }
                _ => sent += drain(&mut a, &mut w, now).len(),
            }
            assert_ready_current(&a);
        }
        assert!(sent > 500, "the VCs sent: {sent}");
    }

    #[test]
    fn rm_cells_are_turned_around_with_ci_and_adaptive_rate_follows_feedback() {
        let mut w = world(1);
        let link = CellPeriod::from_cells_per_s(1_000_000);
        let mut dst = Adapter::new(SlotClock::new(link), 0);
        dst.on_control(0, Cell { frame: with_feedback(0, Feedback::Keep), vc: 0, flags: F_RM }, true);
        let back = drain(&mut dst, &mut w, NEVER);
        assert_eq!(back.len(), 1);
        let c = back[0].1;
        assert_eq!(c.flags, F_RM | F_BACKWARD);
        assert_eq!((c.frame & rm::CI, feedback_of(c.frame)), (rm::CI, Feedback::Keep));

        let mut src = Adapter::new(SlotClock::new(link), 0);
        let rate = RateControl::Adaptive { shaper: AdaptiveShaper::new(3, 100), nrm: 32, since_rm: 0 };
        src.control_vc(1, ControlledVc::new(0, Some(Shaper::new(3.0 * US as f64, 0.0)), rate, None));
        src.on_control(
            0,
            Cell { frame: with_feedback(0, Feedback::Decrease), vc: 0, flags: F_RM | F_BACKWARD },
            false,
        );
        src.push(0, frame(0, 3));
        let out = drain(&mut src, &mut w, NEVER);
        // N_S went from 3 to 4: after the first cell, one every 4 slots.
        assert_eq!(out[2].0 - out[1].0, 4 * US);
    }
}
