"""Where a sweep's runs execute: local processes by default, or any concurrent.futures
Executor, a Dask cluster included.

The engine runs one simulation on one core and releases the GIL, so processes (or Dask
workers, even threaded ones) are the unit of parallelism. Dask is imported only when asked
for: `import atmsim` must stay fast and must not need it.
"""

from __future__ import annotations

import os
import socket
from concurrent.futures import Executor
from contextlib import contextmanager, suppress
from typing import Any, Iterator, Optional, Tuple


class ExecutorError(Exception):
    """An executor that cannot be set up (Dask missing or its scheduler unreachable)."""


def default_jobs() -> int:
    """Cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def local(jobs: Optional[int], tasks: int) -> Optional[Executor]:
    """A process pool of `jobs` workers (default all cores), or None to run in this process
    (one job or one task: no pickling, and a traceback points at the real failure)."""
    n = default_jobs() if jobs is None else jobs
    if n < 1:
        raise ExecutorError(f"--jobs: must be at least 1, got {n}")
    if n == 1 or tasks <= 1:
        return None
    # Imported here: multiprocessing costs 20 ms that `import atmsim` should not pay.
    from concurrent.futures import ProcessPoolExecutor

    from .mainguard import check

    # A script without `if __name__ == "__main__":` under spawn/forkserver: one line, exit.
    check()

    return ProcessPoolExecutor(max_workers=min(n, tasks))


def kill(pool: Executor) -> None:
    """Stop a local process pool now: queued runs are dropped and the worker processes are
    killed, runs in progress included (a sweep that is stopping must not leave them running)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with suppress(OSError, ValueError):  # already gone, or closed
            process.kill()
    for process in processes:
        with suppress(OSError, ValueError, AssertionError):
            process.join(5)


class Terminated(SystemExit):
    """SIGTERM arrived during a sweep: its workers were stopped; exit status 143."""

    def __init__(self) -> None:
        super().__init__(143)


@contextmanager
def terminate_on_sigterm() -> Iterator[None]:
    """While a local pool runs: SIGTERM raises Terminated in the main thread (so the pool is
    killed on the way out, not left running orphaned workers), where SIGTERM would otherwise
    kill this process alone. A handler the program installed itself is left alone."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    if previous is not signal.SIG_DFL:
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise Terminated()

    signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def adapt(executor: Any) -> Executor:
    """Accept an Executor, or a dask.distributed Client (its executor is used)."""
    if isinstance(executor, Executor):
        return executor
    get = getattr(executor, "get_executor", None)
    if callable(get):
        adapted = get()
        if isinstance(adapted, Executor):
            return adapted
    raise TypeError(
        f"executor: expected a concurrent.futures.Executor or a dask Client, got {type(executor).__name__}"
    )


_DASK_SCHEMES = {"tcp", "tls", "ws", "wss", "ucx", "inproc"}


def _reachable(address: str, host_port: str, timeout_s: float = 3.0) -> None:
    """Fail at once, in one line, when nothing listens at HOST:PORT (the Dask client would
    retry for twice its timeout and then print a traceback from its own threads)."""
    host, sep, port = host_port.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ExecutorError(f"--dask {address}: expected HOST:PORT (the scheduler's port, e.g. :8786)")
    host = host.strip("[]")
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except OSError as err:
        raise ExecutorError(f"--dask {address}: cannot connect: {err.strerror or err}") from None


def dask(address: str, timeout_s: float = 10.0) -> Tuple[Executor, Any]:
    """(executor, client) for the Dask scheduler at `address`; close the client when done.

    Every worker must have the same atmsim installed: tasks name `atmsim.sweeps.compute`.
    """
    scheme, sep, rest = address.rpartition("://")
    if (sep and scheme not in _DASK_SCHEMES) or not rest or "/" in rest:
        # Rejected here: a Client built on a bad address fails late and noisily at exit.
        raise ExecutorError(
            f"--dask {address}: expected [SCHEME://]HOST:PORT with SCHEME one of "
            f"{', '.join(sorted(_DASK_SCHEMES))}"
        )
    if scheme in ("", "tcp", "tls", "ws", "wss"):
        _reachable(address, rest)
    try:
        from distributed import Client  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise ExecutorError(
            "--dask: dask.distributed is not installed (pip install 'dask[distributed]')"
        ) from None
    try:
        client = Client(address, timeout=timeout_s, set_as_default=False)  # type: ignore[no-untyped-call,unused-ignore]
    except Exception as err:  # distributed raises many kinds; all mean "no cluster here"
        raise ExecutorError(f"--dask {address}: cannot connect: {' '.join(str(err).split())}") from None
    executor: Executor = client.get_executor()  # type: ignore[no-untyped-call,unused-ignore]
    return executor, client
