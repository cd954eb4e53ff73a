//! A switch port's congestion level as other components may read it: the CLASS study's
//! adaptive shaping (its section 2.1) has the switch set the feedback of a BACKWARD RM cell from
//! the occupancy of the FORWARD port's buffer, and the two directions are different ports.
//!
//! Ports are separate components that run ahead in batches, so the reverse port cannot look at
//! the forward port's live state: at the instant the reverse port handles an RM cell, the forward
//! port may be behind or ahead of that instant. The forward port therefore publishes every change
//! of its *band* (below T_l, between, above T_h) with its time, and the reader takes the last
//! change at or before the RM cell's arrival time.
//!
//! Staleness (bounded): when the reverse port starts a batch at `t`, every component has finished
//! all its work before `t` (the scheduler's guarantee), so the log is exact up to `t`; the batch
//! ends before `t + L`, L the reverse port's lookahead (its smallest input latency). An RM cell
//! handled at `t_r` therefore sees the forward port's band exactly if that port has already got
//! to `t_r`, and otherwise its band at some instant in `[t, t_r)`: at most L old. The result is
//! deterministic (the schedule is).
//!
//! Pruning: a reader's query time is never before the global time, and the writer is never more
//! than its lookahead ahead of it, so only the last entry older than `window` (twice the largest
//! channel latency) behind the newest entry can still be asked for; older ones are dropped.

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
    window: Time,
}

impl<T: Copy> LevelLog<T> {
    /// A log starting at time 0 at `initial`.
    pub fn new(initial: T, window: Time) -> Self {
        LevelLog { entries: VecDeque::from([(0, initial)]), window }
    }

    /// The value became `f` at `t` (not before the last entry).
    pub fn push(&mut self, t: Time, f: T) {
        debug_assert!(self.entries.back().is_none_or(|&(last, _)| last <= t));
        self.entries.push_back((t, f));
        let cut = t.saturating_sub(self.window);
        while self.entries.len() >= 2 && self.entries[1].0 <= cut {
            self.entries.pop_front();
        }
    }

    /// The band at `t`: the last change at or before `t` (the oldest kept if all are later,
    /// which the pruning window rules out in a run).
    pub fn at(&self, t: Time) -> T {
        let n = self.entries.partition_point(|&(at, _)| at <= t);
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
        let mut log = LevelLog::new(Increase, 1000);
        log.push(10, Keep);
        log.push(20, Decrease);
        log.push(20, Keep);
        assert_eq!(log.at(0), Increase);
        assert_eq!(log.at(9), Increase);
        assert_eq!(log.at(10), Keep);
        assert_eq!(log.at(20), Keep, "the last change at an instant wins");
        assert_eq!(log.at(5000), Keep, "the writer has not got that far: its latest band");
    }

    #[test]
    fn keeps_only_what_a_reader_can_still_ask_for() {
        let mut log = LevelLog::new(Increase, 100);
        for k in 1..=50u64 {
            log.push(k * 10, if k % 2 == 0 { Keep } else { Decrease });
        }
        // Entries up to 500 - 100 = 400 are gone except the one in force at 400.
        assert_eq!(log.len(), 11);
        assert_eq!(log.at(400), Keep);
        assert_eq!(log.at(405), Keep);
        assert_eq!(log.at(410), Decrease);
    }
}
