"""`atmsim reproduce gfr-bonaventure`: the scenario builder, the stated numbers, the derived
metrics and one very short end-to-end reproduction."""

from __future__ import annotations

import pandas as pd
import pytest

import atmsim
from atmsim.studies import gfr_bonaventure as net
from atmsim.studies import gfr_bonaventure_data as data
from atmsim.studies import registry
from atmsim.studies.gfr_bonaventure_study import STUDY, derive_metrics
from atmsim.studies.reproduce import reproduce_study

tomllib = pytest.importorskip("tomllib")


def test_gfr_scenario_is_the_papers_network():
    doc = tomllib.loads(net.scenario_text("tcp_sack", 180000, duration_s=3.0))
    assert doc["simulation"]["duration_s"] == 3.0
    conns = doc["connection"]
    assert [c["name"] for c in conns] == ["priv"] + [f"bg{i}" for i in range(1, 10)]
    assert conns[0]["gfr"] == {"mcr_cells_per_s": 180000, "mfs_cells": 200, "tagging": "adapter"}
    assert all(c["gfr"]["mcr_cells_per_s"] == 20000 for c in conns[1:])
    assert all(c["app"] == {"kind": "transfers", "bytes": 10_000_000, "mean_idle_s": 0.1}
               for c in conns)
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
        net.scenario_text("tcp_default", 20000, mode="wfq")


def test_reserved_bandwidth_at_application_level():
    # 9140-octet segments with timestamps: 9128 data octets in a 192-cell AAL5-PDU.
    assert net.FRAME_CELLS == 192
    assert net.reserved_bps(180000) == pytest.approx(180000 / 192 * 9128 * 8)
    assert net.reserved_bps(20000) == pytest.approx(7.606667e6, rel=1e-6)


def test_statements_belong_to_the_study():
    columns = {c.name for t in STUDY.tables for c in t.compared}
    for s in data.STATEMENTS:
        assert s.column in columns and s.mcr in net.MCRS and s.preset in net.PRESETS
    assert data.published("5", "tcp_default", 180000)["rto_per_10mb"] == 4.0
    assert data.published("9", "tcp_sack", 20000) == {}
    # every stated MCR is among the quick points too
    from atmsim.studies.gfr_bonaventure_study import QUICK_MCRS
    assert {s.mcr for s in data.STATEMENTS} <= set(QUICK_MCRS)


def test_experiments_quick_and_full():
    quick, full = STUDY.experiments(True), STUDY.experiments(False)
    assert len(quick) == 4 * 3 and len(full) == 4 * 9
    assert {e.table for e in full} == {"4", "5", "7", "9"}
    assert "duration_s = 20.0" in quick[0].scenario.text
    assert "duration_s = 250.0" in full[0].scenario.text
    assert "gfr-bonaventure" in registry.names()
    assert registry.get("gfr-bonaventure") is STUDY


def test_derive_metrics():
    runs = pd.DataFrame({
        "flows.priv.goodput_bps": [10.0], "flows.bg1.goodput_bps": [2.0],
        "flows.bg2.goodput_bps": [4.0], "flows.priv.bytes_retransmitted": [100_000.0],
        "flows.priv.bytes_delivered": [20_000_000.0], "flows.priv.mean_rtt_s": [0.014],
        "flows.priv.segments_retransmitted": [3.0], "flows.bg1.segments_retransmitted": [4.0],
    })
    runs.attrs["metrics"] = list(runs.columns)
    out = derive_metrics(runs)
    row = out.iloc[0]
    assert row["derived.priv_goodput_bps"] == 10.0
    assert row["derived.bg_mean_goodput_bps"] == 3.0
    assert row["derived.priv_retx_kb_per_10mb"] == pytest.approx(50.0)
    assert row["derived.priv_rtt_ms"] == pytest.approx(14.0)
    assert row["derived.retx_segments_all"] == 7.0
    assert "derived.bg_mean_goodput_bps" in out.attrs["metrics"]


def test_short_end_to_end(tmp_path):
    store = atmsim.open_store(str(tmp_path / "s.sqlite"))
    try:
        report = reproduce_study(STUDY, True, (("simulation.duration_s", "0.5"),), store,
                                 tmp_path / "rep", jobs=1, progress=False)
    finally:
        store.close()
    assert report.runs == 12 * STUDY.runs
    t5 = report.results.tables["5"]
    assert list(t5["mcr"]) == [20000, 100000, 180000]
    assert (t5["priv_goodput_bps"] > 0).all()
    assert t5["tagged_fraction"].between(0, 1).all()
    assert t5.loc[t5["mcr"] == 180000, "paper_rto_per_10mb"].item() == 4.0
    t4 = report.results.tables["4"]
    assert (t4["bg_goodput_bps"] > 0).all()
    assert len(report.figures) == 4
    assert all(p.exists() for f in report.figures for p in f.files)
