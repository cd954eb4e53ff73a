//! What a run will cost, from the scenario alone: cells, events, memory and wall time.
//!
//! The estimate is arithmetic over the validated [`Model`] (rates x durations x hops, VC
//! counts), nothing is built or run, so `atmsim run --estimate` answers at once and `run` and
//! `sweep` can refuse a scenario that would not fit before it takes the machine.
//!
//! ## Traffic
//! Every flow (connection or background source) offers a rate in cells per second: a greedy or
//! transfers connection its access link's rate, limited by its shaper and by its receive window
//! over the path's round trip; a `messages` application its mean rate; a background source its
//! mean rate, limited by its shaper and its access link. Each link direction then carries at
//! most its rate: a flow keeps the share `capacity / load` of its most loaded link
//! (proportional sharing, one pass, not max-min: close enough for a factor-of-two estimate).
//! TCP adds one ACK cell per segment (per two with delayed ACKs) on the reverse path; ABR
//! sources one RM cell per `nrm` data cells, FCVC one credit cell per `n2` cells per hop.
//!
//! ## Events
//! The engine counts one event per cell arrival and one per departure at every component, so a
//! cell crossing `h` links costs `2 h` events; application and background bursts add one each.
//!
//! ## Memory
//! See [`memory_bytes`]: the one place its constants live, to recalibrate when the engine's
//! per-VC state changes.

use crate::aal5::cells_for_segment;
use crate::app::AppKind;
use crate::net::{RateControl, INFINITE, SOURCE_QUEUE_CELLS};
use crate::scenario::validate::Model;
use crate::time::{to_secs_f64, Time, PS_PER_S};

/// Events per cell per link crossed: its departure from the sender and its arrival at the
/// receiver (how `Port::process` and `Host::advance` count).
const EVENTS_PER_CELL_HOP: f64 = 2.0;

/// Events the engine processes per second of wall time, release build, one core. Measured with
/// `atmsim bench` on the shipped scenarios on the 2-core sandbox this was written on (8 to 25
/// million); the middle is taken. Only the wall-time estimate depends on it.
pub const EVENTS_PER_WALL_S: f64 = 15.0e6;

/// The cost of running a model to its end.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Estimate {
    /// Cells the hosts send (data, ACK, RM) plus credit cells: the report's `cells_offered`.
    pub cells: f64,
    /// Cells times the links each crosses.
    pub cell_hops: f64,
    /// Engine events: the report's `events`.
    pub events: f64,
    /// Peak memory of the run, in bytes.
    pub memory_bytes: f64,
    /// Wall time at [`EVENTS_PER_WALL_S`].
    pub wall_s: f64,
}

/// A flow as the estimate sees it: links crossed, offered cell rate, active time.
struct Flow {
    links: Vec<usize>,
    nodes: Vec<usize>,
    offered: f64,
    active_s: f64,
    /// Cells per TCP segment (0: not TCP), and segments per ACK.
    seg_cells: f64,
    seg_per_ack: f64,
    /// Control cells per data cell: RM (ABR) and per hop credit (FCVC).
    rm_per_cell: f64,
    credit_per_cell_hop: f64,
    /// Bursts per second (applications' messages, background bursts).
    bursts_per_s: f64,
    /// Cells (and segments) the flow can have outstanding: its window.
    window_cells: f64,
    window_segments: f64,
}

/// The cost of running a validated model to its end (the module documentation gives the rules).
pub fn estimate(model: &Model) -> Estimate {
    let dur_s = to_secs_f64(model.duration);
    let link_rate: Vec<f64> = model.links.iter().map(|l| l.period.cells_per_s()).collect();
    let active = |start: Time| to_secs_f64(model.duration.saturating_sub(start));
    let mut flows = Vec::new();
    for c in &model.conns {
        let access = link_rate[c.links[0]];
        let rtt_s: f64 =
            c.links.iter().map(|&l| 2.0 * (to_secs_f64(model.links[l].prop) + 1.0 / link_rate[l])).sum();
        let seg_cells = f64::from(cells_for_segment(c.tcp.mss, 0));
        let window_segments = (f64::from(c.tcp.rcv_window) / f64::from(c.tcp.mss)).max(1.0);
        let window_cells = window_segments * seg_cells;
        let mut offered = access.min(window_cells / rtt_s);
        let mut bursts_per_s = 0.0;
        if let AppKind::Messages { mean_bytes, rate_bps } = c.app {
            offered = offered.min(rate_bps / 8.0 / f64::from(c.tcp.mss) * seg_cells);
            bursts_per_s = rate_bps / 8.0 / mean_bytes;
        }
        let mut rm_per_cell = 0.0;
        if let Some(p) = &c.pacing {
            if let Some(s) = &p.shaper {
                offered = offered.min(PS_PER_S as f64 / s.t);
            }
            rm_per_cell = match &p.rate {
                RateControl::Fixed => 0.0,
                RateControl::Prca(p) => 1.0 / f64::from(p.nrm),
                RateControl::Adaptive { nrm, .. } => 1.0 / f64::from(*nrm),
            };
        }
        flows.push(Flow {
            links: c.links.clone(),
            nodes: c.path.clone(),
            offered,
            active_s: active(c.start),
            seg_cells,
            seg_per_ack: if c.tcp.delayed_ack { 2.0 } else { 1.0 },
            rm_per_cell,
            credit_per_cell_hop: c.fcvc.as_ref().map_or(0.0, |f| 1.0 / f64::from(f.n2.max(1))),
            bursts_per_s,
            window_cells,
            window_segments,
        });
    }
    for b in &model.background {
        let access = link_rate[b.links[0]];
        let mut offered = b.source.mean_cells_per_s().min(access);
        if let Some(s) = &b.shaper {
            offered = offered.min(PS_PER_S as f64 / s.t);
        }
        let mean = b.source.mean_cells_per_s();
        let burst_cells = match b.source {
            crate::traffic::Source::Cbr { .. } => 1.0,
            _ => 20.0,
        };
        flows.push(Flow {
            links: b.links.clone(),
            nodes: b.path.clone(),
            offered,
            active_s: active(b.start),
            seg_cells: 0.0,
            seg_per_ack: 1.0,
            rm_per_cell: 0.0,
            credit_per_cell_hop: 0.0,
            bursts_per_s: mean / burst_cells,
            window_cells: 0.0,
            window_segments: 0.0,
        });
    }

    // Proportional sharing: each link direction (link, sending node) carries at most its rate.
    let dir = |f: &Flow, h: usize| (f.links[h], f.nodes[h]);
    let mut load = std::collections::HashMap::new();
    for f in &flows {
        for h in 0..f.links.len() {
            *load.entry(dir(f, h)).or_insert(0.0) += f.offered;
        }
    }
    let mut cells = 0.0;
    let mut cell_hops = 0.0;
    let mut events = 0.0;
    // Cells that pile up in front of an overloaded infinite buffer, or a host's source queue.
    let mut backlog_cells = 0.0;
    let (mut sent_windows, mut sent_segments) = (0.0, 0.0);
    for f in &flows {
        let share = (0..f.links.len())
            .map(|h| (link_rate[f.links[h]] / load[&dir(f, h)]).min(1.0))
            .fold(1.0, f64::min);
        let hops = f.links.len() as f64;
        let data = f.offered * share * f.active_s;
        let acks = if f.seg_cells > 0.0 { data / f.seg_cells / f.seg_per_ack } else { 0.0 };
        let rm = data * f.rm_per_cell;
        let credits = data * f.credit_per_cell_hop * hops;
        // A window is outstanding only if the run sends that much.
        sent_windows += f.window_cells.min(data);
        sent_segments += f.window_segments.min(if f.seg_cells > 0.0 { data / f.seg_cells } else { 0.0 });
        cells += data + acks + rm + credits;
        cell_hops += (data + acks) * hops + 2.0 * rm * hops + credits;
        events += f.bursts_per_s * f.active_s;
        if f.seg_cells == 0.0 && share < 1.0 {
            // A background source above its share: its host queue fills to its bound, and an
            // infinite port on the way grows with the excess.
            let excess = f.offered * (1.0 - share) * f.active_s;
            let infinite = (1..f.links.len())
                .any(|h| model.ports.get(&(f.nodes[h], f.links[h])).is_some_and(|p| p.capacity == INFINITE));
            backlog_cells += if infinite { excess } else { excess.min(f64::from(SOURCE_QUEUE_CELLS)) };
        }
    }
    events += EVENTS_PER_CELL_HOP * cell_hops;
    // Buffers: every cell of a TCP window may sit in some buffer, and holds a frame slot per
    // segment; background traffic may also fill the finite buffers it crosses.
    let background_buffers: f64 = if model.background.is_empty() {
        0.0
    } else {
        model.ports.values().filter(|p| p.capacity != INFINITE).map(|p| f64::from(p.capacity)).sum()
    };
    let trace_values = trace_values(model, dur_s, events);
    // Components each VC crosses: both end hosts and, per switch, one port each way for a
    // connection (data and ACKs), one port for a background source.
    let crossings: usize = model.conns.iter().map(|c| 2 * (c.path.len() - 1)).sum::<usize>()
        + model.background.iter().map(|b| b.path.len()).sum::<usize>();
    let memory = memory_bytes(&Footprint {
        conns: model.conns.len() as f64,
        background: model.background.len() as f64,
        crossings: crossings as f64,
        hosts: model.nodes.iter().filter(|n| n.kind == crate::scenario::spec::NodeKind::Host).count() as f64,
        ports: model.ports.len() as f64,
        channels: 2.0 * model.links.len() as f64,
        buffered_cells: sent_windows + background_buffers + backlog_cells,
        frames: sent_segments + background_buffers + backlog_cells,
        trace_values,
    });
    Estimate { cells, cell_hops, events, memory_bytes: memory, wall_s: events / EVENTS_PER_WALL_S }
}

/// Values the traces will hold: sampled columns (as `observe.rs` bounds them), and the window
/// history, three values per change (about one change per event of a sender: bounded here by a
/// tenth of all events, generous for bulk TCP).
fn trace_values(model: &Model, dur_s: f64, events: f64) -> f64 {
    let Some(t) = &model.observe.trace else { return 0.0 };
    let samples = dur_s / to_secs_f64(t.interval);
    let ports = t.ports.as_ref().map_or(model.ports.len(), Vec::len) as f64;
    let per_port = 1.0
        + if t.queues { 1.0 + if t.per_vc { model.conns.len() as f64 } else { 0.0 } } else { 0.0 }
        + if t.utilization { 1.0 } else { 0.0 };
    let cwnd = if t.cwnd { 3.0 * events / 10.0 } else { 0.0 };
    samples * ports * per_port + cwnd
}

/// What the memory model counts.
pub struct Footprint {
    /// Connections (each a data and an ACK VC).
    pub conns: f64,
    /// Background sources (one VC each).
    pub background: f64,
    /// Sum over VCs of the hosts and ports each one crosses (its per-VC state, see
    /// `net/label.rs`).
    pub crossings: f64,
    /// End systems.
    pub hosts: f64,
    /// Switch output ports.
    pub ports: f64,
    /// One-way channels (two per link).
    pub channels: f64,
    /// Cells that may sit in buffers and adapters at once.
    pub buffered_cells: f64,
    /// AAL5 frames (TCP segments, background messages) alive at once.
    pub frames: f64,
    /// Numbers the traces hold at the end.
    pub trace_values: f64,
}

/// Peak resident memory of a run, in bytes. The constants, and why:
///
/// - `BASE`: the process with nothing built: peak RSS of `python -m atmsim run` on the small
///   shipped scenarios is 25 MB (`/usr/bin/time -f %M`, `scripts/estimate_bench.py`); the Rust
///   engine alone is 4 MB of it.
/// - Per host or port: its component (1088 bytes inline in the component vector, which grows by
///   doubling) and its small vectors (inputs, labels, per-VC tables, scheduler entry): 2.4 KB.
///   Per channel: 88 bytes, its name, input FIFO and route: 400 bytes.
/// - Per connection: the model's entry (names, route, TCP configuration) and its two endpoints
///   (488 bytes each, plus the TCP sender's and receiver's own vectors): 3.5 KB. Per background
///   source: its entry, generator, bounded queue and sink: 1.3 KB.
/// - Per VC crossing a component (labels keep per-VC state there only, `net/label.rs`): a port's
///   frame state, class and `ClassState` (48 bytes), a host's reassembly, the channel's `Hop`:
///   96 bytes.
///
///   Fitted on peak RSS of the engine alone (`examples/run`, a run of 3 us): N-source LAN
///   (2 hosts, 2 ports, 4 channels, 1 connection, 6 crossings per source) 15.0 KB per source
///   between 2000 and 10000 sources; one host pair with `count` background CBR sources
///   (3 crossings each) 1.6 KB per source between 32000 and 65534.
/// - A buffered cell is a `Cell` plus its arrival time (16 bytes), twice over for the growth of
///   the deques that hold it; a frame slot is a `Frame` (about 80 bytes).
/// - A trace value is 8 bytes in its vector and about 20 more as JSON text, held twice while
///   the report is written and parsed: 64 bytes.
pub fn memory_bytes(f: &Footprint) -> f64 {
    const BASE: f64 = 24.0e6;
    const COMPONENT: f64 = 2400.0;
    const CHANNEL: f64 = 400.0;
    const CONN: f64 = 3500.0;
    const BACKGROUND: f64 = 1300.0;
    const CROSSING: f64 = 96.0;
    const CELL: f64 = 2.0 * 16.0;
    const FRAME: f64 = 80.0;
    const TRACE_VALUE: f64 = 64.0;
    BASE + (f.hosts + f.ports) * COMPONENT
        + f.channels * CHANNEL
        + f.conns * CONN
        + f.background * BACKGROUND
        + f.crossings * CROSSING
        + f.buffered_cells * CELL
        + f.frames * FRAME
        + f.trace_values * TRACE_VALUE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(text: &str) -> Estimate {
        estimate(&crate::scenario::load(text, &[], None).unwrap())
    }

    #[test]
    fn a_greedy_connection_fills_its_link_and_cells_scale_with_duration() {
        let t = |d: f64| {
            format!(
                "[simulation]\nduration_s = {d}\n[n_source]\nsources = 1\nconfig = \"LAN\"\nbuffer_cells = \
                 1000\npolicy = \"tail_drop\"\n"
            )
        };
        let (a, b) = (est(&t(0.1)), est(&t(0.2)));
        // One OC-3 link's worth of cells (353,207 cells/s) plus ACKs: within a few percent.
        let link = 155_520_000.0 / 424.0 * 0.1;
        assert!(a.cells > link && a.cells < 1.1 * link, "{}", a.cells);
        assert!((b.cells / a.cells - 2.0).abs() < 1e-9);
        assert!(b.memory_bytes > 0.0 && b.wall_s > a.wall_s);
    }

    #[test]
    fn set_up_memory_grows_linearly_with_the_sources() {
        let t = |n: u32| {
            format!(
                "[simulation]\nduration_s = 0.001\n[n_source]\nsources = {n}\nconfig = \"LAN\"\n\
                 buffer_cells = 1000\npolicy = \"tail_drop\"\n"
            )
        };
        let base = memory_bytes(&Footprint {
            conns: 0.0,
            background: 0.0,
            crossings: 0.0,
            hosts: 0.0,
            ports: 0.0,
            channels: 0.0,
            buffered_cells: 0.0,
            frames: 0.0,
            trace_values: 0.0,
        });
        let (a, b) = (est(&t(1000)).memory_bytes, est(&t(2000)).memory_bytes);
        // Per-VC state lives only where the VC passes: twice the sources, twice the memory
        // (less the two backbone ports and their link, counted once).
        let ratio = (b - base) / (a - base);
        assert!(ratio > 1.95 && ratio <= 2.0, "{a} {b}");
    }
}
