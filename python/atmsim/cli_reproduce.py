"""`atmsim reproduce all` (and `atmsim reproduce STUDY --out DIR`): every registered study
through the sweep machinery and the results store, written as a report folder."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

from .cli_errors import user_errors

DEFAULT_OUT = "report"


def add_options(p: argparse.ArgumentParser) -> None:
    """Options of `reproduce` that only the report path uses."""
    p.add_argument("--out", metavar="DIR",
                   help=f"write the report folder (index.html, README.md, figures) to DIR "
                        f"(default for 'all': {DEFAULT_OUT})")
    p.add_argument("--store", metavar="PATH",
                   help="results store for the report's runs (default results.sqlite)")
    p.add_argument("--dask", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS")


def _agreement_json(frame: Any) -> List[Dict[str, Any]]:
    rows = []
    for _, r in frame.iterrows():
        row = {k: r[k] for k in frame.columns}
        rows.append({k: (None if isinstance(v, float) and math.isnan(v) else
                         (v.item() if hasattr(v, "item") else v)) for k, v in row.items()})
    return rows


def cmd_report(args: argparse.Namespace) -> int:
    from . import cli, executors, store
    from .overrides import duration
    from .studies import registry, report
    from .studies.reproduce import reproduce

    with user_errors():
        names = registry.names() if args.study == "all" else [args.study]
        studies = [registry.get(n) for n in names]
        if args.tables is not None or args.all:
            raise cli.CliError(f"--tables/--all: only for 'atmsim reproduce ubr-plus' without "
                               f"--out ({args.study} runs every table; --quick a subset)")
        if args.jobs is not None and args.jobs < 1:
            raise cli.CliError("--jobs: must be at least 1")
        if args.dask and args.jobs is not None:
            raise cli.CliError("--jobs and --dask: choose one")
        overrides = tuple(duration(args.duration)) + tuple(cli._overrides(args.set))
        out = Path(args.out or DEFAULT_OUT)
        if out.exists() and not out.is_dir():
            raise cli.CliError(f"--out {out}: exists and is not a directory")
        db = store.open_store(args.store or store.DEFAULT_PATH)
        client = None
        try:
            executor = None
            if args.dask:
                executor, client = executors.dask(args.dask)
            started = time.perf_counter()
            rep = reproduce(studies, args.quick, db, out, overrides, args.jobs, executor)
            written = report.write(rep, out)
        finally:
            if client is not None:
                client.close()
            db.close()
    wall = time.perf_counter() - started
    if args.json:
        doc = {
            "report": str(out), "quick": args.quick, "wall_s": wall,
            "studies": [
                {"name": s.study.name, "runs": s.runs, "runs_computed": s.computed,
                 "runs_cached": s.cached, "figures": sum(len(f.files) for f in s.figures),
                 "agreement": _agreement_json(s.agreement), "notes": s.notes}
                for s in rep.studies
            ],
        }
        print(json.dumps(doc, indent=2))
        return 0
    for s in rep.studies:
        print(f"{s.study.name}: {s.runs} runs ({s.computed} computed, {s.cached} from "
              f"{db.path}), {len(s.figures)} figures")
        print(s.agreement.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
        for note in s.notes:
            print(f"note: {note}")
    print(f"report: {out / 'index.html'} and {out / 'README.md'} "
          f"({len(written)} files besides the figures), {wall:.0f} s", file=sys.stdout)
    return 0
