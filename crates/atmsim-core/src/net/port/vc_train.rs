//! Trains across VCs (`[engine] vc_train`): the cells of several VCs interleaved at a lone-input
//! count-only plain port taken in one loop while it is idle at each (or busy by one cell).
//!
//! A frame train (`train.rs`) follows one VC and stops at another's cell: at the background
//! egress ports of the CLASS studies (nine VCs whose shaped cells interleave one by one) a
//! pass takes a cell or two, and the cell after it goes by the per-cell step of
//! `Port::lone_trains` (the loop's look at the head, `arrive_plain`'s retire, align and
//! `enqueue_plain`). At a port of several VCs `Port::lone_vc_trains` replaces that loop: a
//! frame train where the head's next two cells are its VC's, else a train across VCs. [`Port::vc_train`] does that step for each cell in a row, with the pending
//! departures (`CommittedRun`) and the transmitter's next free slot in locals: the departures
//! before the arrival retire, an idle transmitter moves to the first slot from it, and the cell
//! is committed in the next free slot, as `arrive_plain` does. It takes a cell only where that
//! step would send it at once with no decision of the policy's: a data cell of a frame whole
//! here, or a first cell where the occupancy after the retire is below the one from which the
//! policy asks (`PolicyFacts::unasked_below`: tail drop, PPD and EPD below its threshold admit
//! every frame unasked), the buffer below its capacity, its slot before the end of the
//! committed run, its VC's next hop into the same FIFO as the first cell's (an egress port:
//! the one host's input). Each cell
//! gets the slot, the label, the frame state (`FrameState::begin`) and the time in the buffer
//! that step gives it; what the step adds per cell (the counters, the receiver's wake-up) is
//! done once at the end. Any other cell stops the loop and is left at the head for the per-cell
//! step (whose retire and align were done here and then change nothing).

use super::train::Pass;
use super::Port;
use crate::net::World;
use crate::time::Time;

impl Port {
    /// `Port::lone_trains` at a port crossed by several VCs taking trains across VCs: at each
    /// head, a frame train where the transmitter is idle (or busy by one cell) and the head's
    /// next two cells are its VC's (a pass then moves three cells or more: `Port::same_vc_next`),
    /// else a train across VCs, then the cell either stopped at by the per-cell step.
    #[inline(never)]
    pub(super) fn lone_vc_trains(&mut self, f: usize, stop: Time, world: &mut World) -> u64 {
        let mut events = 0;
        let busy_ok = Pass::busy_ok(&self.policy, self.capacity);
        let q = self.clock.shortest_slot();
        while Port::holds_train(&world.fifos[f], stop) {
            let Some((ta, cell)) = world.fifos[f].front() else { unreachable!("four cells are held") };
            let idle = self.run.all_before(ta) || busy_ok && self.clock.next() <= ta + 2 * q;
            if idle && Port::same_vc_next(&world.fifos[f], cell) {
                events += self.train_at(f, (ta, cell), stop, busy_ok, world);
            } else {
                events += self.vc_train(f, stop, world);
            }
            let fifo = &mut world.fifos[f];
            let Some((ta, cell)) = fifo.front().filter(|&(t, _)| t < stop) else { break };
            fifo.pop();
            self.arrive_plain(ta, cell, world);
            events += 1;
        }
        events
    }

    /// The cells at the head of the lone input `f` arriving before `stop` that the per-cell
    /// step would send at once (see the module comment), taken in one loop; returns how many.
    #[inline(never)]
    pub(super) fn vc_train(&mut self, f: usize, stop: Time, world: &mut World) -> u64 {
        debug_assert!(self.plan.vc_train && self.plan.count_only && self.plan.plain && !self.hooks);
        // Cells held back at the end of the committed run are the per-cell path's.
        if self.queued != self.run.len() {
            return 0;
        }
        let Some((_, head)) = world.fifos[f].front() else { return 0 };
        let Some(out) = self.vcs.get(head.vc as usize).map(|v| v.hop.fifo as usize) else { return 0 };
        let Ok([input, fifo]) = world.fifos.get_disjoint_mut([f, out]) else { return 0 };
        let (capacity, unasked) = (self.capacity, self.policy.facts().unasked_below());
        let (clock, vcs, end, latency) = (&self.clock, &mut self.vcs, self.commit_end, self.latency);
        let mut next = clock.mark();
        let mut run = self.run;
        let mut max_queue = self.stats.max_queue();
        let mut n = 0u32;
        while let Some((ta, cell)) = input.front() {
            if ta >= stop || cell.is_control() {
                break;
            }
            // `arrive_plain`'s retire and align (done again by the per-cell step, if it takes
            // the cell, without effect).
            run.retire_before(ta, clock);
            next = clock.align_mark(next, ta);
            let x = run.len();
            let v = &mut vcs[cell.vc as usize];
            let within = v.frame.within();
            if x >= capacity
                || next.time() >= end
                || v.hop.fifo as usize != out
                || if within { !v.frame.passing() } else { x >= unasked }
            {
                break;
            }
            // A first cell meets the policy at occupancy `x`, where it admits every frame
            // unasked; a later cell of a whole frame needs only room, which `x` leaves.
            v.frame.begin(cell.is_eof());
            let slot = next.time();
            v.sojourn = v.sojourn.wrapping_add(u128::from(slot - ta));
            input.pop();
            fifo.push(slot + latency, crate::cell::Cell { vc: v.hop.label, ..cell });
            run.push(next);
            clock.step(&mut next);
            max_queue = max_queue.max(x + 1);
            n += 1;
        }
        // The retire and align of a cell left at the head stand (see above).
        self.clock.set_next(next);
        self.run = run;
        self.queued = run.len();
        if n == 0 {
            return 0;
        }
        crate::net::wake_for_last(&mut world.sched, fifo, n);
        self.stats.passed(u64::from(n), u64::from(n), max_queue);
        u64::from(n)
    }
}
