"""`atmsim reproduce gfr-bonaventure`: the scenario builder, the stated numbers, the derived
metrics and one very short end-to-end reproduction."""

from __future__ import annotations

from typing import List

import pandas as pd
import pytest

import atmsim
from atmsim.studies import registry, replication
from atmsim.studies.gfr_bonaventure import data, setups, text_runs
from atmsim.studies.gfr_bonaventure import scenarios as net
from atmsim.studies.gfr_bonaventure.study import (
    ALL_SETUPS,
    STUDY,
    GfrBonaventureStudy,
    derive_metrics,
    experiment_list,
    trace_list,
)
from atmsim.studies.registry import Experiment, TraceRun
from atmsim.studies.reproduce import reproduce_study

tomllib = pytest.importorskip("tomllib")


def test_gfr_scenario_is_the_papers_network():
    doc = tomllib.loads(net.scenario_text("tcp_sack", 180000, duration_s=3.0))
    assert doc["simulation"]["duration_s"] == 3.0
    conns = doc["connection"]
    assert [c["name"] for c in conns] == ["priv"] + [f"bg{i}" for i in range(1, 10)]
    assert conns[0]["gfr"] == {"mcr_cells_per_s": 180000, "mfs_cells": 200, "tagging": "adapter"}
    assert all(c["gfr"]["mcr_cells_per_s"] == 20000 for c in conns[1:])
    assert all(c["app"] == {"kind": "transfers", "bytes": 10_000_000, "mean_idle_s": 0.1} for c in conns)
    assert all(c["tcp"] == {"preset": "tcp_sack"} for c in conns)
    assert all(link["rate_cells_per_s"] == 365566 for link in doc["link"])
    delays = {tuple(link["ends"]): link["delay_us"] for link in doc["link"]}
    assert delays[("sw1", "sw2")] == 100
    assert delays[("s_priv", "sw1")] == 10 and delays[("sw2", "d_priv")] == 10
    nni = [p for p in doc["port"] if (p["node"], p["toward"]) == ("sw1", "sw2")][0]
    assert nni["buffer_cells"] == 8192
    assert nni["policy"] == {"kind": "fifo_gfr", "lbo_cells": 6144, "hbo_cells": 7168}
    assert len(doc["node"]) == 2 + 20


def test_ubr_baseline_has_uni2_bottlenecks_and_no_contract():
    doc = tomllib.loads(net.scenario_text("tcp_default", 60000, mode="ubr"))
    rates = {tuple(link["ends"]): link["rate_cells_per_s"] for link in doc["link"]}
    assert rates[("sw2", "d_priv")] == 60000
    assert rates[("sw2", "d_bg3")] == 20000
    assert rates[("sw1", "sw2")] == 365566 and rates[("s_priv", "sw1")] == 365566
    assert all("gfr" not in c for c in doc["connection"])
    assert {p["policy"]["kind"] for p in doc["port"]} == {"epd"}
    assert all(p["policy"]["threshold_cells"] == 7168 for p in doc["port"])


def test_builder_rejects_unknown_values():
    with pytest.raises(ValueError):
        net.scenario_text("reno", 20000)
    with pytest.raises(ValueError):
        net.scenario_text("tcp_default", 20000, mode="drr")
    with pytest.raises(ValueError):
        net.scenario_text("tcp_default", 20000, mode="wfq", conformance="gfr3")


def test_wfq_scenario_has_virtual_spacing_and_the_upc():
    doc = tomllib.loads(setups.SETUPS["22"].scenario_text(180000, 3.0))
    nni = [p for p in doc["port"] if (p["node"], p["toward"]) == ("sw1", "sw2")][0]
    assert nni["scheduler"] == "virtual_spacing"
    assert nni["policy"] == {"kind": "wfq_gfr", "lbo_cells": 6144, "hbo_cells": 7168}
    conns = {c["name"]: c for c in doc["connection"]}
    assert conns["priv"]["gfr"] == {
        "mcr_cells_per_s": 180000,
        "mfs_cells": 200,
        "tagging": "upc",
        "conformance": "gfr2",
    }
    # Figure 22: privileged MSS 512, background 9140, 64 KB windows for everyone.
    assert conns["priv"]["tcp"] == {
        "preset": "tcp_sack",
        "mss": 512,
        "window_bytes": 65536,
        "snd_buffer_bytes": 65536,
    }
    assert conns["bg4"]["tcp"] == {"preset": "tcp_sack", "window_bytes": 65536, "snd_buffer_bytes": 65536}
    gfr1 = tomllib.loads(setups.SETUPS["20"].scenario_text(20000, 3.0))
    assert gfr1["connection"][0]["gfr"]["conformance"] == "gfr1"
    delays = {tuple(link["ends"]): link["delay_us"] for link in gfr1["link"]}
    assert delays[("sw1", "sw2")] == 10000 and delays[("s_priv", "sw1")] == 2500
    assert gfr1["connection"][0]["tcp"]["window_bytes"] == 550 * 1024


def test_figure_setups_vary_what_the_text_says():
    three = tomllib.loads(setups.SETUPS["11-3bg"].scenario_text(20000, 1.0))
    assert [c["name"] for c in three["connection"]] == ["priv", "bg1", "bg2", "bg3"]
    assert sum(c["gfr"]["mcr_cells_per_s"] for c in three["connection"][1:]) == 180000
    six = setups.SETUPS["11-6bg"]
    assert six.background_sources * six.background_mcr == 180000
    assert setups.SETUPS["13"].priv_segment == 9140 and setups.SETUPS["13"].bg_segment == 512
    assert setups.SETUPS["14"].priv_segment == 512 and setups.SETUPS["14"].bg_segment == 9140
    assert setups.SETUPS["17"].background_mcr == 5000
    assert {setups.SETUPS[f].mode for f in setups.WFQ_FIGURES} == {"wfq"}
    assert {setups.SETUPS[f].mode for f in setups.FIFO_VARIANTS} == {"gfr"}
    assert [f for f in setups.FIGURES if setups.SETUPS[f].conformance == "gfr2"] == ["21", "22", "23"]
    # Small segments cost more per simulated second.
    assert setups.SETUPS["13"].cost() > setups.SETUPS["14"].cost() > setups.SETUPS["5"].cost()


def test_reserved_bandwidth_at_application_level():
    # 9140-octet segments with timestamps: 9128 data octets in a 192-cell AAL5-PDU.
    assert net.FRAME_CELLS == 192
    assert net.reserved_bps(180000) == pytest.approx(180000 / 192 * 9128 * 8)
    assert net.reserved_bps(20000) == pytest.approx(7.606667e6, rel=1e-6)
    # 1460 / 512-octet segments: 1448 / 500 data octets in 32 / 12 cells.
    assert (net.frame_cells(1460), net.frame_cells(512)) == (32, 12)
    assert net.reserved_bps(180000, 512) == pytest.approx(180000 / 12 * 500 * 8)


def test_statements_belong_to_the_study():
    compared = {t.id: {c.name for c in t.compared} for t in STUDY.tables}
    for s in data.STATEMENTS:
        assert s.column in compared[s.figure], s
        assert s.mcr in net.MCRS and s.preset == ALL_SETUPS[s.figure].preset
    for u in data.UNPLACED:
        assert u.column in compared[u.figure]
    assert data.published("5", "tcp_default", 180000)["rto_per_10mb"] == 4.0
    assert data.published("9", "tcp_sack", 20000) == {}
    assert data.published("17", "tcp_sack", 180000) == {"priv_delay_ms": 1.16, "bg_delay_ms": 32.7}
    # every stated MCR is among the quick points of its figure (figure 16's statement holds
    # at every MCR); the runs without a figure (text_runs) are full-mode tables, with one
    # quick row, but every statement of theirs is among their full-mode points
    quick = {(e.table, e.labels["mcr"]) for e in STUDY.experiments(True)}
    full = {(e.table, e.labels["mcr"]) for e in STUDY.experiments(False)}
    for s in data.STATEMENTS:
        assert (s.figure, s.mcr) in quick or s.figure == "16" or s.figure in text_runs.SETUPS
        assert (s.figure, s.mcr) in full


def test_experiments_quick_and_full():
    quick, full = STUDY.experiments(True), STUDY.experiments(False)
    n_quick, n_variants = len(setups.QUICK_VARIANTS), len(setups.VARIANTS)
    n_text, n_text_quick = len(text_runs.TABLES), len(text_runs.QUICK)
    assert len(quick) == 4 * 3 + 14 * 2 + n_quick * 2 + n_text_quick
    assert len(full) == 4 * 9 + 14 * 5 + n_variants * 3 + n_text * 3
    tables = set(setups.FIGURES + setups.VARIANTS + text_runs.TABLES)
    assert {e.table for e in full} == tables == {t.id for t in STUDY.tables}
    assert {e.labels["mcr"] for e in quick if e.table == "5"} == {20000, 100000, 180000}
    assert {e.labels["mcr"] for e in quick if e.table == "22"} == {20000, 180000}
    assert "duration_s = 20.0" in quick[0].scenario.text
    assert "duration_s = 250.0" in full[0].scenario.text
    # every run is its own scenario (the store keys runs by scenario text)
    assert len({e.scenario.text for e in full}) == len(full)
    # the reserved bandwidth label follows the privileged source's MSS
    f14 = [e for e in full if e.table == "14" and e.labels["mcr"] == 180000][0]
    assert f14.labels["reserved_bps"] == round(net.reserved_bps(180000, 512))
    assert experiment_list(True, ("16",))[0].table == "16"
    assert "gfr-bonaventure" in registry.names()
    assert registry.get("gfr-bonaventure") is STUDY


def test_derive_metrics():
    runs = pd.DataFrame(
        {
            "flows.priv.goodput_bps": [10.0],
            "flows.bg1.goodput_bps": [2.0],
            "flows.bg2.goodput_bps": [4.0],
            "flows.priv.bytes_retransmitted": [100_000.0],
            "flows.priv.bytes_delivered": [20_000_000.0],
            "flows.priv.mean_rtt_s": [0.014],
            "flows.priv.segments_retransmitted": [3.0],
            "flows.bg1.segments_retransmitted": [4.0],
        }
    )
    runs.attrs["metrics"] = list(runs.columns)
    out = derive_metrics(runs)
    row = out.iloc[0]
    assert row["derived.priv_goodput_bps"] == 10.0
    assert row["derived.bg_mean_goodput_bps"] == 3.0
    assert row["derived.priv_retx_kb_per_10mb"] == pytest.approx(50.0)
    assert row["derived.priv_rtt_ms"] == pytest.approx(14.0)
    assert row["derived.retx_segments_all"] == 7.0
    assert "derived.bg_mean_goodput_bps" in out.attrs["metrics"]
    assert "derived.priv_fair_ratio" not in out  # no table / mcr columns: no MCR share


def test_derive_metrics_wfq_quantities():
    # Figure 16 network: priv MCR 180000, 9 x 20000 in the background; goodputs exactly in
    # proportion to the MCRs give a fair ratio of 1.
    runs = pd.DataFrame(
        {
            "table": ["16"],
            "mcr": [180000],
            "flows.priv.goodput_bps": [9.0],
            "flows.priv.mean_delay_s": [0.002],
            **{f"flows.bg{i}.goodput_bps": [1.0] for i in range(1, 10)},
            **{f"flows.bg{i}.mean_delay_s": [0.001 * i] for i in range(1, 10)},
            "ports.sw1->sw2.vc_mean_queue_cells.priv": [100.0],
            "ports.sw1->sw2.vc_mean_queue_cells.bg1": [300.0],
            "ports.sw1->sw2.vc_mean_queue_cells.bg2": [500.0],
        }
    )
    out = derive_metrics(runs).iloc[0]
    assert out["derived.priv_fair_ratio"] == pytest.approx(1.0)
    assert out["derived.priv_delay_ms"] == pytest.approx(2.0)
    assert out["derived.bg_mean_delay_ms"] == pytest.approx(5.0)
    assert out["derived.priv_vc_queue_cells"] == 100.0
    assert out["derived.bg_mean_vc_queue_cells"] == 400.0
    # Figure 4 has no GFR contract: no MCR share.
    runs["table"] = ["4"]
    assert derive_metrics(runs)["derived.priv_fair_ratio"].isna().all()


def test_section6_variants_change_one_thing_each():
    base = tomllib.loads(setups.SETUPS["5"].scenario_text(20000, 1.0))
    for name, lbo in (("lbo4096", 4096), ("lbo2048", 2048), ("lbo2048-fast", 2048), ("lbo0", 0)):
        doc = tomllib.loads(setups.SETUPS[name].scenario_text(20000, 1.0))
        assert {p["policy"]["lbo_cells"] for p in doc["port"]} == {lbo}
        assert {p["policy"]["hbo_cells"] for p in doc["port"]} == {net.HBO_CELLS}
    for name, mcr in (("bg10000", 10000), ("bg5000", 5000), ("bg0", 0)):
        doc = tomllib.loads(setups.SETUPS[name].scenario_text(20000, 1.0))
        assert {c["gfr"]["mcr_cells_per_s"] for c in doc["connection"][1:]} == {mcr}
    mss = tomllib.loads(setups.SETUPS["mss512"].scenario_text(20000, 1.0))
    assert {c["tcp"]["mss"] for c in mss["connection"]} == {512}
    inf = tomllib.loads(setups.SETUPS["fifo-inf"].scenario_text(20000, 1.0))
    assert {p["buffer_cells"] for p in inf["port"]} == {"infinite"}
    assert {p["policy"]["kind"] for p in inf["port"]} == {"tail_drop"}
    assert inf["connection"] == base["connection"]
    with pytest.raises(ValueError, match="infinite_buffer"):
        net.scenario_text("tcp_sack", 20000, mode="wfq", infinite_buffer=True)
    # The text's LBO-0 numbers: 275 kb/s with TCP_default and TCP_SACK; TCP_fast three
    # 9140-octet segments per 40 ms.
    assert data.published("lbo0", "tcp_default", 180000) == {"priv_goodput_bps": 275e3}
    assert data.published("lbo0-fast", "tcp_fast", 20000)["priv_goodput_bps"] == pytest.approx(5.484e6)


def test_trace_runs_are_figures_6_8_10_and_24():
    runs = trace_list(True)
    assert [r.name for r in runs] == [
        "figure6-tcp_default",
        "figure8-tcp_fast",
        "figure10-tcp_sack",
        "figure24-mcr180000",
    ]
    f24 = tomllib.loads(runs[-1].scenario.text)
    assert f24["trace"]["arrivals"] and f24["trace"]["interval_s"] == 0.1
    assert f24["connection"][0]["gfr"]["conformance"] == "gfr2"
    for r in runs[:-1]:
        doc = tomllib.loads(r.scenario.text)
        assert doc["trace"]["connections"] == ["priv"]
        assert doc["trace"]["ports"] == ["sw1->sw2"]
        assert doc["connection"][0]["gfr"]["mcr_cells_per_s"] == 180000
    assert trace_list(False) == runs


class _Subset(GfrBonaventureStudy):
    """The study restricted to a few figures, to keep the end-to-end test short."""

    def experiments(self, quick: bool) -> List[Experiment]:
        return experiment_list(quick, ("5", "4", "16", "22"))

    def trace_runs(self, quick: bool) -> List[TraceRun]:
        return trace_list(quick)[:1]


def test_short_end_to_end(tmp_path):
    store = atmsim.open_store(str(tmp_path / "s.sqlite"))
    try:
        report = reproduce_study(
            _Subset(),
            True,
            (("simulation.duration_s", "0.5"),),
            store,
            tmp_path / "rep",
            jobs=1,
            progress=False,
        )
    finally:
        store.close()
    assert report.runs == (3 + 3 + 2 + 2) * replication.replications(STUDY.runs, quick=True)
    t5 = report.results.tables["5"]
    assert list(t5["mcr"]) == [20000, 100000, 180000]
    assert (t5["priv_goodput_bps"] > 0).all()
    assert t5["tagged_fraction"].between(0, 1).all()
    assert t5.loc[t5["mcr"] == 180000, "paper_rto_per_10mb"].item() == 4.0
    t4 = report.results.tables["4"]
    assert (t4["bg_goodput_bps"] > 0).all()
    t16 = report.results.tables["16"]
    assert (t16["paper_bottleneck_drops"] == 0).all()
    assert t16["priv_fair_ratio"].notna().all()
    assert report.results.tables["22"].loc[0, "paper_rto_per_10mb"] == 20.0
    # four goodput figures, the cwnd and queue traces of figure 6
    assert len(report.figures) == 4 + 2
    assert all(p.exists() for f in report.figures for p in f.files)


def test_notes_print_goodputs_in_mb_per_s_as_the_tables_do():
    import pandas as pd

    from atmsim.studies.gfr_bonaventure.study import notes
    from atmsim.studies.registry import StudyResults

    st = next(s for s in data.STATEMENTS if s.column == "priv_goodput_bps" and s.figure == "5")
    # Every column figure 5's statements read, 1.0 but the goodput.
    columns = {s.column for s in data.STATEMENTS if s.figure == "5"}
    row = {"mcr": st.mcr, **{f"{c}{end}": 1.0 for c in columns for end in ("", "_ci_low", "_ci_high")}}
    row.update(priv_goodput_bps=16.5e6, priv_goodput_bps_ci_low=16.0e6, priv_goodput_bps_ci_high=17.0e6)
    frame = pd.DataFrame([row])
    results = StudyResults(tables={"5": frame}, points=pd.DataFrame())
    line = next(n for n in notes(False, results) if n.startswith(f"figure 5, {st.preset}, MCR {st.mcr}"))
    assert "atmsim 16.5 Mb/s (95 % CI 16..17)" in line, line
    assert f"paper ~{st.value / 1e6:g} Mb/s" in line and "bit/s" not in line, line


def test_token_ring_mss_is_a_declared_assumption_the_sweep_reaches():
    """The Emulated Token Ring MSS (4424) is not in the paper (section 5 names only the
    Ethernet's 1460): it is listed as assumed with its range, and --sensitivity sweeps it on
    the mss4424 run alone."""
    import json

    from atmsim.studies import registry
    from atmsim.studies import sensitivity as S
    from atmsim.studies.gfr_bonaventure import text_runs
    from atmsim.studies.reproduce import assumptions_of
    from conftest import run_cli

    done = run_cli("reproduce", "gfr-bonaventure", "--assumptions", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    (entry,) = [a for a in doc["assumed"] if a["name"] == "token_ring_mss"]
    assert entry["value"] == text_runs.TOKEN_RING_MSS == 4424 and entry["range"] == [4424, 4462]
    assert "Token Ring" in entry["why"] and "token_ring_mss" not in {s["name"] for s in doc["stated"]}
    study = registry.get("gfr-bonaventure")
    declared = [a for a in assumptions_of(study) if a.name == "token_ring_mss"]
    chosen = list(S.subset(study, quick=True).experiments)
    variants, notes = S.plan(study, chosen, declared)
    swept = [v for v in variants if v.assumption == "token_ring_mss"]
    assert [v.value for v in swept] == [4462], notes
    assert chosen[swept[0].experiment].table == "mss4424"
    mss = {k: v for k, v in swept[0].point.overrides if k.endswith(".tcp.mss")}
    assert mss and set(mss.values()) == {"4462"}
