//! End-to-end checks of the engine on small scenarios: conservation of cells, determinism, the
//! template against its written-out general form, and the UBR+ study's zero-loss bound.

use atmsim_core::api::run_scenario;
use atmsim_core::report::Report;

fn scenario(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../../python/atmsim/scenarios/{name}", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
}

fn run(text: &str, sets: &[(&str, &str)]) -> Report {
    let o: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    run_scenario(text, &o, None).unwrap_or_else(|e| panic!("{e}"))
}

fn without_wall(r: &Report) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap();
    v.as_object_mut().unwrap().remove("wall_s");
    v
}

#[test]
fn cells_are_conserved_under_every_policy() {
    let lan = scenario("ubr-plus-lan5.toml");
    for policy in ["tail_drop", "ppd", "epd", "selective_drop", "fba"] {
        // Odd durations stop the run with cells queued and on the wire.
        for dur in ["0.3", "0.77"] {
            let r = run(&lan, &[("n_source.policy", policy), ("simulation.duration_s", dur)]);
            let c = &r.summary.conservation;
            assert!(c.balanced, "{policy} {dur}: {c:?}");
            assert_eq!(
                c.cells_offered,
                c.cells_delivered + c.cells_dropped + c.cells_queued + c.cells_on_wire
            );
            assert!(c.cells_dropped > 0, "{policy}: a 1000-cell buffer must overflow with 5 greedy sources");
            let port_in: u64 = r.ports.iter().map(|p| p.cells_in).sum();
            let port_out: u64 = r.ports.iter().map(|p| p.cells_out).sum();
            assert_eq!(port_in, port_out + c.cells_dropped + c.cells_queued, "{policy}: per-port balance");
        }
    }
}

#[test]
fn same_scenario_and_seed_give_identical_results() {
    let wan = scenario("ubr-plus-wan15.toml");
    let a = run(&wan, &[("simulation.duration_s", "0.5")]);
    let b = run(&wan, &[("simulation.duration_s", "0.5")]);
    assert_eq!(without_wall(&a), without_wall(&b));
    assert!(a.events > 0);
}

#[test]
fn template_and_general_form_agree_exactly() {
    let t = run(&scenario("ubr-plus-lan5.toml"), &[("simulation.duration_s", "1.5")]);
    let g = run(&scenario("ubr-plus-lan5-general.toml"), &[("simulation.duration_s", "1.5")]);
    assert_eq!(without_wall(&t), without_wall(&g));
}

#[test]
fn infinite_buffers_lose_nothing_and_queue_at_most_the_sum_of_windows() {
    // UBR+ paper, Table 1: with no loss every source gets the same share, and the queue can
    // reach (but not exceed) the sum of the windows: 5 * floor(65535 / 512) segments of 12 cells.
    let r = run(
        &scenario("ubr-plus-lan5.toml"),
        &[
            ("n_source.buffer_cells", "\"infinite\""),
            ("n_source.policy", "tail_drop"),
            ("simulation.duration_s", "2"),
        ],
    );
    assert_eq!(r.summary.conservation.cells_dropped, 0);
    assert!(r.flows.iter().all(|f| f.rto_expirations == 0 && f.segments_retransmitted == 0));
    let sum_windows = 5 * (65_535 / 512) * 12;
    let q = r.summary.max_queue_cells.unwrap();
    assert!(
        q <= sum_windows && q as f64 >= 0.95 * sum_windows as f64,
        "max queue {q}, windows {sum_windows}"
    );
    assert!(r.summary.fairness.unwrap() > 0.999);
    // Slow start costs a few round trips; after that the link is full.
    assert!(r.summary.efficiency.unwrap() > 0.98, "{:?}", r.summary.efficiency);
}

#[test]
fn tail_drop_delivers_corrupted_frames_and_epd_avoids_most() {
    let lan = scenario("ubr-plus-lan5.toml");
    let corrupted = |policy: &str| -> u64 {
        let r = run(&lan, &[("n_source.policy", policy), ("simulation.duration_s", "2")]);
        r.hosts.iter().map(|h| h.frames_corrupted).sum()
    };
    let (tail, epd) = (corrupted("tail_drop"), corrupted("epd"));
    assert!(tail > 0, "tail drop must cut frames");
    assert!(epd * 10 < tail, "EPD drops whole frames: {epd} corrupted vs {tail} under tail drop");
}

#[test]
fn goodput_never_exceeds_the_bottleneck() {
    let r = run(&scenario("ubr-plus-lan5.toml"), &[("simulation.duration_s", "1")]);
    let max = r.summary.max_tcp_goodput_bps.unwrap();
    assert!((max / 1e6 - 125.2).abs() < 0.05);
    assert!(r.summary.total_goodput_bps <= max);
    for f in &r.flows {
        assert_eq!(f.goodput_bps, f.bytes_delivered as f64 * 8.0 / r.duration_s);
    }
}

#[test]
fn arbitration_of_simultaneous_arrivals_decides_lockout() {
    // Equal phase-locked links put every source's cells at sw1 at the same instants. With a
    // fixed priority the lowest input wins every tie for the last buffer place, so once the
    // buffer is full the other sources lose every cell they send; a rotating priority shares the
    // losses. (Random phases leave no ties: `tests/phases.rs`.)
    let lan = scenario("ubr-plus-lan5.toml");
    let share = |arb: &str| -> Vec<f64> {
        let r = run(
            &lan,
            &[
                ("n_source.policy", "tail_drop"),
                ("n_source.arbitration", arb),
                ("simulation.phases", "\"aligned\""),
            ],
        );
        let total: f64 = r.flows.iter().map(|f| f.goodput_bps).sum();
        r.flows.iter().map(|f| f.goodput_bps / total).collect()
    };
    let fixed = share("fixed");
    assert!(fixed[0] > 0.99, "fixed priority: input 1 takes the link, got {fixed:?}");
    // Over the paper's 10 s every source gets a real share (synchronised timeouts still make
    // the shares unequal, as the paper describes).
    let rotating = share("rotating");
    assert!(
        rotating.iter().all(|&s| s > 0.05 && s < 0.5),
        "rotating: every source gets through, got {rotating:?}"
    );
}

/// The scheduling modes (`[engine] schedule`): the lookahead schedule runs components further
/// ahead than the reference one, which must change no result. The scenarios of `engine_texts`
/// are run both ways at a short duration and their reports compared field by field (all but
/// the wall time; the event count is compared too, as each event is processed once either
/// way).
#[test]
fn lookahead_and_reference_schedules_give_identical_reports() {
    for (name, text) in &engine_texts() {
        let runs: Vec<serde_json::Value> = ["lookahead", "reference"]
            .iter()
            .map(|mode| {
                let sets =
                    [("simulation.duration_s", "0.2"), ("engine.schedule", &format!("\"{mode}\"")[..])];
                without_wall(&run(text, &sets))
            })
            .collect();
        assert_eq!(runs[0], runs[1], "{name}");
    }
}

/// Every fast path switched off alone (`[engine]` switches, `ENGINE_SWITCHES`) changes no
/// report of the scenarios above (events included), and neither does the reference schedule
/// with every one off (the per-cell yardstick). Every one of those reports balances: each
/// port's tally (`cells_in = cells_out + cells_dropped + final_queue_cells`) and the network's
/// (`differential::conservation_break`), so a path that forgot to count fails here even if
/// every path forgot alike.
#[test]
fn every_fast_path_switched_off_alone_gives_identical_reports() {
    use atmsim_core::differential::conservation_break;
    use atmsim_core::scenario::ENGINE_SWITCHES;
    assert!(ENGINE_SWITCHES.len() >= 9, "{ENGINE_SWITCHES:?}");
    let off: Vec<String> = ENGINE_SWITCHES.iter().map(|s| format!("engine.{s}")).collect();
    let balanced = |v: serde_json::Value, what: &str| {
        if let Some(d) = conservation_break(&v) {
            panic!("{what}: {} = {}, balanced {}", d.field, d.got, d.reference);
        }
        v
    };
    for (name, text) in &engine_texts() {
        let dur = ("simulation.duration_s", "0.1");
        let default = balanced(without_wall(&run(text, &[dur])), name);
        for key in &off {
            let got =
                balanced(without_wall(&run(text, &[dur, (key, "false")])), &format!("{name}: {key} off"));
            assert_eq!(got, default, "{name}: {key} off");
        }
        let mut all: Vec<(&str, &str)> = off.iter().map(|k| (k.as_str(), "false")).collect();
        all.extend([dur, ("engine.schedule", "\"reference\"")]);
        let reference = balanced(without_wall(&run(text, &all)), &format!("{name}: reference"));
        assert_eq!(reference, default, "{name}: reference, every path off");
    }
}

/// With adaptive-shaping level logs a reader reads the writer's band at each RM cell's instant
/// whatever the schedule (`net/level_log.rs`): the refined schedule beside the logs
/// (`refine_beside_logs`), the plain one and the per-cell reference give one report. Over 1 s,
/// with aligned and with random phases (the slotted writer of the CLASS two-node case sees the
/// hosts' cells at its slot boundaries, wherever the hosts' batches end).
#[test]
fn the_schedule_beside_level_logs_gives_the_reference_reports() {
    use atmsim_core::scenario::ENGINE_SWITCHES;
    let text = scenario("class-two-node-adaptive.toml");
    let off: Vec<String> = ENGINE_SWITCHES.iter().map(|s| format!("engine.{s}")).collect();
    for (seed, phases) in [("1", "\"aligned\""), ("3", "\"random\"")] {
        let sets = [("simulation.duration_s", "1"), ("simulation.seed", seed), ("simulation.phases", phases)];
        let default = without_wall(&run(&text, &sets));
        let mut plain = sets.to_vec();
        plain.push(("engine.refine_beside_logs", "false"));
        assert_eq!(without_wall(&run(&text, &plain)), default, "seed {seed}: plain beside the logs");
        let mut all: Vec<(&str, &str)> = off.iter().map(|k| (k.as_str(), "false")).collect();
        all.extend(sets);
        all.push(("engine.schedule", "\"reference\""));
        assert_eq!(without_wall(&run(&text, &all)), default, "seed {seed}: reference, every path off");
    }
}

/// A port feeding a level log's slotted writer commits its cells ahead (refined, beside the
/// logs), so they sit in the writer's input before the per-cell path would send them; the
/// writer takes each at its slot boundary all the same. The CLASS two-node case with the
/// forward background reaching the writer through a third switch's port, over 5 s at seed 1,
/// random phases.
#[test]
fn a_port_feeding_a_slotted_level_log_writer_gives_the_reference_report() {
    use atmsim_core::scenario::ENGINE_SWITCHES;
    let shipped = scenario("class-two-node-adaptive.toml");
    let direct = "[[link]]\nends = [\"bga\", \"A\"]\nrate_bps = 150000000\ndelay_us = 0\n";
    assert!(shipped.contains(direct), "the background host's link to A");
    let via_c = "[[node]]\nname = \"C\"\nkind = \"switch\"\n\n\
        [[link]]\nends = [\"bga\", \"C\"]\nrate_bps = 150000000\ndelay_us = 0\n\n\
        [[link]]\nends = [\"C\", \"A\"]\nrate_bps = 150000000\ndelay_us = 0\n\n\
        [[port]]\nnode = \"C\"\ntoward = \"A\"\nbuffer_cells = 5000\npolicy = { kind = \"tail_drop\" }\n";
    let text = shipped
        .replace(direct, via_c)
        .replace("[\"bga\", \"A\", \"B\", \"bgb\"]", "[\"bga\", \"C\", \"A\", \"B\", \"bgb\"]")
        .replace("[\"bgb\", \"B\", \"A\", \"bga\"]", "[\"bgb\", \"B\", \"A\", \"C\", \"bga\"]");
    assert_eq!(text.matches("\"C\"").count(), 6, "C on both background routes");
    let sets =
        [("simulation.duration_s", "5"), ("simulation.seed", "1"), ("simulation.phases", "\"random\"")];
    let default = without_wall(&run(&text, &sets));
    let off: Vec<String> = ENGINE_SWITCHES.iter().map(|s| format!("engine.{s}")).collect();
    let mut all: Vec<(&str, &str)> = off.iter().map(|k| (k.as_str(), "false")).collect();
    all.extend(sets);
    all.push(("engine.schedule", "\"reference\""));
    assert_eq!(without_wall(&run(&text, &all)), default, "reference, every path off");
}

/// Every shipped scenario (and the benchmark cases) and scenarios exercising UPC, frame
/// merging, faults, traces, FCVC and the WFQ-based GFR switch, each with a `[simulation]`
/// table (random phases and drifting clocks, +-20 ppm, by default).
fn engine_texts() -> Vec<(String, String)> {
    let root = format!("{}/../../python/atmsim/scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut texts: Vec<(String, String)> = Vec::new();
    for dir in [root.clone(), format!("{root}/bench")] {
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("toml"))
            .collect();
        paths.sort();
        for p in paths {
            texts.push((p.display().to_string(), std::fs::read_to_string(&p).unwrap()));
        }
    }
    assert!(texts.len() >= 12, "shipped scenarios and the four bench cases");
    // Test scenarios: a traced LAN, a fault, UPC tagging at the ingress and merged VCs.
    let lan2 = "[n_source]\nsources = 2\nconfig = \"LAN\"\nbuffer_cells = 1000\npolicy = \"epd\"\n";
    texts.push(("traced".into(), format!("{lan2}[trace]\ninterval_s = 0.001\nper_vc = true\n")));
    texts.push((
        "fault".into(),
        format!("{lan2}[[fault]]\nport = \"sw1->sw2\"\nconnection = \"tcp1\"\nloss_rate = 0.01\n"),
    ));
    let path = "[[node]]\nname = \"a\"\nkind = \"host\"\n[[node]]\nname = \"s\"\nkind = \"switch\"\n\
                [[node]]\nname = \"b\"\nkind = \"host\"\n[[link]]\nends = [\"a\", \"s\"]\nrate_bps = 155520000\n\
                delay_us = 1.0\n[[link]]\nends = [\"s\", \"b\"]\nrate_bps = 155520000\ndelay_us = 1.0\n\
                [[port]]\nnode = \"s\"\ntoward = \"b\"\nbuffer_cells = 500\n\
                policy = { kind = \"fifo_gfr\", lbo_cells = 200, hbo_cells = 400 }\nmerge_frames = true\n";
    let mut upc = String::from(path);
    for i in 0..3 {
        upc += &format!(
            "[[connection]]\nname = \"c{i}\"\nroute = [\"a\", \"s\", \"b\"]\nvc = \"v{}\"\n\
             gfr = {{ mcr_cells_per_s = 20000, mfs_cells = 200, tagging = \"upc\", conformance = \"gfr2\" }}\n",
            i % 2
        );
    }
    texts.push(("upc, merged vcs".into(), upc));
    // The GFR study's WFQ-based switch: Virtual Spacing at the bottleneck (three VCs of unequal
    // MCR from three hosts, GFR.2 tagging) and at the egress ports (one VC each: a FIFO).
    let mut wfq = String::from(
        "[[node]]\nname = \"s\"\nkind = \"switch\"\n[[node]]\nname = \"t\"\nkind = \"switch\"\n\
         [[link]]\nends = [\"s\", \"t\"]\nrate_bps = 155520000\ndelay_us = 10.0\n",
    );
    let wfq_port = |node: &str, toward: &str| {
        format!(
            "[[port]]\nnode = \"{node}\"\ntoward = \"{toward}\"\nbuffer_cells = 600\n\
             policy = {{ kind = \"wfq_gfr\", lbo_cells = 300, hbo_cells = 500 }}\nscheduler = \"virtual_spacing\"\n"
        )
    };
    wfq += &wfq_port("s", "t");
    for (i, mcr) in [50000, 20000, 0].iter().enumerate() {
        wfq += &format!(
            "[[node]]\nname = \"a{i}\"\nkind = \"host\"\n[[node]]\nname = \"b{i}\"\nkind = \"host\"\n\
             [[link]]\nends = [\"a{i}\", \"s\"]\nrate_bps = 155520000\ndelay_us = 1.0\n\
             [[link]]\nends = [\"t\", \"b{i}\"]\nrate_bps = 155520000\ndelay_us = 1.0\n{}\
             [[connection]]\nname = \"c{i}\"\nroute = [\"a{i}\", \"s\", \"t\", \"b{i}\"]\n\
             gfr = {{ mcr_cells_per_s = {mcr}, mfs_cells = 200, tagging = \"upc\", conformance = \"gfr2\" }}\n",
            wfq_port("t", &format!("b{i}"))
        );
    }
    texts.push(("wfq, virtual spacing".into(), wfq.clone()));
    // The FIFO-based GFR switch with the frames tagged at the host adapters.
    let fifo = wfq
        .replace("kind = \"wfq_gfr\"", "kind = \"fifo_gfr\"")
        .replace("scheduler = \"virtual_spacing\"", "scheduler = \"fifo\"")
        .replace("tagging = \"upc\", conformance = \"gfr2\"", "tagging = \"adapter\"");
    texts.push(("fifo gfr, adapter tagging".into(), fifo));
    for (_, text) in texts.iter_mut() {
        if !text.contains("[simulation]") {
            *text = format!("[simulation]\nduration_s = 0.2\nseed = 1\n{text}");
        }
    }
    texts
}

/// A host with background sources only has no inputs, so nothing bounds its batches but
/// `Sim`'s source bound (1 ms): it must not run to the end of the run in one batch and hold all
/// its cells on the wire. A 100 Mb/s CBR source (235,849 cells/s) over 2 ms links for 0.2 s
/// (47,170 cells): the FIFOs never hold more than the links' flight and 1 ms of its cells (about
/// 1200), so their memory stays below 4096 cells where one batch would have grown it to 65,536.
#[test]
fn a_source_only_host_keeps_at_most_a_millisecond_ahead_on_the_wire() {
    use atmsim_core::scenario::{build::build, load};
    let text = "[simulation]\nduration_s = 0.2\nseed = 1\n\
                [[node]]\nname = \"a\"\nkind = \"host\"\n[[node]]\nname = \"s\"\nkind = \"switch\"\n\
                [[node]]\nname = \"b\"\nkind = \"host\"\n\
                [[link]]\nends = [\"a\", \"s\"]\nrate_bps = 155520000\ndelay_us = 2000.0\n\
                [[link]]\nends = [\"s\", \"b\"]\nrate_bps = 155520000\ndelay_us = 2000.0\n\
                [[background]]\nname = \"g\"\nroute = [\"a\", \"s\", \"b\"]\n\
                source = { kind = \"cbr\", rate_bps = 100e6 }\n";
    let mut built = build(load(text, &[], None).unwrap());
    built.sim.run_until(built.model.duration);
    let held: usize = built.sim.world.fifos.iter().map(|f| f.capacity()).sum();
    assert!(held < 4096, "FIFOs grew to {held} cells");
    let report = atmsim_core::report::report(&built, 0.0);
    assert!(report.background[0].cells_delivered > 40_000, "the source did run");
}

/// A slotted port takes a waiting cell into account at its next slot boundary, so its key may
/// lie past the cell's arrival while another cell is delivered behind it. The keys' debug
/// checks (on in the test profile) allow that; before they did, this scenario (found by the
/// differential suite in a debug build) failed the check in `World::deliver`. The reports
/// stay the reference's.
#[test]
fn a_slotted_port_may_be_keyed_past_a_waiting_cell() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/slotted-key-past-waiting-cell.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let fast = without_wall(&run(&text, &[]));
    let reference = without_wall(&run(&text, &[("engine.schedule", "\"reference\"")]));
    assert_eq!(fast, reference);
}
