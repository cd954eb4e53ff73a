//! From a validated [`Model`] to a runnable [`Sim`]: one host component per host, one port
//! component per switch output port, two channels per link, and one input FIFO per (incoming
//! channel, consuming component) pair, so every FIFO has a single sender and stays sorted.

use std::collections::BTreeMap;

use super::spec::{NodeKind, NodeSpec};
use super::validate::Model;
use crate::cell::{CellFifo, VcId};
use crate::frame::FrameSlab;
use crate::net::{
    Channel, Component, Endpoint, Fault, FaultRule, Hop, Host, Labels, Port, Sched, SchedulePlan, Sim, World,
    NO_CAPTURE, NO_HOP,
};

fn is_switch(n: &NodeSpec) -> bool {
    n.kind == NodeKind::Switch
}
use super::fault::ModelFaultRule;
use super::phases;
use super::spec::{BestEffortSpec, ConformanceSpec, SchedulerSpec, TaggingSpec};
use crate::accept::VcPolicy;
use crate::app::{App, AppKind};
use crate::conformance::{increment, AdapterTagger, FGcra};
use crate::net::{CellUpc, ControlledVc, RateControl, Upc};
use crate::rng::Rng;
use crate::sched::{BestEffort, Queue, RoundRobin, VirtualSpacing};
use crate::tcp::{TcpConfig, TcpReceiver, TcpSender};
use crate::time::{SlotClock, Time, NEVER};
use crate::traffic::Generator;

/// A built simulation and where to find what the report needs.
pub struct Built {
    pub sim: Sim,
    pub model: Model,
    /// Per connection: (sender host component, endpoint), (receiver host component, endpoint).
    pub endpoints: Vec<[(usize, usize); 2]>,
    /// Switch port components in a stable order (by link, then end).
    pub ports: Vec<usize>,
    pub bottleneck: Option<usize>,
}

/// Each switch port's queue discipline, accounting classes, per-class policy parameters, random
/// stream and frame merging, for the VCs crossing it (indexed by their labels there).
fn configure_ports(
    model: &Model,
    port_comp: &BTreeMap<(usize, usize), usize>,
    comps: &mut [Component],
    n_vcs: usize,
) {
    // Background sources are their own classes, after the connections.
    let class: Vec<VcId> = model
        .conns
        .iter()
        .map(|c| c.class as u16)
        .chain((model.conns.len()..n_vcs).map(|v| v as u16))
        .collect();
    let mut policies = vec![VcPolicy::default(); n_vcs];
    let mut rates = vec![0.0; n_vcs];
    for c in &model.conns {
        let p = &mut policies[c.class];
        p.threshold = c.vc_threshold.unwrap_or(0);
        p.weight = c.vc_weight;
        // A merged VC is weighted by the sum of its members' MCRs.
        rates[c.class] += c.gfr.as_ref().map_or(0.0, |g| g.mcr);
    }
    let guaranteed: Vec<bool> = model
        .conns
        .iter()
        .map(|c| c.guaranteed)
        .chain(model.background.iter().map(|b| b.guaranteed))
        .collect();
    for (key, &pc) in port_comp {
        let mp = &model.ports[key];
        let Component::Port(p) = &mut comps[pc] else { continue };
        let vcs = p.labels.vcs();
        let n = vcs.len();
        // This port's classes: those of its VCs, numbered in the global order.
        let mut class_vcs: Vec<VcId> = vcs.iter().map(|&v| class[v as usize]).collect();
        class_vcs.sort_unstable();
        class_vcs.dedup();
        let local_class: Vec<u16> = vcs
            .iter()
            .map(|&v| class_vcs.binary_search(&class[v as usize]).expect("a class of this port") as u16)
            .collect();
        let local_policies: Vec<VcPolicy> = class_vcs.iter().map(|&c| policies[c as usize]).collect();
        let queue = match mp.scheduler.unwrap_or(SchedulerSpec::Fifo) {
            SchedulerSpec::Fifo => Queue::fifo(),
            // Over one VC, Virtual Spacing serves in arrival order (one VC's stamps only grow):
            // it is a FIFO, and as one the port may commit its departures (`net/commit.rs`).
            SchedulerSpec::VirtualSpacing if n <= 1 => Queue::fifo(),
            SchedulerSpec::VirtualSpacing => {
                let local_rates: Vec<f64> = vcs.iter().map(|&v| rates[v as usize]).collect();
                Queue::VirtualSpacing(VirtualSpacing::new(&local_rates))
            }
            SchedulerSpec::Priority => Queue::Priority {
                high: Default::default(),
                low: match mp.flow.best_effort.unwrap_or(BestEffortSpec::Fifo) {
                    BestEffortSpec::Fifo => BestEffort::default(),
                    BestEffortSpec::RoundRobin => BestEffort::RoundRobin(RoundRobin::new(n)),
                },
                guaranteed: vcs.iter().map(|&v| guaranteed[v as usize]).collect(),
            },
            SchedulerSpec::RoundRobin => Queue::RoundRobin(RoundRobin::new(n)),
        };
        let rng = Rng::stream(model.seed, &format!("port/{}", p.name));
        p.configure(queue, local_class, local_policies, rng, mp.merge_frames);
        p.class_vcs = class_vcs;
    }
}

pub(super) fn channel_id(model: &Model, link: usize, from: usize) -> usize {
    2 * link + usize::from(model.links[link].ends[0] != from)
}

pub fn build(model: Model) -> Built {
    let n_vcs = model.n_vcs();
    let n_channels = 2 * model.links.len();
    let mut comps: Vec<Component> = Vec::new();
    let mut host_comp = vec![usize::MAX; model.nodes.len()];
    let mut port_comp: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut ports = Vec::new();
    let mut channels: Vec<Channel> = Vec::with_capacity(n_channels);
    // The component transmitting on each channel.
    let mut sender = Vec::with_capacity(n_channels);

    for (li, l) in model.links.iter().enumerate() {
        for (side, &from) in l.ends.iter().enumerate() {
            let to = l.ends[1 - side];
            let name = format!("{}->{}", model.nodes[from].name, model.nodes[to].name);
            // The transmitter's own oscillator: its rate error, then its phase on that grid.
            let period = phases::slot_period(&model, &name, l.period);
            let clock = SlotClock::with_phase(period, phases::slot_phase(&model, &name, period));
            channels.push(Channel {
                name,
                period,
                latency: period.ceil_ps() + l.prop,
                route: Vec::new(),
                cells: 0,
                capture: NO_CAPTURE,
            });
            let ch = (2 * li + side) as u32;
            sender.push(comps.len() as u32);
            if is_switch(&model.nodes[from]) {
                let mp = &model.ports[&(from, li)];
                let name = model.port_name(from, li);
                port_comp.insert((from, li), comps.len());
                ports.push(comps.len());
                let mut port = Port::new(name.clone(), ch, clock, mp.capacity, mp.policy, 0);
                let rng = Rng::stream(model.seed, &format!("arbitration/{name}"));
                port.set_arbitration(mp.arbitration, mp.slotted, rng);
                comps.push(Component::Port(port));
            } else {
                host_comp[from] = comps.len();
                let name = model.nodes[from].name.clone();
                comps.push(Component::Host(Host::new(name, ch, clock, 0)));
            }
        }
    }

    let mut fifos: Vec<CellFifo> = Vec::new();
    let mut fifo_of: BTreeMap<(usize, usize), u32> = BTreeMap::new();
    let mut lookahead = vec![NEVER; comps.len()];
    let mut upstream: Vec<Vec<(u32, Time)>> = vec![Vec::new(); comps.len()];
    // The FIFO through which channel `ch` feeds component `owner`, created on first use.
    let mut feed = |ch: usize, owner: usize, comps: &mut Vec<Component>, channels: &Vec<Channel>| -> u32 {
        *fifo_of.entry((ch, owner)).or_insert_with(|| {
            let id = fifos.len() as u32;
            fifos.push(CellFifo::new(owner as u32));
            match &mut comps[owner] {
                Component::Port(p) => p.inputs.push(id),
                Component::Host(h) => h.inputs.push(id),
            }
            let lat: Time = channels[ch].latency;
            lookahead[owner] = lookahead[owner].min(lat);
            upstream[owner].push((sender[ch], lat));
            id
        })
    };

    // Each host's timer phase, as a fraction of a tick (hosts are nodes: one draw per node).
    let ticks: Vec<Option<f64>> =
        model.nodes.iter().map(|n| phases::tick_fraction(&model, &n.name)).collect();
    let with_ticks = |c: &super::validate::ModelConn, node: usize| -> TcpConfig {
        let mut cfg = c.tcp;
        if let (false, Some(f)) = (c.tick_phase_given, ticks[node]) {
            cfg.tick_phase = phases::tick_phase(cfg.tick, f);
        }
        cfg
    };
    // Every VC's hops, in VC order so that each component's labels follow the global order.
    let mut labels = vec![Labels::default(); comps.len()];
    let mut route = |vc: usize, ch: usize, owner: usize, fifo: u32, channels: &mut Vec<Channel>| {
        let vc = vc as VcId;
        let from = labels[sender[ch] as usize].assign(vc) as usize;
        let label = labels[owner].assign(vc);
        let r = &mut channels[ch].route;
        if r.len() <= from {
            r.resize(from + 1, NO_HOP);
        }
        r[from] = Hop { fifo, label, vc };
    };
    for (vc, c) in model.conns.iter().enumerate() {
        let m = c.path.len() - 1;
        // Both directions: data along the path, ACKs back along it, on the same VC.
        for forward in [true, false] {
            for hop in 0..m {
                let (a, b, li) = if forward {
                    (c.path[hop], c.path[hop + 1], c.links[hop])
                } else {
                    (c.path[m - hop], c.path[m - hop - 1], c.links[m - hop - 1])
                };
                let ch = channel_id(&model, li, a);
                let owner = if hop + 1 == m {
                    host_comp[b]
                } else {
                    let next_link = if forward { c.links[hop + 1] } else { c.links[m - hop - 2] };
                    port_comp[&(b, next_link)]
                };
                let fifo = feed(ch, owner, &mut comps, &channels);
                route(vc, ch, owner, fifo, &mut channels);
            }
        }
    }
    let n_conns = model.conns.len();
    for (j, b) in model.background.iter().enumerate() {
        let vc = n_conns + j;
        let m = b.path.len() - 1;
        // One way only: a background source gets no acknowledgements.
        for hop in 0..m {
            let ch = channel_id(&model, b.links[hop], b.path[hop]);
            let owner = if hop + 1 == m {
                host_comp[b.path[m]]
            } else {
                port_comp[&(b.path[hop + 1], b.links[hop + 1])]
            };
            let fifo = feed(ch, owner, &mut comps, &channels);
            route(vc, ch, owner, fifo, &mut channels);
        }
    }
    for (comp, l) in comps.iter_mut().zip(labels) {
        match comp {
            Component::Port(p) => p.set_labels(l),
            Component::Host(h) => h.set_labels(l),
        }
    }
    // The label of global VC `vc` at a component it crosses.
    fn label(labels: &Labels, vc: usize) -> VcId {
        labels.local(vc).expect("the VC crosses this component") as VcId
    }

    let mut endpoints = Vec::new();
    for (vc, c) in model.conns.iter().enumerate() {
        let m = c.path.len() - 1;
        let (src, dst) = (host_comp[c.path[0]], host_comp[c.path[m]]);
        let mut ends = [(0, 0); 2];
        if let Component::Host(h) = &mut comps[src] {
            ends[0] = (src, h.endpoints.len());
            h.add_endpoint(Endpoint::Sender {
                vc: label(&h.labels, vc),
                tcp: TcpSender::new(vc as u32, with_ticks(c, c.path[0])),
                // Each application draws from its own stream, named after its connection.
                app: App::new(
                    c.app,
                    phases::jittered_start(&model, &c.name, c.start),
                    Rng::stream(model.seed, &format!("app/{}", c.name)),
                ),
            });
        }
        if let Component::Host(h) = &mut comps[dst] {
            ends[1] = (dst, h.endpoints.len());
            h.add_endpoint(Endpoint::Receiver {
                vc: label(&h.labels, vc),
                tcp: TcpReceiver::new(vc as u32, &with_ticks(c, c.path[m])),
            });
        }
        endpoints.push(ends);
    }

    for (j, b) in model.background.iter().enumerate() {
        let vc = n_conns + j;
        let m = b.path.len() - 1;
        if let Component::Host(h) = &mut comps[host_comp[b.path[0]]] {
            let rng = Rng::stream(model.seed, &format!("background/{}", b.name));
            let gen = Generator::new(b.source.clone(), rng, phases::jittered_start(&model, &b.name, b.start));
            let l = label(&h.labels, vc);
            h.add_endpoint(Endpoint::Background { vc: l, gen, queue: Default::default() });
            if let Some(s) = b.shaper {
                let n = h.labels.len();
                h.control_vc(n, ControlledVc::new(l, Some(s), RateControl::Fixed, None));
            }
        }
        if let Component::Host(h) = &mut comps[host_comp[b.path[m]]] {
            let l = label(&h.labels, vc);
            h.add_endpoint(Endpoint::Sink { vc: l, stats: Default::default() });
        }
    }
    // TCP connections with a source control get their own adapter queue.
    for (vc, c) in model.conns.iter().enumerate() {
        let Some(p) = &c.pacing else { continue };
        if let Component::Host(h) = &mut comps[host_comp[c.path[0]]] {
            let (l, n) = (label(&h.labels, vc), h.labels.len());
            h.control_vc(n, ControlledVc::new(l, p.shaper, p.rate.clone(), None));
        }
    }

    configure_ports(&model, &port_comp, &mut comps, n_vcs);
    // Cell-level UPC: at the policed switch, on the port the VC leaves it through (each VC
    // crosses a switch through one port, so this is the VC's ingress to that switch).
    let policed = model
        .conns
        .iter()
        .map(|c| (c.upc, &c.path, &c.links))
        .chain(model.background.iter().map(|b| (b.upc, &b.path, &b.links)));
    for (vc, (upc, path, links)) in policed.enumerate() {
        let Some(u) = upc else { continue };
        if let Component::Port(p) = &mut comps[port_comp[&(path[u.hop], links[u.hop])]] {
            let l = label(&p.labels, vc) as usize;
            p.cell_upc.resize_with(p.labels.len(), || None);
            p.cell_upc[l] = Some(CellUpc::new(u.t, u.tau, u.drop));
        }
    }
    let (mut levels, mut shares) = (Vec::new(), Vec::new());
    super::switch_flow::wire(
        &model,
        &port_comp,
        &host_comp,
        &mut comps,
        &mut fifos,
        &mut lookahead,
        &mut upstream,
        &channels,
        &mut levels,
        &mut shares,
    );
    for (vc, c) in model.conns.iter().enumerate() {
        let Some(g) = &c.gfr else { continue };
        let (t_mcr, t_pcr) = (increment(g.mcr), increment(g.pcr));
        match g.tagging {
            TaggingSpec::None => {}
            // Whole frames tagged by the source's adapter, with a burst of MBS cells at PCR.
            TaggingSpec::Adapter => {
                if let Component::Host(h) = &mut comps[host_comp[c.path[0]]] {
                    let (l, n) = (label(&h.labels, vc) as usize, h.labels.len());
                    h.set_tagger(
                        l,
                        n,
                        AdapterTagger::new(t_mcr, t_pcr, AdapterTagger::tolerance(t_mcr, t_pcr, g.mbs)),
                    );
                }
            }
            // F-GCRA at the first switch port on the way (the network ingress).
            TaggingSpec::Upc => {
                let f = FGcra::tolerance(t_mcr, t_pcr, g.cdvt, g.mbs);
                if let Component::Port(p) = &mut comps[port_comp[&(c.path[1], c.links[1])]] {
                    let l = label(&p.labels, vc) as usize;
                    p.upc.resize_with(p.labels.len(), || None);
                    p.upc[l] = Some(Upc {
                        fgcra: FGcra::new(t_mcr, f),
                        tag: g.conformance == ConformanceSpec::Gfr2,
                        frames: 0,
                        non_eligible: 0,
                    });
                }
            }
        }
    }
    for (i, f) in model.faults.iter().enumerate() {
        let c = &model.conns[f.conn];
        // Stream positions count from the first data octet (after the SYN, if any).
        let first = c.tcp.iss.wrapping_add(u32::from(matches!(c.app, AppKind::Transfers { .. })));
        let rules: Vec<FaultRule> = match &f.rule {
            ModelFaultRule::Segments { positions, times } => positions
                .iter()
                .map(|&k| FaultRule::Segment {
                    seq: first.wrapping_add((k - 1) * c.tcp.seg_data()),
                    times: *times,
                })
                .collect(),
            ModelFaultRule::Window { from, to } => vec![FaultRule::Window { from: *from, to: *to }],
            ModelFaultRule::Random { p } => {
                vec![FaultRule::Random { p: *p, rng: Rng::stream(model.seed, &format!("fault/{i}")) }]
            }
            ModelFaultRule::Cwnd { octets } => vec![FaultRule::Cwnd { octets: *octets, armed: true }],
        };
        if let Component::Port(p) = &mut comps[port_comp[&f.port]] {
            p.faults.extend(rules.into_iter().map(|rule| Fault { conn: f.conn as u32, acks: f.acks, rule }));
        }
    }
    let bottleneck = model.bottleneck.map(|k| port_comp[&k]);
    let world = World {
        fifos,
        frames: FrameSlab::default(),
        channels,
        sched: Sched::new(comps.len()),
        captures: Default::default(),
        levels,
        shares,
    };
    // A level log's writers and readers commit keyed (`Port::commit_keyed_until`), so that a
    // reader reads the band at its RM cell's instant (`net/level_log.rs`).
    let plan = SchedulePlan::choose(model.reference_schedule, !world.levels.is_empty(), model.paths);
    let sim = Sim::new(comps, lookahead, upstream, plan, model.paths, world);
    let mut built = Built { sim, model, endpoints, ports, bottleneck };
    // Traces and captures, if the scenario asks for them.
    super::instrument::attach(&mut built);
    built
}
