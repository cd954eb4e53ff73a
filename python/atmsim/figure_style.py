"""How every figure of atmsim looks: axis labels with units, colours, the marks of published
values, intervals and heat-map annotations. `plots` and the studies' `figures.py` draw; this
module decides how what they draw reads.

- Labels: an axis is labelled from `LABELS` (or `FLOW_LABELS` for per-connection columns),
  never with a column name such as `buffer_cells`: `label` raises KeyError for a name it does
  not know, so a new quantity gets its words and unit here before it can reach a figure.
- Published values: marks (`PAPER_MARKER`) in the colour of the simulated series they belong
  to, and one legend entry saying so (`paper_legend`).
- Intervals: a quantity that cannot be negative (goodput, efficiency, cells) never gets a
  whisker below zero (`whiskers`); with fewer than `FEW_REPLICATIONS` replications a Student
  t interval is mostly the t quantile (12.7 for two runs), so the replications themselves are
  drawn instead (`replications`).
- Heat maps: each annotation is black or white, whichever contrasts more with its cell
  (WCAG relative luminance), so a pale cell of the difference panel stays legible.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from matplotlib.axes import Axes

# Axis words by column or metric name, with the unit in parentheses as the value is drawn
# (bit/s quantities are drawn in Mb/s, see SCALE).
LABELS: Dict[str, str] = {
    # what a study varies
    "buffer_cells": "Buffer size (cells)",
    "buffer": "Buffer size (cells)",
    "sources": "Number of TCP sources",
    "config": "Configuration",
    "policy": "Drop policy",
    "r": "R (fraction of the buffer)",
    "z": "Z",
    "mcr": "Privileged MCR (cells/s)",
    "mss": "MSS (octets)",
    "b_g": "Burstiness $b_g$",
    "control": "Flow control",
    "bg_mbps": "Background load (Mb/s, user level)",
    "shaping": "TCP shaping",
    "shaping_mbps": "Shaping rate per connection (Mb/s)",
    "bg_shaped": "Background shaped",
    "total_gbps": "Total background load (Gb/s)",
    "experiment": "Experiment",
    "tcps": "TCP group",
    "vc": "Merged VC",
    "r_i": "Threshold $r_i$ (cells)",
    "sum_r_i": r"Total allocation $\sum R_i$ (cells)",
    "threshold_octets": "Drop at cwnd (octets)",
    "paper_eq1_mbps": "Paper's equation 1 (Mb/s)",
    "eq1_at_threshold_mbps": "Equations 1-2 at the drop threshold (Mb/s)",
    "preset": "TCP variant",
    "reserved_bps": "Reserved bandwidth (Mb/s)",
    # what a study measures
    "efficiency": "Efficiency",
    "fairness": "Fairness",
    "max_queue_cells": "Maximum queue (cells)",
    "goodput_mbps": "Total TCP goodput (Mb/s)",
    "b_av_mbps": "Bandwidth left to ABR (Mb/s)",
    "bound_mbps": r"$\eta_{OH} \times B_{av}$ (Mb/s)",
    "ratio": r"Throughput share / threshold share $(\mu_i/\mu)/(r_i/r)$",
    "throughput_mbps": "Throughput per TCP (Mb/s)",
    "summary.total_goodput_bps": "Total TCP goodput (Mb/s)",
    "derived.priv_goodput_bps": "Goodput (Mb/s)",
    "derived.bg_mean_goodput_bps": "Goodput (Mb/s)",
    "priv_goodput_bps": "Privileged goodput (Mb/s)",
    "bg_goodput_bps": "Mean background goodput (Mb/s)",
    # traces
    "t_s": "Time (s)",
    "cwnd_kB": "Congestion window (kB)",
    "cells": "Queue (cells)",
    "utilization": "Link utilisation",
    "cells_per_s": "Arrival rate (cells/s)",
}

# Per-connection columns of the CLASS study ("goodput_tcp1", "efficiency_Mi-Ro").
FLOW_LABELS: Dict[str, str] = {
    "goodput_": "Goodput of {} (Mb/s)",
    "efficiency_": "Efficiency of {}",
}

# Drawn value = stored value x SCALE: bit/s are drawn as Mb/s, the unit the papers use.
BPS_TO_MBPS = 1e-6

SIM_COLOR = "#1f77b4"
PAPER_COLOR = "#d62728"  # only where a published series has no simulated one to match
REFERENCE_COLOR = "0.45"
PAPER_MARKER = "x"
PAPER_MARKER_SIZE = 9
PAPER_MARKER_WIDTH = 2
PAPER_LEGEND = "paper (× in its series' colour)"

# Below this many replications the replications are drawn, not an interval.
FEW_REPLICATIONS = 5

# Heat-map scales: fractions on [0, 1]; differences on a diverging map centred on 0.
FRACTION_CMAP = "viridis"
DIFFERENCE_CMAP = "RdBu_r"
DIFFERENCE_RANGE = 0.5


def label(name: str) -> str:
    """The axis words for a column or metric; KeyError for a name without them. A dotted
    scenario key or metric (`n_source.buffer_cells`, `summary.efficiency`) reads as its last
    part when that has words."""
    if name in LABELS:
        return LABELS[name]
    tail = name.rsplit(".", 1)[-1]
    if tail != name and tail in LABELS:
        return LABELS[tail]
    for prefix, words in FLOW_LABELS.items():
        if name.startswith(prefix) and len(name) > len(prefix):
            return words.format(name[len(prefix) :])
    raise KeyError(f"no axis label for {name!r}: add it to atmsim.figure_style.LABELS")


def labels(names: Iterable[str]) -> str:
    """Several columns that together label an axis (heat-map rows, bar groups)."""
    return ", ".join(label(n) for n in names)


def scale(name: str) -> float:
    """The factor from a stored value to the drawn one (bit/s -> Mb/s)."""
    return BPS_TO_MBPS if name.endswith("_bps") else 1.0


def nonnegative(name: str) -> bool:
    """Whether a quantity cannot be below zero: all the studies plot but differences."""
    return not name.startswith("diff")


def ceiling(name: str) -> Optional[float]:
    """The largest value a quantity can take, if it has one: Jain's fairness index, the
    efficiency (goodput over the most the bottleneck can carry) and a fraction (of PDUs
    tagged) are at most 1; a Student-t interval from few replications near 1 would otherwise
    reach past it."""
    words = set(re.split(r"[._]", name))
    return 1.0 if not name.startswith("diff") and words & {"fairness", "efficiency", "fraction"} else None


def bounded(name: str, low: float, high: float) -> Tuple[float, float]:
    """An interval [low, high] of quantity `name` cut to the values the quantity can take
    (`nonnegative`, `ceiling`): the one rule the figures' whiskers, the comparison tables
    (and so the text tables, notes, CSV and --json), the docs and the sensitivity output use."""
    if nonnegative(name):
        low, high = max(low, 0.0), max(high, 0.0)
    top = ceiling(name)
    if top is not None:
        low, high = min(low, top), min(high, top)
    return low, high


def whiskers(
    mean: Iterable[Any],
    low: Iterable[Any],
    high: Iterable[Any],
    floor_at_zero: bool = True,
    top: Optional[float] = None,
) -> Tuple[List[float], List[float]]:
    """Error-bar lengths below and above each mean from an interval [low, high]; a missing
    bound draws no whisker, with floor_at_zero the lower whisker stops at zero, and with a
    `top` (see `ceiling`) the upper one stops there."""
    below, above = [], []
    for m, lo, hi in zip(mean, low, high):
        m, lo, hi = float(m), float(lo), float(hi)
        if floor_at_zero and not math.isnan(lo):
            lo = max(lo, 0.0)
        if top is not None and not math.isnan(hi):
            hi = min(hi, top)
        below.append(0.0 if math.isnan(lo) or math.isnan(m) else max(m - lo, 0.0))
        above.append(0.0 if math.isnan(hi) or math.isnan(m) else max(hi - m, 0.0))
    return below, above


# A published bound is drawn as a bound: a caret with its base on the bound, pointing to
# the side the value lies on ("at most 83" points down), never as a point. The comparators
# are those of the comparison tables (`comparator_<name>`: =, ~, <, <=, >, >=, range).
UPPER = ("<", "<=")
LOWER = (">", ">=")
UPPER_MARKER = 11  # matplotlib CARETDOWNBASE
LOWER_MARKER = 10  # matplotlib CARETUPBASE
BOUND_MARKER_SIZE = 11
BOUND_LEGEND = {"upper": "paper: at most (▼ on the bound)", "lower": "paper: at least (▲ on the bound)"}


def bound_kind(comparator: Any) -> Optional[str]:
    """ "upper", "lower" or None (a value, not a bound) for a comparator."""
    c = str(comparator).strip() if comparator is not None else ""
    return "upper" if c in UPPER else "lower" if c in LOWER else None


def comparators(frame: Any, name: str) -> Optional[List[Any]]:
    """The comparator of each row of a comparison table for metric `name`
    (`comparator_<name>`), or None when the table has none."""
    column = f"comparator_{name}"
    return list(frame[column]) if column in frame else None


def paper_marks(
    ax: "Axes",
    x: Iterable[Any],
    y: Iterable[Any],
    color: Any,
    comparators: Optional[Sequence[Any]] = None,
) -> List[str]:
    """Published values as marks in the colour of their simulated series: × for a value, a
    caret on the bound for an upper or lower bound (`comparators`, one per mark). Returns
    the kinds of bound drawn, for `paper_legend`."""
    xs, ys = list(x), list(y)
    kinds = [bound_kind(c) for c in comparators] if comparators is not None else [None] * len(xs)
    drawn: List[str] = []
    for kind, marker, size in (
        (None, PAPER_MARKER, PAPER_MARKER_SIZE),
        ("upper", UPPER_MARKER, BOUND_MARKER_SIZE),
        ("lower", LOWER_MARKER, BOUND_MARKER_SIZE),
    ):
        px = [a for a, k in zip(xs, kinds) if k == kind]
        py = [b for b, k in zip(ys, kinds) if k == kind]
        if not px:
            continue
        ax.plot(px, py, linestyle="none", marker=marker, markersize=size, mew=PAPER_MARKER_WIDTH, color=color)
        if kind is not None:
            drawn.append(kind)
    return drawn


def paper_legend(ax: "Axes", bounds: Iterable[str] = ()) -> None:
    """The one legend entry for every published mark of the axes, and one per kind of bound
    drawn (`paper_marks`' return values)."""
    ax.plot(
        [],
        [],
        linestyle="none",
        marker=PAPER_MARKER,
        markersize=PAPER_MARKER_SIZE,
        mew=PAPER_MARKER_WIDTH,
        color="black",
        label=PAPER_LEGEND,
    )
    for kind in dict.fromkeys(bounds):
        ax.plot(
            [],
            [],
            linestyle="none",
            marker=UPPER_MARKER if kind == "upper" else LOWER_MARKER,
            markersize=BOUND_MARKER_SIZE,
            mew=PAPER_MARKER_WIDTH,
            color="black",
            label=BOUND_LEGEND[kind],
        )


# Series of one panel that may coincide (equal values at every point) stay visible: each
# gets its own marker and line style, the markers hollow and shrinking, so that one drawn
# exactly on another shows as a ring around it.
SERIES_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
SERIES_LINESTYLES = ("-", "--", "-.", ":")


def series_style(i: int) -> Dict[str, Any]:
    """Line keywords for the i-th series of a panel (see SERIES_MARKERS)."""
    return {
        "marker": SERIES_MARKERS[i % len(SERIES_MARKERS)],
        "linestyle": SERIES_LINESTYLES[i % len(SERIES_LINESTYLES)],
        "markersize": max(3.5, 8.0 - 1.2 * (i % 4)),
        "markerfacecolor": "none",
        "markeredgewidth": 1.3,
    }


REPLICATION_LEGEND = "each replication (○); line: their mean"
MEAN_MARKER_SIZE = 3  # the mean's dot, small beside the replications' open circles


def replications(ax: "Axes", x: Iterable[Any], values: Iterable[Any], color: Any) -> None:
    """Each replication as an open circle around the line of the means."""
    ax.plot(
        list(x),
        list(values),
        linestyle="none",
        marker="o",
        markersize=6,
        markerfacecolor="none",
        markeredgewidth=1.0,
        color=color,
    )


def replications_legend(ax: "Axes") -> None:
    """The one legend entry for the replications' marks."""
    ax.plot(
        [],
        [],
        linestyle="none",
        marker="o",
        markersize=6,
        markerfacecolor="none",
        markeredgewidth=1.0,
        color="black",
        label=REPLICATION_LEGEND,
    )


def luminance(rgb: Sequence[float]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (components 0..1)."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(float(c)) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Sequence[float], b: Sequence[float]) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_color(background: Sequence[float]) -> str:
    """Black or white, whichever reads better on `background` (at least 4.58:1)."""
    black, white = (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)
    return "black" if contrast(background, black) >= contrast(background, white) else "white"


def legend(ax: "Axes", title: str = "") -> None:
    """The legend beside the axes, on the right, where it cannot hide a mark."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(
            fontsize="small",
            title=title or None,
            title_fontsize="small",
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            borderaxespad=0.0,
        )


def finish(ax: "Axes", x: str, y: str, title: str = "", legend_title: str = "") -> None:
    """Axis labels from their column names, grid, legend, title: the common last step."""
    ax.set_xlabel(label(x))
    ax.set_ylabel(label(y))
    ax.grid(True, alpha=0.3)
    legend(ax, legend_title)
    if title:
        ax.set_title(title, fontsize="medium")
