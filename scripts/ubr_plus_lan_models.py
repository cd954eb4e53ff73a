"""UBR+ LAN rows (Tables 2-3 and 5) under one model setting: mean |simulated - paper|.

    python scripts/ubr_plus_lan_models.py NAME [KEY=VALUE ...]

Runs the 24 LAN rows of Tables 2-3 and the 54 rows of Table 5 (all LAN) with the given
scenario overrides added to each row's own, seeds 1-4, full 10 s, through `atmsim.run` in
$JOBS processes (default 2); caches each run's summary in $CACHE (default
/tmp/ubr-plus-lan-models) and writes the per-row means to CACHE/NAME.txt. Prints the mean
|simulated - paper| of efficiency / fairness for Tables 2-3 (LAN), its tail-drop rows alone,
and Table 5. `docs/ubr-plus-reproduction.md` ("Why the paper's LAN efficiency collapses")
lists the settings it was run with. Every run's cells must balance.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import atmsim
from atmsim.studies.ubr_plus.data import POLICIES, TABLE2_EFFICIENCY, TABLE3_FAIRNESS, TABLE5

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = str(ROOT / "python/atmsim/scenarios/ubr-plus-lan5.toml")
KIND = {"UBR": "tail_drop", "EPD": "epd", "SD": "selective_drop", "FBA": "fba"}
SEEDS = [1, 2, 3, 4]
CACHE = Path(os.environ.get("CACHE", "/tmp/ubr-plus-lan-models"))

Row = Tuple[str, str, Dict[str, Any], float, float]


def rows() -> Iterator[Row]:
    """(table, label, overrides, paper efficiency, paper fairness) of every LAN row."""
    for (config, n, k), effs in TABLE2_EFFICIENCY.items():
        if config != "LAN":
            continue
        for i, p in enumerate(POLICIES):
            o: Dict[str, Any] = {
                "n_source.sources": n,
                "n_source.buffer_cells": k,
                "n_source.policy": KIND[p],
            }
            if p in ("SD", "FBA"):
                o.update({"n_source.r": 0.9, "n_source.z": 0.8})
            yield "2-3", f"{n}x{k} {p}", o, effs[i], TABLE3_FAIRNESS[(config, n, k)][i]
    for n, z, r, k, e, f in TABLE5:
        o = {"n_source.sources": n, "n_source.buffer_cells": k, "n_source.policy": "fba"}
        o.update({"n_source.r": r, "n_source.z": z})
        yield "5", f"{n}x{k} R{r} Z{z}", o, e, f


def one(job: Tuple[Dict[str, Any], int]) -> Dict[str, float]:
    overrides, seed = job
    key = json.dumps([overrides, seed], sort_keys=True).encode()
    f = CACHE / (hashlib.sha1(key).hexdigest() + ".json")
    if f.exists():
        cached: Dict[str, float] = json.loads(f.read_text())
        return cached
    run_overrides: Dict[str, Any] = dict(overrides)
    run_overrides["simulation.seed"] = seed
    res = atmsim.run(SCENARIO, overrides=run_overrides)
    s = res.summary
    if not s["conservation"]["balanced"]:
        raise SystemExit(f"{overrides} seed {seed}: cells not conserved")
    out = {
        "eff": float(s["efficiency"]),
        "fair": float(s["fairness"]),
        "rto": float(sum(x["rto_expirations"] for x in res.raw["flows"])),
    }
    f.write_text(json.dumps(out))
    return out


def parse(args: List[str]) -> Dict[str, Any]:
    extra: Dict[str, Any] = {}
    for a in args:
        k, v = a.split("=", 1)
        try:
            extra[k] = json.loads(v)
        except json.JSONDecodeError:
            extra[k] = v
    return extra


def main() -> None:
    name, extra = sys.argv[1], parse(sys.argv[2:])
    CACHE.mkdir(parents=True, exist_ok=True)
    table = list(rows())
    jobs = [({**o, **extra}, s) for (_, _, o, _, _) in table for s in SEEDS]
    with Pool(int(os.environ.get("JOBS", "2"))) as pool:
        out = pool.map(one, jobs)
    diffs: Dict[str, List[Tuple[float, float]]] = {}
    lines = []
    for i, (tab, label, _, pe, pf) in enumerate(table):
        runs = out[i * len(SEEDS) : (i + 1) * len(SEEDS)]
        e = sum(r["eff"] for r in runs) / len(runs)
        fa = sum(r["fair"] for r in runs) / len(runs)
        de = sum(abs(r["eff"] - pe) for r in runs) / len(runs)
        df = sum(abs(r["fair"] - pf) for r in runs) / len(runs)
        groups = {tab} | ({f"{tab} tail drop"} if label.endswith("UBR") else set())
        for g in groups:
            diffs.setdefault(g, []).append((de, df))
        rto = sum(r["rto"] for r in runs) / len(runs)
        lines.append(f"{tab:4} {label:22} paper {pe:.2f}/{pf:.2f} sim {e:.3f}/{fa:.3f} timeouts {rto:6.1f}")
    (CACHE / f"{name}.txt").write_text("\n".join(lines) + "\n")
    summary = "  ".join(
        f"{g}: {sum(a for a, _ in v) / len(v):.3f}/{sum(b for _, b in v) / len(v):.3f}"
        for g, v in sorted(diffs.items())
    )
    print(f"{name} {json.dumps(extra)}\n    mean |diff| efficiency/fairness  {summary}", flush=True)


if __name__ == "__main__":
    main()
