"""`atmsim reproduce all`: the report folder, cached in the store; the study registry."""

from __future__ import annotations

import json

from atmsim.studies import registry
from conftest import UBR_TABLE1_SHORT, run_cli


def test_registry():
    assert "ubr-plus" in registry.names()
    study = registry.get("ubr-plus")
    quick = study.experiments(quick=True)
    assert len(quick) == 26
    assert len(study.experiments(quick=False)) == 204
    assert {e.table for e in quick} == {"1", "2-3"}
    assert all(e.table in {t.id for t in study.tables} for e in quick)
    assert all({"efficiency", "fairness"} <= set(e.published) for e in quick)
    try:
        registry.get("nope")
    except registry.UnknownStudy as err:
        assert "ubr-plus" in str(err)
    else:
        raise AssertionError("unknown study accepted")


def test_reproduce_all_quick_report(quick_report):
    out, args, proc = quick_report.out, quick_report.args, quick_report.proc
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    # Every registered study is in the report; this test checks the UBR+ one.
    by_name = {s["name"]: s for s in doc["studies"]}
    assert "gfr-goyal" in by_name
    ubr = by_name["ubr-plus"]
    assert (
        ubr["name"] == "ubr-plus" and ubr["runs"] == 78 and ubr["runs_computed"] == 78
    )  # 26 rows x 3 replications
    tables = {(a["table"], a["metric"]) for a in ubr["agreement"]}
    assert {("1", "efficiency"), ("1", "max_queue_cells"), ("2-3", "fairness")} <= tables
    for a in ubr["agreement"]:
        assert 0 <= a["within_0.05"] <= a["within_0.10"] <= 1

    index = (out / "index.html").read_text()
    readme = (out / "README.md").read_text()
    for text in (index, readme):
        assert "Tables 2-3" in text and "Agreement with the paper" in text
        # Stated parameters and assumptions, apart, beside the tables.
        assert "Parameters the paper states" in text
        assert "Assumptions (parameters the paper does not state)" in text
        assert "Assumed for this table (not stated by the paper): arbitration = random" in text
        assert "phases = aligned" not in text.split("Assumed for this table")[1].split("\n")[0]
        assert "NOT comparable" in text  # the shortened runs are flagged
    assert "fairness (paper)" in readme
    figures = sorted((out / "ubr-plus").glob("*.svg"))
    assert len(figures) >= 5
    for svg in figures:
        png = svg.with_suffix(".png")
        assert png.stat().st_size > 1000 and svg.stat().st_size > 1000
        assert f"ubr-plus/{svg.name}" in index
        assert f"ubr-plus/{png.name}" in readme
    # Trace figures need the engine's [trace] support; without it the report says so.
    assert any("trace" in f.name for f in figures) or any("trace" in n for n in ubr["notes"])
    assert (out / "ubr-plus" / "table-2-3.csv").read_text().count("\n") == 25
    assumed_csv = (out / "ubr-plus" / "assumptions.csv").read_text()
    assert "min_rto_ticks" in assumed_csv and "arbitration" in assumed_csv
    assert "timer_phases" not in assumed_csv  # a stated condition (section 3.1), not assumed

    # The same study asked again finds every run of it in the store `reproduce all` filled
    # (one study, not all again: rendering the whole report a second time cost 89 s of CI).
    one = [a for a in args if a not in ("--out", out)]
    assert one[:2] == ["reproduce", "all"] and len(one) == len(args) - 2
    again = run_cli("reproduce", "ubr-plus", *one[2:], timeout=900)
    assert again.returncode == 0, again.stderr
    ubr = json.loads(again.stdout)
    assert ubr["study"] == "ubr-plus"
    assert (ubr["runs"], ubr["runs_computed"], ubr["runs_cached"]) == (78, 0, 78)


def test_reproduce_one_study_text(tmp_path):
    proc = run_cli(
        *UBR_TABLE1_SHORT,
        "--store",
        tmp_path / "s.sqlite",
    )
    assert proc.returncode == 0, proc.stderr
    assert "Table 1" in proc.stdout and "efficiency (paper)" in proc.stdout
