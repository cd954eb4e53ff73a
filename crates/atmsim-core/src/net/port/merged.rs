//! A frame-merging port's complete frames, queued whole (`[engine] commit_merging`).
//!
//! A merging port (`staging.rs`) holds each frame until its EOF cell and then queues the frame's
//! cells in a row, behind every cell queued before. At a FIFO port nothing queued later can
//! overtake them, so each cell's slot is fixed when it is queued and the port may commit it
//! there (`net/commit.rs`): `Port::push` sends it at once, as it does any cell of a committing
//! port. The staging itself needs `Port::enqueue`, so a merging port commits but never takes the
//! plain path (`PortPlan::choose`).

use super::Port;
use crate::cell::Cell;
use crate::net::World;

impl Port {
    /// `vc`'s frame, complete with the EOF cell just accepted: its cells queued (and, at a
    /// committing port, sent) in order; the staging keeps the allocation for the VC's next.
    #[inline]
    pub(super) fn queue_frame(&mut self, vc: usize, frame: Vec<Cell>, own: bool, world: &mut World) {
        for &c in &frame {
            self.push(c, own, world);
        }
        self.staging.reuse(vc, frame);
    }
}
