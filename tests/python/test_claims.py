"""The papers' main claims as checks (atmsim.studies.claims): the verdict rule on synthetic
comparison tables, each study's declared claims, and where they are shown."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from atmsim.studies import agreement, claims, registry, text
from atmsim.studies.claims import (
    NOT_REPRODUCED,
    NOT_RUN,
    PARTLY,
    REPRODUCED,
    Claim,
    ClaimVerdict,
    bound,
    combine,
    judge,
    relation,
    side,
    trend,
)
from atmsim.studies.registry import Compared, PaperTable, StudyResults
from atmsim.studies.reproduce import StudyReport
from conftest import UBR_TABLE1_SHORT, run_cli

ROW = ("buffer",)


def _results(sim_a, sim_b, paper_a=None, paper_b=None) -> StudyResults:
    """Table "t": per buffer one row of policy A and one of policy B."""
    rows = []
    for i, (a, b) in enumerate(zip(sim_a, sim_b)):
        pa = None if paper_a is None else paper_a[i]
        pb = None if paper_b is None else paper_b[i]
        rows.append({"buffer": 1000 * (i + 1), "policy": "A", "eff": a, "paper_eff": pa})
        rows.append({"buffer": 1000 * (i + 1), "policy": "B", "eff": b, "paper_eff": pb})
    return StudyResults(tables={"t": pd.DataFrame(rows)}, points=pd.DataFrame())


def _a_over_b(r: StudyResults):
    return relation(r, side("t", "eff", "A", policy="A"), ">", side("t", "eff", "B", policy="B"), ROW)


def test_relation_holding_in_every_row_is_reproduced():
    rel = _a_over_b(_results([0.9, 0.8, 0.7], [0.5, 0.4, 0.3]))
    assert (rel.n, rel.k) == (3, 3)
    assert claims.verdict(rel) == REPRODUCED
    assert rel.mean_a == pytest.approx(0.8) and rel.mean_b == pytest.approx(0.4)


def test_most_rows_or_the_mean_is_partly():
    # 2 of 3 rows, the paper's own values hold it in 3 of 3: fewer rows than the paper.
    rel = _a_over_b(_results([0.9, 0.8, 0.2], [0.5, 0.4, 0.3], [0.9, 0.8, 0.7], [0.5, 0.4, 0.3]))
    assert (rel.k, rel.k_paper) == (2, 3)
    assert claims.verdict(rel) == PARTLY
    # 1 of 3 rows but the family mean holds (one large margin): partly.
    rel = _a_over_b(_results([0.9, 0.1, 0.1], [0.2, 0.2, 0.2]))
    assert rel.k == 1 and rel.mean_holds
    assert claims.verdict(rel) == PARTLY


def test_few_rows_and_the_mean_against_is_not_reproduced():
    rel = _a_over_b(_results([0.6, 0.1, 0.1], [0.5, 0.4, 0.3]))
    assert rel.k == 1 and not rel.mean_holds
    assert claims.verdict(rel) == NOT_REPRODUCED


def test_the_papers_own_share_of_rows_is_enough():
    """A conclusion the paper draws from rows that do not all satisfy it (2 of 3) is
    reproduced by a simulation satisfying it in as many rows and in the mean."""
    paper_a, paper_b = [0.9, 0.8, 0.2], [0.5, 0.4, 0.3]
    rel = _a_over_b(_results([0.7, 0.1, 0.9], [0.6, 0.2, 0.3], paper_a, paper_b))
    assert (rel.k, rel.n, rel.k_paper, rel.n_paper) == (2, 3, 2, 3)
    assert claims.verdict(rel) == REPRODUCED
    # One row fewer than the paper: partly (the mean still holds).
    rel = _a_over_b(_results([1.0, 0.1, 0.1], [0.6, 0.2, 0.3], paper_a, paper_b))
    assert rel.k == 1 and claims.verdict(rel) == PARTLY


def test_rows_missing_from_the_run_are_not_run():
    r = _results([0.9], [0.5])
    assert (
        claims.verdict(relation(r, side("t", "eff", policy="C"), ">", side("t", "eff", policy="B"), ROW))
        == NOT_RUN
    )
    assert claims.verdict(relation(r, side("other", "eff"), ">", bound(0.5))) == NOT_RUN
    assert claims.verdict(relation(r, side("t", "missing"), ">", bound(0.5))) == NOT_RUN
    v = judge(relation(r, side("other", "eff"), ">", bound(0.5)))
    assert v.verdict == NOT_RUN and "no row" in v.evidence


def test_bound_and_factor():
    r = _results([0.995, 0.98], [0.5, 0.5])
    rel = relation(r, side("t", "eff", policy="A"), ">=", bound(0.99), ROW)
    assert (rel.n, rel.k) == (2, 1)
    rel = relation(r, side("t", "eff", policy="A"), ">=", side("t", "eff", policy="B"), ROW, factor=1.97)
    assert rel.k == 1  # 0.995 >= 0.985, 0.98 < 0.985


def test_trend_counts_consecutive_pairs_per_group():
    frame = pd.DataFrame(
        {
            "control": ["x"] * 3 + ["y"] * 3,
            "mss": [512, 2048, 8192] * 2,
            "goodput": [1.0, 2.0, 3.0, 3.0, 2.0, 2.5],
        }
    )
    r = StudyResults(tables={"5": frame}, points=pd.DataFrame())
    up = trend(r, "5", "goodput", "mss", control="x")
    assert (up.n, up.k) == (2, 2) and claims.verdict(up) == REPRODUCED
    down = trend(r, "5", "goodput", "mss", increasing=False, control="y")
    assert (down.n, down.k) == (2, 1)
    both = trend(r, "5", "goodput", "mss", by=("control",))
    assert (both.n, both.k) == (4, 3)


def test_combine_parts():
    assert combine([REPRODUCED, REPRODUCED, NOT_RUN]) == REPRODUCED
    assert combine([REPRODUCED, NOT_REPRODUCED]) == PARTLY
    assert combine([NOT_REPRODUCED, NOT_REPRODUCED]) == NOT_REPRODUCED
    assert combine([NOT_RUN, NOT_RUN]) == NOT_RUN
    r = _results([0.9, 0.8], [0.5, 0.4])
    v = judge(_a_over_b(r), relation(r, side("t", "eff", policy="A"), "<", bound(0.85), ROW))
    assert v.verdict == PARTLY
    assert [p["verdict"] for p in v.numbers["parts"]] == [REPRODUCED, NOT_REPRODUCED]


def test_bad_verdict_is_refused():
    with pytest.raises(ValueError, match="claim verdict"):
        ClaimVerdict("mostly", "")


def _paper_results(study, quick: bool) -> StudyResults:
    """The paper's published values as if they were the simulated means."""
    tables = {}
    for spec in study.tables:
        rows = []
        for e in study.experiments(quick):
            if e.table != spec.id:
                continue
            row = {k: e.labels.get(k) for k in spec.labels}
            for c in spec.compared:
                row[c.name] = e.published.get(c.name)
                row[f"paper_{c.name}"] = e.published.get(c.name)
            rows.append(row)
        if rows:
            tables[spec.id] = pd.DataFrame(rows)
    return StudyResults(tables=tables, points=pd.DataFrame())


@pytest.mark.parametrize("name", registry.names())
def test_every_study_lists_its_main_claims(name):
    """At least two claims per study, each quoting the paper with a source; the paper's own
    published values never contradict a claim (a check that did would misstate the paper),
    and at least one claim of each study can be read on them."""
    study = registry.get(name)
    found = claims.claims_of(study)
    assert len(found) >= 2
    assert len({c.name for c in found}) == len(found)
    for c in found:
        assert isinstance(c, Claim)
        assert c.source.strip() and '"' in c.statement, c.name
    verdicts = [v.verdict for _, v in claims.evaluate(found, _paper_results(study, quick=False))]
    assert set(verdicts) <= {REPRODUCED, NOT_RUN}, verdicts
    assert REPRODUCED in verdicts


class _Study:
    name = "toy"
    title = "a toy study"
    tables = [
        PaperTable("t", "Table t", ["buffer", "policy"], [Compared("eff", "summary.eff", "efficiency")])
    ]
    claims = [
        Claim("a-beats-b", '"A improves on B"', "section 1", lambda r: judge(_a_over_b(r))),
        Claim(
            "c-beats-b",
            '"C improves on B"',
            "section 2",
            lambda r: judge(
                relation(r, side("t", "eff", policy="C"), ">", side("t", "eff", policy="B"), ROW)
            ),
        ),
    ]


def _report() -> StudyReport:
    results = _results([0.9, 0.8], [0.5, 0.4], [0.8, 0.7], [0.3, 0.2])
    frame = results.tables["t"]
    frame["diff_eff"] = frame["eff"] - frame["paper_eff"]
    frame["eff_ci_low"] = frame["eff_ci_high"] = float("nan")
    study = _Study()
    return StudyReport(
        study=study,  # type: ignore[arg-type]
        results=results,
        agreement=agreement.summarize(results.tables, study.tables),
        figures=[],
        runs=4,
        computed=4,
        cached=0,
    )


def test_terminal_output_shows_the_claims_ahead_of_the_tables():
    shown = text.render(_report())
    assert "Main claims of the paper (1 reproduced, 1 not run" in shown
    assert "[reproduced] a-beats-b" in shown and "[not run] c-beats-b" in shown
    assert shown.index("a-beats-b") < shown.index("Table t")


def test_records_are_json_ready():
    rep = _report()
    recs = claims.records(rep.study, rep.results)
    assert [r["name"] for r in recs] == ["a-beats-b", "c-beats-b"]
    assert set(recs[0]) == {"name", "statement", "source", "verdict", "evidence", "numbers"}
    assert recs[0]["numbers"]["holds"] == 2 and recs[0]["numbers"]["paper_holds"] == 2
    json.dumps(recs)


def test_cli_prints_claims_and_json_carries_them(tmp_path):
    """Table 1 only: its claim is judged, the Tables 2-3 claims are "not run"; the text shows
    the claims ahead of the tables, the report form of --json has them per study."""
    store = tmp_path / "s.sqlite"
    shown = run_cli(*UBR_TABLE1_SHORT, "--store", store)
    assert shown.returncode == 0, shown.stderr
    assert "Main claims of the paper" in shown.stdout
    assert shown.stdout.index("[not run] epd-improves-throughput") < shown.stdout.index("Table 1:")
    folder = run_cli(*UBR_TABLE1_SHORT, "--store", store, "--out", tmp_path / "out")
    assert folder.returncode == 0, folder.stderr
    assert "[not run] epd-improves-throughput" in folder.stdout
    proc = run_cli(*UBR_TABLE1_SHORT, "--store", store, "--out", tmp_path / "out", "--json")
    assert proc.returncode == 0, proc.stderr
    (study,) = json.loads(proc.stdout)["studies"]
    found = {c["name"]: c for c in study["claims"]}
    assert set(found) == {c.name for c in claims.claims_of(registry.get("ubr-plus"))}
    assert found["epd-improves-throughput"]["verdict"] == NOT_RUN
    table1 = found["zero-loss-full-throughput"]
    assert table1["verdict"] != NOT_RUN and table1["source"].startswith("section 4")
    assert table1["numbers"]["parts"][0]["rows"] == 2


def test_evidence_shortens_large_means():
    r = _results([19865202.0], [17962843.0])
    assert "means 1.99e+07 vs 1.8e+07" in claims.evidence(_a_over_b(r))
