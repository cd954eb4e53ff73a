//! Interleaved arrivals: the cells of several inputs crossing a busy count-only port one or two
//! at a time, taken in merge order in one pass.
//!
//! A busy pass (`busy.rs`) takes one input's run of a VC's cells; it needs the run to hold four
//! cells or more. Where two or more sources send at once the runs are shorter: their cells
//! interleave at the port, one from each in turn. With `phases = "aligned"` every transmitter
//! keeps the same slot grid, so the inputs' cells arrive at the same instants, and each tie
//! (decided by the arbitration) ends a run after one cell: at the WAN 5 bench case's
//! bottleneck 47 % of the runs begin at a tie and 93 % are one cell (with random phases none
//! and 90 %), and the per-cell path takes 39 % of the arrivals (24 %). Each such cell cost a
//! run of its own in `Port::process_plain`: the runner-up, the busy-pass test, the arrival
//! through the port's fields, the run's end.
//!
//! [`Port::interleaved_pass`] takes the merge's head cell as long as the per-cell path would
//! commit it at once (`Port::enqueue_plain` at a count-only port: not a control cell, a frame
//! still whole here or a first cell the policy admits from the buffer's total, a buffer below
//! its capacity, a slot before the end of the committed run), with the transmitter's next free
//! slot and the committed departures (`CommittedRun::parts`) in locals, and tells the merge after
//! each cell (`InputMerge::ran`: one service per cell, which orders the inputs as one service
//! per run does, so every tie is decided alike). It stops where the run at the merge's head
//! holds the four cells a busy pass takes (left to it), at the batch's end, and at a cell it
//! does not take: that one is left at its input's head for the per-cell path, whose retire and
//! align were done here and then change nothing. As in a busy pass, a first cell is asked of
//! the policy only under one that decides from the buffer's total alone and keeps no state or
//! draw (`PolicyFacts::decides_from_total`). A cell the frame state machine drops there (the
//! first cell of a frame the policy refuses, a later cell of a frame refused or cut by PPD
//! before) is dropped in the pass too, counted by reason as `Port::drop_cell` counts it: a
//! frame being discarded no longer ends a pass (with random phases about 10 k paired passes
//! per WAN bench case took nothing at one). Each taken cell's frame state, time in the buffer
//! and next hop are its own VC's, as on the per-cell path; the receiver is woken by a cell into
//! an empty input only.
//!
//! Most of these cells come from two inputs in turn (two sources sending at once). Under the
//! rotating arbitration, once each of two inputs has been served in a row, the order between
//! them is known without the heap: the earlier head goes first, and on a tie the one served
//! less recently; both rank above every other input. `alternate` takes such a pair's cells in
//! turn while each comes before every other input's head (read from their FIFOs: during a
//! batch the merge's keys are the heads), and tells the merge once at the end, in an order that
//! leaves its keys and ranks as per-cell telling would (see its comment): the heap's repair,
//! about 60 instructions a cell, is spent once per stretch instead.
//!
//! With random phases the same two sources' cells come at distinct instants, so no run ends at
//! a tie, yet most runs are still one cell (about 240 k per WAN bench case): input `a`, then
//! one cell of `b`, then `a` again. [`Port::paired_pass`] is entered there by the batch loop
//! and takes the pair's cells through `alternate` alone, handing back to the merge's runs where
//! they stop alternating.

use super::accounting::PortStats;
use super::admission;
use super::congestion::Congestion;
use super::{ClassState, Port, PortVc};
use crate::accept::{DropReason, Policy};
use crate::net::commit::CommittedRun;
use crate::net::{Arbitration, InputMerge, World};
use crate::rng::Rng;
use crate::time::{SlotClock, SlotMark, Time, NEVER};

/// A pass's per-cell path and the transmitter's state it keeps in locals (also the slotted
/// pass's, `slotted.rs`).
pub(super) struct Taker<'a> {
    pub(super) clock: &'a SlotClock,
    pub(super) capacity: u32,
    /// The end of the committed run: a cell whose slot is not before it is held back.
    pub(super) end: Time,
    pub(super) latency: Time,
    /// The policy decides from the buffer's total alone, with no state or draw of its own: it
    /// may be asked here at a first cell (see the module comment).
    firsts: bool,
    /// The transmitter's next free slot.
    pub(super) next: SlotMark,
    /// The pending departures: in consecutive slots from `first`, `x` of them (the occupancy).
    pub(super) first: SlotMark,
    pub(super) x: u32,
    pub(super) max_queue: u32,
    /// Cells taken and dropped (refused frames, the rest of a discarded one).
    pub(super) dropped: u64,
    policy: &'a Policy,
    pub(super) vcs: &'a mut [PortVc],
    classes: &'a mut [ClassState],
    rng: &'a mut Rng,
    stats: &'a mut PortStats,
    /// The port's published level and fair-share meter, for the slotted pass (`HOOKS`,
    /// `slotted.rs`).
    pub(super) congestion: &'a mut Congestion,
}

impl Taker<'_> {
    /// The transmitter's state the pass kept in locals: next free slot, first pending
    /// departure, occupancy, largest occupancy.
    #[inline(always)]
    pub(super) fn state(&self) -> (SlotMark, SlotMark, u32, u32) {
        (self.next, self.first, self.x, self.max_queue)
    }

    /// The head cell of FIFO `f`, arriving at `ta`, as `arrive_plain_as` would take it at a
    /// count-only port: committed and put on the link, or dropped by the frame state machine
    /// (then popped: true), or, where that path would do more or other than that, left at the
    /// head (false), with the departures before `ta` retired and an idle transmitter aligned to
    /// it, which that path then redoes to no effect.
    ///
    /// `IDLE`: a transmitter found idle at `ta` (its next free slot not after it) retires its
    /// pending departures at once, not slot by slot (the slotted pass's, whose ports are often
    /// idle; at the busy ports of the interleaved pass the test costs more than it saves).
    ///
    /// `HOOKS`: a keyed port's hooks act (the slotted pass): the level's moves out of its band
    /// at the departures retired and at the arrival are logged and the cell taken is metered,
    /// as `Port::retire_as` and `Port::enqueue_plain` do.
    #[inline(always)]
    pub(super) fn take<const IDLE: bool, const HOOKS: bool>(
        &mut self,
        ta: Time,
        f: usize,
        world: &mut World,
    ) -> bool {
        let Some((_, cell)) = world.fifos[f].front() else {
            unreachable!("the merge named a non-empty input")
        };
        if cell.is_control() {
            return false;
        }
        let v = &mut self.vcs[cell.vc as usize];
        let (first, x) = (self.first, self.x);
        // The departures before the arrival retire, and an idle transmitter moves to the first
        // slot from it (a busy one's next free slot follows a pending departure not before `ta`).
        if IDLE && self.x != 0 && self.next.time() <= ta {
            // Every pending departure (in the slots before the next free one) is before `ta`.
            self.x = 0;
        } else if self.x != 0 {
            while self.first.time() < ta {
                self.clock.step(&mut self.first);
                self.x -= 1;
                if self.x == 0 {
                    break;
                }
            }
        }
        if HOOKS {
            self.congestion.departures_retired(first, x, x - self.x, self.clock, &mut world.levels);
        }
        if self.x == 0 {
            self.next = self.clock.align_mark(self.next, ta);
            self.first = self.next;
        }
        let (x, slot) = (self.x, self.next.time());
        if x >= self.capacity || slot >= self.end {
            return false;
        }
        let eof = cell.is_eof();
        if !v.frame.within() {
            // A first cell: the decision `enqueue_plain` asks for at a count-only port (the
            // class's occupancy is the port's, `Port::vc_state`); a frame refused is dropped
            // here as there.
            if !self.firsts {
                return false;
            }
            let state = admission::count_only_view(x, self.capacity, cell.clp());
            let class = &mut self.classes[v.class as usize].policy;
            let refused = self.policy.frame_decision(&state, class, self.rng);
            v.frame.begin(eof);
            if refused.is_some() {
                let policy = self.policy;
                let verdict = v.frame.verdict(
                    true,
                    eof,
                    false,
                    false,
                    || policy.discards_partial_packets(),
                    || refused,
                );
                return self.dropped(verdict, f, world);
            }
        } else {
            v.frame.begin(eof);
            if !v.frame.passing() {
                // The rest of a frame refused or cut here: `enqueue_plain`'s verdict, with room
                // in the buffer (only PPD's EOF passes).
                let verdict = admission::rest_of_cut_frame(&mut v.frame, eof, self.policy);
                if verdict.is_some() {
                    return self.dropped(verdict, f, world);
                }
            }
        }
        self.x = x + 1;
        self.max_queue = self.max_queue.max(x + 1);
        v.sojourn = v.sojourn.wrapping_add(u128::from(slot - ta));
        let hop = v.hop;
        if HOOKS {
            self.congestion.metered(ta, cell.vc as usize, &mut world.shares);
            self.congestion.level_moved(ta, x + 1, &mut world.levels);
        }
        self.clock.step(&mut self.next);
        world.deliver(hop, slot + self.latency, cell);
        world.fifos[f].pop();
        true
    }

    /// The head cell of FIFO `f`, begun in its VC's frame state, dropped for `verdict`'s reason
    /// (a first cell the policy refused, or a cell of a frame refused or cut before), counted
    /// as `Port::drop_cell` counts it.
    #[cold]
    #[inline(never)]
    fn dropped(&mut self, verdict: Option<DropReason>, f: usize, world: &mut World) -> bool {
        let (Some(reason), Some((_, cell))) = (verdict, world.fifos[f].pop()) else {
            unreachable!("a verdict on the head cell")
        };
        self.stats.dropped(reason, self.vcs[cell.vc as usize].frame.damage());
        world.frames.release_cell(cell.frame);
        self.dropped += 1;
        true
    }
}

/// Inputs `a` and `b` of the merge taken in turn, `a` first, without the heap: `a` is at the
/// merge's head and `b` was served after it (`Arbitration::Rotating`: both rank above every
/// other input, `b` above `a`). While the earlier of their heads (on a tie, the one served less
/// recently) comes before every other input's head and the batch's end, its cell is taken, as
/// long as they alternate; then the merge is told (`InputMerge::ran`, on its head only) so
/// that it holds what one service per cell would have left: both heads as keys, and the input
/// served last ranked above the other. Returns the cells taken, and whether the last one
/// looked at was left at its input's head for the per-cell path (which the merge then names).
///
/// Why the telling is exact: the first cell taken was `a`'s, at its entry's key, so `a`'s entry
/// is the head; once told, `b`'s entry is (its key was taken after `a`'s and before `a`'s new
/// head, all before the other inputs'). When `b` was taken last, `a` then `b` told leaves `b`
/// above `a`. When `a` was taken last (and `b` taken too), `a` is told again if it is at the
/// head: where it is not, its key is after `b`'s (which is served first and then ranked
/// above it, as it would be), or after another input's head with `b`'s not equal to it, so no
/// tie between them can come before one of them is served again. The two cases that would leave
/// a wrong order are not entered: `a` taken when its next key would tie with `b`'s at or after
/// another input's head, and a cell that would drain its input (its rank then waits in the
/// merge's table).
#[inline(always)]
fn alternate(
    merge: &mut InputMerge,
    inputs: &[u32],
    (a, b): (usize, usize),
    t: &mut Taker,
    stop: Time,
    world: &mut World,
) -> (u64, bool) {
    let (fa, fb) = (inputs[a] as usize, inputs[b] as usize);
    // The other inputs' heads are their keys in the merge (no slot grid; every input holding
    // cells is in it during a batch): read from the heap, not by scanning every input (a port
    // with 500 inputs paid 500 reads per pass).
    let others = merge.earliest_but(a, b);
    debug_assert_eq!(
        others,
        (inputs.iter().enumerate())
            .filter(|&(k, _)| k != a && k != b)
            .filter_map(|(_, &g)| world.fifos[g as usize].head_time())
            .min()
            .unwrap_or(NEVER)
    );
    let limit = others.min(stop);
    let key = |world: &World, f: usize, k: u32| world.fifos[f].time_at(k).unwrap_or(NEVER);
    let (mut ka, mut kb) = (key(world, fa, 0), key(world, fb, 0));
    let (mut count, mut left) = (0, false);
    loop {
        // `a`'s turn: it wins a tie (`b` was served after it).
        let next = key(world, fa, 1);
        if !(ka <= kb && ka < limit) || next == NEVER || next == kb && next >= others {
            break;
        }
        if !t.take::<false, false>(ka, fa, world) {
            left = true;
            break;
        }
        (ka, count) = (next, count + 1);
        // `b`'s turn: it wins a tie now.
        let next = key(world, fb, 1);
        if !(kb <= ka && kb < limit) || next == NEVER {
            break;
        }
        if !t.take::<false, false>(kb, fb, world) {
            left = true;
            break;
        }
        (kb, count) = (next, count + 1);
    }
    if count > 0 {
        merge.ran(ka);
        if count >= 2 {
            merge.ran(kb);
            if count % 2 == 1 && merge.peek().1 == a {
                merge.ran(ka);
            }
        }
    }
    (count, left)
}

impl Port {
    /// A pass's taker over this port's transmitter (its state copied into locals), and the
    /// merge and inputs the pass reads beside it.
    #[inline(always)]
    pub(super) fn taker(&mut self) -> (Taker<'_>, &mut InputMerge, &[u32]) {
        let next = self.clock.mark();
        let (first, x) = self.run.parts(next);
        let t = Taker {
            clock: &self.clock,
            capacity: self.capacity,
            end: self.commit_end,
            latency: self.latency,
            firsts: self.policy.facts().decides_from_total(),
            next,
            first,
            x,
            max_queue: self.stats.max_queue(),
            dropped: 0,
            policy: &self.policy,
            vcs: &mut self.vcs,
            classes: &mut self.classes,
            rng: &mut self.rng,
            stats: &mut self.stats,
            congestion: &mut self.congestion,
        };
        (t, &mut self.merge, &self.inputs)
    }

    /// The transmitter's state back from a pass that took `n` cells, `dropped` of them dropped
    /// (the retire and align of a cell left at the head are kept, as its own path would do
    /// them); returns `n`.
    #[inline(always)]
    pub(super) fn settle(
        &mut self,
        (next, first, x, max_queue): (SlotMark, SlotMark, u32, u32),
        n: u64,
        dropped: u64,
    ) -> u64 {
        self.clock.set_next(next);
        self.run = CommittedRun::from_parts(first, x, next, &self.clock);
        self.queued = x;
        self.stats.passed(n, n - dropped, max_queue);
        n
    }

    /// The merge's cells before `stop` while each would be committed on arrival and no input's
    /// run is long enough for a busy pass (see the module comment), at a count-only plain port
    /// taking passes (`trains`) with several inputs, during a batch (the merge holds every
    /// input's head); returns how many cells it took.
    #[inline(never)]
    pub(super) fn interleaved_pass(&mut self, stop: Time, world: &mut World) -> u64 {
        // Passes only where arrivals count at their own time (no slot grid) and the buffer
        // has room (`trains`); cells held back at the end of the committed run are the
        // per-cell path's.
        if !self.plan.interleave || self.queued != self.run.len() {
            return 0;
        }
        debug_assert!(self.merge.grid.is_none());
        let span = self.pass_span;
        let rotating = self.merge.arbitration == Arbitration::Rotating;
        let (mut t, merge, inputs) = self.taker();
        let mut n = 0;
        let (mut ta, mut i) = merge.peek();
        // Whether the run at the head may hold four cells for a busy pass: at the first cell,
        // and where an input's run goes on (the one just served is at the head again); a run
        // that begins at another input's cell, after a tie or a cell of that input, was told
        // short when its input was last at the head, or ends within one cell of it.
        let mut check = true;
        // The input served last (`usize::MAX`: none yet).
        let mut last = usize::MAX;
        loop {
            if ta >= stop {
                break;
            }
            let f = inputs[i] as usize;
            if check {
                let until = merge.run_until().min(stop);
                if until.saturating_sub(ta) > span && world.fifos[f].time_at(3).is_some_and(|t| t < until) {
                    break;
                }
            }
            if !t.take::<false, false>(ta, f, world) {
                break;
            }
            merge.ran(merge.lone_key(&world.fifos[f]));
            n += 1;
            let before = std::mem::replace(&mut last, i);
            (ta, i) = merge.peek();
            check = i == last;
            if rotating && i == before && before != last {
                // Two inputs in turn: on without the heap while they keep alternating.
                let (taken, left) = alternate(merge, inputs, (before, last), &mut t, stop, world);
                n += taken;
                if left {
                    break;
                }
                if taken % 2 == 1 {
                    last = before;
                }
                (ta, i) = merge.peek();
                check = true;
            }
        }
        let (state, dropped) = (t.state(), t.dropped);
        self.settle(state, n, dropped)
    }

    /// Inputs `a` and `b` served in a row, in two runs of the merge, with `a` at its head
    /// again (two sources' cells interleaving at distinct instants, as on independent slot
    /// grids): their cells in turn without the heap (`alternate`) from `a`'s, at a count-only
    /// plain port taking passes, during a batch; returns how many cells it took. Where it
    /// stops, the batch loop goes on with the merge's runs.
    #[inline(never)]
    pub(super) fn paired_pass(&mut self, pair: (usize, usize), stop: Time, world: &mut World) -> u64 {
        if !self.plan.paired || self.queued != self.run.len() {
            return 0;
        }
        debug_assert!(self.merge.grid.is_none());
        debug_assert!(self.merge.arbitration == Arbitration::Rotating && self.merge.peek().1 == pair.0);
        let (mut t, merge, inputs) = self.taker();
        let (n, _) = alternate(merge, inputs, pair, &mut t, stop, world);
        let (state, dropped) = (t.state(), t.dropped);
        self.settle(state, n, dropped)
    }
}

#[cfg(test)]
mod tests {
    use crate::accept::{DropReason, Policy, VcPolicy};
    use crate::cell::{Cell, CellFifo, VcId, F_EOF};
    use crate::frame::{Frame, FrameSlab};
    use crate::net::port::Port;
    use crate::net::{
        identity_route, Arbitration, Channel, EnginePaths, Sched, World, NO_CAPTURE, NO_COMMIT,
    };
    use crate::rng::Rng;
    use crate::sched::Queue;
    use crate::time::{CellPeriod, SlotClock, Time, NEVER, PS_PER_US};

    /// The cells of a link of 2.5 M cells/s: one every 0.4 us.
    const GAP: Time = 400_000;

    /// A port under `policy` with a buffer of `k` cells sending 1 M cells/s into FIFO 0 (read by
    /// component 1), fed by FIFOs 1, 2 and 3 with VC 0, 1 and 2: on input `i`, frames of the
    /// lengths `frames[i]` back to back from `starts[i]`, one cell every `GAP`, so that where
    /// two inputs' starts differ by a multiple of `GAP` their cells arrive at the same instants
    /// (as from transmitters sharing one slot grid) and the port is busy.
    fn port(
        policy: Policy,
        k: u32,
        arbitration: Arbitration,
        frames: [&[u32]; 3],
        starts: [Time; 3],
    ) -> (Port, World) {
        let period = CellPeriod::from_cells_per_s(1_000_000);
        let channel = |name: &str, period| Channel {
            name: name.into(),
            period,
            latency: 7,
            route: identity_route(3, 0),
            cells: 0,
            capture: NO_CAPTURE,
        };
        let mut w = World {
            fifos: vec![CellFifo::new(1), CellFifo::new(0), CellFifo::new(0), CellFifo::new(0)],
            frames: FrameSlab::default(),
            channels: vec![channel("x", period), channel("in", CellPeriod::from_cells_per_s(2_500_000))],
            sched: Sched::new(2),
            captures: Default::default(),
            levels: Vec::new(),
            shares: Vec::new(),
        };
        let mut p = Port::new("p".into(), 0, SlotClock::with_phase(period.scaled(2e-5), 4321), k, policy, 3);
        p.configure(Queue::fifo(), vec![0, 1, 2], vec![VcPolicy::default(); 3], Rng::stream(5, "t"), false);
        p.set_arbitration(arbitration, false, Rng::stream(6, "arbitration"));
        p.inputs = vec![1, 2, 3];
        for (i, (lengths, &start)) in frames.iter().zip(&starts).enumerate() {
            let mut t = start;
            for &n in lengths.iter() {
                let frame = w.frames.insert(Frame { ncells: n, alive: n, ..Default::default() });
                for c in 0..n {
                    let flags = if c + 1 == n { F_EOF } else { 0 };
                    w.fifos[i + 1].push(t, Cell { frame, vc: i as VcId, flags });
                    t += GAP;
                }
            }
        }
        (p, w)
    }

    /// The wire, the port's counters (in, out, drops by reason), `max_queue`, its integral and
    /// its classes' at `end`, the channel's count, the events, and the merge's head after each
    /// batch (which input comes next, ties decided by the ranks the batch left).
    type Outcome =
        (Vec<(Time, Cell)>, [u64; 2], Vec<u64>, u32, u128, Vec<u128>, u64, u64, Vec<(Time, usize)>);

    /// Run `p` from now to `end` in batches of `step`; after each, the receiver takes its cells,
    /// having been woken for the first.
    fn finish(p: &mut Port, w: &mut World, mut now: Time, end: Time, step: Time, mut events: u64) -> Outcome {
        let (mut wire, mut heads) = (Vec::new(), Vec::new());
        while now < end {
            now = (now + step).min(end);
            events += p.advance(now, w);
            heads.push(p.merge.peek());
            assert_eq!(w.sched.key(1), w.fifos[0].front().map_or(NEVER, |(t, _)| t), "woken for the first");
            while let Some(c) = w.fifos[0].pop() {
                wire.push(c);
            }
            w.sched.set(1, NEVER);
        }
        p.finish(end);
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
            heads,
        )
    }

    const END: Time = 120 * PS_PER_US;

    /// A pass's start: the port of `case` committing up to `END`, its merge built.
    fn committed(case: (Policy, u32, Arbitration, [&[u32]; 3], [Time; 3])) -> (Port, World) {
        let (policy, k, arbitration, frames, starts) = case;
        let (mut p, mut w) = port(policy, k, arbitration, frames, starts);
        p.commit_until(END, &w);
        p.merge.rebuild(&w.fifos, &mut w.sched.marks, &p.inputs);
        (p, w)
    }

    /// After a pass that took `taken` cells, the batch loop on to `END`: the wire and the
    /// counters must be the per-cell `reference`'s (the merge's heads differ in the batches the
    /// pass stood for).
    fn finish_after_pass(
        p: &mut Port,
        w: &mut World,
        taken: u64,
        reference: &Outcome,
        what: &str,
    ) -> Outcome {
        let events = taken + p.stats.cells_out();
        w.channels[0].cells += p.stats.cells_out();
        let outcome = finish(p, w, 0, END, PS_PER_US, events);
        assert_eq!(outcome.0, reference.0, "{what}");
        assert_eq!(
            (&outcome.1, &outcome.2, outcome.3, outcome.4, &outcome.5, outcome.6, outcome.7),
            (&reference.1, &reference.2, reference.3, reference.4, &reference.5, reference.6, reference.7),
            "{what}"
        );
        outcome
    }

    /// Cell by cell (`commit` false), or committing with passes (busy and interleaved) or
    /// without.
    fn run(
        case: (Policy, u32, Arbitration, [&[u32]; 3], [Time; 3]),
        commit: bool,
        passes: bool,
        step: Time,
    ) -> Outcome {
        let (policy, k, arbitration, frames, starts) = case;
        let (mut p, mut w) = port(policy, k, arbitration, frames, starts);
        p.set_paths(if passes { EnginePaths::ALL } else { EnginePaths::WITHOUT_PASSES });
        p.commit_until(if commit { END } else { NO_COMMIT }, &w);
        assert!(!commit || p.plan.plain && p.plan.count_only);
        assert!(!commit || passes == (p.plan.interleave && p.plan.paired && p.plan.busy));
        finish(&mut p, &mut w, 0, END, step, 0)
    }

    #[test]
    fn interleaved_passes_change_no_cell_time_count_or_integral() {
        // Three inputs whose cells tie at every instant (or, shifted by half a gap, never),
        // frames that start and end at different cells, policies that admit, refuse whole
        // frames at first cells or overflow, every arbitration, long and short batches: the
        // same wire, counters, drops, integrals and events with passes, without, and cell by
        // cell.
        let frames: [&[u32]; 3] = [&[8, 5, 12, 2], &[6, 7, 3, 1, 9], &[12, 1, 9, 4]];
        let mut refused = 0;
        for (policy, k) in [
            (Policy::Epd { threshold: 20 }, 30),
            (Policy::Epd { threshold: 4 }, 30),
            (Policy::TailDrop, 6),
            (Policy::Ppd, 6),
        ] {
            for arbitration in [Arbitration::Rotating, Arbitration::Fixed, Arbitration::Random] {
                for starts in [
                    [10, 10, 13].map(|s| s * GAP),
                    [10 * GAP, 10 * GAP + GAP / 2, 11 * GAP],
                    // Two inputs in turn, the third joining at one of their instants or between.
                    [10, 10, 40].map(|s| s * GAP),
                    [10 * GAP, 10 * GAP, 40 * GAP + GAP / 2],
                    [10 * GAP, 11 * GAP, 25 * GAP + 1],
                    // Two inputs in turn at distinct instants (one-cell runs, no tie), the
                    // third joining between their cells.
                    [10 * GAP, 10 * GAP + GAP / 3, 30 * GAP + GAP / 2],
                    // Two tied, the third between: passes from ties and from pairs in turn.
                    [10 * GAP, 10 * GAP, 10 * GAP + GAP / 3],
                    [10 * GAP, 10 * GAP + GAP / 3, 10 * GAP + 2 * GAP / 3],
                ] {
                    let case = (policy, k, arbitration, frames, starts);
                    let reference = run(case, false, false, PS_PER_US);
                    assert_eq!(reference.1[0], 79, "every cell arrives");
                    refused += reference.2[DropReason::EarlyPacket as usize]
                        + reference.2[DropReason::Overflow as usize];
                    for step in [PS_PER_US, 3 * PS_PER_US + 1, END] {
                        let reference = run(case, false, false, step);
                        assert_eq!(run(case, true, true, step), reference, "{case:?} step {step}");
                        assert_eq!(run(case, true, false, step), reference, "{case:?} step {step}");
                    }
                }
            }
        }
        assert!(refused > 0, "some cells are refused");
    }

    #[test]
    fn two_inputs_in_turn_at_distinct_instants_are_taken_without_the_heap() {
        // Inputs 0 and 1 alternate a third of a gap apart (0 served before 1, as the merge's
        // first ranks say), input 2 joins later: the pass given the pair takes their cells in
        // turn up to input 2's first cell, and the batch loop then ends as the per-cell
        // reference does.
        let case = (
            Policy::Epd { threshold: 20 },
            30,
            Arbitration::Rotating,
            [&[3, 4][..], &[5, 2], &[2, 2, 3]],
            [10 * GAP, 10 * GAP + GAP / 3, 16 * GAP],
        );
        let reference = run(case, false, false, PS_PER_US);
        let (mut p, mut w) = committed(case);
        let taken = p.paired_pass((0, 1), 8 * PS_PER_US, &mut w);
        // Cells of 0 at 10..=15 gaps and of 1 at 10⅓..=15⅓ come before input 2's first.
        assert_eq!(taken, 12);
        assert_eq!(p.merge.peek().1, 2, "input 2 is next");
        finish_after_pass(&mut p, &mut w, taken, &reference, "");
    }

    #[test]
    fn a_pass_drops_the_cells_of_refused_frames_itself() {
        // Three inputs tied, EPD at 3 cells: the frames after the first ones begin above the
        // threshold and are refused whole. The pass drops their cells (counted by reason, the
        // frames once) and goes on, where it stopped at each before; the batch loop then ends
        // as the per-cell reference does.
        let case = (
            Policy::Epd { threshold: 3 },
            30,
            Arbitration::Rotating,
            [&[3, 4][..], &[2, 2, 1], &[2, 2, 3]],
            [10 * GAP; 3],
        );
        let reference = run(case, false, false, PS_PER_US);
        let (mut p, mut w) = committed(case);
        let taken = p.interleaved_pass(8 * PS_PER_US, &mut w);
        let refused = p.stats.drops(DropReason::EarlyPacket) + p.stats.drops(DropReason::PartialPacket);
        assert!(refused >= 6, "{refused} cells of refused frames dropped in the pass");
        assert_eq!(taken, p.stats.cells_out() + refused);
        assert_eq!(p.stats.frames_dropped(), p.stats.drops(DropReason::EarlyPacket));
        finish_after_pass(&mut p, &mut w, taken, &reference, "");
    }

    #[test]
    fn a_pass_takes_the_inputs_cells_in_merge_order_from_a_tie() {
        // The three inputs' first cells tie at 4 us: the pass takes them in turn, on past the
        // frames' ends (EPD admits the next ones) up to the cell whose slot is not before the
        // end of the committed run, and leaves what the per-cell path then makes of the rest.
        for arbitration in [Arbitration::Rotating, Arbitration::Fixed, Arbitration::Random] {
            let case = (
                Policy::Epd { threshold: 20 },
                30,
                arbitration,
                [&[3, 4][..], &[5, 2], &[2, 2, 3]],
                [10 * GAP; 3],
            );
            let reference = run(case, false, false, PS_PER_US);
            let (mut p, mut w) = committed(case);
            let taken = p.interleaved_pass(8 * PS_PER_US, &mut w);
            assert!(taken >= 9, "{arbitration:?}: {taken} cells taken");
            assert_eq!(p.stats.cells_in(), taken);
            let outcome = finish_after_pass(&mut p, &mut w, taken, &reference, &format!("{arbitration:?}"));
            assert_eq!(outcome.0.len(), 21);
        }
    }
}
