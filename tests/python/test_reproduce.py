"""`atmsim reproduce ubr-plus`: row selection, scenario text and the run path."""

from __future__ import annotations

import json
from functools import partial

import pytest

from atmsim.studies import parallel
from atmsim.studies.ubr_plus import scenarios as ubr_plus
from atmsim.studies.ubr_plus.data import PaperRow
from conftest import SHORT_S, run_cli

ROW_KEYS = {
    "table", "config", "sources", "buffer_cells", "policy",
    "efficiency", "fairness", "paper_efficiency", "paper_fairness",
}


def test_parse_tables():
    assert ubr_plus.parse_tables("1,2") == [1, 2]
    assert ubr_plus.parse_tables("3") == [2]
    assert ubr_plus.parse_tables("6, 4,5") == [4, 5, 6]
    with pytest.raises(ValueError):
        ubr_plus.parse_tables("7")


def test_selection_sizes():
    assert len(ubr_plus.select((1, 2))) == 4 + 48
    assert len(ubr_plus.select(ubr_plus.TABLES)) == 4 + 48 + 44 + 54 + 54
    quick = ubr_plus.select((1, 2), quick=True)
    assert len(quick) == 2 + 24
    assert all(r.sources == 5 for r in quick)
    assert ubr_plus.select((4, 5), quick=True) == []


def test_scenario_text_is_the_template():
    tomllib = pytest.importorskip("tomllib")
    fba = tomllib.loads(ubr_plus.scenario_text("WAN", 15, 24000, "FBA", r=0.5, z=0.2))
    assert fba == {
        "simulation": {"duration_s": 20.0, "seed": 1},
        "n_source": {
            "sources": 15, "config": "WAN", "buffer_cells": 24000,
            "policy": "fba", "r": 0.5, "z": 0.2,
        },
    }
    t1 = tomllib.loads(ubr_plus.scenario_text("LAN", 5, None, "UBR"))
    assert t1["simulation"]["duration_s"] == 10.0
    assert t1["n_source"]["buffer_cells"] == "infinite"
    assert t1["n_source"]["policy"] == "tail_drop"
    assert "r" not in t1["n_source"]
    epd = tomllib.loads(ubr_plus.scenario_text("LAN", 5, 1000, "EPD"))
    assert epd["n_source"]["policy"] == "epd"


def check_row(out: dict, row: PaperRow) -> None:
    assert ROW_KEYS <= out.keys()
    assert (out["table"], out["config"], out["sources"], out["buffer_cells"], out["policy"]) == (
        row.table, row.config, row.sources, row.buffer_cells, row.policy,
    )
    assert 0.0 <= out["efficiency"] <= 1.0
    assert 0.0 <= out["fairness"] <= 1.0
    assert out["paper_efficiency"] == row.efficiency


def test_rows_through_worker_processes():
    """One Table 1 row and one FBA row through the same pool the CLI uses, shortened."""
    t1 = next(r for r in ubr_plus.select((1,)) if r.config == "LAN" and r.sources == 5)
    fba = next(r for r in ubr_plus.select((2,)) if r.policy == "FBA" and r.config == "LAN")
    fn = partial(ubr_plus.simulate, duration_s=SHORT_S)
    out1, out2 = parallel.run_all(fn, [t1, fba], jobs=2, cost=ubr_plus.cost)
    check_row(out1, t1)
    assert out1["paper_max_queue_cells"] == 7591
    assert out1["max_queue_cells"] >= 0
    assert "r" not in out1
    check_row(out2, fba)
    assert (out2["r"], out2["z"]) == (0.9, 0.8)


def test_cli_quick_json():
    """The documented smoke run, full length: 26 rows x 2 replications."""
    proc = run_cli("reproduce", "ubr-plus", "--quick", "--json", timeout=900)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert len(rows) == 26
    assert {r["table"] for r in rows} == {1, 2}
    assert all(ROW_KEYS <= r.keys() for r in rows)
    table1 = [r for r in rows if r["table"] == 1]
    assert all({"max_queue_cells", "paper_max_queue_cells"} <= r.keys() for r in table1)
    assert all(r["buffer_cells"] is None for r in table1)
    per_vc = [r for r in rows if r["policy"] in ("SD", "FBA")]
    assert per_vc and all((r["r"], r["z"]) == (0.9, 0.8) for r in per_vc)


def test_cli_quick_text_shortened():
    proc = run_cli("reproduce", "ubr-plus", "--quick", "--jobs", "1", "--duration", "0.1")
    assert proc.returncode == 0, proc.stderr
    assert "Table 1" in proc.stdout and "Tables 2-3" in proc.stdout
    assert "eff(paper)" in proc.stdout


def test_cli_set_reaches_every_run():
    """--set applies to each run: an unknown key is the engine's error, named, exit 2."""
    proc = run_cli(
        "reproduce", "ubr-plus", "--quick", "--tables", "1", "--duration", "0.05",
        "--set", "n_source.bogus=1",
    )
    assert proc.returncode == 2
    assert "n_source.bogus" in proc.stderr
    assert "Traceback" not in proc.stderr
    ok = run_cli(
        "reproduce", "ubr-plus", "--quick", "--tables", "1", "--duration", "0.05", "--jobs", "1",
        "--json", "--set", "n_source.stagger_timers=true",
    )
    assert ok.returncode == 0, ok.stderr
    assert len(json.loads(ok.stdout)) == 2
