//! Per-VC queues served round robin among the VCs that have cells and may send (the credit/rate
//! study's FCVC switch: "round-robin among all the active VCs", a VC without credit skipped).

use std::collections::VecDeque;

use crate::cell::Cell;

#[derive(Debug, Clone, Default)]
pub struct RoundRobin {
    queues: Vec<VecDeque<Cell>>,
    /// Backlogged VCs in service order; the next to serve is at the front.
    ring: VecDeque<u32>,
    len: usize,
}

impl RoundRobin {
    pub fn new(n_vcs: usize) -> Self {
        RoundRobin { queues: vec![VecDeque::new(); n_vcs], ring: VecDeque::new(), len: 0 }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn vc_len(&self, vc: usize) -> usize {
        self.queues[vc].len()
    }

    pub fn push(&mut self, cell: Cell) {
        let q = &mut self.queues[cell.vc as usize];
        if q.is_empty() {
            self.ring.push_back(cell.vc as u32);
        }
        q.push_back(cell);
        self.len += 1;
    }

    /// The next cell of the first backlogged VC (in ring order) for which `may_send` holds;
    /// that VC moves to the back of the ring. Skipped VCs keep their place.
    pub fn pop_if(&mut self, mut may_send: impl FnMut(usize) -> bool) -> Option<Cell> {
        let pos = self.ring.iter().position(|&vc| may_send(vc as usize))?;
        let vc = self.ring.remove(pos).expect("position is in the ring");
        let q = &mut self.queues[vc as usize];
        let cell = q.pop_front().expect("a VC in the ring has cells");
        if !q.is_empty() {
            self.ring.push_back(vc);
        }
        self.len -= 1;
        Some(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(vc: u16) -> Cell {
        Cell { frame: 0, vc, flags: 0 }
    }

    #[test]
    fn serves_backlogged_vcs_in_turn() {
        let mut rr = RoundRobin::new(3);
        for vc in [0, 0, 0, 1, 2, 2] {
            rr.push(cell(vc));
        }
        let order: Vec<u16> = std::iter::from_fn(|| rr.pop_if(|_| true)).map(|c| c.vc).collect();
        assert_eq!(order, vec![0, 1, 2, 0, 2, 0]);
    }

    #[test]
    fn vcs_without_credit_are_skipped_not_dropped() {
        let mut rr = RoundRobin::new(2);
        rr.push(cell(0));
        rr.push(cell(1));
        assert_eq!(rr.pop_if(|vc| vc == 1).map(|c| c.vc), Some(1));
        assert_eq!(rr.pop_if(|vc| vc == 1), None);
        assert_eq!(rr.len(), 1);
        assert_eq!(rr.pop_if(|_| true).map(|c| c.vc), Some(0));
    }
}
