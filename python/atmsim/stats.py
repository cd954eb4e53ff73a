"""Mean and Student-t confidence interval of a metric over a point's replications.

Replications are independent runs with different seeds, so the classic interval
mean ± t(1 - α/2, n - 1) · s / √n applies. Missing values (a metric the engine reports as
null, e.g. an efficiency with no bottleneck) are left out rather than counted as zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, List, Optional

from .student_t import quantile


@dataclass(frozen=True)
class Estimate:
    """n usable values, their mean, sample standard deviation and confidence bounds.

    With one value the spread is unknown: std and the bounds are NaN. With none, all are NaN.
    """

    n: int
    mean: float
    std: float
    ci_low: float
    ci_high: float

    @property
    def half_width(self) -> float:
        return (self.ci_high - self.ci_low) / 2.0


def _usable(values: Iterable[Optional[float]]) -> List[float]:
    out: List[float] = []
    for v in values:
        if v is None:
            continue
        f = float(v)
        if not math.isnan(f):
            out.append(f)
    return out


def estimate(values: Iterable[Optional[float]], level: float = 0.95) -> Estimate:
    """Mean and `level` two-sided Student-t confidence interval of the non-missing values."""
    xs = _usable(values)
    n = len(xs)
    nan = float("nan")
    if n == 0:
        return Estimate(0, nan, nan, nan, nan)
    mean = math.fsum(xs) / n
    if n == 1:
        return Estimate(1, mean, nan, nan, nan)
    std = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    half = quantile(0.5 + level / 2.0, n - 1) * std / math.sqrt(n)
    return Estimate(n, mean, std, mean - half, mean + half)
