//! A frame-merging port's complete frames, queued whole (`[engine] commit_merging`).
//!
//! A merging port (`staging.rs`) holds each frame until its EOF cell and then queues the frame's
//! cells in a row, behind every cell queued before. At a FIFO port nothing queued later can
//! overtake them, so each cell's slot is fixed when it is queued and the port may commit it
//! there (`net/commit.rs`). The staging itself needs `Port::enqueue`, so a merging port commits
//! but never takes the plain path (`PortPlan::choose`).
//!
//! Where nothing is held back (every queued cell committed) the frame is sent in one loop: its
//! cells are of one VC, so its class, its hop and the far end's FIFO are looked up once, and the
//! receiver is woken once with the earliest work the cells give it (a wake only lowers a key, so
//! one wake with the least is the cells' wakes in a row). Each cell is what `Port::push` and
//! `Port::commit` make of it: its slot, its departure counted or kept, the sums, the wire. The
//! cells whose slots are at or after the run's end stay queued, by `Port::push`, as there.

use super::Port;
use crate::cell::Cell;
use crate::net::{work_at, CommittedRun, World, NO_CAPTURE, NO_COMMIT};
use crate::time::NEVER;

impl Port {
    /// A committing merging port whose arrivals may take `enqueue_as::<MERGING_PORT>`: no
    /// arrival counts, own buffers or hooks (read once per batch, `process_committing`).
    #[inline]
    pub(super) fn merging_lean(&self) -> bool {
        self.staging.on() && !self.hooks && !self.has_own && self.vc_arrivals.is_empty()
    }

    /// `vc`'s frame, complete with the EOF cell just accepted: its cells queued (and, at a
    /// committing port, sent) in order; the staging keeps the allocation for the VC's next.
    #[inline]
    pub(super) fn queue_frame(&mut self, vc: usize, frame: Vec<Cell>, own: bool, world: &mut World) {
        let sent = if self.commit_end != NO_COMMIT && !own && self.queued == self.pending() {
            self.commit_frame(vc, &frame, world)
        } else {
            0
        };
        for &c in &frame[sent..] {
            self.push(c, own, world);
        }
        self.staging.reuse(vc, frame);
    }

    /// Send the cells of `frame` (all of label `vc`) whose slots come before the run's end, at
    /// a committing port with nothing held back; returns how many.
    #[inline]
    fn commit_frame(&mut self, vc: usize, frame: &[Cell], world: &mut World) -> usize {
        // The branches that do not change within a frame, taken once: four loops.
        let floor = world.fifos[world.channels[self.channel as usize].route[vc].fifo as usize].middle_floor;
        match (self.plan.count_only, floor == 0) {
            (true, true) => self.commit_frame_as::<true, true>(vc, frame, world),
            (true, false) => self.commit_frame_as::<true, false>(vc, frame, world),
            (false, true) => self.commit_frame_as::<false, true>(vc, frame, world),
            (false, false) => self.commit_frame_as::<false, false>(vc, frame, world),
        }
    }

    /// `commit_frame` at a port that counts only (`COUNT`, `CommittedRun`) or not, into a FIFO
    /// whose consumer keys each cell at its arrival (`AT`: no middle floor) or not.
    #[inline(always)]
    fn commit_frame_as<const COUNT: bool, const AT: bool>(
        &mut self,
        vc: usize,
        frame: &[Cell],
        world: &mut World,
    ) -> usize {
        debug_assert_eq!(COUNT, self.plan.count_only);
        let c = self.vcs[vc].class as usize;
        let ch = &mut world.channels[self.channel as usize];
        debug_assert_eq!(ch.capture, NO_CAPTURE, "a captured port does not commit");
        let (hop, latency) = (ch.route[vc], ch.latency);
        let fifo = &mut world.fifos[hop.fifo as usize];
        debug_assert_eq!(AT, fifo.middle_floor == 0);
        let was_empty = fifo.is_empty();
        let class = &mut self.classes[c];
        // A count-only port's run takes the frame's slots as one stretch, once (`parts`).
        let (run_first, run_pending) = self.run.parts(self.clock.mark());
        let mut first_work = NEVER;
        let mut n = 0;
        for &cell in frame {
            debug_assert_eq!(cell.vc as usize, vc);
            let slot = self.clock.next();
            if slot >= self.commit_end {
                break;
            }
            if COUNT {
                if class.depart(slot) {
                    self.active -= 1;
                }
            } else {
                self.committed.push(slot, c as u16);
                class.leave_at(slot);
            }
            self.stats.depart(slot);
            let at = slot + latency;
            let cell = Cell { vc: hop.label, ..cell };
            fifo.push(at, cell);
            if !AT {
                first_work = first_work.min(work_at(fifo, at, cell));
            } else if n == 0 {
                first_work = at;
            }
            self.clock.advance();
            n += 1;
        }
        if n > 0 {
            if COUNT {
                let pending = run_pending + n as u32;
                self.run = CommittedRun::from_parts(run_first, pending, self.clock.mark(), &self.clock);
            }
            self.queued += n as u32;
            ch.cells += n as u64;
            self.stats.sent(n as u64);
            if was_empty {
                world.sched.marks.mark(fifo.mark);
            }
            world.sched.wake(fifo.owner, first_work);
        }
        n
    }
}
