//! The result of a run, as the `--json` document and the Python API see it. Every field is
//! documented in `docs/report-fields.md`.

use serde::Serialize;

use crate::aal5;
use crate::accept::DropReason;
use crate::cell::VcId;
use crate::metrics::jain;
use crate::net::{Component, Endpoint, RateControl, INFINITE};
use crate::scenario::build::Built;
use crate::time::to_secs_f64;

/// One TCP connection's results (`flows[]`).
#[derive(Debug, Clone, Serialize)]
pub struct FlowReport {
    /// Connection name (`tcp1`, `tcp2`, ... in the N-source template).
    pub name: String,
    /// Payload delivered in order, in bit/s over the whole run (the papers' throughput:
    /// retransmissions and headers excluded).
    pub goodput_bps: f64,
    /// Payload octets delivered in order to the receiving application.
    pub bytes_delivered: u64,
    /// TCP segments sent, retransmissions included.
    pub segments_sent: u64,
    /// Segments sent again.
    pub segments_retransmitted: u64,
    /// Data octets sent, retransmissions included.
    pub bytes_sent: u64,
    /// Payload octets of the retransmitted segments.
    pub bytes_retransmitted: u64,
    /// Retransmission timeouts.
    pub rto_expirations: u64,
    /// Fast retransmits (0 when fast retransmit is off).
    pub fast_retransmits: u64,
    /// Mean of the sender's round-trip samples, in seconds; `None` without samples.
    pub mean_rtt_s: Option<f64>,
    /// Mean time from a segment's creation to its in-order delivery, in seconds; `None`
    /// without samples.
    pub mean_delay_s: Option<f64>,
    /// Congestion window at the end, in octets.
    pub final_cwnd_bytes: u32,
    /// Slow-start threshold at the end, in octets.
    pub final_ssthresh_bytes: u32,
    /// Connections dropped after too many successive timeouts.
    pub aborts: u64,
    /// The CLASS study's efficiency: goodput over the data octets the sender put on the wire
    /// (retransmissions included).
    pub efficiency: Option<f64>,
    /// Retransmission timeouts per 10 MB delivered (the GFR study's measure).
    pub rto_per_10mb: Option<f64>,
    /// AAL5 frames of the connection tagged CLP=1 (by its adapter or at the network's UPC) and
    /// their share of the frames examined; `null` when nothing tags this connection.
    pub frames_tagged: Option<u64>,
    /// Share (0..1) of the examined frames that were tagged.
    pub tagged_fraction: Option<f64>,
    /// Transfers of a `transfers` application that completed.
    pub transfers_completed: u64,
    /// Transfers of a `transfers` application whose connection was aborted.
    pub transfers_aborted: u64,
    /// Mean duration of the completed transfers (SYN to last octet acknowledged), in
    /// seconds; `None` without any.
    pub mean_transfer_time_s: Option<f64>,
    /// Messages written by a `messages` application.
    pub messages: u64,
    /// RM cells the source sent; `None` without `abr`.
    pub rm_cells_sent: Option<u64>,
    /// RM cells that came back to the source; `None` without `abr`.
    pub rm_cells_returned: Option<u64>,
    /// Returned RM cells that carried congestion (PRCA CI or adaptive DR); `None` without `abr`.
    pub rm_cells_congested: Option<u64>,
    /// The source's allowed rate at the end (bit/s of cells): PRCA's ACR, adaptive C / N_S,
    /// or the fixed shaping rate; `null` for an unpaced connection.
    pub final_rate_bps: Option<f64>,
}

/// A background source and its sink.
#[derive(Debug, Clone, Serialize)]
pub struct BackgroundReport {
    /// Source name (`[[background]]` `name`; `name.1`, `name.2`, ... when `count` > 1).
    pub name: String,
    /// Messages (bursts) the source generated.
    pub messages_offered: u64,
    /// Cells of those messages.
    pub cells_offered: u64,
    /// Cells that reached the sink.
    pub cells_delivered: u64,
    /// Messages that arrived whole.
    pub messages_delivered: u64,
    /// Messages (and their cells) the source's host refused because its bounded adapter queue
    /// was full: the source offered more than its link or shaper carries.
    pub messages_refused: u64,
    /// Cells of the refused messages.
    pub cells_refused: u64,
    /// User data the source generated, in bit/s over the run.
    pub offered_user_bps: f64,
    /// User data of the messages that arrived whole, in bit/s over the run.
    pub delivered_user_bps: f64,
    /// 1 - delivered / offered cells (cells still queued or in flight at the end count as lost).
    pub cell_loss_ratio: Option<f64>,
}

/// One switch output port's results (`ports[]`).
#[derive(Debug, Clone, Serialize)]
pub struct PortReport {
    /// Port name, `switch->neighbour`.
    pub name: String,
    /// Buffer acceptance policy (`tail_drop`, `epd`, ...).
    pub policy: &'static str,
    /// Buffer size in cells; `None` when infinite.
    pub buffer_cells: Option<u32>,
    /// Cells that arrived at the port.
    pub cells_in: u64,
    /// Cells transmitted on the outgoing link.
    pub cells_out: u64,
    /// Cells discarded, for any reason.
    pub cells_dropped: u64,
    /// AAL5 frames that lost at least one cell here.
    pub frames_dropped: u64,
    /// `cells_dropped` by reason (`overflow`, `early_packet`, `fault`, ...; see
    /// `docs/report-fields.md`).
    pub drops: serde_json::Map<String, serde_json::Value>,
    /// Largest queue occupancy seen, in cells.
    pub max_queue_cells: u32,
    /// Time-averaged queue occupancy, in cells.
    pub mean_queue_cells: f64,
    /// Queue occupancy at the end, in cells.
    pub final_queue_cells: u32,
    /// Time-averaged occupancy of each VC that used the port (merged VCs under their first
    /// connection's name).
    pub vc_mean_queue_cells: serde_json::Map<String, serde_json::Value>,
    /// RM cells that arrived (counted in `cells_in`).
    pub rm_cells: u64,
    /// Backward RM cells whose feedback this switch made more pessimistic.
    pub rm_feedback_raised: u64,
    /// Backward RM cells set to DR by the fair-share rule where the buffer band gave less.
    pub rm_fair_share_decreases: u64,
    /// Data cells marked EFCI here.
    pub efci_marked: u64,
    /// FCVC credit cells consumed here (never queued: not in `cells_in`).
    pub credit_cells_in: u64,
    /// FCVC credit cells the port sent back upstream (not in `cells_out`).
    pub credit_cells_out: u64,
    /// Per FCVC connection forwarded here: the largest occupancy of its N2 + N3 buffer.
    pub fcvc_vc_max_queue_cells: serde_json::Map<String, serde_json::Value>,
    /// Per VC policed here by a cell-level UPC: `{conforming, tagged, dropped}` cells.
    pub upc_cells: serde_json::Map<String, serde_json::Value>,
}

/// One end system's adapter (`hosts[]`).
#[derive(Debug, Clone, Serialize)]
pub struct HostReport {
    /// Host name.
    pub name: String,
    /// Cells the adapter sent.
    pub cells_out: u64,
    /// Cells the adapter received.
    pub cells_in: u64,
    /// Complete AAL5 frames reassembled.
    pub frames_in: u64,
    /// Frames discarded at reassembly because cells were missing.
    pub frames_corrupted: u64,
    /// Cells still waiting in the adapter at the end.
    pub backlog_cells: u64,
    /// RM and credit cells received (part of `cells_in`).
    pub control_cells_in: u64,
}

/// Cell bookkeeping of the whole network: every cell offered is delivered, dropped, queued or
/// on a wire at the end.
#[derive(Debug, Clone, Serialize)]
pub struct Conservation {
    /// Cells sent by hosts, plus credit cells sent by ports.
    pub cells_offered: u64,
    /// Cells received by hosts (credit cells included), plus credit cells consumed by ports.
    pub cells_delivered: u64,
    /// Cells discarded anywhere.
    pub cells_dropped: u64,
    /// Cells in buffers and adapters at the end.
    pub cells_queued: u64,
    /// Cells in flight on links at the end.
    pub cells_on_wire: u64,
    /// AAL5 frames still holding a slot (cells queued, on the wire or in reassembly).
    pub frames_live: u64,
    /// Whether offered = delivered + dropped + queued + on the wire (and no frame slot leaked).
    pub balanced: bool,
}

/// Network-wide metrics (`summary`).
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Sum of the flows' goodputs, in bit/s.
    pub total_goodput_bps: f64,
    /// Largest TCP goodput the bottleneck link can carry, in bit/s (its rate less cell,
    /// AAL5 and TCP/IP overheads); `None` without a bottleneck.
    pub max_tcp_goodput_bps: Option<f64>,
    /// `total_goodput_bps / max_tcp_goodput_bps`, 0..1.
    pub efficiency: Option<f64>,
    /// Jain's fairness index over the flows' goodputs, 0..1.
    pub fairness: Option<f64>,
    /// Name of the bottleneck port (`[metrics] bottleneck`, or the template's `sw1->sw2`).
    pub bottleneck_port: Option<String>,
    /// Largest queue of the bottleneck port, in cells.
    pub max_queue_cells: Option<u32>,
    /// The cell bookkeeping check every run makes.
    pub conservation: Conservation,
}

/// Everything a run measured: the `--json` document (`docs/report-fields.md`).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Master seed of the run.
    pub seed: u64,
    /// Simulated time, in seconds.
    pub duration_s: f64,
    /// Wall-clock seconds the engine took to simulate (parsing and building excluded).
    pub wall_s: f64,
    /// Events the engine processed.
    pub events: u64,
    /// Package version and source fingerprint of the engine ([`crate::version`]).
    pub engine_version: &'static str,
    /// One entry per TCP connection.
    pub flows: Vec<FlowReport>,
    /// One entry per background source.
    pub background: Vec<BackgroundReport>,
    /// One entry per switch output port.
    pub ports: Vec<PortReport>,
    /// One entry per end system.
    pub hosts: Vec<HostReport>,
    /// Network-wide metrics and the conservation check.
    pub summary: Summary,
    /// Time series, only when the scenario has a `[trace]` table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traces: Option<crate::traces::Traces>,
}

/// (frames examined, frames tagged) for connection `vc`: at its source adapter, else at the UPC
/// of the first port in `b.ports` that polices it (`upc`, see `upc_tagging`).
fn tagging(b: &Built, vc: usize, src: usize, upc: &[Option<(u64, u64)>]) -> Option<(u64, u64)> {
    if let Component::Host(h) = &b.sim.comps[src] {
        if let Some(t) = h.labels.local(vc).and_then(|l| h.tagger(l)) {
            return Some((t.frames, t.tagged));
        }
    }
    upc.get(vc).copied().flatten()
}

/// Per connection VC: (frames examined, frames tagged) at the first port policing it with a
/// frame-level UPC. One pass over the ports' own VCs.
fn upc_tagging(b: &Built) -> Vec<Option<(u64, u64)>> {
    let mut out = vec![None; b.model.conns.len()];
    for &pc in &b.ports {
        let Component::Port(p) = &b.sim.comps[pc] else { continue };
        for (l, u) in p.upc.iter().enumerate() {
            let Some(u) = u else { continue };
            let slot = &mut out[p.labels.global(l as VcId) as usize];
            if slot.is_none() {
                *slot = Some((u.frames, if u.tag { u.non_eligible } else { 0 }));
            }
        }
    }
    out
}

/// The report of a built simulation as it stands now; `wall_s` is recorded as given.
pub fn report(b: &Built, wall_s: f64) -> Report {
    let sim = &b.sim;
    let dur = to_secs_f64(b.model.duration);
    let mut flows = Vec::new();
    let upc = upc_tagging(b);
    for (i, c) in b.model.conns.iter().enumerate() {
        let [(sc, se), (rc, re)] = b.endpoints[i];
        let (Component::Host(sh), Component::Host(rh)) = (&sim.comps[sc], &sim.comps[rc]) else {
            unreachable!()
        };
        let (Endpoint::Sender { tcp: s, app, .. }, Endpoint::Receiver { tcp: r, .. }) =
            (&sh.endpoints[se], &rh.endpoints[re])
        else {
            unreachable!()
        };
        let (st, rt) = (&s.stats, &r.stats);
        let tagged = tagging(b, i, sc, &upc);
        let ctl = sh.labels.local(i).and_then(|l| sh.controlled_vc(l));
        let abr = ctl.filter(|c| !matches!(c.rate, RateControl::Fixed));
        flows.push(FlowReport {
            name: c.name.clone(),
            goodput_bps: rt.bytes_delivered as f64 * 8.0 / dur,
            bytes_delivered: rt.bytes_delivered,
            segments_sent: st.segments_sent,
            segments_retransmitted: st.segments_retransmitted,
            bytes_sent: st.bytes_sent,
            bytes_retransmitted: st.bytes_retransmitted,
            rto_expirations: st.rto_expirations,
            fast_retransmits: st.fast_retransmits,
            mean_rtt_s: (st.rtt_samples > 0).then(|| to_secs_f64(st.rtt_sum) / st.rtt_samples as f64),
            mean_delay_s: (rt.delay_samples > 0).then(|| to_secs_f64(rt.delay_sum) / rt.delay_samples as f64),
            final_cwnd_bytes: s.cwnd(),
            final_ssthresh_bytes: s.ssthresh(),
            aborts: st.aborts,
            efficiency: (st.bytes_sent > 0).then(|| rt.bytes_delivered as f64 / st.bytes_sent as f64),
            rto_per_10mb: (rt.bytes_delivered > 0)
                .then(|| st.rto_expirations as f64 * 1e7 / rt.bytes_delivered as f64),
            frames_tagged: tagged.map(|t| t.1),
            tagged_fraction: tagged.and_then(|(n, t)| (n > 0).then(|| t as f64 / n as f64)),
            transfers_completed: app.stats.transfers_completed,
            transfers_aborted: app.stats.transfers_aborted,
            mean_transfer_time_s: (app.stats.transfers_completed > 0)
                .then(|| to_secs_f64(app.stats.transfer_time_sum) / app.stats.transfers_completed as f64),
            messages: app.stats.messages,
            rm_cells_sent: abr.map(|c| c.stats.rm_sent),
            rm_cells_returned: abr.map(|c| c.stats.rm_returned),
            rm_cells_congested: abr.map(|c| c.stats.rm_congested),
            final_rate_bps: ctl.and_then(|c| c.shaper).map(|s| 424e12 / s.t),
        });
    }
    let mut background = Vec::new();
    // Every background VC's generator and sink, found in one pass over the hosts (a scan per
    // source would make the report quadratic in the number of sources).
    let n_vcs = b.model.n_vcs();
    let (mut gens, mut sinks) = (vec![None; n_vcs], vec![None; n_vcs]);
    for c in &sim.comps {
        let Component::Host(h) = c else { continue };
        for e in &h.endpoints {
            match e {
                Endpoint::Background { vc, gen, queue } => {
                    gens[h.labels.global(*vc) as usize] = Some((gen, queue))
                }
                Endpoint::Sink { vc, stats } => sinks[h.labels.global(*vc) as usize] = Some(stats),
                _ => {}
            }
        }
    }
    for (j, bg) in b.model.background.iter().enumerate() {
        let vc = b.model.conns.len() + j;
        let (Some((gen, queue)), Some(sink)) = (gens[vc], sinks[vc]) else {
            unreachable!("built with both ends")
        };
        let payload = gen.source.payload() as f64;
        background.push(BackgroundReport {
            name: bg.name.clone(),
            messages_offered: gen.bursts,
            cells_offered: gen.cells,
            cells_delivered: sink.cells,
            messages_delivered: sink.messages,
            messages_refused: queue.messages_refused,
            cells_refused: queue.cells_refused,
            offered_user_bps: gen.cells as f64 * payload * 8.0 / dur,
            delivered_user_bps: sink.user_octets as f64 * 8.0 / dur,
            cell_loss_ratio: (gen.cells > 0).then(|| 1.0 - sink.cells as f64 / gen.cells as f64),
        });
    }

    let mut ports = Vec::new();
    let mut hosts = Vec::new();
    // Conservation: hosts send and receive data and RM cells; credit cells are made by ports and
    // consumed by ports or hosts (a host counts those in its `cells_in`). So cells offered are
    // the hosts' plus the ports' credit cells, and cells delivered the hosts' plus the credit
    // cells ports consumed; in between a credit cell is on the wire, never queued or dropped.
    let (mut dropped, mut queued, mut offered, mut delivered) = (0, 0, 0, 0);
    for &pc in &b.ports {
        let Component::Port(p) = &sim.comps[pc] else { unreachable!() };
        let s = &p.stats;
        let drops = DropReason::ALL.iter().map(|r| (r.name().to_string(), s.drops(*r).into())).collect();
        dropped += s.cells_dropped();
        queued += p.queue_len() as u64;
        offered += s.credit_cells_out();
        delivered += s.credit_cells_in();
        ports.push(PortReport {
            name: p.name.clone(),
            policy: p.policy.name(),
            buffer_cells: (p.capacity() != INFINITE).then_some(p.capacity()),
            cells_in: s.cells_in(),
            cells_out: s.cells_out(),
            cells_dropped: s.cells_dropped(),
            frames_dropped: s.frames_dropped(),
            drops,
            max_queue_cells: s.max_queue(),
            mean_queue_cells: s.queue_area() as f64 / b.model.duration as f64,
            final_queue_cells: p.queue_len(),
            vc_mean_queue_cells: p
                .classes()
                .iter()
                .enumerate()
                .map(|(i, c)| (p.class_vcs[i] as usize, c.area(b.model.duration)))
                .filter(|&(_, area)| area > 0)
                .map(|(i, area)| {
                    (b.model.vc_name(i).to_string(), (area as f64 / b.model.duration as f64).into())
                })
                .collect(),
            rm_cells: s.rm_cells(),
            rm_feedback_raised: s.rm_feedback_raised(),
            rm_fair_share_decreases: s.rm_fair_share_decreases(),
            efci_marked: s.efci_marked(),
            credit_cells_in: s.credit_cells_in(),
            credit_cells_out: s.credit_cells_out(),
            fcvc_vc_max_queue_cells: (0..p.labels.len())
                .filter_map(|l| {
                    let vc = p.labels.global(l as VcId) as usize;
                    let h = p.fcvc_hop(l).filter(|_| vc < b.model.conns.len())?;
                    Some((b.model.conns[vc].name.clone(), h.max_y.into()))
                })
                .collect(),
            upc_cells: p
                .cell_upc
                .iter()
                .enumerate()
                .filter_map(|(l, u)| {
                    let u = u.as_ref()?;
                    let vc = p.labels.global(l as VcId) as usize;
                    let name = match b.model.conns.get(vc) {
                        Some(c) => c.name.clone(),
                        None => b.model.background[vc - b.model.conns.len()].name.clone(),
                    };
                    Some((
                        name,
                        serde_json::json!({"conforming": u.conforming, "tagged": u.tagged, "dropped": u.dropped}),
                    ))
                })
                .collect(),
        });
    }
    for comp in &sim.comps {
        if let Component::Host(h) = comp {
            offered += h.stats.cells_out();
            delivered += h.stats.cells_in();
            hosts.push(HostReport {
                name: h.name.clone(),
                cells_out: h.stats.cells_out(),
                cells_in: h.stats.cells_in(),
                frames_in: h.stats.frames_in(),
                frames_corrupted: h.stats.frames_corrupted(),
                backlog_cells: h.backlog_cells(),
                control_cells_in: h.stats.control_in(),
            });
        }
    }
    let on_wire = sim.world.cells_on_wire();

    // The bottleneck: the named port, else the switch port that sent the most cells.
    let bottleneck = b.bottleneck.or_else(|| {
        b.ports.iter().copied().max_by_key(|&pc| match &sim.comps[pc] {
            Component::Port(p) => (p.stats.cells_out(), std::cmp::Reverse(pc)),
            _ => (0, std::cmp::Reverse(pc)),
        })
    });
    let total: f64 = flows.iter().map(|f| f.goodput_bps).sum();
    let (mut max_goodput, mut bname, mut bq) = (None, None, None);
    if let Some(Component::Port(p)) = bottleneck.map(|pc| &sim.comps[pc]) {
        let rate = sim.world.channels[p.channel as usize].period.cells_per_s();
        // With several MSS values the bound is averaged over the connections.
        // The data octets and options of a full segment, as the connection sends them.
        let per_conn: f64 = b
            .model
            .conns
            .iter()
            .map(|c| aal5::max_tcp_goodput_bps(rate, c.tcp.seg_data(), c.tcp.data_options()))
            .sum();
        // Without TCP (background only) there is no TCP bound.
        max_goodput = (!b.model.conns.is_empty()).then(|| per_conn / b.model.conns.len() as f64);
        bname = Some(p.name.clone());
        bq = Some(p.stats.max_queue());
    }
    let goodputs: Vec<f64> = flows.iter().map(|f| f.goodput_bps).collect();
    let summary = Summary {
        total_goodput_bps: total,
        max_tcp_goodput_bps: max_goodput,
        efficiency: max_goodput.map(|m| total / m),
        fairness: jain(&goodputs),
        bottleneck_port: bname,
        max_queue_cells: bq,
        conservation: Conservation {
            cells_offered: offered,
            cells_delivered: delivered,
            cells_dropped: dropped,
            cells_queued: queued,
            cells_on_wire: on_wire,
            frames_live: sim.world.frames.live() as u64,
            balanced: offered == delivered + dropped + queued + on_wire,
        },
    };
    Report {
        seed: b.model.seed,
        duration_s: dur,
        wall_s,
        events: sim.events,
        engine_version: crate::version(),
        flows,
        background,
        ports,
        hosts,
        summary,
        traces: crate::traces::collect(b),
    }
}
