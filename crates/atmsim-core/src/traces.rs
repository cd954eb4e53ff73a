//! The report's `traces` object (present only with `[trace]`): the recorded time series as
//! columns, keyed by connection or port name in the report's order.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::net::{Component, Endpoint};
use crate::scenario::build::Built;
use crate::time::to_secs_f64;

/// A JSON object whose keys keep their insertion order (the order of flows and ports).
#[derive(Debug, Clone)]
pub struct Named<T>(pub Vec<(String, T)>);

impl<T> Default for Named<T> {
    fn default() -> Self {
        Named(Vec::new())
    }
}

impl<T: Serialize> Serialize for Named<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// Congestion window and slow-start threshold of one sender, a point per change.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CwndSeries {
    pub t_s: Vec<f64>,
    pub cwnd_bytes: Vec<u32>,
    pub ssthresh_bytes: Vec<u32>,
}

/// Queue occupancy of one switch port at each boundary.
#[derive(Debug, Clone, serde::Serialize)]
pub struct QueueSeries {
    pub t_s: Vec<f64>,
    pub cells: Vec<u32>,
    /// Per connection whose data or ACKs leave through the port (with `per_vc`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_vc: Option<Named<Vec<u32>>>,
}

/// Utilisation of one switch port's outgoing link over the interval ending at each `t_s`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct UtilSeries {
    pub t_s: Vec<f64>,
    pub utilization: Vec<f64>,
}

/// Arrival rate (cells/s) of each connection's data at one switch port, averaged over the
/// interval ending at each `t_s`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ArrivalSeries {
    pub t_s: Vec<f64>,
    pub cells_per_s: Named<Vec<f64>>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Traces {
    pub cwnd: Named<CwndSeries>,
    pub queues: Named<QueueSeries>,
    pub utilization: Named<UtilSeries>,
    /// Only with `arrivals = true`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arrivals: Option<Named<ArrivalSeries>>,
}

/// The series a built (and run) simulation recorded; `None` without `[trace]`.
pub fn collect(b: &Built) -> Option<Traces> {
    let t = b.model.observe.trace.as_ref()?;
    let mut out = Traces {
        cwnd: Named::default(),
        queues: Named::default(),
        utilization: Named::default(),
        arrivals: t.arrivals.then(Named::default),
    };
    for (c, ends) in b.endpoints.iter().enumerate() {
        let (comp, ep) = ends[0];
        let Component::Host(h) = &b.sim.comps[comp] else { continue };
        let Endpoint::Sender { tcp, .. } = &h.endpoints[ep] else { continue };
        if let Some(tr) = &tcp.trace {
            out.cwnd.0.push((
                b.model.conns[c].name.clone(),
                CwndSeries {
                    t_s: tr.iter().map(|s| to_secs_f64(s.t)).collect(),
                    cwnd_bytes: tr.iter().map(|s| s.cwnd).collect(),
                    ssthresh_bytes: tr.iter().map(|s| s.ssthresh).collect(),
                },
            ));
        }
    }
    for &pc in &b.ports {
        let Component::Port(p) = &b.sim.comps[pc] else { continue };
        let Some(tr) = &p.trace else { continue };
        let t_s: Vec<f64> = tr.t.iter().map(|&x| to_secs_f64(x)).collect();
        if tr.queues {
            let per_vc = t.per_vc.then(|| {
                let names = tr.vcs.iter().map(|&vc| b.model.conns[vc as usize].name.clone());
                Named(names.zip(tr.per_vc.iter().cloned()).collect())
            });
            out.queues
                .0
                .push((p.name.clone(), QueueSeries { t_s: t_s.clone(), cells: tr.cells.clone(), per_vc }));
        }
        if let Some(arrivals) = out.arrivals.as_mut() {
            let names = tr.arrival_vcs.iter().map(|&vc| b.model.conns[vc as usize].name.clone());
            let cells_per_s = Named(names.zip(tr.arrival_rate.iter().cloned()).collect());
            arrivals.0.push((p.name.clone(), ArrivalSeries { t_s: t_s.clone(), cells_per_s }));
        }
        if tr.utilization {
            out.utilization.0.push((p.name.clone(), UtilSeries { t_s, utilization: tr.util.clone() }));
        }
    }
    Some(out)
}
