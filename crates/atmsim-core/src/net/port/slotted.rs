//! Slotted arrivals: the cells of a slotted switch's inputs (`arrivals = "slotted"`, the CLASS
//! study's switches) taken in the arbitration's order in one pass (`[engine] slotted_pass`).
//!
//! A slotted port counts each arrival from the first boundary of its output slot grid at or
//! after it (`InputMerge::key`), so the cells of every input that arrived during one slot tie
//! at its end and the arbitration orders them; under `Random` each service draws a fresh rank
//! for the input served, so the merge's runs are one cell each (`InputMerge::run_until`), and
//! every cell cost a run of its own in `Port::process_plain`: the runner-up, the busy-pass
//! test, the arrival through the port's fields (retire, align, `enqueue_plain`), the run's end.
//! The frame trains, busy and paired passes read cells at their own times and are closed here.
//!
//! [`Port::slotted_pass`] takes the merge's head cell, at its key, as long as the per-cell path
//! would commit it at once (the interleaved pass's taker, `interleave.rs`: not a control cell,
//! a frame still whole here or a first cell the policy admits from the buffer's total, a
//! buffer below its capacity, a slot before the end of the committed run), with the
//! transmitter's next free slot and the committed departures in locals, and tells the merge
//! after each cell exactly as the per-cell path does (`InputMerge::ran` with the input's next
//! key on the grid): under `Random` one draw per service from the merge's own stream, in
//! service order, so the ranks, and with them every later tie, are the per-cell path's. It
//! stops at the batch's end and at a cell it does not take, which is left at its input's head
//! for the per-cell path (whose retire and align were done here and then change nothing).
//!
//! The cells with nothing to decide (a data cell of a frame begun and still whole, into a
//! buffer with room, in a slot before the run's end: nine in ten of the Italian network's) are
//! taken in the pass's own loop, the transmitter's state in locals and the cell's successor in
//! its input read with it; the taker decides the others, out of line. Each input's key is kept
//! with its slot's remainder (`Head`): an idle transmitter then moves to the key's slot, and
//! an input's next key in the same slot or the next one is found, without a division (an idle
//! port's alignment was a far jump, 45 instructions, for two cells in five).
//!
//! At a keyed port (a level log's writer or reader) too, unless it marks EFCI: the departures
//! retired before a cell that take a published level out of its band are logged at their
//! slots (`Congestion::departures_left`), a cell whose arrival would take it out goes to the
//! taker, which logs it at the cell's key, and each cell taken is metered where the port
//! enforces fair shares, as the per-cell path does. A reader's backward RM cells are control
//! cells, left to the per-cell path (its batches stop before them, `Port::first_read_after`).
//! In the Italian network under adaptive shaping every trunk port publishes and reads: its
//! cells went cell by cell before.

use super::interleave::Taker;
use super::Port;
use crate::net::{Arbitration, InputMerge, World};
use crate::time::{SlotMark, Time, NEVER};

/// The merge's head cells before `stop` while `t` takes them, each service told to the merge
/// (`RANDOM`: under `Random`, by `InputMerge::ran_random`, in line); returns how many it took.
///
/// The cells the per-cell path would commit at once with nothing to decide (a data cell of a
/// frame begun and still whole, a buffer with room, a slot before the run's end) are taken
/// here with the transmitter's state in locals; the others by `Taker::take` (which redoes the
/// retire and the alignment done here, to no effect).
///
/// `heads[i]` is input `i`'s [`Head`]. Its key's remainder is then at hand where the input
/// comes to the head, with no division: for an idle transmitter's alignment (the first slot at
/// or after the key is the key's own) and for the input's next key when it is the same slot (a
/// faster input) or the one after (an input at the port's rate); a key told elsewhere (the
/// batch's rebuild, the per-cell path) or farther on is divided for. (Farther on, by a
/// reciprocal or a few steps from the mark, costs as many instructions as the division.)
///
/// `HOOKS`: a keyed port's hooks act (a published level, fair-share metering): the departures
/// retired before a cell that take the level out of its band are logged at their slots
/// (`Congestion::departures_left`), a cell whose arrival would take it out is the taker's,
/// which logs it, and each cell taken is metered, as `Port::retire_as` and
/// `Port::enqueue_plain` do.
#[inline(always)]
fn take_in_order<const RANDOM: bool, const HOOKS: bool>(
    merge: &mut InputMerge,
    heads: &mut [Head],
    t: &mut Taker,
    stop: Time,
    world: &mut World,
) -> u64 {
    let clock = t.clock;
    let (q, capacity, end, latency) = (clock.shortest_slot(), t.capacity, t.end, t.latency);
    let (mut next, mut first, mut x, mut max_queue) = t.state();
    // The published band: `x` is in it while `x.wrapping_sub(lo) <= span`.
    let (mut lo, mut span) = if HOOKS { t.congestion.band() } else { (0, u32::MAX) };
    let mut n = 0;
    loop {
        let (ta, i) = merge.peek();
        if ta >= stop {
            break;
        }
        let head = &mut heads[i];
        let f = head.fifo as usize;
        let m = if head.key.time() == ta { head.key } else { clock.mark_at_or_after(ta) };
        let fifo = &mut world.fifos[f];
        let Some((_, cell)) = fifo.front() else { unreachable!("the merge named a non-empty input") };
        // (Read with the head, before anything is written.)
        let behind = fifo.time_at(1);
        if cell.is_control() {
            break;
        }
        // The departures before the arrival retire: all of them at a transmitter idle by then
        // (its next free slot not after `ta`), else those in the slots before `ta`, which
        // leaves one at least (they end right before `next`, after `ta`, a slot).
        if x != 0 {
            let (first0, x0) = (first, x);
            if next.time() <= ta {
                x = 0;
            } else {
                while first.time() < ta {
                    clock.step(&mut first);
                    x -= 1;
                }
                debug_assert!(x != 0);
            }
            if HOOKS && x.wrapping_sub(lo) > span {
                t.congestion.departures_left(first0, x0, x0 - x, clock, &mut world.levels);
                (lo, span) = t.congestion.band();
            }
        }
        if x == 0 {
            // An idle transmitter moves to the first slot from `ta`: its own.
            if next.time() < ta {
                next = m;
            }
            first = next;
        }
        let slot = next.time();
        let v = &mut t.vcs[cell.vc as usize];
        let in_band = !HOOKS || x.wrapping_add(1).wrapping_sub(lo) <= span;
        let behind = if v.frame.within() && v.frame.passing() && x < capacity && slot < end && in_band {
            v.frame.begin(cell.is_eof());
            v.sojourn = v.sojourn.wrapping_add(u128::from(slot - ta));
            let hop = v.hop;
            if HOOKS {
                t.congestion.metered(ta, cell.vc as usize, &mut world.shares);
            }
            x += 1;
            max_queue = max_queue.max(x);
            clock.step(&mut next);
            // (Popped before the cell goes on: the next hop's FIFO is another component's.)
            fifo.pop();
            world.deliver(hop, slot + latency, cell);
            behind
        } else {
            (t.next, t.first, t.x, t.max_queue) = (next, first, x, max_queue);
            let took = take_deciding::<HOOKS>(t, ta, f, world);
            (next, first, x, max_queue) = t.state();
            if HOOKS {
                (lo, span) = t.congestion.band();
            }
            if !took {
                break;
            }
            world.fifos[f].head_time()
        };
        // The service as the per-cell path tells it (under `Random`, its draw), the input's
        // next key a slot of the grid (`InputMerge::lone_key`) from `m`.
        let key = match behind {
            None => NEVER,
            Some(tn) => {
                head.key = if tn <= ta {
                    m
                } else if tn - ta <= q {
                    let mut s = m;
                    clock.step(&mut s);
                    s
                } else {
                    clock.mark_at_or_after(tn)
                };
                head.key.time()
            }
        };
        debug_assert_eq!(key, merge.lone_key(&world.fifos[f]));
        if RANDOM {
            merge.ran_random(key);
        } else {
            merge.ran(key);
        }
        n += 1;
    }
    (t.next, t.first, t.x, t.max_queue) = (next, first, x, max_queue);
    n
}

/// What the slotted pass keeps of an input from one pass to the next: its FIFO and a slot of
/// the port's grid (every key is one): its key as the pass last told it, or another slot.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Head {
    key: SlotMark,
    fifo: u32,
}

/// `Taker::take` out of the pass's loop: the cells it decides on (a frame's first cell, the
/// rest of one refused or cut, a full buffer, the run's end) are a tenth of those taken.
#[cold]
#[inline(never)]
fn take_deciding<const HOOKS: bool>(t: &mut Taker, ta: Time, f: usize, world: &mut World) -> bool {
    t.take::<true, HOOKS>(ta, f, world)
}

impl Port {
    /// The merge's cells before `stop` while each would be committed on arrival, at a
    /// count-only plain port with a slot grid and several inputs, during a batch (the merge
    /// holds every input's head); returns how many cells it took.
    #[inline(never)]
    pub(super) fn slotted_pass(&mut self, stop: Time, world: &mut World) -> u64 {
        // Cells held back at the end of the committed run are the per-cell path's.
        if !self.plan.slotted || self.queued != self.run.len() {
            return 0;
        }
        debug_assert_eq!(self.merge.grid, Some(self.clock.grid()));
        let random = self.merge.arbitration == Arbitration::Random;
        let mut heads = std::mem::take(&mut self.slotted_heads);
        heads.resize(self.inputs.len(), Head::default());
        for (h, &f) in heads.iter_mut().zip(&self.inputs) {
            h.fifo = f;
        }
        // A keyed port's hooks here are a published level and fair-share metering
        // (`PortPlan::choose`).
        let hooks = self.hooks;
        let (mut t, merge, _) = self.taker();
        let n = match (random, hooks) {
            (true, false) => take_in_order::<true, false>(merge, &mut heads, &mut t, stop, world),
            (false, false) => take_in_order::<false, false>(merge, &mut heads, &mut t, stop, world),
            (true, true) => take_in_order::<true, true>(merge, &mut heads, &mut t, stop, world),
            (false, true) => take_in_order::<false, true>(merge, &mut heads, &mut t, stop, world),
        };
        let (state, dropped) = (t.state(), t.dropped);
        self.slotted_heads = heads;
        self.settle(state, n, dropped)
    }
}

#[cfg(test)]
mod tests {
    use crate::abr::Feedback;
    use crate::accept::{Policy, VcPolicy};
    use crate::cell::{Cell, CellFifo, VcId, F_EOF};
    use crate::frame::{Frame, FrameSlab};
    use crate::net::port::Port;
    use crate::net::{
        identity_route, Arbitration, Channel, EnginePaths, FairShareMeter, LevelLog, Sched, World,
        NO_CAPTURE, NO_COMMIT, NO_LIMIT,
    };
    use crate::rng::Rng;
    use crate::sched::Queue;
    use crate::time::{CellPeriod, SlotClock, Time, NEVER, PS_PER_US};

    const END: Time = 150 * PS_PER_US;

    /// A slotted port (1 M cells/s, `arbitration`) under `policy` with `k` cells of buffer, fed
    /// by three inputs with VC 0, 1 and 2: frames of the lengths `frames[i]` back to back from
    /// `starts[i]`, one cell every `gaps[i]` (below the slot: several of an input's cells in one
    /// slot), so that cells of different inputs tie at the slot boundaries.
    fn port(
        policy: Policy,
        k: u32,
        arbitration: Arbitration,
        frames: [&[u32]; 3],
        starts: [Time; 3],
        gaps: [Time; 3],
    ) -> (Port, World) {
        let period = CellPeriod::from_cells_per_s(1_000_000);
        let channel = |name: &str| Channel {
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
            channels: vec![channel("x")],
            sched: Sched::new(2),
            captures: Default::default(),
            levels: Vec::new(),
            shares: Vec::new(),
        };
        let mut p = Port::new("p".into(), 0, SlotClock::with_phase(period.scaled(2e-5), 4321), k, policy, 3);
        p.configure(Queue::fifo(), vec![0, 1, 2], vec![VcPolicy::default(); 3], Rng::stream(5, "t"), false);
        p.set_arbitration(arbitration, true, Rng::stream(6, "arbitration"));
        p.inputs = vec![1, 2, 3];
        for (i, lengths) in frames.iter().enumerate() {
            let mut t = starts[i];
            for &n in lengths.iter() {
                let frame = w.frames.insert(Frame { ncells: n, alive: n, ..Default::default() });
                for c in 0..n {
                    let flags = if c + 1 == n { F_EOF } else { 0 };
                    w.fifos[i + 1].push(t, Cell { frame, vc: i as VcId, flags });
                    t += gaps[i];
                }
            }
        }
        (p, w)
    }

    /// The wire, the port's counters (in, out, drops by reason), `max_queue`, its integral and
    /// its classes' at `END`, the channel's count, the events and the changes of the level it
    /// publishes (if it does), in batches of `step`: cell by cell (`commit` false), or
    /// committing (keyed where it publishes) with the slotted pass or without.
    type Outcome = (
        Vec<(Time, Cell)>,
        [u64; 2],
        Vec<u64>,
        u32,
        u128,
        Vec<u128>,
        u64,
        u64,
        Vec<(Time, Feedback)>,
        Vec<(Time, u32)>,
    );

    fn run(mut p: Port, mut w: World, commit: bool, pass: bool, step: Time) -> Outcome {
        let mut paths = EnginePaths::ALL;
        paths.slotted_pass = pass;
        p.set_paths(paths);
        let end = if commit { END } else { NO_COMMIT };
        if p.uses_level_logs() {
            p.commit_keyed_until(end, &w);
            assert_eq!(p.plan.keyed, commit);
        } else {
            p.commit_until(end, &w);
        }
        assert!(!commit || p.plan.plain && p.plan.count_only);
        assert_eq!(p.plan.slotted, commit && pass);
        let (mut wire, mut events, mut now) = (Vec::new(), 0, 0);
        while now < END {
            now = (now + step).min(END);
            events += p.advance(now, &mut w);
            assert_eq!(w.sched.key(1), w.fifos[0].front().map_or(NEVER, |(t, _)| t), "woken for the first");
            while let Some(c) = w.fifos[0].pop() {
                wire.push(c);
            }
            w.sched.set(1, NEVER);
        }
        p.finish(END);
        let s = &p.stats;
        let areas = p.classes.iter().map(|c| c.area(END)).collect();
        (
            wire,
            [s.cells_in(), s.cells_out()],
            s.drops_by_reason().to_vec(),
            s.max_queue(),
            s.queue_area(),
            areas,
            w.channels[0].cells,
            events,
            w.levels.first().map_or(Vec::new(), LevelLog::changes),
            w.shares.first().map_or(Vec::new(), LevelLog::changes),
        )
    }

    #[test]
    fn the_slotted_pass_changes_no_cell_time_count_draw_or_integral() {
        // Three inputs tying at the slot boundaries (one of them with several cells in a slot),
        // policies that admit, refuse whole frames at first cells or overflow, every
        // arbitration (random: one draw per service, so a draw out of place reorders every
        // later tie), long and short batches: the same wire, counters, drops, integrals and
        // events with the pass, without it, and cell by cell; and at a port publishing its
        // level (its band against thresholds at a sixth and half of its buffer, keyed) and
        // metering fair shares of VCs 0 and 1 every 3 us, the same band changes and shares at
        // the same times (fails with the departures leaving the band not logged in the pass,
        // logged a slot off, or a cell taken unmetered).
        let frames: [&[u32]; 3] = [&[8, 5, 12, 2, 7], &[6, 7, 3, 1, 9, 4], &[12, 1, 9, 4, 3]];
        let gaps = [PS_PER_US, 400_000, 1_100_000];
        for (policy, k) in [
            (Policy::Epd { threshold: 20 }, 30),
            (Policy::Epd { threshold: 4 }, 30),
            (Policy::TailDrop, 6),
            (Policy::Ppd, 6),
        ] {
            for arbitration in [Arbitration::Rotating, Arbitration::Fixed, Arbitration::Random] {
                for starts in [[0, 300_000, 700_000], [2 * PS_PER_US, 0, 150_000]] {
                    for publish in [false, true] {
                        let case = || {
                            let (mut p, mut w) = port(policy, k, arbitration, frames, starts, gaps);
                            if publish {
                                w.levels.push(LevelLog::new(Feedback::Increase));
                                p.publish_level(0, (k / 6).max(1), k / 2);
                                w.shares.push(LevelLog::new(NO_LIMIT));
                                let period = w.channels[0].period;
                                let mut meter = FairShareMeter::new(3 * PS_PER_US, period, 3, 0);
                                meter.enforce(0);
                                meter.enforce(1);
                                p.enforce_fair_share(meter);
                            }
                            (p, w)
                        };
                        for step in [PS_PER_US / 3, 7 * PS_PER_US, END] {
                            let (p, w) = case();
                            let reference = run(p, w, false, false, step);
                            assert!(reference.1[1] > 20, "cells sent");
                            assert!(!publish || reference.8.len() > 4, "the band moves: {:?}", reference.8);
                            assert!(!publish || reference.9.len() > 2, "the share moves: {:?}", reference.9);
                            for pass in [true, false] {
                                let (p, w) = case();
                                let what = format!(
                                    "{policy:?} {arbitration:?} {starts:?} step {step} pass {pass} publish {publish}"
                                );
                                assert_eq!(run(p, w, true, pass, step), reference, "{what}");
                            }
                        }
                    }
                }
            }
        }
    }
}
