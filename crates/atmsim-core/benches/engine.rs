//! `cargo bench -p atmsim-core`: bottleneck cells per wall second on the UBR+ WAN 15-source
//! scenario. Criterion reports throughput in elements (bottleneck cells) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use atmsim_core::api::run_scenario;

fn wan15(c: &mut Criterion) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../python/atmsim/scenarios/ubr-plus-wan15.toml"
    ))
    .unwrap();
    let sets = vec![("simulation.duration_s".to_string(), "20".to_string())];
    let probe = run_scenario(&text, &sets, None).unwrap();
    let cells = probe.ports.iter().find(|p| p.name == "sw1->sw2").unwrap().cells_out;
    let mut g = c.benchmark_group("ubr-plus-wan15");
    g.sample_size(10);
    g.throughput(Throughput::Elements(cells));
    g.bench_function("20s_simulated", |b| b.iter(|| run_scenario(&text, &sets, None).unwrap()));
    g.finish();
}

criterion_group!(benches, wan15);
criterion_main!(benches);
