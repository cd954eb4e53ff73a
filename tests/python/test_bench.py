"""`atmsim bench --suite`: the four issue-11 cases each run in a child process and are reported
with their counts and peak memory. Tiny durations only: speed is measured, never asserted."""

from __future__ import annotations

import json

from atmsim import bench
from conftest import run_cli


def test_suite_runs_the_four_cases_each_in_its_own_process():
    proc = run_cli("bench", "--suite", "--duration", "0.01", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert [r["case"] for r in rows] == list(bench.SUITE)
    for r in rows:
        assert r["duration_s"] == 0.01
        assert r["bottleneck_port"] == "sw1->sw2"
        assert r["bottleneck_cells"] > 0 and r["events"] > 0
        assert r["max_rss_mib"] > 1.0
        assert r["scenario"].endswith(f"scenarios/bench/{r['case']}.toml")


def test_suite_text_has_one_line_per_case():
    proc = run_cli("bench", "--suite", "--duration", "0.005")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].split()[:3] == ["case", "sim", "s"]
    assert [line.split()[0] for line in lines[1:]] == list(bench.SUITE)


def test_suite_takes_no_file():
    proc = run_cli("bench", "--suite", "scenarios/bench/lan5.toml")
    assert proc.returncode == 2
    assert "--suite" in proc.stderr and "Traceback" not in proc.stderr
