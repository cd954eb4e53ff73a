//! A connection's `app`: `"greedy"`, or a table naming the kind and its parameters.
//!
//! Read by hand rather than through serde's untagged enums so that each mistake is reported
//! against the exact key.

use toml::Value;

use super::validate::{bad, Check};
use crate::app::AppKind;
use crate::error::ScenarioError;
use crate::time::{CellPeriod, CELL_BITS};

const KINDS: &str = "\"greedy\", \"transfers\" or \"messages\"";

/// `access` is the cell period of the connection's first link: what a source can offer is
/// bounded by it (more could only queue in the host without limit).
pub fn app_of(v: Option<&Value>, path: &str, access: CellPeriod) -> Result<AppKind, ScenarioError> {
    let path = format!("{path}.app");
    let table = match v {
        None => return Ok(AppKind::Greedy),
        Some(Value::String(s)) if s == "greedy" => return Ok(AppKind::Greedy),
        Some(Value::String(s)) => {
            return Err(ScenarioError {
                field: path,
                reason: format!(
                    "unknown application `{s}` (a string must be \"greedy\"; the others are tables)"
                ),
            })
        }
        Some(Value::Table(t)) => t,
        Some(other) => {
            return Err(ScenarioError {
                field: path,
                reason: format!("expected \"greedy\" or a table, got a {}", other.type_str()),
            })
        }
    };
    let allowed: &[&str] = match table.get("kind").and_then(Value::as_str) {
        Some("greedy") => &["kind"],
        Some("transfers") => &["kind", "bytes", "mean_idle_s"],
        Some("messages") => &["kind", "mean_bytes", "rate_bps"],
        Some(k) => return Err(bad(&path, "kind", format!("unknown application `{k}`: use {KINDS}"))),
        None => return Err(bad(&path, "kind", format!("is required: {KINDS}"))),
    };
    if let Some(k) = table.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(bad(
            &path,
            k,
            format!("unknown field for this application, expected one of {allowed:?}"),
        ));
    }
    let num = |k: &str| -> Result<Option<f64>, ScenarioError> {
        match table.get(k) {
            None => Ok(None),
            Some(Value::Integer(i)) => Ok(Some(*i as f64)),
            Some(Value::Float(f)) => Ok(Some(*f)),
            Some(other) => Err(bad(&path, k, format!("expected a number, got a {}", other.type_str()))),
        }
    };
    let need =
        |k: &str| -> Result<f64, ScenarioError> { num(k)?.ok_or_else(|| bad(&path, k, "is required")) };
    let c = Check(&path);
    Ok(match table["kind"].as_str() {
        Some("transfers") => {
            let bytes = need("bytes")?;
            if !(bytes.is_finite() && (1.0..=1e15).contains(&bytes) && bytes.fract() == 0.0) {
                return Err(bad(
                    &path,
                    "bytes",
                    format!("must be a whole number of octets in 1..1e15, got {bytes}"),
                ));
            }
            let idle = need("mean_idle_s")?;
            c.non_negative_f64("mean_idle_s", idle)?;
            AppKind::Transfers { bytes: bytes as u64, mean_idle_s: idle }
        }
        Some("messages") => {
            let mean_bytes = need("mean_bytes")?;
            c.positive_f64("mean_bytes", Some(mean_bytes))?;
            // A message is at least one octet (the application rounds lengths up to 1).
            if mean_bytes < 1.0 {
                return Err(bad(&path, "mean_bytes", format!("must be at least 1 octet, got {mean_bytes}")));
            }
            let rate = need("rate_bps")?;
            c.positive_f64("rate_bps", Some(rate))?;
            // Offering more than the access link carries only grows the host's send buffer; and
            // more messages than cell slots per second is work (events) without any traffic.
            let cells_per_s = access.cells_per_s();
            let link_bps = cells_per_s * CELL_BITS as f64;
            if rate > link_bps {
                return Err(bad(
                    &path,
                    "rate_bps",
                    format!("must be at most the access link's rate ({link_bps:.0} bit/s), got {rate}"),
                ));
            }
            let per_s = rate / (8.0 * mean_bytes);
            if per_s > cells_per_s {
                return Err(bad(
                    &path,
                    "mean_bytes",
                    format!(
                        "gives {per_s:.3e} messages per second, more than the access link's {cells_per_s:.0} \
                         cells per second: raise mean_bytes or lower rate_bps"
                    ),
                ));
            }
            AppKind::Messages { mean_bytes, rate_bps: rate }
        }
        _ => AppKind::Greedy,
    })
}
