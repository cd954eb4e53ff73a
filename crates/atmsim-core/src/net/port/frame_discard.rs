//! The frame state machine every frame-aware policy shares (per connection VC).
//!
//! A frame refused at its first cell (by the policy or an injected fault) is discarded whole, EOF
//! included: EPD. A frame that loses a cell to a full buffer is, under PPD, discarded up to but
//! not including its EOF cell, which still delimits the frame for the reassembler (Romanow &
//! Floyd; UBR+ study section 2). Tail drop keeps no frame state.

use crate::accept::DropReason;

/// What happens to the rest of the frame now arriving on a VC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Discard {
    #[default]
    None,
    /// Refused at its first cell: drop every remaining cell.
    Frame,
    /// Lost a cell to overflow (PPD): drop the rest, but try to keep the EOF cell.
    Partial,
}

/// Per connection VC at one port: the frame state machine. It lives in the port's per-label
/// table (`PortVc`), beside the VC's class and next hop, so one lookup serves a cell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct FrameState {
    /// A frame is in progress: the next cell is not a first cell.
    in_frame: bool,
    discard: Discard,
    /// This frame already lost a cell here (counts it once in `frames_dropped`).
    damaged: bool,
}

impl FrameState {
    /// A data cell arrives (`eof`: the last of its frame). Returns whether it is its frame's
    /// first cell; a new frame starts with a clean state.
    #[inline(always)]
    pub fn begin(&mut self, eof: bool) -> bool {
        let first = !self.in_frame;
        self.in_frame = !eof;
        if first {
            self.discard = Discard::None;
            self.damaged = false;
        }
        first
    }

    /// A frame is in progress: the next cell is not a first cell.
    #[inline(always)]
    pub fn within(&self) -> bool {
        self.in_frame
    }

    /// Accepted data cells of whole frames passed in a row (a frame train, `train.rs`): the
    /// state their `begin` calls, one by one, would leave. `within`: the last of them was not
    /// an EOF; `begun`: one of them was a first cell, so the frame now in progress (or the
    /// last one ended) started clean.
    #[inline(always)]
    pub fn passed(&mut self, within: bool, begun: bool) {
        self.in_frame = within;
        if begun {
            self.discard = Discard::None;
            self.damaged = false;
        }
    }

    /// This frame already lost a cell here.
    #[inline(always)]
    pub fn damaged(&self) -> bool {
        self.damaged
    }

    /// Whether the frame in progress is still whole here: not refused, not cut by PPD. Its
    /// next cells then only need the buffer to have room (a port's fast path, `enqueue_plain`).
    #[inline(always)]
    pub fn passing(&self) -> bool {
        self.discard == Discard::None
    }

    /// Why the data cell just begun is dropped, if it is. `full`: the buffer it would enter is
    /// full; `own`: it enters a buffer of its own (never refused at its first cell); `refuse`:
    /// asked at a new frame's first cell whether the frame is refused whole; `ppd`: a frame
    /// that overflows loses the rest of its cells but its EOF.
    #[inline(always)]
    pub fn verdict(
        &mut self,
        first: bool,
        eof: bool,
        full: bool,
        own: bool,
        ppd: impl FnOnce() -> bool,
        refuse: impl FnOnce() -> Option<DropReason>,
    ) -> Option<DropReason> {
        match self.discard {
            // The frame was refused at its first cell: nothing of it enters.
            Discard::Frame => return Some(DropReason::PartialPacket),
            // PPD: the frame is already damaged; only its EOF cell may still pass.
            Discard::Partial if !eof || full => return Some(DropReason::PartialPacket),
            Discard::Partial => {}
            // A new frame: an injected fault or the policy may refuse it whole.
            Discard::None if first && !own => {
                if let Some(reason) = refuse() {
                    if !eof {
                        self.discard = Discard::Frame;
                    }
                    return Some(reason);
                }
            }
            Discard::None => {}
        }
        if full {
            if !eof && ppd() {
                self.discard = Discard::Partial;
            }
            return Some(DropReason::Overflow);
        }
        None
    }

    /// A cell was dropped: is this its frame's first loss here?
    #[inline]
    pub fn damage(&mut self) -> bool {
        !std::mem::replace(&mut self.damaged, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_train_leaves_the_state_its_cells_would_one_by_one() {
        // From every state a train starts in (between frames, or within a whole frame, damaged
        // or not), runs of accepted cells ending anywhere in a frame: `passed` against `begin`
        // per cell.
        let discards = [Discard::None, Discard::Frame, Discard::Partial];
        let mut starts = Vec::new();
        for (in_frame, discard, damaged) in (0..12).map(|i| (i % 2 == 1, discards[i / 4 % 3], i % 4 >= 2)) {
            if !in_frame || discard == Discard::None {
                starts.push(FrameState { in_frame, discard, damaged });
            }
        }
        for start in starts {
            for (len, bits) in (1..=8).flat_map(|len| (0u32..1 << len).map(move |bits| (len, bits))) {
                // Bit k of `bits`: cell k is an EOF.
                let eofs: Vec<bool> = (0..len).map(|k| bits >> k & 1 == 1).collect();
                let (mut one_by_one, mut train) = (start, start);
                let mut begun = false;
                for &eof in &eofs {
                    begun |= one_by_one.begin(eof);
                }
                train.passed(!eofs[eofs.len() - 1], begun);
                assert_eq!(train, one_by_one, "{start:?} {eofs:?}");
            }
        }
    }
}
