"""Print the "Assumptions and sensitivity" section of a study's reproduction doc from a
report folder written by `atmsim reproduce STUDY --sensitivity --out DIR`.

Usage: python scripts/doc_sensitivity.py DIR STUDY "COMMAND THAT MADE DIR" [TOP] > section.md

The section copies, from DIR/README.md, the study's stated parameters, its assumptions and
the sensitivity verdicts, and builds from DIR/STUDY/sensitivity-effects.csv a table of the TOP
(default 3) assumptions by swing for each published number, so the doc says exactly what the
run measured. The full table and the tornado figure stay in the report folder.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from atmsim.numbers import fmt
from atmsim.studies import sensitivity
from atmsim.studies.assumptions import fmt_value
from atmsim.studies.replication import QUICK_RUNS

KEEP = ("### Parameters the paper states", "### Assumptions (parameters the paper does not state)")


def _parts(readme: str, study: str) -> list[str]:
    start = readme.index(f"(`{study}`)")
    end = readme.find("\n## ", start)
    body = readme[start:] if end < 0 else readme[start:end]
    return re.split(r"(?m)^(?=### )", body)


def _ci(pair: tuple[float, float]) -> str:
    lo, hi = pair
    if math.isnan(lo) or math.isnan(hi):
        return ""
    return "" if lo == hi else f" [{fmt(lo)}, {fmt(hi)}]"


def _value(text: object) -> Any:
    """A swept value as the study declared it (the CSV holds text)."""
    t = str(text)
    if t in ("True", "False"):
        return t == "True"
    try:
        f = float(t)
    except ValueError:
        return t
    return int(f) if f.is_integer() else f


def table(effects: pd.DataFrame, top: int) -> str:
    lines = [
        "| published number | paper | assumption | baseline | lowest mean (at) | highest mean (at) | swing |",
        "|---|---|---|---|---|---|---|",
    ]
    for _, g in effects.groupby(["experiment", "metric"], sort=False):
        for _, r in g.sort_values("swing", ascending=False).head(top).iterrows():
            if r["swing"] == 0:
                low, high = "same at every value", ""
            else:
                low = f"{fmt(r['low'])}{_ci(r['low_ci'])} ({fmt_value(r['low_value'])})"
                high = f"{fmt(r['high'])}{_ci(r['high_ci'])} ({fmt_value(r['high_value'])})"
            lines.append(
                f"| {r['label']} – {r['metric_label']} | {fmt(r['published'])} | "
                f"{r['assumption']} | {fmt(r['baseline'])}{_ci(r['baseline_ci'])} | "
                f"{low} | {high} | {fmt(r['swing'])} |"
            )
    return "\n".join(lines)


def main() -> int:
    folder, study, command = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    readme = (folder / "README.md").read_text(encoding="utf-8")
    settings = [line[2:] for line in readme.splitlines() if line.startswith("- generated")]
    parts = _parts(readme, study)
    print("## Assumptions and sensitivity\n")
    print(
        f"Generated from `{command}` ({settings[0] if settings else 'see the report'}). "
        f"Quick mode: {QUICK_RUNS} replications per point (and, in studies whose --quick shortens them, "
        "shorter runs), so the intervals are wide and the values differ from the 4-replication "
        "ones above.\n"
    )
    for p in parts:
        if p.startswith(KEEP):
            print("#" + p.rstrip() + "\n")
    sens = next((p for p in parts if p.startswith("### Sensitivity")), "")
    intro = [line for line in sens.splitlines() if line.startswith("One assumption")]
    print("### Sensitivity (one assumption at a time)\n")
    if intro:
        print(intro[0] + "\n")
    effects = pd.read_csv(folder / study / "sensitivity-effects.csv")
    for col in ("low_value", "high_value", "closest_value", "used"):
        effects[col] = effects[col].apply(_value)
    points_csv = folder / study / "sensitivity-points.csv"
    if points_csv.exists():
        # Recomputed from the points, so the doc follows the current rules for what reaches
        # a published value, not those of the run that wrote the report.
        points = pd.read_csv(points_csv)
        points["value"] = points["value"].apply(_value)
        used = dict(zip(effects["assumption"], effects["used"]))
        effects = sensitivity.effects(points, used)
    else:
        effects["swing"] = [sensitivity._swing(lo, hi) for lo, hi in zip(effects["low"], effects["high"])]
        for col in ("low_ci", "high_ci", "baseline_ci"):
            effects[col] = effects[col].apply(
                lambda t: tuple(float(x) for x in str(t).strip("()").split(","))
            )
    print(
        f"The {top} assumptions that move each published number most "
        f"(`{study}/sensitivity-effects.csv` in the report has all):\n"
    )
    print(table(effects, top) + "\n")
    # Verdicts recomputed too, for the same reason.
    verdicts = [f"- {line}" for line in sensitivity.verdicts(effects)]
    notes = [line for line in sens.splitlines() if line.startswith("> ")]
    if verdicts:
        print("Published numbers more than 0.05 (relative for quantities) from the baseline:\n")
        print("\n".join(verdicts) + "\n")
    if notes:
        print("\n".join(f"- {n[2:]}" for n in notes) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
