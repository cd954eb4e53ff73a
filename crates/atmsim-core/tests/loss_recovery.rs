//! Textbook loss-recovery scenarios, built with fault injection on an otherwise lossless path
//! (infinite buffers): one loss, and three losses in one window, for each TCP variant.

use atmsim_core::api::run_scenario;
use atmsim_core::report::FlowReport;

/// host a -> sw1 -> sw2 -> host b, 155.52 Mb/s, 1 ms links (RTT about 6 ms), one greedy TCP
/// with fast retransmit; the first `times` transmissions of each listed segment are dropped at
/// sw1->sw2.
fn run_times(variant: &str, segments: &[u32], times: u32) -> FlowReport {
    let mut text = format!(
        "[simulation]\nduration_s = 3.0\n[tcp]\nvariant = \"{variant}\"\nfast_retransmit = true\n\
         [[node]]\nname = \"a\"\nkind = \"host\"\n[[node]]\nname = \"sw1\"\nkind = \"switch\"\n\
         [[node]]\nname = \"sw2\"\nkind = \"switch\"\n[[node]]\nname = \"b\"\nkind = \"host\"\n\
         [[link]]\nends = [\"a\", \"sw1\"]\nrate_bps = 155_520_000\ndelay_us = 1000\n\
         [[link]]\nends = [\"sw1\", \"sw2\"]\nrate_bps = 155_520_000\ndelay_us = 1000\n\
         [[link]]\nends = [\"sw2\", \"b\"]\nrate_bps = 155_520_000\ndelay_us = 1000\n\
         [[connection]]\nname = \"c\"\nroute = [\"a\", \"sw1\", \"sw2\", \"b\"]\n"
    );
    if !segments.is_empty() {
        let list: Vec<String> = segments.iter().map(|s| s.to_string()).collect();
        text += &format!(
            "[[fault]]\nport = \"sw1->sw2\"\nconnection = \"c\"\nsegments = [{}]\ntimes = {times}\n",
            list.join(", ")
        );
    }
    let r = run_scenario(&text, &[], None).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.summary.conservation.balanced);
    assert_eq!(
        r.ports.iter().map(|p| p.drops["fault"].as_u64().unwrap()).sum::<u64>() > 0,
        !segments.is_empty()
    );
    r.flows.into_iter().next().unwrap()
}

fn run(variant: &str, segments: &[u32]) -> FlowReport {
    run_times(variant, segments, 1)
}

const VARIANTS: [&str; 4] = ["tahoe", "reno", "newreno", "sack"];

#[test]
fn no_loss_no_retransmission() {
    for v in VARIANTS {
        let f = run(v, &[]);
        assert_eq!((f.segments_retransmitted, f.rto_expirations, f.fast_retransmits), (0, 0, 0), "{v}");
        assert!(f.bytes_delivered > 10_000_000, "{v}: {}", f.bytes_delivered);
    }
}

#[test]
fn one_loss_is_repaired_by_fast_retransmit_in_every_variant() {
    for v in VARIANTS {
        let f = run(v, &[60]);
        assert_eq!(f.rto_expirations, 0, "{v}: no timeout");
        assert_eq!(f.fast_retransmits, 1, "{v}");
        assert_eq!(f.segments_retransmitted, 1, "{v}: only the lost segment is sent again");
    }
}

#[test]
fn three_losses_in_a_window() {
    let losses = [60, 62, 64];
    // Reno leaves fast recovery on the first partial ACK and halves again for the next hole
    // (or stalls into a timeout): either way it needs more than one recovery.
    let reno = run("reno", &losses);
    assert!(reno.fast_retransmits + reno.rto_expirations >= 2, "reno: {reno:?}");
    // NewReno: one recovery, one retransmission per partial ACK, no timeout.
    let newreno = run("newreno", &losses);
    assert_eq!((newreno.fast_retransmits, newreno.rto_expirations), (1, 0), "newreno: {newreno:?}");
    assert_eq!(newreno.segments_retransmitted, 3);
    // SACK: one recovery, each hole retransmitted once, no timeout.
    let sack = run("sack", &losses);
    assert_eq!((sack.fast_retransmits, sack.rto_expirations), (1, 0), "sack: {sack:?}");
    assert_eq!(sack.segments_retransmitted, 3);
    // Every variant delivers all the data in the end.
    for f in [&reno, &newreno, &sack, &run("tahoe", &losses)] {
        assert!(f.bytes_delivered > 10_000_000, "{f:?}");
    }
}

#[test]
fn recovery_halves_the_window() {
    for v in ["newreno", "sack"] {
        let f = run(v, &[300]);
        // After the only loss the window restarts from ssthresh (half the flight at the loss)
        // and grows by congestion avoidance; it is capped by the 64 KB receive window.
        assert!(f.final_ssthresh_bytes < 65_535 && f.final_ssthresh_bytes >= 2 * 512, "{v}: {f:?}");
        assert!(f.final_cwnd_bytes >= f.final_ssthresh_bytes, "{v}: {f:?}");
    }
}

#[test]
fn a_lost_retransmission_needs_the_timer() {
    // Segment 60 and its fast retransmission are both lost: only the timeout repairs it.
    for v in ["reno", "newreno", "sack"] {
        let f = run_times(v, &[60], 2);
        assert_eq!(f.fast_retransmits, 1, "{v}");
        assert!(f.rto_expirations >= 1, "{v}: {f:?}");
    }
}

/// Goyal et al. (LCN 1998) figure 3 in small: one SACK TCP, one segment dropped each time its
/// cwnd reaches the threshold. The window then saws between half the threshold and the
/// threshold, one fast retransmit per climb and no timeout, and the goodput follows equation
/// 1 of the paper (mean window over the RTT) instead of filling the link.
#[test]
fn a_window_triggered_fault_holds_the_window_below_its_threshold() {
    let text = |fault: &str| {
        format!(
            "[simulation]\nduration_s = 3.0\nphases = \"aligned\"\n[tcp]\nvariant = \"sack\"\n\
             fast_retransmit = true\nmss = 1024\nwindow_bytes = 1_000_000\nwindow_scaling = true\n\
             [[node]]\nname = \"a\"\nkind = \"host\"\n[[node]]\nname = \"sw1\"\nkind = \"switch\"\n\
             [[node]]\nname = \"sw2\"\nkind = \"switch\"\n[[node]]\nname = \"b\"\nkind = \"host\"\n\
             [[link]]\nends = [\"a\", \"sw1\"]\nrate_bps = 155_520_000\ndelay_us = 1000\n\
             [[link]]\nends = [\"sw1\", \"sw2\"]\nrate_bps = 155_520_000\ndelay_us = 1000\n\
             [[link]]\nends = [\"sw2\", \"b\"]\nrate_bps = 155_520_000\ndelay_us = 1000\n\
             [[connection]]\nname = \"c\"\nroute = [\"a\", \"sw1\", \"sw2\", \"b\"]\n{fault}"
        )
    };
    let free = run_scenario(&text(""), &[], None).unwrap_or_else(|e| panic!("{e}"));
    let threshold = 40_000.0;
    let held = run_scenario(
        &text("[[fault]]\nport = \"sw1->sw2\"\nconnection = \"c\"\ncwnd_octets = 40_000\n"),
        &[],
        None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(held.summary.conservation.balanced);
    let drops: u64 = held.ports.iter().map(|p| p.drops["fault"].as_u64().unwrap()).sum();
    let f = &held.flows[0];
    // About one climb from 20 to 40 segments of 1 KB per 20 RTTs of ~6.5 ms: ~20 climbs in 3 s.
    assert!((10..40).contains(&drops), "{drops} drops");
    assert_eq!((f.fast_retransmits, f.rto_expirations), (drops, 0), "{f:?}");
    // Equation 1 with the mean window 3/4 of the threshold and the unloaded RTT (6 ms of
    // propagation plus a segment's transmission on each of the four links).
    let rtt = 6e-3 + 4.0 * 22.0 * 424.0 / 155.52e6;
    let expected = 0.75 * threshold * 8.0 / rtt;
    assert!((0.8 * expected..1.1 * expected).contains(&f.goodput_bps), "{} vs {expected}", f.goodput_bps);
    assert!(f.goodput_bps < 0.5 * free.flows[0].goodput_bps);
}
