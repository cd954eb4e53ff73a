//! Runs of fixed-rate paced VCs' cells in one pass (`[engine] fixed_run`, `HostPlan::fixed_runs`).
//!
//! A VC shaped at a fixed rate (`RateControl::Fixed` with a shaper: the background sources of
//! the credit/rate and CLASS studies) sends no RM cell and its shaper's increment never moves,
//! so between two cells it changes only by the shaper's step and its head frame's count. The
//! paced pass for several VCs ([`Adapter::send_paced_rr`]) reaches each cell's VC through the
//! adapter's list (its queue, shaper, rate control and counters, an RM test and the rate
//! control's match per cell) and keeps the VCs' ready times and hops in arrays beside it; here
//! each VC the run serves is a lane of locals (its shaper, its hop, its head frame's cells),
//! loaded at its first cell of the run and written back at the end, and the VC's queue is read
//! only where a frame begins or ends. The slots, the round robin and the wake-ups are the
//! paced pass's, cell for cell: what [`Adapter::send`] after [`Adapter::send`] gives.

use super::paced_run::{transmit, Turns, Waiting};
use super::{Adapter, RateControl, Shaper};
use crate::cell::{Cell, VcId, F_EOF};
use crate::net::{World, NO_CAPTURE};
use crate::time::{Time, NEVER};
use std::mem::MaybeUninit;

/// One VC of a fixed-rate run: what its cells need, in locals.
#[derive(Clone, Copy)]
struct Lane {
    shaper: Shaper,
    /// The VC's hop from this host (read once a run).
    fifo: u32,
    label: VcId,
    /// Cells of the head frame not yet sent; 0: the next cell begins the queue's head frame,
    /// read from the queue then.
    remaining: u32,
    frame: u32,
    flags: u8,
    /// Cells sent in the run.
    sent: u32,
    /// The ready time as the lane leaves it.
    ready: Time,
}

impl Adapter {
    /// Every controlled VC is shaped at a fixed rate (no RM cells, no credit): the case of
    /// [`Adapter::send_fixed_rr`].
    pub fn all_fixed(&self) -> bool {
        !self.controlled.is_empty()
            && self.controlled.len() <= 64
            && self
                .controlled
                .iter()
                .all(|c| matches!(c.rate, RateControl::Fixed) && c.shaper.is_some() && c.credit.is_none())
    }

    /// [`Adapter::send_paced_rr`] for an adapter whose VCs are all fixed-rate
    /// ([`Adapter::all_fixed`]): the same cells in the same slots, the same wake-ups, the same
    /// state left; `data(vc, n)` after the run for each VC that sent `n > 0` cells.
    #[inline(never)]
    pub fn send_fixed_rr(&mut self, limit: Time, world: &mut World, data: impl FnMut(VcId, u32)) -> u64 {
        // Most often every VC goes to one FIFO (a host's link ends at one switch port): then
        // that FIFO is empty at most at the run's first cell, and its middle floor is fixed
        // (its consumer does not run meanwhile).
        let route = &world.channels[self.channel as usize].route;
        let f0 = route[self.controlled[0].vc as usize].fifo;
        if self.controlled.iter().all(|c| route[c.vc as usize].fifo == f0) {
            self.fixed_rr::<true>(f0 as usize, limit, world, data)
        } else {
            self.fixed_rr::<false>(0, limit, world, data)
        }
    }

    /// `send_fixed_rr`, every VC into FIFO `f0` if `ONE_FIFO`.
    #[inline(always)]
    fn fixed_rr<const ONE_FIFO: bool>(
        &mut self,
        f0: usize,
        limit: Time,
        world: &mut World,
        mut data: impl FnMut(VcId, u32),
    ) -> u64 {
        debug_assert!(self.runs_paced() && self.all_fixed() && self.next < limit);
        let slot_ps = self.slot_ps;
        let n = self.controlled.len();
        let mut clock = self.clock.clone();
        if self.next > clock.next() {
            clock.set_next(self.ahead);
        }
        let mut waiting = Waiting::default();
        let mut turns = Turns::new(&mut waiting, self.ready.leaves(), clock.next(), self.rr);
        let ch = &world.channels[self.channel as usize];
        debug_assert_eq!(ch.capture, NO_CAPTURE);
        let latency = ch.latency;
        // Lanes are loaded at a VC's first cell in the run (`loaded`): only those read.
        let mut lanes = [const { MaybeUninit::<Lane>::uninit() }; 64];
        let mut loaded = 0u64;
        let mut last;
        let mut sent = 0u64;
        // One FIFO: whether it is empty is known after the first cell, and whether its consumer
        // skips middle cells for the whole run.
        let (mut may_be_empty, skips) = (true, !ONE_FIFO || world.fifos[f0].middle_floor != 0);
        loop {
            let slot = clock.next();
            debug_assert!(slot < limit);
            let i = turns.pick(&mut waiting, slot);
            debug_assert!(i < n);
            last = i;
            let bit = 1u64 << i;
            if loaded & bit == 0 {
                loaded |= bit;
                let c = &self.controlled[i];
                let hop = world.channels[self.channel as usize].route[c.vc as usize];
                lanes[i] = MaybeUninit::new(Lane {
                    shaper: c.shaper.expect("a fixed-rate VC is shaped"),
                    fifo: hop.fifo,
                    label: hop.label,
                    remaining: 0,
                    frame: 0,
                    flags: 0,
                    sent: 0,
                    ready: NEVER,
                });
            }
            // SAFETY: lane `i` was written above, at the VC's first cell of the run.
            let l = unsafe { lanes[i].assume_init_mut() };
            if l.remaining == 0 {
                // `next_cell`'s look at the head frame, once a frame.
                let head = self.controlled[i].queue.front_mut().expect("a ready queue has a frame");
                if head.fresh {
                    Self::start_frame(head, &mut self.taggers, slot);
                }
                (l.remaining, l.frame, l.flags) = (head.remaining, head.frame, head.flags);
            }
            // `paced_cell`: the shaper told, the head frame's next cell.
            l.shaper.sent_after(slot, slot_ps);
            l.remaining -= 1;
            l.sent += 1;
            let mut flags = l.flags;
            let r = if l.remaining != 0 {
                l.shaper.earliest()
            } else {
                flags |= F_EOF;
                let q = &mut self.controlled[i].queue;
                q.pop_front();
                if q.is_empty() {
                    NEVER
                } else {
                    l.shaper.earliest()
                }
            };
            l.ready = r;
            clock.advance();
            sent += 1;
            let f = if ONE_FIFO { f0 } else { l.fifo as usize };
            transmit(
                world,
                f,
                slot + latency,
                Cell { vc: l.label, frame: l.frame, flags },
                may_be_empty,
                skips,
            );
            may_be_empty = !ONE_FIFO;
            if !turns.sent(&mut waiting, i, r, &mut clock, limit) {
                break;
            }
        }
        self.end_run(world, sent, clock, last);
        // Each lane back into its VC, in VC order.
        for i in (0..n).filter(|&i| loaded >> i & 1 != 0) {
            // SAFETY: a bit of `loaded` is a lane written in the run.
            let l = unsafe { lanes[i].assume_init_ref() };
            let c = &mut self.controlled[i];
            c.shaper = Some(l.shaper);
            c.stats.cells += u64::from(l.sent);
            if l.remaining != 0 {
                c.queue.front_mut().expect("a frame begun is queued").remaining = l.remaining;
            }
            debug_assert!(!c.rm_due);
            debug_assert_eq!(l.ready, c.paced_ready_at());
            self.ready.set(i, l.ready);
            data(c.vc, l.sent);
        }
        self.recompute();
        sent
    }
}
