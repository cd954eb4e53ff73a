"""Issue 12: every input gets a clear error or bounded work (the Python side).

Each test names the item it covers; each failed on the code before the fix (a traceback, a
silent truncation, a hang, or a write into someone else's database).
"""

from __future__ import annotations

import json
import socket
import sqlite3
import tracemalloc
from typing import Callable, ParamSpec, TypeVar

import pytest

import atmsim
from atmsim import limits, plan
from atmsim.scenario import Scenario, as_scenario
from conftest import host_switch_host, run_cli, small_scenario
from test_cli_errors import assert_one_line_error

P = ParamSpec("P")
T = TypeVar("T")

# --- item 7: size cap -------------------------------------------------------------------------


def test_run_dev_zero_is_refused_by_size(tmp_path):
    assert_one_line_error(run_cli("run", "/dev/zero"), "/dev/zero", "larger than 16 MiB")


def test_a_large_scenario_file_is_refused_by_size(tmp_path):
    big = tmp_path / "big.toml"
    big.write_bytes(b"# padding\n" * (limits.MAX_SCENARIO_BYTES // 10 + 1))
    assert_one_line_error(run_cli("run", big), "big.toml", "larger than")


# --- item 8: non-UTF-8 ------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["run"], ["sweep"], ["bench"]])
def test_non_utf8_scenario_is_one_line(tmp_path, command):
    bad = tmp_path / "latin1.toml"
    bad.write_bytes("# caf\xe9\n".encode("latin-1") + small_scenario().encode())
    assert_one_line_error(run_cli(*command, bad), "latin1.toml", "not UTF-8")


def test_non_utf8_stdin_is_one_line():
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "atmsim", "run", "-"], input=b"\xff\xfe\x00[", capture_output=True, timeout=60
    )
    assert proc.returncode == 2
    lines = proc.stderr.decode().strip().splitlines()
    assert lines == ["atmsim: error: <stdin>: not UTF-8 text (invalid byte at offset 0)"]


# --- item 9: path or text, by rule --------------------------------------------------------------


def test_one_line_toml_text_goes_through_text_keyword():
    text = 'n_source = { sources = 2, config = "LAN", buffer_cells = 1000, policy = "epd" }'
    # As a positional str on one line it is a path: a clear error, never "name too long".
    with pytest.raises(OSError, match="text="):
        as_scenario(text + " " * 300)
    result = atmsim.run(text="simulation = { duration_s = 0.01 }\n" + text)
    assert len(result.flows) == 2
    assert as_scenario(text=text).text == text


def test_one_line_text_ending_in_toml_is_a_path_with_a_hint():
    with pytest.raises(FileNotFoundError, match="one-line str is a path"):
        as_scenario("x = 'a.toml'")


def test_text_and_scenario_together_are_refused():
    with pytest.raises(TypeError):
        as_scenario(Scenario("x"), text="y")


# --- item 10: unreachable Dask scheduler --------------------------------------------------------


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return int(port)


def test_unreachable_dask_is_one_line_and_prompt(scenario_file, tmp_path):
    path = scenario_file()
    proc = run_cli(
        "sweep", path, "--store", tmp_path / "s.db", "--dask", f"127.0.0.1:{_closed_port()}", timeout=15
    )
    assert_one_line_error(proc, "--dask", "cannot connect")


def test_dask_address_without_port_is_one_line(scenario_file, tmp_path):
    proc = run_cli("sweep", scenario_file(), "--store", tmp_path / "s.db", "--dask", "127.0.0.1", timeout=15)
    assert_one_line_error(proc, "--dask 127.0.0.1", "HOST:PORT")


# --- item 11: foreign SQLite databases and damaged runs -----------------------------------------


def test_sweep_refuses_an_unrelated_database_touching_nothing(scenario_file, tmp_path):
    app = tmp_path / "app.db"
    db = sqlite3.connect(app)
    db.execute("CREATE TABLE users (id INTEGER)")
    db.commit()
    db.close()
    before = app.read_bytes()
    proc = run_cli("sweep", scenario_file(), "--store", app)
    assert_one_line_error(proc, "app.db", "not an atmsim results store")
    assert app.read_bytes() == before
    assert not (tmp_path / "app.db-wal").exists()


def test_a_damaged_stored_run_is_not_reused(tmp_path):
    store = tmp_path / "s.db"
    text = small_scenario().replace("duration_s = 0.3", "duration_s = 0.01")
    atmsim.sweep(text, runs=1, store=store, jobs=1)
    db = sqlite3.connect(store)
    db.execute("UPDATE runs SET result = 'garbage'")
    db.commit()
    db.close()
    with pytest.raises(atmsim.store.StoreError, match="damaged"):
        atmsim.sweep(text, runs=1, store=store, jobs=1)


# --- item 12: option errors in one line ---------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["run", "x.toml", "--seed", "-1"],
        ["sweep", "x.toml", "--runs", "abc"],
        ["sweep", "x.toml", "--base-seed", "-5"],
        ["version", "extra"],
    ],
)
def test_option_errors_are_one_line(args):
    assert_one_line_error(run_cli(*args))


# --- item 15: export to a directory -------------------------------------------------------------


def test_export_to_a_directory_names_the_directory(tmp_path):
    store = tmp_path / "s.db"
    atmsim.open_store(store).close()
    line = assert_one_line_error(run_cli("store", "export", store, "--csv", tmp_path))
    assert f"{tmp_path}: is a directory" in line
    assert ".atmsim-export-" not in line


# --- item 4: output that cannot be written ------------------------------------------------------


def test_json_to_a_full_device_fails_loudly(scenario_file):
    import subprocess
    import sys

    path = scenario_file(small_scenario().replace("duration_s = 0.3", "duration_s = 0.01"))
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "atmsim", "run", path, "--json"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == ["atmsim: error: cannot write output: No space left on device"]


def test_large_output_is_written_in_pieces(monkeypatch, capsys):
    from atmsim import cli

    writes = []

    class Out:
        def write(self, s):
            writes.append(len(s))
            return len(s)

        def flush(self):
            pass

    monkeypatch.setattr("sys.stdout", Out())
    cli._write_out("x" * (3 * (1 << 20) + 5))
    assert writes == [1 << 20] * 3 + [5]


# --- item 5: lazy sweep -------------------------------------------------------------------------


def test_a_billion_run_plan_is_a_generator_with_small_memory():
    points = plan.points(Scenario(small_scenario()), [], [])
    tracemalloc.start()
    tasks = plan.iter_tasks(points, 10**9, 1, "engine")
    first = [next(tasks) for _ in range(1000)]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert [t.run for t in first[:3]] == [0, 1, 2]
    assert peak < 5_000_000, peak


def test_a_billion_run_sweep_starts_and_stops_with_bounded_memory(tmp_path):
    """The sweep runs and commits as it goes; stopping it (here: an executor that refuses
    after a few submissions) leaves those runs stored, with nothing built for the rest."""
    from concurrent.futures import Executor, Future

    class Few(Executor):
        def __init__(self):
            self.n = 0

        def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
            self.n += 1
            if self.n > 300:
                raise KeyboardInterrupt
            f: Future[T] = Future()
            f.set_result(fn(*args, **kwargs))
            return f

    store = tmp_path / "s.db"
    text = small_scenario().replace("duration_s = 0.3", "duration_s = 0.001")
    tracemalloc.start()
    with pytest.raises(KeyboardInterrupt):
        atmsim.sweep(text, runs=10**9, store=store, executor=Few())
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    with atmsim.open_store(store) as db:
        # Committed as they finished: those before the stop (the first window), not one more.
        assert 0 < db.count() < 300
    assert peak < 50_000_000, peak


# --- the cost estimate --------------------------------------------------------------------------


def test_estimate_command_prints_without_running(scenario_file):
    proc = run_cli("run", "--estimate", "--json", scenario_file())
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert set(doc) == {"cells", "cell_hops", "events", "memory_bytes", "wall_s"}
    assert doc["cells"] > 0 and doc["memory_bytes"] > 0


def test_estimate_api_matches_the_run_within_a_factor_of_two():
    from pathlib import Path

    path = (
        Path(__file__).resolve().parents[2] / "python" / "atmsim" / "scenarios" / "class-two-node-shaped.toml"
    )
    short = {"simulation.duration_s": 0.5}
    est = atmsim.estimate(path, overrides=short)
    result = atmsim.run(path, overrides=short)
    assert 0.5 <= est.events / result.raw["events"] <= 2.0


def test_run_refuses_what_exceeds_max_memory(scenario_file):
    line = assert_one_line_error(run_cli("run", scenario_file(), "--max-memory", "1M"))
    assert "exceeds --max-memory" in line and "estimated" in line


def test_sweep_refuses_what_exceeds_max_memory(scenario_file, tmp_path):
    store = tmp_path / "s.db"
    assert_one_line_error(
        run_cli("sweep", scenario_file(), "--store", store, "--max-memory", "1M"), "exceeds --max-memory"
    )
    assert not store.exists()


def test_a_bad_max_memory_is_one_line(scenario_file):
    assert_one_line_error(run_cli("run", scenario_file(), "--max-memory", "lots"), "--max-memory")


def test_background_refusals_are_in_the_report():
    text = (
        host_switch_host(0.005, 10)
        + """
[[connection]]
name = "c"
route = ["a", "s", "b"]
[[background]]
name = "flood"
route = ["a", "s", "b"]
source = { kind = "poisson", user_bps = 1e12 }
"""
    )
    bg = atmsim.run(text=text).raw["background"][0]
    assert bg["messages_refused"] > 0 and bg["cells_refused"] > 0
