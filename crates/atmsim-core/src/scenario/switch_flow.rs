//! Flow control in a scenario (the credit/rate study's PRCA and FCVC, the CLASS study's adaptive
//! shaping), switch side (the sources' side is `flow.rs`): the port keys `best_effort`,
//! `efci_threshold_cells` and `rm_feedback`, the connection key `fcvc`; their checks, and the
//! wiring of the built ports.

use std::collections::BTreeMap;

use super::flow::ModelPacing;
use super::spec::{BestEffortSpec, ConnectionSpec, FcvcSpec, NodeSpec, PortSpec, SchedulerSpec};
use super::validate::{bad, Check, Model, ModelConn, ModelLink, ModelPort, MAX_CELLS};
use crate::abr::{self, Feedback};
use crate::cell::{CellFifo, VcId};
use crate::error::ScenarioError;
use crate::net::{Channel, Component, FairShareMeter, FcvcHop, Labels, LevelLog, RateControl, NO_LIMIT};
use crate::time::Time;

/// A port's flow-control settings.
#[derive(Debug, Clone, Default)]
pub struct PortFlow {
    pub best_effort: Option<BestEffortSpec>,
    pub efci_threshold: Option<u32>,
    /// (T_l, T_h).
    pub rm_feedback: Option<(u32, u32)>,
    /// Fair-share enforcement's measurement interval (with `rm_feedback` only).
    pub fair_share: Option<Time>,
}

/// Bounds of `rm_feedback.fair_share_interval_us`: below a microsecond an interval holds less
/// than one cell of a 155 Mb/s link; above 10 s it would outlast most runs.
const FAIR_SHARE_INTERVAL_US: (f64, f64) = (1.0, 1e7);

/// A connection's FCVC parameters; N3 is fixed or computed per hop from `target_bps`.
#[derive(Debug, Clone)]
pub struct ModelFcvc {
    pub n2: u32,
    pub n3: Option<u32>,
    pub target_bps: Option<f64>,
}

impl ModelFcvc {
    /// N3 for a hop whose link has one-way latency `latency` (credit/rate study eq. 1, over
    /// the link's round trip).
    pub fn n3_for(&self, latency: Time) -> u64 {
        match (self.n3, self.target_bps) {
            (Some(n3), _) => u64::from(n3),
            (None, Some(b)) => u64::from(abr::n3(2 * latency, b)),
            (None, None) => unreachable!("validated: n3 or target_bps"),
        }
    }
}

/// Port keys; `capacity` is the buffer in cells (`None`: infinite).
pub fn port_flow(p: &PortSpec, capacity: Option<i64>, path: &str) -> Result<PortFlow, ScenarioError> {
    if p.best_effort.is_some() && p.scheduler != Some(SchedulerSpec::Priority) {
        return Err(bad(path, "best_effort", "applies only to scheduler = \"priority\""));
    }
    let within = |path: &str, f: &str, v: i64| -> Result<u32, ScenarioError> {
        Check(path).int_range(f, Some(v), 0, MAX_CELLS)?;
        match capacity {
            Some(k) if v > k => Err(bad(path, f, format!("({v}) exceeds buffer_cells ({k})"))),
            _ => Ok(v as u32),
        }
    };
    let efci_threshold = match p.efci_threshold_cells {
        Some(t) => Some(within(path, "efci_threshold_cells", t)?),
        None => None,
    };
    let mut fair_share = None;
    let rm_feedback = match &p.rm_feedback {
        Some(r) => {
            let rp = format!("{path}.rm_feedback");
            let (lo, hi) =
                (within(&rp, "t_low_cells", r.t_low_cells)?, within(&rp, "t_high_cells", r.t_high_cells)?);
            if lo > hi {
                return Err(bad(&rp, "t_low_cells", format!("({lo}) exceeds t_high_cells ({hi})")));
            }
            if let Some(us) = r.fair_share_interval_us {
                let (min, max) = FAIR_SHARE_INTERVAL_US;
                if !(us.is_finite() && (min..=max).contains(&us)) {
                    return Err(bad(
                        &rp,
                        "fair_share_interval_us",
                        format!("must be in [{min}, {max:e}] microseconds, got {us}"),
                    ));
                }
                fair_share = Some((us * 1e6).round() as Time);
            }
            Some((lo, hi))
        }
        None => None,
    };
    Ok(PortFlow { best_effort: p.best_effort, efci_threshold, rm_feedback, fair_share })
}

/// A connection's `fcvc` table (`path` is its dotted name).
pub fn fcvc_of(f: &FcvcSpec, path: &str) -> Result<ModelFcvc, ScenarioError> {
    let c = Check(path);
    c.int_range("n2", Some(f.n2), 1, MAX_CELLS)?;
    match (f.n3, f.target_bps) {
        (Some(_), Some(_)) => return Err(bad(path, "n3", "give either n3 or target_bps, not both")),
        (None, None) => return Err(bad(path, "n3", "is required (or target_bps, to compute it by eq. 1)")),
        _ => {}
    }
    c.int_range("n3", f.n3, 0, MAX_CELLS)?;
    c.positive_f64("target_bps", f.target_bps)?;
    Ok(ModelFcvc { n2: f.n2 as u32, n3: f.n3.map(|n| n as u32), target_bps: f.target_bps })
}

/// Whether a port can pass over a VC without credit (per-VC queues in turn).
fn round_robin(p: &ModelPort) -> bool {
    match p.scheduler {
        Some(SchedulerSpec::RoundRobin) => true,
        Some(SchedulerSpec::Priority) => p.flow.best_effort == Some(BestEffortSpec::RoundRobin),
        _ => false,
    }
}

/// FCVC connections against the ports on their routes.
pub fn check_routes(
    specs: &[ConnectionSpec],
    conns: &[ModelConn],
    ports: &BTreeMap<(usize, usize), ModelPort>,
    links: &[ModelLink],
    nodes: &[NodeSpec],
) -> Result<(), ScenarioError> {
    for (i, c) in conns.iter().enumerate() {
        let Some(f) = &c.fcvc else { continue };
        let path = format!("connection[{i}]");
        if specs[i].vc.is_some() {
            return Err(bad(&path, "fcvc", "cannot be combined with `vc` (merged VCs): credits are per VC"));
        }
        if c.guaranteed {
            return Err(bad(
                &path,
                "fcvc",
                "cannot be combined with guaranteed = true (served first, not credit-controlled)",
            ));
        }
        if c.path.len() < 3 {
            return Err(bad(&path, "fcvc", "the route has no switch to give the VC a buffer"));
        }
        for h in 1..c.path.len() - 1 {
            let (node, link) = (c.path[h], c.links[h]);
            let p = &ports[&(node, link)];
            let l = &links[link];
            let other = if l.ends[0] == node { l.ends[1] } else { l.ends[0] };
            let name = format!("{}->{}", nodes[node].name, nodes[other].name);
            if !round_robin(p) {
                return Err(bad(
                    &path,
                    "fcvc",
                    format!(
                        "port `{name}` on the route must serve VCs in turn (scheduler = \"round_robin\", or \
                         \"priority\" with best_effort = \"round_robin\"): a FIFO would hold every VC behind \
                         one without credit"
                    ),
                ));
            }
            if p.merge_frames {
                return Err(bad(
                    &path,
                    "fcvc",
                    format!("port `{name}` merges frames: a held frame would wait for cells its credits do not cover"),
                ));
            }
            // The buffer of this hop, over the link from the previous node.
            let up = &links[c.links[h - 1]];
            let n3 = f.n3_for(up.period.ceil_ps() + up.prop);
            if u64::from(f.n2) + n3 > MAX_CELLS as u64 {
                // Blame the field that set N3: given outright, or computed from target_bps.
                let (field, how) = match f.n3 {
                    Some(_) => ("n3", "n2 + n3"),
                    None => ("target_bps", "n2 + the N3 it gives"),
                };
                return Err(bad(
                    &format!("{path}.fcvc"),
                    field,
                    format!("{how} = {} cells at `{name}`, more than {MAX_CELLS}", u64::from(f.n2) + n3),
                ));
            }
        }
    }
    Ok(())
}

/// Wire the built ports: EFCI thresholds, adaptive-shaping level logs (forward port writes,
/// the reverse port of each VC reads), and FCVC (credit counting at the port forwarding a VC,
/// credit gating at the previous hop, one credit FIFO per (sending port, receiving component)).
#[allow(clippy::too_many_arguments)]
pub fn wire(
    model: &Model,
    port_comp: &BTreeMap<(usize, usize), usize>,
    host_comp: &[usize],
    comps: &mut [Component],
    fifos: &mut Vec<CellFifo>,
    lookahead: &mut [Time],
    senders: &mut [Vec<(u32, Time)>],
    channels: &[Channel],
    levels: &mut Vec<LevelLog>,
    shares: &mut Vec<LevelLog<u32>>,
) {
    // Per forward port publishing a level: its level log and fair-share meter (with its log).
    let mut publishing: BTreeMap<usize, (u32, Option<(FairShareMeter, u32)>)> = BTreeMap::new();
    // In key order: a deterministic FIFO numbering.
    for (&(node, link), &pc) in port_comp {
        let flow = &model.ports[&(node, link)].flow;
        if let (Some(th), Component::Port(p)) = (flow.efci_threshold, &mut comps[pc]) {
            p.set_efci_threshold(th);
        }
        let Some((lo, hi)) = flow.rm_feedback else { continue };
        let log = levels.len() as u32;
        levels.push(LevelLog::new(Feedback::Increase.at_switch(0, lo, hi)));
        let Component::Port(p) = &mut comps[pc] else { continue };
        let meter = flow.fair_share.map(|interval| {
            shares.push(LevelLog::new(NO_LIMIT));
            let log = shares.len() as u32 - 1;
            (FairShareMeter::new(interval, channels[p.channel as usize].period, p.labels.len(), log), log)
        });
        p.publish_level(log, lo, hi);
        publishing.insert(pc, (log, meter));
    }
    // Every VC whose data leaves through a publishing port: its backward RM cells pass that
    // switch on the port toward the VC's previous hop. One pass over the connections' hops.
    if !publishing.is_empty() {
        for (vc, c) in model.conns.iter().enumerate() {
            for h in 1..c.path.len() - 1 {
                let pc = port_comp[&(c.path[h], c.links[h])];
                let Some((log, meter)) = publishing.get_mut(&pc) else { continue };
                let log = *log;
                // Only adaptive VCs have a share to keep to; the rest is other traffic.
                let share_log = match (meter, &c.pacing) {
                    (Some((m, s)), Some(ModelPacing { rate: RateControl::Adaptive { .. }, .. })) => {
                        let Component::Port(p) = &comps[pc] else { unreachable!() };
                        m.enforce(label(&p.labels, vc));
                        Some(*s)
                    }
                    _ => None,
                };
                if let Component::Port(r) = &mut comps[port_comp[&(c.path[h], c.links[h - 1])]] {
                    let (l, n) = (label(&r.labels, vc), r.labels.len());
                    r.read_level(l, n, log);
                    if let Some(s) = share_log {
                        r.read_share(l, n, s);
                    }
                }
            }
        }
    }
    for &pc in port_comp.values() {
        if let (Some((_, Some((m, _)))), Component::Port(p)) = (publishing.remove(&pc), &mut comps[pc]) {
            p.enforce_fair_share(m);
        }
    }

    let mut credit_fifo: BTreeMap<(usize, usize), u32> = BTreeMap::new();
    for (vc, c) in model.conns.iter().enumerate() {
        let Some(f) = &c.fcvc else { continue };
        for h in 1..c.path.len() - 1 {
            let (node, up_node, up_link) = (c.path[h], c.path[h - 1], c.links[h - 1]);
            let down = port_comp[&(node, c.links[h])];
            let back = super::build::channel_id(model, up_link, node);
            let latency = channels[back].latency;
            let limit = f.n2 + f.n3_for(latency) as u32;
            let mut up_label: VcId = 0;
            let upstream = if host_comp[up_node] != usize::MAX {
                // The sending host's adapter sends this VC only with credit for this hop.
                if let Component::Host(hc) = &mut comps[host_comp[up_node]] {
                    let (l, n) = (label(&hc.labels, vc), hc.labels.len());
                    hc.set_credit(l, n, limit);
                    up_label = l as VcId;
                }
                host_comp[up_node]
            } else {
                let u = port_comp[&(up_node, up_link)];
                if let Component::Port(p) = &mut comps[u] {
                    let (l, n) = (label(&p.labels, vc), p.labels.len());
                    p.gate_credit(l, n, limit);
                    up_label = l as VcId;
                }
                u
            };
            let fifo = *credit_fifo.entry((down, upstream)).or_insert_with(|| {
                let id = fifos.len() as u32;
                fifos.push(CellFifo::new(upstream as u32));
                match &mut comps[upstream] {
                    Component::Port(p) => p.inputs.push(id),
                    Component::Host(hc) => hc.inputs.push(id),
                }
                lookahead[upstream] = lookahead[upstream].min(latency);
                senders[upstream].push((down as u32, latency));
                id
            });
            if let Component::Port(p) = &mut comps[down] {
                let (l, n) = (label(&p.labels, vc), p.labels.len());
                p.count_credit(l, n, FcvcHop::new(f.n2, limit, back as u32, fifo, up_label));
            }
        }
    }
}

/// The label of global VC `vc` at a port or host it crosses.
fn label(labels: &Labels, vc: usize) -> usize {
    labels.local(vc).expect("the VC crosses this component")
}
