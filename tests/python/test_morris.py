"""Morris screening over a study's assumptions (atmsim.studies.morris): the SALib wrapper on
known functions, discrete ranges by index, the factorial's combinations, the CSV columns and
the flags' errors."""

from __future__ import annotations

from typing import Any, Dict, List, cast

import pandas as pd
import pytest

from atmsim.studies import morris
from atmsim.studies import sensitivity as S
from atmsim.studies.assumptions import Assumption
from atmsim.studies.registry import Compared, Experiment, PaperTable
from atmsim.studies.sensitivity import Subset
from conftest import run_cli

NUMERIC: Dict[str, List[Any]] = {"a": [0, 1, 2, 3], "b": [0, 1, 2, 3]}


def _by_assumption(frame: pd.DataFrame) -> Dict[Any, Any]:
    return dict(frame.set_index("assumption").to_dict("index"))


def test_additive_function_ranks_and_has_no_interaction():
    """f = 10 a + b: a's effect is ten times b's, and an additive function has sigma 0."""
    out = _by_assumption(morris.screen(NUMERIC, lambda v: 10 * v["a"] + v["b"], trajectories=6))
    assert out["a"]["mu_star"] > out["b"]["mu_star"] > 0
    assert out["a"]["mu_star"] == pytest.approx(10 * out["b"]["mu_star"])
    assert out["a"]["sigma"] == pytest.approx(0, abs=1e-9)
    assert out["b"]["sigma"] == pytest.approx(0, abs=1e-9)
    assert out["a"]["mu"] == pytest.approx(out["a"]["mu_star"])  # increasing: mu = mu*


def test_interaction_shows_as_sigma():
    """f = a x b: each effect depends on the other's value; an inert c has mu* 0."""
    ranges: Dict[str, List[Any]] = dict(NUMERIC, c=["x", "y"])
    out = _by_assumption(morris.screen(ranges, lambda v: v["a"] * v["b"], trajectories=6))
    assert out["a"]["sigma"] > 0 and out["b"]["sigma"] > 0
    assert out["c"]["mu_star"] == 0 and out["c"]["sigma"] == 0


def test_discrete_values_by_index_and_every_step_changes_the_value():
    assert [morris.value_at(x, ["p", "q"], 4) for x in (0, 1 / 3, 2 / 3, 1)] == ["p", "p", "q", "q"]
    assert [morris.value_at(x, [1, 2, 3, 4], 4) for x in (0, 1 / 3, 2 / 3, 1)] == [1, 2, 3, 4]
    values: Dict[str, List[Any]] = {"two": ["no", "yes"], "three": [1, 2, 3], "four": [0.0, 5.0, 20.0, 100.0]}
    x, rows = morris.design(values, trajectories=5)
    assert len(rows) == 5 * (len(values) + 1)
    for a, b in zip(rows, rows[1:]):
        changed = [n for n in values if a[n] != b[n]]
        # Within a trajectory one assumption moves per step; between trajectories any may.
        assert len(changed) <= len(values)
    for t in range(5):
        block = rows[t * 4 : (t + 1) * 4]
        for a, b in zip(block, block[1:]):
            assert sum(a[n] != b[n] for n in values) == 1


def test_strongest_pair_scales_each_metric():
    frame = pd.DataFrame(
        [
            ("t", "r1", "eff", "a", 0.5),
            ("t", "r1", "eff", "b", 0.1),
            ("t", "r1", "eff", "c", 0.4),
            ("t", "r1", "cells", "a", 10.0),
            ("t", "r1", "cells", "b", 900.0),
            ("t", "r1", "cells", "c", 800.0),
        ],
        columns=["table", "row", "metric", "assumption", "mu_star"],
    )
    # Raw mu* would pick b and c (cells dominate); scaled: c 0.89, a 0.51, b 0.6.
    assert morris.strongest(frame) == ("c", "b")


class _Toy:
    """A study whose runs are one tiny UBR+ LAN scenario."""

    name = "toy"
    tables = [PaperTable("t", "toy", ["k"], [Compared("eff", "summary.efficiency", "efficiency")])]


TOY: Any = _Toy()


def _toy_experiment():
    from atmsim.scenario import Scenario
    from atmsim.studies.ubr_plus import scenarios

    text = scenarios.scenario_text("LAN", 2, 1000, "UBR", None, None)
    return Experiment(
        "t", {"k": 1}, Scenario(text, "toy"), {"eff": 0.5}, (("simulation.duration_s", "0.05"),)
    )


def test_factorial_lists_every_combination(tmp_path):
    from atmsim.store import open_store

    declared = [
        Assumption("rto", "RTO floor", 2, "", [1, 2, 3], keys=["n_source.tcp.min_rto_ticks"]),
        Assumption("rto0", "initial RTO", 3.0, "", [1.0, 3.0], keys=["n_source.tcp.initial_rto_s"]),
    ]
    with open_store(tmp_path / "s.sqlite") as store:
        frame, computed, _ = morris.factorial(TOY, [_toy_experiment()], declared, ["rto", "rto0"], 1, store)
    assert computed == 6
    assert list(frame.columns) == [
        "study",
        "table",
        "row",
        "metric",
        "rto",
        "rto0",
        "n",
        "mean",
        "ci_low",
        "ci_high",
        "published",
    ]
    assert sorted(zip(frame["rto"], frame["rto0"])) == sorted(
        (str(a), b) for a in (1, 2, 3) for b in ("1", "3")
    )
    assert (frame["published"] == 0.5).all()


def test_run_writes_the_csv_and_the_figure(tmp_path):
    from atmsim.store import open_store

    declared = [
        Assumption("rto", "RTO floor", 2, "", [1, 2, 3], keys=["n_source.tcp.min_rto_ticks"]),
        Assumption("rto0", "initial RTO", 3.0, "", [1.0, 3.0], keys=["n_source.tcp.initial_rto_s"]),
    ]
    with open_store(tmp_path / "s.sqlite") as store:
        m = morris.run(TOY, declared, Subset([_toy_experiment()], "toy"), 1, store, morris.Options(2))
    assert list(m.frame.columns) == morris.COLUMNS
    assert set(m.frame["assumption"]) == {"rto", "rto0"}
    assert m.pair and len(m.factorial) == 6
    files = morris.write(m, tmp_path / "out", declared)
    assert (tmp_path / "out" / "morris.csv").is_file() and (tmp_path / "out" / "factorial.csv").is_file()
    assert (tmp_path / "out" / "morris-toy.png").is_file()
    assert list(pd.read_csv(files[0]).columns) == morris.COLUMNS
    assert "Morris screening (2 trajectories" in morris.render(m)


def test_assumptions_setting_one_key_are_noted():
    doc: Dict[str, Any] = {"simulation": {}}
    exp = _toy_experiment()
    declared = [
        Assumption("ties", "tie order", "none", "", ["none", "x"], keys=["simulation.phases"]),
        Assumption("phases", "phases", "random", "", ["aligned", "random"], keys=["simulation.phases"]),
    ]
    notes: List[str] = []
    pairs = morris._combined(declared, exp, doc, {"ties": "x", "phases": "random"}, notes)
    assert dict(pairs)["simulation.phases"] == "random"
    assert notes == ["assumptions ties and phases both set simulation.phases: phases wins where both set it"]


@pytest.mark.parametrize(
    "args, message",
    [
        (("--morris", "x"), "--morris: 'x' is not a number of trajectories"),
        (("--morris", "1"), "--morris: 1 trajectories"),
        (("--morris", "3", "--factorial", "phases"), "--factorial: give two or more"),
        (
            ("--morris", "3", "--factorial", "phases,nope"),
            "--factorial: ubr-plus declares no assumption 'nope'",
        ),
        (("--factorial", "phases,clock_ppm"), "--factorial: only with --morris"),
    ],
)
def test_bad_flag_values_are_one_line(tmp_path, args, message):
    proc = run_cli("reproduce", "ubr-plus", "--quick", *args, "--store", tmp_path / "s.sqlite")
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_keys_fixed_by_the_command_line_are_not_varied(tmp_path):
    from atmsim.store import open_store

    declared = [
        Assumption("rto", "RTO floor", 2, "", [1, 3], keys=["n_source.tcp.min_rto_ticks"]),
        Assumption("rto0", "initial RTO", 3.0, "", [1.0, 3.0], keys=["n_source.tcp.initial_rto_s"]),
    ]
    notes: List[str] = []
    with open_store(tmp_path / "s.sqlite") as store:
        frame, computed, _ = morris.factorial(
            TOY,
            [_toy_experiment()],
            declared,
            ["rto", "rto0"],
            1,
            store,
            (("n_source.tcp.min_rto_ticks", "2"),),
            notes=notes,
        )
    assert computed == 2  # rto's two values are one run each time
    assert notes == [
        "n_source.tcp.min_rto_ticks: fixed for every run by the command line, not varied by the screening"
    ]


class _Derived(_Toy):
    """A study whose compared metric is derived from the run table, by label."""

    tables = [PaperTable("t", "toy", ["k"], [Compared("twice", "derived.twice", "2 x efficiency")])]

    @staticmethod
    def derive_metrics(runs: pd.DataFrame) -> pd.DataFrame:
        out = runs.copy()
        assert set(out["table"]) == {"t"} and set(out["k"]) == {1}  # labelled per experiment
        out["derived.twice"] = 2 * out["summary.efficiency"]
        out.attrs = dict(runs.attrs)
        out.attrs["metrics"] = list(runs.attrs.get("metrics", [])) + ["derived.twice"]
        return out


def test_derived_metrics_are_screened(tmp_path):
    from atmsim.store import open_store

    declared = [
        Assumption("rto", "RTO floor", 2, "", [1, 3], keys=["n_source.tcp.min_rto_ticks"]),
        Assumption("rto0", "initial RTO", 3.0, "", [1.0, 3.0], keys=["n_source.tcp.initial_rto_s"]),
    ]
    study: Any = _Derived()
    with open_store(tmp_path / "s.sqlite") as store:
        m = morris.run(study, declared, Subset([_toy_experiment()], "toy"), 1, store, morris.Options(2))
    assert set(m.frame["metric"]) == {"twice"} and len(m.frame) == 2
    assert set(m.factorial["metric"]) == {"twice"} and (m.factorial["mean"] >= 0).all()


def test_combinations_the_engine_rejects_are_left_out(tmp_path):
    """An RTO floor of 200 ticks is valid on a 1 ms tick, not on a 500 ms one (above the
    maximum RTO): that combination is left out and said so, the others run."""
    from atmsim.store import open_store

    declared = [
        Assumption("floor", "RTO floor (ticks)", 1, "", [1, 200], keys=["n_source.tcp.min_rto_ticks"]),
        Assumption("tick", "tick (ms)", 1.0, "", [1.0, 500.0], keys=["n_source.tcp.tick_ms"]),
    ]
    notes: List[str] = []
    with open_store(tmp_path / "s.sqlite") as store:
        frame, computed, cached = morris.factorial(
            TOY, [_toy_experiment()], declared, ["floor", "tick"], 1, store, notes=notes
        )
    assert sorted(zip(frame["floor"], frame["tick"])) == [("1", "1"), ("1", "500"), ("200", "1")]
    assert computed + cached == 3  # runs the first (rejected) sweep stored are not redone
    assert any("rejects some combinations" in n and "min_rto_ticks" in n for n in notes)
    assert "1 of 4 design points rejected by the engine" in notes


def test_incomplete_trajectories_are_dropped():
    nan = float("nan")
    assert morris._complete([1, 2, 3, 4, nan, 6, 7, 8, 9], 3) == [0, 1, 2, 6, 7, 8]


def test_single_value_assumptions_are_not_screened(tmp_path):
    from atmsim.store import open_store

    declared = [
        Assumption("rto", "RTO floor", 2, "", [1, 3], keys=["n_source.tcp.min_rto_ticks"]),
        Assumption("rto0", "initial RTO", 3.0, "", [1.0, 3.0], keys=["n_source.tcp.initial_rto_s"]),
        Assumption("one", "only one", 5, "", [5], keys=["n_source.tcp.max_backoffs"]),
    ]
    with open_store(tmp_path / "s.sqlite") as store:
        m = morris.run(TOY, declared, Subset([_toy_experiment()], "toy"), 1, store, morris.Options(2))
    assert set(m.frame["assumption"]) == {"rto", "rto0"}
    assert "assumption one: a single value, not screened" in m.notes


def test_rounding_noise_is_no_effect():
    """Outputs equal but for float rounding give mu* = sigma = 0 exactly."""
    base = 0.1 + 0.2
    out = _by_assumption(morris.screen(NUMERIC, lambda v: base if v["a"] % 2 else 0.3, trajectories=4))
    assert out["a"]["mu_star"] == 0 and out["b"]["mu_star"] == 0 and out["a"]["sigma"] == 0


def test_goyal_morris_states_what_it_covers_and_covers_all_in_full_mode():
    """gfr-goyal's screening runs on its 19 quick experiments with --quick and says which
    families that leaves out; in full mode it covers every experiment with a published value."""
    from atmsim.studies import registry

    goyal = registry.get("gfr-goyal")
    quick, full = morris.subset(goyal, True), morris.subset(goyal, False)
    assert len(quick.experiments) == 19 and len(full.experiments) == 42
    text = morris.coverage(goyal, quick)
    assert text.startswith(
        "Morris covers 19 of the study's 42 experiments with a published value; not screened: "
    )
    assert "Tables 1-3 experiment 2" in text and "Tables 4-5 experiment 3" in text
    assert "not screened: fig3 (2 of its 4), " in text  # figure 3: two of its four thresholds
    assert "Tables 1-3 experiment 1," not in text + ","
    assert morris.coverage(goyal, full).endswith("42 experiments with a published value: all of them")
    # A study without a declared Morris subset screens its sensitivity subset.
    ubr = registry.get("ubr-plus")
    assert morris.subset(ubr, True).why == S.subset(ubr, True).why


def test_run_notes_its_coverage(tmp_path):
    from atmsim.store import open_store

    class Covered(_Toy):
        def experiments(self, quick):
            return [_toy_experiment(), Experiment("t", {"k": 2}, _toy_experiment().scenario, {"eff": 0.4})]

    declared = [
        Assumption("rto", "RTO floor", 2, "", [1, 2, 3], keys=["n_source.tcp.min_rto_ticks"]),
        Assumption("rto0", "initial RTO", 3.0, "", [1.0, 3.0], keys=["n_source.tcp.initial_rto_s"]),
    ]
    with open_store(tmp_path / "s.sqlite") as store:
        m = morris.run(
            cast(Any, Covered()), declared, Subset([_toy_experiment()], "toy"), 1, store, morris.Options(2)
        )
    assert (
        m.notes[0] == "Morris covers 1 of the study's 2 experiments with a published value; "
        "not screened: t (1 of its 2)"
    )
    assert "note: Morris covers 1 of the study's 2" in morris.render(m)
