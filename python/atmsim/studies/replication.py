"""Replications that are really replications.

A study's point is run several times with different seeds so that its table can show a mean
and a 95 % interval. That interval means something only if the runs differ: if a scenario has
a random element (a random slot phase, start jitter, an on-off or Poisson source, an
application with random idle times or message sizes, random loss, random arbitration, DFBA's
probabilistic drop) and still every replication of a point gives the same numbers, the seed
does not reach the randomness and the interval of zero width is a lie. `check` finds such
points and the study fails with a message naming them.

Which elements are random is read from the scenario itself (`random_elements`), with the
overrides of the run applied. `simulation.phases` defaults to "random" in an engine that has
the setting (the randomness model: docs/scenario-format.md, `[simulation]`); an engine
without it (before branch `rand`) behaves as "aligned", which `engine_has_phases` finds out
by asking the engine once.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Sequence

from ..tables import without_attrs
from .assumptions import Pairs, document

if TYPE_CHECKING:
    import pandas as pd

FULL_RUNS = 4  # replications per point in full mode, at least (issue 10, section 1)
QUICK_RUNS = 3  # and in --quick: 2 degrees of freedom (t = 4.30; 2 runs would give t = 12.7)

# Background source kinds whose cells come at random times.
_RANDOM_SOURCES = {"on_off", "poisson"}
# Buffer policies that draw from the port's random stream.
_RANDOM_POLICIES = {"dfba"}


def replications(study_runs: int, quick: bool) -> int:
    """Replications per point: at least FULL_RUNS (QUICK_RUNS with --quick), more if the
    study asks for more in full mode."""
    return QUICK_RUNS if quick else max(FULL_RUNS, study_runs)


class IdenticalReplications(Exception):
    """Points whose replications are all identical although their scenario is random."""


@dataclass(frozen=True)
class Finding:
    point: int
    label: str
    runs: int
    random: Sequence[str]


@functools.lru_cache(maxsize=1)
def engine_has_phases() -> bool:
    """Whether the installed engine knows `simulation.phases` (branch `rand`)."""
    from .. import _core

    probe = "[simulation]\nduration_s = 0.001\n"
    try:
        _core.run_json(probe, [("simulation.phases", "aligned")], 1)
    except _core.ScenarioError as err:
        return "phases" not in str(err) or "unknown field" not in str(err)
    return True


def engine_has_clock_ppm() -> bool:
    """Whether the installed engine knows `simulation.clock_ppm` (oscillator drift, branch
    `drift`)."""
    from .. import _core

    probe = "[simulation]\nduration_s = 0.001\n"
    try:
        _core.run_json(probe, [("simulation.clock_ppm", "0")], 1)
    except _core.ScenarioError as err:
        return "clock_ppm" not in str(err) or "unknown field" not in str(err)
    return True


def _is_positive(v: Any) -> bool:
    try:
        return float(v) > 0
    except (TypeError, ValueError):
        return False


def random_elements(text: str, overrides: Pairs = (), has_phases: bool = True) -> List[str]:
    """The random elements of a scenario (TOML text with dotted-key overrides), as short
    descriptions; empty when the scenario is deterministic."""
    doc = document(text, overrides)
    out: List[str] = []
    sim = doc.get("simulation", {})
    phases = sim.get("phases", "random" if has_phases else "aligned")
    if phases == "random":
        out.append('simulation.phases = "random"')
    if _is_positive(sim.get("clock_ppm")):
        out.append(f"simulation.clock_ppm = {sim.get('clock_ppm')}")
    if _is_positive(sim.get("start_jitter_s")):
        out.append(f"simulation.start_jitter_s = {sim.get('start_jitter_s')}")
    for i, bg in enumerate(doc.get("background", []) or []):
        kind = (bg.get("source") or {}).get("kind")
        if kind in _RANDOM_SOURCES:
            out.append(f"background.{i} ({bg.get('name', '?')}): {kind} source")
    for i, conn in enumerate(doc.get("connection", []) or []):
        app = conn.get("app")
        if isinstance(app, Mapping):
            if app.get("kind") == "messages":
                out.append(f"connection.{i}: messages application (exponential sizes)")
            elif app.get("kind") == "transfers" and _is_positive(app.get("mean_idle_s")):
                out.append(f"connection.{i}: transfers with random idle times")
    for i, fault in enumerate(doc.get("fault", []) or []):
        if _is_positive(fault.get("loss_rate")):
            out.append(f"fault.{i}: random loss")
    ports: List[Mapping[str, Any]] = list(doc.get("port", []) or [])
    template = doc.get("n_source")
    if isinstance(template, Mapping):
        if template.get("arbitration") == "random":
            out.append('n_source.arbitration = "random"')
        if template.get("policy") in _RANDOM_POLICIES:
            out.append(f"n_source.policy = {template.get('policy')}")
    for i, port in enumerate(ports):
        if port.get("arbitration") == "random":
            out.append(f'port.{i}.arbitration = "random"')
        if (port.get("policy") or {}).get("kind") in _RANDOM_POLICIES:
            out.append(f"port.{i}: {(port.get('policy') or {}).get('kind')} policy")
    return out


def _same(values: Sequence[Any]) -> bool:
    first = values[0]
    for v in values[1:]:
        a, b = float(first), float(v)
        if not (a == b or (math.isnan(a) and math.isnan(b))):
            return False
    return True


def identical_points(runs: "pd.DataFrame", metrics: Sequence[str]) -> List[int]:
    """Points (the run table's `point` column) with at least two runs whose every metric
    is the same in all of them."""
    out: List[int] = []
    present = [m for m in metrics if m in runs.columns]
    if not present:
        return out
    point: Any
    for point, group in without_attrs(runs).groupby("point", sort=True):
        if len(group) < 2:
            continue
        if all(_same(group[m].tolist()) for m in present):
            out.append(int(point))
    return out


def check(
    runs: "pd.DataFrame", random: Mapping[int, Sequence[str]], labels: Mapping[int, str]
) -> List[Finding]:
    """Points whose scenario has a random element (`random`: point -> elements) but whose
    replications in `runs` are all identical over every metric."""
    metrics = list(runs.attrs.get("metrics", [])) or [
        c for c in runs.columns if c.startswith(("summary.", "flows.", "ports.", "derived."))
    ]
    counts: Dict[Any, int] = dict(runs.groupby("point").size().to_dict()) if len(runs) else {}
    return [
        Finding(p, labels.get(p, str(p)), int(counts.get(p, 0)), tuple(random[p]))
        for p in identical_points(runs, metrics)
        if random.get(p)
    ]


def _kinds(elements: Sequence[str]) -> str:
    """Random elements in brief: "transfers with random idle times (x10)" rather than ten
    lines that differ only in the connection's index."""
    counts: Dict[str, int] = {}
    for e in elements:
        kind = e.split(": ", 1)[1] if ": " in e else e
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(k if n == 1 else f"{k} (x{n})" for k, n in counts.items())


def message(study: str, findings: Sequence[Finding]) -> str:
    """One paragraph naming the offending points (the first few) and why it is an error."""
    shown = "; ".join(f"{f.label} ({f.runs} runs; random: {_kinds(f.random)})" for f in findings[:3])
    more = f" and {len(findings) - 3} more" if len(findings) > 3 else ""
    return (
        f"{study}: {len(findings)} point(s) have identical replications although their "
        f"scenario is random: {shown}{more}. The seed does not reach the randomness, so "
        f"their confidence intervals would be meaningless"
    )
