//! Frame merging at an edge port (`merge_frames`): VCs merged onto one backbone VC must not
//! interleave their frames there, or the far end could not reassemble them. The port holds each
//! frame's cells until its EOF cell arrives and then queues the frame whole. RM cells are not
//! part of any frame and bypass the staging.

use crate::cell::Cell;

/// The frames being held, per connection VC; empty when the port does not merge.
#[derive(Debug, Default)]
pub(super) struct Staging {
    staged: Vec<Vec<Cell>>,
    /// Cells held (part of the buffer's occupancy, not yet in the queue).
    pub held: u32,
}

impl Staging {
    pub fn new(n_vcs: usize) -> Self {
        Staging { staged: vec![Vec::new(); n_vcs], held: 0 }
    }

    /// Does this port merge frames?
    #[inline]
    pub fn on(&self) -> bool {
        !self.staged.is_empty()
    }

    /// Hold `cell` of `vc`; at the frame's EOF cell, hand back the whole frame to queue (give
    /// it back with [`Staging::reuse`] once queued, so that the VC's next frame is held in the
    /// same allocation rather than grown again from nothing).
    #[inline]
    pub fn stage(&mut self, vc: usize, cell: Cell) -> Option<Vec<Cell>> {
        self.staged[vc].push(cell);
        self.held += 1;
        if !cell.is_eof() {
            return None;
        }
        let frame = std::mem::take(&mut self.staged[vc]);
        self.held -= frame.len() as u32;
        Some(frame)
    }

    /// The frame `stage` handed back for `vc`, now queued: its allocation holds the VC's next.
    #[inline]
    pub fn reuse(&mut self, vc: usize, mut frame: Vec<Cell>) {
        frame.clear();
        // Nothing of the VC's next frame has arrived: its cells follow this EOF.
        debug_assert!(self.staged[vc].is_empty());
        self.staged[vc] = frame;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::F_EOF;

    #[test]
    fn a_queued_frame_gives_its_allocation_to_the_vcs_next() {
        let mut s = Staging::new(2);
        let cell = |flags| Cell { frame: 0, vc: 1, flags };
        for _ in 0..40 {
            assert!(s.stage(1, cell(0)).is_none());
        }
        let frame = s.stage(1, cell(F_EOF)).expect("the EOF completes the frame");
        assert_eq!((frame.len(), s.held), (41, 0));
        let room = frame.capacity();
        s.reuse(1, frame);
        assert!(s.stage(1, cell(0)).is_none());
        assert_eq!(s.held, 1);
        // The next frame is held where the last one was: no growth from nothing per frame.
        assert_eq!(s.staged[1].capacity(), room);
        assert_eq!(s.staged[1].len(), 1);
    }
}
