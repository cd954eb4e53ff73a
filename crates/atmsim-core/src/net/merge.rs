//! Merging a component's input FIFOs in arrival order during one batch.
//!
//! Each FIFO is sorted, so the next arrival is the smallest head. A switch port fed by 15 links
//! would scan 15 heads per cell; instead a small binary heap of (head time, input) is built at the
//! start of a batch and repaired after each pop (nothing else pushes to the inputs during a batch,
//! since components advance one at a time).
//!
//! Cells that arrive at the same picosecond (common: equal links share one slot phase) are taken
//! by [`Arbitration`]: `Rotating` serves the input served least recently first, so no input wins
//! every tie; `Fixed` always prefers the lower input index (a fixed-order scan).

use crate::cell::CellFifo;
use crate::time::{Time, NEVER};

/// How simultaneous arrivals at one component are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Arbitration {
    /// Least recently served input first (round robin among tied inputs).
    #[default]
    Rotating,
    /// Lowest input index first.
    Fixed,
}

#[derive(Debug, Default)]
pub struct InputMerge {
    /// (head arrival time, tie rank, input position).
    heap: Vec<(Time, u64, u32)>,
    /// Per input: the tie rank (the serial of its last service under `Rotating`).
    rank: Vec<u64>,
    served: u64,
    pub arbitration: Arbitration,
}

impl InputMerge {
    /// Start a batch: take the current head of every non-empty input.
    pub fn rebuild(&mut self, fifos: &[CellFifo], inputs: &[u32]) {
        if self.rank.len() != inputs.len() {
            self.rank = (0..inputs.len() as u64).collect();
            self.served = inputs.len() as u64;
        }
        self.heap.clear();
        for (i, &f) in inputs.iter().enumerate() {
            if let Some(t) = fifos[f as usize].head_time() {
                self.heap.push((t, self.rank[i], i as u32));
            }
        }
        for i in (0..self.heap.len() / 2).rev() {
            self.sift_down(i);
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

    /// The head of the earliest input was just popped: look at its next cell.
    #[inline]
    pub fn popped(&mut self, fifos: &[CellFifo], inputs: &[u32]) {
        let i = self.heap[0].2;
        if self.arbitration == Arbitration::Rotating {
            self.served += 1;
            self.rank[i as usize] = self.served;
            self.heap[0].1 = self.served;
        }
        match fifos[inputs[i as usize] as usize].head_time() {
            Some(t) => self.heap[0].0 = t,
            None => {
                let last = self.heap.pop().expect("popped from a non-empty merge");
                if self.heap.is_empty() {
                    return;
                }
                self.heap[0] = last;
            }
        }
        self.sift_down(0);
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
        m.rebuild(fifos, inputs);
        let mut out = Vec::new();
        loop {
            let (t, i) = m.peek();
            if t == NEVER {
                return out;
            }
            fifos[inputs[i] as usize].pop();
            out.push((t, i));
            m.popped(fifos, inputs);
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
    fn fixed_arbitration_merges_in_time_then_input_order() {
        let mut fifos = fifos_of(&[vec![5, 9, 9], vec![], vec![1, 9, 20], vec![7]]);
        let inputs = [0u32, 1, 2, 3];
        let mut m = InputMerge { arbitration: Arbitration::Fixed, ..Default::default() };
        let out = drain(&mut m, &mut fifos, &inputs);
        assert_eq!(out, vec![(1, 2), (5, 0), (7, 3), (9, 0), (9, 0), (9, 2), (20, 2)]);
    }
}
