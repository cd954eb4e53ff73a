//! `[trace]` and `[capture]` end to end: traces change nothing else, their samples sit on exact
//! multiples of the interval and add up to the port counters; captures hold exactly the frames
//! the report counts; bad tables are rejected with the field named.

use atmsim_core::api::{run_scenario, run_scenario_json, run_scenario_with_captures};
use atmsim_core::report::Report;

const LAN2: &str = r#"
[simulation]
duration_s = 0.5
[n_source]
sources = 2
config = "LAN"
buffer_cells = 1000
policy = "epd"
"#;

fn run(extra: &str) -> Report {
    run_scenario(&format!("{LAN2}{extra}"), &[], None).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn without_trace_there_is_no_traces_object() {
    let json = run_scenario_json(LAN2, &[], None).unwrap();
    assert!(!json.contains("\"traces\""));
    assert!(run("").traces.is_none());
}

#[test]
fn tracing_changes_no_result() {
    let plain = run("");
    let traced = run("[trace]\ninterval_s = 0.001\nper_vc = true\n");
    assert_eq!(format!("{:?}", plain.flows), format!("{:?}", traced.flows));
    assert_eq!(format!("{:?}", plain.ports), format!("{:?}", traced.ports));
    assert_eq!(plain.events, traced.events);
}

#[test]
fn samples_are_exact_multiples_and_add_up_to_the_counters() {
    let r = run("[trace]\ninterval_s = 0.01\nper_vc = true\n");
    let t = r.traces.as_ref().unwrap();
    assert_eq!(t.queues.0.len(), r.ports.len());
    for ((name, q), port) in t.queues.0.iter().zip(&r.ports) {
        assert_eq!(name, &port.name);
        assert_eq!(q.t_s.len(), 50);
        for (k, &ts) in q.t_s.iter().enumerate() {
            assert_eq!(ts, (k as u64 + 1) as f64 * 1e10 / 1e12, "boundary {k} of {name}");
        }
        assert!(q.cells.iter().all(|&c| c <= port.max_queue_cells));
        // Per-VC occupancies (every connection through the port) add up to the queue.
        let per_vc = q.per_vc.as_ref().unwrap();
        for k in 0..q.cells.len() {
            assert_eq!(per_vc.0.iter().map(|(_, s)| s[k]).sum::<u32>(), q.cells[k]);
        }
    }
    // The run ends on a boundary, so the intervals cover it: utilisation adds up to cells_out.
    // Each port's denominator is its own slot count, from its own oscillator: exactly the
    // nominal rate's with the clocks' drift off, within 20 ppm of it with the default drift.
    let slots = 0.01 * 155_520_000.0 / 424.0;
    let locked = run_scenario(
        &format!("{LAN2}[trace]\ninterval_s = 0.01\nper_vc = true\n"),
        &[("simulation.clock_ppm".to_string(), "0".to_string())],
        None,
    )
    .unwrap();
    for (r, tolerance) in [(&locked, 0.0), (&r, 20e-6)] {
        let t = r.traces.as_ref().unwrap();
        for ((name, u), port) in t.utilization.0.iter().zip(&r.ports) {
            let cells: f64 = u.utilization.iter().map(|x| x * slots).sum();
            let out = port.cells_out as f64;
            assert!((cells - out).abs() < 1e-6 + tolerance * out, "{name}: {cells} vs {out}");
        }
    }
    // The window trace ends where the report does.
    for ((name, c), f) in t.cwnd.0.iter().zip(&r.flows) {
        assert_eq!(name, &f.name);
        assert_eq!(*c.cwnd_bytes.last().unwrap(), f.final_cwnd_bytes);
        assert_eq!(*c.ssthresh_bytes.last().unwrap(), f.final_ssthresh_bytes);
        assert!(c.t_s.windows(2).all(|w| w[0] <= w[1]));
    }
}

#[test]
fn arrival_rates_add_up_to_the_cells_that_reached_the_port() {
    // Bonaventure's figure 24 in small: each source's data arrival rate at the bottleneck over
    // 100 ms windows. Every data cell arrives once at sw1->sw2 (none are RM cells here), so the
    // windows times their rates add up to the port's cells_in, split by connection.
    let r = run("[trace]\ninterval_s = 0.1\nqueues = false\nutilization = false\narrivals = true\n");
    let t = r.traces.as_ref().unwrap();
    let arrivals = t.arrivals.as_ref().unwrap();
    let (name, a) = arrivals.0.iter().find(|(n, _)| n == "sw1->sw2").unwrap();
    assert_eq!(a.t_s, [0.1, 0.2, 0.3, 0.4, 0.5]);
    let conns: Vec<&str> = a.cells_per_s.0.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(conns, ["tcp1", "tcp2"], "the connections whose data leave through {name}");
    let total: f64 = a.cells_per_s.0.iter().flat_map(|(_, s)| s.iter()).map(|x| x * 0.1).sum();
    let port = r.ports.iter().find(|p| &p.name == name).unwrap();
    assert!((total - port.cells_in as f64).abs() < 1e-6, "{total} vs {}", port.cells_in);
    assert!(total > 0.0);
    // Together they cannot exceed what two access links can carry (some windows are empty:
    // both TCPs lose a window at once and wait for their timers).
    for k in 0..5 {
        let sum: f64 = a.cells_per_s.0.iter().map(|(_, s)| s[k]).sum();
        assert!(sum <= 2.0 * 155_520_000.0 / 424.0 + 1.0, "window {k}: {sum}");
    }
    // Switch ports carrying only ACKs (sw2->sw1) have no data VC to report.
    let back = arrivals.0.iter().find(|(n, _)| n == "sw2->sw1").unwrap();
    assert!(back.1.cells_per_s.0.is_empty());
    // Off by default, and then absent from the JSON.
    let json = run_scenario_json(&format!("{LAN2}[trace]\ninterval_s = 0.1\n"), &[], None).unwrap();
    assert!(!json.contains("\"arrivals\""));
}

#[test]
fn fine_samples_average_to_the_mean_queue() {
    // One sample per 2 us (less than a cell time): their mean is the time-averaged queue.
    let r = run("[trace]\ninterval_s = 2e-6\ncwnd = false\nutilization = false\nports = [\"sw1->sw2\"]\n");
    let t = r.traces.unwrap();
    assert!(t.cwnd.0.is_empty() && t.utilization.0.is_empty());
    let (name, q) = &t.queues.0[0];
    assert_eq!(name, "sw1->sw2");
    let mean = q.cells.iter().map(|&c| c as f64).sum::<f64>() / q.cells.len() as f64;
    let want = r.ports.iter().find(|p| p.name == "sw1->sw2").unwrap().mean_queue_cells;
    assert!(want > 10.0 && (mean - want).abs() / want < 0.01, "{mean} vs {want}");
}

#[test]
fn traces_serialise_as_compact_columns() {
    let json = run_scenario_json(&format!("{LAN2}[trace]\ninterval_s = 0.1\n"), &[], None).unwrap();
    assert!(json.contains("\"t_s\": [0.1,0.2,0.3,0.4,0.5]"), "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let q = &v["traces"]["queues"]["sw1->sw2"];
    assert_eq!(q["cells"].as_array().unwrap().len(), 5);
    assert!(q.get("per_vc").is_none());
}

fn error(extra: &str) -> String {
    match run_scenario(&format!("{LAN2}{extra}"), &[], None) {
        Ok(_) => panic!("accepted: {extra}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_tables_name_the_field() {
    assert!(error("[trace]\nfoo = 1\n").starts_with("trace.foo: unknown field"));
    assert!(error("[trace]\ninterval_s = 0\n").starts_with("trace.interval_s:"));
    assert!(error("[trace]\ninterval_s = 1e-12\n").starts_with("trace.interval_s:"));
    assert!(error("[trace]\nper_vc = true\nqueues = false\n").starts_with("trace.per_vc:"));
    assert!(error("[trace]\nports = [\"sw1->sw2\", \"sw1->nowhere\"]\n").starts_with("trace.ports[1]:"));
    assert!(error("[trace]\nports = [\"src1->sw1\"]\n").starts_with("trace.ports[0]:"), "not a switch port");
    assert!(error("[trace]\nconnections = [\"tcp9\"]\n").starts_with("trace.connections[0]:"));
    assert!(error("[capture]\nlink = []\n").starts_with("capture.link: unknown field"));
    assert!(error("[capture]\nlinks = [\"sw1-sw2\"]\n").starts_with("capture.links[0]:"));
    assert!(error("[capture]\nlinks = [\"src1->sw2\"]\n").starts_with("capture.links[0]:"));
    assert!(error("[capture]\nhosts = [\"sw1\"]\n").starts_with("capture.hosts[0]:"));
    let e = run_scenario_with_captures(LAN2, &[], None, &["nowhere".into()]).unwrap_err();
    assert_eq!(e.field, "--capture");
}

/// The records of a pcap file: (IP total length, TCP payload length, source address).
fn records(pcap: &[u8]) -> Vec<(usize, usize, [u8; 4])> {
    assert_eq!(&pcap[..4], &0xa1b2_3c4du32.to_le_bytes());
    assert_eq!(u32::from_le_bytes(pcap[20..24].try_into().unwrap()), 101);
    let mut out = Vec::new();
    let mut at = 24;
    while at < pcap.len() {
        let len = u32::from_le_bytes(pcap[at + 8..at + 12].try_into().unwrap()) as usize;
        let ip = &pcap[at + 16..at + 16 + len];
        let total = u16::from_be_bytes([ip[2], ip[3]]) as usize;
        let tcp_header = (ip[20 + 12] >> 4) as usize * 4;
        out.push((total, total - 20 - tcp_header, ip[12..16].try_into().unwrap()));
        at += 16 + len;
    }
    assert_eq!(at, pcap.len());
    out
}

#[test]
fn captures_hold_what_the_report_counts() {
    let text = format!(
        "{LAN2}[[fault]]\nport = \"sw1->sw2\"\nconnection = \"tcp1\"\nsegments = [20]\n\
         [capture]\nhosts = [\"src1\"]\nlinks = [\"sw1->sw2\"]\n"
    );
    // Without asking, nothing is recorded.
    let (plain, none) = run_scenario_with_captures(LAN2, &[], None, &[]).unwrap();
    assert!(none.is_empty());
    let (r, files) = run_scenario_with_captures(&text, &[], None, &["dst2".into(), "src1".into()]).unwrap();
    // Recording changes nothing in the run.
    assert_eq!(format!("{:?}", run_scenario(&text, &[], None).unwrap().flows), format!("{:?}", r.flows));
    assert_eq!(format!("{:?}", run_scenario(LAN2, &[], None).unwrap().flows), format!("{:?}", plain.flows));
    let stems: Vec<&str> = files.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(stems, ["sw1_to_sw2", "src1", "dst2"], "links, hosts, then --capture; src1 once");
    let f1 = &r.flows[0];
    assert!(f1.segments_retransmitted > 0);

    // The sender's host sees every segment it sends (and the ACKs it receives).
    let src1 = records(&files[1].1);
    let sent: Vec<_> = src1.iter().filter(|r| r.2 == [10, 0, 0, 1]).collect();
    assert_eq!(sent.len() as u64, f1.segments_sent);
    assert_eq!(sent.iter().map(|r| r.1 as u64).sum::<u64>(), f1.bytes_sent);

    // The bottleneck link carries the complete data frames of both connections (not the
    // faulty one, dropped before it): those the receivers reassemble, give or take the few
    // still on their way at the end.
    let link = records(&files[0].1);
    let frames_in: u64 = r.hosts.iter().filter(|h| h.name.starts_with("dst")).map(|h| h.frames_in).sum();
    assert!(
        link.len() as u64 >= frames_in && link.len() as u64 - frames_in <= 4,
        "{} vs {frames_in}",
        link.len()
    );
    let port = r.ports.iter().find(|p| p.name == "sw1->sw2").unwrap();
    let cells: u64 = link.iter().map(|r| (r.0 as u64 + 8 + 8).div_ceil(48)).sum();
    assert!(cells <= port.cells_out, "{cells} vs {}", port.cells_out);

    // The receiving host of tcp2 sees what it reassembled and the ACKs it sent.
    let dst2 = records(&files[2].1);
    let host = r.hosts.iter().find(|h| h.name == "dst2").unwrap();
    let received = dst2.iter().filter(|r| r.2 != [10, 0, 0, 4]).count() as u64;
    assert_eq!(received, host.frames_in);
}

#[test]
fn a_captured_priority_port_records_what_the_per_cell_path_records() {
    // The credit/rate study's ATOM switch (guaranteed traffic first, TCP under FCVC in turn),
    // its background replaced by a guaranteed TCP connection (a captured link reassembles the
    // connections' frames only): its priority path puts cells on the wire itself, the capture
    // included.
    let text = std::fs::read_to_string(format!(
        "{}/../../python/atmsim/scenarios/gerla-fcvc.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let (head, rest) = text.split_once("[[background]]").unwrap();
    let (_, tail) = rest.split_once("[[node]]").unwrap();
    let text = format!(
        "{head}[[connection]]\nname = \"g\"\nroute = [\"g\", \"sw\", \"dst\"]\nguaranteed = true\n\
         app = {{ kind = \"messages\", mean_bytes = 4800, rate_bps = 40000000.0 }}\n\n[[node]]{tail}"
    );
    let run = |priority: bool| {
        let sets = [
            ("simulation.duration_s".to_string(), "0.3".to_string()),
            ("engine.priority_port".to_string(), priority.to_string()),
        ];
        let (mut r, files) = run_scenario_with_captures(&text, &sets, None, &["sw->dst".into()])
            .unwrap_or_else(|e| panic!("{e}"));
        r.wall_s = 0.0;
        (format!("{r:?}"), files)
    };
    let (fast, slow) = (run(true), run(false));
    assert_eq!(fast.1.len(), 1);
    let frames = records(&fast.1[0].1).len();
    assert!(frames > 1000, "{frames} frames");
    assert!(fast.1 == slow.1, "the captures differ");
    assert_eq!(fast.0, slow.0);
}

#[test]
fn a_captured_link_with_background_and_rm_cells_records_the_tcp_frames_only() {
    // The credit/rate studies as shipped: the captured links carry background VCs (labels past
    // the connections' count) and, under PRCA, RM cells (no frame). Recording changes nothing
    // and writes well-formed TCP/IP frames only.
    for study in ["gerla-fcvc", "gerla-prca"] {
        let text = std::fs::read_to_string(format!(
            "{}/../../python/atmsim/scenarios/{study}.toml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let sets = [("simulation.duration_s".to_string(), "0.2".to_string())];
        let mut plain = run_scenario(&text, &sets, None).unwrap_or_else(|e| panic!("{study}: {e}"));
        let links = ["sw->dst".to_string(), "sw->ws1".to_string()];
        let (mut r, files) =
            run_scenario_with_captures(&text, &sets, None, &links).unwrap_or_else(|e| panic!("{study}: {e}"));
        (plain.wall_s, r.wall_s) = (0.0, 0.0);
        assert_eq!(format!("{plain:?}"), format!("{r:?}"), "{study}: recording changed the run");
        assert!(r.ports.iter().any(|p| p.name == "sw->ws1" && p.cells_out > 0));
        if study == "gerla-prca" {
            assert!(r.ports.iter().any(|p| p.name == "sw->dst" && p.rm_cells > 0), "{study}: no RM cells");
        }
        // Data frames toward the destination, ACKs toward a workstation: each parsed whole.
        let to_dst = records(&files[0].1);
        assert!(to_dst.len() > 100 && to_dst.iter().all(|f| f.1 > 0), "{study}: {} frames", to_dst.len());
        let to_ws1 = records(&files[1].1);
        assert!(!to_ws1.is_empty() && to_ws1.iter().all(|f| f.1 == 0), "{study}: ACKs");
    }
    // SunATM's VCI is 32 + the connection's index on a link too, whatever the link's label:
    // `t2` (index 1) is the only VC on s1->s2, where its label at s2 is 0.
    let mut text = String::from("[simulation]\nduration_s = 0.05\n");
    for (n, k) in
        [("a", "host"), ("c", "host"), ("s1", "switch"), ("s2", "switch"), ("b", "host"), ("d", "host")]
    {
        text += &format!("[[node]]\nname = \"{n}\"\nkind = \"{k}\"\n");
    }
    for (x, y) in [("a", "s1"), ("c", "s1"), ("s1", "b"), ("s1", "s2"), ("s2", "d")] {
        text += &format!("[[link]]\nends = [\"{x}\", \"{y}\"]\nrate_bps = 155520000\ndelay_us = 10\n");
    }
    text += "[[connection]]\nname = \"t1\"\nroute = [\"a\", \"s1\", \"b\"]\n\
             [[connection]]\nname = \"t2\"\nroute = [\"c\", \"s1\", \"s2\", \"d\"]\n";
    let sets = [("capture.sunatm".to_string(), "true".to_string())];
    let (_, files) = run_scenario_with_captures(&text, &sets, None, &["s1->s2".to_string()])
        .unwrap_or_else(|e| panic!("{e}"));
    let pcap = &files[0].1;
    assert_eq!(u32::from_le_bytes(pcap[20..24].try_into().unwrap()), 123);
    let (mut at, mut n) = (24, 0);
    while at < pcap.len() {
        let len = u32::from_le_bytes(pcap[at + 8..at + 12].try_into().unwrap()) as usize;
        assert_eq!(u16::from_be_bytes([pcap[at + 18], pcap[at + 19]]), 32 + 1);
        (at, n) = (at + 16 + len, n + 1);
    }
    assert!(n > 0);
}
