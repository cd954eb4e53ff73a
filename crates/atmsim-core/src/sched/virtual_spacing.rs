//! Virtual Spacing (Roberts; as used by the GFR study's WFQ-based switch): one logical queue per
//! VC, each cell stamped on arrival with VS_i <- max(SpacingTime, VS_i) + 1/r_i, cells served in
//! increasing stamp order, SpacingTime = stamp of the last served cell. With fixed-size cells it
//! is SCFQ. A heap over the backlogged VCs' head stamps makes each operation O(log N).
//!
//! Stamps are in "virtual picoseconds": 1/r_i is 1e12 / r_i rounded. A VC with r_i = 0 (GFR
//! MCR = 0) is given the weight `zero_rate` (default 1 cell/s): it is served in stamp order like
//! the others, so it gets only what the weighted VCs leave.

use std::cmp::Reverse;
use std::collections::binary_heap::PeekMut;
use std::collections::{BinaryHeap, VecDeque};

use crate::cell::Cell;

#[derive(Debug, Clone)]
pub struct VirtualSpacing {
    /// Per VC: the increment 1/r_i and the last stamp VS_i.
    inc: Vec<u64>,
    vs: Vec<u64>,
    queues: Vec<VecDeque<(u64, Cell)>>,
    heads: Heads,
    spacing_time: u64,
    len: usize,
}

/// Weight given to a VC whose rate is 0, in cells per second.
pub const ZERO_RATE: f64 = 1.0;

/// The most VCs whose heads are scanned rather than kept in a heap: a scan costs about two
/// compares per VC, a heap's sift about ten instructions per level, with its bookkeeping.
pub const SCAN_MAX: usize = 16;

/// Where the backlogged VCs' head stamps are kept.
#[derive(Debug, Clone)]
enum Heads {
    /// Per VC: its head cell's stamp, `EMPTY` when it has none.
    Scan(Vec<u64>),
    /// `head(stamp, vc)` of every backlogged VC.
    Heap(BinaryHeap<Reverse<u128>>),
}

/// `Heads::Scan`'s mark of a VC without cells (no stamp reaches it: stamps are sums of
/// increments of at most 1e12 virtual ps per cell).
const EMPTY: u64 = u64::MAX;

/// A backlogged VC's heap entry: ordered by stamp, then VC (ties between VCs go to the lower one).
#[inline(always)]
fn head(stamp: u64, vc: usize) -> Reverse<u128> {
    Reverse((u128::from(stamp) << 32) | vc as u128)
}

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
            heads: if n <= SCAN_MAX { Heads::Scan(vec![EMPTY; n]) } else { Heads::Heap(BinaryHeap::new()) },
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

    #[inline]
    pub fn push(&mut self, cell: Cell) {
        let i = cell.vc as usize;
        let stamp = self.vs[i].max(self.spacing_time) + self.inc[i];
        self.vs[i] = stamp;
        if self.queues[i].is_empty() {
            match &mut self.heads {
                Heads::Scan(h) => h[i] = stamp,
                Heads::Heap(h) => h.push(head(stamp, i)),
            }
        }
        self.queues[i].push_back((stamp, cell));
        self.len += 1;
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Cell> {
        if self.len == 0 {
            return None;
        }
        let (stamp, cell) = match &mut self.heads {
            Heads::Scan(h) => {
                // The first least stamp: ties go to the lower VC, as in the heap's order.
                let (mut i, mut least) = (0, EMPTY);
                for (j, &s) in h.iter().enumerate() {
                    if s < least {
                        (i, least) = (j, s);
                    }
                }
                let q = &mut self.queues[i];
                let served = q.pop_front().expect("a backlogged VC has a head cell");
                h[i] = q.front().map_or(EMPTY, |&(next, _)| next);
                served
            }
            Heads::Heap(h) => {
                let mut top = h.peek_mut().expect("cells queued, so a VC is backlogged");
                let i = top.0 as u32 as usize;
                let q = &mut self.queues[i];
                let served = q.pop_front().expect("a backlogged VC has a head cell");
                match q.front() {
                    Some(&(next, _)) => *top = head(next, i),
                    None => {
                        PeekMut::pop(top);
                    }
                }
                served
            }
        };
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

    /// The definition, served by brute force: every queued cell with its stamp, the least
    /// (stamp, VC) first.
    struct Naive {
        inc: Vec<u64>,
        vs: Vec<u64>,
        cells: Vec<(u64, u16, u32)>,
        spacing_time: u64,
    }

    impl Naive {
        fn push(&mut self, vc: u16, frame: u32) {
            let i = vc as usize;
            self.vs[i] = self.vs[i].max(self.spacing_time) + self.inc[i];
            self.cells.push((self.vs[i], vc, frame));
        }

        fn pop(&mut self) -> Option<(u16, u32)> {
            let k = (0..self.cells.len()).min_by_key(|&k| (self.cells[k].0, self.cells[k].1))?;
            let (stamp, vc, frame) = self.cells.remove(k);
            self.spacing_time = stamp;
            Some((vc, frame))
        }
    }

    #[test]
    fn scan_and_heap_serve_in_the_definitions_order() {
        // Equal rates among some VCs make equal stamps, so the tie rule is exercised too.
        for n in [3, SCAN_MAX, SCAN_MAX + 1, 40] {
            let rates: Vec<f64> = (0..n).map(|i| [20_000.0, 50_000.0, 20_000.0, 0.0][i % 4]).collect();
            let mut vs = VirtualSpacing::new(&rates);
            assert_eq!(matches!(vs.heads, Heads::Scan(_)), n <= SCAN_MAX);
            let mut naive = Naive { inc: vs.inc.clone(), vs: vec![0; n], cells: Vec::new(), spacing_time: 0 };
            let mut rng = crate::rng::Rng::stream(7, "vs-test");
            for frame in 0..20_000u32 {
                if rng.uniform() < 0.55 {
                    let vc = (rng.uniform() * n as f64) as u16;
                    vs.push(Cell { frame, vc, flags: 0 });
                    naive.push(vc, frame);
                } else {
                    let got = vs.pop().map(|c| (c.vc, c.frame));
                    assert_eq!(got, naive.pop(), "n = {n}, step {frame}");
                }
                assert_eq!(vs.len(), naive.cells.len());
            }
        }
    }
}
