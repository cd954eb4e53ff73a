"""`atmsim bench --suite`: the UBR+ cases and one case per study family, each run in a child
process and reported with its counts and peak memory. Tiny durations only: speed is measured,
never asserted."""

from __future__ import annotations

import json

from atmsim import bench
from conftest import run_cli

# Each family's case and the port its scenario names as the bottleneck.
BOTTLENECK = {
    "lan5": "sw1->sw2",
    "lan15": "sw1->sw2",
    "wan5": "sw1->sw2",
    "wan15": "sw1->sw2",
    "gfr-fifo": "sw1->sw2",
    "gfr-wfq": "sw1->sw2",
    "gfr-wfq-sack": "sw1->sw2",
    "dfba": "sw1->sw2",
    "fcvc": "sw->dst",
    "prca": "sw->dst",
    "class-shaped": "A->B",
    "class-adaptive": "A->B",
}


def test_suite_has_a_case_per_study_family():
    # The Italian networks name no bottleneck: every trunk port is one.
    assert set(bench.SUITE) == set(BOTTLENECK) | {"italy", "italy-adaptive"}
    assert all(p.is_file() for p in bench.case_paths().values())


def test_suite_runs_every_case_each_in_its_own_process():
    proc = run_cli("bench", "--suite", "--duration", "0.02", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert [r["case"] for r in rows] == list(bench.SUITE)
    for r in rows:
        assert r["duration_s"] == 0.02
        if r["case"] in BOTTLENECK:
            assert r["bottleneck_port"] == BOTTLENECK[r["case"]], r["case"]
        # Every cell the bottleneck sends is a link cell; the hosts and other ports add theirs.
        assert r["link_cells"] > r["bottleneck_cells"] > 0 and r["events"] > 0, r["case"]
        assert r["max_rss_mib"] > 1.0
        assert r["scenario"].endswith(bench.CASES[r["case"]])


def test_cases_picks_some_and_the_text_has_one_line_per_case():
    proc = run_cli("bench", "--suite", "--cases", "wan5,dfba", "--duration", "0.005")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].split()[:3] == ["case", "sim", "s"]
    assert [line.split()[0] for line in lines[1:]] == ["wan5", "dfba"]


def test_an_unknown_case_is_one_line_naming_the_flag():
    proc = run_cli("bench", "--suite", "--cases", "lan5,nope")
    assert proc.returncode != 0
    assert "--cases" in proc.stderr and "nope" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_suite_takes_no_file():
    proc = run_cli("bench", "--suite", "scenarios/bench/lan5.toml")
    assert proc.returncode == 2
    assert "--suite" in proc.stderr and "Traceback" not in proc.stderr
