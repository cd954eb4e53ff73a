"""`atmsim run` and `atmsim version` on a real (short) scenario."""

from __future__ import annotations

import json

from conftest import run_cli

TOP_KEYS = {"seed", "duration_s", "wall_s", "events", "engine_version", "flows", "ports", "summary"}
FLOW_KEYS = {
    "name",
    "goodput_bps",
    "bytes_delivered",
    "segments_sent",
    "segments_retransmitted",
    "rto_expirations",
}
PORT_KEYS = {
    "name",
    "cells_in",
    "cells_out",
    "cells_dropped",
    "frames_dropped",
    "max_queue_cells",
    "mean_queue_cells",
}
SUMMARY_KEYS = {"total_goodput_bps", "efficiency", "fairness", "max_queue_cells"}


def test_run_json_has_documented_keys(scenario_file):
    proc = run_cli("run", scenario_file(), "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)  # exactly one document
    assert doc.keys() >= TOP_KEYS
    assert len(doc["flows"]) == 5
    for flow in doc["flows"]:
        assert flow.keys() >= FLOW_KEYS
    assert doc["ports"]
    for port in doc["ports"]:
        assert port.keys() >= PORT_KEYS
    assert doc["summary"].keys() >= SUMMARY_KEYS
    assert 0.0 <= doc["summary"]["efficiency"] <= 1.0
    assert 0.0 <= doc["summary"]["fairness"] <= 1.0


def test_run_seed_and_set_are_applied(scenario_file):
    proc = run_cli("run", scenario_file(), "--json", "--seed", "7", "--set", "simulation.duration_s=0.2")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["seed"] == 7
    assert doc["duration_s"] == 0.2


def test_run_text_output(scenario_file):
    proc = run_cli("run", scenario_file())
    assert proc.returncode == 0, proc.stderr
    for section in ("Flows", "Ports", "Summary", "efficiency", "fairness"):
        assert section in proc.stdout


def test_version():
    proc = run_cli("version")
    assert proc.returncode == 0
    assert proc.stdout.startswith("atmsim ")
