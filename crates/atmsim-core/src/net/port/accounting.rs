//! What a port counts: per accounting class its occupancy and policy state, and per port the
//! arrivals, departures and drops by reason, with the time integrals of both occupancies.
//!
//! The time integrals are closed lazily: a class's `area` grows only when its occupancy changes
//! (and once more at the end of the run), so the per-cell cost is one multiply-add.

use crate::accept::{VcPolicy, DROP_REASONS};
use crate::time::Time;

/// Per accounting class (a VC as the port sees it, see the port's module comment): occupancy,
/// policy state, and the integral of the occupancy over time.
#[derive(Debug, Clone, Default)]
pub struct ClassState {
    /// Cells of this class in the buffer (Y_i / X_i).
    pub y: u32,
    pub policy: VcPolicy,
    pub area: u128,
    last: Time,
}

impl ClassState {
    pub(super) fn new(policy: VcPolicy) -> Self {
        ClassState { policy, ..Default::default() }
    }

    /// The occupancy becomes `y` at `now`.
    #[inline]
    pub(super) fn set(&mut self, now: Time, y: u32) {
        self.area += self.y as u128 * (now - self.last) as u128;
        self.last = now;
        self.y = y;
    }
}

#[derive(Debug, Clone, Default)]
pub struct PortStats {
    /// Data and RM cells (credit cells are counted apart: they never queue).
    pub cells_in: u64,
    pub cells_out: u64,
    /// RM cells that arrived (both directions; included in `cells_in`).
    pub rm_cells: u64,
    /// Backward RM cells whose feedback this switch made more pessimistic.
    pub rm_feedback_raised: u64,
    /// Data cells queued with EFCI set here.
    pub efci_marked: u64,
    /// FCVC credit cells consumed here and sent from here.
    pub credit_cells_in: u64,
    pub credit_cells_out: u64,
    pub drops: [u64; DROP_REASONS],
    pub frames_dropped: u64,
    pub max_queue: u32,
    /// Integral of the queue length over time, in cell-picoseconds.
    pub queue_area: u128,
    pub last_change: Time,
}

impl PortStats {
    pub fn cells_dropped(&self) -> u64 {
        self.drops.iter().sum()
    }

    /// The buffer held `len` cells since the last change; it changes at `now`.
    #[inline]
    pub(super) fn account(&mut self, now: Time, len: u32) {
        self.queue_area += len as u128 * (now - self.last_change) as u128;
        self.last_change = now;
    }
}
