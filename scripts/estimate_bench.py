"""Estimate against measurement for memory and wall time (never a test: timings vary).

For each shipped scenario (at --duration seconds) and a few N-source sizes, runs the engine in
a fresh process under `/usr/bin/time -f %M` for peak RSS and wall time, and prints them next
to `atmsim run --estimate`. Usage: python scripts/estimate_bench.py [--duration S]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def measure(path: str, sets: list[str]) -> tuple[dict[str, Any], float, float]:
    args = [sys.executable, "-m", "atmsim", "run", path, "--max-memory", "off"]
    for s in sets:
        args += ["--set", s]
    est = json.loads(
        subprocess.run(args + ["--estimate", "--json"], capture_output=True, text=True, check=True).stdout
    )
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        start = time.perf_counter()
        subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", t.name] + args + ["--json"],
            stdout=subprocess.DEVNULL,
            check=True,
        )
        wall = time.perf_counter() - start
        rss = int(t.read().strip().splitlines()[-1]) * 1024
    return est, rss, wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--duration", type=float, default=2.0)
    a = ap.parse_args()
    rows = []
    for path in sorted(glob.glob(os.path.join(ROOT, "python", "atmsim", "scenarios", "*.toml"))):
        rows.append((os.path.basename(path), path, [f"simulation.duration_s={a.duration}"]))
    with tempfile.TemporaryDirectory() as d:
        for n in (500, 1000, 2000, 10000):
            p = os.path.join(d, f"ns{n}.toml")
            with open(p, "w") as f:
                f.write(
                    f'[simulation]\nduration_s = 0.01\n[n_source]\nsources = {n}\nconfig = "LAN"\n'
                    'buffer_cells = 1000\npolicy = "epd"\n'
                )
            rows.append((f"n_source {n} sources, 10 ms", p, []))
        print(
            f"{'scenario':34} {'mem est':>9} {'mem meas':>9} {'ratio':>6} "
            f"{'wall est':>9} {'wall meas':>9} {'ratio':>6}"
        )
        for name, path, sets in rows:
            est, rss, wall = measure(path, sets)
            print(
                f"{name:34} {est['memory_bytes'] / 1e6:8.0f}M {rss / 1e6:8.0f}M "
                f"{est['memory_bytes'] / rss:6.2f} {est['wall_s']:8.2f}s {wall:8.2f}s "
                f"{est['wall_s'] / wall:6.2f}"
            )


if __name__ == "__main__":
    main()
