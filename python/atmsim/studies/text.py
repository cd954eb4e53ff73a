"""The terminal view of a reproduction (`atmsim reproduce STUDY` without `--out`): per paper
table its rows that have a published value, the simulated value beside the published one
(bit/s in Mb/s, as in the figures), then the table's agreement; the study's notes last, each
with its verdict. `summary` is the compact per-study block of `atmsim reproduce all`: the
agreement rows that have a published value, and the notes. `rows` is the same content as
JSON-ready records (`--json`), every row.

The report folder (studies/report.py) shows the same tables with figures; both read the
comparison tables `reproduce.reproduce_study` builds.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List

from .. import figure_style as style
from ..numbers import fmt
from ..tables import plain
from . import note_verdict
from .comparators import label
from .registry import Compared, PaperTable
from .reproduce import StudyReport

if TYPE_CHECKING:
    import pandas as pd


def _missing(v: Any) -> bool:
    v = plain(v)
    return v is None or (isinstance(v, float) and math.isnan(v))


def published_rows(spec: PaperTable, frame: "pd.DataFrame") -> List[int]:
    """The row positions of a comparison table that have at least one published value."""
    papers = [f"paper_{c.name}" for c in spec.compared if f"paper_{c.name}" in frame]
    return [i for i in range(len(frame)) if any(not _missing(frame[p].iat[i]) for p in papers)]


def published_metrics(spec: PaperTable, frame: "pd.DataFrame", rows: List[int]) -> List[Compared]:
    """The compared metrics published for at least one of `rows`."""
    return [
        c
        for c in spec.compared
        if f"paper_{c.name}" in frame and any(not _missing(frame[f"paper_{c.name}"].iat[i]) for i in rows)
    ]


def _scaled(name: str, v: Any) -> Any:
    v = plain(v)
    return v * style.scale(name) if isinstance(v, (int, float)) and not isinstance(v, bool) else v


def _words(name: str) -> str:
    """A column's name as printed: a scaled bit/s column says Mb/s."""
    if style.scale(name) == 1.0:
        return name
    return name[: -len("_bps")] + "_mbps" if name.endswith("_bps") else f"{name} (Mb/s)"


def _cell(row: "pd.Series", name: str) -> str:
    """A simulated value (bit/s in Mb/s): with at most three replications, the mean and the
    replications themselves ("0.79 [0.75, 0.80, 0.82]"); otherwise with its 95 % half-width
    when the replications had a spread."""
    factor = style.scale(name)
    text = fmt(_scaled(name, row[name]))
    runs = row.get(f"{name}_runs")
    if isinstance(runs, (list, tuple)) and len(runs) > 1:
        return f"{text} [{', '.join(fmt(_scaled(name, v)) for v in runs)}]"
    try:
        half = (float(row[f"{name}_ci_high"]) - float(row[f"{name}_ci_low"])) / 2 * factor
    except (TypeError, ValueError, KeyError):
        return text
    return text if math.isnan(half) or half == 0 else f"{text} ± {fmt(half, 2)}"


def _paper(row: "pd.Series", name: str) -> str:
    """The published value as the paper states it: "> 20", "<= 83", "0.3..0.5", or the plain
    number for "about" (comparators.label)."""
    value = _scaled(name, row[f"paper_{name}"])
    comparator = plain(row.get(f"comparator_{name}"))
    if value is None or not isinstance(comparator, str):
        return fmt(value)
    return label(comparator, value, _scaled(name, row.get(f"paper_high_{name}")), fmt)


def _yes(v: Any) -> str:
    v = plain(v)
    return "" if v is None else ("yes" if bool(v) else "no")


def _table(report: StudyReport, table_id: str) -> str:
    import pandas as pd

    spec = next(t for t in report.study.tables if t.id == table_id)
    frame = report.results.tables[table_id]
    keep = published_rows(spec, frame)
    if not keep:
        return f"{spec.title}: no row with a published value ({len(frame)} simulated, see --json)"
    part = frame.iloc[keep]
    shown: Dict[str, List[str]] = {
        _words(name): [fmt(_scaled(name, v)) for v in part[name]] for name in spec.labels
    }
    for c in published_metrics(spec, frame, keep):
        shown[_words(c.name)] = [_cell(row, c.name) for _, row in part.iterrows()]
        shown[f"{_words(c.name)} (paper)"] = [_paper(row, c.name) for _, row in part.iterrows()]
        if f"agrees_{c.name}" in part:
            shown[f"{c.name} agrees"] = [_yes(v) for v in part[f"agrees_{c.name}"]]
    left = len(frame) - len(keep)
    title = spec.title + (f" ({left} row(s) without a published value left out)" if left else "")
    lines = [title, pd.DataFrame(shown).to_string(index=False)]
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
    from .claims import render as claims  # the paper's main claims, ahead of the tables

    blocks += [b for b in [claims(report.study, report.results)] if b]
    blocks += [_table(report, t.id) for t in report.study.tables if t.id in report.results.tables]
    if report.notes:
        blocks.append(notes(report))
    return "\n\n".join(blocks)


def notes(report: StudyReport) -> str:
    """The study's notes, one a line, each with its verdict (`note_verdict`)."""
    return "\n".join(f"note [{note_verdict.LABELS[note_verdict.verdict(n)]}]: {n}" for n in report.notes)


def summary(report: StudyReport) -> str:
    """The compact agreement of one study (`atmsim reproduce all`): one line per (table,
    metric) with a published value, the count of those without, then the notes."""
    lines = []
    agreement = report.agreement
    has = agreement[agreement["rows"].fillna(0) > 0]
    if len(has):
        lines.append("  agreement (rows, mean |sim - paper| (* relative), share within 0.05 / 0.10):")
        width = max(len(f"{a['table']} {a['metric']}") for _, a in has.iterrows())
        for _, a in has.iterrows():
            name = f"{a['table']} {a['metric']}" + ("*" if a["relative"] else "")
            lines.append(
                f"  {name:<{width + 1}} {int(a['rows']):>4} {fmt(a['mean_abs_diff']):>9} "
                f"{round(100 * a['within_0.05']):>4} % {round(100 * a['within_0.10']):>4} %"
            )
    left = len(agreement) - len(has)
    if left:
        lines.append(f"  ({left} table/metric pair(s) without a published value left out)")
    if report.notes:
        lines.append(notes(report))
    return "\n".join(lines)


def rows(report: StudyReport) -> List[Dict[str, Any]]:
    """One record per row, published or not (the `rows` of `--json`): `table` (the study's
    table id), the experiment's labels,
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
