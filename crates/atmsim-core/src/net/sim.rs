//! The simulator: components in a vector, addressed by index, advanced in time order.
//!
//! Each step takes the component with the earliest key from the scheduler (`sched.rs`), runs it
//! to its horizon (`sim/horizon.rs`: the earliest time anything new can reach it) and re-keys
//! it. The scheduler holds the keys by slot (`sim/layout.rs`: groups of components side by
//! side); a FIFO's `owner` is its consumer's slot. A component with one input from a port is
//! gated by that port's next free slot, and what reaches a component only through a port is
//! floored by that port's next free slot (`sim/horizon.rs`, levels; `sim/dominators.rs` finds
//! them). The loop is built for the depth of the scheduler's tree, so that its walks are
//! unrolled (`sched.rs`).

mod dominators;
mod horizon;
mod layout;

use super::merge::InputMarks;
use super::sched::ANY_DEPTH;
use super::{
    first_work, CommitMode, CommitRole, EnginePaths, Host, Port, Sched, SchedulePlan, World, NO_COMMIT,
    NO_MARK,
};
use crate::time::{Time, NEVER, PS_PER_MS};
use horizon::{Horizons, NO_FEED};

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
    fn inputs(&self) -> &[u32] {
        match self {
            Component::Port(p) => &p.inputs,
            Component::Host(h) => &h.inputs,
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

/// An input FIFO of a component with several, as the port that sends into it sees it: after
/// each batch of the port, the input is marked if it holds cells (`merge.rs`, `InputMarks`).
#[derive(Debug, Clone, Copy)]
struct Feed {
    fifo: u32,
    /// The port's last (its list ends here).
    last: bool,
}

/// A built network, ready to run. A plain value: many can run side by side.
#[derive(Debug)]
pub struct Sim {
    pub comps: Vec<Component>,
    /// How far each component may run when popped (`horizon.rs`).
    horizons: Horizons,
    /// Per component: its slot in the scheduler (`layout.rs`).
    slot: Vec<u32>,
    /// The inputs of components with several that each port feeds, one list after the other
    /// (where each starts: `Horizons::at_slot`).
    feeds: Vec<Feed>,
    /// Per component, how its departures are committed at each run's start (`commit_until`),
    /// chosen at set-up by `SchedulePlan::commit_mode`.
    commit: Vec<CommitMode>,
    /// The fast paths allowed (`[engine]` switches): each component's plan reads them.
    pub paths: EnginePaths,
    pub world: World,
    pub now: Time,
    pub events: u64,
    /// Components' batches run (not in the report: a measure of the schedule, for tests and
    /// profiles).
    pub batches: u64,
    /// Per component: the sender of its one input (`NO_SENDER`: none, or several inputs), and
    /// where its feed list starts in `feeds` (`NO_FEED`: none).
    lone_sender: Vec<u32>,
    feed_of: Vec<u32>,
    /// The ports each slot's component pulls in this run (`pull`): those of slot `s` are
    /// `pulled[pull_at[s]..pull_at[s + 1]]` (found at each run's start: a port is pulled only
    /// while it commits).
    pulled: Vec<Pulled>,
    pull_at: Vec<u32>,
}

/// No single sender (`Sim::lone_sender`).
const NO_SENDER: u32 = u32::MAX;

/// A port its receiver runs (`pull`): the component, its one input and its feed list.
#[derive(Debug, Clone, Copy)]
struct Pulled {
    comp: u32,
    input: u32,
    /// The receiver's input the port sends into.
    out: u32,
    feed: u32,
}

/// Before a batch of the component at slot `s`: each port it pulls takes every cell of its
/// input that arrives before `end`. Returns the events.
///
/// Such a port (plain, no hooks, no level log, one input: `Port::may_be_pulled`) may take its
/// cells at any time: its sender puts them in arrival order, so none can come later that
/// arrives before one already there, and nothing it does reads or writes another component's
/// state but the cells it sends. So it needs no batch of its own: its input's owner is its
/// receiver, whose key the sender's cells lower (to their arrival at the port, before the
/// receiver can get anything from them), and the receiver pulls the port when popped, before
/// its horizon is found. The port's own key stays without its input: every effect of the
/// cells waiting there passes the receiver, no earlier than the receiver's key plus the
/// latencies behind it (the horizons' bound, `sim/horizon.rs`), and the port's next unsent
/// slot stays a floor of what it has not sent (its gate and levels). Returns the events, and
/// whether some input still holds cells (arriving at or after `end`).
#[inline]
fn pull(s: usize, end: Time, comps: &mut [Component], p: &Pulling, world: &mut World) -> (u64, bool) {
    let (mut events, mut left) = (0, false);
    for k in p.at[s]..p.at[s + 1] {
        let Pulled { comp, input, out, feed } = p.list[k as usize];
        // A receiver that skips middle cells sets its input's floor in its own batches
        // (`Host::advance_by_count`): the port's input wakes it as its own would.
        world.fifos[input as usize].middle_floor = world.fifos[out as usize].middle_floor;
        match world.fifos[input as usize].front() {
            None => continue,
            Some((t, _)) if t >= end => {
                left = true;
                continue;
            }
            Some(_) => {}
        }
        let Component::Port(port) = &mut comps[comp as usize] else { unreachable!("a pulled port") };
        events += port.advance(end, world);
        left |= !world.fifos[input as usize].is_empty();
        if feed != NO_FEED {
            mark_fed(p.feeds, world, feed as usize);
        }
    }
    (events, left)
}

/// The earliest work the inputs of the ports pulled at slot `s` give their receiver.
#[inline]
fn pulled_work(s: usize, p: &Pulling, world: &World) -> Time {
    let mut k = NEVER;
    for q in &p.list[p.at[s] as usize..p.at[s + 1] as usize] {
        k = k.min(first_work(&world.fifos[q.input as usize], 0));
    }
    k
}

/// What `pull` reads.
struct Pulling<'a> {
    list: &'a [Pulled],
    at: &'a [u32],
    feeds: &'a [Feed],
}

/// After a batch of the port whose feed list starts at `i`: mark each input it feeds that holds
/// cells.
#[inline]
fn mark_fed(feeds: &[Feed], world: &mut World, mut i: usize) {
    loop {
        let f = feeds[i];
        let fifo = &world.fifos[f.fifo as usize];
        if !fifo.is_empty() {
            world.sched.marks.mark(fifo.mark);
        }
        if f.last {
            return;
        }
        i += 1;
    }
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
    /// and the sender and latency of each input FIFO. `plan`: the schedule (`plan.refine`: look
    /// upstream to run further ahead, `horizon.rs`, and commit departures, `commit.rs`; off for
    /// the reference schedule; with adaptive-shaping level logs their ports commit keyed, see
    /// `level_log.rs`), chosen by `SchedulePlan::choose`;
    /// `paths`: the fast paths allowed, handed to every component for its own plan.
    pub fn new(
        mut comps: Vec<Component>,
        mut lookahead: Vec<Time>,
        upstream: Vec<Vec<(u32, Time)>>,
        plan: SchedulePlan,
        paths: EnginePaths,
        mut world: World,
    ) -> Self {
        for comp in comps.iter_mut() {
            match comp {
                Component::Port(p) => p.set_paths(paths),
                Component::Host(h) => h.set_paths(paths),
            }
        }
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
        // The ports that write or read a level log commit keyed (`commit_until`): a writer's
        // key is never past a change of its level it has not logged, and a reader's batch
        // stops before a backward RM cell later than its start, so each reader reads the band
        // in force at its RM cell's instant (`net/level_log.rs`).
        let logged: Vec<bool> = comps
            .iter()
            .map(|c| plan.keyed && matches!(c, Component::Port(p) if p.uses_level_logs()))
            .collect();
        let (mut horizons, layout) = Horizons::new(lookahead, &upstream, plan.refine);
        world.sched = Sched::new(layout.leaves);
        // A log's port reads its own key, the start of its batch, in the scheduler.
        for (c, comp) in comps.iter_mut().enumerate() {
            if let Component::Port(p) = comp {
                p.set_slot(layout.slot[c]);
            }
        }
        for f in world.fifos.iter_mut() {
            f.owner = layout.slot[f.owner as usize];
        }
        #[cfg(debug_assertions)]
        for comp in &comps {
            if let Component::Port(p) = comp {
                for &i in &p.inputs {
                    world.fifos[i as usize].grid = p.arrival_grid();
                }
            }
        }
        // Every FIFO has one sender, and only components' batches put cells into FIFOs. A
        // consumer with several inputs reads only those marked at the start of its batch: a
        // host marks an input as it puts cells into it, the scheduler marks a port's after each
        // of its batches (`merge.rs`, `InputMarks`).
        assert!((NO_MARK >> 6) as usize >= world.fifos.len(), "a mark word per FIFO at most");
        let mut fed: Vec<Vec<Feed>> = vec![Vec::new(); comps.len()];
        for (c, comp) in comps.iter().enumerate() {
            let inputs = comp.inputs();
            if inputs.len() < 2 {
                continue;
            }
            assert_eq!(inputs.len(), upstream[c].len(), "one sender per input");
            for (k, (&fifo, &(sender, _))) in inputs.iter().zip(&upstream[c]).enumerate() {
                world.fifos[fifo as usize].mark = InputMarks::mark_of(inputs, k);
                if let Component::Port(_) = comps[sender as usize] {
                    fed[sender as usize].push(Feed { fifo, last: false });
                }
            }
        }
        let mut feeds = Vec::new();
        let mut feed_of = vec![NO_FEED; comps.len()];
        for (c, list) in fed.iter().enumerate() {
            if !list.is_empty() {
                feed_of[c] = feeds.len() as u32;
                horizons.set_feed(layout.slot[c] as usize, feeds.len() as u32);
                feeds.extend_from_slice(list);
                feeds.last_mut().expect("a list").last = true;
            }
        }
        // Without the marks (`input_marks` off) every input is read at each batch.
        world.sched.marks =
            if plan.marks { InputMarks::all(world.fifos.len()) } else { InputMarks::default() };
        // A component with one input, from a port, hears nothing new before that port's next
        // unsent cell can leave (`Port::unsent_not_before`: a committing port's backlog is on
        // the wire already, and a cell queued later goes behind it). Looked at only when the
        // horizons look upstream.
        if plan.gates {
            for (c, inputs) in upstream.iter().enumerate() {
                if let [(sender, _)] = inputs[..] {
                    if let Component::Port(_) = &comps[sender as usize] {
                        horizons.set_gate(layout.slot[c] as usize, sender);
                    }
                }
            }
        }
        if plan.levels {
            // A port farther up is read the same way (`Horizons::levels`): the entries of a
            // list that reach the component only through it are no nearer than its next
            // unsent slot plus its distance (its own key is its next arrival, its backlog on
            // the wire already, and a cell queued later goes behind it).
            horizons.levels(&upstream, &layout, |c| matches!(comps[c as usize], Component::Port(_)));
        }
        let commit = (0..comps.len())
            .map(|c| {
                let port = matches!(comps[c], Component::Port(_));
                plan.commit_mode(CommitRole { port, logs: logged[c] })
            })
            .collect();
        let lone_sender =
            upstream.iter().map(|u| if let [(sender, _)] = u[..] { sender } else { NO_SENDER }).collect();
        Sim {
            comps,
            horizons,
            slot: layout.slot,
            feeds,
            commit,
            paths,
            world,
            now: 0,
            events: 0,
            batches: 0,
            lone_sender,
            feed_of,
            pulled: Vec::new(),
            pull_at: Vec::new(),
        }
    }

    /// The end of a run: every pulled port takes the cells of its input before `end`.
    fn pull_rest(&mut self, end: Time) {
        let Sim { comps, world, events, pulled, pull_at, feeds, .. } = self;
        let pulling = Pulling { list: pulled, at: pull_at, feeds };
        for s in 0..pull_at.len() - 1 {
            *events += pull(s, end, comps, &pulling, world).0;
        }
    }

    /// The ports pulled in this run (`pull`), listed by their receivers' slots, each one's
    /// input owned by its receiver; every other port's input by the port.
    fn find_pulled(&mut self) {
        let n = self.comps.len();
        let mut consumer = vec![u32::MAX; self.world.fifos.len()];
        for (c, comp) in self.comps.iter().enumerate() {
            for &f in comp.inputs() {
                consumer[f as usize] = c as u32;
            }
        }
        // Its receiver and the receiver's input it feeds, if the port at `p` may be pulled.
        let receiver = |p: usize| -> Option<(usize, u32)> {
            let Component::Port(port) = &self.comps[p] else { return None };
            if !port.may_be_pulled() || self.lone_sender[p] == NO_SENDER {
                return None;
            }
            let out = port.output_fifo(&self.world)?;
            let r = consumer[out as usize] as usize;
            if r == u32::MAX as usize {
                return None;
            }
            // Not its own sender's or its own (a loop), and the port's one input is its own.
            // Nor a port whose batch reads its own key as its start (a level log's): the
            // port's cells may wake it earlier than that while it is popped.
            let u = self.lone_sender[p] as usize;
            let logs = matches!(&self.comps[r], Component::Port(q) if q.uses_level_logs());
            (r != p && r != u && !logs).then_some((r, out))
        };
        let mut by_receiver: Vec<Vec<Pulled>> = vec![Vec::new(); self.world.sched.leaves()];
        let candidates: Vec<Option<(usize, u32)>> = (0..n).map(receiver).collect();
        for (p, r) in candidates.iter().enumerate() {
            let Component::Port(port) = &self.comps[p] else { continue };
            let [input] = port.inputs[..] else { continue };
            let (mut owner, mut floor, mut delay) = (self.slot[p], 0, 0);
            // A receiver that is itself pulled is never popped: its sender keeps its batches.
            if let Some((r, out)) = *r {
                if candidates[r].is_none() {
                    owner = self.slot[r];
                    // A receiver that skips middle cells is woken by an EOF or control cell
                    // only, as by its own input: the port forwards them, and makes none.
                    floor = self.world.fifos[out as usize].middle_floor;
                    delay = self.world.channels[port.channel as usize].latency;
                    let pulled = Pulled { comp: p as u32, input, out, feed: self.feed_of[p] };
                    by_receiver[self.slot[r] as usize].push(pulled);
                }
            }
            let fifo = &mut self.world.fifos[input as usize];
            (fifo.owner, fifo.middle_floor, fifo.wake_delay) = (owner, floor, delay);
            // Cells left from an earlier run: its receiver's key covers them, as after a pull.
            let work = first_work(fifo, 0);
            self.world.sched.wake(owner, work);
        }
        self.pulled.clear();
        self.pull_at.clear();
        for list in &by_receiver {
            self.pull_at.push(self.pulled.len() as u32);
            self.pulled.extend_from_slice(list);
        }
        self.pull_at.push(self.pulled.len() as u32);
    }

    /// Let every component that can commit its departures up to `end` do so (`net/commit.rs`);
    /// none does under the reference schedule, which stays the per-cell path.
    fn commit_until(&mut self, end: Time) {
        let rm_cells = self.comps.iter().any(|c| matches!(c, Component::Host(h) if h.sends_rm_cells()));
        // Found once for all ports: each looking at every link would make set-up quadratic.
        let spacing = Port::input_spacing(self.world.channels.iter().map(|c| c.period));
        for (c, comp) in self.comps.iter_mut().enumerate() {
            if let Component::Port(p) = comp {
                p.set_input_spacing(spacing);
            }
            let mode = self.commit[c];
            let refined = if mode == CommitMode::Refined { end } else { NO_COMMIT };
            match comp {
                Component::Port(p) if mode == CommitMode::Keyed => p.commit_keyed_until(end, &self.world),
                Component::Port(p) => p.commit_until(refined, &self.world),
                Component::Host(h) => {
                    debug_assert_ne!(mode, CommitMode::Keyed, "only a port is keyed");
                    h.commit_until(refined, rm_cells, &self.world)
                }
            }
        }
    }

    /// Advance the component with the earliest key to its horizon, and so on, while that key
    /// is before `end`; `D`: the depth of the scheduler's tree (`ANY_DEPTH`: any).
    ///
    /// The loop indexes the tree, the horizon tables and the components without bounds checks:
    /// the tables name only slots of their tree and their components (`Horizons::check`), and
    /// those are the scheduler's and these, asserted before the loop. The components stay
    /// these (borrowed here for the whole loop); only a batch, which has the world, could
    /// change the scheduler, so its tree is checked again after each (one compare).
    fn run_batches<const D: u32>(&mut self, end: Time) {
        let Sim { comps, horizons, feeds, world, events, batches, pulled, pull_at, .. } = self;
        let comps = &mut comps[..];
        let pulling = Pulling { list: pulled, at: pull_at, feeds };
        let tree_len = 2 * horizons.leaves();
        assert_eq!(comps.len(), horizons.components(), "the components of the horizon tables");
        assert!(world.sched.fits::<D>() && world.sched.tree().len() == tree_len, "the tables' scheduler");
        // SAFETY (every unchecked call below): the scheduler fits `D` and its tree is the
        // tables' (asserted before the loop and after every batch; nothing else in the loop can
        // replace it). So the slot `s` named is below `leaves()` (`first_before_at_unchecked`,
        // or `first_before` for `ANY_DEPTH`), as `at_slot_unchecked` and
        // `set_first_at_unchecked` need; the components `at_slot_unchecked` names are below
        // `components() == comps.len()`.
        while let Some((t, s)) = unsafe { world.sched.first_before_at_unchecked::<D>(end) } {
            let mut left = false;
            if pulling.at[s as usize] != pulling.at[s as usize + 1] {
                let (e, l) = pull(s as usize, end, comps, &pulling, world);
                (*events, left) = (*events + e, l);
                // An EOF into an input of a host that skips middle cells wakes it at the
                // input's head, which may be before this batch's start: it is taken in this
                // batch, and every key stays at or after the start (the horizons' premise).
                if world.sched.key(s) < t {
                    unsafe { world.sched.set_first_at_unchecked::<D>(s, t) };
                }
            }
            let (horizon, c, feed) = unsafe {
                horizons.at_slot_unchecked(s as usize, t, &world.sched, |g| {
                    match comps.get_unchecked(g as usize) {
                        Component::Port(p) => p.unsent_not_before(),
                        Component::Host(_) => 0,
                    }
                })
            };
            let horizon = horizon.min(end);
            let comp = unsafe { comps.get_unchecked_mut(c as usize) };
            *events += comp.advance(horizon, world);
            *batches += 1;
            assert!(world.sched.tree().len() == tree_len, "the tables' scheduler");
            let mut k = comp.key_after_batch();
            if left {
                // What the pulled ports' inputs still hold arrives at or after the end: the
                // key covers it all the same (their next cells wake no one).
                k = k.min(pulled_work(s as usize, &pulling, world));
            }
            unsafe { world.sched.set_first_at_unchecked::<D>(s, k) };
            if feed != NO_FEED {
                mark_fed(feeds, world, feed as usize);
            }
        }
    }

    /// Run until `end` (exclusive).
    pub fn run_until(&mut self, end: Time) {
        self.commit_until(end);
        self.find_pulled();
        for (comp, &s) in self.comps.iter().zip(&self.slot) {
            let k = comp.next_key(&self.world);
            self.world.sched.wake(s, k);
        }
        // The loop for the depth of the scheduler's tree: its walks unrolled (a tree of 1 to
        // 65536 leaves; a loop beyond).
        macro_rules! by_depth {
            ($($d:literal)*) => {
                match self.world.sched.depth() {
                    $($d => self.run_batches::<$d>(end),)*
                    _ => self.run_batches::<ANY_DEPTH>(end),
                }
            };
        }
        by_depth!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
        // A pulled port's cells arriving before the end whose receiver, woken a latency after
        // them, was not popped before it: the port takes them now, as its own batches would
        // have (what it sends arrives after the end).
        self.pull_rest(end);
        self.now = end;
        for comp in self.comps.iter_mut() {
            if let Component::Port(p) = comp {
                p.finish(end);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::report;
    use crate::scenario::build::{build, Built};
    use crate::scenario::load;

    /// A shipped scenario with overrides, built, and its end.
    fn shipped(file: &str, sets: &[(&str, &str)]) -> (Built, Time) {
        let path = format!("{}/../../python/atmsim/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("a shipped scenario");
        let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let model = load(&text, &sets, None).expect("a valid scenario");
        let end = model.duration;
        (build(model), end)
    }

    /// A scenario's report (without the wall time) and the batches run, with or without the
    /// one-input gates.
    fn run_gated(file: &str, sets: &[(&str, &str)], gated: bool) -> (serde_json::Value, u64) {
        let (mut built, end) = shipped(file, sets);
        if !gated {
            built.sim.horizons.clear_gates();
        }
        built.sim.run_until(end);
        let mut v = serde_json::to_value(report(&built, 0.0)).expect("a report");
        v.as_object_mut().expect("an object").remove("wall_s");
        (v, built.sim.batches)
    }

    #[test]
    fn one_input_gates_give_the_same_results_in_fewer_batches() {
        // The bench networks: every component but the two trunk ports has one input, from a
        // committing FIFO port; on the LAN a batch of each is otherwise cut at about four hops.
        for (file, fewer) in
            [("bench/lan5.toml", true), ("bench/lan15.toml", true), ("bench/wan5.toml", false)]
        {
            // (Pulled ports run no batches of their own: the gates then count for less.)
            let sets = [("simulation.duration_s", "0.05"), ("engine.pull_lone_ports", "false")];
            let (gated, b1) = run_gated(file, &sets, true);
            let (plain, b0) = run_gated(file, &sets, false);
            assert!(gated == plain, "{file}: the reports differ");
            assert!(b1 <= b0, "{file}: {b1} batches gated, {b0} not");
            if fewer {
                assert!(b1 * 10 < b0 * 9, "{file}: {b1} batches gated, {b0} not");
            }
        }
    }

    #[test]
    fn pulled_ports_give_the_same_results_in_fewer_batches() {
        // The egress ports (one input each, from a trunk port, plain) are run by their hosts,
        // with no batches of their own; on the WAN many of their cells arrive within the last
        // link latency of the end, where the hosts are not popped: the end takes them.
        let pull_off = ("engine.pull_lone_ports", "false");
        for file in ["bench/gfr-wfq-sack.toml", "bench/lan5.toml", "bench/wan5.toml", "bench/dfba.toml"] {
            let dur = ("simulation.duration_s", "0.05");
            let (on, b1) = run_gated(file, &[dur], true);
            let (off, b0) = run_gated(file, &[dur, pull_off], true);
            assert!(on == off, "{file}: the reports differ");
            assert!(b1 < b0, "{file}: {b1} batches pulling, {b0} not");
        }
        // Run in steps, the pulled ports' inputs change hands at each run's start.
        let (mut built, end) = shipped("bench/wan5.toml", &[("simulation.duration_s", "0.05")]);
        for k in 1..=5 {
            built.sim.run_until(end / 5 * k);
        }
        let mut stepped = serde_json::to_value(report(&built, 0.0)).expect("a report");
        stepped.as_object_mut().expect("an object").remove("wall_s");
        let (whole, _) = run_gated("bench/wan5.toml", &[("simulation.duration_s", "0.05")], true);
        assert!(stepped == whole, "the stepped run's report differs");
    }

    #[test]
    fn switches_that_shape_the_schedule_reach_it() {
        // With committing, the levels, the skipped middle cells or (levels off, which read the
        // same ports on the bench LAN) the one-input gates off, the bench LAN runs more
        // batches to the same report: each `[engine]` switch reaches the plan that chooses its
        // path (`EnginePaths` through `Sim::new` to every component).
        let dur = ("simulation.duration_s", "0.05");
        let no_levels = ("engine.horizon_levels", "false");
        let cases: [(&str, &[(&str, &str)]); 4] = [
            ("engine.commit", &[dur]),
            ("engine.horizon_levels", &[dur]),
            ("engine.skip_middle", &[dur]),
            ("engine.one_input_gate", &[dur, no_levels]),
        ];
        for (key, sets) in cases {
            let (on, b0) = run_gated("bench/lan5.toml", sets, true);
            let mut with = sets.to_vec();
            with.push((key, "false"));
            let (off, b1) = run_gated("bench/lan5.toml", &with, true);
            assert!(off == on, "{key}: the reports differ");
            assert!(b1 > b0, "{key}: {b1} batches off, {b0} on");
        }
    }

    #[test]
    #[should_panic(expected = "the tables' scheduler")]
    fn a_scheduler_not_laid_out_for_the_tables_is_refused() {
        // The loop reads the tree and the tables by the scheduler's slots unchecked: a larger
        // tree (its walks fit its own depth) must be refused, not scanned.
        let (mut built, end) = shipped("bench/lan5.toml", &[("simulation.duration_s", "0.001")]);
        built.sim.world.sched = Sched::new(4 * built.sim.world.sched.leaves());
        built.sim.run_until(end);
    }

    /// A scenario's report (without the wall time), run with the input marks or, `marked`
    /// false, with every input read at each batch; and how many components' words the run left
    /// with some bit cleared.
    fn run(file: &str, sets: &[(&str, &str)], marked: bool) -> (serde_json::Value, usize) {
        let (mut built, end) = shipped(file, sets);
        if !marked {
            built.sim.world.sched.marks = InputMarks::default();
        }
        built.sim.run_until(end);
        let mut v = serde_json::to_value(report(&built, 0.0)).expect("a report");
        v.as_object_mut().expect("an object").remove("wall_s");
        (v, built.sim.world.sched.marks.cleared())
    }

    #[test]
    fn marked_inputs_give_the_results_of_reading_every_input() {
        // 70 sources: more than 64 inputs at the bottleneck and the reverse trunk port (two
        // words of marks, the heap kept across batches); 300 on the WAN with aligned phases
        // (five words, ties); FCVC: hosts with two inputs (data and credits); both schedules.
        let cases: [(&str, &[(&str, &str)]); 5] = [
            ("bench/lan5.toml", &[("n_source.sources", "70"), ("simulation.duration_s", "0.03")]),
            (
                "bench/wan5.toml",
                &[
                    ("n_source.sources", "300"),
                    ("n_source.buffer_cells", "7200"),
                    ("simulation.phases", "aligned"),
                    ("simulation.duration_s", "0.15"),
                ],
            ),
            ("bench/lan15.toml", &[("simulation.duration_s", "0.03"), ("engine.schedule", "reference")]),
            ("bench/wan5.toml", &[("simulation.duration_s", "0.1")]),
            ("gerla-fcvc.toml", &[("simulation.duration_s", "0.05")]),
        ];
        for (file, sets) in cases {
            let (marked, cleared) = run(file, sets, true);
            let (every, _) = run(file, sets, false);
            assert!(marked == every, "{file}: the reports differ");
            assert!(cleared > 0, "{file}: the marks were read");
            let delivered = &marked["summary"]["conservation"]["cells_delivered"];
            assert!(delivered.as_u64().is_some_and(|d| d > 100), "{file}: {delivered}");
        }
    }
}
