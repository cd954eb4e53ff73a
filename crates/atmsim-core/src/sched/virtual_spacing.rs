//! Virtual Spacing (Roberts; as used by the GFR study's WFQ-based switch): one logical queue per
//! VC, each cell stamped on arrival with VS_i <- max(SpacingTime, VS_i) + 1/r_i, cells served in
//! increasing stamp order, SpacingTime = stamp of the last served cell. With fixed-size cells it
//! is SCFQ. A heap over the backlogged VCs' head stamps makes each operation O(log N).
//!
//! Stamps are in "virtual picoseconds": 1/r_i is 1e12 / r_i rounded. A VC with r_i = 0 (GFR
//! MCR = 0) is given the weight `zero_rate` (default 1 cell/s): it is served in stamp order like
//! the others, so it gets only what the weighted VCs leave.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::cell::Cell;

#[derive(Debug, Clone)]
pub struct VirtualSpacing {
    /// Per VC: the increment 1/r_i and the last stamp VS_i.
    inc: Vec<u64>,
    vs: Vec<u64>,
    queues: Vec<VecDeque<(u64, Cell)>>,
    /// (head stamp, vc) of every backlogged VC.
    heads: BinaryHeap<Reverse<(u64, u32)>>,
    spacing_time: u64,
    len: usize,
}

/// Weight given to a VC whose rate is 0, in cells per second.
pub const ZERO_RATE: f64 = 1.0;

impl VirtualSpacing {
    /// `rates[i]` is r_i in cells per second (the VC's MCR).
    pub fn new(rates: &[f64]) -> Self {
        let inc = rates
            .iter()
            .map(|&r| (1e12 / if r > 0.0 { r } else { ZERO_RATE }).round().max(1.0) as u64)
            .collect();
        let n = rates.len();
        VirtualSpacing {
            inc,
            vs: vec![0; n],
            queues: vec![VecDeque::new(); n],
            heads: BinaryHeap::new(),
            spacing_time: 0,
            len: 0,
        }
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
        let i = cell.vc as usize;
        let stamp = self.vs[i].max(self.spacing_time) + self.inc[i];
        self.vs[i] = stamp;
        if self.queues[i].is_empty() {
            self.heads.push(Reverse((stamp, i as u32)));
        }
        self.queues[i].push_back((stamp, cell));
        self.len += 1;
    }

    pub fn pop(&mut self) -> Option<Cell> {
        let Reverse((stamp, i)) = self.heads.pop()?;
        let q = &mut self.queues[i as usize];
        let (_, cell) = q.pop_front().expect("a backlogged VC has a head cell");
        if let Some(&(next, _)) = q.front() {
            self.heads.push(Reverse((next, i)));
        }
        self.spacing_time = stamp;
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
    fn backlogged_vcs_share_in_proportion_to_their_rates() {
        let rates = [20_000.0, 60_000.0, 180_000.0, 0.0];
        let mut vs = VirtualSpacing::new(&rates);
        let mut served = [0u64; 4];
        // Keep every VC backlogged: refill each VC after it is served.
        for vc in 0..4 {
            for _ in 0..4 {
                vs.push(cell(vc));
            }
        }
        let n = 260_000;
        for _ in 0..n {
            let c = vs.pop().unwrap();
            served[c.vc as usize] += 1;
            vs.push(c);
        }
        let total: f64 = rates.iter().sum();
        for (i, &r) in rates.iter().enumerate().take(3) {
            let want = n as f64 * r / total;
            assert!((served[i] as f64 - want).abs() <= 1.0 + 1e-9, "vc {i}: {} vs {want}", served[i]);
        }
        // The zero-rate VC gets its token weight only (1 cell/s against 260000).
        assert!(served[3] <= 2, "{}", served[3]);
    }

    #[test]
    fn a_lone_vc_is_served_at_once_whatever_its_rate() {
        let mut vs = VirtualSpacing::new(&[1.0, 1e6]);
        vs.push(cell(0));
        assert_eq!(vs.pop().map(|c| c.vc), Some(0));
        assert!(vs.is_empty());
    }

    #[test]
    fn an_idle_vc_does_not_bank_credit() {
        // VC 1 idles while VC 0 is served; when it returns its stamps start from SpacingTime,
        // so it does not get a burst of catch-up service.
        let mut vs = VirtualSpacing::new(&[1000.0, 1000.0]);
        for _ in 0..100 {
            vs.push(cell(0));
        }
        for _ in 0..50 {
            vs.pop();
        }
        for _ in 0..10 {
            vs.push(cell(1));
        }
        let order: Vec<u16> = (0..6).map(|_| vs.pop().unwrap().vc).collect();
        assert_eq!(order, vec![0, 1, 0, 1, 0, 1]);
    }
}
