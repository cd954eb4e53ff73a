//! The GFR mechanisms end to end: Virtual Spacing shares, adapter tagging, UPC with GFR.1 and
//! GFR.2, the per-VC policies, and VC merging.

use atmsim_core::api::run_scenario;
use atmsim_core::report::Report;

/// Hosts s1..sN -> sw1 -> sw2 -> d1..dN at 155.52 Mb/s with 10 us links; `port` configures
/// sw1->sw2 (TOML body without node/toward), `conn(i)` adds keys to connection i.
fn net(n: usize, duration: f64, port: &str, tcp: &str, conn: impl Fn(usize) -> String) -> Report {
    let mut t = format!("[simulation]\nduration_s = {duration}\n[tcp]\n{tcp}\n");
    t += "[[node]]\nname = \"sw1\"\nkind = \"switch\"\n[[node]]\nname = \"sw2\"\nkind = \"switch\"\n";
    t += "[[link]]\nends = [\"sw1\", \"sw2\"]\nrate_bps = 155_520_000\ndelay_us = 10\n";
    t += &format!("[[port]]\nnode = \"sw1\"\ntoward = \"sw2\"\n{port}\n");
    for i in 1..=n {
        t += &format!(
            "[[node]]\nname = \"s{i}\"\nkind = \"host\"\n[[node]]\nname = \"d{i}\"\nkind = \"host\"\n\
             [[link]]\nends = [\"s{i}\", \"sw1\"]\nrate_bps = 155_520_000\ndelay_us = 10\n\
             [[link]]\nends = [\"sw2\", \"d{i}\"]\nrate_bps = 155_520_000\ndelay_us = 10\n\
             [[connection]]\nname = \"c{i}\"\nroute = [\"s{i}\", \"sw1\", \"sw2\", \"d{i}\"]\n{}\n",
            conn(i)
        );
    }
    let r = run_scenario(&t, &[], None).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.summary.conservation.balanced);
    r
}

fn goodputs(r: &Report) -> Vec<f64> {
    r.flows.iter().map(|f| f.goodput_bps).collect()
}

#[test]
fn virtual_spacing_shares_the_link_by_mcr() {
    // Three greedy TCPs, infinite buffer: all stay backlogged, so the scheduler alone decides.
    let r = net(
        3,
        2.0,
        "buffer_cells = \"infinite\"\npolicy = { kind = \"tail_drop\" }\nscheduler = \"virtual_spacing\"",
        "",
        |i| format!("gfr = {{ mcr_cells_per_s = {} }}", 20_000 * i),
    );
    let g = goodputs(&r);
    let total: f64 = g.iter().sum();
    for (i, x) in g.iter().enumerate() {
        let want = (i + 1) as f64 / 6.0;
        assert!((x / total - want).abs() < 0.02, "c{}: share {:.3}, want {want:.3}", i + 1, x / total);
    }
}

#[test]
fn adapter_tagging_tags_what_exceeds_the_mcr() {
    // One greedy TCP alone at ~line rate with MCR = 1/4 of it: about 3 frames in 4 are tagged.
    let r = net(
        1,
        1.0,
        "buffer_cells = 8192\npolicy = { kind = \"tail_drop\" }",
        "preset = \"tcp_default\"",
        |_| "gfr = { mcr_cells_per_s = 91698, tagging = \"adapter\" }".to_string(),
    );
    let f = &r.flows[0];
    let tagged = f.tagged_fraction.unwrap();
    // Conforming share = MCR / sending rate; the TCP sends at ~ 366792 cells/s when open.
    assert!((0.65..0.85).contains(&tagged), "tagged fraction {tagged}");
    assert!(f.frames_tagged.unwrap() > 100);
}

#[test]
fn gfr2_upc_tags_and_lbo_drops_gfr1_leaves_the_frames_alone() {
    let port = "buffer_cells = 8192\npolicy = { kind = \"fifo_gfr\", lbo_cells = 0, hbo_cells = 7168 }";
    let tcp = "preset = \"tcp_default\"";
    let run = |conf: &str| {
        net(2, 1.0, port, tcp, |_| {
            format!("gfr = {{ mcr_cells_per_s = 50000, tagging = \"upc\", conformance = \"{conf}\" }}")
        })
    };
    let (g2, g1) = (run("gfr2"), run("gfr1"));
    let lbo =
        |r: &Report| r.ports.iter().find(|p| p.name == "sw1->sw2").unwrap().drops["lbo"].as_u64().unwrap();
    assert!(g2.flows[0].tagged_fraction.unwrap() > 0.3, "{:?}", g2.flows[0]);
    assert!(lbo(&g2) > 0, "GFR.2: tagged frames meet LBO = 0");
    assert_eq!(g1.flows[0].frames_tagged, Some(0), "GFR.1: the network leaves CLP alone");
    assert_eq!(lbo(&g1), 0);
}

#[test]
fn per_vc_thresholds_order_the_throughputs() {
    // The rate-guarantee study's idea: SACK TCPs in one FIFO with per-VC thresholds get
    // throughput in the order of their thresholds, under both per-VC policies.
    for policy in
        ["policy = { kind = \"threshold_drop\" }", "policy = { kind = \"dfba\", r_cells = 40000, z = 1.5 }"]
    {
        let r = net(3, 5.0, &format!("buffer_cells = 48000\n{policy}"), "variant = \"sack\"\nfast_retransmit = true\nwindow_bytes = 4_000_000\nwindow_scaling = true\nmss = 1024", |i| {
            format!("vc_threshold_cells = {}", 500 * i)
        });
        let g = goodputs(&r);
        assert!(g[0] < g[1] && g[1] < g[2], "{policy}: {g:?}");
        let drops: u64 = r
            .ports
            .iter()
            .map(|p| p.drops["vc_threshold"].as_u64().unwrap() + p.drops["dfba"].as_u64().unwrap())
            .sum();
        assert!(drops > 0, "{policy}");
    }
}

#[test]
fn merged_vcs_share_one_class() {
    // c1 and c2 merged onto VC "a", c3 alone; merging at sw1->sw2 keeps frames whole.
    let r =
        net(3, 0.5, "buffer_cells = 8192\npolicy = { kind = \"tail_drop\" }\nmerge_frames = true", "", |i| {
            if i < 3 {
                "vc = \"a\"".to_string()
            } else {
                String::new()
            }
        });
    let p = r.ports.iter().find(|p| p.name == "sw1->sw2").unwrap();
    let keys: Vec<&String> = p.vc_mean_queue_cells.keys().collect();
    assert_eq!(keys, vec!["c1", "c3"], "one class for c1 + c2");
    assert!(r.hosts.iter().all(|h| h.frames_corrupted == 0));
    assert!(r.flows.iter().all(|f| f.bytes_delivered > 0));
}

#[test]
fn lbo_zero_discards_every_tagged_frame_even_into_an_empty_buffer() {
    // The GFR study's section 6: with LBO = 0 "all the CLP=1 AAL5-PDUs are discarded at the
    // bottleneck switch". One TCP alone never builds a queue at sw1->sw2 (same link rates), so
    // its tagged frames find the buffer empty; each must still be refused at LBO.
    let port = "buffer_cells = 8192\npolicy = { kind = \"fifo_gfr\", lbo_cells = 0, hbo_cells = 7168 }";
    let r = net(1, 2.0, port, "preset = \"tcp_default\"", |_| {
        "gfr = { mcr_cells_per_s = 20000, mfs_cells = 200, tagging = \"adapter\" }".to_string()
    });
    let p = r.ports.iter().find(|p| p.name == "sw1->sw2").unwrap();
    let tagged = r.flows[0].frames_tagged.unwrap();
    assert!(tagged > 0, "the adapter tags what exceeds the MCR");
    assert_eq!(p.drops["lbo"].as_u64().unwrap(), tagged, "every tagged frame refused at LBO");
    assert!(r.flows[0].bytes_delivered > 0, "untagged frames still pass");
}
