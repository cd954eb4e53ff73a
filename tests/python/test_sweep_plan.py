"""Sweep planning without the engine: grid and zip expansion, value parsing, seeds, keys,
Student-t intervals."""

from __future__ import annotations

import math

import pytest

from atmsim import plan
from atmsim.literals import split_values, value_of
from atmsim.runkey import run_key
from atmsim.scenario import Scenario
from atmsim.seeds import derive_seed
from atmsim.stats import estimate
from atmsim.student_t import quantile

SC = Scenario("[simulation]\nduration_s = 1\n", "test")


def test_seed_derivation_is_stable_and_documented():
    # Golden values: changing derive_seed would silently change every stored sweep's seeds.
    assert [derive_seed(1, r) for r in range(3)] == [
        8006433333529931813,
        7470290574573352990,
        6872464826545379149,
    ]
    assert derive_seed(7, 0) == 2489935331442812676
    import hashlib

    digest = hashlib.sha256(b"atmsim-seed-v1:1:0").digest()
    assert derive_seed(1, 0) == int.from_bytes(digest[:8], "big") >> 1
    seeds = {derive_seed(b, r) for b in range(5) for r in range(50)}
    assert len(seeds) == 250 and all(0 <= s < 2**63 for s in seeds)
    with pytest.raises(ValueError):
        derive_seed(-1, 0)


def test_run_key_depends_on_every_input():
    base = run_key("text", [("a", "1")], 5, "0.1.0")
    assert base == run_key("text", [("a", "1")], 5, "0.1.0")
    others = {
        run_key("text2", [("a", "1")], 5, "0.1.0"),
        run_key("text", [("a", "2")], 5, "0.1.0"),
        run_key("text", [("a", "1"), ("b", "1")], 5, "0.1.0"),
        run_key("text", [("a", "1")], 6, "0.1.0"),
        run_key("text", [("a", "1")], 5, "0.2.0"),
    }
    assert base not in others and len(others) == 5


def test_values_read_as_the_engine_reads_them():
    assert value_of("1000") == 1000
    assert value_of("0.5") == 0.5
    assert value_of("true") is True
    assert value_of("epd") == "epd"
    assert value_of('"infinite"') == "infinite"
    assert split_values("1,2, 3") == ["1", "2", "3"]
    assert split_values('[1,2],"a,b",x') == ["[1,2]", '"a,b"', "x"]


def test_grid_is_a_cartesian_product_first_key_slowest():
    grid = [plan.parse_axis("a=1,2", "--grid"), plan.parse_axis("b=x,y,z", "--grid")]
    points = plan.points(SC, grid, [])
    assert [p.params for p in points] == [{"a": a, "b": b} for a in (1, 2) for b in ("x", "y", "z")]
    assert points[0].overrides == (("a", "1"), ("b", "x"))


def test_zip_advances_in_lockstep_and_crosses_the_grid():
    grid = [plan.parse_axis("g=1,2", "--grid")]
    zipped = [plan.parse_axis("a=1,2,3", "--zip"), plan.parse_axis("b=4,5,6", "--zip")]
    points = plan.points(SC, grid, zipped, fixed=(("f", "9"),))
    assert len(points) == 6
    assert [(p.params["g"], p.params["a"], p.params["b"]) for p in points] == [
        (1, 1, 4),
        (1, 2, 5),
        (1, 3, 6),
        (2, 1, 4),
        (2, 2, 5),
        (2, 3, 6),
    ]
    assert all(p.params["f"] == 9 and p.overrides[0] == ("f", "9") for p in points)
    only_zip = plan.points(SC, [], zipped)
    assert [p.params for p in only_zip] == [{"a": 1, "b": 4}, {"a": 2, "b": 5}, {"a": 3, "b": 6}]
    assert [p.params for p in plan.points(SC, [], [])] == [{}]


def test_api_axes_keep_python_values():
    axes = plan.axes({"n_source.policy": ["epd", "fba"], "x": [0.5, True]}, "grid")
    assert axes[0].values == [("epd", "epd"), ("fba", "fba")]
    assert axes[1].values == [("0.5", 0.5), ("true", True)]


@pytest.mark.parametrize(
    "grid, zipped, needle",
    [
        (["a"], [], "expected key=v1,v2"),
        (["=1,2"], [], "expected key=v1,v2"),
        (["a=1,,2"], [], "empty value"),
        (["a=1", "a=2"], [], "more than once"),
        (["a=1"], ["a=2"], "more than once"),
        ([], ["a=1,2", "b=1"], "same length"),
        (["simulation.seed=1,2"], [], "base seed"),
    ],
)
def test_bad_specs(grid, zipped, needle):
    with pytest.raises(plan.SweepSpecError, match=needle):
        g = [plan.parse_axis(i, "--grid") for i in grid]
        z = [plan.parse_axis(i, "--zip") for i in zipped]
        plan.points(SC, g, z)


def test_tasks_seeds_and_keys():
    points = plan.points(SC, [plan.parse_axis("a=1,2", "--grid")], [])
    tasks = plan.tasks(points, 3, base_seed=1, engine_version="v")
    assert len(tasks) == 6
    # Common random numbers: run r has the same seed at every point.
    assert [t.seed for t in tasks[:3]] == [t.seed for t in tasks[3:]] == [derive_seed(1, r) for r in range(3)]
    assert len({t.key for t in tasks}) == 6
    with pytest.raises(plan.SweepSpecError):
        plan.tasks(points, 0, 1, "v")


def test_student_t_quantiles():
    # Published two-sided 95 % critical values.
    for df, expected in [(1, 12.7062), (2, 4.3027), (4, 2.7764), (9, 2.2622), (29, 2.0452)]:
        assert quantile(0.975, df) == pytest.approx(expected, abs=1e-4)
    assert quantile(0.025, 4) == pytest.approx(-2.7764, abs=1e-4)
    assert quantile(0.975, 10**6) == pytest.approx(1.95996, abs=1e-4)


def test_estimate():
    e = estimate([1.0, 2.0, 3.0, None, float("nan")])
    assert e.n == 3 and e.mean == 2.0 and e.std == 1.0
    half = 4.302652729749752 / math.sqrt(3)
    assert (e.ci_low, e.ci_high) == pytest.approx((2 - half, 2 + half))
    one = estimate([5.0])
    assert one.n == 1 and one.mean == 5.0 and math.isnan(one.ci_low)
    assert estimate([]).n == 0
