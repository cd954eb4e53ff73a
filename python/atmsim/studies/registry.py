"""The studies `atmsim reproduce` knows, and what each one declares.

A study is a paper: its runs (`Experiment`s, one per published table row, each with the
values the paper printed), the tables those rows make up (which metrics they compare), a few
runs recorded with `[trace]` for time-series figures, and a function drawing its figures.
The machinery in `reproduce.py` runs everything through the sweep and the results store,
compares, and writes the report; a study only describes.

Layout: one subpackage per paper, `studies/<name>/` with `data.py` (the published values),
`scenarios.py` (the scenario builders), `study.py` (the `STUDY` object) and `figures.py`;
the shared machinery (this registry, `reproduce.py`, `agreement.py`, `report.py`) sits here.

Adding a study: write such a subpackage whose `study.py` has a `STUDY` object satisfying
`Study`, and add one line to `_BUILTIN` below. Modules are imported only when their study is
asked for.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple

from ..scenario import Scenario

if TYPE_CHECKING:
    import pandas as pd


# What kind of number a compared metric is, so that pooled agreement ("every table") only
# averages distances of one kind: `fraction` a share of a whole or an index in [0, 1]
# (efficiency, fairness, a link's load, lowest / highest), `count` a number of events (cells
# lost, connections closed), `ratio` a quotient whose ideal is near 1 but unbounded (goodput /
# its fair share, one goodput over another), all three compared by absolute difference; and
# `relative`, a quantity with units (bit/s, cells, ms) compared relative to the published value.
KINDS = ("fraction", "count", "ratio", "relative")


@dataclass(frozen=True)
class Compared:
    """A metric a paper table prints. `name` is its column in the comparison table (the
    published value is `paper_<name>`); `metric` the run metric it is read from (see
    atmsim.metrics). Agreement is the absolute difference, or with `relative` the difference
    as a fraction of the published value (for quantities in cells or bits, not fractions).
    `kind` (one of `KINDS`): `relative` for a relative metric, else `fraction` unless
    declared `count` or `ratio`."""

    name: str
    metric: str
    label: str
    relative: bool = False
    # The coarsest unit the paper prints the column in (0.01 for a table of two decimals), for
    # the tolerance of "~"/"=" comparisons (comparators.tolerance); None: read from the digits.
    unit: Optional[float] = None
    kind: str = ""

    def __post_init__(self) -> None:
        if self.relative:
            if self.kind not in ("", "relative"):
                raise ValueError(
                    f"compared {self.name}: kind {self.kind!r} with relative=True (a relative "
                    "metric is of kind relative)"
                )
            object.__setattr__(self, "kind", "relative")
            return
        kind = self.kind or "fraction"
        if kind not in KINDS[:-1]:
            raise ValueError(
                f"compared {self.name}: kind {self.kind!r} is not one of {', '.join(KINDS[:-1])} "
                "(or relative=True)"
            )
        object.__setattr__(self, "kind", kind)


@dataclass(frozen=True)
class PaperTable:
    """One published table (or a figure's data): its rows' label columns and metrics."""

    id: str
    title: str
    labels: Sequence[str]
    compared: Sequence[Compared]


@dataclass(frozen=True)
class Experiment:
    """One published row: the scenario that reruns it and the values printed for it.

    comparators: per published metric how the paper states it (studies/comparators.py: "=",
    "~", "<", "<=", ">", ">=", "range"; missing = "~"); for "range" the published value is the
    low end and `ranges[name]` the (low, high) pair. quotes: per metric stated as a bound (or
    otherwise worth quoting), "the sentence it comes from", section or figure."""

    table: str
    labels: Mapping[str, Any]
    scenario: Scenario
    published: Mapping[str, Optional[float]]
    overrides: Tuple[Tuple[str, str], ...] = ()
    cost: float = 1.0  # relative run time, to start long runs first
    comparators: Mapping[str, str] = field(default_factory=dict)
    ranges: Mapping[str, Tuple[float, float]] = field(default_factory=dict)
    quotes: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from .comparators import ComparatorError, check

        where = f"experiment {self.table} {dict(self.labels)}"
        for name, comparator in self.comparators.items():
            check(comparator, f"{where}: comparators[{name!r}]")
            if name not in self.published:
                raise ComparatorError(f"{where}: comparators[{name!r}] names no published value")
            if comparator == "range" and name not in self.ranges:
                raise ComparatorError(
                    f"{where}: comparators[{name!r}] is a range but ranges[{name!r}] is missing"
                )
        for name, pair in self.ranges.items():
            if self.comparators.get(name) != "range":
                raise ComparatorError(
                    f"{where}: ranges[{name!r}] given but comparators[{name!r}] is not 'range'"
                )
            low, high = (float(v) for v in pair)
            if not low <= high or self.published.get(name) != low:
                raise ComparatorError(
                    f"{where}: ranges[{name!r}] = {tuple(pair)!r} must be (low, high) with low = "
                    f"the published value {self.published.get(name)!r}"
                )

    def comparator(self, name: str) -> str:
        """How the published value `name` is stated ("~" unless declared)."""
        return self.comparators.get(name, "~")

    def high(self, name: str) -> Optional[float]:
        """The high end of a "range" statement (None otherwise)."""
        pair = self.ranges.get(name)
        return None if pair is None else float(pair[1])


@dataclass(frozen=True)
class TraceRun:
    """A run recorded with a [trace] table, for cwnd, queue and utilisation figures."""

    name: str
    title: str
    scenario: Scenario
    overrides: Tuple[Tuple[str, str], ...] = ()
    buffer_cells: Optional[float] = None
    cost: float = 1.0


@dataclass(frozen=True)
class FigureFile:
    """A figure of the report: the table it illustrates (or "traces"), a caption, its files."""

    table: str
    caption: str
    files: Sequence[Path]


@dataclass
class StudyResults:
    """What a study's figures are drawn from.

    tables: per table id, one row per experiment: label columns, then per compared metric
    `<name>`, `paper_<name>`, `comparator_<name>`, `agrees_<name>`, `diff_<name>` (the
    distance to what the statement allows, 0 when a bound is satisfied: comparators.py),
    `<name>_ci_low`, `<name>_ci_high` (cut to the values the quantity can take) and, with at
    most three replications, `<name>_runs` (their values); with a "range" statement in the
    table also `paper_high_<name>`.
    points: every metric of every experiment, long form (table, labels, metric, n, mean, std,
    ci_low, ci_high), as atmsim.sweep returns them.
    traces: each trace run with its Result.traces (cwnd, queues, utilization tables).
    runs: one row per replication: table and label columns, then every metric (wide), for
    figures that draw the replications themselves when there are few.
    """

    tables: Dict[str, "pd.DataFrame"]
    points: "pd.DataFrame"
    traces: List[Tuple[TraceRun, Dict[str, "pd.DataFrame"]]] = field(default_factory=list)
    runs: Optional["pd.DataFrame"] = None


class Study(Protocol):
    name: str  # command-line name, e.g. "ubr-plus"
    title: str
    citation: str
    runs: int  # replications per experiment (1 for a model without randomness)

    @property
    def tables(self) -> Sequence[PaperTable]:
        """The paper's tables the study compares with (read only: a study may hold a list)."""

    def experiments(self, quick: bool) -> List[Experiment]:
        """The runs; quick: a small subset that still shows the study's point."""

    def trace_runs(self, quick: bool) -> List[TraceRun]:
        """Runs recorded with [trace] for the time-series figures (may be empty)."""

    def figures(self, results: StudyResults, out_dir: Path) -> List[FigureFile]:
        """Draw the study's figures into out_dir."""


# name -> "module:attribute" of the Study object. Other studies add their line here.
_BUILTIN: Dict[str, str] = {
    "ubr-plus": "atmsim.studies.ubr_plus.study:STUDY",
    "gfr-bonaventure": "atmsim.studies.gfr_bonaventure.study:STUDY",
    "gfr-goyal": "atmsim.studies.gfr_goyal.study:STUDY",
    "gerla": "atmsim.studies.gerla.study:STUDY",
    "ajmone-marsan": "atmsim.studies.ajmone_marsan.study:STUDY",
}

# name -> one line for `atmsim reproduce --help` (kept here so the help imports no study).
_SUMMARY: Dict[str, str] = {
    "ubr-plus": "Goyal, Jain et al., UBR+ (ICC 1997): tail drop, EPD, Selective Drop and "
    "FBA on the N-source LAN/WAN, Tables 1-6",
    "gfr-bonaventure": "Bonaventure, GFR: FIFO-based (LBO/HBO, tagging) and WFQ-based "
    "switches, privileged and background goodput, figures 4-24 and the section-6 variants",
    "gfr-goyal": "Goyal, Jain, Fahmy, Vandalore, rate guarantees to TCP over GFR "
    "(LCN 1998): window control by drops (figure 3), per-VC thresholds and Differential FBA, "
    "Tables 1-5",
    "gerla": "Gerla, Pazos, Signore, credit-based (FCVC) against rate-based (PRCA) control "
    "of TCP in an ATM LAN, figures 3-6",
    "ajmone-marsan": "Ajmone Marsan, Bianco, Lo Cigno, Munafò (CLASS): GCRA and adaptive "
    "shaping of TCP, two-node and Italian networks, figures 2-12, Table 2",
}


class UnknownStudy(KeyError):
    def __str__(self) -> str:
        return f"unknown study {self.args[0]!r} (choose from {', '.join(names())}, or all)"


def names() -> List[str]:
    """Registered study names, in registration order."""
    return list(_BUILTIN)


def get(name: str) -> Study:
    """The study registered as `name`; UnknownStudy otherwise."""
    if name not in _BUILTIN:
        raise UnknownStudy(name)
    module, _, attribute = _BUILTIN[name].partition(":")
    study: Study = getattr(importlib.import_module(module), attribute)
    return study


def summary(name: str) -> str:
    """The one-line description of a registered study (its title if none was given)."""
    if name not in _SUMMARY:
        _SUMMARY[name] = get(name).title
    return _SUMMARY[name]


def register(name: str, target: str, summary: Optional[str] = None) -> None:
    """Register a study defined outside this package ("package.module:ATTRIBUTE")."""
    _BUILTIN[name] = target
    if summary is not None:
        _SUMMARY[name] = summary
