//! Frame trains: the cells of one VC's frames crossing an idle port, taken in one pass.
//!
//! A port whose buffer policy decides per frame and reads only the buffer's total (tail drop,
//! PPD, EPD, FIFO GFR: a count-only port, `net/commit.rs`) decides at a frame's first cell, with
//! the occupancy then, whether the frame is refused; a later cell of a frame still whole here is
//! dropped only if the buffer is full. When the port is idle at each of a run of cells' arrivals
//! (every departure committed before has started: an egress port, where the cells come in no
//! faster than they go out, or any port at a time of little load), the buffer is empty after
//! their retire: none is dropped for a full buffer, and a first cell meets the policy at an
//! occupancy of zero. Each one's path through `Port::arrive_plain` then reduces to: retire the
//! pending departures, ask the policy at a first cell, move the idle transmitter to the first
//! slot from the arrival, commit the cell in it, put it on the link. `Port::train_at` does
//! exactly that for the run of such cells at the head of a lone input, across as many frames as
//! come in so, with the next free slot and the time in the buffer in registers (whether the
//! transmitter is idle is read from the next free slot: `Pass::walk`), the two FIFOs walked a
//! stretch at a time ([`CellFifo::relay_chunks`](crate::cell::CellFifo::relay_chunks)), and what
//! `arrive_plain` adds per cell (arrivals, departures, the occupancy integral, the frame state,
//! the receiver's wake-up) done once per pass. Under tail drop, PPD and EPD, which refuse no
//! frame at an empty buffer, no policy is asked; under those (EPD with a threshold of one or
//! more) a cell that finds one departure still pending is taken too, behind it in the next free
//! slot: an egress port whose oscillator runs a little slower than the bottleneck's falls
//! behind a long run by one cell and stays so (`Pass::busy_ok`). Each cell still gets the slot
//! and the arrival time `arrive_plain` would give it, and each first cell the policy's decision
//! `enqueue_plain` would ask for, with the same state; `scripts/compare_engines.py` and the unit
//! tests below hold the reports to that.
//!
//! A cell that is not such (a first cell the policy refuses, a cell of a frame already cut here,
//! a control cell, another VC's, one arriving before an earlier departure has started (or two,
//! or one where that is not taken), or at or after the end of the batch or of the committed
//! run) stops the pass and is left at the head for `arrive_plain`. [`Port::lone_trains`] is the
//! lone-input batch loop: a pass wherever the transmitter is idle (or busy by one cell) at the
//! head's arrival, and the cell it stopped at by the per-cell step (at a port of several VCs
//! taking trains across VCs, `Port::lone_vc_trains`, `vc_train.rs`);
//! `process_plain` enters it only while the batch holds four cells or more (a shorter pass
//! costs about what it saves).

use super::frame_discard::FrameState;
use super::Port;
use crate::accept::{BufferState, Policy, VcPolicy};
use crate::cell::{Cell, CellFifo, VcId};
use crate::net::commit::CommittedRun;
use crate::net::World;
use crate::ring::ChunkRelayer;
use crate::rng::Rng;
use crate::time::{SlotClock, SlotMark, Time};

/// One pass's state: what stops it, and what it has done so far.
pub(super) struct Pass<'a> {
    clock: &'a SlotClock,
    /// The end of the batch, brought forward by a slot from the end of the committed run if
    /// that is sooner: a cell of the pass arrives at an idle transmitter, so its slot, the
    /// first from its arrival, starts at most a shortest slot after it (`SlotClock`); a cell
    /// arriving before `stop` is then sent before the run's end. (A cell after it that would
    /// still be is left to `arrive_plain`, as any other.)
    stop: Time,
    /// The end of the committed run: a cell queued behind one departure (`busy`) leaves in the
    /// next free slot only if it starts before it.
    end: Time,
    /// The VC taken, as labelled here and at the next hop.
    label: VcId,
    next_label: VcId,
    latency: Time,
    /// The transmitter's next free slot.
    next: SlotMark,
    /// The moved cells' time in the buffer, in all.
    stay: u64,
    /// A frame of the VC is in progress: the next cell is not a first cell.
    within: bool,
    /// Cells that find one departure pending may be taken (`Pass::busy_ok`), and whether one
    /// was; whether the last moved cell was one.
    busy_ok: bool,
    busy: bool,
    last_busy: bool,
}

/// What `enqueue_plain` hands the policy at a first cell arriving at the idle port (the buffer
/// empty; the class's and the port's counts, which no cell of a pass changes): built only for
/// a pass that asks (FIFO GFR), the other passes' set-up spared it.
struct Ask<'a> {
    /// The policy may be asked in the pass and again by the per-cell path where it refuses
    /// (`PolicyFacts::pure`); if not, every first cell stops the pass unasked, and the
    /// per-cell path asks once.
    pure: bool,
    policy: &'a Policy,
    state: BufferState,
    vc_policy: &'a mut VcPolicy,
    rng: &'a mut Rng,
}

impl Ask<'_> {
    /// The policy's decision on the frame whose first cell is `cell`, as `enqueue_plain` asks
    /// for it at the idle port (`FrameState::verdict` asks only the policy there: no fault or
    /// own buffer at a plain port, the buffer not full).
    #[inline(always)]
    fn refused(&mut self, cell: Cell) -> bool {
        if !self.pure {
            return true;
        }
        let state = BufferState { clp1: cell.clp(), ..self.state };
        self.policy.frame_decision(&state, self.vc_policy, self.rng).is_some()
    }
}

impl Pass<'_> {
    /// Whether a policy may refuse a frame at the idle port (`PolicyFacts::admits_unasked` at
    /// X = 0: tail drop, PPD and EPD refuse none there, and keep no memory of the frames they
    /// are asked about); the walk then asks nothing.
    fn asks(policy: &Policy) -> bool {
        !policy.facts().admits_unasked(0)
    }

    /// Whether a cell finding one departure pending (X = 1 before it: a slower transmitter
    /// than the one upstream, its slot grid drifting behind) may be taken as well: the buffer
    /// holds two cells or more, so it is not full, and the policy admits every frame at X = 1
    /// unasked (tail drop and PPD, EPD with a threshold of at least one).
    pub(super) fn busy_ok(policy: &Policy, capacity: u32) -> bool {
        capacity >= 2 && policy.facts().admits_unasked(1)
    }

    /// The pass's loop over a stretch of the input `src` into the output `dst`; returns how
    /// many cells it moved. The policy is asked at first cells only if `ASK`; otherwise
    /// whether a frame is in progress is found from the last moved cell, after the loop.
    ///
    /// The transmitter is idle at an arrival `ta` when the last departure committed, in the
    /// slot before the next free one (q or q + 1 ps before it, `SlotClock`), has started:
    /// `ta + q > next` is that, short by the one picosecond where that slot was q + 1 long and
    /// `ta` is its start plus one. There the pass stops and `arrive_plain` takes the cell, so
    /// the loop keeps no last committed slot. In the same way one departure is pending, the
    /// one before it gone, when `next - 2q < ta < next - q`.
    ///
    /// Out of line (once per stretch): the loop then has registers of its own for its values,
    /// and the far jump in line (`SlotClock::align_mark_in_line`): with no call inside, no value
    /// is saved around one.
    #[inline(never)]
    fn walk<const ASK: bool, const ONE: bool, const SAME: bool>(
        &mut self,
        mut ask: Option<&mut Ask>,
        src: &[(Time, Cell)],
        dst: &mut [(Time, Cell)],
    ) -> usize {
        // The arrivals before `stop` found once per stretch (they are in time order; most
        // often all of them are, the input's sender gating this port's batches), not tested
        // per cell.
        let mut n = src.len().min(dst.len());
        if n > 0 && src[n - 1].0 >= self.stop {
            n = src[..n].partition_point(|&(ta, _)| ta < self.stop);
        }
        let (src, dst) = (&src[..n], &mut dst[..n]);
        let clock = self.clock;
        let (label, next_label, latency) = (self.label, self.next_label, self.latency);
        let (end, busy_ok) = (self.end, self.busy_ok);
        let q = clock.shortest_slot();
        // The next free slot walked with its remainder biased (`SlotWalk`: an add, its carry
        // and a select per slot), as a mark only off the common path.
        let mut slots = clock.walk_from(self.next, 0);
        let (mut stay, mut within) = (self.stay, self.within);
        let mut busy = false;
        // The loop walks both slices from their ends by one byte offset, negative and rising
        // to zero: the offset's own add ends the loop (no compare), and each entry is a base
        // plus it (no third pointer). (Integer addresses: strict-provenance forms of such walks
        // compiled to a longer loop.)
        const E: usize = std::mem::size_of::<(Time, Cell)>();
        let src_end = src.as_ptr().wrapping_add(n) as usize;
        let dst_end = dst.as_mut_ptr().wrapping_add(n) as usize;
        let mut i = (n * E).wrapping_neg();
        while i != 0 {
            // SAFETY: `i` is minus a multiple k * E of the entry size with 0 < k <= n (it starts
            // at -n * E, rises by E, and the loop ends at 0): `e` is `src`'s entry n - k and `o`
            // `dst`'s, both of n entries, aligned; their pointers were cast to integers above
            // (exposing their provenance, which the casts back take). `dst` is borrowed mutably
            // (disjoint from `src`), and nothing else reads or writes it while the loop runs.
            let e = src_end.wrapping_add(i) as *const (Time, Cell);
            let o = dst_end.wrapping_add(i) as *mut (Time, Cell);
            let (ta, cell) = unsafe { *e };
            // At a port crossed by one VC (`ONE`: an egress port, a source's return port) every
            // cell carries the one label: no check of it per cell.
            debug_assert!(!ONE || cell.vc == label);
            debug_assert!(!SAME || ONE && label == next_label);
            if !ONE && cell.vc != label || cell.is_control() {
                break;
            }
            // How far the next free slot is after the arrival: less than a slot, the cell leaves
            // in it (the last departure, q or q + 1 before it, has started); before the
            // arrival, in the first slot from it; between one and two slots after it (one
            // departure pending), in it, behind that one, if `busy_ok`. Elsewhere, and at
            // exactly one slot (a slot of q + 1 ps may have started at `ta` - 1 or not), the
            // pass stops. Each branch adds its wait to the sum itself (one phi less).
            let d = slots.at().wrapping_sub(ta);
            if d < q {
                if ASK && !within && ask.as_mut().is_some_and(|a| a.refused(cell)) {
                    break;
                }
                stay += d;
            } else if ta > slots.at() {
                if ASK && !within && ask.as_mut().is_some_and(|a| a.refused(cell)) {
                    break;
                }
                if ta - slots.at() <= q {
                    // Within a shortest slot after the free slot's start (an idle port's most
                    // common gap): the next slot, q or q + 1 on, is the first from `ta`, one
                    // step of the walk (no mark made and walked again).
                    slots.skip();
                } else if ta - slots.at() <= SlotClock::step_gap_of(q) {
                    // A few slots on (a port taking one VC's cells of a link shared by
                    // several): the steps `align_mark` takes here, in the walk's form.
                    while slots.at() < ta {
                        slots.skip();
                    }
                } else {
                    let slot = clock.align_mark_in_line(clock.walked_mark(&slots, 0), ta);
                    slots = clock.walk_from(slot, 0);
                }
                stay += slots.at() - ta;
            } else if !ASK && d > q && d < 2 * q && busy_ok && slots.at() < end {
                busy = true;
                stay += d;
            } else {
                break;
            }
            #[cfg(debug_assertions)]
            debug_assert!(slots.at() < self.end && slots.at() - ta < 2 * q);
            if ASK {
                within = !cell.is_eof();
            }
            // The cell copied from the input here, then its label set (with the same label at
            // the next hop, `SAME`, the copied one stands): no field of it held in a register
            // across the loop's tests. The time written apart.
            // SAFETY: `e` and `o` as above.
            unsafe {
                (*o).1 = (*e).1;
                (*o).0 = slots.at() + latency;
                if !SAME {
                    (*o).1.vc = next_label;
                }
            }
            slots.skip();
            i = i.wrapping_add(E);
        }
        let next = clock.walked_mark(&slots, 0);
        // Entries left: -i / E.
        let j = n - i.wrapping_neg() / E;
        if j > 0 {
            // The last moved cell read back at the loop's own offset: neither slice (their
            // bases and length) lives across the loop.
            // SAFETY: j > 0, so the offset before `i` is an entry the loop read (`src`) and
            // wrote (`dst`), as above.
            let (ta, (t, cell)) = unsafe {
                let k = i.wrapping_sub(E);
                (
                    (*(src_end.wrapping_add(k) as *const (Time, Cell))).0,
                    *(dst_end.wrapping_add(k) as *const (Time, Cell)),
                )
            };
            if !ASK {
                within = !cell.is_eof();
            }
            // A cell taken at once waits at most q; one behind a departure more.
            self.last_busy = t - latency - ta > q;
        }
        (self.next, self.stay, self.within) = (next, stay, within);
        self.busy |= busy;
        j
    }
}

/// A pass walking the FIFOs, asking the policy at first cells if `ASK`, at a port crossed by
/// one VC if `ONE`, whose label is the same at the next hop if `SAME`.
struct Walk<'p, 'a, 'k, const ASK: bool, const ONE: bool, const SAME: bool>(
    &'p mut Pass<'a>,
    Option<&'p mut Ask<'k>>,
);

impl<const ASK: bool, const ONE: bool, const SAME: bool> ChunkRelayer<(Time, Cell), (Time, Cell)>
    for Walk<'_, '_, '_, ASK, ONE, SAME>
{
    #[inline(always)]
    fn relay_chunk(&mut self, src: &[(Time, Cell)], dst: &mut [(Time, Cell)]) -> usize {
        self.0.walk::<ASK, ONE, SAME>(self.1.as_deref_mut(), src, dst)
    }
}

impl Port {
    /// `process_plain`'s loop over the lone input `f` at a port taking trains, while at least
    /// four cells arrive before `stop`: the train at the head, if the transmitter is idle at its
    /// arrival, then the cell that stopped it (or a busy port's next arrival) as `arrive_plain`
    /// takes it. Returns the events; the last cells of the batch (fewer than four) are left to
    /// `process_plain`'s own loop, which ends the batch.
    ///
    /// A batch of fewer cells has no train worth a pass (a pass costs about what it saves on
    /// two or three cells; the short batches of a LAN often hold no more), and keeping the call
    /// out of `process_plain`'s loop leaves that loop as it was.
    #[inline(never)]
    pub(super) fn lone_trains(&mut self, f: usize, stop: Time, world: &mut World) -> u64 {
        let mut events = 0;
        let busy_ok = Pass::busy_ok(&self.policy, self.capacity);
        let q = self.clock.shortest_slot();
        // No slot grid here: an arrival counts at its own time, the merge's key of a lone input.
        while Port::holds_train(&world.fifos[f], stop) {
            // Four cells before `stop`: the head is one of them.
            let Some((ta, cell)) = world.fifos[f].front() else { unreachable!("four cells are held") };
            // A pass needs the transmitter idle at the head's arrival, or (`Pass::busy_ok`) one
            // departure pending then, at most two slots ahead: when not (most often, at a busy
            // port), the pass is spared.
            if self.run.all_before(ta) || busy_ok && self.clock.next() <= ta + 2 * q {
                events += self.train_at(f, (ta, cell), stop, busy_ok, world);
            }
            // The cell the pass stopped at (or could not start with) goes by the per-cell step.
            let fifo = &mut world.fifos[f];
            let Some((ta, cell)) = fifo.front().filter(|&(t, _)| t < stop) else { break };
            fifo.pop();
            self.arrive_plain(ta, cell, world);
            events += 1;
        }
        events
    }

    /// Whether a pass (a frame train, or a busy pass, `busy.rs`) that moved the last `n` cells
    /// of `out` moved a first cell, found after it rather than kept per cell: always when it
    /// began between frames (`within` false); within a frame (whole here: its discard state is
    /// clean), only after an EOF among the moved cells but the last, which then matters only to
    /// a damaged frame's flag (rare: the scan runs only then).
    #[inline(always)]
    pub(super) fn pass_began(within: bool, frame: &FrameState, out: &CellFifo, n: u32) -> bool {
        !within
            || frame.damaged()
                && out.iter().skip(out.len() - n as usize).take(n as usize - 1).any(|c| c.1.is_eof())
    }

    /// Whether the two cells after `head` (the head of `fifo`, which holds four cells or more)
    /// are of `head`'s VC: if not, a frame train from `head` would take two cells at most
    /// (another VC's cell stops it), which costs more than a train across VCs
    /// (`Port::lone_vc_trains`).
    #[inline(always)]
    pub(super) fn same_vc_next(fifo: &CellFifo, head: Cell) -> bool {
        let of_head = |k| fifo.get(k).is_some_and(|(_, c): (Time, Cell)| c.vc == head.vc);
        of_head(1) && of_head(2)
    }

    /// Whether at least four cells arrive in `fifo` before `stop`.
    #[inline(always)]
    pub(super) fn holds_train(fifo: &CellFifo, stop: Time) -> bool {
        fifo.time_at(3).is_some_and(|t| t < stop)
    }

    /// The frame train at the head of the lone input `f` of a port taking trains (see the
    /// module comment), taken before `stop`; returns how many cells it took.
    #[cfg(test)]
    fn train(&mut self, f: usize, stop: Time, world: &mut World) -> u64 {
        let Some((ta, cell)) = world.fifos[f].front() else { return 0 };
        let busy_ok = Pass::busy_ok(&self.policy, self.capacity);
        if ta >= stop || !(busy_ok || self.run.all_before(ta)) {
            return 0;
        }
        self.train_at(f, (ta, cell), stop, busy_ok, world)
    }

    /// `train` for the head `(ta, cell)` of `f`, arriving before `stop`, at a port idle then or
    /// (`busy_ok`: `Pass::busy_ok`) a cell taken behind one departure may be: what the
    /// caller found, not read or asked again. In `lone_trains`' loop, whose set-up it shares
    /// (on a LAN most batches of the egress ports are one pass).
    #[inline(always)]
    pub(super) fn train_at(
        &mut self,
        f: usize,
        (ta, cell): (Time, Cell),
        stop: Time,
        busy_ok: bool,
        world: &mut World,
    ) -> u64 {
        debug_assert!(self.plan.train && ta < stop && (busy_ok || self.run.all_before(ta)));
        debug_assert_eq!(busy_ok, Pass::busy_ok(&self.policy, self.capacity));
        // The walk reads the pending departures from the next free slot: they end right
        // before it, if any is pending (with none, the clock was last moved to a slot from an
        // earlier arrival: at most q after it).
        let q = self.clock.shortest_slot();
        if self.queued != self.run.len()
            || cell.is_control()
            || self.run.is_empty() && self.clock.next() > ta + q
        {
            return 0;
        }
        let label = cell.vc;
        let one = self.vcs.len() == 1;
        let Some(v) = self.vcs.get_mut(label as usize) else { return 0 };
        let within = v.frame.within();
        if within && !v.frame.passing() {
            return 0;
        }
        let hop = v.hop;
        let Ok([input, out]) = world.fifos.get_disjoint_mut([f, hop.fifo as usize]) else { return 0 };
        let mut pass = Pass {
            clock: &self.clock,
            stop: stop.min(self.commit_end.saturating_sub(q)),
            end: self.commit_end,
            label,
            next_label: hop.label,
            latency: self.latency,
            next: self.clock.mark(),
            stay: 0,
            within,
            busy_ok,
            busy: false,
            last_busy: false,
        };
        // Labels here are 0 .. the number of VCs crossing the port (`Labels`): with one, every
        // cell of the input carries it.
        let n = if Pass::asks(&self.policy) {
            let class = &mut self.classes[v.class as usize];
            let mut ask = Ask {
                pure: self.policy.facts().pure(),
                policy: &self.policy,
                state: BufferState { x: 0, k: self.capacity, y: class.y, active: self.active, clp1: false },
                vc_policy: &mut class.policy,
                rng: &mut self.rng,
            };
            input.relay_chunks(
                out,
                self.train_limit,
                &mut Walk::<true, false, false>(&mut pass, Some(&mut ask)),
            )
        } else if one && label == hop.label {
            // (An egress port whose VC has the same label at the host: its cells' labels stand.)
            input.relay_chunks(out, self.train_limit, &mut Walk::<false, true, true>(&mut pass, None))
        } else if one {
            input.relay_chunks(out, self.train_limit, &mut Walk::<false, true, false>(&mut pass, None))
        } else {
            input.relay_chunks(out, self.train_limit, &mut Walk::<false, false, false>(&mut pass, None))
        };
        if n == 0 {
            return 0;
        }
        let (next, stay, busy, last_busy) = (pass.next, u128::from(pass.stay), pass.busy, pass.last_busy);
        v.frame.passed(pass.within, Port::pass_began(within, &v.frame, out, n));
        v.sojourn = v.sojourn.wrapping_add(stay);
        crate::net::wake_for_last(&mut world.sched, out, n);
        // Every departure committed before the last moved cell's arrival retired then but the
        // one it queued behind, if any: pending are its own, in the slot before the next free
        // one, and that one, in the slot before.
        self.clock.set_next(next);
        let last = self.clock.before(next);
        self.run = if last_busy {
            CommittedRun::from_parts(self.clock.before(last), 2, next, &self.clock)
        } else {
            CommittedRun::one(last)
        };
        self.queued = self.run.len();
        self.stats.passed(u64::from(n), u64::from(n), 1 + u32::from(busy));
        u64::from(n)
    }

    /// The most cells one pass may take: each waits less than two slots (of at most
    /// q + 1 ps, q = floor(num / den), `SlotClock`), so their summed time in the buffer stays
    /// in 64 bits.
    pub(super) fn train_limit(clock: &SlotClock) -> usize {
        let period = clock.period();
        usize::try_from(u64::MAX / (2 * (period.num / period.den + 1))).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use crate::accept::DropReason;
    use crate::accept::{Policy, VcPolicy};
    use crate::cell::{Cell, CellFifo, VcId, F_CLP, F_EOF};
    use crate::frame::{Frame, FrameSlab};
    use crate::net::port::Port;
    use crate::net::{identity_route, Channel, EnginePaths, Sched, World, NO_CAPTURE, NO_COMMIT};
    use crate::rng::Rng;
    use crate::sched::Queue;
    use crate::time::{CellPeriod, SlotClock, Time, NEVER, PS_PER_US};

    /// A port sending 1 M cells/s into FIFO 0 (VCs 0 and 1) and FIFO 2 (VCs 2 and 3), fed by
    /// FIFO 1 with `streams` (1 or 2) interleaved streams of frames of 1 to 12 cells, a third
    /// of them tagged (CLP=1), in each stream every cell at least `gap` after the one before:
    /// at `gap` of a slot or more the port is idle at many arrivals (frame trains), below it
    /// busy at some.
    fn port(until: Time, gap: Time, policy: Policy, streams: u16) -> (Port, World) {
        port_of(until, gap, policy, streams, 4)
    }

    /// A port under `policy` fed no frames (the test pushes its own), committing up to `end`,
    /// with room for 64 cells in its output FIFO (a pass does not grow it).
    fn roomy_port(policy: Policy, end: Time) -> (Port, World) {
        let (mut p, mut w) = port(0, 0, policy, 1);
        p.commit_until(end, &w);
        for _ in 0..64 {
            w.fifos[0].push(0, Cell::default());
        }
        while w.fifos[0].pop().is_some() {}
        (p, w)
    }

    /// `port`, crossed by `vcs` VCs: 4 as there, or 1 (an egress port: every cell on VC 0,
    /// `streams` 1).
    fn port_of(until: Time, gap: Time, policy: Policy, streams: u16, vcs: u16) -> (Port, World) {
        let period = CellPeriod::from_cells_per_s(1_000_000);
        let mut route = identity_route(vcs as usize, 0);
        if vcs == 4 {
            route[2].fifo = 2;
            route[3].fifo = 2;
        }
        let mut w = World {
            fifos: vec![CellFifo::new(1), CellFifo::new(0), CellFifo::new(2)],
            frames: FrameSlab::default(),
            channels: vec![Channel {
                name: "x".into(),
                period,
                latency: 7,
                route,
                cells: 0,
                capture: NO_CAPTURE,
            }],
            sched: Sched::new(3),
            captures: Default::default(),
            levels: Vec::new(),
            shares: Vec::new(),
        };
        let mut p = Port::new(
            "p".into(),
            0,
            SlotClock::with_phase(period.scaled(2e-5), 4321),
            30,
            policy,
            vcs as usize,
        );
        let vc = VcPolicy { threshold: 8, weight: 0.25, ..Default::default() };
        p.configure(Queue::fifo(), (0..vcs).collect(), vec![vc; vcs as usize], Rng::stream(5, "t"), false);
        p.inputs.push(1);
        let mut rng = Rng::stream(9, "arrivals");
        let mut cells = Vec::new();
        for stream in 0..streams {
            let mut t: Time = 0;
            while t < until {
                let label = if vcs == 1 { 0 } else { (rng.next_u64() % 2) as VcId + 2 * stream };
                let n = 1 + (rng.next_u64() % 12) as u32;
                let clp = if rng.next_u64().is_multiple_of(3) { F_CLP } else { 0 };
                let frame = w.frames.insert(Frame { ncells: n, alive: n, ..Default::default() });
                for i in 0..n {
                    t += gap + rng.next_u64() % if i == 0 { 9 * PS_PER_US } else { 300_000 };
                    let flags = clp | if i + 1 == n { F_EOF } else { 0 };
                    cells.push((t, Cell { frame, vc: label, flags }));
                }
            }
        }
        cells.sort_by_key(|&(t, c)| (t, c.vc));
        for (t, c) in cells {
            w.fifos[1].push(t, c);
        }
        (p, w)
    }

    /// Run `p` to `end` in batches of `step`: cell by cell (`commit` false), or committing, with
    /// frame trains or not. After each batch the receiver of FIFO 0 takes its cells, having
    /// been woken for the first (its key is checked). Returns the events and the cells sent.
    fn run(
        p: &mut Port,
        w: &mut World,
        commit: bool,
        trains: bool,
        end: Time,
        step: Time,
    ) -> (u64, Vec<(Time, Cell)>) {
        let paths = if trains { EnginePaths::ALL } else { EnginePaths::WITHOUT_PASSES };
        run_with(p, w, commit, paths, end, step)
    }

    /// `run` with the switches `paths`.
    fn run_with(
        p: &mut Port,
        w: &mut World,
        commit: bool,
        paths: EnginePaths,
        end: Time,
        step: Time,
    ) -> (u64, Vec<(Time, Cell)>) {
        p.set_paths(paths);
        p.commit_until(if commit { end } else { NO_COMMIT }, w);
        if commit {
            assert!(p.plan.plain && p.plan.count_only && p.plan.train == paths.train);
        }
        let (mut now, mut events, mut wire) = (0, 0, Vec::new());
        while now < end {
            now = (now + step).min(end);
            events += p.advance(now, w);
            for (f, owner) in [(0, 1), (2, 2)] {
                assert_eq!(
                    w.sched.key(owner),
                    w.fifos[f].front().map_or(NEVER, |(t, _)| t),
                    "woken for the first"
                );
                while let Some(c) = w.fifos[f].pop() {
                    wire.push(c);
                }
                w.sched.set(owner, NEVER);
            }
        }
        p.finish(end);
        // In slot order (one transmitter: no two at a time), whichever batch sent them.
        wire.sort_by_key(|&(t, _)| t);
        (events, wire)
    }

    /// Frames of `n` cells on `vc` (tagged if `clp`), one cell every 1.05 us from `t`: a port
    /// sending a cell per microsecond is idle at each arrival. Returns the time after them.
    fn frames(w: &mut World, mut t: Time, vc: VcId, clp: bool, ns: &[u32]) -> Time {
        for &n in ns {
            let frame = w.frames.insert(Frame { ncells: n, alive: n, ..Default::default() });
            for i in 0..n {
                let flags = if clp { F_CLP } else { 0 } | if i + 1 == n { F_EOF } else { 0 };
                w.fifos[1].push(t, Cell { frame, vc, flags });
                t += 1_050_000;
            }
        }
        t
    }

    #[test]
    fn a_train_takes_frames_at_an_idle_port_until_the_policy_refuses_one() {
        // FIFO GFR with LBO = 0 refuses every tagged frame, the empty buffer too (the GFR
        // study's section 6): the only count-only policy refusing a first cell at an idle port.
        let (mut p, mut w) = roomy_port(Policy::FifoGfr { lbo: 0, hbo: 20 }, 1000 * PS_PER_US);
        // Three untagged frames, a tagged one, an untagged one; then another VC's frame.
        let t = frames(&mut w, 10 * PS_PER_US, 0, false, &[4, 1, 3]);
        let t = frames(&mut w, t, 0, true, &[3]);
        let t = frames(&mut w, t, 0, false, &[2]);
        frames(&mut w, t, 1, false, &[2]);
        let stop = 500 * PS_PER_US;
        // From the first cell on, across frames, up to the tagged frame's first cell.
        assert_eq!(p.train(1, stop, &mut w), 8);
        assert_eq!(w.sched.key(1), w.fifos[0].front().unwrap().0, "the receiver is woken");
        for (k, &(t, _)) in w.fifos[0].iter().enumerate() {
            // In the first slot from its arrival (the link's latency is 7 ps).
            let wait = t - 7 - (10 * PS_PER_US + k as Time * 1_050_000);
            assert!(wait <= PS_PER_US, "cell {k} sent at once");
        }
        assert!(w.fifos[0].back().unwrap().1.is_eof());
        assert!(!p.vcs[0].frame.within(), "the last frame taken ended at its EOF");
        assert_eq!((p.stats.cells_in(), p.stats.cells_out(), p.stats.max_queue()), (8, 8, 1));
        // The refused frame goes cell by cell: its first cell refused, the rest discarded.
        let (ta, cell) = w.fifos[1].pop().unwrap();
        p.arrive_plain(ta, cell, &mut w);
        assert_eq!(p.stats.drops(DropReason::Lbo), 1);
        assert_eq!(p.train(1, stop, &mut w), 0, "no train through a refused frame");
        for _ in 0..2 {
            let (ta, cell) = w.fifos[1].pop().unwrap();
            p.arrive_plain(ta, cell, &mut w);
        }
        assert_eq!(p.stats.drops(DropReason::PartialPacket), 2);
        // The next frame starts clean, taken by a pass; it stops at the other VC.
        assert_eq!(p.train(1, stop, &mut w), 2);
        assert!(!p.vcs[0].frame.within() && p.vcs[0].frame.passing());
        assert_eq!(w.fifos[1].front().unwrap().1.vc, 1);
        assert_eq!(p.stats.cells_out(), 10);
    }

    #[test]
    fn a_train_asks_no_policy_whose_asking_is_an_event() {
        // A one-VC port counts only under any policy (its class's occupancy is the port's) and
        // takes trains. Threshold drop keeps memory of the frames it is asked about and DFBA
        // draws: asked in a pass and again by the per-cell path where it refused, the second
        // answer could differ from the reference's one. So the pass stops at each first cell
        // unasked, the per-cell path takes it (asking once), and a pass goes on within the
        // frame. Under FIFO GFR (asked in the pass) one pass takes the three frames.
        for (policy, taken) in [
            (Policy::ThresholdDrop, 4),
            (Policy::Dfba { r: 10, z: 0.5 }, 4),
            (Policy::FifoGfr { lbo: 5, hbo: 20 }, 4 + 1 + 3),
        ] {
            let (mut p, mut w) = port_of(0, 0, policy, 1, 1);
            p.commit_until(1000 * PS_PER_US, &w);
            assert!(p.plan.train && p.plan.count_only, "{policy:?}");
            // Room in the output FIFO (as `roomy_port`).
            for _ in 0..64 {
                w.fifos[0].push(0, Cell::default());
            }
            while w.fifos[0].pop().is_some() {}
            p.vcs[0].frame.begin(false);
            frames(&mut w, 10 * PS_PER_US, 0, false, &[4, 1, 3]);
            let stop = 500 * PS_PER_US;
            // The rest of a frame begun here, up to the next first cell.
            assert_eq!(p.train(1, stop, &mut w), taken, "{policy:?}");
            if taken == 4 {
                // The frame of one by the per-cell path; the next first cell stops a pass.
                let (ta, cell) = w.fifos[1].pop().unwrap();
                p.arrive_plain(ta, cell, &mut w);
                assert_eq!(p.train(1, stop, &mut w), 0, "{policy:?}: at a first cell");
                let (ta, cell) = w.fifos[1].pop().unwrap();
                p.arrive_plain(ta, cell, &mut w);
                assert_eq!(p.train(1, stop, &mut w), 2, "{policy:?}: within the last frame");
            }
            assert_eq!((p.stats.cells_out(), p.stats.cells_dropped()), (8, 0), "{policy:?}");
        }
    }

    #[test]
    fn a_train_across_the_end_of_a_damaged_frame_starts_the_next_one_clean() {
        let (mut p, mut w) = roomy_port(Policy::TailDrop, 1000 * PS_PER_US);
        // VC 0 within a frame that lost a cell here (tail drop lets the rest through): its last
        // three cells, then a frame of two; then the last two cells of another damaged frame.
        p.vcs[0].frame.begin(false);
        p.vcs[0].frame.damage();
        let t = frames(&mut w, 10 * PS_PER_US, 0, false, &[3, 2]);
        assert_eq!(p.train(1, 500 * PS_PER_US, &mut w), 5);
        assert!(!p.vcs[0].frame.within() && !p.vcs[0].frame.damaged(), "the second frame began clean");
        p.vcs[0].frame.begin(false);
        p.vcs[0].frame.damage();
        frames(&mut w, t, 0, false, &[2]);
        assert_eq!(p.train(1, 500 * PS_PER_US, &mut w), 2);
        assert!(!p.vcs[0].frame.within() && p.vcs[0].frame.damaged(), "no frame began");
    }

    #[test]
    fn a_train_stops_at_a_cell_arriving_before_the_last_departure_starts() {
        // The loop keeps no last committed slot: it finds the transmitter idle at `ta` from the
        // next free slot (`ta + q > next`). A cell arriving at the start of the slot the cell
        // before it departs in finds that departure pending (two cells queued, `max_queue` 2 on
        // the per-cell path): under EPD with a threshold of 0 (which would refuse a frame
        // there) the pass stops. One picosecond later it is idle, taken.
        for (late, taken) in [(0, 1), (1, 2), (2, 2)] {
            let (mut p, mut w) = roomy_port(Policy::Epd { threshold: 0 }, 1000 * PS_PER_US);
            let t0 = 10 * PS_PER_US + 17;
            let s0 = p.clock.grid().slot_at_or_after(t0);
            let frame = w.frames.insert(Frame { ncells: 2, alive: 2, ..Default::default() });
            w.fifos[1].push(t0, Cell { frame, vc: 0, flags: 0 });
            w.fifos[1].push(s0 + late, Cell { frame, vc: 0, flags: F_EOF });
            assert_eq!(p.train(1, 500 * PS_PER_US, &mut w), taken, "second cell {late} ps after the slot");
            assert_eq!(w.fifos[0].front().unwrap().0, s0 + 7, "the first cell in its slot");
        }
    }

    #[test]
    fn an_idle_arrival_leaves_in_the_first_slot_from_it_one_step_or_more_on() {
        // The walk takes an arrival at most q after the next free slot's start in the slot
        // after it (one step), a later one by the clock's alignment: at, around and past that
        // bound, the second cell of a frame goes in the slot the per-cell path gives it, taken
        // by the same pass. (Fails with the one step taken up to q + 1 after.)
        let q = port(0, 0, Policy::TailDrop, 1).0.clock.shortest_slot();
        for late in [1, 2, q - 1, q, q + 1, q + 2, 2 * q, 2 * q + 1, 5 * q + 3] {
            let outcome = |trains: bool| {
                let (mut p, mut w) = roomy_port(Policy::TailDrop, 1000 * PS_PER_US);
                let t0 = 10 * PS_PER_US + 17;
                let s0 = p.clock.grid().slot_at_or_after(t0);
                let s1 = p.clock.grid().slot_at_or_after(s0 + 1);
                let frame = w.frames.insert(Frame { ncells: 2, alive: 2, ..Default::default() });
                w.fifos[1].push(t0, Cell { frame, vc: 0, flags: 0 });
                w.fifos[1].push(s1 + late, Cell { frame, vc: 0, flags: F_EOF });
                let taken = if trains { p.train(1, 500 * PS_PER_US, &mut w) } else { 0 };
                while let Some((ta, cell)) = w.fifos[1].pop() {
                    p.arrive_plain(ta, cell, &mut w);
                }
                let wire: Vec<_> = w.fifos[0].iter().copied().collect();
                (taken, (wire, p.clock.mark(), p.vcs[0].sojourn))
            };
            let (with, without) = (outcome(true), outcome(false));
            assert_eq!(with.0, 2, "{late} ps after the free slot: one pass");
            assert_eq!(with.1, without.1, "{late} ps after the free slot");
        }
    }

    #[test]
    fn a_train_takes_the_cells_arriving_before_the_batch_s_end() {
        // The stop is found once per stretch of the FIFO: a cell arriving at the batch's end
        // is the next batch's, one a picosecond before is this one's.
        for (stop, taken) in [(10 * PS_PER_US + 2 * 1_050_000, 2), (10 * PS_PER_US + 2 * 1_050_000 + 1, 3)] {
            let (mut p, mut w) = roomy_port(Policy::TailDrop, 1000 * PS_PER_US);
            frames(&mut w, 10 * PS_PER_US, 0, false, &[6]);
            assert_eq!(p.train(1, stop, &mut w), taken, "stop at {stop}");
        }
    }

    #[test]
    fn a_train_takes_cells_queued_behind_one_departure() {
        // A frame of 30 cells coming in every 0.95 slot: from the twenty-first on, each finds
        // the one before it still pending (X = 1, never 2 here). Under EPD (threshold 6) one
        // pass takes them all, with what the per-cell path gives: the same slots, the queue's
        // maximum 2, two departures pending after it, the same time in the buffer. With the
        // committed run ending at the slot of the twenty-sixth (one such cell, arriving more
        // than a slot before the run's end), the pass stops there and the rest is held.
        let outcome = |trains: bool, end: Time| {
            let (mut p, mut w) = roomy_port(Policy::Epd { threshold: 6 }, end);
            let frame = w.frames.insert(Frame { ncells: 30, alive: 30, ..Default::default() });
            for i in 0..30 {
                let flags = if i == 29 { F_EOF } else { 0 };
                w.fifos[1].push(10 * PS_PER_US + i * 950_000, Cell { frame, vc: 0, flags });
            }
            let taken = if trains { p.train(1, 500 * PS_PER_US, &mut w) } else { 0 };
            while let Some((ta, cell)) = w.fifos[1].pop() {
                p.arrive_plain(ta, cell, &mut w);
            }
            let wire: Vec<_> = w.fifos[0].iter().copied().collect();
            let run = (p.run.len(), p.run.first_slot(), p.run.last_slot(), p.clock.mark());
            (taken, (wire, p.stats.max_queue(), p.queued, run, p.vcs[0].sojourn, p.vcs[0].frame.within()))
        };
        let (with, without) = (outcome(true, 1000 * PS_PER_US), outcome(false, 1000 * PS_PER_US));
        assert_eq!(
            (with.0, with.1 .1, with.1 .2),
            (30, 2, 2),
            "one pass, a cell queued behind one, two pending"
        );
        assert_eq!(with.1, without.1);
        let end = without.1 .0[25].0 - 7;
        let (with, without) = (outcome(true, end), outcome(false, end));
        assert_eq!((with.0, with.1 .0.len(), with.1 .2), (25, 25, 5), "25 sent, the last five held");
        assert_eq!(with.1, without.1);
    }

    #[test]
    fn trains_change_no_cell_time_count_or_integral() {
        // Idle and busy arrivals, long and short batches, tail drop, PPD, EPD and FIFO GFR (with
        // LBO = 0 refusing tagged frames at an idle port, where a train meets their first
        // cells): with trains, the wire, the counters, the drops, the occupancy integrals and
        // the events are those of the port without them, and of the per-cell path.
        let end = 400 * PS_PER_US;
        for (gap, policy) in [
            (PS_PER_US, Policy::Epd { threshold: 20 }),
            (700_000, Policy::Epd { threshold: 6 }),
            (1_100_000, Policy::TailDrop),
            (300_000, Policy::Ppd),
            (1_050_000, Policy::FifoGfr { lbo: 0, hbo: 20 }),
            (800_000, Policy::FifoGfr { lbo: 2, hbo: 5 }),
        ] {
            let outcome = |commit: bool, trains: bool, step: Time| {
                let (mut p, mut w) = port(end + 50 * PS_PER_US, gap, policy, 2);
                let (events, wire) = run(&mut p, &mut w, commit, trains, end, step);
                let s = &p.stats;
                let areas: Vec<_> = p.classes.iter().map(|c| c.area(end)).collect();
                (
                    wire,
                    w.channels[0].cells,
                    events,
                    s.drops_by_reason(),
                    s.cells_in(),
                    s.cells_out(),
                    s.max_queue(),
                    s.queue_area(),
                    areas,
                )
            };
            let reference = outcome(false, false, PS_PER_US);
            assert!(reference.4 > 150, "{gap}: cells arrive");
            if policy == (Policy::FifoGfr { lbo: 0, hbo: 20 }) {
                assert!(reference.3[DropReason::Lbo as usize] > 10, "tagged frames refused");
            }
            for step in [PS_PER_US, 9 * PS_PER_US + 1, end] {
                let with = outcome(true, true, step);
                let without = outcome(true, false, step);
                assert_eq!(with, without, "{gap} {policy:?} step {step}");
                assert_eq!(with.0, reference.0, "{gap} {policy:?} step {step}: the wire");
                assert_eq!(with.3, reference.3, "{gap} {policy:?} step {step}: the drops");
                assert_eq!(with.7, reference.7, "{gap} {policy:?} step {step}: the integral");
            }
        }
    }

    /// A port as `port`'s (tail drop, EPD with a threshold of 6, PPD or FIFO GFR) fed VC 0's and
    /// VC 1's frames interleaved in runs of one to five cells, one cell every `gap` (at 1.05 us
    /// the port is idle at each arrival, at 0.95 us often busy by one cell).
    fn interleaved(policy: Policy, gap: Time) -> (Port, World) {
        let (p, mut w) = port(0, 0, policy, 1);
        let (mut t, mut k) = (0, 0u32);
        for frame_pair in 0..8u32 {
            let n = 10 + frame_pair;
            let frames = [0, 1].map(|_| w.frames.insert(Frame { ncells: n, alive: n, ..Default::default() }));
            let mut left = [n, n];
            while left != [0, 0] {
                for (vc, frame) in frames.iter().enumerate() {
                    let run = (1 + k % 5).min(left[vc]);
                    k += 1;
                    for _ in 0..run {
                        left[vc] -= 1;
                        let flags =
                            if left[vc] == 0 { F_EOF } else { 0 } | if k % 7 == 0 { F_CLP } else { 0 };
                        w.fifos[1].push(t, Cell { frame: *frame, vc: vc as VcId, flags });
                        t += gap;
                    }
                }
            }
        }
        (p, w)
    }

    #[test]
    fn a_pass_starts_only_where_the_head_s_vc_holds_the_next_two_cells() {
        // With trains across VCs (`Port::lone_vc_trains`) a frame train starts only at a head
        // whose next two cells are its VC's: a shorter one costs more than the loop.
        let mut fifo = CellFifo::new(0);
        for (t, vc) in [(0, 1), (1, 1), (2, 1), (3, 0), (4, 1), (5, 1)] {
            fifo.push(t, Cell { frame: 0, vc, flags: 0 });
        }
        assert!(Port::same_vc_next(&fifo, fifo.front().expect("a head").1));
        fifo.pop();
        assert!(!Port::same_vc_next(&fifo, fifo.front().expect("a head").1), "the third another's");
        fifo.pop();
        assert!(!Port::same_vc_next(&fifo, fifo.front().expect("a head").1), "the second another's");
    }

    #[test]
    fn trains_across_vcs_match_the_per_cell_path() {
        // Two VCs' frames interleaved in short runs (the background egress ports of the CLASS
        // studies: nine VCs, mostly one cell each), the port idle at each arrival, busy by one
        // cell, or busier (at 0.7 us EPD's threshold refuses frames, at 0.6 us the 30-cell
        // buffer fills), under tail drop, PPD and EPD (trains across VCs) and FIFO GFR (which asks
        // at an empty buffer: frame trains only), long and short batches: with trains across
        // VCs, with frame trains only and cell by cell, the wire, the counters, the drops, the
        // integral and the events are the same.
        let end = 300 * PS_PER_US;
        let mut no_vc_train = EnginePaths::ALL;
        no_vc_train.vc_train = false;
        for (policy, gap) in [
            (Policy::TailDrop, 1_050_000),
            (Policy::Ppd, 950_000),
            (Policy::Epd { threshold: 6 }, 1_050_000),
            (Policy::Epd { threshold: 6 }, 950_000),
            (Policy::Epd { threshold: 6 }, 700_000),
            (Policy::TailDrop, 600_000),
            (Policy::FifoGfr { lbo: 0, hbo: 20 }, 1_050_000),
        ] {
            let outcome = |commit: bool, paths: EnginePaths, step: Time| {
                let (mut p, mut w) = interleaved(policy, gap);
                let (events, wire) = run_with(&mut p, &mut w, commit, paths, end, step);
                let s = &p.stats;
                (
                    (
                        wire,
                        events,
                        s.drops_by_reason(),
                        s.cells_in(),
                        s.cells_out(),
                        s.max_queue(),
                        s.queue_area(),
                    ),
                    p.plan.vc_train,
                )
            };
            let reference = outcome(false, EnginePaths::WITHOUT_PASSES, PS_PER_US);
            assert!(reference.0 .3 > 200, "cells arrive");
            if gap < 900_000 {
                let (drops, max_queue) = (reference.0 .2.iter().sum::<u64>(), reference.0 .5);
                assert!(drops > 0 && max_queue >= 3, "{policy:?} {gap}: {drops} drops, queue {max_queue}");
            }
            let gfr = matches!(policy, Policy::FifoGfr { .. });
            for step in [PS_PER_US, 9 * PS_PER_US + 1, end] {
                let what = format!("{policy:?} {gap} step {step}");
                let with = outcome(true, EnginePaths::ALL, step);
                assert_eq!(with.1, !gfr, "{what}: trains across VCs");
                assert_eq!(with.0, reference.0, "{what}");
                assert_eq!(outcome(true, no_vc_train, step).0, reference.0, "{what}: frame trains only");
            }
        }
    }

    #[test]
    fn a_train_across_vcs_takes_cells_of_several_vcs_in_one_loop() {
        // At an idle port, the interleaved VCs' cells before the batch's end in one call, the
        // first RM cell or cell into another FIFO left at the head; nothing while cells are
        // held back at the end of the committed run.
        let (mut p, mut w) = interleaved(Policy::TailDrop, 1_050_000);
        p.commit_until(400 * PS_PER_US, &w);
        assert!(p.plan.vc_train);
        let stop = 30 * PS_PER_US;
        let before = w.fifos[1].iter().filter(|c| c.0 < stop).count() as u64;
        let n = p.vc_train(1, stop, &mut w);
        assert_eq!(n, before, "every cell before the stop");
        let vcs: std::collections::HashSet<VcId> = w.fifos[0].iter().map(|c| c.1.vc).collect();
        assert_eq!(vcs.len(), 2, "both VCs");
        assert_eq!((p.stats.cells_in(), p.stats.cells_out()), (n, n));
        // VC 2 goes into FIFO 2: the loop stops at its cell, the cells before it taken.
        let (mut q, mut x) = interleaved(Policy::TailDrop, 1_050_000);
        let at = x.fifos[1].get(3).expect("cells").0;
        let mut cells: Vec<_> = x.fifos[1].iter().copied().collect();
        cells.insert(3, (at, Cell { frame: 0, vc: 2, flags: F_EOF }));
        while x.fifos[1].pop().is_some() {}
        for (t, c) in cells {
            x.fifos[1].push(t, c);
        }
        q.commit_until(400 * PS_PER_US, &x);
        assert_eq!(q.vc_train(1, stop, &mut x), 3, "stopped at another FIFO's VC");
        assert_eq!(x.fifos[1].front().map(|c| c.1.vc), Some(2));
    }

    #[test]
    fn a_one_vc_port_s_trains_match_the_per_cell_path() {
        // A port crossed by one VC (an egress port) walks without reading labels, and without
        // writing them where the VC's label at the next hop is its label here. Frames at gaps
        // around a slot (idle arrivals, one-slot steps, far jumps, cells behind one departure)
        // under tail drop, EPD and FIFO GFR, the next hop's label the same (0) or another (3):
        // with trains, the wire (labels included), the counters, the drops, the integral and
        // the events are the per-cell path's.
        let end = 400 * PS_PER_US;
        for (gap, policy) in [
            (950_000, Policy::Epd { threshold: 6 }),
            (1_100_000, Policy::TailDrop),
            (1_050_000, Policy::FifoGfr { lbo: 0, hbo: 20 }),
        ] {
            for next_label in [0, 3] {
                let outcome = |commit: bool, trains: bool, step: Time| {
                    let (mut p, mut w) = port_of(end + 50 * PS_PER_US, gap, policy, 1, 1);
                    w.channels[0].route[0].label = next_label;
                    assert_eq!(p.vcs.len(), 1);
                    let (events, wire) = run(&mut p, &mut w, commit, trains, end, step);
                    let s = &p.stats;
                    (
                        wire,
                        events,
                        s.drops_by_reason(),
                        s.cells_in(),
                        s.cells_out(),
                        s.max_queue(),
                        s.queue_area(),
                    )
                };
                let reference = outcome(false, false, PS_PER_US);
                assert!(reference.3 > 150, "{gap}: cells arrive");
                assert!(reference.0.iter().all(|c| c.1.vc == next_label), "labelled for the next hop");
                for step in [PS_PER_US, 9 * PS_PER_US + 1, end] {
                    assert_eq!(
                        outcome(true, true, step),
                        reference,
                        "{gap} {policy:?} {next_label} step {step}"
                    );
                }
            }
        }
    }
}
