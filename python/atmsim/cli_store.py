"""`atmsim store export PATH --csv FILE | --parquet FILE` and `atmsim store info PATH`."""

from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
from pathlib import Path
from typing import Any

from .cli_errors import user_errors


def add_parser(sub: Any) -> None:
    p = sub.add_parser("store", help="inspect or export a results store")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    e = actions.add_parser("export", help="write the runs table as CSV or Parquet")
    e.add_argument("path", metavar="PATH", help="results store (SQLite)")
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
    i.add_argument("path", metavar="PATH", help="results store (SQLite)")
    i.set_defaults(func=cmd_info)


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
