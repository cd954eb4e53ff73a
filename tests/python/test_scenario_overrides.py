"""Scenario objects carry dotted-key overrides: atmsim.load(path, overrides=...),
Scenario.with_overrides(...), applied before those given to run() or a sweep."""

from __future__ import annotations

import atmsim

LAN5 = str(atmsim.example("ubr-plus-lan5"))
SHORT = {"simulation.duration_s": 0.05}


def test_load_with_overrides_changes_the_run() -> None:
    base = atmsim.load(LAN5, overrides=SHORT)
    epd = base.with_overrides({"n_source.policy": "epd"})
    assert base.overrides == (("simulation.duration_s", "0.05"),)
    assert epd.overrides[-1] == ("n_source.policy", "epd")
    assert atmsim.run(epd).ports.loc[0, "policy"] == "epd"
    assert atmsim.run(base).ports.loc[0, "policy"] == "fba"


def test_keyword_overrides_and_order() -> None:
    sc = atmsim.load(LAN5).with_overrides(simulation__duration_s=0.05, n_source__sources=2)
    r = atmsim.run(sc)
    assert len(r.flows) == 2
    # Overrides given to run() come after the scenario's, so they win.
    r3 = atmsim.run(sc, overrides={"n_source.sources": 3})
    assert len(r3.flows) == 3


def test_sweep_keeps_the_scenario_overrides() -> None:
    sc = atmsim.load(LAN5).with_overrides(SHORT)
    table = atmsim.sweep(sc, grid={"n_source.sources": [2, 3]}, runs=1, jobs=1, store=None, summary=False)
    assert sorted(table["n_source.sources"].tolist()) == [2, 3]
