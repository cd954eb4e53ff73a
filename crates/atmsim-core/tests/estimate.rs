//! The cost estimate against the measured: on every shipped scenario (`python/atmsim/scenarios`
//! and its `bench/` suite), run as shipped (default random phases) for its own duration capped at
//! [`MAX_DURATION_S`], the estimated cells and events are within a factor of two of what the run
//! counts. Cells and events are deterministic, so the comparison is exact and fair; memory and
//! wall time are compared by `scripts/estimate_bench.py`, never here.
//!
//! What the estimate does not model, measured when this test was written (with oscillator
//! drift): with `phases = "aligned"` the five greedy TCPs of the UBR+ LAN scenarios lose cells
//! together and sit out their coarse retransmission timeouts together, so the link carries 30-40 %
//! of its capacity and the estimate is 2.7 (2 s) to 3.3 (10 s) times the measured, 24 times over
//! the first 0.3 s. With random phases (the default) they desynchronise and keep the link busy
//! (1.0-1.4 times). Over the first few hundred milliseconds, before the first losses have been
//! recovered, the LAN scenarios are also 2.6-2.9 times high, and the five-source WAN bench 2.0
//! times over its first 2 s (slow start over a 30 ms round trip, then the first losses and
//! timeouts); the cap keeps every run at least as long as its scenario's own duration or 4 s,
//! past those transients.

use atmsim_core::api::{estimate_scenario, run_scenario};

/// Long enough for every scenario's sources to start and TCP to leave its first slow start and
/// first timeouts, short enough for a test (the CLASS scenarios run 60 s).
const MAX_DURATION_S: f64 = 4.0;

#[test]
fn estimated_cells_and_events_are_within_a_factor_of_two_on_the_shipped_scenarios() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/atmsim/scenarios");
    let mut paths: Vec<_> = [dir.clone(), dir.join("bench")]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).expect("scenarios directory"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("toml"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 12, "{paths:?}");
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        let own =
            toml::from_str::<toml::Table>(&text).unwrap()["simulation"]["duration_s"].as_float().unwrap();
        let sets = vec![("simulation.duration_s".to_string(), own.min(MAX_DURATION_S).to_string())];
        let est = estimate_scenario(&text, &sets, None).unwrap();
        let r = run_scenario(&text, &sets, None).unwrap();
        let cells = r.summary.conservation.cells_offered as f64;
        let events = r.events as f64;
        let name = path.strip_prefix(&dir).unwrap().to_string_lossy();
        eprintln!(
            "{name} ({} s): cells est {:.0} measured {cells:.0} ({:.2}); events est {:.0} measured {events:.0} ({:.2})",
            own.min(MAX_DURATION_S),
            est.cells,
            est.cells / cells,
            est.events,
            est.events / events
        );
        for (what, e, m) in [("cells", est.cells, cells), ("events", est.events, events)] {
            if !(e <= 2.0 * m && e >= 0.5 * m) {
                failures.push(format!("{name}: {what} estimated {e:.0}, measured {m:.0}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
