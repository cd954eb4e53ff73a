"""What each paper states is its study's default; what it leaves open is declared (issue 27,
item 1): the default scenarios carry the stated conditions, `--assumptions --json` separates
stated from assumed, and a stated condition kept sweepable lists its variants."""

from __future__ import annotations

import json
from typing import Any, Dict

import pytest
import tomllib

from atmsim.studies import assumptions as A
from atmsim.studies import registry
from atmsim.studies.reproduce import assumptions_of, stated_of

STUDIES = ["ubr-plus", "gfr-bonaventure", "gfr-goyal", "gerla", "ajmone-marsan"]


def _simulation(text: str) -> Dict[str, Any]:
    simulation: Dict[str, Any] = tomllib.loads(text).get("simulation", {})
    return simulation


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


def test_class_default_is_slotted_and_phase_locked_with_a_declared_tie_order():
    """CLASS is time-driven, slotted and synchronous: every run is phase-locked, every port
    takes arrivals on its slot boundaries, and the order of a tie is the declared assumption."""
    study = registry.get("ajmone-marsan")
    declared = {a.name: a for a in assumptions_of(study)}
    arbitration = declared["arbitration"]
    assert not arbitration.stated and set(arbitration.values) == {"random", "rotating", "fixed"}
    assert declared["arrivals"].stated and declared["arrivals"].value == "slotted"
    assert declared["phases"].value == "aligned" and declared["phases"].stated
    for e in study.experiments(quick=True):
        doc = tomllib.loads(e.scenario.text)
        assert doc["simulation"]["phases"] == "aligned" and "clock_ppm" not in doc["simulation"]
        assert doc["port"] and all(p["arrivals"] == "slotted" for p in doc["port"])
        assert all(p["arbitration"] == arbitration.value for p in doc["port"])


def test_class_timer_clock_is_an_assumption_not_a_statement():
    """The paper states the code ("the officially distributed C code of the BSD 4.3-reno
    release"), not the 500 ms clock it ran on."""
    study = registry.get("ajmone-marsan")
    stated = {s.name: s for s in stated_of(study)}
    assert not any("500 ms" in s.value or "slow timer" in s.value for s in stated.values())
    assert "officially distributed C code of the BSD 4.3-reno release" in stated["TCP"].source()
    clock = {a.name: a for a in assumptions_of(study)}["timer_clock_ms"]
    assert not clock.stated and clock.value == 500.0 and {100.0, 10.0} <= set(clock.values)
    doc = A.document(study.experiments(quick=True)[0].scenario.text)
    pairs = dict(clock.overrides(doc, 10.0))
    n = len(doc["connection"])
    assert n and len(pairs) == 3 * n
    # 4.3BSD's tick-counted limits on the finer clock: 6 ticks first RTO, 128 ticks at most.
    assert float(pairs["connection.0.tcp.tick_ms"]) == 10.0
    assert float(pairs["connection.0.tcp.initial_rto_s"]) == pytest.approx(0.06)
    assert float(pairs["connection.0.tcp.max_rto_s"]) == pytest.approx(1.28)


def test_class_reports_both_readings_of_its_goodput():
    """'discarding all the faulty and the retransmitted segments': the efficiency is reported
    with the retransmissions that repaired a loss counted once (efficiency) and discarded too
    (efficiency_first), both against the paper's efficiency."""
    import pandas as pd

    from atmsim.studies.ajmone_marsan import study as class_study

    runs = pd.DataFrame(
        [
            {
                "flows.tcp1.goodput_bps": 8e6,
                "flows.tcp1.bytes_delivered": 1_000_000,
                "flows.tcp1.bytes_retransmitted": 250_000,
                "duration_s": 1.0,
            }
        ]
    )
    runs.attrs["metrics"] = []
    out = class_study.derive_metrics(runs)
    assert out["derived.efficiency"][0] == pytest.approx(1_000_000 / 1_250_000)
    assert out["derived.efficiency_first"][0] == pytest.approx(750_000 / 1_250_000)
    assert out["derived.goodput_first_mbps"][0] == pytest.approx(out["derived.goodput_mbps"][0] * 0.75)
    fig2 = [e for e in registry.get("ajmone-marsan").experiments(quick=True) if e.table == "2"]
    with_eff = [e for e in fig2 if "efficiency" in e.published]
    assert with_eff and all(e.published["efficiency_first"] == e.published["efficiency"] for e in with_eff)
    table = {t.id: t for t in registry.get("ajmone-marsan").tables}["2"]
    assert "efficiency_first" in [c.name for c in table.compared]


def test_goyal_figure3_is_compared_with_the_papers_equation_1():
    from atmsim.studies.gfr_goyal import data
    from atmsim.studies.gfr_goyal import study as goyal

    # Equation 1 on the paper's own mean windows gives the values it prints beside them.
    for cwnd, printed in zip(data.FIGURE3_MEAN_CWND_BYTES[:3], data.FIGURE3_EQ1_MBPS[:3]):
        assert cwnd is not None
        assert goyal.equation1_mbps(cwnd) == pytest.approx(printed, abs=0.05)
    # Equation 2: the linear phase from 62500 to 125000 octets averages about 3/4 of the top.
    assert goyal.equation2_cwnd(125000) == pytest.approx(0.75 * 125000, rel=0.01)
    fig3 = [e for e in registry.get("gfr-goyal").experiments(quick=False) if e.table == "fig3"]
    assert [e.published["throughput_vs_equation1_mbps"] for e in fig3] == list(data.FIGURE3_EQ1_MBPS)
    assert fig3[0].labels["eq1_at_threshold_mbps"] == pytest.approx(25.13, abs=0.01)
    table = {t.id: t for t in registry.get("gfr-goyal").tables}["fig3"]
    assert [c.name for c in table.compared] == ["throughput_mbps", "throughput_vs_equation1_mbps"]


def test_a_bad_tie_order_is_one_line_naming_the_key(tmp_path):
    """The declared tie order is one setting away; a value the engine does not know is a
    one-line error naming the key, before anything runs."""
    from conftest import run_cli

    done = run_cli(
        "reproduce",
        "ubr-plus",
        "--quick",
        "--tables",
        "1",
        "--duration",
        "0.05",
        "--set",
        "n_source.arbitration=sideways",
        "--store",
        tmp_path / "s.sqlite",
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "n_source.arbitration" in lines[0] and "sideways" in lines[0]
