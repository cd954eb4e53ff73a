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
from .comparators import label
from .reproduce import StudyReport

if TYPE_CHECKING:
    import pandas as pd


def _cell(row: "pd.Series", name: str) -> str:
    """A simulated value: with at most three replications, the mean and the replications
    themselves ("0.79 [0.75, 0.80, 0.82]"); otherwise with its 95 % half-width when the
    replications had a spread."""
    text = fmt(row[name])
    runs = row.get(f"{name}_runs")
    if isinstance(runs, (list, tuple)) and len(runs) > 1:
        return f"{text} [{', '.join(fmt(v) for v in runs)}]"
    try:
        half = (float(row[f"{name}_ci_high"]) - float(row[f"{name}_ci_low"])) / 2
    except (TypeError, ValueError):
        return text
    return text if math.isnan(half) or half == 0 else f"{text} ± {fmt(half, 2)}"


def _paper(row: "pd.Series", name: str) -> str:
    """The published value as the paper states it: "> 20", "<= 83", "0.3..0.5", or the plain
    number for "about" (comparators.label)."""
    value = plain(row[f"paper_{name}"])
    comparator = plain(row.get(f"comparator_{name}"))
    if value is None or not isinstance(comparator, str):
        return fmt(value)
    return label(comparator, value, plain(row.get(f"paper_high_{name}")), fmt)


def _yes(v: Any) -> str:
    v = plain(v)
    return "" if v is None else ("yes" if bool(v) else "no")


def _table(report: StudyReport, table_id: str) -> str:
    import pandas as pd

    spec = next(t for t in report.study.tables if t.id == table_id)
    frame = report.results.tables[table_id]
    shown: Dict[str, List[str]] = {label: [fmt(plain(v)) for v in frame[label]] for label in spec.labels}
    for c in spec.compared:
        shown[c.name] = [_cell(row, c.name) for _, row in frame.iterrows()]
        shown[f"{c.name} (paper)"] = [_paper(row, c.name) for _, row in frame.iterrows()]
        if f"agrees_{c.name}" in frame and frame[f"paper_{c.name}"].notna().any():
            shown[f"{c.name} agrees"] = [_yes(v) for v in frame[f"agrees_{c.name}"]]
    lines = [spec.title, pd.DataFrame(shown).to_string(index=False)]
    for _, a in report.agreement[report.agreement["table"] == table_id].iterrows():
        if not a["rows"]:
            continue
        kind = "relative " if a["relative"] else ""
        lines.append(
            f"{a['metric']}: mean {kind}distance to the paper's statement "
            f"{fmt(a['mean_abs_diff'])} over {int(a['rows'])} rows, "
            f"{fmt(100 * a['within_0.05'], 2)} % within 0.05, "
            f"{fmt(100 * a['within_0.10'], 2)} % within 0.10"
            + ("" if _nan(a.get("agree")) else f", {fmt(100 * a['agree'], 2)} % agree")
        )
    return "\n".join(lines)


def _nan(v: Any) -> bool:
    try:
        return math.isnan(float(v))
    except (TypeError, ValueError):
        return True


def render(report: StudyReport) -> str:
    """Every table of the study that has rows, in the study's order, then its notes."""
    blocks = [
        f"{report.study.name}: {report.study.title}\n"
        f"{report.replications} replication(s) per row; a value with a spread is shown as "
        f"mean ± half-width of its 95 % interval (with at most 3, the mean and "
        f"[each replication]); the paper's value with its comparator "
        f"('> 20': more than 20; a plain number: about), 'agrees' per comparators.py"
    ]
    blocks += [_table(report, t.id) for t in report.study.tables if t.id in report.results.tables]
    if report.notes:
        blocks.append("\n".join(f"note: {n}" for n in report.notes))
    return "\n\n".join(blocks)


def rows(report: StudyReport) -> List[Dict[str, Any]]:
    """One record per published row: `table` (the study's table id), the experiment's labels,
    then `runs` (replications per row) and per compared metric the simulated value (mean)
    `<name>`, `paper_<name>`, `comparator_<name>` (how the paper states it: "=", "~", "<",
    "<=", ">", ">=", "range"; null without a published value), `agrees_<name>`,
    `diff_<name>` (the distance to the statement, 0 for a satisfied bound), the 95 % interval
    `<name>_ci_low`, `<name>_ci_high` (null with a single replication, cut to the values the
    quantity can take), `<name>_runs` (the replications' values, with at most 3), and the
    other columns the comparison table has for it (`paper_high_<name>` of a range)."""
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
                keys = [
                    c.name,
                    f"paper_{c.name}",
                    f"paper_high_{c.name}",
                    f"comparator_{c.name}",
                    f"agrees_{c.name}",
                    f"diff_{c.name}",
                    f"{c.name}_ci_low",
                    f"{c.name}_ci_high",
                    f"{c.name}_runs",
                ]
                for key in keys:
                    if key in frame:
                        record[key] = _json(frame.at[i, key])
            out.append(record)
    return out


def _json(v: Any) -> Any:
    """A cell as JSON: plain values, lists (a row's replications) element by element."""
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    return plain(v)
