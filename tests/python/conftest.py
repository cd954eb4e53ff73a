"""Shared helpers: small N-source scenarios and a way to run the installed CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Dict, Optional, Tuple

import pytest

from atmsim.studies.ubr_plus.scenarios import scenario_text

# Short runs: the tests check plumbing, not the paper's numbers.
SHORT_S = 0.3


def small_scenario(**overrides) -> str:
    """A 5-source LAN scenario with a short duration; keyword arguments replace defaults."""
    args: Dict[str, Any] = dict(config="LAN", sources=5, buffer_cells=1000, policy="FBA", r=0.9, z=0.8)
    args.update(overrides)
    return scenario_text(duration_s=SHORT_S, **args)


def host_switch_host(
    duration_s: float, delay_us: float, rates_bps: Tuple[int, int] = (155_520_000, 155_520_000)
) -> str:
    """The smallest general-form network, host `a` -> switch `s` -> host `b` (links `a-s` and
    `s-b` at `rates_bps`, each with `delay_us` of propagation): `[simulation]`, nodes and links,
    for a test to append its ports, connections and sources to."""
    head = f"[simulation]\nduration_s = {duration_s}\n"
    nodes = "".join(
        f'[[node]]\nname = "{n}"\nkind = "{k}"\n' for n, k in (("a", "host"), ("s", "switch"), ("b", "host"))
    )
    links = "".join(
        f'[[link]]\nends = ["{x}", "{y}"]\nrate_bps = {r}\ndelay_us = {delay_us}\n'
        for (x, y), r in zip((("a", "s"), ("s", "b")), rates_bps)
    )
    return head + nodes + links


@pytest.fixture
def scenario_file(tmp_path: Path):
    def write(text: Optional[str] = None, name: str = "scenario.toml") -> Path:
        path = tmp_path / name
        path.write_text(small_scenario() if text is None else text, encoding="utf-8")
        return path

    return write


# The smallest real reproduction: UBR+ Table 1's rows, quick, 50 ms runs, one worker.
UBR_TABLE1_SHORT = ("reproduce", "ubr-plus", "--quick", "--tables", "1", "--duration", "0.05", "--jobs", "1")


def run_cli(*args: object, timeout: float = 300) -> "subprocess.CompletedProcess[str]":
    """Run `atmsim ARGS` with this interpreter (so the installed package is the one tested)."""
    return subprocess.run(
        [sys.executable, "-m", "atmsim", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="session")
def quick_report(tmp_path_factory) -> SimpleNamespace:
    """One `atmsim reproduce all --quick` report of 0.05 s runs, made once and shared by the
    tests that read it (test_report, test_report_browser): it is the slowest step of the suite.
    Fields: out (the report folder), store, args (to run the same command again), proc."""
    base = tmp_path_factory.mktemp("quick-report")
    out, store = base / "report", base / "r.sqlite"
    args = [
        "reproduce",
        "all",
        "--quick",
        "--duration",
        "0.05",
        "--jobs",
        "2",
        "--out",
        out,
        "--store",
        store,
        "--json",
    ]
    # A generous limit: it only guards against a hang (on a loaded 2-core machine this run
    # has taken over 4 minutes).
    return SimpleNamespace(out=out, store=store, args=args, proc=run_cli(*args, timeout=1800))
