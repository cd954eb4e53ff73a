"""The terminal view of a reproduction (`atmsim reproduce STUDY` without `--out`): per paper
table its rows, the simulated value beside the published one, then the table's agreement;
the study's notes last. `rows` is the same content as JSON-ready records (`--json`).

The report folder (studies/report.py) shows the same tables with figures; both read the
comparison tables `reproduce.reproduce_study` builds.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List

from ..numbers import fmt
from ..tables import plain
from .reproduce import StudyReport

if TYPE_CHECKING:
    import pandas as pd


def _cell(row: "pd.Series", name: str) -> str:
    """A simulated value, with its 95 % half-width when the replications had a spread."""
    text = fmt(row[name])
    try:
        half = (float(row[f"{name}_ci_high"]) - float(row[f"{name}_ci_low"])) / 2
    except (TypeError, ValueError):
        return text
    return text if math.isnan(half) or half == 0 else f"{text} ± {fmt(half, 2)}"


def _table(report: StudyReport, table_id: str) -> str:
    import pandas as pd

    spec = next(t for t in report.study.tables if t.id == table_id)
    frame = report.results.tables[table_id]
    shown: Dict[str, List[str]] = {label: [fmt(plain(v)) for v in frame[label]] for label in spec.labels}
    for c in spec.compared:
        shown[c.name] = [_cell(row, c.name) for _, row in frame.iterrows()]
        shown[f"{c.name} (paper)"] = [fmt(plain(v)) for v in frame[f"paper_{c.name}"]]
    lines = [spec.title, pd.DataFrame(shown).to_string(index=False)]
    for _, a in report.agreement[report.agreement["table"] == table_id].iterrows():
        if not a["rows"]:
            continue
        kind = "relative " if a["relative"] else ""
        lines.append(
            f"{a['metric']}: mean {kind}|simulated - paper| {fmt(a['mean_abs_diff'])} over "
            f"{int(a['rows'])} rows, {fmt(100 * a['within_0.05'], 2)} % within 0.05, "
            f"{fmt(100 * a['within_0.10'], 2)} % within 0.10"
        )
    return "\n".join(lines)


def render(report: StudyReport) -> str:
    """Every table of the study that has rows, in the study's order, then its notes."""
    blocks = [
        f"{report.study.name}: {report.study.title}\n"
        f"{report.replications} replication(s) per row; a value with a spread is shown as "
        f"mean ± half-width of its 95 % interval"
    ]
    from .claims import render as claims  # the paper's main claims, ahead of the tables

    blocks += [b for b in [claims(report.study, report.results)] if b]
    blocks += [_table(report, t.id) for t in report.study.tables if t.id in report.results.tables]
    if report.notes:
        blocks.append("\n".join(f"note: {n}" for n in report.notes))
    return "\n\n".join(blocks)


def rows(report: StudyReport) -> List[Dict[str, Any]]:
    """One record per published row: `table` (the study's table id), the experiment's labels,
    then `runs` (replications per row) and per compared metric the simulated value (mean)
    `<name>`, `paper_<name>`, `diff_<name>` and the 95 % interval `<name>_ci_low`,
    `<name>_ci_high` (null with a single replication)."""
    out = []
    for spec in report.study.tables:
        frame = report.results.tables.get(spec.id)
        if frame is None:
            continue
        experiments = [e for e in report.experiments if e.table == spec.id]
        for i, exp in enumerate(experiments):
            record: Dict[str, Any] = {"table": spec.id}
            record.update({k: plain(v) for k, v in exp.labels.items()})
            record["runs"] = report.replications
            for c in spec.compared:
                for key in (
                    c.name,
                    f"paper_{c.name}",
                    f"diff_{c.name}",
                    f"{c.name}_ci_low",
                    f"{c.name}_ci_high",
                ):
                    record[key] = plain(frame.at[i, key])
            out.append(record)
    return out
