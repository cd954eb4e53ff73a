"""atmsim.sweep: tidy results, replications with derived seeds, the store as a cache, any
Executor."""

from __future__ import annotations

import copy
import math
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

import atmsim
from conftest import small_scenario

# One lossy connection: its losses come from a random stream, so replications differ.
RANDOM = (
    small_scenario()
    + """
[[fault]]
port = "sw1->sw2"
connection = "tcp1"
loss_rate = 0.02
"""
)


def test_summary_is_tidy_with_intervals(tmp_path):
    out = atmsim.sweep(
        RANDOM,
        grid={"n_source.buffer_cells": [1000, 2000]},
        runs=3,
        store=tmp_path / "s.sqlite",
        jobs=2,
        progress=False,
    )
    assert {"point", "n_source.buffer_cells", "metric", "n", "mean", "std", "ci_low", "ci_high"} <= set(
        out.columns
    )
    assert out.attrs["runs_computed"] == 6 and out.attrs["runs_cached"] == 0
    eff = out[out["metric"] == "summary.efficiency"]
    assert list(eff["n_source.buffer_cells"]) == [1000, 2000]
    assert (eff["n"] == 3).all()
    assert (eff["ci_low"] <= eff["mean"]).all() and (eff["mean"] <= eff["ci_high"]).all()
    flow1 = out[out["metric"] == "flows.tcp1.goodput_bps"]
    # Random losses: the replications differ, so the interval has a width.
    assert (flow1["std"] > 0).all()
    assert {"summary.fairness", "summary.total_goodput_bps", "flows.tcp5.goodput_bps"} <= set(out["metric"])


def test_runs_rerun_alone_give_the_same_numbers(tmp_path):
    runs = atmsim.sweep(
        RANDOM,
        grid={"n_source.buffer_cells": [1000, 3000]},
        zip={"n_source.z": [0.5, 0.8]},
        runs=2,
        store=None,
        summary=False,
        progress=False,
        jobs=1,
    )
    assert len(runs) == 2 * 2 * 2
    assert list(runs["seed"].unique()) == [atmsim.derive_seed(1, 0), atmsim.derive_seed(1, 1)]
    row = runs.iloc[5]
    again = atmsim.run(
        RANDOM,
        seed=int(row["seed"]),
        overrides={
            "n_source.buffer_cells": row["n_source.buffer_cells"].item(),
            "n_source.z": row["n_source.z"].item(),
        },
    )
    assert again.summary["total_goodput_bps"] == row["summary.total_goodput_bps"]
    assert again.flows.set_index("name").loc["tcp1", "goodput_bps"] == row["flows.tcp1.goodput_bps"]


def test_store_is_a_cache(tmp_path):
    path = tmp_path / "cache.sqlite"
    kwargs = dict(grid={"n_source.buffer_cells": [1000, 2000]}, runs=2, store=path, progress=False, jobs=1)
    first = atmsim.sweep(RANDOM, **kwargs)
    assert first.attrs["runs_computed"] == 4
    more = atmsim.sweep(RANDOM, **dict(kwargs, runs=3))
    assert (more.attrs["runs_computed"], more.attrs["runs_cached"]) == (2, 4)
    pd.testing.assert_frame_equal(
        first[first["metric"] == "summary.efficiency"][["mean"]].reset_index(drop=True),
        atmsim.sweep(RANDOM, **kwargs)
        .query("metric == 'summary.efficiency'")[["mean"]]
        .reset_index(drop=True),
    )
    with atmsim.open_store(path) as store:
        assert store.count() == 6
        table = store.runs()
    assert len(table) == 6
    assert {
        "key",
        "seed",
        "run",
        "engine_version",
        "n_source.buffer_cells",
        "summary.efficiency",
        "flows.tcp1.goodput_bps",
    } <= set(table.columns)
    assert table["key"].is_unique


def test_any_executor_and_summarize(tmp_path):
    with ThreadPoolExecutor(2) as pool:
        runs = atmsim.sweep(
            RANDOM,
            grid={"n_source.z": [0.5, 0.8]},
            runs=2,
            store=None,
            executor=pool,
            summary=False,
            progress=False,
        )
    assert len(runs) == 4
    attrs = copy.deepcopy(runs.attrs)
    summary = atmsim.summarize(runs)
    eff = summary[summary["metric"] == "summary.efficiency"]
    assert len(eff) == 2 and (eff["n"] == 2).all()
    # Summarised without its attrs (they cost a deep copy per group and column), the run
    # table keeps them.
    assert runs.attrs == attrs and attrs["metrics"]
    assert set(summary["metric"]) == set(attrs["metrics"])


def test_scenario_errors_surface(tmp_path):
    with pytest.raises(atmsim.ScenarioError) as info:
        atmsim.sweep(small_scenario(), grid={"n_source.bogus": [1, 2]}, store=None, progress=False, jobs=2)
    assert "n_source.bogus" in str(info.value)


def test_detail_metrics(tmp_path):
    runs = atmsim.sweep(small_scenario(), store=None, summary=False, detail=True, progress=False)
    assert "ports.sw1->sw2.cells_dropped" in runs.columns
    assert "flows.tcp1.rto_expirations" in runs.columns
    assert not math.isnan(runs["ports.sw1->sw2.cells_out"].iloc[0])


def test_the_announcement_estimates_only_points_with_runs_to_compute(tmp_path, monkeypatch, capsys):
    """Before a batch, the wall-time estimate covers the runs not in the store: a point read
    back from the store costs no estimate (each is a scenario build)."""
    from atmsim import sweeps

    store = tmp_path / "s.sqlite"
    grid = {"n_source.buffer_cells": [1000, 2000]}
    atmsim.sweep(RANDOM, grid=grid, runs=2, store=store, summary=False, progress=False, jobs=1)
    asked: list[list[tuple[str, ...]]] = []
    real = sweeps.estimate_points

    def recording(points):
        asked.append([tuple(p.overrides) for p in points])
        return real(points)

    monkeypatch.setattr(sweeps, "estimate_points", recording)
    monkeypatch.setattr(sweeps, "ANNOUNCE_OVER_S", 0.0)
    capsys.readouterr()
    again = atmsim.sweep(RANDOM, grid=grid, runs=2, store=store, summary=False, progress=False, jobs=1)
    assert again.attrs["runs_cached"] == 4 and asked == []
    assert "runs to compute" not in capsys.readouterr().err
    wider = {"n_source.buffer_cells": [1000, 2000, 3000]}
    out = atmsim.sweep(RANDOM, grid=wider, runs=2, store=store, summary=False, progress=False, jobs=1)
    assert out.attrs["runs_computed"] == 2 and out.attrs["runs_cached"] == 4
    (only,) = asked
    assert len(only) == 1 and any("3000" in o for o in only[0]), asked
    assert "2 runs to compute on 1 worker(s)" in capsys.readouterr().err
