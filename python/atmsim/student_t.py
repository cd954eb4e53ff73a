"""Quantiles of Student's t distribution, for confidence intervals without SciPy.

The CDF is written with the regularized incomplete beta function, evaluated by its continued
fraction (modified Lentz method); the quantile is found by bisection on the CDF, which is
monotone, so it cannot fail to converge. Only small degrees of freedom and a few
probabilities are ever asked for, so the values are cached.
"""

from __future__ import annotations

import math
from functools import lru_cache

_EPS = 1e-15
_TINY = 1e-300


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    # Continued fraction of I_x(a, b) (without its prefactor), converging for x < (a+1)/(a+b+2).
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        # Even step.
        num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + num / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        # Odd step.
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + num / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b), 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    # Use the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) where the fraction converges fast.
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1.0 - front * _beta_continued_fraction(b, a, 1.0 - x) / b


def cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with df degrees of freedom."""
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


@lru_cache(maxsize=256)
def quantile(p: float, df: float) -> float:
    """t such that P(T <= t) = p, for 0 < p < 1 and df > 0."""
    if not 0.0 < p < 1.0 or df <= 0:
        raise ValueError(f"quantile needs 0 < p < 1 and df > 0, got p={p}, df={df}")
    if p < 0.5:
        return -quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while cdf(hi, df) < p:  # df = 1 at p = 0.9995 needs hi ~ 637
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)
