//! From a scenario as written to a [`Model`] that is known to be consistent: every name resolves,
//! every number is in range, every route is a path of links from a host through switches to a
//! host. Each failure names the field (as a dotted path into the file) and the reason.

use std::collections::BTreeMap;

use super::flow::{ModelBackground, ModelPacing};
use super::spec::*;
use super::tcp;
use crate::accept::Policy;
use crate::error::ScenarioError;
use crate::net::{Arbitration, INFINITE};
use crate::tcp::TcpConfig;
use crate::time::{from_secs_f64, CellPeriod, Time, PS_PER_US};

pub fn bad(path: &str, field: &str, reason: impl Into<String>) -> ScenarioError {
    let field = if path.is_empty() { field.to_string() } else { format!("{path}.{field}") };
    ScenarioError { field, reason: reason.into() }
}

/// Range checks for the fields of one table.
pub struct Check<'a>(pub &'a str);

impl Check<'_> {
    pub fn int_range(&self, f: &str, v: Option<i64>, lo: i64, hi: i64) -> Result<(), ScenarioError> {
        match v {
            Some(x) if x < lo || x > hi => {
                Err(bad(self.0, f, format!("must be between {lo} and {hi}, got {x}")))
            }
            _ => Ok(()),
        }
    }
    pub fn positive_f64(&self, f: &str, v: Option<f64>) -> Result<(), ScenarioError> {
        match v {
            Some(x) if !(x.is_finite() && x > 0.0) => {
                Err(bad(self.0, f, format!("must be a positive number, got {x}")))
            }
            _ => Ok(()),
        }
    }
    pub fn non_negative_f64(&self, f: &str, v: f64) -> Result<(), ScenarioError> {
        if v.is_finite() && v >= 0.0 {
            Ok(())
        } else {
            Err(bad(self.0, f, format!("must be zero or a positive number, got {v}")))
        }
    }
}

/// The longest run accepted: u64 picoseconds cover 213 days; keep far from the edge.
/// Also the bound of every other time given in seconds (start times, TCP timers).
pub const MAX_DURATION_S: f64 = 1.0e6;
/// Largest buffer or threshold accepted, in cells.
pub const MAX_CELLS: i64 = 1 << 30;
/// Largest link delay accepted (a geostationary hop is 0.27 s).
const MAX_DELAY_US: f64 = 10.0e6;

#[derive(Debug, Clone)]
pub struct ModelLink {
    pub ends: [usize; 2],
    pub period: CellPeriod,
    pub prop: Time,
}

#[derive(Debug, Clone)]
pub struct ModelPort {
    pub capacity: u32,
    pub policy: Policy,
    pub arbitration: Arbitration,
    /// Arrivals counted from the next output slot boundary.
    pub slotted: bool,
    pub scheduler: Option<SchedulerSpec>,
    pub merge_frames: bool,
    /// EFCI threshold, adaptive-shaping thresholds, best-effort class of a priority port.
    pub flow: super::switch_flow::PortFlow,
}

/// A connection's GFR contract, rates in cells per second.
#[derive(Debug, Clone)]
pub struct ModelGfr {
    pub mcr: f64,
    pub pcr: f64,
    pub mbs: u32,
    pub mfs: u32,
    pub cdvt: Time,
    pub tagging: TaggingSpec,
    pub conformance: ConformanceSpec,
}

#[derive(Debug, Clone)]
pub struct ModelConn {
    pub name: String,
    pub app: crate::app::AppKind,
    pub gfr: Option<ModelGfr>,
    /// Accounting class: the index of the first connection with the same `vc` label.
    pub class: usize,
    pub vc_threshold: Option<u32>,
    pub vc_weight: f64,
    pub guaranteed: bool,
    pub fcvc: Option<super::switch_flow::ModelFcvc>,
    /// Node indices from sender to receiver.
    pub path: Vec<usize>,
    /// Link indices between consecutive nodes of `path`.
    pub links: Vec<usize>,
    pub tcp: TcpConfig,
    /// The scenario gave the timer phase (`tick_phase_ms`, or the template's `stagger_timers`):
    /// random phases leave it alone.
    pub tick_phase_given: bool,
    pub start: Time,
    /// Own adapter queue with shaping or rate control (`None`: the plain FIFO).
    pub pacing: Option<ModelPacing>,
    /// Cell-level UPC of its data.
    pub upc: Option<super::flow::ModelUpc>,
}

#[derive(Debug, Clone)]
pub struct Model {
    pub duration: Time,
    pub seed: u64,
    pub phases: super::phases::Phases,
    /// The bound of each start's random delay (`phases.rs`).
    pub start_jitter: Time,
    /// The bound of each transmitter's oscillator rate error, in ppm (`phases.rs`).
    pub clock_ppm: f64,
    pub nodes: Vec<NodeSpec>,
    pub links: Vec<ModelLink>,
    /// Switch output ports keyed by (switch node, link).
    pub ports: BTreeMap<(usize, usize), ModelPort>,
    pub conns: Vec<ModelConn>,
    /// Background sources; their VCs follow the connections' (VC = conns.len() + index).
    pub background: Vec<ModelBackground>,
    /// (switch node, link) of the port named as the bottleneck.
    pub bottleneck: Option<(usize, usize)>,
    /// `[engine] schedule = "reference"`: run ahead by the plain lookahead only.
    pub reference_schedule: bool,
    /// The fast paths the `[engine]` table allows (`net/plan.rs`).
    pub paths: crate::net::EnginePaths,
    pub faults: Vec<super::fault::ModelFault>,
    /// Traces and captures to record.
    pub observe: super::observe::Observe,
}

impl Model {
    /// Connections and background sources, each with its own VC.
    pub fn n_vcs(&self) -> usize {
        self.conns.len() + self.background.len()
    }

    /// The name of the connection or background source on `vc`.
    pub fn vc_name(&self, vc: usize) -> &str {
        match self.conns.get(vc) {
            Some(c) => &c.name,
            None => &self.background[vc - self.conns.len()].name,
        }
    }

    pub fn port_name(&self, node: usize, link: usize) -> String {
        let l = &self.links[link];
        let other = if l.ends[0] == node { l.ends[1] } else { l.ends[0] };
        format!("{}->{}", self.nodes[node].name, self.nodes[other].name)
    }
}

fn check_template(t: &NSourceSpec) -> Result<(), ScenarioError> {
    let c = Check("n_source");
    c.int_range("sources", Some(t.sources), 1, 10_000)?;
    if let BufferSize::Cells(k) = t.buffer_cells {
        c.int_range("buffer_cells", Some(k), 1, MAX_CELLS)?;
    }
    if !(t.r.is_finite() && t.r > 0.0 && t.r <= 1.0) {
        return Err(bad("n_source", "r", format!("must be a fraction of the buffer in (0, 1], got {}", t.r)));
    }
    c.positive_f64("z", Some(t.z))?;
    if let Some(d) = t.link_delay_us {
        c.non_negative_f64("link_delay_us", d)?;
        if d > MAX_DELAY_US {
            return Err(bad("n_source", "link_delay_us", format!("must be at most {MAX_DELAY_US} us")));
        }
    }
    if t.rate_bps == Some(0) {
        return Err(bad("n_source", "rate_bps", "must be positive"));
    }
    if let Some(b) = t.rate_bps {
        let p = CellPeriod::from_bps(b);
        if p.num / p.den == 0 {
            return Err(bad("n_source", "rate_bps", "is too high: a cell must take at least one picosecond"));
        }
    }
    // The expanded ports must not fail on a value the template computed, under a port's name.
    let needs_finite = matches!(t.policy, PolicyKind::Epd | PolicyKind::SelectiveDrop | PolicyKind::Fba);
    if needs_finite && t.buffer_cells == BufferSize::Named(Infinite::Infinite) {
        return Err(bad("n_source", "buffer_cells", format!("must be finite for policy {:?}", t.policy)));
    }
    if t.epd_threshold_cells.is_some() && t.policy != PolicyKind::Epd {
        return Err(bad(
            "n_source",
            "epd_threshold_cells",
            format!("does not apply to policy {:?}", t.policy),
        ));
    }
    c.int_range("epd_threshold_cells", t.epd_threshold_cells, 0, MAX_CELLS)?;
    if let (PolicyKind::Fba, BufferSize::Cells(k)) = (t.policy, t.buffer_cells) {
        let r_cells = (t.r * k as f64).round() as i64;
        if r_cells >= k {
            return Err(bad(
                "n_source",
                "r",
                format!(
                    "gives R = {r_cells} cells, which must be below buffer_cells ({k}) for FBA \
                     (K - R is its scale)"
                ),
            ));
        }
    }
    if let (Some(th), BufferSize::Cells(k)) = (t.epd_threshold_cells, t.buffer_cells) {
        if th > k {
            return Err(bad("n_source", "epd_threshold_cells", format!("({th}) exceeds buffer_cells ({k})")));
        }
    }
    if let BufferSize::Cells(k) = t.buffer_cells {
        if t.policy == PolicyKind::Epd
            && t.epd_threshold_cells.is_none()
            && k <= super::template::EPD_HEADROOM
        {
            return Err(bad(
                "n_source",
                "buffer_cells",
                "must exceed 200 cells for the default EPD threshold (buffer - 200)",
            ));
        }
    }
    if let Some(tcp_t) = &t.tcp {
        tcp::check_table(tcp_t, "n_source.tcp")?;
    }
    if !matches!(
        t.policy,
        PolicyKind::TailDrop
            | PolicyKind::Ppd
            | PolicyKind::Epd
            | PolicyKind::SelectiveDrop
            | PolicyKind::Fba
    ) {
        return Err(bad(
            "n_source",
            "policy",
            "the N-source template takes the UBR+ policies: tail_drop, ppd, epd, selective_drop or fba",
        ));
    }
    Ok(())
}

fn other_end(l: &ModelLink, node: usize) -> usize {
    if l.ends[0] == node {
        l.ends[1]
    } else {
        l.ends[0]
    }
}

/// A GFR contract; `access_rate` (cells/s) is the PCR by default.
fn gfr_of(g: &GfrSpec, path: &str, access_rate: f64) -> Result<ModelGfr, ScenarioError> {
    let c = Check(path);
    c.non_negative_f64("mcr_cells_per_s", g.mcr_cells_per_s)?;
    let pcr = g.pcr_cells_per_s.unwrap_or(access_rate);
    c.positive_f64("pcr_cells_per_s", Some(pcr))?;
    if g.mcr_cells_per_s > pcr {
        return Err(bad(path, "mcr_cells_per_s", format!("({}) exceeds the PCR ({pcr})", g.mcr_cells_per_s)));
    }
    let mfs = g.mfs_cells.unwrap_or(200);
    c.int_range("mfs_cells", Some(mfs), 1, 1366)?;
    let mbs = g.mbs_cells.unwrap_or(2 * mfs);
    c.int_range("mbs_cells", Some(mbs), mfs, MAX_CELLS)?;
    c.non_negative_f64("cdvt_us", g.cdvt_us)?;
    Ok(ModelGfr {
        mcr: g.mcr_cells_per_s,
        pcr,
        mbs: mbs as u32,
        mfs: mfs as u32,
        cdvt: (g.cdvt_us * PS_PER_US as f64).round() as Time,
        tagging: g.tagging.unwrap_or(TaggingSpec::None),
        conformance: g.conformance.unwrap_or(ConformanceSpec::Gfr2),
    })
}

fn policy_of(p: &PolicySpec, capacity: Option<i64>, path: &str) -> Result<Policy, ScenarioError> {
    let path = format!("{path}.policy");
    let c = Check(&path);
    let need = |f: &str, v: Option<i64>| {
        v.ok_or_else(|| bad(&path, f, format!("is required by policy {:?}", p.kind)))
    };
    let forbid = |f: &str, present: bool| {
        if present {
            Err(bad(&path, f, format!("does not apply to policy {:?}", p.kind)))
        } else {
            Ok(())
        }
    };
    let within_buffer = |f: &str, v: i64| -> Result<u32, ScenarioError> {
        c.int_range(f, Some(v), 0, MAX_CELLS)?;
        match capacity {
            None => Err(bad(&path, f, "needs a finite buffer_cells")),
            Some(k) if v > k => Err(bad(&path, f, format!("({v}) exceeds buffer_cells ({k})"))),
            _ => Ok(v as u32),
        }
    };
    // Every key a kind does not use is an error, so a typo or a misplaced key never passes.
    let used: &[&str] = match p.kind {
        PolicyKind::TailDrop | PolicyKind::Ppd | PolicyKind::ThresholdDrop => &[],
        PolicyKind::Epd => &["threshold_cells"],
        PolicyKind::SelectiveDrop | PolicyKind::Fba | PolicyKind::Dfba => &["r_cells", "z"],
        PolicyKind::FifoGfr | PolicyKind::WfqGfr => &["lbo_cells", "hbo_cells"],
    };
    for (f, present) in [
        ("threshold_cells", p.threshold_cells.is_some()),
        ("r_cells", p.r_cells.is_some()),
        ("z", p.z.is_some()),
        ("lbo_cells", p.lbo_cells.is_some()),
        ("hbo_cells", p.hbo_cells.is_some()),
    ] {
        forbid(f, present && !used.contains(&f))?;
    }
    let z = || p.z.ok_or_else(|| bad(&path, "z", format!("is required by policy {:?}", p.kind)));
    match p.kind {
        PolicyKind::TailDrop => Ok(Policy::TailDrop),
        PolicyKind::Ppd => Ok(Policy::Ppd),
        PolicyKind::ThresholdDrop => Ok(Policy::ThresholdDrop),
        PolicyKind::Epd => {
            let th = within_buffer("threshold_cells", need("threshold_cells", p.threshold_cells)?)?;
            Ok(Policy::Epd { threshold: th })
        }
        PolicyKind::SelectiveDrop | PolicyKind::Fba => {
            let r = within_buffer("r_cells", need("r_cells", p.r_cells)?)?;
            let z = z()?;
            c.positive_f64("z", Some(z))?;
            if p.kind == PolicyKind::Fba && Some(r as i64) == capacity {
                return Err(bad(&path, "r_cells", "must be below buffer_cells for FBA (K - R is its scale)"));
            }
            Ok(if p.kind == PolicyKind::Fba { Policy::Fba { r, z } } else { Policy::SelectiveDrop { r, z } })
        }
        PolicyKind::Dfba => {
            let r = within_buffer("r_cells", need("r_cells", p.r_cells)?)?;
            let z = z()?;
            if !(z.is_finite() && z > 1.0) {
                return Err(bad(&path, "z", format!("must be above 1 for DFBA (Z R_i caps a VC), got {z}")));
            }
            Ok(Policy::Dfba { r, z })
        }
        PolicyKind::FifoGfr | PolicyKind::WfqGfr => {
            let lbo = within_buffer("lbo_cells", need("lbo_cells", p.lbo_cells)?)?;
            let hbo = within_buffer("hbo_cells", need("hbo_cells", p.hbo_cells)?)?;
            if lbo > hbo {
                return Err(bad(&path, "lbo_cells", format!("({lbo}) exceeds hbo_cells ({hbo})")));
            }
            Ok(if p.kind == PolicyKind::FifoGfr {
                Policy::FifoGfr { lbo, hbo }
            } else {
                Policy::WfqGfr { lbo, hbo }
            })
        }
    }
}

/// A route's nodes and links: hosts at both ends, distinct switches between, joined by links.
fn node_names(spec: &ScenarioSpec) -> Vec<String> {
    spec.node.iter().map(|n| n.name.clone()).collect()
}

fn resolve_route(
    route: &[String],
    path: &str,
    node: &[NodeSpec],
    index: &BTreeMap<String, usize>,
    link_between: &dyn Fn(usize, usize) -> Option<usize>,
) -> Result<(Vec<usize>, Vec<usize>), ScenarioError> {
    if route.len() < 2 {
        return Err(bad(path, "route", "needs at least a sending and a receiving host"));
    }
    let mut nodes = Vec::new();
    for (j, n) in route.iter().enumerate() {
        let ni =
            *index.get(n).ok_or_else(|| bad(path, &format!("route[{j}]"), format!("unknown node `{n}`")))?;
        let want = if j == 0 || j + 1 == route.len() { NodeKind::Host } else { NodeKind::Switch };
        if node[ni].kind != want {
            return Err(bad(
                path,
                &format!("route[{j}]"),
                format!("`{n}` must be a {want:?} (hosts at both ends, switches between)").to_lowercase(),
            ));
        }
        if nodes.contains(&ni) {
            return Err(bad(path, &format!("route[{j}]"), format!("`{n}` appears twice")));
        }
        nodes.push(ni);
    }
    let mut links = Vec::new();
    for j in 1..nodes.len() {
        let li = link_between(nodes[j - 1], nodes[j]).ok_or_else(|| {
            bad(path, &format!("route[{j}]"), format!("no link joins `{}` and `{}`", route[j - 1], route[j]))
        })?;
        links.push(li);
    }
    Ok((nodes, links))
}

/// `[[background]]` tables, one model source per `count`; names must not clash with
/// connections'.
fn backgrounds(
    spec: &ScenarioSpec,
    index: &BTreeMap<String, usize>,
    link_between: &dyn Fn(usize, usize) -> Option<usize>,
    names: &mut BTreeMap<String, usize>,
) -> Result<Vec<ModelBackground>, ScenarioError> {
    let mut out = Vec::new();
    for (i, b) in spec.background.iter().enumerate() {
        let path = format!("background[{i}]");
        let (path_nodes, links) = resolve_route(&b.route, &path, &spec.node, index, link_between)?;
        Check(&path).non_negative_f64("start_s", b.start_s)?;
        if b.start_s > MAX_DURATION_S {
            return Err(bad(&path, "start_s", format!("must be at most {MAX_DURATION_S} seconds")));
        }
        Check(&path).int_range("count", b.count, 1, crate::cell::MAX_VCS as i64)?;
        let (source, shaper) = super::flow::source_of(b, &path)?;
        let upc = match &b.upc {
            Some(u) => Some(super::flow::upc_of(
                u,
                &path_nodes,
                &node_names(spec),
                &|n| spec.node[n].kind == NodeKind::Switch,
                &path,
            )?),
            None => None,
        };
        let count = b.count.unwrap_or(1);
        for k in 1..=count {
            let name = if b.count.is_none() { b.name.clone() } else { format!("{}.{k}", b.name) };
            if b.name.is_empty() || names.insert(name.clone(), usize::MAX).is_some() {
                return Err(bad(&path, "name", format!("must be non-empty and unique, got `{name}`")));
            }
            out.push(ModelBackground {
                name,
                path: path_nodes.clone(),
                links: links.clone(),
                start: from_secs_f64(b.start_s),
                source: source.clone(),
                shaper,
                guaranteed: b.guaranteed,
                upc,
            });
        }
    }
    Ok(out)
}

/// The nodes and links of a scenario, resolved: what every later section looks names up in.
struct Topology {
    /// Node name -> index into `spec.node`.
    index: BTreeMap<String, usize>,
    links: Vec<ModelLink>,
    /// (lower node, higher node) -> link index.
    by_pair: BTreeMap<(usize, usize), usize>,
}

impl Topology {
    fn link_between(&self, a: usize, b: usize) -> Option<usize> {
        self.by_pair.get(&(a.min(b), a.max(b))).copied()
    }
}

/// Check a scenario section by section and build its [`Model`]; the first error found is
/// returned, naming its field.
pub fn validate(mut spec: ScenarioSpec) -> Result<Model, ScenarioError> {
    let Simulation { duration, seed, phases, start_jitter, clock_ppm } = simulation(&spec.simulation)?;
    let reference_schedule =
        spec.engine.as_ref().and_then(|e| e.schedule) == Some(super::spec::ScheduleSpec::Reference);
    let paths = spec.engine.as_ref().map_or(crate::net::EnginePaths::ALL, |e| e.paths());
    expand_template(&mut spec)?;
    let index = nodes(&spec.node)?;
    let topo = links(&spec, index)?;
    let ports = ports(&spec, &topo)?;
    let mut names = BTreeMap::new();
    let conns = connections(&spec, &topo, &mut names)?;
    let background = backgrounds(&spec, &topo.index, &|a, b| topo.link_between(a, b), &mut names)?;
    if conns.len() + background.len() > crate::cell::MAX_VCS {
        return Err(bad(
            "",
            "connection",
            format!("at most {} connections and background sources per scenario", crate::cell::MAX_VCS),
        ));
    }
    if conns.is_empty() && background.is_empty() {
        return Err(bad("", "connection", "the scenario has no connections and no background sources"));
    }
    let links = topo.links;
    let port_of = |name: &str| -> Option<(usize, usize)> {
        ports.keys().copied().find(|&(n, l)| {
            let l = &links[l];
            let other = if l.ends[0] == n { l.ends[1] } else { l.ends[0] };
            format!("{}->{}", spec.node[n].name, spec.node[other].name) == name
        })
    };
    let mut bottleneck = None;
    if let Some(b) = spec.metrics.as_ref().and_then(|m| m.bottleneck.as_ref()) {
        bottleneck = Some(
            port_of(b).ok_or_else(|| bad("metrics", "bottleneck", format!("no switch port named `{b}`")))?,
        );
    }
    let faults = super::fault::faults(&spec.fault, port_of, &conns)?;
    per_vc_thresholds(&spec.node, &links, &ports, &conns)?;
    super::switch_flow::check_routes(&spec.connection, &conns, &ports, &links, &spec.node)?;
    let mut model = Model {
        duration,
        seed,
        phases,
        start_jitter,
        clock_ppm,
        nodes: spec.node,
        links,
        ports,
        conns,
        background,
        bottleneck,
        faults,
        observe: Default::default(),
        reference_schedule,
        paths,
    };
    check_duration_covers_a_cell(&model)?;
    model.observe = super::observe::observe(spec.trace.as_ref(), spec.capture.as_ref(), &model)?;
    Ok(model)
}

/// The checked `[simulation]` section.
struct Simulation {
    duration: Time,
    seed: u64,
    phases: super::phases::Phases,
    start_jitter: Time,
    clock_ppm: f64,
}

/// `[simulation]`: the run's length, seed, slot-grid phases, start jitter and clock tolerance.
fn simulation(sim: &SimulationSpec) -> Result<Simulation, ScenarioError> {
    if !(sim.duration_s.is_finite() && sim.duration_s > 0.0 && sim.duration_s <= MAX_DURATION_S) {
        return Err(bad(
            "simulation",
            "duration_s",
            format!("must be in (0, {MAX_DURATION_S}] seconds, got {}", sim.duration_s),
        ));
    }
    let phases = sim.phases.unwrap_or_default();
    Check("simulation").non_negative_f64("start_jitter_s", sim.start_jitter_s)?;
    if sim.start_jitter_s > MAX_DURATION_S {
        return Err(bad("simulation", "start_jitter_s", format!("must be at most {MAX_DURATION_S} seconds")));
    }
    let clock_ppm = match (sim.clock_ppm, phases) {
        (Some(x), _) => x,
        (None, super::phases::Phases::Random) => DEFAULT_CLOCK_PPM,
        (None, super::phases::Phases::Aligned) => 0.0,
    };
    Check("simulation").non_negative_f64("clock_ppm", clock_ppm)?;
    let max_ppm = crate::time::MAX_RATE_ERROR * 1e6;
    if clock_ppm > max_ppm {
        return Err(bad(
            "simulation",
            "clock_ppm",
            format!(
                "must be at most {max_ppm} ppm (a free-running SONET clock is within 20), got {clock_ppm}"
            ),
        ));
    }
    Ok(Simulation {
        duration: from_secs_f64(sim.duration_s),
        seed: sim.seed,
        phases,
        start_jitter: from_secs_f64(sim.start_jitter_s),
        clock_ppm,
    })
}

/// The default oscillator tolerance with random phases: a free-running SONET clock's +-20 ppm
/// (GR-253-CORE section 5.4, SONET Minimum Clock; ITU-T G.813 clause 5, option 2).
pub const DEFAULT_CLOCK_PPM: f64 = 20.0;

/// A run shorter than one cell time of the slowest link carries nothing on it: every count
/// would be zero and every rate undefined, which is never what was meant.
fn check_duration_covers_a_cell(model: &Model) -> Result<(), ScenarioError> {
    let slowest = model.links.iter().map(|l| l.period.ceil_ps()).max().unwrap_or(0);
    if model.duration < slowest {
        return Err(bad(
            "simulation",
            "duration_s",
            format!(
                "must be at least one cell time of the slowest link ({} s), got {} s",
                crate::time::to_secs_f64(slowest),
                crate::time::to_secs_f64(model.duration)
            ),
        ));
    }
    Ok(())
}

/// `[n_source]`: checked, then expanded into nodes, links, ports and connections (which the
/// scenario must then not give itself).
fn expand_template(spec: &mut ScenarioSpec) -> Result<(), ScenarioError> {
    let Some(t) = spec.n_source.clone() else { return Ok(()) };
    for (name, present) in [
        ("node", !spec.node.is_empty()),
        ("link", !spec.link.is_empty()),
        ("port", !spec.port.is_empty()),
        ("connection", !spec.connection.is_empty()),
        ("tcp", spec.tcp.is_some()),
        ("metrics", spec.metrics.is_some()),
    ] {
        if present {
            return Err(bad(
                "",
                name,
                "cannot be combined with the n_source template (set n_source.* instead)",
            ));
        }
    }
    check_template(&t)?;
    super::template::expand(&t, spec);
    Ok(())
}

/// `[[node]]`: unique names usable in link names (`a->b`).
fn nodes(node: &[NodeSpec]) -> Result<BTreeMap<String, usize>, ScenarioError> {
    let mut index = BTreeMap::new();
    for (i, n) in node.iter().enumerate() {
        if n.name.is_empty() || n.name.contains("->") {
            return Err(bad(&format!("node[{i}]"), "name", "must be non-empty and must not contain `->`"));
        }
        if index.insert(n.name.clone(), i).is_some() {
            return Err(bad(&format!("node[{i}]"), "name", format!("duplicate node `{}`", n.name)));
        }
    }
    if node.is_empty() {
        return Err(bad("", "node", "the scenario has no nodes (write [[node]] tables or use [n_source])"));
    }
    Ok(index)
}

/// `[[link]]`: two known, distinct ends, at most one link per pair, a rate and a delay; every
/// host on exactly one link.
fn links(spec: &ScenarioSpec, index: BTreeMap<String, usize>) -> Result<Topology, ScenarioError> {
    let mut links = Vec::new();
    let mut by_pair = BTreeMap::new();
    let mut degree = vec![0usize; spec.node.len()];
    for (i, l) in spec.link.iter().enumerate() {
        let path = format!("link[{i}]");
        let mut ends = [0; 2];
        for (j, e) in l.ends.iter().enumerate() {
            ends[j] = *index
                .get(e)
                .ok_or_else(|| bad(&path, &format!("ends[{j}]"), format!("unknown node `{e}`")))?;
        }
        if ends[0] == ends[1] {
            return Err(bad(&path, "ends", "a link must join two different nodes"));
        }
        let key = (ends[0].min(ends[1]), ends[0].max(ends[1]));
        if by_pair.insert(key, i).is_some() {
            return Err(bad(
                &path,
                "ends",
                format!("a link between `{}` and `{}` already exists", l.ends[0], l.ends[1]),
            ));
        }
        let period = match (l.rate_bps, l.rate_cells_per_s) {
            (Some(_), Some(_)) => {
                return Err(bad(&path, "rate_bps", "give either rate_bps or rate_cells_per_s, not both"))
            }
            (None, None) => return Err(bad(&path, "rate_bps", "is required (or rate_cells_per_s)")),
            (Some(0), _) => return Err(bad(&path, "rate_bps", "must be positive")),
            (_, Some(0)) => return Err(bad(&path, "rate_cells_per_s", "must be positive")),
            (Some(b), None) => CellPeriod::from_bps(b),
            (None, Some(c)) => CellPeriod::from_cells_per_s(c),
        };
        if period.ceil_ps() == 0 || period.num / period.den == 0 {
            return Err(bad(&path, "rate_bps", "is too high: a cell must take at least one picosecond"));
        }
        let c = Check(&path);
        c.non_negative_f64("delay_us", l.delay_us)?;
        if l.delay_us > MAX_DELAY_US {
            return Err(bad(&path, "delay_us", format!("must be at most {MAX_DELAY_US} us")));
        }
        degree[ends[0]] += 1;
        degree[ends[1]] += 1;
        links.push(ModelLink { ends, period, prop: (l.delay_us * PS_PER_US as f64).round() as Time });
    }
    for (i, n) in spec.node.iter().enumerate() {
        if n.kind == NodeKind::Host && degree[i] != 1 {
            return Err(bad(
                &format!("node[{i}]"),
                "kind",
                format!("host `{}` must have exactly one link, it has {}", n.name, degree[i]),
            ));
        }
    }
    Ok(Topology { index, links, by_pair })
}

/// `[[port]]`: every switch end of every link gets a port, the default one infinite with tail
/// drop; a `[[port]]` table configures one of them once.
fn ports(spec: &ScenarioSpec, topo: &Topology) -> Result<BTreeMap<(usize, usize), ModelPort>, ScenarioError> {
    let mut ports = BTreeMap::new();
    for (li, l) in topo.links.iter().enumerate() {
        for &e in &l.ends {
            if spec.node[e].kind == NodeKind::Switch {
                ports.insert(
                    (e, li),
                    ModelPort {
                        capacity: INFINITE,
                        policy: Policy::TailDrop,
                        arbitration: Arbitration::Rotating,
                        slotted: false,
                        scheduler: None,
                        merge_frames: false,
                        flow: Default::default(),
                    },
                );
            }
        }
    }
    let mut seen = BTreeMap::new();
    for (i, p) in spec.port.iter().enumerate() {
        let path = format!("port[{i}]");
        let node = *topo
            .index
            .get(&p.node)
            .ok_or_else(|| bad(&path, "node", format!("unknown node `{}`", p.node)))?;
        if spec.node[node].kind != NodeKind::Switch {
            return Err(bad(
                &path,
                "node",
                format!("`{}` is a host: ports with buffers belong to switches", p.node),
            ));
        }
        let toward = *topo
            .index
            .get(&p.toward)
            .ok_or_else(|| bad(&path, "toward", format!("unknown node `{}`", p.toward)))?;
        let li = topo
            .link_between(node, toward)
            .ok_or_else(|| bad(&path, "toward", format!("no link joins `{}` and `{}`", p.node, p.toward)))?;
        if seen.insert((node, li), i).is_some() {
            return Err(bad(&path, "toward", format!("port {}->{} is configured twice", p.node, p.toward)));
        }
        let capacity = match p.buffer_cells {
            BufferSize::Cells(k) => {
                Check(&path).int_range("buffer_cells", Some(k), 1, MAX_CELLS)?;
                Some(k)
            }
            BufferSize::Named(_) => None,
        };
        let policy = policy_of(&p.policy, capacity, &path)?;
        let flow = super::switch_flow::port_flow(p, capacity, &path)?;
        let arbitration = match p.arbitration {
            Some(ArbitrationSpec::Fixed) => Arbitration::Fixed,
            Some(ArbitrationSpec::Random) => Arbitration::Random,
            Some(ArbitrationSpec::Rotating) | None => Arbitration::Rotating,
        };
        ports.insert(
            (node, li),
            ModelPort {
                capacity: capacity.map_or(INFINITE, |k| k as u32),
                policy,
                arbitration,
                slotted: p.arrivals == Some(ArrivalsSpec::Slotted),
                scheduler: p.scheduler,
                merge_frames: p.merge_frames,
                flow,
            },
        );
    }
    Ok(ports)
}

/// `[[connection]]` (with `[tcp]` as every connection's default): route, start, TCP, the
/// application, GFR contract, per-VC accounting and source control of each.
fn connections(
    spec: &ScenarioSpec,
    topo: &Topology,
    names: &mut BTreeMap<String, usize>,
) -> Result<Vec<ModelConn>, ScenarioError> {
    let links = &topo.links;
    let base_tcp = spec.tcp.clone().unwrap_or_default();
    tcp::check_table(&base_tcp, "tcp")?;
    let mut conns = Vec::new();
    for (i, c) in spec.connection.iter().enumerate() {
        let path = format!("connection[{i}]");
        if c.name.is_empty() || names.insert(c.name.clone(), i).is_some() {
            return Err(bad(&path, "name", format!("must be non-empty and unique, got `{}`", c.name)));
        }
        if c.route.len() < 2 {
            return Err(bad(&path, "route", "needs at least a sending and a receiving host"));
        }
        let (nodes, route_links) =
            resolve_route(&c.route, &path, &spec.node, &topo.index, &|a, b| topo.link_between(a, b))?;
        Check(&path).non_negative_f64("start_s", c.start_s)?;
        if c.start_s > MAX_DURATION_S {
            return Err(bad(&path, "start_s", format!("must be at most {MAX_DURATION_S} seconds")));
        }
        let start = from_secs_f64(c.start_s);
        let merged = match &c.tcp {
            Some(own) => {
                tcp::check_table(own, &format!("{path}.tcp"))?;
                tcp::merge(&base_tcp, own)
            }
            None => base_tcp.clone(),
        };
        let tcp_path = if spec.n_source.is_some() {
            // The template's connections take their settings from `n_source.tcp` (their own
            // tables, when `stagger_timers` gives them one, hold only a computed timer phase).
            "n_source.tcp".to_string()
        } else if c.tcp.is_some() {
            format!("{path}.tcp")
        } else {
            "tcp".to_string()
        };
        let cfg = tcp::resolve(&merged, &tcp_path)?;
        let access = links[route_links[0]].period;
        let app = super::app::app_of(c.app.as_ref(), &path, access)?;
        let gfr = match &c.gfr {
            Some(g) => {
                let m = gfr_of(g, &format!("{path}.gfr"), access.cells_per_s())?;
                if m.tagging == TaggingSpec::Upc && nodes.len() < 3 {
                    return Err(bad(
                        &path,
                        "gfr.tagging",
                        "\"upc\" polices at the first switch: the route has none",
                    ));
                }
                Some(m)
            }
            None => None,
        };
        let class = match &c.vc {
            Some(label) => spec.connection.iter().position(|o| o.vc.as_ref() == Some(label)).unwrap_or(i),
            None => i,
        };
        let vc_threshold = match c.vc_threshold_cells {
            Some(t) => {
                Check(&path).int_range("vc_threshold_cells", Some(t), 0, MAX_CELLS)?;
                Some(t as u32)
            }
            None => gfr.as_ref().map(|g| g.mbs),
        };
        let fcvc = match &c.fcvc {
            Some(f) => Some(super::switch_flow::fcvc_of(f, &format!("{path}.fcvc"))?),
            None => None,
        };
        let vc_weight = c.vc_weight.unwrap_or(1.0);
        Check(&path).non_negative_f64("vc_weight", vc_weight)?;
        let pacing = super::flow::pacing_of(c.shaping.as_ref(), c.abr.as_ref(), access, &path)?;
        let upc = match &c.upc {
            Some(u) => Some(super::flow::upc_of(
                u,
                &nodes,
                &node_names(spec),
                &|n| spec.node[n].kind == NodeKind::Switch,
                &path,
            )?),
            None => None,
        };
        conns.push(ModelConn {
            pacing,
            upc,
            name: c.name.clone(),
            app,
            gfr,
            class,
            vc_threshold,
            vc_weight,
            guaranteed: c.guaranteed,
            fcvc,
            path: nodes,
            links: route_links,
            tcp: cfg,
            tick_phase_given: merged.tick_phase_ms.is_some(),
            start,
        });
    }
    Ok(conns)
}

/// Per-VC policies need every VC that leaves through the port to have a threshold.
fn per_vc_thresholds(
    node: &[NodeSpec],
    links: &[ModelLink],
    ports: &BTreeMap<(usize, usize), ModelPort>,
    conns: &[ModelConn],
) -> Result<(), ScenarioError> {
    for (&(n, link), p) in ports {
        if !matches!(p.policy, Policy::WfqGfr { .. } | Policy::Dfba { .. } | Policy::ThresholdDrop) {
            continue;
        }
        for (i, c) in conns.iter().enumerate() {
            let crosses = (0..c.links.len()).any(|h| (c.path[h], c.links[h]) == (n, link));
            if crosses && c.vc_threshold.is_none() {
                let port = format!("{}->{}", node[n].name, node[other_end(&links[link], n)].name);
                return Err(bad(
                    &format!("connection[{i}]"),
                    "vc_threshold_cells",
                    format!(
                        "is required: port `{port}`'s policy {} needs a per-VC threshold (or a gfr \
                         contract's MBS)",
                        p.policy.name()
                    ),
                ));
            }
        }
    }
    Ok(())
}
