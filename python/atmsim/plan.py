"""What a sweep runs: parameter points from a grid and zipped lists, times replications.

A *grid* takes the cartesian product of its parameters' values; *zip* parameters advance in
lockstep (their lists have one length and give one row each), and the rows of the zip are
themselves crossed with the grid. Each point is run `runs` times with the seeds of
`seeds.derive_seed`, and every (point, run) becomes one `Task` whose key identifies its
result in the store.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from .literals import split_values, value_of
from .overrides import normalize
from .runkey import run_key
from .scenario import Scenario
from .seeds import derive_seed

Pairs = Tuple[Tuple[str, str], ...]

# The engine's --seed replaces simulation.seed, so sweeping it would silently do nothing.
RESERVED_KEYS = {
    "simulation.seed": "the seed of each run is derived from the base seed and "
    "the run number; use --base-seed (base_seed=) instead"
}


class SweepSpecError(ValueError):
    """A grid, zip or run count that cannot define a sweep; str() names the option."""


@dataclass(frozen=True)
class Point:
    """One parameter combination: scenario, the overrides that make it, their values."""

    scenario: Scenario
    overrides: Pairs
    params: Dict[str, Any]


@dataclass(frozen=True)
class Task:
    """One run: a point, its replication number and seed, and its key in the store."""

    point: int
    run: int
    seed: int
    key: str


@dataclass(frozen=True)
class Axis:
    """One swept parameter: its key, its values as (TOML literal, Python value), and the
    option that gave it ("--grid", "zip", ...) for messages."""

    option: str
    key: str
    values: List[Tuple[str, Any]]


def parse_axis(item: str, option: str) -> Axis:
    """'key=v1,v2' (a --grid or --zip argument) -> Axis."""
    key, sep, values = item.partition("=")
    key = key.strip()
    if not sep or not key:
        raise SweepSpecError(f"{option}: expected key=v1,v2,..., got {item!r}")
    literals = split_values(values)
    if any(not lit for lit in literals):
        raise SweepSpecError(f"{option} {key}: empty value in {values!r}")
    return Axis(option, key, [(lit, value_of(lit)) for lit in literals])


def axis_from_values(key: str, values: Sequence[Any], option: str) -> Axis:
    """A Python list of values (API) -> the same form as parse_axis."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise SweepSpecError(f"{option} {key}: expected a list of values, got {values!r}")
    if not values:
        raise SweepSpecError(f"{option} {key}: no values")
    out = []
    for v in values:
        # numpy scalars (values taken from a DataFrame) as the Python values they hold.
        v = v.item() if hasattr(v, "item") and not isinstance(v, (str, bytes)) else v
        literal = normalize([(key, v)])[0][1]
        # A value given as text is read the way the engine will read it.
        out.append((literal, value_of(literal) if isinstance(v, str) else v))
    return Axis(option, key, out)


def axes(spec: Optional[Mapping[str, Sequence[Any]]], option: str) -> List[Axis]:
    return [axis_from_values(k, v, option) for k, v in (spec or {}).items()]


def _check(grid: Sequence[Axis], zipped: Sequence[Axis], fixed: Pairs, fixed_option: str) -> None:
    for key, _ in fixed:
        if key in RESERVED_KEYS:
            # Applied, it would be overwritten by every run's own seed: refuse, not ignore.
            raise SweepSpecError(f"{fixed_option} {key}: {RESERVED_KEYS[key]}")
    seen = {k for k, _ in fixed}
    for axis in list(grid) + list(zipped):
        if axis.key in RESERVED_KEYS:
            raise SweepSpecError(f"{axis.option} {axis.key}: {RESERVED_KEYS[axis.key]}")
        if axis.key in seen:
            raise SweepSpecError(f"{axis.option} {axis.key}: parameter given more than once")
        seen.add(axis.key)
    if len({len(a.values) for a in zipped}) > 1:
        detail = ", ".join(f"{a.key} has {len(a.values)}" for a in zipped)
        raise SweepSpecError(f"{zipped[0].option}: lists must have the same length ({detail})")


def points(
    scenario: Scenario,
    grid: Sequence[Axis],
    zipped: Sequence[Axis],
    fixed: Pairs = (),
    fixed_option: str = "--set",
) -> List[Point]:
    """Every point of the sweep, the first grid parameter varying slowest. fixed_option: how
    errors name where `fixed` came from."""
    _check(grid, zipped, fixed, fixed_option)
    fixed_params = {k: value_of(v) for k, v in fixed}
    grid_rows = itertools.product(*(a.values for a in grid))
    n_zip = len(zipped[0].values) if zipped else 1
    out = []
    for combo, i in itertools.product(list(grid_rows), range(n_zip)):
        chosen = [(a.key, combo[j]) for j, a in enumerate(grid)]
        chosen += [(a.key, a.values[i]) for a in zipped]
        # The scenario's own overrides come first, the sweep's after them.
        overrides = tuple(scenario.overrides) + fixed + tuple((key, lit) for key, (lit, _) in chosen)
        params = dict(fixed_params, **{key: value for key, (_, value) in chosen})
        out.append(Point(scenario, overrides, params))
    return out


def iter_tasks(points_: Sequence[Point], runs: int, base_seed: int, engine_version: str) -> Iterator[Task]:
    """Every (point, replication) with its seed and store key, made one at a time: a sweep of
    a billion runs starts at once and holds only what is in flight."""
    if runs < 1:
        raise SweepSpecError(f"runs: must be at least 1, got {runs}")
    for i, p in enumerate(points_):
        for r in range(runs):
            seed = derive_seed(base_seed, r)
            yield Task(i, r, seed, run_key(p.scenario.text, p.overrides, seed, engine_version))


def tasks(points_: Sequence[Point], runs: int, base_seed: int, engine_version: str) -> List[Task]:
    """Every (point, replication) with its seed and store key, as a list."""
    return list(iter_tasks(points_, runs, base_seed, engine_version))
