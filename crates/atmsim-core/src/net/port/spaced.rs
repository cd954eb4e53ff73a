//! The batch of a per-VC-queue port (Virtual Spacing, the GFR study's WFQ switch) with nothing
//! that acts per slot (`[engine] spaced_port`).
//!
//! Such a port cannot commit its departures: a cell arriving later at an idle VC may be stamped
//! ahead of cells already queued, so a cell's slot is known only when the slot comes. What the
//! per-cell loop (`Port::process`) does besides is read the input merge's heap at every arrival
//! and every departure to order the two. Here the arrivals are read as `Port::process_plain`
//! reads them: a lone input straight from its FIFO, several inputs in runs (the earliest
//! input's cells before the runner-up's, `InputMerge::run_until`), the merge told once per run;
//! and the departures due before each arrival (slots strictly before it: the per-cell loop
//! takes an arrival first on a tie) leave in a row, each popped from the Virtual Spacing queue
//! and sent as `Port::dequeue` sends it. Every arrival is `Port::enqueue`'s, compiled without
//! the parts the plan excludes (`enqueue_as::<SPACED_PORT>`), so UPC, faults and control cells
//! are the per-cell path's; each arrival and each departure is the event it is there.
//!
//! `PortPlan::choose` opens it only where no departure does more than pop and send: no hooks
//! (credit gating, FCVC, EFCI, published levels), no buffer of a VC's own, no frame merging, no
//! trace (sampled at instants the loop does not stop at), no capture, and not under the
//! reference schedule.

use super::{departing, Port, SPACED_PORT};
use crate::cell::Cell;
use crate::net::{InputMerge, World};
use crate::sched::{Queue, HEADS_HEAP, HEADS_SCAN4, HEADS_SCAN8, HEADS_TREE16};
use crate::time::Time;

impl Port {
    /// `Port::process` at a port whose plan is `spaced`: every arrival and departure before
    /// `stop`; returns the number of events.
    pub(super) fn process_spaced(&mut self, stop: Time, world: &mut World) -> u64 {
        debug_assert!(self.plan.spaced && !self.hooks && self.stall_floor == 0);
        // The way the Virtual Spacing queue keeps its heads, told once for the batch.
        let (arrivals, departures) = match &self.queue {
            Queue::VirtualSpacing(vs) => match vs.heads_kind() {
                HEADS_SCAN4 => self.spaced_batch::<HEADS_SCAN4>(stop, world),
                HEADS_SCAN8 => self.spaced_batch::<HEADS_SCAN8>(stop, world),
                HEADS_TREE16 => self.spaced_batch::<HEADS_TREE16>(stop, world),
                _ => self.spaced_batch::<HEADS_HEAP>(stop, world),
            },
            _ => self.spaced_batch::<HEADS_HEAP>(stop, world),
        };
        // Each departure is a cell out and on the wire: counted once per batch (as
        // `Port::process_plain` counts its channel's), not per row.
        self.stats.sent(departures);
        world.channels[self.channel as usize].cells += departures;
        arrivals + departures
    }

    /// The batch of `process_spaced`, the Virtual Spacing queue's heads kept as `K`: how many
    /// arrivals, how many departures.
    #[inline(always)]
    fn spaced_batch<const K: u8>(&mut self, stop: Time, world: &mut World) -> (u64, u64) {
        let (mut arrivals, mut departures) = (0, 0);
        if let Some(f) = InputMerge::lone(&self.inputs) {
            loop {
                let ta = self.merge.lone_key(&world.fifos[f]);
                departures += self.depart_before::<K>(ta.min(stop), world);
                if ta >= stop {
                    self.merge.set_lone(ta);
                    return (arrivals, departures);
                }
                let Some((_, cell)) = world.fifos[f].pop() else { unreachable!("the head was read") };
                self.arrive_spaced(ta, cell, world);
                arrivals += 1;
            }
        }
        self.merge.rebuild(&world.fifos, &mut world.sched.marks, &self.inputs);
        loop {
            let (mut ta, i) = self.merge.peek();
            if ta >= stop {
                return (arrivals, departures + self.depart_before::<K>(stop, world));
            }
            let (f, until) = (self.inputs[i] as usize, self.merge.run_until().min(stop));
            loop {
                departures += self.depart_before::<K>(ta, world);
                let Some((_, cell)) = world.fifos[f].pop() else { unreachable!("the head was read") };
                self.arrive_spaced(ta, cell, world);
                arrivals += 1;
                ta = self.merge.lone_key(&world.fifos[f]);
                if ta >= until {
                    break;
                }
            }
            self.merge.ran(ta);
        }
    }

    /// The departures in slots before `t`, in a row (`Port::dequeue` without hooks and
    /// `Port::sent` without own buffers; `process_spaced` counts the cells out): popped by
    /// `VirtualSpacing::pop_backlogged_as`, the next free slot and the buffer's occupancy kept in locals
    /// for the row; returns how many.
    #[inline(always)]
    fn depart_before<const K: u8>(&mut self, t: Time, world: &mut World) -> u64 {
        let Queue::VirtualSpacing(vs) = &mut self.queue else {
            return self.depart_before_any(t, world);
        };
        // Not committing (the plan): every queued cell is in the Virtual Spacing queue.
        debug_assert_eq!(self.queued as usize, vs.len());
        if self.queued == 0 || self.clock.next() >= t {
            return 0;
        }
        let (mut slot, mut left) = (self.clock.mark(), self.queued);
        // `depart_spaced`, written out: the queue stays borrowed for the row.
        loop {
            let at = slot.time();
            let cell = vs.pop_backlogged_as::<K>();
            left -= 1;
            self.stats.depart(at);
            // SAFETY: the cell was in the buffer.
            let (v, class) = unsafe { departing(&self.vcs, &mut self.classes, cell.vc as usize) };
            if class.depart(at) {
                self.active -= 1;
            }
            world.deliver(v.hop, at + self.latency, cell);
            self.clock.step(&mut slot);
            if left == 0 || slot.time() >= t {
                break;
            }
        }
        self.clock.set_next(slot);
        let n = self.queued - left;
        self.queued = left;
        u64::from(n)
    }

    /// `depart_before` under another queue (never chosen by the plan: kept for its type).
    #[cold]
    #[inline(never)]
    fn depart_before_any(&mut self, t: Time, world: &mut World) -> u64 {
        let mut n = 0;
        while self.queued > 0 && self.clock.next() < t {
            let slot = self.clock.next();
            let cell = self.queue.pop(|_| true).expect("dequeue from an empty port");
            self.depart_spaced(slot, cell, world);
            n += 1;
        }
        n
    }

    /// `cell`, just popped, leaves in `slot`: the occupancies, and the wire (`World::transmit`
    /// with the route copied into the label table, no capture here: the input is marked after
    /// the batch, and `process_spaced` adds the channel's count and the cells out).
    #[inline(always)]
    fn depart_spaced(&mut self, slot: Time, cell: Cell, world: &mut World) {
        self.queued -= 1;
        self.stats.depart(slot);
        let v = &self.vcs[cell.vc as usize];
        if self.classes[v.class as usize].depart(slot) {
            self.active -= 1;
        }
        world.deliver(v.hop, slot + self.latency, cell);
        self.clock.advance();
    }

    /// An accepted cell joins its VC's queue.
    #[inline(always)]
    pub(super) fn queue_spaced(&mut self, cell: Cell) {
        match &mut self.queue {
            Queue::VirtualSpacing(v) => v.push(cell),
            q => q.push(cell),
        }
    }

    /// An arrival at `ta`: an idle transmitter next sends in the first slot from `ta`.
    ///
    /// A data cell in the middle of a frame still whole here, at a buffer with room, with no
    /// cell-level UPC, is admitted whatever the policy (it decides at first cells;
    /// `FrameState::verdict` gives `None` there): it takes the frame-level UPC and joins its
    /// VC's queue, read before the frame state moves (no test after). Every other cell is
    /// `enqueue`'s.
    #[inline(always)]
    fn arrive_spaced(&mut self, ta: Time, mut cell: Cell, world: &mut World) {
        if self.queued == 0 {
            self.clock.align(ta);
        }
        let vc = cell.vc as usize;
        let lean = {
            let frame = &self.vcs[vc].frame;
            frame.within() && frame.passing()
        };
        if !lean || cell.is_control() || self.queued >= self.capacity || !self.cell_upc.is_empty() {
            return self.enqueue_as::<SPACED_PORT>(ta, cell, world);
        }
        self.stats.taken(1);
        let v = &mut self.vcs[vc];
        let first = v.frame.begin(cell.is_eof());
        debug_assert!(!first);
        let c = v.class as usize;
        if let Some(Some(u)) = self.upc.get_mut(vc) {
            u.police(ta, false, &mut cell);
        }
        self.stats.arrive(ta);
        debug_assert!(c < self.classes.len());
        // SAFETY: a VC's class is one of the port's (`Port::configure`).
        if unsafe { self.classes.get_unchecked_mut(c) }.arrive(ta) {
            self.active += 1;
        }
        self.queued += 1;
        self.queue_spaced(cell);
        self.stats.reached(self.queued);
    }
}
