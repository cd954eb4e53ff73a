//! The admission rule of a data cell into a port's shared buffer, the parts every path shares.
//!
//! The rule (`FrameState::verdict`): a frame refused at its first cell loses all its cells, a
//! frame cut by PPD all but its EOF; at a frame's first cell an injected fault or the policy may
//! refuse it whole (never for a cell entering a buffer of its own); a full buffer drops the cell
//! (and, under PPD, the rest of its frame but its EOF). A cell after the first of a frame still
//! whole, with room, is admitted without the rest of the rule: every path tests that first.
//!
//! The paths apply it as follows: `Port::enqueue_as` and `Port::enqueue_plain` in full (faults
//! and own buffers in `Port::verdict` only, since the plain path has neither); the passes of a
//! count-only port (`busy.rs`, `interleave.rs` and the slotted and paired passes through its
//! taker, `train.rs`) take only cells whose buffer has room and leave the rest to the per-cell
//! path, ask the policy at first cells where its facts allow (`accept::PolicyFacts`) and give
//! the verdict on the rest of a refused or cut frame; `spaced.rs` takes the admitted-at-once
//! case itself and every other cell through `Port::enqueue_as`. What the policy sees at a first
//! cell ([`policy_view`], [`count_only_view`]) and the verdict on the rest of a refused or cut
//! frame ([`rest_of_cut_frame`]) are written here once. The drop is counted by the caller,
//! around the decision (`PortStats::dropped`).

use super::accounting::ClassState;
use super::frame_discard::FrameState;
use crate::accept::{BufferState, DropReason, Policy};

/// The buffer as the policy sees it at a first cell arriving with `x` cells in the shared
/// buffer of `k`, of class `c`, `active` classes holding cells, tagged if `clp1`: the class's
/// occupancy Y_i and the count of active classes N_a, except at a count-only port
/// (`count_only`), which keeps neither ([`count_only_view`]).
#[inline(always)]
pub(super) fn policy_view(
    count_only: bool,
    classes: &[ClassState],
    c: usize,
    active: u32,
    x: u32,
    k: u32,
    clp1: bool,
) -> BufferState {
    if count_only {
        count_only_view(x, k, clp1)
    } else {
        BufferState { x, k, y: classes[c].y, active, clp1 }
    }
}

/// [`policy_view`] at a count-only port: its policy reads neither Y_i nor N_a, or it has one
/// class, whose occupancy is then `x` and which is active when the buffer holds a cell (a
/// committing port has no own buffers, so `x` is every cell).
#[inline(always)]
pub(super) fn count_only_view(x: u32, k: u32, clp1: bool) -> BufferState {
    BufferState { x, k, y: x, active: u32::from(x > 0), clp1 }
}

/// The verdict on a data cell after the first of a frame refused or cut here (`frame` begun,
/// not passing), with room in the buffer: dropped, unless it is the EOF of a frame PPD cut.
#[inline(always)]
pub(super) fn rest_of_cut_frame(frame: &mut FrameState, eof: bool, policy: &Policy) -> Option<DropReason> {
    frame.verdict(false, eof, false, false, || policy.discards_partial_packets(), || None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(s: BufferState) -> (u32, u32, u32, u32, bool) {
        (s.x, s.k, s.y, s.active, s.clp1)
    }

    #[test]
    fn a_count_only_port_shows_its_total_as_the_class_occupancy() {
        let mut classes = vec![ClassState::default(); 2];
        classes[1].y = 7;
        assert_eq!(fields(policy_view(false, &classes, 1, 3, 9, 10, true)), (9, 10, 7, 3, true));
        assert_eq!(fields(policy_view(true, &classes, 1, 3, 9, 10, true)), (9, 10, 9, 1, true));
        assert_eq!(
            fields(policy_view(true, &classes, 1, 3, 9, 10, false)),
            fields(count_only_view(9, 10, false))
        );
        assert_eq!(
            fields(count_only_view(0, 10, false)),
            (0, 10, 0, 0, false),
            "an empty buffer: no class active"
        );
    }

    #[test]
    fn the_rest_of_a_cut_frame_is_dropped_but_a_ppd_eof() {
        let policy = Policy::Ppd;
        // Cut by PPD: a full buffer at its second cell.
        let mut f = FrameState::default();
        assert!(f.begin(false));
        assert!(!f.begin(false));
        assert_eq!(f.verdict(false, false, true, false, || true, || None), Some(DropReason::Overflow));
        assert!(!f.passing());
        f.begin(false);
        assert_eq!(rest_of_cut_frame(&mut f, false, &policy), Some(DropReason::PartialPacket));
        f.begin(true);
        assert_eq!(rest_of_cut_frame(&mut f, true, &policy), None, "PPD keeps the EOF");
        // Refused at its first cell: nothing of it enters, its EOF neither.
        let mut f = FrameState::default();
        assert!(f.begin(false));
        let refused = f.verdict(true, false, false, false, || true, || Some(DropReason::EarlyPacket));
        assert_eq!(refused, Some(DropReason::EarlyPacket));
        f.begin(true);
        assert_eq!(rest_of_cut_frame(&mut f, true, &policy), Some(DropReason::PartialPacket));
    }
}
