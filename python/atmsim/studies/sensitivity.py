"""`atmsim reproduce NAME --sensitivity`: how much each unstated parameter moves each
published number.

Design: one at a time. Every assumption of the study (`assumptions.py`) is swept over its
plausible range while the others stay at the values the study uses, each point with the same
replications as the reproduction, on a subset of the study's experiments that the study
declares (the full study times every assumption would take days). The baseline points are
the reproduction's own runs, so the store already holds them.

Why not Morris screening or Sobol indices (SALib): both sample all parameters jointly and need
many more runs (Sobol N·(2k + 2), with N in the hundreds; Morris r·(k + 1) trajectories, with
levels chosen on a grid rather than the values the literature suggests), and neither gives
what the reproduction needs to say: "this published number moves from a to b when assumption
X ranges over its plausible values, with this 95 % interval at each end". One-at-a-time
answers exactly that per assumption, with replications, at a cost of (sum of range sizes) runs
per experiment and replication. It does not see interactions; where two assumptions together
might explain a gap, the doc says so as a question rather than a finding.

The outcome per published number and assumption: the mean at each value with its interval,
the smallest and largest mean over the range (the tornado bar), and whether some value brings
the simulated number within its interval of the published one ("explained by X at v").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, cast

from ..figure_style import bounded
from ..literals import value_of
from ..plan import Point
from ..store import Store
from ..sweeps import execute
from ..tables import summarize
from .assumptions import Assumption, Pairs, concrete, document, expand, fmt_value
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
    study: Study, experiments: Sequence[Experiment], assumptions: Sequence[Assumption], extra: Pairs = ()
) -> Tuple[List[Variant], List[str]]:
    """The baseline of every experiment, then every (assumption, value != used) of every
    experiment it applies to; and notes (assumptions that do not apply, declarations the
    scenario contradicts)."""
    variants: List[Variant] = []
    notes: List[str] = []
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
    return variants, notes


def _rows(
    study: Study,
    experiments: Sequence[Experiment],
    variants: Sequence[Variant],
    stats: "pd.DataFrame",
    assumptions: Sequence[Assumption],
) -> List[Dict[str, Any]]:
    specs = {t.id: t for t in study.tables}
    used = {a.name: a.value for a in assumptions}
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
    # The baseline is each assumption's used value: copy it into every assumption's sweep.
    out = list(rows)
    for base_row in rows:
        if base_row["assumption"] != BASELINE:
            continue
        for a in assumptions:
            exp = experiments[base_row["experiment"]]
            if a.tables and exp.table not in a.tables:
                continue
            if any(o["assumption"] == a.name and o["experiment"] == base_row["experiment"] for o in rows):
                out.append(dict(base_row, assumption=a.name, value=used[a.name]))
    return out


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
    return frame.sort_values(
        ["experiment", "metric", "swing"], ascending=[True, True, False], kind="stable"
    ).reset_index(drop=True)


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


def verdicts(effects_: "pd.DataFrame", gap: float = 0.05) -> List[str]:
    """For each published number far from the baseline (more than `gap`, absolute for
    fractions, relative for quantities, and outside the baseline's 95 % interval): which
    assumption at which value brings it within reach (its interval contains the published
    value), or that none does. A gap inside the baseline's own interval is said to be within
    the noise of the replications, not attributed."""
    lines: List[str] = []
    for _, g in effects_.groupby(["experiment", "metric"], sort=False):
        first = g.iloc[0]
        known = g[g["baseline"].notna()]
        pub = float(first["published"])
        if math.isnan(pub) or not len(known):
            continue
        base = float(known["baseline"].iloc[0])
        blo, bhi = known["baseline_ci"].iloc[0]
        diff = abs(base - pub) / abs(pub) if first["relative"] and pub else abs(base - pub)
        if diff <= gap:
            continue
        head = f"{first['label']}, {first['metric_label']}: simulated {base:.3g}, paper {pub:.3g}"
        if not (math.isnan(blo) or math.isnan(bhi)) and blo <= pub <= bhi:
            lines.append(
                f"{head}: inside the baseline's 95 % interval [{blo:.3g}, {bhi:.3g}] "
                f"(too few replications to call it a disagreement)"
            )
            continue
        # Explained: the paper's value inside the interval of a value the study does not use,
        # whose mean also closes at least a quarter of the gap (a wide interval alone from
        # two replications is not an explanation).
        hits = g[g["reaches"] & ((g["closest_mean"] - pub).abs() <= 0.75 * abs(base - pub))]
        if len(hits):
            parts = [
                f"{h['assumption']} = {fmt_value(h['closest_value'])} (gives {h['closest_mean']:.3g})"
                for _, h in hits.iterrows()
            ]
            lines.append(f"{head}: explained by assumption " + "; or ".join(parts))
            continue
        numeric = g["low_value"].apply(_is_number) & g["high_value"].apply(_is_number)
        bracket = g[numeric & (g["low"] <= pub) & (pub <= g["high"])]
        if len(bracket):
            parts = [
                f"{b['assumption']} between {fmt_value(b['low_value'])} (gives "
                f"{b['low']:.3g}) and {fmt_value(b['high_value'])} (gives {b['high']:.3g})"
                for _, b in bracket.iterrows()
            ]
            lines.append(
                f"{head}: within the range of assumption "
                + "; or ".join(parts)
                + " (no value swept reaches it; one in between may)"
            )
            continue
        tried = g[g["closest_value"].notna()]
        if not len(tried):
            continue
        best: Any = tried.loc[cast(Any, (tried["closest_mean"] - pub).abs().idxmin())]
        left = abs(float(best["closest_mean"]) - pub)
        if left <= 0.5 * abs(base - pub):
            lines.append(
                f"{head}: partly explained by assumption {best['assumption']} = "
                f"{fmt_value(best['closest_value'])} (gives {best['closest_mean']:.3g}: "
                f"the gap shrinks from {abs(base - pub):.3g} to {left:.3g})"
            )
            continue
        lines.append(
            f"{head}: not explained by any declared assumption (the closest, "
            f"{best['assumption']} = {fmt_value(best['closest_value'])}, gives "
            f"{best['closest_mean']:.3g}): a model question"
        )
    return lines


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
) -> Sensitivity:
    """Run the one-at-a-time sweep through the store (and `executor`), summarize it."""
    import pandas as pd

    from .. import _core
    from .reproduce import _relabelled

    experiments = list(chosen.experiments)
    variants, notes = plan(study, experiments, assumptions, extra)
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
            notes.append(f"assumption {name} = {fmt_value(value)}: not run, the engine rejects it ({err})")
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
    points = pd.DataFrame(_rows(study, experiments, variants, stats, assumptions))
    used = {a.name: a.value for a in assumptions}
    return Sensitivity(
        why=chosen.why,
        runs=runs,
        points=points,
        effects=effects(points, used),
        notes=notes,
        computed=computed,
        cached=cached,
    )


def render(s: Sensitivity) -> str:
    """The effects as text: per published number, the assumptions by swing."""
    lines = [f"Sensitivity (one assumption at a time, {s.runs} replications per point) on: {s.why}"]
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
    for line in verdicts(s.effects):
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
    path.parent.mkdir(parents=True, exist_ok=True)
    files = [path.with_suffix(".png"), path.with_suffix(".svg")]
    for f in files:
        fig.savefig(f, dpi=110)
    plt.close(fig)
    return files
