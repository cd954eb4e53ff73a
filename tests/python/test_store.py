"""The results store: atomic commits, no duplicates, survival of SIGKILL, export."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pandas as pd
import pytest

import atmsim
from atmsim.store import StoreError, open_store
from conftest import run_cli, small_scenario


def put(store, key, **extra):
    args = dict(
        key=key,
        scenario="s",
        source="src",
        overrides=[("a", "1")],
        params={"a": 1},
        seed=3,
        run=0,
        engine_version="v",
        metrics={"summary.efficiency": 0.5},
        result='{"summary": {"efficiency": 0.5}}',
    )
    args.update(extra)
    return store.put(**args)


def test_put_is_idempotent_and_wal(tmp_path):
    path = tmp_path / "r.sqlite"
    with open_store(path) as store:
        assert put(store, "k1") is True
        assert put(store, "k1", seed=4) is False  # same key: kept once, first version wins
        assert put(store, "k2") is True
        assert store.count() == 2
        assert store.existing(["k1", "k3"]) == {"k1"}
        assert store.fetch(["k2", "missing", "k1"])[0].key == "k2"
        assert store.result("k1") == {"summary": {"efficiency": 0.5}}
        frame = store.runs()
    assert list(frame["key"]) == ["k1", "k2"]
    assert frame.loc[0, "a"] == 1 and frame.loc[0, "summary.efficiency"] == 0.5
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_open_errors(tmp_path):
    with pytest.raises(StoreError, match="is a directory"):
        open_store(tmp_path)
    with pytest.raises(StoreError, match="does not exist"):
        open_store(tmp_path / "no" / "such" / "dir.sqlite")
    with pytest.raises(StoreError, match="no such store"):
        open_store(tmp_path / "absent.sqlite", create=False)
    text = tmp_path / "notes.txt"
    text.write_text("hello, not a database\n" * 100)
    with pytest.raises(StoreError, match="notes.txt"):
        open_store(text)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)")
    with pytest.raises(StoreError, match="not an atmsim results store"):
        open_store(other, create=False)


def count(path) -> int:
    db = sqlite3.connect(path, timeout=30)
    try:
        return int(db.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
    except sqlite3.OperationalError:  # the sweep has not created the table yet
        return 0
    finally:
        db.close()


def test_sigkill_loses_nothing_and_stores_nothing_twice(tmp_path):
    """A real sweep killed with SIGKILL after some runs were committed, then restarted."""
    scenario = tmp_path / "s.toml"
    scenario.write_text(small_scenario())
    store = tmp_path / "kill.sqlite"
    args = [
        sys.executable,
        "-m",
        "atmsim",
        "sweep",
        str(scenario),
        "--set",
        "simulation.duration_s=4",
        "--grid",
        "n_source.buffer_cells=1000,2000,3000,4000",
        "--runs",
        "10",
        "--jobs",
        "2",
        "--store",
        str(store),
        "--json",
    ]
    total = 40
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while count(store) < 6 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        # The whole process group: the sweep and its worker processes.
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    committed = count(store)
    assert 6 <= committed < total, f"kill came too late or too early ({committed} runs)"
    db = sqlite3.connect(store)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    before = dict(db.execute("SELECT key, created_at FROM runs").fetchall())
    db.close()

    again = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    doc = json.loads(again.stdout)
    assert (doc["runs_total"], doc["runs_cached"], doc["runs_computed"]) == (
        total,
        committed,
        total - committed,
    )
    db = sqlite3.connect(store)
    rows = db.execute("SELECT key, created_at, params, run FROM runs").fetchall()
    assert len(rows) == total
    assert len({r[0] for r in rows}) == total
    # Each (point, replication) exactly once.
    assert len({(r[2], r[3]) for r in rows}) == total
    # The runs committed before the kill were not computed again (their rows are untouched).
    after = {r[0]: r[1] for r in rows}
    assert all(after[k] == t for k, t in before.items())
    assert all(p["metrics"]["summary.efficiency"]["n"] == 10 for p in doc["points"])


def test_cli_export_csv_and_parquet(tmp_path, scenario_file):
    store = tmp_path / "e.sqlite"
    ok = run_cli(
        "sweep",
        scenario_file(),
        "--grid",
        "n_source.buffer_cells=1000,2000",
        "--runs",
        "2",
        "--store",
        store,
        "--jobs",
        "1",
    )
    assert ok.returncode == 0, ok.stderr
    assert "buffer_cells" in ok.stdout
    csv, parquet = tmp_path / "runs.csv", tmp_path / "runs.parquet"
    proc = run_cli("store", "export", store, "--csv", csv)
    assert proc.returncode == 0, proc.stderr
    proc = run_cli("store", "export", store, "--parquet", parquet, "--detail")
    assert proc.returncode == 0, proc.stderr
    from_csv = pd.read_csv(csv)
    from_parquet = pd.read_parquet(parquet)
    assert len(from_csv) == len(from_parquet) == 4
    assert {"seed", "n_source.buffer_cells", "summary.efficiency"} <= set(from_csv.columns)
    assert "ports.sw1->sw2.cells_dropped" in from_parquet.columns
    assert sorted(from_csv["n_source.buffer_cells"]) == [1000, 1000, 2000, 2000]
    with atmsim.open_store(store) as db:
        expected = db.runs()["summary.efficiency"].tolist()
    assert from_parquet["summary.efficiency"].tolist() == expected
    info = run_cli("store", "info", store)
    assert info.returncode == 0 and "4 runs" in info.stdout
