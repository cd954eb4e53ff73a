"""Parameter sweeps with replications, cached in the results store.

`sweep()` expands a grid and zipped lists into points (`plan.py`), runs every point `runs`
times with derived seeds (`seeds.py`), and commits each finished run to the store as soon as
it arrives, so an interrupted sweep loses nothing it finished and a restarted one computes
only what is missing. Runs execute on local processes, on any concurrent.futures Executor, or
on a Dask cluster (`executors.py`).
"""

from __future__ import annotations

import json
from concurrent.futures import Executor, Future, as_completed
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from . import _core, executors, plan, progress
from .metrics import flatten
from .overrides import Overrides, normalize
from .scenario import ScenarioLike, as_scenario
from .store import DEFAULT_PATH, PathLike, Store, open_store

if TYPE_CHECKING:
    import pandas as pd

StoreLike = Union[Store, PathLike, None]


class SweepError(Exception):
    """A sweep that cannot go on for a reason other than the scenario (e.g. a worker with a
    different engine)."""


def compute(text: str, overrides: List[Tuple[str, str]], seed: int) -> str:
    """One run, as a worker executes it: the engine's JSON report."""
    return _core.run_json(text, overrides, seed)


@dataclass
class SweepResult:
    """Points, tasks and how many runs were computed now or found in the store."""

    points: List[plan.Point]
    tasks: List[plan.Task]
    runs: "pd.DataFrame"
    computed: int
    cached: int

    def summary(self, level: float = 0.95) -> "pd.DataFrame":
        from .tables import summarize

        return summarize(self.runs, level=level)


def _results(
    todo: Sequence[plan.Task],
    points: Sequence[plan.Point],
    executor: Optional[Executor],
) -> Iterator[Tuple[plan.Task, str]]:
    """(task, report) as runs finish. Without an executor, one at a time in this process, so
    that each is committed before the next starts."""
    def args(t: plan.Task) -> Tuple[str, List[Tuple[str, str]], int]:
        return points[t.point].scenario.text, list(points[t.point].overrides), t.seed

    if executor is None:
        for task in todo:
            yield task, compute(*args(task))
        return
    futures: Dict["Future[str]", plan.Task] = {}
    try:
        for task in todo:
            futures[executor.submit(compute, *args(task))] = task
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        # Stopping early (an error, Ctrl-C, the caller gave up): drop what has not started.
        for future in futures:
            future.cancel()


def _commit(store: Store, point: plan.Point, task: plan.Task, text: str, engine: str) -> None:
    report = json.loads(text)
    worker_engine = report.get("engine_version")
    if worker_engine != engine:
        # The key says which engine produced the result; a worker with another one would
        # file its result under the wrong key.
        raise SweepError(
            f"a worker ran engine {worker_engine}, this machine has {engine}: "
            "install the same atmsim everywhere"
        )
    store.put(
        key=task.key, scenario=point.scenario.text, source=point.scenario.source,
        overrides=point.overrides, params=point.params, seed=task.seed, run=task.run,
        engine_version=engine, metrics=flatten(report), result=text,
    )


def execute(
    points: List[plan.Point],
    runs: int = 1,
    base_seed: int = 1,
    store: StoreLike = DEFAULT_PATH,
    executor: Any = None,
    jobs: Optional[int] = None,
    show_progress: Optional[bool] = None,
    cost: Optional[Callable[[plan.Point], float]] = None,
    detail: bool = False,
) -> SweepResult:
    """Run every point `runs` times, skipping runs already in the store.

    executor: a concurrent.futures Executor or a dask Client (not shut down here); default a
    pool of `jobs` local processes. cost: relative run time of a point, to start long runs
    first.
    """
    from .tables import runs_frame

    engine = _core.version()
    tasks = plan.tasks(points, runs, base_seed, engine)
    db = store if isinstance(store, Store) else open_store(store)
    try:
        done = db.existing(t.key for t in tasks)
        todo, seen = [], set(done)
        for task in tasks:
            if task.key not in seen:  # equal points (e.g. x=1,1) are one run
                seen.add(task.key)
                todo.append(task)
        if cost is not None:
            todo.sort(key=lambda t: cost(points[t.point]), reverse=True)
        own = executors.local(jobs, len(todo)) if executor is None else None
        pool = executors.adapt(executor) if executor is not None else own
        bar = progress.bar(len(todo), len(tasks) - len(todo), show_progress)
        try:
            for task, text in _results(todo, points, pool):
                _commit(db, points[task.point], task, text, engine)
                bar.update(1)
        except BaseException:
            # Do not wait for queued runs of a sweep that is stopping; running ones finish
            # in their workers (their results are lost, but they were never committed).
            if own is not None:
                own.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            bar.close()
        if own is not None:
            own.shutdown(wait=True)
        stored = db.fetch([t.key for t in tasks], with_result=detail)
        by_key = {s.key: s for s in stored}
        ordered = [by_key[t.key] for t in tasks]
        frame = runs_frame(ordered, detail=detail, extra=[{"point": t.point} for t in tasks])
    finally:
        if db is not store:
            db.close()
    return SweepResult(points, tasks, frame, computed=len(todo), cached=len(tasks) - len(todo))


def sweep(
    scenario: ScenarioLike,
    grid: Optional[Mapping[str, Sequence[Any]]] = None,
    zip: Optional[Mapping[str, Sequence[Any]]] = None,  # noqa: A002 - the documented name
    runs: int = 1,
    *,
    overrides: Overrides = None,
    base_seed: int = 1,
    store: StoreLike = DEFAULT_PATH,
    executor: Any = None,
    jobs: Optional[int] = None,
    progress: Optional[bool] = None,
    summary: bool = True,
    detail: bool = False,
) -> "pd.DataFrame":
    """Run a parameter study and return a tidy DataFrame.

    grid: {dotted key: [values]}, crossed (cartesian product); zip: {dotted key: [values]},
    all lists one length, advanced in lockstep and crossed with the grid. Each point runs
    `runs` times; run r gets seed `atmsim.seeds.derive_seed(base_seed, r)`. overrides apply to
    every point. Finished runs are committed to `store` (a path, default "results.sqlite"; a
    Store; None keeps them in memory) and found there next time.

    Returns one row per (point, metric) with n, mean, std, ci_low, ci_high (95 % Student t),
    or with summary=False one row per run (parameters and metrics as columns).
    `.attrs["runs_computed"]` and `.attrs["runs_cached"]` say how many runs were computed now
    and found in the store.
    """
    sc = as_scenario(scenario)
    fixed = tuple(normalize(overrides))
    points = plan.points(sc, plan.axes(grid, "grid"), plan.axes(zip, "zip"), fixed)
    result = execute(points, runs, base_seed, store, executor, jobs, progress, detail=detail)
    frame = result.summary() if summary else result.runs
    frame.attrs["runs_computed"] = result.computed
    frame.attrs["runs_cached"] = result.cached
    return frame
