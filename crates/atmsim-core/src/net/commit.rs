//! Committed departures: a cell whose departure slot nothing can change any more is put on the
//! wire when it is queued, not when its slot comes.
//!
//! A first-come-first-served transmitter (a host adapter with plain VCs only, a switch port with
//! a FIFO queue and no flow-control hooks) sends its cells in queue order in consecutive free
//! slots of its grid: the slot of a cell is fixed the moment it is queued, since a later arrival
//! can only queue behind it. Sending it at once changes no cell's time. What it changes is the
//! work of the engine:
//!
//! - the departure is no longer an event of its own in the component's batch loop (a merge
//!   peek, a compare, a queue pop at its slot): it is a transmit right after the enqueue;
//! - the component's scheduler key is its next arrival or timer only, not its next busy slot,
//!   so a component it feeds sees a sender that is quiet for longer (`Sim::horizon`) and runs
//!   longer batches: on the 1 us links of the LAN bench cases, where a batch held about one
//!   cell, this is most of the gain.
//!
//! What a departure does besides transmitting is kept at its own time. At a port the occupancy
//! (per class and in total) and the count of active classes feed the buffer policy of later
//! arrivals, so a committed departure is remembered in [`Committed`] with its slot and class and
//! *retired* (the class's occupancy falls) only when the port reaches an instant after the slot:
//! before each arrival (departures in slots strictly before it, as the per-cell loop orders an
//! arrival before a departure at the same picosecond) and at the end of the run. Counters that
//! are sums (cells sent, the occupancy integrals) commute and are updated at once. Under a policy
//! that reads only the total occupancy (tail drop, PPD, EPD, FIFO GFR) the departures are only
//! counted ([`CommittedRun`]: they fill consecutive slots, so the first and a count say which).
//! Nothing reads a class's occupancy there during a run, so a class counts its committed cells
//! as gone at once.
//!
//! A host's adapter tagging (the GFR study's) commits too: it decides a frame's CLP at the slot
//! of its first cell, which is known when the frame is committed.
//!
//! A committing port with none of its optional parts on (no UPC, faults, own buffers, hooks,
//! merging or trace) takes its arrivals through `Port::enqueue_plain`: the frame state machine,
//! the policy at first cells and the buffer limit, then the transmit, with nothing tested for
//! the parts that are off; its per-label table holds the channel's route, copied at
//! `commit_until`, so the whole per-cell path reads one entry per VC. At such a port with one
//! input and a count-only policy, the middle and last cells of a frame that find the port idle
//! are taken in one pass per frame (`net/port/train.rs`); at one with several inputs, the cells
//! of one VC in a run of the input merge that find it busy are taken in one pass too
//! (`net/port/busy.rs`), and so are the cells of several inputs interleaving there one at a
//! time, from a tie on (`net/port/interleave.rs`).
//!
//! Departures are committed only up to the end of the run (`commit_end`): a cell whose slot is
//! at or after it stays queued, as would the per-cell path leave it, and so does every cell
//! queued behind it. At the end of `Sim::run_until` the state is therefore the per-cell path's
//! exactly (cells sent, on the wire, queued, the integrals), and a later `run_until` goes on from
//! it. Each committed departure is counted as the event it replaces, so the reports' event
//! counts do not change either.
//!
//! *Keyed* commitment (`Port::commit_keyed_until`), for the writers and readers of
//! adaptive-shaping level logs (`net/level_log.rs`): a reader reads a writer's band at an RM
//! cell's instant, which the writer must have logged by then. A FIFO port there still sends
//! each cell when it is queued, but its key keeps the slot of the committed departure that
//! takes its published level out of its band, and each of its batches retires every departure
//! before its end, a level's move at each departure logged as it retires, in time order with
//! the arrivals' moves: no change of its level lies before its key unlogged.
//! A cell sent ahead sits in the next component's FIFO earlier than on the per-cell path, which
//! the receiver takes at its time as any other. Hooks that act at arrivals (EFCI, fair-share
//! metering) are unchanged. Such a port counts its committed departures only where its policy
//! allows (`CommittedRun`, the slot of the one leaving the band counted from the first), else
//! keeps them with their slots (`Committed`).
//!
//! Which components commit is decided in one place per kind, at set-up: `port/plan.rs`
//! (`PortPlan::choose`) and `host/plan.rs` (`HostPlan::choose`), with the schedule's part in
//! `plan.rs` (`SchedulePlan`) and every such path switchable (`[engine]`, `EnginePaths`).
//!
//! Not committed (the per-cell path runs), because something reads the transmitter at each of
//! its slots or lets a later arrival overtake a queued cell: the reference schedule
//! (`[engine] schedule = "reference"`, which keeps the per-cell path as the yardstick); ports
//! with a scheduler other than FIFO, a priority or FCVC buffer of their own, credit hooks,
//! other flow-control hooks (EFCI, published levels, fair shares) except keyed, frame merging
//! with `[engine] commit_merging` off (on, a merging port commits each frame when it queues it
//! whole, `net/port/merged.rs`) or a trace; hosts in a keyed scenario, hosts with
//! controlled (shaped, rate- or credit-controlled) VCs, background sources
//! (whose bounded queues free room at each departure) or senders timing from transmission
//! completion; any component whose output channel is captured (records are written per cell
//! in time order); and every host of a scenario whose adapters send RM cells (a returned RM
//! cell goes ahead of the cells already queued). `tests/engine.rs` runs every shipped scenario
//! both ways and compares the reports field by field.

use crate::ring::Ring;
use crate::time::{SlotClock, SlotMark, Time, NEVER};

/// "Not committing": the `commit_end` of a component that sends cell by cell.
pub const NO_COMMIT: Time = 0;

/// A port's committed departures whose slots have not yet come: (slot, accounting class), in
/// slot order.
#[derive(Debug, Default)]
pub struct Committed {
    ring: Ring<(Time, u16)>,
}

impl Committed {
    /// A cell of `class` was sent in the slot starting at `slot` (later than any before).
    #[inline]
    pub fn push(&mut self, slot: Time, class: u16) {
        debug_assert!(self.ring.back().is_none_or(|&(s, _)| s < slot), "slots in order");
        self.ring.push_back((slot, class));
    }

    /// The earliest pending departure: its slot and class, if its slot starts before `t`
    /// (removed from the pending ones).
    #[inline]
    pub fn pop_before(&mut self, t: Time) -> Option<(Time, u16)> {
        match self.ring.front() {
            Some(&(slot, _)) if slot < t => self.ring.pop_front(),
            _ => None,
        }
    }

    /// Committed departures not yet retired.
    #[inline]
    pub fn len(&self) -> u32 {
        self.ring.len() as u32
    }

    /// The slot of pending departure `k` from the earliest (0: `first_slot`'s), `NEVER` if
    /// fewer are pending.
    #[inline]
    pub fn slot_of(&self, k: u32) -> Time {
        self.ring.get(k as usize).map_or(NEVER, |&(slot, _)| slot)
    }

    /// The slot of the earliest pending departure (`NEVER`: none is pending).
    #[inline]
    pub fn first_slot(&self) -> Time {
        self.ring.front().map_or(NEVER, |&(slot, _)| slot)
    }

    /// Nothing pending.
    pub fn is_empty(&self) -> bool {
        self.ring.is_empty()
    }
}

/// A port's committed departures counted, without their classes: for a port whose policy
/// reads no per-VC occupancy (tail drop, PPD, EPD, FIFO GFR), where only the total occupancy
/// must follow the departures.
///
/// The pending departures are in consecutive slots of the transmitter's grid: each one is
/// committed in the slot after the one before, and the transmitter jumps ahead (leaving a gap)
/// only on an arrival after its next free slot, when every pending departure is before that
/// arrival and so already retired. The first pending slot and a count describe them all; a
/// departure retires in one step of a slot clock, with no ring to fill and empty. Its class
/// counts the cell as gone at once (`Port::commit`): nothing reads a class's occupancy before
/// the run ends, when every committed departure has been retired.
#[derive(Debug, Clone, Copy, Default)]
pub struct CommittedRun {
    /// The slot of the earliest pending departure on the transmitter's grid (stale when none
    /// is pending).
    first: SlotMark,
    /// The slot of the latest pending departure (stale when none is pending): when it is before
    /// an arrival, all are (an idle transmitter), and they retire without a step each.
    last: Time,
    pending: u32,
}

impl CommittedRun {
    /// A departure is committed in `next`, the transmitter's next free slot (right after the
    /// last pending one, if any is pending).
    #[inline(always)]
    pub fn push(&mut self, next: SlotMark) {
        if self.pending == 0 {
            self.first = next;
        }
        self.last = next.time();
        self.pending += 1;
    }

    /// The pending departures in slots starting before `t` happen (`clock`: the transmitter's
    /// grid): how many.
    #[inline(always)]
    pub fn retire_before(&mut self, t: Time, clock: &SlotClock) -> u32 {
        if self.last < t {
            // All of them (or none is pending).
            return std::mem::take(&mut self.pending);
        }
        // The last one stays, so the walk stops before it.
        let mut n = 0;
        while self.first.time() < t {
            clock.step(&mut self.first);
            n += 1;
        }
        self.pending -= n;
        n
    }

    /// Whether every pending departure is in a slot starting before `t` (or none is pending):
    /// the transmitter is idle at `t` apart from the slot it may be sending in.
    #[inline]
    pub fn all_before(&self, t: Time) -> bool {
        self.pending == 0 || self.last < t
    }

    /// The slot of the latest pending departure (stale when none is pending).
    #[inline]
    pub fn last_slot(&self) -> Time {
        self.last
    }

    /// The earliest pending departure's slot as a mark (stale when none is pending).
    #[inline]
    pub fn first_mark(&self) -> SlotMark {
        self.first
    }

    /// The slot of pending departure `k` from the earliest (0: `first_slot`'s), `NEVER` if
    /// fewer are pending: the first stepped `k` times on `clock`, the transmitter's grid.
    #[inline]
    pub fn slot_of(&self, k: u32, clock: &SlotClock) -> Time {
        if k >= self.pending {
            return NEVER;
        }
        let mut m = self.first;
        clock.step_by(&mut m, k);
        m.time()
    }

    /// The slot of the earliest pending departure (`NEVER`: none is pending).
    #[inline]
    pub fn first_slot(&self) -> Time {
        if self.pending == 0 {
            NEVER
        } else {
            self.first.time()
        }
    }

    /// The first pending slot and the count, for a caller that keeps them in its own loop (a
    /// busy pass, `Port::busy_pass`); `next`, the transmitter's next free slot, stands for the
    /// first when none is pending. In consecutive slots, the departures end right before `next`:
    /// the first stepped `count` times is `next`.
    #[inline]
    pub fn parts(&self, next: SlotMark) -> (SlotMark, u32) {
        if self.pending == 0 {
            (next, 0)
        } else {
            (self.first, self.pending)
        }
    }

    /// The run of `pending` departures in consecutive slots from `first`, the last one right
    /// before the transmitter's next free slot `next` (what [`CommittedRun::parts`] gave,
    /// moved on).
    #[inline]
    pub fn from_parts(first: SlotMark, pending: u32, next: SlotMark, clock: &SlotClock) -> Self {
        let last = if pending == 0 { 0 } else { clock.before(next).time() };
        CommittedRun { first, last, pending }
    }

    /// One departure pending, in `slot`.
    #[inline]
    pub fn one(slot: SlotMark) -> Self {
        CommittedRun { first: slot, last: slot.time(), pending: 1 }
    }

    /// Committed departures not yet retired.
    #[inline]
    pub fn len(&self) -> u32 {
        self.pending
    }

    /// Nothing pending.
    pub fn is_empty(&self) -> bool {
        self.pending == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::CellPeriod;

    #[test]
    fn a_run_retires_its_consecutive_slots_as_the_ring_does() {
        // Departures committed in consecutive slots, a gap (the transmitter idle), more: the
        // run and the ring retire the same number before every instant, and name the same
        // slot for each pending departure (`NEVER` past the last).
        let mut clock = SlotClock::with_phase(CellPeriod::from_bps(155_520_000), 77);
        let (mut run, mut ring) = (CommittedRun::default(), Committed::default());
        let commit = |clock: &mut SlotClock, run: &mut CommittedRun, ring: &mut Committed| {
            run.push(clock.mark());
            ring.push(clock.next(), 0);
            clock.advance();
        };
        for _ in 0..5 {
            commit(&mut clock, &mut run, &mut ring);
        }
        let probe = |t: Time, clock: &SlotClock, run: &mut CommittedRun, ring: &mut Committed| {
            let mut n = 0;
            while ring.pop_before(t).is_some() {
                n += 1;
            }
            assert_eq!(run.retire_before(t, clock), n, "at {t}");
            assert_eq!(run.len(), ring.len());
            for k in 0..=ring.len() {
                assert_eq!(run.slot_of(k, clock), ring.slot_of(k), "departure {k} at {t}");
            }
        };
        let third = 77 + 2 * 2_726_338;
        probe(third, &clock, &mut run, &mut ring);
        probe(third + 1, &clock, &mut run, &mut ring);
        assert_eq!(run.len(), 2);
        probe(clock.next(), &clock, &mut run, &mut ring);
        assert_eq!(run.len(), 0);
        // Idle for a while: the next departure starts a new run.
        clock.align(clock.next() + 40_000_000);
        let mut last = 0;
        for _ in 0..3 {
            last = clock.next();
            commit(&mut clock, &mut run, &mut ring);
        }
        probe(last, &clock, &mut run, &mut ring);
        assert_eq!(run.len(), 1, "the departure at `last` comes after an arrival then");
        probe(Time::MAX, &clock, &mut run, &mut ring);
        assert_eq!(run.len(), 0);
    }

    #[test]
    fn a_run_taken_apart_and_rebuilt_is_the_same_run() {
        // What a busy pass keeps of a run (its first slot and count) and gives back after
        // retiring and committing as `retire_before` and `push` would.
        let mut clock = SlotClock::with_phase(CellPeriod::from_bps(155_520_000), 77);
        assert_eq!(CommittedRun::default().parts(clock.mark()), (clock.mark(), 0), "none pending");
        let mut run = CommittedRun::default();
        for _ in 0..4 {
            run.push(clock.mark());
            clock.advance();
        }
        let (mut first, mut x) = run.parts(clock.mark());
        assert_eq!(x, 4);
        let second = clock.before(clock.before(clock.before(clock.mark())));
        run.retire_before(second.time() + 1, &clock);
        while x != 0 && first.time() < second.time() + 1 {
            clock.step(&mut first);
            x -= 1;
        }
        run.push(clock.mark());
        clock.advance();
        x += 1;
        let rebuilt = CommittedRun::from_parts(first, x, clock.mark(), &clock);
        for t in [second.time(), second.time() + 1, run.last_slot(), run.last_slot() + 1, Time::MAX] {
            assert_eq!(rebuilt.all_before(t), run.all_before(t), "at {t}");
            let (mut a, mut b) = (rebuilt, run);
            assert_eq!(
                (a.retire_before(t, &clock), a.len()),
                (b.retire_before(t, &clock), b.len()),
                "at {t}"
            );
            assert_eq!(a.first_slot(), b.first_slot(), "at {t}");
        }
        let empty = CommittedRun::from_parts(clock.mark(), 0, clock.mark(), &clock);
        assert!(empty.is_empty() && empty.all_before(0));
    }

    #[test]
    fn departures_retire_strictly_before_the_instant_in_slot_order() {
        let mut c = Committed::default();
        c.push(10, 0);
        c.push(20, 3);
        c.push(30, 1);
        assert_eq!(c.pop_before(10), None, "a departure at the arrival's instant comes after it");
        assert_eq!(c.pop_before(21), Some((10, 0)));
        assert_eq!(c.pop_before(21), Some((20, 3)));
        assert_eq!(c.pop_before(21), None);
        assert_eq!(c.len(), 1);
        assert_eq!(c.pop_before(Time::MAX), Some((30, 1)));
        assert!(c.is_empty());
    }
}
