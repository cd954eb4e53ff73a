//! `tcp.timing_excludes_transmission` end to end (Gerla, Pazos, Signore: "timers and round-trip
//! estimations do not include transmission times"): a TCP whose adapter paces it at a tenth of
//! the line rate keeps a window's worth of segments waiting in the adapter. Timed from when TCP
//! sends, its RTT includes that wait; timed from transmission completion, it is the network's
//! round trip alone, and nothing else about the transfer changes when no timer fires.

use atmsim_core::api::run_scenario;
use atmsim_core::report::Report;

fn run(excluded: bool) -> Report {
    let text = format!(
        "[simulation]\nduration_s = 2.0\nphases = \"aligned\"\n\
         [tcp]\ntick_ms = 1.0\nwindow_bytes = 32768\ntiming_excludes_transmission = {excluded}\n\
         [[node]]\nname = \"a\"\nkind = \"host\"\n[[node]]\nname = \"s\"\nkind = \"switch\"\n\
         [[node]]\nname = \"b\"\nkind = \"host\"\n\
         [[link]]\nends = [\"a\", \"s\"]\nrate_bps = 155_520_000\ndelay_us = 500\n\
         [[link]]\nends = [\"s\", \"b\"]\nrate_bps = 155_520_000\ndelay_us = 500\n\
         [[connection]]\nname = \"c\"\nroute = [\"a\", \"s\", \"b\"]\nshaping = {{ rate_bps = 15_552_000 }}\n"
    );
    run_scenario(&text, &[], None).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn rtt_from_transmission_completion_leaves_out_the_wait_in_the_adapter() {
    let (sent, done) = (run(false), run(true));
    assert!(sent.summary.conservation.balanced && done.summary.conservation.balanced);
    let (a, b) = (&sent.flows[0], &done.flows[0]);
    // No loss and no timeout either way: the same transfer.
    assert_eq!((a.rto_expirations, b.rto_expirations), (0, 0));
    assert_eq!(a.bytes_delivered, b.bytes_delivered);
    // The network's round trip: 2 ms of propagation plus a segment's cells at the line rate
    // on the way out and its ACK back (the shaper spaces cells, the link carries each one in
    // one cell time). A 32 KB window at 15.5 Mb/s waits about 17 ms in the adapter.
    let (rtt_sent, rtt_done) = (a.mean_rtt_s.unwrap(), b.mean_rtt_s.unwrap());
    assert!((0.002..0.0025).contains(&rtt_done), "{rtt_done}");
    assert!(rtt_sent > rtt_done + 0.010, "{rtt_sent} vs {rtt_done}");
}
