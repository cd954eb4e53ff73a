"""The installed package works from any directory: the example scenarios are package data.

Every command here runs with a temporary directory outside the checkout as its working
directory, so nothing can be found through relative paths into the repository.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import atmsim

ROOT = Path(__file__).resolve().parents[2]


def _cli(cwd: Path, *args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(
        [sys.executable, "-m", "atmsim", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def _outside(tmp_path: Path) -> Path:
    assert ROOT not in tmp_path.resolve().parents
    return tmp_path


def test_examples_are_package_data() -> None:
    names = atmsim.examples()
    assert {"ubr-plus-lan5", "ubr-plus-wan15", "gerla-prca"} <= set(names)
    package_dir = Path(atmsim.__file__).resolve().parent
    for name in names:
        path = atmsim.example(name)
        assert path.parent == package_dir / "scenarios"
        atmsim.load(path)  # each one parses and validates
    try:
        atmsim.example("no-such-scenario")
    except LookupError as err:
        assert "ubr-plus-lan5" in str(err)
    else:
        raise AssertionError("an unknown example was accepted")


def test_scenarios_list_and_copy(tmp_path: Path) -> None:
    cwd = _outside(tmp_path)
    listed = _cli(cwd, "scenarios")
    assert listed.returncode == 0, listed.stderr
    for name in atmsim.examples():
        assert re.search(rf"^{re.escape(name)}\s", listed.stdout, re.M)

    copied = _cli(cwd, "scenarios", "copy", "ubr-plus-lan5")
    assert copied.returncode == 0, copied.stderr
    target = cwd / "ubr-plus-lan5.toml"
    assert target.read_bytes() == atmsim.example("ubr-plus-lan5").read_bytes()

    # Never replaces a file silently; one line naming the file and the reason.
    again = _cli(cwd, "scenarios", "copy", "ubr-plus-lan5")
    assert again.returncode == 2 and again.stderr.count("\n") == 1
    assert "ubr-plus-lan5.toml" in again.stderr and "exists" in again.stderr

    (cwd / "sub").mkdir()
    into_dir = _cli(cwd, "scenarios", "copy", "gerla-fcvc.toml", "sub")
    assert into_dir.returncode == 0, into_dir.stderr
    assert (cwd / "sub" / "gerla-fcvc.toml").is_file()

    unknown = _cli(cwd, "scenarios", "copy", "nope")
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1
    assert "nope" in unknown.stderr and "ubr-plus-lan5" in unknown.stderr

    # The copy runs as any scenario file does.
    run = _cli(cwd, "run", "ubr-plus-lan5.toml", "--set", "simulation.duration_s=0.05", "--json")
    assert run.returncode == 0, run.stderr


def test_bench_default_scenario_from_any_directory(tmp_path: Path) -> None:
    proc = _cli(_outside(tmp_path), "bench", "--duration", "0.02")
    assert proc.returncode == 0, proc.stderr
    assert "ubr-plus-wan15.toml" in proc.stdout and "cells/s" in proc.stdout


def test_readme_api_example_from_any_directory(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert blocks, "the README has a Python example"
    proc = subprocess.run(
        [sys.executable, "-c", blocks[0]], cwd=_outside(tmp_path), capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert "goodput_bps" in proc.stdout
