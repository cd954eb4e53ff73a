//! Arbitrary bytes as a scenario: loading must return `Ok` or a `ScenarioError`, never panic;
//! a scenario that loads must build and run (for at most 1 ms of simulated time) without
//! panicking.

#![no_main]

use atmsim_core::scenario;
use atmsim_core::time::{from_secs_f64, Time};
use libfuzzer_sys::fuzz_target;

/// Skip building networks whose routing tables (one entry per channel and VC) would exceed this:
/// the tables are dense by design, and a 10 000-source template needs gigabytes.
const MAX_ROUTE_ENTRIES: usize = 4_000_000;
/// Cell slots of the fastest link a run may cover. The engine's cost is proportional to the cells
/// it moves, and a link may legally run at up to 10^12 cells/s: 1 ms of that is not a cheap run.
const MAX_SLOTS: f64 = 200_000.0;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // As written (the duration is checked, not run).
    let _ = scenario::load(text, &[], None);
    // Clamped to a cheap run.
    let sets = [("simulation.duration_s".to_string(), "0.001".to_string())];
    let Ok(model) = scenario::load(text, &sets, None) else {
        return;
    };
    if model.conns.len() * 2 * model.links.len() > MAX_ROUTE_ENTRIES {
        return;
    }
    let fastest = model.links.iter().map(|l| l.period.cells_per_s()).fold(0.0, f64::max);
    let end: Time = model.duration.min(from_secs_f64(MAX_SLOTS / fastest)).max(1);
    let mut built = scenario::build::build(model);
    built.sim.run_until(end);
});
