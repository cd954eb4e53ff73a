//! The simulator: components in a vector, addressed by index, advanced in time order.

use super::{Host, Port, World, NO_COMMIT};
use crate::time::{Time, NEVER, PS_PER_MS};

#[derive(Debug)]
// Components sit in one vector, built once, and are visited on every scheduling step: inline
// variants keep them contiguous, and the size difference costs a few hundred bytes per host.
#[allow(clippy::large_enum_variant)]
pub enum Component {
    Port(Port),
    Host(Host),
}

impl Component {
    fn advance(&mut self, horizon: Time, world: &mut World) -> u64 {
        match self {
            Component::Port(p) => p.advance(horizon, world),
            Component::Host(h) => h.advance(horizon, world),
        }
    }
    fn next_key(&self, world: &World) -> Time {
        match self {
            Component::Port(p) => p.next_key(world),
            Component::Host(h) => h.next_key(world),
        }
    }
    /// `next_key` right after `advance`, from the batch's merge of the inputs.
    fn key_after_batch(&self) -> Time {
        match self {
            Component::Port(p) => p.key_after_batch(),
            Component::Host(h) => h.key_after_batch(),
        }
    }
}

/// A built network, ready to run. A plain value: many can run side by side.
#[derive(Debug)]
pub struct Sim {
    pub comps: Vec<Component>,
    /// Per component: how far it may run ahead of the time it is popped at without looking at
    /// its senders: the smallest latency of its input channels, or `SOURCE_AHEAD` for a
    /// component without inputs.
    lookahead: Vec<Time>,
    /// Per component: its inputs' senders in `feeds` (`start..end`; empty: the plain bound).
    feed_span: Vec<(u32, u32)>,
    /// The inputs of every component that uses the refined horizon, one after the other.
    feeds: Vec<Feed>,
    /// Use the senders' keys to run further ahead (`horizon`) and let FCFS transmitters commit
    /// their departures; off under the reference schedule and with adaptive-shaping level logs.
    pub refine: bool,
    pub world: World,
    pub now: Time,
    pub events: u64,
}

/// An input FIFO of a component, as `Sim::horizon` reads it: who sends into it and with which
/// latency, and how far that sender may itself run ahead.
#[derive(Debug, Clone, Copy)]
struct Feed {
    sender: u32,
    latency: Time,
    sender_ahead: Time,
}

/// Components with more inputs than this run ahead by their lookahead only: the refined
/// horizon costs one look per input and batch, more than it saves on a port fed by many links.
const MAX_REFINED_INPUTS: usize = 16;

/// How far a component without inputs (a host with background sources only) runs ahead of the
/// time it is popped at. Nothing can reach it, so any bound is correct; without one it would
/// run to the end of the simulation in one batch and hold every cell of the run in its output
/// FIFO (memory growing with the duration: 50 MB per simulated second in `class-italy.toml`).
/// One millisecond keeps at most 353 cells of an OC-3 line on the wire ahead of the consumer
/// and costs one scheduler step per millisecond.
pub const SOURCE_AHEAD: Time = PS_PER_MS;

impl Sim {
    /// A network ready to run: per component, its smallest input latency (`NEVER`: no inputs)
    /// and the sender and latency of each input FIFO. `refine`: use the senders' keys to run
    /// further ahead (`horizon`); off when the result depends on the schedule itself
    /// (adaptive-shaping level logs, see `level_log.rs`).
    pub fn new(
        comps: Vec<Component>,
        mut lookahead: Vec<Time>,
        upstream: Vec<Vec<(u32, Time)>>,
        refine: bool,
        world: World,
    ) -> Self {
        // Nothing reaches a component without inputs: it runs ahead by `SOURCE_AHEAD`.
        for l in lookahead.iter_mut().filter(|l| **l == NEVER) {
            *l = SOURCE_AHEAD;
        }
        let mut feeds = Vec::new();
        let mut feed_span = Vec::with_capacity(comps.len());
        for ups in &upstream {
            let start = feeds.len() as u32;
            if refine && ups.len() <= MAX_REFINED_INPUTS {
                feeds.extend(ups.iter().map(|&(sender, latency)| Feed {
                    sender,
                    latency,
                    sender_ahead: lookahead[sender as usize],
                }));
            }
            feed_span.push((start, feeds.len() as u32));
        }
        Sim { comps, lookahead, feed_span, feeds, refine, world, now: 0, events: 0 }
    }

    /// How far component `c`, popped at `t`, may run: every input FIFO's sender `u` has no work
    /// before its key, and can get new work no earlier than `t + L_u` (its own lookahead), so it
    /// sends nothing before `min(key_u, t + L_u)` (a cell sent at an event is in a slot at or
    /// after it), which reaches `c` one channel latency later. At least `t + L_c` (every key is
    /// at least `t`), and longer whenever a sender is idle or its next event is ahead: the
    /// batches of short links then span several cell times. (Looking one level further up, at
    /// the senders' own senders, cut the LAN bench cases' batches by a quarter but cost more per
    /// batch than it saved with 15 sources.)
    #[inline]
    fn horizon(&self, c: usize, t: Time) -> Time {
        let (start, end) = self.feed_span[c];
        let plain = t.saturating_add(self.lookahead[c]);
        // The plain bound for a component without inputs (its lookahead is `SOURCE_AHEAD`), one
        // with too many, or when the schedule must stay the reference one: no feeds.
        let mut h = plain;
        if start < end {
            h = NEVER;
            for f in &self.feeds[start as usize..end as usize] {
                let quiet = self.world.sched.key(f.sender).min(t.saturating_add(f.sender_ahead));
                h = h.min(quiet.saturating_add(f.latency));
            }
        }
        h.max(plain)
    }

    /// Let every component that can commit its departures up to `end` do so (`net/commit.rs`);
    /// none does under the reference schedule, which stays the per-cell path.
    fn commit_until(&mut self, end: Time) {
        let rm_cells = self.comps.iter().any(|c| matches!(c, Component::Host(h) if h.sends_rm_cells()));
        for comp in self.comps.iter_mut() {
            let end = if self.refine { end } else { NO_COMMIT };
            match comp {
                Component::Port(p) => p.commit_until(end, &self.world),
                Component::Host(h) => h.commit_until(end, rm_cells, &self.world),
            }
        }
    }

    /// Run until `end` (exclusive).
    pub fn run_until(&mut self, end: Time) {
        self.commit_until(end);
        for (c, comp) in self.comps.iter().enumerate() {
            let k = comp.next_key(&self.world);
            self.world.sched.wake(c as u32, k);
        }
        while let Some((t, c)) = self.world.sched.first_before(end) {
            let horizon = self.horizon(c as usize, t).min(end);
            let comp = &mut self.comps[c as usize];
            self.events += comp.advance(horizon, &mut self.world);
            let k = comp.key_after_batch();
            self.world.sched.set_first(c, k);
        }
        self.now = end;
        for comp in self.comps.iter_mut() {
            if let Component::Port(p) = comp {
                p.finish(end);
            }
        }
    }
}
