//! Per-VC queues served round robin among the VCs that have cells and may send (the credit/rate
//! study's FCVC switch: "round-robin among all the active VCs", a VC without credit skipped).

use std::collections::VecDeque;

use crate::cell::Cell;
use crate::ring::Ring;

#[derive(Debug, Clone, Default)]
pub struct RoundRobin {
    queues: Vec<Ring<Cell>>,
    /// Backlogged VCs in service order; the next to serve is at the front.
    ring: VecDeque<u32>,
    len: usize,
}

impl RoundRobin {
    pub fn new(n_vcs: usize) -> Self {
        RoundRobin { queues: vec![Ring::new(); n_vcs], ring: VecDeque::new(), len: 0 }
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

    #[inline]
    pub fn push(&mut self, cell: Cell) {
        let q = &mut self.queues[cell.vc as usize];
        if q.is_empty() {
            self.ring.push_back(cell.vc as u32);
        }
        q.push_back(cell);
        self.len += 1;
    }

    /// `pop_if(|_| true)`: the next cell of the VC at the front of the ring, without a search.
    #[inline]
    pub fn pop_next(&mut self) -> Option<Cell> {
        let vc = self.ring.pop_front()?;
        let q = &mut self.queues[vc as usize];
        let cell = q.pop_front().expect("a VC in the ring has cells");
        if !q.is_empty() {
            self.ring.push_back(vc);
        }
        self.len -= 1;
        Some(cell)
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
    fn pop_next_is_pop_if_of_every_vc() {
        let (mut a, mut b) = (RoundRobin::new(3), RoundRobin::new(3));
        for vc in [0, 2, 2, 1, 0, 2, 1, 1] {
            a.push(cell(vc));
            b.push(cell(vc));
            if vc == 1 {
                assert_eq!(a.pop_next().map(|c| c.vc), b.pop_if(|_| true).map(|c| c.vc));
            }
        }
        let order = |r: &mut RoundRobin, next: bool| -> Vec<u16> {
            std::iter::from_fn(|| if next { r.pop_next() } else { r.pop_if(|_| true) })
                .map(|c| c.vc)
                .collect()
        };
        assert_eq!(order(&mut a, true), order(&mut b, false));
        assert_eq!((a.len(), a.pop_next().is_none()), (0, true));
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
