//! The time series a switch port records when `[trace]` asks for them: its queue occupancy
//! (total, and per VC) at every multiple of the sampling interval, the utilisation of its
//! outgoing link over each interval, and each VC's arrival rate over each interval (the cells
//! that reached the port, accepted or not: what a source offers the switch, Bonaventure's
//! figure 24).
//!
//! The port calls [`PortTrace::due`] before each event at or after the next boundary, so a sample
//! is the state at the boundary instant: everything before it has happened, nothing at or after
//! it has. Between events the state is constant, so boundaries an idle port passes are sampled
//! late with the same values, and the run's end flushes the rest. Nothing is allocated per cell:
//! only the series grow, by one value per interval.

use crate::cell::VcId;
use crate::time::{CellPeriod, Time, NEVER};

#[derive(Debug, Clone)]
pub struct PortTrace {
    pub interval: Time,
    /// The last boundary sampled: the end of the run.
    end: Time,
    /// Cell slots in one interval at the link's rate (the utilisation's denominator).
    slots: f64,
    pub queues: bool,
    pub utilization: bool,
    /// VCs whose occupancy is recorded (`per_vc`), in the order of `per_vc`, and their labels
    /// at the port (what the port's occupancy is indexed by).
    pub vcs: Vec<VcId>,
    labels: Vec<VcId>,
    /// Sample instants: k * interval, k = 1, 2, ...
    pub t: Vec<Time>,
    pub cells: Vec<u32>,
    pub per_vc: Vec<Vec<u32>>,
    /// Cells sent in (`t[k] - interval`, `t[k]`] over the slots in an interval.
    pub util: Vec<f64>,
    /// `cells_out` at the previous boundary.
    last_out: u64,
    /// VCs whose arrival rate is recorded, in the order of `arrival_rate`, and their labels at
    /// the port (what its arrival counters are indexed by).
    pub arrival_vcs: Vec<VcId>,
    arrival_labels: Vec<VcId>,
    /// Cells per second that arrived in (`t[k] - interval`, `t[k]`], per VC.
    pub arrival_rate: Vec<Vec<f64>>,
    /// Each VC's arrival count at the previous boundary.
    last_arrived: Vec<u64>,
}

impl PortTrace {
    pub fn new(interval: Time, end: Time, period: CellPeriod, queues: bool, utilization: bool) -> Self {
        PortTrace {
            interval,
            end,
            slots: interval as f64 * period.den as f64 / period.num as f64,
            queues,
            utilization,
            vcs: Vec::new(),
            labels: Vec::new(),
            t: Vec::new(),
            cells: Vec::new(),
            per_vc: Vec::new(),
            util: Vec::new(),
            last_out: 0,
            arrival_vcs: Vec::new(),
            arrival_labels: Vec::new(),
            arrival_rate: Vec::new(),
            last_arrived: Vec::new(),
        }
    }

    /// The first boundary, or `NEVER` if the run ends before it.
    pub fn first(&self) -> Time {
        if self.interval <= self.end {
            self.interval
        } else {
            NEVER
        }
    }

    /// Record the boundary `at` from the port's state (queue length, per-VC occupancy, cells
    /// sent so far, cells of each VC arrived so far; `occupancy` and `arrived` take a VC's label
    /// at the port); returns the next boundary, `NEVER` after the end of the run.
    pub fn due(
        &mut self,
        at: Time,
        queue: u32,
        occupancy: impl Fn(VcId) -> u32,
        cells_out: u64,
        arrived: impl Fn(VcId) -> u64,
    ) -> Time {
        self.t.push(at);
        if self.queues {
            self.cells.push(queue);
            for (series, &label) in self.per_vc.iter_mut().zip(&self.labels) {
                series.push(occupancy(label));
            }
        }
        if self.utilization {
            self.util.push((cells_out - self.last_out) as f64 / self.slots);
            self.last_out = cells_out;
        }
        let secs = crate::time::to_secs_f64(self.interval);
        for (k, &label) in self.arrival_labels.iter().enumerate() {
            let n = arrived(label);
            self.arrival_rate[k].push((n - self.last_arrived[k]) as f64 / secs);
            self.last_arrived[k] = n;
        }
        // Boundaries are computed as multiples, never accumulated, so they stay exact.
        let next = (self.t.len() as Time + 1).saturating_mul(self.interval);
        if next <= self.end {
            next
        } else {
            NEVER
        }
    }

    /// Record the occupancy of global VCs `vcs`, labelled `labels` at the port.
    pub fn watch_vcs(&mut self, vcs: Vec<VcId>, labels: Vec<VcId>) {
        debug_assert_eq!(vcs.len(), labels.len());
        self.per_vc = vec![Vec::new(); vcs.len()];
        self.vcs = vcs;
        self.labels = labels;
    }

    /// Record the arrival rate of global VCs `vcs`, labelled `labels` at the port.
    pub fn watch_arrivals(&mut self, vcs: Vec<VcId>, labels: Vec<VcId>) {
        debug_assert_eq!(vcs.len(), labels.len());
        self.arrival_rate = vec![Vec::new(); vcs.len()];
        self.last_arrived = vec![0; vcs.len()];
        self.arrival_vcs = vcs;
        self.arrival_labels = labels;
    }

    pub fn arrivals(&self) -> bool {
        !self.arrival_vcs.is_empty()
    }
}
