//! The per-cell path of a priority port, without its generic parts (`[engine] priority_port`).
//!
//! A priority port (the credit/rate study's ATOM switch) cannot commit its departures: a
//! best-effort cell's slot is not known when it is queued, since a guaranteed cell arriving
//! later goes first. So every arrival and every departure is an event, as on the per-cell path
//! (`Port::process`). What this path saves is the generic work around them:
//!
//! - the inputs are read in runs, as `Port::process_plain` reads them: the earliest input's
//!   cells before the runner-up's key come in a row from its FIFO and the merge is told once,
//!   at the end of the run (`InputMerge::run_until`, `InputMerge::ran`), the departures due
//!   between them done in between, in the per-cell order (an arrival before a departure at the
//!   same instant);
//! - a data cell entering a buffer of its own (the guaranteed class, an FCVC VC) meets no policy,
//!   no buffer limit and no frame discard there (`FrameState::verdict` refuses such a cell
//!   nothing, and so never leaves its frame's state discarding), so it takes the frame state
//!   machine's step, the hooks an own cell takes (fair-share metering, the FCVC occupancy), the
//!   accounting and the queue, and nothing else; other cells (best effort, RM and credit cells)
//!   take `Port::enqueue` as they would;
//! - a departure pops the priority queue's two classes directly, not through the queue's
//!   enum, and takes the hooks `Port::dequeue_hooked` takes; a cell popped from the guaranteed
//!   class is in a buffer of its own without a look-up; the cell goes to its VC's hop as
//!   `World::deliver` puts it (the route copied at set-up, as the plain and spaced paths do;
//!   captured first where the channel is), the channel's count and the port's cells out added
//!   once per batch;
//! - whether hooks act and whether some VC is gated on credit are fixed for the run: each of
//!   the three cases is a loop of its own, without those tests per cell.
//!
//! Chosen in `PortPlan::choose` (`plan.priority`): a priority queue on the per-cell path (the
//! schedule's consent, as committing needs), with no UPC of either kind, no faults, no per-VC
//! arrival counts, no frame merging and no trace; an idle or stalled transmitter, credit
//! gating and a slot grid are handled as `Port::process` handles them.

use super::{departing, Port};
use crate::cell::Cell;
use crate::net::{World, NO_CAPTURE};
use crate::sched::{BestEffort, Queue};
use crate::time::{Time, NEVER};

/// A VC's bits in `Port::priority_kinds`: a buffer of its own, ...
const PRIORITY_OWN: u8 = 1;
/// ... in the guaranteed class (the high queue), ...
const PRIORITY_HIGH: u8 = 2;
/// ... forwarded under FCVC here (its departures count towards the credits it sends back).
const PRIORITY_FCVC: u8 = 4;

impl Port {
    /// Each VC's buffer, class and FCVC forwarding as `priority_kinds` keeps them: what an
    /// arrival and a departure would otherwise look up in three tables (`own`, the queue's
    /// `guaranteed`, the FCVC hops), one byte read with the cell's label.
    pub(super) fn priority_kinds(&self) -> Vec<u8> {
        let Queue::Priority { guaranteed, .. } = &self.queue else { unreachable!("a priority port") };
        (0..self.vcs.len())
            .map(|vc| {
                let own = self.has_own && self.own.get(vc).copied().unwrap_or(false);
                let high = guaranteed.get(vc).copied().unwrap_or(false);
                u8::from(own) * PRIORITY_OWN
                    + u8::from(high) * PRIORITY_HIGH
                    + u8::from(self.fcvc.forwards(vc)) * PRIORITY_FCVC
            })
            .collect()
    }

    /// `Port::process` at a priority port (`plan.priority`): every arrival and departure before
    /// `stop`, in the same order, with the same events.
    ///
    /// Whether hooks act and whether some VC is gated on credit are fixed for the run (set up
    /// before it): each case is its own loop, without those tests per cell. Each departure is a
    /// cell out and on the wire: counted once per batch, as `Port::process_spaced` counts them.
    pub(super) fn process_priority(&mut self, stop: Time, world: &mut World) -> u64 {
        let captured = world.channels[self.channel as usize].capture != NO_CAPTURE;
        let (events, sent) = match (self.hooks, self.fcvc.gating()) {
            (false, _) => self.priority_batch::<false, false>(stop, captured, world),
            (true, false) => self.priority_batch::<true, false>(stop, captured, world),
            (true, true) => self.priority_batch::<true, true>(stop, captured, world),
        };
        self.stats.sent(sent);
        world.channels[self.channel as usize].cells += sent;
        events
    }

    /// The batch of `process_priority` with hooks (`HOOKS`) and credit gating (`GATED`) as the
    /// port has them: how many events, how many cells sent.
    #[inline(always)]
    fn priority_batch<const HOOKS: bool, const GATED: bool>(
        &mut self,
        stop: Time,
        captured: bool,
        world: &mut World,
    ) -> (u64, u64) {
        debug_assert!(HOOKS == self.hooks && GATED == (self.hooks && self.fcvc.gating()));
        let (mut events, mut sent) = (0, 0);
        loop {
            let (mut ta, i) = self.merge.peek();
            // The departures before the earliest arrival (one at the same instant goes after it).
            loop {
                let td = if self.queued <= self.floor::<GATED>() { NEVER } else { self.clock.next() };
                if ta <= td {
                    break;
                }
                if td >= stop {
                    return (events, sent);
                }
                sent += u64::from(self.depart_priority::<HOOKS, GATED>(captured, world));
                events += 1;
            }
            if ta >= stop {
                return (events, sent);
            }
            // The earliest input's cells before the runner-up's key (or the batch's end), with the
            // departures due between them.
            let (f, until) = (self.inputs[i] as usize, self.merge.run_until().min(stop));
            'run: loop {
                // The input's next key, read with the cell (an arrival here puts nothing into
                // this port's own inputs).
                let fifo = &mut world.fifos[f];
                let Some((_, cell)) = fifo.pop() else { unreachable!("the head was read") };
                let next = self.merge.lone_key(fifo);
                if self.queued <= self.floor::<GATED>() {
                    self.clock.align(ta);
                    self.stall_floor = 0;
                }
                self.arrive_priority::<HOOKS>(ta, cell, world);
                events += 1;
                ta = next;
                debug_assert_eq!(ta, self.merge.lone_key(&world.fifos[f]));
                loop {
                    let td = if self.queued <= self.floor::<GATED>() { NEVER } else { self.clock.next() };
                    if ta <= td {
                        break;
                    }
                    if td >= until {
                        break 'run;
                    }
                    sent += u64::from(self.depart_priority::<HOOKS, GATED>(captured, world));
                    events += 1;
                }
                if ta >= until {
                    break;
                }
            }
            self.merge.ran(ta);
        }
    }

    /// The transmitter's stall floor: only a port gated on credit stalls (a pop finds no VC
    /// with credit), so it is 0 without gating.
    #[inline(always)]
    fn floor<const GATED: bool>(&self) -> u32 {
        debug_assert!(GATED || self.stall_floor == 0);
        if GATED {
            self.stall_floor
        } else {
            0
        }
    }

    /// `Port::enqueue`, at a priority port, of a cell arriving at `now`.
    #[inline(always)]
    fn arrive_priority<const HOOKS: bool>(&mut self, now: Time, cell: Cell, world: &mut World) {
        let vc = cell.vc as usize;
        let kind = self.priority_kinds.get(vc).copied().unwrap_or(0);
        if cell.is_control() || kind & PRIORITY_OWN == 0 {
            return self.enqueue(now, cell, world);
        }
        // A data cell into a buffer of its own: no policy, no limit, no discard.
        self.stats.taken(1);
        let v = &mut self.vcs[vc];
        v.frame.begin(cell.is_eof());
        debug_assert!(v.frame.passing(), "an own buffer discards nothing");
        let c = v.class as usize;
        if HOOKS {
            self.congestion.metered(now, vc, &mut world.shares);
            if kind & PRIORITY_FCVC != 0 {
                self.fcvc.arrived(vc);
            }
        }
        self.stats.arrive(now);
        if self.classes[c].arrive(now) {
            self.active += 1;
        }
        debug_assert!(self.staging.held == 0 && self.pending() == 0);
        self.queued += 1;
        self.queued_own += 1;
        // `Queue::push`, in line.
        let Queue::Priority { high, low, guaranteed } = &mut self.queue else {
            unreachable!("a priority port")
        };
        debug_assert_eq!(kind & PRIORITY_HIGH != 0, guaranteed[vc]);
        if kind & PRIORITY_HIGH != 0 {
            high.push_back(cell);
        } else {
            match low {
                BestEffort::Fifo(q) => q.push_back(cell),
                BestEffort::RoundRobin(r) => r.push(cell),
            }
        }
        self.stats.reached(self.queued);
    }

    /// `Port::dequeue` at a priority port: the next cell in the slot starting now; false where
    /// no VC has credit (the transmitter stalls until the next arrival).
    ///
    /// `Port::sent`, with what the plan knows: a guaranteed cell (the high class) has a buffer
    /// of its own; the wire is `World::deliver` to the VC's hop (copied by `commit_until`) after
    /// the capture if any, the cell's count on the channel and the port's cells out left to
    /// `process_priority`.
    #[inline(always)]
    fn depart_priority<const HOOKS: bool, const GATED: bool>(
        &mut self,
        captured: bool,
        world: &mut World,
    ) -> bool {
        let cell = if GATED {
            let Some(cell) = self.fcvc.pop_gated(&mut self.queue) else {
                self.stall_floor = self.queued;
                return false;
            };
            cell
        } else {
            let Queue::Priority { high, low, .. } = &mut self.queue else { unreachable!("a priority port") };
            match high.pop_front() {
                Some(cell) => cell,
                None => {
                    let cell = match low {
                        BestEffort::Fifo(q) => q.pop_front(),
                        BestEffort::RoundRobin(r) => r.pop_next(),
                    };
                    cell.expect("dequeue from an empty port")
                }
            }
        };
        let vc = cell.vc as usize;
        let kind = self.priority_kinds.get(vc).copied().unwrap_or(0);
        let own = kind & PRIORITY_OWN != 0;
        debug_assert_eq!(own, self.has_own && self.own[vc], "a guaranteed VC has its own buffer");
        let slot = self.clock.next();
        self.queued -= 1;
        self.queued_own -= u32::from(own);
        self.stats.depart(slot);
        // SAFETY: the cell was in the buffer.
        let (v, class) = unsafe { departing(&self.vcs, &mut self.classes, vc) };
        if class.depart(slot) {
            self.active -= 1;
        }
        let hop = v.hop;
        if captured {
            let capture = world.channels[self.channel as usize].capture;
            world.captures.on_cell(capture, slot, Cell { vc: hop.vc, ..cell }, &world.frames);
        }
        world.deliver(hop, slot + self.latency, cell);
        self.clock.advance();
        if !HOOKS {
            return true;
        }
        if own {
            if kind & PRIORITY_FCVC != 0 && self.fcvc.departed(vc, slot, world) {
                self.stats.credit_sent();
            }
        } else {
            let x = self.shared_level();
            self.congestion.level_moved(slot, x, &mut world.levels);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture;
    use super::super::FcvcHop;
    use super::*;
    use crate::accept::{Policy, VcPolicy};
    use crate::cell::{CellFifo, F_EOF};
    use crate::net::EnginePaths;
    use crate::rng::Rng;
    use crate::sched::RoundRobin;
    use crate::time::{CellPeriod, SlotClock, PS_PER_US};

    /// A priority port (VC 0 guaranteed, 1 to 3 best effort in `low`, VC 1 forwarded under
    /// FCVC) fed by two inputs, run in batches of `step` to `end` on the priority path or not:
    /// what it sent (time, VC, flags), into FIFO 0, and its counters.
    fn run(low: BestEffort, priority: bool, step: Time) -> (Vec<(Time, u16, u8)>, String, u64) {
        let (mut p, mut w) = fixture(6, Policy::TailDrop);
        let q =
            Queue::Priority { high: Default::default(), low, guaranteed: vec![true, false, false, false] };
        p.configure(q, vec![0, 1, 2, 3], vec![VcPolicy::default(); 4], Rng::stream(0, "m"), false);
        // Credits for VC 1 go back into FIFO 3 (never read here).
        p.count_credit(1, 4, FcvcHop::new(2, 8, 0, 3, 1));
        p.set_efci_threshold(3);
        for owner in [0, 0, 0] {
            w.fifos.push(CellFifo::new(owner));
        }
        p.inputs = vec![1, 2];
        // Input 1: guaranteed and VC 2 cells; input 2: VC 1 and VC 3 cells; bursts and gaps,
        // some at the same instants as the other input's and as slot boundaries.
        // Slots of a whole number of picoseconds, so that arrivals fall on slot boundaries too.
        p.clock = SlotClock::new(CellPeriod::from_cells_per_s(1_000_000));
        let slot = SLOT;
        let mut t = [0, slot / 2];
        for k in 0..120u32 {
            for (i, vcs) in [[0u16, 2], [1, 3]].iter().enumerate() {
                let vc = vcs[(k as usize / 2 + i) % 2];
                let gap = match k % 11 {
                    0 => 9 * slot,
                    3..=5 => 0,
                    7 => slot / 3,
                    _ => slot,
                };
                // Input 2 sparser, so that input 1's runs hold several cells.
                t[i] += gap * (1 + 3 * i as Time);
                let flags = if k % 4 == 3 { F_EOF } else { 0 };
                w.fifos[i + 1].push(t[i], Cell { frame: vc as u32, vc, flags });
            }
        }
        let mut paths = EnginePaths::ALL;
        paths.priority_port = priority;
        p.set_paths(paths);
        let end = t[0].max(t[1]) + 400 * slot;
        p.commit_until(end, &w);
        assert_eq!(p.plan.priority, priority);
        let mut events = 0;
        let mut h = 0;
        while h < end {
            h = (h + step).min(end);
            events += p.advance(h, &mut w);
        }
        p.finish(end);
        let sent = w.fifos[0].iter().map(|&(t, c)| (t, c.vc, c.flags)).collect();
        let counts = format!("{:?} {:?}", p.stats, p.classes);
        (sent, counts, events)
    }

    #[test]
    fn the_priority_path_sends_and_counts_as_the_per_cell_path() {
        let slot = SLOT;
        for step in [slot / 3, 7 * slot, 1000 * PS_PER_US] {
            for rr in [false, true] {
                let low =
                    || if rr { BestEffort::RoundRobin(RoundRobin::new(4)) } else { BestEffort::default() };
                let (want, got) = (run(low(), false, step), run(low(), true, step));
                assert!(
                    want.0.len() > 150 && !want.1.contains("drops: [0,"),
                    "cells sent and dropped: {}",
                    want.1
                );
                assert_eq!(got, want, "step {step}, round robin {rr}");
            }
        }
    }

    /// The port's slot in the test (1 us).
    const SLOT: Time = 1_000_000;
}
