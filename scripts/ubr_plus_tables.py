"""Print the markdown tables of docs/ubr-plus-reproduction.md from reproduction JSON files.

atmsim reproduce ubr-plus --all --json > default.json
atmsim reproduce ubr-plus --tables 2 --json --set n_source.stagger_timers=true > stagger.json
atmsim reproduce ubr-plus --tables 2 --json --set n_source.arbitration=fixed > fixed.json
python scripts/ubr_plus_tables.py default.json stagger.json fixed.json
"""

from __future__ import annotations

import json
import sys
from typing import Any, Dict, List, Optional, Tuple

from atmsim import numbers

Row = Dict[str, Any]


def key(r: Row) -> Tuple[Any, ...]:
    return (
        table_number(r),
        r["config"],
        r["sources"],
        r["buffer_cells"],
        r["policy"],
        r.get("r"),
        r.get("z"),
    )


def mae(rows: List[Row], k: str) -> float:
    v = [abs(r[k] - r["paper_" + k]) for r in rows if r[k] is not None and r["paper_" + k] is not None]
    return sum(v) / len(v) if v else float("nan")


def fmt(x: Optional[float]) -> str:
    return numbers.fmt(x, 2)


def table_number(r: Row) -> int:
    """`reproduce` names Tables 2-3 "2-3"; older JSON files had the numbers 1, 2, 4, 5, 6."""
    t = r["table"]
    return 2 if t == "2-3" else int(t)


def load_rows(path: str) -> List[Row]:
    """The rows of a `reproduce ubr-plus --json` file: the object's `rows`; files written
    before the object (a plain list of rows) still load."""
    with open(path) as f:
        doc = json.load(f)
    rows: List[Row] = doc if isinstance(doc, list) else doc["rows"]
    return rows


def main(default: str, stagger: str, fixed: str) -> None:
    d = load_rows(default)
    s = {key(r): r for r in load_rows(stagger)}
    f = {key(r): r for r in load_rows(fixed)}
    print(
        "Table 1\n\n| config | N | efficiency | fairness | max queue (cells) | paper |\n"
        "|---|---|---|---|---|---|"
    )
    for r in d:
        if table_number(r) == 1:
            print(
                f"| {r['config']} | {r['sources']} | {r['efficiency']:.3f} | {r['fairness']:.3f} | "
                f"{fmt(r['max_queue_cells'])} | {fmt(r['paper_max_queue_cells'])} |"
            )
    print("\nMean |atmsim - paper| (efficiency / fairness)\n")
    for t in (2, 4, 5, 6):
        rows = [r for r in d if table_number(r) == t]
        if rows:
            print(
                f"- table {t}: {mae(rows, 'efficiency'):.3f} / {mae(rows, 'fairness'):.3f} "
                f"over {len(rows)} runs"
            )
    for cfg in ("LAN", "WAN"):
        rows = [r for r in d if table_number(r) == 2 and r["config"] == cfg]
        print(f"- tables 2-3, {cfg}: {mae(rows, 'efficiency'):.3f} / {mae(rows, 'fairness'):.3f}")
    print(
        "\nPolicy averages (atmsim, paper in parentheses)\n\n"
        "| config | policy | efficiency | fairness |\n|---|---|---|---|"
    )
    for cfg in ("LAN", "WAN"):
        for pol in ("UBR", "EPD", "SD", "FBA"):
            rows = [r for r in d if table_number(r) == 2 and r["config"] == cfg and r["policy"] == pol]

            def m(k: str, rows: List[Row] = rows) -> float:
                return float(sum(r[k] for r in rows)) / len(rows)

            print(
                f"| {cfg} | {pol} | {m('efficiency'):.2f} ({m('paper_efficiency'):.2f}) | "
                f"{m('fairness'):.2f} ({m('paper_fairness'):.2f}) |"
            )
    print(
        "\nEvery run\n\n| config | N | buffer | policy | efficiency: atmsim / paper "
        "| fairness: atmsim / paper | staggered timers: eff / fair | fixed arbitration: eff / fair |\n"
        "|---|---|---|---|---|---|---|---|"
    )
    for r in d:
        if table_number(r) != 2:
            continue
        a, b = s.get(key(r)), f.get(key(r))
        print(
            f"| {r['config']} | {r['sources']} | {r['buffer_cells']} | {r['policy']} | "
            f"{fmt(r['efficiency'])} / {fmt(r['paper_efficiency'])} | "
            f"{fmt(r['fairness'])} / {fmt(r['paper_fairness'])} | "
            f"{fmt(a['efficiency'] if a else None)} / {fmt(a['fairness'] if a else None)} | "
            f"{fmt(b['efficiency'] if b else None)} / {fmt(b['fairness'] if b else None)} |"
        )


if __name__ == "__main__":
    main(*sys.argv[1:4])
