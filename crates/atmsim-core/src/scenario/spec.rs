//! The scenario file as written: every table and key a TOML scenario may contain.
//!
//! Unknown keys are errors (`deny_unknown_fields`); optional keys have documented defaults
//! (`docs/scenario-format.md`). Nothing here is validated beyond types: see `validate.rs`.

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSpec {
    pub simulation: SimulationSpec,
    /// The UBR+ study's N-source configuration, expanded into nodes, links and connections.
    pub n_source: Option<NSourceSpec>,
    #[serde(default)]
    pub node: Vec<NodeSpec>,
    #[serde(default)]
    pub link: Vec<LinkSpec>,
    #[serde(default)]
    pub port: Vec<PortSpec>,
    #[serde(default)]
    pub connection: Vec<ConnectionSpec>,
    /// Background (non-TCP) sources (`flow.rs`).
    #[serde(default)]
    pub background: Vec<super::flow::BackgroundSpec>,
    /// TCP settings shared by every connection (a connection's own `tcp` table overrides them).
    pub tcp: Option<TcpSpec>,
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

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSpec {
    /// Default `lookahead`.
    pub schedule: Option<ScheduleSpec>,
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

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultSpec {
    /// The switch port ("switch->neighbour") where frames are dropped.
    pub port: String,
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

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationSpec {
    pub duration_s: f64,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    Host,
    Switch,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    pub name: String,
    pub kind: NodeKind,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// The two nodes the (full-duplex) link joins.
    pub ends: [String; 2],
    pub rate_bps: Option<u64>,
    pub rate_cells_per_s: Option<u64>,
    /// One-way propagation delay.
    pub delay_us: f64,
}

/// A buffer size: a number of cells, or "infinite".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum BufferSize {
    Cells(i64),
    Named(Infinite),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Infinite {
    Infinite,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicyKind {
    TailDrop,
    Ppd,
    Epd,
    SelectiveDrop,
    Fba,
    FifoGfr,
    WfqGfr,
    Dfba,
    ThresholdDrop,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicySpec {
    pub kind: PolicyKind,
    /// EPD threshold.
    pub threshold_cells: Option<i64>,
    /// Selective Drop / FBA minimum threshold R.
    pub r_cells: Option<i64>,
    /// Selective Drop / FBA scale Z; DFBA's Z (> 1).
    pub z: Option<f64>,
    /// GFR thresholds (fifo_gfr, wfq_gfr).
    pub lbo_cells: Option<i64>,
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

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortSpec {
    /// The switch the port belongs to.
    pub node: String,
    /// The neighbour the port's link leads to.
    pub toward: String,
    pub buffer_cells: BufferSize,
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
    pub t_low_cells: i64,
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
    pub n2: i64,
    pub n3: Option<i64>,
    pub target_bps: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerSpec {
    Fifo,
    /// Per-VC queues, Virtual Spacing weighted by each VC's MCR.
    VirtualSpacing,
    /// Connections marked `guaranteed` first, in FIFO order; then best effort (`best_effort`).
    Priority,
    /// Per-VC queues served in turn (FCVC's switch).
    RoundRobin,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaggingSpec {
    /// The GFR study's adapter tagging algorithm (frames tagged at the source).
    Adapter,
    /// F-GCRA at the network ingress (the first switch port).
    Upc,
    None,
}

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
    pub mcr_cells_per_s: f64,
    /// Default: 2 * MFS (the GFR study's burst of two maximum-size frames).
    pub mbs_cells: Option<i64>,
    /// Default 200 cells (the GFR study).
    pub mfs_cells: Option<i64>,
    /// Default: the rate of the connection's access link.
    pub pcr_cells_per_s: Option<f64>,
    #[serde(default)]
    pub cdvt_us: f64,
    /// Default none.
    pub tagging: Option<TaggingSpec>,
    /// Default gfr2.
    pub conformance: Option<ConformanceSpec>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VariantSpec {
    Tahoe,
    Reno,
    #[serde(rename = "newreno")]
    NewReno,
    Sack,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TcpPreset {
    /// The UBR+ study: MSS 512, 100 ms ticks, no fast retransmit, 64 KB window.
    UbrPlus,
    /// The GFR study's TCP_default, TCP_fast and TCP_SACK (its Tables 2.1-2.3).
    TcpDefault,
    TcpFast,
    TcpSack,
    /// The CLASS study's 4.3BSD-Reno.
    RenoClass,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TcpSpec {
    pub preset: Option<TcpPreset>,
    pub variant: Option<VariantSpec>,
    pub mss: Option<i64>,
    pub window_bytes: Option<i64>,
    pub window_scaling: Option<bool>,
    pub tick_ms: Option<f64>,
    pub tick_phase_ms: Option<f64>,
    pub min_rto_ticks: Option<i64>,
    pub initial_rto_s: Option<f64>,
    pub max_rto_s: Option<f64>,
    pub max_backoffs: Option<i64>,
    pub fast_retransmit: Option<bool>,
    pub dupack_threshold: Option<i64>,
    pub initial_cwnd_segments: Option<i64>,
    pub initial_ssthresh_bytes: Option<i64>,
    pub iss: Option<i64>,
    pub delayed_ack: Option<bool>,
    pub delack_ms: Option<f64>,
    pub timestamps: Option<bool>,
    pub mss_includes_options: Option<bool>,
    pub snd_buffer_bytes: Option<i64>,
    pub nodelay: Option<bool>,
    /// Whether the receiver keeps out-of-order segments (default true).
    pub cache_out_of_order: Option<bool>,
    /// RTT samples and the retransmission timer start at the segment's transmission completion
    /// (default false: when TCP sends it).
    pub timing_excludes_transmission: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectionSpec {
    pub name: String,
    /// Nodes from the sending host through switches to the receiving host.
    pub route: Vec<String>,
    #[serde(default)]
    pub start_s: f64,
    /// `"greedy"` or a table `{ kind = "transfers" | "messages", ... }` (see `validate::app`).
    pub app: Option<toml::Value>,
    pub tcp: Option<TcpSpec>,
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

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsSpec {
    /// The port ("switch->neighbour") whose link bounds the efficiency metric.
    pub bottleneck: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum LanWan {
    #[serde(alias = "lan")]
    LAN,
    #[serde(alias = "wan")]
    WAN,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NSourceSpec {
    pub sources: i64,
    pub config: LanWan,
    pub buffer_cells: BufferSize,
    pub policy: PolicyKind,
    /// R as a fraction of the buffer (Selective Drop, FBA).
    #[serde(default = "default_r")]
    pub r: f64,
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
    pub tcp: Option<TcpSpec>,
}

fn default_r() -> f64 {
    0.9
}
fn default_z() -> f64 {
    0.8
}
