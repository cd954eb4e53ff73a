"""The Python API: load/run, Result and its DataFrames, ScenarioError, overrides."""

from __future__ import annotations

import pickle

import pandas as pd
import pytest

import atmsim
from atmsim.overrides import normalize, parse_set
from atmsim.result import Result
from atmsim.scenario import as_scenario
from conftest import host_switch_host, small_scenario


def test_run_from_path_text_and_loaded(scenario_file):
    path = scenario_file()
    for source in (path, str(path), atmsim.load(path), small_scenario()):
        result = atmsim.run(source)
        assert isinstance(result, Result)
        assert isinstance(result.raw, dict)


def test_result_frames(scenario_file):
    result = atmsim.run(scenario_file(), seed=3)
    assert result.seed == 3
    flows, ports = result.flows, result.ports
    assert isinstance(flows, pd.DataFrame) and isinstance(ports, pd.DataFrame)
    assert len(flows) == 5
    assert {"name", "goodput_bps", "bytes_delivered", "rto_expirations"} <= set(flows.columns)
    assert {"name", "cells_in", "cells_out", "cells_dropped", "max_queue_cells"} <= set(ports.columns)
    assert (flows["goodput_bps"] >= 0).all()
    summary = result.summary
    assert summary["total_goodput_bps"] == pytest.approx(flows["goodput_bps"].sum(), rel=1e-6)
    bottleneck = result.bottleneck_port()
    assert bottleneck is not None and bottleneck["max_queue_cells"] == summary["max_queue_cells"]


def test_overrides_mapping(scenario_file):
    result = atmsim.run(scenario_file(), overrides={"simulation.duration_s": 0.1})
    assert result.duration_s == pytest.approx(0.1)


def test_scenario_error_is_value_error_with_parts():
    with pytest.raises(ValueError) as info:
        atmsim.run(small_scenario(sources=-1))
    err = info.value
    assert isinstance(err, atmsim.ScenarioError)
    assert str(err) == f"{err.field}: {err.reason}"
    # Errors cross process boundaries (reproduce's workers) intact.
    again = pickle.loads(pickle.dumps(err))
    assert (type(again), again.field, again.reason) == (type(err), err.field, err.reason)


def test_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        atmsim.run(str(tmp_path / "absent.toml"))


# Pure-Python pieces (no engine needed).


def test_as_scenario_tells_text_from_path(tmp_path):
    assert as_scenario("[simulation]\nduration_s = 1.0\n").source == "<text>"
    path = tmp_path / "s.toml"
    path.write_text("[simulation]\n")
    assert as_scenario(str(path)).source == str(path)
    with pytest.raises(FileNotFoundError):
        as_scenario("missing.toml")


def test_override_normalization():
    assert parse_set("a.b = 1") == ("a.b", "1")
    assert parse_set("n.policy=x=y") == ("n.policy", "x=y")
    with pytest.raises(ValueError):
        parse_set("novalue")
    pairs = normalize({"a": True, "b": 2, "c": 0.5, "d": "fba"})
    assert pairs == [("a", "true"), ("b", "2"), ("c", "0.5"), ("d", "fba")]
    assert normalize(["x=1", ("y", 2)]) == [("x", "1"), ("y", "2")]
    assert normalize(None) == []


def test_bottleneck_port_choice():
    ports = [{"name": "a", "cells_out": 10}, {"name": "b", "cells_out": 5}]
    named = Result({"ports": ports, "summary": {"bottleneck_port": "b"}})
    assert (named.bottleneck_port() or {}).get("name") == "b"
    unnamed = Result({"ports": ports, "summary": {}})
    assert (unnamed.bottleneck_port() or {}).get("name") == "a"
    assert Result({"ports": []}).bottleneck_port() is None


BACKGROUND_ONLY = (
    host_switch_host(0.1, 10, (155_520_000, 100_000_000))
    + """
[[port]]
node = "s"
toward = "b"
buffer_cells = 50
policy = { kind = "tail_drop" }
[[background]]
name = "cbr"
route = ["a", "s", "b"]
source = { kind = "cbr", rate_bps = 120e6 }
"""
)


def test_a_scenario_without_tcp_runs():
    # A queueing study with no TCP at all: 120 Mb/s of CBR into a 100 Mb/s port.
    result = atmsim.run(BACKGROUND_ONLY)
    assert result.flows.empty
    s = result.summary
    assert s["max_tcp_goodput_bps"] is None and s["efficiency"] is None and s["fairness"] is None
    assert s["total_goodput_bps"] == 0
    assert s["max_queue_cells"] == 50
    bg = result.background
    assert list(bg["name"]) == ["cbr"]
    # The excess, 1 - 100/120 of the cells, is lost.
    assert bg["cell_loss_ratio"][0] == pytest.approx(1 - 100 / 120, abs=0.01)
    assert s["conservation"]["balanced"]
