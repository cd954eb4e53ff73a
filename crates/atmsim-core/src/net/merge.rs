//! Merging a component's input FIFOs in arrival order during one batch.
//!
//! Each FIFO is sorted, so the next arrival is the smallest head. A switch port fed by 15 links
//! would scan 15 heads per cell; instead a small binary heap of (head time, input) holds the
//! non-empty inputs and is repaired after each pop (nothing else pushes to the inputs during a
//! batch, since components advance one at a time).
//!
//! Cells that arrive at the same picosecond (common when equal links share one slot phase, as
//! with `phases = "aligned"`; rare with random phases) are taken
//! by [`Arbitration`]: `Rotating` serves the input served least recently first, so no input wins
//! every tie; `Fixed` always prefers the lower input index (a fixed-order scan).
//!
//! At a port fed by 15 links one or two inputs hold cells at a time. [`InputMarks`] keeps, per
//! component with several inputs, a bit per input, set when an empty input may have received
//! cells (by a host as it sends, by the scheduler after a port's batch), so the start of a
//! batch reads the marked inputs only; the heap is kept from the last batch, and only marked
//! inputs not in it are added (most batches: none). Past 64 inputs the bits are words of 64,
//! and a batch reads one word per 64 inputs, not every input's head (a bottleneck fed by 10000
//! sources read 10000 heads and rebuilt a heap of thousands at each of its batches).
//!
//! With a slot `grid` (a slotted switch), an arrival counts from the first slot boundary of the
//! port's output grid (with its phase) at or after it: every cell that arrived during a slot is then a tie at its
//! end, decided by the arbitration, instead of by the fixed sub-slot phases of ideal link clocks
//! (which otherwise let the input whose phase follows the departure win every free place).

use crate::cell::{Cell, CellFifo};
use crate::rng::Rng;
use crate::time::{SlotGrid, Time, NEVER};

/// How simultaneous arrivals at one component are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Arbitration {
    /// Least recently served input first (round robin among tied inputs).
    #[default]
    Rotating,
    /// Lowest input index first.
    Fixed,
    /// A fresh random rank at each service: ties go to each contender with equal chance.
    Random,
}

/// A FIFO whose consumer reads it without marks (`CellFifo::mark`): past any word, since words
/// are fewer than FIFOs (`Sim::new` asserts that `NO_MARK >> 6` is not one).
pub const NO_MARK: u32 = u32::MAX;

/// Per component with several inputs, which of them may have received cells while empty:
/// input `k`'s bit is `k % 64` of a word of the component's, which sits at the index of the
/// FIFO of its input `k - k % 64` (the first of its block of 64: [`InputMarks::mark_of`]; a
/// FIFO has one consumer, so no other component's word is there). Invariant, outside a
/// component's batch: every input holding cells is marked or in the component's merge heap
/// (kept from the last batch). [`InputMerge::rebuild`] takes the marked inputs into the heap
/// and clears their bits. Without words (a network not built by `Sim::new`, unit tests) every
/// input is read at each batch.
///
/// A host marks an input when it puts a frame or a cell into it while it is empty
/// (`World::transmit`, `World::send_credit`, the adapter's frames: a non-empty input is marked
/// or held already); a port's cells go out by several paths, cell by cell, so the scheduler
/// marks the inputs it feeds that hold cells after each of its batches (`Sim::run_until`).
#[derive(Debug, Default)]
pub struct InputMarks {
    words: Vec<u64>,
}

impl InputMarks {
    /// Words for a network of `fifos` FIFOs, every input marked (nothing is known yet).
    pub fn all(fifos: usize) -> Self {
        InputMarks { words: vec![u64::MAX; fifos] }
    }

    /// The input named by `mark` (a FIFO's: `word * 64 + bit`) may hold cells; nothing for
    /// [`NO_MARK`] (or without words).
    #[inline]
    pub fn mark(&mut self, mark: u32) {
        if let Some(w) = self.words.get_mut((mark >> 6) as usize) {
            *w |= 1 << (mark & 63);
        }
    }

    /// The mark of input `k` of a component whose input FIFOs are `inputs`: bit `k % 64` of the
    /// word at its block's first FIFO.
    pub fn mark_of(inputs: &[u32], k: usize) -> u32 {
        inputs[k - k % 64] * 64 + (k % 64) as u32
    }

    /// Words with some bit clear: components whose batches read only some of their inputs.
    #[cfg(test)]
    pub fn cleared(&self) -> usize {
        self.words.iter().filter(|&&w| w != u64::MAX).count()
    }
}

#[derive(Debug, Default)]
pub struct InputMerge {
    /// (head arrival time, tie rank, input position).
    heap: Vec<(Time, u64, u32)>,
    /// Per input: the tie rank (the serial of its last service under `Rotating`). An input in
    /// `heap` has its rank in its entry, written here only when it leaves the heap (drained, or
    /// the heap built again): one store per run fewer at a busy port.
    rank: Vec<u64>,
    served: u64,
    pub arbitration: Arbitration,
    /// Slotted arrivals: the output slot grid arrivals are moved to (see the module comment).
    pub grid: Option<SlotGrid>,
    /// `Random`'s draws.
    pub rng: Option<Rng>,
    /// The inputs in `heap` (a component with at most 64 inputs and marks, whose heap is kept
    /// from one batch to the next).
    held: u64,
    /// The same for a component with more inputs: bit `k % 64` of word `k / 64` (empty with
    /// at most 64 inputs).
    held_wide: Vec<u64>,
}

impl InputMerge {
    /// When an arrival at `t` is taken into account.
    #[inline]
    pub fn key(&self, t: Time) -> Time {
        match self.grid {
            Some(g) if t != NEVER => g.slot_at_or_after(t),
            _ => t,
        }
    }

    /// Start a batch: take the current head of every non-empty input.
    ///
    /// With marks, the heap is kept from the end of the last batch, when it held every input
    /// with cells: since then only a push into an empty input can have changed a head, and
    /// such an input is marked; so only the marked inputs that are not in the heap are read
    /// (most batches: none), and the marks cleared (with more than 64 inputs, word by word:
    /// `rebuild_wide`). Without marks the heap is built from every input.
    #[inline(always)]
    pub fn rebuild(&mut self, fifos: &[CellFifo], marks: &mut InputMarks, inputs: &[u32]) {
        // Most batches of a component with several inputs: nothing new since the last, and
        // nothing to do (marks of held inputs mean nothing and may stay), decided here at the
        // caller, without a call.
        if (2..=64).contains(&inputs.len()) && self.rank.len() == inputs.len() {
            if let Some(&word) = marks.words.get(inputs[0] as usize) {
                if word & !self.held == 0 {
                    debug_assert!(
                        inputs
                            .iter()
                            .enumerate()
                            .all(|(i, &f)| self.held >> i & 1 == 1 || fifos[f as usize].is_empty()),
                        "an input holds cells but is neither held nor marked"
                    );
                    return;
                }
            }
        }
        self.rebuild_from(fifos, marks, inputs);
    }

    /// `rebuild` past its first test.
    #[inline(never)]
    fn rebuild_from(&mut self, fifos: &[CellFifo], marks: &mut InputMarks, inputs: &[u32]) {
        if self.rank.len() != inputs.len() {
            self.first_use(inputs.len());
        }
        // Most ports and hosts have one input: its head is the whole heap.
        if let &[f] = inputs {
            self.heap.clear();
            if let Some(t) = fifos[f as usize].head_time() {
                self.heap.push((self.key(t), self.rank[0], 0));
            }
            return;
        }
        let Some(word) = inputs.first().and_then(|&f| marks.words.get_mut(f as usize)) else {
            self.clear();
            for (i, &f) in inputs.iter().enumerate() {
                if let Some(t) = fifos[f as usize].head_time() {
                    self.heap.push((self.key(t), self.rank[i], i as u32));
                }
            }
            self.heapify();
            return;
        };
        if inputs.len() > 64 {
            self.rebuild_wide(fifos, marks, inputs);
            return;
        }
        debug_assert!(
            inputs
                .iter()
                .enumerate()
                .all(|(i, &f)| (*word | self.held) >> i & 1 == 1 || fifos[f as usize].is_empty()),
            "an input holds cells but is neither held nor marked"
        );
        debug_assert!(self.held.count_ones() as usize == self.heap.len());
        let mut new = *word & !self.held;
        *word = 0;
        while new != 0 {
            let i = new.trailing_zeros() as usize;
            new &= new - 1;
            // (Bits past the inputs: set when nothing was known yet.)
            let Some(&f) = inputs.get(i) else { break };
            if let Some(t) = fifos[f as usize].head_time() {
                self.heap.push((self.key(t), self.rank[i], i as u32));
                self.held |= 1 << i;
                self.sift_up(self.heap.len() - 1);
            }
        }
    }

    /// `rebuild` for a component with more than 64 inputs and marks: as with fewer, the heap
    /// kept from the last batch takes the marked inputs that are not in it and hold cells,
    /// read a word (64 inputs) at a time; every word is cleared.
    fn rebuild_wide(&mut self, fifos: &[CellFifo], marks: &mut InputMarks, inputs: &[u32]) {
        debug_assert!(
            inputs.iter().enumerate().all(|(i, &f)| {
                let m = InputMarks::mark_of(inputs, i);
                let marked = marks.words.get((m >> 6) as usize).is_none_or(|w| w >> (m & 63) & 1 == 1);
                marked || self.held_wide[i / 64] >> (i % 64) & 1 == 1 || fifos[f as usize].is_empty()
            }),
            "an input holds cells but is neither held nor marked"
        );
        debug_assert!(
            self.held_wide.iter().map(|w| w.count_ones() as usize).sum::<usize>() == self.heap.len()
        );
        for (j, block) in inputs.chunks(64).enumerate() {
            let Some(word) = marks.words.get_mut(block[0] as usize) else { continue };
            let mut new = *word & !self.held_wide[j];
            *word = 0;
            while new != 0 {
                let b = new.trailing_zeros() as usize;
                new &= new - 1;
                // (Bits past the inputs: set when nothing was known yet.)
                let Some(&f) = block.get(b) else { break };
                if let Some(t) = fifos[f as usize].head_time() {
                    let i = 64 * j + b;
                    self.heap.push((self.key(t), self.rank[i], i as u32));
                    self.held_wide[j] |= 1 << b;
                    self.sift_up(self.heap.len() - 1);
                }
            }
        }
    }

    /// Empty the heap, its entries' ranks kept (`rank`).
    fn clear(&mut self) {
        for &(_, r, i) in &self.heap {
            self.rank[i as usize] = r;
        }
        self.heap.clear();
    }

    /// Order the heap from scratch. (Its layout depends on the order of the pushes; what it
    /// gives does not: its entries differ in the input, so the first and the runner-up are
    /// each one entry, whatever the layout.)
    fn heapify(&mut self) {
        for i in (0..self.heap.len() / 2).rev() {
            self.sift_down(i);
        }
    }

    /// Ranks in input order before any service; room for every input's head.
    #[cold]
    fn first_use(&mut self, inputs: usize) {
        self.rank = (0..inputs as u64).collect();
        self.served = inputs as u64;
        self.heap.clear();
        self.held = 0;
        self.held_wide = if inputs > 64 { vec![0; inputs.div_ceil(64)] } else { Vec::new() };
        self.heap.reserve(inputs);
    }

    /// The one FIFO of a component with a single input, which may then be read directly,
    /// without the heap: ranks only order ties between inputs, and a lone input has none.
    #[inline]
    pub fn lone(inputs: &[u32]) -> Option<usize> {
        match inputs {
            &[f] => Some(f as usize),
            _ => None,
        }
    }

    /// When the head of `fifo` (a lone input, or the one a run reads) is taken into account;
    /// `NEVER` if it is empty.
    #[inline(always)]
    pub fn lone_key(&self, fifo: &CellFifo) -> Time {
        // A cell's time is never `NEVER`: `key`'s test for it is not needed here (one test per
        // arrival fewer).
        match (fifo.head_time(), self.grid) {
            (Some(t), None) => t,
            (Some(t), Some(g)) => g.slot_at_or_after(t),
            (None, _) => NEVER,
        }
    }

    /// After a batch that read a lone input directly: its head (`lone_key`) is what `peek`
    /// names, as after a `rebuild`.
    #[inline]
    pub fn set_lone(&mut self, key: Time) {
        self.heap.clear();
        if key != NEVER {
            self.heap.push((key, 0, 0));
        }
    }

    /// The earliest pending arrival: (time, position in `inputs`).
    #[inline]
    pub fn peek(&self) -> (Time, usize) {
        match self.heap.first() {
            Some(&(t, _, i)) => (t, i as usize),
            None => (NEVER, 0),
        }
    }

    /// The earliest key among the inputs in the heap other than `a` and `b` (`NEVER`: none).
    ///
    /// Heap order puts every entry at or after its parent, so each entry that is neither lies
    /// at or after the first entry on its path from the root that is neither: the walk goes
    /// down only through `a`'s and `b`'s entries and reads at most five, whatever the number
    /// of inputs.
    #[inline]
    pub fn earliest_but(&self, a: usize, b: usize) -> Time {
        let mut best = NEVER;
        let (mut stack, mut n) = ([0usize; 4], 1);
        while n > 0 {
            n -= 1;
            let j = stack[n];
            if let Some(&(t, _, i)) = self.heap.get(j) {
                if i as usize == a || i as usize == b {
                    stack[n] = 2 * j + 1;
                    stack[n + 1] = 2 * j + 2;
                    n += 2;
                } else {
                    best = best.min(t);
                }
            }
        }
        best
    }

    /// Take the head cell of the earliest input (the one `peek` names) and look at its next.
    #[inline(always)]
    pub fn pop(&mut self, fifos: &mut [CellFifo], inputs: &[u32]) -> (Time, Cell) {
        let i = self.heap[0].2 as usize;
        let head = fifos[inputs[i] as usize].pop().expect("peek named a non-empty input");
        self.popped(fifos, inputs);
        head
    }

    /// The head of the earliest input was just popped: look at its next cell.
    #[inline(always)]
    fn popped(&mut self, fifos: &[CellFifo], inputs: &[u32]) {
        let i = self.heap[0].2;
        let key = match fifos[inputs[i as usize] as usize].head_time() {
            Some(t) => self.key(t),
            None => NEVER,
        };
        self.ran(key);
    }

    /// Before which key the earliest input's cells come before every other input's, so that
    /// they may be taken in a row (`peek` then names it throughout) and the merge told once,
    /// with [`InputMerge::ran`]: the runner-up's key (`NEVER` if no other input has cells). A
    /// tie with the runner-up ends the run, since ranks decide it; under `Random` every service
    /// draws a rank, so a run is one cell.
    #[inline]
    pub fn run_until(&self) -> Time {
        if self.arbitration == Arbitration::Random {
            return 0;
        }
        match self.heap.as_slice() {
            [_] | [] => NEVER,
            [_, a] => a.0,
            [_, a, b, ..] => a.0.min(b.0),
        }
    }

    /// After one or more cells of the earliest input were taken (the run of `run_until`):
    /// `key` is its new head's (`NEVER`: drained). Its rank is that of one service: under
    /// `Rotating` the ranks only order the inputs by their last service, which one service
    /// or several in a row leave alike.
    #[inline(always)]
    pub fn ran(&mut self, key: Time) {
        let i = self.heap[0].2;
        if key != NEVER && self.arbitration == Arbitration::Rotating {
            self.served += 1;
            self.sift_root::<true>((key, self.served, i));
            return;
        }
        match self.arbitration {
            Arbitration::Rotating => {
                self.served += 1;
                self.heap[0].1 = self.served;
            }
            Arbitration::Random => self.draw_rank(i),
            Arbitration::Fixed => {}
        }
        if key != NEVER {
            self.heap[0].0 = key;
        } else {
            // Drained: out of the heap (`& 63`: `held` is unused past 64 inputs, `held_wide`
            // empty up to 64), with its rank.
            self.held &= !(1 << (i & 63));
            if let Some(w) = self.held_wide.get_mut(i as usize >> 6) {
                *w &= !(1 << (i & 63));
            }
            self.rank[i as usize] = self.heap[0].1;
            let last = self.heap.pop().expect("popped from a non-empty merge");
            if self.heap.is_empty() {
                return;
            }
            self.heap[0] = last;
        }
        self.sift_down(0);
    }

    /// `ran` for one cell under `Random`, in line (`port/slotted.rs`): the served input's fresh
    /// rank drawn from the merge's stream, into its entry only (an input in the heap has its
    /// rank there, see `rank`).
    #[inline(always)]
    pub fn ran_random(&mut self, key: Time) {
        debug_assert!(self.arbitration == Arbitration::Random);
        if key == NEVER {
            return self.ran(key);
        }
        let i = self.heap[0].2;
        let r = self.rng.as_mut().expect("random arbitration has a stream").next_u64();
        self.sift_root::<false>((key, r, i));
    }

    /// Put `e`, the entry of the input just served, in place of the root and move it down,
    /// into the hole its smaller children leave as they move up (not swapped level by level:
    /// the same heap, since the entry compared at each level is the one moving down), written
    /// once at the end.
    ///
    /// `BY_KEY` (under `Rotating`): its rank (the newest serial) is above every rank in the
    /// heap, so it goes below every entry keyed at or before it and is compared by key alone.
    /// Otherwise (`ran_random`'s fresh draw) by the whole entry.
    #[inline(always)]
    fn sift_root<const BY_KEY: bool>(&mut self, e: (Time, u64, u32)) {
        let heap = self.heap.as_mut_slice();
        let n = heap.len();
        debug_assert!(n > 0, "the served input's entry is the root");
        let mut i = 0;
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            // SAFETY: `l < n` was just tested, `r` is read only when below `n`, and `c` is one
            // of them; `i` is 0 (the heap holds the served input's entry) or an earlier `c`.
            unsafe {
                let c = if r < n && heap.get_unchecked(r) < heap.get_unchecked(l) { r } else { l };
                let hc = *heap.get_unchecked(c);
                if if BY_KEY { hc.0 > e.0 } else { hc >= e } {
                    break;
                }
                *heap.get_unchecked_mut(i) = hc;
                i = c;
            }
        }
        // SAFETY: as above.
        unsafe { *heap.get_unchecked_mut(i) = e };
    }

    #[cold]
    fn draw_rank(&mut self, i: u32) {
        let r = self.rng.as_mut().expect("random arbitration has a stream").next_u64();
        self.rank[i as usize] = r;
        self.heap[0].1 = r;
    }

    /// Move a new entry at `i` up to its place.
    #[inline]
    fn sift_up(&mut self, mut i: usize) {
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.heap[i] < self.heap[parent] {
                self.heap.swap(i, parent);
                i = parent;
            } else {
                return;
            }
        }
    }

    #[inline]
    fn sift_down(&mut self, mut i: usize) {
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                return;
            }
            let r = l + 1;
            let c = if r < n && self.heap[r] < self.heap[l] { r } else { l };
            if self.heap[c] < self.heap[i] {
                self.heap.swap(c, i);
                i = c;
            } else {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::Cell;
    use crate::time::CellPeriod;

    fn fifos_of(times: &[Vec<Time>]) -> Vec<CellFifo> {
        times
            .iter()
            .map(|ts| {
                let mut f = CellFifo::new(0);
                for &t in ts {
                    f.push(t, Cell { vc: 0, frame: 0, flags: 0 });
                }
                f
            })
            .collect()
    }

    fn drain(m: &mut InputMerge, fifos: &mut [CellFifo], inputs: &[u32]) -> Vec<(Time, usize)> {
        m.rebuild(fifos, &mut InputMarks::default(), inputs);
        let mut out = Vec::new();
        loop {
            let (t, i) = m.peek();
            if t == NEVER {
                return out;
            }
            m.pop(fifos, inputs);
            out.push((t, i));
        }
    }

    #[test]
    fn earliest_but_is_the_earliest_head_of_the_other_inputs() {
        // Random heads (ties, empty inputs, up to 70 inputs: kept heaps and rebuilt ones),
        // the heap scrambled by pops, every pair of inputs left out: the heap's answer is the
        // scan over every other input's head.
        let mut rng = Rng::stream(7, "earliest_but");
        let mut below = |n: u64| rng.next_u64() % n;
        for _ in 0..200 {
            let n = 2 + below(69) as usize;
            let times: Vec<Vec<Time>> = (0..n)
                .map(|_| {
                    let mut t = below(20);
                    (0..below(4))
                        .map(|_| {
                            t += below(3);
                            t
                        })
                        .collect()
                })
                .collect();
            let mut fifos = fifos_of(&times);
            let inputs: Vec<u32> = (0..n as u32).collect();
            let mut m = InputMerge::default();
            m.rebuild(&fifos, &mut InputMarks::default(), &inputs);
            for _ in 0..below(6) {
                if m.peek().0 != NEVER {
                    m.pop(&mut fifos, &inputs);
                }
            }
            for a in 0..n {
                for b in 0..n {
                    let scan = (0..n)
                        .filter(|&k| k != a && k != b)
                        .filter_map(|k| fifos[k].head_time())
                        .min()
                        .unwrap_or(NEVER);
                    assert_eq!(m.earliest_but(a, b), scan, "inputs {n}, without {a} and {b}");
                }
            }
        }
    }

    #[test]
    fn rotating_arbitration_takes_turns_on_ties() {
        let mut fifos = fifos_of(&[vec![1, 2, 3], vec![1, 2, 3], vec![2]]);
        let inputs = [0u32, 1, 2];
        let mut m = InputMerge::default();
        let order: Vec<usize> = drain(&mut m, &mut fifos, &inputs).iter().map(|&(_, i)| i).collect();
        // t=1: 0 then 1; t=2: 2 (never served) then 0 then 1; t=3: 0 then 1.
        assert_eq!(order, vec![0, 1, 2, 0, 1, 0, 1]);
        // Ranks persist across batches: at the next tie input 0 (served before 1) goes first.
        let mut fifos = fifos_of(&[vec![9], vec![9]]);
        fifos.push(CellFifo::new(0));
        let order: Vec<usize> = drain(&mut m, &mut fifos, &inputs).iter().map(|&(_, i)| i).collect();
        assert_eq!(order, vec![0, 1]);
    }

    #[test]
    fn ranks_kept_in_the_heap_decide_the_ties_of_later_batches() {
        // The cells before `stop` of a batch (a heap built from every input, no marks).
        fn batch(m: &mut InputMerge, fifos: &mut [CellFifo], stop: Time) -> Vec<usize> {
            m.rebuild(fifos, &mut InputMarks::default(), &[0, 1]);
            let mut order = Vec::new();
            while m.peek().0 < stop {
                order.push(m.peek().1);
                m.pop(fifos, &[0, 1]);
            }
            order
        }
        // Input 0 is served at 10 and stays in the heap; at the tie at 20 in the next batch,
        // input 1 (never served) goes first: the heap built again takes input 0's rank from its
        // entry, not the one before its service.
        let mut m = InputMerge::default();
        let mut fifos = fifos_of(&[vec![10, 20], vec![20]]);
        assert_eq!(batch(&mut m, &mut fifos, 15), vec![0]);
        assert_eq!(batch(&mut m, &mut fifos, 30), vec![1, 0]);
        // Input 0 is served at 10 and drained; a cell put into it later ties with input 1's at
        // 20, which goes first: the drained input left its rank.
        let mut m = InputMerge::default();
        let mut fifos = fifos_of(&[vec![10], vec![20]]);
        assert_eq!(batch(&mut m, &mut fifos, 15), vec![0]);
        fifos[0].push(20, Cell { vc: 0, frame: 0, flags: 0 });
        assert_eq!(batch(&mut m, &mut fifos, 30), vec![1, 0]);
    }

    #[test]
    fn a_slotted_merge_ties_arrivals_within_one_slot() {
        // Slots every 10 ps. Input 0 always arrives 1 ps into a slot, input 1 at 9 ps: without
        // slots input 0 is always first; slotted, they tie at the boundary and take turns.
        let mut fifos = fifos_of(&[vec![1, 11, 21], vec![9, 19, 29]]);
        let inputs = [0u32, 1];
        let grid = SlotGrid { period: CellPeriod { num: 10, den: 1 }, phase: 0 };
        let mut m = InputMerge { grid: Some(grid), ..Default::default() };
        let out = drain(&mut m, &mut fifos, &inputs);
        assert_eq!(out, vec![(10, 0), (10, 1), (20, 0), (20, 1), (30, 0), (30, 1)]);
        // The port's own grid counts, phase included: with slots at 5, 15, 25, ... the two
        // inputs fall into different slots again.
        let mut fifos = fifos_of(&[vec![1, 11, 21], vec![9, 19, 29]]);
        let mut m = InputMerge { grid: Some(SlotGrid { phase: 5, ..grid }), ..Default::default() };
        let out = drain(&mut m, &mut fifos, &inputs);
        assert_eq!(out, vec![(5, 0), (15, 1), (15, 0), (25, 1), (25, 0), (35, 1)]);
        let mut fifos = fifos_of(&[vec![1, 11], vec![9, 19]]);
        let mut m = InputMerge::default();
        let order: Vec<usize> = drain(&mut m, &mut fifos, &inputs).iter().map(|&(_, i)| i).collect();
        assert_eq!(order, vec![0, 1, 0, 1]);
    }

    #[test]
    fn random_arbitration_splits_ties_evenly() {
        // Two inputs tied at every instant: each goes first about half the time.
        let times: Vec<Time> = (1..=4000).collect();
        let mut fifos = fifos_of(&[times.clone(), times]);
        let inputs = [0u32, 1];
        let mut m = InputMerge {
            arbitration: Arbitration::Random,
            rng: Some(Rng::stream(3, "arb")),
            ..Default::default()
        };
        let out = drain(&mut m, &mut fifos, &inputs);
        let first0 = out.chunks(2).filter(|p| p[0].1 == 0).count();
        assert!((1800..2200).contains(&first0), "{first0}");
    }

    #[test]
    fn a_lone_input_read_directly_gives_the_heap_order() {
        // Slotted, so the keys are not the cells' own times; the batch stops at 25.
        let times = vec![1, 9, 11, 19, 21, 29];
        let grid = SlotGrid { period: CellPeriod { num: 10, den: 1 }, phase: 0 };
        let inputs = [1u32];
        let mut fifos = fifos_of(&[vec![], times.clone()]);
        let mut heap = InputMerge { grid: Some(grid), ..Default::default() };
        heap.rebuild(&fifos, &mut InputMarks::default(), &inputs);
        let mut want = Vec::new();
        while heap.peek().0 < 25 {
            want.push((heap.peek().0, heap.pop(&mut fifos, &inputs).0));
        }
        let mut fifos = fifos_of(&[vec![], times]);
        let mut lone = InputMerge { grid: Some(grid), ..Default::default() };
        let f = InputMerge::lone(&inputs).expect("one input");
        let mut got = Vec::new();
        loop {
            let key = lone.lone_key(&fifos[f]);
            if key >= 25 {
                lone.set_lone(key);
                break;
            }
            got.push((key, fifos[f].pop().expect("a head").0));
        }
        assert_eq!(got, want);
        assert_eq!(lone.peek(), heap.peek());
        assert_eq!(lone.peek(), (30, 0));
        // Drained: nothing pending, as a rebuild of an empty input says.
        while fifos[f].pop().is_some() {}
        lone.set_lone(lone.lone_key(&fifos[f]));
        assert_eq!(lone.peek().0, NEVER);
        assert_eq!(InputMerge::lone(&[0, 1]), None);
    }

    /// `drain` by runs: the earliest input's cells taken in a row up to `run_until`, the merge
    /// told once per run (as `Port::process_plain` reads them).
    fn drain_runs(m: &mut InputMerge, fifos: &mut [CellFifo], inputs: &[u32]) -> Vec<(Time, usize)> {
        m.rebuild(fifos, &mut InputMarks::default(), inputs);
        let mut out = Vec::new();
        loop {
            let (mut t, i) = m.peek();
            if t == NEVER {
                return out;
            }
            let (f, until) = (inputs[i] as usize, m.run_until());
            loop {
                fifos[f].pop().expect("a head");
                out.push((t, i));
                t = m.lone_key(&fifos[f]);
                if t >= until {
                    break;
                }
            }
            m.ran(t);
        }
    }

    #[test]
    fn runs_of_the_earliest_input_give_the_order_of_single_pops() {
        // Runs of one input, ties at run ends, an input drained mid-batch; then a second batch
        // of ties only, which the ranks the first left decide.
        let first = [vec![1, 2, 3, 10, 11, 30], vec![3, 4, 5, 6, 30], vec![], vec![2, 9, 9, 9, 12]];
        let second = [vec![50, 60], vec![50, 60], vec![50, 60], vec![50, 60]];
        let grid = SlotGrid { period: CellPeriod { num: 4, den: 1 }, phase: 1 };
        let inputs = [0u32, 1, 2, 3];
        for arbitration in [Arbitration::Rotating, Arbitration::Fixed, Arbitration::Random] {
            for grid in [None, Some(grid)] {
                let new = || InputMerge {
                    arbitration,
                    grid,
                    rng: Some(Rng::stream(9, "arb")),
                    ..Default::default()
                };
                let (mut one, mut runs) = (new(), new());
                for batch in [&first, &second] {
                    let mut fifos = fifos_of(batch);
                    let want = drain(&mut one, &mut fifos, &inputs);
                    let mut fifos = fifos_of(batch);
                    let got = drain_runs(&mut runs, &mut fifos, &inputs);
                    assert_eq!(got, want, "{arbitration:?} grid {grid:?}");
                }
            }
        }
    }

    #[test]
    fn rotating_runs_serve_the_least_recently_served_of_the_earliest() {
        // Many inputs, few distinct times (ties everywhere, heaps of every size), several
        // batches on one merge: by runs and by single pops against the definition (the earliest
        // head first, ties to the input served least recently; none served yet: input order).
        let mut x: u64 = 5;
        let mut draw = |m: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        for n in 2..10 {
            let inputs: Vec<u32> = (0..n).collect();
            let (mut one, mut runs) = (InputMerge::default(), InputMerge::default());
            let mut last: Vec<u64> = (0..u64::from(n)).collect();
            let mut served = u64::from(n);
            for batch in 0..20 {
                let times: Vec<Vec<Time>> = (0..n)
                    .map(|_| {
                        let mut t = 100 * batch;
                        (0..draw(6))
                            .map(|_| {
                                t += draw(3);
                                t
                            })
                            .collect()
                    })
                    .collect();
                let mut heads = fifos_of(&times);
                let mut want = Vec::new();
                while let Some((t, i)) = (0..n as usize)
                    .filter_map(|i| heads[i].head_time().map(|t| (t, i)))
                    .min_by_key(|&(t, i)| (t, last[i]))
                {
                    heads[i].pop();
                    served += 1;
                    last[i] = served;
                    want.push((t, i));
                }
                assert_eq!(
                    drain(&mut one, &mut fifos_of(&times), &inputs),
                    want,
                    "{n} inputs, batch {batch}"
                );
                assert_eq!(
                    drain_runs(&mut runs, &mut fifos_of(&times), &inputs),
                    want,
                    "{n} inputs, batch {batch}"
                );
            }
        }
    }

    #[test]
    fn only_marked_inputs_are_read_and_empty_ones_unmarked() {
        // Inputs 2 and 3 are empty; 3 is marked (cells came and went), the unmarked 2 is not
        // read at all.
        let times = [vec![1, 5], vec![2], vec![], vec![]];
        let inputs = [0u32, 1, 2, 3];
        let mut marks = InputMarks { words: vec![0b1011, 0, 0, 0] };
        let mut fifos = fifos_of(&times);
        let order = drain_marked(&mut InputMerge::default(), &mut fifos, &mut marks, &inputs);
        assert_eq!(order, vec![(1, 0), (2, 1), (5, 0)]);
        assert_eq!(marks.words[0], 0, "the heap holds what was marked");
        let mut unread = fifos_of(&times);
        unread[2].push(0, Cell::default());
        let mut m = InputMerge::default();
        if !cfg!(debug_assertions) {
            // (A debug build asserts that no input holding cells is unmarked.)
            m.rebuild(&unread, &mut InputMarks { words: vec![0b1011, 0, 0, 0] }, &inputs);
            assert_eq!(m.peek(), (1, 0), "input 2 is not read");
        }
        // Every input marked: the order of a merge that reads them all.
        let mut marks = InputMarks::all(3);
        let want = drain(&mut InputMerge::default(), &mut fifos_of(&times), &inputs);
        let got = drain_marked(&mut InputMerge::default(), &mut fifos_of(&times), &mut marks, &inputs);
        assert_eq!(got, want);
        // More than 64 inputs: a word per 64 (at the FIFOs of inputs 0, 64 and 128), every
        // input marked read, every word cleared; then only the inputs marked are read.
        let mut times = vec![vec![]; 140];
        times[67] = vec![4];
        times[3] = vec![8];
        times[131] = vec![6];
        let inputs: Vec<u32> = (0..140).collect();
        let mut marks = InputMarks::all(140);
        let mut m = InputMerge::default();
        let got = drain_marked(&mut m, &mut fifos_of(&times), &mut marks, &inputs);
        assert_eq!(got, vec![(4, 67), (6, 131), (8, 3)]);
        assert!(
            marks.words.iter().enumerate().all(|(w, &b)| b == 0 || ![0, 64, 128].contains(&w)),
            "cleared"
        );
        assert_eq!(InputMarks::mark_of(&inputs, 131), 128 * 64 + 3);
        let mut fifos = fifos_of(&times);
        fifos[131].push(9, Cell::default());
        fifos[70].push(2, Cell::default());
        marks.mark(InputMarks::mark_of(&inputs, 131));
        if !cfg!(debug_assertions) {
            // (A debug build asserts that no input holding cells is unmarked.)
            m.rebuild(&fifos, &mut marks, &inputs);
            assert_eq!(m.peek(), (6, 131), "input 70 is not read, input 131 is");
        }
    }

    #[test]
    fn a_heap_kept_across_batches_gives_the_order_of_one_built_at_each() {
        // Batches up to a stop, then cells put into inputs between batches: into an empty one
        // (marked, as a sender does), a drained one (marked) and a non-empty one (not marked).
        // The same with every input read at each batch; fails if a drained input stays held.
        // Three inputs, and three of 140 (in three words of marks).
        kept_heap_case(3, [0, 1, 2]);
        kept_heap_case(140, [1, 70, 139]);
        kept_heap_case(140, [130, 2, 64]);
    }

    fn kept_heap_case(n: usize, at: [usize; 3]) {
        let inputs: Vec<u32> = (0..n as u32).collect();
        let (mut kept, mut built) = (InputMerge::default(), InputMerge::default());
        let mut marks = InputMarks::all(n);
        let mut times = vec![vec![]; n];
        times[at[0]] = vec![1, 4, 9];
        times[at[1]] = vec![2, 3];
        let (mut a, mut b) = (fifos_of(&times), fifos_of(&times));
        let mut batches = Vec::new();
        for (stop, pushes) in [(5, vec![(2, 6), (1, 7), (0, 10)]), (8, vec![(2, 12)]), (NEVER, vec![])] {
            let mut got = Vec::new();
            let mut want = Vec::new();
            kept.rebuild(&a, &mut marks, &inputs);
            built.rebuild(&b, &mut InputMarks::default(), &inputs);
            while kept.peek().0 < stop {
                got.push(kept.peek());
                kept.pop(&mut a, &inputs);
            }
            while built.peek().0 < stop {
                want.push(built.peek());
                built.pop(&mut b, &inputs);
            }
            assert_eq!(got, want, "stop {stop}");
            for (i, t) in pushes {
                let i = at[i];
                if a[i].is_empty() {
                    marks.mark(InputMarks::mark_of(&inputs, i));
                }
                a[i].push(t, Cell::default());
                b[i].push(t, Cell::default());
            }
            batches.push(got);
        }
        assert_eq!(batches.concat().len(), 9);
    }

    fn drain_marked(
        m: &mut InputMerge,
        fifos: &mut [CellFifo],
        marks: &mut InputMarks,
        inputs: &[u32],
    ) -> Vec<(Time, usize)> {
        m.rebuild(fifos, marks, inputs);
        let mut out = Vec::new();
        while m.peek().0 != NEVER {
            out.push(m.peek());
            m.pop(fifos, inputs);
        }
        out
    }

    #[test]
    fn fixed_arbitration_merges_in_time_then_input_order() {
        let mut fifos = fifos_of(&[vec![5, 9, 9], vec![], vec![1, 9, 20], vec![7]]);
        let inputs = [0u32, 1, 2, 3];
        let mut m = InputMerge { arbitration: Arbitration::Fixed, ..Default::default() };
        let out = drain(&mut m, &mut fifos, &inputs);
        assert_eq!(out, vec![(1, 2), (5, 0), (7, 3), (9, 0), (9, 0), (9, 2), (20, 2)]);
    }
}
