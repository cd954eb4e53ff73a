//! The one error a scenario can cause: the offending field, as a dotted path into the file
//! (`link[0].rate_bps`, `n_source.sources`, `--set`), and the reason in the user's terms.
//!
//! It lives apart from [`crate::api`] so that the scenario modules, which produce it, do not
//! depend on the entry point that consumes them.

use std::fmt;

/// A scenario that cannot be run, with the offending field (dotted path) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// Dotted path of the field in the scenario (or the option that gave it).
    pub field: String,
    /// Why the value is refused, and what is expected instead.
    pub reason: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl std::error::Error for ScenarioError {}
