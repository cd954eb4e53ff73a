//! Merging a component's input FIFOs in arrival order during one batch.
//!
//! Each FIFO is sorted, so the next arrival is the smallest head. A switch port fed by 15 links
//! would scan 15 heads per cell; instead a small binary heap of (head time, input) is built at the
//! start of a batch and repaired after each pop (nothing else pushes to the inputs during a batch,
//! since components advance one at a time). Ties go to the lower input index, as a scan would.

use crate::cell::CellFifo;
use crate::time::{Time, NEVER};

#[derive(Debug, Default)]
pub struct InputMerge {
    heap: Vec<(Time, u32)>,
}

impl InputMerge {
    /// Start a batch: take the current head of every non-empty input.
    pub fn rebuild(&mut self, fifos: &[CellFifo], inputs: &[u32]) {
        self.heap.clear();
        for (i, &f) in inputs.iter().enumerate() {
            if let Some(t) = fifos[f as usize].head_time() {
                self.heap.push((t, i as u32));
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
            Some(&(t, i)) => (t, i as usize),
            None => (NEVER, 0),
        }
    }

    /// The head of the earliest input was just popped: look at its next cell.
    #[inline]
    pub fn popped(&mut self, fifos: &[CellFifo], inputs: &[u32]) {
        let i = self.heap[0].1;
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
            let c = if r < n && self.heap[r] < self.heap[l] {
                r
            } else {
                l
            };
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

    #[test]
    fn merges_sorted_fifos_in_time_then_input_order() {
        let times = [vec![5, 9, 9], vec![], vec![1, 9, 20], vec![7]];
        let mut fifos: Vec<CellFifo> = Vec::new();
        for ts in &times {
            let mut f = CellFifo::new(0);
            for &t in ts {
                f.push(
                    t,
                    Cell {
                        vc: 0,
                        frame: 0,
                        flags: 0,
                    },
                );
            }
            fifos.push(f);
        }
        let inputs = [0u32, 1, 2, 3];
        let mut m = InputMerge::default();
        m.rebuild(&fifos, &inputs);
        let mut out = Vec::new();
        loop {
            let (t, i) = m.peek();
            if t == NEVER {
                break;
            }
            fifos[inputs[i] as usize].pop();
            out.push((t, i));
            m.popped(&fifos, &inputs);
        }
        assert_eq!(
            out,
            vec![(1, 2), (5, 0), (7, 3), (9, 0), (9, 0), (9, 2), (20, 2)]
        );
    }
}
