"""The reproduction report folder: index.html and README.md with, per study and paper table,
the simulated values beside the published ones, the agreement summary and the figures; plus
each comparison table and the agreement as CSV for further analysis.

Both documents are generated from the same `Reproduction`, so they cannot disagree. Figures
are linked, not embedded: SVG in the HTML (sharp at any zoom), PNG in the Markdown (which
every viewer renders).
"""

from __future__ import annotations

import html
import math
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, List, Sequence

from ..markdown import md_code
from ..numbers import fmt, percent, plus_minus
from .assumptions import fmt_value
from .registry import PaperTable
from .reproduce import Reproduction, StudyReport, assumptions_of, stated_of
from .sensitivity import verdicts

if TYPE_CHECKING:
    import pandas as pd

# Rows further than this from the paper are flagged in the HTML.
FLAG_ABOVE = 0.10


def _cell(frame: "pd.DataFrame", i: int, name: str) -> str:
    """A simulated value, with its 95 % half-width when the runs had a spread."""
    v = _number(frame.at[i, name])
    half = (_number(frame.at[i, f"{name}_ci_high"]) - _number(frame.at[i, f"{name}_ci_low"])) / 2
    return plus_minus(v, None if half == 0 else half)


def _number(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def _columns(spec: PaperTable) -> List[tuple[str, str]]:
    cols = [(c, c) for c in spec.labels]
    for c in spec.compared:
        cols += [(c.name, c.label), (f"paper_{c.name}", f"{c.label} (paper)"), (f"diff_{c.name}", "diff")]
    return cols


def _rows(spec: PaperTable, frame: "pd.DataFrame") -> List[List[str]]:
    compared = {c.name for c in spec.compared}
    out = []
    for i in range(len(frame)):
        row = []
        for key, _ in _columns(spec):
            row.append(_cell(frame, i, key) if key in compared else fmt(_py(frame.at[i, key])))
        out.append(row)
    return out


def _py(v: Any) -> Any:
    # numpy scalars print as np.float64(...) in some contexts; plain Python values do not.
    return v.item() if hasattr(v, "item") else v


def _flagged(spec: PaperTable, frame: "pd.DataFrame", i: int) -> bool:
    for c in spec.compared:
        d, p = _py(frame.at[i, f"diff_{c.name}"]), _py(frame.at[i, f"paper_{c.name}"])
        if d is None or (isinstance(d, float) and math.isnan(d)):
            continue
        gap = abs(d) / abs(p) if c.relative and p else abs(d)
        if gap > FLAG_ABOVE:
            return True
    return False


def _agreement_rows(report: StudyReport) -> List[List[str]]:
    rows = []
    for _, r in report.agreement.iterrows():
        unit = " (relative)" if r["relative"] else ""
        rows.append(
            [
                str(r["table"]),
                f"{r['metric']}{unit}",
                str(int(r["rows"])),
                fmt(float(r["mean_abs_diff"])),
                percent(r["within_0.05"]),
                percent(r["within_0.10"]),
            ]
        )
    return rows


# No "|" in headings: it would split a Markdown table cell.
AGREEMENT_HEAD = ["table", "metric", "rows", "mean abs. difference", "within ±0.05", "within ±0.10"]


def _settings(rep: Reproduction, code: Callable[[str], str] = str) -> List[str]:
    """The report's settings lines; `code` formats the user's text (md_code for Markdown)."""
    lines = [
        f"generated {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(rep.started))}, "
        f"engine {rep.engine_version}, {'quick' if rep.quick else 'full'} mode, "
        f"wall time {rep.wall_s:.0f} s",
        f"results store: {code(rep.store)}",
    ]
    if rep.overrides:
        sets = ", ".join(code(f"{k}={v}") for k, v in rep.overrides)
        lines.append(f"overrides applied to every run: {sets}")
        if any(k == "simulation.duration_s" for k, _ in rep.overrides):
            lines.append(
                "the simulated duration was overridden: the values are NOT comparable with the paper's"
            )
    return lines


def _study_counts(s: StudyReport) -> str:
    return (
        f"{s.runs} runs ({s.computed} computed now, {s.cached} from the store); "
        f"{s.replications} replication(s) per row; simulated values are the mean ± the "
        f"half-width of the 95 % Student-t interval"
    )


STATED_HEAD = ["parameter", "value", "where the paper says it"]
ASSUMED_HEAD = ["assumption", "what", "value used", "range swept", "applied as", "why"]
EFFECT_HEAD = [
    "published number",
    "paper",
    "assumption",
    "baseline",
    "lowest mean (at)",
    "highest mean (at)",
    "swing",
]


def _stated_rows(s: StudyReport) -> List[List[str]]:
    return [[p.name, p.value, p.where] for p in stated_of(s.study)]


def _assumed_rows(s: StudyReport) -> List[List[str]]:
    return [
        [a.name, a.label, fmt_value(a.value), ", ".join(fmt_value(v) for v in a.values), a.how(), a.why]
        for a in assumptions_of(s.study)
    ]


def _table_assumptions(s: StudyReport, table: str) -> str:
    """One line beside a table: the assumptions its runs rest on, with their values."""
    used = [
        f"{a.name} = {fmt_value(a.value)}"
        for a in assumptions_of(s.study)
        if not a.tables or table in a.tables
    ]
    return ("Assumed for this table (not stated by the paper): " + "; ".join(used)) if used else ""


def _interval(pair: Any) -> str:
    lo, hi = (float(pair[0]), float(pair[1])) if pair is not None else (math.nan, math.nan)
    return "" if math.isnan(lo) or math.isnan(hi) else f" [{fmt(lo)}, {fmt(hi)}]"


def _effect_rows(s: StudyReport) -> List[List[str]]:
    if s.sensitivity is None:
        return []
    rows = []
    for _, r in s.sensitivity.effects.iterrows():
        if r["swing"] == 0:
            rows.append(
                [
                    f"{r['label']} – {r['metric_label']}",
                    fmt(float(r["published"])),
                    str(r["assumption"]),
                    f"{fmt(float(r['baseline']))}{_interval(r['baseline_ci'])}",
                    "same at every value",
                    "",
                    "0",
                ]
            )
            continue
        rows.append(
            [
                f"{r['label']} – {r['metric_label']}",
                fmt(float(r["published"])),
                str(r["assumption"]),
                f"{fmt(float(r['baseline']))}{_interval(r['baseline_ci'])}",
                f"{fmt(float(r['low']))}{_interval(r['low_ci'])} ({fmt_value(r['low_value'])})",
                f"{fmt(float(r['high']))}{_interval(r['high_ci'])} ({fmt_value(r['high_value'])})",
                fmt(float(r["swing"])),
            ]
        )
    return rows


# -- Markdown --------------------------------------------------------------------------------


def _md_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def markdown(rep: Reproduction, out_dir: Path) -> str:
    parts = ["# atmsim reproduction report", ""]
    parts += [f"- {line}" for line in _settings(rep, md_code)] + [""]
    for s in rep.studies:
        parts += [f"## {s.study.title} (`{s.study.name}`)", "", s.study.citation, "", _study_counts(s), ""]
        parts += [f"> {note}" for note in s.notes]
        parts += ["### Agreement with the paper", "", _md_table(AGREEMENT_HEAD, _agreement_rows(s)), ""]
        if _stated_rows(s):
            parts += ["### Parameters the paper states", "", _md_table(STATED_HEAD, _stated_rows(s)), ""]
        if _assumed_rows(s):
            parts += [
                "### Assumptions (parameters the paper does not state)",
                "",
                _md_table(ASSUMED_HEAD, _assumed_rows(s)),
                "",
            ]
        for spec in s.study.tables:
            frame = s.results.tables.get(spec.id)
            if frame is None or not len(frame):
                continue
            parts += [
                f"### {spec.title}",
                "",
                _md_table([h for _, h in _columns(spec)], _rows(spec, frame)),
                "",
            ]
            line = _table_assumptions(s, spec.id)
            parts += [f"*{line}*", ""] if line else []
            parts += _md_figures(s, spec.id, out_dir)
        parts += _md_figures(s, "traces", out_dir, heading="### Traces")
        parts += _md_sensitivity(s, out_dir)
    return "\n".join(parts) + "\n"


def _md_sensitivity(s: StudyReport, out_dir: Path) -> List[str]:
    if s.sensitivity is None:
        return []
    sv = s.sensitivity
    parts = [
        "### Sensitivity to the assumptions",
        "",
        f"One assumption at a time, the others at their used values, {sv.runs} "
        f"replication(s) per point ({sv.computed} runs computed now, {sv.cached} from "
        f"the store). Subset: {sv.why}",
        "",
    ]
    parts += [_md_table(EFFECT_HEAD, _effect_rows(s)), ""]
    parts += [f"- {line}" for line in verdicts(sv.effects)]
    parts += [f"> {note}" for note in sv.notes]
    png = next((p for p in s.tornado if p.suffix == ".png"), None)
    if png is not None:
        parts += [
            "",
            f"![tornado]({_rel(png, out_dir)})",
            "",
            "*Each bar spans the smallest to the largest mean over the assumption's "
            "range (thin lines: 95 % intervals at the ends); black line: the values "
            "used; red dashed: the published value.*",
            "",
        ]
    return parts


def _md_figures(s: StudyReport, table: str, out_dir: Path, heading: str = "") -> List[str]:
    figs = [f for f in s.figures if f.table == table]
    lines = [heading, ""] if heading and figs else []
    for f in figs:
        png = next((p for p in f.files if p.suffix == ".png"), f.files[0])
        lines += [f"![{f.caption}]({_rel(png, out_dir)})", "", f"*{f.caption}*", ""]
    return lines


def _rel(path: Path, base: Path) -> str:
    return Path(os.path.relpath(path, base)).as_posix()


# -- HTML ------------------------------------------------------------------------------------

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 75em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f0f0f0; }
tr.far td { background: #fff1f0; }
figure { display: inline-block; margin: 0.5em; max-width: 48%; vertical-align: top; }
figure img { max-width: 100%; }
figcaption { font-size: 0.85em; color: #555; }
.note { color: #a00; }
"""


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]], classes: Sequence[str] = ()) -> str:
    out = ["<table>", "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for i, row in enumerate(rows):
        cls = f' class="{classes[i]}"' if i < len(classes) and classes[i] else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _html_figures(s: StudyReport, table: str, out_dir: Path) -> str:
    out = []
    for f in (f for f in s.figures if f.table == table):
        svg = next((p for p in f.files if p.suffix == ".svg"), f.files[0])
        src = html.escape(_rel(svg, out_dir))
        out.append(
            f'<figure><a href="{src}"><img src="{src}" alt="{html.escape(f.caption)}">'
            f"</a><figcaption>{html.escape(f.caption)}</figcaption></figure>"
        )
    return "\n".join(out)


def html_page(rep: Reproduction, out_dir: Path) -> str:
    body = ["<h1>atmsim reproduction report</h1>", "<ul>"]
    body += [f"<li>{html.escape(line)}</li>" for line in _settings(rep)] + ["</ul>"]
    for s in rep.studies:
        body += [
            f"<h2>{html.escape(s.study.title)} (<code>{s.study.name}</code>)</h2>",
            f"<p>{html.escape(s.study.citation)}<br>{html.escape(_study_counts(s))}</p>",
        ]
        body += [f'<p class="note">{html.escape(n)}</p>' for n in s.notes]
        body += ["<h3>Agreement with the paper</h3>", _html_table(AGREEMENT_HEAD, _agreement_rows(s))]
        if _stated_rows(s):
            body += ["<h3>Parameters the paper states</h3>", _html_table(STATED_HEAD, _stated_rows(s))]
        if _assumed_rows(s):
            body += [
                "<h3>Assumptions (parameters the paper does not state)</h3>",
                _html_table(ASSUMED_HEAD, _assumed_rows(s)),
            ]
        for spec in s.study.tables:
            frame = s.results.tables.get(spec.id)
            if frame is None or not len(frame):
                continue
            flags = ["far" if _flagged(spec, frame, i) else "" for i in range(len(frame))]
            body += [
                f"<h3>{html.escape(spec.title)}</h3>",
                f"<p>Rows shaded red differ from the paper by more than {FLAG_ABOVE:g} "
                f"(relative for quantities in cells). "
                f'<a href="{s.study.name}/table-{spec.id}.csv">CSV</a></p>',
                _html_table([h for _, h in _columns(spec)], _rows(spec, frame), flags),
                f"<p><em>{html.escape(_table_assumptions(s, spec.id))}</em></p>",
                _html_figures(s, spec.id, out_dir),
            ]
        traces = _html_figures(s, "traces", out_dir)
        if traces:
            body += ["<h3>Traces</h3>", traces]
        if s.sensitivity is not None:
            sv = s.sensitivity
            body += [
                "<h3>Sensitivity to the assumptions</h3>",
                f"<p>One assumption at a time, the others at their used values, "
                f"{sv.runs} replication(s) per point. Subset: {html.escape(sv.why)}</p>",
                _html_table(EFFECT_HEAD, _effect_rows(s)),
                "<ul>",
            ]
            body += [f"<li>{html.escape(v)}</li>" for v in verdicts(sv.effects)] + ["</ul>"]
            body += [f'<p class="note">{html.escape(n)}</p>' for n in sv.notes]
            svg = next((p for p in s.tornado if p.suffix == ".svg"), None)
            if svg is not None:
                src = html.escape(_rel(svg, out_dir))
                body.append(
                    f'<figure><img src="{src}" alt="tornado"><figcaption>Bars: '
                    "smallest to largest mean over each assumption's range; black: "
                    "values used; red dashed: published.</figcaption></figure>"
                )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>atmsim reproduction report</title>"
        f"<style>{CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def write(rep: Reproduction, out_dir: Path) -> List[Path]:
    """Write index.html, README.md and the CSV files; return what was written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for s in rep.studies:
        folder = out_dir / s.study.name
        folder.mkdir(parents=True, exist_ok=True)
        for table_id, frame in s.results.tables.items():
            path = folder / f"table-{table_id}.csv"
            frame.to_csv(path, index=False)
            written.append(path)
        path = folder / "agreement.csv"
        s.agreement.to_csv(path, index=False)
        written.append(path)
        if assumptions_of(s.study):
            import pandas as pd

            path = folder / "assumptions.csv"
            pd.DataFrame(_assumed_rows(s), columns=ASSUMED_HEAD).to_csv(path, index=False)
            written.append(path)
        if s.sensitivity is not None:
            for name, frame in (
                ("sensitivity-points.csv", s.sensitivity.points),
                ("sensitivity-effects.csv", s.sensitivity.effects),
            ):
                path = folder / name
                frame.to_csv(path, index=False)
                written.append(path)
    for name, text in (("README.md", markdown(rep, out_dir)), ("index.html", html_page(rep, out_dir))):
        path = out_dir / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
