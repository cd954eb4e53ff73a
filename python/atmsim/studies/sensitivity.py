"""`atmsim reproduce NAME --sensitivity`: how much each unstated parameter moves each
published number.

Design: one at a time. Every assumption of the study (`assumptions.py`) is swept over its
plausible range while the others stay at the values the study uses, each point with the same
replications as the reproduction, on a subset of the study's experiments that the study
declares (the full study times every assumption would take days). The baseline points are
the reproduction's own runs, so the store already holds them.

One at a time says what a reproduction needs to say ("this published number moves from a to
b when assumption X ranges over its plausible values, with this 95 % interval at each end") at
a cost of (sum of range sizes) runs per experiment and replication, but it cannot see
interactions. Those are `--morris` (`morris.py`): SALib's Morris elementary effects over all
assumptions jointly (mu*, sigma per published number), then a full factorial of the strongest
pair or of the assumptions `--factorial` names.

The outcome per published number and assumption: the mean at each value with its interval,
the smallest and largest mean over the range (the tornado bar), and the verdicts.

Verdicts are joint (`verdicts`). A published number the baseline does not agree with
(studies/comparators.py: a bound not satisfied, a point further than half its printed unit and
the replications' 95 % half-width, the tolerance fixed before looking) is "explained by X = v"
only if at that one value every published number of its family agrees: the rows the paper
reports together, the table id or the study's declared `family(experiment)` (Goyal: one
experiment of a table), over the rows of the sensitivity subset; the numbers the value moves
further from the paper are named. Agreement by a wide interval alone is noise: the value's
mean must also close at least a quarter of the number's gap and not add to the family's total
distance. One value lands near almost any single number when 8-10
assumptions of 2-8 values are swept; a whole family is a test. Otherwise the verdict is "not
explained: a model question", with the closest value and the numbers it leaves out.

Declared combinations: a study may declare combinations of assumption values
(`sensitivity_combinations()`, a list of `assumptions.Combination`: CLASS's phase model x tie
order x arrivals, UBR+'s phase model x tie order), where one value alone cannot show an
interaction (under random phases the tie order is inert). Each combination is one more sweep
point per experiment, named `A x B` with the value `a x b`, in the points, effects, CSV and
report like a single value, and judged by the same joint rule: "explained by combination A x
B = a x b" only if the whole family agrees at it. `--factorial` (morris.py) runs a full
factorial for inspection; only declared combinations enter the verdicts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, cast

from ..figure_style import bounded
from ..literals import value_of
from ..plan import Point
from ..plots import save
from ..store import Store
from ..sweeps import execute
from ..tables import summarize
from . import comparators
from .assumptions import Assumption, Combination, Pairs, concrete, document, expand, fmt_value
from .registry import Experiment, Study

if TYPE_CHECKING:
    import pandas as pd

BASELINE = "(baseline)"


@dataclass(frozen=True)
class Subset:
    """The experiments a study's sensitivity runs on, and why those."""

    experiments: Sequence[Experiment]
    why: str


@dataclass(frozen=True)
class Variant:
    """One sensitivity point: an experiment with one assumption at one value (or none:
    the baseline)."""

    experiment: int
    assumption: str
    value: Any
    point: Point


@dataclass
class Sensitivity:
    """What `run` measured.

    points: one row per (variant, compared metric): experiment, table, label, metric,
    assumption, value, n, mean, ci_low, ci_high, published. effects: one row per (experiment,
    metric, assumption): baseline, low/high means with their values and intervals, swing,
    and the value that comes closest to the published number (and whether within reach).
    """

    why: str
    runs: int
    points: "pd.DataFrame"
    effects: "pd.DataFrame"
    notes: List[str] = field(default_factory=list)
    computed: int = 0
    cached: int = 0
    combinations: int = 0


def subset(study: Study, quick: bool) -> Subset:
    """The study's declared subset (`sensitivity_subset(quick)`), or, if it declares none,
    its first quick experiment, said so."""
    declared = getattr(study, "sensitivity_subset", None)
    if declared is not None:
        s: Subset = declared(quick)
        return s
    return Subset(study.experiments(True)[:1], "the study declares no subset: its first --quick experiment")


def label(exp: Experiment) -> str:
    return f"{exp.table}: " + ", ".join(f"{k}={fmt_value(v)}" for k, v in exp.labels.items())


def _consistent(a: Assumption, doc: Dict[str, Any]) -> Optional[str]:
    """A note if the scenario holds another value than the one the assumption declares."""
    if a.apply is not None:
        return None
    for key in a.keys:
        for path in expand(key, doc):
            node: Any = doc
            for part in path.split("."):
                if isinstance(node, list) and part.isdigit() and int(part) < len(node):
                    node = node[int(part)]
                elif isinstance(node, dict) and part in node:
                    node = node[part]
                else:
                    node = None
                    break
            if (
                node is not None
                and not isinstance(node, (dict, list))
                and node != a.value
                and not (
                    isinstance(node, (int, float))
                    and isinstance(a.value, (int, float))
                    and float(node) == float(a.value)
                )
            ):
                return (
                    f"assumption {a.name}: the scenario has {path} = {node!r}, the "
                    f"declaration says {a.value!r}"
                )
    return None


def plan(
    study: Study,
    experiments: Sequence[Experiment],
    assumptions: Sequence[Assumption],
    extra: Pairs = (),
    combos: Sequence[Combination] = (),
) -> Tuple[List[Variant], List[str]]:
    """The baseline of every experiment, then every (assumption, value != used) of every
    experiment it applies to, then every declared combination (`combos`) whose assumptions
    all apply to it; and notes (assumptions that do not apply, declarations the scenario
    contradicts, a combination whose assumptions set one key twice)."""
    variants: List[Variant] = []
    notes: List[str] = []
    by_name = {a.name: a for a in assumptions}
    for i, exp in enumerate(experiments):
        own = tuple(exp.scenario.overrides) + tuple(exp.overrides)
        fixed_here = concrete(tuple(extra), exp.scenario.text, own)
        base = own + fixed_here
        params: Dict[str, Any] = {"study": study.name, "table": exp.table, **exp.labels}
        params.update({k: value_of(v) for k, v in extra})
        variants.append(Variant(i, BASELINE, None, Point(exp.scenario, base, dict(params))))
        doc = document(exp.scenario.text, base)
        for a in assumptions:
            if a.tables and exp.table not in a.tables:
                continue
            note = _consistent(a, doc)
            if note is not None and note not in notes:
                notes.append(note)
            for v in a.values:
                if v == a.value:
                    continue  # the baseline
                pairs = a.overrides(doc, v)
                fixed = sorted({k for k, _ in pairs} & {k for k, _ in fixed_here})
                if fixed:
                    msg = (
                        f"assumption {a.name}: not swept, {', '.join(fixed)} is fixed for "
                        f"every run by the command line"
                    )
                    if msg not in notes:
                        notes.append(msg)
                    break
                if not pairs:
                    msg = f"assumption {a.name}: nothing to set in {label(exp)}"
                    if msg not in notes:
                        notes.append(msg)
                    break
                p = dict(params, sensitivity=a.name, sensitivity_value=v)
                variants.append(Variant(i, a.name, v, Point(exp.scenario, base + pairs, p)))
        for c in combos:
            pairs = _combined(c, by_name, exp, doc, {k for k, _ in fixed_here}, notes)
            if pairs:
                p = dict(params, sensitivity=c.name, sensitivity_value=c.value)
                variants.append(Variant(i, c.name, c.value, Point(exp.scenario, base + pairs, p)))
    return variants, notes


def _combined(
    c: Combination,
    by_name: Dict[str, Assumption],
    exp: Experiment,
    doc: Dict[str, Any],
    fixed: set[str],
    notes: List[str],
) -> Pairs:
    """The overrides that give every assumption of `c` its value in `exp` (those at their used
    value set nothing), or () with a note when the combination does not apply there: one of
    its assumptions is undeclared, for other tables, sets nothing or sets a key the command
    line fixes. Two of them setting one key: the later wins, noted."""
    merged: Dict[str, str] = {}
    owner: Dict[str, str] = {}

    def skip(why: str) -> Pairs:
        msg = f"combination {c.name} = {c.value}: {why}"
        if msg not in notes:
            notes.append(msg)
        return ()

    for name, v in c.settings:
        a = by_name.get(name)
        if a is None:
            return skip(f"{name} is not a declared assumption")
        if a.tables and exp.table not in a.tables:
            return ()  # not this table's: the combination is not this experiment's either
        if _eq(v, a.value):
            continue
        pairs = a.overrides(doc, v)
        if not pairs:
            return skip(f"{name} = {fmt_value(v)} sets nothing in {label(exp)}")
        taken = sorted({k for k, _ in pairs} & fixed)
        if taken:
            return skip(f"not run, {', '.join(taken)} is fixed for every run by the command line")
        for key, raw in pairs:
            if key in owner and owner[key] != name:
                msg = f"combination {c.name}: {owner[key]} and {name} both set {key}: {name} wins"
                if msg not in notes:
                    notes.append(msg)
            merged[key] = raw
            owner[key] = name
    return tuple(merged.items())


def _rows(
    study: Study,
    experiments: Sequence[Experiment],
    variants: Sequence[Variant],
    stats: "pd.DataFrame",
    assumptions: Sequence[Assumption],
    combos: Sequence[Combination] = (),
) -> List[Dict[str, Any]]:
    specs = {t.id: t for t in study.tables}
    used = used_values(assumptions, combos)
    by_point: Dict[int, Any] = {int(cast(Any, p)): g.set_index("metric") for p, g in stats.groupby("point")}
    rows: List[Dict[str, Any]] = []
    for j, var in enumerate(variants):
        exp = experiments[var.experiment]
        spec = specs.get(exp.table)
        if spec is None or j not in by_point:
            continue
        est = by_point[j]
        for c in spec.compared:
            if c.metric not in est.index:
                continue
            r: Any = est.loc[c.metric]
            # The interval cut to the values the quantity can take, as everywhere else.
            lo, hi = float(r["ci_low"]), float(r["ci_high"])
            if not (math.isnan(lo) or math.isnan(hi)):
                lo, hi = bounded(c.name, lo, hi)
            rows.append(
                {
                    "experiment": var.experiment,
                    "table": exp.table,
                    "family": family_of(study, exp),
                    "comparator": exp.comparator(c.name),
                    "unit": c.unit,
                    "published_high": exp.high(c.name),
                    "label": label(exp),
                    "metric": c.name,
                    "metric_label": c.label,
                    "relative": c.relative,
                    "assumption": var.assumption,
                    "value": var.value,
                    "n": int(r["n"]),
                    "mean": float(r["mean"]),
                    "ci_low": lo,
                    "ci_high": hi,
                    "published": _float(exp.published.get(c.name)),
                }
            )
    # The baseline is each assumption's (and combination's) used value: copy it into every
    # sweep that ran on its experiment.
    out = list(rows)
    swept = {(o["assumption"], o["experiment"]) for o in rows}
    for base_row in rows:
        if base_row["assumption"] != BASELINE:
            continue
        for name, value in used.items():
            if (name, base_row["experiment"]) in swept:
                out.append(dict(base_row, assumption=name, value=value))
    return out


def used_values(assumptions: Sequence[Assumption], combos: Sequence[Combination] = ()) -> Dict[str, Any]:
    """The value each assumption, and each declared combination (by its name), is used at."""
    used: Dict[str, Any] = {a.name: a.value for a in assumptions}
    for c in combos:
        used[c.name] = c.used(assumptions)
    return used


def combinations_of(study: Study, assumptions: Sequence[Assumption]) -> List[Combination]:
    """The study's declared combinations (`sensitivity_combinations()`; none if it declares
    none), checked against its assumptions (`assumptions.check_combinations`)."""
    from .assumptions import check_combinations

    declared = getattr(study, "sensitivity_combinations", None)
    combos: List[Combination] = list(declared()) if declared is not None else []
    check_combinations(combos, assumptions)
    return combos


def family_of(study: Study, exp: Experiment) -> str:
    """The rows the paper reports together with `exp`: the study's `family(exp)` if it
    declares one, else the table id."""
    declared = getattr(study, "family", None)
    return str(declared(exp)) if declared is not None else exp.table


def _float(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def effects(points: "pd.DataFrame", used: Dict[str, Any]) -> "pd.DataFrame":
    """Per (experiment, metric, assumption): the tornado bar and what explains the gap."""
    import pandas as pd

    cols = [
        "experiment",
        "table",
        "label",
        "metric",
        "metric_label",
        "relative",
        "published",
        "assumption",
        "used",
        "baseline",
        "baseline_ci",
        "low",
        "low_value",
        "low_ci",
        "high",
        "high_value",
        "high_ci",
        "swing",
        "closest_value",
        "closest_mean",
        "reaches",
    ]
    out: List[Dict[str, Any]] = []
    if not len(points):
        return pd.DataFrame(columns=cols)
    swept = points[points["assumption"] != BASELINE]
    key: Any
    for key, g in swept.groupby(["experiment", "metric", "assumption"], sort=False):
        e, m, a = key
        g = g[g["mean"].notna()]
        if not len(g):
            continue
        first = g.iloc[0]
        used_value = used.get(a)
        at_used = g["value"].apply(lambda v, u=used_value: _eq(v, u))
        base = g[at_used]
        lo: Any = g.loc[cast(Any, g["mean"].idxmin())]
        hi: Any = g.loc[cast(Any, g["mean"].idxmax())]
        pub = float(first["published"])
        # The value closest to the paper among those the study does not use.
        others = g[~at_used]
        closest: Any = (
            others.loc[cast(Any, (others["mean"] - pub).abs().idxmin())]
            if not math.isnan(pub) and len(others)
            else None
        )
        reaches = bool(closest is not None and _within(pub, closest))
        out.append(
            {
                "experiment": e,
                "table": first["table"],
                "label": first["label"],
                "metric": m,
                "metric_label": first["metric_label"],
                "relative": bool(first["relative"]),
                "published": pub,
                "assumption": a,
                "used": used.get(a),
                "baseline": float(base["mean"].iloc[0]) if len(base) else float("nan"),
                "baseline_ci": (float(base["ci_low"].iloc[0]), float(base["ci_high"].iloc[0]))
                if len(base)
                else (float("nan"), float("nan")),
                "low": float(lo["mean"]),
                "low_value": lo["value"],
                "low_ci": (float(lo["ci_low"]), float(lo["ci_high"])),
                "high": float(hi["mean"]),
                "high_value": hi["value"],
                "high_ci": (float(hi["ci_low"]), float(hi["ci_high"])),
                # Means equal but for float rounding (sums in another order) count as no swing.
                "swing": _swing(float(lo["mean"]), float(hi["mean"])),
                "closest_value": None if closest is None else closest["value"],
                "closest_mean": float("nan") if closest is None else float(closest["mean"]),
                "reaches": reaches,
            }
        )
    frame = pd.DataFrame(out, columns=cols)
    frame = frame.sort_values(
        ["experiment", "metric", "swing"], ascending=[True, True, False], kind="stable"
    ).reset_index(drop=True)
    frame.attrs["points"] = _Held(points)  # for the joint verdicts (`verdicts`)
    return frame


class _Held:
    """A frame kept in another frame's attrs: compared by identity, so that pandas, which
    compares attrs when it concatenates, never compares two frames element-wise."""

    def __init__(self, frame: "pd.DataFrame") -> None:
        self.frame = frame


def _swing(low: float, high: float) -> float:
    d = high - low
    return 0.0 if d <= 1e-9 * max(abs(low), abs(high), 1.0) else d


def _eq(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return bool(a == b)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _within(published: float, row: Any) -> bool:
    """The published value within 0.01 of a fraction's mean / 1 % of a quantity's (the
    precision the papers print), or inside the point's 95 % interval. An interval narrower
    than that precision must not turn an agreement into a miss: two replications of a
    lockstep run can give [0.0337, 0.0381] for a value printed as 0.04."""
    lo, hi, mean = float(row["ci_low"]), float(row["ci_high"]), float(row["mean"])
    tol = 0.01 * abs(published) if bool(row["relative"]) else 0.01
    if abs(mean - published) <= tol:
        return True
    return not (math.isnan(lo) or math.isnan(hi)) and lo <= published <= hi


@dataclass(frozen=True)
class _Cell:
    """One published number of a family at one setting: where it lands and whether it agrees."""

    experiment: Any
    metric: str
    head: str
    mean: float
    distance: float
    agrees: bool


def _cell(row: Any, mean: float, ci: Tuple[float, float]) -> Tuple[float, bool]:
    """Distance to the statement and agreement of `mean` (comparators.py), the tolerance fixed
    by the published value's printed unit and the interval `ci`."""
    pub = float(row["published"])
    comparator = _text(row.get("comparator"), "~")
    hi = row.get("published_high")
    unit = row.get("unit")
    tol = comparators.tolerance(pub, None if _missing(unit) else float(unit), ci)
    d = comparators.distance(mean, pub, comparator, None if _missing(hi) else hi)
    ok = comparators.agrees(mean, pub, comparator, tol, None if _missing(hi) else hi)
    return (float("nan") if d is None else d), bool(ok)


def _missing(v: Any) -> bool:
    if v is None:
        return True
    try:
        return math.isnan(float(v))
    except (TypeError, ValueError):
        return False


def _text(v: Any, default: str) -> str:
    return v if isinstance(v, str) else default


def _size(cell: "_Cell", row: Any) -> float:
    """|distance| of a number to its statement, relative for quantities (so that numbers of
    several units add up)."""
    pub = float(row["published"])
    d = abs(cell.distance)
    if math.isnan(d):
        return 0.0
    return d / abs(pub) if bool(row["relative"]) and pub else d


def _far(cell: "_Cell", row: Any, gap: float) -> bool:
    """Whether a number lies more than `gap` from its statement (relative for quantities)."""
    pub = float(row["published"])
    d = abs(cell.distance) / abs(pub) if bool(row["relative"]) and pub else abs(cell.distance)
    return d > gap


def verdicts(
    effects_: "pd.DataFrame", gap: float = 0.05, points: Optional["pd.DataFrame"] = None
) -> List[str]:
    """One line per published number the baseline does not agree with and that lies more than
    `gap` from its statement (absolute for fractions, relative for quantities): explained by
    the one assumption value at which its whole family agrees (the numbers that value moves
    further away named), or not explained, a model question, with the closest value and the
    numbers it leaves out. `points` (default: `effects_.attrs["points"]`, which `effects`
    sets) holds the mean of every published number at every value swept."""
    held = effects_.attrs.get("points")
    pts = points if points is not None else (held.frame if isinstance(held, _Held) else None)
    if pts is None or not len(pts) or not len(effects_):
        return []
    pts = pts.copy()
    if "family" not in pts:
        pts["family"] = pts["table"]
    lines: List[str] = []
    first_of = {(r["experiment"], r["metric"]): r for _, r in pts.iterrows()}
    # The baseline per published number, with its agreement.
    base: Dict[Tuple[Any, str], _Cell] = {}
    key: Any
    for key, g in effects_.groupby(["experiment", "metric"], sort=False):
        e, m = key
        known = g[g["baseline"].notna()]
        first = g.iloc[0]
        pub = float(first["published"])
        if math.isnan(pub) or not len(known):
            continue
        row = first_of.get((e, m))
        if row is None:
            continue
        mean = float(known["baseline"].iloc[0])
        d, ok = _cell(row, mean, tuple(known["baseline_ci"].iloc[0]))
        head = f"{first['label']}, {first['metric_label']}: simulated {mean:.3g}, paper " + (
            comparators.label(_text(row.get("comparator"), "~"), pub, row.get("published_high"), _g3)
        )
        base[(e, m)] = _Cell(e, str(m), head, mean, d, ok)
    family = {(r["experiment"], r["metric"]): str(r["family"]) for _, r in pts.iterrows()}
    swept = pts[pts["assumption"] != BASELINE]
    for fam in dict.fromkeys(family[k] for k in base):
        members = [k for k in base if family[k] == fam]
        wrong = [k for k in members if not base[k].agrees and _far(base[k], first_of[k], gap)]
        if not wrong:
            continue
        sub = swept[[(e, m) in set(members) for e, m in zip(swept["experiment"], swept["metric"])]]
        # Every (assumption, value) swept in the family, the family's numbers at that value
        # (a number the assumption does not reach keeps its baseline).
        candidates: List[Tuple[str, Any, Dict[Tuple[Any, str], _Cell]]] = []
        used = {a: effects_[effects_["assumption"] == a]["used"].iloc[0] for a in sub["assumption"].unique()}
        for (a, _), g in sub.groupby(["assumption", sub["value"].map(repr)], sort=False):
            value = g["value"].iloc[0]
            if _eq(value, used.get(a)):
                continue
            at: Dict[Tuple[Any, str], _Cell] = dict(base)
            for _, r in g.iterrows():
                k = (r["experiment"], r["metric"])
                if k not in base or _missing(r["mean"]):
                    continue
                d, ok = _cell(r, float(r["mean"]), (r["ci_low"], r["ci_high"]))
                at[k] = _Cell(k[0], k[1], base[k].head, float(r["mean"]), d, ok)
            candidates.append((str(a), value, {k: at[k] for k in members}))
        joint = [c for c in candidates if all(cell.agrees for cell in c[2].values())]
        base_total = sum(_size(base[j], first_of[j]) for j in members)
        n = len(members)
        for k in wrong:
            # Agreement by a wide interval alone is noise, not an explanation: the value's
            # mean must also close a quarter of this number's gap, and not add to the family's.
            explained = [
                c
                for c in joint
                if abs(c[2][k].distance) <= 0.75 * abs(base[k].distance)
                and sum(_size(c[2][j], first_of[j]) for j in members) <= base_total + 1e-12
            ]
            if explained:
                parts = []
                for a, value, cells in explained:
                    away = [
                        f"{_short(cells[j].head)} ({_g3(base[j].distance)} -> {_g3(cells[j].distance)})"
                        for j in members
                        if j != k and abs(cells[j].distance) > abs(base[j].distance) + 1e-12
                    ]
                    parts.append(
                        f"{_kind(a)} {a} = {fmt_value(value)} (gives {cells[k].mean:.3g}; all {n} "
                        f"published values of {fam} agree at it; moves away: {', '.join(away) or 'none'})"
                    )
                lines.append(f"{base[k].head}: explained by " + "; or ".join(parts))
                continue
            if not candidates:
                lines.append(
                    f"{base[k].head}: not explained: a model question (no declared assumption swept here)"
                )
                continue
            best = max(
                candidates,
                key=lambda c: (
                    sum(cell.agrees for cell in c[2].values()),
                    c[2][k].agrees,
                    -abs(c[2][k].distance),
                ),
            )
            a, value, cells = best
            out = [_short(cells[j].head) for j in members if not cells[j].agrees]
            if not out:
                # The whole family agrees at it, yet the rule above refuses it: say which part.
                why = (
                    "its mean closes less than a quarter of this number's gap"
                    if abs(cells[k].distance) > 0.75 * abs(base[k].distance)
                    else "it adds to the family's total distance from the paper"
                )
                lines.append(
                    f"{base[k].head}: not explained: a model question (at the closest, "
                    f"{_named(a)} = {fmt_value(value)}, all {n} published values of {fam} are "
                    f"within tolerance, but {why}; it gives {cells[k].mean:.3g} here)"
                )
                continue
            lines.append(
                f"{base[k].head}: not explained: a model question (no declared value brings "
                f"all {n} published values of {fam} within tolerance; the closest, {_named(a)} = "
                f"{fmt_value(value)}, gives {cells[k].mean:.3g} here and leaves "
                f"{len(out)} of {n} out: {', '.join(out)})"
            )
    return lines


def _kind(name: str) -> str:
    """ "combination" for a declared combination's row name (`A x B`), else "assumption"."""
    return "combination" if " x " in name else "assumption"


def _named(name: str) -> str:
    return f"combination {name}" if " x " in name else name


def _g3(v: Any) -> str:
    return f"{float(v):.3g}"


def _short(head: str) -> str:
    """A number's name without its values: "T: buffer=1000, efficiency"."""
    return head.split(": simulated", 1)[0]


def run(
    study: Study,
    assumptions: Sequence[Assumption],
    chosen: Subset,
    runs: int,
    store: Store,
    extra: Pairs = (),
    executor: Any = None,
    jobs: Optional[int] = None,
    progress: Optional[bool] = None,
    combos: Sequence[Combination] = (),
) -> Sensitivity:
    """Run the one-at-a-time sweep and the declared combinations (`combos`) through the store
    (and `executor`), summarize it."""
    import pandas as pd

    from .. import _core
    from .reproduce import _relabelled

    experiments = list(chosen.experiments)
    variants, notes = plan(study, experiments, assumptions, extra, combos)
    costs = {id(v.point): experiments[v.experiment].cost for v in variants}
    detail = bool(getattr(study, "detail_metrics", False))
    # One sweep per (assumption, value), so that an engine that rejects one (a key it does
    # not have yet, a value it refuses) costs that value only, said in the notes.
    groups: Dict[Tuple[str, str], List[int]] = {}
    for j, v in enumerate(variants):
        groups.setdefault((v.assumption, repr(v.value)), []).append(j)
    frames, kept = [], []
    computed = cached = 0
    for (name, _), idx in groups.items():
        pts = [variants[j].point for j in idx]
        try:
            swept = execute(
                pts,
                runs,
                store=store,
                executor=executor,
                jobs=jobs,
                show_progress=progress,
                cost=lambda p: costs.get(id(p), 1.0),
                detail=detail,
            )
        except _core.ScenarioError as err:
            if name == BASELINE:
                raise
            value = variants[idx[0]].value
            notes.append(f"{_kind(name)} {name} = {fmt_value(value)}: not run, the engine rejects it ({err})")
            continue
        computed += swept.computed
        cached += swept.cached
        table = swept.runs.copy()
        table["point"] = [idx[int(p)] for p in table["point"]]
        table.attrs = dict(swept.runs.attrs)
        frames.append(table)
        kept += idx
    run_table = pd.concat(frames, ignore_index=True)
    run_table.attrs = dict(frames[0].attrs)
    run_table.attrs["metrics"] = list(dict.fromkeys(m for f in frames for m in f.attrs["metrics"]))
    derive = getattr(study, "derive_metrics", None)
    if derive is not None:
        per_point = [experiments[v.experiment] for v in variants]
        run_table = derive(_relabelled(run_table, per_point))
    stats = summarize(run_table, by=["point"])
    points = pd.DataFrame(_rows(study, experiments, variants, stats, assumptions, combos))
    used = used_values(assumptions, combos)
    return Sensitivity(
        why=chosen.why,
        runs=runs,
        points=points,
        effects=effects(points, used),
        notes=notes,
        computed=computed,
        cached=cached,
        combinations=len(combos),
    )


def render(s: Sensitivity) -> str:
    """The effects as text: per published number, the assumptions by swing."""
    also = f", and {s.combinations} declared combination(s)" if s.combinations else ""
    lines = [f"Sensitivity (one assumption at a time{also}, {s.runs} replications per point) on: {s.why}"]
    for _, g in s.effects.groupby(["experiment", "metric"], sort=False):
        first = g.iloc[0]
        pub = first["published"]
        lines.append(
            f"  {first['label']} -- {first['metric_label']} "
            f"(paper {'-' if math.isnan(pub) else f'{pub:.3g}'}, "
            f"baseline {first['baseline']:.3g})"
        )
        for _, r in g.iterrows():
            if r["swing"] == 0:
                lines.append(f"    {r['assumption']:<22} {r['low']:.3g} at every value swept")
                continue
            lines.append(
                f"    {r['assumption']:<22} {r['low']:.3g} [{_ci(r['low_ci'])}] at "
                f"{fmt_value(r['low_value'])} .. {r['high']:.3g} [{_ci(r['high_ci'])}] at "
                f"{fmt_value(r['high_value'])}  (swing {r['swing']:.3g})"
            )
    for line in verdicts(s.effects, points=s.points):
        lines.append(f"  * {line}")
    for note in s.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def _ci(pair: Tuple[float, float]) -> str:
    lo, hi = pair
    if math.isnan(lo) or math.isnan(hi):
        return "no spread"
    return f"{lo:.3g}, {hi:.3g}"


def tornado(
    s: Sensitivity, assumptions: Sequence[Assumption], path: Path, title: str, max_panels: int = 6
) -> List[Path]:
    """A tornado figure: per published number (up to max_panels), one bar per assumption from
    the smallest to the largest mean over its range, the baseline as a black line, the
    published value as a red dashed line. Writes path.png and path.svg."""
    import matplotlib

    matplotlib.use("Agg")
    import textwrap

    import matplotlib.pyplot as plt

    labels = {a.name: textwrap.fill(a.label, 34) for a in assumptions}
    groups = list(s.effects.groupby(["experiment", "metric"], sort=False))[:max_panels]
    if not groups:
        return []
    rows = max(len(g) for _, g in groups)
    fig, axes = plt.subplots(
        len(groups), 1, figsize=(10.0, 1.2 + len(groups) * (0.5 * rows + 1.0)), squeeze=False
    )
    for ax, (_, g) in zip(axes[:, 0], groups):
        g = g.iloc[::-1]
        first = g.iloc[0]
        ys = list(range(len(g)))
        for y, (_, r) in zip(ys, g.iterrows()):
            ax.barh(y, max(r["swing"], 1e-12), left=r["low"], height=0.6, color="#7aa6d6")
            for ci in (r["low_ci"], r["high_ci"]):
                if not (math.isnan(ci[0]) or math.isnan(ci[1])):
                    ax.plot([ci[0], ci[1]], [y, y], color="#1f3b5a", lw=1)
            ax.text(
                r["high"],
                y + 0.32,
                f" {fmt_value(r['low_value'])}..{fmt_value(r['high_value'])}",
                va="bottom",
                fontsize=7,
            )
        ax.set_yticks(ys)
        ax.set_yticklabels(
            [labels.get(r["assumption"], r["assumption"]) for _, r in g.iterrows()], fontsize=7
        )
        # The means decide the scale; intervals from 2 replications may run far outside it.
        marks = [
            float(v)
            for v in list(g["low"]) + list(g["high"]) + [first["baseline"], first["published"]]
            if not math.isnan(float(v))
        ]
        lo, hi = min(marks), max(marks)
        pad = 0.15 * (hi - lo) if hi > lo else 0.05 * (abs(hi) or 1.0)
        ax.set_xlim(lo - pad, hi + pad)
        ax.set_ylim(-0.6, len(g) - 0.1)
        if not math.isnan(float(first["baseline"])):
            ax.axvline(float(first["baseline"]), color="black", lw=1, label="values used")
        if not math.isnan(float(first["published"])):
            ax.axvline(float(first["published"]), color="red", ls="--", lw=1.2, label="published")
        ax.set_xlabel(str(first["metric_label"]), fontsize=8)
        ax.set_title(str(first["label"]), fontsize=8)
    handles, names = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper right", fontsize=7)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    files = save(fig, path)
    plt.close(fig)
    return files
