//! Busy runs: one VC's cells crossing a busy count-only port, taken in one pass.
//!
//! At a bottleneck fed by several links the input merge hands the port its cells in runs, each
//! from one input until another input's head comes first (`InputMerge::run_until`); at a
//! bottleneck whose inputs each carry one source, a run is several cells of one VC, most of
//! them arriving while the transmitter is busy. At a count-only port (`net/commit.rs`) a cell
//! of a frame still whole here meets no policy: it enters if the buffer has room, is committed
//! in the transmitter's next free slot and put on the link (`Port::enqueue_plain`); a frame's
//! first cell is first asked of the policy, with the buffer's total as its only input.
//! [`Port::busy_pass`] does that for the cells at the head of the input while they are of the
//! VC of its head cell, not control cells, arrive before the run's end, find the buffer
//! below its capacity and a slot before the end of the committed run, and, at a first cell,
//! the policy admits the frame. Per cell: an idle transmitter (every pending departure before
//! the arrival) restarts in the first slot from it (`SlotClock::align_mark`); the cell is
//! committed in the next free slot, stepped in biased form (`SlotClock::step_cursor`). The
//! pending departures (`CommittedRun::parts`: consecutive slots from the first, a count) are
//! retired lazily: the count stays an upper bound of the occupancy, made exact at once by a
//! jump (`SlotClock::align_mark_counted`) only where the exact value is needed: at a first
//! cell the policy might refuse at that count (`PolicyFacts::unasked_below`), where the count passes
//! the port's highest occupancy so far (`max_queue`), and at the end of each stretch. No test
//! per cell for the capacity (the pass takes at most the buffer's room) nor, but within a
//! buffer's worth of slots of it, for the end of the committed run (each slot taken starts
//! less than `capacity` slots after its arrival); a frame's first cell is told by the label
//! test (`FIRST` after an EOF). The loop (`Busy::walk`) runs out of line once per stretch of
//! the two FIFOs that wraps in neither (`CellFifo::relay_chunks`), by pointer, with its values
//! in registers. Once per pass: the clock and the run written back, the arrivals,
//! departures, `max_queue`, the VC's time in the buffer and frame state, and the receiver's
//! wake-up (the earliest moved cell's, the only one that can lower its key).
//!
//! First cells are taken only under a policy that decides from the buffer's total alone and
//! keeps no state or draw of its own (tail drop, PPD, EPD, FIFO GFR: `PolicyFacts::decides_from_total`): a frame it refuses stops the pass, and the per-cell path asks again, to the same
//! answer. A port counts only under other policies too when it has one class; there a pass
//! stops at a first cell (the policy is asked once, by the per-cell path).
//!
//! The occupancy is the committed run's count (once retired) throughout: a pass starts only
//! when no cell is held back (`queued` equals the run's count) and holds none back. A cell the
//! pass does not take is left at the head for `Port::arrive_plain_as`; the retire and align the
//! pass did are ones that path does first anyway (a departure before an arrival retires there
//! too), which then change nothing. So every cell gets the
//! slot, and every counter the value, of the per-cell path; `scripts/compare_engines.py` and
//! the unit tests below hold the reports to that.

use super::admission;
use super::Port;
use crate::accept::{Policy, VcPolicy};
use crate::cell::{Cell, VcId, F_CONTROL, F_EOF};
use crate::net::commit::CommittedRun;
use crate::net::World;
use crate::ring::ChunkRelayer;
use crate::rng::Rng;
use crate::time::{CellPeriod, SlotClock, SlotMark, Time, NEVER};

/// [`Busy::label`] when the next cell is a frame's first: no cell carries it, so a first cell
/// fails the loop's label test and takes the slow branch, where the policy is asked.
const FIRST: u32 = u32::MAX;

/// One busy pass's state: what stops it, and what it has done so far.
struct Busy<'a> {
    clock: &'a SlotClock,
    /// The end of the input's run (the merge's runner-up, or the batch's end).
    stop: Time,
    /// The end of the committed run: a cell whose slot is not before it is held back. Tested
    /// per cell only by a pass within reach of it (`Port::busy_pass`; `walk::<true>`).
    end: Time,
    /// The VC taken, as labelled here and at the next hop.
    vc: VcId,
    next_label: VcId,
    /// `vc` while the next cell is within a frame, else [`FIRST`]: the frame's state and the
    /// label in one test per cell.
    label: u32,
    latency: Time,
    /// The transmitter's next free slot.
    next: SlotMark,
    /// The committed departures not yet retired, in consecutive slots from `first` to the one
    /// before `next` (`CommittedRun::parts`: `first` is `next` when none is); their count `x`
    /// is the buffer's occupancy once those before the arrival have retired. Within a stretch
    /// those retire only where the occupancy must be exact (`retired`), so `first` stays out
    /// of the loop's registers.
    first: SlotMark,
    x: u32,
    /// The highest occupancy after an arrival, the port's so far included (`PortStats::max_queue`).
    max_queue: u32,
    /// The moved cells' time in the buffer, in all (in 64 bits: the pass's limit on cells).
    stay: u64,
    capacity: u32,
    /// An occupancy below which the policy admits every frame (`PolicyFacts::unasked_below`): a first
    /// cell finding the count below it needs neither the exact occupancy nor the policy.
    admits_below: u32,
    /// The policy decides from the buffer's total alone, with no state or draw of its own
    /// (`PolicyFacts::decides_from_total`): the pass may ask it at a first cell, and a frame
    /// it refuses is asked again, to the same answer, by the per-cell path.
    firsts: bool,
    policy: &'a Policy,
    vc_policy: &'a mut VcPolicy,
    rng: &'a mut Rng,
}

impl Busy<'_> {
    /// Whether the policy refuses the frame whose first cell `cell` arrives with `x` cells in
    /// the buffer: the decision `enqueue_plain` asks for at a count-only port (the class's
    /// occupancy is the port's, `Port::vc_state`).
    #[inline(always)]
    fn refused(&mut self, x: u32, cell: Cell) -> bool {
        let state = admission::count_only_view(x, self.capacity, cell.clp());
        self.policy.frame_decision(&state, self.vc_policy, self.rng).is_some()
    }

    /// At a first cell whose count reaches `admits_below`: the departures before `ta` retired
    /// (`retired`), and the run so left if the policy admits the frame at that occupancy
    /// (`None`: it refuses). Out of line, as rare under the policies that have a bound.
    #[cold]
    #[inline(never)]
    fn admitted(&mut self, first: SlotMark, x: u32, ta: Time, cell: Cell) -> Option<(SlotMark, u32)> {
        let (first, x) = retired(self.clock, first, x, ta);
        (!self.refused(x, cell)).then_some((first, x))
    }

    /// The pass's loop over a stretch of the input `src` into the output `dst` (of the same
    /// length, at most the cells the pass may take); returns how many cells it moved.
    ///
    /// Per cell, what `arrive_plain_as` does first (and redoes, to no effect, for a cell left
    /// here, a control cell included): the departures before the arrival retire, and an idle
    /// transmitter starts again in the first slot from it. Then one test for the rare cases
    /// (another VC, a control cell, a frame's first or last cell), and the commit. The buffer
    /// is below its capacity at every cell the loop sees (the pass's limit, `Port::busy_pass`),
    /// and the slot before the end of the committed run unless `END` (the pass is within reach
    /// of it): only then is that tested.
    ///
    /// Out of line (once per stretch), walked by pointer with the far jump in line, as
    /// `Pass::walk` (`train.rs`): the loop's values get registers of their own, none saved
    /// around a call.
    #[inline(never)]
    fn walk<const END: bool>(&mut self, src: &[(Time, Cell)], dst: &mut [(Time, Cell)]) -> usize {
        let n = src.len().min(dst.len());
        let clock = self.clock;
        let (stop, latency, next_label) = (self.stop, self.latency, self.next_label);
        let mut label = self.label;
        // The next free slot stepped in biased form (an add's carry tells the long slot).
        let (mut next, mut first) = (clock.cursor(self.next), self.first);
        let (mut x, mut max_queue, mut stay) = (self.x, self.max_queue, self.stay);
        let start = src.as_ptr();
        let last = start.wrapping_add(n);
        let gap = (dst.as_mut_ptr() as usize).wrapping_sub(start as usize);
        let mut p = start;
        while p != last {
            // SAFETY: `p` is `start` plus j < n entries (the loop ends at `last`, `start` plus
            // n): `src`'s entry j. `o` is `dst`'s entry j: `dst` holds n entries or more, and
            // its pointer was cast to an integer above (exposing its provenance, which the cast
            // back takes). Both are in bounds and aligned; `dst` is borrowed mutably (disjoint
            // from `src`), and nothing else reads or writes it while the loop runs.
            let o = (p as usize).wrapping_add(gap) as *mut (Time, Cell);
            // The cell's fields are read where they are tested, not held across the retire.
            let ta = unsafe { (*p).0 };
            if ta >= stop {
                break;
            }
            if next.time() <= ta {
                // Every pending departure is before `ta` (they end right before `next`): all
                // retire at once, and the transmitter, idle, starts again in the first slot
                // from `ta`.
                x = 0;
                next = clock.cursor(clock.align_mark_in_line(clock.cursor_mark(next), ta));
                first = clock.cursor_mark(next);
            }
            // At a busy transmitter the departures before `ta` retire only where the count
            // must be exact (`retired`): `x` counts them meanwhile (it is at least the
            // occupancy, below the capacity), and `first` stays at the earliest of them.
            debug_assert!(next.time() >= ta && x < self.capacity);
            debug_assert!(END || next.time() < self.end);
            if END && next.time() >= self.end {
                break;
            }
            let (vc, flags) = unsafe { ((*p).1.vc, (*p).1.flags) };
            if u32::from(vc) != label || flags & (F_CONTROL | F_EOF) != 0 {
                let cell = unsafe { (*p).1 };
                // A control cell or another VC's stops the pass. A first cell (the label is
                // `FIRST` after an EOF, or where the pass began between frames): the policy's
                // decision, and a frame it refuses stops the pass.
                if cell.is_control() {
                    break;
                }
                if u32::from(cell.vc) != label {
                    if label != FIRST || cell.vc != self.vc || !self.firsts {
                        break;
                    }
                    // Below `admits_below` the policy admits whatever the exact occupancy (at
                    // most the count): no retire needed to know.
                    if x >= self.admits_below {
                        let Some(exact) = self.admitted(first, x, ta, cell) else { break };
                        (first, x) = exact;
                    }
                }
                label = if cell.is_eof() { FIRST } else { u32::from(cell.vc) };
            }
            x += 1;
            // The highest occupancy moves only when the count, an upper bound, passes it:
            // there the count is made exact.
            if x > max_queue {
                (first, x) = retired(clock, first, x, ta);
                max_queue = max_queue.max(x);
            }
            stay += next.time() - ta;
            // The entry copied whole, then its time and label set (as `Pass::walk`).
            // SAFETY: `p` and `o` as above.
            unsafe {
                *o = *p;
                (*o).0 = next.time() + latency;
                (*o).1.vc = next_label;
            }
            clock.step_cursor(&mut next);
            p = p.wrapping_add(1);
        }
        let j = (p as usize - start as usize) / std::mem::size_of::<(Time, Cell)>();
        // The state the per-cell path leaves after the last cell taken: its retire made exact.
        if j > 0 {
            (first, x) = retired(clock, first, x, src[j - 1].0);
        }
        (self.label, self.next, self.first) = (label, clock.cursor_mark(next), first);
        (self.x, self.max_queue, self.stay) = (x, max_queue, stay);
        j
    }
}

/// The departures of the run from `first` (a mark on `clock`'s grid; `x` of them, in
/// consecutive slots before the next free one) that start before `ta` retire at once:
/// `first` moved to the first slot from `ta` (at most the next free one), `x` less their count.
#[inline(always)]
fn retired(clock: &SlotClock, first: SlotMark, x: u32, ta: Time) -> (SlotMark, u32) {
    let (first, gone) = clock.align_mark_counted(first, ta);
    debug_assert!(gone <= u64::from(x));
    (first, x - gone as u32)
}

impl ChunkRelayer<(Time, Cell), (Time, Cell)> for Busy<'_> {
    #[inline(always)]
    fn relay_chunk(&mut self, src: &[(Time, Cell)], dst: &mut [(Time, Cell)]) -> usize {
        if self.end == NEVER {
            self.walk::<false>(src, dst)
        } else {
            self.walk::<true>(src, dst)
        }
    }
}

impl Port {
    /// The busy run at the head of input `f` before `stop` (see the module comment), at a
    /// count-only plain port (`trains`: no slot grid either), from the run's first cell on
    /// when the run holds four or more (the per-cell path takes the cells a pass leaves, and a
    /// pass may follow again); returns how many cells it took.
    #[inline(never)]
    pub(super) fn busy_pass(&mut self, f: usize, stop: Time, world: &mut World) -> u64 {
        debug_assert!(self.plan.busy);
        if self.queued != self.run.len() {
            return 0;
        }
        let Some((_, cell)) = world.fifos[f].front() else { return 0 };
        let label = cell.vc;
        let Some(v) = self.vcs.get_mut(label as usize) else { return 0 };
        let facts = self.policy.facts();
        let (within, firsts) = (v.frame.within(), facts.decides_from_total());
        // Within a frame, it must still be whole here; at a first cell, the pass must be allowed
        // to ask the policy.
        let may_pass = if within { v.frame.passing() } else { firsts };
        if !may_pass {
            return 0;
        }
        let hop = v.hop;
        let Ok([input, out]) = world.fifos.get_disjoint_mut([f, hop.fifo as usize]) else { return 0 };
        let next = self.clock.mark();
        let (first, x) = self.run.parts(next);
        debug_assert!(
            (0..x).fold(first, |mut m, _| {
                self.clock.step(&mut m);
                m
            }) == next,
            "the pending departures end right before the next free slot"
        );
        // The pass takes no more cells than the buffer has room for before it (each raises the
        // occupancy by one at most): the loop need not test the capacity. And every slot it
        // takes starts before `stop` plus the buffer's worth of slots (the first pending slot
        // is within a slot of the arrival, the cell's less than `capacity` slots after it):
        // with the end of the committed run farther than that (all but the last buffer's
        // worth of a run), the loop need not test it either (`NEVER` stands for it then).
        let room = self.capacity.saturating_sub(x) as usize;
        let reach = u64::from(self.capacity).saturating_mul(self.clock.shortest_slot().saturating_add(1));
        let end = if stop.saturating_add(reach) <= self.commit_end { NEVER } else { self.commit_end };
        let mut pass = Busy {
            clock: &self.clock,
            stop,
            end,
            vc: label,
            next_label: hop.label,
            label: if within { u32::from(label) } else { FIRST },
            latency: self.latency,
            next,
            first,
            x,
            max_queue: self.stats.max_queue(),
            stay: 0,
            capacity: self.capacity,
            admits_below: facts.unasked_below(),
            firsts,
            policy: &self.policy,
            vc_policy: &mut self.classes[v.class as usize].policy,
            rng: &mut self.rng,
        };
        // The receiver's key is at or before the head of each of its inputs holding cells, and
        // the moved cells arrive after those: only a pass into an empty input can lower it.
        let woken = out.is_empty() || out.middle_floor != 0;
        debug_assert!(
            woken
                || out
                    .head_time()
                    .is_some_and(|h| world.sched.key(out.owner) <= out.taken_at(h + out.wake_delay))
        );
        let n = input.relay_chunks(out, self.busy_limit.min(room), &mut pass);
        let Busy { next, first, x, max_queue, stay, label, .. } = pass;
        let now_within = label != FIRST;
        // The retire and align of a cell left at the head happened here: kept, as its own
        // path would do them.
        self.clock.set_next(next);
        self.run = CommittedRun::from_parts(first, x, next, &self.clock);
        self.queued = x;
        if n == 0 {
            return 0;
        }
        v.frame.passed(now_within, Port::pass_began(within, &v.frame, out, n));
        v.sojourn = v.sojourn.wrapping_add(u128::from(stay));
        if woken {
            crate::net::wake_for_last(&mut world.sched, out, n);
        }
        self.stats.passed(u64::from(n), u64::from(n), max_queue);
        u64::from(n)
    }

    /// The most cells one busy pass may take: each waits less than `capacity + 1` slots of at
    /// most q + 1 ps (`SlotClock`), so their summed time in the buffer stays in 64 bits.
    /// The shortest slot of any link of `periods`, less 1/64 for oscillator drift (far more
    /// than `MAX_RATE_ERROR`); `NEVER` without links. The cells of one input come from one
    /// link, one per slot of its clock, so four of them span at least three of these: a run
    /// ending within three (`pass_span`) of its head holds fewer than four, and the FIFO need
    /// not be read. (Only the choice between a pass and the per-cell path, which give the same
    /// result, rests on this.)
    pub(crate) fn input_spacing(periods: impl Iterator<Item = CellPeriod>) -> Time {
        let q = periods.map(|p| p.num / p.den).min().unwrap_or(NEVER);
        (q - q / 64).max(1)
    }

    pub(super) fn busy_limit(clock: &SlotClock, capacity: u32) -> usize {
        let longest = (u64::from(capacity) + 1).saturating_mul(clock.shortest_slot().saturating_add(1));
        usize::try_from(u64::MAX / longest).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use crate::accept::{DropReason, Policy, VcPolicy};
    use crate::cell::{Cell, CellFifo, VcId, F_EOF, F_RM};
    use crate::frame::{Frame, FrameSlab};
    use crate::net::port::Port;
    use crate::net::{identity_route, Channel, EnginePaths, Sched, World, NO_CAPTURE, NO_COMMIT};
    use crate::rng::Rng;
    use crate::sched::Queue;
    use crate::time::{CellPeriod, SlotClock, Time, MAX_RATE_ERROR, NEVER, PS_PER_US};

    /// A port under `policy` (buffer 30) sending 1 M cells/s into FIFO 0, fed by FIFOs 1 and 2:
    /// on FIFO 1 two frames of VC 0 (8 and 5 cells) from 10 us, on FIFO 2 one frame of VC 1
    /// (6 cells) from `other`, each cell 0.4 us after the one before (links of 2.5 M cells/s,
    /// channel 1), so that the port is busy.
    fn port(policy: Policy, other: Time) -> (Port, World) {
        let period = CellPeriod::from_cells_per_s(1_000_000);
        let mut w = World {
            fifos: vec![CellFifo::new(1), CellFifo::new(0), CellFifo::new(0)],
            frames: FrameSlab::default(),
            channels: vec![
                Channel {
                    name: "x".into(),
                    period,
                    latency: 7,
                    route: identity_route(2, 0),
                    cells: 0,
                    capture: NO_CAPTURE,
                },
                Channel {
                    name: "in".into(),
                    period: CellPeriod::from_cells_per_s(2_500_000),
                    latency: 7,
                    route: identity_route(2, 0),
                    cells: 0,
                    capture: NO_CAPTURE,
                },
            ],
            sched: Sched::new(2),
            captures: Default::default(),
            levels: Vec::new(),
            shares: Vec::new(),
        };
        let clock = SlotClock::with_phase(period.scaled(2e-5), 4321);
        let mut p = Port::new("p".into(), 0, clock, 30, policy, 2);
        p.configure(Queue::fifo(), vec![0, 1], vec![VcPolicy::default(); 2], Rng::stream(5, "t"), false);
        p.inputs = vec![1, 2];
        let mut push = |fifo: usize, vc: VcId, mut t: Time, n: u32| {
            let frame = w.frames.insert(Frame { ncells: n, alive: n, ..Default::default() });
            for i in 0..n {
                w.fifos[fifo].push(t, Cell { frame, vc, flags: if i + 1 == n { F_EOF } else { 0 } });
                t += 400_000;
            }
            t
        };
        let t = push(1, 0, 10 * PS_PER_US, 8);
        push(1, 0, t, 5);
        push(2, 1, other, 6);
        // Room in the output FIFO (a pass does not grow it).
        for _ in 0..64 {
            w.fifos[0].push(0, Cell::default());
        }
        while w.fifos[0].pop().is_some() {}
        (p, w)
    }

    /// The cells on the wire, the port's counters (in, out, drops by reason), `max_queue`,
    /// its integral and its classes' at `end`, the channel's count, and the events.
    type Outcome = (Vec<(Time, Cell)>, [u64; 2], Vec<u64>, u32, u128, Vec<u128>, u64, u64);

    fn outcome(p: &mut Port, mut w: World, events: u64, end: Time) -> Outcome {
        p.finish(end);
        let wire = w.fifos[0].iter().copied().collect();
        while w.fifos[0].pop().is_some() {}
        let s = &p.stats;
        let areas = p.classes.iter().map(|c| c.area(end)).collect();
        (
            wire,
            [s.cells_in(), s.cells_out()],
            s.drops_by_reason().to_vec(),
            s.max_queue(),
            s.queue_area(),
            areas,
            w.channels[0].cells,
            events,
        )
    }

    /// FIFO 1's first cell by the per-cell step, then a pass before `stop`; then the same
    /// cells one by one on a twin port: the pass took `taken` cells, woke the receiver, and
    /// left the twin's wire, slots, run, clock, counters and integrals.
    fn pass_as_per_cell(policy: Policy, other: Time, stop: Time, taken: u64) -> Port {
        let end = 100 * PS_PER_US;
        let (mut p, mut w) = port(policy, other);
        p.commit_until(end, &w);
        assert!(p.plan.plain && p.plan.count_only && p.plan.train);
        let (ta, cell) = w.fifos[1].pop().unwrap();
        p.arrive_plain_as::<false, true>(ta, cell, &mut w);
        assert_eq!(p.busy_pass(1, stop, &mut w), taken, "{policy:?}");
        assert_eq!(w.sched.key(1), w.fifos[0].front().unwrap().0, "the receiver is woken");
        assert!(p.stats.max_queue() > 2, "the port is busy");
        let (mut q, mut v) = port(policy, other);
        q.commit_until(end, &v);
        for _ in 0..=taken {
            let (ta, cell) = v.fifos[1].pop().unwrap();
            q.arrive_plain_as::<false, true>(ta, cell, &mut v);
        }
        assert_eq!(w.fifos[0].iter().collect::<Vec<_>>(), v.fifos[0].iter().collect::<Vec<_>>());
        assert_eq!((p.queued, p.run.len(), p.clock.next()), (q.queued, q.run.len(), q.clock.next()));
        assert_eq!(p.vcs[0].frame, q.vcs[0].frame);
        let mut twin = q;
        assert_eq!(outcome(&mut p, w, 0, end), outcome(&mut twin, v, 0, end));
        p
    }

    #[test]
    fn a_busy_pass_takes_a_run_as_the_per_cell_path_would() {
        let epd = Policy::Epd { threshold: 20 };
        // The rest of the first frame, up to FIFO 2's first cell (the runner-up, at 12.1 us).
        let p = pass_as_per_cell(epd, 12 * PS_PER_US + 100_000, 12 * PS_PER_US + 100_000, 5);
        assert!(p.vcs[0].frame.within(), "mid-frame");
        // With the runner-up later, on across the frame's end: the next frame's first cell is
        // asked of the policy (EPD with threshold 20 admits it), and the frame taken whole.
        let p = pass_as_per_cell(epd, 50 * PS_PER_US, 50 * PS_PER_US, 12);
        assert!(!p.vcs[0].frame.within() && p.vcs[0].frame.passing(), "ended at its EOF");
        // EPD above two cells refuses the second frame: the pass stops at its first cell,
        // which the per-cell path then refuses (the twin saw it too: the same drops).
        let (mut p, mut w) = port(Policy::Epd { threshold: 2 }, 50 * PS_PER_US);
        p.commit_until(100 * PS_PER_US, &w);
        let (ta, cell) = w.fifos[1].pop().unwrap();
        p.arrive_plain_as::<false, true>(ta, cell, &mut w);
        assert_eq!(p.busy_pass(1, 50 * PS_PER_US, &mut w), 7);
        let (ta, cell) = w.fifos[1].pop().unwrap();
        p.arrive_plain_as::<false, true>(ta, cell, &mut w);
        assert_eq!(p.stats.drops(DropReason::EarlyPacket), 1);
        assert_eq!(p.busy_pass(1, 50 * PS_PER_US, &mut w), 0, "no pass through a refused frame");
    }

    #[test]
    fn four_cells_of_any_link_span_at_least_the_pass_span() {
        // Links of several rates, their oscillators off by the most a scenario allows either
        // way: any four successive slots of any of them span `pass_span` or more, so no run
        // holding four cells is told it holds fewer. Fails without the margin for drift.
        let periods = [155_520_000, 622_080_000, 1_544_000].map(CellPeriod::from_bps);
        let span = 3 * Port::input_spacing(periods.iter().copied());
        for p in periods {
            for e in [-MAX_RATE_ERROR, 0.0, MAX_RATE_ERROR] {
                let mut clock = SlotClock::with_phase(p.scaled(e), 7);
                let slots: Vec<Time> = (0..1000)
                    .map(|_| {
                        let t = clock.next();
                        clock.advance();
                        t
                    })
                    .collect();
                assert!(slots.windows(4).all(|w| w[3] - w[0] >= span), "{p:?} {e}");
            }
        }
        assert_eq!(Port::input_spacing([].into_iter()), NEVER - NEVER / 64);
    }

    #[test]
    fn a_busy_pass_across_the_end_of_a_damaged_frame_starts_the_next_one_clean() {
        // The first frame lost a cell here (tail drop lets its other cells through): a pass
        // through its EOF into the next frame leaves that one undamaged; one that stops within
        // it leaves it damaged.
        for (stop, taken, damaged) in [(50 * PS_PER_US, 12, false), (12 * PS_PER_US + 100_000, 5, true)] {
            let (mut p, mut w) = port(Policy::TailDrop, 50 * PS_PER_US);
            p.commit_until(100 * PS_PER_US, &w);
            let (ta, cell) = w.fifos[1].pop().unwrap();
            p.arrive_plain_as::<false, true>(ta, cell, &mut w);
            p.vcs[0].frame.damage();
            assert_eq!(p.busy_pass(1, stop, &mut w), taken);
            assert_eq!(p.vcs[0].frame.damaged(), damaged, "{taken} cells taken");
        }
    }

    #[test]
    fn a_busy_pass_stops_at_a_control_cell() {
        // The VC's sixth cell on FIFO 1 is an RM cell: a pass from the second cell takes four
        // and leaves it at the head, for the per-cell path.
        let (mut p, mut w) = port(Policy::Epd { threshold: 20 }, 50 * PS_PER_US);
        let cells: Vec<_> = std::iter::from_fn(|| w.fifos[1].pop()).collect();
        for (k, (t, mut cell)) in cells.into_iter().enumerate() {
            if k == 5 {
                cell.flags = F_RM;
            }
            w.fifos[1].push(t, cell);
        }
        p.commit_until(100 * PS_PER_US, &w);
        let (ta, cell) = w.fifos[1].pop().unwrap();
        p.arrive_plain_as::<false, true>(ta, cell, &mut w);
        assert_eq!(p.busy_pass(1, 50 * PS_PER_US, &mut w), 4);
        assert!(w.fifos[1].front().unwrap().1.is_control());
    }

    #[test]
    fn a_pass_asks_no_policy_that_reads_the_vc_s_occupancy() {
        // One class: the port counts only under threshold drop too, but a pass may not ask
        // that policy (it keeps a crossing flag): it takes the rest of the first frame and
        // stops at the second's first cell, left to the per-cell path.
        let (mut p, mut w) = port(Policy::ThresholdDrop, 50 * PS_PER_US);
        let vc = VcPolicy { threshold: 100, ..Default::default() };
        p.configure(Queue::fifo(), vec![0, 0], vec![vc; 1], Rng::stream(5, "t"), false);
        p.commit_until(100 * PS_PER_US, &w);
        assert!(p.plan.count_only && p.plan.train);
        let (ta, cell) = w.fifos[1].pop().unwrap();
        p.arrive_plain_as::<false, true>(ta, cell, &mut w);
        assert_eq!(p.busy_pass(1, 50 * PS_PER_US, &mut w), 7);
        assert!(!p.vcs[0].frame.within());
        assert_eq!(p.busy_pass(1, 50 * PS_PER_US, &mut w), 0, "no pass from a first cell");
    }

    #[test]
    fn busy_passes_change_no_cell_time_count_or_integral() {
        // The whole batch loop with passes (`trains` on), without, and cell by cell, in long
        // and short batches, the second input's frame early (cutting the first input's run)
        // or late, under policies that admit, refuse at first cells or overflow: the same wire,
        // counters, drops, integrals and events.
        let end = 100 * PS_PER_US;
        for policy in
            [Policy::Epd { threshold: 20 }, Policy::Epd { threshold: 2 }, Policy::Ppd, Policy::TailDrop]
        {
            for other in [12 * PS_PER_US + 100_000, 50 * PS_PER_US] {
                let run = |commit: bool, passes: bool, step: Time| {
                    let (mut p, mut w) = port(policy, other);
                    p.set_paths(if passes { EnginePaths::ALL } else { EnginePaths::WITHOUT_PASSES });
                    p.commit_until(if commit { end } else { NO_COMMIT }, &w);
                    assert!(passes == p.plan.busy || !commit);
                    // Four cells of FIFO 1 span 1.2 us: runs of them reach the FIFO's test.
                    assert!(!commit || !passes || p.pass_span < 1_200_000);
                    let (mut now, mut events) = (0, 0);
                    while now < end {
                        now = (now + step).min(end);
                        events += p.advance(now, &mut w);
                    }
                    outcome(&mut p, w, events, end)
                };
                let reference = run(false, false, PS_PER_US);
                assert_eq!(reference.1[0], 19);
                for step in [PS_PER_US, 3 * PS_PER_US + 1, end] {
                    assert_eq!(run(true, true, step), reference, "{policy:?} {other} step {step}");
                    assert_eq!(run(true, false, step), reference, "{policy:?} {other} step {step}");
                }
            }
        }
    }
}
