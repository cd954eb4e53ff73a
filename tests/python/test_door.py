"""Issue 26, "at the door": CI on a fresh machine, small gaps of the command line, and the
defects found by hostile input."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


# -- CI on a fresh machine ---------------------------------------------------------------------


def _load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ci_installs_the_runtime_dependencies_before_mypy():
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = _load_script("ci_requirements").requirements(doc, ["dev"])
    for dep in doc["project"]["dependencies"] + doc["project"]["optional-dependencies"]["dev"]:
        assert dep in wanted
    names = {re.split(r"[<>=;\[ ]", d)[0] for d in wanted}
    assert {"numpy", "pandas", "matplotlib", "tqdm", "mypy", "ruff"} <= names
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    install = ci.index("scripts/ci_requirements.py")
    assert install < ci.index('"$VENV/bin/mypy"')


def test_ci_venvs_do_not_see_system_site_packages():
    for script in (ROOT / ".ci" / "run", ROOT / "scripts" / "test.sh"):
        code = [
            ln for ln in script.read_text(encoding="utf-8").splitlines() if not ln.lstrip().startswith("#")
        ]
        venv_lines = [ln for ln in code if " -m venv" in ln]
        assert venv_lines, script
        for line in venv_lines:
            assert "--system-site-packages" not in line, (script, line)
