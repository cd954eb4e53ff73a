//! The one entry point the bindings and the CLI use: scenario text in, report out.
//!
//! CONTRACT (stable, used by crates/atmsim-py):
//! - `run_scenario_json(toml_text, overrides, seed)` parses the TOML scenario, applies the
//!   `--set key=value` overrides (dotted keys, values parsed as TOML literals, falling back to
//!   strings), builds the network, runs it and returns the report as one JSON document.
//! - Errors are `ScenarioError { field, reason }`; `Display` gives the one-line `field: reason`.
//! - `seed`, when given, replaces `simulation.seed`.

use std::fmt;

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

pub fn run_scenario_json(
    toml_text: &str,
    overrides: &[(String, String)],
    seed: Option<u64>,
) -> Result<String, ScenarioError> {
    let _ = (toml_text, overrides, seed);
    Err(ScenarioError { field: "engine".into(), reason: "core not built yet".into() })
}

/// Engine version recorded with every result.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
