#!/usr/bin/env python3
"""Run two `examples/run` binaries on the same scenarios and compare their JSON reports.

    scripts/compare_engines.py OLD_BIN NEW_BIN [--duration S] [--set KEY=VALUE ...] [EXTRA.toml ...]

scripts/compare_extra/ holds scenarios the shipped ones do not cover: a traced one, a fault, merged VCs
with UPC, SACK, NewReno, Reno timed from transmission, aligned phases with selective drop,
transfers and messages apps with background sources, 1000 background sources on one host, and the GFR
study's two switches (WFQ with Virtual Spacing and UPC tagging; FIFO with adapter tagging).

An engine change that is meant to be cell-exact (issue 11) must leave every report identical
apart from the wall time and the engine version: this checks that on every shipped scenario, the
four bench cases and any extra files given (e.g. traced, fault or merged-VC scenarios). Exits 1
and names the first differing field of each scenario that differs. `--set` overrides apply to the
new binary's runs only: `--set engine.train=false` checks that turning one fast path off changes
no report (the same binary may be given twice; `docs/engine.md`).
"""

import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
IGNORED = {"wall_s", "engine_version"}


def strip(v: object) -> object:
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in IGNORED}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


def first_difference(a: object, b: object, path: str = "") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k} (present in one only)"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path} (lengths {len(a)} vs {len(b)})"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} vs {b!r}"


def run(binary: str, scenario: pathlib.Path, duration: float, sets: list[str]) -> object:
    out = subprocess.run(
        [binary, str(scenario), f"simulation.duration_s={duration}", *sets],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return strip(json.loads(out))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--duration", type=float, default=0.5)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="for NEW only")
    ap.add_argument("extra", nargs="*", type=pathlib.Path)
    a = ap.parse_intermixed_args()
    shipped = ROOT / "python/atmsim/scenarios"
    files = sorted(shipped.glob("*.toml")) + sorted((shipped / "bench").glob("*.toml")) + a.extra
    bad = 0
    for f in files:
        d = first_difference(run(a.old, f, a.duration, []), run(a.new, f, a.duration, a.set))
        print(f"{'DIFFERS' if d else 'same   '} {f.name}{': ' + d if d else ''}")
        bad += d is not None
    print(f"{len(files) - bad} identical, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
