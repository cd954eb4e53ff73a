"""The transcription of the UBR+ paper's published tables."""

from __future__ import annotations

import itertools

import pytest

from atmsim.studies.ubr_plus import data


def test_row_counts():
    assert len(data.table1()) == 4
    # Tables 2 and 3: 12 configurations each, every one with UBR, EPD, SD and FBA columns
    # (24 printed rows x 4 policies = 96 values = 48 runs with an efficiency and a fairness).
    assert len(data.TABLE2_EFFICIENCY) == len(data.TABLE3_FAIRNESS) == 12
    assert data.TABLE2_EFFICIENCY.keys() == data.TABLE3_FAIRNESS.keys()
    assert len(data.table23()) == 48
    # Table 4 as printed has 44 rows (9 + 5*3 LAN, 5 + 5*3 WAN).
    assert len(data.table4()) == 44
    assert len(data.table5()) == 54
    assert len(data.table6()) == 54


@pytest.mark.parametrize("row", data.all_rows(), ids=str)
def test_published_values_are_fractions(row):
    assert 0.0 <= row.efficiency <= 1.0
    assert 0.0 <= row.fairness <= 1.0
    assert row.config in ("LAN", "WAN")
    assert row.policy in data.POLICIES
    assert row.sources in (5, 15)


def test_buffers_match_config():
    for row in data.all_rows():
        if row.table == 1:
            assert row.buffer_cells is None
        elif row.config == "LAN":
            assert row.buffer_cells in (1000, 2000, 3000)
        else:
            assert row.buffer_cells in (12000, 24000, 36000)


def test_tables_2_3_cover_the_grid():
    expected = set(
        [("LAN", n, k) for n in (5, 15) for k in (1000, 2000, 3000)]
        + [("WAN", n, k) for n in (5, 15) for k in (12000, 24000, 36000)]
    )
    assert set(data.TABLE2_EFFICIENCY) == expected


@pytest.mark.parametrize("table, config", [(data.table5, "LAN"), (data.table6, "WAN")])
def test_fba_tables_are_full_factorial(table, config):
    buffers = (1000, 2000, 3000) if config == "LAN" else (12000, 24000, 36000)
    grid = set(itertools.product((5, 15), buffers, (0.9, 0.5, 0.1), (0.8, 0.5, 0.2)))
    seen = [(r.sources, r.buffer_cells, r.r, r.z) for r in table()]
    assert len(seen) == len(set(seen)) == 54
    assert set(seen) == grid
    assert all(r.config == config and r.policy == "FBA" for r in table())


def test_ocr_repairs():
    t1 = {(r.config, r.sources): r.max_queue_cells for r in data.table1()}
    assert t1 == {("LAN", 5): 7591, ("LAN", 15): 22831, ("WAN", 5): 59211, ("WAN", 15): 196203}
    eff, fair = data.TABLE2_EFFICIENCY, data.TABLE3_FAIRNESS
    assert eff[("LAN", 15, 2000)] == (0.49, 0.81, 0.82, 0.8)
    assert eff[("LAN", 15, 3000)] == (0.47, 0.91, 0.94, 0.95)
    assert eff[("WAN", 5, 24000)][2] == 0.92
    assert eff[("WAN", 5, 36000)][0] == 0.91
    assert fair[("LAN", 5, 1000)][2] == 0.99
    assert fair[("LAN", 5, 2000)][3] == 0.98
    assert fair[("WAN", 15, 12000)][3] == 0.97
    last = data.table4()[-1]
    assert (last.sources, last.config, last.buffer_cells, last.z) == (15, "WAN", 36000, 0.8)


def test_per_vc_rows_carry_r_and_z():
    for row in data.all_rows():
        if row.policy in ("SD", "FBA"):
            assert row.r is not None and row.z is not None
        else:
            assert row.r is None and row.z is None
