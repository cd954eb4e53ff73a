"""The experiments the papers report only in their text (issue 27, item 9): Bonaventure's
WFQ runs with GFR.1 and heterogeneous MSS, with GFR.2 and homogeneous MSS, and TCP_default
with the Emulated Ethernet / Token Ring MSS. Fast: nothing here runs a simulation."""

from __future__ import annotations

from typing import Any, Dict, List

import pandas as pd
import pytest

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
    assert pd.isna(out.loc[2, "derived.priv_reserved_ratio"])  # UBR: no reservation
