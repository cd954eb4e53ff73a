"""Bounds on what one command may take: scenario size, the cost estimate and the memory cap.

- A scenario file is read up to `MAX_SCENARIO_BYTES` (the largest shipped one is a few kB; a
  generated network of thousands of nodes is well under a megabyte), as UTF-8; anything else is
  refused with one line naming the file, before the engine sees it.
- `estimate()` asks the engine what a run would cost (cells, events, memory, wall time) from
  the scenario alone; `check_memory()` refuses a run or sweep whose estimate exceeds the cap,
  by default `DEFAULT_MEMORY_SHARE` of the machine's RAM.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from typing import IO, Any, Dict, List, Optional, Tuple

from . import _core

MAX_SCENARIO_BYTES = 16 * 1024 * 1024
# Half the RAM: the rest is for the OS, the Python front and whatever else runs.
DEFAULT_MEMORY_SHARE = 0.5


class LimitError(ValueError):
    """Input refused by a limit: a scenario file over 16 MiB or not UTF-8, or a run or sweep
    whose estimated memory exceeds the cap. A `ValueError`; str() is one line naming what and
    why."""


def decode(data: bytes, source: str) -> str:
    """Scenario bytes as text.

    Args:
        data: The bytes, UTF-8 (a BOM allowed).
        source: What they came from, for the message (a path, "<stdin>").

    Returns:
        The text, without the BOM.

    Raises:
        LimitError: More than `MAX_SCENARIO_BYTES` (16 MiB), or not UTF-8.
    """
    if len(data) > MAX_SCENARIO_BYTES:
        raise LimitError(
            f"{source}: larger than {MAX_SCENARIO_BYTES // (1024 * 1024)} MiB; "
            "a scenario is a small TOML text"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise LimitError(f"{source}: not UTF-8 text (invalid byte at offset {err.start})") from None


def read_limited(stream: IO[bytes], source: str) -> str:
    """Read a scenario from a binary stream, never more than the limit plus one byte.

    Args:
        stream: The stream, read to its end or the limit.
        source: What it is, for the message.

    Returns:
        The text, as `decode` gives it.

    Raises:
        LimitError: Larger than the limit, or not UTF-8.
    """
    return decode(stream.read(MAX_SCENARIO_BYTES + 1), source)


def read_file(path: "str | os.PathLike[str]") -> str:
    """A scenario file's text.

    Args:
        path: The file.

    Returns:
        The text, as `decode` gives it.

    Raises:
        OSError: The file cannot be opened (FileNotFoundError if it does not exist).
        LimitError: Larger than the limit, or not UTF-8.
    """
    with open(path, "rb") as f:
        return read_limited(f, os.fspath(path))


def read_stdin() -> str:
    """A scenario from standard input, as `read_limited` reads it (source "<stdin>").

    Returns:
        The text.

    Raises:
        LimitError: Larger than the limit, or not UTF-8.
    """
    return read_limited(sys.stdin.buffer, "<stdin>")


@dataclass(frozen=True)
class Estimate:
    """What one run is expected to cost, as `atmsim.estimate` returns it (the engine's model:
    crates/atmsim-core/src/estimate.rs).

    Attributes:
        cells: Cells the hosts are expected to send (data, ACK, RM) plus credit cells.
        cell_hops: Cells times the links each crosses.
        events: Events the engine is expected to process (the report's `events`).
        memory_bytes: Peak memory of the run, in bytes.
        wall_s: Wall-clock time, in seconds, at the engine's nominal event rate
            (`EVENTS_PER_WALL_S` in estimate.rs).
    """

    cells: float
    cell_hops: float
    events: float
    memory_bytes: float
    wall_s: float

    def line(self) -> str:
        """The estimate for people.

        Returns:
            One line: "1.2e+07 cells, 3.4e+07 events, 45 MB memory, 2.3 s wall time".
        """
        return (
            f"{self.cells:.3g} cells, {self.events:.3g} events, "
            f"{format_bytes(self.memory_bytes)} memory, {format_duration(self.wall_s)} wall time"
        )


# Wall time. The engine's estimate divides its events by one rate (EVENTS_PER_WALL_S in
# estimate.rs, 15 M/s), measured before the engine's fast paths (cell trains, batched host
# and port work, the paced and fixed-rate runs of background sources). How much faster
# today's engine runs an event depends on the paths its ports and hosts take; four kinds of
# scenario differ most. Fitted on the 2506 distinct runs of a full `atmsim reproduce all`
# (the geometric mean, per kind, of the engine's estimate over the run's own `wall_s`, engine
# at 7e6fa08; `python scripts/estimate_wall.py --store FILE` recomputes it): a Virtual
# Spacing port anywhere (the GFR study's WFQ switch: its departures cannot be committed) 9.0,
# else a connection under adaptive shaping (its level logs' ports commit keyed) 6.5, else
# `[[background]]` sources (CLASS, credit/rate) 6.2, else (greedy or transfer TCP over FIFO
# ports: UBR+, the FIFO GFR switch, Goyal) 24.4.
#: Each kind's speed-up over the engine's nominal rate (`wall_kind` names the kind).
WALL_SPEEDUP: Dict[str, float] = {
    "virtual_spacing": 9.0,
    "adaptive": 6.5,
    "background": 6.2,
    "plain": 24.4,
}


def wall_kind(doc: Dict[str, Any]) -> str:
    """Which of the wall-time fit's kinds a parsed scenario is: "virtual_spacing", "adaptive",
    "background" or "plain" (the keys of `WALL_SPEEDUP`; the comment above it says why).

    Args:
        doc: The scenario's TOML, parsed.

    Returns:
        The kind's name.
    """
    ports = doc.get("port") or []
    if any(isinstance(p, dict) and p.get("scheduler") == "virtual_spacing" for p in ports):
        return "virtual_spacing"
    conns = doc.get("connection") or []
    if any(isinstance(c, dict) and (c.get("abr") or {}).get("kind") == "adaptive" for c in conns):
        return "adaptive"
    return "background" if doc.get("background") else "plain"


def _wall_speedup(text: str) -> float:
    """How much faster than the engine's rate this scenario's events run (see above)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.9/3.10
        import tomli as tomllib
    try:
        doc = tomllib.loads(text)
    except Exception:  # the engine has accepted it; a reading we cannot do changes nothing
        return 1.0
    return WALL_SPEEDUP[wall_kind(doc)]


def estimate(
    text: str, overrides: Optional[List[Tuple[str, str]]] = None, seed: Optional[int] = None
) -> Estimate:
    """The engine's cost estimate for scenario text (`atmsim.estimate` takes any scenario), its
    wall time recalibrated for today's engine (`WALL_SPEEDUP`, by the scenario's kind).

    Args:
        text: The scenario's TOML text.
        overrides: `(dotted key, TOML literal)` pairs; None: none.
        seed: Replaces `simulation.seed`; None: the scenario's.

    Returns:
        The `Estimate`.

    Raises:
        ScenarioError: The engine rejects the scenario.
    """
    doc = json.loads(_core.estimate_json(text, list(overrides or []), seed))
    values = {k: float(doc[k]) for k in ("cells", "cell_hops", "events", "memory_bytes", "wall_s")}
    values["wall_s"] /= _wall_speedup(text)
    return Estimate(**values)


# Runs (or a reproduction's batch of runs) estimated to take longer than this are announced
# on stderr by the command line before they start.
ANNOUNCE_WALL_S = 60.0


def announce_line(what: str, wall_s: float) -> str:
    """The line printed before a long run starts.

    Args:
        what: What is about to run (a file name, "reproduce").
        wall_s: Its estimated wall time in seconds.

    Returns:
        "atmsim: WHAT: estimated N min of wall time; Ctrl-C to stop".
    """
    return f"atmsim: {what}: estimated {format_duration(wall_s)} of wall time; Ctrl-C to stop"


def machine_memory() -> Optional[int]:
    """The machine's physical memory.

    Returns:
        Bytes, or None where the system does not say (no `os.sysconf`).
    """
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return None


def default_max_memory() -> Optional[int]:
    """The default memory cap of `--max-memory`.

    Returns:
        `DEFAULT_MEMORY_SHARE` (half) of the machine's memory in bytes, or None (no cap)
            when it is unknown.
    """
    total = machine_memory()
    return None if total is None else int(total * DEFAULT_MEMORY_SHARE)


_SIZE = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*([kKmMgGtT]?)i?[bB]?\s*$")


def parse_size(text: str) -> Optional[int]:
    """A `--max-memory` value in bytes.

    Args:
        text: A size with an optional binary unit: "8G", "500M", "1.5GiB", "123456"
            (bytes); "off", "none" or "unlimited" for no cap.

    Returns:
        Bytes (units are powers of 1024), or None for no cap.

    Raises:
        LimitError: Not a size.
    """
    if text.strip().lower() in ("off", "none", "unlimited"):
        return None
    m = _SIZE.match(text)
    if not m:
        raise LimitError(f"--max-memory: expected a size like 8G or 500M (or 'off'), got {text!r}")
    scale = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}[m.group(2).lower()]
    return int(float(m.group(1)) * scale)


def check_memory(est: Estimate, cap: Optional[int], what: str, concurrent: int = 1) -> None:
    """Refuse a run (or `concurrent` runs at once) that would need more memory than the cap.

    Args:
        est: The estimate of one run.
        cap: The cap in bytes; None: no cap.
        what: What is refused, for the message (a file, "sweep point ...").
        concurrent: Runs of this estimate in flight at once.

    Raises:
        LimitError: `concurrent` times the estimated memory exceeds `cap`.
    """
    need = est.memory_bytes * concurrent
    if cap is not None and need > cap:
        many = f" x {concurrent} concurrent runs" if concurrent > 1 else ""
        raise LimitError(
            f"{what}: estimated {format_bytes(need)} of memory{many} exceeds --max-memory "
            f"{format_bytes(cap)} ({est.line()}); shorten or shrink the scenario, or raise "
            "--max-memory (--max-memory off: no limit)"
        )


def format_bytes(n: float) -> str:
    """A byte count for people.

    Args:
        n: Bytes.

    Returns:
        Three significant digits in decimal units ("1.5 GB", "12 kB", "800 B").
    """
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n:.0f} B"


def format_duration(s: float) -> str:
    """A duration for people.

    Args:
        s: Seconds.

    Returns:
        Three significant digits in s, min, h or days ("4.2 min", "1.3 days").
    """
    if s >= 86400:
        return f"{s / 86400:.3g} days"
    if s >= 3600:
        return f"{s / 3600:.3g} h"
    if s >= 60:
        return f"{s / 60:.3g} min"
    return f"{s:.3g} s"
