"""`atmsim sweep FILE --grid key=v1,v2 ... [--zip key=v1,v2 ...] --runs R ...`

Prints one row per point (mean ± 95 % half-width of the main metrics), or with --json every
metric of every point. Progress goes to stderr, and only to a terminal.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from .cli_errors import user_errors
from .markdown import printable
from .numbers import plus_minus
from .tables import plain

if TYPE_CHECKING:
    import pandas as pd

    from .sweeps import SweepResult

# Columns of the text view; --json has every metric.
TEXT_METRICS = ["summary.efficiency", "summary.fairness", "summary.total_goodput_bps"]


def add_parser(sub: Any, seed_type: Any) -> None:
    p = sub.add_parser(
        "sweep",
        help="run a parameter study with replications (results kept in a store)",
        description="Run FILE over a grid of parameters, R replications per point, committing "
        "every finished run to the results store; runs already stored are not run again.",
    )
    p.add_argument(
        "file", metavar="FILE", help="scenario TOML file, or a shipped example's name ('-' reads stdin)"
    )
    p.add_argument(
        "--grid",
        action="append",
        metavar="KEY=V1,V2,...",
        help="sweep a parameter over values (cartesian product); repeatable",
    )
    p.add_argument(
        "--zip",
        action="append",
        metavar="KEY=V1,V2,...",
        help="parameters varied in lockstep (equal lengths); repeatable",
    )
    p.add_argument("--runs", type=int, default=1, metavar="R", help="replications per point (default 1)")
    p.add_argument(
        "--base-seed", type=seed_type, default=1, metavar="N", help="base of the derived seeds (default 1)"
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="override a scenario field in every run; repeatable",
    )
    p.add_argument(
        "--store", default=None, metavar="PATH", help="results store (SQLite; default results.sqlite)"
    )
    p.add_argument("--jobs", type=int, metavar="N", help="local worker processes (default: all cores)")
    p.add_argument("--dask", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS")
    p.add_argument("--json", action="store_true", help="print every metric of every point as JSON")
    from .cli import add_max_memory

    add_max_memory(p)
    p.set_defaults(func=cmd_sweep)


def _num(v: Any) -> Optional[float]:
    value: Optional[float] = plain(float(v))
    return value


def _points_json(result: "SweepResult") -> List[Dict[str, Any]]:
    summary = result.summary()
    seeds: Dict[int, List[int]] = {}
    for t in result.tasks:
        seeds.setdefault(t.point, []).append(t.seed)
    out = []
    for index, point in enumerate(result.points):
        rows = summary[summary["point"] == index]
        metrics = {
            str(r["metric"]): {
                k: (int(r[k]) if k == "n" else _num(r[k])) for k in ("n", "mean", "std", "ci_low", "ci_high")
            }
            for _, r in rows.iterrows()
        }
        out.append(
            {
                "params": {k: plain(v) for k, v in point.params.items()},
                "seeds": seeds.get(index, []),
                "metrics": metrics,
            }
        )
    return out


def _text(result: "SweepResult") -> str:
    import pandas as pd

    summary = result.summary()
    rows = []
    for index, point in enumerate(result.points):
        row: Dict[str, Any] = {
            printable(k): printable(v) if isinstance(v, str) else plain(v) for k, v in point.params.items()
        }
        for metric in TEXT_METRICS:
            got = summary[(summary["point"] == index) & (summary["metric"] == metric)]
            row[metric.split(".")[-1].replace("_bps", "_Mbps")] = _estimate_text(got, metric)
        row["runs"] = int(summary[summary["point"] == index]["n"].max()) if len(summary) else 0
        rows.append(row)
    frame: pd.DataFrame = pd.DataFrame(rows)
    return frame.to_string(index=False)


def _estimate_text(got: "pd.DataFrame", metric: str) -> str:
    if not len(got) or math.isnan(float(got["mean"].iloc[0])):
        return "-"
    scale = 1e-6 if metric.endswith("_bps") else 1.0
    mean = float(got["mean"].iloc[0]) * scale
    half = (float(got["ci_high"].iloc[0]) - float(got["ci_low"].iloc[0])) / 2 * scale
    return plus_minus(mean, half)


def _estimate_line(points: List[Any], runs: int, jobs: Optional[int], dask: Optional[str]) -> str:
    """One line for stderr before anything runs: the cost of one run (the costliest point)
    and of the whole sweep. Raises ScenarioError for a point the engine refuses."""
    from . import cli, executors
    from .limits import format_duration
    from .sweeps import estimate_points

    ests = estimate_points(points)
    worst = max(ests, key=lambda e: e.memory_bytes)
    events = sum(e.events for e in ests) * runs
    wall = sum(e.wall_s for e in ests) * runs
    workers = 1 if dask else min(jobs or executors.default_jobs(), len(points) * runs)
    from .limits import ANNOUNCE_WALL_S

    return (
        f"{cli.PROG}: sweep: estimated per run up to {worst.line()}; "
        f"{len(points) * runs} runs: {events:.3g} events, about {format_duration(wall / workers)} "
        f"on {workers} worker(s)"
        + (" (not counting the cluster)" if dask else "")
        + ("; Ctrl-C to stop (finished runs stay in the store)" if wall / workers > ANNOUNCE_WALL_S else "")
    )


def cmd_sweep(args: argparse.Namespace) -> int:
    from . import cli, executors, plan, store
    from .sweeps import execute

    scenario = cli._read_scenario(args.file)
    fixed = tuple(cli._overrides(args.set))
    with user_errors():
        grid = [plan.parse_axis(item, "--grid") for item in args.grid or []]
        zipped = [plan.parse_axis(item, "--zip") for item in args.zip or []]
        if args.runs < 1:
            raise plan.SweepSpecError(f"--runs: must be at least 1, got {args.runs}")
        if args.jobs is not None and args.jobs < 1:
            raise plan.SweepSpecError(f"--jobs: must be at least 1, got {args.jobs}")
        if args.dask and args.jobs is not None:
            raise plan.SweepSpecError("--jobs and --dask: choose one")
        points = plan.points(scenario, grid, zipped, fixed)
        total = len(points) * args.runs
        cost_line = _estimate_line(points, args.runs, args.jobs, args.dask)
        from .sweeps import check_points

        workers = 1 if args.dask else min(args.jobs or executors.default_jobs(), total)
        check_points(points, cli._max_memory(args), workers)
        path = args.store or store.DEFAULT_PATH
        db = store.open_store(path)
        client = None
        try:
            executor = None
            if args.dask:
                executor, client = executors.dask(args.dask)
            print(cost_line, file=sys.stderr)
            result = execute(points, args.runs, args.base_seed, db, executor, args.jobs)
        finally:
            if client is not None:
                client.close()
            db.close()
    print(
        f"{cli.PROG}: sweep: {len(points)} point(s) x {args.runs} run(s) = {total} runs: "
        f"{result.computed} computed, {result.cached} already in {path}",
        file=sys.stderr,
    )
    if args.json:
        doc = {
            "store": path,
            "base_seed": args.base_seed,
            "runs_per_point": args.runs,
            "runs_total": total,
            "runs_computed": result.computed,
            "runs_cached": result.cached,
            "points": _points_json(result),
        }
        print(json.dumps(doc, indent=2))
    else:
        print(_text(result))
    return 0
