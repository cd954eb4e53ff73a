"""The experiments the papers report only in their text (issue 27, item 9): Bonaventure's
WFQ runs with GFR.1 and heterogeneous MSS, with GFR.2 and homogeneous MSS, and TCP_default
with the Emulated Ethernet / Token Ring MSS; the CLASS prose about figures 3 and 8-12 and the
connections closed by backoff. Fast: nothing here runs a simulation."""

from __future__ import annotations

from typing import Any, Dict, List

import pandas as pd
import pytest

from atmsim.studies.ajmone_marsan import data as amd
from atmsim.studies.ajmone_marsan.study import STUDY as CLASS
from atmsim.studies.ajmone_marsan.study import derive_metrics as class_derive
from atmsim.studies.comparators import ComparatorError
from atmsim.studies.gfr_bonaventure import data as gbd
from atmsim.studies.gfr_bonaventure import scenarios as net
from atmsim.studies.gfr_bonaventure import text_runs
from atmsim.studies.gfr_bonaventure.study import STUDY as GFR
from atmsim.studies.gfr_bonaventure.study import derive_metrics as gfr_derive
from atmsim.studies.gfr_bonaventure.study import experiment_list
from atmsim.studies.registry import Experiment

tomllib = pytest.importorskip("tomllib")


def _rows(study: Any, table: str, quick: bool = False) -> List[Experiment]:
    return [e for e in study.experiments(quick) if e.table == table]


def _one(rows: List[Experiment], **labels: Any) -> Experiment:
    hits = [e for e in rows if all(e.labels.get(k) == v for k, v in labels.items())]
    assert len(hits) == 1, (labels, [e.labels for e in rows])
    return hits[0]


# ---------------------------------------------------------------------------------------------
# Bonaventure


def test_gfr_text_runs_are_tables_with_their_stated_values():
    tables = {t.id: t for t in GFR.tables}
    for table in text_runs.TABLES:
        assert table in tables
        assert {e.labels["mcr"] for e in _rows(GFR, table)} == set(text_runs.MCRS)
    het = _one(_rows(GFR, "wfq-p512-b9140"), mcr=180000)
    assert het.published == {"priv_fair_ratio": 1.0}
    assert het.comparator("priv_fair_ratio") == "~"
    assert "almost its weighted" in het.quotes["priv_fair_ratio"]
    assert het.quotes["priv_fair_ratio"].endswith("section 7 (no figure)")
    g9140 = _one(_rows(GFR, "gfr2-mss9140"), mcr=180000)
    assert g9140.published == {"priv_reserved_ratio": 1.0}
    assert g9140.comparator("priv_reserved_ratio") == "<"
    assert "a lot of difficulties" in g9140.quotes["priv_reserved_ratio"]
    g1460 = _one(_rows(GFR, "gfr2-mss1460"), mcr=180000)
    assert g1460.comparator("priv_reserved_ratio") == "~"
    assert "almost able to achieve its reserved" in g1460.quotes["priv_reserved_ratio"]
    assert "priv_reserved_ratio" in {c.name for c in tables["gfr2-mss1460"].compared}
    for table in ("mss1460", "mss4424"):
        rows = _rows(GFR, table)
        assert _one(rows, mcr=100000).published == {"priv_goodput_bps": 18e6}
        assert _one(rows, mcr=180000).published == {"priv_goodput_bps": 25e6}
        assert {_one(rows, mcr=m).comparator("priv_goodput_bps") for m in (100000, 180000)} == {"<="}
        assert "between these two values" in _one(rows, mcr=180000).quotes["priv_goodput_bps"]
        assert _one(rows, mcr=20000).published == {}
    # the RTO rates of figures 18 / 19 carry over, at an MCR the text does not give
    assert {(u.figure, u.value) for u in gbd.UNPLACED} >= {("gfr2-mss9140", 10.0), ("gfr2-mss1460", 1.0)}


def _conns(text: str) -> Dict[str, Dict[str, Any]]:
    return {c["name"]: c for c in tomllib.loads(text)["connection"]}


def test_gfr_text_run_scenarios_carry_the_stated_mss_and_conformance():
    def scenario(table: str) -> Dict[str, Dict[str, Any]]:
        return _conns(_one(_rows(GFR, table), mcr=180000).scenario.text)

    for table, priv_mss, bg_mss in (("wfq-p512-b9140", 512, None), ("wfq-p9140-b512", None, 512)):
        conns = scenario(table)
        assert conns["priv"]["tcp"].get("mss") == priv_mss and conns["bg1"]["tcp"].get("mss") == bg_mss
        assert all(c["gfr"]["conformance"] == "gfr1" and c["gfr"]["tagging"] == "upc" for c in conns.values())
        assert all(c["tcp"]["window_bytes"] == 64 * 1024 for c in conns.values())
    for table, mss in (("gfr2-mss9140", None), ("gfr2-mss1460", 1460)):
        conns = scenario(table)
        assert {c["tcp"].get("mss") for c in conns.values()} == {mss}
        assert {c["gfr"]["conformance"] for c in conns.values()} == {"gfr2"}
        assert {c["tcp"]["preset"] for c in conns.values()} == {"tcp_sack"}
    for table, mss in (("mss1460", 1460), ("mss4424", text_runs.TOKEN_RING_MSS)):
        text = _one(_rows(GFR, table), mcr=180000).scenario.text
        conns = _conns(text)
        assert {c["tcp"]["mss"] for c in conns.values()} == {mss}
        assert {c["tcp"]["preset"] for c in conns.values()} == {"tcp_default"}
        assert {c["gfr"]["tagging"] for c in conns.values()} == {"adapter"}
        nni = [p for p in tomllib.loads(text)["port"] if (p["node"], p["toward"]) == ("sw1", "sw2")][0]
        assert nni["policy"]["kind"] == "fifo_gfr"
    # the Token Ring MSS is the 802.5 IP MTU less the headers, the rule that gives 1460
    assert text_runs.TOKEN_RING_MSS == 4464 - 40 and text_runs.ETHERNET_MSS == 1500 - 40
    # the reserved-bandwidth label follows the privileged MSS
    row = _one(_rows(GFR, "mss4424"), mcr=180000)
    assert row.labels["reserved_bps"] == round(net.reserved_bps(180000, 4424))


def test_gfr_quick_mode_adds_one_text_row():
    quick = [e for e in GFR.experiments(True) if e.table in text_runs.SETUPS]
    assert [(e.table, e.labels["mcr"]) for e in quick] == list(text_runs.QUICK) == [("gfr2-mss9140", 180000)]
    assert "duration_s = 20.0" in quick[0].scenario.text
    assert quick[0].published == {"priv_reserved_ratio": 1.0}


def test_gfr_unknown_table_is_one_line():
    with pytest.raises(ValueError) as err:
        experiment_list(False, ("mss9999",))
    message = str(err.value)
    assert "mss9999" in message and "\n" not in message and "mss4424" in message


def test_gfr_reserved_ratio_is_goodput_over_the_reserved_rate():
    reserved = net.reserved_bps(180000, 1460)
    runs = pd.DataFrame(
        {
            "table": ["gfr2-mss1460", "5", "4"],
            "mcr": [180000, 180000, 180000],
            "flows.priv.goodput_bps": [reserved * 0.9, 10e6, 10e6],
            **{f"flows.bg{i}.goodput_bps": [1e6, 1e6, 1e6] for i in range(1, 10)},
        }
    )
    out = gfr_derive(runs)
    assert out.loc[0, "derived.priv_reserved_ratio"] == pytest.approx(0.9)
    assert out.loc[1, "derived.priv_reserved_ratio"] == pytest.approx(10e6 / net.reserved_bps(180000))
    assert pd.isna(out["derived.priv_reserved_ratio"].iloc[2])  # UBR: no reservation


# ---------------------------------------------------------------------------------------------
# CLASS


def test_class_figure3_prose_as_comparable_statements():
    rows = _rows(CLASS, "3")
    unshaped = _one(rows, shaping="none", bg_mbps=50)
    assert unshaped.published["goodput_ratio_1000_505"] == 0.5
    assert unshaped.published["goodput_ratio_550_505"] == 0.9
    assert unshaped.comparator("goodput_ratio_1000_505") == "~"
    assert "inversely proportional" in unshaped.quotes["goodput_ratio_1000_505"]
    assert unshaped.published["efficiency_min_max"] == 1.0
    shaped = _one(rows, shaping="50", bg_mbps=25)
    assert shaped.comparator("goodput_ratio_1000_505") == "<"
    assert "still gets a lower bandwidth" in shaped.quotes["goodput_ratio_1000_505"]
    assert shaped.published["goodput_ratio_550_505"] == 1.0
    # the 15 Mb/s shaping the text reports without drawing it: new rows, one of them in quick
    fifteen = [e for e in rows if e.labels["shaping"] == "15"]
    assert {e.labels["bg_mbps"] for e in fifteen} == set(amd.BG_LOADS_MBPS)
    assert _one(fifteen, bg_mbps=0).published == {"goodput_min_max": 1.0}
    assert _one(fifteen, bg_mbps=0).comparator("goodput_min_max") == "="
    assert "exactly the same goodput" in _one(fifteen, bg_mbps=0).quotes["goodput_min_max"]
    assert [e.labels["bg_mbps"] for e in _rows(CLASS, "3", quick=True) if e.labels["shaping"] == "15"] == [50]
    # every statement of the figure at 0-75 Mb/s only (at 100 the text says it is overloaded)
    assert "goodput_ratio_1000_505" not in _one(rows, shaping="none", bg_mbps=100).published
    columns = {c.name for t in CLASS.tables if t.id == "3" for c in t.compared}
    assert {
        "goodput_ratio_1000_505",
        "goodput_ratio_550_505",
        "goodput_min_max",
        "efficiency_min_max",
    } <= columns


def test_class_italy_prose_and_closures():
    rows = _rows(CLASS, "8-9")
    exception = _one(rows, shaping="none", bg_shaped=False, total_gbps=1.2)
    assert "efficiency_Mi-Ro" not in exception.published  # the one case the text excepts
    assert exception.published["aborts_To-Fi"] == 1.0 and exception.comparator("aborts_To-Fi") == ">="
    assert "closed due to the TCP backoff" in exception.quotes["aborts_To-Fi"]
    assert "aborts_To-Fi" not in _one(rows, shaping="none", bg_shaped=False, total_gbps=0.8).published
    assert _one(rows, shaping="none", bg_shaped=True, total_gbps=0.8).published["efficiency_Mi-Ro"] == 1.0
    shaped = _one(rows, shaping="25", bg_shaped=True, total_gbps=1.0)
    assert shaped.published["cap_use_To-Fi"] == shaped.published["cap_use_Ve-To"] == 1.0
    assert shaped.published["cap_use_Mi-Ro"] == 1.0
    assert "completely use their assigned bandwidth" in shaped.quotes["cap_use_To-Fi"]
    assert "22.5, or 33.8, or 45.1" in shaped.quotes["cap_use_To-Fi"]
    # To-Fi / Ve-To completely use it with shaped background, or with 1000-cell buffers
    assert "cap_use_To-Fi" not in _one(rows, shaping="50", bg_shaped=False, total_gbps=1.0).published
    big = _one(_rows(CLASS, "10-11"), shaping="37.5", bg_shaped=False, total_gbps=1.0)
    assert big.published["cap_use_To-Fi"] == 1.0 and big.published["efficiency_Mi-Ro"] == 1.0
    assert "cap_use_Mi-Ro" not in _one(rows, shaping="none", bg_shaped=True, total_gbps=1.0).published
    adaptive = [e for e in _rows(CLASS, "12") if e.labels["buffer"] == 100 and e.labels["total_gbps"] == 1.2]
    assert adaptive and all(e.published["aborts_To-Fi"] == 1.0 for e in adaptive)
    assert all("still forced to close" in e.quotes["aborts_To-Fi"] for e in adaptive)
    # the two-node closure at 100 Mb/s of background, every shaping of figures 2 and 3
    for table in ("2", "3"):
        at100 = [e for e in _rows(CLASS, table) if e.labels["bg_mbps"] == 100]
        assert at100 and all(e.published["aborts"] == 1.0 and e.comparator("aborts") == ">=" for e in at100)
        assert all(e.quotes["aborts"].endswith("section 2") for e in at100)
    # the closure is read from the engine's per-flow count of connections given up
    compared = {c.name: c.metric for t in CLASS.tables if t.id == "8-9" for c in t.compared}
    assert compared["aborts_To-Fi"] == "flows.To-Fi.aborts"


def test_class_derived_ratios():
    runs = pd.DataFrame(
        {
            "flows.tcp1.goodput_bps": [40e6, 0.0],
            "flows.tcp2.goodput_bps": [36e6, 5e6],
            "flows.tcp3.goodput_bps": [20e6, 5e6],
            "flows.tcp1.bytes_delivered": [100.0, 0.0],
            "flows.tcp2.bytes_delivered": [90.0, 10.0],
            "flows.tcp3.bytes_delivered": [50.0, 10.0],
            "flows.tcp1.bytes_retransmitted": [0.0, 0.0],
            "flows.tcp2.bytes_retransmitted": [10.0, 0.0],
            "flows.tcp3.bytes_retransmitted": [50.0, 0.0],
        }
    )
    runs.attrs["metrics"] = list(runs.columns)
    out = class_derive(runs)
    assert out.loc[0, "derived.goodput_ratio.tcp3_tcp1"] == pytest.approx(0.5)
    assert out.loc[0, "derived.goodput_ratio.tcp2_tcp1"] == pytest.approx(0.9)
    assert out.loc[0, "derived.goodput_min_max"] == pytest.approx(0.5)
    assert out.loc[0, "derived.efficiency_min_max"] == pytest.approx(0.5)
    assert pd.isna(out["derived.goodput_ratio.tcp3_tcp1"].iloc[1])  # nothing delivered by tcp1
    assert "derived.goodput_min_max" in out.attrs["metrics"]


def test_class_cap_use_reads_the_stated_caps():
    runs = pd.DataFrame(
        {
            "shaping": ["25", "37.5", "50", "none", "adaptive"],
            "flows.To-Fi.goodput_bps": [22.5e6, 33.8e6 / 2, 45.1e6, 100e6, 60e6],
        }
    )
    runs["flows.To-Fi.goodput_bps"] /= data_factor()
    out = class_derive(runs)["derived.cap_use.To-Fi"]
    assert list(out[:3]) == pytest.approx([1.0, 0.5, 1.0])
    assert out[3:].isna().all()  # no cap stated for unshaped or adaptive connections
    columns = {c.name: c.metric for t in CLASS.tables if t.id == "10-11" for c in t.compared}
    assert columns["cap_use_Ve-To"] == "derived.cap_use.Ve-To"


def data_factor() -> float:
    """The paper's goodput counts 9180-octet segments: atmsim's payload goodput x 9180/9140."""
    return amd.SEGMENT_OCTETS / amd.MSS


def test_class_bad_statement_comparator_is_one_line():
    good = _one(_rows(CLASS, "8-9"), shaping="none", bg_shaped=False, total_gbps=1.2)
    with pytest.raises(ComparatorError) as err:
        Experiment(
            table=good.table,
            labels=good.labels,
            scenario=good.scenario,
            published=good.published,
            comparators={**good.comparators, "aborts_To-Fi": "at least"},
        )
    assert "aborts_To-Fi" in str(err.value) and "\n" not in str(err.value)
