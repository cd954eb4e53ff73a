//! Virtual Spacing (Roberts; as used by the GFR study's WFQ-based switch): one logical queue per
//! VC, each cell stamped on arrival with VS_i <- max(SpacingTime, VS_i) + 1/r_i, cells served in
//! increasing stamp order, SpacingTime = stamp of the last served cell. With fixed-size cells it
//! is SCFQ.
//!
//! Stamps are in "virtual picoseconds": 1/r_i is 1e12 / r_i rounded. A VC with r_i = 0 (GFR
//! MCR = 0) is given the weight `zero_rate` (default 1 cell/s): it is served in stamp order like
//! the others, so it gets only what the weighted VCs leave.
//!
//! Only the head cell of each VC carries a stamp here; the definition fixes the rest. SpacingTime
//! is the least head stamp when it is set, and only grows, so a backlogged VC's head (and last)
//! stamp is never below it: a cell joining a backlogged VC is stamped VS_i + 1/r_i, one increment
//! after the cell ahead of it, and the cell behind a served head has the head's stamp plus 1/r_i.
//! An idle VC's last stamp was SpacingTime when its last cell left, so a cell reaching an idle VC
//! is stamped SpacingTime + 1/r_i. Hence no VS_i is kept, nor a stamp per queued cell.
//!
//! The same argument bounds every head stamp to [SpacingTime, SpacingTime + max 1/r_i]. Up to
//! [`SCAN_MAX`] VCs, each head is kept as one word `(stamp - base) << VC_BITS | vc`: the next VC
//! to serve is the least word (ties between stamps go to the lower VC, in the low bits), and the
//! stamps stay small by moving `base` up now and then. Up to 8 VCs the least word is found by a
//! scan of a fixed-size array without a branch per VC; up to 16 a winner tree keeps it, four
//! compares a service. Beyond, a heap over the backlogged VCs' head stamps makes each operation
//! O(log N).

use std::cmp::Reverse;
use std::collections::binary_heap::PeekMut;
use std::collections::BinaryHeap;

use crate::cell::Cell;
use crate::ring::Ring;

#[derive(Debug, Clone)]
pub struct VirtualSpacing {
    /// Per VC: its cells in arrival order (which is their stamp order).
    queues: Vec<Ring<Cell>>,
    heads: Heads,
    len: usize,
}

/// `VirtualSpacing::heads_kind`: heads scanned (up to 4 or 8 VCs), in a winner tree (up to
/// 16), in a heap.
pub const HEADS_SCAN4: u8 = 0;
pub const HEADS_SCAN8: u8 = 1;
pub const HEADS_TREE16: u8 = 2;
pub const HEADS_HEAP: u8 = 3;
/// `VirtualSpacing::pop_backlogged_as` with the way unknown: matched at each pop.
pub const HEADS_ANY: u8 = 4;

/// Weight given to a VC whose rate is 0, in cells per second.
pub const ZERO_RATE: f64 = 1.0;

/// The most VCs whose heads are packed words (scanned, or in a winner tree) rather than kept in a
/// heap: a scan costs three instructions a slot and a tree six a level, where a heap's sift costs
/// about ten a level, with its bookkeeping.
pub const SCAN_MAX: usize = 1 << VC_BITS;

/// Low bits of a scanned head word that hold its VC.
const VC_BITS: u32 = 4;

/// A scanned slot without cells: above every head word (those stay below 2^63, see `REBASE`).
const EMPTY: u64 = u64::MAX;

/// The largest increment the scan takes (r_i down to about 1.4e-5 cells/s); a smaller rate sends
/// its port to the heap, whose stamps are full width.
const SCAN_INC_MAX: u64 = 1 << 56;

/// When SpacingTime - base reaches this, `base` moves up to SpacingTime. Head stamps are within
/// an increment of SpacingTime, so every head word stays below (2^58 + 2^56 + 2^56) << 4 < 2^63.
const REBASE: u64 = 1 << 58;

/// Where the backlogged VCs' head stamps are kept.
#[derive(Debug, Clone)]
enum Heads {
    /// `N` slots (N >= the VCs), scanned; boxed, so that a port's size does not grow by them.
    Scan4(Box<Scan<4>>),
    Scan8(Box<Scan<8>>),
    /// Beyond 8 VCs a scan's 3 instructions a slot lose to a tree's 6 a level.
    Tree16(Box<Tree>),
    Heap(Box<Heap>),
}

/// Head words `(stamp - base) << VC_BITS | vc`, relative to a base stamp that is not kept (only
/// the order of stamps matters).
#[derive(Debug, Clone)]
struct Scan<const N: usize> {
    /// Per VC slot: its head word, `EMPTY` when it has no cells.
    keys: [u64; N],
    /// Per VC slot: 1/r_i << VC_BITS.
    step: [u64; N],
    /// (SpacingTime - base) << VC_BITS.
    spacing_time: u64,
}

/// A winner tree over `N` = 16 slots of head words (as `Scan`'s): `t[N + j]` is slot j's
/// word, `t[k]` the least of `t[2k]` and `t[2k + 1]`, so `t[1]` is the least of all. A service
/// or a VC's first cell changes one slot and the four minima above it.
#[derive(Debug, Clone)]
struct Tree {
    /// `[unused, minima.., slots..]`.
    t: [u64; 2 * SCAN_MAX],
    step: [u64; SCAN_MAX],
    spacing_time: u64,
}

#[derive(Debug, Clone)]
struct Heap {
    /// `head(stamp, vc)` of every backlogged VC.
    heads: BinaryHeap<Reverse<u128>>,
    /// Per VC: 1/r_i.
    inc: Vec<u64>,
    /// Full width and never rebased: 2^96 virtual ps is 2^56 services even at the zero-rate
    /// weight, where 64 bits wrapped after about 1.8e7 (about 50 s of a saturated link).
    spacing_time: u128,
}

/// A backlogged VC's heap entry: ordered by stamp, then VC (ties between VCs go to the lower one).
#[inline(always)]
fn head(stamp: u128, vc: usize) -> Reverse<u128> {
    Reverse((stamp << 32) | vc as u128)
}

/// 1/r_i in virtual picoseconds.
fn increment(rate: f64) -> u64 {
    (1e12 / if rate > 0.0 { rate } else { ZERO_RATE }).round().max(1.0) as u64
}

/// Move the base up to SpacingTime: every head word (all at or above it) and SpacingTime itself
/// lose the same amount, so their order is kept.
fn rebase(words: &mut [u64], spacing_time: &mut u64) {
    let by = *spacing_time;
    for k in words {
        if *k != EMPTY {
            *k -= by;
        }
    }
    *spacing_time = 0;
}

impl<const N: usize> Scan<N> {
    fn new(inc: &[u64]) -> Box<Self> {
        let mut step = [0; N];
        for (s, &i) in step.iter_mut().zip(inc) {
            *s = i << VC_BITS;
        }
        Box::new(Scan { keys: [EMPTY; N], step, spacing_time: 0 })
    }

    /// VC `i` has its first cell.
    #[inline(always)]
    fn start(&mut self, i: usize) {
        let i = i & (N - 1);
        self.keys[i] = self.spacing_time + self.step[i] + i as u64;
    }

    /// Serve the VC with the least head word: its VC, and whether it keeps cells is asked of
    /// `still_backlogged`.
    #[inline(always)]
    fn serve(&mut self, still_backlogged: impl FnOnce(usize) -> bool) -> usize {
        // The least word, as a tree of minima: no branch per slot, and short dependency chains.
        let mut m = self.keys;
        let mut w = N;
        while w > 1 {
            w /= 2;
            for k in 0..w {
                m[k] = m[k].min(m[k + w]);
            }
        }
        let key = m[0];
        let i = (key & (N as u64 - 1)) as usize;
        let stamp = key & !(N as u64 - 1);
        self.keys[i] = if still_backlogged(i) { key + self.step[i] } else { EMPTY };
        self.spacing_time = stamp;
        if stamp >= REBASE << VC_BITS {
            self.rebase();
        }
        i
    }

    #[cold]
    fn rebase(&mut self) {
        rebase(&mut self.keys, &mut self.spacing_time);
    }
}

impl Tree {
    const N: usize = SCAN_MAX;

    fn new(inc: &[u64]) -> Box<Self> {
        let mut step = [0; SCAN_MAX];
        for (s, &i) in step.iter_mut().zip(inc) {
            *s = i << VC_BITS;
        }
        Box::new(Tree { t: [EMPTY; 2 * SCAN_MAX], step, spacing_time: 0 })
    }

    /// Slot `i` becomes `word`: its path to the root is recomputed.
    #[inline(always)]
    fn set(&mut self, i: usize, word: u64) {
        const MASK: usize = 2 * SCAN_MAX - 1;
        let t = &mut self.t;
        let mut k = (Self::N + i) & MASK;
        let mut v = word;
        t[k] = v;
        for _ in 0..VC_BITS {
            v = v.min(t[(k ^ 1) & MASK]);
            k >>= 1;
            t[k & MASK] = v;
        }
    }

    #[inline(always)]
    fn start(&mut self, i: usize) {
        let i = i & (Self::N - 1);
        self.set(i, self.spacing_time + self.step[i] + i as u64);
    }

    #[inline(always)]
    fn serve(&mut self, still_backlogged: impl FnOnce(usize) -> bool) -> usize {
        let key = self.t[1];
        let i = (key & (Self::N as u64 - 1)) as usize;
        let stamp = key & !(Self::N as u64 - 1);
        let next = if still_backlogged(i) { key + self.step[i] } else { EMPTY };
        self.set(i, next);
        self.spacing_time = stamp;
        if stamp >= REBASE << VC_BITS {
            self.rebase();
        }
        i
    }

    #[cold]
    fn rebase(&mut self) {
        rebase(&mut self.t, &mut self.spacing_time);
    }
}

impl VirtualSpacing {
    /// `rates[i]` is r_i in cells per second (the VC's MCR).
    pub fn new(rates: &[f64]) -> Self {
        let inc: Vec<u64> = rates.iter().map(|&r| increment(r)).collect();
        let n = rates.len();
        let scan = inc.iter().all(|&i| i <= SCAN_INC_MAX);
        VirtualSpacing {
            queues: vec![Ring::new(); n],
            heads: match n {
                _ if !scan => Heads::Heap(Box::new(Heap { heads: BinaryHeap::new(), inc, spacing_time: 0 })),
                0..=4 => Heads::Scan4(Scan::new(&inc)),
                5..=8 => Heads::Scan8(Scan::new(&inc)),
                9..=SCAN_MAX => Heads::Tree16(Tree::new(&inc)),
                _ => Heads::Heap(Box::new(Heap { heads: BinaryHeap::new(), inc, spacing_time: 0 })),
            },
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn push(&mut self, cell: Cell) {
        let i = cell.vc as usize;
        let q = &mut self.queues[i];
        if q.is_empty() {
            match &mut self.heads {
                Heads::Scan4(s) => s.start(i),
                Heads::Scan8(s) => s.start(i),
                Heads::Tree16(s) => s.start(i),
                Heads::Heap(h) => h.heads.push(head(h.spacing_time + u128::from(h.inc[i]), i)),
            }
        }
        q.push_back(cell);
        self.len += 1;
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<Cell> {
        if self.len == 0 {
            return None;
        }
        Some(self.pop_backlogged())
    }

    /// Which way the heads are kept (`HEADS_SCAN4` .. `HEADS_HEAP`): a caller that pops many
    /// cells in a row tells it once and pops with [`VirtualSpacing::pop_backlogged_as`].
    pub fn heads_kind(&self) -> u8 {
        match self.heads {
            Heads::Scan4(_) => HEADS_SCAN4,
            Heads::Scan8(_) => HEADS_SCAN8,
            Heads::Tree16(_) => HEADS_TREE16,
            Heads::Heap(_) => HEADS_HEAP,
        }
    }

    /// `pop` where a cell is known to be queued (`len() > 0`).
    #[inline(always)]
    pub fn pop_backlogged(&mut self) -> Cell {
        self.pop_backlogged_as::<HEADS_ANY>()
    }

    /// `pop_backlogged` where the heads are known to be kept as `K` (`heads_kind`, or
    /// `HEADS_ANY`): the match on the way they are kept is decided at compile time, one test
    /// of it left (a wrong `K` still pops right, as `HEADS_ANY`).
    #[inline(always)]
    pub fn pop_backlogged_as<const K: u8>(&mut self) -> Cell {
        // With a cell queued the least head is a backlogged VC's (the heads' `EMPTY` words are
        // above every other), which `take` reads unchecked.
        assert!(self.len > 0, "pop from an empty Virtual Spacing queue");
        let queues = &mut self.queues;
        // Pops VC `i`'s head cell (the VC is backlogged) and says whether the VC has more.
        let mut served = Cell::default();
        let mut take = |i: usize| {
            debug_assert!(i < queues.len());
            // SAFETY: `i` is a backlogged VC's (a cell is queued, asserted above, so the least
            // head is one), and a VC with cells is below `queues.len()` (`push` indexes it).
            let q = unsafe { queues.get_unchecked_mut(i) };
            served = q.pop_front_held();
            !q.is_empty()
        };
        let is = |k: u8| K == k || K == HEADS_ANY;
        match &mut self.heads {
            Heads::Scan4(s) if is(HEADS_SCAN4) => {
                s.serve(&mut take);
            }
            Heads::Scan8(s) if is(HEADS_SCAN8) => {
                s.serve(&mut take);
            }
            Heads::Tree16(s) if is(HEADS_TREE16) => {
                s.serve(&mut take);
            }
            Heads::Heap(h) if is(HEADS_HEAP) => {
                let mut top = h.heads.peek_mut().expect("cells queued, so a VC is backlogged");
                let i = top.0 as u32 as usize;
                let stamp = top.0 >> 32;
                h.spacing_time = stamp;
                if take(i) {
                    *top = head(stamp + u128::from(h.inc[i]), i);
                } else {
                    PeekMut::pop(top);
                }
            }
            _ => {
                debug_assert!(K != HEADS_ANY, "every way of keeping heads is matched");
                return self.pop_unmatched();
            }
        }
        self.len -= 1;
        served
    }

    /// `pop_backlogged_as` with a `K` that is not the way the heads are kept: out of line, so
    /// that a right `K` costs one test of the way at each pop.
    #[cold]
    #[inline(never)]
    fn pop_unmatched(&mut self) -> Cell {
        self.pop_backlogged_as::<HEADS_ANY>()
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
    fn a_pop_told_a_wrong_way_of_keeping_heads_pops_in_the_same_order() {
        let rates = [20_000.0, 50_000.0, 0.0];
        let (mut told, mut asked) = (VirtualSpacing::new(&rates), VirtualSpacing::new(&rates));
        assert_eq!(told.heads_kind(), HEADS_SCAN4);
        for k in 0..30 {
            let c = Cell { frame: k, vc: (k % 3) as u16, flags: 0 };
            told.push(c);
            asked.push(c);
        }
        while !asked.is_empty() {
            let (a, b) = (told.pop_backlogged_as::<HEADS_TREE16>(), asked.pop_backlogged());
            assert_eq!((a.vc, a.frame), (b.vc, b.frame));
        }
        assert!(told.is_empty());
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
        inc: Vec<u128>,
        vs: Vec<u128>,
        cells: Vec<(u128, u16, u32)>,
        spacing_time: u128,
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

    /// Drive `vs` and the brute-force reading side by side with random arrivals and departures
    /// (`p_push` an arrival), SpacingTime (and every VS_i) starting at `start`.
    fn against_naive(rates: &[f64], steps: u32, p_push: f64, start: u64, seed: u64) -> Naive {
        let n = rates.len();
        let mut vs = VirtualSpacing::new(rates);
        match &mut vs.heads {
            Heads::Scan4(s) => s.spacing_time = start << VC_BITS,
            Heads::Scan8(s) => s.spacing_time = start << VC_BITS,
            Heads::Tree16(s) => s.spacing_time = start << VC_BITS,
            Heads::Heap(h) => h.spacing_time = u128::from(start),
        }
        let inc = rates.iter().map(|&r| u128::from(increment(r))).collect();
        let start = u128::from(start);
        let mut naive = Naive { inc, vs: vec![start; n], cells: Vec::new(), spacing_time: start };
        let mut rng = crate::rng::Rng::stream(seed, "vs-test");
        for frame in 0..steps {
            if rng.uniform() < p_push {
                let vc = (rng.uniform() * n as f64) as u16;
                vs.push(Cell { frame, vc, flags: 0 });
                naive.push(vc, frame);
            } else {
                let got = vs.pop().map(|c| (c.vc, c.frame));
                assert_eq!(got, naive.pop(), "n = {n}, step {frame}");
            }
            assert_eq!(vs.len(), naive.cells.len());
        }
        naive
    }

    #[test]
    fn scan_and_heap_serve_in_the_definitions_order() {
        // Equal rates among some VCs make equal stamps, so the tie rule is exercised too.
        for n in [2, 3, 4, 5, 8, 9, SCAN_MAX, SCAN_MAX + 1, 40] {
            let rates: Vec<f64> = (0..n).map(|i| [20_000.0, 50_000.0, 20_000.0, 0.0][i % 4]).collect();
            let vs = VirtualSpacing::new(&rates);
            assert_eq!(!matches!(vs.heads, Heads::Heap(_)), n <= SCAN_MAX);
            against_naive(&rates, 20_000, 0.55, 0, 7);
        }
    }

    #[test]
    fn a_rate_too_small_for_the_scan_goes_to_the_heap_in_the_same_order() {
        let rates = [1e-5, 1.0, 20_000.0];
        assert!(matches!(VirtualSpacing::new(&rates).heads, Heads::Heap(_)));
        // Few steps: the tiny rate's stamps (1e17 apiece) must not overflow the naive reading.
        against_naive(&rates, 300, 0.55, 0, 7);
    }

    #[test]
    fn scanned_stamps_keep_their_order_across_a_rebase() {
        // SpacingTime starts a few cells (1e9 apiece) short of `REBASE`, so the first services
        // move the base; arrivals at idle VCs right after it must be stamped from the moved
        // SpacingTime, hence many short runs with small backlogs.
        // At 4, 8 and 12 VCs: the three ways of keeping heads below `SCAN_MAX`.
        for n in [4, 8, 12] {
            let rates: Vec<f64> = (0..n).map(|i| [1000.0, 1000.0, 3000.0, 0.0][i % 4]).collect();
            let mut crossed = 0;
            for seed in 0..300 {
                let naive = against_naive(&rates, 60, 0.5, REBASE - 3_000_000_000, seed);
                crossed += u32::from(naive.spacing_time >= u128::from(REBASE));
            }
            assert!(crossed > 200, "{n} VCs: {crossed} runs of 300 reached the rebase");
        }
    }

    #[test]
    fn heap_stamps_do_not_wrap_past_64_bits() {
        // Zero-rate VCs alone advance SpacingTime by 1e12 virtual ps a cell: started 1e13 short
        // of 2^64, the heap's stamps cross it within a few services (64-bit stamps wrapped there
        // and served the wrapped VCs first).
        let rates: Vec<f64> = (0..SCAN_MAX + 1).map(|i| if i % 2 == 0 { 0.0 } else { 0.5 }).collect();
        assert!(matches!(VirtualSpacing::new(&rates).heads, Heads::Heap(_)));
        let naive = against_naive(&rates, 2_000, 0.5, u64::MAX - 10_000_000_000_000, 3);
        assert!(naive.spacing_time > u128::from(u64::MAX));
    }
}
