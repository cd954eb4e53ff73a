//! What a host counts: the cells it sends and takes in, and the frames it reassembles.
//!
//! One tally, [`HostStats`], as the port's (`net/port/accounting.rs`): its counters are private
//! to this module, written only through the methods below, each named for the event it counts,
//! and read through its accessors. Every path of the host (the per-cell `Host::receive` and
//! `send_cell`, the adapter's committed runs, the whole frames and middles taken from a FIFO in
//! one step) counts through them; a batch path adds its cells in one call. A new counter is
//! added here, once. `taken` and `sent` are filled per batch; the others are not: a control
//! cell is counted only in `Host::receive` (the batches that take middle cells or whole frames
//! from a FIFO stop at one and leave it to that path), and a frame only in `Host::deliver`,
//! which every path calls at a frame's last cell.

/// The host's tally (see the module comment).
#[derive(Debug, Clone, Default)]
pub struct HostStats {
    cells_in: u64,
    cells_out: u64,
    frames_in: u64,
    /// Frames that arrived with cells missing (or merged with the next frame after a lost EOF):
    /// discarded by AAL5 reassembly.
    frames_corrupted: u64,
    /// RM and credit cells received (included in `cells_in`).
    control_in: u64,
}

impl HostStats {
    /// `n` cells taken in from the link (data and control).
    #[inline(always)]
    pub(super) fn taken(&mut self, n: u64) {
        self.cells_in += n;
    }

    /// `n` cells sent on the link.
    #[inline(always)]
    pub(super) fn sent(&mut self, n: u64) {
        self.cells_out += n;
    }

    /// A control (RM or credit) cell received, already counted as taken.
    #[inline]
    pub(super) fn control_received(&mut self) {
        self.control_in += 1;
    }

    /// A frame reassembled whole.
    #[inline(always)]
    pub(super) fn frame_received(&mut self) {
        self.frames_in += 1;
    }

    /// A frame reassembled with cells missing, discarded.
    #[inline]
    pub(super) fn frame_corrupted(&mut self) {
        self.frames_corrupted += 1;
    }

    /// Cells taken in from the link (data and control).
    #[inline(always)]
    pub fn cells_in(&self) -> u64 {
        self.cells_in
    }

    /// Cells sent on the link.
    #[inline(always)]
    pub fn cells_out(&self) -> u64 {
        self.cells_out
    }

    /// Frames reassembled whole.
    pub fn frames_in(&self) -> u64 {
        self.frames_in
    }

    /// Frames that arrived with cells missing (or merged with the next frame after a lost EOF):
    /// discarded by AAL5 reassembly.
    pub fn frames_corrupted(&self) -> u64 {
        self.frames_corrupted
    }

    /// RM and credit cells received (included in `cells_in`).
    pub fn control_in(&self) -> u64 {
        self.control_in
    }
}
