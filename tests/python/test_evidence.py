"""Study-independent evidence machinery: assumption records, the replication check, the
one-at-a-time sensitivity sweep and its tornado figure."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import List

import pandas as pd
import pytest

from atmsim.scenario import Scenario
from atmsim.store import open_store
from atmsim.studies import assumptions as A
from atmsim.studies import replication as R
from atmsim.studies import sensitivity as S
from atmsim.studies.registry import Compared, Experiment, FigureFile, PaperTable, StudyResults, TraceRun
from conftest import small_scenario

TOPOLOGY = """
[simulation]
duration_s = 1.0
[[node]]
name = "a"
kind = "host"
[[port]]
node = "s"
toward = "a"
buffer_cells = 100
policy = { kind = "tail_drop" }
[[port]]
node = "s"
toward = "b"
buffer_cells = 100
policy = { kind = "dfba", z = 2.0 }
arbitration = "rotating"
[[background]]
name = "bg"
route = ["a", "s", "b"]
source = { kind = "cbr", rate_bps = 1e6 }
"""


def test_expand_star_over_every_array_element():
    doc = A.document(TOPOLOGY)
    assert A.expand("port.*.arbitration", doc) == ["port.0.arbitration", "port.1.arbitration"]
    assert A.expand("tcp.tick_ms", doc) == ["tcp.tick_ms"]
    assert A.expand("connection.*.start_s", doc) == []  # no connections: nothing to set


def test_assumption_overrides_are_toml_literals():
    a = A.Assumption(
        "arb", "arbitration", "rotating", "ties", ["rotating", "random"], keys=["port.*.arbitration"]
    )
    assert a.overrides(A.document(TOPOLOGY), "random") == (
        ("port.0.arbitration", "random"),
        ("port.1.arbitration", "random"),
    )
    b = A.Assumption("buf", "buffer (cells)", 1000, "unstated", [500, 1000], keys=["n_source.buffer_cells"])
    assert b.overrides({}, 500) == (("n_source.buffer_cells", "500"),)
    with pytest.raises(ValueError, match="keys or an apply"):
        A.Assumption("x", "x", 1, "", [1])
    with pytest.raises(ValueError, match="empty range"):
        A.Assumption("x", "x", 1, "", [], keys=["a"])


def test_check_rejects_value_outside_range_and_duplicates():
    a = A.Assumption("buf", "buffer", 1000, "w", [500, 2000], keys=["k"])
    with pytest.raises(ValueError, match="not in its range"):
        A.check([a])
    b = A.Assumption("buf", "buffer", 500, "w", [500, 2000], keys=["k"])
    with pytest.raises(ValueError, match="declared twice"):
        A.check([b, b])
    A.check([b])


def test_document_applies_overrides_like_the_engine():
    doc = A.document(
        TOPOLOGY, (("port.1.buffer_cells", "7"), ("tcp.tick_ms", "500"), ("port.0.policy.kind", "epd"))
    )
    assert doc["port"][1]["buffer_cells"] == 7
    assert doc["tcp"]["tick_ms"] == 500
    assert doc["port"][0]["policy"]["kind"] == "epd"


def test_render_lists_stated_apart_from_assumed():
    text = A.render(
        [A.Assumption("tick", "TCP timer tick (ms)", 500, "BSD default.", [100, 500], keys=["tcp.tick_ms"])],
        [A.Stated("MSS", "9140 octets", "section 3")],
    )
    stated, assumed = text.split("Assumed")
    assert "MSS = 9140 octets" in stated and "tick" not in stated
    assert "tick = 500" in assumed and "100, 500" in assumed and "tcp.tick_ms" in assumed


def test_random_elements():
    assert R.random_elements(TOPOLOGY, has_phases=False) == ["port.1: dfba policy"]
    # An engine with phases defaults to random; "aligned" turns it off.
    assert 'simulation.phases = "random"' in R.random_elements(TOPOLOGY, has_phases=True)
    aligned = (("simulation.phases", '"aligned"'), ("port.1.policy.kind", "tail_drop"))
    assert R.random_elements(TOPOLOGY, aligned, has_phases=True) == []
    # Oscillator drift given outright is random even with aligned phases.
    drift = aligned + (("simulation.clock_ppm", "20"),)
    assert R.random_elements(TOPOLOGY, drift, has_phases=True) == ["simulation.clock_ppm = 20"]
    assert R.random_elements(TOPOLOGY, aligned + (("simulation.clock_ppm", "0"),), has_phases=True) == []
    jitter = R.random_elements(TOPOLOGY, (("simulation.start_jitter_s", "0.01"),), False)
    assert any("start_jitter_s" in e for e in jitter)
    onoff = R.random_elements(TOPOLOGY, (("background.0.source.kind", "on_off"),), False)
    assert any("on_off" in e for e in onoff)
    assert R.random_elements(small_scenario(arbitration="rotating"), has_phases=False) == []
    assert R.random_elements(
        small_scenario(arbitration="rotating"), (("n_source.arbitration", "random"),), False
    )
    # The UBR+ default orders its ties at random: a random element even when phase-locked.
    assert R.random_elements(small_scenario(), has_phases=True) == ['n_source.arbitration = "random"']


def _runs(values_by_point):
    rows = []
    for point, values in values_by_point.items():
        for run, v in enumerate(values):
            rows.append({"point": point, "run": run, "summary.efficiency": v, "summary.fairness": 1.0})
    frame = pd.DataFrame(rows)
    frame.attrs["metrics"] = ["summary.efficiency", "summary.fairness"]
    return frame


def test_replication_check_on_a_synthetic_table():
    # The engine before branch `rand` is deterministic for these studies, so the check is
    # exercised on a run table built here: point 0 varies, 1 and 2 do not.
    runs = _runs({0: [0.9, 0.91], 1: [0.8, 0.8], 2: [0.7, 0.7], 3: [float("nan")] * 2})
    random = {0: ["phases"], 1: ["phases"], 2: [], 3: ["on-off"]}
    found = R.check(runs, random, {1: "LAN 5", 3: "WAN"})
    assert [f.point for f in found] == [1, 3]  # 2 is deterministic: identical is right
    msg = R.message("ubr-plus", found)
    assert "2 point(s)" in msg and "LAN 5 (2 runs; random: phases)" in msg
    assert R.check(_runs({0: [0.5]}), {0: ["phases"]}, {}) == []  # one run: nothing to compare


def test_replications_per_mode():
    assert R.replications(1, quick=False) == 4
    assert R.replications(8, quick=False) == 8
    assert R.replications(8, quick=True) == 3
    assert R.replications(1, quick=True) == 3  # 2 degrees of freedom, not 1 (t = 12.7)


@dataclass
class TinyStudy:
    name: str = "tiny"
    title: str = "tiny"
    citation: str = ""
    runs: int = 1
    tables: List[PaperTable] = field(
        default_factory=lambda: [
            PaperTable("T1", "t", ["buffer"], [Compared("efficiency", "summary.efficiency", "efficiency")])
        ]
    )

    def experiments(self, quick: bool) -> List[Experiment]:
        sc = Scenario(small_scenario(buffer_cells=1000, policy="EPD", arbitration="rotating"), "<tiny>")
        return [Experiment("T1", {"buffer": 1000}, sc, {"efficiency": 0.5})]

    def trace_runs(self, quick: bool) -> List[TraceRun]:
        return []

    def figures(self, results: StudyResults, out_dir: Path) -> List[FigureFile]:
        return []


ASSUMED = [
    A.Assumption(
        "buffer", "switch buffer (cells)", 1000, "unstated", [300, 1000, 3000], keys=["n_source.buffer_cells"]
    ),
    A.Assumption(
        "arbitration",
        "tie order at a port",
        "rotating",
        "unstated",
        ["rotating", "fixed"],
        keys=["n_source.arbitration"],
    ),
    A.Assumption(
        "phases",
        "slot phases",
        "aligned",
        "not in this engine yet",
        ["aligned", "random"],
        keys=["simulation.phases"],
    ),
]


def test_plan_one_at_a_time():
    study = TinyStudy()
    variants, notes = S.plan(study, study.experiments(True), ASSUMED)
    assert [(v.assumption, v.value) for v in variants] == [
        (S.BASELINE, None),
        ("buffer", 300),
        ("buffer", 3000),
        ("arbitration", "fixed"),
        ("phases", "random"),
    ]
    # Exactly one assumption differs from the baseline in each variant.
    base = dict(variants[0].point.overrides)
    for v in variants[1:]:
        diff = {k for k, val in v.point.overrides if base.get(k) != val}
        assert len(diff) == 1
    assert notes == []
    wrong = A.Assumption("buffer", "b", 300, "x", [300, 1000], keys=["n_source.buffer_cells"])
    _, notes = S.plan(study, study.experiments(True), [wrong])
    assert notes and "declaration says 300" in notes[0]


def test_plan_with_a_wildcard_set_fixes_every_element():
    """A command-line `--set connection.*.KEY` reaches every connection of each baseline, and an
    assumption that sets the same KEY is reported as not swept instead of being overridden."""
    from atmsim.studies import registry
    from atmsim.studies.reproduce import assumptions_of

    gerla = registry.get("gerla")
    exp = [e for e in gerla.experiments(True) if e.labels.get("sources") == 5][:1]
    floor = [a for a in assumptions_of(gerla) if a.name in ("min_rto_ticks", "window_bytes")]
    extra = (("connection.*.tcp.min_rto_ticks", "10"),)
    variants, notes = S.plan(gerla, exp, floor, extra)
    base = dict(variants[0].point.overrides)
    fixed = {k for k, v in base.items() if v == "10"}
    assert fixed == {f"connection.{i}.tcp.min_rto_ticks" for i in range(5)}
    assert any(n.startswith("assumption min_rto_ticks: not swept") for n in notes)
    assert {v.assumption for v in variants} == {S.BASELINE, "window_bytes"}


def test_sensitivity_runs_through_the_store_and_draws(tmp_path: Path):
    study = TinyStudy()
    chosen = S.Subset(study.experiments(True), "the one experiment")
    store = open_store(tmp_path / "s.sqlite")
    try:
        out = S.run(study, ASSUMED, chosen, runs=1, store=store, jobs=1, progress=False)
        again = S.run(study, ASSUMED, chosen, runs=1, store=store, jobs=1, progress=False)
    finally:
        store.close()
    # Baseline + 2 buffer values + 1 arbitration value; phases rejected by this engine or run.
    assert out.computed in (4, 5) and again.computed == 0 and again.cached == out.computed
    if out.computed == 4:
        assert any("phases = random: not run, the engine rejects it" in n for n in out.notes)
    # Each point knows its family (the table, no declared grouping) and its comparator.
    assert set(out.points["family"]) == {"T1"} and set(out.points["comparator"]) == {"~"}
    eff = out.effects.set_index("assumption")
    buf = eff.loc["buffer"]
    assert buf["low"] <= buf["baseline"] <= buf["high"]
    assert buf["swing"] == pytest.approx(buf["high"] - buf["low"])
    assert {buf["low_value"], buf["high_value"]} <= {300, 1000, 3000}
    assert buf["published"] == 0.5
    assert "buffer" in S.render(out)
    files = S.tornado(out, ASSUMED, tmp_path / "fig" / "tornado", "tiny")
    assert [f.suffix for f in files] == [".png", ".svg"] and all(f.stat().st_size for f in files)


def _sweep_rows(experiment, label, assumption, published, points, family="T", comparator="~"):
    """Sensitivity rows of one published number: `points` are (value, mean, half-width)."""
    return [
        {
            "experiment": experiment,
            "table": "T",
            "family": family,
            "comparator": comparator,
            "label": label,
            "metric": "eff",
            "metric_label": "efficiency",
            "relative": False,
            "assumption": assumption,
            "value": v,
            "n": 3,
            "mean": m,
            "ci_low": m - h,
            "ci_high": m + h,
            "published": published,
        }
        for v, m, h in points
    ]


BUFFERS = (100, 1000, 10000)


def _verdicts(rows, used):
    return S.verdicts(S.effects(pd.DataFrame(rows), used))


def test_one_row_within_is_no_explanation_when_its_family_is_not():
    """Goyal Tables 4-5 experiment 1: a value that brings VC 4 to the paper but leaves VC 5 far
    off explains nothing: the verdict is a model question, naming what stays out."""
    rows = _sweep_rows(0, "row A", "buffer", 0.9, [(v, m, 0.01) for v, m in zip(BUFFERS, (0.6, 0.7, 0.895))])
    rows += _sweep_rows(1, "row B", "buffer", 0.2, [(v, m, 0.01) for v, m in zip(BUFFERS, (0.2, 0.2, 0.5))])
    (line,) = _verdicts(rows, {"buffer": 1000})
    assert line.startswith("row A, efficiency: simulated 0.7, paper 0.9: not explained: a model question")
    assert "the closest, buffer = 10000" in line and "leaves 1 of 2 out: row B, efficiency" in line
    # The same value, with row B still within tolerance there: explained, jointly, and the
    # row it moves further from the paper is named.
    rows[-1]["mean"], rows[-1]["ci_low"], rows[-1]["ci_high"] = 0.205, 0.195, 0.215
    (line,) = _verdicts(rows, {"buffer": 1000})
    assert ": explained by assumption buffer = 10000 (gives 0.895; all 2 published values of T" in line
    assert "moves away: row B, efficiency (0 -> 0.005)" in line
    # Row B in another family (another table or experiment): row A's family is row A alone.
    rows = _sweep_rows(0, "row A", "buffer", 0.9, [(v, m, 0.01) for v, m in zip(BUFFERS, (0.6, 0.7, 0.895))])
    rows += _sweep_rows(
        1, "row B", "buffer", 0.2, [(v, m, 0.01) for v, m in zip(BUFFERS, (0.2, 0.2, 0.5))], family="U"
    )
    (line,) = _verdicts(rows, {"buffer": 1000})
    assert "explained by assumption buffer = 10000" in line and "moves away: none" in line


def test_goyal_families_are_one_experiment_of_a_table():
    from atmsim.studies import registry

    goyal = registry.get("gfr-goyal")
    fams = {S.family_of(goyal, e) for e in goyal.experiments(True)}
    assert {"Tables 1-3 experiment 1", "Tables 4-5 experiment 1", "Tables 4-5 experiment 2"} <= fams
    ubr = registry.get("ubr-plus")
    assert {S.family_of(ubr, e) for e in ubr.experiments(True)} == {"1", "2-3"}


def test_verdicts_read_bounds_as_bounds():
    """Bonaventure figure 22, "more than 20": a value that reaches 38 satisfies it; the
    baseline 12 does not, and is 8 below the bound."""
    rows = _sweep_rows(0, "fig 22", "ti", 20.0, [(1, 12.0, 1.0), (2, 38.0, 5.0)], comparator=">")
    (line,) = _verdicts(rows, {"ti": 1})
    assert line.startswith("fig 22, efficiency: simulated 12, paper > 20: explained by assumption ti = 2")
    # A baseline above the bound is no disagreement at all.
    rows = _sweep_rows(0, "fig 22", "ti", 20.0, [(1, 38.3, 1.0), (2, 12.0, 5.0)], comparator=">")
    assert _verdicts(rows, {"ti": 1}) == []


def test_verdicts_without_any_value_that_helps():
    rows = _sweep_rows(0, "row E", "stagger", 0.88, [(False, 0.28, 0.0), (True, 0.6, 0.0)])
    rows += _sweep_rows(1, "row F", "arb", 2.78, [("rotating", 2.94, 0.0), ("random", 2.95, 0.3)])
    lines = _verdicts(rows, {"stagger": False, "arb": "rotating"})
    assert len(lines) == 2 and all("not explained: a model question" in x for x in lines)
    # Row F alone: random's wide interval holds the paper's value but its mean is no nearer
    # than the baseline's: noise, not an explanation.
    rows = _sweep_rows(1, "row F", "arb", 2.78, [("rotating", 2.94, 0.0), ("random", 2.95, 0.3)])
    (line,) = _verdicts(rows, {"arb": "rotating"})
    assert "not explained: a model question" in line and "the closest, arb = random" in line
    # The whole family agrees there: the verdict says why that is still no explanation.
    assert "all 1 published values of T are within tolerance, but its mean closes less than a quarter" in line
    assert "leaves 0 of" not in line
    # Within the noise: a baseline whose interval holds the paper's value agrees.
    rows = _sweep_rows(2, "row C", "buffer", 0.9, [(v, m, 0.3) for v, m in zip(BUFFERS, (0.6, 0.7, 0.75))])
    assert _verdicts(rows, {"buffer": 1000}) == []


def test_verdict_counts_agreement_at_the_papers_precision():
    """A value within half the printed unit (0.04: 0.005) of the published one agrees, however
    narrow its interval (UBR+ Table 5: lockstep replications give 0.0359 with [0.0337,
    0.0381] for the printed 0.04)."""
    rows = _sweep_rows(0, "row G", "timers", 0.04, [("random", 0.83, 0.17), ("aligned", 0.0359, 0.0022)])
    eff = S.effects(pd.DataFrame(rows), {"timers": "random"})
    (line,) = S.verdicts(eff)
    assert ": explained by assumption timers = aligned (gives 0.0359;" in line


@pytest.mark.parametrize("name", ["ubr-plus", "gfr-bonaventure", "gfr-goyal", "gerla", "ajmone-marsan"])
def test_every_study_declares_consistent_assumptions(name):
    """Each study states and assumes; every assumption's value is in its range, agrees with
    what the study's scenarios hold, and can be applied to its sensitivity subset."""
    from atmsim.studies import registry
    from atmsim.studies.reproduce import assumptions_of, stated_of

    study = registry.get(name)
    declared = assumptions_of(study)
    assert declared and stated_of(study)
    A.check(declared)
    assert all(a.why and a.label for a in declared)
    chosen = S.subset(study, quick=True)
    assert chosen.experiments and chosen.why
    variants, notes = S.plan(study, list(chosen.experiments), declared)
    assert not [n for n in notes if "declaration says" in n], notes
    swept = {v.assumption for v in variants}
    for a in declared:
        if len(a.values) > 1:
            assert a.name in swept, f"{a.name} sets nothing in the subset ({notes})"


def test_cli_assumptions_lists_without_running():
    from conftest import run_cli

    done = run_cli("reproduce", "gfr-goyal", "--assumptions")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Stated by the paper:" in out and "Assumed (not stated by the paper):" in out
    assert "dfba_r_fraction = 0.9" in out and "range swept: 0.5, 0.7, 0.9" in out
    assert "Sensitivity subset:" in out
    bad = run_cli("reproduce", "nope", "--assumptions")
    assert bad.returncode == 2 and "unknown study" in bad.stderr


def test_cli_sensitivity_json(goyal_sensitivity):
    """`--sensitivity --json` through the CLI: effects per published number, strict JSON."""
    import json

    done, rep = goyal_sensitivity.proc, goyal_sensitivity.rep
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    (study,) = doc["studies"]
    assert study["replications"] == 3
    effects = study["sensitivity"]
    assert {e["assumption"] for e in effects} >= {"tick_ms", "delayed_ack", "vc_weight"}
    assert all(e["low"] <= e["high"] for e in effects)
    # --duration fixes simulation.duration_s: that assumption is not swept, and said so.
    assert "duration_s" not in {e["assumption"] for e in effects}
    assert (
        any("duration_s: not swept" in n for n in doc["studies"][0]["notes"])
        or "duration_s: not swept" in (rep / "README.md").read_text()
    )
    readme = (rep / "README.md").read_text()
    assert "Sensitivity to the assumptions" in readme and "sensitivity-tornado.png" in readme
    assert (rep / "gfr-goyal" / "sensitivity-tornado.svg").stat().st_size > 1000


def test_ubr_plus_declares_what_its_doc_discusses():
    """The UBR+ doc discusses these unstated parameters; each must be declared."""
    from atmsim.studies import registry
    from atmsim.studies.reproduce import assumptions_of

    names = {a.name for a in assumptions_of(registry.get("ubr-plus"))}
    assert {"arbitration", "timer_phases", "phases", "min_rto_ticks", "initial_rto_s"} <= names


def test_ubr_plus_text_path_runs_replications():
    """`atmsim reproduce ubr-plus` (text tables) runs 3 replications with --quick and shows
    the mean and the replications themselves when they differ (random arbitration makes them
    differ); --json has them as `<name>_runs`."""
    import json

    from atmsim.numbers import fmt
    from conftest import run_cli

    command = (
        "reproduce",
        "ubr-plus",
        "--quick",
        "--tables",
        "1",
        "--duration",
        "0.2",
        "--jobs",
        "1",
        "--set",
        "n_source.arbitration=random",
    )
    done = run_cli(*command, "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["rows"]
    assert rows and all(r["runs"] == 3 for r in rows)
    assert all(r["efficiency_ci_low"] <= r["efficiency"] <= r["efficiency_ci_high"] for r in rows)
    # The interval respects the quantity's bounds, and the three replications are there.
    assert all(r["efficiency_ci_low"] >= 0.0 and r["efficiency_ci_high"] <= 1.0 for r in rows)
    assert all(r["fairness_ci_high"] <= 1.0 for r in rows)
    for r in rows:
        assert len(r["efficiency_runs"]) == 3
        assert sum(r["efficiency_runs"]) / 3 == pytest.approx(r["efficiency"])
    text = run_cli(*command)
    assert text.returncode == 0 and "3 replication(s) per row" in text.stdout
    shown = f"{fmt(rows[0]['efficiency'])} [{', '.join(fmt(v) for v in rows[0]['efficiency_runs'])}]"
    assert shown in text.stdout


def test_every_study_declares_oscillator_drift():
    """clock_ppm (oscillator drift) is declared by every study, swept from phase-locked rates
    (0) to a cheap crystal (100): 20 ppm where the paper is silent, 0 where the paper (or its
    simulator) is phase-locked, a stated condition whose variants are the drifts."""
    from atmsim.studies import registry
    from atmsim.studies.reproduce import assumptions_of

    for name in registry.names():
        drift = [a for a in assumptions_of(registry.get(name)) if a.name == "clock_ppm"]
        assert len(drift) == 1, name
        assert drift[0].value == (0.0 if drift[0].stated else 20.0), name
        assert list(drift[0].values) == [0.0, 5.0, 20.0, 100.0]
        assert drift[0].keys == ["simulation.clock_ppm"]


COMBO = A.Combination((("buffer", 300), ("arbitration", "fixed")), "small buffer with a static tie order")


def test_plan_runs_a_declared_combination_as_one_point():
    study = TinyStudy()
    variants, notes = S.plan(study, study.experiments(True), ASSUMED, combos=[COMBO])
    assert notes == []
    last = variants[-1]
    assert (last.assumption, last.value) == ("buffer x arbitration", "300 x fixed")
    assert last.point.params["sensitivity"] == "buffer x arbitration"
    # Both assumptions differ from the baseline at that one point, and nothing else.
    base = dict(variants[0].point.overrides)
    diff = {k: v for k, v in last.point.overrides if base.get(k) != v}
    assert diff == {"n_source.buffer_cells": "300", "n_source.arbitration": "fixed"}
    assert COMBO.used(ASSUMED) == "1000 x rotating"
    # A combination over an assumption the command line fixes is not run, said so.
    fixed = (("n_source.buffer_cells", "500"),)
    variants, notes = S.plan(study, study.experiments(True), ASSUMED, fixed, combos=[COMBO])
    assert "buffer x arbitration" not in {v.assumption for v in variants}
    assert any(n.startswith("combination buffer x arbitration = 300 x fixed: not run") for n in notes)


def test_combinations_helper_keeps_those_two_or_more_apart_from_the_used():
    combos = A.combinations(["buffer", "arbitration", "phases"], ASSUMED)
    # 3 x 2 x 2 = 12 settings: 1 baseline, 4 single changes, 7 combinations.
    assert len(combos) == 7
    assert all(sum(v != {a.name: a.value for a in ASSUMED}[n] for n, v in c.settings) >= 2 for c in combos)
    A.check_combinations(combos, ASSUMED)


@pytest.mark.parametrize(
    "settings, message",
    [
        ((("buffer", 300),), "combination buffer: give at least two assumptions"),
        ((("buffer", 300), ("nope", 1)), "combination buffer x nope: no declared assumption nope"),
        (
            (("buffer", 7), ("arbitration", "fixed")),
            "combination buffer x arbitration: buffer = 7 is not in its range",
        ),
        ((("buffer", 300), ("arbitration", "rotating")), "differs from the used values in fewer than two"),
        ((("buffer", 300), ("buffer", 3000)), "an assumption is named twice"),
    ],
)
def test_bad_combinations_give_one_line_naming_them(settings, message):
    with pytest.raises(ValueError) as err:
        A.check_combinations([A.Combination(settings)], ASSUMED)
    assert message in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ValueError, match="declared twice"):
        A.check_combinations([COMBO, COMBO], ASSUMED)


def test_a_combination_explains_what_no_single_value_does():
    """Two rows of one family: each assumption alone brings one row to the paper and moves the
    other away; the declared combination brings both. The joint rule names the combination."""
    used = {"phases": "aligned", "ties": "random", "phases x ties": "aligned x random"}
    rows = _sweep_rows(0, "row A", "phases", 0.5, [("aligned", 0.9, 0.01), ("random", 0.5, 0.01)])
    rows += _sweep_rows(1, "row B", "phases", 0.3, [("aligned", 0.6, 0.01), ("random", 0.9, 0.01)])
    rows += _sweep_rows(0, "row A", "ties", 0.5, [("random", 0.9, 0.01), ("fixed", 0.95, 0.01)])
    rows += _sweep_rows(1, "row B", "ties", 0.3, [("random", 0.6, 0.01), ("fixed", 0.3, 0.01)])
    single = _verdicts(rows, used)
    assert len(single) == 2 and all("not explained: a model question" in x for x in single)
    combo = [("aligned x random", None, None), ("random x fixed", None, None)]
    rows += _sweep_rows(
        0, "row A", "phases x ties", 0.5, [(v, m, 0.01) for (v, _, _), m in zip(combo, (0.9, 0.505))]
    )
    rows += _sweep_rows(
        1, "row B", "phases x ties", 0.3, [(v, m, 0.01) for (v, _, _), m in zip(combo, (0.6, 0.3))]
    )
    lines = _verdicts(rows, used)
    assert len(lines) == 2
    assert all(": explained by combination phases x ties = random x fixed (gives " in x for x in lines)
    assert all("all 2 published values of T agree at it" in x for x in lines)
    # The combination's own row names an unmet family as a combination too.
    rows[-1]["mean"], rows[-1]["ci_low"], rows[-1]["ci_high"] = 0.8, 0.79, 0.81
    lines = _verdicts(rows, used)
    assert all("not explained" in x for x in lines)


def test_sensitivity_run_measures_a_declared_combination(tmp_path: Path):
    study = TinyStudy()
    chosen = S.Subset(study.experiments(True), "the one experiment")
    store = open_store(tmp_path / "s.sqlite")
    try:
        out = S.run(study, ASSUMED[:2], chosen, runs=1, store=store, jobs=1, progress=False, combos=[COMBO])
    finally:
        store.close()
    assert out.combinations == 1 and "and 1 declared combination(s)" in S.render(out)
    pts = out.points[out.points["assumption"] == "buffer x arbitration"]
    # The combination's point and the baseline copied under its name at the used values.
    assert sorted(pts["value"]) == ["1000 x rotating", "300 x fixed"]
    eff = out.effects.set_index("assumption").loc["buffer x arbitration"]
    assert eff["used"] == "1000 x rotating" and eff["low"] <= eff["baseline"] <= eff["high"]


@pytest.mark.parametrize(
    "name, combination",
    [("ajmone-marsan", "phases x arbitration x arrivals"), ("ubr-plus", "phases x arbitration")],
)
def test_studies_declare_the_interactions_issue_27_names(name, combination):
    from atmsim.studies import registry
    from atmsim.studies.reproduce import assumptions_of

    study = registry.get(name)
    declared = assumptions_of(study)
    combos = S.combinations_of(study, declared)
    assert combos and {c.name for c in combos} == {combination}
    variants, notes = S.plan(study, list(S.subset(study, quick=True).experiments), declared, combos=combos)
    ran = {v.value for v in variants if v.assumption == combination}
    assert ran == {c.value for c in combos}, notes
    if name == "ajmone-marsan":
        assert "random x fixed x slotted" in ran  # random phases with a tie order: never run before
