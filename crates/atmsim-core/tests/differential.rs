//! Differential testing of the engine's fast paths against the per-cell reference (issue 25,
//! item 3): random valid scenarios, each run under the reference (`[engine] schedule =
//! "reference"`, every fast path off) and under every setting of
//! `atmsim_core::differential::engine_settings`, their reports compared field by field (event
//! counts included, only the wall time left out).
//!
//! The generator (`scenario()`) writes TOML text from a structured description that proptest
//! draws and shrinks: the N-source template or a general graph (a tree of one to four switches,
//! sometimes with a chord, hosts hanging off them, links of mixed rates and delays, a direct
//! host-to-host link), every buffer policy, every scheduler, FCVC credits and PRCA rates, GCRA
//! and adaptive shaping, UPC and GFR tagging, background sources, faults, traces, the four TCP
//! variants and the TCP tables' other keys, random or aligned phases, clock drift, start jitter,
//! slotted networks (every switch port slotted under one arbitration, as the CLASS study's
//! switches, so that the slotted pass meets ties at ports with several inputs), and short
//! durations (tens of milliseconds). Every scenario it writes must load: validity is
//! by construction (a rejected one fails `generated_scenarios_load`).
//!
//! Budget: `DEFAULT_CASES` cases at the fixed seed `DEFAULT_SEED` in CI (about 10 s of CPU
//! with the reference and the default setting; a break of the busy pass's admission bound on
//! purpose was first caught between 64 and 3000 cases). More, or another seed:
//! `ATMSIM_DIFF_CASES=20000 ATMSIM_DIFF_SEED=7 cargo test -p atmsim-core --profile test-opt
//! --test differential` (`scripts/differential.sh`; `ATMSIM_DIFF_VERBOSE=1` prints each case's
//! time and events). On a mismatch proptest shrinks the scenario and the test prints the
//! smallest one found with the first differing field of each setting that differs.
//! `level_logs_give_the_reference_report` draws the same graphs with adaptive shaping's level
//! logs everywhere (`DEFAULT_LOG_CASES`, `ATMSIM_DIFF_LOG_CASES`).

use std::fmt::Write as _;

use atmsim_core::differential::{compare_with_reference, engine_settings};
use atmsim_core::scenario;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};

/// Cases run by default (CI); `ATMSIM_DIFF_CASES` overrides.
const DEFAULT_CASES: u32 = 3000;
/// Every engine setting runs on one case in this many (by the scenario's hash), the default
/// setting on all of them: with one switch per fast path a case costs the reference plus about
/// 1 + (settings - 1) / 6 runs, not one run per setting. `ATMSIM_DIFF_ALL_SETTINGS_EVERY=1`: all
/// settings on every case.
const ALL_SETTINGS_EVERY: u64 = 6;
/// The proptest seed by default; `ATMSIM_DIFF_SEED` overrides.
const DEFAULT_SEED: u64 = 25;

// ---------------------------------------------------------------------------------------------
// The description proptest draws.

#[derive(Debug, Clone)]
struct Scenario {
    sim: Sim,
    body: Body,
    trace: Option<Trace>,
}

#[derive(Debug, Clone)]
struct Sim {
    duration_ms: u32,
    seed: u32,
    /// 0: not written (random), 1: "random", 2: "aligned".
    phases: u8,
    clock_ppm: Option<u32>,
    start_jitter_us: Option<u32>,
}

#[derive(Debug, Clone)]
enum Body {
    Template(Template),
    Graph(Graph),
}

#[derive(Debug, Clone)]
struct Template {
    sources: u32,
    wan: bool,
    /// `None`: infinite (tail drop and PPD only).
    buffer: Option<u32>,
    policy: &'static str,
    r: Option<f64>,
    z: Option<f64>,
    epd_threshold: Option<f64>,
    link_delay_us: Option<u32>,
    rate_bps: Option<u64>,
    arbitration: Option<&'static str>,
    stagger_timers: bool,
    tcp: Option<Tcp>,
    faults: Vec<Fault>,
    background: Vec<Background>,
}

#[derive(Debug, Clone)]
struct Graph {
    /// Parent choice of switch i (i >= 1) in the tree: `parents[i - 1] % i`.
    parents: Vec<u8>,
    chord: Option<(u8, u8)>,
    trunks: Vec<Link>,
    conns: Vec<Conn>,
    background: Vec<Background>,
    /// Port configurations, given to the switch ports in turn (`None`: the port is not listed).
    ports: Vec<Option<Port>>,
    tcp: Option<Tcp>,
    faults: Vec<Fault>,
    direct: Option<(Link, Option<Tcp>)>,
    bottleneck: Option<u8>,
    /// A slotted network (the CLASS study's switches): every switch port slotted under the
    /// arbitration `SLOTTED_ARBITRATION[k % 3]`, those without a configuration with tail drop
    /// and `SLOTTED_BUFFER[k / 3]` cells (`k` this).
    slotted: Option<u8>,
}

/// A slotted network's arbitration and buffer (`Graph::slotted`).
const SLOTTED_ARBITRATION: [&str; 3] = ["random", "rotating", "fixed"];
const SLOTTED_BUFFER: [u32; 3] = [60, 400, 3000];

#[derive(Debug, Clone)]
struct Link {
    /// Bit/s (`rate_bps`), or cells/s (`rate_cells_per_s`) if `cells`.
    rate: u64,
    cells: bool,
    delay_us: f64,
}

#[derive(Debug, Clone)]
struct Port {
    buffer: Option<u32>,
    policy: Policy,
    scheduler: Option<&'static str>,
    best_effort: Option<&'static str>,
    arbitration: Option<&'static str>,
    slotted: bool,
    merge_frames: bool,
    efci: Option<f64>,
    rm_feedback: Option<(f64, f64, Option<f64>)>,
}

#[derive(Debug, Clone)]
enum Policy {
    TailDrop,
    Ppd,
    Epd(f64),
    SelectiveDrop(f64, f64),
    Fba(f64, f64),
    FifoGfr(f64, f64),
    WfqGfr(f64, f64),
    Dfba(f64, f64),
    ThresholdDrop,
}

impl Policy {
    fn per_vc(&self) -> bool {
        matches!(self, Policy::WfqGfr(..) | Policy::Dfba(..) | Policy::ThresholdDrop)
    }
    fn needs_finite(&self) -> bool {
        !matches!(self, Policy::TailDrop | Policy::Ppd | Policy::ThresholdDrop)
    }
}

#[derive(Debug, Clone)]
struct Conn {
    /// Use the hosts of an earlier connection (`k % i`), the other way round if `true`: hosts
    /// with several endpoints, senders that also receive.
    share: Option<(u8, bool)>,
    src: u8,
    dst: u8,
    access: Link,
    egress: Link,
    start_us: u32,
    app: App,
    tcp: Option<Tcp>,
    gfr: Option<Gfr>,
    vc: Option<u8>,
    vc_threshold: Option<u32>,
    vc_weight: Option<f64>,
    guaranteed: bool,
    control: Control,
    fcvc: Option<(u32, Result<u32, f64>)>,
    upc: Option<Upc>,
}

#[derive(Debug, Clone)]
enum App {
    Greedy(bool),
    Transfers(u32, f64),
    Messages(u32, f64),
}

#[derive(Debug, Clone)]
struct Gfr {
    mcr: u32,
    mfs: u32,
    mbs_extra: Option<u32>,
    pcr: Option<u32>,
    cdvt_us: Option<f64>,
    tagging: Option<&'static str>,
    conformance: Option<&'static str>,
}

#[derive(Debug, Clone)]
enum Control {
    None,
    Shaping(f64, f64),
    Prca(Option<(u32, u32)>),
    Adaptive(Option<u32>, Option<f64>),
}

#[derive(Debug, Clone)]
struct Upc {
    pcr_bps: f64,
    cdvt_us: f64,
    drop: bool,
    /// Police at the last switch of the route instead of the first.
    last: bool,
}

#[derive(Debug, Clone)]
struct Background {
    /// Share the hosts (and so the route) of this connection instead of its own.
    share: Option<u8>,
    src: u8,
    dst: u8,
    access: Link,
    start_us: u32,
    count: u32,
    guaranteed: bool,
    source: Source,
    shaping: Option<Result<f64, f64>>,
    upc: Option<Upc>,
}

#[derive(Debug, Clone)]
enum Source {
    OnOff(f64, u32, f64),
    Poisson(f64, Option<(f64, u32)>),
    Cbr(f64),
}

#[derive(Debug, Clone)]
struct Fault {
    conn: u8,
    hop: u8,
    acks: bool,
    kind: FaultKind,
}

#[derive(Debug, Clone)]
enum FaultKind {
    Segments(Vec<u32>, Option<u32>),
    Between(f64, f64),
    LossRate(f64),
    Cwnd(u32),
}

#[derive(Debug, Clone)]
struct Trace {
    interval_us: u32,
    cwnd: bool,
    queues: bool,
    per_vc: bool,
    utilization: bool,
    arrivals: bool,
    first_port_only: bool,
    first_conn_only: bool,
}

/// A TCP table. Keys whose validity depends on other keys are written as groups (window with
/// window scaling, timestamps with transmission timing), so merging tables key by key (preset,
/// `[tcp]`, the connection's own) never makes an invalid combination.
#[derive(Debug, Clone)]
struct Tcp {
    preset: Option<&'static str>,
    variant: Option<&'static str>,
    fast_retransmit: Option<bool>,
    dupack_threshold: Option<u32>,
    mss: Option<u32>,
    mss_includes_options: Option<bool>,
    window: Option<(u32, bool)>,
    /// (timestamps, timing_excludes_transmission), never both true.
    timing: Option<(bool, bool)>,
    delayed_ack: Option<(bool, Option<f64>)>,
    /// tick_ms, and the phase as a fraction of it (connection tables only).
    tick: Option<(f64, Option<f64>)>,
    min_rto_ticks: Option<u32>,
    initial_rto_s: Option<f64>,
    initial_cwnd: Option<u32>,
    initial_ssthresh: Option<u32>,
    iss: Option<u32>,
    snd_buffer: Option<u32>,
    nodelay: Option<bool>,
    cache_out_of_order: Option<bool>,
    max_backoffs: Option<u32>,
}

// ---------------------------------------------------------------------------------------------
// Strategies.

fn pick<T: Clone + std::fmt::Debug + 'static>(v: &[T]) -> impl Strategy<Value = T> {
    proptest::sample::select(v.to_vec())
}

fn maybe<S: Strategy>(p: f64, s: S) -> impl Strategy<Value = Option<S::Value>> {
    proptest::option::weighted(p, s)
}

fn sim() -> impl Strategy<Value = Sim> {
    (
        5u32..=50,
        0u32..1_000_000,
        0u8..3,
        maybe(0.3, pick(&[0u32, 5, 20, 200, 1000])),
        maybe(0.2, pick(&[10u32, 300, 2000])),
    )
        .prop_map(|(duration_ms, seed, phases, clock_ppm, start_jitter_us)| Sim {
            duration_ms,
            seed,
            phases,
            clock_ppm,
            start_jitter_us,
        })
}

fn tcp(connection_table: bool) -> impl Strategy<Value = Tcp> {
    // Timer phases only in connection tables: a shared table's phase could exceed a
    // connection's own shorter tick.
    let phase = if connection_table { 0.4 } else { 1e-9 };
    (
        (
            maybe(0.3, pick(&["ubr_plus", "tcp_default", "tcp_fast", "tcp_sack", "reno_class"])),
            maybe(0.7, pick(&["tahoe", "reno", "newreno", "sack"])),
            maybe(0.6, any::<bool>()),
            maybe(0.3, pick(&[1u32, 2, 3, 5])),
            maybe(0.4, pick(&[512u32, 1024, 1460, 4096, 9140])),
            maybe(0.15, any::<bool>()),
            maybe(0.3, (pick(&[16_384u32, 32_768, 65_535, 200_000, 600_000]), any::<bool>())),
            maybe(0.3, prop_oneof![Just((true, false)), Just((false, true)), Just((false, false))]),
            maybe(0.4, (any::<bool>(), maybe(0.5, pick(&[0.5f64, 2.0, 40.0])))),
        ),
        (
            maybe(
                0.6,
                (
                    pick(&[1.0f64, 2.0, 10.0, 100.0, 500.0]),
                    maybe(phase, 0.0f64..0.99).prop_map(move |p| p.filter(|_| connection_table)),
                ),
            ),
            maybe(0.3, 1u32..=3),
            maybe(0.4, pick(&[0.003f64, 0.02, 0.2, 1.0])),
            maybe(0.2, pick(&[1u32, 2, 4, 10])),
            maybe(0.2, pick(&[4_096u32, 20_000, 1_000_000])),
            maybe(0.15, prop_oneof![Just(0u32), Just(u32::MAX - 30_000), 0u32..u32::MAX]),
            maybe(0.1, pick(&[8_192u32, 100_000])),
            maybe(0.15, any::<bool>()),
            maybe(0.2, any::<bool>()),
            maybe(0.1, pick(&[1u32, 3, 12])),
        ),
    )
        .prop_map(
            |(
                (
                    preset,
                    variant,
                    fast_retransmit,
                    dupack_threshold,
                    mss,
                    mss_includes_options,
                    window,
                    timing,
                    delayed_ack,
                ),
                (
                    tick,
                    min_rto_ticks,
                    initial_rto_s,
                    initial_cwnd,
                    initial_ssthresh,
                    iss,
                    snd_buffer,
                    nodelay,
                    cache,
                    max_backoffs,
                ),
            )| Tcp {
                preset,
                variant,
                fast_retransmit,
                dupack_threshold,
                mss,
                mss_includes_options,
                window,
                timing,
                delayed_ack,
                tick,
                min_rto_ticks,
                initial_rto_s,
                initial_cwnd,
                initial_ssthresh,
                iss,
                snd_buffer,
                nodelay,
                cache_out_of_order: cache,
                max_backoffs,
            },
        )
}

fn link() -> impl Strategy<Value = Link> {
    (
        prop_oneof![
            4 => Just((155_520_000u64, false)),
            1 => Just((51_840_000, false)),
            1 => Just((622_080_000, false)),
            1 => Just((100_000_000, false)),
            1 => Just((364_583, true)),
            1 => Just((365_566, true)),
            1 => Just((120_000, true)),
        ],
        prop_oneof![
            2 => pick(&[0.0f64, 1.0, 5.0, 10.0, 100.0]),
            1 => 0.0f64..300.0,
            1 => pick(&[1000.0f64, 2500.0]),
        ],
    )
        .prop_map(|((rate, cells), delay_us)| Link { rate, cells, delay_us })
}

fn fault() -> impl Strategy<Value = Fault> {
    (
        any::<u8>(),
        any::<u8>(),
        proptest::bool::weighted(0.2),
        prop_oneof![
            (proptest::collection::vec(1u32..60, 1..4), maybe(0.3, 1u32..=3))
                .prop_map(|(s, t)| FaultKind::Segments(s, t)),
            (0.0f64..0.02, 0.0f64..0.01).prop_map(|(a, d)| FaultKind::Between(a, a + d)),
            pick(&[0.0f64, 0.001, 0.01, 0.1, 1.0]).prop_map(FaultKind::LossRate),
            pick(&[3_000u32, 20_000, 60_000]).prop_map(FaultKind::Cwnd),
        ],
    )
        .prop_map(|(conn, hop, acks, kind)| Fault { conn, hop, acks, kind })
}

fn upc() -> impl Strategy<Value = Upc> {
    (
        pick(&[5e6f64, 20e6, 60e6, 150e6]),
        pick(&[0.0f64, 3.0, 100.0]),
        any::<bool>(),
        proptest::bool::weighted(0.3),
    )
        .prop_map(|(pcr_bps, cdvt_us, drop, last)| Upc { pcr_bps, cdvt_us, drop, last })
}

fn background() -> impl Strategy<Value = Background> {
    (
        maybe(0.4, any::<u8>()),
        any::<u8>(),
        any::<u8>(),
        link(),
        prop_oneof![2 => Just(0u32), 1 => 0u32..10_000],
        prop_oneof![3 => Just(1u32), 1 => 2u32..=12],
        proptest::bool::weighted(0.3),
        prop_oneof![
            (pick(&[2e6f64, 10e6, 40e6]), pick(&[480u32, 4800, 48_000]), pick(&[1.0f64, 1.2, 5.0]))
                .prop_map(|(p, b, k)| Source::OnOff(p, b, k)),
            (pick(&[1e6f64, 5e6, 20e6]), maybe(0.5, (pick(&[1.0f64, 5.5, 20.0]), pick(&[30u32, 200]))))
                .prop_map(|(u, m)| Source::Poisson(u, m)),
            pick(&[1e6f64, 10e6, 50e6, 100e6]).prop_map(Source::Cbr),
        ],
        maybe(0.3, prop_oneof![pick(&[0.5f64, 1.0, 2.0]).prop_map(Ok), pick(&[5e6f64, 30e6]).prop_map(Err)]),
        maybe(0.2, upc()),
    )
        .prop_map(|(share, src, dst, access, start_us, count, guaranteed, source, shaping, upc)| {
            Background { share, src, dst, access, start_us, count, guaranteed, source, shaping, upc }
        })
}

fn template() -> impl Strategy<Value = Template> {
    (
        (
            // Now and then a wide bottleneck: past 64 inputs the merge keeps its heap across
            // batches with one mark bit per input, words of 64 (`InputMarks`).
            prop_oneof![12 => 1u32..=6, 1 => 7u32..=40, 1 => 60u32..=200],
            proptest::bool::weighted(0.25),
            prop_oneof![Just(50u32), Just(300), Just(1000), 20u32..4000],
            pick(&["tail_drop", "ppd", "epd", "selective_drop", "fba"]),
            proptest::bool::weighted(0.15),
            maybe(0.5, pick(&[0.5f64, 0.9, 1.0])),
            maybe(0.5, pick(&[0.5f64, 0.8, 1.5])),
            maybe(0.4, 0.0f64..1.0),
        ),
        (
            maybe(0.3, pick(&[0u32, 20, 500, 2000])),
            maybe(0.2, pick(&[51_840_000u64, 622_080_000])),
            maybe(0.4, pick(&["rotating", "fixed", "random"])),
            any::<bool>(),
            maybe(0.6, tcp(false)),
            proptest::collection::vec(fault(), 0..3),
            proptest::collection::vec(background(), 0..2),
        ),
    )
        .prop_map(
            |(
                (sources, wan, k, policy, infinite, r, z, epd),
                (link_delay_us, rate_bps, arbitration, stagger_timers, tcp, faults, background),
            )| {
                let infinite = infinite && matches!(policy, "tail_drop" | "ppd");
                // The default EPD threshold is K - 200.
                let k = if policy == "epd" && epd.is_none() { k.max(201) } else { k };
                Template {
                    sources,
                    wan,
                    buffer: (!infinite).then_some(k),
                    policy,
                    r: r.filter(|_| policy != "fba").or(if policy == "fba" { Some(0.9) } else { None }),
                    z,
                    epd_threshold: epd.filter(|_| policy == "epd"),
                    link_delay_us,
                    rate_bps,
                    arbitration,
                    stagger_timers,
                    tcp,
                    faults,
                    background,
                }
            },
        )
}

fn policy() -> impl Strategy<Value = Policy> {
    let frac = || 0.0f64..=1.0;
    prop_oneof![
        3 => Just(Policy::TailDrop),
        1 => Just(Policy::Ppd),
        2 => frac().prop_map(Policy::Epd),
        1 => (frac(), pick(&[0.5f64, 0.8, 1.0])).prop_map(|(r, z)| Policy::SelectiveDrop(r, z)),
        1 => (0.0f64..0.99, pick(&[0.5f64, 0.8, 1.0])).prop_map(|(r, z)| Policy::Fba(r, z)),
        1 => (frac(), frac()).prop_map(|(a, b)| Policy::FifoGfr(a.min(b), a.max(b))),
        1 => (frac(), frac()).prop_map(|(a, b)| Policy::WfqGfr(a.min(b), a.max(b))),
        1 => (frac(), pick(&[1.5f64, 2.0, 4.0])).prop_map(|(r, z)| Policy::Dfba(r, z)),
        1 => Just(Policy::ThresholdDrop),
    ]
}

fn port() -> impl Strategy<Value = Port> {
    (
        prop_oneof![3 => (20u32..3000).prop_map(Some), 1 => Just(Some(200u32)), 1 => Just(None)],
        policy(),
        maybe(0.5, pick(&["fifo", "virtual_spacing", "priority", "round_robin"])),
        maybe(0.5, pick(&["fifo", "round_robin"])),
        maybe(0.4, pick(&["rotating", "fixed", "random"])),
        proptest::bool::weighted(0.15),
        proptest::bool::weighted(0.1),
        maybe(0.1, 0.0f64..=1.0),
        maybe(0.05, (0.0f64..=1.0, 0.0f64..=1.0, maybe(0.5, pick(&[100.0f64, 1000.0])))),
    )
        .prop_map(
            |(buffer, policy, scheduler, best_effort, arbitration, slotted, merge_frames, efci, rm)| Port {
                buffer: if policy.needs_finite() { buffer.or(Some(1000)) } else { buffer },
                best_effort: best_effort.filter(|_| scheduler == Some("priority")),
                policy,
                scheduler,
                arbitration,
                slotted,
                merge_frames,
                efci,
                rm_feedback: rm.map(|(a, b, f)| (a.min(b), a.max(b), f)),
            },
        )
}

fn conn() -> impl Strategy<Value = Conn> {
    (
        (
            any::<u8>(),
            any::<u8>(),
            link(),
            link(),
            prop_oneof![3 => Just(0u32), 1 => 0u32..5000],
            prop_oneof![
                4 => any::<bool>().prop_map(App::Greedy),
                1 => (pick(&[20_000u32, 300_000]), pick(&[0.0f64, 0.002])).prop_map(|(b, i)| App::Transfers(b, i)),
                1 => (pick(&[500u32, 2500]), pick(&[1e6f64, 2.5e6, 20e6])).prop_map(|(b, r)| App::Messages(b, r)),
            ],
            maybe(0.5, tcp(true)),
            maybe(0.25, (any::<u8>(), any::<bool>())),
        ),
        (
            maybe(
                0.25,
                (
                    pick(&[0u32, 1000, 20_000, 50_000]),
                    pick(&[50u32, 200]),
                    maybe(0.3, 0u32..300),
                    maybe(0.2, pick(&[60_000u32, 200_000])),
                    maybe(0.2, pick(&[0.0f64, 50.0])),
                    maybe(0.8, pick(&["adapter", "upc", "none"])),
                    maybe(0.4, pick(&["gfr1", "gfr2"])),
                )
                    .prop_map(|(mcr, mfs, mbs_extra, pcr, cdvt_us, tagging, conformance)| Gfr {
                        mcr,
                        mfs,
                        mbs_extra,
                        pcr,
                        cdvt_us,
                        tagging,
                        conformance,
                    }),
            ),
            maybe(0.2, 0u8..2),
            maybe(0.2, pick(&[0u32, 50, 400, 2000])),
            maybe(0.1, pick(&[0.5f64, 1.0, 3.0])),
            proptest::bool::weighted(0.2),
            prop_oneof![
                6 => Just(Control::None),
                1 => (pick(&[5e6f64, 50e6, 140e6]), pick(&[0.0f64, 20.0])).prop_map(|(r, c)| Control::Shaping(r, c)),
                1 => maybe(0.5, (pick(&[8u32, 32]), pick(&[3u32, 5]))).prop_map(Control::Prca),
                1 => (maybe(0.5, pick(&[8u32, 32])), maybe(0.5, pick(&[10e6f64, 50e6])))
                    .prop_map(|(n, m)| Control::Adaptive(n, m)),
            ],
            maybe(
                0.15,
                (1u32..=20, prop_oneof![(0u32..=20).prop_map(Ok), pick(&[5e6f64, 50e6]).prop_map(Err)]),
            ),
            maybe(0.15, upc()),
        ),
    )
        .prop_map(
            |(
                (src, dst, access, egress, start_us, app, tcp, share),
                (gfr, vc, vc_threshold, vc_weight, guaranteed, control, fcvc, upc),
            )| Conn {
                share,
                src,
                dst,
                access,
                egress,
                start_us,
                app,
                tcp,
                gfr,
                vc,
                vc_threshold,
                vc_weight,
                guaranteed,
                control,
                fcvc,
                upc,
            },
        )
}

fn graph() -> impl Strategy<Value = Graph> {
    (
        proptest::collection::vec(any::<u8>(), 0..4),
        maybe(0.2, (any::<u8>(), any::<u8>())),
        proptest::collection::vec(link(), 4),
        proptest::collection::vec(conn(), 1..6),
        proptest::collection::vec(background(), 0..3),
        proptest::collection::vec(maybe(0.7, port()), 1..6),
        maybe(0.4, tcp(false)),
        proptest::collection::vec(fault(), 0..3),
        maybe(0.1, (link(), maybe(0.5, tcp(true)))),
        maybe(0.3, any::<u8>()),
        maybe(0.1, 0u8..9),
    )
        .prop_map(
            |(parents, chord, trunks, conns, background, ports, tcp, faults, direct, bottleneck, slotted)| {
                Graph {
                    parents,
                    chord,
                    trunks,
                    conns,
                    background,
                    ports,
                    tcp,
                    faults,
                    direct,
                    bottleneck,
                    slotted,
                }
            },
        )
}

fn trace() -> impl Strategy<Value = Trace> {
    (
        pick(&[500u32, 1000, 5000]),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        proptest::bool::weighted(0.3),
        proptest::bool::weighted(0.3),
    )
        .prop_map(
            |(interval_us, cwnd, queues, per_vc, utilization, arrivals, first_port_only, first_conn_only)| {
                Trace {
                    interval_us,
                    cwnd,
                    queues,
                    per_vc: per_vc && queues,
                    utilization,
                    arrivals,
                    first_port_only,
                    first_conn_only,
                }
            },
        )
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        sim(),
        prop_oneof![1 => template().prop_map(Body::Template), 2 => graph().prop_map(Body::Graph)],
        maybe(0.15, trace()),
    )
        .prop_map(|(sim, body, trace)| Scenario { sim, body, trace })
}

// ---------------------------------------------------------------------------------------------
// Rendering as TOML.

fn frac_of(k: Option<u32>, f: f64) -> u32 {
    (f * f64::from(k.unwrap_or(1000))).floor() as u32
}

impl Tcp {
    fn inline(&self) -> String {
        let mut kv: Vec<String> = Vec::new();
        let mut put = |k: &str, v: String| kv.push(format!("{k} = {v}"));
        if let Some(p) = self.preset {
            put("preset", format!("\"{p}\""));
        }
        if let Some(v) = self.variant {
            put("variant", format!("\"{v}\""));
        }
        if let Some(b) = self.fast_retransmit {
            put("fast_retransmit", b.to_string());
        }
        if let Some(n) = self.dupack_threshold {
            put("dupack_threshold", n.to_string());
        }
        if let Some(n) = self.mss {
            put("mss", n.to_string());
        }
        if let Some(b) = self.mss_includes_options {
            put("mss_includes_options", b.to_string());
        }
        if let Some((w, scaling)) = self.window {
            put("window_bytes", w.to_string());
            put("window_scaling", (scaling || w > 65_535).to_string());
        }
        if let Some((ts, tx)) = self.timing {
            put("timestamps", ts.to_string());
            put("timing_excludes_transmission", tx.to_string());
        }
        if let Some((d, ms)) = self.delayed_ack {
            put("delayed_ack", d.to_string());
            if let Some(ms) = ms {
                put("delack_ms", format!("{ms:?}"));
            }
        }
        if let Some((tick, phase)) = self.tick {
            put("tick_ms", format!("{tick:?}"));
            if let Some(f) = phase {
                put("tick_phase_ms", format!("{:?}", tick * f));
            }
        }
        if let Some(n) = self.min_rto_ticks {
            put("min_rto_ticks", n.to_string());
        }
        if let Some(s) = self.initial_rto_s {
            put("initial_rto_s", format!("{s:?}"));
        }
        if let Some(n) = self.initial_cwnd {
            put("initial_cwnd_segments", n.to_string());
        }
        if let Some(n) = self.initial_ssthresh {
            put("initial_ssthresh_bytes", n.to_string());
        }
        if let Some(n) = self.iss {
            put("iss", n.to_string());
        }
        if let Some(n) = self.snd_buffer {
            put("snd_buffer_bytes", n.to_string());
        }
        if let Some(b) = self.nodelay {
            put("nodelay", b.to_string());
        }
        if let Some(b) = self.cache_out_of_order {
            put("cache_out_of_order", b.to_string());
        }
        if let Some(n) = self.max_backoffs {
            put("max_backoffs", n.to_string());
        }
        format!("{{ {} }}", kv.join(", "))
    }
}

impl Link {
    fn rate_key(&self) -> String {
        if self.cells {
            format!("rate_cells_per_s = {}", self.rate)
        } else {
            format!("rate_bps = {}", self.rate)
        }
    }
    fn write(&self, out: &mut String, a: &str, b: &str) {
        writeln!(
            out,
            "[[link]]\nends = [\"{a}\", \"{b}\"]\n{}\ndelay_us = {:?}",
            self.rate_key(),
            self.delay_us
        )
        .unwrap();
    }
    fn cells_per_s(&self) -> f64 {
        if self.cells {
            self.rate as f64
        } else {
            self.rate as f64 / 424.0
        }
    }
}

impl Upc {
    fn inline(&self, route: &[String]) -> String {
        let action = if self.drop { "drop" } else { "tag" };
        let mut s =
            format!("{{ pcr_bps = {:?}, cdvt_us = {:?}, action = \"{action}\"", self.pcr_bps, self.cdvt_us);
        if self.last && route.len() > 2 {
            write!(s, ", switch = \"{}\"", route[route.len() - 2]).unwrap();
        }
        s + " }"
    }
}

impl Background {
    fn write(&self, out: &mut String, name: &str, route: &[String]) {
        writeln!(out, "[[background]]\nname = \"{name}\"\nroute = {route:?}").unwrap();
        if self.start_us > 0 {
            writeln!(out, "start_s = {:?}", f64::from(self.start_us) * 1e-6).unwrap();
        }
        if self.count > 1 {
            writeln!(out, "count = {}", self.count).unwrap();
        }
        if self.guaranteed {
            writeln!(out, "guaranteed = true").unwrap();
        }
        let source = match &self.source {
            Source::OnOff(peak, burst, k) => format!(
                "{{ kind = \"on_off\", peak_bps = {peak:?}, mean_burst_bytes = {burst}, burstiness = {k:?} }}"
            ),
            Source::Poisson(user, None) => format!("{{ kind = \"poisson\", user_bps = {user:?} }}"),
            // A geometric law truncated to 1..=max has a mean below (max + 1) / 2, and the
            // engine draws it by rejection: keep the mean well inside (`tests/sources.rs`).
            Source::Poisson(user, Some((mean, max))) => {
                let mean = mean.min(f64::from(*max) / 4.0);
                format!(
                    "{{ kind = \"poisson\", user_bps = {user:?}, mean_cells = {mean:?}, max_cells = {max} }}"
                )
            }
            Source::Cbr(r) => format!("{{ kind = \"cbr\", rate_bps = {r:?} }}"),
        };
        writeln!(out, "source = {source}").unwrap();
        match self.shaping {
            Some(Ok(beta)) => writeln!(out, "shaping = {{ beta = {beta:?}, cdvt_us = 10.0 }}").unwrap(),
            Some(Err(rate)) => writeln!(out, "shaping = {{ rate_bps = {rate:?} }}").unwrap(),
            None => {}
        }
        if let Some(u) = &self.upc {
            writeln!(out, "upc = {}", u.inline(route)).unwrap();
        }
    }
}

impl Fault {
    /// The `[[fault]]` table at a port of `route` (hosts at both ends, switches between).
    fn write(&self, out: &mut String, conn: &str, route: &[String]) {
        let switches = route.len() - 2;
        let h = 1 + self.hop as usize % switches;
        let toward = if self.acks { &route[h - 1] } else { &route[h + 1] };
        writeln!(out, "[[fault]]\nport = \"{}->{toward}\"\nconnection = \"{conn}\"", route[h]).unwrap();
        if self.acks {
            writeln!(out, "acks = true").unwrap();
        }
        match &self.kind {
            FaultKind::Segments(s, times) => {
                writeln!(out, "segments = {s:?}").unwrap();
                if let Some(t) = times {
                    writeln!(out, "times = {t}").unwrap();
                }
            }
            FaultKind::Between(a, b) => writeln!(out, "between_s = [{a:?}, {b:?}]").unwrap(),
            FaultKind::LossRate(p) => writeln!(out, "loss_rate = {p:?}").unwrap(),
            // `cwnd_octets` acts on data only.
            FaultKind::Cwnd(w) if !self.acks => writeln!(out, "cwnd_octets = {w}").unwrap(),
            FaultKind::Cwnd(_) => writeln!(out, "loss_rate = 0.05").unwrap(),
        }
    }
}

impl Port {
    fn write(&self, out: &mut String, node: &str, toward: &str, force_round_robin: bool) {
        let k = self.buffer;
        let buffer = k.map_or("\"infinite\"".to_string(), |k| k.to_string());
        let policy = match self.policy {
            Policy::TailDrop => "{ kind = \"tail_drop\" }".to_string(),
            Policy::Ppd => "{ kind = \"ppd\" }".to_string(),
            Policy::ThresholdDrop => "{ kind = \"threshold_drop\" }".to_string(),
            Policy::Epd(f) => format!("{{ kind = \"epd\", threshold_cells = {} }}", frac_of(k, f)),
            Policy::SelectiveDrop(r, z) => {
                format!("{{ kind = \"selective_drop\", r_cells = {}, z = {z:?} }}", frac_of(k, r))
            }
            // R below K.
            Policy::Fba(r, z) => format!(
                "{{ kind = \"fba\", r_cells = {}, z = {z:?} }}",
                frac_of(k, r).min(k.unwrap_or(1000).saturating_sub(1))
            ),
            Policy::FifoGfr(l, h) => {
                format!(
                    "{{ kind = \"fifo_gfr\", lbo_cells = {}, hbo_cells = {} }}",
                    frac_of(k, l),
                    frac_of(k, h)
                )
            }
            Policy::WfqGfr(l, h) => {
                format!(
                    "{{ kind = \"wfq_gfr\", lbo_cells = {}, hbo_cells = {} }}",
                    frac_of(k, l),
                    frac_of(k, h)
                )
            }
            Policy::Dfba(r, z) => format!("{{ kind = \"dfba\", r_cells = {}, z = {z:?} }}", frac_of(k, r)),
        };
        writeln!(
            out,
            "[[port]]\nnode = \"{node}\"\ntoward = \"{toward}\"\nbuffer_cells = {buffer}\npolicy = {policy}"
        )
        .unwrap();
        let (scheduler, best_effort) = match (force_round_robin, self.scheduler, self.best_effort) {
            (true, Some("priority"), _) => (Some("priority"), Some("round_robin")),
            (true, _, _) => (Some("round_robin"), None),
            (false, s, b) => (s, b),
        };
        if let Some(s) = scheduler {
            writeln!(out, "scheduler = \"{s}\"").unwrap();
        }
        if let Some(b) = best_effort {
            writeln!(out, "best_effort = \"{b}\"").unwrap();
        }
        if let Some(a) = self.arbitration {
            writeln!(out, "arbitration = \"{a}\"").unwrap();
        }
        if self.slotted {
            writeln!(out, "arrivals = \"slotted\"").unwrap();
        }
        if self.merge_frames && !force_round_robin {
            writeln!(out, "merge_frames = true").unwrap();
        }
        if let Some(f) = self.efci {
            writeln!(out, "efci_threshold_cells = {}", frac_of(k, f)).unwrap();
        }
        if let Some((lo, hi, fair)) = self.rm_feedback {
            write!(
                out,
                "rm_feedback = {{ t_low_cells = {}, t_high_cells = {}",
                frac_of(k, lo),
                frac_of(k, hi)
            )
            .unwrap();
            if let Some(us) = fair {
                write!(out, ", fair_share_interval_us = {us:?}").unwrap();
            }
            writeln!(out, " }}").unwrap();
        }
    }
}

fn write_trace(out: &mut String, t: &Trace, first_port: &str, first_conn: Option<&str>) {
    writeln!(
        out,
        "[trace]\ninterval_s = {:?}\ncwnd = {}\nqueues = {}\nper_vc = {}\nutilization = {}\narrivals = {}",
        f64::from(t.interval_us) * 1e-6,
        t.cwnd,
        t.queues,
        t.per_vc,
        t.utilization,
        t.arrivals
    )
    .unwrap();
    if t.first_port_only {
        writeln!(out, "ports = [\"{first_port}\"]").unwrap();
    }
    if let (true, Some(c)) = (t.first_conn_only, first_conn) {
        writeln!(out, "connections = [\"{c}\"]").unwrap();
    }
}

/// The switches of a route from switch `a` to switch `b` (breadth first: a shortest path).
fn switch_path(adj: &[Vec<usize>], a: usize, b: usize) -> Vec<usize> {
    let mut prev = vec![usize::MAX; adj.len()];
    prev[a] = a;
    let mut queue = std::collections::VecDeque::from([a]);
    while let Some(x) = queue.pop_front() {
        for &y in &adj[x] {
            if prev[y] == usize::MAX {
                prev[y] = x;
                queue.push_back(y);
            }
        }
    }
    let mut path = vec![b];
    while *path.last().unwrap() != a {
        path.push(prev[*path.last().unwrap()]);
    }
    path.reverse();
    path
}

impl Scenario {
    fn toml(&self) -> String {
        let mut out = String::new();
        let s = &self.sim;
        writeln!(out, "[simulation]\nduration_s = {:?}\nseed = {}", f64::from(s.duration_ms) * 1e-3, s.seed)
            .unwrap();
        match s.phases {
            1 => writeln!(out, "phases = \"random\"").unwrap(),
            2 => writeln!(out, "phases = \"aligned\"").unwrap(),
            _ => {}
        }
        if let Some(p) = s.clock_ppm {
            writeln!(out, "clock_ppm = {p}").unwrap();
        }
        if let Some(j) = s.start_jitter_us {
            writeln!(out, "start_jitter_s = {:?}", f64::from(j) * 1e-6).unwrap();
        }
        match &self.body {
            Body::Template(t) => self.template(&mut out, t),
            Body::Graph(g) => self.graph(&mut out, g),
        }
        out
    }

    fn template(&self, out: &mut String, t: &Template) {
        writeln!(
            out,
            "[n_source]\nsources = {}\nconfig = \"{}\"",
            t.sources,
            if t.wan { "WAN" } else { "LAN" }
        )
        .unwrap();
        match t.buffer {
            Some(k) => writeln!(out, "buffer_cells = {k}").unwrap(),
            None => writeln!(out, "buffer_cells = \"infinite\"").unwrap(),
        }
        writeln!(out, "policy = \"{}\"", t.policy).unwrap();
        if let Some(r) = t.r {
            writeln!(out, "r = {r:?}").unwrap();
        }
        if let Some(z) = t.z {
            writeln!(out, "z = {z:?}").unwrap();
        }
        if let Some(f) = t.epd_threshold {
            writeln!(out, "epd_threshold_cells = {}", frac_of(t.buffer, f)).unwrap();
        }
        if let Some(d) = t.link_delay_us {
            writeln!(out, "link_delay_us = {d}").unwrap();
        }
        if let Some(r) = t.rate_bps {
            writeln!(out, "rate_bps = {r}").unwrap();
        }
        if let Some(a) = t.arbitration {
            writeln!(out, "arbitration = \"{a}\"").unwrap();
        }
        if t.stagger_timers {
            writeln!(out, "stagger_timers = true").unwrap();
        }
        if let Some(tcp) = &t.tcp {
            writeln!(out, "tcp = {}", tcp.inline()).unwrap();
        }
        let route = |i: u32| -> Vec<String> {
            vec![format!("src{i}"), "sw1".into(), "sw2".into(), format!("dst{i}")]
        };
        for f in &t.faults {
            let i = 1 + u32::from(f.conn) % t.sources;
            f.write(out, &format!("tcp{i}"), &route(i));
        }
        for (j, b) in t.background.iter().enumerate() {
            let i = 1 + u32::from(b.src) % t.sources;
            b.write(out, &format!("bg{j}"), &route(i));
        }
        if let Some(tr) = &self.trace {
            write_trace(out, tr, "sw1->sw2", Some("tcp1"));
        }
    }

    fn graph(&self, out: &mut String, g: &Graph) {
        // A slotted network has two switches or more, and every connection and background
        // source with hosts of its own goes from the first to the last: their cells converge on
        // the trunks' ports, which then have several inputs whose cells tie at the slots.
        let slotted = g.slotted.is_some();
        let n = g.parents.len() + 1 + usize::from(slotted && g.parents.is_empty());
        let ends = |src: u8, dst: u8| if slotted { (0, n - 1) } else { (src as usize % n, dst as usize % n) };
        let sw = |i: usize| format!("s{i}");
        let mut adj = vec![Vec::new(); n];
        let mut trunks: Vec<(usize, usize)> = Vec::new();
        for i in 1..n {
            let p = g.parents.get(i - 1).map_or(0, |&p| p as usize % i);
            trunks.push((p, i));
        }
        if let Some((a, b)) = g.chord {
            let (a, b) = (a as usize % n, b as usize % n);
            if a != b && !trunks.contains(&(a.min(b), a.max(b))) {
                trunks.push((a.min(b), a.max(b)));
            }
        }
        for i in 0..n {
            writeln!(out, "[[node]]\nname = \"{}\"\nkind = \"switch\"", sw(i)).unwrap();
        }
        for (j, &(a, b)) in trunks.iter().enumerate() {
            adj[a].push(b);
            adj[b].push(a);
            g.trunks[j % g.trunks.len()].write(out, &sw(a), &sw(b));
        }
        // Connections: own hosts at both ends, or an earlier one's.
        let mut routes: Vec<Vec<String>> = Vec::new();
        let mut hosts: Vec<(String, usize)> = Vec::new();
        // The cell rates of each connection's first and last links.
        let mut rates: Vec<(f64, f64)> = Vec::new();
        for (i, c) in g.conns.iter().enumerate() {
            if let (Some((k, back)), true) = (c.share, i > 0) {
                let j = k as usize % i;
                let mut route = routes[j].clone();
                let (mut first, mut last) = rates[j];
                if back {
                    route.reverse();
                    (first, last) = (last, first);
                }
                rates.push((first, last));
                routes.push(route);
                continue;
            }
            rates.push((c.access.cells_per_s(), c.egress.cells_per_s()));
            let (a, b) = ends(c.src, c.dst);
            let (ha, hb) = (format!("a{i}"), format!("b{i}"));
            writeln!(
                out,
                "[[node]]\nname = \"{ha}\"\nkind = \"host\"\n[[node]]\nname = \"{hb}\"\nkind = \"host\""
            )
            .unwrap();
            c.access.write(out, &ha, &sw(a));
            c.egress.write(out, &sw(b), &hb);
            hosts.push((ha.clone(), a));
            hosts.push((hb.clone(), b));
            let mut route = vec![ha];
            route.extend(switch_path(&adj, a, b).into_iter().map(sw));
            route.push(hb);
            routes.push(route);
        }
        let mut bg_routes: Vec<Vec<String>> = Vec::new();
        for (j, bg) in g.background.iter().enumerate() {
            if let Some(k) = bg.share {
                bg_routes.push(routes[k as usize % routes.len()].clone());
                continue;
            }
            let (a, b) = ends(bg.src, bg.dst);
            let (ha, hb) = (format!("ga{j}"), format!("gb{j}"));
            writeln!(
                out,
                "[[node]]\nname = \"{ha}\"\nkind = \"host\"\n[[node]]\nname = \"{hb}\"\nkind = \"host\""
            )
            .unwrap();
            bg.access.write(out, &ha, &sw(a));
            bg.access.write(out, &sw(b), &hb);
            hosts.push((ha.clone(), a));
            hosts.push((hb.clone(), b));
            let mut route = vec![ha];
            route.extend(switch_path(&adj, a, b).into_iter().map(sw));
            route.push(hb);
            bg_routes.push(route);
        }
        // Every switch port: toward each neighbouring switch and each attached host.
        let mut ports: Vec<(String, String)> = Vec::new();
        for (i, nb) in adj.iter().enumerate() {
            for &j in nb {
                ports.push((sw(i), sw(j)));
            }
        }
        for (h, s) in &hosts {
            ports.push((sw(*s), h.clone()));
        }
        // Ports the FCVC connections' data leave through must serve VCs in turn.
        let fcvc_port = |p: &(String, String)| {
            g.conns
                .iter()
                .zip(&routes)
                .any(|(c, r)| c.fcvc.is_some() && r.windows(2).skip(1).any(|w| w[0] == p.0 && w[1] == p.1))
        };
        let mut configs: Vec<(usize, Port)> = Vec::new();
        if g.slotted.is_some() {
            writeln!(out, "# every switch port slotted").unwrap();
        }
        for (j, p) in ports.iter().enumerate() {
            let forced = fcvc_port(p);
            let cfg = match (&g.ports[j % g.ports.len()], forced) {
                (Some(c), _) => Some(c.clone()),
                (None, true) => Some(Port {
                    buffer: None,
                    policy: Policy::TailDrop,
                    scheduler: None,
                    best_effort: None,
                    arbitration: None,
                    slotted: false,
                    merge_frames: false,
                    efci: None,
                    rm_feedback: None,
                }),
                (None, false) => None,
            };
            let slotted =
                g.slotted.map(|k| (SLOTTED_ARBITRATION[k as usize % 3], SLOTTED_BUFFER[k as usize / 3]));
            let cfg = match (slotted, cfg) {
                (Some((a, _)), Some(c)) => Some(Port { arbitration: Some(a), slotted: true, ..c }),
                (Some((a, k)), None) => Some(Port {
                    buffer: Some(k),
                    policy: Policy::TailDrop,
                    scheduler: None,
                    best_effort: None,
                    arbitration: Some(a),
                    slotted: true,
                    merge_frames: false,
                    efci: None,
                    rm_feedback: None,
                }),
                (None, c) => c,
            };
            if let Some(c) = cfg {
                c.write(out, &p.0, &p.1, forced);
                configs.push((j, c));
            }
        }
        let per_vc_port =
            |p: &(String, String)| configs.iter().any(|(j, c)| &ports[*j] == p && c.policy.per_vc());
        if let Some(t) = &g.tcp {
            writeln!(out, "[tcp]\n{}", t.inline().trim_matches(['{', '}', ' ']).replace(", ", "\n")).unwrap();
        }
        for (i, (c, route)) in g.conns.iter().zip(&routes).enumerate() {
            writeln!(out, "[[connection]]\nname = \"c{i}\"\nroute = {route:?}").unwrap();
            if c.start_us > 0 {
                writeln!(out, "start_s = {:?}", f64::from(c.start_us) * 1e-6).unwrap();
            }
            match c.app {
                App::Greedy(true) => writeln!(out, "app = \"greedy\"").unwrap(),
                App::Greedy(false) => {}
                App::Transfers(b, idle) => {
                    writeln!(out, "app = {{ kind = \"transfers\", bytes = {b}, mean_idle_s = {idle:?} }}")
                        .unwrap()
                }
                App::Messages(b, r) => {
                    writeln!(out, "app = {{ kind = \"messages\", mean_bytes = {b}, rate_bps = {r:?} }}")
                        .unwrap()
                }
            }
            if let Some(t) = &c.tcp {
                writeln!(out, "tcp = {}", t.inline()).unwrap();
            }
            let access = rates[i].0;
            let mut threshold = c.vc_threshold;
            if let Some(gfr) = &c.gfr {
                let mcr = f64::from(gfr.mcr).min(access.floor());
                let mut s = format!("{{ mcr_cells_per_s = {mcr:?}, mfs_cells = {}", gfr.mfs);
                if let Some(x) = gfr.mbs_extra {
                    write!(s, ", mbs_cells = {}", gfr.mfs + x).unwrap();
                }
                if let Some(p) = gfr.pcr {
                    write!(s, ", pcr_cells_per_s = {:?}", f64::from(p).max(mcr)).unwrap();
                }
                if let Some(d) = gfr.cdvt_us {
                    write!(s, ", cdvt_us = {d:?}").unwrap();
                }
                if let Some(t) = gfr.tagging {
                    write!(s, ", tagging = \"{t}\"").unwrap();
                }
                if let Some(k) = gfr.conformance {
                    write!(s, ", conformance = \"{k}\"").unwrap();
                }
                writeln!(out, "gfr = {s} }}").unwrap();
            } else if threshold.is_none()
                && route.windows(2).skip(1).any(|w| per_vc_port(&(w[0].clone(), w[1].clone())))
            {
                // Per-VC policies need a threshold for every VC through them.
                threshold = Some(100);
            }
            if let Some(t) = threshold {
                writeln!(out, "vc_threshold_cells = {t}").unwrap();
            }
            if let Some(w) = c.vc_weight {
                writeln!(out, "vc_weight = {w:?}").unwrap();
            }
            // FCVC is per VC and credit-controlled: not with merged VCs or priority service.
            if c.fcvc.is_none() {
                if let Some(v) = c.vc {
                    writeln!(out, "vc = \"v{v}\"").unwrap();
                }
                if c.guaranteed {
                    writeln!(out, "guaranteed = true").unwrap();
                }
            }
            match c.control {
                Control::None => {}
                Control::Shaping(r, cdvt) => {
                    writeln!(out, "shaping = {{ rate_bps = {r:?}, cdvt_us = {cdvt:?} }}").unwrap()
                }
                Control::Prca(None) => writeln!(out, "abr = {{ kind = \"prca\" }}").unwrap(),
                Control::Prca(Some((nrm, mdf))) => {
                    writeln!(out, "abr = {{ kind = \"prca\", nrm = {nrm}, mdf = {mdf} }}").unwrap()
                }
                Control::Adaptive(nrm, max) => {
                    let mut s = String::from("{ kind = \"adaptive\"");
                    if let Some(n) = nrm {
                        write!(s, ", nrm = {n}").unwrap();
                    }
                    if let Some(m) = max {
                        write!(s, ", max_rate_bps = {m:?}").unwrap();
                    }
                    writeln!(out, "abr = {s} }}").unwrap();
                }
            }
            match c.fcvc {
                Some((n2, Ok(n3))) => writeln!(out, "fcvc = {{ n2 = {n2}, n3 = {n3} }}").unwrap(),
                Some((n2, Err(bps))) => {
                    writeln!(out, "fcvc = {{ n2 = {n2}, target_bps = {bps:?} }}").unwrap()
                }
                None => {}
            }
            if let Some(u) = &c.upc {
                writeln!(out, "upc = {}", u.inline(route)).unwrap();
            }
        }
        if let Some((l, tcp)) = &g.direct {
            writeln!(
                out,
                "[[node]]\nname = \"da\"\nkind = \"host\"\n[[node]]\nname = \"db\"\nkind = \"host\""
            )
            .unwrap();
            l.write(out, "da", "db");
            writeln!(out, "[[connection]]\nname = \"direct\"\nroute = [\"da\", \"db\"]").unwrap();
            if let Some(t) = tcp {
                writeln!(out, "tcp = {}", t.inline()).unwrap();
            }
        }
        for (j, (bg, route)) in g.background.iter().zip(&bg_routes).enumerate() {
            bg.write(out, &format!("g{j}"), route);
        }
        for f in &g.faults {
            let i = f.conn as usize % routes.len();
            f.write(out, &format!("c{i}"), &routes[i]);
        }
        if let Some(b) = g.bottleneck {
            let p = &ports[b as usize % ports.len()];
            writeln!(out, "[metrics]\nbottleneck = \"{}->{}\"", p.0, p.1).unwrap();
        }
        if let Some(tr) = &self.trace {
            let p = &ports[0];
            write_trace(out, tr, &format!("{}->{}", p.0, p.1), Some("c0"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The tests.

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("{name}: not a number: `{v}`")),
        Err(_) => default,
    }
}

fn runner(cases: u32, seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 256,
        rng_algorithm: RngAlgorithm::ChaCha,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// The generator writes only valid scenarios, covering every feature it claims to.
#[test]
fn generated_scenarios_load() {
    let seen = std::cell::RefCell::new(String::new());
    let result = runner(env_or("ATMSIM_DIFF_CASES", 400), env_or("ATMSIM_DIFF_SEED", DEFAULT_SEED)).run(
        &scenario(),
        |sc| {
            let text = sc.toml();
            if let Err(e) = scenario::load(&text, &[], None) {
                return Err(TestCaseError::fail(format!("the generator wrote an invalid scenario: {e}")));
            }
            seen.borrow_mut().push_str(&text);
            Ok(())
        },
    );
    if let Err(TestError::Fail(why, sc)) = result {
        panic!("{why}\n--- scenario ---\n{}", sc.toml());
    }
    result.unwrap();
    let features = [
        "[n_source]",
        "[[node]]",
        // A connection from an earlier one's receiving host (shared hosts, the other way round).
        "route = [\"b",
        "\"tail_drop\"",
        "\"ppd\"",
        "\"epd\"",
        "\"selective_drop\"",
        "\"fba\"",
        "\"fifo_gfr\"",
        "\"wfq_gfr\"",
        "\"dfba\"",
        "\"threshold_drop\"",
        "\"virtual_spacing\"",
        "\"priority\"",
        "\"round_robin\"",
        "best_effort",
        "fcvc =",
        "\"prca\"",
        "\"adaptive\"",
        "shaping = { rate_bps",
        "beta =",
        "upc = {",
        "tagging = \"upc\"",
        "tagging = \"adapter\"",
        "[[background]]",
        "\"on_off\"",
        "\"poisson\"",
        "\"cbr\"",
        "[[fault]]",
        "segments =",
        "between_s",
        "loss_rate",
        "cwnd_octets",
        "acks = true",
        "[trace]",
        "per_vc = true",
        "\"tahoe\"",
        "\"reno\"",
        "\"newreno\"",
        "\"sack\"",
        "phases = \"aligned\"",
        "phases = \"random\"",
        "clock_ppm",
        "start_jitter_s",
        "\"slotted\"",
        "# every switch port slotted",
        "merge_frames = true",
        "efci_threshold_cells",
        "rm_feedback",
        "vc = \"v",
        "guaranteed = true",
        "\"transfers\"",
        "\"messages\"",
        "rate_cells_per_s",
        "\"infinite\"",
        "[tcp]",
        "route = [\"da\", \"db\"]",
        "\"fixed\"",
        "\"random\"",
        "timing_excludes_transmission = true",
        "timestamps = true",
        "delayed_ack = true",
        "tick_phase_ms",
        "config = \"WAN\"",
        "stagger_timers",
    ];
    let seen = seen.into_inner();
    let missing: Vec<&str> = features.iter().copied().filter(|f| !seen.contains(f)).collect();
    assert!(missing.is_empty(), "the generator never wrote {missing:?}");
    // A bottleneck past two words of input marks (inputs 128 and up), where a mark bit lost
    // between batches shows.
    let widest =
        seen.lines().filter_map(|l| l.strip_prefix("sources = ")?.parse::<u32>().ok()).max().unwrap_or(0);
    assert!(widest > 128, "the generator never wrote more than {widest} sources");
}

/// Every generated scenario gives the reference's report under every engine setting.
#[test]
fn fast_paths_give_the_reference_report_on_random_scenarios() {
    let cases = env_or("ATMSIM_DIFF_CASES", DEFAULT_CASES);
    differential(&scenario(), cases, "random scenarios");
}

/// Cases of `level_logs_give_the_reference_report` by default; `ATMSIM_DIFF_LOG_CASES`
/// overrides.
const DEFAULT_LOG_CASES: u32 = 300;

/// Adaptive shaping's level logs (`rm_feedback`), whose readers must read each band at an RM
/// cell's instant under every schedule (`net/level_log.rs`), drawn far more often than the
/// general generator draws them: graphs whose every listed switch port publishes its band
/// (thresholds as fractions of its buffer, sometimes with fair-share enforcement) and whose
/// every connection is under adaptive shaping. A reader's batch not stopped at a later RM cell
/// was first caught here within 300 cases; the general suite needed more than its 3000.
#[test]
fn level_logs_give_the_reference_report() {
    let cases = env_or("ATMSIM_DIFF_LOG_CASES", DEFAULT_LOG_CASES);
    let logged = (
        sim(),
        graph(),
        (0.0f64..=0.3, 0.3f64..=1.0, maybe(0.3, pick(&[100.0f64, 1000.0]))),
        (maybe(0.5, pick(&[8u32, 32])), maybe(0.5, pick(&[10e6f64, 50e6]))),
    )
        .prop_map(|(sim, mut g, (lo, hi, fair), (nrm, max))| {
            for p in g.ports.iter_mut().flatten() {
                p.rm_feedback = Some((lo, hi, fair));
            }
            for c in &mut g.conns {
                c.control = Control::Adaptive(nrm, max);
            }
            Scenario { sim, body: Body::Graph(g), trace: None }
        });
    differential(&logged, cases, "level-log graphs");
}

/// Run `cases` scenarios of `strategy` under the reference and the engine settings (the default
/// on every case, every setting on the cases the text's hash picks), failing with the smallest
/// mismatching scenario proptest finds.
fn differential(strategy: &impl Strategy<Value = Scenario>, cases: u32, what: &str) {
    let seed = env_or("ATMSIM_DIFF_SEED", DEFAULT_SEED);
    let settings = engine_settings();
    let every = env_or("ATMSIM_DIFF_ALL_SETTINGS_EVERY", ALL_SETTINGS_EVERY).max(1);
    let verbose = std::env::var_os("ATMSIM_DIFF_VERBOSE").is_some();
    let result = runner(cases, seed).run(strategy, |sc| {
        let text = sc.toml();
        let start = std::time::Instant::now();
        // The default setting on every case; every setting on the cases the text's hash picks
        // (deterministic, so a failing case keeps its settings while it shrinks unless its text
        // changes).
        let all = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            text.hash(&mut h);
            h.finish().is_multiple_of(every)
        };
        let these = if all { &settings[..] } else { &settings[..1] };
        let (_, mismatches) = compare_with_reference(&text, these, None)
            .map_err(|e| TestCaseError::fail(format!("the generator wrote an invalid scenario: {e}")))?;
        if verbose {
            // One line per case: its time (all runs), kind, and the reference's event count.
            let kind = if text.contains("[n_source]") { "template" } else { "graph" };
            let r = atmsim_core::differential::run_setting(
                &text,
                &atmsim_core::differential::reference_setting(),
                None,
            );
            let events = r.ok().and_then(|v| v["events"].as_u64()).unwrap_or(0);
            eprintln!("case {:.3} s {kind} {events} events", start.elapsed().as_secs_f64());
        }
        if mismatches.is_empty() {
            Ok(())
        } else {
            let lines: Vec<String> = mismatches.iter().map(ToString::to_string).collect();
            Err(TestCaseError::fail(lines.join("\n")))
        }
    });
    if let Err(TestError::Fail(why, sc)) = result {
        panic!(
            "a fast path differs from the reference, or a report breaks the conservation of cells \
             ({what}, seed {seed}, {cases} cases; smallest scenario found):\n{why}\n\
             --- scenario ---\n{}",
            sc.toml()
        );
    }
    result.unwrap();
}
