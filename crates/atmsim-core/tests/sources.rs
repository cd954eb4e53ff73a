//! Source controls and background traffic end to end: a shaped connection runs at its shaping
//! rate, background sources offer the rate they are given and reach their sinks, and cells are
//! conserved with RM cells and background on the links.

mod common;

use atmsim_core::api::run_scenario;
use atmsim_core::report::Report;
use common::PATH_A_S_B;

fn run(extra: &str, duration_s: f64) -> Report {
    let text = format!("[simulation]\nduration_s = {duration_s}\nseed = 7\n{PATH_A_S_B}\n{extra}");
    run_scenario(&text, &[], None).unwrap_or_else(|e| panic!("{e}"))
}

/// Cells a full 9140-octet segment takes (TCP/IP 40 + AAL5 8 octets: 9188 -> 192 cells).
const CELLS_PER_SEGMENT: f64 = 192.0;

#[test]
fn a_shaped_connection_runs_at_its_shaping_rate() {
    // 20 Mb/s of cells on a 155 Mb/s path with room to spare: the shaper is the bottleneck.
    let r = run(
        r#"
[[connection]]
name = "c"
route = ["a", "s", "b"]
tcp = { preset = "reno_class" }
shaping = { rate_bps = 20e6 }
"#,
        2.0,
    );
    let f = &r.flows[0];
    let bound = 20e6 / 424.0 * 9140.0 * 8.0 / CELLS_PER_SEGMENT;
    // Within the slow start at the beginning, the connection sends at exactly the shaped rate.
    assert!(f.goodput_bps <= bound, "{} > {bound}", f.goodput_bps);
    assert!(f.goodput_bps > 0.95 * bound, "{} vs {bound}", f.goodput_bps);
    assert_eq!(f.final_rate_bps.map(|x| x.round()), Some(20e6));
    assert!(r.summary.conservation.balanced);
    assert_eq!(f.rm_cells_sent, None, "no RM cells without abr");
}

#[test]
fn background_sources_offer_their_rate_and_reach_their_sinks() {
    let r = run(
        r#"
[[connection]]
name = "c"
route = ["a", "s", "b"]
app = { kind = "messages", mean_bytes = 2500, rate_bps = 1e6 }

[[background]]
name = "poisson"
route = ["a", "s", "b"]
count = 3
source = { kind = "poisson", user_bps = 5e6 }
shaping = { beta = 1.2 }

[[background]]
name = "vbr"
route = ["a", "s", "b"]
guaranteed = true
source = { kind = "on_off", peak_bps = 10e6, mean_burst_bytes = 4800, burstiness = 1.2 }
"#,
        20.0,
    );
    assert_eq!(r.background.len(), 4);
    let names: Vec<&str> = r.background.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["poisson.1", "poisson.2", "poisson.3", "vbr"]);
    for b in &r.background {
        let want = if b.name == "vbr" { 10e6 / 1.2 } else { 5e6 };
        let rel = b.offered_user_bps / want - 1.0;
        assert!(rel.abs() < 0.08, "{}: offered {} vs {want}", b.name, b.offered_user_bps);
        // No congestion: everything offered arrives whole, except what is still in flight.
        assert!(b.cell_loss_ratio.unwrap() < 0.01, "{}: {:?}", b.name, b.cell_loss_ratio);
        assert!(b.messages_delivered as f64 > 0.99 * b.messages_offered as f64, "{b:?}");
    }
    // The independent Poisson sources drew different streams.
    assert_ne!(r.background[0].cells_offered, r.background[1].cells_offered);
    assert!(r.summary.conservation.balanced, "{:?}", r.summary.conservation);
    // The TCP connection still gets its 1 Mb/s of messages through.
    assert!((r.flows[0].goodput_bps / 1e6 - 1.0).abs() < 0.15, "{}", r.flows[0].goodput_bps);
}

#[test]
fn runs_with_source_controls_are_deterministic() {
    let text = r#"
[[connection]]
name = "c"
route = ["a", "s", "b"]
abr = { kind = "prca" }

[[background]]
name = "bg"
route = ["a", "s", "b"]
source = { kind = "poisson", user_bps = 50e6 }
"#;
    let (a, b) = (run(text, 0.5), run(text, 0.5));
    assert_eq!(a.flows[0].bytes_delivered, b.flows[0].bytes_delivered);
    assert_eq!(a.background[0].cells_delivered, b.background[0].cells_delivered);
    assert_eq!(a.flows[0].rm_cells_sent, b.flows[0].rm_cells_sent);
    // PRCA: an RM cell every 32 data cells, returned by the destination.
    let f = &a.flows[0];
    let sent = f.rm_cells_sent.unwrap();
    assert!(sent > 0 && f.rm_cells_returned.unwrap() + 2 >= sent, "{f:?}");
    assert!(a.summary.conservation.balanced);
}
