//! # atmsim-core
//!
//! A cell-level discrete-event simulator of ATM networks carrying TCP/IP, written to rerun the
//! 1990s studies of TCP over ATM (UBR+, GFR, ABR and credit flow control, shaping).
//!
//! ## Layers, bottom up
//!
//! The public API is [`api`] (run or estimate a scenario), [`scenario::spec`] (the input
//! format), [`report`] (the results), [`estimate`] (the cost) and [`error`]; the layers below are
//! internal (a few stay reachable, undocumented, for the workspace's tests and fuzz harness).
//!
//! - **Time** (`time`): integer picoseconds; link slot grids with exact rational periods.
//! - **Randomness** (`rng`): one master seed, an independent stream per component name.
//! - **ATM layer** (`cell`, `aal5`, `frame`): cells carry a VC label (local to the component
//!   holding them, translated per hop), the EOF and CLP bits and the index of their AAL5 frame;
//!   frames (the TCP segments they carry) live in a slab of reusable slots. `aal5` has the
//!   exact encapsulation overheads (TCP/IP, LLC/SNAP, trailer).
//! - **Buffer acceptance** (`accept`): the UBR+ policies (tail drop, PPD, EPD, Selective Drop,
//!   Fair Buffer Allocation) and the GFR, DFBA and threshold-drop policies, as decisions over
//!   the buffer state the papers define; `Policy::facts` states what the engine's fast paths may
//!   rely on about each.
//! - **TCP** (`tcp`): BSD-derived sender (slow start, congestion avoidance, tick-based RTO with
//!   Karn's rule and backoff, go-back-N after timeouts, optional fast retransmit, Reno fast
//!   recovery) and a receiver that caches out-of-order segments. The caller owns the clock: every
//!   entry point takes `now`, and timers are enum variants carrying their deadline.
//! - **Source and flow control** (`conformance`, `abr`, `traffic`): GCRA and F-GCRA,
//!   the GFR adapter tagger, PRCA, FCVC credits and the CLASS study's adaptive shaper as pure
//!   state machines; background sources (CBR, on-off VBR, Poisson messages). The host adapter
//!   (`net/adapter.rs`) paces each controlled VC with them and inserts and returns RM cells;
//!   switch ports mark EFCI, rewrite backward RM cells and send credit cells.
//! - **Network** (`net`): switch output ports and hosts as components in a vector, channels
//!   between them, and a scheduler that lets each component run ahead in batches as far as its
//!   input latency allows, so the per-cell path has no heap operation, allocation or dynamic
//!   dispatch. Which fast paths a component takes is chosen once, at set-up, by its kind's plan
//!   (`net/port/plan.rs`, `net/host/plan.rs`, `net/plan.rs`), each path switchable from the
//!   scenario's `[engine]` table ([`scenario::ENGINE_SWITCHES`]; `docs/engine.md`).
//! - **Scenarios** ([`scenario`]): TOML → overrides → typed spec → validated model → built
//!   simulation; every error names its field.
//! - **Results** ([`report`], `metrics`) and the one entry point, [`api`]. With `[trace]`,
//!   switch ports sample their queues and links and senders keep their window history
//!   (`traces`); with `[capture]`, channels and hosts record the frames they carry as pcap
//!   files of real IPv4/TCP packets (`pcap`), returned as bytes by
//!   [`api::run_scenario_with_captures`].
//!
//! ```
//! let text = r#"
//!     [simulation]
//!     duration_s = 0.05
//!     [n_source]
//!     sources = 2
//!     config = "LAN"
//!     buffer_cells = 1000
//!     policy = "epd"
//! "#;
//! let report = atmsim_core::api::run_scenario(text, &[], None).unwrap();
//! assert!(report.summary.conservation.balanced);
//! assert_eq!(report.flows.len(), 2);
//! ```

#![warn(missing_docs)]

// The public API: run or estimate a scenario ([`api`]), its errors ([`error`]), its input format
// ([`scenario::spec`]), its results ([`report`]) and its cost ([`estimate`]).
pub mod api;
pub mod error;
pub mod estimate;
pub mod overhead;
pub mod report;
pub mod scenario;

// Engine internals that the workspace's own integration tests, benches and fuzz harness drive
// directly (the TCP state machines, the built network): reachable, but not part of the API and
// free to change; hidden from the documentation.
#[doc(hidden)]
pub mod differential;
#[doc(hidden)]
pub mod frame;
#[doc(hidden)]
pub mod net;
#[doc(hidden)]
pub mod tcp;
#[doc(hidden)]
pub mod time;

pub(crate) mod aal5;
pub(crate) mod abr;
pub(crate) mod accept;
pub(crate) mod app;
pub(crate) mod cell;
pub(crate) mod conformance;
pub(crate) mod json;
pub(crate) mod metrics;
pub(crate) mod pcap;
pub(crate) mod ring;
pub(crate) mod rng;
pub(crate) mod sched;
pub(crate) mod traces;
pub(crate) mod traffic;

pub use error::ScenarioError;

/// Engine version recorded with every result: the package version and a fingerprint of the
/// engine's source (`build.rs`), so two builds that may differ in results never share one.
pub fn version() -> &'static str {
    concat!(env!("CARGO_PKG_VERSION"), "+src.", env!("ATMSIM_SOURCE_HASH"))
}
