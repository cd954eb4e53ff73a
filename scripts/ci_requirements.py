"""Print the requirements CI installs before it lints and type-checks: the package's runtime
`dependencies` (mypy follows the package's imports of numpy, pandas, matplotlib, tqdm) and the
`dev` extra (linters, stubs, the docs tools), one per line, from pyproject.toml.

The package itself is not built here: scripts/test.sh builds and installs it once.
Usage: python scripts/ci_requirements.py [PYPROJECT]  (default: pyproject.toml)
"""

from __future__ import annotations

import sys
from typing import Any, Dict, List

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python < 3.11
    import tomli as tomllib


def requirements(pyproject: Dict[str, Any], extras: List[str]) -> List[str]:
    """The runtime dependencies, then each extra's, without repeats (first one kept)."""
    project = pyproject["project"]
    wanted = list(project.get("dependencies", []))
    for extra in extras:
        wanted.extend(project["optional-dependencies"][extra])
    seen: List[str] = []
    for item in wanted:
        if item not in seen:
            seen.append(item)
    return seen


def main(argv: List[str]) -> int:
    path = argv[1] if len(argv) > 1 else "pyproject.toml"
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    print("\n".join(requirements(doc, ["dev"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
