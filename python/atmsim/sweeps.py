"""Parameter sweeps with replications, cached in the results store.

`sweep()` expands a grid and zipped lists into points (`plan.py`), runs every point `runs`
times with derived seeds (`seeds.py`), and commits each finished run to the store as soon as
it arrives, so an interrupted sweep loses nothing it finished and a restarted one computes
only what is missing. Runs execute on local processes, on any concurrent.futures Executor, or
on a Dask cluster (`executors.py`).
"""

from __future__ import annotations

import itertools
import json
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import nullcontext
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from . import _core, executors, plan, progress
from .limits import Estimate, check_memory, estimate
from .metrics import flatten
from .overrides import Overrides, normalize
from .scenario import ScenarioLike, as_scenario
from .store import DEFAULT_PATH, PathLike, Store, open_store

if TYPE_CHECKING:
    import pandas as pd

StoreLike = Union[Store, PathLike, None]
"""Where a sweep keeps its runs: a path of a results store, an open `Store`, or None (in
memory, nothing persists)."""


class SweepError(Exception):
    """A sweep that cannot go on for a reason other than the scenario (e.g. a worker with a
    different engine)."""


def compute(text: str, overrides: List[Tuple[str, str]], seed: int) -> str:
    """One run, as a worker executes it.

    Args:
        text: The scenario's TOML text.
        overrides: `(dotted key, TOML literal)` pairs.
        seed: The run's seed.

    Returns:
        The engine's report as JSON text.
    """
    return _core.run_json(text, overrides, seed)


@dataclass
class SweepResult:
    """What `execute` did: the sweep's points and tasks, its run table, and how many runs were
    computed now or found in the store.

    Args:
        points: The parameter combinations, in order.
        tasks: One task per (point, run).
        runs: The run table, one row per task (as `summarize` takes it).
        computed: Runs computed by this call.
        cached: Runs found in the store.
    """

    points: List[plan.Point]
    tasks: List[plan.Task]
    runs: "pd.DataFrame"
    computed: int
    cached: int

    def summary(self, level: float = 0.95) -> "pd.DataFrame":
        """Per-point statistics of the runs, as `summarize` gives them.

        Args:
            level: Confidence level of the Student-t interval.

        Returns:
            One row per (point, metric).
        """
        from .tables import summarize

        return summarize(self.runs, level=level)


# Tasks planned and checked against the store at a time, and runs in flight per worker: what
# a sweep holds in memory however many runs it has.
CHUNK = 1024
IN_FLIGHT_PER_WORKER = 4
# Up to this many runs, `cost` orders them all (longest first); beyond, they run in order.
SORT_LIMIT = 100_000


def _results(
    todo: Iterable[plan.Task],
    points: Sequence[plan.Point],
    executor: Optional[Executor],
    window: int,
) -> Iterator[Tuple[plan.Task, str]]:
    """(task, report) as runs finish, at most `window` submitted and unfinished at a time.
    Without an executor, one at a time in this process, so that each is committed before the
    next starts."""

    def args(t: plan.Task) -> Tuple[str, List[Tuple[str, str]], int]:
        return points[t.point].scenario.text, list(points[t.point].overrides), t.seed

    if executor is None:
        for task in todo:
            yield task, compute(*args(task))
        return
    pending: Dict["Future[str]", plan.Task] = {}
    source = iter(todo)
    try:
        while True:
            for task in itertools.islice(source, max(0, window - len(pending))):
                pending[executor.submit(compute, *args(task))] = task
            if not pending:
                return
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                yield pending.pop(future), future.result()
    finally:
        # Stopping early (an error, Ctrl-C, the caller gave up): drop what has not started.
        for future in pending:
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
        key=task.key,
        scenario=point.scenario.text,
        source=point.scenario.source,
        overrides=point.overrides,
        params=point.params,
        seed=task.seed,
        run=task.run,
        engine_version=engine,
        metrics=flatten(report),
        result=text,
    )


def estimate_points(points: Sequence[plan.Point]) -> List[Estimate]:
    """The engine's cost estimate of one run of each point, before anything runs.

    Args:
        points: The sweep's points.

    Returns:
        One `Estimate` per point, in order.

    Raises:
        ScenarioError: A point the engine would refuse.
    """
    return [estimate(p.scenario.text, list(p.overrides)) for p in points]


# Set by the command line (`atmsim reproduce`): before a batch of runs whose estimated wall
# time (runs not in the store yet, shared among the workers) exceeds this many seconds, one
# line on stderr says how long it will take. None (the API's default): say nothing.
ANNOUNCE_OVER_S: Optional[float] = None


def _announce(
    points: Sequence[plan.Point], runs: int, base_seed: int, engine: str, store: Store, workers: int
) -> None:
    import sys

    from .limits import announce_line

    if ANNOUNCE_OVER_S is None or not points:
        return
    total = len(points) * runs
    if total <= SORT_LIMIT:
        tasks = list(plan.iter_tasks(points, runs, base_seed, engine))
        stored = store.existing(t.key for t in tasks)
        todo = [t for t in tasks if t.key not in stored]
    else:  # too many to look up first: count them all
        todo = list(itertools.islice(plan.iter_tasks(points, runs, base_seed, engine), SORT_LIMIT))
    if not todo:
        return
    # Only the points with a run to compute are estimated: a sweep read back from the store
    # costs no estimate (each is a scenario build in the engine).
    needed = sorted({t.point for t in todo})
    walls = dict(zip(needed, (e.wall_s for e in estimate_points([points[i] for i in needed]))))
    wall = sum(walls[t.point] for t in todo) * (total / len(todo) if total > SORT_LIMIT else 1)
    wall /= max(1, min(workers, len(todo)))
    if wall > ANNOUNCE_OVER_S:
        print(announce_line(f"{len(todo)} runs to compute on {workers} worker(s)", wall), file=sys.stderr)


def check_points(points: Sequence[plan.Point], max_memory: Optional[int], workers: int) -> None:
    """Refuse a sweep whose runs in flight would need too much memory.

    Args:
        points: The sweep's points.
        max_memory: The cap in bytes; None: no check (and no estimate).
        workers: Runs in flight at once.

    Raises:
        LimitError: `workers` runs of some point need more than `max_memory` bytes by the
            estimate.
        ScenarioError: A point the engine would refuse (only when there is a cap).
    """
    if max_memory is None:
        return
    for p, est in zip(points, estimate_points(points)):
        check_memory(est, max_memory, f"sweep point {p.params or p.scenario.source}", workers)


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
    max_memory: Optional[int] = None,
) -> SweepResult:
    """Run every point `runs` times, skipping runs already in the store.

    Tasks are made lazily and checked against the store a chunk at a time, so the memory a
    sweep holds does not grow with `runs`; every finished run is committed at once.

    Args:
        points: The points to run (`plan.points`).
        runs: Replications per point, at least 1.
        base_seed: Base of the replications' seeds (`derive_seed`).
        store: A store path, an open `Store`, or None (in memory).
        executor: A concurrent.futures Executor or a dask Client (not shut down here); None:
            a pool of `jobs` local processes.
        jobs: Local worker processes; None: one per core this process may use.
        show_progress: Progress bar on stderr; None: only when stderr is a terminal.
        cost: Relative run time of a point, to start long runs first; None: in order.
        detail: Metrics from every numeric field of every flow and port.
        max_memory: Refuse (LimitError) before running if the estimated memory of the runs in
            flight at once exceeds it (bytes); None: no check.

    Returns:
        The points, tasks, run table and the computed and cached counts.

    Raises:
        SweepSpecError: `runs` below 1.
        LimitError: The estimated memory exceeds `max_memory`.
        ScenarioError: A point the engine rejects.
        StoreError: The store cannot be opened or written.
        SweepError: A worker runs another engine version than this process.
    """
    from .tables import runs_frame

    engine = _core.version()
    total = len(points) * runs
    if runs < 1:
        raise plan.SweepSpecError(f"runs: must be at least 1, got {runs}")
    workers = 1 if executor is not None else min(jobs or executors.default_jobs(), max(total, 1))
    check_points(points, max_memory, workers)
    db = store if isinstance(store, Store) else open_store(store)
    computed = cached = 0
    try:
        _announce(points, runs, base_seed, engine, db, workers)
        own = executors.local(jobs, total) if executor is None else None
        pool = executors.adapt(executor) if executor is not None else own
        # An outside executor (a cluster) has workers we cannot count: keep plenty in flight.
        window = IN_FLIGHT_PER_WORKER * (workers if executor is None else 64)
        ordered: Iterable[plan.Task] = plan.iter_tasks(points, runs, base_seed, engine)
        if cost is not None and total <= SORT_LIMIT:
            ordered = sorted(ordered, key=lambda t: cost(points[t.point]), reverse=True)
        bar = progress.bar(total, 0, show_progress)

        def todo() -> Iterator[plan.Task]:
            nonlocal cached
            source = iter(ordered)
            while True:
                chunk = list(itertools.islice(source, CHUNK))
                if not chunk:
                    return
                seen = set(db.existing(t.key for t in chunk))
                for task in chunk:
                    if task.key in seen:  # stored, or equal points (e.g. x=1,1): one run
                        cached += 1
                        bar.update(1)
                        continue
                    seen.add(task.key)
                    yield task

        try:
            with executors.terminate_on_sigterm() if own is not None else nullcontext():
                for task, text in _results(todo(), points, pool, window):
                    _commit(db, points[task.point], task, text, engine)
                    computed += 1
                    bar.update(1)
        except BrokenProcessPool:
            if own is not None:
                executors.kill(own)
            from .mainguard import start_method

            raise SweepError(
                "a worker process died before finishing its run"
                + (
                    f" (under the '{start_method()}' start method a script must run the sweep "
                    "under 'if __name__ == \"__main__\":'; see docs/python-api.md)"
                    if start_method() != "fork"
                    else " (killed, or out of memory?)"
                )
            ) from None
        except BaseException:
            # Do not wait for the runs of a sweep that is stopping: queued ones are dropped and
            # the workers killed (their runs' results are lost, but were never committed).
            if own is not None:
                executors.kill(own)
            raise
        finally:
            bar.close()
        if own is not None:
            own.shutdown(wait=True)
        tasks = plan.tasks(points, runs, base_seed, engine)
        stored = db.fetch([t.key for t in tasks], with_result=detail)
        by_key = {s.key: s for s in stored}
        ordered_runs = [by_key[t.key] for t in tasks]
        frame = runs_frame(ordered_runs, detail=detail, extra=[{"point": t.point} for t in tasks])
    finally:
        if db is not store:
            db.close()
    return SweepResult(points, tasks, frame, computed=computed, cached=cached)


def sweep(
    scenario: Optional[ScenarioLike] = None,
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
    max_memory: Optional[int] = None,
    text: Optional[str] = None,
) -> pd.DataFrame:
    """Run a parameter study with replications and return a tidy table.

    Each point runs `runs` times, run r with seed `derive_seed(base_seed, r)` (the same seeds
    at every point). Each finished run is committed to the store at once and found there next
    time, so an interrupted sweep resumes where it stopped. In a script, call it under
    `if __name__ == "__main__":`: with the `spawn` and `forkserver` start methods the local
    worker processes import the script.

    Args:
        scenario: A `Scenario`, a path or TOML text, as for `run`.
        grid: `{dotted key: [values]}`, crossed (the cartesian product of the lists).
            Default None: no grid axes.
        zip: `{dotted key: [values]}`, all lists one length, advanced in lockstep and crossed
            with the grid. Default None: no zipped axes.
        runs: Replications per point, at least 1.
        overrides: Dotted-key overrides applied to every point, as for `run`.
        base_seed: Base of the replications' seeds (an integer >= 0).
        store: Where runs are committed and looked up: a path (default "results.sqlite" in
            the working directory), an open `Store`, or None to keep them in memory.
        executor: A `concurrent.futures.Executor` or a `dask.distributed.Client` to run on
            (not shut down here). Default None: `jobs` local processes.
        jobs: Local worker processes. Default None: one per core this process may use.
        progress: Show a progress bar on stderr. Default None: only when stderr is a
            terminal.
        summary: Return one row per (point, metric); False: one row per run.
        detail: Add every numeric field of every flow and port to the metrics.
        max_memory: Refuse, before anything runs, a sweep whose estimated memory for the runs
            in flight at once exceeds this many bytes. Default None: no check.
        text: TOML text, as for `run`.

    Returns:
        A pandas DataFrame. With `summary`: one row per (point, metric) with `point`,
            `scenario_hash`, one column per parameter, `metric`, `n`, `mean`, `std`, `ci_low`,
            `ci_high` (95 % Student-t interval). Without: one row per run (identity columns,
            parameters, metrics). `.attrs["runs_computed"]` and `.attrs["runs_cached"]` count
            the runs computed now and those found in the store.

    Raises:
        ScenarioError: A point the engine rejects.
        SweepSpecError: A bad grid, zip or run count (a `ValueError` naming the option).
        LimitError: The estimated memory exceeds `max_memory`.
        StoreError: The store cannot be opened or written.
        SweepError: A worker runs another engine version than this process.
    """
    sc = as_scenario(scenario, text)
    fixed = tuple(normalize(overrides))
    points = plan.points(sc, plan.axes(grid, "grid"), plan.axes(zip, "zip"), fixed, "overrides")
    result = execute(
        points, runs, base_seed, store, executor, jobs, progress, detail=detail, max_memory=max_memory
    )
    frame = result.summary() if summary else result.runs
    frame.attrs["runs_computed"] = result.computed
    frame.attrs["runs_cached"] = result.cached
    return frame
