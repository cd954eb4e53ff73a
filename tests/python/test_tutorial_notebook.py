"""The "first hour" notebook (docs/notebooks/first-hour.ipynb) runs from top to bottom, and the
tutorial page (docs/tutorial.md) is in the site's navigation, first after Home.

The notebook is executed without Jupyter: its JSON is parsed with `json` and its code cells
are run in order with `exec()` in one namespace, in a temporary working directory (what a
kernel does for these cells, which use no IPython magics; so CI needs no nbclient, nbconvert
or kernel). The last expression of a cell is evaluated as a notebook would display it, so a
cell that ends in a failing expression fails here too. The checks then read what the cells
left behind: the copied scenario, the store, the sweep's table and the saved figure.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any, Dict, List

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "docs" / "notebooks" / "first-hour.ipynb"
TUTORIAL = ROOT / "docs" / "tutorial.md"


def _code_cells(path: Path) -> List[str]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["nbformat"] == 4
    return ["".join(c["source"]) for c in doc["cells"] if c["cell_type"] == "code"]


def _run_cell(source: str, namespace: Dict[str, Any], name: str) -> Any:
    """Execute a cell; return the value of its last line if that is an expression."""
    tree = ast.parse(source, filename=name)
    last = tree.body[-1] if tree.body else None
    if not isinstance(last, ast.Expr):
        exec(compile(tree, name, "exec"), namespace)
        return None
    tree.body.pop()
    exec(compile(tree, name, "exec"), namespace)
    return eval(compile(ast.Expression(last.value), name, "eval"), namespace)


def test_first_hour_notebook_executes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cells = _code_cells(NOTEBOOK)
    assert len(cells) >= 4
    for source in cells:
        assert not re.search(r"^\s*[!%]", source, re.M), "magics would need IPython"
    namespace: Dict[str, Any] = {"__name__": "__main__"}
    shown = [_run_cell(src, namespace, f"{NOTEBOOK.name}[{i}]") for i, src in enumerate(cells)]

    assert (tmp_path / "ubr-plus-lan5.toml").is_file()
    assert (tmp_path / "first-hour.sqlite").is_file()
    eff = namespace["efficiency"]
    assert set(eff["n_source.policy"]) == {"tail_drop", "epd", "fba"}
    assert set(eff["n_source.buffer_cells"]) == {1000, 2000} and (eff["n"] == 2).all()
    assert ((eff["mean"] > 0) & (eff["mean"] <= 1)).all()
    assert namespace["result"].summary["efficiency"] > 0
    assert (tmp_path / "efficiency.png").stat().st_size > 1000
    assert type(shown[-1]).__name__ == "Figure"


def test_tutorial_is_first_after_home_in_the_site():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n", 1)[1]
    entries = [line.strip() for line in nav.splitlines() if line.startswith("  - ")]
    assert entries[:2] == ["- Home: index.md", "- First hour (tutorial): tutorial.md"]
    text = TUTORIAL.read_text(encoding="utf-8")
    assert "notebooks/first-hour.ipynb" in text
    for step in ("scenarios copy", "atmsim run", "atmsim sweep", "goodput_vs_parameter", "__main__"):
        assert step in text, step
