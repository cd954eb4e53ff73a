//! The cell queue of a switch output port, with its service discipline.
//!
//! - `Fifo`: one queue (UBR+, the GFR study's FIFO-based switch, the rate-guarantee study).
//! - `VirtualSpacing`: per-VC queues weighted by MCR (the GFR study's WFQ-based switch).
//! - `Priority`: guaranteed VCs served before best-effort ones (the credit/rate study's ATOM
//!   switch with double-priority buffering); the guaranteed class is FIFO, the best-effort class
//!   FIFO (PRCA's shared buffer) or round robin (FCVC's per-VC buffers).
//! - `RoundRobin`: per-VC queues served in turn, skipping VCs the caller says may not send
//!   (FCVC credit).

use std::collections::VecDeque;

use super::{RoundRobin, VirtualSpacing};
use crate::cell::Cell;
use crate::ring::Ring;

/// The best-effort class of a priority queue.
#[derive(Debug, Clone)]
pub enum BestEffort {
    Fifo(Ring<Cell>),
    RoundRobin(RoundRobin),
}

impl Default for BestEffort {
    fn default() -> Self {
        BestEffort::Fifo(Ring::new())
    }
}

impl BestEffort {
    #[inline]
    fn len(&self) -> usize {
        match self {
            BestEffort::Fifo(q) => q.len(),
            BestEffort::RoundRobin(r) => r.len(),
        }
    }

    #[inline]
    fn push(&mut self, cell: Cell) {
        match self {
            BestEffort::Fifo(q) => q.push_back(cell),
            BestEffort::RoundRobin(r) => r.push(cell),
        }
    }

    #[inline]
    fn pop(&mut self, may_send: impl FnMut(usize) -> bool) -> Option<Cell> {
        match self {
            BestEffort::Fifo(q) => q.pop_front(),
            BestEffort::RoundRobin(r) => r.pop_if(may_send),
        }
    }
}

/// An explicit tag (`repr(u8)`): otherwise the variant is packed into the FIFO's capacity word
/// and every `len`, `push` and `pop` decodes it with five instructions before its jump.
#[derive(Debug, Clone)]
#[repr(u8)]
pub enum Queue {
    Fifo(VecDeque<Cell>),
    VirtualSpacing(VirtualSpacing),
    Priority { high: Ring<Cell>, low: BestEffort, guaranteed: Vec<bool> },
    RoundRobin(RoundRobin),
}

impl Queue {
    pub fn fifo() -> Self {
        Queue::Fifo(VecDeque::new())
    }

    #[inline]
    pub fn len(&self) -> usize {
        match self {
            Queue::Fifo(q) => q.len(),
            Queue::VirtualSpacing(v) => v.len(),
            Queue::Priority { high, low, .. } => high.len() + low.len(),
            Queue::RoundRobin(r) => r.len(),
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Cells counted against the shared buffer: all of them, except the guaranteed class of a
    /// priority queue, which has its own buffer.
    #[inline]
    pub fn shared_len(&self) -> usize {
        match self {
            Queue::Priority { low, .. } => low.len(),
            q => q.len(),
        }
    }

    /// Whether `vc` is served before best effort (priority queues only).
    #[inline]
    pub fn is_guaranteed(&self, vc: usize) -> bool {
        matches!(self, Queue::Priority { guaranteed, .. } if guaranteed[vc])
    }

    /// Whether a VC refused by `may_send` can be passed over for another: only per-VC queues
    /// can (a FIFO would block behind it), as FCVC's credit gating needs.
    pub fn skips_blocked_vcs(&self) -> bool {
        matches!(self, Queue::RoundRobin(_) | Queue::Priority { low: BestEffort::RoundRobin(_), .. })
    }

    #[inline]
    pub fn push(&mut self, cell: Cell) {
        match self {
            Queue::Fifo(q) => q.push_back(cell),
            Queue::VirtualSpacing(v) => v.push(cell),
            Queue::Priority { high, low, guaranteed } => {
                if guaranteed[cell.vc as usize] {
                    high.push_back(cell)
                } else {
                    low.push(cell)
                }
            }
            Queue::RoundRobin(r) => r.push(cell),
        }
    }

    /// The next cell to send; `may_send(vc)` gates per-VC queues (credit), FIFO classes and the
    /// guaranteed class ignore it.
    #[inline]
    pub fn pop(&mut self, may_send: impl FnMut(usize) -> bool) -> Option<Cell> {
        match self {
            Queue::Fifo(q) => q.pop_front(),
            Queue::VirtualSpacing(v) => v.pop(),
            Queue::Priority { high, low, .. } => high.pop_front().or_else(|| low.pop(may_send)),
            Queue::RoundRobin(r) => r.pop_if(may_send),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(vc: u16) -> Cell {
        Cell { frame: 0, vc, flags: 0 }
    }

    #[test]
    fn priority_serves_guaranteed_first_and_counts_only_best_effort_as_shared() {
        let mut q =
            Queue::Priority { high: Ring::new(), low: BestEffort::default(), guaranteed: vec![true, false] };
        q.push(cell(1));
        q.push(cell(0));
        q.push(cell(1));
        assert_eq!((q.len(), q.shared_len()), (3, 2));
        let order: Vec<u16> = std::iter::from_fn(|| q.pop(|_| true)).map(|c| c.vc).collect();
        assert_eq!(order, vec![0, 1, 1]);
        assert!(q.is_guaranteed(0) && !q.is_guaranteed(1));
        assert!(!q.skips_blocked_vcs());
    }

    #[test]
    fn priority_round_robin_gates_best_effort_vcs_but_never_the_guaranteed_class() {
        let low = BestEffort::RoundRobin(RoundRobin::new(3));
        let mut q = Queue::Priority { high: Ring::new(), low, guaranteed: vec![true, false, false] };
        for vc in [1, 1, 2, 0, 2] {
            q.push(cell(vc));
        }
        assert!(q.skips_blocked_vcs());
        // VC 1 has no credit: the guaranteed VC 0 goes first anyway, then VC 2 only.
        let blocked = |vc: usize| vc != 1;
        let order: Vec<u16> = std::iter::from_fn(|| q.pop(blocked)).map(|c| c.vc).collect();
        assert_eq!(order, vec![0, 2, 2]);
        assert_eq!(q.len(), 2, "VC 1's cells wait for credit");
        let order: Vec<u16> = std::iter::from_fn(|| q.pop(|_| true)).map(|c| c.vc).collect();
        assert_eq!(order, vec![1, 1]);
    }

    #[test]
    fn fifo_keeps_arrival_order() {
        let mut q = Queue::fifo();
        for vc in [2, 0, 1] {
            q.push(cell(vc));
        }
        let order: Vec<u16> = std::iter::from_fn(|| q.pop(|_| false)).map(|c| c.vc).collect();
        assert_eq!(order, vec![2, 0, 1]);
    }
}
