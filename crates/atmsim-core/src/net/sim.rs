//! The simulator: components in a vector, addressed by index, advanced in time order.
//!
//! Each step takes the component with the earliest key from the scheduler (`sched.rs`), runs it
//! to its horizon (`sim/horizon.rs`: the earliest time anything new can reach it) and re-keys
//! it. The scheduler holds the keys by slot (`sim/layout.rs`: groups of components side by
//! side); a FIFO's `owner` is its consumer's slot.

mod horizon;
mod layout;

use super::{Host, Port, Sched, World, NO_COMMIT};
use crate::time::{Time, NEVER, PS_PER_MS};
use horizon::Horizons;

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
    /// How far each component may run when popped (`horizon.rs`).
    horizons: Horizons,
    /// Per component: its slot in the scheduler (`layout.rs`).
    slot: Vec<u32>,
    /// Look upstream to run further ahead (`horizon`) and let FCFS transmitters commit their
    /// departures; off under the reference schedule and with adaptive-shaping level logs.
    pub refine: bool,
    pub world: World,
    pub now: Time,
    pub events: u64,
}

/// How far a component without inputs (a host with background sources only) runs ahead of the
/// time it is popped at. Nothing can reach it, so any bound is correct; without one it would
/// run to the end of the simulation in one batch and hold every cell of the run in its output
/// FIFO (memory growing with the duration: 50 MB per simulated second in `class-italy.toml`).
/// One millisecond keeps at most 353 cells of an OC-3 line on the wire ahead of the consumer
/// and costs one scheduler step per millisecond.
pub const SOURCE_AHEAD: Time = PS_PER_MS;

impl Sim {
    /// A network ready to run: per component, its smallest input latency (`NEVER`: no inputs)
    /// and the sender and latency of each input FIFO. `refine`: look upstream to run further
    /// ahead (`horizon.rs`) and commit departures (`commit.rs`); off for the reference schedule
    /// and when the result depends on the schedule itself (adaptive-shaping level logs, see
    /// `level_log.rs`).
    pub fn new(
        comps: Vec<Component>,
        mut lookahead: Vec<Time>,
        upstream: Vec<Vec<(u32, Time)>>,
        refine: bool,
        mut world: World,
    ) -> Self {
        // Nothing reaches a component without inputs: it runs ahead by `SOURCE_AHEAD`.
        for l in lookahead.iter_mut().filter(|l| **l == NEVER) {
            *l = SOURCE_AHEAD;
        }
        // Components the horizon lists meet together side by side in the scheduler's tree when
        // the horizons look upstream (`sim/layout.rs`); the lists name its nodes. Set up before
        // any component has a key: the scheduler is indexed by slot, and so is a FIFO's owner
        // (the consumer it wakes).
        assert_eq!(world.sched.leaves(), Sched::leaves_for(lookahead.len()), "one key per component");
        assert!((0..lookahead.len() as u32).all(|c| world.sched.key(c) == NEVER), "no keys before the run");
        let (horizons, layout) = Horizons::new(lookahead, &upstream, refine);
        world.sched = Sched::new(layout.leaves);
        for f in world.fifos.iter_mut() {
            f.owner = layout.slot[f.owner as usize];
        }
        Sim { comps, horizons, slot: layout.slot, refine, world, now: 0, events: 0 }
    }

    /// How far the component at scheduler slot `s`, popped at `t`, may run (and which component
    /// that is): the earliest time a cell not yet in its input FIFOs can arrive there, from the
    /// keys of the components near it upstream and their distances (`sim/horizon.rs`), at least
    /// `t` plus its smallest input latency (the reference schedule's bound).
    #[inline]
    fn horizon(&self, s: u32, t: Time) -> (Time, u32) {
        self.horizons.at_slot(s as usize, t, &self.world.sched)
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
        for (comp, &s) in self.comps.iter().zip(&self.slot) {
            let k = comp.next_key(&self.world);
            self.world.sched.wake(s, k);
        }
        while let Some((t, s)) = self.world.sched.first_before(end) {
            let (horizon, c) = self.horizon(s, t);
            let horizon = horizon.min(end);
            let comp = &mut self.comps[c as usize];
            self.events += comp.advance(horizon, &mut self.world);
            let k = comp.key_after_batch();
            self.world.sched.set_first(s, k);
        }
        self.now = end;
        for comp in self.comps.iter_mut() {
            if let Component::Port(p) = comp {
                p.finish(end);
            }
        }
    }
}
