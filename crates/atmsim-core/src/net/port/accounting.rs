//! What a port counts: per accounting class its occupancy and policy state, and per port the
//! arrivals, departures and drops by reason, with the time integrals of both occupancies.
//!
//! The port's counters are one tally, [`PortStats`], whose fields are private to this module:
//! every path of the port (the per-cell `Port::enqueue` and `Port::dequeue`, the plain and
//! committed arrivals, the trains, the busy, interleaved, paired and slotted passes, the spaced
//! and priority batches, the merged frames) counts through its methods, each named for the event
//! it counts (`taken`, `sent`, `dropped`, `reached`, `passed` for a whole pass), and the report
//! reads it through its accessors. A new counter is added here, once: a field, the method of
//! its event (or a line in an existing one) and an accessor; the compiler then finds every
//! reader, and the paths that meet the event already call its method. Drops are counted by
//! reason where the admission decision is taken (`Port::drop_cell`, the interleaved pass's
//! `Taker::dropped`), around the policy's decision rather than inside it, as ns-3's queue
//! discs count theirs; the policies themselves count nothing.
//!
//! Per batch and per cell: `taken`, `sent`, `dropped`, `reached` and the time integrals are
//! filled by every path, the batch paths adding a pass's cells in one call. The others
//! (`rm_taken`, `rm_raised`, `efci_set`, `credit_taken`, `credit_sent`) are per-cell counters:
//! their events (an RM or credit cell, an EFCI mark, an FCVC credit) occur only in the
//! functions that take or send one cell (`Port::enqueue_control`, `arrival_hooks`,
//! `enqueue_plain` at a keyed port, `dequeue_hooked`, the priority port's departure). The
//! passes that take many cells in one call (trains, busy, interleaved, paired, slotted) never
//! meet them: the port's plan (`plan.rs`, `PortPlan::choose`) opens them only at count-only
//! ports, which have no flow-control hooks, and each pass leaves a control cell to the per-cell
//! path. A new per-cell counter needs the same: the plan must close every pass where its event
//! can occur (docs/engine.md, "How to add a per-cell mechanism safely").
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

use crate::accept::{DropReason, VcPolicy, DROP_REASONS};
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

/// The port's tally: what it counts of the cells it takes, sends and drops. Its counters are
/// written only through the methods below, each named for the event it counts, and read through
/// the accessors after them; so a counter is added here, once, and every path that meets its
/// event fills it by calling the event's method (see the module comment on batch paths).
#[derive(Debug, Clone, Default)]
pub struct PortStats {
    /// Data and RM cells (credit cells are counted apart: they never queue).
    cells_in: u64,
    cells_out: u64,
    /// RM cells that arrived (both directions; included in `cells_in`).
    rm_cells: u64,
    /// Backward RM cells whose feedback this switch made more pessimistic.
    rm_feedback_raised: u64,
    /// Of those, the ones set to DR by the fair-share rule (`net::fair_share`) where the buffer
    /// band alone would not have given DR.
    rm_fair_share_decreases: u64,
    /// Data cells queued with EFCI set here.
    efci_marked: u64,
    /// FCVC credit cells consumed here and sent from here.
    credit_cells_in: u64,
    credit_cells_out: u64,
    drops: [u64; DROP_REASONS],
    frames_dropped: u64,
    max_queue: u32,
    /// Integral of the queue length over time, in cell-picoseconds (set by `PortStats::close`).
    queue_area: u128,
    /// Departure times minus arrival times so far (wrapping; see the module comment).
    sojourn: u128,
}

impl PortStats {
    // Events every path meets, per cell or per batch.

    /// `n` data or RM cells taken in (before the policing and the policy's decision: a cell
    /// dropped then is taken and dropped).
    #[inline(always)]
    pub(super) fn taken(&mut self, n: u64) {
        self.cells_in += n;
    }

    /// `n` cells sent (put on the link, or committed to a slot).
    #[inline(always)]
    pub(super) fn sent(&mut self, n: u64) {
        self.cells_out += n;
    }

    /// A taken cell dropped for `reason`; `frame_damaged`: the drop damaged its frame (the
    /// frame's first dropped cell), which counts as a frame dropped.
    #[inline(always)]
    pub(super) fn dropped(&mut self, reason: DropReason, frame_damaged: bool) {
        self.drops[reason as usize] += 1;
        self.frames_dropped += u64::from(frame_damaged);
    }

    /// The buffer held `len` cells after an arrival (a batch: its largest occupancy).
    #[inline(always)]
    pub(super) fn reached(&mut self, len: u32) {
        self.max_queue = self.max_queue.max(len);
    }

    /// A batch of `n` cells taken and `sent` of them sent, the rest dropped (counted by
    /// [`PortStats::dropped`] as they were), the buffer at most `max_queue` long: what a pass
    /// that commits its cells (`busy.rs`, `train.rs`, `interleave.rs`) counts once at its end.
    #[inline(always)]
    pub(super) fn passed(&mut self, n: u64, sent: u64, max_queue: u32) {
        self.taken(n);
        self.sent(sent);
        self.reached(max_queue);
    }

    // Events only the per-cell paths meet (control cells and flow-control hooks, which every
    // batch path's plan excludes).

    /// An RM cell taken in (a cell taken, and an RM cell).
    #[inline]
    pub(super) fn rm_taken(&mut self) {
        self.taken(1);
        self.rm_cells += 1;
    }

    /// A backward RM cell's feedback made more pessimistic here; `fair_share`: by the fair-share
    /// rule where the buffer band alone would not have.
    #[inline]
    pub(super) fn rm_raised(&mut self, fair_share: bool) {
        self.rm_feedback_raised += 1;
        self.rm_fair_share_decreases += u64::from(fair_share);
    }

    /// A data cell queued with EFCI set here.
    #[inline(always)]
    pub(super) fn efci_set(&mut self) {
        self.efci_marked += 1;
    }

    /// An FCVC credit cell consumed here.
    #[inline]
    pub(super) fn credit_taken(&mut self) {
        self.credit_cells_in += 1;
    }

    /// An FCVC credit cell sent from here.
    #[inline]
    pub(super) fn credit_sent(&mut self) {
        self.credit_cells_out += 1;
    }

    // The time integral of the occupancy.

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

    // Readers.

    /// Data and RM cells taken in (credit cells are counted apart: they never queue).
    #[inline(always)]
    pub fn cells_in(&self) -> u64 {
        self.cells_in
    }

    /// Data and RM cells sent.
    #[inline(always)]
    pub fn cells_out(&self) -> u64 {
        self.cells_out
    }

    /// Cells dropped for `reason`.
    pub fn drops(&self, reason: DropReason) -> u64 {
        self.drops[reason as usize]
    }

    /// Cells dropped, by reason (indexed by `DropReason as usize`).
    pub fn drops_by_reason(&self) -> [u64; DROP_REASONS] {
        self.drops
    }

    pub fn cells_dropped(&self) -> u64 {
        self.drops.iter().sum()
    }

    /// Frames damaged by a drop here (counted at their first dropped cell).
    pub fn frames_dropped(&self) -> u64 {
        self.frames_dropped
    }

    /// The largest occupancy after an arrival.
    #[inline(always)]
    pub fn max_queue(&self) -> u32 {
        self.max_queue
    }

    /// Integral of the queue length over the run, in cell-picoseconds (set when the run ends).
    pub fn queue_area(&self) -> u128 {
        self.queue_area
    }

    /// RM cells taken in (both directions; included in `cells_in`).
    pub fn rm_cells(&self) -> u64 {
        self.rm_cells
    }

    /// Backward RM cells whose feedback this switch made more pessimistic.
    pub fn rm_feedback_raised(&self) -> u64 {
        self.rm_feedback_raised
    }

    /// Of those, the ones set to DR by the fair-share rule where the buffer band alone would not
    /// have given DR.
    pub fn rm_fair_share_decreases(&self) -> u64 {
        self.rm_fair_share_decreases
    }

    /// Data cells queued with EFCI set here.
    pub fn efci_marked(&self) -> u64 {
        self.efci_marked
    }

    /// FCVC credit cells consumed here.
    pub fn credit_cells_in(&self) -> u64 {
        self.credit_cells_in
    }

    /// FCVC credit cells sent from here.
    pub fn credit_cells_out(&self) -> u64 {
        self.credit_cells_out
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
        assert_eq!((c.area(end), s.queue_area(), u128::from(c.y)), (want, want, y));
        assert_eq!(y, 1);
    }
}
