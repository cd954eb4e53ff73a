//! Differential testing of the engine's fast paths against its per-cell reference.
//!
//! The engine has many optimised routes for a cell (committed departures, trains, busy,
//! interleaved and paired passes, host batches, ...). Every one of them must give exactly the
//! report of the per-cell reference (`[engine] schedule = "reference"`), event counts included.
//! This module holds what the differential suite (`tests/differential.rs`) and the fuzz target
//! (`fuzz/fuzz_targets/scenario.rs`) share:
//!
//! - [`engine_settings`]: the `[engine]` settings compared against the reference, each as the
//!   body of an `[engine]` table in TOML;
//! - [`reference_setting`]: the reference's own `[engine]` body;
//! - [`run_setting`]: a scenario's report under one setting, as a JSON value without its wall time;
//! - [`first_difference`]: the first field (a dotted path) where two reports differ;
//! - [`conservation_break`]: a port whose tally does not balance, or the network's;
//! - [`compare_with_reference`]: all of it for one scenario, every setting.
//!
//! A setting's keys are applied as `--set engine.KEY=VALUE` overrides, so they replace the
//! scenario's own `[engine]` keys one by one and leave its other keys as written.

use serde_json::Value;

use crate::error::ScenarioError;
use crate::report::report;
use crate::scenario::{self, build::build};
use crate::time::Time;

/// The reference: the per-cell schedule, every fast path off.
pub fn reference_setting() -> String {
    let mut s = String::from("schedule = \"reference\"\n");
    for k in crate::scenario::ENGINE_SWITCHES {
        s += &format!("{k} = false\n");
    }
    s
}

/// The settings compared against [`reference_setting`], each the body of an `[engine]` table:
/// the default (every fast path on, the lookahead schedule), each switch of
/// [`crate::scenario::ENGINE_SWITCHES`] off alone, and all of them off together.
pub fn engine_settings() -> Vec<String> {
    // The schedule is named in every setting, so a scenario's own `[engine]` table (a fuzz
    // input's) cannot turn the fast paths off.
    let mut settings = vec!["schedule = \"lookahead\"\n".to_string()];
    let switches = crate::scenario::ENGINE_SWITCHES;
    for k in switches {
        settings.push(format!("schedule = \"lookahead\"\n{k} = false\n"));
    }
    let all_off: String = switches.iter().map(|k| format!("{k} = false\n")).collect();
    settings.push(format!("schedule = \"lookahead\"\n{all_off}"));
    settings
}

/// `key = value` lines of an `[engine]` body as `--set engine.key=value` overrides.
fn overrides(setting: &str) -> Vec<(String, String)> {
    let table: toml::Table = setting.parse().unwrap_or_else(|e| panic!("engine setting `{setting}`: {e}"));
    table.into_iter().map(|(k, v)| (format!("engine.{k}"), v.to_string())).collect()
}

/// The report of `text` under one `[engine]` setting, as JSON without the wall time; run to
/// `end` (picoseconds) if given, else for the scenario's duration. Packet captures are not
/// recorded (as [`crate::api::run_scenario`]).
pub fn run_setting(text: &str, setting: &str, end: Option<Time>) -> Result<Value, ScenarioError> {
    let mut model = scenario::load(text, &overrides(setting), None)?;
    model.observe.capture.points.clear();
    let end = end.unwrap_or(model.duration);
    let mut built = build(model);
    built.sim.run_until(end);
    let mut v = serde_json::to_value(report(&built, 0.0))
        .map_err(|e| ScenarioError { field: "report".into(), reason: e.to_string() })?;
    if let Some(o) = v.as_object_mut() {
        o.remove("wall_s");
    }
    Ok(v)
}

/// Where two JSON values first differ (depth first, in document order), with both values
/// shown; `None` if they are equal. Numbers are compared exactly.
pub fn first_difference(reference: &Value, got: &Value) -> Option<Difference> {
    fn walk(path: &mut String, a: &Value, b: &Value) -> Option<Difference> {
        let here = |path: &String| Difference {
            field: if path.is_empty() { "(report)".into() } else { path.clone() },
            reference: short(a),
            got: short(b),
        };
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (k, va) in x {
                    let len = path.len();
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                    let d = match y.get(k) {
                        Some(vb) => walk(path, va, vb),
                        None => Some(Difference {
                            field: path.clone(),
                            reference: short(va),
                            got: "(absent)".into(),
                        }),
                    };
                    if d.is_some() {
                        return d;
                    }
                    path.truncate(len);
                }
                y.keys().find(|k| !x.contains_key(*k)).map(|k| Difference {
                    field: if path.is_empty() { k.clone() } else { format!("{path}.{k}") },
                    reference: "(absent)".into(),
                    got: short(&y[k]),
                })
            }
            (Value::Array(x), Value::Array(y)) => {
                for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    if let Some(d) = walk(path, va, vb) {
                        return Some(d);
                    }
                    path.truncate(len);
                }
                (x.len() != y.len()).then(|| Difference {
                    field: format!("{path}.len()"),
                    reference: x.len().to_string(),
                    got: y.len().to_string(),
                })
            }
            _ if a == b => None,
            _ => Some(here(path)),
        }
    }
    walk(&mut String::new(), reference, got)
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 200 {
        s.chars().take(200).collect::<String>() + "..."
    } else {
        s
    }
}

/// The first field where a report differs from the reference's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// Dotted path into the report (`ports[2].cells_out`, `events`).
    pub field: String,
    /// The reference's value there (JSON, cut at 200 characters).
    pub reference: String,
    /// The setting's value there.
    pub got: String,
}

/// One setting whose report differs from the reference's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The `[engine]` body of the setting (empty: the default).
    pub setting: String,
    /// Where its report first differs.
    pub difference: Difference,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let setting = if self.setting.is_empty() {
            "(default)".to_string()
        } else {
            self.setting.trim().replace('\n', "; ")
        };
        let d = &self.difference;
        write!(f, "[engine] {setting}: {} = {}, reference {}", d.field, d.got, d.reference)
    }
}

/// Where a report breaks the conservation of cells: the first port whose tally does not
/// balance (`cells_in = cells_out + cells_dropped + final_queue_cells`: every cell a port took
/// was sent, dropped or is still there), else the network's identity
/// (`summary.conservation.balanced`); `None` if both hold. A path that forgot to count a cell
/// it took, sent or dropped breaks the first, even where every path forgot it alike (which
/// [`first_difference`] cannot see). `reference` shows the balancing sum, `got` the count.
pub fn conservation_break(report: &Value) -> Option<Difference> {
    let ports = report["ports"].as_array().map(Vec::as_slice).unwrap_or_default();
    for (i, p) in ports.iter().enumerate() {
        let n = |k: &str| p[k].as_u64().unwrap_or_else(|| panic!("ports[{i}].{k} is a count"));
        let left = n("cells_out") + n("cells_dropped") + n("final_queue_cells");
        if n("cells_in") != left {
            return Some(Difference {
                field: format!("ports[{i}].cells_in (= cells_out + cells_dropped + final_queue_cells)"),
                reference: left.to_string(),
                got: n("cells_in").to_string(),
            });
        }
    }
    let c = &report["summary"]["conservation"];
    (c["balanced"] != Value::Bool(true)).then(|| Difference {
        field: "summary.conservation.balanced".into(),
        reference: "true".into(),
        got: short(c),
    })
}

/// Run `text` under the reference and under each of `settings` (to `end` if given): the
/// reference's report and every setting whose report differs, with its first differing field,
/// or whose report (the reference's included, named by [`reference_setting`]) breaks the
/// conservation of cells ([`conservation_break`]). An error if the scenario does not load.
pub fn compare_with_reference(
    text: &str,
    settings: &[String],
    end: Option<Time>,
) -> Result<(Value, Vec<Mismatch>), ScenarioError> {
    let reference = run_setting(text, &reference_setting(), end)?;
    let mut out = Vec::new();
    if let Some(difference) = conservation_break(&reference) {
        out.push(Mismatch { setting: reference_setting(), difference });
    }
    for s in settings {
        let got = run_setting(text, s, end)?;
        if let Some(difference) = first_difference(&reference, &got).or_else(|| conservation_break(&got)) {
            out.push(Mismatch { setting: s.clone(), difference });
        }
    }
    Ok((reference, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_difference_names_the_first_differing_field() {
        let a: Value = serde_json::json!({"events": 5, "ports": [{"cells_in": 1}, {"cells_in": 2}]});
        assert_eq!(first_difference(&a, &a), None);
        let mut b = a.clone();
        b["ports"][1]["cells_in"] = 3.into();
        let d = first_difference(&a, &b).unwrap();
        assert_eq!((d.field.as_str(), d.reference.as_str(), d.got.as_str()), ("ports[1].cells_in", "2", "3"));
        b["events"] = 6.into();
        assert_eq!(first_difference(&a, &b).unwrap().field, "events");
        let mut c = a.clone();
        c["ports"].as_array_mut().unwrap().pop();
        assert_eq!(first_difference(&a, &c).unwrap().field, "ports.len()");
        let mut d = a.clone();
        d["extra"] = 1.into();
        assert_eq!(first_difference(&a, &d).unwrap().field, "extra");
        // Floats are compared exactly.
        let (x, y) = (serde_json::json!({"g": 0.1}), serde_json::json!({"g": 0.1_f64.next_up()}));
        assert!(first_difference(&x, &y).is_some());
    }

    #[test]
    fn conservation_break_names_the_first_unbalanced_port() {
        let port = |cells_in: u64| serde_json::json!({"cells_in": cells_in, "cells_out": 5, "cells_dropped": 2, "final_queue_cells": 1});
        let mut r = serde_json::json!({
            "ports": [port(8), port(8)],
            "summary": {"conservation": {"balanced": true}},
        });
        assert_eq!(conservation_break(&r), None);
        r["ports"][1] = port(9);
        let d = conservation_break(&r).unwrap();
        assert!(d.field.starts_with("ports[1].cells_in"), "{}", d.field);
        assert_eq!((d.reference.as_str(), d.got.as_str()), ("8", "9"));
        r["ports"][1] = port(8);
        r["summary"]["conservation"]["balanced"] = false.into();
        assert_eq!(conservation_break(&r).unwrap().field, "summary.conservation.balanced");
    }

    #[test]
    fn settings_are_engine_tables_the_loader_accepts() {
        let text = "[simulation]\nduration_s = 0.001\n[n_source]\nsources = 1\nconfig = \"LAN\"\n\
                    buffer_cells = 100\npolicy = \"tail_drop\"\n";
        for s in engine_settings().iter().chain([&reference_setting()]) {
            scenario::load(text, &overrides(s), None).unwrap_or_else(|e| panic!("`{s}`: {e}"));
        }
        assert!(compare_with_reference(text, &engine_settings(), None).unwrap().1.is_empty());
    }
}
