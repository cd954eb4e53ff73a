"""The credit/rate (gerla) and CLASS (ajmone-marsan) study declarations: data tables, scenario
builders, experiment lists and derived metrics. Fast: nothing here runs a long simulation."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pandas as pd
import pytest

from atmsim import _core
from atmsim.studies import ajmone_marsan as am
from atmsim.studies import ajmone_marsan_data as amd
from atmsim.studies import gerla, registry
from atmsim.studies import gerla_data as gd
from atmsim.studies import italian_network as it
from atmsim.studies.ajmone_marsan_study import STUDY as CLASS
from atmsim.studies.ajmone_marsan_study import derive_metrics as class_derive
from atmsim.studies.gerla_study import STUDY as GERLA
from atmsim.studies.gerla_study import derive_metrics as gerla_derive

tomllib = pytest.importorskip("tomllib")
ROOT = Path(__file__).resolve().parents[2]


# --- credit/rate study data ------------------------------------------------------------------

def test_b_av_check():
    # The printed B_av are C (1 - 1/b_g) with C = 150 Mb/s, to the printed precision.
    for b_g, stated in gd.B_AV_MBPS.items():
        assert gd.b_av_paper_arithmetic(b_g) == pytest.approx(stated, abs=0.05)
    # The MMDP as described fills 154.58 Mb/s when all 14 sources are on; with that link the
    # model's B_av is within 4 % of the printed values.
    assert gd.LINK_CELLS_PER_S == 364583
    for b_g, stated in gd.B_AV_MBPS.items():
        assert gd.b_av_mbps(b_g) == pytest.approx(stated, rel=0.04)
    # Saturation goodputs stay below B_av, and FCVC's above PRCA's.
    for b_g in gd.BURSTINESS:
        assert gd.SATURATION_MBPS["prca"][b_g] < gd.SATURATION_MBPS["fcvc"][b_g] < gd.B_AV_MBPS[b_g]


def test_fcvc_n3_from_eq1():
    assert gd.n3() == gd.FCVC_N3 == 1
    assert gd.FCVC_N2 + gd.FCVC_N3 == gd.FCVC_VC_BUFFER
    assert 15 * gd.FCVC_VC_BUFFER == gd.ABR_BUFFER_CELLS


def test_eta_oh_exposed_and_bounds_fcvc():
    eta = [_core.eta_oh(m, 2500.0) for m in gd.MSS_SWEEP]
    assert all(a < b for a, b in zip(eta, eta[1:]))
    assert eta[-1] < 48 / 53
    # At MSS 1024 the bound eta_OH x B_av lies above FCVC's stated saturation goodput.
    for b_g, stated in gd.SATURATION_MBPS["fcvc"].items():
        assert _core.eta_oh(1024, 2500.0) * gd.B_AV_MBPS[b_g] > stated
    with pytest.raises(ValueError):
        _core.eta_oh(0, 2500.0)


def test_gerla_scenario():
    doc = tomllib.loads(gerla.scenario_text("fcvc", 1.3, 4, mss=2048, duration_s=2.0))
    assert doc["simulation"]["duration_s"] == 2.0
    (port,) = doc["port"]
    assert port == {"node": "sw", "toward": "dst", "buffer_cells": 165, "scheduler": "priority",
                    "policy": {"kind": "tail_drop"}, "best_effort": "round_robin"}
    (bg,) = doc["background"]
    assert bg["count"] == 14 and bg["guaranteed"] is True and bg["route"] == ["g", "sw", "dst"]
    assert bg["source"] == {"kind": "on_off", "peak_bps": 10e6, "mean_burst_bytes": 4800,
                            "burstiness": 1.3}
    conns = doc["connection"]
    assert [c["name"] for c in conns] == ["tcp1", "tcp2", "tcp3", "tcp4"]
    assert all(c["fcvc"] == {"n2": 10, "n3": 1} and c["tcp"]["mss"] == 2048 for c in conns)
    assert all(link["delay_us"] == 70 and link["rate_cells_per_s"] == 364583
               for link in doc["link"])
    prca = tomllib.loads(gerla.scenario_text("prca", 1.1, 1, trace=True))
    assert prca["port"][0]["efci_threshold_cells"] == 82
    assert prca["connection"][0]["abr"] == {"kind": "prca"}
    assert prca["trace"]["interval_s"] == pytest.approx(1000 / 364583)
    with pytest.raises(ValueError):
        gerla.scenario_text("erica", 1.1, 1)
    with pytest.raises(ValueError):
        gerla.scenario_text("prca", 1.1, 16)


# --- CLASS study data ------------------------------------------------------------------------

def test_class_goodput_caps():
    for rate, stated in amd.ITALY_MAX_GOODPUT_MBPS.items():
        assert amd.shaped_goodput_cap_mbps(rate) == pytest.approx(stated, abs=0.06)


def test_class_statements_point_at_declared_experiments():
    exps = CLASS.experiments(quick=False)
    for st in amd.STATEMENTS:
        hits = [e for e in exps if e.table == st.figure
                and all(e.labels.get(k) == v for k, v in st.point.items())]
        assert hits, st
        assert all(e.published.get(st.quantity) == st.value for e in hits)


def test_two_node_scenarios():
    doc = tomllib.loads(am.two_node_scenario(45, 1000, 30e6, lengths="100", bg_shaped=False))
    delays = {tuple(link["ends"]): link["delay_us"] for link in doc["link"]}
    assert delays[("A", "B")] == 250 and delays[("t1", "A")] == 250
    assert delays[("B", "r1")] == 0
    assert all(c["shaping"] == {"rate_bps": 30e6, "cdvt_us": 0.0} for c in doc["connection"])
    assert all(c["tcp"] == {"preset": "reno_class"} for c in doc["connection"])
    fwd, back = doc["background"]
    assert fwd["route"] == ["bga", "A", "B", "bgb"] and back["route"] == ["bgb", "B", "A", "bga"]
    assert fwd["count"] == 9 and "shaping" not in fwd
    assert fwd["source"]["user_bps"] * 9 == pytest.approx(45e6)
    mixed = tomllib.loads(am.two_node_scenario(0, 5000, "adaptive", lengths="mixed"))
    assert "background" not in mixed
    delays = {tuple(link["ends"]): link["delay_us"] for link in mixed["link"]}
    assert [delays[(f"t{i}", "A")] for i in (1, 2, 3)] == [25, 250, 2500]
    ports = {(p["node"], p["toward"]): p for p in mixed["port"]}
    assert ports[("A", "B")]["rm_feedback"] == {"t_low_cells": 50, "t_high_cells": 2500}
    assert all(c["abr"] == {"kind": "adaptive", "nrm": 32, "max_rate_bps": 50e6}
               for c in mixed["connection"])
    shaped = tomllib.loads(am.two_node_scenario(50, 1000, None))
    assert shaped["background"][0]["shaping"] == {"beta": 1.2, "cdvt_us": 0.0}
    with pytest.raises(ValueError):
        am.two_node_scenario(0, 1000, "abr")


def test_italy_scenario_follows_the_topology_and_table1():
    doc = tomllib.loads(am.italy_scenario(0.8e9, 100, "adaptive", True, duration_s=1.0))
    switches = {n["name"] for n in doc["node"] if n["kind"] == "switch"}
    assert switches == set(it.NODES)
    conns = {c["name"]: c for c in doc["connection"]}
    assert conns["To-Fi"]["route"] == ["s_ToFi", "TO", "BO", "VE", "FI", "d_ToFi"]
    assert conns["Mi-Ro"]["abr"]["max_rate_bps"] == 150e6
    assert conns["Ro-Ba"]["abr"]["max_rate_bps"] == 75e6
    ports = [p for p in doc["port"] if p["node"] in switches and p["toward"] in switches]
    assert len(ports) == 2 * len(it.TOPOLOGY)
    assert all(p["buffer_cells"] == 100 and p["rm_feedback"] == {"t_low_cells": 5,
                                                                  "t_high_cells": 50}
               for p in ports)
    # The background carries Table 1: cell rate = share x total.
    user = sum(b["source"]["user_bps"] for b in doc["background"])
    assert user * 53 / 44 == pytest.approx(0.8e9)
    assert all(b["shaping"] == {"beta": 1.5, "cdvt_us": 0.0} for b in doc["background"])
    # No source exceeds its 150 Mb/s access link at the largest total.
    assert max(u for *_, u in am.background_sources(1.2e9)) * 53 / 44 < 0.5 * 150e6
    none = tomllib.loads(am.italy_scenario(1.0e9, 1000, None, False, tcp=False))
    assert [c["route"] for c in none["connection"]] == [["probe_s", "MI", "probe_d"]]


def test_generated_scenario_files_are_current():
    spec = importlib.util.spec_from_file_location(
        "write_issue5_scenarios", ROOT / "scripts" / "write_issue5_scenarios.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["write_issue5_scenarios"] = module
    spec.loader.exec_module(module)
    for name in module.SCENARIOS:
        shipped = ROOT / "python" / "atmsim" / "scenarios" / name
        assert shipped.read_text(encoding="utf-8") == module.render(name)


# --- study declarations ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["gerla", "ajmone-marsan"])
def test_registered_and_quick_subset(name):
    study = registry.get(name)
    quick, full = study.experiments(True), study.experiments(False)
    assert 0 < len(quick) < len(full)
    tables = {t.id for t in study.tables}
    assert {e.table for e in full} <= tables
    for exp in quick:
        doc = tomllib.loads(exp.scenario.text)
        assert doc["simulation"]["duration_s"] <= 10.0
        compared = {c.name for t in study.tables if t.id == exp.table for c in t.compared}
        assert set(exp.published) <= compared, (exp.table, exp.published)


def test_gerla_experiments_cover_the_figures():
    full = GERLA.experiments(False)
    fig3 = [e for e in full if e.table == "3"]
    assert len(fig3) == 45 and {e.labels["sources"] for e in fig3} == set(range(1, 16))
    sat = [e for e in fig3 if e.published.get("goodput_mbps") is not None]
    assert sorted(e.published["goodput_mbps"] for e in sat) == [7.3, 12.2, 16.6]
    assert {e.labels["mss"] for e in full if e.table == "5"} == set(gd.MSS_SWEEP)
    assert len(GERLA.trace_runs(True)) == 2


def test_gerla_derived_metrics():
    runs = pd.DataFrame({
        "point": [0], "mss": [1024],
        "summary.total_goodput_bps": [12e6],
        "flows.tcp1.goodput_bps": [12e6], "flows.tcp1.bytes_delivered": [12e6 * 20 / 8],
        "background.guaranteed.1.cells_delivered": [64.4e6 * 20 / 424],
        "background.guaranteed.2.cells_delivered": [64.4e6 * 20 / 424],
        f"ports.{gerla.BOTTLENECK}.cells_dropped": [3.0],
    })
    out = gerla_derive(runs)
    assert out["derived.goodput_mbps"][0] == pytest.approx(12.0)
    assert out["derived.b_av_mbps"][0] == pytest.approx(364583 * 424 / 1e6 - 128.8, abs=1e-6)
    assert out["derived.bound_mbps"][0] == pytest.approx(
        _core.eta_oh(1024, 2500.0) * out["derived.b_av_mbps"][0])
    assert out["derived.abr_cells_lost"][0] == 3.0


def test_class_derived_metrics():
    d = 10.0
    runs = pd.DataFrame({
        "flows.tcp1.goodput_bps": [40e6], "flows.tcp2.goodput_bps": [20e6],
        "flows.tcp1.bytes_delivered": [40e6 * d / 8], "flows.tcp2.bytes_delivered": [20e6 * d / 8],
        "flows.tcp1.bytes_retransmitted": [0.0], "flows.tcp2.bytes_retransmitted": [20e6 * d / 8],
        "flows.tcp1.aborts": [0.0], "flows.tcp2.aborts": [1.0],
        "ports.A->B.cells_out": [100e6 * d / 424],
        "background.bg_fwd.1.cells_delivered": [10e6 * d / 424],
        "background.bg_fwd.2.cells_delivered": [10e6 * d / 424],
        "ports.MI->RO.cells_out": [300e6 * d / 424],
    })
    out = class_derive(runs)
    assert out["derived.goodput_mbps"][0] == pytest.approx(60 * 9180 / 9140)
    assert out["derived.goodput_mbps.tcp2"][0] == pytest.approx(20 * 9180 / 9140)
    assert out["derived.efficiency"][0] == pytest.approx(0.75)
    assert out["derived.efficiency_min"][0] == 0.5
    assert out["derived.aborts"][0] == 1.0
    assert out["derived.efficiency.tcp1"][0] == 1.0
    assert out["derived.tcp_link_mbps"][0] == pytest.approx(80.0)
    assert out["derived.load.MI->RO"][0] == pytest.approx(0.5)
    assert math.isnan(out["derived.load.RO->MI"][0]) if "derived.load.RO->MI" in out else True


# --- the engine accepts every kind of scenario the studies build -----------------------------

@pytest.mark.parametrize("text", [
    gerla.scenario_text("prca", 1.2, 3, duration_s=0.02, trace=True),
    gerla.scenario_text("fcvc", 1.1, 3, duration_s=0.02),
    am.two_node_scenario(50, 1000, None, bg_shaped=False, duration_s=0.02),
    am.two_node_scenario(50, 5000, 15e6, lengths="mixed", duration_s=0.02),
    am.two_node_scenario(25, 1000, "adaptive", duration_s=0.02),
    am.italy_scenario(0.8e9, 100, "adaptive", True, duration_s=0.005),
    am.italy_scenario(1.2e9, 1000, 37.5e6, False, duration_s=0.005),
    am.italy_scenario(1.0e9, 1000, None, True, duration_s=0.005, tcp=False),
], ids=["gerla-prca", "gerla-fcvc", "two-node-unshaped", "two-node-mixed-15",
        "two-node-adaptive", "italy-adaptive", "italy-37.5", "italy-load-check"])
def test_engine_runs_the_scenarios(text):
    import json

    report = json.loads(_core.run_json(text))
    assert report["summary"]["conservation"]["balanced"]
    assert report["background"], "the background sources are in the report"
