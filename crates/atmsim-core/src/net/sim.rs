//! The simulator: components in a vector, addressed by index, advanced in time order.

use super::{Host, Port, World};
use crate::time::Time;

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
}

/// A built network, ready to run. A plain value: many can run side by side.
#[derive(Debug)]
pub struct Sim {
    pub comps: Vec<Component>,
    /// Per component: the smallest latency of its input channels (how far it may run ahead).
    pub lookahead: Vec<Time>,
    pub world: World,
    pub now: Time,
    pub events: u64,
}

impl Sim {
    /// Run until `end` (exclusive).
    pub fn run_until(&mut self, end: Time) {
        for (c, comp) in self.comps.iter().enumerate() {
            let k = comp.next_key(&self.world);
            self.world.sched.wake(c as u32, k);
        }
        while let Some((t, c)) = self.world.sched.pop_before(end) {
            let horizon = t.saturating_add(self.lookahead[c as usize]).min(end);
            let comp = &mut self.comps[c as usize];
            self.events += comp.advance(horizon, &mut self.world);
            let k = comp.next_key(&self.world);
            self.world.sched.set(c, k);
        }
        self.now = end;
        for comp in self.comps.iter_mut() {
            if let Component::Port(p) = comp {
                p.finish(end);
            }
        }
    }
}
