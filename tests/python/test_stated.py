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
