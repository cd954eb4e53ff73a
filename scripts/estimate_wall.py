"""The wall-time estimate against the engine's own wall time, on every shipped example (never
a test: timings vary with the machine and its load).

Each example runs at its own duration capped at --cap seconds, twice in this process; the
faster engine `wall_s` is compared with `atmsim.estimate` (docs/cli.md, "Limits and the cost
estimate", quotes the ratios). Usage: python scripts/estimate_wall.py [--cap S]

With --store FILE (a results store, say of a full `atmsim reproduce all`), nothing runs: each
stored run's engine estimate is compared with its stored `wall_s`, and the script prints per
kind of scenario (`atmsim.limits.wall_kind`) the geometric mean of the engine's estimate over
the measured (the speed-ups `atmsim.limits.WALL_SPEEDUP` holds), then per study (the first
word of a run's source) how the recalibrated estimate compares, in total and per run.
"""

from __future__ import annotations

import argparse
import json
import math
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Tuple

import atmsim
from atmsim import _core
from atmsim.limits import WALL_SPEEDUP, estimate, wall_kind

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.9/3.10
    import tomli as tomllib


def from_store(path: str) -> None:
    rows = sqlite3.connect(path).execute(
        "SELECT scenario, overrides, seed, source, json_extract(result, '$.wall_s') FROM runs"
    )
    by_kind: Dict[str, List[float]] = defaultdict(list)
    by_study: Dict[str, List[Tuple[float, float]]] = defaultdict(list)
    for text, overrides, seed, source, wall in rows:
        sets = [tuple(kv) for kv in json.loads(overrides)]
        engine = json.loads(_core.estimate_json(text, sets, seed))["wall_s"]
        kind = wall_kind(tomllib.loads(text))
        by_kind[kind].append(engine / wall)
        by_study[source.split(" ")[0]].append((engine / WALL_SPEEDUP[kind], wall))
    print(f"{'kind':16} {'runs':>5} {'engine estimate / measured, geometric mean':>44} {'in use':>7}")
    for kind, ratios in sorted(by_kind.items()):
        geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"{kind:16} {len(ratios):5} {geo:44.2f} {WALL_SPEEDUP[kind]:7.2f}")
    print(f"\n{'study':16} {'runs':>5} {'total ratio':>11} {'p10':>6} {'median':>7} {'p90':>6}")
    for study, pairs in sorted(by_study.items()):
        r = sorted(e / w for e, w in pairs)
        total = sum(e for e, _ in pairs) / sum(w for _, w in pairs)
        n = len(r)
        print(f"{study:16} {n:5} {total:11.2f} {r[n // 10]:6.2f} {r[n // 2]:7.2f} {r[9 * n // 10]:6.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cap", type=float, default=4.0, help="longest simulated duration (s)")
    ap.add_argument("--store", help="compare with the runs of this results store instead")
    args = ap.parse_args()
    if args.store:
        from_store(args.store)
        return
    cap = args.cap
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
