//! AAL5 frames in flight: the TCP segment each one carries, in a slab of reusable slots.
//!
//! A frame's slot lives as long as any of its cells does; cells hold the slot index. Slots are
//! recycled through a free list, so a steady-state run allocates nothing per frame.

use crate::time::Time;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegKind {
    Data,
    Ack,
}

/// The TCP segment an AAL5 frame carries: only the header fields the model reads.
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    pub conn: u32,
    pub kind: SegKind,
    pub seq: u32,
    pub ack: u32,
    pub len: u32,
    /// Advertised window in octets (already scaled).
    pub wnd: u32,
    pub ncells: u32,
    /// Cells of this frame not yet delivered or dropped.
    pub alive: u32,
    /// When the source handed the frame to its adapter.
    pub created: Time,
    pub retransmission: bool,
    /// Unique over the run (set by the slab): tells a reused slot from the frame it held before.
    pub serial: u64,
}

#[derive(Debug, Default)]
pub struct FrameSlab {
    slots: Vec<Frame>,
    free: Vec<u32>,
    serial: u64,
}

impl FrameSlab {
    pub fn insert(&mut self, mut f: Frame) -> u32 {
        self.serial += 1;
        f.serial = self.serial;
        match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = f;
                i
            }
            None => {
                self.slots.push(f);
                (self.slots.len() - 1) as u32
            }
        }
    }

    #[inline]
    pub fn get(&self, i: u32) -> &Frame {
        &self.slots[i as usize]
    }

    /// One cell of frame `i` is gone (delivered or dropped); frees the slot with the last one.
    #[inline]
    pub fn release_cell(&mut self, i: u32) {
        let f = &mut self.slots[i as usize];
        f.alive -= 1;
        if f.alive == 0 {
            self.free.push(i);
        }
    }

    /// Frames with cells still alive.
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}
