"""How atmsim prints a number, everywhere a person reads one: the run and sweep text tables,
the reproductions' notes, terminal tables, report pages and figure labels.

One rule, so that the same value reads the same in every output: `digits` significant digits,
whole numbers and numbers with `digits` or more integer digits in full (7591 cells, not
7.59e+03), "-" for a missing value (None or NaN), text as it is. Fractions shown as
percentages go through the same rule after scaling.
"""

from __future__ import annotations

import math
from typing import Any


def fmt(v: Any, digits: int = 3) -> str:
    """`v` to `digits` significant digits (see the module documentation); "-" when missing,
    "yes"/"no" for a boolean, text as it is."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, str):
        return v
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    if math.isnan(f):
        return "-"
    if f.is_integer() or abs(f) >= 10**digits:
        return f"{f:.0f}"
    return f"{f:.{digits}g}"


def percent(v: Any) -> str:
    """A fraction (0..1) as a whole percentage: 0.875 -> "88 %"; "-" when missing."""
    if v is None or isinstance(v, (bool, str)):
        return fmt(v)
    f = float(v)
    if math.isnan(f):
        return "-"
    return f"{fmt(round(100 * f))} %"


def plus_minus(mean: Any, half: Any, digits: int = 3) -> str:
    """A mean and the half-width of its interval, "1.25 ± 0.031"; the mean alone when the
    half-width is missing, "-" when the mean is."""
    m, h = fmt(mean, digits), fmt(half, digits)
    if m == "-" or h == "-":
        return m
    return f"{m} ± {h}"
