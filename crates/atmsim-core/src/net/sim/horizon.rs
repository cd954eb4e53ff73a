//! How far a component popped at `t` may run: the earliest time a cell that is not yet in its
//! input FIFOs can arrive there (its *earliest input time*).
//!
//! Every future arrival at `c` is the end of a causal chain that starts at work some component
//! `w` already has pending (a cell in a FIFO, a timer, a queued cell), no earlier than `w`'s key,
//! and crosses one or more channels, each adding at least its latency (a component sends a cell
//! in a slot at or after the event that makes it send). So nothing new reaches `c` before
//!
//! ```text
//!     min over w of  key_w + d(w, c)
//! ```
//!
//! with `d(w, c)` the shortest latency sum over paths of at least one channel from `w` to `c`
//! (`c` itself included, by way of a loop). Every key is at least `t`, so a `w` with
//! `t + d(w, c)` at or past the best bound found cannot lower it: with the components near `c`
//! listed in order of distance, the scan stops at the first such one.
//!
//! The list of each component's nearest upstream components and their distances is computed once
//! when the network is built (a shortest-path search backwards from it) and kept to [`NEAR`]
//! entries; what lies beyond is covered by the distance of the first component left out
//! (`rest`). A component with more than [`MAX_FAN_IN`] inputs is not looked through (its own
//! inputs can bring it new work no earlier than `t` plus its smallest input latency, which is
//! taken as a bound for everything behind it), and such a component runs ahead by its plain
//! lookahead: a scan per batch over many inputs would cost more than it saves.
//!
//! A list reads a group of components the scheduler keeps side by side (`layout.rs`: in the
//! N-source networks, the N sources, their N access ports, ...) as one entry, the tree node
//! over the group's block, whose key is the smallest of the members', at the nearest member's
//! distance: a lower bound of each member's term, and so still a safe bound, lower than the
//! members' own by at most the spread of their distances ([`SPREAD`]). On the LAN 15 case each
//! list is four entries instead of 32.
//!
//! On the 1 us links of the LAN bench cases this looks four hops back (a destination host
//! receiving data is what bounds the bottleneck port: it may answer any cell with an ACK),
//! where the one-hop bound (the senders' keys, and `t` plus the senders' lookahead) saw two.
//!
//! A key says when a component next has work, not when it next sends. For a component with one
//! input whose sender is a port (its *gate*) the sender's output says more: a committing port
//! has put its whole backlog on the wire already, and any cell it has not sent yet leaves in a
//! slot at or after its clock's next free one (`Port::unsent_not_before`), so nothing new
//! reaches the component before that plus the input's latency, however early the keys behind
//! the port are. The bound is the later of the two. On the LAN the destination ports then run
//! through the bottleneck's committed queue (175 cells on average in LAN 5) in one batch where
//! the scan stopped them one hop past the bottleneck's next arrival, and the hosts behind them
//! follow: 36 % (LAN 5) and 45 % (LAN 15) fewer batches.
//!
//! The same holds for a port farther up with several inputs (`Horizons::lift`): cells it has
//! sent are in its receivers' FIFOs (their keys, nearer on the list, or `rest`), and any other
//! leaves it no earlier than its next unsent slot, so its term is the later of its key and that
//! slot, plus its distance. Each list reads its farthest such port so, taken off the scan: on
//! LAN 5 the bottleneck's own six-hop loop and the reverse path's bound through it, 12 % fewer
//! batches.

use super::layout::{Layout, List};
use crate::net::Sched;
use crate::time::{Time, NEVER};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

/// Components kept per list: 62 close the loops of the 15-source LAN case (the bottleneck's
/// list: 15 sources, the 15 ports back to them, the reverse trunk, 15 destinations, the 15
/// ports to them, itself), which the groups read in six entries. Cut at 32, the lists stopped
/// at four hops, and `rest` bound most batches there (LAN 15: 230,109 batches at 32, 192,568
/// at 64).
pub const NEAR: usize = 64;

/// A group of alike components is one entry of a list when its members' distances differ by at
/// most the nearest's `>> SPREAD` (1/4096: under a nanosecond on the LAN's 3.7 us hops, against
/// tens of picoseconds of clock drift between alike links): the bound is then lower than the
/// members' own by at most that.
pub const SPREAD: u32 = 12;

/// Components with more inputs than this are not looked through, and run ahead by their plain
/// lookahead themselves.
pub const MAX_FAN_IN: usize = 16;

/// A component near another, upstream, or a group of them (`layout.rs`): its node in the
/// scheduler's tree (`Sched::tree`: its key, or the group's smallest, is one load, with no index
/// arithmetic in the scan) and the latency of the shortest path from it (the nearest member's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Near {
    leaf: u32,
    dist: Time,
}

/// What a scan for one component reads besides the list: one record, one load per batch.
#[derive(Debug, Clone, Copy, Default)]
struct Each {
    /// How far it runs ahead without looking upstream (its smallest input latency, or
    /// `SOURCE_AHEAD` without inputs).
    lookahead: Time,
    /// No component left out of its list is nearer than this (`NEVER`: none).
    rest: Time,
    /// Its list in `near` (`start..end`; empty: the plain lookahead).
    start: u32,
    end: u32,
    /// The component (in `at_slot`, which is indexed by the scheduler's slots).
    comp: u32,
    /// Where the list of the inputs it feeds that are to be marked after its batches (a port's)
    /// starts (`Sim`'s, kept here to be read with the rest; [`NO_FEED`]: none).
    feed: u32,
    /// Its one input's sender, if that is a port ([`NO_GATE`]: not so): nothing new reaches it
    /// before that port's next unsent cell can leave, plus the input's latency (`Sim`).
    gate: u32,
    /// Up to [`LIFTS`] ports of several inputs taken off its list (`Horizons::lift`), each read
    /// as its own term: the later of its key and its next unsent slot, plus the distance.
    lifts: [Lift; LIFTS],
}

/// A port taken off a list (`Each::lifts`; `port` [`NO_GATE`]: none).
#[derive(Debug, Clone, Copy)]
struct Lift {
    port: u32,
    leaf: u32,
    dist: Time,
}

impl Default for Lift {
    fn default() -> Self {
        Lift { port: NO_GATE, leaf: 0, dist: NEVER }
    }
}

/// Ports taken off each list at most. Two (both LAN trunk ports) cost more per batch on LAN 15
/// than they saved: LAN 5 -6.8 M, LAN 15 +5.8 M instructions, against one: -10.5 M, +2.7 M.
pub const LIFTS: usize = 1;

/// "Not one input from a port" (`Each::gate`).
pub const NO_GATE: u32 = u32::MAX;

/// "Feeds no input that is marked" (`Each::feed`).
pub const NO_FEED: u32 = u32::MAX;

#[derive(Debug, Default, Clone)]
pub struct Horizons {
    /// Per component.
    each: Vec<Each>,
    /// The same records per scheduler slot (padding: no list, never read): the scheduler names
    /// a slot, and one load gives the component and what its scan reads.
    at_slot: Vec<Each>,
    /// Every component's nearest upstream components, in order of distance, one list after the
    /// other.
    near: Vec<Near>,
    /// The length of the scheduler's tree for these components: every leaf in `near` is below.
    tree_len: usize,
}

impl Horizons {
    /// `lookahead[c]`: how far `c` may run on its own; `upstream[c]`: the sender and latency of
    /// each input FIFO of `c`. `refine`: look upstream at all (otherwise every component runs
    /// by its lookahead, the reference schedule).
    /// Returns the tables and where the scheduler is to keep each component's key (the lists
    /// name its tree nodes).
    pub fn new(lookahead: Vec<Time>, upstream: &[Vec<(u32, Time)>], refine: bool) -> (Self, Layout) {
        Horizons::build(lookahead, upstream, refine, refine)
    }

    /// `new`; `group`: lay the scheduler out by groups (otherwise in component order, every
    /// entry one component).
    fn build(
        lookahead: Vec<Time>,
        upstream: &[Vec<(u32, Time)>],
        refine: bool,
        group: bool,
    ) -> (Self, Layout) {
        let n = lookahead.len();
        let each = lookahead
            .iter()
            .map(|&lookahead| Each {
                lookahead,
                rest: NEVER,
                start: 0,
                end: 0,
                comp: 0,
                feed: NO_FEED,
                gate: NO_GATE,
                lifts: [Lift::default(); LIFTS],
            })
            .collect();
        let mut h = Horizons { each, at_slot: Vec::new(), near: Vec::new(), tree_len: 0 };
        // Every component's list (flat, `span[c]` in `all`), then the groups they meet, then the
        // lists with each whole group as one entry.
        let (mut all, mut span) = (Vec::new(), vec![(0, 0, false); n]);
        let mut queue = BinaryHeap::new();
        let mut seen = vec![u32::MAX; n];
        for c in 0..n {
            if refine && (1..=MAX_FAN_IN).contains(&upstream[c].len()) {
                let start = all.len();
                let (rest, cut) = h.search(c, upstream, &mut all, &mut queue, &mut seen);
                h.each[c].rest = rest;
                span[c] = (start, all.len(), cut);
            }
        }
        let layout = if group {
            let lists: Vec<List> = span.iter().map(|&(a, b, cut)| List { near: &all[a..b], cut }).collect();
            Layout::grouped(n, &lists)
        } else {
            Layout::identity(n)
        };
        h.tree_len = 2 * layout.leaves;
        for (c, &(a, b, _)) in span.iter().enumerate() {
            h.each[c].start = h.near.len() as u32;
            h.push_grouped(&all[a..b], &layout);
            h.each[c].end = h.near.len() as u32;
            h.each[c].comp = c as u32;
        }
        h.at_slot = vec![Each::default(); layout.leaves];
        for (c, &s) in layout.slot.iter().enumerate() {
            h.at_slot[s as usize] = h.each[c];
        }
        (h, layout)
    }

    /// Append the components nearest to `c` upstream to `list`, in order of distance, at most
    /// [`NEAR`]; returns the bound for the rest, and whether the list was cut at `NEAR`.
    fn search(
        &self,
        c: usize,
        upstream: &[Vec<(u32, Time)>],
        list: &mut Vec<(u32, Time)>,
        queue: &mut BinaryHeap<Reverse<(Time, u32)>>,
        seen: &mut [u32],
    ) -> (Time, bool) {
        queue.clear();
        queue.extend(upstream[c].iter().map(|&(u, latency)| Reverse((latency, u))));
        let (mut rest, mut kept) = (NEVER, 0);
        while let Some(Reverse((dist, u))) = queue.pop() {
            let ui = u as usize;
            if seen[ui] == c as u32 {
                continue;
            }
            if kept == NEAR {
                // Popped in order of distance: no component left is nearer.
                return (rest.min(dist), true);
            }
            seen[ui] = c as u32;
            list.push((u, dist));
            kept += 1;
            let inputs = &upstream[ui];
            if inputs.len() > MAX_FAN_IN {
                // New work reaches `u` no earlier than `t + L_u`.
                rest = rest.min(dist.saturating_add(self.each[ui].lookahead));
                continue;
            }
            for &(w, latency) in inputs {
                if seen[w as usize] != c as u32 {
                    queue.push(Reverse((dist.saturating_add(latency), w)));
                }
            }
        }
        (rest, false)
    }

    /// Append `list` (components and distances, in order of distance) to `near`, a group
    /// (`layout.rs`) as one entry, its block's node at the nearest member's distance, when all
    /// its members are on the list within [`SPREAD`] of each other: the node's key is the
    /// smallest of theirs, so the entry bounds each member's term.
    fn push_grouped(&mut self, list: &[(u32, Time)], layout: &Layout) {
        // Per group on the list: members seen, nearest and farthest distance.
        let mut on: BTreeMap<u32, (usize, Time, Time)> = BTreeMap::new();
        for &(u, dist) in list {
            let e = on.entry(layout.group[u as usize]).or_insert((0, dist, dist));
            e.0 += 1;
            e.2 = dist;
        }
        let mut done = BTreeSet::new();
        for &(u, dist) in list {
            let g = layout.group[u as usize];
            let (count, first, last) = on[&g];
            let group = &layout.groups[g as usize];
            if count > 1 && count == group.members.len() && last - first <= first >> SPREAD {
                if done.insert(g) {
                    self.near.push(Near { leaf: group.node, dist });
                }
            } else {
                self.near
                    .push(Near { leaf: (layout.leaves + layout.slot[u as usize] as usize) as u32, dist });
            }
        }
    }

    /// How far the component at scheduler slot `s`, popped at `t` (the earliest key of all),
    /// may run: its earliest input time, at least `t` plus its lookahead; the component, and
    /// its feed list (`set_feed`).
    /// `unsent_not_before(g)`: no cell not yet sent by port `g` leaves it before this (the
    /// gates', `set_gate`).
    #[inline(always)]
    pub fn at_slot(
        &self,
        s: usize,
        t: Time,
        sched: &Sched,
        unsent_not_before: impl Fn(u32) -> Time,
    ) -> (Time, u32, u32) {
        let e = self.at_slot[s];
        let mut bound = self.bound(e, t, sched, &unsent_not_before);
        if e.gate != NO_GATE {
            // Every new arrival at the component is a cell its one input's sender has not sent
            // yet: it leaves that port no earlier than its next unsent slot, and arrives the
            // input's latency (the component's lookahead) later.
            bound = bound.max(unsent_not_before(e.gate).saturating_add(e.lookahead));
        }
        (bound, e.comp, e.feed)
    }

    /// The component at slot `s` has its feed list at `feed` (returned by `at_slot`).
    pub fn set_feed(&mut self, s: usize, feed: u32) {
        self.at_slot[s].feed = feed;
    }

    /// The component at slot `s` has one input, and its sender is port `gate`.
    pub fn set_gate(&mut self, s: usize, gate: u32) {
        self.at_slot[s].gate = gate;
    }

    /// Take up to [`LIFTS`] ports off every list, the farthest single entries (not groups) that
    /// name a component `liftable` says is a port with several inputs (`slot_comp`: the
    /// component at each scheduler slot): each is then read as its own term, the later of its
    /// key and `unsent_not_before` of it, plus its distance. Sound for any port whose
    /// `unsent_not_before` is a bound on every cell it has not sent yet (0 for any other): new
    /// work that passes through the port leaves it no earlier, and the cells it has sent are
    /// in its receivers' FIFOs, covered by their own keys (nearer on the list, or in `rest`).
    /// The gate bounds a one-input component by its sender this way already; this is for the
    /// ports farther up, where a queue's backlog (the LAN bottleneck's, 175 cells on average
    /// in LAN 5) says more than its next arrival. A lifted list is a copy; `each` (the
    /// tests' bound without gates) keeps the full one.
    pub fn lift(&mut self, slot_comp: &[u32], leaves: usize, liftable: impl Fn(u32) -> bool) {
        for s in 0..self.at_slot.len() {
            let e = self.at_slot[s];
            if e.start == e.end {
                continue;
            }
            let start = self.near.len();
            let list = e.start as usize..e.end as usize;
            // The farthest port: on the LAN the bottleneck for the reverse path's lists and its
            // own (its six-hop loop), the reverse trunk for its own; the nearer one bounds
            // through its next arrival, or is a gated component's sender already.
            let mut lifted = [usize::MAX; LIFTS];
            let mut kept = 0;
            for i in list.clone().rev() {
                let leaf = self.near[i].leaf as usize;
                if kept < LIFTS && leaf >= leaves && liftable(slot_comp[leaf - leaves]) {
                    let n = self.near[i];
                    self.at_slot[s].lifts[kept] =
                        Lift { port: slot_comp[leaf - leaves], leaf: n.leaf, dist: n.dist };
                    lifted[kept] = i;
                    kept += 1;
                }
            }
            for i in list {
                if !lifted.contains(&i) {
                    let n = self.near[i];
                    self.near.push(n);
                }
            }
            if kept == 0 || self.near.len() == start {
                // Nothing to lift, or nothing left to scan: the list as it was.
                self.near.truncate(start);
                self.at_slot[s].lifts = [Lift::default(); LIFTS];
            } else {
                self.at_slot[s].start = start as u32;
                self.at_slot[s].end = self.near.len() as u32;
            }
        }
    }

    /// No component gated (tests: the horizons without gates).
    #[cfg(test)]
    pub fn clear_gates(&mut self) {
        for e in self.at_slot.iter_mut() {
            e.gate = NO_GATE;
        }
    }

    /// [`Horizons::at_slot`] by component, without gates or lifts.
    #[cfg(test)]
    fn of(&self, c: usize, t: Time, sched: &Sched) -> Time {
        self.bound(self.each[c], t, sched, &|_| 0)
    }

    #[inline(always)]
    fn bound(
        &self,
        Each { lookahead, rest, start, end, lifts, .. }: Each,
        t: Time,
        sched: &Sched,
        unsent_not_before: &impl Fn(u32) -> Time,
    ) -> Time {
        let plain = t.saturating_add(lookahead);
        if start == end {
            return plain;
        }
        // Distances from `t`: every key is at least `t`, and `room` is the bound found so far.
        let mut room = rest;
        let tree = sched.tree();
        assert_eq!(tree.len(), self.tree_len, "the scheduler of these components");
        for n in &self.near[start as usize..end as usize] {
            if n.dist >= room {
                break;
            }
            // SAFETY: `n.leaf` is a node of the laid-out tree (`build`): a component's leaf
            // `leaves + slot` with `slot < leaves`, or a group's node, `(leaves + at) / size`
            // with `at + size <= leaves` (`layout.rs`); both below `2 * leaves == tree_len ==
            // tree.len()` (asserted above).
            let key = unsafe { *tree.get_unchecked(n.leaf as usize) };
            // Below `room - dist` only when finite: no overflow in the sum.
            let k = key - t;
            if k < room - n.dist {
                room = k + n.dist;
            }
        }
        for l in &lifts {
            // The port's key first (one load): its next unsent slot is read only where the key
            // alone would lower the bound (a port's key is at least `t`, so is the later). No
            // lift is at `NEVER`, never below `room`.
            if l.dist < room {
                let k = tree[l.leaf as usize] - t;
                if k < room - l.dist {
                    let k = k.max(unsent_not_before(l.port).saturating_sub(t));
                    if k < room - l.dist {
                        room = k + l.dist;
                    }
                }
            }
        }
        t.saturating_add(room).max(plain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The earliest input time by brute force: relax `out_u = min(key_u, in_u)`,
    /// `in_c = min over inputs (out_u + latency)` to the fixed point.
    fn brute(keys: &[Time], upstream: &[Vec<(u32, Time)>]) -> Vec<Time> {
        let mut input = vec![NEVER; keys.len()];
        loop {
            let mut changed = false;
            for c in 0..keys.len() {
                for &(u, latency) in &upstream[c] {
                    let out = keys[u as usize].min(input[u as usize]);
                    let v = out.saturating_add(latency);
                    if v < input[c] {
                        input[c] = v;
                        changed = true;
                    }
                }
            }
            if !changed {
                return input;
            }
        }
    }

    fn rng(x: &mut u64) -> u64 {
        *x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *x >> 33
    }

    #[test]
    fn bounds_are_safe_and_exact_when_nothing_is_cut() {
        // Random graphs (loops, fan-in above the limit, components without inputs), random keys;
        // `t` is the smallest key, as when the scheduler pops a component.
        let mut x = 7;
        let (mut exact_checked, mut beyond_one_hop) = (0, 0);
        for round in 0..300 {
            let n = 2 + (rng(&mut x) % 40) as usize;
            let mut upstream = vec![Vec::new(); n];
            for inputs in upstream.iter_mut() {
                let fan_in = match rng(&mut x) % 10 {
                    0 => 0,
                    1 => 17 + (rng(&mut x) % 4) as usize,
                    _ => 1 + (rng(&mut x) % 3) as usize,
                };
                for _ in 0..fan_in {
                    inputs.push(((rng(&mut x) % n as u64) as u32, 1 + rng(&mut x) % 50));
                }
            }
            let lookahead: Vec<Time> =
                upstream.iter().map(|u| u.iter().map(|&(_, l)| l).min().unwrap_or(1000)).collect();
            let (h, layout) = Horizons::new(lookahead.clone(), &upstream, true);
            let mut sched = Sched::new(layout.leaves);
            let mut keys = vec![NEVER; n];
            for (c, k) in keys.iter_mut().enumerate() {
                if !rng(&mut x).is_multiple_of(4) {
                    *k = 100 + rng(&mut x) % 200;
                    sched.set(layout.slot[c], *k);
                }
            }
            let Some((t, _)) = sched.first_before(NEVER) else { continue };
            let exact = brute(&keys, &upstream);
            let (plain, _) = Horizons::new(lookahead.clone(), &upstream, false);
            for c in 0..n {
                let got = h.of(c, t, &sched);
                assert_eq!(plain.of(c, t, &sched), t + lookahead[c], "reference: the plain bound");
                if upstream[c].is_empty() || upstream[c].len() > MAX_FAN_IN {
                    assert_eq!(got, t + lookahead[c], "round {round} component {c}");
                    continue;
                }
                // Safe: never past the earliest input time (nor short of the plain bound).
                let want = exact[c].max(t + lookahead[c]);
                assert!(got <= want, "round {round} component {c}: {got} > {want}");
                assert!(got >= t + lookahead[c]);
                // Exact when the search saw every component upstream and looked through each
                // (then `rest` is `NEVER`; groups then join only equal distances here: every
                // latency is below 4096, the spread of distances a group may have is 0).
                if h.each[c].rest != NEVER {
                    continue;
                }
                // Exact when the search saw every component upstream and looked through each,
                // and then never short of the one-hop bound (the senders' keys, or `t` plus
                // their lookahead).
                assert_eq!(got, want, "round {round} component {c}");
                exact_checked += 1;
                let one_hop = upstream[c]
                    .iter()
                    .map(|&(u, l)| keys[u as usize].min(t + lookahead[u as usize]).saturating_add(l))
                    .min()
                    .unwrap();
                assert!(got >= one_hop.max(t + lookahead[c]), "round {round} component {c}");
                beyond_one_hop += usize::from(got > one_hop.max(t + lookahead[c]));
            }
        }
        assert!(exact_checked > 1000 && beyond_one_hop > 1000, "{exact_checked} {beyond_one_hop}");
    }

    #[test]
    fn a_loop_of_idle_components_bounds_by_its_own_length() {
        // 0 -> 1 -> 2 -> 0, latency 10 each: only 0 has work (at 5), so 1 hears nothing before
        // 15, 2 before 25, and 0 itself before 35.
        let upstream = vec![vec![(2, 10)], vec![(0, 10)], vec![(1, 10)]];
        let (h, layout) = Horizons::new(vec![10; 3], &upstream, true);
        let mut sched = Sched::new(layout.leaves);
        sched.set(layout.slot[0], 5);
        assert_eq!(h.of(0, 5, &sched), 35);
        assert_eq!(h.of(1, 5, &sched), 15);
        assert_eq!(h.of(2, 5, &sched), 25);
    }

    /// A toy network run by the scheduler: an event at `x` may send to each receiver (after
    /// the channel latency and a random delay) or set a timer of its own. Every cell must
    /// arrive at or after the horizon its receiver has already run to. Returns the cells sent.
    fn run_toy(upstream: &[Vec<(u32, Time)>], lookahead: Vec<Time>, x: &mut u64) -> usize {
        run_toy_slotted(upstream, lookahead, None, false, x).0
    }

    /// `run_toy`; with `slot`, each component sends on one link of that slot time, first come
    /// first served (a cell leaves at its event or the link's next free slot, whichever is
    /// later), and a component with one input is gated by its sender's next free slot
    /// (`Each::gate`); with `lift`, the components with several inputs are lifted
    /// (`Horizons::lift`). Returns the cells sent and the batches the gate lengthened (with
    /// `lift`: the batches the lifts lengthened).
    fn run_toy_slotted(
        upstream: &[Vec<(u32, Time)>],
        lookahead: Vec<Time>,
        slot: Option<Time>,
        lift: bool,
        x: &mut u64,
    ) -> (usize, usize) {
        let n = upstream.len();
        let mut downstream = vec![Vec::new(); n];
        for (c, inputs) in upstream.iter().enumerate() {
            for &(u, latency) in inputs {
                downstream[u as usize].push((c, latency));
            }
        }
        let span = 100 * lookahead.iter().copied().filter(|&l| l != NEVER).min().unwrap_or(20);
        let (mut h, layout) = Horizons::new(lookahead, upstream, true);
        if slot.is_some() {
            for (c, inputs) in upstream.iter().enumerate() {
                if let [(sender, _)] = inputs[..] {
                    h.set_gate(layout.slot[c] as usize, sender);
                }
            }
        }
        // With `lift`, a batch counts as lengthened against the same horizons without lifts.
        let unlifted = lift.then(|| h.clone());
        if lift {
            let mut slot_comp = vec![0; layout.leaves];
            for (c, &s) in layout.slot.iter().enumerate() {
                slot_comp[s as usize] = c as u32;
            }
            h.lift(&slot_comp, layout.leaves, |c| upstream[c as usize].len() > 1);
        }
        let mut sched = Sched::new(layout.leaves);
        let mut comp_at = vec![0; layout.leaves];
        for (c, &s) in layout.slot.iter().enumerate() {
            comp_at[s as usize] = c;
        }
        let mut pending: Vec<BinaryHeap<Reverse<Time>>> = vec![BinaryHeap::new(); n];
        for (c, p) in pending.iter_mut().enumerate() {
            for _ in 0..rng(x) % 30 {
                let t = rng(x) % (span * 3 / 4);
                p.push(Reverse(t));
                sched.wake(layout.slot[c], t);
            }
        }
        let mut ran_to = vec![0; n];
        let mut free = vec![0; n];
        let (mut sent, mut lengthened) = (0, 0);
        while let Some((t, s)) = sched.first_before(span) {
            let c = comp_at[s as usize];
            let (horizon, comp, _) = h.at_slot(s as usize, t, &sched, |g| free[g as usize]);
            assert_eq!(comp as usize, c);
            assert!(horizon > t);
            let before = match &unlifted {
                Some(u) => u.at_slot(s as usize, t, &sched, |g| free[g as usize]).0,
                None => h.of(c, t, &sched),
            };
            assert!(horizon >= before, "a lift never shortens a batch");
            lengthened += usize::from(horizon > before);
            while let Some(&Reverse(e)) = pending[c].peek() {
                if e >= horizon {
                    break;
                }
                pending[c].pop();
                // One cell to one receiver, or a timer, or nothing: the work dies out.
                let r = rng(x) % 10;
                if r < 6 && !downstream[c].is_empty() {
                    let (d, latency) = downstream[c][(rng(x) % downstream[c].len() as u64) as usize];
                    let leaves = match slot {
                        Some(slot) => {
                            let at = e.max(free[c]);
                            free[c] = at + slot;
                            at
                        }
                        None => e,
                    };
                    let at = leaves + latency + rng(x) % 4;
                    assert!(at >= ran_to[d], "{at} reaches {d}, which ran to {}", ran_to[d]);
                    pending[d].push(Reverse(at));
                    sched.wake(layout.slot[d], at);
                    sent += 1;
                } else if r < 9 {
                    pending[c].push(Reverse(e + rng(x) % (span / 50)));
                }
            }
            ran_to[c] = horizon;
            let next = pending[c].peek().map_or(NEVER, |r| r.0);
            sched.set_first(s, next);
        }
        (sent, lengthened)
    }

    /// `run_toy_slotted` on 60 random graphs whose components' fan-in is `fan_in(a draw)`, each
    /// sending on a link of 3 to 10 ps a cell: the cells sent and the batches lengthened.
    fn random_slotted(seed: u64, fan_in: fn(u64) -> usize, lift: bool) -> (usize, usize) {
        let mut x = seed;
        let (mut sent, mut lengthened) = (0, 0);
        for _ in 0..60 {
            let n = 2 + (rng(&mut x) % 24) as usize;
            let mut upstream = vec![Vec::new(); n];
            for inputs in upstream.iter_mut() {
                for _ in 0..fan_in(rng(&mut x) % 8) {
                    inputs.push(((rng(&mut x) % n as u64) as u32, 1 + rng(&mut x) % 20));
                }
            }
            let lookahead: Vec<Time> =
                upstream.iter().map(|u| u.iter().map(|&(_, l)| l).min().unwrap_or(30)).collect();
            let (s, l) = run_toy_slotted(&upstream, lookahead, Some(3 + rng(&mut x) % 8), lift, &mut x);
            sent += s;
            lengthened += l;
        }
        (sent, lengthened)
    }

    #[test]
    fn a_port_gate_lengthens_batches_and_nothing_arrives_before_a_horizon_run_to() {
        // Most components with one input; each sends first come first served on a link slower
        // than the events come, so backlogs build and the gate matters.
        let (sent, lengthened) = random_slotted(23, |r| [0, 2, 1, 1, 1, 1, 1, 1][r as usize], false);
        assert!(sent > 10_000 && lengthened > 1000, "{sent} {lengthened}");
    }

    #[test]
    fn lifted_ports_lengthen_batches_and_nothing_arrives_before_a_horizon_run_to() {
        // Most components with two or three inputs (no gate): a backlog's next unsent slot
        // bounds more than the key of a port of several inputs.
        let (sent, lengthened) = random_slotted(29, |r| [0, 1, 3, 3, 2, 2, 2, 2][r as usize], true);
        assert!(sent > 10_000 && lengthened > 100, "{sent} {lengthened}");
    }

    #[test]
    fn no_component_receives_work_before_the_horizon_it_ran_to() {
        let mut x = 11;
        let mut sent = 0;
        for _ in 0..40 {
            let n = 2 + (rng(&mut x) % 24) as usize;
            let mut upstream = vec![Vec::new(); n];
            for inputs in upstream.iter_mut() {
                let fan_in = if rng(&mut x).is_multiple_of(8) { 0 } else { 1 + (rng(&mut x) % 3) as usize };
                for _ in 0..fan_in {
                    inputs.push(((rng(&mut x) % n as u64) as u32, 1 + rng(&mut x) % 20));
                }
            }
            let lookahead: Vec<Time> =
                upstream.iter().map(|u| u.iter().map(|&(_, l)| l).min().unwrap_or(30)).collect();
            sent += run_toy(&upstream, lookahead, &mut x);
        }
        assert!(sent > 10_000, "{sent}");
    }

    /// The N-source loop of the bench networks: sources `S_i`, their access ports `A_i`, the
    /// bottleneck `B` (N inputs), destination ports `P_i`, destinations `D_i`, the reverse
    /// trunk `R` (N inputs), and the ports `K_i` back to the sources; each channel `lat`
    /// plus a few units of drift. Returns each component's inputs.
    fn loop_network(n: u32, lat: Time) -> Vec<Vec<(u32, Time)>> {
        // Components: S 0..n, A n..2n, B 2n, P 2n+1.., D 3n+1.., R 4n+1, K 4n+2..
        let (s, a, b, p, d, r, k) = (0, n, 2 * n, 2 * n + 1, 3 * n + 1, 4 * n + 1, 4 * n + 2);
        let mut upstream = vec![Vec::new(); (5 * n + 2) as usize];
        let drift = |i: u32, j: u32| lat + u64::from((i * 7 + j * 3) % 11);
        for i in 0..n {
            upstream[(a + i) as usize].push((s + i, drift(i, 0)));
            upstream[b as usize].push((a + i, drift(i, 1)));
            upstream[(p + i) as usize].push((b, drift(i, 2)));
            upstream[(d + i) as usize].push((p + i, drift(i, 3)));
            upstream[r as usize].push((d + i, drift(i, 4)));
            upstream[(k + i) as usize].push((r, drift(i, 5)));
            upstream[(s + i) as usize].push((k + i, drift(i, 6)));
        }
        upstream
    }

    #[test]
    fn a_group_bounds_each_member_and_shortens_the_lists() {
        let mut x = 5;
        for n in [3u32, 5, 15] {
            let upstream = loop_network(n, 1_000_000);
            let m = upstream.len();
            let lookahead: Vec<Time> =
                upstream.iter().map(|u| u.iter().map(|&(_, l)| l).min().unwrap_or(NEVER)).collect();
            let (one, _) = Horizons::build(lookahead.clone(), &upstream, true, false);
            let (grouped, layout) = Horizons::new(lookahead.clone(), &upstream, true);
            assert!(
                grouped.near.len() * 2 < one.near.len(),
                "N = {n}: {} entries grouped, {} one by one",
                grouped.near.len(),
                one.near.len()
            );
            for _ in 0..200 {
                let (mut s1, mut sg) = (Sched::new(m), Sched::new(layout.leaves));
                let mut keys = vec![NEVER; m];
                for (c, k) in keys.iter_mut().enumerate() {
                    if !rng(&mut x).is_multiple_of(3) {
                        *k = 10_000_000 + rng(&mut x) % 20_000_000;
                        s1.set(c as u32, *k);
                        sg.set(layout.slot[c], *k);
                    }
                }
                let Some((t, _)) = s1.first_before(NEVER) else { continue };
                assert_eq!(sg.first_before(NEVER).map(|f| f.0), Some(t));
                let exact = brute(&keys, &upstream);
                for c in 0..m {
                    let (a, g) = (one.of(c, t, &s1), grouped.of(c, t, &sg));
                    assert!(g <= exact[c].max(t + lookahead[c]), "N = {n}, {c}: past the earliest input");
                    // Lower than one by one only by the spread of a group's distances.
                    assert!(g <= a && a - g <= 60, "N = {n}, {c}: {g} against {a}");
                }
            }
            // And run: nothing arrives before a horizon already run to.
            let lookahead: Vec<Time> =
                lookahead.iter().map(|&l| if l == NEVER { 1_000_000 } else { l }).collect();
            assert!(run_toy(&upstream, lookahead, &mut x) > 1000);
        }
    }
}
