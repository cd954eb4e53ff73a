//! Source controls and background traffic as a scenario writes them: a connection's `shaping`
//! (GCRA) and `abr` (PRCA or adaptive shaping) tables, and `[[background]]` sources.

use serde::Deserialize;

use super::validate::{bad, Check};
use crate::abr::{AdaptiveShaper, Prca};
use crate::error::ScenarioError;
use crate::net::{RateControl, Shaper};
use crate::time::{CellPeriod, Time, CELL_BITS, PS_PER_US};
use crate::traffic::Source;

/// GCRA shaping at the source adapter (the CLASS study, section 2).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShapingSpec {
    /// Shaping rate in bit/s of 53-octet cells (the CLASS study's "shaping at 50 Mbit/s").
    pub rate_bps: Option<f64>,
    /// Bandwidth allocation factor: shape at beta times the source's mean cell rate
    /// (background sources only).
    pub beta: Option<f64>,
    /// Cell delay variation tolerance tau (default 0).
    #[serde(default)]
    pub cdvt_us: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbrKind {
    Prca,
    Adaptive,
}

/// What the cell-level UPC does with a non-conforming cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UpcAction {
    /// Set CLP = 1 (the buffer policy may then treat it apart).
    Tag,
    /// Discard it (counted as `upc` in the port's drops).
    Drop,
}

/// Cell-level usage parameter control of a VC: GCRA(1 / PCR, CDVT) at a switch's ingress.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpcSpec {
    /// The contract's peak cell rate, in bit/s of 53-octet cells.
    pub pcr_bps: f64,
    /// Cell delay variation tolerance tau (default 0).
    #[serde(default)]
    pub cdvt_us: f64,
    /// What to do with a non-conforming cell: `"tag"` or `"drop"`.
    pub action: UpcAction,
    /// The switch where the VC is policed (default: the first switch of its route).
    pub switch: Option<String>,
}

/// A cell-level UPC after validation.
#[derive(Debug, Clone, Copy)]
pub struct ModelUpc {
    /// GCRA increment and limit, picoseconds.
    pub t: Time,
    pub tau: Time,
    pub drop: bool,
    /// Position of the policing switch in the VC's route.
    pub hop: usize,
}

/// A VC's `upc` table, for a route of node indices `route` (names `names`).
pub fn upc_of(
    u: &UpcSpec,
    route: &[usize],
    names: &[String],
    is_switch: &dyn Fn(usize) -> bool,
    path: &str,
) -> Result<ModelUpc, ScenarioError> {
    let up = format!("{path}.upc");
    let pcr = rate(&up, "pcr_bps", u.pcr_bps)?;
    Check(&up).non_negative_f64("cdvt_us", u.cdvt_us)?;
    if u.cdvt_us > 1e6 {
        return Err(bad(&up, "cdvt_us", "must be at most 1 s"));
    }
    let inner = &route[1..route.len() - 1];
    let hop = match &u.switch {
        None => {
            if inner.is_empty() {
                return Err(bad(&up, "switch", "the route has no switch to police at"));
            }
            1
        }
        Some(name) => match inner.iter().position(|&n| names[n] == *name && is_switch(n)) {
            Some(i) => i + 1,
            None => return Err(bad(&up, "switch", format!("`{name}` is not a switch on the route"))),
        },
    };
    let t = crate::conformance::increment(pcr / 424.0);
    Ok(ModelUpc {
        t,
        tau: (u.cdvt_us * PS_PER_US as f64).round() as Time,
        drop: u.action == UpcAction::Drop,
        hop,
    })
}

/// Rate-based source control. Rates in bit/s of cells (424 bits each).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbrSpec {
    /// Which source control: `"prca"` or `"adaptive"`.
    pub kind: AbrKind,
    /// RM cell every `nrm` data cells (default 32, both studies).
    pub nrm: Option<i64>,
    /// PRCA peak cell rate, the most the source may send (default 12 Mb/s; PRCA defaults are
    /// the credit/rate study's, section III.E).
    pub pcr_bps: Option<f64>,
    /// PRCA minimum cell rate, below which the allowed rate never falls (default 0.5 Mb/s).
    pub mcr_bps: Option<f64>,
    /// PRCA additive increase on each RM cell returned without congestion (default 3.2 Mb/s).
    pub air_bps: Option<f64>,
    /// PRCA multiplicative decrease factor: the allowed rate falls by ACR / 2^MDF after every
    /// cell (default 5).
    pub mdf: Option<i64>,
    /// PRCA initial cell rate (default: the PCR).
    pub icr_bps: Option<f64>,
    /// Adaptive shaping: the highest rate C / N_S may take (default C, the access link rate).
    pub max_rate_bps: Option<f64>,
    /// Adaptive shaping: the lowest rate C / N_S may take (default C / 10000).
    pub min_rate_bps: Option<f64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SourceSpec {
    /// The credit/rate study's VBR source: exponential ON periods at the peak (user bit rate,
    /// 48 octets per cell) with mean `mean_burst_bytes`, OFF periods making peak / mean =
    /// `burstiness`.
    OnOff { peak_bps: f64, mean_burst_bytes: f64, burstiness: f64 },
    /// The CLASS study's background: Poisson messages of truncated geometric length in cells,
    /// AAL3/4 (44 user octets per cell), `user_bps` of user data on average.
    Poisson {
        user_bps: f64,
        #[serde(default = "default_mean_cells")]
        mean_cells: f64,
        #[serde(default = "default_max_cells")]
        max_cells: i64,
    },
    /// One cell every 424 / rate_bps seconds.
    Cbr { rate_bps: f64 },
}

fn default_mean_cells() -> f64 {
    20.0
}
fn default_max_cells() -> i64 {
    200
}

/// One `[[background]]` table: a non-TCP source of cells over a one-way route.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackgroundSpec {
    /// Name in the report (`background[]`).
    pub name: String,
    /// Host, switches, host: as a connection's route (cells flow one way only).
    pub route: Vec<String>,
    /// When the source starts, in seconds from the start (default 0).
    #[serde(default)]
    pub start_s: f64,
    /// That many identical, independent sources (named `name.1`, `name.2`, ...; default 1).
    pub count: Option<i64>,
    /// Served first at priority ports.
    #[serde(default)]
    pub guaranteed: bool,
    /// The traffic model: `{ kind = "cbr" | "on_off" | "poisson", ... }`.
    pub source: SourceSpec,
    /// GCRA shaping of the source at its host's adapter.
    pub shaping: Option<ShapingSpec>,
    /// Cell-level UPC of the source's VC.
    pub upc: Option<UpcSpec>,
}

/// A background source after validation (one per `count`).
#[derive(Debug, Clone)]
pub struct ModelBackground {
    pub name: String,
    pub path: Vec<usize>,
    pub links: Vec<usize>,
    pub start: Time,
    pub source: Source,
    /// Pacing of its cells at the adapter (`None`: back to back at the line rate).
    pub shaper: Option<Shaper>,
    pub guaranteed: bool,
    pub upc: Option<ModelUpc>,
}

/// A TCP connection's source control: its adapter queue's pacing and rate control.
#[derive(Debug, Clone)]
pub struct ModelPacing {
    pub shaper: Option<Shaper>,
    pub rate: RateControl,
}

const MAX_RATE_BPS: f64 = 1e12;

/// A key of an `abr` table and whether the scenario gave it.
type KeyGiven<'a> = (&'a str, bool);

fn rate(path: &str, field: &str, v: f64) -> Result<f64, ScenarioError> {
    if !(v.is_finite() && v > 0.0 && v <= MAX_RATE_BPS) {
        return Err(bad(path, field, format!("must be a rate in (0, {MAX_RATE_BPS:e}] bit/s, got {v}")));
    }
    Ok(v)
}

fn cdvt(path: &str, s: &ShapingSpec) -> Result<f64, ScenarioError> {
    Check(path).non_negative_f64("cdvt_us", s.cdvt_us)?;
    if s.cdvt_us > 1e6 {
        return Err(bad(path, "cdvt_us", "must be at most 1 s"));
    }
    Ok(s.cdvt_us * PS_PER_US as f64)
}

/// A connection's `shaping` and `abr` tables; `access` is its access link's cell period.
pub fn pacing_of(
    shaping: Option<&ShapingSpec>,
    abr: Option<&AbrSpec>,
    access: CellPeriod,
    path: &str,
) -> Result<Option<ModelPacing>, ScenarioError> {
    let link_bps = access.cells_per_s() * CELL_BITS as f64;
    match (shaping, abr) {
        (None, None) => Ok(None),
        (Some(_), Some(_)) => Err(bad(
            path,
            "shaping",
            "cannot be combined with abr (abr sets the rate; shaping is a fixed rate)",
        )),
        (Some(s), None) => {
            let sp = format!("{path}.shaping");
            if s.beta.is_some() {
                return Err(bad(
                    &sp,
                    "beta",
                    "applies to background sources (a TCP connection has no mean rate): use rate_bps",
                ));
            }
            let r = rate(&sp, "rate_bps", s.rate_bps.ok_or_else(|| bad(&sp, "rate_bps", "is required"))?)?;
            Ok(Some(ModelPacing {
                shaper: Some(Shaper::at_rate(r, cdvt(&sp, s)?)),
                rate: RateControl::Fixed,
            }))
        }
        (None, Some(a)) => {
            let ap = format!("{path}.abr");
            let c = Check(&ap);
            c.int_range("nrm", a.nrm, 1, 1_000_000)?;
            let nrm = a.nrm.unwrap_or(32) as u32;
            let (prca_only, adaptive_only): (&[KeyGiven], &[KeyGiven]) = (
                &[
                    ("pcr_bps", a.pcr_bps.is_some()),
                    ("mcr_bps", a.mcr_bps.is_some()),
                    ("air_bps", a.air_bps.is_some()),
                    ("mdf", a.mdf.is_some()),
                    ("icr_bps", a.icr_bps.is_some()),
                ],
                &[("max_rate_bps", a.max_rate_bps.is_some()), ("min_rate_bps", a.min_rate_bps.is_some())],
            );
            let foreign = if a.kind == AbrKind::Prca { adaptive_only } else { prca_only };
            if let Some((f, _)) = foreign.iter().find(|x| x.1) {
                return Err(bad(&ap, f, format!("does not apply to kind {:?}", a.kind).to_lowercase()));
            }
            match a.kind {
                AbrKind::Prca => {
                    let g = Prca::gerla();
                    let pcr = rate(&ap, "pcr_bps", a.pcr_bps.unwrap_or(g.pcr))?;
                    let mcr = rate(&ap, "mcr_bps", a.mcr_bps.unwrap_or(g.mcr))?;
                    let air = a.air_bps.unwrap_or(g.air);
                    c.non_negative_f64("air_bps", air)?;
                    c.int_range("mdf", a.mdf, 0, 30)?;
                    let icr = rate(&ap, "icr_bps", a.icr_bps.unwrap_or(pcr))?;
                    if mcr > pcr {
                        return Err(bad(&ap, "mcr_bps", format!("must not exceed pcr_bps ({pcr})")));
                    }
                    if !(mcr..=pcr).contains(&icr) {
                        return Err(bad(&ap, "icr_bps", "must lie between mcr_bps and pcr_bps".to_string()));
                    }
                    let p = Prca::new(pcr, mcr, air, a.mdf.map_or(g.mdf, |m| m as u32), nrm, icr);
                    let shaper = Shaper::at_rate(p.acr, 0.0);
                    Ok(Some(ModelPacing { shaper: Some(shaper), rate: RateControl::Prca(p) }))
                }
                AbrKind::Adaptive => {
                    let max = rate(&ap, "max_rate_bps", a.max_rate_bps.unwrap_or(link_bps))?;
                    let min = rate(&ap, "min_rate_bps", a.min_rate_bps.unwrap_or(link_bps / 10_000.0))?;
                    if min > max {
                        return Err(bad(&ap, "min_rate_bps", "must not exceed max_rate_bps"));
                    }
                    // Allowed rates are C / N_S: the fastest not above max_rate, the slowest
                    // not below min_rate.
                    let n_min = (link_bps / max * (1.0 - 1e-12)).ceil().max(1.0) as u32;
                    let n_max = ((link_bps / min) * (1.0 + 1e-12)).floor().max(n_min as f64) as u32;
                    let shaper = AdaptiveShaper::bounded(n_min, n_max);
                    let t = n_min as f64 * access.num as f64 / access.den as f64;
                    let rc = RateControl::Adaptive { shaper, nrm, since_rm: 0 };
                    Ok(Some(ModelPacing { shaper: Some(Shaper::new(t, 0.0)), rate: rc }))
                }
            }
        }
    }
}

/// A background table's source and pacing (the route is resolved by the caller).
pub fn source_of(b: &BackgroundSpec, path: &str) -> Result<(Source, Option<Shaper>), ScenarioError> {
    let sp = format!("{path}.source");
    let c = Check(&sp);
    let source = match b.source {
        SourceSpec::OnOff { peak_bps, mean_burst_bytes, burstiness } => {
            rate(&sp, "peak_bps", peak_bps)?;
            c.positive_f64("mean_burst_bytes", Some(mean_burst_bytes))?;
            if !(burstiness.is_finite() && burstiness >= 1.0) {
                return Err(bad(
                    &sp,
                    "burstiness",
                    format!("must be at least 1 (peak / mean), got {burstiness}"),
                ));
            }
            Source::on_off(peak_bps, mean_burst_bytes, burstiness)
        }
        SourceSpec::Poisson { user_bps, mean_cells, max_cells } => {
            rate(&sp, "user_bps", user_bps)?;
            c.int_range("max_cells", Some(max_cells), 1, 100_000)?;
            if !(mean_cells.is_finite() && mean_cells >= 1.0 && mean_cells < max_cells as f64) {
                return Err(bad(
                    &sp,
                    "mean_cells",
                    format!("must be in [1, max_cells = {max_cells}), got {mean_cells}"),
                ));
            }
            // The geometric law truncated to 1..=max_cells has a mean below that of the uniform
            // law on 1..=max_cells, whatever its parameter: a larger mean cannot be fitted (the
            // parameter would go to its floor and each length take ~1e9 / max_cells draws).
            let reachable = (max_cells as f64 + 1.0) / 2.0;
            if mean_cells >= reachable {
                return Err(bad(
                    &sp,
                    "mean_cells",
                    format!(
                        "must be below (max_cells + 1) / 2 = {reachable}, the largest mean of lengths \
                         truncated to 1..={max_cells}, got {mean_cells}"
                    ),
                ));
            }
            Source::messages(user_bps, mean_cells, max_cells as u32, 0)
        }
        SourceSpec::Cbr { rate_bps } => {
            rate(&sp, "rate_bps", rate_bps)?;
            Source::Cbr { period: (424e12 / rate_bps).round().max(1.0) as Time }
        }
    };
    let shaper = match &b.shaping {
        None => match source {
            // The ON period's cells leave at the peak rate.
            Source::OnOff { peak_period, .. } => Some(Shaper::new(peak_period as f64, 0.0)),
            _ => None,
        },
        Some(s) => {
            let hp = format!("{path}.shaping");
            let tau = cdvt(&hp, s)?;
            let bps = match (s.rate_bps, s.beta) {
                (Some(_), Some(_)) => return Err(bad(&hp, "beta", "give either rate_bps or beta, not both")),
                (None, None) => return Err(bad(&hp, "rate_bps", "is required (or beta)")),
                (Some(r), None) => rate(&hp, "rate_bps", r)?,
                (None, Some(beta)) => {
                    if !(beta.is_finite() && beta > 0.0 && beta <= 1e6) {
                        return Err(bad(&hp, "beta", format!("must be positive, got {beta}")));
                    }
                    beta * source.mean_cells_per_s() * CELL_BITS as f64
                }
            };
            Some(Shaper::at_rate(bps, tau))
        }
    };
    Ok((source, shaper))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abr(kind: AbrKind) -> AbrSpec {
        AbrSpec {
            kind,
            nrm: None,
            pcr_bps: None,
            mcr_bps: None,
            air_bps: None,
            mdf: None,
            icr_bps: None,
            max_rate_bps: None,
            min_rate_bps: None,
        }
    }

    #[test]
    fn adaptive_rates_divide_the_access_link() {
        // 150 Mb/s access, at most 50 Mb/s: N_S starts at 3 (the CLASS study's 50, 37.5, 30, 25...).
        let access = CellPeriod::from_bps(150_000_000);
        let mut a = abr(AbrKind::Adaptive);
        a.max_rate_bps = Some(50e6);
        let p = pacing_of(None, Some(&a), access, "c").unwrap().unwrap();
        let RateControl::Adaptive { shaper, nrm, .. } = p.rate else { panic!() };
        assert_eq!((shaper.n_s, nrm), (3, 32));
        let t = p.shaper.unwrap().t;
        assert!((t - 3.0 * 424e12 / 150e6).abs() < 1e-3, "{t}");
    }

    #[test]
    fn prca_defaults_are_the_studys() {
        let p = pacing_of(None, Some(&abr(AbrKind::Prca)), CellPeriod::from_bps(155_520_000), "c")
            .unwrap()
            .unwrap();
        let RateControl::Prca(p) = p.rate else { panic!() };
        assert_eq!((p.pcr, p.mcr, p.air, p.mdf, p.nrm), (12e6, 0.5e6, 3.2e6, 5, 32));
    }

    #[test]
    fn shaping_with_beta_is_beta_times_the_mean_rate() {
        let b = BackgroundSpec {
            name: "bg".into(),
            route: vec![],
            start_s: 0.0,
            count: None,
            guaranteed: false,
            source: SourceSpec::Poisson { user_bps: 4.4e6, mean_cells: 20.0, max_cells: 200 },
            shaping: Some(ShapingSpec { rate_bps: None, beta: Some(1.2), cdvt_us: 0.0 }),
            upc: None,
        };
        let (_, s) = source_of(&b, "background[0]").unwrap();
        // 4.4 Mb/s of user data = 12500 cells/s; 1.2 times that = 15000 cells/s.
        let t = s.unwrap().t;
        assert!((t - 1e12 / 15_000.0).abs() / t < 1e-6, "{t}");
    }
}
