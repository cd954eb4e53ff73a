"""Print the "Assumptions and sensitivity" section of a study's reproduction doc from a
report folder written by `atmsim reproduce STUDY --sensitivity --out DIR`.

Usage: python scripts/doc_sensitivity.py DIR STUDY "COMMAND THAT MADE DIR" > section.md

The section copies, from DIR/README.md, the study's stated parameters, its assumptions and
its sensitivity table and verdicts, so the doc says exactly what the run measured; the
tornado figure is referenced from DIR (copy it into docs/figures/ to keep it).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

KEEP = ("### Parameters the paper states", "### Assumptions (parameters the paper does not state)",
        "### Sensitivity to the assumptions")


def section(readme: str, study: str) -> str:
    start = readme.index(f"(`{study}`)")
    end = readme.find("\n## ", start)
    body = readme[start:] if end < 0 else readme[start:end]
    parts = re.split(r"(?m)^(?=### )", body)
    kept = [p.rstrip() for p in parts if p.startswith(KEEP)]
    # One level down: the doc's own section is "##".
    return "\n\n".join("#" + p for p in kept)


def main() -> int:
    folder, study, command = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    readme = (folder / "README.md").read_text(encoding="utf-8")
    settings = [line[2:] for line in readme.splitlines() if line.startswith("- generated")]
    print("## Assumptions and sensitivity\n")
    print(f"Generated from `{command}` ({settings[0] if settings else 'see the report'}). "
          "Quick mode: shorter runs and 2 replications per point, so the intervals are wide "
          "and the values differ from the full-length ones in the tables above.\n")
    print(section(readme, study))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
