//! Scenarios: TOML text -> overrides -> typed spec -> validated model -> built simulation.

pub mod app;
pub mod build;
pub mod fault;
pub mod flow;
pub mod instrument;
pub mod observe;
pub mod overrides;
pub mod phases;
pub mod spec;
pub mod switch_flow;
pub mod tcp;
pub mod template;
pub mod validate;

use crate::api::ScenarioError;

/// Parse scenario text, apply `key=value` overrides and the seed, and validate.
pub fn load(
    text: &str,
    overrides: &[(String, String)],
    seed: Option<u64>,
) -> Result<validate::Model, ScenarioError> {
    let mut doc: toml::Value = text
        .parse::<toml::Table>()
        .map_err(|e| ScenarioError {
            field: "toml".into(),
            reason: e.message().replace('\n', " ") + &line_of(text, e.span()),
        })?
        .into();
    for (k, v) in overrides {
        overrides::apply(&mut doc, k, v)?;
    }
    if let Some(s) = seed {
        overrides::apply(&mut doc, "simulation.seed", &s.to_string())?;
    }
    let spec: spec::ScenarioSpec = serde_path_to_error::deserialize(doc).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." { "scenario".to_string() } else { path };
        ScenarioError { field, reason: e.into_inner().to_string().replace('\n', " ").trim_end().to_string() }
    })?;
    validate::validate(spec)
}

fn line_of(text: &str, span: Option<std::ops::Range<usize>>) -> String {
    match span {
        Some(r) => format!(" (line {})", text[..r.start.min(text.len())].matches('\n').count() + 1),
        None => String::new(),
    }
}
