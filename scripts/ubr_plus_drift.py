"""UBR+ Tables 2-3 LAN rows under the three clock models: oscillator drift (the default,
`clock_ppm` 20), random phases with equal rates (`clock_ppm=0`, the previous default) and the
phase-locked engine (`phases=aligned`, seed-independent, so run once).

    python scripts/ubr_plus_drift.py 5  [CACHE_DIR]   # the 12 LAN 5-source rows, seeds 1-4
    python scripts/ubr_plus_drift.py 15 [CACHE_DIR]   # the 12 LAN 15-source rows

Runs `target/release/examples/run` (override with $ATMSIM_RUN) one process at a time, full
10 s, and caches each report in CACHE_DIR (default /tmp/ubr-plus-drift). Prints per row the
simulated efficiency / fairness per seed and the mean |simulated - paper|, then a markdown
table of the per-row means and the mean |difference| of each model.
"""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
from atmsim.studies.ubr_plus.data import TABLE2_EFFICIENCY, TABLE3_FAIRNESS  # noqa: E402

RUN = os.environ.get("ATMSIM_RUN", str(ROOT / "target/release/examples/run"))
SCENARIO = ROOT / "python/atmsim/scenarios/ubr-plus-lan5.toml"
POLICIES = ["tail_drop", "epd", "selective_drop", "fba"]  # the paper's UBR, EPD, SD, FBA
MODELS = {"drift": [], "ppm0": ["simulation.clock_ppm=0"], "aligned": ["simulation.phases=aligned"]}
SEEDS = [1, 2, 3, 4]


def summary(cache: Path, n: int, model: str, k: int, policy: str, seed: int) -> Dict[str, Any]:
    f = cache / f"lan{n}-{model}-{k}-{policy}-{seed}.json"
    if not f.exists():
        args = [
            RUN,
            str(SCENARIO),
            f"n_source.sources={n}",
            f"n_source.buffer_cells={k}",
            f"n_source.policy={policy}",
            f"simulation.seed={seed}",
        ] + MODELS[model]
        f.write_text(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    s: Dict[str, Any] = json.loads(f.read_text())["summary"]
    if not s["conservation"]["balanced"]:
        raise SystemExit(f"{f}: cells not conserved")
    return s


def main() -> None:
    n = int(sys.argv[1])
    cache = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/ubr-plus-drift")
    cache.mkdir(parents=True, exist_ok=True)
    table: Dict[Tuple[int, str], Dict[str, Tuple[float, ...]]] = {}
    for model in MODELS:
        seeds = [1] if model == "aligned" else SEEDS
        d_eff, d_fair = [], []
        for k in (1000, 2000, 3000):
            for i, policy in enumerate(POLICIES):
                pe, pf = TABLE2_EFFICIENCY[("LAN", n, k)][i], TABLE3_FAIRNESS[("LAN", n, k)][i]
                runs = [summary(cache, n, model, k, policy, s) for s in seeds]
                effs = [r["efficiency"] for r in runs]
                fairs = [r["fairness"] for r in runs]
                de = sum(abs(e - pe) for e in effs) / len(effs)
                df = sum(abs(f - pf) for f in fairs) / len(fairs)
                d_eff.append(de)
                d_fair.append(df)
                table.setdefault((k, policy), {"paper": (pe, pf)})[model] = (
                    sum(effs) / len(effs),
                    sum(fairs) / len(fairs),
                    min(fairs),
                    max(fairs),
                )
                print(
                    f"{model:8} {k:5} {policy:15} paper {pe:.2f}/{pf:.2f} sim "
                    + " ".join(f"{e:.3f}/{f:.3f}" for e, f in zip(effs, fairs))
                    + f"  |d| {de:.3f}/{df:.3f}",
                    flush=True,
                )
        print(
            f"{model}: mean |sim - paper| efficiency / fairness "
            f"{sum(d_eff) / len(d_eff):.3f} / {sum(d_fair) / len(d_fair):.3f}",
            flush=True,
        )
    print()
    print("| K | policy | paper eff / fair | drift (20 ppm) | clock_ppm = 0 | aligned |")
    print("|---|---|---|---|---|---|")
    for (k, policy), row in table.items():
        cells = []
        for model in MODELS:
            e, f, lo, hi = row[model]
            spread = f" ({lo:.2f}-{hi:.2f})" if model != "aligned" else ""
            cells.append(f"{e:.2f} / {f:.2f}{spread}")
        pe, pf = row["paper"]
        print(f"| {k} | {policy} | {pe:.2f} / {pf:.2f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
