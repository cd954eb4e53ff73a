"""A paper's main claims as checks over a reproduction (ACM artifact review, "Results
Reproduced": the main results obtained independently "such that the main claims of the paper
are validated").

A `Claim` is one qualitative conclusion of a paper, in the paper's own words (`statement`,
with `source` the section, figure or table it is drawn from), and a `check` that reads the
study's comparison tables (`StudyResults.tables`: per table the label columns, each compared
metric's mean over the replications and the published value `paper_<name>`) and returns a
`ClaimVerdict`: one of `reproduced`, `partly`, `not reproduced` or `not run`, the evidence in
one sentence and the numbers behind it.

The verdict rule (every check here goes through `verdict`):

- A claim is a relation over a family of rows: "A > B" between two policies matched row by
  row ("EPD > UBR in efficiency, per configuration and buffer"), a value against a bound
  ("efficiency >= 0.99"), or a trend along one label ("goodput increases with MSS": each
  consecutive pair). A row counts when the simulated means (over the replications) satisfy
  the relation. The same relation is evaluated on the paper's own published values where the
  table has them: a paper's conclusion is often drawn from numbers that do not all satisfy
  it (UBR+ Table 2: EPD's efficiency is below UBR's in 3 of its 12 rows).
- **reproduced**: the relation holds in every row, or in at least the share of rows it holds
  in on the paper's own published values, and in the family mean unless the paper's own
  family mean fails it too (so the paper's own numbers always reproduce its claims);
- **partly**: it holds in the family mean, or in more than half of the rows;
- **not reproduced**: otherwise;
- **not run**: no row of the family is in the run (`--quick` or `--tables` left it out).

A claim made of several relations ("FBA further improves both throughput and fairness")
combines its parts: reproduced if every part run is, not reproduced if none is even partly,
partly otherwise; not run if no part ran. Where a check needs a tolerance ("close to 1", "very
close to a theoretical bound") it is stated in the claim's `statement` after the quotation
and fixed before looking at the simulated values: the paper's printed precision, the spread
of the paper's own values, or where it gives neither a round value said to be ours (Gerla's
"very close": 10 %). Rows count on their means: with few replications a difference inside the
noise still counts, so `numbers` carries every row's values (`per_row`) for a reader to
weigh.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..numbers import fmt

if TYPE_CHECKING:
    import pandas as pd

    from .registry import StudyResults

REPRODUCED = "reproduced"
PARTLY = "partly"
NOT_REPRODUCED = "not reproduced"
NOT_RUN = "not run"
VERDICTS = (REPRODUCED, PARTLY, NOT_REPRODUCED, NOT_RUN)

_OPS: Dict[str, Callable[[float, float], bool]] = {
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
}


@dataclass(frozen=True)
class ClaimVerdict:
    verdict: str
    evidence: str
    numbers: Dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"claim verdict: {self.verdict!r} is not one of {', '.join(VERDICTS)}")


@dataclass(frozen=True)
class Claim:
    """name: short identifier; statement: the paper's words (a quotation) and, after it, any
    tolerance the check uses; source: where the paper says it; check: the test."""

    name: str
    statement: str
    source: str
    check: Callable[["StudyResults"], ClaimVerdict]

    def evaluate(self, results: "StudyResults") -> ClaimVerdict:
        return self.check(results)


@dataclass(frozen=True)
class Side:
    """One side of a relation: a table's metric on the rows matching `where` (label ->
    value), or a constant bound."""

    table: str = ""
    metric: str = ""
    where: Tuple[Tuple[str, Any], ...] = ()
    constant: Optional[float] = None
    name: str = ""

    def describe(self) -> str:
        if self.constant is not None:
            return fmt(self.constant)
        if self.name:
            return self.name
        return ", ".join(f"{k}={v}" for k, v in self.where) or self.table


def side(table: str, metric: str, name: str = "", **where: Any) -> Side:
    return Side(table, metric, tuple(sorted(where.items())), None, name)


def bound(value: float) -> Side:
    return Side(constant=float(value))


@dataclass
class Relation:
    """A relation evaluated row by row: n rows, k where the simulated means satisfy it,
    k_paper / n_paper on the published values, and the family means of each side."""

    description: str
    n: int = 0
    k: int = 0
    n_paper: int = 0
    k_paper: int = 0
    mean_a: float = math.nan
    mean_b: float = math.nan
    paper_mean_a: float = math.nan
    paper_mean_b: float = math.nan
    mean_holds: Optional[bool] = None
    paper_mean_holds: Optional[bool] = None
    bound: bool = False
    rows: List[Dict[str, Any]] = field(default_factory=list)

    def numbers(self) -> Dict[str, Any]:
        return {
            "relation": self.description,
            "rows": self.n,
            "holds": self.k,
            "paper_rows": self.n_paper,
            "paper_holds": self.k_paper,
            "mean_a": _num(self.mean_a),
            "mean_b": _num(self.mean_b),
            "paper_mean_a": _num(self.paper_mean_a),
            "paper_mean_b": _num(self.paper_mean_b),
            "per_row": self.rows,
        }


def _num(v: float) -> Optional[float]:
    return None if v is None or math.isnan(v) else float(v)


def _select(frame: "pd.DataFrame", where: Sequence[Tuple[str, Any]]) -> "pd.DataFrame":
    out = frame
    for key, value in where:
        if key not in out.columns:
            return out.iloc[0:0]
        if callable(value):
            mask = out[key].map(value).astype(bool)
        elif isinstance(value, (list, tuple, set, frozenset)):
            mask = out[key].isin(list(value))
        else:
            mask = out[key] == value
        out = out[mask]
    return out


def _values(
    results: "StudyResults", s: Side, on: Sequence[str]
) -> Optional[Dict[Tuple[Any, ...], Tuple[float, float]]]:
    """Per join key: (simulated mean, published value) of one side; None if its table or
    metric is not in the run."""
    frame = results.tables.get(s.table)
    if frame is None or s.metric not in frame.columns:
        return None
    chosen = _select(frame, s.where)
    paper = f"paper_{s.metric}"
    out: Dict[Tuple[Any, ...], Tuple[float, float]] = {}
    for _, row in chosen.iterrows():
        key = tuple(_plain(row[c]) if c in chosen.columns else None for c in on)
        sim = _float(row[s.metric])
        pub = _float(row[paper]) if paper in chosen.columns else math.nan
        out[key] = (sim, pub)
    return out


def _plain(v: Any) -> Any:
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _float(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def relation(
    results: "StudyResults",
    a: Side,
    op: str,
    b: Side,
    on: Sequence[str] = (),
    factor: float = 1.0,
    description: str = "",
) -> Relation:
    """`a op factor * b` row by row, rows matched on the `on` label columns (a constant `b`
    needs none). The family means are over the rows where both sides have a simulated
    value."""
    if op not in _OPS:
        raise ValueError(f"claim relation: unknown operator {op!r}")
    test = _OPS[op]
    scale = f"{fmt(factor)} x " if factor != 1.0 else ""
    rel = Relation(description or f"{a.describe()} {op} {scale}{b.describe()} ({a.metric or b.metric})")
    rel.bound = b.constant is not None
    left = _values(results, a, on)
    if left is None:
        return rel
    if b.constant is not None:
        right: Dict[Tuple[Any, ...], Tuple[float, float]] = dict.fromkeys(left, (b.constant, b.constant))
    else:
        got = _values(results, b, on)
        if got is None:
            return rel
        right = got
    sims_a, sims_b, pubs_a, pubs_b = [], [], [], []
    for key, (sa, pa) in left.items():
        if key not in right:
            continue
        sb, pb = right[key]
        row: Dict[str, Any] = dict(zip(on, key))
        if not (math.isnan(sa) or math.isnan(sb)):
            rel.n += 1
            ok = test(sa, factor * sb)
            rel.k += int(ok)
            sims_a.append(sa)
            sims_b.append(sb)
            row.update(a=sa, b=sb, holds=bool(ok))
        if not (math.isnan(pa) or math.isnan(pb)):
            rel.n_paper += 1
            pok = test(pa, factor * pb)
            rel.k_paper += int(pok)
            pubs_a.append(pa)
            pubs_b.append(pb)
            row.update(paper_a=pa, paper_b=pb, paper_holds=bool(pok))
        if len(row) > len(on):
            rel.rows.append(row)
    if sims_a:
        rel.mean_a = sum(sims_a) / len(sims_a)
        rel.mean_b = sum(sims_b) / len(sims_b)
        rel.mean_holds = test(rel.mean_a, factor * rel.mean_b)
    if pubs_a:
        rel.paper_mean_a = sum(pubs_a) / len(pubs_a)
        rel.paper_mean_b = sum(pubs_b) / len(pubs_b)
        rel.paper_mean_holds = test(rel.paper_mean_a, factor * rel.paper_mean_b)
    return rel


def trend(
    results: "StudyResults",
    table: str,
    metric: str,
    along: str,
    increasing: bool = True,
    by: Sequence[str] = (),
    description: str = "",
    **where: Any,
) -> Relation:
    """Each consecutive pair along `along` (sorted), within groups of `by`: the later value
    above (below, with increasing=False) the earlier one. The family means are of the first
    and last point of each group."""
    word = "increases" if increasing else "decreases"
    rel = Relation(description or f"{metric} {word} with {along}")
    frame = results.tables.get(table)
    if frame is None or metric not in frame.columns or along not in frame.columns:
        return rel
    chosen = _select(frame, tuple(sorted(where.items())))
    paper = f"paper_{metric}"
    firsts, lasts, pfirsts, plasts = [], [], [], []
    groups = chosen.groupby(list(by), sort=False, dropna=False) if by else [((), chosen)]
    test = operator.gt if increasing else operator.lt
    for key, g in groups:
        g = g.sort_values(along)
        sims = [_float(v) for v in g[metric]]
        pubs = [_float(v) for v in g[paper]] if paper in g.columns else [math.nan] * len(g)
        xs = [_plain(v) for v in g[along]]
        keys = key if isinstance(key, tuple) else (key,)
        for i in range(1, len(g)):
            row: Dict[str, Any] = {c: _plain(v) for c, v in zip(by, keys)}
            row.update({f"{along}_from": xs[i - 1], f"{along}_to": xs[i]})
            if not (math.isnan(sims[i]) or math.isnan(sims[i - 1])):
                rel.n += 1
                ok = test(sims[i], sims[i - 1])
                rel.k += int(ok)
                row.update(a=sims[i - 1], b=sims[i], holds=bool(ok))
            if not (math.isnan(pubs[i]) or math.isnan(pubs[i - 1])):
                rel.n_paper += 1
                pok = test(pubs[i], pubs[i - 1])
                rel.k_paper += int(pok)
                row.update(paper_a=pubs[i - 1], paper_b=pubs[i], paper_holds=bool(pok))
            rel.rows.append(row)
        valid = [s for s in sims if not math.isnan(s)]
        if len(valid) >= 2:
            firsts.append(valid[0])
            lasts.append(valid[-1])
        pvalid = [p for p in pubs if not math.isnan(p)]
        if len(pvalid) >= 2:
            pfirsts.append(pvalid[0])
            plasts.append(pvalid[-1])
    if firsts:
        # "a" is the start of the trend, "b" its end: the mean relation is b vs a.
        rel.mean_a = sum(firsts) / len(firsts)
        rel.mean_b = sum(lasts) / len(lasts)
        rel.mean_holds = test(rel.mean_b, rel.mean_a)
    if pfirsts:
        rel.paper_mean_a = sum(pfirsts) / len(pfirsts)
        rel.paper_mean_b = sum(plasts) / len(plasts)
        rel.paper_mean_holds = test(rel.paper_mean_b, rel.paper_mean_a)
    return rel


def verdict(rel: Relation) -> str:
    """The rule of the module docstring for one relation."""
    if rel.n == 0:
        return NOT_RUN
    if rel.k == rel.n:
        return REPRODUCED
    if (
        rel.n_paper
        and rel.k * rel.n_paper >= rel.k_paper * rel.n
        and (rel.mean_holds or not rel.paper_mean_holds)
    ):
        return REPRODUCED
    if rel.mean_holds or rel.k > rel.n / 2:
        return PARTLY
    return NOT_REPRODUCED


def combine(verdicts: Sequence[str]) -> str:
    """Several parts: reproduced if every part that ran is, not reproduced if none is even
    partly, partly otherwise; not run if none ran."""
    ran = [v for v in verdicts if v != NOT_RUN]
    if not ran:
        return NOT_RUN
    if all(v == REPRODUCED for v in ran):
        return REPRODUCED
    if all(v == NOT_REPRODUCED for v in ran):
        return NOT_REPRODUCED
    return PARTLY


def _short(v: float) -> str:
    """A mean for a sentence: three significant digits for large quantities (bit/s)."""
    return f"{v:.3g}" if abs(v) >= 1e5 else fmt(v)


def evidence(rel: Relation) -> str:
    """One sentence: "EPD > UBR (efficiency): 5 of 6 rows (paper 6 of 6); means 0.62 vs 0.45
    (paper 0.69 vs 0.36)"."""
    if rel.n == 0:
        return f"{rel.description}: no row of it in this run"
    text = f"{rel.description}: {rel.k} of {rel.n} rows"
    if rel.n_paper:
        text += f" (paper {rel.k_paper} of {rel.n_paper})"
    if not math.isnan(rel.mean_a) and rel.bound:
        text += f"; mean {_short(rel.mean_a)}"
        if not math.isnan(rel.paper_mean_a):
            text += f" (paper {_short(rel.paper_mean_a)})"
    elif not math.isnan(rel.mean_a):
        text += f"; means {_short(rel.mean_a)} vs {_short(rel.mean_b)}"
        if not math.isnan(rel.paper_mean_a):
            text += f" (paper {_short(rel.paper_mean_a)} vs {_short(rel.paper_mean_b)})"
    return text


def judge(*relations: Relation) -> ClaimVerdict:
    """A claim's verdict from its relations (one or several parts)."""
    parts = [verdict(r) for r in relations]
    if len(relations) == 1:
        return ClaimVerdict(parts[0], evidence(relations[0]), relations[0].numbers())
    numbers = {"parts": [dict(r.numbers(), verdict=v) for r, v in zip(relations, parts)]}
    text = "; ".join(f"{evidence(r)} [{v}]" for r, v in zip(relations, parts))
    return ClaimVerdict(combine(parts), text, numbers)


def evaluate(claims: Sequence[Claim], results: "StudyResults") -> List[Tuple[Claim, ClaimVerdict]]:
    """Every claim's verdict. A check that fails on a table it did not expect (a column
    missing) is a verdict too, not a crash of the reproduction."""
    out = []
    for c in claims:
        try:
            v = c.evaluate(results)
        except (KeyError, ValueError, TypeError, IndexError) as err:
            v = ClaimVerdict(NOT_RUN, f"the check could not read the run: {type(err).__name__}: {err}")
        out.append((c, v))
    return out


def claims_of(study: Any) -> List[Claim]:
    return list(getattr(study, "claims", ()) or ())


def records(study: Any, results: "StudyResults") -> List[Dict[str, Any]]:
    """The `claims` of `reproduce --json`: name, statement, source, verdict, evidence,
    numbers."""
    return [
        {
            "name": c.name,
            "statement": c.statement,
            "source": c.source,
            "verdict": v.verdict,
            "evidence": v.evidence,
            "numbers": v.numbers,
        }
        for c, v in evaluate(claims_of(study), results)
    ]


def render(study: Any, results: "StudyResults") -> str:
    """The claims block of the terminal output (empty if the study lists none)."""
    found = evaluate(claims_of(study), results)
    if not found:
        return ""
    counts = {v: sum(1 for _, x in found if x.verdict == v) for v in VERDICTS}
    summary = ", ".join(f"{n} {v}" for v, n in counts.items() if n)
    lines = [f"Main claims of the paper ({summary}; rule: atmsim.studies.claims)"]
    for c, v in found:
        lines.append(f"  [{v.verdict}] {c.name}: {c.statement} ({c.source})")
        lines.append(f"      {v.evidence}")
    return "\n".join(lines)


def frame(study: Any, results: "StudyResults") -> "pd.DataFrame":
    """The claims as a table (for the report and CSV): name, source, verdict, evidence."""
    import pandas as pd

    rows = [
        {k: r[k] for k in ("name", "statement", "source", "verdict", "evidence")}
        for r in records(study, results)
    ]
    return pd.DataFrame(rows, columns=["name", "statement", "source", "verdict", "evidence"])
