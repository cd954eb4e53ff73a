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
//! the policy admits the frame: per cell it retires the departures before the arrival (as
//! `CommittedRun::retire_before` does, on the run's first slot and count: `CommittedRun::parts`),
//! aligns the clock if the transmitter fell idle
//! (`SlotClock::align_mark`), asks the policy at a first cell and commits the cell, with the
//! next free slot, the committed run, the highest occupancy and the time in the buffer kept in
//! locals and the two FIFOs walked with one bound (`CellFifo::relay`). Once per pass: the clock
//! and the run written back, the arrivals, departures, `max_queue`, the VC's time in the buffer
//! and frame state, and the receiver's wake-up (the earliest moved cell's, the only one that
//! can lower its key).
//!
//! First cells are taken only under a policy that decides from the buffer's total alone and
//! keeps no state or draw of its own (tail drop, PPD, EPD, FIFO GFR: `Policy::reads_vc_occupancy`
//! false): a frame it refuses stops the pass, and the per-cell path asks again, to the same
//! answer. A port counts only under other policies too when it has one class; there a pass
//! stops at a first cell (the policy is asked once, by the per-cell path).
//!
//! The occupancy is the committed run's count throughout: a pass starts only when no cell is
//! held back (`queued` equals the run's count) and holds none back. A cell the pass does not
//! take is left at the head for `Port::arrive_plain_as`; the retire and align the pass did for
//! it are the ones that path does first, which then change nothing. So every cell gets the
//! slot, and every counter the value, of the per-cell path; `scripts/compare_engines.py` and
//! the unit tests below hold the reports to that.

use super::Port;
use crate::accept::{BufferState, Policy, VcPolicy};
use crate::cell::{Cell, VcId, F_CONTROL, F_EOF};
use crate::net::commit::CommittedRun;
use crate::net::World;
use crate::ring::Relayer;
use crate::rng::Rng;
use crate::time::{CellPeriod, SlotClock, SlotMark, Time, NEVER};

/// One busy pass's state: what stops it, and what it has done so far.
struct Busy<'a> {
    clock: &'a SlotClock,
    /// The end of the input's run (the merge's runner-up, or the batch's end).
    stop: Time,
    /// The end of the committed run: a cell whose slot is not before it is held back.
    end: Time,
    capacity: u32,
    /// The VC taken, as labelled here and at the next hop.
    label: VcId,
    next_label: VcId,
    latency: Time,
    /// The transmitter's next free slot.
    next: SlotMark,
    /// The committed departures not yet retired, in consecutive slots from `first` to the one
    /// before `next` (`CommittedRun::parts`: `first` is `next` when none is); their count `x`
    /// is the buffer's occupancy. Kept as these two rather than a `CommittedRun`: a departure
    /// retires while `first` is before both the arrival and `next`, and a commit adds one to
    /// `x`, with no latest slot or empty run to keep apart.
    first: SlotMark,
    x: u32,
    /// The highest occupancy after an arrival taken.
    max_queue: u32,
    /// The moved cells' time in the buffer, in all (in 64 bits: the pass's limit on cells).
    stay: u64,
    /// `F_EOF` if the next cell is a frame's first (the last taken was an EOF, or the pass
    /// began between frames), else 0: tested with the cell's control flags in one test.
    after: u8,
    /// The policy decides from the buffer's total alone, with no state or draw of its own
    /// (`Policy::reads_vc_occupancy` false): the pass may ask it at a first cell, and a frame
    /// it refuses is asked again, to the same answer, by the per-cell path.
    firsts: bool,
    policy: &'a Policy,
    vc_policy: &'a mut VcPolicy,
    rng: &'a mut Rng,
}

impl Relayer<(Time, Cell), (Time, Cell)> for Busy<'_> {
    #[inline(always)]
    fn relay(&mut self, &(ta, cell): &(Time, Cell)) -> Option<(Time, Cell)> {
        if ta >= self.stop || cell.vc != self.label {
            return None;
        }
        // What `arrive_plain_as` does first (and redoes, to no effect, for a cell left here,
        // a control cell included).
        if self.next.time() <= ta {
            // Every pending departure is before `ta` (they end right before `next`): all
            // retire at once, and the transmitter, idle, starts again in the first slot from
            // `ta`.
            self.x = 0;
            self.next = self.clock.align_mark(self.next, ta);
            self.first = self.next;
        } else {
            // A slot at or after `ta` is pending or next: the departures before `ta` retire,
            // the walk ending at `next` at the latest (`first` is `next` when none is left),
            // and a busy transmitter's next free slot needs no align.
            while self.first.time() < ta {
                self.clock.step(&mut self.first);
                self.x -= 1;
            }
        }
        debug_assert!(self.next.time() >= ta);
        let (x, slot) = (self.x, self.next.time());
        if x >= self.capacity || slot >= self.end {
            return None;
        }
        if (cell.flags & F_CONTROL) | self.after != 0 {
            // A control cell stops the pass. A first cell (a pass starts within a frame or
            // where it may take one: only after an EOF can this stop it, out of the per-cell
            // checks): the policy's decision as `enqueue_plain` asks for it at a count-only port
            // (the class's occupancy is the port's, `Port::vc_state`).
            if cell.is_control() || !self.firsts {
                return None;
            }
            let state = BufferState { x, k: self.capacity, y: x, active: u32::from(x > 0), clp1: cell.clp() };
            if self.policy.frame_decision(&state, self.vc_policy, self.rng).is_some() {
                return None;
            }
        }
        self.x += 1;
        self.max_queue = self.max_queue.max(x + 1);
        self.stay += slot - ta;
        self.after = cell.flags & F_EOF;
        self.clock.step(&mut self.next);
        Some((slot + self.latency, Cell { vc: self.next_label, ..cell }))
    }
}

impl Port {
    /// The busy run at the head of input `f` before `stop` (see the module comment), at a
    /// count-only plain port (`trains`: no slot grid either), from the run's first cell on
    /// when the run holds four or more (the per-cell path takes the cells a pass leaves, and a
    /// pass may follow again); returns how many cells it took.
    #[inline(never)]
    pub(super) fn busy_pass(&mut self, f: usize, stop: Time, world: &mut World) -> u64 {
        debug_assert!(self.trains);
        if self.queued != self.run.len() {
            return 0;
        }
        let Some((_, cell)) = world.fifos[f].front() else { return 0 };
        let label = cell.vc;
        let Some(v) = self.vcs.get_mut(label as usize) else { return 0 };
        let (within, firsts) = (v.frame.within(), !self.policy.reads_vc_occupancy());
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
        let mut pass = Busy {
            clock: &self.clock,
            stop,
            end: self.commit_end,
            capacity: self.capacity,
            label,
            next_label: hop.label,
            latency: self.latency,
            next,
            first,
            x,
            max_queue: 0,
            stay: 0,
            after: if within { 0 } else { F_EOF },
            firsts,
            policy: &self.policy,
            vc_policy: &mut self.classes[v.class as usize].policy,
            rng: &mut self.rng,
        };
        // The receiver's key is at or before the head of each of its inputs holding cells, and
        // the moved cells arrive after those: only a pass into an empty input can lower it.
        let woken = out.is_empty() || out.middle_floor != 0;
        debug_assert!(woken || out.head_time().is_some_and(|h| world.sched.key(out.owner) <= h));
        let n = input.relay(out, self.busy_limit, &mut pass);
        let Busy { next, first, x, max_queue, stay, after, .. } = pass;
        let now_within = after == 0;
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
            world.sched.wake(out.owner, crate::net::first_work(out, out.len() as u32 - n));
        }
        self.stats.max_queue = self.stats.max_queue.max(max_queue);
        self.stats.cells_in += u64::from(n);
        self.stats.cells_out += u64::from(n);
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
    use crate::net::{identity_route, Channel, Sched, World, NO_CAPTURE, NO_COMMIT};
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
            [s.cells_in, s.cells_out],
            s.drops.to_vec(),
            s.max_queue,
            s.queue_area,
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
        assert!(p.plain && p.count_only && p.trains);
        let (ta, cell) = w.fifos[1].pop().unwrap();
        p.arrive_plain_as::<false, true>(ta, cell, &mut w);
        assert_eq!(p.busy_pass(1, stop, &mut w), taken, "{policy:?}");
        assert_eq!(w.sched.key(1), w.fifos[0].front().unwrap().0, "the receiver is woken");
        assert!(p.stats.max_queue > 2, "the port is busy");
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
        assert_eq!(p.stats.drops[DropReason::EarlyPacket as usize], 1);
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
        assert!(p.count_only && p.trains);
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
                    p.commit_until(if commit { end } else { NO_COMMIT }, &w);
                    p.trains &= passes;
                    if !passes {
                        p.pass_span = NEVER;
                    }
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
