"""Print a reproduction's comparison tables (STUDY/table-ID.csv of `atmsim reproduce ... --out
DIR`) as markdown, the simulated value beside the published one, for the write-ups.

    python scripts/report_tables.py DIR/gerla [--columns goodput_mbps,b_av_mbps]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from atmsim.numbers import fmt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--columns", default="")
    args = ap.parse_args()
    wanted = [c for c in args.columns.split(",") if c]
    for csv in sorted(Path(args.folder).glob("table-*.csv")):
        frame = pd.read_csv(csv)
        drop = [c for c in frame.columns if c.endswith(("_ci_low", "_ci_high")) or c.startswith("diff_")]
        frame = frame.drop(columns=drop)
        if wanted:
            compared = {c for c in frame.columns if f"paper_{c}" in frame.columns}
            labels = [c for c in frame.columns if c not in compared and not c.startswith("paper_")]
            chosen = [c for w in wanted if w in compared for c in (w, f"paper_{w}")]
            frame = frame[labels + chosen]
        frame = frame.dropna(axis=1, how="all")
        print(f"\n### {csv.stem}\n")
        print("| " + " | ".join(frame.columns) + " |")
        print("|" + "---|" * len(frame.columns))
        for _, row in frame.iterrows():
            print("| " + " | ".join(fmt(v) for v in row) + " |")


if __name__ == "__main__":
    main()
