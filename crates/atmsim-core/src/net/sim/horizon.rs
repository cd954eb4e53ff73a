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
//! when the network is built (a shortest-path search backwards from it; a component with one
//! input takes its sender's list, every distance farther by the input's latency) and kept to
//! [`NEAR`] entries; what lies beyond is covered by the distance of the first component left out
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
//! The same holds for a port farther up, and for every entry whose paths to the component all
//! pass through it (`Horizons::levels`): whatever such an entry's pending work causes passes the
//! port as a cell it has not sent yet, so it leaves no earlier than the port's next unsent slot,
//! and arrives no earlier than that plus the port's distance. The port's own term is the same:
//! the cells it has sent are in its receivers' FIFOs (their keys, nearer on the list, or
//! `rest`). A list is therefore read in levels: the entries that do not pass a chosen port, then
//! the port and those behind it, skipped whole when its next unsent slot alone puts them past
//! the bound found, floored by that slot otherwise. On the LAN the bottleneck is such a port
//! for every list on the reverse path and its own: a source's own cells, the ACKs of its
//! destination, queue behind the bottleneck's backlog (175 cells on average in LAN 5, 478 us)
//! before they can come back. With the bottleneck backlogged the reverse path runs ahead by
//! the backlog and the bottleneck follows the sources, not its own loop: LAN 5 209,200 batches
//! -> 94,202, LAN 15 192,568 -> 54,800.

use super::dominators::Dominators;
use super::layout::{Layout, List};
use crate::net::Sched;
use crate::time::{Time, NEVER};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
    /// Where its levels start in `levels` (`Horizons::levels`): the list is read as sublists,
    /// each after the first reaching the component only through a port whose next unsent slot
    /// floors its terms; the last level (a sentinel) ends the list.
    levels: u32,
}

/// A sublist of a list (`Each::levels`): it ends at `to` in `near`; every entry after it
/// reaches the component only through port `port`, at distance `dist` from there, so no nearer
/// (`port` [`NO_GATE`], `dist` `NEVER`: the list ends here).
#[derive(Debug, Clone, Copy)]
struct Level {
    port: u32,
    to: u32,
    dist: Time,
}

/// Where a component's list is in the flat list of all (`start..end`), and whether it was cut at
/// [`NEAR`] (`Horizons::lists`).
type Span = (usize, usize, bool);

/// Levels kept per list at most (the sentinel not counted).
pub const LEVELS: usize = 2;

/// How many components the walk upstream from a component that finds its dominators
/// (`dominators.rs`) visits at most before it gives up (then each port floors only its own
/// entry): it bounds the set-up's cost on large networks, where the walks give up (the
/// 15-source bench cases have 77 components; `wan5.toml` with 500 sources took 83.7 M
/// instructions to set up before the levels, 132.6 M with a budget of `8 * NEAR`, 97.2 M with
/// `2 * NEAR`).
pub const DOMINANCE_BUDGET: usize = 2 * NEAR;

/// How many one-input senders back from a component its dominators are read from another's
/// walk at most (`Horizons::levels_within`): a line of such components shares walks by this
/// many, at a cost per list of this many steps.
pub const CHAIN: usize = 16;

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
    /// Every list's levels (`Each::levels`), one list's after the other's.
    levels: Vec<Level>,
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
                levels: 0,
            })
            .collect();
        let mut h = Horizons { each, at_slot: Vec::new(), near: Vec::new(), levels: Vec::new(), tree_len: 0 };
        // Every component's list (flat, `span[c]` in `all`), then the groups they meet, then the
        // lists with each whole group as one entry.
        let (all, span) = h.lists(upstream, refine, true);
        let layout = if group {
            let lists: Vec<List> = span.iter().map(|&(a, b, cut)| List { near: &all[a..b], cut }).collect();
            Layout::grouped(n, &lists)
        } else {
            Layout::identity(n)
        };
        h.tree_len = 2 * layout.leaves;
        // Per group, what `push_grouped` counts on one list, kept clear between lists.
        let mut on = vec![(0, 0, 0, false); layout.groups.len()];
        for (c, &(a, b, _)) in span.iter().enumerate() {
            h.each[c].start = h.near.len() as u32;
            h.push_grouped(&all[a..b], &layout, &mut on);
            h.each[c].end = h.near.len() as u32;
            h.each[c].comp = c as u32;
            h.each[c].levels = h.levels.len() as u32;
            h.levels.push(Level { port: NO_GATE, to: h.each[c].end, dist: NEVER });
        }
        h.at_slot = vec![Each::default(); layout.leaves];
        for (c, &s) in layout.slot.iter().enumerate() {
            h.at_slot[s as usize] = h.each[c];
        }
        h.check();
        (h, layout)
    }

    /// Every listed component's list (`span[c]`: `start..end` in `all`, and whether it was cut
    /// at [`NEAR`]), its `rest` written to its record. `derive`: a component with one input takes
    /// its sender's list shifted (`derive`) where that sender's is known, instead of searching.
    fn lists(
        &mut self,
        upstream: &[Vec<(u32, Time)>],
        refine: bool,
        derive: bool,
    ) -> (Vec<(u32, Time)>, Vec<Span>) {
        let n = upstream.len();
        let listed = |c: usize| refine && (1..=MAX_FAN_IN).contains(&upstream[c].len());
        let (mut all, mut span) = (Vec::new(), vec![(0, 0, false); n]);
        let mut queue = BinaryHeap::new();
        let (mut seen, mut pushed) = (vec![u32::MAX; n], vec![(u32::MAX, NEVER); n]);
        // `known[c]`: `span[c]` is written; `chain`: components to list, each the one sender of
        // the one before, listed last first so that each sender's list is known before its
        // receiver's (a ring of one-input components is searched once, where it closes).
        let (mut known, mut queued, mut chain) = (vec![false; n], vec![false; n], Vec::new());
        for c0 in 0..n {
            if !listed(c0) || queued[c0] {
                continue;
            }
            let mut x = c0;
            loop {
                chain.push(x);
                queued[x] = true;
                match upstream[x][..] {
                    [(u, _)] if derive && listed(u as usize) && !queued[u as usize] => x = u as usize,
                    _ => break,
                }
            }
            while let Some(c) = chain.pop() {
                let start = all.len();
                let derived = match upstream[c][..] {
                    [(u, latency)] if derive && known[u as usize] => {
                        self.derive(u, latency, span[u as usize], &mut all)
                    }
                    _ => None,
                };
                let (rest, cut) = derived.unwrap_or_else(|| {
                    self.search(c, upstream, &mut all, &mut queue, &mut seen, &mut pushed)
                });
                self.each[c].rest = rest;
                span[c] = (start, all.len(), cut);
                known[c] = true;
            }
        }
        (all, span)
    }

    /// The list of a component whose one input comes from `u` at `latency`, appended to `all`
    /// from `u`'s (`span`: where it is in `all`, and whether it was cut), with its `rest` and cut:
    /// what `search` would find. Its search pops `u` first (the only one queued), then goes on
    /// as `u`'s own search from `u`'s inputs, every distance `latency` farther, ties popped in
    /// the same order, except that `u` is not listed again: `u` at `latency`, then `u`'s list
    /// without `u`, kept to [`NEAR`]. `None` (nothing appended) where a distance would overflow
    /// (`search` saturates, and its order among saturated distances is its own).
    fn derive(
        &self,
        u: u32,
        latency: Time,
        (a, b, cut): Span,
        all: &mut Vec<(u32, Time)>,
    ) -> Option<(Time, bool)> {
        // In order of distance: no distance overflows if the last's does not.
        if all[a..b].last().is_some_and(|&(_, d)| d.checked_add(latency).is_none()) {
            return None;
        }
        let start = all.len();
        all.push((u, latency));
        for i in a..b {
            let (w, d) = all[i];
            if w != u {
                all.push((w, d + latency));
            }
        }
        if all.len() - start <= NEAR {
            // What `u`'s list kept and what it left out are the component's, farther by
            // `latency`: the same bound for the rest (`u` has a list, so it is not a term).
            return Some((self.each[u as usize].rest.saturating_add(latency), cut));
        }
        // One more than `NEAR` (`u`'s list held `NEAR` others): the last is the nearest left out.
        // The bound for the rest is its distance or a term of a kept entry not looked through,
        // which `u`'s rest (farther by `latency`) holds but for the last's own term and `u`'s
        // nearest left out, both no nearer than the last itself.
        let (_, next) = all.pop().expect("more than NEAR");
        Some((self.each[u as usize].rest.saturating_add(latency).min(next), true))
    }

    /// Panic unless every record's list can be scanned without bounds checks (`bound`): from
    /// its first level to a sentinel (distance `NEVER`), each level ends at most at the end of
    /// `near` and no earlier than where its sublist starts (the list's start, or the level
    /// before); and unless every component a record names (itself, its gate, its levels' ports)
    /// is one of the [`Horizons::components`], which the simulator's loop then indexes its
    /// components by without a check. Run whenever the lists change.
    fn check(&self) {
        let n = self.each.len();
        let named = |c: u32| (c as usize) < n;
        for e in self.each.iter().chain(&self.at_slot) {
            assert!(named(e.comp) && (e.gate == NO_GATE || named(e.gate)), "a component of these tables");
        }
        assert_eq!(self.at_slot.len() * 2, self.tree_len, "a record per leaf");
        for e in self.each.iter().chain(&self.at_slot).filter(|e| e.start != e.end) {
            let (mut from, mut at) = (e.start, e.levels as usize);
            loop {
                let level = self.levels[at];
                assert!(from <= level.to && level.to as usize <= self.near.len(), "a level within the list");
                if level.dist == NEVER {
                    break;
                }
                assert!(named(level.port), "a level's port of these tables");
                (from, at) = (level.to, at + 1);
            }
        }
    }

    /// Append the components nearest to `c` upstream to `list`, in order of distance, at most
    /// [`NEAR`]; returns the bound for the rest, and whether the list was cut at `NEAR`.
    /// `seen[u] == c`: `u` is on the list; `pushed[u]`: the least distance `u` is queued at in
    /// the search for `c`. A component is queued again only nearer: the first time it is popped
    /// is at its least distance either way, so the list and the cut are the same, and where
    /// paths meet (the bottleneck, queued once per destination port behind it) the queue stays
    /// short.
    fn search(
        &self,
        c: usize,
        upstream: &[Vec<(u32, Time)>],
        list: &mut Vec<(u32, Time)>,
        queue: &mut BinaryHeap<Reverse<u128>>,
        seen: &mut [u32],
        pushed: &mut [(u32, Time)],
    ) -> (Time, bool) {
        let stamp = c as u32;
        // A queued component as one number, `(distance, component)` in the same order: one
        // comparison per step of the heap's sifts.
        let mut push = |queue: &mut BinaryHeap<Reverse<u128>>, dist: Time, w: u32| {
            let p = &mut pushed[w as usize];
            if p.0 != stamp || dist < p.1 {
                *p = (stamp, dist);
                queue.push(Reverse(u128::from(dist) << 32 | u128::from(w)));
            }
        };
        queue.clear();
        for &(u, latency) in &upstream[c] {
            push(queue, latency, u);
        }
        let (mut rest, mut kept) = (NEVER, 0);
        while let Some(Reverse(q)) = queue.pop() {
            let (dist, u) = ((q >> 32) as Time, q as u32);
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
                    push(queue, dist.saturating_add(latency), w);
                }
            }
        }
        (rest, false)
    }

    /// Append `list` (components and distances, in order of distance) to `near`, a group
    /// (`layout.rs`) as one entry, its block's node at the nearest member's distance, when all
    /// its members are on the list within [`SPREAD`] of each other: the node's key is the
    /// smallest of theirs, so the entry bounds each member's term.
    fn push_grouped(&mut self, list: &[(u32, Time)], layout: &Layout, on: &mut [(usize, Time, Time, bool)]) {
        // Per group on the list (`on`, by group, all clear on entry and on return): members
        // seen, nearest and farthest distance, and whether its entry is pushed.
        for &(u, dist) in list {
            let e = &mut on[layout.group[u as usize] as usize];
            if e.0 == 0 {
                e.1 = dist;
            }
            e.0 += 1;
            e.2 = dist;
        }
        for &(u, dist) in list {
            let g = layout.group[u as usize] as usize;
            let (count, first, last, done) = on[g];
            let group = &layout.groups[g];
            if count > 1 && count == group.members.len() && last - first <= first >> SPREAD {
                if !done {
                    on[g].3 = true;
                    self.near.push(Near { leaf: group.node, dist });
                }
            } else {
                self.near
                    .push(Near { leaf: (layout.leaves + layout.slot[u as usize] as usize) as u32, dist });
            }
        }
        for &(u, _) in list {
            on[layout.group[u as usize] as usize] = (0, 0, 0, false);
        }
    }

    /// How far the component at scheduler slot `s`, popped at `t` (the earliest key of all),
    /// may run: its earliest input time, at least `t` plus its lookahead; the component, and
    /// its feed list (`set_feed`).
    /// `unsent_not_before(g)`: no cell not yet sent by port `g` leaves it before this (the
    /// gates', `set_gate`).
    /// (Tests: the simulator's loop makes the checks once and calls `at_slot_unchecked`.)
    #[cfg(test)]
    pub fn at_slot(
        &self,
        s: usize,
        t: Time,
        sched: &Sched,
        unsent_not_before: impl Fn(u32) -> Time,
    ) -> (Time, u32, u32) {
        assert!(
            s < self.at_slot.len() && sched.tree().len() == self.tree_len,
            "a slot of these tables' scheduler"
        );
        // SAFETY: asserted just above.
        unsafe { self.at_slot_unchecked(s, t, sched, unsent_not_before) }
    }

    /// `Horizons::at_slot` without its checks (the simulator's loop makes them once per batch,
    /// or once per run). The component it returns, and every one it passes to
    /// `unsent_not_before`, is below [`Horizons::components`] (`check`).
    ///
    /// # Safety
    /// `s < self.leaves()` and `sched.tree().len() == 2 * self.leaves()` (the scheduler these
    /// tables were laid out for).
    #[inline(always)]
    pub unsafe fn at_slot_unchecked(
        &self,
        s: usize,
        t: Time,
        sched: &Sched,
        unsent_not_before: impl Fn(u32) -> Time,
    ) -> (Time, u32, u32) {
        debug_assert!(s < self.at_slot.len() && sched.tree().len() == self.tree_len);
        // SAFETY: `s < leaves == at_slot.len()` (the caller; `check` asserts the length).
        let e = unsafe { *self.at_slot.get_unchecked(s) };
        // Every new arrival at a gated component is a cell its one input's sender has not sent
        // yet: it leaves that port no earlier than its next unsent slot, and arrives the input's
        // latency (the component's lookahead) later. The bound is the later of that and the
        // list's, so the scan may stop as soon as the list's is no later.
        let gate = if e.gate != NO_GATE { unsent_not_before(e.gate).saturating_add(e.lookahead) } else { 0 };
        // SAFETY: the scheduler's tree is as long as these tables' (the caller).
        let bound = unsafe { self.bound(e, t, gate, sched, &unsent_not_before) };
        (bound.max(gate), e.comp, e.feed)
    }

    /// How many components the tables are for: every component a record names is below.
    pub fn components(&self) -> usize {
        self.each.len()
    }

    /// The leaves of the scheduler's tree these tables were laid out for (a slot is below).
    pub fn leaves(&self) -> usize {
        self.at_slot.len()
    }

    /// The component at slot `s` has its feed list at `feed` (returned by `at_slot`).
    pub fn set_feed(&mut self, s: usize, feed: u32) {
        self.at_slot[s].feed = feed;
    }

    /// The component at slot `s` has one input, and its sender is port `gate`.
    pub fn set_gate(&mut self, s: usize, gate: u32) {
        // As `check` would: the simulator reads the gate's component without a bounds check.
        assert!((gate as usize) < self.each.len(), "a gate among the components");
        self.at_slot[s].gate = gate;
    }

    /// Read every list in levels (`Each::levels`): up to [`LEVELS`] ports on it (single
    /// entries that `is_port` says are ports, not its gate), each followed by the entries that
    /// reach the component only through it (the port is among their dominators upstream of the
    /// component, `dominators.rs`). Such an entry's term is then the later of its own and the
    /// port's next unsent slot (`unsent_not_before`) plus the port's distance: whatever its
    /// pending work causes reaches the component as a cell the port has not sent yet, which
    /// leaves no earlier than that slot (0, no bound, for a port that does not commit). The
    /// port itself is such an entry: its backlog is on the wire already, its key is its next
    /// arrival. The port that floors the most entries is taken first (then the farther); the
    /// next among its entries, and the entries of the next are those of both, floored by both.
    /// On the LAN the bottleneck floors the reverse path's loops through it (a source's own
    /// cells queue behind its backlog) and its own.
    /// A leveled list is a copy; `each` (the tests' bound without gates) keeps the full one.
    pub fn levels(&mut self, upstream: &[Vec<(u32, Time)>], layout: &Layout, is_port: impl Fn(u32) -> bool) {
        self.levels_within(upstream, layout, is_port, DOMINANCE_BUDGET, CHAIN);
    }

    /// [`Horizons::levels`], each dominator walk giving up after `budget` components (then each
    /// port alone is under its level); a component's walk is read from the walk of the sender
    /// up to `max_chain` one-input senders back from it (0: its own walk).
    ///
    /// The walk upstream from a component `c` whose one input comes from `u` is `u`, then the
    /// walk from `u`: every path from a component `w` to `c` is a path from `w` to `u` and the
    /// input, so `w`'s dominators towards `c` are those towards `u` and `u` itself, and `u`'s is
    /// `u` alone (`u` dominates nothing towards itself: a path into `u` that passes `u` has a
    /// part that does not). Back along a chain `c <- u_k <- ... <- u_1 = r` of such inputs, the
    /// dominators of `w` are its own towards `r` and the whole chain, and those of `u_j` are
    /// `u_j .. u_k`. Components whose chains end at the same `r` (the N sources behind the
    /// reverse trunk, the N destinations behind the bottleneck) then share one walk, taken
    /// again only when `r` changes from one list to the next. The budget is the walk's size:
    /// `r`'s and the chain's members not on it.
    fn levels_within(
        &mut self,
        upstream: &[Vec<(u32, Time)>],
        layout: &Layout,
        is_port: impl Fn(u32) -> bool,
        budget: usize,
        max_chain: usize,
    ) {
        let leaves = layout.leaves;
        let mut slot_comp = vec![u32::MAX; leaves];
        for (c, &s) in layout.slot.iter().enumerate() {
            slot_comp[s as usize] = c as u32;
        }
        // Per tree node, the group whose block it is over (a group's node is below `2 * leaves`).
        let mut group_at = vec![u32::MAX; 2 * leaves];
        for (i, g) in layout.groups.iter().enumerate() {
            group_at[g.node as usize] = i as u32;
        }
        // Who each component sends to (the walks go upstream; the dominators need both ways).
        let mut down = vec![Vec::new(); upstream.len()];
        for (c, inputs) in upstream.iter().enumerate() {
            for &(u, _) in inputs {
                down[u as usize].push(c as u32);
            }
        }
        let mut dom = Dominators::new(upstream.len());
        // The component whose walk `dom` holds, and whether it stayed within the budget.
        let mut walked: Option<(u32, bool)> = None;
        // A list's chain of one-input senders (from its component's own sender back), where each
        // member is on it (stamped by slot), and the ports among each member and those before it.
        let (mut chain, mut prefix) = (Vec::new(), Vec::new());
        let mut on_chain = vec![(usize::MAX, 0); upstream.len()];
        // Entries of a list as bits (a list has at most `NEAR` entries).
        const _: () = assert!(NEAR <= 64);
        let mut ports: Vec<(usize, u64)> = Vec::new();
        let mut port_of = vec![usize::MAX; upstream.len()];
        // Scratch, reused by every list.
        let (mut masks, mut chosen, mut copy) = (Vec::new(), Vec::new(), Vec::new());
        for s in 0..self.at_slot.len() {
            let e = self.at_slot[s];
            if e.start == e.end {
                continue;
            }
            let list = &self.near[e.start as usize..e.end as usize];
            // Each entry: a component (`Ok`), or a group of several (`Err`).
            let on = |n: &Near| match (n.leaf as usize).checked_sub(leaves) {
                Some(s) => Ok(slot_comp[s]),
                None => Err(group_at[n.leaf as usize] as usize),
            };
            // The candidate ports, each with the entries that reach the component only
            // through it: those with it among their dominators in the graph upstream of the
            // component (every path from them to it passes the port); each port its own
            // entry at least (all that is known when the walk gives up).
            ports.clear();
            for (i, n) in list.iter().enumerate() {
                if let Ok(p) = on(n) {
                    if is_port(p) && p != e.gate {
                        port_of[p as usize] = ports.len();
                        ports.push((i, 1 << i));
                    }
                }
            }
            if ports.is_empty() {
                continue;
            }
            chain.clear();
            let mut r = e.comp;
            while chain.len() < max_chain {
                let [(u, _)] = upstream[r as usize][..] else { break };
                if u == e.comp || on_chain[u as usize].0 == s {
                    break;
                }
                on_chain[u as usize] = (s, chain.len());
                chain.push(u);
                r = u;
            }
            if walked.map(|(w, _)| w) != Some(r) {
                walked = Some((r, dom.build(r, upstream, &down, budget)));
            }
            let within = walked.is_some_and(|(_, ok)| ok)
                && dom.walked() + chain.iter().filter(|&&u| !dom.reached(u)).count() <= budget;
            if within {
                // Per component upstream, the candidate ports among its dominators, as bits of
                // `ports`; an entry is under each port that dominates all its members.
                let bit = |p: u32| match port_of.get(p as usize) {
                    Some(&j) if j != usize::MAX => 1 << j,
                    _ => 0,
                };
                dom.masks(bit, &mut masks);
                prefix.clear();
                let mut above = 0;
                for &u in &chain {
                    above |= bit(u);
                    prefix.push(above);
                }
                let mask_of = |u: u32| match on_chain[u as usize] {
                    (at, j) if at == s => prefix[j],
                    _ if dom.reached(u) => dom.mask_of(u, &masks) | above,
                    _ => 0,
                };
                for (k, n) in list.iter().enumerate() {
                    let mut under = match on(n) {
                        Ok(u) => mask_of(u),
                        Err(g) => layout.groups[g].members.iter().fold(u64::MAX, |m, &u| m & mask_of(u)),
                    };
                    while under != 0 {
                        ports[under.trailing_zeros() as usize].1 |= 1 << k;
                        under &= under - 1;
                    }
                }
            }
            for &(i, _) in &ports {
                if let Ok(p) = on(&list[i]) {
                    port_of[p as usize] = usize::MAX;
                }
            }
            // The ports that floor the most entries, each among the entries of the one before.
            let mut live = u64::MAX;
            chosen.clear();
            for _ in 0..LEVELS {
                let best = ports
                    .iter()
                    .filter(|&&(i, _)| live & (1 << i) != 0 && chosen.iter().all(|&(j, _)| j != i))
                    .map(|&(i, through)| ((live & through).count_ones(), list[i].dist, Reverse(i)))
                    .max();
                let Some((_, _, Reverse(i))) = best else { break };
                live &= ports.iter().find(|&&(j, _)| j == i).map_or(0, |&(_, through)| through);
                chosen.push((i, live));
            }
            if chosen.is_empty() {
                continue;
            }
            // The sublists: the entries under no chosen port, then under the first only, ...
            copy.clear();
            copy.extend_from_slice(list);
            let list = &copy[..];
            let depth = |k: usize| chosen.iter().take_while(|&&(_, under)| under & (1 << k) != 0).count();
            let start = self.near.len();
            self.at_slot[s].levels = self.levels.len() as u32;
            for d in 0..=chosen.len() {
                self.near.extend((0..list.len()).filter(|&k| depth(k) == d).map(|k| list[k]));
                let (port, dist) = match chosen.get(d) {
                    Some(&(i, _)) => (slot_comp[list[i].leaf as usize - leaves], list[i].dist),
                    None => (NO_GATE, NEVER),
                };
                self.levels.push(Level { port, to: self.near.len() as u32, dist });
            }
            self.at_slot[s].start = start as u32;
            self.at_slot[s].end = self.near.len() as u32;
        }
        self.check();
    }

    /// No component gated (tests: the horizons without gates).
    #[cfg(test)]
    pub fn clear_gates(&mut self) {
        for e in self.at_slot.iter_mut() {
            e.gate = NO_GATE;
        }
    }

    /// [`Horizons::at_slot`] with the list scanned to its end however near its gate is (tests:
    /// the scan's stop at the gate changes no bound).
    #[cfg(test)]
    fn at_slot_unstopped(
        &self,
        s: usize,
        t: Time,
        sched: &Sched,
        unsent_not_before: impl Fn(u32) -> Time,
    ) -> Time {
        let e = self.at_slot[s];
        let gate = if e.gate != NO_GATE { unsent_not_before(e.gate).saturating_add(e.lookahead) } else { 0 };
        assert_eq!(sched.tree().len(), self.tree_len, "the scheduler of these components");
        // SAFETY: asserted just above.
        unsafe { self.bound(e, t, 0, sched, &unsent_not_before) }.max(gate)
    }

    /// [`Horizons::at_slot`] by component, without gates or levels.
    #[cfg(test)]
    fn of(&self, c: usize, t: Time, sched: &Sched) -> Time {
        let e = self.each[c];
        // (A record without a list reads no tree: the plain tables are read with others'.)
        assert!(e.start == e.end || sched.tree().len() == self.tree_len, "the scheduler of these components");
        // SAFETY: asserted just above (`bound` reads the tree only for a list).
        unsafe { self.bound(e, t, 0, sched, &|_| 0) }
    }

    /// The earliest input time from the list; where that is no later than `gate` (the caller
    /// takes the later of the two), any value no later than `gate` (the scan stops there).
    ///
    /// # Safety
    /// `sched.tree().len() == self.tree_len` (the scheduler these tables were laid out for)
    /// where the record has a list (without one, no tree is read).
    #[inline(always)]
    unsafe fn bound(
        &self,
        Each { lookahead, rest, start, end, levels, .. }: Each,
        t: Time,
        gate: Time,
        sched: &Sched,
        unsent_not_before: &impl Fn(u32) -> Time,
    ) -> Time {
        let plain = t.saturating_add(lookahead);
        if start == end {
            return plain;
        }
        // Distances from `t`: every key is at least `t`, and `room` is the bound found so far;
        // `floor`, the latest next unsent slot (plus distance) of the levels' ports read.
        let (mut room, mut floor) = (rest, 0);
        let tree = sched.tree();
        // A term at or before `gate - t` settles it: later floors are below the bound found,
        // and the result is no later than `gate` (0 when ungated: a term of 0 is final anyway).
        let stop = gate.saturating_sub(t);
        let (mut from, mut at) = (start as usize, levels as usize);
        loop {
            // SAFETY: `check` ran after every change of the lists: from the record's first
            // level, every level up to a sentinel is in `levels`, and its sublist
            // `from..level.to` is in `near`. The scan goes on past a level only when the
            // level's distance is below `room`, so never past a sentinel (distance `NEVER`).
            let level = unsafe { *self.levels.get_unchecked(at) };
            let sublist = unsafe { self.near.get_unchecked(from..level.to as usize) };
            for n in sublist {
                if n.dist >= room {
                    break;
                }
                // SAFETY: `n.leaf` is a node of the laid-out tree (`build`): a component's leaf
                // `leaves + slot` with `slot < leaves`, or a group's node, `(leaves + at) / size`
                // with `at + size <= leaves` (`layout.rs`); both below `2 * leaves == tree_len ==
                // tree.len()` (the caller).
                let key = unsafe { *tree.get_unchecked(n.leaf as usize) };
                // Below `room - dist` only when finite: no overflow in the sum.
                let k = key - t;
                if k < room - n.dist {
                    room = k + n.dist;
                    if room <= stop {
                        return t.saturating_add(floor).max(plain);
                    }
                }
            }
            // The rest of the list reaches the component only through this port: each term is
            // at least the port's distance, and its next unsent slot plus that. Where either
            // is no nearer than the bound found, none of them can lower it (the sentinel's
            // distance is `NEVER`).
            if level.dist >= room {
                break;
            }
            let f = unsent_not_before(level.port).saturating_sub(t).saturating_add(level.dist);
            if f >= room {
                break;
            }
            floor = floor.max(f);
            from = level.to as usize;
            at += 1;
        }
        t.saturating_add(room.max(floor)).max(plain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

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

    /// A random graph of `n` components: each one's inputs, `fan_in` of them, from random
    /// senders (loops and repeats allowed) with a random `latency`, both drawn from `x`.
    fn random_upstream(
        n: usize,
        x: &mut u64,
        fan_in: impl Fn(&mut u64) -> usize,
        latency: impl Fn(&mut u64) -> Time,
    ) -> Vec<Vec<(u32, Time)>> {
        (0..n)
            .map(|_| {
                let k = fan_in(x);
                (0..k)
                    .map(|_| {
                        let sender = (rng(x) % n as u64) as u32;
                        (sender, latency(x))
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_list_through_one_input_is_its_senders_shifted() {
        // Random graphs, most components with one input (chains, rings of them, loops through
        // components with several), some with many or none, some latencies 0 (ties): every
        // list taken from the sender's is the one the search finds, its rest and cut too,
        // whether the sender's list was cut at `NEAR` or not.
        let mut x = 41;
        let (mut derived, mut cut, mut longer) = (0, 0, 0);
        for _ in 0..300 {
            let n = 2 + (rng(&mut x) % 150) as usize;
            let zero = rng(&mut x).is_multiple_of(4);
            let fan_in = |x: &mut u64| match rng(x) % 20 {
                0 => 0,
                1 => 17 + (rng(x) % 4) as usize,
                2..=5 => 2 + (rng(x) % 3) as usize,
                _ => 1,
            };
            let latency = |x: &mut u64| if zero { rng(x) % 3 } else { 1 + rng(x) % 50 };
            let upstream = random_upstream(n, &mut x, fan_in, latency);
            let lookahead: Vec<Time> =
                upstream.iter().map(|u| u.iter().map(|&(_, l)| l).min().unwrap_or(1000)).collect();
            let each = |h: &Horizons| h.each.iter().map(|e| e.rest).collect::<Vec<_>>();
            let (mut searched, mut shifted) = (Horizons::default(), Horizons::default());
            for h in [&mut searched, &mut shifted] {
                h.each = lookahead
                    .iter()
                    .map(|&lookahead| Each { lookahead, rest: NEVER, ..Each::default() })
                    .collect();
            }
            let (all_s, span_s) = searched.lists(&upstream, true, false);
            let (all_d, span_d) = shifted.lists(&upstream, true, true);
            assert_eq!(each(&searched), each(&shifted), "the bounds for the rest");
            for c in 0..n {
                let ((a, b, cut_s), (p, q, cut_d)) = (span_s[c], span_d[c]);
                assert_eq!((&all_s[a..b], cut_s), (&all_d[p..q], cut_d), "component {c}");
                cut += usize::from(cut_s);
                if let [(u, _)] = upstream[c][..] {
                    derived += usize::from(span_s[u as usize].1 > span_s[u as usize].0);
                    longer += usize::from(cut_s && span_s[u as usize].1 - span_s[u as usize].0 == NEAR);
                }
            }
        }
        assert!(derived > 5000 && cut > 1000 && longer > 500, "{derived} {cut} {longer}");
    }

    #[test]
    fn bounds_are_safe_and_exact_when_nothing_is_cut() {
        // Random graphs (loops, fan-in above the limit, components without inputs), random keys;
        // `t` is the smallest key, as when the scheduler pops a component.
        let mut x = 7;
        let (mut exact_checked, mut beyond_one_hop) = (0, 0);
        for round in 0..300 {
            let n = 2 + (rng(&mut x) % 40) as usize;
            let fan_in = |x: &mut u64| match rng(x) % 10 {
                0 => 0,
                1 => 17 + (rng(x) % 4) as usize,
                _ => 1 + (rng(x) % 3) as usize,
            };
            let upstream = random_upstream(n, &mut x, fan_in, |x| 1 + rng(x) % 50);
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

    #[test]
    fn the_scan_reads_only_checked_lists() {
        // The tables of the loop above pass the check the scan's unchecked reads rely on; a
        // level that ends past the lists, or before its sublist starts, or a list without a
        // sentinel, does not.
        let upstream = vec![vec![(2, 10)], vec![(0, 10)], vec![(1, 10)]];
        let (h, _) = Horizons::new(vec![10; 3], &upstream, true);
        h.check();
        let broken: [fn(&mut Horizons); 7] = [
            |h| h.levels[0].to = h.near.len() as u32 + 1,
            |h| {
                let e = *h.each.iter().find(|e| e.start > 0).expect("a list after the first");
                h.levels[e.levels as usize].to = e.start - 1;
            },
            |h| h.levels.iter_mut().for_each(|l| l.dist = 1),
            // The simulator's loop indexes its components by what the records name, and the
            // records by the scheduler's slots, unchecked.
            |h| h.at_slot[1].comp = 3,
            |h| h.each[2].gate = 3,
            |h| h.tree_len += 2,
            |h| level_through(h, 3),
        ];
        for (i, f) in broken.into_iter().enumerate() {
            let mut h = h.clone();
            f(&mut h);
            let caught = std::panic::catch_unwind(move || h.check()).is_err();
            assert!(caught, "broken table {i} passed the check");
        }
        // The same level through a component of the tables passes: the port alone failed above.
        let mut h = h.clone();
        level_through(&mut h, 2);
        h.check();
    }

    /// Give the first listed record a level through `port` before its sentinel.
    fn level_through(h: &mut Horizons, port: u32) {
        let e = h.each.iter_mut().find(|e| e.start != e.end).expect("a list");
        e.levels = h.levels.len() as u32;
        h.levels.push(Level { port, to: e.end, dist: 1 });
        h.levels.push(Level { port: NO_GATE, to: e.end, dist: NEVER });
    }

    /// A toy network run by the scheduler: an event at `x` may send to each receiver (after
    /// the channel latency and a random delay) or set a timer of its own. Every cell must
    /// arrive at or after the horizon its receiver has already run to. Returns the cells sent.
    fn run_toy(upstream: &[Vec<(u32, Time)>], lookahead: Vec<Time>, x: &mut u64) -> usize {
        run_toy_slotted(upstream, lookahead, None, None, x).0
    }

    /// `run_toy`; with `slot`, each component sends on one link of that slot time, first come
    /// first served (a cell leaves at its event or the link's next free slot, whichever is
    /// later), and a component with one input is gated by its sender's next free slot
    /// (`Each::gate`); with `levels`, the lists are read in levels (`Horizons::levels`, each
    /// walk within that budget). Returns the cells sent and the batches the gate lengthened
    /// (with `levels`: the batches the levels lengthened).
    fn run_toy_slotted(
        upstream: &[Vec<(u32, Time)>],
        lookahead: Vec<Time>,
        slot: Option<Time>,
        levels: Option<usize>,
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
        // With `levels`, a batch counts as lengthened against the same horizons read flat.
        let flat = levels.map(|_| h.clone());
        if let Some(budget) = levels {
            // Every component sends first come first served here: any may floor a level.
            h.levels_within(upstream, &layout, |_| true, budget, CHAIN);
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
            assert_eq!(horizon, h.at_slot_unstopped(s as usize, t, &sched, |g| free[g as usize]));
            let before = match &flat {
                Some(u) => u.at_slot(s as usize, t, &sched, |g| free[g as usize]).0,
                None => h.of(c, t, &sched),
            };
            assert!(horizon >= before, "levels never shorten a batch");
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
    fn random_slotted(seed: u64, fan_in: fn(u64) -> usize, levels: Option<usize>) -> (usize, usize) {
        let mut x = seed;
        let (mut sent, mut lengthened) = (0, 0);
        for _ in 0..60 {
            let n = 2 + (rng(&mut x) % 24) as usize;
            let upstream = random_upstream(n, &mut x, |x| fan_in(rng(x) % 8), |x| 1 + rng(x) % 20);
            let lookahead: Vec<Time> =
                upstream.iter().map(|u| u.iter().map(|&(_, l)| l).min().unwrap_or(30)).collect();
            let (s, l) = run_toy_slotted(&upstream, lookahead, Some(3 + rng(&mut x) % 8), levels, &mut x);
            sent += s;
            lengthened += l;
        }
        (sent, lengthened)
    }

    #[test]
    fn a_port_gate_lengthens_batches_and_nothing_arrives_before_a_horizon_run_to() {
        // Most components with one input; each sends first come first served on a link slower
        // than the events come, so backlogs build and the gate matters.
        let (sent, lengthened) = random_slotted(23, |r| [0, 2, 1, 1, 1, 1, 1, 1][r as usize], None);
        assert!(sent > 10_000 && lengthened > 1000, "{sent} {lengthened}");
    }

    #[test]
    fn levels_lengthen_batches_and_nothing_arrives_before_a_horizon_run_to() {
        // Most components with two or three inputs (few gates): a backlog's next unsent slot
        // bounds the entries behind its port more than their keys do. With a budget of two
        // the walks give up (then only each port itself is under its level): still sound.
        let fan_in = |r| [0, 1, 3, 3, 2, 2, 2, 2][r as usize];
        let (sent, lengthened) = random_slotted(29, fan_in, Some(DOMINANCE_BUDGET));
        assert!(sent > 10_000 && lengthened > 500, "{sent} {lengthened}");
        let (sent, lengthened) = random_slotted(29, fan_in, Some(2));
        assert!(sent > 10_000 && lengthened > 50, "{sent} {lengthened}");
    }

    #[test]
    fn a_walk_read_along_one_input_senders_gives_the_same_levels() {
        // Random graphs, most components with one input (chains, rings, loops through
        // components with several), ports gating the components they alone feed, budgets that
        // do and do not bind: every list's levels from the shared walks are those of the
        // component's own walk.
        let mut x = 43;
        let (mut leveled, mut read) = (0, 0);
        for round in 0..400 {
            let n = 2 + (rng(&mut x) % 40) as usize;
            let fan_in = |x: &mut u64| match rng(x) % 10 {
                0 => 0,
                1..=3 => 2 + (rng(x) % 2) as usize,
                _ => 1,
            };
            let upstream = random_upstream(n, &mut x, fan_in, |x| 1 + rng(x) % 50);
            let ports: Vec<bool> = (0..n).map(|_| !rng(&mut x).is_multiple_of(3)).collect();
            let is_port = |c: u32| ports[c as usize];
            let budget = [2, 5, 12, DOMINANCE_BUDGET][round % 4];
            let lookahead: Vec<Time> =
                upstream.iter().map(|u| u.iter().map(|&(_, l)| l).min().unwrap_or(1000)).collect();
            let (mut own, layout) = Horizons::new(lookahead, &upstream, true);
            for (c, inputs) in upstream.iter().enumerate() {
                if let [(sender, _)] = inputs[..] {
                    if is_port(sender) {
                        own.set_gate(layout.slot[c] as usize, sender);
                    }
                }
            }
            let mut shared = own.clone();
            own.levels_within(&upstream, &layout, is_port, budget, 0);
            shared.levels_within(&upstream, &layout, is_port, budget, CHAIN);
            assert_eq!(format!("{own:?}"), format!("{shared:?}"), "round {round}");
            leveled += own.at_slot.iter().filter(|e| own.levels[e.levels as usize].dist != NEVER).count();
            read += upstream.iter().filter(|u| u.len() == 1).count();
        }
        assert!(leveled > 1000 && read > 5000, "{leveled} {read}");
    }

    #[test]
    fn a_list_is_read_behind_the_ports_its_entries_reach_it_through() {
        // The N-source loop, its ports gating the components they alone feed. Into a source
        // S_0 everything but its own port K_0 comes through the reverse trunk R, and the
        // bottleneck B, the access ports, the sources and the other sources' ports K_j come
        // through B as well: S_0 reads its list in two levels, R's, then B's.
        let n = 5;
        let upstream = loop_network(n, 1_000_000);
        let (a, b, p, r, k) = (n, 2 * n, 2 * n + 1, 4 * n + 1, 4 * n + 2);
        let is_port = |c: u32| (a..=p + n - 1).contains(&c) || c >= r;
        let lookahead: Vec<Time> =
            upstream.iter().map(|u| u.iter().map(|&(_, l)| l).min().unwrap_or(NEVER)).collect();
        let (mut h, layout) = Horizons::new(lookahead, &upstream, true);
        for (c, inputs) in upstream.iter().enumerate() {
            if let [(sender, _)] = inputs[..] {
                if is_port(sender) {
                    h.set_gate(layout.slot[c] as usize, sender);
                }
            }
        }
        h.levels(&upstream, &layout, is_port);
        let e = h.at_slot[layout.slot[0] as usize];
        let levels = &h.levels[e.levels as usize..];
        assert_eq!((levels[0].port, levels[1].port), (r, b));
        // The components of each level's sublist.
        let members = |from: u32, to: u32| -> BTreeSet<u32> {
            let mut set = BTreeSet::new();
            for near in &h.near[from as usize..to as usize] {
                for (c, &s) in layout.slot.iter().enumerate() {
                    let mut node = layout.leaves + s as usize;
                    while node > near.leaf as usize {
                        node >>= 1;
                    }
                    if node == near.leaf as usize {
                        set.insert(c as u32);
                    }
                }
            }
            set
        };
        assert_eq!(members(e.start, levels[0].to), BTreeSet::from([k]));
        let under_b: BTreeSet<u32> = (0..2 * n + 1).chain(k + 1..k + n).collect();
        assert_eq!(members(levels[1].to, e.end), under_b);
        assert!(members(levels[0].to, levels[1].to).contains(&r));
    }

    #[test]
    fn no_component_receives_work_before_the_horizon_it_ran_to() {
        let mut x = 11;
        let mut sent = 0;
        for _ in 0..40 {
            let n = 2 + (rng(&mut x) % 24) as usize;
            let fan_in = |x: &mut u64| if rng(x).is_multiple_of(8) { 0 } else { 1 + (rng(x) % 3) as usize };
            let upstream = random_upstream(n, &mut x, fan_in, |x| 1 + rng(x) % 20);
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
