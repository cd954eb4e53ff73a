"""What the credit/rate and CLASS studies build: the example scenarios in scenarios/ are
current, the registered quick subsets are short, and the engine runs every kind of scenario."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from atmsim import _core
from atmsim.studies import registry
from atmsim.studies.ajmone_marsan import scenarios as am
from atmsim.studies.gerla import scenarios as gerla

tomllib = pytest.importorskip("tomllib")
ROOT = Path(__file__).resolve().parents[2]


def test_generated_scenario_files_are_current():
    spec = importlib.util.spec_from_file_location(
        "write_study_scenarios", ROOT / "scripts" / "write_study_scenarios.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["write_study_scenarios"] = module
    spec.loader.exec_module(module)
    for name in module.SCENARIOS:
        assert (ROOT / "python" / "atmsim" / "scenarios" / name).read_text(encoding="utf-8") == module.render(
            name
        )


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


@pytest.mark.parametrize(
    "text",
    [
        gerla.scenario_text("prca", 1.2, 3, duration_s=0.02, trace=True),
        gerla.scenario_text("fcvc", 1.1, 3, duration_s=0.02),
        am.two_node_scenario(50, 1000, None, bg_shaped=False, duration_s=0.02),
        am.two_node_scenario(50, 5000, 15e6, lengths="mixed", duration_s=0.02),
        am.two_node_scenario(25, 1000, "adaptive", duration_s=0.02),
        am.italy_scenario(0.8e9, 100, "adaptive", True, duration_s=0.005),
        am.italy_scenario(1.2e9, 1000, 37.5e6, False, duration_s=0.005),
        am.italy_scenario(1.0e9, 1000, None, True, duration_s=0.005, tcp=False),
    ],
    ids=[
        "gerla-prca",
        "gerla-fcvc",
        "two-node-unshaped",
        "two-node-mixed-15",
        "two-node-adaptive",
        "italy-adaptive",
        "italy-37.5",
        "italy-load-check",
    ],
)
def test_engine_runs_the_scenarios(text):
    report = json.loads(_core.run_json(text))
    assert report["summary"]["conservation"]["balanced"]
    assert report["background"], "the background sources are in the report"
