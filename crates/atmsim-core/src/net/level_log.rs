//! A switch port's congestion level as other components may read it: the CLASS study's
//! adaptive shaping (its section 2.1) has the switch set the feedback of a BACKWARD RM cell from
//! the occupancy of the FORWARD port's buffer, and the two directions are different ports.
//!
//! Ports are separate components that run ahead in batches, so the reverse port cannot look at
//! the forward port's live state: at the instant the reverse port handles an RM cell, the forward
//! port may be behind or ahead of that instant. The forward port therefore publishes every change
//! of its *band* (below T_l, between, above T_h) with its time, and the reader takes the band in
//! force just before the RM cell passes: the last change strictly before its time (a change at
//! the same instant, an arrival tied with the RM cell, is not yet seen).
//!
//! Exact, whatever the schedule, by two rules (`docs/engine.md`). When a component starts a
//! batch at `t` (its key, still in the scheduler while the batch runs), every component has
//! finished its work before `t` (the scheduler pops the earliest key). A writer's key is never
//! past a change of its band it has not logged: it takes every arrival before its key, and as a
//! keyed port (`Port::commit_keyed_until`) its key keeps the committed departure that takes the
//! level out of its band, each batch retiring and logging the departures before its end (a
//! per-cell writer's key is its next event). So the log holds every change before `t`. And a reader's
//! batch stops before any backward RM cell that reads a log later than the batch's start
//! (`Port::first_read_after`), so each such cell is taken at a batch's start. The reverse port
//! reads the forward port's band as the switch would, at the RM cell's instant, under the
//! reference schedule and every fast path alike.
//!
//! Pruning: no reader asks for a time before the global time, which never moves back; a writer
//! at the start of each batch drops the entries older than the last one before it
//! (`LevelLog::prune_before`).

use std::collections::VecDeque;

use crate::abr::Feedback;
use crate::time::Time;

/// Logs live in `World::levels`; the forward port (writer) and the reverse ports (readers) of
/// one switch hold its index.
#[derive(Debug, Clone)]
///
/// The value is the band's feedback, or for a fair-share log (`fair_share`) the share in
/// cells per second.
pub struct LevelLog<T = Feedback> {
    /// (time, the value from then on), in time order; never empty.
    entries: VecDeque<(Time, T)>,
}

impl<T: Copy> LevelLog<T> {
    /// A log starting at time 0 at `initial`.
    pub fn new(initial: T) -> Self {
        LevelLog { entries: VecDeque::from([(0, initial)]) }
    }

    /// The value became `f` at `t` (not before the last entry).
    pub fn push(&mut self, t: Time, f: T) {
        debug_assert!(self.entries.back().is_none_or(|&(last, _)| last <= t));
        self.entries.push_back((t, f));
    }

    /// No one will ask for a time before `t`: keep of the entries before it only the last.
    pub fn prune_before(&mut self, t: Time) {
        while self.entries.len() >= 2 && self.entries[1].0 < t {
            self.entries.pop_front();
        }
    }

    /// The band just before `t`: the last change strictly before `t` (the oldest kept if none
    /// is: at time 0, or a time pruned away, which no reader asks for).
    pub fn at(&self, t: Time) -> T {
        let n = self.entries.partition_point(|&(at, _)| at < t);
        self.entries[n.saturating_sub(1)].1
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The entries kept: (time, value from then on).
    #[cfg(test)]
    pub fn changes(&self) -> Vec<(Time, T)> {
        self.entries.iter().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Feedback::*;

    #[test]
    fn reads_the_band_in_force_at_the_asked_time() {
        let mut log = LevelLog::new(Increase);
        log.push(10, Keep);
        log.push(20, Decrease);
        log.push(20, Keep);
        assert_eq!(log.at(0), Increase);
        assert_eq!(log.at(10), Increase, "a change at the asked instant is not yet seen");
        assert_eq!(log.at(11), Keep);
        assert_eq!(log.at(20), Keep);
        assert_eq!(log.at(21), Keep, "the last change at an instant wins");
        assert_eq!(log.at(5000), Keep);
    }

    #[test]
    fn keeps_only_what_a_reader_can_still_ask_for() {
        let mut log = LevelLog::new(Increase);
        for k in 1..=50u64 {
            log.push(k * 10, if k % 2 == 0 { Keep } else { Decrease });
        }
        // No one asks before 401: of the entries before it only the one at 400 stays.
        log.prune_before(401);
        assert_eq!(log.len(), 11);
        assert_eq!(log.at(401), Keep);
        assert_eq!(log.at(410), Keep);
        assert_eq!(log.at(411), Decrease);
        // An entry at the asked instant itself is not yet in force there: it stays, with the
        // one before it.
        log.prune_before(410);
        assert_eq!((log.len(), log.at(410), log.at(411)), (11, Keep, Decrease));
    }
}
