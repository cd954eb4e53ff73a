"""What each paper states is its study's default; what it leaves open is declared (issue 27,
item 1): the default scenarios carry the stated conditions, `--assumptions --json` separates
stated from assumed, and a stated condition kept sweepable lists its variants."""

from __future__ import annotations

import json

import pytest
import tomllib

from atmsim.studies import assumptions as A
from atmsim.studies import registry
from atmsim.studies.reproduce import assumptions_of, stated_of

STUDIES = ["ubr-plus", "gfr-bonaventure", "gfr-goyal", "gerla", "ajmone-marsan"]


def _simulation(text: str) -> dict:
    return tomllib.loads(text).get("simulation", {})


def test_ubr_plus_default_is_phase_locked_with_a_declared_tie_order():
    """Section 3.1: "no processing delay, delay variation or randomization in any component":
    every experiment and trace run is phase-locked (no drift), and its ties are ordered by the
    declared assumption `arbitration`."""
    study = registry.get("ubr-plus")
    arbitration = {a.name: a for a in assumptions_of(study)}["arbitration"]
    texts = [e.scenario.text for e in study.experiments(quick=False)]
    texts += [t.scenario.text for t in study.trace_runs(quick=False)]
    for text in texts:
        doc = tomllib.loads(text)
        assert doc["simulation"]["phases"] == "aligned"
        assert float(doc["simulation"].get("clock_ppm", 0.0)) == 0.0
        assert doc["n_source"]["arbitration"] == arbitration.value
    assert not arbitration.stated and "random" in arbitration.values


def test_ubr_plus_randomness_is_a_variant_against_the_paper():
    declared = {a.name: a for a in assumptions_of(registry.get("ubr-plus"))}
    phases, drift = declared["phases"], declared["clock_ppm"]
    assert phases.value == "aligned" and phases.variants() == ["random"]
    assert "randomization in any component" in phases.stated and "section 3.1" in phases.stated
    assert drift.value == 0.0 and drift.stated and 20.0 in drift.variants()
    # One declared setting away: the variant's overrides are the random-phase model.
    assert phases.overrides({}, "random") == (("simulation.phases", "random"),)


@pytest.mark.parametrize("name", STUDIES)
def test_assumptions_json_separates_stated_from_assumed(name):
    from conftest import run_cli

    done = run_cli("reproduce", name, "--assumptions", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["study"] == name and doc["stated"] and doc["assumed"]
    for s in doc["stated"]:
        assert {"name", "value", "source"} <= set(s) and s["source"]
    for a in doc["assumed"]:
        assert {"name", "value", "range", "why"} <= set(a) and a["why"]
        assert a["value"] in a["range"]
    stated = {s["name"] for s in doc["stated"]}
    assumed = {a["name"] for a in doc["assumed"]}
    assert not stated & assumed
    # Every declared assumption is listed once, as stated (with variants) or as assumed.
    study = registry.get(name)
    assert {a.name for a in assumptions_of(study)} <= stated | assumed
    assert len(doc["stated"]) == len(stated_of(study)) + sum(1 for a in assumptions_of(study) if a.stated)


def test_assumptions_json_for_all_lists_every_study():
    from conftest import run_cli

    done = run_cli("reproduce", "all", "--assumptions", "--json")
    assert done.returncode == 0, done.stderr
    assert [s["study"] for s in json.loads(done.stdout)["studies"]] == registry.names()


def test_ubr_plus_json_lists_phases_as_stated_with_its_variant():
    from conftest import run_cli

    doc = json.loads(run_cli("reproduce", "ubr-plus", "--assumptions", "--json").stdout)
    phases = [s for s in doc["stated"] if s["name"] == "phases"]
    assert phases and phases[0]["value"] == "aligned" and phases[0]["variants"] == ["random"]
    assert [a["value"] for a in doc["assumed"] if a["name"] == "arbitration"] == ["random"]
    text = run_cli("reproduce", "ubr-plus", "--assumptions").stdout
    stated_part, assumed_part = text.split("Assumed (not stated by the paper):")
    assert "phases = aligned" in stated_part and "variants (against the paper): random" in stated_part
    assert "arbitration = random" in assumed_part and "phases =" not in assumed_part


def test_a_stated_condition_must_quote_the_paper():
    a = A.Assumption("p", "phases", "aligned", "w", ["aligned", "random"], keys=["k"], stated="section 3.1")
    with pytest.raises(ValueError, match=r"^assumption p: stated must quote the paper") as err:
        A.check([a])
    assert "\n" not in str(err.value)
    A.check([A.Assumption("p", "phases", "aligned", "w", ["aligned"], keys=["k"], stated='"none", 3.1')])


def test_stated_quotation_is_part_of_the_source():
    s = A.Stated("rate", "155.52 Mb/s", "section 3.1", "All link bandwidths are 155.52 Mbps.")
    assert s.source() == '"All link bandwidths are 155.52 Mbps.", section 3.1'
    assert A.Stated("EPD", "K - 200", "section 5").source() == "section 5"
