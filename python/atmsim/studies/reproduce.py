"""`atmsim reproduce STUDY|all`: run registered studies through the sweep and the results
store, compare with the published values, draw the figures.

This is the one path every study takes, whether the outcome is printed (`atmsim reproduce
STUDY`) or written as a report folder (`--out`, or `all`). Each point runs
`replication.replications` times (at least 4, 3 with --quick); a study whose points have a
random element but identical replications fails (`IdenticalReplications`). With
`sensitivity`, the study's declared assumptions are swept one at a time on its declared subset
(`sensitivity.py`) and the report gets a tornado figure.

Every run goes through `sweep.execute`, so runs already in the store are not computed again:
a report can be redrawn, or an interrupted reproduction resumed, at the cost of the missing
runs only.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, cast

from .. import _core
from ..figure_style import bounded
from ..literals import value_of
from ..plan import Point
from ..result import Result
from ..store import Store
from ..sweeps import execute
from ..tables import plain, summarize, without_attrs
from . import agreement, comparators, replication
from . import sensitivity as sens
from .assumptions import Assumption, Stated, concrete, document, expand, wildcard
from .registry import Experiment, FigureFile, Study, StudyResults, TraceRun

if TYPE_CHECKING:
    import pandas as pd

    from . import morris as screening

Pairs = Tuple[Tuple[str, str], ...]


@dataclass
class StudyReport:
    """One study's outcome: comparison tables, agreement, figures, run counts, notes."""

    study: Study
    results: StudyResults
    agreement: "pd.DataFrame"
    figures: List[FigureFile]
    runs: int
    computed: int
    cached: int
    notes: List[str] = field(default_factory=list)
    # The experiments behind the tables, in table-row order within each table.
    experiments: List[Experiment] = field(default_factory=list)
    replications: int = 1
    sensitivity: Optional[sens.Sensitivity] = None
    tornado: List[Path] = field(default_factory=list)
    morris: Optional[screening.Morris] = None


def assumptions_of(study: Study) -> List[Assumption]:
    """The study's declared assumptions (`assumptions` attribute; empty if it has none)."""
    return list(getattr(study, "assumptions", ()) or ())


def stated_of(study: Study) -> List[Stated]:
    """The parameters the study's paper states (`stated` attribute)."""
    return list(getattr(study, "stated", ()) or ())


@dataclass
class Reproduction:
    """Everything the report shows."""

    studies: List[StudyReport]
    quick: bool
    overrides: Pairs
    store: str
    engine_version: str
    wall_s: float
    started: float


def _point(study: Study, exp: Experiment, extra: Pairs) -> Point:
    params: Dict[str, Any] = {"study": study.name, "table": exp.table, **exp.labels}
    params.update({k: value_of(v) for k, v in extra})
    own = tuple(exp.scenario.overrides) + tuple(exp.overrides)
    return Point(exp.scenario, _with_extra(exp.scenario.text, own, extra), params)


def _with_extra(text: str, own: Pairs, extra: Pairs) -> Pairs:
    """A run's own overrides, then the command line's with their `*` keys made concrete."""
    return own + concrete(extra, text, own)


def _check_wildcards(study: Study, experiments: Sequence[Experiment], extra: Pairs) -> None:
    """A `*` key that matches nothing in any run of the study is a mistake (a misspelt array),
    not a no-op: refuse it, naming the key."""
    for key, _ in extra:
        if not wildcard(key):
            continue
        if not any(
            expand(key, document(e.scenario.text, tuple(e.scenario.overrides) + tuple(e.overrides)))
            for e in experiments
        ):
            raise SelectionError(f"--set {key}: the `*` matches nothing in any run of {study.name}")


def _labelled(stats: "pd.DataFrame", experiments: Sequence[Experiment]) -> "pd.DataFrame":
    """Every metric of every experiment, long form, labelled with table and label columns."""
    import pandas as pd

    labels = pd.DataFrame([{"point": i, "table": e.table, **e.labels} for i, e in enumerate(experiments)])
    merged = labels.merge(stats, on="point", how="right")
    return merged.drop(columns=["point"])


def _relabelled(runs: "pd.DataFrame", experiments: Sequence[Experiment]) -> "pd.DataFrame":
    """The run table with each row's `table` and label columns taken from its experiment.

    Experiments with the same scenario share one stored run, and the store keeps the
    parameters of the point that computed it: without this, every row of such a run would
    carry the first experiment's labels, and a derive_metrics hook could not tell them apart.
    """
    out = runs.copy()
    keys = ["table"] + sorted({k for e in experiments for k in e.labels})
    for key in keys:
        values = [e.table if key == "table" else e.labels.get(key) for e in experiments]
        out[key] = [values[int(i)] for i in out["point"]]
    out.attrs = dict(runs.attrs)
    return out


SHOWN_RUNS = 3  # with at most this many replications, tables show the values themselves


def _in_run_order(runs: Optional["pd.DataFrame"]) -> Optional["pd.DataFrame"]:
    """The run table as `_runs_of` reads it, made once for all its metrics: in point and run
    order, without attrs (pandas would deep-copy them into each group); None without a run
    table or its points."""
    if runs is None or "point" not in runs.columns:
        return None
    order = ["point", "run"] if "run" in runs.columns else ["point"]
    return without_attrs(runs).sort_values(order, kind="stable")


def _runs_of(runs: Optional["pd.DataFrame"], metric: str) -> Dict[int, List[Optional[float]]]:
    """Per point, the replications' values of `metric` (in run order); empty without a run
    table or with more than SHOWN_RUNS replications at some point. `runs`: as
    `_in_run_order` gives it."""
    if runs is None or metric not in runs.columns:
        return {}
    out: Dict[int, List[Optional[float]]] = {}
    for point, values in runs.groupby("point", sort=True)[metric]:
        out[int(cast(Any, point))] = [plain(float(v)) for v in values]
    if any(len(v) > SHOWN_RUNS for v in out.values()):
        return {}
    return out


def _comparison(
    study: Study,
    points: "pd.DataFrame",
    experiments: Sequence[Experiment],
    runs: Optional["pd.DataFrame"] = None,
) -> Dict[str, "pd.DataFrame"]:
    """Per table, one row per experiment: the simulated value, the published one with its
    comparator, whether they agree and the distance to the statement (comparators.py), the
    95 % interval cut to the quantity's bounds (figure_style.bounded, as the figures draw it)
    and, with at most SHOWN_RUNS replications, the replications themselves (`<name>_runs`)."""
    import pandas as pd

    out: Dict[str, pd.DataFrame] = {}
    by_run = _in_run_order(runs)
    for spec in study.tables:
        rows = []
        for i, exp in enumerate(experiments):
            if exp.table != spec.id:
                continue
            row: Dict[str, Any] = {"point": i, **{k: exp.labels.get(k) for k in spec.labels}}
            for c in spec.compared:
                row[f"paper_{c.name}"] = exp.published.get(c.name)
                known = exp.published.get(c.name) is not None
                row[f"comparator_{c.name}"] = exp.comparator(c.name) if known else None
                row[f"paper_high_{c.name}"] = exp.high(c.name)
            rows.append(row)
        frame = pd.DataFrame(rows)
        if not len(frame):
            continue
        ranged = {c.name for c in spec.compared if (frame[f"comparator_{c.name}"] == "range").any()}
        for c in spec.compared:
            # Consolidated per metric: a table with many compared metrics (CLASS's per-flow
            # columns) would otherwise grow past pandas' fragmentation warning, which users saw.
            frame = frame.copy()
            est = points[points["metric"] == c.metric].set_index("point")
            frame[c.name] = frame["point"].map(est["mean"])
            low = frame["point"].map(est["ci_low"])
            high = frame["point"].map(est["ci_high"])
            diffs, agree, lows, highs = [], [], [], []
            for k in range(len(frame)):
                paper = frame.at[k, f"paper_{c.name}"]
                comparator = str(frame.at[k, f"comparator_{c.name}"] or "~")
                hi_end = frame.at[k, f"paper_high_{c.name}"]
                sim = frame.at[k, c.name]
                tol = comparators.tolerance(paper, c.unit, (low.iloc[k], high.iloc[k]))
                d = comparators.distance(sim, paper, comparator, hi_end)
                diffs.append(float("nan") if d is None else d)
                agree.append(comparators.agrees(sim, paper, comparator, tol, hi_end))
                lo_k, hi_k = float(low.iloc[k]), float(high.iloc[k])
                if not (math.isnan(lo_k) or math.isnan(hi_k)):
                    lo_k, hi_k = bounded(c.name, lo_k, hi_k)
                lows.append(lo_k)
                highs.append(hi_k)
            frame[f"agrees_{c.name}"] = agree
            frame[f"diff_{c.name}"] = diffs
            frame[f"{c.name}_ci_low"] = lows
            frame[f"{c.name}_ci_high"] = highs
            shown = _runs_of(by_run, c.metric)
            if shown:
                frame[f"{c.name}_runs"] = frame["point"].map(lambda p, s=shown: s.get(int(p)))
        ordered = list(spec.labels)
        for c in spec.compared:
            ordered += [c.name, f"paper_{c.name}"]
            if c.name in ranged:
                ordered.append(f"paper_high_{c.name}")
            ordered += [
                f"comparator_{c.name}",
                f"agrees_{c.name}",
                f"diff_{c.name}",
                f"{c.name}_ci_low",
                f"{c.name}_ci_high",
            ]
            if f"{c.name}_runs" in frame:
                ordered.append(f"{c.name}_runs")
        out[spec.id] = frame[ordered].reset_index(drop=True)
    return out


def _traces(
    study: Study,
    runs: List[TraceRun],
    extra: Pairs,
    store: Store,
    jobs: Optional[int],
    executor: Any,
    progress: Optional[bool],
    notes: List[str],
) -> List[Tuple[TraceRun, Dict[str, "pd.DataFrame"]]]:
    if not runs:
        return []
    points = [
        Point(
            r.scenario,
            _with_extra(r.scenario.text, tuple(r.scenario.overrides) + tuple(r.overrides), extra),
            {"study": study.name, "trace": r.name},
        )
        for r in runs
    ]
    try:
        done = execute(
            points, 1, store=store, executor=executor, jobs=jobs, show_progress=progress, cost=lambda p: 1.0
        )
    except _core.ScenarioError as err:
        # An engine without [trace] support must not cost the whole report its tables.
        notes.append(f"trace figures skipped: the engine rejected the traced runs ({err})")
        return []
    out = []
    for run, task in zip(runs, done.tasks):
        raw = store.result(task.key)
        # getattr: Result.traces arrives with the engine's [trace] support; without it the
        # report still has its tables.
        tables = getattr(Result(raw), "traces", None) if raw is not None else None
        if tables:
            out.append((run, dict(tables)))
        else:
            notes.append(f"trace run {run.name}: no traces in its report")
    return out


class SelectionError(ValueError):
    """`--tables` (with `--quick`) names no table or no run of a study, or a `--set` key's `*`
    matches nothing."""


def table_aliases(table_id: str) -> List[str]:
    """The names `--tables` accepts for a table id: the id itself, and for a range of paper
    tables or figures ("2-3", "8-9") each number in it, for "11-3bg" its number "11"."""
    names = [table_id]
    first, _, last = table_id.partition("-")
    if first.isdigit():
        end = int(last) if last.isdigit() and int(last) >= int(first) else int(first)
        names += [str(n) for n in range(int(first), end + 1)]
    return names


def select_tables(study: Study, spec: str) -> List[str]:
    """The table ids of `study` a comma-separated `--tables` list names (ValueError if one
    names no table)."""
    ids = [t.id for t in study.tables]
    chosen = set()
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        hits = [t for t in ids if part in table_aliases(t)]
        if not hits:
            raise SelectionError(
                f"--tables: {study.name} has no table {part!r} (choose from {', '.join(ids)})"
            )
        chosen.update(hits)
    if not chosen:
        raise SelectionError("--tables: no table given")
    return [t for t in ids if t in chosen]


def reproduce_study(
    study: Study,
    quick: bool,
    extra: Pairs,
    store: Store,
    out_dir: Optional[Path],
    jobs: Optional[int] = None,
    executor: Any = None,
    progress: Optional[bool] = None,
    tables: Optional[Sequence[str]] = None,
    sensitivity: bool = False,
    morris_options: Optional[screening.Options] = None,
) -> StudyReport:
    """One study through the sweep and the store. out_dir None: compare only (no trace runs,
    no figures); tables: only these table ids' experiments."""
    experiments = study.experiments(quick)
    if tables is not None:
        experiments = [e for e in experiments if e.table in tables]
    if not experiments:
        raise SelectionError(
            f"--tables: no run of {study.name} selected (--quick keeps a subset of its tables)"
        )
    _check_wildcards(study, experiments, extra)
    points = [_point(study, e, extra) for e in experiments]
    costs = {id(p): e.cost for p, e in zip(points, experiments)}
    # Optional study hooks: `detail_metrics = True` reads every flow and port field of the
    # reports (not only summary and goodputs); `derive_metrics(runs)` returns the run table
    # with extra metric columns (listed in its attrs["metrics"]).
    runs = replication.replications(study.runs, quick)
    swept = execute(
        points,
        runs,
        store=store,
        executor=executor,
        jobs=jobs,
        show_progress=progress,
        cost=lambda p: costs.get(id(p), 1.0),
        detail=bool(getattr(study, "detail_metrics", False)),
    )
    run_table = _relabelled(swept.runs, experiments)
    notes: List[str] = []
    # A run shortened by hand (--duration) may end before its first random draw (an idle
    # time drawn after the first transfer): then identical runs are a note, not an error.
    shortened = any(k == "simulation.duration_s" for k, _ in extra)
    _check_replications(study, experiments, points, run_table, None if not shortened else notes)
    derive = getattr(study, "derive_metrics", None)
    if derive is not None:
        run_table = derive(run_table)
    indexed = summarize(run_table, by=["point"])
    compared = _comparison(study, indexed, experiments, run_table)
    traces = (
        []
        if out_dir is None
        else _traces(study, study.trace_runs(quick), extra, store, jobs, executor, progress, notes)
    )
    results = StudyResults(
        tables=compared, points=_labelled(indexed, experiments), traces=traces, runs=run_table
    )
    # Optional hook: `report_notes(quick, results)` adds lines of the study's own (settings,
    # statements compared in prose) to the report and the command's output.
    study_notes = getattr(study, "report_notes", None)
    if study_notes is not None:
        notes.extend(study_notes(quick, results))
    figures = [] if out_dir is None else study.figures(results, out_dir / study.name)
    report = StudyReport(
        study=study,
        results=results,
        agreement=agreement.summarize(compared, study.tables),
        figures=figures,
        runs=len(swept.tasks),
        computed=swept.computed,
        cached=swept.cached,
        notes=notes,
        experiments=experiments,
        replications=runs,
    )
    if sensitivity:
        declared = assumptions_of(study)
        report.sensitivity = sens.run(
            study,
            declared,
            sens.subset(study, quick),
            runs,
            store,
            extra,
            executor,
            jobs,
            progress,
            sens.combinations_of(study, declared),
        )
        if out_dir is not None:
            report.tornado = sens.tornado(
                report.sensitivity,
                declared,
                out_dir / study.name / "sensitivity-tornado",
                f"{study.title}: one assumption at a time",
            )
    if morris_options is not None:
        from . import morris as screening

        declared = assumptions_of(study)
        chosen = screening.subset(study, quick)
        report.morris = screening.run(
            study, declared, chosen, runs, store, morris_options, extra, executor, jobs, progress
        )
        if out_dir is not None:
            screening.write(report.morris, out_dir / study.name, declared)
    return report


def _check_replications(
    study: Study,
    experiments: Sequence[Experiment],
    points: Sequence[Point],
    runs: "pd.DataFrame",
    notes: Optional[List[str]] = None,
) -> None:
    """Fail the study if a random point's replications are all the same (with `notes`,
    record it there instead)."""
    has_phases = replication.engine_has_phases()
    random = {
        i: replication.random_elements(p.scenario.text, p.overrides, has_phases) for i, p in enumerate(points)
    }
    labels = {i: sens.label(e) for i, e in enumerate(experiments)}
    found = replication.check(runs, random, labels)
    if found and notes is not None:
        notes.append(
            replication.message(study.name, found) + " (the duration was overridden: "
            "a short run may end before its first random draw)"
        )
    elif found:
        raise replication.IdenticalReplications(replication.message(study.name, found))


def reproduce(
    studies: Sequence[Study],
    quick: bool,
    store: Store,
    out_dir: Optional[Path],
    overrides: Pairs = (),
    jobs: Optional[int] = None,
    executor: Any = None,
    progress: Optional[bool] = None,
    tables: Optional[Sequence[str]] = None,
    sensitivity: bool = False,
    morris_options: Optional[screening.Options] = None,
) -> Reproduction:
    """Run, compare and (with an out_dir) draw every study, and with `sensitivity` sweep its
    assumptions; the caller prints the outcome (studies/text.py) or writes the report folder
    (studies/report.py)."""
    started = time.time()
    clock = time.perf_counter()
    reports = [
        reproduce_study(
            s,
            quick,
            tuple(overrides),
            store,
            out_dir,
            jobs,
            executor,
            progress,
            tables,
            sensitivity,
            morris_options,
        )
        for s in studies
    ]
    return Reproduction(
        studies=reports,
        quick=quick,
        overrides=tuple(overrides),
        store=store.path,
        engine_version=_core.version(),
        wall_s=time.perf_counter() - clock,
        started=started,
    )
