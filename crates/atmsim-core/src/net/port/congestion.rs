//! Congestion signals a port gives the sources' rate control: EFCI on data cells (PRCA), and the
//! adaptive-shaping level (CLASS study): a forward port publishes its occupancy band against T_l
//! and T_h to a [`LevelLog`], and the reverse port of the same switch writes that band into the
//! backward RM cells of the VC as they pass, only ever making their feedback more pessimistic.

use super::INFINITE;
use crate::abr::Feedback;
use crate::cell::Cell;
use crate::net::{feedback_of, with_feedback, LevelLog};
use crate::time::Time;

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
}

impl Default for Congestion {
    fn default() -> Self {
        Congestion {
            efci_threshold: INFINITE,
            band_lo: 0,
            band_span: u32::MAX,
            level: None,
            rm_levels: Vec::new(),
        }
    }
}

impl Congestion {
    /// Publish the band against `t_low` / `t_high` to `World::levels[log]`.
    pub fn publish(&mut self, log: u32, t_low: u32, t_high: u32) {
        self.level = Some(LevelWriter { log, t_low, t_high });
        self.set_band(0);
    }

    /// Backward RM cells of `vc` read `World::levels[log]`.
    pub fn read(&mut self, vc: usize, n_vcs: usize, log: u32) {
        self.rm_levels.resize(n_vcs, None);
        self.rm_levels[vc] = Some(log);
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

    /// A backward RM cell passes at `now`: give it the forward port's band if that is more
    /// pessimistic than what it carries. Returns whether it was raised.
    pub fn backward_rm(&self, now: Time, cell: &mut Cell, levels: &[LevelLog]) -> bool {
        let Some(&Some(log)) = self.rm_levels.get(cell.vc as usize) else { return false };
        // The forward port's band when this RM cell passes (see `level_log` for how stale it
        // can be).
        let here = levels[log as usize].at(now);
        if here > feedback_of(cell.frame) {
            cell.frame = with_feedback(cell.frame, here);
            return true;
        }
        false
    }
}
