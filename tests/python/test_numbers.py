"""The one number format (`atmsim.numbers`), and that every text output uses it."""

from __future__ import annotations

import math

import pytest

from atmsim.numbers import fmt, percent, plus_minus


@pytest.mark.parametrize(
    "value, digits, text",
    [
        (0.123456, 3, "0.123"),
        (7591.0, 3, "7591"),  # whole numbers in full, never 7.59e+03
        (12345.6, 3, "12346"),  # as many integer digits as asked or more: in full
        (2.5e-7, 3, "2.5e-07"),
        (42, 3, "42"),
        (-1.23456, 2, "-1.2"),
        (0.1234567891, 6, "0.123457"),
        (None, 3, "-"),
        (math.nan, 3, "-"),
        (True, 3, "yes"),
        ("fba", 3, "fba"),
    ],
)
def test_fmt(value: object, digits: int, text: str) -> None:
    assert fmt(value, digits) == text


def test_percent_and_plus_minus() -> None:
    assert percent(0.875) == "88 %"
    assert percent(1.0) == "100 %"
    assert percent(math.nan) == "-"
    assert percent(None) == "-"
    assert plus_minus(25.4321, 0.12345) == "25.4 ± 0.123"
    assert plus_minus(25.4321, math.nan) == "25.4"
    assert plus_minus(math.nan, 0.1) == "-"


def test_text_outputs_use_it() -> None:
    # The sweep table, the run table and the report go through atmsim.numbers: none keeps a
    # format of its own (a regression would bring a second rule back).
    import inspect

    from atmsim import cli_sweep, run_text
    from atmsim.studies import agreement, report

    for module in (cli_sweep, run_text, report, agreement):
        source = inspect.getsource(module)
        assert "def fmt(" not in source and "def _percent(" not in source, module.__name__
    for module in (cli_sweep, run_text, report):
        source = inspect.getsource(module)
        for spec in (":.2f}", ":.3f}", ":.6g}", ":.0f} %"):
            assert spec not in source, (module.__name__, spec)


def test_run_text_numbers() -> None:
    from atmsim import run_text

    assert run_text._value(0.1234567891) == "0.123457"
    assert run_text._value({"a": 2.0, "b": None}) == "a=2, b=-"
