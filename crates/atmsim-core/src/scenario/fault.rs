//! `[[fault]]` tables: which port drops what, checked against the network it names.

use super::spec::FaultSpec;
use super::validate::{bad, Check, ModelConn};
use crate::error::ScenarioError;
use crate::time::{from_secs_f64, Time};

#[derive(Debug, Clone)]
pub enum ModelFaultRule {
    /// 1-based stream positions of full segments, each dropped `times` times.
    Segments {
        positions: Vec<u32>,
        times: u32,
    },
    Window {
        from: Time,
        to: Time,
    },
    Random {
        p: f64,
    },
    /// One data segment each time the sender's cwnd reaches `octets`.
    Cwnd {
        octets: u32,
    },
}

#[derive(Debug, Clone)]
pub struct ModelFault {
    /// (switch node, link) of the port.
    pub port: (usize, usize),
    pub conn: usize,
    pub acks: bool,
    pub rule: ModelFaultRule,
}

/// `port_of(name)` resolves a port name to its key; `conns` are the validated connections.
pub fn faults(
    specs: &[FaultSpec],
    port_of: impl Fn(&str) -> Option<(usize, usize)>,
    conns: &[ModelConn],
) -> Result<Vec<ModelFault>, ScenarioError> {
    let mut out = Vec::new();
    for (i, f) in specs.iter().enumerate() {
        let path = format!("fault[{i}]");
        let port = port_of(&f.port)
            .ok_or_else(|| bad(&path, "port", format!("no switch port named `{}`", f.port)))?;
        let conn = conns
            .iter()
            .position(|c| c.name == f.connection)
            .ok_or_else(|| bad(&path, "connection", format!("unknown connection `{}`", f.connection)))?;
        // The port must be on the connection's path in the direction of what is dropped.
        let c = &conns[conn];
        let crosses = (0..c.links.len()).any(|h| {
            let (from, link) = if f.acks { (c.path[h + 1], c.links[h]) } else { (c.path[h], c.links[h]) };
            (from, link) == port
        });
        if !crosses {
            let what = if f.acks { "ACKs" } else { "data" };
            return Err(bad(
                &path,
                "port",
                format!("`{}`'s {what} do not leave through `{}`", f.connection, f.port),
            ));
        }
        let given =
            [f.segments.is_some(), f.between_s.is_some(), f.loss_rate.is_some(), f.cwnd_octets.is_some()];
        if given.iter().filter(|&&g| g).count() != 1 {
            return Err(bad(
                &path,
                "segments",
                "give exactly one of segments, between_s, loss_rate or cwnd_octets",
            ));
        }
        if f.times.is_some() && f.segments.is_none() {
            return Err(bad(&path, "times", "applies only with segments"));
        }
        let rule = if let Some(segs) = &f.segments {
            if segs.is_empty() {
                return Err(bad(&path, "segments", "is empty"));
            }
            for (j, &k) in segs.iter().enumerate() {
                Check(&path).int_range(&format!("segments[{j}]"), Some(k), 1, u32::MAX as i64 / 65_536)?;
            }
            let times = f.times.unwrap_or(1);
            Check(&path).int_range("times", Some(times), 1, 1_000)?;
            ModelFaultRule::Segments {
                positions: segs.iter().map(|&k| k as u32).collect(),
                times: times as u32,
            }
        } else if let Some([a, b]) = f.between_s {
            Check(&path).non_negative_f64("between_s", a)?;
            if !(b.is_finite() && b > a) {
                return Err(bad(
                    &path,
                    "between_s",
                    format!("must be [from, to] with to > from, got [{a}, {b}]"),
                ));
            }
            ModelFaultRule::Window { from: from_secs_f64(a), to: from_secs_f64(b) }
        } else if let Some(w) = f.cwnd_octets {
            // Only data segments carry the sender's window.
            if f.acks {
                return Err(bad(&path, "cwnd_octets", "acts on data segments only, not with acks = true"));
            }
            Check(&path).int_range("cwnd_octets", Some(w), 1, u32::MAX as i64)?;
            ModelFaultRule::Cwnd { octets: w as u32 }
        } else {
            let p = f.loss_rate.unwrap_or(0.0);
            if !(0.0..=1.0).contains(&p) {
                return Err(bad(&path, "loss_rate", format!("must be a probability in [0, 1], got {p}")));
            }
            ModelFaultRule::Random { p }
        };
        out.push(ModelFault { port, conn, acks: f.acks, rule });
    }
    Ok(out)
}
