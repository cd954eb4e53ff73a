"""Published values as the papers state them: points and bounds (studies/comparators.py), in
the comparison tables, the agreement summary, the text tables and `--json`."""

from __future__ import annotations

import math
from typing import cast

import pandas as pd
import pytest

from atmsim.scenario import Scenario
from atmsim.studies import agreement, registry
from atmsim.studies import comparators as C
from atmsim.studies.registry import Compared, Experiment, PaperTable, Study
from atmsim.studies.reproduce import _comparison
from conftest import small_scenario


def test_parse_reads_each_written_form():
    assert C.parse("> 20") == (">", 20.0, None)
    assert C.parse(">=0.5") == (">=", 0.5, None)
    assert C.parse("<= 83") == ("<=", 83.0, None)
    assert C.parse("< 0.01") == ("<", 0.01, None)
    assert C.parse("= 0") == ("=", 0.0, None)
    assert C.parse("~ 18e6") == ("~", 18e6, None)
    assert C.parse("0.75") == ("~", 0.75, None)  # a plain number: about
    assert C.parse("0.3..0.5") == ("range", 0.3, 0.5)


@pytest.mark.parametrize("bad", [">> 20", "about", "0.5..0.3", "1..x", ""])
def test_parse_refuses_in_one_line(bad):
    with pytest.raises(C.ComparatorError) as err:
        C.parse(bad)
    assert "comparator" in str(err.value) and "\n" not in str(err.value)


def test_check_names_the_bad_field():
    with pytest.raises(C.ComparatorError, match=r"comparators\['x'\]: '>>' is not a comparator"):
        C.check(">>", "comparators['x']")


def test_satisfied_bound_agrees_with_distance_zero():
    # Bonaventure figure 22: "expired more than 20 times per 10 MBytes"; 38.3 satisfies it.
    assert C.distance(38.3, 20, ">") == 0.0
    assert C.agrees(38.3, 20, ">") is True
    assert C.distance(3.1, 4, "<") == 0.0 and C.agrees(3.1, 4, "<")
    assert C.distance(83, 83, "<=") == 0.0 and C.agrees(83, 83, "<=")
    assert C.distance(0.4, 0.3, "range", 0.5) == 0.0 and C.agrees(0.4, 0.3, "range", hi=0.5)


def test_violated_bound_distance_is_the_difference_to_the_bound():
    assert C.distance(12.0, 20, ">") == pytest.approx(-8.0)
    assert C.agrees(12.0, 20, ">", tolerance=100.0) is False  # a bound has no tolerance
    assert C.distance(5.5, 4, "<") == pytest.approx(1.5)
    assert C.distance(0.2, 0.3, "range", 0.5) == pytest.approx(-0.1)
    assert C.distance(0.7, 0.3, "range", 0.5) == pytest.approx(0.2)
    # A strict bound is not met by equality; its distance is still 0.
    assert C.distance(20, 20, ">") == 0.0 and C.agrees(20, 20, ">") is False
    # A point: the signed difference, agreeing within the tolerance only.
    assert C.distance(0.84, 0.80, "~") == pytest.approx(0.04)
    assert C.agrees(0.84, 0.80, "~", 0.05) and not C.agrees(0.84, 0.80, "~", 0.005)
    assert C.distance(None, 20, ">") is None and C.agrees(1.0, float("nan"), "~") is None


def test_tolerance_is_half_the_printed_unit_or_the_interval():
    assert C.printed_unit(18e6) == 1e6  # "about 18 Mbps"
    assert C.printed_unit(0.294) == pytest.approx(0.001)
    assert C.printed_unit(0.3, unit=0.01) == 0.01  # "30%": the column prints whole percent
    assert C.printed_unit(0.294, unit=0.01) == pytest.approx(0.001)  # the digits refine it
    assert C.printed_unit(0.0) == 1.0
    assert C.tolerance(0.9, unit=0.01) == pytest.approx(0.005)
    assert C.tolerance(0.9, unit=0.01, ci=(0.8, 1.0)) == pytest.approx(0.1)


def test_label_writes_the_comparator():
    assert C.label(">", 20) == "> 20"
    assert C.label("~", 0.5) == "0.5"
    assert C.label("range", 0.3, 0.5) == "0.3..0.5"
    assert C.label("<=", None) == ""


def _exp(**kw):
    sc = Scenario(small_scenario(buffer_cells=1000, policy="EPD"), "<t>")
    return Experiment("T", {"k": 1}, sc, {"rto": 20.0, "eff": 0.9}, **kw)


def test_experiment_refuses_bad_comparators_in_one_line():
    for kw, field in (
        ({"comparators": {"rto": "more"}}, "comparators['rto']"),
        ({"comparators": {"nope": ">"}}, "comparators['nope']"),
        ({"comparators": {"rto": "range"}}, "ranges['rto'] is missing"),
        ({"comparators": {"rto": "range"}, "ranges": {"rto": (10.0, 30.0)}}, "ranges['rto']"),
        ({"ranges": {"rto": (20.0, 30.0)}}, "ranges['rto']"),
    ):
        with pytest.raises(C.ComparatorError) as err:
            _exp(**kw)
        assert field in str(err.value) and "\n" not in str(err.value)
    ok = _exp(comparators={"rto": "range"}, ranges={"rto": (20.0, 30.0)})
    assert ok.comparator("rto") == "range" and ok.high("rto") == 30.0 and ok.comparator("eff") == "~"


class _Study:
    name = "t"
    tables = [
        PaperTable(
            "T",
            "t",
            ["k"],
            [Compared("rto", "m.rto", "rto", relative=True), Compared("eff", "m.eff", "eff", unit=0.01)],
        )
    ]


def _points(values):
    rows = []
    for point, (rto, eff) in enumerate(values):
        rows.append({"point": point, "metric": "m.rto", "mean": rto, "ci_low": rto, "ci_high": rto})
        rows.append(
            {"point": point, "metric": "m.eff", "mean": eff, "ci_low": eff - 0.001, "ci_high": eff + 0.001}
        )
    return pd.DataFrame(rows)


def test_comparison_table_has_comparator_agrees_and_distance():
    sc = Scenario(small_scenario(buffer_cells=1000, policy="EPD"), "<t>")
    exps = [
        Experiment("T", {"k": 1}, sc, {"rto": 20.0, "eff": 0.9}, comparators={"rto": ">"}),
        Experiment("T", {"k": 2}, sc, {"rto": 20.0, "eff": 0.9}, comparators={"rto": ">"}),
    ]
    frame = _comparison(cast(Study, _Study()), _points([(38.3, 0.904), (12.0, 0.95)]), exps)["T"]
    assert list(frame["comparator_rto"]) == [">", ">"] and list(frame["comparator_eff"]) == ["~", "~"]
    assert list(frame["agrees_rto"]) == [True, False]
    assert list(frame["diff_rto"]) == [0.0, pytest.approx(-8.0)]
    assert list(frame["agrees_eff"]) == [True, False]  # within 0.005 (two decimals), 0.05 off
    summary = agreement.summarize({"T": frame}, _Study.tables)
    rto = summary[(summary["table"] == "T") & (summary["metric"] == "rto")].iloc[0]
    # The satisfied bound counts 0, not +92 %: mean of 0 and 8/20.
    assert rto["mean_abs_diff"] == pytest.approx(0.2) and rto["agree"] == 0.5


def test_bonaventure_figure_22_is_a_lower_bound_with_its_quotation():
    study = registry.get("gfr-bonaventure")
    fig22 = [e for e in study.experiments(True) if e.table == "22" and e.labels["mcr"] == 20000]
    assert fig22 and fig22[0].comparator("rto_per_10mb") == ">"
    assert "more than 20 times" in fig22[0].quotes["rto_per_10mb"]


@pytest.mark.parametrize("name", registry.names())
def test_every_bound_has_its_quotation(name):
    for exp in registry.get(name).experiments(False):
        for metric, comparator in exp.comparators.items():
            assert comparator in C.COMPARATORS
            if comparator in C.BOUNDS:
                assert exp.quotes.get(metric), (name, exp.table, dict(exp.labels), metric)
            assert not math.isnan(float(exp.published[metric] or 0.0))


def test_text_table_shows_the_comparator_and_the_verdict():
    from atmsim.studies import text

    row = pd.Series({"paper_rto": 20.0, "comparator_rto": ">", "agrees_rto": True})
    assert text._paper(row, "rto") == "> 20"
    assert text._paper(pd.Series({"paper_rto": 0.5, "comparator_rto": "~"}), "rto") == "0.5"
    assert text._paper(pd.Series({"paper_rto": None, "comparator_rto": None}), "rto") == "-"
    assert [text._yes(v) for v in (True, False, None)] == ["yes", "no", ""]


def test_interval_is_cut_to_the_quantitys_bounds_and_few_runs_are_shown():
    """Two or three replications give a Student-t interval far past what the quantity can take
    (fairness 0.788 ± 1.63 at 1 degree of freedom): the table cuts it as the figures do, and
    with at most 3 replications carries them in `<name>_runs`."""
    from atmsim.studies import text

    class _S:
        name = "t"
        tables = [
            PaperTable(
                "T",
                "t",
                ["k"],
                [Compared("fairness", "m.fair", "fairness"), Compared("drops", "m.drops", "drops")],
            )
        ]

    sc = Scenario(small_scenario(buffer_cells=1000, policy="EPD"), "<t>")
    exps = [Experiment("T", {"k": 1}, sc, {"fairness": 0.8, "drops": 0.0})]
    points = pd.DataFrame(
        [
            {"point": 0, "metric": "m.fair", "mean": 0.79, "ci_low": -0.84, "ci_high": 2.42},
            {"point": 0, "metric": "m.drops", "mean": 1.0, "ci_low": -3.3, "ci_high": 5.3},
        ]
    )
    runs = pd.DataFrame(
        {"point": [0, 0, 0], "run": [2, 0, 1], "m.fair": [0.82, 0.75, 0.80], "m.drops": [2.0, 0.0, 1.0]}
    )
    frame = _comparison(cast(Study, _S()), points, exps, runs)["T"]
    row = frame.iloc[0]
    assert (row["fairness_ci_low"], row["fairness_ci_high"]) == (0.0, 1.0)
    assert (row["drops_ci_low"], row["drops_ci_high"]) == (0.0, 5.3)
    assert row["fairness_runs"] == [0.75, 0.80, 0.82]  # in run order
    assert text._cell(row, "fairness") == "0.79 [0.75, 0.8, 0.82]"
    # More than three replications: no runs column, the half-width instead.
    many = pd.DataFrame(
        {"point": [0] * 4, "run": [0, 1, 2, 3], "m.fair": [0.7, 0.8, 0.8, 0.9], "m.drops": [0.0] * 4}
    )
    wide = _comparison(cast(Study, _S()), points, exps, many)["T"]
    assert "fairness_runs" not in wide and " ± " in text._cell(wide.iloc[0], "fairness")


def test_tagged_fraction_is_at_most_one():
    from atmsim.figure_style import bounded

    assert bounded("tagged_fraction", -0.2, 1.3) == (0.0, 1.0)
    assert bounded("diff_tagged_fraction", -0.2, 1.3) == (-0.2, 1.3)


def test_class_bounds_are_bounds():
    """CLASS: "does not exceed 83 Mbit/s" (<=), "dropping to 0.5 or even less" (<=), Ba-Pa
    unshaped "below 0.8" (<), figure 4 "drops to about 0.5" (~)."""
    study = registry.get("ajmone-marsan")
    found = {
        (e.table, m, c) for e in study.experiments(False) for m, c in e.comparators.items() if c in C.BOUNDS
    }
    assert ("2", "goodput_mbps", "<=") in found and ("2", "efficiency", "<=") in found
    assert ("8-9", "efficiency_Ba-Pa", "<") in found and ("10-11", "efficiency_Ba-Pa", "<") in found
    fig4 = [e for e in study.experiments(False) if e.table == "4" and e.published.get("efficiency") == 0.5]
    assert fig4 and all(e.comparator("efficiency") == "~" for e in fig4)


def test_a_table_of_many_metrics_gives_no_fragmentation_warning():
    # CLASS tables compare dozens of per-flow metrics; each adds eight columns. pandas warned
    # (PerformanceWarning) on every such table of `reproduce all --quick`.
    import warnings

    names = [f"g{i}" for i in range(40)]

    class Wide:
        name = "w"
        tables = [PaperTable("W", "w", ["k"], [Compared(n, f"m.{n}", n) for n in names])]

    sc = Scenario(small_scenario(buffer_cells=1000, policy="EPD"), "<t>")
    exps = [Experiment("W", {"k": 1}, sc, dict.fromkeys(names, 0.5))]
    points = pd.DataFrame(
        [{"point": 0, "metric": f"m.{n}", "mean": 0.5, "ci_low": 0.4, "ci_high": 0.6} for n in names]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.PerformanceWarning)
        frame = _comparison(cast(Study, Wide()), points, exps)["W"]
    assert list(frame["agrees_g39"]) == [True]
