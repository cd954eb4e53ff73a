"""How a simulated value is compared with what a paper states: as a point or as a bound.

Papers state their numbers in several ways, and the comparison must read each the way it is
written. "Expired more than 20 times per 10 MBytes" is satisfied by 38; "about 18 Mbps" is a
point with the precision it is printed at. Each published value therefore carries a
comparator (`Experiment.comparators`, missing = "~"):

  "~"   about / approximately / close to (a point read at its printed precision)
  "="   stated as such ("is equal to 1.16 ms", "no cell losses" = 0)
  "<"   less than            "<="  does not exceed / at most / or even less
  ">"   more than            ">="  at least
  "range"  between the published value (the low end) and `Experiment.ranges[name][1]`

The distance (`distance`, the `diff_<name>` column) is the signed difference from the value to
the nearest point the statement allows: 0 when a bound (or a range) is satisfied, simulated
minus the bound otherwise, and simulated minus published for "~" and "=".

Agreement (`agrees`, the `agrees_<name>` column): a bound or a range agrees when it is
satisfied by the simulated mean (distance 0; a strict bound is not satisfied by equality).
"~" and "=" agree when |simulated - published| <= the tolerance, which is fixed before any
comparison by `tolerance`: the larger of
  * half a unit of the last digit the paper prints (`printed_unit`: the coarsest unit its table
    or column prints, `Compared.unit`, refined by the digits of the value itself: 0.294
    printed beside 0.41 has unit 0.001), and
  * the half-width of the simulated value's 95 % interval over the replications (the paper's
    value inside that interval cannot be told apart from it).
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Optional, Tuple

COMPARATORS: Tuple[str, ...] = ("=", "~", "<", "<=", ">", ">=", "range")
DEFAULT = "~"
BOUNDS = frozenset({"<", "<=", ">", ">=", "range"})
POINTS = frozenset({"=", "~"})


class ComparatorError(ValueError):
    """A comparator, a range or a bound that cannot be read (the message names it)."""


def check(comparator: Any, where: str = "comparator") -> str:
    """The comparator itself if it is one of COMPARATORS; ComparatorError naming `where`."""
    if not isinstance(comparator, str) or comparator not in COMPARATORS:
        raise ComparatorError(
            f"{where}: {comparator!r} is not a comparator (choose from {', '.join(COMPARATORS)})"
        )
    return comparator


def parse(text: str) -> Tuple[str, float, Optional[float]]:
    """A written statement of a value: "> 20", "<=83", "~ 0.5", "= 0", "0.75" (about), or a
    range "0.3..0.5" -> (comparator, value, high end or None)."""
    s = str(text).strip()
    if ".." in s:
        lo, _, hi = s.partition("..")
        try:
            low, high = float(lo), float(hi)
        except ValueError:
            raise ComparatorError(f"comparator: cannot read the range {text!r} (write LOW..HIGH)") from None
        if not low <= high:
            raise ComparatorError(f"comparator: range {text!r} has its low end above its high end")
        return "range", low, high
    for op in ("<=", ">=", "<", ">", "=", "~"):
        if s.startswith(op):
            op_, rest = op, s[len(op) :].strip()
            break
    else:
        op_, rest = DEFAULT, s
    try:
        value = float(rest)
    except ValueError:
        raise ComparatorError(
            f"comparator: cannot read {text!r} (write e.g. '> 20', '~ 0.5' or '0.3..0.5')"
        ) from None
    if math.isnan(value):
        raise ComparatorError(f"comparator: {text!r} has no value")
    return op_, value, None


def label(comparator: str, paper: Any, hi: Any = None, number: Any = None) -> str:
    """The published value as written with its comparator: "> 20", "0.3..0.5", "18" (about:
    the plain number). `number` formats a value (default: the shortest repr)."""
    show = number or (lambda v: f"{float(v):g}")
    p = _num(paper)
    if p is None:
        return ""
    if comparator == "range":
        h = _num(hi)
        return f"{show(p)}..{show(h)}" if h is not None else f">= {show(p)}"
    if comparator == DEFAULT:
        return str(show(p))
    return f"{comparator} {show(p)}"


def _num(v: Any) -> Optional[float]:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) else f


def distance(sim: Any, paper: Any, comparator: str = DEFAULT, hi: Any = None) -> Optional[float]:
    """Signed distance from the simulated value to what the statement allows (0 when a bound
    is satisfied); None when a value is missing."""
    s, p = _num(sim), _num(paper)
    if s is None or p is None:
        return None
    check(comparator)
    if comparator in POINTS:
        return s - p
    if comparator in ("<", "<="):
        return 0.0 if s <= p else s - p
    if comparator in (">", ">="):
        return 0.0 if s >= p else s - p
    h = _num(hi)
    if h is None:
        raise ComparatorError("comparator range: no high end given")
    if s < p:
        return s - p
    return 0.0 if s <= h else s - h


def agrees(
    sim: Any, paper: Any, comparator: str = DEFAULT, tolerance: float = 0.0, hi: Any = None
) -> Optional[bool]:
    """Whether the simulated value agrees with the statement (see the module docstring); None
    when a value is missing."""
    d = distance(sim, paper, comparator, hi)
    if d is None:
        return None
    s, p = float(sim), float(paper)
    if comparator == "<":
        return s < p
    if comparator == ">":
        return s > p
    if comparator in BOUNDS:
        return d == 0.0
    return abs(d) <= tolerance * (1 + 1e-9) + 1e-12


def printed_unit(value: Any, unit: Optional[float] = None) -> Optional[float]:
    """The unit of the last digit a published value is printed with: `unit` (the coarsest its
    column prints) refined by the value's own digits (0.294 -> 0.001, 18e6 -> 1e6, 0 -> 1)."""
    v = _num(value)
    if v is None:
        return unit
    if v == 0:
        own = 1.0
    else:
        d = Decimal(repr(v)).normalize()
        own = float(Decimal(1).scaleb(d.as_tuple().exponent))  # type: ignore[arg-type]
    return own if unit is None else min(unit, own)


def tolerance(paper: Any, unit: Optional[float] = None, ci: Tuple[Any, Any] = (None, None)) -> float:
    """The tolerance of a point ("~", "="): the larger of half the printed unit and the
    half-width of the replications' 95 % interval `ci` (0 for a missing interval)."""
    u = printed_unit(paper, unit)
    half_unit = 0.0 if u is None else u / 2
    lo, hi = _num(ci[0]), _num(ci[1])
    half_ci = 0.0 if lo is None or hi is None else max(hi - lo, 0.0) / 2
    return max(half_unit, half_ci)
