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
from typing import List, NoReturn, Optional, Tuple

from . import _core
from .bench import DEFAULT_SCENARIO
from .bench import SUITE as bench_suite
from .examples import example
from .limits import LimitError
from .scenario import Scenario, load

PROG = "atmsim"
EXIT_USAGE = 2


class CliError(Exception):
    """A user error detected by the command line itself (not by the engine)."""


class _Parser(argparse.ArgumentParser):
    """argparse with its option errors as the one line every other error is (no usage lines:
    `--help` shows them)."""

    def error(self, message: str) -> "NoReturn":
        command = self.prog.partition(" ")[2]
        _fail(f"{command}: {message}" if command else message)
        raise SystemExit(EXIT_USAGE)


def _read_scenario(path: str) -> Scenario:
    """FILE of run/sweep/bench: '-' (stdin), a path, or the name of a shipped example
    (`atmsim scenarios`), as atmsim.example takes it; an existing file wins over a name."""
    from .examples import examples
    from .limits import read_stdin

    if path == "-":
        return Scenario(read_stdin(), "<stdin>")
    if not os.path.exists(path):
        stem = path[: -len(".toml")] if path.endswith(".toml") else path
        if stem in examples():
            return load(str(example(stem)))
    return load(path)


def _max_memory(args: argparse.Namespace) -> Optional[int]:
    from .limits import default_max_memory, parse_size

    given = getattr(args, "max_memory", None)
    return default_max_memory() if given is None else parse_size(given)


def _write_out(text: str) -> None:
    """Write a possibly huge document to stdout in pieces (one write of more than 2 GiB is cut
    short by the OS) and flush, so a failure surfaces here as an OSError, not at exit."""
    out = sys.stdout
    step = 1 << 20
    for i in range(0, len(text), step):
        out.write(text[i : i + step])
    out.flush()


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
    from .limits import check_memory, estimate

    scenario = _read_scenario(args.file)
    est = estimate(scenario.text, _overrides(args.set), args.seed)
    if args.estimate:
        if args.json:
            _write_out(json.dumps(est.__dict__, indent=2) + "\n")
        else:
            _write_out(f"{scenario.source}: estimated {est.line()}\n")
        return 0
    check_memory(est, _max_memory(args), f"run {scenario.source}")
    from .limits import ANNOUNCE_WALL_S, announce_line

    if est.wall_s > ANNOUNCE_WALL_S:
        from .markdown import printable

        print(announce_line(f"run {printable(scenario.source)}", est.wall_s), file=sys.stderr)
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
        _write_out(text if text.endswith("\n") else text + "\n")
        return 0
    from .result import Result
    from .run_text import render

    _write_out(render(Result.from_json(text), scenario.source) + "\n")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from . import bench

    if args.suite:
        if args.file is not None:
            raise CliError("bench: --suite runs its own cases; give no FILE")
        cases = bench.SUITE if args.cases is None else [c.strip() for c in args.cases.split(",") if c.strip()]
        try:
            rows = bench.suite(args.duration, cases)
        except (FileNotFoundError, RuntimeError, ValueError) as err:
            raise CliError(str(err)) from None
        print(json.dumps(rows, indent=2) if args.json else bench.render_suite(rows))
        return 0
    path = args.file or str(example(DEFAULT_SCENARIO))
    measurement = bench.measure(_read_scenario(path), args.duration)
    print(json.dumps(measurement) if args.json else bench.render(measurement))
    return 0


def cmd_version(args: argparse.Namespace) -> int:
    print(f"{PROG} {_core.version()}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Cell-level simulation of ATM networks carrying TCP/IP.")
    parser.add_argument("--version", action="version", version=f"{PROG} {_core.version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("run", help="run one scenario file")
    p.add_argument(
        "file", metavar="FILE", help="scenario TOML file, or a shipped example's name ('-' reads stdin)"
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="override a scenario field (dotted key, TOML value); repeatable",
    )
    p.add_argument("--seed", type=_seed, metavar="N", help="replace simulation.seed")
    p.add_argument("--json", action="store_true", help="print the engine's JSON report")
    p.add_argument(
        "--estimate",
        action="store_true",
        help="print the expected cells, events, memory and wall time, and do not run",
    )
    add_max_memory(p)
    p.add_argument(
        "--trace-dir",
        metavar="DIR",
        help="write the [trace] series as CSV files (and Parquet if pyarrow is installed) in DIR",
    )
    p.add_argument(
        "--pcap",
        metavar="DIR",
        help="record the [capture] points (and --capture ones) as pcap files in DIR",
    )
    p.add_argument(
        "--capture",
        action="append",
        metavar="NAME",
        help="also capture link 'from->to' or host NAME (with --pcap); repeatable",
    )
    p.set_defaults(func=cmd_run)

    from . import cli_reproduce, cli_scenarios, cli_store, cli_sweep, cli_validate

    cli_reproduce.add_parser(sub)
    cli_sweep.add_parser(sub, _seed)
    cli_store.add_parser(sub)
    cli_scenarios.add_parser(sub)
    cli_validate.add_parser(sub)

    p = sub.add_parser("bench", help="measure engine speed")
    p.add_argument(
        "file", nargs="?", metavar="FILE", help=f"scenario (default: the shipped {DEFAULT_SCENARIO}.toml)"
    )
    p.add_argument("--duration", type=float, metavar="S", help="simulated seconds (default: the scenario's)")
    p.add_argument(
        "--suite",
        action="store_true",
        help="run the shipped benchmark cases (UBR+ LAN/WAN 5/15 sources, then one per study "
        "family), one process each",
    )
    p.add_argument(
        "--cases",
        metavar="NAME,...",
        help="with --suite: only these cases (" + ", ".join(bench_suite) + ")",
    )
    p.add_argument("--json", action="store_true", help="print the measurements as JSON")
    p.set_defaults(func=cmd_bench, file=None)

    p = sub.add_parser("version", help="print the version")
    p.set_defaults(func=cmd_version)
    return parser


def add_max_memory(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--max-memory",
        metavar="SIZE",
        help="refuse a run whose estimated memory exceeds SIZE (e.g. 8G; 'off': no limit; "
        "default: half the machine's RAM)",
    )


def _fail(message: str) -> int:
    # Exactly one line, whatever the reason text contains (parsers like multi-line messages).
    from .markdown import printable

    print(f"{PROG}: error: {printable(' '.join(message.split()))}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: Optional[List[str]] = None) -> int:
    if sys.stdout is None:
        # Started with its stdout closed (`>&-`): every command prints its result there.
        _fail("cannot write output: standard output is closed")
        return 1
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args)
        return status
    except _core.ScenarioError as err:
        return _fail(str(err))
    except (CliError, LimitError) as err:
        return _fail(str(err))
    except BrokenPipeError:
        # Reader went away (e.g. `| head`): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as err:
        if err.filename is None and err.errno is not None:
            # Output that cannot be written (a full disk, /dev/full): say so and fail, and
            # stop the interpreter from trying again at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            _fail(f"cannot write output: {err.strerror}")
            return 1
        if err.filename is None:
            raise
        return _fail(f"{err.filename}: {err.strerror}")
    except KeyboardInterrupt:
        return 130
