"""The `atmsim` command line.

Every failure a user can cause (bad scenario, missing file, malformed option) ends the same
way: one line `atmsim: error: ...` on stderr and exit status 2, never a traceback. Anything
else is a bug and is allowed to show its traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import List, Optional, Tuple

from . import _core
from .bench import DEFAULT_SCENARIO
from .scenario import Scenario, load

PROG = "atmsim"
EXIT_USAGE = 2


class CliError(Exception):
    """A user error detected by the command line itself (not by the engine)."""


def _read_scenario(path: str) -> Scenario:
    if path == "-":
        return Scenario(sys.stdin.read(), "<stdin>")
    return load(path)


def _overrides(items: Optional[List[str]]) -> List[Tuple[str, str]]:
    from .overrides import parse_set

    try:
        return [parse_set(item) for item in items or []]
    except ValueError as err:
        raise CliError(str(err)) from None


def _seed(text: str) -> int:
    # The engine's seed is a u64; reject what it cannot hold here, as a usage error.
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be between 0 and 2^64 - 1, got {value}")
    return value


def _write_pcaps(files: List[Tuple[str, bytes]], directory: str) -> None:
    if not files:
        raise CliError("--pcap: nothing to capture (add a [capture] table or --capture NAME)")
    os.makedirs(directory, exist_ok=True)
    for stem, data in files:
        with open(os.path.join(directory, f"{stem}.pcap"), "wb") as out:
            out.write(data)
    print(f"{PROG}: wrote {len(files)} pcap file(s) to {directory}", file=sys.stderr)


def _write_traces(text: str, directory: str) -> None:
    from .result import Result
    from .traces import write

    tables = Result.from_json(text).traces
    if not tables:
        raise CliError("--trace-dir: the scenario has no [trace] table")
    written = write(tables, directory)
    print(f"{PROG}: wrote {len(written)} trace file(s) to {directory}", file=sys.stderr)


def cmd_run(args: argparse.Namespace) -> int:
    scenario = _read_scenario(args.file)
    if args.capture and not args.pcap:
        raise CliError("--capture needs --pcap DIR")
    if args.pcap:
        # Captures cost memory and time: recorded only when asked for.
        text, files = _core.run_with_captures(
            scenario.text, _overrides(args.set), args.seed, args.capture or []
        )
        _write_pcaps(files, args.pcap)
    else:
        text = _core.run_json(scenario.text, _overrides(args.set), args.seed)
    if args.trace_dir:
        _write_traces(text, args.trace_dir)
    if args.json:
        # The engine's document, byte for byte: scripts may diff or hash it.
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return 0
    from .report import render
    from .result import Result

    print(render(Result.from_json(text), scenario.source))
    return 0


def cmd_reproduce(args: argparse.Namespace) -> int:
    from functools import partial

    from .studies import parallel, ubr_plus, ubr_plus_report

    if args.study != "ubr-plus" or args.out or args.store or args.dask:
        # `reproduce all`, other registered studies, or a report folder: cli_report.py.
        from .cli_report import cmd_report

        return cmd_report(args)
    try:
        tables = ubr_plus.TABLES if args.all else ubr_plus.parse_tables(args.tables or "1,2")
    except ValueError as err:
        raise CliError(str(err)) from None
    if args.jobs is not None and args.jobs < 1:
        raise CliError("--jobs: must be at least 1")
    rows = ubr_plus.select(tables, quick=args.quick)
    if not rows:
        raise CliError("--quick keeps only Tables 1-3; no run selected")
    from .overrides import parse_set

    try:
        sets = [parse_set(item) for item in args.set or []]
    except ValueError as err:
        raise CliError(str(err)) from None
    fn = partial(ubr_plus.simulate, duration_s=args.duration, overrides=sets)
    results = parallel.run_all(fn, rows, jobs=args.jobs, cost=ubr_plus.cost)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(ubr_plus_report.render(results))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from . import bench

    if args.suite:
        if args.file is not None:
            raise CliError("bench: --suite runs its own four cases; give no FILE")
        try:
            rows = bench.suite(args.duration)
        except (FileNotFoundError, RuntimeError) as err:
            raise CliError(str(err)) from None
        print(json.dumps(rows, indent=2) if args.json else bench.render_suite(rows))
        return 0
    path = args.file or DEFAULT_SCENARIO
    if args.file is None and not os.path.exists(path):
        raise CliError(f"{path}: not found (run from the repository root or name a FILE)")
    measurement = bench.measure(_read_scenario(path), args.duration)
    print(json.dumps(measurement) if args.json else bench.render(measurement))
    return 0


def cmd_version(args: argparse.Namespace) -> int:
    print(f"{PROG} {_core.version()}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Cell-level simulation of ATM networks carrying TCP/IP."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("run", help="run one scenario file")
    p.add_argument("file", metavar="FILE", help="scenario TOML file ('-' reads stdin)")
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE",
        help="override a scenario field (dotted key, TOML value); repeatable",
    )
    p.add_argument("--seed", type=_seed, metavar="N", help="replace simulation.seed")
    p.add_argument("--json", action="store_true", help="print the engine's JSON report")
    p.add_argument(
        "--trace-dir", metavar="DIR",
        help="write the [trace] series as CSV files (and Parquet if pyarrow is installed) in DIR",
    )
    p.add_argument(
        "--pcap", metavar="DIR",
        help="record the [capture] points (and --capture ones) as pcap files in DIR",
    )
    p.add_argument(
        "--capture", action="append", metavar="NAME",
        help="also capture link 'from->to' or host NAME (with --pcap); repeatable",
    )
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("reproduce", help="rerun a published study and compare")
    # Checked by the command, not by argparse, so an unknown study is a one-line error.
    p.add_argument(
        "study", metavar="STUDY",
        help="ubr-plus (Goyal, Jain et al., Tables 1-6), or all: every registered study, "
        "written as a report folder (see --out)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON list of rows")
    p.add_argument(
        "--tables", default=None, metavar="LIST",
        help="comma-separated tables among 1,2,4,5,6 (2 and 3 are one set of runs); default 1,2",
    )
    p.add_argument("--all", action="store_true", help="all tables (1,2,4,5,6)")
    p.add_argument("--jobs", type=int, metavar="N", help="worker processes (default: all cores)")
    p.add_argument("--quick", action="store_true", help="only the 5-source rows of Tables 1-3")
    p.add_argument(
        "--duration", type=float, metavar="S",
        help="simulated seconds per run instead of the paper's 10 s LAN / 20 s WAN",
    )
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE",
        help="override a scenario field in every run (sensitivity studies); repeatable",
    )
    from . import cli_report, cli_store, cli_sweep

    cli_report.add_options(p)
    p.set_defaults(func=cmd_reproduce)

    cli_sweep.add_parser(sub, _seed)
    cli_store.add_parser(sub)

    p = sub.add_parser("bench", help="measure engine speed")
    p.add_argument("file", nargs="?", metavar="FILE", help=f"scenario (default: {DEFAULT_SCENARIO})")
    p.add_argument(
        "--duration", type=float, metavar="S", help="simulated seconds (default: the scenario's)"
    )
    p.add_argument(
        "--suite",
        action="store_true",
        help="run the four cases of scenarios/bench/ (LAN/WAN, 5/15 sources), one process each",
    )
    p.add_argument("--json", action="store_true", help="print the measurements as JSON")
    p.set_defaults(func=cmd_bench, file=None)

    p = sub.add_parser("version", help="print the version")
    p.set_defaults(func=cmd_version)
    return parser


def _fail(message: str) -> int:
    # Exactly one line, whatever the reason text contains (parsers like multi-line messages).
    print(f"{PROG}: error: {' '.join(message.split())}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args)
        return status
    except _core.ScenarioError as err:
        return _fail(str(err))
    except CliError as err:
        return _fail(str(err))
    except BrokenPipeError:
        # Reader went away (e.g. `| head`): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as err:
        if err.filename is None:
            raise
        return _fail(f"{err.filename}: {err.strerror}")
    except KeyboardInterrupt:
        return 130
