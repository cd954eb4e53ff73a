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

/// Per connection: the frame state machine.
#[derive(Debug, Clone, Copy, Default)]
struct VcState {
    /// A frame is in progress: the next cell is not a first cell.
    in_frame: bool,
    discard: Discard,
    /// This frame already lost a cell here (counts it once in `frames_dropped`).
    damaged: bool,
}

/// The frame state of every connection VC at one port.
#[derive(Debug)]
pub(super) struct FrameDiscard {
    vcs: Vec<VcState>,
}

impl FrameDiscard {
    pub fn new(n_vcs: usize) -> Self {
        FrameDiscard { vcs: vec![VcState::default(); n_vcs] }
    }

    pub fn n_vcs(&self) -> usize {
        self.vcs.len()
    }

    /// A data cell of `vc` arrives (`eof`: the last of its frame). Returns whether it is its
    /// frame's first cell; a new frame starts with a clean state.
    #[inline(always)]
    pub fn begin(&mut self, vc: usize, eof: bool) -> bool {
        let v = &mut self.vcs[vc];
        let first = !v.in_frame;
        v.in_frame = !eof;
        if first {
            v.discard = Discard::None;
            v.damaged = false;
        }
        first
    }

    /// Why the data cell just begun on `vc` is dropped, if it is. `full`: the buffer it would
    /// enter is full; `own`: it enters a buffer of its own (never refused at its first cell);
    /// `refuse`: asked at a new frame's first cell whether the frame is refused whole; `ppd`: a
    /// frame that overflows loses the rest of its cells but its EOF.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn verdict(
        &mut self,
        vc: usize,
        first: bool,
        eof: bool,
        full: bool,
        own: bool,
        ppd: impl FnOnce() -> bool,
        refuse: impl FnOnce() -> Option<DropReason>,
    ) -> Option<DropReason> {
        let v = &mut self.vcs[vc];
        match v.discard {
            // The frame was refused at its first cell: nothing of it enters.
            Discard::Frame => return Some(DropReason::PartialPacket),
            // PPD: the frame is already damaged; only its EOF cell may still pass.
            Discard::Partial if !eof || full => return Some(DropReason::PartialPacket),
            Discard::Partial => {}
            // A new frame: an injected fault or the policy may refuse it whole.
            Discard::None if first && !own => {
                if let Some(reason) = refuse() {
                    if !eof {
                        v.discard = Discard::Frame;
                    }
                    return Some(reason);
                }
            }
            Discard::None => {}
        }
        if full {
            if !eof && ppd() {
                v.discard = Discard::Partial;
            }
            return Some(DropReason::Overflow);
        }
        None
    }

    /// A cell of `vc` was dropped: is this its frame's first loss here?
    #[inline]
    pub fn damage(&mut self, vc: usize) -> bool {
        let v = &mut self.vcs[vc];
        !std::mem::replace(&mut v.damaged, true)
    }
}
