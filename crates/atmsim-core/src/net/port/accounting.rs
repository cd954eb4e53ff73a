//! What a port counts: per accounting class its occupancy and policy state, and per port the
//! arrivals, departures and drops by reason, with the time integrals of both occupancies.
//!
//! The time integrals of the occupancies (for mean queue lengths) are kept by Little's identity
//! rather than as sums of `occupancy x interval`: the integral of a queue's length over
//! `[0, end]` is the total time its cells spent in it, `sum(departure - arrival)` over departed
//! cells plus `end - arrival` for those still queued. So an arrival subtracts its time, a
//! departure adds its time, and the end of the run adds `length x end`: one 128-bit add per cell
//! and no multiply, exactly the same integer as the step sum. The running sum goes below zero,
//! so it wraps; the closed integral is non-negative and far below 2^128 (cells x picoseconds),
//! so the wrapped arithmetic gives it exactly. A committed departure (`net/commit.rs`) adds its
//! slot when it is committed, with its arrival time in one add if it is committed on arrival;
//! the occupancy falls only when its slot comes (`ClassState::retire`), and every committed
//! departure has been retired when the run ends, where the integrals are read.

use crate::accept::{VcPolicy, DROP_REASONS};
use crate::time::Time;

/// Per accounting class (a VC as the port sees it, see the port's module comment): occupancy,
/// policy state, and the integral of the occupancy over time.
#[derive(Debug, Clone, Default)]
pub struct ClassState {
    /// Cells of this class in the buffer (Y_i / X_i).
    pub y: u32,
    pub policy: VcPolicy,
    /// Departure times minus arrival times so far (wrapping; see the module comment and
    /// [`ClassState::area`]). The one 128-bit field keeps the state at the size it had with a
    /// step integral (a port holds one per class).
    sojourn: u128,
}

impl ClassState {
    pub(super) fn new(policy: VcPolicy) -> Self {
        ClassState { policy, ..Default::default() }
    }

    /// A cell of this class enters the buffer at `now`; returns whether the class was empty.
    #[inline]
    pub(super) fn arrive(&mut self, now: Time) -> bool {
        self.sojourn = self.sojourn.wrapping_sub(now as u128);
        self.y += 1;
        self.y == 1
    }

    /// A cell of this class leaves at `now`; returns whether the class is now empty.
    #[inline]
    pub(super) fn depart(&mut self, now: Time) -> bool {
        self.sojourn = self.sojourn.wrapping_add(now as u128);
        self.y -= 1;
        self.y == 0
    }

    /// A cell of this class that entered at `now` is sent now in the slot starting at `slot`
    /// (a committed departure, `net/commit.rs`): it counts in `y` until retired; its time in
    /// the buffer is known at once. Returns whether the class was empty.
    #[inline(always)]
    pub(super) fn stay(&mut self, now: Time, slot: Time) -> bool {
        self.sojourn = self.sojourn.wrapping_add((slot - now) as u128);
        self.y += 1;
        self.y == 1
    }

    /// Cells of this class that entered and were committed to leave at a port that counts its
    /// committed departures only (`net/commit.rs`, `CommittedRun`) spent `sojourn` in the
    /// buffer in all: their occupancy is not kept (no policy there reads it, and it would be
    /// back to zero before the run ends), their time is.
    #[inline]
    pub(super) fn pass(&mut self, sojourn: u128) {
        self.sojourn = self.sojourn.wrapping_add(sojourn);
    }

    /// A queued cell of this class is committed to leave at `slot`: its departure time enters
    /// the integral now, its occupancy leaves at [`ClassState::retire`].
    #[inline]
    pub(super) fn leave_at(&mut self, slot: Time) {
        self.sojourn = self.sojourn.wrapping_add(slot as u128);
    }

    /// A committed departure's slot has come: the cell leaves the occupancy. Returns whether the
    /// class is now empty.
    #[inline]
    pub(super) fn retire(&mut self) -> bool {
        self.y -= 1;
        self.y == 0
    }

    /// The integral of `y` over `[0, end]` in cell-picoseconds, `end` the time the run has got
    /// to (no cell of the class arrived or left after it).
    pub fn area(&self, end: Time) -> u128 {
        self.sojourn.wrapping_add(self.y as u128 * end as u128)
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
    /// Of those, the ones set to DR by the fair-share rule (`net::fair_share`) where the buffer
    /// band alone would not have given DR.
    pub rm_fair_share_decreases: u64,
    /// Data cells queued with EFCI set here.
    pub efci_marked: u64,
    /// FCVC credit cells consumed here and sent from here.
    pub credit_cells_in: u64,
    pub credit_cells_out: u64,
    pub drops: [u64; DROP_REASONS],
    pub frames_dropped: u64,
    pub max_queue: u32,
    /// Integral of the queue length over time, in cell-picoseconds (set by `PortStats::close`).
    pub queue_area: u128,
    /// Departure times minus arrival times so far (wrapping; see the module comment).
    sojourn: u128,
}

impl PortStats {
    pub fn cells_dropped(&self) -> u64 {
        self.drops.iter().sum()
    }

    /// A cell enters the buffer (queued or held for merging) at `now`.
    #[inline]
    pub(super) fn arrive(&mut self, now: Time) {
        self.sojourn = self.sojourn.wrapping_sub(now as u128);
    }

    /// A cell leaves the buffer at `now`.
    #[inline]
    pub(super) fn depart(&mut self, now: Time) {
        self.sojourn = self.sojourn.wrapping_add(now as u128);
    }

    /// A cell that entered at `now` leaves in the slot starting at `slot` (committed at once).
    #[inline(always)]
    pub(super) fn stay(&mut self, now: Time, slot: Time) {
        self.sojourn = self.sojourn.wrapping_add((slot - now) as u128);
    }

    /// Cells that entered and were committed at once spent `total` in the buffer in all (the
    /// sum of their `stay`s).
    #[inline]
    pub(super) fn stayed(&mut self, total: u128) {
        self.sojourn = self.sojourn.wrapping_add(total);
    }

    /// The run has got to `end` with `len` cells in the buffer: the integral up to then.
    pub(super) fn close(&mut self, end: Time, len: u32) {
        self.queue_area = self.sojourn.wrapping_add(len as u128 * end as u128);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sojourn_sum_is_the_step_integral_of_the_occupancy() {
        // Arrivals (+1) and departures (-1) at increasing times; the run ends with cells queued.
        let steps: [(Time, i32); 9] = [
            (5, 1),
            (7, 1),
            (7, 1),
            (20, -1),
            (31, 1),
            (40, -1),
            (41, -1),
            (u32::MAX as Time * 3, 1),
            (1_000_000_000_000, -1),
        ];
        let end: Time = 1 << 50;
        let (mut c, mut s) = (ClassState::default(), PortStats::default());
        let (mut y, mut last, mut want) = (0u128, 0, 0u128);
        for (t, d) in steps {
            want += y * (t - last) as u128;
            last = t;
            if d > 0 {
                c.arrive(t);
                s.arrive(t);
                y += 1;
            } else {
                c.depart(t);
                s.depart(t);
                y -= 1;
            }
        }
        want += y * (end - last) as u128;
        s.close(end, c.y);
        assert_eq!((c.area(end), s.queue_area, u128::from(c.y)), (want, want, y));
        assert_eq!(y, 1);
    }
}
