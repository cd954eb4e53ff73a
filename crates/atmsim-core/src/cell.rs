//! ATM cells as the simulator carries them, and the FIFO of cells in flight on a link.
//!
//! A cell does not carry its 48 payload octets: it names the AAL5 frame it belongs to (an index
//! into the [`FrameSlab`](crate::frame::FrameSlab)) and the header bits the mechanisms read.

use std::collections::VecDeque;

use crate::time::Time;

/// Index of a virtual connection. Scenario connections map to dense indices at build time so
/// that every per-VC table is a plain vector. 16 bits, as a VCI: a cell plus its arrival time
/// then fits in 16 octets, which keeps the FIFOs of long links small.
pub type VcId = u16;

/// Most VCs one scenario may have.
pub const MAX_VCS: usize = VcId::MAX as usize;

/// PTI bit 0 for user data cells: AAL5 end of frame (ITU-T I.363.5, "AUU" bit).
pub const F_EOF: u8 = 1 << 0;
/// Cell Loss Priority: 1 marks a cell the network may drop first (ITU-T I.361).
pub const F_CLP: u8 = 1 << 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// Frame this cell carries a piece of.
    pub frame: u32,
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
}

/// Cells on their way to one input of a component, in arrival order.
///
/// One sender feeds each FIFO and the sender emits cells in time order, so arrivals are sorted
/// without any search. `owner` is the component that consumes it (woken when a cell arrives).
#[derive(Debug)]
pub struct CellFifo {
    pub owner: u32,
    q: VecDeque<(Time, Cell)>,
}

impl CellFifo {
    pub fn new(owner: u32) -> Self {
        CellFifo { owner, q: VecDeque::new() }
    }
    #[inline]
    pub fn push(&mut self, at: Time, cell: Cell) {
        debug_assert!(self.q.back().is_none_or(|&(t, _)| t <= at), "cells must arrive in order");
        self.q.push_back((at, cell));
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
    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = &(Time, Cell)> {
        self.q.iter()
    }
}
