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
    p.add_argument("--assumptions", action="store_true",
                   help="list the parameters the paper states and those the study assumes "
                        "(value, why, range swept), then stop")
    p.add_argument("--sensitivity", action="store_true",
                   help="also sweep each assumption over its range, one at a time, on the "
                        "study's declared subset; the report gets a tornado figure per study")


def cmd_assumptions(args: argparse.Namespace) -> int:
    """`atmsim reproduce NAME --assumptions`: no runs, the declarations only."""
    from .studies import assumptions, registry, sensitivity
    from .studies.reproduce import assumptions_of, stated_of

    with user_errors():
        names = registry.names() if args.study == "all" else [args.study]
        studies = [registry.get(n) for n in names]
    for study in studies:
        print(f"== {study.name}: {study.title}")
        declared = assumptions_of(study)
        if not declared:
            print("  (this study declares no assumptions yet)")
        else:
            print(assumptions.render(declared, stated_of(study)))
            print(f"Sensitivity subset: {sensitivity.subset(study, args.quick).why}")
        print()
    return 0


def _with_interval(frame: Any, spec: Any) -> Any:
    """A comparison table for the terminal: each simulated value as mean ± 95 % half-width."""
    out = frame[[c for c in spec.labels]].copy()
    for c in spec.compared:
        half = (frame[f"{c.name}_ci_high"] - frame[f"{c.name}_ci_low"]) / 2
        out[c.name] = [
            "-" if m != m else (f"{m:.3f}" if h != h else f"{m:.3f} ± {h:.3f}")
            for m, h in zip(frame[c.name], half)
        ]
        out[f"paper_{c.name}"] = frame[f"paper_{c.name}"]
    return out


def _plain(v: Any) -> Any:
    """A value JSON can hold: NaN as null, numpy scalars as Python ones, pairs as lists."""
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    v = v.item() if hasattr(v, "item") else v
    return None if isinstance(v, float) and math.isnan(v) else v


def _agreement_json(frame: Any) -> List[Dict[str, Any]]:
    return [{k: _plain(r[k]) for k in frame.columns} for _, r in frame.iterrows()]


def cmd_report(args: argparse.Namespace) -> int:
    from . import cli, executors, store
    from .overrides import duration
    from .studies import registry, replication, report
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
            try:
                rep = reproduce(studies, args.quick, db, out, overrides, args.jobs, executor,
                                sensitivity=bool(getattr(args, "sensitivity", False)))
            except replication.IdenticalReplications as err:
                raise cli.CliError(str(err)) from None
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
                 "replications": s.replications,
                 "agreement": _agreement_json(s.agreement), "notes": s.notes,
                 "sensitivity": None if s.sensitivity is None else
                 _agreement_json(s.sensitivity.effects)}
                for s in rep.studies
            ],
        }
        print(json.dumps(doc, indent=2))
        return 0
    for s in rep.studies:
        print(f"{s.study.name}: {s.runs} runs ({s.computed} computed, {s.cached} from "
              f"{db.path}), {len(s.figures)} figures")
        print(s.agreement.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
        for spec in s.study.tables:
            frame = s.results.tables.get(spec.id)
            if frame is not None and len(frame):
                print(f"{spec.title} (mean ± 95 % half-width over {s.replications} runs)")
                print(_with_interval(frame, spec).to_string(index=False))
        for note in s.notes:
            print(f"note: {note}")
        if s.sensitivity is not None:
            from .studies.sensitivity import render

            print(render(s.sensitivity))
    print(f"report: {out / 'index.html'} and {out / 'README.md'} "
          f"({len(written)} files besides the figures), {wall:.0f} s", file=sys.stdout)
    return 0
