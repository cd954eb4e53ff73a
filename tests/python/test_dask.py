"""Sweeps on a Dask cluster: the API with a Client (or its executor) and `sweep --dask`."""

from __future__ import annotations

import json

import pytest

import atmsim
from conftest import run_cli, small_scenario

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    # Threads, not processes: the engine releases the GIL, and start-up is fast.
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        protocol="tcp",  # reachable from the `atmsim sweep --dask` subprocess
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_api_with_dask_client_and_executor(client, tmp_path):
    store = tmp_path / "dask.sqlite"
    grid = {"n_source.buffer_cells": [1000, 2000]}
    via_client = atmsim.sweep(
        small_scenario(), grid=grid, runs=2, store=store, executor=client, progress=False, summary=False
    )
    assert via_client.attrs["runs_computed"] == 4
    via_executor = atmsim.sweep(
        small_scenario(),
        grid=grid,
        runs=3,
        store=store,
        executor=client.get_executor(),
        progress=False,
        summary=False,
    )
    assert (via_executor.attrs["runs_computed"], via_executor.attrs["runs_cached"]) == (2, 4)
    local = atmsim.sweep(
        small_scenario(), grid=grid, runs=3, store=None, jobs=1, progress=False, summary=False
    )
    cols = ["seed", "summary.total_goodput_bps", "flows.tcp3.goodput_bps"]
    assert via_executor[cols].values.tolist() == local[cols].values.tolist()


def test_cli_dask_address(client, tmp_path, scenario_file):
    address = client.scheduler.address
    proc = run_cli(
        "sweep",
        scenario_file(),
        "--grid",
        "n_source.z=0.5,0.8",
        "--runs",
        "2",
        "--store",
        tmp_path / "cli.sqlite",
        "--dask",
        address,
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["runs_computed"] == 4
    assert [p["params"]["n_source.z"] for p in doc["points"]] == [0.5, 0.8]
