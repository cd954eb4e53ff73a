"""The CLASS study (ajmone-marsan): its data, two-node and Italian scenario builders,
experiment list and derived metrics. Fast: nothing here runs a long simulation."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from atmsim.studies.ajmone_marsan import data as amd
from atmsim.studies.ajmone_marsan import italian_network as it
from atmsim.studies.ajmone_marsan import scenarios as am
from atmsim.studies.ajmone_marsan.study import STUDY as CLASS
from atmsim.studies.ajmone_marsan.study import derive_metrics as class_derive

tomllib = pytest.importorskip("tomllib")


def test_class_goodput_caps():
    for rate, stated in amd.ITALY_MAX_GOODPUT_MBPS.items():
        assert amd.shaped_goodput_cap_mbps(rate) == pytest.approx(stated, abs=0.06)


def test_class_statements_point_at_declared_experiments():
    exps = CLASS.experiments(quick=False)
    for st in amd.STATEMENTS:
        hits = [
            e for e in exps if e.table == st.figure and all(e.labels.get(k) == v for k, v in st.point.items())
        ]
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
    assert all(c["abr"] == {"kind": "adaptive", "nrm": 32, "max_rate_bps": 50e6} for c in mixed["connection"])
    fair = tomllib.loads(am.two_node_scenario(0, 5000, "adaptive", fair_share_interval_us=1000.0))
    ports = {(p["node"], p["toward"]): p for p in fair["port"]}
    assert ports[("A", "B")]["rm_feedback"] == {
        "t_low_cells": 50,
        "t_high_cells": 2500,
        "fair_share_interval_us": 1000.0,
    }
    assert "rm_feedback" not in ports[("B", "A")]
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
    assert all(
        p["buffer_cells"] == 100 and p["rm_feedback"] == {"t_low_cells": 5, "t_high_cells": 50} for p in ports
    )
    # The background carries Table 1: cell rate = share x total.
    user = sum(b["source"]["user_bps"] for b in doc["background"])
    assert user * 53 / 44 == pytest.approx(0.8e9)
    assert all(b["shaping"] == {"beta": 1.5, "cdvt_us": 0.0} for b in doc["background"])
    # No source exceeds its 150 Mb/s access link at the largest total.
    assert max(u for *_, u in am.background_sources(1.2e9)) * 53 / 44 < 0.5 * 150e6
    none = tomllib.loads(am.italy_scenario(1.0e9, 1000, None, False, tcp=False))
    assert [c["route"] for c in none["connection"]] == [["probe_s", "MI", "probe_d"]]


def test_class_derived_metrics():
    d = 10.0
    runs = pd.DataFrame(
        {
            "flows.tcp1.goodput_bps": [40e6],
            "flows.tcp2.goodput_bps": [20e6],
            "flows.tcp1.bytes_delivered": [40e6 * d / 8],
            "flows.tcp2.bytes_delivered": [20e6 * d / 8],
            "flows.tcp1.bytes_retransmitted": [0.0],
            "flows.tcp2.bytes_retransmitted": [20e6 * d / 8],
            "flows.tcp1.aborts": [0.0],
            "flows.tcp2.aborts": [1.0],
            "ports.A->B.cells_out": [100e6 * d / 424],
            "background.bg_fwd.1.cells_delivered": [10e6 * d / 424],
            "background.bg_fwd.2.cells_delivered": [10e6 * d / 424],
            "ports.MI->RO.cells_out": [300e6 * d / 424],
        }
    )
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


def test_adaptive_figures_run_with_and_without_fair_share_enforcement():
    study = CLASS
    quick = [e for e in study.experiments(True) if e.table in ("5", "6")]
    full = [e for e in study.experiments(False) if e.table in ("5", "6")]
    # The paper's setting (enforced) in quick mode; both in full mode, for the comparison.
    assert {e.labels["fairness"] for e in quick} == {"enforced"}
    assert {e.labels["fairness"] for e in full} == {"enforced", "none"}
    for e in full:
        doc = tomllib.loads(e.scenario.text)
        fb = {(p["node"], p["toward"]): p for p in doc["port"]}[("A", "B")]["rm_feedback"]
        assert ("fair_share_interval_us" in fb) == (e.labels["fairness"] == "enforced")
    # Figure 12 (Italian network) runs without enforcement, as the paper says.
    italy = [e for e in study.experiments(True) if e.table == "12"]
    assert italy and all("fair_share" not in e.scenario.text for e in italy)
