//! Applications end to end: repeated transfers on new connections, ON-OFF messages at a target
//! rate, the GFR study's TCP presets, and the seed's effect on random applications.

mod common;

use atmsim_core::api::run_scenario;
use atmsim_core::report::Report;

/// host a -> switch s -> host b, 155.52 Mb/s, 100 us links, one connection with `conn` extra
/// keys (app, tcp).
fn path(duration: f64, seed: u64, conn: &str) -> Report {
    let text = format!(
        r#"
[simulation]
duration_s = {duration}
seed = {seed}
{net}[[connection]]
name = "c"
route = ["a", "s", "b"]
{conn}
"#,
        net = common::PATH_A_S_B
    );
    let r = run_scenario(&text, &[], None).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.summary.conservation.balanced);
    r
}

#[test]
fn transfers_run_back_to_back_on_new_connections() {
    let r = path(5.0, 1, "app = { kind = \"transfers\", bytes = 1_000_000, mean_idle_s = 0.1 }\ntcp = { preset = \"tcp_default\" }");
    let f = &r.flows[0];
    // MSS 9140 with timestamps: 9128 octets per 192 cells, at most 139.5 Mb/s, so a 1 MB
    // transfer takes at least 57.3 ms (plus handshake and slow start); idle 100 ms on average.
    assert!(f.transfers_completed >= 20 && f.transfers_completed <= 40, "{f:?}");
    assert_eq!(f.transfers_aborted, 0);
    let t = f.mean_transfer_time_s.unwrap();
    let floor = 1e6 * 8.0 / (155.52e6 / 424.0 / 192.0 * 9128.0 * 8.0);
    assert!(t > floor && t < 0.2, "mean transfer time {t}, floor {floor}");
    // Completed transfers are all delivered; at most one more is under way.
    let done = f.transfers_completed * 1_000_000;
    assert!(f.bytes_delivered >= done && f.bytes_delivered < done + 1_000_000, "{f:?}");
}

#[test]
fn messages_reach_their_mean_rate() {
    let r = path(20.0, 3, "app = { kind = \"messages\", mean_bytes = 2500, rate_bps = 2_500_000 }");
    let f = &r.flows[0];
    // 20 s at 2.5 Mb/s: 6.25 MB in about 2500 messages of 2.5 KB on average.
    assert!((f.messages as f64 - 2500.0).abs() < 250.0, "{} messages", f.messages);
    let rate = f.goodput_bps;
    assert!((rate - 2.5e6).abs() < 0.1 * 2.5e6, "goodput {rate}");
}

#[test]
fn random_applications_follow_the_seed() {
    let app = "app = { kind = \"messages\", mean_bytes = 2500, rate_bps = 2_500_000 }";
    let a = path(2.0, 7, app);
    let b = path(2.0, 7, app);
    let c = path(2.0, 8, app);
    assert_eq!(a.flows[0].bytes_delivered, b.flows[0].bytes_delivered);
    assert_eq!(a.events, b.events);
    assert_ne!(a.flows[0].bytes_delivered, c.flows[0].bytes_delivered);
}

#[test]
fn gfr_presets_use_their_segment_size_and_options() {
    for preset in ["tcp_default", "tcp_fast", "tcp_sack"] {
        let r = path(1.0, 1, &format!("tcp = {{ preset = \"{preset}\" }}"));
        let f = &r.flows[0];
        assert_eq!(f.segments_retransmitted, 0, "{preset}: lossless path");
        // 9140-octet MSS less 12 octets of timestamps per segment, 192 cells each.
        assert_eq!(f.bytes_delivered % 9128, 0, "{preset}: whole segments of 9128 octets");
        let cells: u64 = r.hosts.iter().find(|h| h.name == "a").unwrap().cells_out;
        let segs = f.bytes_delivered / 9128;
        assert!(cells >= segs * 192, "{preset}");
    }
}
