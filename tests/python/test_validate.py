"""`atmsim validate`: the engine against closed-form results."""

from __future__ import annotations

import json
import math
from typing import Dict, List

import pytest

from atmsim import validate
from atmsim.validate import CHECKS, CheckResult, Measurement, judge
from conftest import run_cli


@pytest.fixture(scope="module")
def results() -> Dict[str, CheckResult]:
    # Every check once (about 10-20 s on a shared machine), shared by the tests below.
    return {r.name: r for r in validate.run_checks()}


def test_at_least_eight_checks_with_unique_names_and_sources():
    names = [c.name for c in CHECKS]
    assert len(names) >= 8
    assert len(set(names)) == len(names)
    assert all(c.source for c in CHECKS)


def test_every_check_passes(results):
    failed = [validate.render_one(r) for r in results.values() if not r.passed]
    assert not failed, "\n".join(failed)
    assert list(results) == validate.names()


def test_tolerances_are_finite_and_measurements_numbers(results):
    for r in results.values():
        assert math.isfinite(r.expected) and math.isfinite(r.measured), r
        assert r.tolerance >= 0 and math.isfinite(r.tolerance), r


@pytest.mark.parametrize("name", [c.name for c in CHECKS])
def test_a_wrong_expectation_fails(results, name):
    r = results[name]
    m = Measurement(r.expected, r.measured, r.tolerance)
    assert judge(r.name, r.source, m).passed
    # Just outside the tolerance, on either side, and a gross error.
    step = r.tolerance + max(abs(r.expected), 1.0) * 1e-9
    for wrong in (r.measured + step * 1.01, r.measured - step * 1.01, r.expected * 2 + 1):
        assert not judge(r.name, r.source, m, expected=wrong).passed, (name, wrong)


def test_a_wrong_prediction_in_a_check_fails():
    check = next(c for c in CHECKS if c.name == "slow-start")
    right = check.run()
    assert right.passed
    wrong = check.run(expected=right.expected + 1)
    assert not wrong.passed and wrong.expected == right.expected + 1


def test_nan_measurement_fails():
    assert not judge("x", "s", Measurement(1.0, float("nan"), 10.0)).passed


def test_closed_forms():
    # Pollaczek-Khinchine (slotted): rho / (2 (1 - rho)).
    assert validate.md1_expected(0.5) == pytest.approx(0.5)
    assert validate.md1_expected(0.8) == pytest.approx(2.0)
    # UBR+ section 3.2: 125.2 Mb/s for MSS 512 over AAL5 with LLC/SNAP on 155.52 Mb/s.
    assert validate.cells_per_frame(512) == 12
    assert round(validate.max_goodput_bps(512) / 1e6, 1) == 125.2
    assert validate.cells_per_frame(9140) == 192
    assert validate.cells_per_frame(0) == 2  # an ACK: 56 octets


def test_finite_buffer_loss_closed_forms():
    # K = 0 keeps nothing; K = 1: every slot keeps one of its arrivals, E[(A - 1)+] / rho.
    assert validate.md1k_loss(0.9, 0) == pytest.approx(1.0)
    rho = 0.7
    assert validate.md1k_loss(rho, 1) == pytest.approx((rho - 1 + math.exp(-rho)) / rho)
    losses = [validate.md1k_loss(0.9, k) for k in (2, 5, 10, 20)]
    assert losses == sorted(losses, reverse=True) and losses[-1] < 0.01


def test_virtual_scheduling_hand_sequence():
    # T = 10, tau = 5, cells at 0, 3, 9, 12, 40: 0 conforms (TAT 10), 3 does not (10 > 8),
    # 9 does (TAT 20), 12 does not (20 > 17), 40 does (TAT 50).
    assert validate.vsa_conforming([0, 3, 9, 12, 40], 10, 5) == 3
    # Periodic at 6 with T = 10: tau = 0 keeps every other cell, tau = 4 keeps 6/10.
    cells = [6 * k for k in range(1, 10_001)]
    assert validate.vsa_conforming(cells, 10, 0) == 5000
    assert abs(validate.vsa_conforming(cells, 10, 4) - 6000) <= 1


def test_cbr_arrivals_follow_the_access_grid():
    from fractions import Fraction

    assert validate.cbr_arrivals(7, Fraction(2), 4) == [8, 14, 22, 28]


def test_as_dict_shape(results):
    r = results["conservation"]
    assert r.as_dict() == {
        "name": "conservation",
        "source": r.source,
        "expected": 0.0,
        "measured": 0.0,
        "tolerance": 0.0,
        "passed": True,
    }


def test_select_keeps_the_checks_order_and_rejects_unknown_names():
    assert [c.name for c in validate.select(["cell-rate", "slow-start"])] == ["slow-start", "cell-rate"]
    with pytest.raises(validate.UnknownCheck, match="'nope'"):
        validate.select(["slow-start", "nope"])
    with pytest.raises(validate.UnknownCheck):
        validate.select([""])


def test_cli_json_shape():
    proc = run_cli("validate", "--json", "--only", "slow-start,cell-rate,conservation")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert list(doc) == ["checks"]
    checks: List[Dict[str, object]] = doc["checks"]
    assert [c["name"] for c in checks] == ["slow-start", "cell-rate", "conservation"]
    for c in checks:
        assert set(c) == {"name", "source", "expected", "measured", "tolerance", "passed"}
        assert c["passed"] is True


def test_cli_text_prints_formula_numbers_and_verdict():
    proc = run_cli("validate", "--only", "slow-start")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("PASS  slow-start")
    assert "2^(k+1) - 1" in out and "expected 127" in out and "tolerance 0" in out
    assert "1/1 checks passed" in out


def test_cli_bad_only_name_is_one_line_naming_it():
    proc = run_cli("validate", "--only", "slow-start,md1-rho-9")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("atmsim: error: "), proc.stderr
    assert "'md1-rho-9'" in lines[0] and "--only" in lines[0]
    assert proc.stdout == "" and "Traceback" not in proc.stderr


def test_cli_exits_1_when_a_check_fails(monkeypatch, capsys):
    from atmsim import cli

    wrong = validate.Check("always-wrong", "1 = 2", lambda: Measurement(2.0, 1.0, 0.0))
    monkeypatch.setattr(validate, "CHECKS", [*CHECKS, wrong])
    assert cli.main(["validate", "--only", "always-wrong", "--json"]) == 1
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert doc["checks"][0]["passed"] is False
    assert "always-wrong" in captured.err


def test_the_tolerances_are_tight_enough_to_tell_near_models_apart(results):
    # Each of these predictions is a plausible but wrong model; the check must reject it.
    def rejects(name: str, expected: float) -> bool:
        r = results[name]
        return not judge(name, r.source, Measurement(r.expected, r.measured, r.tolerance), expected).passed

    # M/D/1 without the wait for the slot boundary: rho^2 / (2 (1 - rho)).
    assert rejects("md1-rho-0.8", 0.8**2 / (2 * 0.2))
    assert rejects("md1-rho-0.5", 0.5**2 / (2 * 0.5))
    # W / RTT with the propagation delay alone (40 ms), no cell times.
    assert rejects("window-limited", 16384 * 8 / 0.040)
    # The goodput without LLC/SNAP (MSS + 48 octets per frame: 11.67 -> 12 cells for 512, the
    # same) is indistinguishable there, but a SONET payload rate of 149.76 Mb/s is not.
    assert rejects("aal5-goodput-mss512", validate.max_goodput_bps(512, 149_760_000))
    assert rejects("cell-rate", 149_760_000 / 424)
    # Strictly periodic arrivals every 7.3 us instead of the access grid's 7 and 8 us spacings.
    periodic = [7_300_000 * k for k in range(1, 27_397)]
    assert rejects("gcra-cdvt-2us", validate.vsa_conforming(periodic, 10_000_000, 2_000_000) / len(periodic))


def test_every_check_is_described_in_the_docs():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "validation.md").read_text()
    missing = [c.name for c in CHECKS if f"`{c.name}`" not in page]
    assert not missing, missing
