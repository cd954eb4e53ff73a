//! Congestion signals a port gives the sources' rate control: EFCI on data cells (PRCA), and the
//! adaptive-shaping level (CLASS study): a forward port publishes its occupancy band against T_l
//! and T_h to a [`LevelLog`], and the reverse port of the same switch writes that band into the
//! backward RM cells of the VC as they pass, only ever making their feedback more pessimistic.
//! With fair-share enforcement (`net::fair_share`) the forward port also meters the free
//! bandwidth and publishes the VCs' fair share, and the reverse port judges each enforced VC's
//! backward RM cells by the rate they declare against it.

use super::INFINITE;
use crate::abr::Feedback;
use crate::cell::{rm, Cell};
use crate::net::fair_share::{enforced, NONE_STEPPED};
use crate::net::{feedback_of, with_feedback, FairShareMeter, LevelLog};
use crate::time::{SlotClock, SlotMark, Time};

/// Publishes this port's adaptive-shaping band (its occupancy against T_l and T_h).
#[derive(Debug, Clone, Copy)]
struct LevelWriter {
    /// Index in `World::levels`.
    log: u32,
    t_low: u32,
    t_high: u32,
}

#[derive(Debug)]
pub(super) struct Congestion {
    /// Data cells arriving above this shared-buffer occupancy get EFCI (`INFINITE`: never).
    pub efci_threshold: u32,
    /// The occupancy band `[band_lo, band_lo + band_span]` whose leaving is published to
    /// `level` (the whole range, never left, when nothing reads it).
    band_lo: u32,
    band_span: u32,
    level: Option<LevelWriter>,
    /// Per VC: the level log (index in `World::levels`) of the VC's forward port at this
    /// switch, read by backward RM cells.
    rm_levels: Vec<Option<u32>>,
    /// Some VC's backward RM cells read a log here (kept for `Port::advance`'s one test a
    /// batch, as `logs`).
    reading: bool,
    /// This port writes or reads a level or fair-share log.
    logs: bool,
    /// Per VC: the fair-share log (index in `World::shares`) of the VC's forward port at this
    /// switch, when that port enforces fair shares on it.
    rm_shares: Vec<Option<u32>>,
    /// Per VC under enforcement: the declared rate last answered with a step.
    stepped: Vec<u32>,
    /// This is a forward port that enforces fair shares (the CLASS study's two-node runs).
    meter: Option<Box<FairShareMeter>>,
}

/// What a backward RM cell got here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Raised {
    No,
    /// Made more pessimistic by the buffer band.
    Band,
    /// Set to DR by the fair-share rule where the band alone would not have.
    FairShare,
}

impl Default for Congestion {
    fn default() -> Self {
        Congestion {
            efci_threshold: INFINITE,
            band_lo: 0,
            band_span: u32::MAX,
            level: None,
            rm_levels: Vec::new(),
            reading: false,
            logs: false,
            rm_shares: Vec::new(),
            stepped: Vec::new(),
            meter: None,
        }
    }
}

impl Congestion {
    /// Publish the band against `t_low` / `t_high` to `World::levels[log]`.
    pub fn publish(&mut self, log: u32, t_low: u32, t_high: u32) {
        self.level = Some(LevelWriter { log, t_low, t_high });
        self.logs = true;
        self.set_band(0);
    }

    /// Backward RM cells of `vc` read `World::levels[log]`.
    pub fn read(&mut self, vc: usize, n_vcs: usize, log: u32) {
        self.rm_levels.resize(n_vcs, None);
        self.rm_levels[vc] = Some(log);
        self.reading = true;
        self.logs = true;
    }

    /// Backward RM cells of `vc` are judged against the fair share in `World::shares[log]`.
    pub fn read_share(&mut self, vc: usize, n_vcs: usize, log: u32) {
        self.rm_shares.resize(n_vcs, None);
        self.rm_shares[vc] = Some(log);
        self.stepped.resize(n_vcs, NONE_STEPPED);
    }

    /// Backward RM cells of the VC labelled `vc` here read a log.
    #[inline]
    pub fn reads(&self, vc: usize) -> bool {
        matches!(self.rm_levels.get(vc), Some(Some(_)))
    }

    /// No reader will ask for a time before `t` (the global time): prune the logs this port
    /// writes.
    pub fn prune_logs(&self, t: Time, levels: &mut [LevelLog], shares: &mut [LevelLog<u32>]) {
        if let Some(w) = self.level {
            levels[w.log as usize].prune_before(t);
        }
        if let Some(m) = &self.meter {
            shares[m.log() as usize].prune_before(t);
        }
    }

    /// Enforce fair shares with `meter`, publishing them to its log.
    pub fn enforce(&mut self, meter: FairShareMeter) {
        self.meter = Some(Box::new(meter));
        self.logs = true;
    }

    /// This port writes or reads a level or fair-share log (a fair-share log is read only
    /// with a level log, `Congestion::read_share`).
    #[inline]
    pub fn logs(&self) -> bool {
        self.logs
    }

    /// Some VC's backward RM cells read a log here.
    #[inline]
    pub fn reading(&self) -> bool {
        self.reading
    }

    /// A cell of `vc` entered the buffer at `now`: meter it if this port enforces fair shares.
    #[inline]
    pub fn metered(&mut self, now: Time, vc: usize, shares: &mut [LevelLog<u32>]) {
        if let Some(m) = self.meter.as_deref_mut() {
            m.arrival(now, vc, shares);
        }
    }

    /// A data cell of `vc` enters the shared buffer at occupancy `x` at `now`: meter it, publish
    /// the level it raises, and say whether it gets EFCI.
    #[inline(always)]
    pub fn data_arrival(
        &mut self,
        now: Time,
        vc: usize,
        x: u32,
        levels: &mut [LevelLog],
        shares: &mut [LevelLog<u32>],
    ) -> bool {
        self.metered(now, vc, shares);
        self.level_moved(now, x + 1, levels);
        self.efci(x)
    }

    /// Does a data cell arriving at shared occupancy `x` get EFCI?
    #[inline]
    pub fn efci(&self, x: u32) -> bool {
        x > self.efci_threshold
    }

    /// The shared occupancy is now `x`: publish it if it left its band (one compare when it did
    /// not, or when nothing is published: the band is then the whole range).
    #[inline(always)]
    pub fn level_moved(&mut self, now: Time, x: u32, levels: &mut [LevelLog]) {
        if x.wrapping_sub(self.band_lo) > self.band_span {
            self.band_changed(now, x, levels);
        }
    }

    #[cold]
    #[inline(never)]
    fn band_changed(&mut self, now: Time, x: u32, levels: &mut [LevelLog]) {
        let f = self.set_band(x);
        if let Some(w) = self.level {
            levels[w.log as usize].push(now, f);
        }
    }

    /// How many departures in a row, no cell arriving between, take the published level `x`
    /// out of its band (`None`: none can: nothing is published, or the band reaches down to an
    /// empty buffer). Only that departure moves what a reader reads.
    #[inline]
    pub fn departures_to_leave(&self, x: u32) -> Option<u32> {
        match self.level {
            Some(_) if self.band_lo > 0 => Some(x + 1 - self.band_lo),
            _ => None,
        }
    }

    /// The published band as a pass keeps it in locals, `(lo, span)`: a level `x` is inside it
    /// when `x.wrapping_sub(lo) <= span` (always, where nothing is published).
    #[inline]
    pub fn band(&self) -> (u32, u32) {
        (self.band_lo, self.band_span)
    }

    /// `n` committed departures in consecutive slots from `first` (on `clock`, the
    /// transmitter's grid) happen, the shared level falling from `x`: publish each band the
    /// level leaves, at the slot of the departure that leaves it (one compare when the level
    /// ends in its band, as `level_moved`). A count-only port keeps no ring of slots
    /// (`CommittedRun`), so the slot is found by counting from the first.
    #[inline(always)]
    pub fn departures_retired(
        &mut self,
        first: SlotMark,
        x: u32,
        n: u32,
        clock: &SlotClock,
        levels: &mut [LevelLog],
    ) {
        if (x - n).wrapping_sub(self.band_lo) > self.band_span {
            self.departures_left(first, x, n, clock, levels);
        }
    }

    /// `departures_retired` where the level ends outside its band (a pass that keeps the band
    /// in locals, [`Congestion::band`], tests that itself).
    #[cold]
    #[inline(never)]
    pub fn departures_left(
        &mut self,
        mut first: SlotMark,
        mut x: u32,
        mut n: u32,
        clock: &SlotClock,
        levels: &mut [LevelLog],
    ) {
        while let Some(k) = self.departures_to_leave(x).filter(|&k| k <= n) {
            clock.step_by(&mut first, k - 1);
            (x, n) = (x - k, n - k);
            self.band_changed(first.time(), x, levels);
            clock.step(&mut first);
        }
        debug_assert!((x - n).wrapping_sub(self.band_lo) <= self.band_span, "the level ends in its band");
    }

    /// Data cells get EFCI here (what closes the slotted pass at a keyed port: it logs the
    /// level and meters, but marks no cell).
    pub fn marks_efci(&self) -> bool {
        self.efci_threshold != INFINITE
    }

    /// Make the band around `x` current; returns its feedback. The bands follow
    /// `Feedback::at_switch`: below T_l, T_l..=T_h, above T_h.
    fn set_band(&mut self, x: u32) -> Feedback {
        let Some(w) = &self.level else { return Feedback::Increase };
        let f = Feedback::Increase.at_switch(x, w.t_low, w.t_high);
        let (lo, hi) = match f {
            Feedback::Increase => (0, w.t_low - 1),
            Feedback::Keep => (w.t_low, w.t_high),
            Feedback::Decrease => (w.t_high + 1, u32::MAX),
        };
        self.band_lo = lo;
        self.band_span = hi - lo;
        f
    }

    /// A backward RM cell passes at `now`: give it this switch's feedback (the forward port's
    /// band, or under enforcement the fair-share rule) if that is more pessimistic than what it
    /// carries.
    pub fn backward_rm(
        &mut self,
        now: Time,
        cell: &mut Cell,
        levels: &[LevelLog],
        shares: &[LevelLog<u32>],
    ) -> Raised {
        let vc = cell.vc as usize;
        let Some(&Some(log)) = self.rm_levels.get(vc) else { return Raised::No };
        // The forward port's band and share in force when this RM cell passes (`level_log`).
        let band = levels[log as usize].at(now);
        let here = match self.rm_shares.get(vc) {
            Some(&Some(s)) => {
                enforced(band, rm::ccr(cell.frame), shares[s as usize].at(now), &mut self.stepped[vc])
            }
            _ => band,
        };
        if here <= feedback_of(cell.frame) {
            return Raised::No;
        }
        cell.frame = with_feedback(cell.frame, here);
        if here == Feedback::Decrease && band != Feedback::Decrease {
            Raised::FairShare
        } else {
            Raised::Band
        }
    }
}
