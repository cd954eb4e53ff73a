//! `--set key=value`: edit the parsed TOML document before it is read as a scenario.
//!
//! A key is a dotted path; numeric parts index arrays of tables (`connection.0.start_s`). The
//! value is read as a TOML literal (`5`, `0.9`, `true`, `"fba"`, `[1, 2]`); anything that does not
//! parse as one is taken as a string, so `--set n_source.policy=fba` works unquoted.

use toml::Value;

use crate::error::ScenarioError;

fn parse_value(raw: &str) -> Value {
    let doc = format!("v = {raw}");
    match doc.parse::<toml::Table>() {
        Ok(mut t) => t.remove("v").unwrap_or_else(|| Value::String(raw.to_string())),
        Err(_) => Value::String(raw.to_string()),
    }
}

pub fn apply(doc: &mut Value, key: &str, raw: &str) -> Result<(), ScenarioError> {
    let err = |reason: String| ScenarioError { field: key.to_string(), reason };
    let parts: Vec<&str> = key.split('.').collect();
    if key.is_empty() || parts.iter().any(|p| p.is_empty()) {
        return Err(err("empty key or empty part in a dotted key".into()));
    }
    let mut cur = doc;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        cur = match cur {
            Value::Table(t) => {
                if last {
                    t.insert(part.to_string(), parse_value(raw));
                    return Ok(());
                }
                t.entry(part.to_string()).or_insert_with(|| Value::Table(Default::default()))
            }
            Value::Array(a) => {
                let idx: usize =
                    part.parse().map_err(|_| err(format!("`{part}` must be an index into an array")))?;
                let len = a.len();
                let slot = a
                    .get_mut(idx)
                    .ok_or_else(|| err(format!("index {idx} out of range (array has {len} items)")))?;
                if last {
                    *slot = parse_value(raw);
                    return Ok(());
                }
                slot
            }
            _ => return Err(err(format!("`{}` is not a table or array", parts[..i].join(".")))),
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_nested_and_indexed_values() {
        let mut v: Value = "[a]\nx = 1\n[[c]]\nn = 'p'\n".parse::<toml::Table>().unwrap().into();
        apply(&mut v, "a.x", "2.5").unwrap();
        apply(&mut v, "a.y", "fba").unwrap();
        apply(&mut v, "c.0.n", "\"q\"").unwrap();
        apply(&mut v, "b.z", "true").unwrap();
        assert_eq!(v["a"]["x"].as_float(), Some(2.5));
        assert_eq!(v["a"]["y"].as_str(), Some("fba"));
        assert_eq!(v["c"][0]["n"].as_str(), Some("q"));
        assert_eq!(v["b"]["z"].as_bool(), Some(true));
        assert!(apply(&mut v, "c.3.n", "1").unwrap_err().reason.contains("out of range"));
        assert!(apply(&mut v, "a.x.q", "1").is_err());
        assert!(apply(&mut v, "a..x", "1").is_err());
    }
}
