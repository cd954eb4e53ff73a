#!/usr/bin/env bash
# Instructions per bottleneck cell under callgrind (issue 11; never a test: numbers, not checks).
#
#   scripts/callgrind_per_cell.sh BIN suite
#       the four bench cases: total instructions / cells_out of sw1->sw2
#   scripts/callgrind_per_cell.sh BIN long [SECONDS]
#       lan5.toml over SECONDS (default 10) simulated seconds: total instructions / cells_out of
#       sw1->sw2 (issue 25: at most 350, as over the bench's 2 s)
#   scripts/callgrind_per_cell.sh BIN vcs N
#       wan5.toml with N sources for 1 s and a buffer of 24 cells per source (12000 at N = 500,
#       the bench's; a fixed 12000 cells leave most of 10000 VCs in timeouts, with nothing
#       delivered), the set-up (the same for 3 us) subtracted: the run's instructions per
#       bottleneck cell at N active VCs (how many delivered data is printed). Two figures: the
#       whole process's (run_per_cell), and only what `Sim::run_until` executes
#       (sim_per_cell, callgrind collecting inside it alone): the report of a 1 s run is larger
#       than that of a 3 us one (at N = 10000 by about 85 M instructions), which the first
#       charges to the run
#   scripts/callgrind_per_cell.sh BIN vcs-second N
#       the same network run for 1 s and for 2 s: the second second's instructions per
#       bottleneck cell (what the first second alone charges per cell besides the running: each
#       VC's rings growing, its slow start, its share of the report), and how many VCs
#       delivered data in it; sim_per_cell counts only `Sim::run_until`, as for `vcs`
#   scripts/callgrind_per_cell.sh BIN link FILE [KEY=VALUE ...]
#       one scenario (overrides as `atmsim run --set`): total instructions / link cells (every
#       cell a port or host put on a link: the ports' and hosts' cells_out), issue 25's measure
#   scripts/callgrind_per_cell.sh BIN families
#       `link` on each study family's case at the length docs/performance.md quotes: shipped
#       UBR+ LAN 5 and WAN 15 (2 s), bench GFR FIFO, GFR WFQ, GFR WFQ under SACK and DFBA
#       (1 s), Gerla FCVC and PRCA (2 s), CLASS two-node shaped and adaptive (2 s), the Italian
#       network unshaped and adaptive (0.5 s)
#
# BIN is an `examples/run` binary (cargo build --release -p atmsim-core --example run).
# Output files go to ${OUT:-/tmp/callgrind-per-cell}.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$1
OUT=${OUT:-/tmp/callgrind-per-cell}
mkdir -p "$OUT"
collected() { grep -h "Collected" "$1" | awk '{print $4}' | tr -d ,; }
bottleneck() {
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print([p['cells_out'] for p in r['ports'] if p['name']=='sw1->sw2'][0])" "$1"
}
case $2 in
suite)
    for c in lan5 lan15 wan5 wan15; do
        valgrind --tool=callgrind --callgrind-out-file="$OUT/$c.cg" "$BIN" "python/atmsim/scenarios/bench/$c.toml" \
            >"$OUT/$c.json" 2>"$OUT/$c.err"
        ins=$(collected "$OUT/$c.err")
        cells=$(bottleneck "$OUT/$c.json")
        echo "$c instructions=$ins bottleneck_cells=$cells per_cell=$((ins / cells))"
    done
    ;;
long)
    secs=${3:-10}
    valgrind --tool=callgrind --callgrind-out-file="$OUT/lan5-${secs}s.cg" "$BIN" python/atmsim/scenarios/bench/lan5.toml \
        simulation.duration_s="$secs" >"$OUT/lan5-${secs}s.json" 2>"$OUT/lan5-${secs}s.err"
    ins=$(collected "$OUT/lan5-${secs}s.err")
    cells=$(bottleneck "$OUT/lan5-${secs}s.json")
    echo "lan5 ${secs}s instructions=$ins bottleneck_cells=$cells per_cell=$((ins / cells))"
    ;;
vcs)
    n=$3
    s=python/atmsim/scenarios/bench/wan5.toml
    sets=(n_source.sources="$n" n_source.buffer_cells=$((24 * n)))
    valgrind --tool=callgrind --callgrind-out-file="$OUT/vcs$n.cg" "$BIN" $s "${sets[@]}" \
        simulation.duration_s=1.0 >"$OUT/vcs$n.json" 2>"$OUT/vcs$n.err"
    valgrind --tool=callgrind --callgrind-out-file="$OUT/vcs$n-setup.cg" "$BIN" $s "${sets[@]}" \
        simulation.duration_s=0.000003 >"$OUT/vcs$n-setup.json" 2>"$OUT/vcs$n-setup.err"
    for d in 1.0 0.000003; do
        valgrind --tool=callgrind --collect-atstart=no --toggle-collect='atmsim_core::net::sim::Sim::run_until' \
            --callgrind-out-file="$OUT/vcs$n-sim-$d.cg" "$BIN" $s "${sets[@]}" simulation.duration_s="$d" \
            >/dev/null 2>"$OUT/vcs$n-sim-$d.err"
    done
    full=$(collected "$OUT/vcs$n.err")
    setup=$(collected "$OUT/vcs$n-setup.err")
    sim=$(collected "$OUT/vcs$n-sim-1.0.err")
    sim0=$(collected "$OUT/vcs$n-sim-0.000003.err")
    cells=$(bottleneck "$OUT/vcs$n.json")
    active=$(python3 -c "import json,sys; print(sum(f['bytes_delivered'] > 0 for f in json.load(open(sys.argv[1]))['flows']))" \
        "$OUT/vcs$n.json")
    echo "N=$n active=$active full=$full setup=$setup bottleneck_cells=$cells run_per_cell=$(((full - setup) / cells))" \
        "sim=$sim sim_setup=$sim0 sim_per_cell=$(((sim - sim0) / cells))"
    ;;
vcs-second)
    n=$3
    s=python/atmsim/scenarios/bench/wan5.toml
    sets=(n_source.sources="$n" n_source.buffer_cells=$((24 * n)))
    for d in 1 2; do
        valgrind --tool=callgrind --callgrind-out-file="$OUT/vcs$n-${d}s.cg" "$BIN" $s "${sets[@]}" \
            simulation.duration_s="$d" >"$OUT/vcs$n-${d}s.json" 2>"$OUT/vcs$n-${d}s.err"
        valgrind --tool=callgrind --collect-atstart=no --toggle-collect='atmsim_core::net::sim::Sim::run_until' \
            --callgrind-out-file="$OUT/vcs$n-sim-${d}s.cg" "$BIN" $s "${sets[@]}" simulation.duration_s="$d" \
            >/dev/null 2>"$OUT/vcs$n-sim-${d}s.err"
    done
    sim1=$(collected "$OUT/vcs$n-sim-1s.err")
    sim2=$(collected "$OUT/vcs$n-sim-2s.err")
    one=$(collected "$OUT/vcs$n-1s.err")
    two=$(collected "$OUT/vcs$n-2s.err")
    c1=$(bottleneck "$OUT/vcs$n-1s.json")
    c2=$(bottleneck "$OUT/vcs$n-2s.json")
    active=$(python3 -c "import json,sys; a, b = (json.load(open(f))['flows'] for f in sys.argv[1:]); \
print(sum(y['bytes_delivered'] > x['bytes_delivered'] for x, y in zip(a, b)))" "$OUT/vcs$n-1s.json" "$OUT/vcs$n-2s.json")
    echo "N=$n active_in_second_2=$active instructions=$((two - one)) bottleneck_cells=$((c2 - c1))" \
        "per_cell=$(((two - one) / (c2 - c1))) sim_per_cell=$(((sim2 - sim1) / (c2 - c1)))"
    ;;
families)
    s=python/atmsim/scenarios
    for c in "ubr-plus-lan5 2" "ubr-plus-wan15 2" "bench/gfr-fifo 1" "bench/gfr-wfq 1" "bench/gfr-wfq-sack 1" \
        "bench/dfba 1" "gerla-fcvc 2" "gerla-prca 2" "class-two-node-shaped 2" "class-two-node-adaptive 2" \
        "class-italy 0.5" "bench/italy-adaptive 0.5"; do
        set -- $c
        scripts/callgrind_per_cell.sh "$BIN" link "$s/$1.toml" simulation.duration_s="$2"
    done
    ;;
link)
    f=$3
    shift 3
    name=$(basename "$f" .toml)
    valgrind --tool=callgrind --callgrind-out-file="$OUT/$name.cg" "$BIN" "$f" "$@" >"$OUT/$name.json" \
        2>"$OUT/$name.err"
    ins=$(collected "$OUT/$name.err")
    cells=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); \
print(sum(c['cells_out'] for k in ('ports', 'hosts') for c in r.get(k, [])))" "$OUT/$name.json")
    echo "$name instructions=$ins link_cells=$cells per_link_cell=$((ins / cells))"
    ;;
*)
    echo "usage: $0 BIN suite | $0 BIN families | $0 BIN long [SECONDS] | $0 BIN vcs N | $0 BIN vcs-second N | $0 BIN link FILE [KEY=VALUE ...]" >&2
    exit 2
    ;;
esac
