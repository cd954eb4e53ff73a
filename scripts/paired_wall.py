#!/usr/bin/env python3
"""Paired wall time of the four bench cases between engine builds (issue 11; numbers, not checks).

    python3 scripts/paired_wall.py --rounds 10 OLD NEW [MORE...]

Each argument is an `examples/run` binary (`cargo build --release -p atmsim-core --example run`),
optionally `LABEL=PATH`. Every round runs each case with every binary back to back (the order
rotating from round to round), so slow spells of a shared machine fall on all builds alike. The
first binary is the reference: the issue's engine (1a9e2f9), which has no `phases` field and
always runs phase-locked; every later binary gets `simulation.phases="aligned"`, the same work
bit for bit (`--default-model` drops the override to time the default model instead).

The figure per case is the sum over rounds of the report's `wall_s` (the run, not the set-up);
the ratio is NEW / OLD. `--min` uses the least of the rounds instead of the sum, which is less
sensitive to a noisy neighbour on a shared machine. Quote ratios from one run, never seconds
across runs.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

CASES = ("lan5", "lan15", "wan5", "wan15")
ROOT = Path(__file__).resolve().parent.parent


def wall(binary: str, case: str, overrides: list[str]) -> float:
    scenario = ROOT / "python/atmsim/scenarios/bench" / f"{case}.toml"
    out = subprocess.run([binary, str(scenario), *overrides], check=True, capture_output=True, text=True)
    return float(json.loads(out.stdout)["wall_s"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binaries", nargs="+", help="OLD NEW...: examples/run binaries, optionally LABEL=PATH")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--min", action="store_true", help="least of the rounds instead of their sum")
    ap.add_argument("--default-model", action="store_true", help="no phases override for the later binaries")
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=CASES)
    args = ap.parse_args()
    if len(args.binaries) < 2:
        ap.error("give at least two binaries: the reference first")
    builds: list[tuple[str, str, list[str]]] = []
    for i, b in enumerate(args.binaries):
        label, _, path = b.rpartition("=")
        over = [] if i == 0 or args.default_model else ['simulation.phases="aligned"']
        builds.append((label or Path(path).name, path, over))
    times: dict[tuple[str, str], list[float]] = {(b[0], c): [] for b in builds for c in args.cases}
    for r in range(args.rounds):
        order = builds[r % len(builds) :] + builds[: r % len(builds)]
        for c in args.cases:
            for label, path, over in order:
                times[(label, c)].append(wall(path, c, over))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    agg = min if args.min else sum
    ref = builds[0][0]
    head = ["case"] + [f"{b[0]} (s)" for b in builds] + [f"{b[0]} / {ref}" for b in builds[1:]]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    total = {b[0]: 0.0 for b in builds}
    for c in args.cases + ["all"]:
        if c == "all":
            vals = dict(total)
        else:
            vals = {b[0]: agg(times[(b[0], c)]) for b in builds}
            for k, v in vals.items():
                total[k] += v
        ratios = [f"{vals[b[0]] / vals[ref]:.3f}" for b in builds[1:]]
        row = [c] + [f"{vals[b[0]]:.3f}" for b in builds] + ratios
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
