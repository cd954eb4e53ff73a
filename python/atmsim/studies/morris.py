"""`atmsim reproduce NAME --morris [R]`: which assumptions matter, and which interact, by
Morris elementary effects (SALib) over the study's declared assumptions.

The one-at-a-time sweep (`sensitivity.py`) moves one assumption with the others at the values
the study uses, so it cannot see two assumptions acting together (tie order matters only with
phase-locked links). Morris screening moves every assumption along R random trajectories
through the grid of all of them: per published number and assumption, `mu_star` (the mean
absolute elementary effect: how much the number moves when the assumption moves, whatever the
others are), `mu` (its signed mean) and `sigma` (their standard deviation: large against
mu_star when the effect depends on the other assumptions, i.e. an interaction or a
non-linearity). Then the strongest pair by mu_star (or the assumptions named with
`--factorial`) is run as a full factorial over its values, the others at the study's values.

Discrete values: every assumption's range (`Assumption.values`, a list) is mapped to SALib's
unit interval by index. SALib samples a grid of `levels` (4) levels in [0, 1]; level j of
`levels` is the value of index j * n // levels of an n-value range (for n = 2: levels 0-1 the
first value, 2-3 the second; for n = levels: one level per value), so a Morris step of
levels / 2 levels always changes the value. mu_star and sigma are therefore in the metric's
unit per unit of the normalised range (SALib's definition; a step is 2/3 of the range with 4
levels). Each design point is run with the study's replications through the sweep and the
results store (so repeated points, and the baseline, cost nothing twice), on the study's
sensitivity subset; the value at a design point is the mean over the replications.

Two assumptions writing the same scenario key (UBR+: `phase_locked_ties` sets
`simulation.phases = aligned` and `phases` sets `simulation.phases`) are applied in their
declaration order, the later winning where both set it, and said so in the notes; such a pair
is exactly what sigma and the factorial show. Where one assumption already combines two
conditions (UBR+ `phase_locked_ties` = phase model x tie order), the factorial over it and
the third (e.g. `timer_phases`, or CLASS's `arbitration` with its slotted arrivals once
declared) examines the three together.

What a few trajectories miss: an effect confined to a corner of the grid. Measured on UBR+
`--quick` (R = 4): the tie order (`phase_locked_ties`) has mu_star 0 on every number, because
it acts only with aligned phases and no drift (`phases = aligned`, `clock_ppm = 0`: one eighth
of the grid, which no step of it visited); the factorial `phase_locked_ties x phases x
clock_ppm` shows it: LAN 5 x 1000 cells UBR efficiency 1.0 with a fixed order, 0.58 rotating,
0.29 random (paper 0.21) there, and 0.80-1.0 whatever the order everywhere else. So the
factorial over named assumptions is the check of a suspected interaction, Morris the screen.

Cost: R x (k + 1) design points x experiments x replications runs for k assumptions (UBR+,
R = 4, 6 assumptions, 4 experiments, 2 replications: at most 224 runs, fewer after the
store's duplicates), plus the factorial's product of range sizes x experiments x replications.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, cast

from ..literals import value_of
from ..plan import Point
from ..plots import save
from ..store import Store
from ..sweeps import execute
from ..tables import summarize
from .assumptions import Assumption, Pairs, concrete, document, fmt_value
from .registry import Experiment, Study
from .sensitivity import Subset, family_of, label

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

COLUMNS = ["study", "table", "row", "metric", "assumption", "mu_star", "sigma", "mu"]
DEFAULT_TRAJECTORIES = 4
MAX_TRAJECTORIES = 50
LEVELS = 4


@dataclass(frozen=True)
class Options:
    """--morris R (trajectories), the grid's levels, SALib's seed, and --factorial names."""

    trajectories: int = DEFAULT_TRAJECTORIES
    levels: int = LEVELS
    seed: int = 1
    factorial: Tuple[str, ...] = ()


def parse_trajectories(text: Optional[str]) -> int:
    """The value of --morris: an integer from 2 to MAX_TRAJECTORIES (ValueError naming the
    flag otherwise)."""
    if text is None or text == "":
        return DEFAULT_TRAJECTORIES
    try:
        r = int(text)
    except ValueError:
        raise ValueError(
            f"--morris: {text!r} is not a number of trajectories (an integer from 2 to {MAX_TRAJECTORIES})"
        ) from None
    if not 2 <= r <= MAX_TRAJECTORIES:
        raise ValueError(f"--morris: {r} trajectories; give an integer from 2 to {MAX_TRAJECTORIES}")
    return r


def parse_factorial(text: Optional[str], declared: Sequence[Assumption], study: str) -> Tuple[str, ...]:
    """--factorial A,B[,C]: declared assumption names (ValueError naming the flag otherwise)."""
    if text is None:
        return ()
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    known = [a.name for a in declared]
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(f"--factorial: give two or more different assumption names, not {text!r}")
    for n in names:
        if n not in known:
            raise ValueError(
                f"--factorial: {study} declares no assumption {n!r} (choose from {', '.join(known)})"
            )
    return names


def problem(ranges: Mapping[str, Sequence[Any]]) -> Dict[str, Any]:
    """SALib's problem: every assumption on [0, 1] (its range mapped by index)."""
    names = list(ranges)
    return {"num_vars": len(names), "names": names, "bounds": [[0.0, 1.0]] * len(names)}


def value_at(x: float, values: Sequence[Any], levels: int) -> Any:
    """The value a unit-interval level stands for (module docstring)."""
    j = min(levels - 1, max(0, int(round(float(x) * (levels - 1)))))
    return values[min(len(values) - 1, j * len(values) // levels)]


def design(
    ranges: Mapping[str, Sequence[Any]], trajectories: int, levels: int = LEVELS, seed: int = 1
) -> Tuple["np.ndarray", List[Dict[str, Any]]]:
    """SALib's Morris sample (unit space) and, per sample row, the value of each assumption."""
    from SALib.sample import morris as salib_sample

    if len(ranges) < 2:
        raise ValueError("Morris screening needs at least two assumptions")
    x = salib_sample.sample(problem(ranges), trajectories, num_levels=levels, seed=seed)
    names = list(ranges)
    rows = [{n: value_at(v, ranges[n], levels) for n, v in zip(names, row)} for row in x]
    return x, rows


def effects(
    ranges: Mapping[str, Sequence[Any]],
    x: "np.ndarray",
    y: Sequence[float],
    levels: int = LEVELS,
    seed: int = 1,
) -> "pd.DataFrame":
    """mu_star, sigma, mu per assumption (SALib's analyze) of the outputs y at the sample x."""
    import numpy as np
    import pandas as pd
    from SALib.analyze import morris as salib_analyze

    out = salib_analyze.analyze(
        problem(ranges), x, np.asarray(y, dtype=float), num_levels=levels, seed=seed, num_resamples=100
    )
    # Means equal but for float rounding (sums in another order) are no effect.
    floor = 1e-9 * max(float(np.nanmax(np.abs(np.asarray(y, dtype=float)))), 1e-300)

    def clean(values: Any) -> List[float]:
        return [0.0 if abs(float(v)) <= floor else float(v) for v in values]

    return pd.DataFrame(
        {
            "assumption": list(ranges),
            "mu_star": clean(out["mu_star"]),
            "sigma": clean(out["sigma"]),
            "mu": clean(out["mu"]),
        }
    )


def screen(
    ranges: Mapping[str, Sequence[Any]],
    func: Callable[[Dict[str, Any]], float],
    trajectories: int = DEFAULT_TRAJECTORIES,
    levels: int = LEVELS,
    seed: int = 1,
) -> "pd.DataFrame":
    """Morris screening of a function of the assumptions' values (the same design and
    analysis as a study's, for checks against known functions)."""
    x, rows = design(ranges, trajectories, levels, seed)
    return effects(ranges, x, [func(r) for r in rows], levels, seed)


def _complete(y: Sequence[float], length: int) -> List[int]:
    """The sample rows of the trajectories (blocks of `length` rows) with every output."""
    keep: List[int] = []
    for start in range(0, len(y), length):
        block = list(range(start, min(start + length, len(y))))
        if len(block) == length and not any(math.isnan(y[j]) for j in block):
            keep += block
    return keep


def strongest(frame: "pd.DataFrame", count: int = 2) -> Tuple[str, ...]:
    """The `count` assumptions with the largest mu_star, each (row, metric)'s mu_star scaled
    by its largest (metrics have different units), averaged over the rows and metrics."""
    if not len(frame):
        return ()
    scaled = frame.copy()
    top = scaled.groupby(["table", "row", "metric"])["mu_star"].transform("max")
    scaled["share"] = (scaled["mu_star"] / top.where(top > 0)).fillna(0.0)
    ranking = (
        scaled.groupby("assumption", sort=False)["share"].mean().sort_values(ascending=False, kind="stable")
    )
    return tuple(ranking.index[:count])


@dataclass
class Morris:
    """What `run` measured: the Morris table (COLUMNS), the factorial's points (study,
    table, row, metric, one column per assumption of the factorial, n, mean, ci_low,
    ci_high, published), the assumptions of the factorial, notes, run counts."""

    study: str
    options: Options
    runs: int
    why: str
    frame: "pd.DataFrame"
    factorial: "pd.DataFrame"
    pair: Tuple[str, ...] = ()
    notes: List[str] = field(default_factory=list)
    computed: int = 0
    cached: int = 0
    files: List[Path] = field(default_factory=list)


def _combined(
    assumptions: Sequence[Assumption],
    exp: Experiment,
    doc: Dict[str, Any],
    values: Mapping[str, Any],
    notes: List[str],
) -> Pairs:
    """The overrides giving every assumption its value in this experiment, declaration order,
    the later winning on a key two of them set (noted)."""
    merged: Dict[str, str] = {}
    owner: Dict[str, str] = {}
    for a in assumptions:
        if a.name not in values or (a.tables and exp.table not in a.tables):
            continue
        for key, raw in a.overrides(doc, values[a.name]):
            if key in owner and owner[key] != a.name:
                msg = f"assumptions {owner[key]} and {a.name} both set {key}: {a.name} wins where both set it"
                if msg not in notes:
                    notes.append(msg)
            merged[key] = raw
            owner[key] = a.name
    return tuple(merged.items())


def _evaluate(
    study: Study,
    experiments: Sequence[Experiment],
    assumptions: Sequence[Assumption],
    settings: Sequence[Mapping[str, Any]],
    runs: int,
    store: Store,
    extra: Pairs,
    executor: Any,
    jobs: Optional[int],
    progress: Optional[bool],
    notes: List[str],
) -> Tuple[Dict[Tuple[int, int], Any], int, int]:
    """Run every (setting, experiment) once (equal points shared); per (setting index,
    experiment index) the summary of its metrics (indexed by metric), and run counts."""
    from .reproduce import _relabelled

    points: List[Point] = []
    index: Dict[Tuple[str, Pairs], int] = {}
    where: Dict[Tuple[int, int], int] = {}
    owners: List[Experiment] = []
    for i, exp in enumerate(experiments):
        own = tuple(exp.scenario.overrides) + tuple(exp.overrides)
        base = own + concrete(tuple(extra), exp.scenario.text, own)
        doc = document(exp.scenario.text, base)
        fixed = {k for k, _ in concrete(tuple(extra), exp.scenario.text, own)}
        params: Dict[str, Any] = {"study": study.name, "table": exp.table, **exp.labels}
        params.update({k: value_of(v) for k, v in extra})
        for s, values in enumerate(settings):
            pairs = _combined(assumptions, exp, doc, values, notes)
            for k in sorted({k for k, _ in pairs} & fixed):
                msg = f"{k}: fixed for every run by the command line, not varied by the screening"
                if msg not in notes:
                    notes.append(msg)
            pairs = tuple((k, v) for k, v in pairs if k not in fixed)
            key = (exp.scenario.text, base + pairs)
            if key not in index:
                index[key] = len(points)
                p = dict(params, morris=True, **{f"assumption.{n}": fmt_value(v) for n, v in values.items()})
                points.append(Point(exp.scenario, base + pairs, p))
                owners.append(exp)
            where[(s, i)] = index[key]
    table, computed, cached = _execute(study, points, runs, store, executor, jobs, progress, notes)
    if table is None:
        return {}, computed, cached
    derive = getattr(study, "derive_metrics", None)
    if derive is not None:
        table = derive(_relabelled(table, owners))
    stats = summarize(table, by=["point"])
    by_point = {int(cast(Any, p)): g.set_index("metric") for p, g in stats.groupby("point")}
    return {k: by_point.get(j) for k, j in where.items()}, computed, cached


def _execute(
    study: Study,
    points: Sequence[Point],
    runs: int,
    store: Store,
    executor: Any,
    jobs: Optional[int],
    progress: Optional[bool],
    notes: List[str],
) -> Tuple[Optional["pd.DataFrame"], int, int]:
    """All points in one sweep; if the engine rejects one (a combination of values it refuses,
    e.g. an RTO floor above the maximum RTO on a coarse tick), each point alone, the rejected
    ones left out and said so. The run table's `point` is the index in `points`."""
    import pandas as pd

    from .. import _core

    detail = bool(getattr(study, "detail_metrics", False))

    def sweep(chosen: Sequence[Point]) -> Any:
        return execute(
            list(chosen),
            runs,
            store=store,
            executor=executor,
            jobs=jobs,
            show_progress=progress,
            cost=lambda p: 1.0,
            detail=detail,
        )

    try:
        swept = sweep(points)
        return swept.runs, swept.computed, swept.cached
    except _core.ScenarioError:
        pass
    frames, computed, cached, rejected = [], 0, 0, 0
    for j, p in enumerate(points):
        try:
            one = sweep([p])
        except _core.ScenarioError as err:
            rejected += 1
            msg = f"the engine rejects some combinations, left out ({err})"
            if msg not in notes:
                notes.append(msg)
            continue
        computed += one.computed
        cached += one.cached
        t = one.runs.copy()
        t["point"] = j
        t.attrs = dict(one.runs.attrs)
        frames.append(t)
    notes.append(f"{rejected} of {len(points)} design points rejected by the engine")
    if not frames:
        return None, computed, cached
    table = pd.concat(frames, ignore_index=True)
    table.attrs = dict(frames[0].attrs)
    table.attrs["metrics"] = list(dict.fromkeys(m for f in frames for m in f.attrs.get("metrics", [])))
    return table, computed, cached


def _compared(study: Study, exp: Experiment) -> List[Any]:
    spec = next((t for t in study.tables if t.id == exp.table), None)
    return [] if spec is None else list(spec.compared)


def _published(exp: Experiment, name: str) -> float:
    try:
        return float(exp.published.get(name))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan


def subset(study: Study, quick: bool) -> Subset:
    """The experiments the screening runs on: the study's `morris_subset(quick)` if it declares
    one (Goyal: every experiment in full mode), else its sensitivity subset."""
    from .sensitivity import subset as sensitivity_subset

    declared = getattr(study, "morris_subset", None)
    if declared is not None:
        chosen: Subset = declared(quick)
        return chosen
    return sensitivity_subset(study, quick)


def _published_any(exp: Experiment) -> bool:
    for v in exp.published.values():
        try:
            if v is not None and not math.isnan(float(v)):
                return True
        except (TypeError, ValueError):
            continue
    return False


def coverage(study: Study, chosen: Subset) -> str:
    """Which of the study's experiments with a published value (its full set) the subset
    screens, said explicitly: "covers N of the M ...; not screened: FAMILIES" (an experiment
    counts as covered when the subset has one of its table and labels, at whatever length)."""
    every_of = getattr(study, "experiments", None)
    if every_of is None:
        return ""
    every = [e for e in every_of(False) if _published_any(e)]
    if not every:
        return ""

    def key(e: Experiment) -> Tuple[str, Tuple[Tuple[str, str], ...]]:
        return e.table, tuple(sorted((k, repr(v)) for k, v in e.labels.items()))

    mine = {key(e) for e in chosen.experiments}
    covered = [e for e in every if key(e) in mine]
    total: Dict[str, int] = {}
    missing: Dict[str, int] = {}
    for e in every:
        fam = family_of(study, e)
        total[fam] = total.get(fam, 0) + 1
        if key(e) not in mine:
            missing[fam] = missing.get(fam, 0) + 1
    head = f"Morris covers {len(covered)} of the study's {len(every)} experiments with a published value"
    if not missing:
        return head + ": all of them"
    # A family partly screened says how much of it is not.
    left = [f if n == total[f] else f"{f} ({n} of its {total[f]})" for f, n in missing.items()]
    return head + f"; not screened: {', '.join(left)}"


def run(
    study: Study,
    assumptions: Sequence[Assumption],
    chosen: Subset,
    runs: int,
    store: Store,
    options: Options = Options(),
    extra: Pairs = (),
    executor: Any = None,
    jobs: Optional[int] = None,
    progress: Optional[bool] = None,
) -> Morris:
    """Morris screening of the study's assumptions on its subset, then the factorial."""
    import pandas as pd

    notes: List[str] = []
    covers = coverage(study, chosen)
    if covers:
        notes.append(covers)
    declared = [a for a in assumptions if len(a.values) >= 2]
    for a in assumptions:
        if len(a.values) < 2:
            notes.append(f"assumption {a.name}: a single value, not screened")
    experiments = list(chosen.experiments)
    ranges = {a.name: list(a.values) for a in declared}
    x, settings = design(ranges, options.trajectories, options.levels, options.seed)
    found, computed, cached = _evaluate(
        study, experiments, declared, settings, runs, store, extra, executor, jobs, progress, notes
    )
    rows: List[Dict[str, Any]] = []
    for i, exp in enumerate(experiments):
        for c in _compared(study, exp):
            y = []
            for s in range(len(settings)):
                est = found.get((s, i))
                y.append(
                    float(est.loc[c.metric, "mean"])
                    if est is not None and c.metric in est.index
                    else math.nan
                )
            keep = _complete(y, len(ranges) + 1)
            if len(keep) < 2 * (len(ranges) + 1):
                notes.append(f"{label(exp)}, {c.name}: fewer than 2 complete trajectories, left out")
                continue
            if len(keep) < len(y):
                notes.append(
                    f"{label(exp)}, {c.name}: {(len(y) - len(keep)) // (len(ranges) + 1)} trajectories "
                    "with a rejected point left out"
                )
            xs, ys = x[keep], [y[j] for j in keep]
            for _, e in effects(ranges, xs, ys, options.levels, options.seed).iterrows():
                rows.append(
                    {
                        "study": study.name,
                        "table": exp.table,
                        "row": label(exp),
                        "metric": c.name,
                        "assumption": e["assumption"],
                        "mu_star": e["mu_star"],
                        "sigma": e["sigma"],
                        "mu": e["mu"],
                    }
                )
    frame = pd.DataFrame(rows, columns=COLUMNS)
    pair = options.factorial or strongest(frame)
    fact = pd.DataFrame()
    if len(pair) >= 2:
        fact, more_c, more_k = factorial(
            study, experiments, declared, pair, runs, store, extra, executor, jobs, progress, notes
        )
        computed += more_c
        cached += more_k
    return Morris(study.name, options, runs, chosen.why, frame, fact, tuple(pair), notes, computed, cached)


def factorial(
    study: Study,
    experiments: Sequence[Experiment],
    assumptions: Sequence[Assumption],
    names: Sequence[str],
    runs: int,
    store: Store,
    extra: Pairs = (),
    executor: Any = None,
    jobs: Optional[int] = None,
    progress: Optional[bool] = None,
    notes: Optional[List[str]] = None,
) -> Tuple["pd.DataFrame", int, int]:
    """Every combination of the named assumptions' values (the others at the study's values)
    on every experiment: one row per (combination, experiment, compared metric)."""
    import pandas as pd

    notes = [] if notes is None else notes
    by_name = {a.name: a for a in assumptions}
    chosen = [by_name[n] for n in names]
    combos = [dict(zip(names, vs)) for vs in itertools.product(*(list(a.values) for a in chosen))]
    found, computed, cached = _evaluate(
        study, experiments, chosen, combos, runs, store, extra, executor, jobs, progress, notes
    )
    rows = []
    for s, combo in enumerate(combos):
        for i, exp in enumerate(experiments):
            est = found.get((s, i))
            for c in _compared(study, exp):
                if est is None or c.metric not in est.index:
                    continue
                r: Any = est.loc[c.metric]
                rows.append(
                    {
                        "study": study.name,
                        "table": exp.table,
                        "row": label(exp),
                        "metric": c.name,
                        **{n: fmt_value(v) for n, v in combo.items()},
                        "n": int(r["n"]),
                        "mean": float(r["mean"]),
                        "ci_low": float(r["ci_low"]),
                        "ci_high": float(r["ci_high"]),
                        "published": _published(exp, c.name),
                    }
                )
    cols = ["study", "table", "row", "metric", *names, "n", "mean", "ci_low", "ci_high", "published"]
    return pd.DataFrame(rows, columns=cols), computed, cached


def morris_frame(m: Optional[Morris]) -> "pd.DataFrame":
    """The Morris table of a run (COLUMNS), empty without one: for the report."""
    import pandas as pd

    return pd.DataFrame(columns=COLUMNS) if m is None else m.frame


def write(m: Morris, folder: Path, assumptions: Sequence[Assumption] = ()) -> List[Path]:
    """morris.csv, factorial.csv and morris-<study>.png (and .svg) into folder."""
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / "morris.csv"]
    m.frame.to_csv(files[0], index=False)
    if len(m.factorial):
        files.append(folder / "factorial.csv")
        m.factorial.to_csv(files[-1], index=False)
    files += figure(m, folder / f"morris-{m.study}", assumptions)
    m.files = files
    return files


def figure(m: Morris, path: Path, assumptions: Sequence[Assumption] = ()) -> List[Path]:
    """mu* (x) against sigma (y), one panel per compared metric, one marker per (row,
    assumption), coloured by assumption; the diagonal sigma = mu* marks where interactions or
    non-linearity are as large as the effect itself."""
    if not len(m.frame):
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = {a.name: a.name for a in assumptions}
    metrics = list(dict.fromkeys(m.frame["metric"]))
    names = list(dict.fromkeys(m.frame["assumption"]))
    colours = plt.get_cmap("tab10")
    fig, axes = plt.subplots(1, len(metrics), figsize=(5.2 * len(metrics), 4.4), squeeze=False)
    for ax, metric in zip(axes[0], metrics):
        g = m.frame[m.frame["metric"] == metric]
        for k, name in enumerate(names):
            h = g[g["assumption"] == name]
            ax.scatter(h["mu_star"], h["sigma"], color=colours(k % 10), label=labels.get(name, name), s=24)
        top = float(max(g["mu_star"].max(), g["sigma"].max(), 1e-12)) * 1.1
        ax.plot([0, top], [0, top], color="grey", lw=0.8, ls="--")
        ax.set_xlim(0, top)
        ax.set_ylim(0, top)
        ax.set_xlabel(f"mu* of {metric} (its unit per normalised range)", fontsize=8)
        ax.set_ylabel(f"sigma of {metric} (same unit)", fontsize=8)
        ax.set_title(f"{metric}: {g['row'].nunique()} rows", fontsize=8)
    axes[0][0].legend(fontsize=7, loc="upper left")
    fig.suptitle(
        f"{m.study}: Morris elementary effects, {m.options.trajectories} trajectories, {m.runs} replications",
        fontsize=9,
    )
    fig.tight_layout()
    files = save(fig, path)
    plt.close(fig)
    return files


def render(m: Morris) -> str:
    """Per published number, the assumptions by mu_star; then the factorial's assumptions."""
    lines = [
        f"Morris screening ({m.options.trajectories} trajectories, {m.options.levels} levels, "
        f"{m.runs} replications per point; {m.computed} runs computed, {m.cached} from the store) on: {m.why}"
    ]
    for (row, metric), g in m.frame.groupby(["row", "metric"], sort=False):
        g = g.sort_values("mu_star", ascending=False)
        parts = [f"{r['assumption']} {r['mu_star']:.3g}/{r['sigma']:.3g}" for _, r in g.iterrows()]
        lines.append(f"  {row} -- {metric} (mu*/sigma): " + ", ".join(parts))
    if m.pair:
        lines.append(f"  full factorial of {' x '.join(m.pair)}: {len(m.factorial)} rows (factorial.csv)")
    for note in m.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)
