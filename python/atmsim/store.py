"""The results store: an embedded SQLite database, one row per finished run.

Crash safety comes from SQLite, not from us: the database is in WAL mode with full
synchronisation, and each run is written by one INSERT in its own transaction, so a process
killed at any instant (SIGKILL included) leaves every committed run intact and no half-written
one. The row's primary key is the run's content key (`runkey.run_key`), and rows are inserted
with INSERT OR IGNORE, so a run can never be stored twice, even by two sweeps writing the same
store at once.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ContextManager, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

SCHEMA_VERSION = "1"
DEFAULT_PATH = "results.sqlite"
IN_MEMORY = ":memory:"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY,          -- runkey.run_key(scenario, overrides, seed, engine_version)
    scenario TEXT NOT NULL,        -- the scenario's TOML text, as given to the engine
    source TEXT NOT NULL,          -- where the text came from (a path or '<text>')
    overrides TEXT NOT NULL,       -- JSON [[dotted key, TOML literal], ...], in order
    params TEXT NOT NULL,          -- JSON {dotted key: value}: the overrides as values
    seed INTEGER NOT NULL,
    run INTEGER NOT NULL,          -- replication number within its point
    engine_version TEXT NOT NULL,
    metrics TEXT NOT NULL,         -- JSON metrics.flatten(result): fast tables
    result TEXT NOT NULL,          -- the engine's full JSON report
    created_at REAL NOT NULL       -- Unix time of the commit
);
"""

# Columns read back for tables; `result` only when asked for (it is the bulk of the file).
_LIGHT = "key, scenario, source, overrides, params, seed, run, engine_version, metrics, created_at"


class StoreError(Exception):
    """A store that cannot be opened or used (not an atmsim store, another format, disk full,
    locked, damaged); str() is one line starting with its path."""


@dataclass(frozen=True)
class StoredRun:
    """One row of the store, JSON columns decoded, as `Store.fetch` returns it.

    Args:
        key: The run's content key (`runkey.run_key`).
        scenario: The scenario's TOML text, as given to the engine.
        source: Where the text came from (a path, or `"<text>"`).
        overrides: `(dotted key, TOML literal)` pairs, in the order applied.
        params: `{dotted key: value}`: the overrides as values.
        seed: The seed the run used.
        run: Replication number within its point.
        engine_version: Version of the engine that ran it.
        metrics: `{metric: value}` (None for a missing value).
        created_at: Unix time of the commit, in seconds.
        result: The engine's full JSON report, if it was read (`with_result=True`).
    """

    key: str
    scenario: str
    source: str
    overrides: List[Tuple[str, str]]
    params: Dict[str, Any]
    seed: int
    run: int
    engine_version: str
    metrics: Dict[str, Optional[float]]
    created_at: float
    result: Optional[str] = None


PathLike = Union[str, "os.PathLike[str]"]


class Store:
    """An open results store (SQLite), one row per finished run.

    Made by `open_store(path)`, not directly; close it (or use it in a `with` block) when
    done.

    Args:
        connection: The open SQLite connection.
        path: The store's path (":memory:" for one kept in memory), for messages.
    """

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self._db = connection
        self.path = path

    # -- writing ---------------------------------------------------------------------------

    def put(
        self,
        key: str,
        scenario: str,
        source: str,
        overrides: Sequence[Tuple[str, str]],
        params: Dict[str, Any],
        seed: int,
        run: int,
        engine_version: str,
        metrics: Dict[str, Optional[float]],
        result: str,
    ) -> bool:
        """Commit one finished run, in its own transaction.

        Args:
            key: The run's content key (`runkey.run_key`): the row's primary key.
            scenario: The scenario's TOML text, as given to the engine.
            source: Where the text came from (a path, or `"<text>"`).
            overrides: `(dotted key, TOML literal)` pairs, in the order applied.
            params: `{dotted key: value}`: the overrides as values.
            seed: The seed the run used.
            run: Replication number within its point.
            engine_version: Version of the engine that ran it.
            metrics: `{metric: value}`, as `metrics.flatten` gives of the report.
            result: The engine's full JSON report.

        Returns:
            True if stored, False if a run with this key was already there (it is kept).

        Raises:
            StoreError: The database cannot be written (disk full, locked, ...).
        """
        row = (
            key,
            scenario,
            source,
            json.dumps([list(p) for p in overrides]),
            json.dumps(params),
            int(seed),
            int(run),
            engine_version,
            json.dumps(metrics),
            result,
            time.time(),
        )
        with self._errors():
            # One statement in autocommit mode is one transaction: the row is on disk, whole,
            # when execute() returns, or it is not there at all.
            cur = self._db.execute(
                "INSERT OR IGNORE INTO runs (key, scenario, source, overrides, params, seed,"
                " run, engine_version, metrics, result, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            return cur.rowcount == 1

    # -- reading ---------------------------------------------------------------------------

    def count(self) -> int:
        """How many runs are stored.

        Returns:
            The number of stored runs.
        """
        with self._errors():
            (n,) = self._db.execute("SELECT COUNT(*) FROM runs").fetchone()
        return int(n)

    def keys(self) -> Set[str]:
        """Which runs are stored.

        Returns:
            The keys of all stored runs.
        """
        with self._errors():
            return {k for (k,) in self._db.execute("SELECT key FROM runs")}

    def keys_starting(self, prefix: str, limit: int = 2) -> List[str]:
        """Stored keys that start with `prefix`, to resolve an abbreviated key.

        Args:
            prefix: The first characters of a run's key.
            limit: At most this many keys are returned (two tell an ambiguous prefix).

        Returns:
            The matching keys, sorted.
        """
        with self._errors():
            rows = self._db.execute(
                "SELECT key FROM runs WHERE substr(key, 1, ?) = ? ORDER BY key LIMIT ?",
                (len(prefix), prefix, limit),
            )
            return [k for (k,) in rows]

    def existing(self, keys: Iterable[str]) -> Set[str]:
        """Which of these runs are stored already.

        Args:
            keys: Run keys (`runkey.run_key`).

        Returns:
            The subset of `keys` that is stored.

        Raises:
            StoreError: One of them is stored with a damaged result (not an atmsim report).
        """
        wanted = list(keys)
        found: Set[str] = set()
        with self._errors():
            for chunk in _chunks(wanted, 500):  # below SQLite's limit on bound parameters
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    "SELECT key, CASE WHEN json_valid(result) AND json_valid(metrics)"
                    " THEN json_type(result, '$.summary') IS 'object' ELSE 0 END"
                    f" FROM runs WHERE key IN ({marks})",
                    chunk,
                )
                for k, ok in rows:
                    if not ok:
                        # Reusing it would put garbage in every table made from this sweep.
                        raise StoreError(
                            f"{self.path}: stored run {k} is damaged (its result is not an "
                            "atmsim report); delete that row or use another store"
                        )
                    found.add(k)
        return found

    def fetch(self, keys: Optional[Sequence[str]] = None, with_result: bool = False) -> List[StoredRun]:
        """Read stored runs.

        Args:
            keys: Run keys to read, in the order wanted (missing ones are skipped); None:
                every run, in the order they were committed.
            with_result: Also read each run's full report (the bulk of the file).

        Returns:
            One `StoredRun` per run found.
        """
        columns = _LIGHT + (", result" if with_result else "")
        out: List[StoredRun] = []
        with self._errors():
            if keys is None:
                rows = self._db.execute(f"SELECT {columns} FROM runs ORDER BY rowid").fetchall()
                return [_decode(r) for r in rows]
            by_key: Dict[str, StoredRun] = {}
            for chunk in _chunks(list(keys), 500):
                marks = ",".join("?" * len(chunk))
                sql = f"SELECT {columns} FROM runs WHERE key IN ({marks})"
                for r in self._db.execute(sql, chunk):
                    by_key[r[0]] = _decode(r)
            out = [by_key[k] for k in keys if k in by_key]
        return out

    def result(self, key: str) -> Optional[Dict[str, Any]]:
        """The full engine report of one run.

        Args:
            key: The run's key.

        Returns:
            The report as a dict, or None if no run has that key.
        """
        with self._errors():
            row = self._db.execute("SELECT result FROM runs WHERE key = ?", (key,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def runs(self, detail: bool = False) -> "Any":
        """Every stored run as a run table.

        Args:
            detail: Add every numeric field of every flow and port to the metrics (reads the
                full reports: slower).

        Returns:
            A pandas DataFrame, one row per stored run: identity columns (key, source,
                scenario_hash, run, seed, engine_version, created_at), one column per
                parameter and one per metric (see `atmsim.metrics`); `summarize` turns it into
                per-point statistics.
        """
        from .tables import runs_frame

        return runs_frame(self.fetch(with_result=detail), detail=detail)

    # -- lifetime --------------------------------------------------------------------------

    def close(self) -> None:
        """Close the database; every committed run is on disk already."""
        self._db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<atmsim.Store {self.path}>"

    def _errors(self) -> ContextManager[None]:
        return _sqlite_errors(self.path)


@contextmanager
def _sqlite_errors(path: str) -> Iterator[None]:
    """Turn sqlite3 errors (disk full, locked, corrupt) into StoreError naming the store."""
    try:
        yield
    except sqlite3.Error as err:
        raise StoreError(f"{path}: {err}") from err


def _chunks(items: List[str], size: int) -> Iterator[List[str]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _decode(row: Sequence[Any]) -> StoredRun:
    return StoredRun(
        key=row[0],
        scenario=row[1],
        source=row[2],
        overrides=[(k, v) for k, v in json.loads(row[3])],
        params=json.loads(row[4]),
        seed=int(row[5]),
        run=int(row[6]),
        engine_version=row[7],
        metrics=json.loads(row[8]),
        created_at=float(row[9]),
        result=row[10] if len(row) > 10 else None,
    )


def _connect(path: str) -> sqlite3.Connection:
    # isolation_level=None: autocommit, so every statement is its own transaction.
    db = sqlite3.connect(path, timeout=60.0, isolation_level=None, check_same_thread=False)
    if path != IN_MEMORY:
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise sqlite3.OperationalError(f"cannot switch to WAL mode (got {mode})")
    # FULL: a commit is on disk before put() returns, even across a power cut.
    db.execute("PRAGMA synchronous=FULL")
    return db


def _refuse_foreign(name: str) -> None:
    """Look at an existing file read-only: an SQLite database with tables that are not an
    atmsim store's (or a file that is not SQLite at all) is refused before anything is written
    to it or its journal mode changed."""
    try:
        uri = Path(name).resolve().as_uri() + "?mode=ro"
        ro = sqlite3.connect(uri, uri=True)
        try:
            tables = {t for (t,) in ro.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            ro.close()
    except sqlite3.Error as err:
        raise StoreError(f"{name}: not an atmsim results store ({err})") from None
    if tables and not {"meta", "runs"} <= tables:
        raise StoreError(f"{name}: not an atmsim results store (it has tables {', '.join(sorted(tables))})")


def open_store(path: Optional[PathLike] = DEFAULT_PATH, create: bool = True) -> Store:
    """Open (or create) a results store.

    Args:
        path: The SQLite file, a `str` or an `os.PathLike` (default "results.sqlite" in the
            working directory); None keeps the store in memory (nothing persists).
        create: Create the file if it does not exist.

    Returns:
        The open `Store`; close it, or use it in a `with` block.

    Raises:
        StoreError: The path cannot be opened (a directory, a missing parent directory), the
            file is not an atmsim store or has another store format, or with `create=False`
            the store does not exist.
    """
    name = IN_MEMORY if path is None else os.fspath(path)
    if name != IN_MEMORY:
        p = Path(name)
        if p.is_dir():
            raise StoreError(f"{name}: is a directory")
        if not create and not p.exists():
            raise StoreError(f"{name}: no such store")
        if not p.parent.is_dir():
            raise StoreError(f"{name}: directory {str(p.parent)!r} does not exist")
        if p.is_file() and p.stat().st_size > 0:
            _refuse_foreign(name)
    db: Optional[sqlite3.Connection] = None
    try:
        db = _connect(name)
        if create:
            db.executescript(_SCHEMA)
        tables = {t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"meta", "runs"} <= tables:
            raise StoreError(f"{name}: not an atmsim results store")
        db.execute(
            "INSERT OR IGNORE INTO meta (name, value) VALUES ('schema_version', ?)",
            (SCHEMA_VERSION,),
        )
        (version,) = db.execute("SELECT value FROM meta WHERE name = 'schema_version'").fetchone()
        if version != SCHEMA_VERSION:
            raise StoreError(f"{name}: store format {version}, this atmsim reads {SCHEMA_VERSION}")
    except (sqlite3.Error, StoreError) as err:
        if db is not None:
            db.close()
        if isinstance(err, StoreError):
            raise
        raise StoreError(f"{name}: {err}") from None
    return Store(db, name)
