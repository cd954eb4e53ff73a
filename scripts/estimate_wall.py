"""The wall-time estimate against the engine's own wall time, on every shipped example (never
a test: timings vary with the machine and its load).

Each example runs at its own duration capped at --cap seconds, twice in this process; the
faster engine `wall_s` is compared with `atmsim.estimate` (docs/cli.md, "Limits and the cost
estimate", quotes the ratios). Usage: python scripts/estimate_wall.py [--cap S]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import atmsim
from atmsim import _core
from atmsim.limits import estimate

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.9/3.10
    import tomli as tomllib


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cap", type=float, default=4.0, help="longest simulated duration (s)")
    cap = ap.parse_args().cap
    folder = Path(atmsim.__file__).resolve().parent / "scenarios"
    paths = sorted(folder.glob("*.toml")) + sorted(folder.glob("bench/*.toml"))
    print(f"{'scenario':28} {'sim s':>6} {'est wall':>9} {'measured':>9} {'ratio':>6}")
    for path in paths:
        text = path.read_text(encoding="utf-8")
        duration = min(float(tomllib.loads(text)["simulation"]["duration_s"]), cap)
        overrides = [("simulation.duration_s", repr(duration))]
        est = estimate(text, overrides)
        wall = min(json.loads(_core.run_json(text, overrides, None))["wall_s"] for _ in range(2))
        name = str(path.relative_to(folder))
        print(f"{name:28} {duration:6.1f} {est.wall_s:8.3f}s {wall:8.3f}s {est.wall_s / wall:6.2f}")


if __name__ == "__main__":
    main()
