"""Record the "before" agreement of every reproduction doc: the mean |simulated − paper| the
tables of `docs/*-reproduction.md` showed before the session-4 full re-measurement (one
replication, phase-locked engine), written as data so the regenerated docs can show before
and now side by side.

    git archive 040d01c docs | tar -x -C /tmp/docs-040d01c
    python scripts/before_numbers.py /tmp/docs-040d01c/docs > docs/data/before-session4.json

Run against the docs as they stood at commit 040d01c (argument: that docs folder; default
docs/), with the published values the studies declare now.
Each study's simulated values are read from the doc's own tables, each paired with the
published value the study declares for that row (`Experiment.published`), and the agreement
is computed by `atmsim.studies.docgen.agreement`, the same function that computes the "now"
numbers from a report folder. Where a doc gives no per-row table for a published number, the
summary the doc states is recorded instead and marked `"from": "doc text"`. The parsing is
specific to those five docs as they were; it is kept to show how the numbers were obtained,
not as a general tool.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

import pandas as pd

from atmsim.studies import docgen, registry

DOCS = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs")


def table_after(doc: str, header_start: str, nth: int = 0) -> List[List[str]]:
    """The body rows (cells stripped) of the nth markdown table whose header starts with
    `header_start`."""
    lines = doc.splitlines()
    hits = [i for i, line in enumerate(lines) if line.startswith(header_start)]
    i = hits[nth] + 2
    rows = []
    while i < len(lines) and lines[i].startswith("|"):
        rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
        i += 1
    return rows


def num(text: str) -> float:
    m = re.search(r"-?\d+(?:\.\d+)?", text.replace("**", ""))
    if m is None:
        raise ValueError(f"no number in {text!r}")
    return float(m.group())


def frames(
    study: Any, sim: Callable[[str, Mapping[str, Any]], Optional[Dict[str, float]]]
) -> Dict[str, pd.DataFrame]:
    """Comparison tables (labels, <name>, paper_<name>) of the rows the doc gives values for:
    sim(table, labels) -> {metric name: simulated value} or None."""
    rows: Dict[str, List[Dict[str, Any]]] = {}
    for e in study.experiments(False):
        published = {k: v for k, v in e.published.items() if v is not None}
        if not published:
            continue
        got = sim(e.table, e.labels) or {}
        row: Dict[str, Any] = dict(e.labels)
        keep = False
        for name, value in got.items():
            if name in published:
                row[name], row[f"paper_{name}"] = value, published[name]
                keep = True
        if keep:
            rows.setdefault(e.table, []).append(row)
    return {t: pd.DataFrame(r) for t, r in rows.items()}


def records(found: List[docgen.Agreement], source: str) -> List[Dict[str, Any]]:
    return [
        {
            "table": a.table,
            "subset": a.subset,
            "metric": a.metric,
            "relative": a.relative,
            "rows": a.rows,
            "mean_abs_diff": round(a.mean_abs_diff, 6),
            "from": source,
        }
        for a in found
    ]


# -- UBR+ -------------------------------------------------------------------------------------


def ubr_plus() -> Dict[str, Any]:
    doc = (DOCS / "ubr-plus-reproduction.md").read_text(encoding="utf-8")
    study = registry.get("ubr-plus")
    t1 = {(r[0], int(r[1])): r for r in table_after(doc, "| config | N | efficiency | fairness | max queue")}
    every = {
        (r[0], int(r[1]), int(r[2]), r[3]): r
        for r in table_after(doc, "| config | N | buffer | policy | efficiency: atmsim / paper")
    }

    def sim(table: str, labels: Mapping[str, Any]) -> Optional[Dict[str, float]]:
        if table == "1":
            r = t1.get((labels["config"], labels["sources"]))
            return (
                None
                if r is None
                else {"efficiency": num(r[2]), "fairness": num(r[3]), "max_queue_cells": num(r[4])}
            )
        if table == "2-3":
            r = every.get((labels["config"], labels["sources"], labels["buffer_cells"], labels["policy"]))
            if r is None:
                return None
            return {"efficiency": num(r[4].split("/")[0]), "fairness": num(r[5].split("/")[0])}
        return None

    source = "docs/ubr-plus-reproduction.md: Table 1 and the 'Every run' table of Tables 2-3 (atmsim column)"
    out = records(docgen.agreement(frames(study, sim), study.tables), "doc tables")
    # Tables 4-6 have no per-row table in the doc, only this sentence.
    m = re.search(
        r"Tables 4-6 \(parameter sweeps\): efficiency\s+(\d\.\d+) / (\d\.\d+) / (\d\.\d+), "
        r"fairness\s+(\d\.\d+) / (\d\.\d+) / (\d\.\d+)",
        doc,
    )
    assert m, "the Tables 4-6 sentence of the UBR+ doc moved"
    counts = {t.id: 0 for t in study.tables}
    for e in study.experiments(False):
        counts[e.table] += 1
    for i, table in enumerate(("4", "5", "6")):
        for metric, value in (("efficiency", m.group(1 + i)), ("fairness", m.group(4 + i))):
            out.append(
                {
                    "table": table,
                    "subset": "",
                    "metric": metric,
                    "relative": False,
                    "rows": counts[table],
                    "mean_abs_diff": float(value),
                    "from": "doc text (two decimals; no per-row table in the doc)",
                }
            )
    return {"source": source + "; Tables 4-6 from the doc's summary sentence", "agreement": out}


# -- GFR (Goyal) ------------------------------------------------------------------------------


def gfr_goyal() -> Dict[str, Any]:
    doc = (DOCS / "gfr-goyal-reproduction.md").read_text(encoding="utf-8")
    study = registry.get("gfr-goyal")
    t3 = {r[0]: [num(c.split("/")[0]) for c in r[1:]] for r in table_after(doc, "| TCPs | exp 1 |")}
    t5 = {int(r[0]): [num(c.split("/")[0]) for c in r[1:]] for r in table_after(doc, "| VC | exp 1 ")}

    def sim(table: str, labels: Mapping[str, Any]) -> Optional[Dict[str, float]]:
        if table == "1-3":
            return {"ratio": t3[labels["tcps"]][int(labels["experiment"]) - 1]}
        if table == "4-5":
            return {"ratio": t5[int(labels["vc"])][int(labels["experiment"]) - 1]}
        return None  # figure 3 and the maximum queues were not in the doc then

    out = records(docgen.agreement(frames(study, sim), study.tables), "doc tables")
    # Table 2 (throughput per TCP) has no per-row table in the doc, only its agreement row.
    row = next(r for r in table_after(doc, "| table | metric | rows | mean abs diff") if "throughput" in r[1])
    out.append(
        {
            "table": "1-3",
            "subset": "",
            "metric": "throughput_mbps",
            "relative": True,
            "rows": int(row[2]),
            "mean_abs_diff": num(row[3]) / 100,
            "from": "doc agreement table (no per-row table in the doc)",
        }
    )
    return {
        "source": "docs/gfr-goyal-reproduction.md: Tables 3 and 5 (atmsim / paper); "
        "Table 2 from its agreement row",
        "agreement": out,
    }


# -- Gerla -------------------------------------------------------------------------------------


def gerla() -> Dict[str, Any]:
    doc = (DOCS / "gerla-reproduction.md").read_text(encoding="utf-8")
    study = registry.get("gerla")
    rows = table_after(doc, "| N | PRCA 1.1 |")
    b_av_row = next(r for r in rows if r[0].startswith("B_av simulated"))
    b_av = {1.1: num(b_av_row[1]), 1.2: num(b_av_row[2]), 1.3: num(b_av_row[3])}
    # The N = 15 row: the saturation goodput the paper's figures 3-4 are read at.
    n15 = next(r for r in rows if r[0] == "15")
    column = {
        ("prca", 1.1): 1,
        ("prca", 1.2): 2,
        ("prca", 1.3): 3,
        ("fcvc", 1.1): 4,
        ("fcvc", 1.2): 5,
        ("fcvc", 1.3): 6,
    }
    # "No ABR cell was lost under FCVC in any of the 51 FCVC runs".
    assert "No ABR cell was lost under FCVC** in any" in doc

    def sim(table: str, labels: Mapping[str, Any]) -> Optional[Dict[str, float]]:
        got: Dict[str, float] = {}
        if table in ("3", "4"):
            got["b_av_mbps"] = b_av[float(labels["b_g"])]
            if int(labels["sources"]) == 15 and int(labels["mss"]) == 1024:
                got["goodput_mbps"] = num(n15[column[(labels["control"], float(labels["b_g"]))]])
        if labels["control"] == "fcvc":
            got["abr_cells_lost"] = 0.0
        return got

    return {
        "source": "docs/gerla-reproduction.md: the 'B_av simulated (paper)' and N = 15 rows of the "
        "figures 3-4 table (one B_av per b_g) and the statement that no ABR cell was lost under FCVC",
        "agreement": records(docgen.agreement(frames(study, sim), study.tables), "doc tables"),
    }


# -- CLASS (Ajmone Marsan) ---------------------------------------------------------------------


def ajmone_marsan() -> Dict[str, Any]:
    doc = (DOCS / "ajmone-marsan-reproduction.md").read_text(encoding="utf-8")
    study = registry.get("ajmone-marsan")
    fig2 = {(int(r[0]), r[1]): r for r in table_after(doc, "| buffer | TCP shaping | bg 0 |")}
    fig4 = {r[0]: r for r in table_after(doc, "| bg | 15 | 16.7 |")}
    fig4_rates = ["15", "16.7", "18.75", "21.4", "25", "30", "37.5", "50", "75"]
    t2 = table_after(doc, "| connection | link | 0.8 sim |")
    # The current-engine figure 12 table (the second with this header).
    fig12 = {(int(r[0]), r[1]): r for r in table_after(doc, "| buffer | bg | Mi-Ro |", 0)}
    fig6_all_one = "Efficiency 1.000 for every connection in both rows." in doc
    shaping_name = {"none": "none", "50": "50 Mb/s", "15": "15 Mb/s"}

    def eff_at(cell: str, i: int) -> float:
        parts = cell.split("/")
        return num(parts[i]) if len(parts) == 3 else num(cell)

    def sim(table: str, labels: Mapping[str, Any]) -> Optional[Dict[str, float]]:
        if table == "2":
            r = fig2[(int(labels["buffer"]), shaping_name[str(labels["shaping"])])]
            bg = int(labels["bg_mbps"])
            got = {"goodput_mbps": num(r[2 + bg // 25])}
            if bg in (0, 50, 100):
                got["efficiency"] = eff_at(r[7], {0: 0, 50: 1, 100: 2}[bg])
            elif str(labels["shaping"]) == "15":
                # "15 Mb/s shaping: efficiency 1 ... (both buffers, up to 100 Mb/s)"
                got["efficiency"] = 1.0
            if str(labels["shaping"]) == "50" and bg == 0:
                got["tcp_link_mbps"] = 149.9  # the statements table: "149.9 Mb/s of cells"
            return got
        if table == "4":
            key = f"{labels['bg_mbps']} {'shaped' if labels['bg_shaped'] else 'unshaped'}"
            cell = fig4[key][1 + fig4_rates.index(str(labels["shaping"]))]
            m = re.search(r"\(([\d.]+)\)", cell)
            # Before the knee the doc prints no efficiency: "Efficiency is 1 before the knee".
            return {"efficiency": float(m.group(1)) if m else 1.0}
        if table == "6" and labels.get("fairness") == "enforced" and fig6_all_one:
            return {"efficiency": 1.0}
        if table == "12":
            r = fig12[(int(labels["buffer"]), "shaped" if labels["bg_shaped"] else "unshaped")]
            i = {0.8: 0, 1.0: 1, 1.2: 2}[float(labels["total_gbps"])]
            return {"efficiency_min": num(r[8].split("/")[i])}
        if table == "T2":
            col = {0.8: 2, 1.0: 5, 1.2: 8}[float(labels["total_gbps"])]
            got = {}
            seen: Dict[str, int] = {}
            for r in t2:
                seen[r[0]] = seen.get(r[0], 0) + 1
                got[f"load_{r[0]}_{seen[r[0]]}"] = num(r[col])
            return got
        return None

    return {
        "source": "docs/ajmone-marsan-reproduction.md: figure 2 and 4 tables (two-node full runs), the "
        "statements table (149.9 Mb/s of cells), the figure 6 fair-share line, the current-engine "
        "figure 12 table and the Table 2 load table",
        "agreement": records(docgen.agreement(frames(study, sim), study.tables), "doc tables"),
    }


# -- GFR (Bonaventure) -------------------------------------------------------------------------

# The doc's "figure / TCP / MCR | quantity | paper | atmsim" table and its "Simulated curves"
# table, transcribed: (figure, mcr) -> {metric: value}. Units as the study's metrics.
_BONAVENTURE: Dict[Tuple[str, int], Dict[str, float]] = {
    ("5", 100000): {"priv_goodput_bps": 18.8e6, "tagged_fraction": 0.451},
    ("5", 180000): {
        "priv_goodput_bps": 21.8e6,
        "retx_kb_per_10mb": 243,
        "rto_per_10mb": 2.71,
        "tagged_fraction": 0.269,
        "hbo_drops": 15,
    },
    ("7", 180000): {"rto_per_10mb": 4.32, "retx_kb_per_10mb": 540},
    ("9", 180000): {"rto_per_10mb": 0.62, "tagged_fraction": 0.216, "mean_queue_cells": 5371, "rtt_ms": 15.6},
    ("4", 20000): {"priv_goodput_bps": 7.5e6, "bg_goodput_bps": 7.5e6},
    ("4", 60000): {"priv_goodput_bps": 22.2e6, "bg_goodput_bps": 7.5e6},
    ("4", 100000): {"priv_goodput_bps": 36.2e6, "bg_goodput_bps": 7.5e6},
    ("4", 140000): {"priv_goodput_bps": 49.6e6, "bg_goodput_bps": 7.5e6},
    ("4", 180000): {"priv_goodput_bps": 61.7e6, "bg_goodput_bps": 7.5e6},
    ("14", 20000): {"rto_per_10mb": 15.3},
    ("14", 180000): {
        "tagged_fraction": 0.055,
        "rto_per_10mb": 2.15,
        "mean_queue_cells": 4854,
        "rtt_ms": 12.8,
    },
    ("16", 20000): {"bottleneck_drops": 0, "priv_fair_ratio": 1.00},
    ("16", 60000): {"bottleneck_drops": 0, "priv_fair_ratio": 0.97},
    ("16", 100000): {"bottleneck_drops": 0, "priv_fair_ratio": 0.95},
    ("16", 140000): {"bottleneck_drops": 0, "priv_fair_ratio": 0.93},
    ("16", 180000): {"bottleneck_drops": 0, "priv_fair_ratio": 0.92},
    ("17", 180000): {"priv_delay_ms": 1.83, "bg_delay_ms": 46.6},
    ("22", 20000): {"rto_per_10mb": 17.8},
    ("23", 180000): {"tagged_fraction": 0.091},
}


def gfr_bonaventure() -> Dict[str, Any]:
    doc = (DOCS / "gfr-bonaventure-reproduction.md").read_text(encoding="utf-8")
    study = registry.get("gfr-bonaventure")
    # Spot checks that the transcription matches the doc it was taken from.
    for text in (
        "18.8 Mb/s (18.7..19.0)",
        "243 KB (154..333)",
        "5371 cells",
        "**15.3** (5.7..24.8)",
        "1.00, 0.97, 0.95, 0.93, 0.92",
        "46.6 ms (39.3..54.0)",
        "**9.1 %** (8.9..9.2)",
        "| 4 | 7.5 / 7.5 | 22.2 / 7.5 | 36.2 / 7.5 | 49.6 / 7.5 | 61.7 / 7.5 |",
    ):
        assert text in doc, f"the Bonaventure doc no longer says {text!r}"

    def sim(table: str, labels: Mapping[str, Any]) -> Optional[Dict[str, float]]:
        return _BONAVENTURE.get((table, int(labels["mcr"])))

    return {
        "source": "docs/gfr-bonaventure-reproduction.md: the 'figure / TCP / MCR | quantity | paper | "
        "atmsim' table and the 'Simulated curves' table (figure 4 at 5 of its 9 MCRs), transcribed",
        "agreement": records(docgen.agreement(frames(study, sim), study.tables), "doc tables"),
    }


def main() -> int:
    doc = {
        "what": "mean |simulated - paper| per study table and metric, as the docs/*-reproduction.md "
        "tables stood before the session-4 full re-measurement (one replication per point, "
        "phase-locked engine unless the doc says otherwise); relative to the paper for metrics "
        "with units",
        "docs_commit": "040d01c",
        "made_by": "python scripts/before_numbers.py DOCS (the docs folder of commit 040d01c)",
        "studies": {
            "ubr-plus": ubr_plus(),
            "gfr-goyal": gfr_goyal(),
            "gerla": gerla(),
            "ajmone-marsan": ajmone_marsan(),
            "gfr-bonaventure": gfr_bonaventure(),
        },
    }
    json.dump(doc, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
