//! The cost estimate against the measured: on every shipped scenario, at a short duration, the
//! estimated cells and events are within a factor of two of what the run counts. Cells and
//! events are deterministic, so the comparison is exact and fair; memory and wall time are
//! compared by `scripts/estimate_bench.py`, never here.
//!
//! One known exception: the estimate assumes greedy TCP keeps its links busy. In the UBR+ LAN
//! scenarios five windows far larger than a 1000-cell buffer lose cells and sit out coarse
//! (500 ms tick) retransmission timeouts, so the link carries about 40 % of its capacity and the
//! estimate is 2.7 times the measured. For those the test holds the estimate to what it is, an
//! upper bound within a factor of three, rather than fit a TCP-dynamics factor to them.

/// Shipped scenarios where greedy TCP idles on timeouts (see above).
const TIMEOUT_BOUND: &[&str] = &["ubr-plus-lan5.toml", "ubr-plus-lan5-general.toml"];

use atmsim_core::api::{estimate_scenario, run_scenario};

/// Long enough for every scenario's sources to start and TCP to leave slow start on a LAN.
const DURATION_S: &str = "2.0";

#[test]
fn estimated_cells_and_events_are_within_a_factor_of_two_on_the_shipped_scenarios() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/atmsim/scenarios");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("scenarios directory")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("toml"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        let sets = vec![("simulation.duration_s".to_string(), DURATION_S.to_string())];
        let est = estimate_scenario(&text, &sets, None).unwrap();
        let r = run_scenario(&text, &sets, None).unwrap();
        let cells = r.summary.conservation.cells_offered as f64;
        let events = r.events as f64;
        let name = path.file_name().unwrap().to_string_lossy();
        eprintln!(
            "{name}: cells est {:.0} measured {cells:.0} ({:.2}); events est {:.0} measured {events:.0} ({:.2})",
            est.cells,
            est.cells / cells,
            est.events,
            est.events / events
        );
        for (what, e, m) in [("cells", est.cells, cells), ("events", est.events, events)] {
            let (lo, hi) = if TIMEOUT_BOUND.contains(&name.as_ref()) { (1.0, 3.0) } else { (0.5, 2.0) };
            if !(e <= hi * m && e >= lo * m) {
                failures.push(format!("{name}: {what} estimated {e:.0}, measured {m:.0}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
