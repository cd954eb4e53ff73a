"""`atmsim store export [PATH] --csv FILE | --parquet FILE`, `atmsim store info [PATH]`,
`atmsim store command KEY [PATH]` and `atmsim store scenario KEY [PATH]`."""

from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
from pathlib import Path
from typing import Any

from .cli_errors import user_errors

DEFAULT_PATH = "results.sqlite"  # store.DEFAULT_PATH, without importing sqlite3 for --help
_PATH_HELP = f"results store (SQLite; default {DEFAULT_PATH})"


def add_parser(sub: Any) -> None:
    p = sub.add_parser("store", help="inspect or export a results store")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    e = actions.add_parser("export", help="write the runs table as CSV or Parquet")
    e.add_argument("path", nargs="?", default=DEFAULT_PATH, metavar="PATH", help=_PATH_HELP)
    target = e.add_mutually_exclusive_group(required=True)
    target.add_argument("--csv", metavar="FILE", help="write CSV")
    target.add_argument("--parquet", metavar="FILE", help="write Parquet (needs pyarrow)")
    e.add_argument(
        "--detail",
        action="store_true",
        help="every numeric field of every flow and port, not only the summary",
    )
    e.set_defaults(func=cmd_export)
    i = actions.add_parser("info", help="count the runs of a store")
    i.add_argument("path", nargs="?", default=DEFAULT_PATH, metavar="PATH", help=_PATH_HELP)
    i.set_defaults(func=cmd_info)
    c = actions.add_parser(
        "command",
        help="print the command line that reruns one stored run",
        description="Print the `atmsim run` command that reruns the stored run KEY (its scenario, "
        "overrides and seed; KEY may be abbreviated to a unique prefix, as in the key column "
        "of `store export`). When the scenario file it came from is gone or has changed, the "
        "command reads the stored scenario with `atmsim store scenario`.",
    )
    c.add_argument("key", metavar="KEY", help="the run's key, or a unique prefix of it")
    c.add_argument("path", nargs="?", default=DEFAULT_PATH, metavar="PATH", help=_PATH_HELP)
    c.set_defaults(func=cmd_command)
    t = actions.add_parser("scenario", help="print the scenario (TOML) of one stored run")
    t.add_argument("key", metavar="KEY", help="the run's key, or a unique prefix of it")
    t.add_argument("path", nargs="?", default=DEFAULT_PATH, metavar="PATH", help=_PATH_HELP)
    t.set_defaults(func=cmd_scenario)


def _parquet_ready(frame: Any) -> Any:
    # Parquet columns have one type; a parameter that is 1000 in one run and "infinite" in
    # another (or None) is written as text rather than rejected.
    out = frame.copy()
    for col in out.columns:
        if out[col].dtype == object:
            kinds = {type(v) for v in out[col] if v is not None}
            if len(kinds) > 1 or (kinds and not kinds <= {str}):
                out[col] = out[col].map(lambda v: None if v is None else str(v))
    return out


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _atomic_write(target: str, write: Any) -> None:
    """Write the export at `target`. A regular file (or a missing path) is replaced whole, by
    renaming a finished temporary file over it, so a crash mid-export never leaves a truncated
    file where a good one may have been; a symlink is followed (the file it points at is
    replaced, the link stays); anything else (a FIFO, a device, a socket) is written through,
    never replaced. The file gets the mode an ordinary new file would (0666 less the umask),
    or keeps the mode of the file it replaces."""
    import stat

    from .cli import CliError

    if os.path.isdir(target):
        raise CliError(f"{target}: is a directory (give a file name)")
    real = os.path.realpath(target)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as err:
        raise CliError(f"{target}: {err.strerror}") from None
    if mode is not None and not stat.S_ISREG(mode):
        # Not a file to replace: write into it as it is.
        try:
            write(real)
        except OSError as err:
            raise CliError(f"{target}: cannot write: {err.strerror or err}") from None
        return
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise CliError(f"{target}: directory {folder!r} does not exist")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".atmsim-export-")
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
        os.replace(tmp, real)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def cmd_export(args: argparse.Namespace) -> int:
    from .cli import CliError
    from .store import open_store

    with user_errors(), open_store(args.path, create=False) as db:
        frame = db.runs(detail=args.detail)
    if args.csv:
        _atomic_write(args.csv, lambda tmp: frame.to_csv(tmp, index=False))
        target = args.csv
    else:
        if importlib.util.find_spec("pyarrow") is None:
            raise CliError("--parquet: needs pyarrow (pip install pyarrow)")
        ready = _parquet_ready(frame)
        _atomic_write(args.parquet, lambda tmp: ready.to_parquet(tmp, index=False))
        target = args.parquet
    print(f"wrote {len(frame)} runs, {frame.shape[1]} columns to {Path(target)}")
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from .store import open_store

    with user_errors(), open_store(args.path, create=False) as db:
        runs = db.fetch()
    engines = sorted({r.engine_version for r in runs})
    sources = sorted({r.source for r in runs})
    print(
        f"{args.path}: {len(runs)} runs, engine(s) {', '.join(engines) or '-'}, "
        f"{len(sources)} scenario source(s)"
    )
    return 0


def _one_run(key: str, path: str) -> Any:
    """The stored run whose key is `key` or starts with it (CliError if none or several)."""
    from .cli import CliError
    from .store import open_store

    with user_errors(), open_store(path, create=False) as db:
        found = db.keys_starting(key) if key else []
        if len(found) != 1:
            raise CliError(
                f"store: no run with key {key!r} in {path}"
                if not found
                else f"store: key prefix {key!r} matches several runs in {path}; give more of it"
            )
        (run,) = db.fetch(found)
    return run


def rerun_command(run: Any, path: str) -> str:
    """The shell command that reruns a stored run: `atmsim run SOURCE --set ... --seed N`,
    or, when the source file no longer holds the stored text, the stored scenario piped in."""
    import shlex

    from .cli import PROG

    def q(text: str) -> str:
        return shlex.quote(text)

    options = "".join(f" --set {q(f'{k}={v}')}" for k, v in run.overrides) + f" --seed {run.seed}"
    source = Path(run.source)
    try:
        same = source.is_file() and source.read_text(encoding="utf-8") == run.scenario
    except (OSError, UnicodeDecodeError):
        same = False
    if same:
        return f"{PROG} run {q(str(source))}{options}"
    where = "" if path == DEFAULT_PATH else f" {q(path)}"
    return f"{PROG} store scenario {run.key}{where} | {PROG} run -{options}"


def cmd_command(args: argparse.Namespace) -> int:
    import sys

    from . import _core
    from .markdown import printable

    run = _one_run(args.key, args.path)
    print(printable(rerun_command(run, args.path)))
    if run.engine_version != _core.version():
        print(
            f"atmsim: note: run {run.key[:12]} was made by engine {run.engine_version}; this is "
            f"{_core.version()}, whose results may differ",
            file=sys.stderr,
        )
    return 0


def cmd_scenario(args: argparse.Namespace) -> int:
    import sys

    run = _one_run(args.key, args.path)
    sys.stdout.write(run.scenario if run.scenario.endswith("\n") else run.scenario + "\n")
    sys.stdout.flush()
    return 0
