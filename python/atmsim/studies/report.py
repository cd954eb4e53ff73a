"""The reproduction report folder: index.html and README.md with, per study, the paper's main
claims and their verdicts, the agreement summary, each paper table (simulated beside
published), the notes coloured by verdict, the figures, the sensitivity to the assumptions and
the parameters stated and assumed; then the engine checked against theory. Plus each
comparison table and the agreement as CSV for further analysis.

Both documents are rendered from one context (`context`) through the Jinja2 templates shipped
in `atmsim/studies/templates/` (`report.html.j2`, `report.md.j2`, `report.css`), so they
cannot disagree. Figures are linked, not embedded: SVG in the HTML (sharp at any zoom), PNG in
the Markdown (which every viewer renders).

What a reader sees, and why:
- a table of contents, and an `id` plus a visible permalink on every heading;
- tables in a horizontal scroll box with a sticky header, numbers right-aligned;
- in agreement and comparison tables, only rows with a published value (the CSV files keep
  every row), and the number of rows left out;
- bit/s quantities in Mb/s, the unit of the figures (`figure_style.scale`);
- a comparator column (`comparator_<name>`) when the comparison table has one, and the row
  marked by `agrees_<name>` when present (otherwise by the gap rule `FLAG_ABOVE`);
- each note classed by its verdict (`note_verdict`): agrees, disagrees, explained, model
  question or a plain note.

Optional inputs, each a section only when present (never an error when missing): a study's
`claims` (checked here on its results), a Morris frame (`StudyReport.morris`, or a `morris.csv`
in the study's folder or the report folder) and its `morris-<study>` figure, and the engine
checks (the `checks` argument of `write`, or `validate.json` in the report folder).
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence

from .. import figure_style as style
from ..markdown import md_code
from ..numbers import fmt, percent, plus_minus
from . import note_verdict
from .assumptions import fmt_value, listing
from .registry import Compared, PaperTable
from .reproduce import Reproduction, StudyReport, assumptions_of, stated_of
from .sensitivity import verdicts
from .text import published_metrics, published_rows

if TYPE_CHECKING:
    import jinja2
    import pandas as pd

# Rows further than this from the paper are flagged (without an `agrees_<name>` column).
FLAG_ABOVE = 0.10
TEMPLATES = "templates"
MORRIS_ROWS = 25  # the largest mu* rows shown; the CSV has them all

Cell = Dict[str, Any]
Table = Dict[str, Any]


def environment() -> "jinja2.Environment":
    """The templates of the report, loaded from the installed package (package data)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("atmsim.studies", TEMPLATES),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default=False),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md"] = md_escape
    return env


def md_escape(text: Any) -> str:
    """Text for a Markdown table cell or paragraph: no character that would end a cell, open
    a code span or emphasis, or start HTML."""
    out = str(text)
    for ch in ("\\", "`", "|", "*", "<", "[", "]"):
        out = out.replace(ch, "\\" + ch)
    return out.replace("\n", " ")


def slug(*parts: str) -> str:
    """An HTML id from words: lower case, runs of anything else than [a-z0-9] as one '-'."""
    text = "-".join(parts).lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "section"


# -- values ---------------------------------------------------------------------------------


def _number(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def _py(v: Any) -> Any:
    # numpy scalars print as np.float64(...) in some contexts; plain Python values do not.
    return v.item() if hasattr(v, "item") else v


def _missing(v: Any) -> bool:
    v = _py(v)
    return v is None or (isinstance(v, float) and math.isnan(v))


def _is_num(v: Any) -> bool:
    v = _py(v)
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def cell(text: str, num: bool = False, cls: str = "") -> Cell:
    return {"text": text, "num": num, "cls": cls}


def table(head: Sequence[Any], rows: Sequence[Any], omitted: int = 0, csv: str = "") -> Table:
    """A table for the templates: head cells, rows of cells (each row a dict with `cells` and
    a `cls`), how many rows were left out, and a CSV link."""
    h = [c if isinstance(c, dict) else cell(str(c)) for c in head]
    out_rows = []
    for r in rows:
        if isinstance(r, dict):
            out_rows.append(r)
        else:
            out_rows.append({"cls": "", "cells": [c if isinstance(c, dict) else cell(str(c)) for c in r]})
    return {"head": h, "rows": out_rows, "omitted": omitted, "csv": csv}


def unit_label(name: str, words: str) -> str:
    """The header of a column drawn scaled (bit/s -> Mb/s) names the drawn unit."""
    if style.scale(name) == 1.0:
        return words
    if "(bit/s)" in words:
        return words.replace("(bit/s)", "(Mb/s)")
    return f"{words} (Mb/s)"


def _label_words(name: str) -> str:
    """A label column's header: its axis words (without TeX: "$r_i$" reads r_i), else its
    name."""
    try:
        words = style.label(name)
    except KeyError:
        return unit_label(name, name)
    return re.sub(r"\$([^$]*)\$", lambda m: m.group(1).replace("\\", ""), words)


def _scaled(name: str, v: Any) -> Any:
    v = _py(v)
    return v * style.scale(name) if _is_num(v) else v


def _sim_cell(frame: "pd.DataFrame", i: int, c: Compared, cls: str) -> Cell:
    """A simulated value: with the replications' values (`<name>_runs`, when the table has
    them: at most three runs) the mean and each run, "0.79 [0.75, 0.8, 0.82]"; otherwise the
    mean with its 95 % half-width when the runs had a spread."""
    factor = style.scale(c.name)
    v = _number(frame.at[i, c.name]) * factor
    runs = frame.at[i, f"{c.name}_runs"] if f"{c.name}_runs" in frame else None
    if isinstance(runs, (list, tuple)) and len(runs) > 1:
        each = ", ".join(fmt(_number(r) * factor) for r in runs)
        return cell(f"{fmt(v)} [{each}]", True, cls)
    lo, hi = (
        _number(frame.at[i, f"{c.name}_ci_low"]) if f"{c.name}_ci_low" in frame else math.nan,
        _number(frame.at[i, f"{c.name}_ci_high"]) if f"{c.name}_ci_high" in frame else math.nan,
    )
    half = (hi - lo) / 2 * factor
    return cell(plus_minus(v, None if half == 0 else half), True, cls)


def _paper_text(frame: "pd.DataFrame", i: int, name: str) -> str:
    """The published value, scaled; a range (`comparator_<name>` "range" with
    `paper_high_<name>`) as "low..high"."""
    paper = _scaled(name, frame.at[i, f"paper_{name}"])
    comp = _py(frame.at[i, f"comparator_{name}"]) if f"comparator_{name}" in frame else None
    high = _py(frame.at[i, f"paper_high_{name}"]) if f"paper_high_{name}" in frame else None
    if comp == "range" and not _missing(high) and not _missing(paper):
        return f"{fmt(paper)}..{fmt(_scaled(name, high))}"
    return fmt(paper)


def _agrees(frame: "pd.DataFrame", i: int, c: Compared) -> Optional[bool]:
    """Whether row i agrees on metric c: `agrees_<name>` when the table has it, else the gap
    rule (|diff| above FLAG_ABOVE, relative for quantities in cells); None without a value."""
    key = f"agrees_{c.name}"
    if key in frame and not _missing(frame.at[i, key]):
        return bool(_py(frame.at[i, key]))
    d, p = _py(frame.at[i, f"diff_{c.name}"]), _py(frame.at[i, f"paper_{c.name}"])
    if _missing(d) or not _is_num(d):
        return None
    gap = float(abs(d) / abs(p) if c.relative and _is_num(p) and p else abs(d))
    return gap <= FLAG_ABOVE


def _columns(spec: PaperTable, frame: "pd.DataFrame", compared: Sequence[Compared]) -> List[Cell]:
    head = [cell(_label_words(c)) for c in spec.labels]
    for c in compared:
        words = unit_label(c.name, c.label)
        head += [cell(words, True), cell(f"{words} (paper)", True)]
        if f"comparator_{c.name}" in frame:
            head.append(cell("comparator"))
        head.append(cell("diff", True))
    return head


def paper_table(spec: PaperTable, frame: "pd.DataFrame") -> Table:
    """A comparison table for the report: only rows with a published value and only the
    metrics published for at least one of them, bit/s in Mb/s, the comparator as a column when
    present, disagreeing rows marked. `omitted` counts the rows left out, `unpublished` names
    the metrics left out (both are in the CSV)."""
    shown = published_rows(spec, frame)
    compared = published_metrics(spec, frame, shown)
    rows = []
    for i in shown:
        cells = []
        for name in spec.labels:
            v = _scaled(name, frame.at[i, name])
            cells.append(cell(fmt(v), _is_num(v)))
        far = False
        for c in compared:
            ok = _agrees(frame, i, c)
            far = far or ok is False
            cls = "" if ok is None else ("ok" if ok else "far")
            paper = _py(frame.at[i, f"paper_{c.name}"])
            cells.append(_sim_cell(frame, i, c, cls))
            cells.append(cell(_paper_text(frame, i, c.name), _is_num(paper)))
            if f"comparator_{c.name}" in frame:
                comp = _py(frame.at[i, f"comparator_{c.name}"])
                cells.append(cell("" if _missing(comp) or _missing(paper) else str(comp)))
            diff = _py(frame.at[i, f"diff_{c.name}"])
            cells.append(cell(fmt(_scaled(c.name, diff)), _is_num(diff), cls))
        rows.append({"cls": "far" if far else "", "cells": cells})
    out = table(_columns(spec, frame, compared), rows, len(frame) - len(shown))
    out["unpublished"] = (
        [unit_label(c.name, c.label) for c in spec.compared if c not in compared] if shown else []
    )
    return out


# No "|" in headings: it would split a Markdown table cell.
AGREEMENT_HEAD = ["table", "metric", "rows", "mean abs. difference", "within ±0.05", "within ±0.10"]


def agreement_table(report: StudyReport) -> Table:
    """The agreement summary, without the (table, metric) pairs that have no published value;
    with the share of rows that agree with their comparator when the summary has it
    (`agree`)."""
    rows = []
    omitted = 0
    shared = "agree" in report.agreement
    for _, r in report.agreement.iterrows():
        if not r["rows"] or _missing(r["rows"]):
            omitted += 1
            continue
        unit = " (relative)" if r["relative"] else ""
        rows.append(
            [
                cell(str(r["table"])),
                cell(f"{r['metric']}{unit}"),
                cell(str(int(r["rows"])), True),
                cell(fmt(float(r["mean_abs_diff"])), True),
                cell(percent(r["within_0.05"]), True),
                cell(percent(r["within_0.10"]), True),
            ]
            + ([cell(percent(r["agree"]), True)] if shared else [])
        )
    head = AGREEMENT_HEAD + (["agree (comparator)"] if shared else [])
    return table([cell(h, i >= 2) for i, h in enumerate(head)], rows, omitted)


# -- the parts of a study -------------------------------------------------------------------


def settings(rep: Reproduction, code: Callable[[str], str] = str) -> List[str]:
    """The report's settings lines; `code` quotes the user's text (the store path and the
    `--set` values): `md_code` for Markdown, where a backtick in it must not end a code span."""
    lines = [
        f"generated {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(rep.started))}, "
        f"engine {rep.engine_version}, {'quick' if rep.quick else 'full'} mode, "
        f"wall time {rep.wall_s:.0f} s",
        f"results store: {code(str(rep.store))}",
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
    doc = listing(assumptions_of(s.study), stated_of(s.study))
    return [[p["name"], p["value"], p["source"]] for p in doc["stated"]]


def _assumed_rows(s: StudyReport) -> List[List[str]]:
    return [
        [a.name, a.label, fmt_value(a.value), ", ".join(fmt_value(v) for v in a.values), a.how(), a.why]
        for a in assumptions_of(s.study)
        if not a.stated
    ]


def _table_assumptions(s: StudyReport, table_id: str) -> str:
    """One line beside a table: the assumptions its runs rest on, with their values."""
    used = [
        f"{a.name} = {fmt_value(a.value)}"
        for a in assumptions_of(s.study)
        if not a.stated and (not a.tables or table_id in a.tables)
    ]
    return ("Assumed for this table (not stated by the paper): " + "; ".join(used)) if used else ""


def _interval(pair: Any) -> str:
    lo, hi = (float(pair[0]), float(pair[1])) if pair is not None else (math.nan, math.nan)
    return "" if math.isnan(lo) or math.isnan(hi) else f" [{fmt(lo)}, {fmt(hi)}]"


def _effect_rows(s: StudyReport) -> List[List[Cell]]:
    if s.sensitivity is None:
        return []
    rows = []
    for _, r in s.sensitivity.effects.iterrows():
        head = [
            cell(f"{r['label']} – {r['metric_label']}"),
            cell(fmt(float(r["published"])), True),
            cell(str(r["assumption"])),
            cell(f"{fmt(float(r['baseline']))}{_interval(r['baseline_ci'])}", True),
        ]
        if r["swing"] == 0:
            rows.append(head + [cell("same at every value"), cell(""), cell("0", True)])
            continue
        rows.append(
            head
            + [
                cell(f"{fmt(float(r['low']))}{_interval(r['low_ci'])} ({fmt_value(r['low_value'])})", True),
                cell(
                    f"{fmt(float(r['high']))}{_interval(r['high_ci'])} ({fmt_value(r['high_value'])})", True
                ),
                cell(fmt(float(r["swing"])), True),
            ]
        )
    return rows


def note(text: Any) -> Dict[str, str]:
    """A note with the class and label of its verdict."""
    v = note_verdict.verdict(text)
    return {"text": str(text), "cls": v, "label": note_verdict.LABELS[v]}


CLAIM_CLASSES = {"reproduced": "reproduced", "partly": "partly", "not reproduced": "not-reproduced"}


def _field(obj: Any, name: str, default: Any = "") -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def claims(s: StudyReport) -> List[Dict[str, Any]]:
    """The study's main claims with their verdicts: those the reproduction already judged
    (`StudyReport.claims`), else each `Study.claims` entry checked on the results. A check
    that fails is shown as such, not raised."""
    judged = getattr(s, "claims", None)
    out: List[Dict[str, Any]] = []
    if judged:
        for c in judged:
            out.append(_claim_row(c, c))
        return out
    for c in getattr(s.study, "claims", ()) or ():
        try:
            v = c.check(s.results)
        except Exception as err:  # a claim's check must not break the report
            out.append(_claim_row(c, {"verdict": "", "evidence": f"the check failed: {err}", "numbers": {}}))
            continue
        out.append(_claim_row(c, v))
    return out


def _claim_row(claim: Any, verdict: Any) -> Dict[str, Any]:
    v = str(_field(verdict, "verdict"))
    numbers = _field(verdict, "numbers", {}) or {}
    return {
        "name": str(_field(claim, "name")),
        "statement": str(_field(claim, "statement")),
        "source": str(_field(claim, "source")),
        "verdict": v or "check failed",
        "cls": CLAIM_CLASSES.get(v, "failed"),
        "evidence": str(_field(verdict, "evidence")),
        # The scalar numbers; per-row lists and nested parts are in --json (`claims`).
        "numbers": ", ".join(
            f"{k} = {fmt(_py(n))}"
            for k, n in dict(numbers).items()
            if isinstance(_py(n), (int, float, str, bool)) or n is None
        ),
    }


def _rel(path: Path, base: Path) -> str:
    return Path(os.path.relpath(path, base)).as_posix()


def _figure(files: Sequence[Path], caption: str, out_dir: Path) -> Dict[str, str]:
    svg = next((p for p in files if p.suffix == ".svg"), files[0])
    png = next((p for p in files if p.suffix == ".png"), files[0])
    return {"svg": _rel(svg, out_dir), "png": _rel(png, out_dir), "caption": caption}


def _figure_groups(s: StudyReport, sid: str, out_dir: Path) -> List[Dict[str, Any]]:
    titles = {t.id: t.title for t in s.study.tables}
    order = [t.id for t in s.study.tables] + ["traces"]
    groups = []
    for key in order + sorted({f.table for f in s.figures} - set(order)):
        figs = [_figure(f.files, f.caption, out_dir) for f in s.figures if f.table == key and f.files]
        if figs:
            title = "Traces" if key == "traces" else titles.get(key, key)
            groups.append({"id": slug(sid, "figures", key), "title": title, "figs": figs})
    return groups


def morris_frame(s: StudyReport, out_dir: Path) -> Optional["pd.DataFrame"]:
    """The study's Morris elementary effects: `StudyReport.morris` if the reproduction set it,
    else a `morris.csv` in the study's folder or the report folder (rows of this study)."""
    import pandas as pd

    found = getattr(s, "morris", None)  # a morris.Morris (its .frame) or a DataFrame
    frame = getattr(found, "frame", found)
    if frame is not None and not isinstance(frame, pd.DataFrame):
        frame = None
    if frame is None:
        for path in (out_dir / s.study.name / "morris.csv", out_dir / "morris.csv"):
            if path.is_file():
                try:
                    frame = pd.read_csv(path)
                except (OSError, ValueError, pd.errors.ParserError):
                    continue
                break
    if frame is None or not len(frame):
        return None
    if "study" in frame:
        frame = frame[frame["study"] == s.study.name]
    return frame if len(frame) else None


MORRIS_COLUMNS = ["table", "row", "metric", "assumption", "mu_star", "sigma", "mu"]


def _morris(s: StudyReport, out_dir: Path) -> Optional[Dict[str, Any]]:
    frame = morris_frame(s, out_dir)
    figure = None
    for folder in (out_dir / s.study.name, out_dir):
        files = [
            p
            for p in (folder / f"morris-{s.study.name}.svg", folder / f"morris-{s.study.name}.png")
            if p.is_file()
        ]
        if files:
            figure = _figure(
                files,
                "Morris elementary effects: mu* (mean |effect|) against sigma "
                "(spread: interactions or non-linearity), one point per published "
                "number and assumption.",
                out_dir,
            )
            break
    if frame is None and figure is None:
        return None
    factorial = out_dir / s.study.name / "factorial.csv"
    out: Dict[str, Any] = {
        "figure": figure,
        "table": None,
        "notes": [note(n) for n in getattr(getattr(s, "morris", None), "notes", None) or ()],
        "factorial": _rel(factorial, out_dir) if factorial.is_file() else "",
        "csv": "",
    }
    for path in (out_dir / s.study.name / "morris.csv", out_dir / "morris.csv"):
        if path.is_file():
            out["csv"] = _rel(path, out_dir)
            break
    if frame is not None:
        cols = [c for c in MORRIS_COLUMNS if c in frame]
        top = frame.sort_values("mu_star", ascending=False) if "mu_star" in frame else frame
        shown = top.head(MORRIS_ROWS)
        rows = [[cell(fmt(_py(r[c])), _is_num(r[c])) for c in cols] for _, r in shown.iterrows()]
        out["table"] = table(
            [cell(c, c in ("mu_star", "sigma", "mu")) for c in cols], rows, len(frame) - len(shown)
        )
    return out


def _sensitivity(s: StudyReport, out_dir: Path) -> Optional[Dict[str, Any]]:
    sv = s.sensitivity
    morris = _morris(s, out_dir)
    if sv is None and morris is None:
        return None
    out: Dict[str, Any] = {"morris": morris, "one_at_a_time": None}
    if sv is not None:
        tornado = [p for p in s.tornado if p.suffix in (".svg", ".png")]
        out["one_at_a_time"] = {
            "intro": "One assumption at a time, the others at their used values"
            + (
                f", and {sv.combinations} declared combination(s) of assumption values (rows "
                "named A x B), judged by the same joint rule"
                if sv.combinations
                else ""
            )
            + f", {sv.runs} "
            f"replication(s) per point ({sv.computed} runs computed now, {sv.cached} from the "
            f"store). Subset: {sv.why}",
            "table": table(
                [cell(h, h in ("paper", "baseline", "swing")) for h in EFFECT_HEAD], _effect_rows(s)
            ),
            "verdicts": [note(v) for v in verdicts(sv.effects)],
            "notes": [note(n) for n in sv.notes],
            "tornado": _figure(
                tornado,
                "Each bar spans the smallest to the largest mean over the assumption's range (thin "
                "lines: 95 % intervals at the ends); black line: the values used; red dashed: "
                "the published value.",
                out_dir,
            )
            if tornado
            else None,
        }
    return out


def study_context(s: StudyReport, out_dir: Path) -> Dict[str, Any]:
    """Everything one study's section shows, as plain data for the templates."""
    sid = slug(s.study.name)
    tables: List[Table] = []
    empty: List[Table] = []
    for spec in s.study.tables:
        frame = s.results.tables.get(spec.id)
        if frame is None or not len(frame):
            continue
        t = paper_table(spec, frame)
        t.update(
            id=slug(sid, "table", spec.id),
            title=spec.title,
            csv=f"{s.study.name}/table-{spec.id}.csv",
            assumptions=_table_assumptions(s, spec.id),
            figures=slug(sid, "figures", spec.id)
            if any(f.table == spec.id and f.files for f in s.figures)
            else "",
        )
        (tables if t["rows"] else empty).append(t)
    stated, assumed = _stated_rows(s), _assumed_rows(s)
    ctx: Dict[str, Any] = {
        "id": sid,
        "name": s.study.name,
        "title": s.study.title,
        "citation": s.study.citation,
        "counts": _study_counts(s),
        "claims": claims(s),
        "agreement": agreement_table(s),
        "tables": tables,
        "unpublished_tables": empty,
        "notes": [note(n) for n in s.notes],
        "figures": _figure_groups(s, sid, out_dir),
        "sensitivity": _sensitivity(s, out_dir),
        "stated": table(STATED_HEAD, stated) if stated else None,
        "assumed": table(ASSUMED_HEAD, assumed) if assumed else None,
        "flag_above": f"{FLAG_ABOVE:g}",
    }
    sections = [
        ("claims", "Main claims of the paper", bool(ctx["claims"])),
        ("agreement", "Agreement with the paper", True),
    ]
    sections += [("tables", "Paper tables", bool(tables or empty))]
    sections += [
        ("notes", "Notes", bool(ctx["notes"])),
        ("figures", "Figures", bool(ctx["figures"])),
        ("sensitivity", "Sensitivity to the assumptions", ctx["sensitivity"] is not None),
        ("assumptions", "Stated and assumed parameters", bool(stated or assumed)),
    ]
    ctx["sections"] = [
        {"id": slug(sid, key), "key": key, "title": title} for key, title, shown in sections if shown
    ]
    ctx["section_ids"] = {sec["key"]: sec["id"] for sec in ctx["sections"]}
    return ctx


# -- engine checks --------------------------------------------------------------------------


CHECK_FIELDS = ("name", "source", "expected", "measured", "tolerance", "passed")


def load_checks(out_dir: Path) -> Optional[List[Dict[str, Any]]]:
    """The engine checks in `validate.json` of the report folder (`atmsim validate --json`:
    {"checks": [...]}, or the list itself); None when there is no such file or it cannot be
    read as that."""
    path = out_dir / "validate.json"
    if not path.is_file():
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    found = doc.get("checks") if isinstance(doc, dict) else doc
    return [c for c in found if isinstance(c, dict)] if isinstance(found, list) else None


def checks_context(checks: Optional[Sequence[Any]]) -> Optional[Dict[str, Any]]:
    """The "Engine against theory" section from check records (dicts or objects with
    `as_dict()` or the fields {name, source, expected, measured, tolerance, passed})."""
    if not checks:
        return None
    rows = []
    passed = 0
    for c in checks:
        d = c.as_dict() if hasattr(c, "as_dict") else c
        ok = bool(_field(d, "passed", False))
        passed += ok
        rows.append(
            {
                "cls": "ok" if ok else "far",
                "cells": [
                    cell(str(_field(d, "name"))),
                    cell(str(_field(d, "source"))),
                    cell(fmt(_py(_field(d, "expected", None))), _is_num(_field(d, "expected", None))),
                    cell(fmt(_py(_field(d, "measured", None))), _is_num(_field(d, "measured", None))),
                    cell(fmt(_py(_field(d, "tolerance", None))), _is_num(_field(d, "tolerance", None))),
                    cell("pass" if ok else "FAIL", False, "ok" if ok else "far"),
                ],
            }
        )
    head = [cell("check"), cell("formula or source"), cell("expected", True), cell("measured", True)]
    head += [cell("tolerance", True), cell("result")]
    return {
        "id": "engine-against-theory",
        "title": "Engine against theory",
        "table": table(head, rows),
        "summary": f"{passed} of {len(rows)} checks pass",
    }


# -- the page -------------------------------------------------------------------------------


def context(rep: Reproduction, out_dir: Path, checks: Optional[Sequence[Any]] = None) -> Dict[str, Any]:
    """The data both documents are rendered from."""
    studies = [study_context(s, out_dir) for s in rep.studies]
    engine = checks_context(checks if checks is not None else load_checks(out_dir))
    toc = [
        {"id": s["id"], "title": f"{s['title']} ({s['name']})", "children": s["sections"]} for s in studies
    ]
    if engine is not None:
        toc.append({"id": engine["id"], "title": engine["title"], "children": []})
    return {
        "title": "atmsim reproduction report",
        "settings": settings(rep),
        "md_settings": settings(rep, md_code),
        "studies": studies,
        "engine": engine,
        "toc": toc,
        "verdicts": [(v, note_verdict.LABELS[v]) for v in note_verdict.VERDICTS],
    }


def html_page(rep: Reproduction, out_dir: Path, checks: Optional[Sequence[Any]] = None) -> str:
    return environment().get_template("report.html.j2").render(context(rep, out_dir, checks))


def markdown(rep: Reproduction, out_dir: Path, checks: Optional[Sequence[Any]] = None) -> str:
    return _tidy(environment().get_template("report.md.j2").render(context(rep, out_dir, checks)))


def _tidy(md: str) -> str:
    """Markdown without trailing spaces or runs of blank lines."""
    lines = [line.rstrip() for line in md.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n") + "\n"


def write(rep: Reproduction, out_dir: Path, checks: Optional[Sequence[Any]] = None) -> List[Path]:
    """Write index.html, README.md and the CSV files; return what was written. `checks`: the
    engine's checks against theory (else `validate.json` in out_dir, if there)."""
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
    ctx = context(rep, out_dir, checks)
    env = environment()
    for name, template in (("README.md", "report.md.j2"), ("index.html", "report.html.j2")):
        path = out_dir / name
        page = env.get_template(template).render(ctx)
        path.write_text(_tidy(page) if name.endswith(".md") else page, encoding="utf-8")
        written.append(path)
    return written
