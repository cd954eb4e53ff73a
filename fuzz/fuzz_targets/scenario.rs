//! Arbitrary bytes as a scenario: loading must return `Ok` or a `ScenarioError`, never panic;
//! a scenario that loads must build and run without panicking, and conserve its cells.
//!
//! What runs is decided by the engine's own cost estimate (`atmsim_core::estimate`), not by a
//! fixed short duration: a scenario whose estimated memory fits `MEMORY_BUDGET` is built (large
//! networks included), and run as written when its estimated events fit `EVENT_BUDGET` (long
//! runs included), else for the share of its duration that fits. The fuzzer thereby also tests
//! the estimate: an input it underestimates shows up as a timeout or an out-of-memory report.
//!
//! Each input that runs is run under the per-cell reference and under every engine setting
//! (`atmsim_core::differential`, the differential suite's comparison): a report that differs
//! from the reference's in any field, events included, is a crash naming the setting and the
//! first differing field. The event budget covers all of an input's runs together.

#![no_main]

use atmsim_core::differential::{compare_with_reference, engine_settings};
use atmsim_core::estimate::estimate;
use atmsim_core::scenario;
use atmsim_core::time::{from_secs_f64, Time};
use libfuzzer_sys::fuzz_target;

/// Events one input may cost, over all its runs: about a second of a release build, ten under
/// AddressSanitizer.
const EVENT_BUDGET: f64 = 5.0e6;
/// Estimated peak memory one input may take (the estimate counts 24 MB of process base).
const MEMORY_BUDGET: f64 = 768.0e6;
/// Backstop against an estimate that is far too low: cell slots of the fastest link.
const MAX_SLOTS: f64 = 20.0e6;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(model) = scenario::load(text, &[], None) else {
        return;
    };
    let cost = estimate(&model);
    if cost.memory_bytes > MEMORY_BUDGET {
        return;
    }
    let settings = engine_settings();
    let runs = 1.0 + settings.len() as f64;
    let share = (EVENT_BUDGET / runs / cost.events.max(1.0)).min(1.0);
    let fastest = model.links.iter().map(|l| l.period.cells_per_s()).fold(0.0, f64::max);
    let end: Time = ((model.duration as f64 * share) as Time)
        .min(from_secs_f64(MAX_SLOTS / fastest))
        .max(1);
    drop(model);
    let (r, mismatches) = compare_with_reference(text, &settings, Some(end)).expect("it loaded once");
    if let Some(m) = mismatches.first() {
        panic!("a fast path differs from the reference: {m}");
    }
    let c = &r["summary"]["conservation"];
    assert_eq!(c["balanced"], true, "cells not conserved: {c}");
});
