"""Shared helpers: small N-source scenarios and a way to run the installed CLI."""

from __future__ import annotations

import shutil
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


def copy_store(store: Path, folder: Path) -> Path:
    """A private copy of a shared fixture's store (with its WAL files), for a test that adds
    runs to it or must not see another test's."""
    folder.mkdir(parents=True, exist_ok=True)
    for part in store.parent.glob(store.name + "*"):
        shutil.copy(part, folder / part.name)
    return folder / store.name


@pytest.fixture(scope="session")
def ubr_plus_quick(tmp_path_factory) -> SimpleNamespace:
    """The documented smoke run, `atmsim reproduce ubr-plus --quick --json` at the paper's
    durations (26 rows x 3 replications), made once: test_reproduce checks its rows, and the
    --docs test reads its Table 1 runs from the store instead of simulating them again.
    Fields: store, proc."""
    store = tmp_path_factory.mktemp("ubr-plus-quick") / "s.sqlite"
    proc = run_cli("reproduce", "ubr-plus", "--quick", "--json", "--store", store, timeout=900)
    return SimpleNamespace(store=store, proc=proc)


@pytest.fixture(scope="session")
def goyal_sensitivity(tmp_path_factory) -> SimpleNamespace:
    """`atmsim reproduce gfr-goyal --quick --sensitivity --duration 0.3 --json` with a report
    folder, made once: test_evidence checks its effects, and the docgen test writes its blocks
    from the same runs, read from a copy of the store. Fields: store, proc."""
    base = tmp_path_factory.mktemp("goyal-sensitivity")
    store = base / "s.sqlite"
    args = ["reproduce", "gfr-goyal", "--quick", "--sensitivity", "--duration", "0.3", "--jobs", "1"]
    proc = run_cli(*args, "--out", base / "rep", "--store", store, "--json")
    return SimpleNamespace(store=store, rep=base / "rep", proc=proc)
