"""Figures of the CLASS study's report: goodput and efficiency against the background load
(figures 2, 3, 5, 6), against the shaping rate (figure 4), and per connection against the total
background of the Italian network (figures 8-12)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple

from ... import figure_style as style
from ... import plots
from ...numbers import fmt
from ..registry import FigureFile, StudyResults
from . import study as st

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


def _legend(group: str, value: object) -> str:
    """A legend entry for one value of a grouping column, in words."""
    if group == "shaping":
        if value is None or value == "none" or (isinstance(value, float) and math.isnan(value)):
            return "TCP unshaped"
        return "adaptive shaping" if value == "adaptive" else f"TCP shaped at {fmt(value)} Mb/s"
    if group == "bg_shaped":
        return "background shaped" if value else "background unshaped"
    if group == "buffer":
        return f"{fmt(value)} cells"
    if group == "bg_mbps":
        return f"{fmt(value)} Mb/s background"
    return f"{style.label(group)} {fmt(value)}"


def _bounds(table: str, column: str, rows: "pd.DataFrame") -> List[Optional[str]]:
    """The comparator of each stated value of `rows`: the comparison table's
    `comparator_<column>` when it has one, else the bound of the matching prose statement
    (data.STATEMENTS: "<=" at most, ">=" at least, "=" a value)."""
    from . import data

    if f"comparator_{column}" in rows:
        return list(rows[f"comparator_{column}"])
    out: List[Optional[str]] = []
    for _, r in rows.iterrows():
        found = None
        for statement in data.STATEMENTS:
            if (
                statement.figure == table
                and statement.quantity == column
                and all(k in r and r[k] == v for k, v in statement.point.items())
            ):
                # `bound` here, `comparator` once every published value carries one.
                found = getattr(statement, "comparator", None) or getattr(statement, "bound", None)
        out.append(found)
    return out


SINGLE_POINT_NOTE = (
    " Each series has a single point here (this selection runs one {x} per series, as the "
    "quick mode does): markers without a curve, not the paper's curves."
)


def panel_figure(
    frame: "pd.DataFrame",
    x: str,
    groups: Sequence[str],
    columns: Sequence[str],
    title: str,
    table: str,
) -> "Tuple[Figure, bool, List[str], bool]":
    """The panels of one CLASS figure: one per column, one series per combination of
    `groups`, each with its own marker and line style (series with equal values stay
    visible), published values marked (bounds as bounds). Returns the figure, whether any
    published value was drawn, the kinds of bound drawn ("upper", "lower") and whether every
    series is a single point."""
    stated_any = False
    fig = plots._figure(max(10.0, 3.4 * len(columns)), 3.8)
    axes = fig.subplots(1, len(columns))
    if len(columns) == 1:
        axes = [axes]
    keys = list(frame[list(groups)].drop_duplicates().itertuples(index=False)) if groups else [()]
    single = all(frame.loc[_mask(frame, groups, key), x].nunique() <= 1 for key in keys)
    bounds: List[str] = []
    for ax, column in zip(axes, columns):
        if column not in frame:
            continue
        for i, key in enumerate(keys):
            sub = frame[_mask(frame, groups, key)].sort_values(x)
            label = ", ".join(_legend(g, v) for g, v in zip(groups, key)) or "atmsim"
            line = ax.plot(
                sub[x].astype(float), sub[column].astype(float), label=label, **style.series_style(i)
            )[0]
            paper = f"paper_{column}"
            if paper in sub and sub[paper].notna().any():
                stated = sub[sub[paper].notna()]
                bounds += style.paper_marks(
                    ax,
                    stated[x].astype(float),
                    stated[paper].astype(float),
                    line.get_color(),
                    _bounds(table, column, stated),
                )
                stated_any = True
        ax.set_xlabel(style.label(x))
        ax.set_ylabel(style.label(column))
        ax.grid(alpha=0.3)
        if single:
            ax.margins(x=0.5)
    if stated_any:
        style.paper_legend(axes[0], bounds)
    # The panels share their series: one legend, outside them, on the right.
    handles, names = axes[0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, names, loc="outside right upper", fontsize="small")
    fig.suptitle(title + (" (one point per series)" if single else ""), fontsize=10)
    return fig, stated_any, list(dict.fromkeys(bounds)), single


def _mask(frame: "pd.DataFrame", groups: Sequence[str], key: Sequence[object]) -> "pd.Series":
    """The rows of one series: every column of `groups` equal to its value in `key`."""
    import pandas as pd

    mask = pd.Series(True, index=frame.index)
    for g, v in zip(groups, key):
        mask &= frame[g] == v
    return mask


def _panel(
    frame: "Optional[pd.DataFrame]",
    x: str,
    groups: Sequence[str],
    columns: Sequence[str],
    out: Path,
    title: str,
    table: str,
    caption: str,
    hlines: Sequence[float] = (),
) -> List[FigureFile]:
    if frame is None or not len(frame):
        return []
    fig, stated_any, bounds, single = panel_figure(frame, x, groups, columns, title, table)
    for ax in fig.axes:
        for y in hlines:
            ax.axhline(y, color=style.REFERENCE_COLOR, linestyle=":", linewidth=0.8)
    files = plots.save(fig, out)
    note = " Crosses, in their series' colour: values stated in the paper's text." if stated_any else ""
    if bounds:
        words = {"upper": "at most (▼ on the bound)", "lower": "at least (▲ on the bound)"}
        note += " Carets: bounds the text states, " + " and ".join(words[b] for b in bounds) + "."
    if single:
        note += SINGLE_POINT_NOTE.format(x=style.label(x).split(" (")[0].lower())
    return [FigureFile(table, caption + note, files)]


def draw(results: StudyResults, out_dir: Path) -> List[FigureFile]:
    t = results.tables
    figs: List[FigureFile] = []
    figs += _panel(
        t.get("2"),
        "bg_mbps",
        ["buffer", "shaping"],
        ["goodput_mbps", "efficiency"],
        out_dir / "figure2",
        "Figure 2: 1000 km, shaped background",
        "2",
        "Figure 2: total goodput of the three TCP connections and their efficiency "
        "against the shaped background load.",
    )
    flows3 = [f"goodput_{n}" for n in st.TWO_NODE]
    figs += _panel(
        t.get("3"),
        "bg_mbps",
        ["shaping"],
        flows3,
        out_dir / "figure3",
        "Figure 3: 505 / 550 / 1000 km (tcp1 / tcp2 / tcp3), 5000 cells",
        "3",
        "Figure 3: goodput of each connection (tcp1 505 km, tcp2 550 km, tcp3 1000 km).",
    )
    figs += _panel(
        t.get("4"),
        "shaping_mbps",
        ["bg_mbps", "bg_shaped"],
        ["goodput_mbps", "efficiency"],
        out_dir / "figure4",
        "Figure 4: 100 km, 1000 cells",
        "4",
        "Figure 4: total goodput and efficiency against the rate each TCP connection is shaped to.",
    )
    figs += _panel(
        t.get("5"),
        "bg_mbps",
        ["fairness", "buffer"],
        flows3 + ["efficiency"],
        out_dir / "figure5",
        "Figure 5: adaptive shaping, 1000 km",
        "5",
        "Figure 5: adaptive shaping, goodput of each connection and efficiency.",
    )
    figs += _panel(
        t.get("6"),
        "bg_mbps",
        ["fairness"],
        flows3 + ["efficiency"],
        out_dir / "figure6",
        "Figure 6: adaptive shaping, 505 / 550 / 1000 km, 5000 cells",
        "6",
        "Figure 6: adaptive shaping with connections of different lengths.",
    )
    for table, name in (
        ("8-9", "Figures 8-9: 100-cell buffers"),
        ("10-11", "Figures 10-11: 1000-cell buffers"),
        ("12", "Figure 12: adaptive shaping"),
    ):
        groups = ["shaping", "bg_shaped"] if table != "12" else ["buffer", "bg_shaped"]
        figs += _panel(
            t.get(table),
            "total_gbps",
            groups,
            [f"goodput_{n}" for n in st.ITALY],
            out_dir / f"figure{table}-goodput",
            name + " (goodput)",
            table,
            f"{name}: goodput of each TCP connection of the Italian network.",
        )
        figs += _panel(
            t.get(table),
            "total_gbps",
            groups,
            [f"efficiency_{n}" for n in st.ITALY],
            out_dir / f"figure{table}-efficiency",
            name + " (efficiency)",
            table,
            f"{name}: efficiency of each TCP connection of the Italian network.",
        )
    return figs
