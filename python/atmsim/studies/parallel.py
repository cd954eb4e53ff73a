"""Run independent simulations over worker processes, returning results in input order.

Each run is single-threaded inside the engine, so processes are the unit of parallelism.
The longest runs are started first so one slow run does not trail alone at the end.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, List, Optional, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _progress(done: int, total: int) -> None:
    # Progress goes to stderr and only to a terminal: stdout may be a JSON document.
    if sys.stderr.isatty():
        end = "\n" if done == total else ""
        print(f"\r  {done}/{total} runs", end=end, file=sys.stderr, flush=True)


def run_all(
    fn: Callable[[T], R],
    items: Sequence[T],
    jobs: Optional[int] = None,
    cost: Optional[Callable[[T], float]] = None,
) -> List[R]:
    """fn(item) for every item, over `jobs` processes (default: all cores)."""
    jobs = default_jobs() if jobs is None else jobs
    order = list(range(len(items)))
    if cost is not None:
        order.sort(key=lambda i: cost(items[i]), reverse=True)
    results: List[Optional[R]] = [None] * len(items)
    if jobs <= 1 or len(items) <= 1:
        # In-process: no pickling, and tracebacks point at the real failure.
        for n, i in enumerate(order, 1):
            results[i] = fn(items[i])
            _progress(n, len(items))
        return results  # type: ignore[return-value]
    with ProcessPoolExecutor(max_workers=min(jobs, len(items))) as pool:
        futures = {pool.submit(fn, items[i]): i for i in order}
        try:
            for n, future in enumerate(as_completed(futures), 1):
                results[futures[future]] = future.result()
                _progress(n, len(items))
        except BaseException:
            # Fail fast: do not wait for the queued runs of a study that already failed.
            for future in futures:
                future.cancel()
            raise
    return results  # type: ignore[return-value]
