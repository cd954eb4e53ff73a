//! ATM cells as the simulator carries them, and the FIFO of cells in flight on a link.
//!
//! A cell does not carry its 48 payload octets: it names the AAL5 frame it belongs to (an index
//! into the [`FrameSlab`](crate::frame::FrameSlab)) and the header bits the mechanisms read.

use crate::ring::{ChunkRelayer, Ring};
use crate::time::{SlotClock, Time, NEVER};

/// Index of a virtual connection: globally, scenario connections then background sources map to
/// dense indices at build time; within a port or host, the VCs crossing it are numbered again
/// (their labels, `net/label.rs`), so that every per-VC table there is a plain vector of the
/// VCs it carries. 16 bits, as a VCI: a cell plus its arrival time
/// then fits in 16 octets, which keeps the FIFOs of long links small.
pub type VcId = u16;

/// Most VCs one scenario may have.
pub const MAX_VCS: usize = VcId::MAX as usize;

/// PTI bit 0 for user data cells: AAL5 end of frame (ITU-T I.363.5, "AUU" bit).
pub const F_EOF: u8 = 1 << 0;
/// Cell Loss Priority: 1 marks a cell the network may drop first (ITU-T I.361).
pub const F_CLP: u8 = 1 << 1;
/// Explicit Forward Congestion Indication on a user data cell (PTI bit 1, ITU-T I.361): set by
/// a congested switch, read by the destination (PRCA).
pub const F_EFCI: u8 = 1 << 2;
/// A resource-management cell (PTI = 110, ATM Forum TM 4.0 clause 5.10): it carries no frame;
/// `Cell::frame` holds its payload (see [`rm`]).
pub const F_RM: u8 = 1 << 3;
/// Direction of an RM cell: set on its way back from the destination (TM 4.0 "DIR" bit).
pub const F_BACKWARD: u8 = 1 << 4;
/// A credit cell of FCVC (hop by hop, never leaves the link it was sent on): `Cell::frame`
/// holds the low 32 bits of the sender's forwarded-cell count C.
pub const F_CREDIT: u8 = 1 << 5;
/// Cells that are not part of an AAL5 frame (no frame slot to release, no frame state).
pub const F_CONTROL: u8 = F_RM | F_CREDIT;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cell {
    /// Frame this cell carries a piece of.
    pub frame: u32,
    /// The VC's label at the component holding the cell (channels translate it per hop).
    pub vc: VcId,
    pub flags: u8,
}

impl Cell {
    #[inline]
    pub fn is_eof(&self) -> bool {
        self.flags & F_EOF != 0
    }
    #[inline]
    pub fn clp(&self) -> bool {
        self.flags & F_CLP != 0
    }
    /// An RM or credit cell (see [`F_CONTROL`]).
    #[inline]
    pub fn is_control(&self) -> bool {
        self.flags & F_CONTROL != 0
    }
}

/// What an RM cell carries in `Cell::frame`: PRCA's congestion indication (CI, set by the
/// destination) and the adaptive shaper's ternary feedback (0 = IR, 1 = KR, 2 = DR).
pub mod rm {
    /// CI bit: the destination saw EFCI on the VC's last data cell.
    pub const CI: u32 = 1 << 0;
    /// Ternary feedback in bits 1-2.
    pub const FEEDBACK_SHIFT: u32 = 1;
    pub const FEEDBACK_MASK: u32 = 0b11 << FEEDBACK_SHIFT;
    /// The source's current cell rate when it sent the cell (CCR, TM 4.0 clause 5.10.3.1), in
    /// cells per second, in bits 8-31 (up to 16.7 M cells/s, 7.1 Gb/s); 0 when not set.
    pub const CCR_SHIFT: u32 = 8;
    pub const CCR_MAX: u32 = (1 << 24) - 1;

    /// The payload of a forward RM cell declaring `ccr` cells/s.
    pub fn with_ccr(ccr: f64) -> u32 {
        (ccr.round().clamp(0.0, f64::from(CCR_MAX)) as u32) << CCR_SHIFT
    }

    /// The CCR an RM cell's payload declares.
    pub fn ccr(payload: u32) -> u32 {
        payload >> CCR_SHIFT
    }
}

/// Cells on their way to one input of a component, in arrival order.
///
/// One sender feeds each FIFO and the sender emits cells in time order, so arrivals are sorted
/// without any search. `owner` is the scheduler slot of the component that consumes it (woken
/// when a cell arrives; `Sim::new` turns component indices into slots).
#[derive(Debug)]
pub struct CellFifo {
    pub owner: u32,
    /// This input's bit in its consumer's [`InputMarks`](crate::net::InputMarks) word
    /// (`NO_MARK`: the consumer has one input, or reads them all).
    pub mark: u32,
    /// 0, or its consumer is a host keyed at its next EOF or control cell (`net/host.rs`,
    /// `Host::skips`): a data cell in the middle of its frame gives it work only at this time
    /// (its run's end less one: every cell before the end is taken in the run) or at its own
    /// arrival if later (see [`crate::net::work_at`]).
    pub middle_floor: Time,
    /// How much later than a cell's arrival here its consumer, as woken, can get work from it:
    /// 0, or the input of a port its receiver runs (`Sim`'s `pull`) wakes that receiver, which
    /// gets the cell no earlier than the port's output latency after it arrives here.
    pub wake_delay: Time,
    /// The consumer's slot grid if it takes a cell into account only at the first boundary at
    /// or after its arrival (a slotted port, `net/merge.rs`): its key may then lie past a
    /// waiting cell's arrival. Only the debug checks of the keys read it.
    #[cfg(debug_assertions)]
    pub grid: Option<crate::time::SlotGrid>,
    q: Ring<(Time, Cell)>,
}

impl CellFifo {
    pub fn new(owner: u32) -> Self {
        CellFifo {
            owner,
            mark: crate::net::NO_MARK,
            middle_floor: 0,
            wake_delay: 0,
            #[cfg(debug_assertions)]
            grid: None,
            q: Ring::new(),
        }
    }
    /// When the consumer takes into account work that its input gives at `t` (see `grid`; a
    /// release build, which has no checks of keys, returns `t`).
    #[inline]
    pub fn taken_at(&self, t: Time) -> Time {
        #[cfg(debug_assertions)]
        if let Some(g) = self.grid {
            return g.slot_at_or_after(t);
        }
        t
    }
    #[inline]
    pub fn push(&mut self, at: Time, cell: Cell) {
        debug_assert!(self.q.back().is_none_or(|&(t, _)| t <= at), "cells must arrive in order");
        self.q.push_back((at, cell));
    }
    /// Push the `n >= 1` cells of a frame leaving back to back in the slots of `clock` from
    /// its next one, arriving `latency` after each slot starts; the last carries `F_EOF`. The
    /// clock ends after the last slot. The same as `n` calls of [`CellFifo::push`], with one
    /// capacity check (a host's adapter sends whole frames, `net/adapter.rs`), and the slots
    /// walked by [`SlotClock::walk`] (the latency added once, a step without a second compare).
    #[inline(always)]
    pub fn push_frame(&mut self, n: u32, clock: &mut SlotClock, latency: Time, cell: Cell) {
        debug_assert!(n >= 1);
        debug_assert!(
            self.q.back().is_none_or(|&(t, _)| t <= clock.next() + latency),
            "cells must arrive in order"
        );
        let mut w = clock.walk(latency);
        self.q.push_back_n(n as usize, || (w.next_at(), cell));
        clock.end_walk(&w, latency);
        if let Some((_, last)) = self.q.back_mut() {
            last.flags |= F_EOF;
        }
    }
    /// Take the cells at the head equal to `cell` (the same frame, VC and flags) that arrive
    /// before `stop`, and return how many: the rest of a frame's cells arriving back to back
    /// after one of them (`net/host.rs`).
    ///
    /// The VC is not compared: one channel feeds a FIFO and gives every cell of a VC the same
    /// label there, and a frame's slot stays pinned while any of its cells lives, so two live
    /// cells here with the same frame index are of one frame, on one VC. Two compares a cell
    /// instead of three, in the host's per-cell arrival loop.
    #[inline]
    pub fn pop_run(&mut self, stop: Time, cell: Cell) -> u32 {
        self.q.pop_while(|&(t, c)| {
            let same = t < stop && c.frame == cell.frame && c.flags == cell.flags;
            debug_assert!(!same || c.vc == cell.vc, "a frame's cells share their label in a FIFO");
            same
        }) as u32
    }
    /// The `k`-th cell from the head (0: the head), with its arrival time, if there are more.
    #[inline]
    pub fn get(&self, k: u32) -> Option<(Time, Cell)> {
        self.q.get(k as usize).copied()
    }
    /// Drop the `k <= len()` cells at the head (cells a caller has read where they are).
    #[inline]
    pub fn skip(&mut self, k: u32) {
        self.q.skip_front(k as usize);
    }
    /// The cell at the head, with its arrival time.
    #[inline]
    pub fn front(&self) -> Option<(Time, Cell)> {
        self.q.front().copied()
    }
    /// Move at most `limit` cells from the head of this FIFO to `out`, each mapped by `f` (from
    /// its arrival here to its arrival there) a stretch at a time, until `f` keeps one here, this
    /// FIFO is empty or `out` has no room left without growing; returns how many moved (see
    /// [`Ring::relay_chunks`]; `Port::train`, `Port::busy_pass`).
    #[inline(always)]
    pub fn relay_chunks(
        &mut self,
        out: &mut CellFifo,
        limit: usize,
        f: &mut impl ChunkRelayer<(Time, Cell), (Time, Cell)>,
    ) -> u32 {
        let before = out.q.back().map_or(0, |&(t, _)| t);
        let n = self.q.relay_chunks(&mut out.q, limit, f);
        debug_assert!(out.last_in_order(before, n), "cells must arrive in order");
        n as u32
    }
    /// Whether the last `n` cells here arrive in order, after `before` (the relays' check).
    fn last_in_order(&self, before: Time, n: usize) -> bool {
        self.q.iter().skip(self.q.len() - n).try_fold(before, |t, &(at, _)| (at >= t).then_some(at)).is_some()
    }
    /// The arrival time of the `k`-th cell from the head (0: the head), if there are more.
    #[inline]
    pub fn time_at(&self, k: u32) -> Option<Time> {
        self.q.get(k as usize).map(|&(t, _)| t)
    }
    /// The cell at the tail, with its arrival time.
    #[inline]
    pub fn back(&self) -> Option<(Time, Cell)> {
        self.q.back().copied()
    }
    /// The arrival time of the `n`-th cell from the tail (1: the last; `NEVER` if there are
    /// fewer).
    #[inline]
    pub fn time_back(&self, n: u32) -> Time {
        self.q.nth_back(n as usize).map_or(NEVER, |&(t, _)| t)
    }
    #[inline]
    pub fn head_time(&self) -> Option<Time> {
        self.q.front().map(|&(t, _)| t)
    }
    #[inline]
    pub fn pop(&mut self) -> Option<(Time, Cell)> {
        self.q.pop_front()
    }
    pub fn len(&self) -> usize {
        self.q.len()
    }
    /// Cells the FIFO has room for without growing: its memory, which never shrinks, so the
    /// most it ever held rounded up (what tests of memory bounds look at).
    pub fn capacity(&self) -> usize {
        self.q.capacity()
    }
    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = &(Time, Cell)> {
        self.q.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pop_run_takes_a_frames_cells_up_to_its_eof_a_flag_change_another_frame_or_stop() {
        let cell = |frame, flags| Cell { frame, vc: 3, flags };
        let mut fifo = CellFifo::new(0);
        let cells = [
            (10, cell(7, 0)),
            (20, cell(7, 0)),
            (30, cell(7, 0)),
            (40, cell(7, F_EOF)),
            (50, cell(8, 0)),
            (60, cell(8, F_EFCI)),
            (70, cell(8, F_EFCI)),
            (80, cell(9, F_EFCI)),
            (90, cell(9, F_EFCI)),
            (100, cell(9, F_EFCI)),
        ];
        for (t, c) in cells {
            fifo.push(t, c);
        }
        // The first cell of frame 7 was taken: its two followers go, not its EOF cell.
        fifo.pop();
        assert_eq!(fifo.pop_run(NEVER, cell(7, 0)), 2);
        assert_eq!(fifo.front(), Some((40, cell(7, F_EOF))));
        fifo.pop();
        // Frame 8: the run ends where EFCI starts.
        fifo.pop();
        assert_eq!(fifo.pop_run(NEVER, cell(8, 0)), 0);
        fifo.pop();
        // Frame 8 with EFCI: one more, then frame 9 (same flags) is not part of it.
        assert_eq!(fifo.pop_run(NEVER, cell(8, F_EFCI)), 1);
        assert_eq!(fifo.front(), Some((80, cell(9, F_EFCI))));
        fifo.pop();
        // Only the cells arriving before `stop`.
        assert_eq!(fifo.pop_run(100, cell(9, F_EFCI)), 1);
        assert_eq!(fifo.len(), 1);
    }
}
