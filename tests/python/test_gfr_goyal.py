"""The gfr-goyal study: the transcribed tables, the scenarios, and one short end-to-end run."""

from __future__ import annotations

import csv
import json
import math

import pytest

from atmsim.studies import registry
from atmsim.studies.gfr_goyal import data
from atmsim.studies.gfr_goyal import scenarios as gfr_goyal
from atmsim.studies.gfr_goyal.study import STUDY, derive_metrics, group_values
from atmsim.studies.reproduce import _relabelled
from conftest import run_cli


def test_row_counts():
    assert len(data.rows_1_3()) == 4 * 5
    assert len(data.rows_4_5()) == 3 * 5
    # + figure 3 (4 cases, 2 quick) + the maximum queue per Tables 4-5 experiment (3, 2 quick)
    assert len(STUDY.experiments(quick=False)) == 35 + 4 + 3
    assert len(STUDY.experiments(quick=True)) == 15 + 2 + 2


def test_thresholds_sum_to_the_printed_totals():
    for e, r in data.TABLE1_THRESHOLDS.items():
        assert 3 * sum(r) == data.TABLE1_TOTALS[e]
        assert list(r) == sorted(r)
    for e, r in data.TABLE4_THRESHOLDS.items():
        assert sum(r) == data.TABLE4_TOTALS[e]
    # Every threshold fits the 48000-cell buffer, totals at 29/43/57/71 % of it.
    shares = [int(100 * t / data.BUFFER_CELLS) for t in data.TABLE1_TOTALS.values()]
    assert shares == [28, 42, 57, 71]  # the paper rounds these to 29, 43, 57, 71 %


def test_published_values_are_consistent():
    for row in data.rows_1_3():
        assert 0.5 < row["ratio"] < 1.5
        assert 0 < row["throughput_mbps"] < 20
        # Table 3 follows from Tables 1 and 2 (to 0.04: see the data module's notes).
        derived = (row["throughput_mbps"] / row["total_mbps"]) / (row["r_i"] / row["r"])
        assert derived == pytest.approx(row["ratio"], abs=0.045)
    for e, total in data.TABLE2_TOTAL_MBPS.items():
        assert 3 * sum(data.TABLE2_MBPS[e]) == pytest.approx(total, rel=0.01)
        assert total < 126.1
    for row in data.rows_4_5():
        assert 0.5 < row["ratio"] < 1.5


def test_group_values():
    # Goodputs exactly proportional to the thresholds give ratio 1 everywhere.
    r = data.TABLE1_THRESHOLDS[1]
    goodputs = {i: 1e3 * r[gfr_goyal.group_of(i)] for i in range(1, 16)}
    for v in group_values(goodputs, list(r), per_tcp=True):
        assert v["ratio"] == pytest.approx(1.0)
    assert group_values(goodputs, list(r), per_tcp=False)[0]["ratio"] == pytest.approx(1.0)


def test_derive_metrics_reads_each_rows_group():
    pd = pytest.importorskip("pandas")
    r = data.TABLE1_THRESHOLDS[1]
    # Group 1's TCPs get twice their proportional share, the others exactly theirs.
    goodputs = {i: 1e3 * r[gfr_goyal.group_of(i)] * (2 if i <= 3 else 1) for i in range(1, 16)}
    flows = {f"flows.tcp{i}.goodput_bps": [g, g] for i, g in goodputs.items()}
    runs = pd.DataFrame(
        {
            "table": ["1-3", "1-3"],
            "experiment": [1, 1],
            "tcps": [data.GROUPS[0], data.GROUPS[1]],
            "vc": [None, None],
            **flows,
        }
    )
    runs.attrs["metrics"] = list(flows)
    out = derive_metrics(runs)
    expected = {k: v["ratio"] for k, v in enumerate(group_values(goodputs, list(r), True))}
    assert out["derived.ratio"].tolist() == pytest.approx([expected[0], expected[1]])
    assert out["derived.ratio"][0] > 1.5 > 1 > out["derived.ratio"][1]
    assert out["derived.throughput_mbps"][0] == pytest.approx(2e3 * r[0] / 1e6)
    assert {"derived.ratio", "derived.throughput_mbps"} <= set(out.attrs["metrics"])
    # Tables 4-5 rows: the VC's summed goodput; no per-TCP throughput.
    runs45 = runs.assign(table=["4-5", "4-5"], tcps=[None, None], vc=[data.VCS[0], data.VCS[4]])
    out45 = derive_metrics(runs45)
    assert out45["derived.ratio"].notna().all() and out45["derived.throughput_mbps"].isna().all()


def test_rows_sharing_a_run_get_their_own_labels():
    pd = pytest.importorskip("pandas")
    experiments = [e for e in STUDY.experiments(quick=True) if e.table in ("1-3", "4-5")]
    # The store returns the first point's parameters for every row of a shared run.
    runs = pd.DataFrame(
        {
            "point": list(range(len(experiments))),
            "table": [experiments[0].table] * len(experiments),
            "tcps": [experiments[0].labels["tcps"]] * len(experiments),
        }
    )
    runs.attrs["metrics"] = []
    out = _relabelled(runs, experiments)
    assert out["table"].tolist() == [e.table for e in experiments]
    for key in ("tcps", "vc"):
        got = [v if isinstance(v, str) or v == v else None for v in out[key]]
        assert got == [e.labels.get(key) for e in experiments]


def test_scenarios_parse():
    tomllib = pytest.importorskip("tomllib")
    t = tomllib.loads(gfr_goyal.threshold_scenario(2))
    assert len(t["connection"]) == 15
    assert t["port"][0]["policy"] == {"kind": "threshold_drop"}
    assert [c["vc_threshold_cells"] for c in t["connection"][::3]] == list(data.TABLE1_THRESHOLDS[2])
    d = tomllib.loads(gfr_goyal.dfba_scenario(3))
    assert {c["vc"] for c in d["connection"]} == {f"vc{k}" for k in range(1, 6)}
    assert sum(1 for p in d["port"] if p.get("merge_frames")) == 5
    # RTT 30 ms: one-way delays along each route add up to 15 ms.
    delays = {tuple(sorted(link["ends"])): link["delay_us"] for link in d["link"]}
    route = d["connection"][0]["route"]
    assert sum(delays[tuple(sorted(p))] for p in zip(route, route[1:])) == 15000


def test_figure3_scenarios_carry_a_window_triggered_fault():
    tomllib = pytest.importorskip("tomllib")
    for t in data.FIGURE3_THRESHOLDS:
        doc = tomllib.loads(gfr_goyal.single_tcp_scenario(t))
        assert len(doc["connection"]) == 1 and doc["tcp"]["variant"] == "sack"
        assert doc["simulation"]["phases"] == "aligned"
        faults = doc.get("fault", [])
        assert [f["cwnd_octets"] for f in faults] == ([] if t is None else [t])
    # The figure-3 rows take the single TCP's goodput; the max-queue rows share DFBA's runs.
    fig3 = [e for e in STUDY.experiments(quick=False) if e.table == "fig3"]
    assert [e.published["throughput_mbps"] for e in fig3] == list(data.FIGURE3_SIM_MBPS)
    pd = pytest.importorskip("pandas")
    runs = pd.DataFrame([{"table": "fig3", "threshold_octets": "125000", "flows.tcp1.goodput_bps": 24.5e6}])
    assert derive_metrics(runs)["derived.throughput_mbps"].tolist() == [24.5]
    queue = {e.labels["experiment"]: e for e in STUDY.experiments(quick=False) if e.table == "5q"}
    dfba = {e.labels["experiment"]: e.scenario for e in STUDY.experiments(quick=False) if e.table == "4-5"}
    assert {k: q.scenario.text for k, q in queue.items()} == {k: s.text for k, s in dfba.items()}
    assert {k: q.published["max_queue_cells"] for k, q in queue.items()} == data.TABLE5_MAX_QUEUE_CELLS


def test_trace_runs_draw_figures_3_and_5():
    names = [r.name for r in STUDY.trace_runs(quick=False)]
    assert names == ["fig3-125000", "fig3-250000", "fig3-500000", "fig3-none"] + [
        f"fig5-experiment{e}" for e in data.EXPERIMENTS_1_3
    ]
    assert [r.name for r in STUDY.trace_runs(quick=True)] == [
        "fig3-125000",
        "fig3-500000",
        "fig5-experiment1",
    ]


def test_registered():
    assert "gfr-goyal" in registry.names()
    assert registry.get("gfr-goyal") is STUDY


def test_short_end_to_end(tmp_path):
    out, store = tmp_path / "rep", tmp_path / "s.sqlite"
    done = run_cli(
        "reproduce",
        "gfr-goyal",
        "--quick",
        "--duration",
        "2",
        "--jobs",
        "2",
        "--out",
        out,
        "--store",
        store,
        "--json",
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    (study,) = doc["studies"]
    assert study["name"] == "gfr-goyal" and study["runs_computed"] == 15  # 5 points x 3 replications
    tables = {(a["table"], a["metric"]) for a in study["agreement"]}
    assert ("1-3", "ratio") in tables and ("4-5", "ratio") in tables
    assert ("fig3", "throughput_mbps") in tables and ("5q", "max_queue_cells") in tables
    for table in ("1-3", "4-5"):
        with open(out / "gfr-goyal" / f"table-{table}.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == (5 if table == "1-3" else 10)  # Tables 4-5: experiments 1 and 2
        for row in rows:
            assert math.isfinite(float(row["ratio"])) and 0 < float(row["ratio"]) < 3
            assert float(row["paper_ratio"]) > 0


def test_weight_rule_assumption_gives_weights_in_proportion_to_the_thresholds():
    tomllib = pytest.importorskip("tomllib")
    from atmsim.studies.gfr_goyal.assumptions import _weight_rule, assumptions

    assert "dfba_weight_rule" in {a.name for a in assumptions()}
    doc = tomllib.loads(gfr_goyal.dfba_scenario(1))
    r = [c["vc_threshold_cells"] for c in doc["connection"]]
    w = {key: float(v) for key, v in _weight_rule(doc, "threshold")}
    got = [w[f"connection.{i}.vc_weight"] for i in range(len(r))]
    assert sum(got) / len(got) == pytest.approx(1.0, abs=1e-5)
    assert got == pytest.approx([x * len(r) / sum(r) for x in r], rel=1e-5)
    assert got[0] < got[-1], "a higher threshold, a higher drop weight"
    assert {float(v) for _, v in _weight_rule(doc, "equal")} == {1.0}
    with pytest.raises(ValueError, match="dfba_weight_rule: 'rising' is not one of equal, threshold"):
        _weight_rule(doc, "rising")
