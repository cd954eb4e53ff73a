//! VC labels local to a component, translated hop by hop as ATM switches translate VPI/VCI.
//!
//! A scenario's VCs have dense global indices (connections, then background sources), but a
//! port or host only ever sees the VCs routed through it. Sizing every per-VC table by the
//! global count made memory grow as the square of the network (every component times every
//! VC). Instead each component numbers the VCs crossing it `0..n` (its *labels*), and a cell
//! always carries the label of the component whose input FIFO or buffer holds it. A channel maps
//! the sender's label to the receiver's ([`Hop`]), one table lookup per hop, exactly where the
//! global routing table used to be read (ITU-T I.361 clause 2.2.3: the VPI/VCI field has local
//! significance on each link and is translated at every switch).
//!
//! Labels are assigned in increasing order of the global VC while the network is built, so a
//! component's label order is the global order: whatever iterates per-VC state in label order
//! (schedulers breaking ties, reports listing VCs) sees the VCs in the order it did before.

use crate::cell::VcId;

/// One component's labels: label -> global VC, ascending.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    vcs: Vec<VcId>,
}

impl Labels {
    /// The label of `vc` here, giving it the next one if it has none yet. VCs must be offered in
    /// non-decreasing order (the build walks them so), which keeps `vcs` sorted.
    pub fn assign(&mut self, vc: VcId) -> VcId {
        match self.vcs.last() {
            Some(&last) if last == vc => {}
            last => {
                debug_assert!(last.is_none_or(|&l| l < vc), "labels are assigned in VC order");
                self.vcs.push(vc);
            }
        }
        (self.vcs.len() - 1) as VcId
    }

    /// The label of global VC `vc` here, if it crosses this component (a binary search: set-up
    /// and report only, never per cell).
    pub fn local(&self, vc: usize) -> Option<usize> {
        self.vcs.binary_search_by_key(&vc, |&v| v as usize).ok()
    }

    /// The global VC behind `label`.
    #[inline]
    pub fn global(&self, label: VcId) -> VcId {
        self.vcs[label as usize]
    }

    /// Global VCs by label.
    pub fn vcs(&self) -> &[VcId] {
        &self.vcs
    }

    pub fn len(&self) -> usize {
        self.vcs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vcs.is_empty()
    }

    /// Labels `0..n` standing for global VCs `0..n` (unit tests of a single component).
    pub fn identity(n: usize) -> Self {
        Labels { vcs: (0..n as VcId).collect() }
    }
}

/// A channel's translation of one sender label: where the cell goes and what it is called there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hop {
    /// Input FIFO at the far end (`NO_ROUTE`: the far end does not carry this VC).
    pub fifo: u32,
    /// The receiver's label for the VC.
    pub label: VcId,
    /// The global VC (what captures record).
    pub vc: VcId,
}

/// No translation for this label (a VC a host receives but never sends).
pub const NO_HOP: Hop = Hop { fifo: super::NO_ROUTE, label: 0, vc: 0 };

/// A route sending every label `l < n` to `fifo` as label `l` (unit tests).
pub fn identity_route(n: usize, fifo: u32) -> Vec<Hop> {
    (0..n as VcId).map(|l| Hop { fifo, label: l, vc: l }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_global_order_and_repeat_for_the_same_vc() {
        let mut l = Labels::default();
        assert_eq!(l.assign(7), 0);
        assert_eq!(l.assign(7), 0, "data and ACKs of one VC share a label");
        assert_eq!(l.assign(40), 1);
        assert_eq!(l.assign(41), 2);
        assert_eq!((l.local(40), l.local(8), l.global(2)), (Some(1), None, 41));
        assert_eq!(l.vcs(), [7, 40, 41]);
    }
}
