//! The scenario file as written: every table and key a TOML scenario may contain.
//!
//! Unknown keys are errors (`deny_unknown_fields`); optional keys have documented defaults
//! (`docs/scenario-format.md`). Nothing here is validated beyond types: see `validate.rs`.

use serde::Deserialize;

use crate::net::EnginePaths;

// The tables that live beside the code that checks them, so that this module is the whole format.
pub use super::flow::{AbrSpec, BackgroundSpec, ShapingSpec, UpcSpec};
pub use super::observe::{CaptureSpec, TraceSpec};

/// A whole scenario file: either the `[n_source]` template or the general form (nodes, links,
/// ports, connections), plus the optional tables every scenario may have.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSpec {
    /// The `[simulation]` table: how long to run, the seed and the randomness model.
    pub simulation: SimulationSpec,
    /// The UBR+ study's N-source configuration, expanded into nodes, links and connections.
    pub n_source: Option<NSourceSpec>,
    /// The `[[node]]` tables of the general form: every host and switch.
    #[serde(default)]
    pub node: Vec<NodeSpec>,
    /// The `[[link]]` tables: full-duplex links between two nodes.
    #[serde(default)]
    pub link: Vec<LinkSpec>,
    /// The `[[port]]` tables: each switch output port's buffer, acceptance policy and scheduler.
    #[serde(default)]
    pub port: Vec<PortSpec>,
    /// The `[[connection]]` tables: one TCP connection each, over a route of nodes.
    #[serde(default)]
    pub connection: Vec<ConnectionSpec>,
    /// Background (non-TCP) sources (`flow.rs`).
    #[serde(default)]
    pub background: Vec<super::flow::BackgroundSpec>,
    /// TCP settings shared by every connection (a connection's own `tcp` table overrides them).
    pub tcp: Option<TcpSpec>,
    /// The `[metrics]` table: which port's link the efficiency metric is taken against.
    pub metrics: Option<MetricsSpec>,
    /// Injected losses (allowed with the template too).
    #[serde(default)]
    pub fault: Vec<FaultSpec>,
    /// Time series to record (`observe.rs`; allowed with the template too).
    pub trace: Option<super::observe::TraceSpec>,
    /// Packet captures to record (`observe.rs`; allowed with the template too).
    pub capture: Option<super::observe::CaptureSpec>,
    /// How the engine schedules its work (never changes a result; allowed with the template too).
    pub engine: Option<EngineSpec>,
}

/// The `[engine]` table: how the engine schedules its work, never what it computes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSpec {
    /// Default `lookahead`.
    pub schedule: Option<ScheduleSpec>,
    // One switch per fast path (`net/plan.rs`, `EnginePaths`), each default true; false keeps
    // that path closed. The same names, in the same order, as `ENGINE_SWITCHES`.
    /// Committed departures (ports and hosts).
    pub commit: Option<bool>,
    /// The plain port path (`Port::enqueue_plain`).
    pub plain_port: Option<bool>,
    /// Frame trains at idle one-input ports.
    pub train: Option<bool>,
    /// Busy passes at busy ports.
    pub busy_pass: Option<bool>,
    /// Interleaved passes from a tie on.
    pub interleave: Option<bool>,
    /// Paired passes of two alternating inputs.
    pub paired_pass: Option<bool>,
    /// A host's departures in runs.
    pub send_runs: Option<bool>,
    /// A run as the adapter's committing pass.
    pub run_pass: Option<bool>,
    /// A host's PDUs found whole by their cell count.
    pub whole_by_count: Option<bool>,
    /// A host's key skips middle cells.
    pub skip_middle: Option<bool>,
    /// One-input components gated by their port's next unsent slot.
    pub one_input_gate: Option<bool>,
    /// Horizons floored by ports farther upstream.
    pub horizon_levels: Option<bool>,
    /// Only marked inputs read at each batch.
    pub input_marks: Option<bool>,
    /// A priority port's per-cell path without its generic parts.
    pub priority_port: Option<bool>,
    /// A paced VC's run of cells in one pass at its host.
    pub paced_run: Option<bool>,
    /// Several fixed-rate VCs' paced run with each VC in locals.
    pub fixed_run: Option<bool>,
    /// A host's runs of departures not cut by arrivals for its sinks.
    pub runs_past_sinks: Option<bool>,
    /// Committed departures at frame-merging ports.
    pub commit_merging: Option<bool>,
    /// The Virtual Spacing port's batch in runs.
    pub spaced_port: Option<bool>,
    /// A credit-controlled VC's run of cells in one pass at its host.
    pub credit_run: Option<bool>,
    /// A slotted switch port's arrivals in one pass.
    pub slotted_pass: Option<bool>,
    /// Several VCs' cells in one loop at a lone-input port taking frame trains.
    pub vc_train: Option<bool>,
    /// A plain one-input port run by its receiver, not by its own batches.
    pub pull_lone_ports: Option<bool>,
    /// With level logs, the refined schedule for every component but their writers and readers.
    pub refine_beside_logs: Option<bool>,
}

impl EngineSpec {
    /// The fast paths this table allows (every one not set false).
    pub fn paths(&self) -> EnginePaths {
        EnginePaths {
            commit: self.commit.unwrap_or(true),
            plain_port: self.plain_port.unwrap_or(true),
            train: self.train.unwrap_or(true),
            busy_pass: self.busy_pass.unwrap_or(true),
            interleave: self.interleave.unwrap_or(true),
            paired_pass: self.paired_pass.unwrap_or(true),
            send_runs: self.send_runs.unwrap_or(true),
            run_pass: self.run_pass.unwrap_or(true),
            whole_by_count: self.whole_by_count.unwrap_or(true),
            skip_middle: self.skip_middle.unwrap_or(true),
            one_input_gate: self.one_input_gate.unwrap_or(true),
            horizon_levels: self.horizon_levels.unwrap_or(true),
            input_marks: self.input_marks.unwrap_or(true),
            priority_port: self.priority_port.unwrap_or(true),
            paced_run: self.paced_run.unwrap_or(true),
            fixed_run: self.fixed_run.unwrap_or(true),
            runs_past_sinks: self.runs_past_sinks.unwrap_or(true),
            commit_merging: self.commit_merging.unwrap_or(true),
            spaced_port: self.spaced_port.unwrap_or(true),
            credit_run: self.credit_run.unwrap_or(true),
            slotted_pass: self.slotted_pass.unwrap_or(true),
            vc_train: self.vc_train.unwrap_or(true),
            pull_lone_ports: self.pull_lone_ports.unwrap_or(true),
            refine_beside_logs: self.refine_beside_logs.unwrap_or(true),
        }
    }
}

/// How far a component runs ahead in one batch (`net/sim.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScheduleSpec {
    /// As far as its senders' keys allow (longer batches on short links).
    Lookahead,
    /// By its smallest input latency only: the reference the faster schedule is checked against.
    Reference,
}

/// One `[[fault]]` table: frames of one connection dropped on purpose at one switch port.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultSpec {
    /// The switch port ("switch->neighbour") where frames are dropped.
    pub port: String,
    /// Name of the connection whose frames are dropped.
    pub connection: String,
    /// Data segments by position in the stream (1 = the first full segment of data).
    pub segments: Option<Vec<i64>>,
    /// How many transmissions of each listed segment are dropped (default 1: the original).
    pub times: Option<i64>,
    /// Drop every frame of the connection entering the port in [from, to) seconds.
    pub between_s: Option<[f64; 2]>,
    /// Drop each frame with this probability.
    pub loss_rate: Option<f64>,
    /// Drop one data segment each time the sender's congestion window reaches this many
    /// octets (the artificial window control of Goyal et al., LCN 1998, figure 3).
    pub cwnd_octets: Option<i64>,
    /// Drop the connection's ACKs instead of its data (default false).
    #[serde(default)]
    pub acks: bool,
}

/// The `[simulation]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationSpec {
    /// Simulated time to run, in seconds (at least one cell time of the slowest link).
    pub duration_s: f64,
    /// Master seed of every random stream (default 1): same scenario and seed, same results.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Where each transmitter's slot grid and each host's timer ticks start (`phases.rs`);
    /// default random.
    pub phases: Option<super::phases::Phases>,
    /// Each connection and background source starts up to this much later than its `start_s`
    /// (uniform, from its own stream); default 0.
    #[serde(default)]
    pub start_jitter_s: f64,
    /// Each transmitter's oscillator is off its nominal rate by up to this many parts per
    /// million (`phases.rs`); default 20 with random phases, 0 with aligned ones.
    pub clock_ppm: Option<f64>,
}

fn default_seed() -> u64 {
    1
}

/// What a `[[node]]` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// An end system: TCP senders and receivers and background sources, behind an ATM adapter.
    Host,
    /// An ATM switch: one output port (buffer, policy, scheduler) per link.
    Switch,
}

/// One `[[node]]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// Name by which links, ports and routes refer to the node.
    pub name: String,
    /// `"host"` or `"switch"`.
    pub kind: NodeKind,
}

/// One `[[link]]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// The two nodes the (full-duplex) link joins.
    pub ends: [String; 2],
    /// Line rate in bit/s, all of it for 53-octet cells (exactly one of this and
    /// `rate_cells_per_s`).
    pub rate_bps: Option<u64>,
    /// Line rate in cells per second (exactly one of this and `rate_bps`).
    pub rate_cells_per_s: Option<u64>,
    /// One-way propagation delay.
    pub delay_us: f64,
}

/// A buffer size: a number of cells, or "infinite".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum BufferSize {
    /// A buffer of this many cells.
    Cells(i64),
    /// The word `"infinite"`: no cell is ever refused for lack of room.
    Named(Infinite),
}

/// The one word a [`BufferSize`] may be instead of a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Infinite {
    /// No limit.
    Infinite,
}

/// A switch port's buffer acceptance policy (`policy.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicyKind {
    /// Refuse a cell when the buffer is full (UBR+ study).
    TailDrop,
    /// Partial Packet Discard: after a cell of a frame is lost, drop the rest of that frame.
    Ppd,
    /// Early Packet Discard: refuse whole new frames above `threshold_cells`.
    Epd,
    /// Selective Drop (UBR+ study): above R cells, drop new frames of VCs over their fair
    /// share scaled by Z.
    SelectiveDrop,
    /// Fair Buffer Allocation (UBR+ study): Selective Drop with the threshold shrinking as the
    /// buffer fills.
    Fba,
    /// The GFR study's FIFO switch: CLP=1 frames refused above LBO, all frames above HBO.
    FifoGfr,
    /// The GFR study's WFQ switch: per-VC thresholds between LBO and HBO.
    WfqGfr,
    /// Differential Fair Buffer Allocation (rate-guarantee study section 4).
    Dfba,
    /// One frame dropped each time a VC's occupancy crosses its threshold r_i
    /// (`vc_threshold_cells`; rate-guarantee study section 3).
    ThresholdDrop,
}

/// A port's `policy = { kind = ..., ... }`: the policy and its thresholds, in cells.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicySpec {
    /// Which policy.
    pub kind: PolicyKind,
    /// EPD threshold.
    pub threshold_cells: Option<i64>,
    /// Selective Drop / FBA minimum threshold R.
    pub r_cells: Option<i64>,
    /// Selective Drop / FBA scale Z; DFBA's Z (> 1).
    pub z: Option<f64>,

    /// GFR low buffer occupancy threshold: above it CLP=1 frames are refused.
    pub lbo_cells: Option<i64>,
    /// GFR high buffer occupancy threshold: above it all new frames are refused
    /// (fifo_gfr) or only those of VCs above their threshold (wfq_gfr).
    pub hbo_cells: Option<i64>,
}

/// Order of cells that reach a port at the same instant (equal links share one slot phase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArbitrationSpec {
    /// Least recently served input first.
    Rotating,
    /// Lowest input first, always.
    Fixed,
    /// A random order, drawn afresh for each tie.
    Random,
}

/// When a port takes an arriving cell into account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArrivalsSpec {
    /// At the instant its last bit arrives.
    Continuous,
    /// At the next boundary of the port's output slot grid (a slotted switch fabric).
    Slotted,
}

/// One `[[port]]` table: the output port of a switch toward one neighbour.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortSpec {
    /// The switch the port belongs to.
    pub node: String,
    /// The neighbour the port's link leads to.
    pub toward: String,
    /// Capacity of the port's shared buffer: cells or `"infinite"`.
    pub buffer_cells: BufferSize,
    /// Which cells and frames the buffer refuses.
    pub policy: PolicySpec,
    /// Default: rotating.
    pub arbitration: Option<ArbitrationSpec>,
    /// Default: continuous.
    pub arrivals: Option<ArrivalsSpec>,
    /// Service discipline; default fifo.
    pub scheduler: Option<SchedulerSpec>,
    /// Hold each frame until complete and queue it whole (an edge switch merging VCs).
    #[serde(default)]
    pub merge_frames: bool,
    /// The best-effort class of a `priority` port; default fifo.
    pub best_effort: Option<BestEffortSpec>,
    /// PRCA: data cells arriving above this many cells in the shared buffer get EFCI.
    pub efci_threshold_cells: Option<i64>,
    /// Adaptive shaping: this port's thresholds for the feedback of backward RM cells.
    pub rm_feedback: Option<RmFeedbackSpec>,
}

/// How a `priority` port serves its best-effort (non-guaranteed) class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BestEffortSpec {
    /// One shared FIFO (PRCA).
    Fifo,
    /// Per-VC queues in turn (FCVC).
    RoundRobin,
}

/// The CLASS study's T_l and T_h on a forward port's buffer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RmFeedbackSpec {
    /// T_l, in cells: from this buffer occupancy on, backward RM cells get at least KR (keep
    /// the rate) instead of IR.
    pub t_low_cells: i64,
    /// T_h, in cells: above this buffer occupancy backward RM cells get DR (decrease).
    pub t_high_cells: i64,
    /// Enforce fair shares among the adaptive VCs leaving through this port, measured over
    /// intervals of this length (absent: no enforcement). See `net::fair_share`.
    pub fair_share_interval_us: Option<f64>,
}

/// FCVC for a connection: N2, and N3 either given or from a target rate (credit/rate study
/// eq. 1).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FcvcSpec {
    /// Cells forwarded per credit cell sent back (N2).
    pub n2: i64,
    /// Cells of credit that cover the round trip to the previous hop (N3); exactly one of
    /// this and `target_bps`.
    pub n3: Option<i64>,
    /// Rate (bit/s) the credits must sustain: N3 is computed from it and each hop's latency
    /// (credit/rate study eq. 1).
    pub target_bps: Option<f64>,
}

/// A port's service discipline (`scheduler`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerSpec {
    /// One queue, cells served in arrival order.
    Fifo,
    /// Per-VC queues, Virtual Spacing weighted by each VC's MCR.
    VirtualSpacing,
    /// Connections marked `guaranteed` first, in FIFO order; then best effort (`best_effort`).
    Priority,
    /// Per-VC queues served in turn (FCVC's switch).
    RoundRobin,
}

/// Where a GFR connection's frames are tagged CLP = 1 when they exceed the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaggingSpec {
    /// The GFR study's adapter tagging algorithm (frames tagged at the source).
    Adapter,
    /// F-GCRA at the network ingress (the first switch port).
    Upc,
    /// No tagging.
    None,
}

/// The GFR conformance definition applied at the UPC (GFR study section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConformanceSpec {
    /// The network does not change CLP bits.
    Gfr1,
    /// The UPC tags non-eligible frames CLP=1.
    Gfr2,
}

/// A GFR traffic contract (GFR study section 2).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GfrSpec {
    /// Minimum cell rate the contract guarantees, in cells per second.
    pub mcr_cells_per_s: f64,
    /// Default: 2 * MFS (the GFR study's burst of two maximum-size frames).
    pub mbs_cells: Option<i64>,
    /// Default 200 cells (the GFR study).
    pub mfs_cells: Option<i64>,
    /// Default: the rate of the connection's access link.
    pub pcr_cells_per_s: Option<f64>,
    /// Cell delay variation tolerance of the contract, in microseconds (default 0).
    #[serde(default)]
    pub cdvt_us: f64,
    /// Default none.
    pub tagging: Option<TaggingSpec>,
    /// Default gfr2.
    pub conformance: Option<ConformanceSpec>,
}

/// TCP congestion control variant (`tcp.variant`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VariantSpec {
    /// Slow start and congestion avoidance; every loss ends in slow start (4.3BSD-Tahoe).
    Tahoe,
    /// Tahoe plus fast recovery after a fast retransmit (4.3BSD-Reno).
    Reno,
    /// Reno that stays in fast recovery across partial ACKs (RFC 6582).
    #[serde(rename = "newreno")]
    NewReno,
    /// Selective acknowledgements and SACK-based recovery (RFC 2018, RFC 6675).
    Sack,
}

/// A named set of TCP parameters from one of the studies (`tcp.preset`); keys given
/// beside it override it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TcpPreset {
    /// The UBR+ study: MSS 512, 100 ms ticks, no fast retransmit, 64 KB window.
    UbrPlus,
    /// The GFR study's TCP_default, TCP_fast and TCP_SACK (its Tables 2.1-2.3).
    TcpDefault,
    /// The GFR study's TCP_fast (its Table 2.2).
    TcpFast,
    /// The GFR study's TCP_SACK (its Table 2.3).
    TcpSack,
    /// The CLASS study's 4.3BSD-Reno.
    RenoClass,
}

/// A `[tcp]` table (scenario-wide, per connection or in the template): every key optional, the
/// default being the preset's value (`docs/scenario-format.md` lists them).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TcpSpec {
    /// Starting point for the other keys; default `ubr_plus`.
    pub preset: Option<TcpPreset>,
    /// Congestion control variant.
    pub variant: Option<VariantSpec>,
    /// Maximum segment size in octets (TCP payload, options included unless
    /// `mss_includes_options = false`).
    pub mss: Option<i64>,
    /// Receive window in octets (above 65535 needs `window_scaling`).
    pub window_bytes: Option<i64>,
    /// RFC 1323 window scaling.
    pub window_scaling: Option<bool>,
    /// Period of the coarse retransmission timer, in milliseconds (BSD's slow timer).
    pub tick_ms: Option<f64>,
    /// Offset of the host's timer ticks from time 0, in milliseconds (below `tick_ms`);
    /// default drawn per host or 0 with `phases = "aligned"`.
    pub tick_phase_ms: Option<f64>,
    /// Lower bound of the retransmission timeout, in ticks.
    pub min_rto_ticks: Option<i64>,
    /// Retransmission timeout before the first round-trip sample, in seconds.
    pub initial_rto_s: Option<f64>,
    /// Upper bound of the retransmission timeout, in seconds.
    pub max_rto_s: Option<f64>,
    /// Successive timeouts after which the connection is aborted.
    pub max_backoffs: Option<i64>,
    /// Retransmit on `dupack_threshold` duplicate ACKs instead of waiting for the timer.
    pub fast_retransmit: Option<bool>,
    /// Duplicate ACKs that trigger a fast retransmit.
    pub dupack_threshold: Option<i64>,
    /// Congestion window at the start and after a timeout, in segments.
    pub initial_cwnd_segments: Option<i64>,
    /// Slow-start threshold at the start, in octets.
    pub initial_ssthresh_bytes: Option<i64>,
    /// Initial sequence number (to test sequence wrap-around).
    pub iss: Option<i64>,
    /// Acknowledge every second segment, or at the delayed-ACK timer.
    pub delayed_ack: Option<bool>,
    /// Period of the delayed-ACK timer in milliseconds (BSD's fast timer).
    pub delack_ms: Option<f64>,
    /// RFC 1323 timestamps: 12 octets of options in every segment and an RTT sample per ACK.
    pub timestamps: Option<bool>,
    /// Whether options come out of the MSS (4.4BSD, RFC 6691) rather than lengthen the segment.
    pub mss_includes_options: Option<bool>,
    /// Send socket buffer in octets: a cap on unacknowledged data.
    pub snd_buffer_bytes: Option<i64>,
    /// Disable Nagle's algorithm (send small segments at once).
    pub nodelay: Option<bool>,
    /// Whether the receiver keeps out-of-order segments (default true).
    pub cache_out_of_order: Option<bool>,
    /// RTT samples and the retransmission timer start at the segment's transmission completion
    /// (default false: when TCP sends it).
    pub timing_excludes_transmission: Option<bool>,
}

/// One `[[connection]]` table: a TCP connection and what its sender offers.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectionSpec {
    /// Name by which reports, faults and traces refer to the connection.
    pub name: String,
    /// Nodes from the sending host through switches to the receiving host.
    pub route: Vec<String>,
    /// When the sender opens the connection, in seconds from the start (default 0).
    #[serde(default)]
    pub start_s: f64,
    /// `"greedy"` or a table `{ kind = "transfers" | "messages", ... }` (see `validate::app`).
    pub app: Option<toml::Value>,
    /// This connection's TCP keys, over the scenario-wide `[tcp]` table.
    pub tcp: Option<TcpSpec>,
    /// A GFR traffic contract for the connection's VC.
    pub gfr: Option<GfrSpec>,
    /// Connections with the same label share one VC (merged) at the ports they share.
    pub vc: Option<String>,
    /// The VC's threshold at per-VC policies (T_i, R_i, r_i); default: the contract's MBS.
    pub vc_threshold_cells: Option<i64>,
    /// DFBA's W_i (default 1).
    pub vc_weight: Option<f64>,
    /// Served first at priority ports (guaranteed traffic).
    #[serde(default)]
    pub guaranteed: bool,
    /// GCRA shaping at the source adapter (`flow.rs`).
    pub shaping: Option<super::flow::ShapingSpec>,
    /// Rate-based source control: PRCA or adaptive shaping (`flow.rs`).
    pub abr: Option<super::flow::AbrSpec>,
    /// Hop-by-hop credit flow control (FCVC) of the connection's data.
    pub fcvc: Option<FcvcSpec>,
    /// Cell-level UPC of the connection's data (`flow.rs`).
    pub upc: Option<super::flow::UpcSpec>,
}

/// The `[metrics]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsSpec {
    /// The port ("switch->neighbour") whose link bounds the efficiency metric.
    pub bottleneck: Option<String>,
}

/// The UBR+ study's two configurations (section 3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum LanWan {
    /// Local area: 5 us links, the preset's 64 KB window.
    #[serde(alias = "lan")]
    LAN,
    /// Wide area: 5 ms links, a 600000-octet window with window scaling.
    #[serde(alias = "wan")]
    WAN,
}

/// The `[n_source]` template: N greedy TCP sources through two switches to N destinations
/// (UBR+ study, its Figure 2).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NSourceSpec {
    /// N, the number of source-destination pairs.
    pub sources: i64,
    /// `"LAN"` (5 us links, 64 KB windows) or `"WAN"` (5 ms links, 600000-octet windows).
    pub config: LanWan,
    /// Buffer of every switch port: cells or `"infinite"`.
    pub buffer_cells: BufferSize,
    /// Acceptance policy of every switch port.
    pub policy: PolicyKind,
    /// R as a fraction of the buffer (Selective Drop, FBA).
    #[serde(default = "default_r")]
    pub r: f64,
    /// Z, the fair-share scale of Selective Drop and FBA (default 0.8).
    #[serde(default = "default_z")]
    pub z: f64,
    /// EPD threshold; default: buffer - 200 cells (UBR+ paper section 5).
    pub epd_threshold_cells: Option<i64>,
    /// Overrides the configuration's link delay (5 us LAN, 5 ms WAN).
    pub link_delay_us: Option<f64>,
    /// Line rate of every link; default 155520000 (OC-3).
    pub rate_bps: Option<u64>,
    /// Arbitration of simultaneous arrivals at every switch port; default rotating.
    pub arbitration: Option<ArbitrationSpec>,
    /// Give source i the timer phase (i - 1) / N of a tick instead of all 0 (default false).
    #[serde(default)]
    pub stagger_timers: bool,
    /// TCP keys of every source, over the UBR+ preset.
    pub tcp: Option<TcpSpec>,
}

fn default_r() -> f64 {
    0.9
}
fn default_z() -> f64 {
    0.8
}
