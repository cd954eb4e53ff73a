"""User errors of `sweep`, `store` and `reproduce all`: one line `atmsim: error: ...`, exit 2,
no traceback."""

from __future__ import annotations

import pytest

from conftest import run_cli
from test_cli_errors import assert_one_line_error


@pytest.mark.parametrize(
    "options, needle",
    [
        (["--grid", "no_equals"], "--grid"),
        (["--grid", "n_source.buffer_cells="], "--grid n_source.buffer_cells"),
        (["--grid", "a=1", "--grid", "a=2"], "more than once"),
        (["--zip", "n_source.r=0.1,0.5", "--zip", "n_source.z=0.8"], "same length"),
        (["--grid", "simulation.seed=1,2"], "--base-seed"),
        (["--runs", "0"], "--runs"),
        (["--jobs", "0"], "--jobs"),
        (["--set", "oops"], "--set"),
    ],
)
def test_bad_sweep_options(scenario_file, tmp_path, options, needle):
    proc = run_cli("sweep", scenario_file(), "--store", tmp_path / "s.sqlite", *options)
    assert_one_line_error(proc, needle)


def test_engine_error_in_a_sweep(scenario_file, tmp_path):
    proc = run_cli("sweep", scenario_file(), "--store", tmp_path / "s.sqlite", "--grid", "n_source.bogus=1,2")
    assert_one_line_error(proc, "n_source.bogus")


def test_bad_store_paths(scenario_file, tmp_path):
    assert_one_line_error(
        run_cli("sweep", scenario_file(), "--store", tmp_path / "missing" / "s.sqlite"), "does not exist"
    )
    assert_one_line_error(run_cli("sweep", scenario_file(), "--store", tmp_path), "directory")
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database\n" * 200)
    assert_one_line_error(run_cli("sweep", scenario_file(), "--store", junk), "junk.sqlite")
    assert_one_line_error(
        run_cli("store", "export", tmp_path / "nope.sqlite", "--csv", tmp_path / "x.csv"), "no such store"
    )
    assert_one_line_error(run_cli("store", "info", junk), "junk.sqlite")


def test_missing_scenario_file(tmp_path):
    assert_one_line_error(run_cli("sweep", tmp_path / "nope.toml"), "nope.toml")


def test_unknown_study(tmp_path):
    line = assert_one_line_error(run_cli("reproduce", "no-such-study", "--out", tmp_path), "no-such-study")
    assert "ubr-plus" in line  # the message lists the known studies


def test_reproduce_all_rejects_tables(tmp_path):
    assert_one_line_error(run_cli("reproduce", "all", "--tables", "1", "--out", tmp_path), "--tables")


def test_unreachable_dask_scheduler(scenario_file, tmp_path):
    proc = run_cli(
        "sweep", scenario_file(), "--store", tmp_path / "s.sqlite", "--dask", "tcp://127.0.0.1:9", timeout=120
    )
    assert_one_line_error(proc, "--dask")
