//! The UBR+ study's N-source configuration (its Figure 2) written out in the general form:
//! `src1..srcN -> sw1 -> sw2 -> dst1..dstN`, every link at the same rate and delay, every switch
//! port with the same buffer and policy, one greedy TCP per source-destination pair, all starting
//! together with no randomness (section 3.1).

use super::spec::*;

/// Line rate of the study: 155.52 Mb/s (OC-3c, as the paper counts it: all of it for cells).
pub const OC3_BPS: u64 = 155_520_000;
/// Link delays of section 3.1.
pub const LAN_DELAY_US: f64 = 5.0;
pub const WAN_DELAY_US: f64 = 5_000.0;
/// WAN receive window, with window scaling (section 3.1).
pub const WAN_WINDOW: i64 = 600_000;
/// EPD threshold below the buffer size: room for one 12-cell frame from each of 15 sources.
pub const EPD_HEADROOM: i64 = 200;

/// Expand a validated template into nodes, links, ports and connections.
pub fn expand(t: &NSourceSpec, spec: &mut ScenarioSpec) {
    let n = t.sources as usize;
    let delay_us = t.link_delay_us.unwrap_or(match t.config {
        LanWan::LAN => LAN_DELAY_US,
        LanWan::WAN => WAN_DELAY_US,
    });
    let rate = t.rate_bps.unwrap_or(OC3_BPS);
    // The tick of the preset the user's table names (a timer phase must stay below it).
    let preset = super::tcp::preset(t.tcp.as_ref().and_then(|x| x.preset));
    let preset_tick_ms = preset.tick as f64 / crate::time::PS_PER_MS as f64;
    let tick_ms = t.tcp.as_ref().and_then(|x| x.tick_ms).unwrap_or(preset_tick_ms);
    let node = |name: String, kind| NodeSpec { name, kind };
    let link = |a: &str, b: &str| LinkSpec {
        ends: [a.to_string(), b.to_string()],
        rate_bps: Some(rate),
        rate_cells_per_s: None,
        delay_us,
    };
    let k = match t.buffer_cells {
        BufferSize::Cells(k) => Some(k),
        BufferSize::Named(_) => None,
    };
    let policy = PolicySpec {
        kind: t.policy,
        threshold_cells: match t.policy {
            PolicyKind::Epd => Some(t.epd_threshold_cells.unwrap_or_else(|| k.unwrap_or(0) - EPD_HEADROOM)),
            _ => None,
        },
        r_cells: match t.policy {
            PolicyKind::SelectiveDrop | PolicyKind::Fba => k.map(|k| (t.r * k as f64).round() as i64),
            _ => None,
        },
        z: match t.policy {
            PolicyKind::SelectiveDrop | PolicyKind::Fba => Some(t.z),
            _ => None,
        },
        lbo_cells: None,
        hbo_cells: None,
    };
    let port = |node: &str, toward: &str| PortSpec {
        node: node.to_string(),
        toward: toward.to_string(),
        buffer_cells: t.buffer_cells,
        policy: policy.clone(),
        arbitration: t.arbitration,
        arrivals: None,
        scheduler: None,
        merge_frames: false,
        best_effort: None,
        efci_threshold_cells: None,
        rm_feedback: None,
    };

    spec.node.push(node("sw1".into(), NodeKind::Switch));
    spec.node.push(node("sw2".into(), NodeKind::Switch));
    spec.link.push(link("sw1", "sw2"));
    spec.port.push(port("sw1", "sw2"));
    spec.port.push(port("sw2", "sw1"));
    for i in 1..=n {
        let (src, dst) = (format!("src{i}"), format!("dst{i}"));
        spec.node.push(node(src.clone(), NodeKind::Host));
        spec.node.push(node(dst.clone(), NodeKind::Host));
        spec.link.push(link(&src, "sw1"));
        spec.link.push(link("sw2", &dst));
        spec.port.push(port("sw1", &src));
        spec.port.push(port("sw2", &dst));
        spec.connection.push(ConnectionSpec {
            name: format!("tcp{i}"),
            route: vec![src, "sw1".into(), "sw2".into(), dst],
            start_s: 0.0,
            app: Some(toml::Value::String("greedy".into())),
            // Timer phases spread evenly over one tick.
            tcp: t.stagger_timers.then(|| TcpSpec {
                tick_phase_ms: Some(tick_ms * (i - 1) as f64 / n as f64),
                ..Default::default()
            }),
            ..Default::default()
        });
    }
    let mut tcp = TcpSpec { preset: Some(TcpPreset::UbrPlus), ..Default::default() };
    if t.config == LanWan::WAN {
        tcp.window_bytes = Some(WAN_WINDOW);
        tcp.window_scaling = Some(true);
    }
    if let Some(user) = &t.tcp {
        tcp = super::tcp::merge(&tcp, user);
    }
    spec.tcp = Some(tcp);
    spec.metrics = Some(MetricsSpec { bottleneck: Some("sw1->sw2".into()) });
}
