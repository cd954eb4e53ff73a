//! The one entry point the bindings and the CLI use: scenario text in, report out.
//!
//! - [`run_scenario_json`] parses the TOML scenario, applies the `--set key=value` overrides
//!   (dotted keys, values read as TOML literals, falling back to strings), builds the network,
//!   runs it and returns the report as one JSON document.
//! - Errors are [`ScenarioError`]`{ field, reason }`; `Display` gives the one line `field: reason`.
//! - `seed`, when given, replaces `simulation.seed`.

use std::fmt;
use std::time::Instant;

use crate::report::{report, Report};
use crate::scenario::{self, build::build};

/// A scenario that cannot be run, with the offending field (dotted path) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    pub field: String,
    pub reason: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl std::error::Error for ScenarioError {}

/// Parse, validate, build and run a scenario.
pub fn run_scenario(
    toml_text: &str,
    overrides: &[(String, String)],
    seed: Option<u64>,
) -> Result<Report, ScenarioError> {
    let model = scenario::load(toml_text, overrides, seed)?;
    let duration = model.duration;
    let mut built = build(model);
    let start = Instant::now();
    built.sim.run_until(duration);
    Ok(report(&built, start.elapsed().as_secs_f64()))
}

pub fn run_scenario_json(
    toml_text: &str,
    overrides: &[(String, String)],
    seed: Option<u64>,
) -> Result<String, ScenarioError> {
    let r = run_scenario(toml_text, overrides, seed)?;
    serde_json::to_string_pretty(&r)
        .map_err(|e| ScenarioError { field: "report".into(), reason: e.to_string() })
}

/// Engine version recorded with every result.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
