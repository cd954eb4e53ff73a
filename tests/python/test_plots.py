"""Every kind of figure is written as a non-empty PNG and SVG."""

from __future__ import annotations

import pandas as pd
import pytest

from atmsim import plots


def _check(files, tmp_path):
    assert sorted(p.suffix for p in files) == [".png", ".svg"]
    for p in files:
        assert p.is_file() and p.stat().st_size > 1000
        assert str(p).startswith(str(tmp_path))
    png = next(p for p in files if p.suffix == ".png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = next(p for p in files if p.suffix == ".svg")
    assert "<svg" in svg.read_text()


@pytest.fixture
def points():
    rows = []
    for policy in ("EPD", "FBA"):
        for k in (1000, 2000, 3000):
            mean = 50e6 + k * 1e4 + (5e6 if policy == "FBA" else 0)
            rows.append(
                dict(
                    policy=policy,
                    buffer_cells=k,
                    metric="summary.total_goodput_bps",
                    n=3,
                    mean=mean,
                    std=1e6,
                    ci_low=mean - 2e6,
                    ci_high=mean + 2e6,
                )
            )
    return pd.DataFrame(rows)


def test_goodput_vs_parameter(points, tmp_path):
    paper = points.drop_duplicates(["policy", "buffer_cells"]).assign(value=points["mean"] * 0.9)
    _check(
        plots.goodput_vs_parameter(
            points, "buffer_cells", tmp_path / "g1", hue="policy", reserved_bps=100e6, paper=paper
        ),
        tmp_path,
    )
    _check(
        plots.goodput_vs_parameter(
            points[points.policy == "EPD"],
            "buffer_cells",
            tmp_path / "sub" / "g2",
            reserved_bps=[40e6, 50e6, 60e6],
        ),
        tmp_path,
    )


@pytest.fixture
def table():
    rows = []
    for config in ("LAN", "WAN"):
        for k in (1000, 2000):
            for policy in ("UBR", "EPD", "SD", "FBA"):
                rows.append(
                    dict(
                        config=config,
                        buffer_cells=k,
                        policy=policy,
                        efficiency=0.8,
                        paper_efficiency=0.7,
                        efficiency_ci_low=0.75,
                        efficiency_ci_high=0.85,
                    )
                )
    return pd.DataFrame(rows)


def test_comparison_figures(table, tmp_path):
    _check(
        plots.comparison_bars(
            table,
            ["config", "buffer_cells", "policy"],
            "efficiency",
            "paper_efficiency",
            tmp_path / "bars",
            title="t",
        ),
        tmp_path,
    )
    _check(
        plots.comparison_heatmap(
            table,
            ["config", "buffer_cells"],
            "policy",
            "efficiency",
            "paper_efficiency",
            tmp_path / "heat",
            title="t",
        ),
        tmp_path,
    )


def test_trace_figures(tmp_path):
    t = [i * 0.01 for i in range(100)]
    cwnd = pd.DataFrame(
        {
            "connection": ["tcp1"] * 100 + ["tcp2"] * 100,
            "t_s": t + t,
            "cwnd_bytes": list(range(0, 51200, 512)) * 2,
            "ssthresh_bytes": [65535] * 200,
        }
    )
    queues = pd.DataFrame({"port": "sw1->sw2", "t_s": t, "cells": [i % 50 for i in range(100)]})
    util = pd.DataFrame({"port": "sw1->sw2", "t_s": t, "utilization": [0.9] * 100})
    _check(plots.cwnd_trace(cwnd, tmp_path / "cwnd"), tmp_path)
    _check(plots.queue_trace(queues, tmp_path / "queue", buffer_cells=60), tmp_path)
    _check(plots.utilisation_trace(util, tmp_path / "util", ports=["sw1->sw2"]), tmp_path)
