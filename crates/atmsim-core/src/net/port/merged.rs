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
use crate::net::{work_at, World, NO_CAPTURE, NO_COMMIT};
use crate::time::NEVER;

impl Port {
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
        let c = self.vcs[vc].class as usize;
        let ch = &mut world.channels[self.channel as usize];
        debug_assert_eq!(ch.capture, NO_CAPTURE, "a captured port does not commit");
        let (hop, latency) = (ch.route[vc], ch.latency);
        let fifo = &mut world.fifos[hop.fifo as usize];
        let was_empty = fifo.is_empty();
        let mut first_work = NEVER;
        let mut n = 0;
        for &cell in frame {
            debug_assert_eq!(cell.vc as usize, vc);
            let slot = self.clock.next();
            if slot >= self.commit_end {
                break;
            }
            self.queued += 1;
            if self.plan.count_only {
                self.run.push(self.clock.mark());
                if self.classes[c].depart(slot) {
                    self.active -= 1;
                }
            } else {
                self.committed.push(slot, c as u16);
                self.classes[c].leave_at(slot);
            }
            self.stats.depart(slot);
            let at = slot + latency;
            let cell = Cell { vc: hop.label, ..cell };
            fifo.push(at, cell);
            first_work = first_work.min(work_at(fifo, at, cell));
            self.clock.advance();
            n += 1;
        }
        if n > 0 {
            ch.cells += n as u64;
            self.stats.cells_out += n as u64;
            if was_empty {
                world.sched.marks.mark(fifo.mark);
            }
            world.sched.wake(fifo.owner, first_work);
        }
        n
    }
}
