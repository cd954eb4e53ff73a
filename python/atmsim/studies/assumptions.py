"""What a reproduction chose where its paper is silent, kept as data beside what it states.

A paper fixes some parameters (a link rate, a buffer of 1000 cells, an MSS) and leaves others
out (the timer tick, how a port orders cells that arrive together, when the sources start).
A simulator has to run with *some* value for every one of them, so each unstated value is an
assumption, and an assumption nobody can see is a result fitted in secret. Here each one is an
`Assumption` record: its name, the value the study uses, why (the paper's silence, or the
standard or common practice it follows), a plausible range to sweep, and how it is applied to
a run (which scenario keys it overrides). `Stated` records list what the paper does give, so
the report can show the two apart.

Some conditions the paper states are still worth sweeping: UBR+ section 3.1 states "no ...
delay variation or randomization in any component", so the study's default is phase-locked
links, and the random phases and oscillator drift a real network has are a variant against the
paper, one declared setting away. Such a record is an `Assumption` with `stated` set (the
quotation and its section): its `value` is the paper's condition, which the default run uses;
its other values are variants. Listings (`render`, `listing`) show it among the stated
parameters, with its variants, never among the assumed ones.

The `keys` of an assumption are dotted scenario keys (`n_source.buffer_cells`,
`tcp.tick_ms`). A `*` part stands for every element of an array of tables in the experiment's
scenario (`port.*.arbitration` sets the arbitration of every port), so one declaration fits
every topology of a study. Values are written as TOML literals by `overrides.normalize`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import tomllib

from ..overrides import normalize

Pairs = Tuple[Tuple[str, str], ...]


@dataclass(frozen=True)
class Stated:
    """A parameter the paper gives: its name, value and where the paper says it (`where`: the
    section; `quote`: the paper's words, when the value is not printed as such)."""

    name: str
    value: str
    where: str
    quote: str = ""

    def source(self) -> str:
        """Where the paper says it: the quotation (if any) and the section."""
        return f"{quote_text(self.quote)}, {self.where}" if self.quote else self.where


def quote_text(text: str) -> str:
    """A quotation as printed in listings: in double quotes unless it already is."""
    return text if text.startswith('"') else f'"{text}"'


@dataclass(frozen=True)
class Assumption:
    """A parameter the paper does not state, and how the study fills it in.

    name: short identifier (also the sensitivity table's row name); label: what it is, with
    its unit, for tables and figure axes; value: the value every run of the study uses; why:
    one or two sentences (the paper's silence, the standard or practice followed); values: the
    plausible range, swept one at a time by `atmsim reproduce NAME --sensitivity`; keys: the
    scenario keys a value is written to (`*` = every element of that array); applies: how it
    is applied, in words, when keys alone do not say it (e.g. a study parameter); tables: the
    paper tables it matters for (empty: all of the study's); apply: for assumptions that are
    not one scenario key, a function (experiment scenario's parsed TOML, value) -> overrides;
    stated: when the paper states the condition (its quotation and section), `value` is the
    paper's and every other value a variant against it, kept to be swept (listed as stated).
    """

    name: str
    label: str
    value: Any
    why: str
    values: Sequence[Any]
    keys: Sequence[str] = ()
    applies: str = ""
    tables: Sequence[str] = ()
    apply: Optional[Callable[[Mapping[str, Any], Any], Pairs]] = field(default=None, compare=False)
    stated: str = ""

    def __post_init__(self) -> None:
        if not self.keys and self.apply is None:
            raise ValueError(f"assumption {self.name}: give keys or an apply function")
        if not self.values:
            raise ValueError(f"assumption {self.name}: an empty range cannot be swept")

    def variants(self) -> List[Any]:
        """The values other than the one used (for a stated condition: the variants)."""
        return [v for v in self.values if v != self.value]

    def how(self) -> str:
        """How the assumption is applied, in words, for listings."""
        if self.applies:
            return self.applies
        return ", ".join(self.keys)

    def overrides(self, document: Mapping[str, Any], value: Any) -> Pairs:
        """The scenario overrides that give this assumption `value` in a scenario whose parsed
        TOML (after its own overrides) is `document`."""
        if self.apply is not None:
            return tuple(self.apply(document, value))
        pairs: List[Tuple[str, Any]] = []
        for key in self.keys:
            pairs += [(k, value) for k in expand(key, document)]
        return tuple(normalize(pairs))


def expand(key: str, document: Mapping[str, Any]) -> List[str]:
    """Every concrete key a key with `*` parts stands for in `document` (the key itself when
    it has none). A `*` over an array the document lacks stands for nothing."""
    parts = key.split(".")
    out: List[str] = []

    def walk(node: Any, i: int, prefix: List[str]) -> None:
        if i == len(parts):
            out.append(".".join(prefix))
            return
        part = parts[i]
        if part == "*":
            if isinstance(node, list):
                for j, item in enumerate(node):
                    walk(item, i + 1, prefix + [str(j)])
            return
        child = node.get(part) if isinstance(node, Mapping) else None
        walk(child, i + 1, prefix + [part])

    walk(document, 0, [])
    return out


def wildcard(key: str) -> bool:
    """Whether a dotted key has a `*` part."""
    return "*" in key.split(".")


def concrete(extra: Pairs, text: str, overrides: Pairs) -> Pairs:
    """`--set` pairs for one run: a key with a `*` part (`connection.*.tcp.min_rto_ticks`)
    stands for that key in every element of the array in this run's scenario, as the keys of
    assumptions do; over an array the scenario lacks it stands for nothing."""
    if not any(wildcard(k) for k, _ in extra):
        return tuple(extra)
    doc = document(text, tuple(overrides))
    out: List[Tuple[str, str]] = []
    for key, value in extra:
        out += [(c, value) for c in expand(key, doc)] if wildcard(key) else [(key, value)]
    return tuple(out)


def _literal(raw: str) -> Any:
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw  # the engine reads a non-literal as a string too


def document(text: str, overrides: Pairs = ()) -> Dict[str, Any]:
    """The scenario's TOML with dotted-key overrides applied the way the engine applies them
    (`scenario/overrides.rs`): numeric parts index arrays, missing tables are created."""
    doc: Dict[str, Any] = tomllib.loads(text)
    for key, raw in overrides:
        parts = key.split(".")
        node: Any = doc
        for j, part in enumerate(parts):
            last = j + 1 == len(parts)
            if isinstance(node, list):
                if not part.isdigit() or int(part) >= len(node):
                    break  # the engine rejects it; nothing to infer here
                if last:
                    node[int(part)] = _literal(raw)
                else:
                    node = node[int(part)]
            elif isinstance(node, dict):
                if last:
                    node[part] = _literal(raw)
                else:
                    node = node.setdefault(part, {})
            else:
                break
    return doc


def render(assumptions: Sequence[Assumption], stated: Sequence[Stated] = ()) -> str:
    """Plain-text listing (`atmsim reproduce NAME --assumptions`): the stated parameters (and
    the stated conditions kept as sweepable records, with their variants), then the assumed."""
    lines: List[str] = []
    conditions = [a for a in assumptions if a.stated]
    if stated or conditions:
        lines.append("Stated by the paper:")
        for s in stated:
            lines.append(f"  {s.name} = {s.value}  ({s.source()})")
        for a in conditions:
            lines.append(f"  {a.name} = {fmt_value(a.value)}  [{a.label}]  ({a.stated})")
            lines.append(
                f"      variants (against the paper): {', '.join(fmt_value(v) for v in a.variants())}"
            )
            lines.append(f"      applied as: {a.how()}")
            lines.append(f"      why: {a.why}")
        lines.append("")
    lines.append("Assumed (not stated by the paper):")
    for a in assumptions:
        if a.stated:
            continue
        lines.append(f"  {a.name} = {fmt_value(a.value)}  [{a.label}]")
        lines.append(f"      range swept: {', '.join(fmt_value(v) for v in a.values)}")
        lines.append(f"      applied as: {a.how()}")
        if a.tables:
            lines.append(f"      tables: {', '.join(a.tables)}")
        lines.append(f"      why: {a.why}")
    return "\n".join(lines)


def _plain(v: Any) -> Any:
    return v if isinstance(v, (bool, int, float, str)) or v is None else str(v)


def listing(assumptions: Sequence[Assumption], stated: Sequence[Stated] = ()) -> Dict[str, Any]:
    """The JSON form of `render` (`--assumptions --json`): `stated` entries {name, value,
    source} (a stated condition kept for sweeps adds its `variants`), `assumed` entries
    {name, value, range, why} (with `label` and `applied`)."""
    out_stated: List[Dict[str, Any]] = [
        {"name": s.name, "value": s.value, "source": s.source()} for s in stated
    ]
    out_assumed: List[Dict[str, Any]] = []
    for a in assumptions:
        if a.stated:
            out_stated.append(
                {
                    "name": a.name,
                    "value": fmt_value(a.value),
                    "source": a.stated,
                    "variants": [_plain(v) for v in a.variants()],
                    "why": a.why,
                }
            )
        else:
            out_assumed.append(
                {
                    "name": a.name,
                    "value": _plain(a.value),
                    "range": [_plain(v) for v in a.values],
                    "why": a.why,
                    "label": a.label,
                    "applied": a.how(),
                }
            )
    return {"stated": out_stated, "assumed": out_assumed}


def fmt_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return f"{v:g}"
    return str(v)


def check(assumptions: Sequence[Assumption]) -> None:
    """Declarations a study must not make: two with one name, a used value outside the
    range it claims is plausible. Raises ValueError naming the assumption."""
    seen = set()
    for a in assumptions:
        if a.name in seen:
            raise ValueError(f"assumption {a.name}: declared twice")
        seen.add(a.name)
        if a.value not in list(a.values):
            raise ValueError(
                f"assumption {a.name}: the value used ({a.value!r}) is not in its range {list(a.values)!r}"
            )
        if a.stated and '"' not in a.stated and "'" not in a.stated:
            raise ValueError(f'assumption {a.name}: stated must quote the paper ("words", section)')


def on_ports(path: str, kinds: Sequence[str]) -> Callable[[Mapping[str, Any], Any], Pairs]:
    """An `apply` for a port setting that only some ports have: `path` (dotted, under the
    port table, e.g. "policy.r_cells" or "buffer_cells") on every port whose policy kind is
    one of `kinds`."""

    def apply(doc: Mapping[str, Any], value: Any) -> Pairs:
        pairs = [
            (f"port.{i}.{path}", value)
            for i, p in enumerate(doc.get("port", []) or [])
            if (p.get("policy") or {}).get("kind") in kinds
        ]
        return tuple(normalize(pairs))

    return apply


def randomness_seam(phases_why: str = "", jitter: bool = True, stated: str = "") -> List[Assumption]:
    """The settings of the project's randomness model (docs/scenario-format.md, `[simulation]`)
    as assumptions: the links' slot phases, their oscillators' rate error (when the engine has
    it) and the sources' start jitter. Without `stated`, the value used for phases is what the
    installed engine does ("random" once it has the setting, "aligned" before); an engine without the settings
    rejects them, and the sensitivity run says so instead of sweeping. With `stated` (the
    quotation, and section or reference, of a paper or simulator that was phase-locked), the
    study's scenarios set `simulation.phases = "aligned"` (hence no drift) and the records say
    so: aligned phases and 0 ppm are the stated condition, random phases (with the engine's
    20 ppm drift) and drift the variants against it."""
    from .replication import engine_has_clock_ppm, engine_has_phases

    if stated:
        phases = Assumption(
            "phases",
            "slot phase of every link and timer tick (simulation.phases)",
            "aligned",
            (phases_why + " " if phases_why else "")
            + "Stated: every link's slot grid and every host's timer ticks start at 0, as in the "
            "paper's simulator. The variant random (each grid and tick at its own random phase, "
            "transmitters +-20 ppm off nominal) is what a real network has, against "
            "the paper's statement.",
            ["aligned", "random"],
            keys=["simulation.phases"],
            stated=stated,
        )
    else:
        phases = Assumption(
            "phases",
            "slot phase of every link (simulation.phases)",
            "random" if engine_has_phases() else "aligned",
            (phases_why or "Not stated by the paper.") + " The project default is random: real "
            "links are not phase-locked. The value used is what the installed engine "
            "does.",
            ["aligned", "random"],
            keys=["simulation.phases"],
        )
    out = [phases]
    if engine_has_clock_ppm():
        why = (
            "Each transmitter's cell clock runs off its nominal rate "
            "by a uniform draw in +-clock_ppm: 20 is a free-running SONET clock's free-run "
            "accuracy (GR-253-CORE SONET Minimum Clock, ITU-T G.813 option 2), so equal "
            "links slip up to 40 us a second against each other; 0 is equipment "
            "frequency-locked to one reference (only the phases differ), 5 a better "
            "(stratum-3-like, 4.6 ppm) oscillator, 100 a cheap uncompensated crystal."
        )
        out.append(
            Assumption(
                "clock_ppm",
                "oscillator rate error bound of every transmitter (ppm, simulation.clock_ppm)",
                0.0 if stated else 20.0,
                (
                    "Stated: no rate error (the phase-locked simulator's exact rates); 5-100 are "
                    "variants against it. "
                    if stated
                    else "Not stated by the paper. "
                )
                + why,
                [0.0, 5.0, 20.0, 100.0],
                keys=["simulation.clock_ppm"],
                stated=stated,
            )
        )
    if jitter:
        out.append(
            Assumption(
                "start_jitter_s",
                "sources' start spread, uniform in [0, X) (s)",
                0.0,
                "Not stated; every source starts at its scenario time. A spread of a few round "
                "trips is what independent hosts would show.",
                [0.0, 0.01, 0.1],
                keys=["simulation.start_jitter_s"],
            )
        )
    return out


@dataclass(frozen=True)
class Combination:
    """A declared combination of assumption values, examined by `--sensitivity` as one setting
    and judged by the same joint rule as a single value (issue 27: "at that one value (or one
    declared combination)"): CLASS's phase model x tie order x arrivals, UBR+'s phase model x
    tie order. `settings` are (assumption name, value) pairs, at least two, each value in its
    assumption's range; `why` says what the combination stands for."""

    settings: Tuple[Tuple[str, Any], ...]
    why: str = ""

    @property
    def name(self) -> str:
        """The sweep's row name: the assumptions joined by " x " (`phases x arbitration`)."""
        return " x ".join(n for n, _ in self.settings)

    @property
    def value(self) -> str:
        """The combination's value as one text, in the order of `name` (`random x fixed`)."""
        return " x ".join(fmt_value(v) for _, v in self.settings)

    def used(self, assumptions: Sequence[Assumption]) -> str:
        """The used values of the same assumptions, as `value` writes them (the baseline)."""
        by = {a.name: a for a in assumptions}
        return " x ".join(fmt_value(by[n].value) for n, _ in self.settings)


def combinations(names: Sequence[str], assumptions: Sequence[Assumption], why: str = "") -> List[Combination]:
    """Every combination of the named assumptions' ranges that differs from the used values in
    at least two of them (a single difference is the one-at-a-time sweep's own)."""
    import itertools

    by = {a.name: a for a in assumptions}
    missing = [n for n in names if n not in by]
    if missing:
        raise ValueError(f"combination {' x '.join(names)}: no declared assumption {missing[0]}")
    out = []
    for values in itertools.product(*(list(by[n].values) for n in names)):
        if sum(v != by[n].value for n, v in zip(names, values)) >= 2:
            out.append(Combination(tuple(zip(names, values)), why))
    return out


def check_combinations(declared: Sequence[Combination], assumptions: Sequence[Assumption]) -> None:
    """Combinations a study must not declare: fewer than two assumptions, an assumption named
    twice or not declared, a value outside its range, one declared twice, one that differs from
    the used values in fewer than two assumptions. Raises ValueError naming it (one line)."""
    by = {a.name: a for a in assumptions}
    seen = set()
    for c in declared:
        names = [n for n, _ in c.settings]
        head = f"combination {c.name or '(empty)'}"
        if len(names) < 2:
            raise ValueError(f"{head}: give at least two assumptions (one is the one-at-a-time sweep)")
        if len(set(names)) != len(names):
            raise ValueError(f"{head}: an assumption is named twice")
        for n, v in c.settings:
            if n not in by:
                raise ValueError(f"{head}: no declared assumption {n}")
            if v not in list(by[n].values):
                raise ValueError(f"{head}: {n} = {v!r} is not in its range {list(by[n].values)!r}")
        if sum(v != by[n].value for n, v in c.settings) < 2:
            raise ValueError(
                f"{head} = {c.value}: differs from the used values in fewer than two assumptions"
            )
        key = (c.name, c.value)
        if key in seen:
            raise ValueError(f"{head} = {c.value}: declared twice")
        seen.add(key)
