//! `[trace]` and `[capture]`: what a run records besides its report, as written and as checked
//! against the network the scenario describes. Both are off unless their table is present (and
//! captures are recorded only by [`crate::api::run_scenario_with_captures`]). Wiring them into
//! the built simulation is `instrument.rs`'s job.

use serde::Deserialize;

use super::spec::NodeKind;
use super::validate::{bad, Model};
use crate::error::ScenarioError;
use crate::time::{from_secs_f64, Time};

/// The `[trace]` table: time series the run records into the report's `traces`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceSpec {
    /// Sampling period of queue occupancy and utilisation (default 0.01 s).
    #[serde(default = "default_interval")]
    pub interval_s: f64,
    /// Congestion window and slow-start threshold of each connection, on every change.
    #[serde(default = "yes")]
    pub cwnd: bool,
    /// Queue occupancy of each switch port.
    #[serde(default = "yes")]
    pub queues: bool,
    /// Queue occupancy per VC as well (needs `queues`).
    #[serde(default)]
    pub per_vc: bool,
    /// Utilisation of each switch port's outgoing link.
    #[serde(default = "yes")]
    pub utilization: bool,
    /// Arrival rate of each connection's data cells at each traced port, averaged over each
    /// interval (Bonaventure's figure 24: 100 ms windows at the bottleneck).
    #[serde(default)]
    pub arrivals: bool,
    /// Switch ports to trace ("sw1->sw2"); default all.
    pub ports: Option<Vec<String>>,
    /// Connections to trace; default all.
    pub connections: Option<Vec<String>>,
}

fn default_interval() -> f64 {
    0.01
}
fn yes() -> bool {
    true
}

/// The `[capture]` table: frames recorded as pcap files of real IPv4/TCP packets.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptureSpec {
    /// Channels ("from->to": a switch port or a host adapter) whose frames are recorded.
    #[serde(default)]
    pub links: Vec<String>,
    /// Hosts whose sent and received frames are recorded.
    #[serde(default)]
    pub hosts: Vec<String>,
    /// Write LINKTYPE_SUNATM (VPI/VCI and LLC/SNAP before the IP packet) instead of raw IP.
    #[serde(default)]
    pub sunatm: bool,
}

#[derive(Debug, Clone)]
pub struct TraceModel {
    pub interval: Time,
    pub cwnd: bool,
    pub queues: bool,
    pub per_vc: bool,
    pub utilization: bool,
    pub arrivals: bool,
    /// Selected ports as (switch node, link); `None`: all.
    pub ports: Option<Vec<(usize, usize)>>,
    /// Selected connections; `None`: all.
    pub conns: Option<Vec<usize>>,
}

impl TraceModel {
    pub fn traces_port(&self, key: (usize, usize)) -> bool {
        self.ports.as_ref().is_none_or(|p| p.contains(&key))
    }
    pub fn traces_conn(&self, c: usize) -> bool {
        self.conns.as_ref().is_none_or(|s| s.contains(&c))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapturePoint {
    /// The channel from node `from` over `link`.
    Channel {
        from: usize,
        link: usize,
    },
    Host(usize),
}

#[derive(Debug, Clone, Default)]
pub struct CaptureModel {
    /// Distinct points, in the order given.
    pub points: Vec<(String, CapturePoint)>,
    pub sunatm: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Observe {
    pub trace: Option<TraceModel>,
    pub capture: CaptureModel,
}

/// Most samples one series may hold (a guard against an interval of a picosecond).
const MAX_SAMPLES: f64 = 1.0e7;
/// Most sampled values all series together may hold: each is 4 to 20 octets of JSON, so the
/// report's traces stay under about a gigabyte however many ports and VCs are traced.
pub const MAX_TRACE_VALUES: f64 = 5.0e7;

pub fn observe(
    trace: Option<&TraceSpec>,
    capture: Option<&CaptureSpec>,
    model: &Model,
) -> Result<Observe, ScenarioError> {
    let trace = trace.map(|t| trace_model(t, model)).transpose()?;
    let mut cm = CaptureModel::default();
    if let Some(c) = capture {
        cm.sunatm = c.sunatm;
        for (i, name) in c.links.iter().enumerate() {
            let point = channel(model, name).map_err(|why| bad("capture", &format!("links[{i}]"), why))?;
            add(&mut cm, name, point);
        }
        for (i, name) in c.hosts.iter().enumerate() {
            let point = host(model, name).map_err(|why| bad("capture", &format!("hosts[{i}]"), why))?;
            add(&mut cm, name, point);
        }
    }
    Ok(Observe { trace, capture: cm })
}

/// Add capture points named on the command line (`--capture NAME`: a link if it contains
/// `->`, else a host).
pub fn add_captures(model: &mut Model, names: &[String]) -> Result<(), ScenarioError> {
    for name in names {
        let point = if name.contains("->") { channel(model, name) } else { host(model, name) };
        let point = point.map_err(|why| ScenarioError { field: "--capture".into(), reason: why })?;
        add(&mut model.observe.capture, name, point);
    }
    Ok(())
}

fn add(cm: &mut CaptureModel, name: &str, point: CapturePoint) {
    if !cm.points.iter().any(|(_, p)| *p == point) {
        cm.points.push((name.to_string(), point));
    }
}

fn node(model: &Model, name: &str) -> Option<usize> {
    model.nodes.iter().position(|n| n.name == name)
}

/// A channel named "from->to": any direction of any link.
fn channel(model: &Model, name: &str) -> Result<CapturePoint, String> {
    let (a, b) = name.split_once("->").ok_or_else(|| format!("`{name}` is not a link `from->to`"))?;
    let (from, to) = match (node(model, a), node(model, b)) {
        (Some(f), Some(t)) => (f, t),
        _ => return Err(format!("no link named `{name}` (unknown node)")),
    };
    let link = model
        .links
        .iter()
        .position(|l| l.ends == [from, to] || l.ends == [to, from])
        .ok_or_else(|| format!("no link joins `{a}` and `{b}`"))?;
    Ok(CapturePoint::Channel { from, link })
}

fn host(model: &Model, name: &str) -> Result<CapturePoint, String> {
    match node(model, name) {
        Some(i) if model.nodes[i].kind == NodeKind::Host => Ok(CapturePoint::Host(i)),
        Some(_) => Err(format!("`{name}` is a switch: capture its links (`{name}->...`) instead")),
        None => Err(format!("unknown host `{name}`")),
    }
}

fn trace_model(t: &TraceSpec, model: &Model) -> Result<TraceModel, ScenarioError> {
    if !(t.interval_s.is_finite() && t.interval_s > 0.0) {
        return Err(bad("trace", "interval_s", format!("must be a positive number, got {}", t.interval_s)));
    }
    let interval = from_secs_f64(t.interval_s);
    if interval == 0 {
        return Err(bad("trace", "interval_s", "must be at least a picosecond"));
    }
    let samples = model.duration as f64 / interval as f64;
    if samples > MAX_SAMPLES {
        return Err(bad(
            "trace",
            "interval_s",
            format!("gives {samples:.0} samples per series, more than {MAX_SAMPLES:.0}: raise it"),
        ));
    }
    if t.per_vc && !t.queues {
        return Err(bad("trace", "per_vc", "needs queues = true"));
    }
    let ports = match &t.ports {
        None => None,
        Some(names) => Some(
            names
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    port(model, n).ok_or_else(|| {
                        bad("trace", &format!("ports[{i}]"), format!("no switch port named `{n}`"))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    let conns = match &t.connections {
        None => None,
        Some(names) => Some(
            names
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    model.conns.iter().position(|c| &c.name == n).ok_or_else(|| {
                        bad("trace", &format!("connections[{i}]"), format!("unknown connection `{n}`"))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    // Columns written per sample: per traced port its time, queue, per-VC queues (every
    // connection whose data or ACKs leave through it) and utilisation.
    let traced: Vec<(usize, usize)> = match &ports {
        Some(p) => p.clone(),
        None => model.ports.keys().copied().collect(),
    };
    let mut columns = 0.0;
    for &(node, link) in &traced {
        let vcs = model
            .conns
            .iter()
            .filter(|c| {
                (0..c.links.len()).any(|h| c.links[h] == link && (c.path[h] == node || c.path[h + 1] == node))
            })
            .count() as f64;
        let queue = if t.queues { 1.0 + if t.per_vc { vcs } else { 0.0 } } else { 0.0 };
        let util = if t.utilization { 1.0 } else { 0.0 };
        let arrivals = if t.arrivals {
            model
                .conns
                .iter()
                .filter(|c| (0..c.links.len()).any(|h| (c.path[h], c.links[h]) == (node, link)))
                .count() as f64
        } else {
            0.0
        };
        if queue + util + arrivals > 0.0 {
            columns += 1.0 + queue + util + arrivals;
        }
    }
    if samples * columns > MAX_TRACE_VALUES {
        return Err(bad(
            "trace",
            "interval_s",
            format!(
                "gives {:.3e} sampled values in all ({samples:.0} samples x {columns:.0} columns), more \
                 than {MAX_TRACE_VALUES:.0e}: raise it, or trace fewer ports (trace.ports) or no per_vc",
                samples * columns
            ),
        ));
    }
    Ok(TraceModel {
        interval,
        cwnd: t.cwnd,
        queues: t.queues,
        per_vc: t.per_vc,
        utilization: t.utilization,
        arrivals: t.arrivals,
        ports,
        conns,
    })
}

/// A switch port by name: a channel whose sending end is a switch.
fn port(model: &Model, name: &str) -> Option<(usize, usize)> {
    match channel(model, name) {
        Ok(CapturePoint::Channel { from, link }) if model.ports.contains_key(&(from, link)) => {
            Some((from, link))
        }
        _ => None,
    }
}
