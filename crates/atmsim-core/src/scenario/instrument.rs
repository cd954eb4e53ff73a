//! Wiring `[trace]` and `[capture]` (see `observe.rs`) into a built simulation: the chosen
//! senders keep their congestion-window trace, the chosen switch ports get a sampler, and
//! capture points are attached to channels and hosts. Without those tables nothing changes.

use super::build::Built;
use super::observe::{CapturePoint, TraceModel};
use crate::cell::VcId;
use crate::net::{Component, Endpoint, PortTrace, Recorder};
use crate::pcap::Wire;

pub fn attach(b: &mut Built) {
    if let Some(t) = b.model.observe.trace.clone() {
        trace(b, &t);
    }
    if !b.model.observe.capture.points.is_empty() {
        capture(b);
    }
}

fn trace(b: &mut Built, t: &TraceModel) {
    if t.cwnd {
        for (c, ends) in b.endpoints.iter().enumerate() {
            let (comp, ep) = ends[0];
            if !t.traces_conn(c) {
                continue;
            }
            if let Component::Host(h) = &mut b.sim.comps[comp] {
                if let Endpoint::Sender { tcp, .. } = &mut h.endpoints[ep] {
                    tcp.trace = Some(Vec::new());
                }
            }
        }
    }
    if !(t.queues || t.utilization || t.arrivals) {
        return;
    }
    let model = &b.model;
    for &pc in &b.ports {
        let Component::Port(p) = &mut b.sim.comps[pc] else { continue };
        // A port sends on channel 2 * link + side, from the link's end `side`.
        let link = p.channel as usize / 2;
        let from = model.links[link].ends[p.channel as usize % 2];
        if !t.traces_port((from, link)) {
            continue;
        }
        let period = b.sim.world.channels[p.channel as usize].period;
        let mut tr = PortTrace::new(t.interval, model.duration, period, t.queues, t.utilization);
        if t.per_vc {
            // The VCs whose data or ACKs leave through this port.
            let vcs = (0..model.conns.len())
                .filter(|&c| t.traces_conn(c))
                .filter(|&c| {
                    let conn = &model.conns[c];
                    (0..conn.links.len())
                        .any(|h| conn.links[h] == link && (conn.path[h] == from || conn.path[h + 1] == from))
                })
                .map(|c| c as VcId)
                .collect();
            tr.watch_vcs(vcs);
        }
        if t.arrivals {
            // The VCs whose data leave through this port.
            let vcs = (0..model.conns.len())
                .filter(|&c| t.traces_conn(c))
                .filter(|&c| {
                    let conn = &model.conns[c];
                    (0..conn.links.len()).any(|h| (conn.path[h], conn.links[h]) == (from, link))
                })
                .map(|c| c as VcId)
                .collect();
            tr.watch_arrivals(vcs);
        }
        p.start_trace(tr);
    }
}

/// 10.x.y.z for the `n`-th host (1-based, in the order of the nodes).
fn address(n: u32) -> [u8; 4] {
    [10, (n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// A file name from a point's name: `a->b` becomes `a_to_b`, unsafe characters `_`.
fn stem(name: &str) -> String {
    name.replace("->", "_to_")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' })
        .collect()
}

fn capture(b: &mut Built) {
    let model = &b.model;
    let mut ordinal = vec![0u32; model.nodes.len()];
    let mut n = 0;
    for (i, node) in model.nodes.iter().enumerate() {
        if node.kind == super::spec::NodeKind::Host {
            n += 1;
            ordinal[i] = n;
        }
    }
    let world = &mut b.sim.world;
    world.captures.wire = model
        .conns
        .iter()
        .enumerate()
        .map(|(i, c)| Wire {
            sender_ip: address(ordinal[c.path[0]]),
            receiver_ip: address(ordinal[*c.path.last().expect("validated route")]),
            // Distinct per connection, so two connections between the same hosts are two flows.
            sender_port: 10_000 + (i % 20_000) as u16,
            receiver_port: 40_000 + (i % 20_000) as u16,
            shift: c.tcp.window_shift(),
            sender_window: c.tcp.advertised_window(),
            iss: c.tcp.iss,
        })
        .collect();
    let cm = &model.observe.capture;
    let mut stems: Vec<String> = Vec::new();
    for (name, point) in &cm.points {
        let mut s = stem(name);
        let base = s.clone();
        let mut k = 1;
        while stems.contains(&s) {
            k += 1;
            s = format!("{base}_{k}");
        }
        stems.push(s.clone());
        let idx = world.captures.points.len() as u32;
        match *point {
            CapturePoint::Channel { from, link } => {
                let ch = 2 * link + usize::from(model.links[link].ends[0] != from);
                world.channels[ch].capture = idx;
                let rec = Recorder::new(s, cm.sunatm, true, &world.captures.wire);
                world.captures.points.push(rec);
            }
            CapturePoint::Host(node) => {
                for comp in b.sim.comps.iter_mut() {
                    match comp {
                        Component::Host(h) if h.name == model.nodes[node].name => h.capture = idx,
                        _ => {}
                    }
                }
                let rec = Recorder::new(s, cm.sunatm, false, &world.captures.wire);
                world.captures.points.push(rec);
            }
        }
    }
}
