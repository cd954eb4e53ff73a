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

    /// Hold `cell` of `vc`; at the frame's EOF cell, hand back the whole frame to queue.
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
}
