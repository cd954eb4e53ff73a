//! The one entry point the bindings and the CLI use: scenario text in, report out.
//!
//! - [`run_scenario_json`] parses the TOML scenario, applies the `--set key=value` overrides
//!   (dotted keys, values read as TOML literals, falling back to strings), builds the network,
//!   runs it and returns the report as one JSON document.
//! - [`run_scenario_with_captures`] does the same and also records the packet captures of the
//!   scenario's `[capture]` table plus the points named on the command line; the other entry
//!   points record none.
//! - Errors are [`ScenarioError`]`{ field, reason }`; `Display` gives the one line `field: reason`.
//! - [`estimate_scenario`] / [`estimate_json`]: what a run would cost, without running it.
//! - `seed`, when given, replaces `simulation.seed`.

use std::time::Instant;

pub use crate::error::ScenarioError;
use crate::report::{report, Report};
use crate::scenario::validate::Model;
use crate::scenario::{self, build::build};

/// One pcap file per capture point: (file stem, file contents).
pub type Captures = Vec<(String, Vec<u8>)>;

/// Build and run a validated model; the report and what the capture points recorded.
fn execute(model: Model) -> (Report, Captures) {
    let duration = model.duration;
    let mut built = build(model);
    let start = Instant::now();
    built.sim.run_until(duration);
    let r = report(&built, start.elapsed().as_secs_f64());
    (r, built.sim.world.captures.take())
}

/// Parse, validate, build and run a scenario (recording no packet captures).
pub fn run_scenario(
    toml_text: &str,
    overrides: &[(String, String)],
    seed: Option<u64>,
) -> Result<Report, ScenarioError> {
    let mut model = scenario::load(toml_text, overrides, seed)?;
    // `[capture]` is checked, but captures cost memory: only recorded when asked for.
    model.observe.capture.points.clear();
    Ok(execute(model).0)
}

/// Run a scenario and return its report and its packet captures: the points of the scenario's
/// `[capture]` table plus `captures` (a link `from->to` or a host name each, as `--capture`).
pub fn run_scenario_with_captures(
    toml_text: &str,
    overrides: &[(String, String)],
    seed: Option<u64>,
    captures: &[String],
) -> Result<(Report, Captures), ScenarioError> {
    let mut model = scenario::load(toml_text, overrides, seed)?;
    scenario::observe::add_captures(&mut model, captures)?;
    Ok(execute(model))
}

/// The report as the JSON document the CLI prints (pretty; trace columns one line each).
pub fn report_json(r: &Report) -> Result<String, ScenarioError> {
    crate::json::to_string(r).map_err(|e| ScenarioError { field: "report".into(), reason: e.to_string() })
}

/// [`run_scenario`], its report as [`report_json`] writes it.
pub fn run_scenario_json(
    toml_text: &str,
    overrides: &[(String, String)],
    seed: Option<u64>,
) -> Result<String, ScenarioError> {
    report_json(&run_scenario(toml_text, overrides, seed)?)
}

/// The cost of running a scenario, from the scenario alone (nothing is built or run): cells,
/// events, peak memory and wall time ([`crate::estimate`]).
pub fn estimate_scenario(
    toml_text: &str,
    overrides: &[(String, String)],
    seed: Option<u64>,
) -> Result<crate::estimate::Estimate, ScenarioError> {
    Ok(crate::estimate::estimate(&scenario::load(toml_text, overrides, seed)?))
}

/// [`estimate_scenario`] as a JSON object `{cells, cell_hops, events, memory_bytes, wall_s}`.
pub fn estimate_json(
    toml_text: &str,
    overrides: &[(String, String)],
    seed: Option<u64>,
) -> Result<String, ScenarioError> {
    let e = estimate_scenario(toml_text, overrides, seed)?;
    serde_json::to_string(&e).map_err(|e| ScenarioError { field: "estimate".into(), reason: e.to_string() })
}

/// Engine version recorded with every result (see [`crate::version`]); kept here for the
/// bindings, which reach everything through this module.
pub fn version() -> &'static str {
    crate::version()
}
