//! Scenarios: TOML text -> overrides -> typed spec -> validated model -> built simulation.

pub(crate) mod app;
#[doc(hidden)]
pub mod build;
pub(crate) mod fault;
pub(crate) mod flow;
pub(crate) mod instrument;
pub(crate) mod observe;
pub(crate) mod overrides;
#[doc(hidden)]
pub mod phases;
pub mod spec;
pub(crate) mod switch_flow;
pub(crate) mod tcp;
pub(crate) mod template;
#[doc(hidden)]
pub mod validate;

use crate::error::ScenarioError;

/// The `[engine]` table's switches, one per fast path (each `true` by default; `false` keeps
/// that path closed, never changing a result): the differential tests iterate them.
pub const ENGINE_SWITCHES: &[&str] = crate::net::EnginePaths::NAMES;

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
    let spec: spec::ScenarioSpec = serde_path_to_error::deserialize(doc.clone()).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." { "scenario".to_string() } else { path };
        let reason = e.into_inner().to_string().replace('\n', " ").trim_end().to_string();
        let reason = in_user_terms(&doc, &field, reason);
        ScenarioError { field, reason }
    })?;
    validate::validate(spec)
}

/// Serde's wording names Rust types ("untagged enum BufferSize", "struct NSourceSpec", "unit
/// variant"); say instead what the file should hold.
fn in_user_terms(doc: &toml::Value, field: &str, reason: String) -> String {
    let (head, tail) = match reason.rfind(" in `") {
        Some(i) => reason.split_at(i),
        None => (reason.as_str(), ""),
    };
    let got = value_at(doc, field).map(describe).unwrap_or_default();
    let plain = if head.contains("untagged enum BufferSize") {
        format!("expected an integer number of cells or \"infinite\"{got}")
    } else if let Some(i) = head.find("expected struct ") {
        format!("{}expected a table", &head[..i])
    } else if head.contains("unit variant, expected string only") {
        // Put a string that no variant has where the value was: serde then lists the names.
        let mut probe = doc.clone();
        let names = overrides::apply(&mut probe, &dotted(field), "\"\u{1}\"")
            .ok()
            .and_then(|()| serde_path_to_error::deserialize::<_, spec::ScenarioSpec>(probe).err())
            .map(|e| e.into_inner().to_string())
            .and_then(|r| {
                // "unknown variant `\u{1}`, expected `a` or `b`" (or "expected one of ...").
                let after = &r[r.find("unknown variant")?..];
                let list = &after[after.find("expected")?..];
                Some(
                    list.split(['\n'])
                        .next()
                        .unwrap_or(list)
                        .split(" in `")
                        .next()
                        .unwrap_or(list)
                        .to_string(),
                )
            });
        match names {
            Some(n) => format!("{n}{got}"),
            None => format!("expected a name (a string){got}"),
        }
    } else {
        return reason;
    };
    plain + tail
}

/// `port[0].policy` (serde's path) as a `--set` key, `port.0.policy`.
fn dotted(field: &str) -> String {
    field.replace('[', ".").replace(']', "")
}

fn value_at<'a>(doc: &'a toml::Value, field: &str) -> Option<&'a toml::Value> {
    let mut cur = doc;
    for part in dotted(field).split('.') {
        cur = match cur {
            toml::Value::Table(t) => t.get(part)?,
            toml::Value::Array(a) => a.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// ", got the integer 3" and the like (the value, shown short).
fn describe(v: &toml::Value) -> String {
    let shown = match v {
        toml::Value::Table(_) => "a table".to_string(),
        toml::Value::Array(_) => "an array".to_string(),
        toml::Value::String(s) if s.chars().count() > 40 => "a long string".to_string(),
        other => format!("{} {other}", other.type_str()),
    };
    format!(", got {shown}")
}

fn line_of(text: &str, span: Option<std::ops::Range<usize>>) -> String {
    match span {
        Some(r) => format!(" (line {})", text[..r.start.min(text.len())].matches('\n').count() + 1),
        None => String::new(),
    }
}
