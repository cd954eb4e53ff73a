"""`atmsim reproduce STUDY`: row and table selection, scenario text, and the one run path
(sweep and results store) whether printed, as JSON rows, or written as a report folder."""

from __future__ import annotations

import json
from typing import Any, Dict

import pytest

from atmsim.store import open_store
from atmsim.studies import claims, registry, text
from atmsim.studies.reproduce import SelectionError, reproduce_study, select_tables, table_aliases
from atmsim.studies.ubr_plus import scenarios as ubr_plus
from atmsim.studies.ubr_plus.data import PaperRow
from conftest import SHORT_S, UBR_TABLE1_SHORT, copy_store, run_cli

ROW_KEYS = {
    "table",
    "config",
    "sources",
    "buffer_cells",
    "policy",
    "efficiency",
    "fairness",
    "paper_efficiency",
    "paper_fairness",
    "comparator_efficiency",
    "agrees_efficiency",
    "comparator_fairness",
    "agrees_fairness",
}
TABLE_NUMBER = {"1": 1, "2-3": 2, "4": 4, "5": 5, "6": 6}


def test_table_aliases():
    assert table_aliases("2-3") == ["2-3", "2", "3"]
    assert table_aliases("1-3") == ["1-3", "1", "2", "3"]
    assert table_aliases("11-3bg") == ["11-3bg", "11"]
    assert table_aliases("T2") == ["T2"]


def test_select_tables():
    ubr = registry.get("ubr-plus")
    assert select_tables(ubr, "1,2") == ["1", "2-3"]
    assert select_tables(ubr, "3") == ["2-3"]
    assert select_tables(ubr, "6, 4,5") == ["4", "5", "6"]
    assert select_tables(registry.get("gfr-bonaventure"), "11") == ["11-3bg", "11-6bg"]
    assert select_tables(registry.get("gfr-goyal"), "2") == ["1-3"]
    with pytest.raises(SelectionError, match="choose from 1, 2-3, 4, 5, 6"):
        select_tables(ubr, "7")
    with pytest.raises(SelectionError):
        select_tables(ubr, " , ")


def test_selection_sizes():
    assert len(ubr_plus.select((1, 2))) == 4 + 48
    assert len(ubr_plus.select(ubr_plus.TABLES)) == 4 + 48 + 44 + 54 + 54
    quick = ubr_plus.select((1, 2), quick=True)
    assert len(quick) == 2 + 24
    assert all(r.sources == 5 for r in quick)
    assert ubr_plus.select((4, 5), quick=True) == []


def test_scenario_text_is_the_template():
    tomllib = pytest.importorskip("tomllib")
    fba = tomllib.loads(ubr_plus.scenario_text("WAN", 15, 24000, "FBA", r=0.5, z=0.2))
    assert fba == {
        "simulation": {"duration_s": 20.0, "seed": 1, "phases": "aligned"},
        "n_source": {
            "sources": 15,
            "config": "WAN",
            "buffer_cells": 24000,
            "policy": "fba",
            "arbitration": "random",
            "r": 0.5,
            "z": 0.2,
        },
    }
    t1 = tomllib.loads(ubr_plus.scenario_text("LAN", 5, None, "UBR"))
    assert t1["simulation"]["duration_s"] == 10.0
    assert t1["n_source"]["buffer_cells"] == "infinite"
    assert t1["n_source"]["policy"] == "tail_drop"
    assert "r" not in t1["n_source"]
    epd = tomllib.loads(ubr_plus.scenario_text("LAN", 5, 1000, "EPD"))
    assert epd["n_source"]["policy"] == "epd"


def check_row(out: Dict[str, Any], row: PaperRow) -> None:
    assert out.keys() >= ROW_KEYS
    assert (
        TABLE_NUMBER[out["table"]],
        out["config"],
        out["sources"],
        out["buffer_cells"],
        out["policy"],
    ) == (row.table, row.config, row.sources, row.buffer_cells, row.policy)
    assert 0.0 <= out["efficiency"] <= 1.0
    assert 0.0 <= out["fairness"] <= 1.0
    assert out["paper_efficiency"] == row.efficiency
    # UBR+ prints every value in its tables: a point ("~"), distance = the difference.
    assert out["comparator_efficiency"] == "~"
    assert out["diff_efficiency"] == pytest.approx(out["efficiency"] - row.efficiency)
    assert isinstance(out["agrees_efficiency"], bool)


def test_rows_through_the_store(tmp_path):
    """Two UBR+ rows through the sweep and the store over two worker processes: the JSON
    records and the text view; a second pass takes both runs from the store."""
    ubr = registry.get("ubr-plus")
    tables = select_tables(ubr, "1")
    short = (("simulation.duration_s", repr(SHORT_S)),)
    store = open_store(str(tmp_path / "s.sqlite"))
    try:
        rep = reproduce_study(ubr, True, short, store, None, jobs=2, progress=False, tables=tables)
        again = reproduce_study(ubr, True, short, store, None, jobs=2, progress=False, tables=tables)
    finally:
        store.close()
    # Two Table 1 rows, 3 replications each with --quick.
    assert (rep.runs, rep.computed, rep.cached) == (6, 6, 0)
    assert (again.computed, again.cached) == (0, 6)
    assert rep.figures == [] and rep.results.traces == []  # no folder: nothing drawn
    rows = text.rows(rep)
    assert text.rows(again) == rows
    published = list(ubr_plus.select((1,), quick=True))
    assert len(rows) == len(published) == 2
    for out, row in zip(rows, published):
        check_row(out, row)
        assert out["max_queue_cells"] >= 0
        assert out["runs"] == 3
        assert out["efficiency_ci_low"] <= out["efficiency"] <= out["efficiency_ci_high"]
    assert rows[0]["paper_max_queue_cells"] == 7591
    shown = text.render(rep)
    assert "Table 1" in shown and "efficiency (paper)" in shown and "7591" in shown
    assert "max_queue_cells: mean relative distance to the paper's statement" in shown
    assert "efficiency agrees" in shown


def test_cli_quick_json(ubr_plus_quick):
    """The documented smoke run, full length: 26 rows x 3 replications."""
    proc = ubr_plus_quick.proc
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["rows"]
    assert len(rows) == 26
    assert {r["table"] for r in rows} == {"1", "2-3"}
    assert all(r.keys() >= ROW_KEYS for r in rows)
    table1 = [r for r in rows if r["table"] == "1"]
    assert all({"max_queue_cells", "paper_max_queue_cells"} <= r.keys() for r in table1)
    assert all(r["buffer_cells"] is None for r in table1)
    per_vc = [r for r in rows if r["policy"] in ("SD", "FBA")]
    assert per_vc and all((r["r"], r["z"]) == (0.9, 0.8) for r in per_vc)
    assert all(r["r"] is None for r in rows if r["policy"] in ("UBR", "EPD"))


def test_cli_quick_text_shortened(tmp_path):
    proc = run_cli(
        "reproduce",
        "ubr-plus",
        "--quick",
        "--jobs",
        "1",
        "--duration",
        "0.1",
        "--store",
        tmp_path / "s.sqlite",
    )
    assert proc.returncode == 0, proc.stderr
    assert "Table 1" in proc.stdout and "Tables 2-3" in proc.stdout
    assert "efficiency (paper)" in proc.stdout
    assert "78 runs (78 computed, 0 from" in proc.stdout  # 26 rows x 3 replications
    assert not (tmp_path / "report").exists()


def test_cli_set_reaches_every_run(tmp_path):
    """--set applies to each run: an unknown key is the engine's error, named, exit 2."""
    store = tmp_path / "s.sqlite"
    proc = run_cli(
        "reproduce",
        "ubr-plus",
        "--quick",
        "--tables",
        "1",
        "--duration",
        "0.05",
        "--set",
        "n_source.bogus=1",
        "--store",
        store,
    )
    assert proc.returncode == 2
    assert "n_source.bogus" in proc.stderr
    assert "Traceback" not in proc.stderr
    ok = run_cli(
        *UBR_TABLE1_SHORT,
        "--json",
        "--set",
        "n_source.stagger_timers=true",
        "--store",
        store,
    )
    assert ok.returncode == 0, ok.stderr
    assert len(json.loads(ok.stdout)["rows"]) == 2


def test_cli_one_study_json_is_one_object_with_claims_and_rows(tmp_path):
    """`reproduce NAME --json` without --out: one object with the study's claims (each with a
    verdict of the rule's vocabulary, one judged at least) and its rows (each published value
    with its comparator and agreement); the per-study record of the --out document is the
    same one, rows included."""
    store = tmp_path / "s.sqlite"
    proc = run_cli(*UBR_TABLE1_SHORT, "--json", "--store", store)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert isinstance(doc, dict)
    assert (doc["study"], doc["quick"]) == ("ubr-plus", True)
    assert (doc["runs"], doc["runs_computed"], doc["runs_cached"], doc["replications"]) == (6, 6, 0, 3)
    names = [c.name for c in claims.claims_of(registry.get("ubr-plus"))]
    assert names and [c["name"] for c in doc["claims"]] == names
    assert all(c["verdict"] in claims.VERDICTS for c in doc["claims"])
    assert any(c["verdict"] != claims.NOT_RUN for c in doc["claims"])  # Table 1's claim
    assert "1" in {a["table"] for a in doc["agreement"]}
    rows = doc["rows"]
    assert len(rows) == 2 and all(r.keys() >= ROW_KEYS for r in rows)
    for r in rows:
        for metric in [k[len("paper_") :] for k in r if k.startswith("paper_") and r[k] is not None]:
            assert r[f"comparator_{metric}"] is not None and isinstance(r[f"agrees_{metric}"], bool)
    folder = run_cli(*UBR_TABLE1_SHORT, "--json", "--store", store, "--out", tmp_path / "out")
    assert folder.returncode == 0, folder.stderr
    (study,) = json.loads(folder.stdout)["studies"]
    assert study["name"] == "ubr-plus" and study["runs_cached"] == 6
    one = {k: v for k, v in doc.items() if k not in ("study", "quick", "engine_version")}
    assert set(study) - {"name"} == set(one)
    assert study["rows"] == rows and study["claims"] == doc["claims"]


def test_ubr_plus_tables_script_reads_the_object_and_the_old_list(tmp_path):
    """scripts/ubr_plus_tables.py takes the rows of `reproduce ubr-plus --json` (the object)
    and of files written before it (a plain list)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "ubr_plus_tables.py"
    spec = importlib.util.spec_from_file_location("ubr_plus_tables", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    rows = [{"table": "1", "config": "LAN", "sources": 5, "efficiency": 0.9}]
    (tmp_path / "new.json").write_text(json.dumps({"study": "ubr-plus", "claims": [], "rows": rows}))
    (tmp_path / "old.json").write_text(json.dumps(rows))
    assert script.load_rows(str(tmp_path / "new.json")) == rows
    assert script.load_rows(str(tmp_path / "old.json")) == rows


def test_set_wildcard_stands_for_every_array_element():
    """A `*` part of a --set key stands for each element of that array in the run's scenario
    (e.g. every connection's TCP), other keys pass unchanged, a missing array gives nothing."""
    from atmsim.studies.assumptions import concrete

    two = '[[connection]]\nname = "a"\n[[connection]]\nname = "b"\n'
    extra = (("connection.*.tcp.min_rto_ticks", "10"), ("simulation.duration_s", "1.0"))
    assert concrete(extra, two, ()) == (
        ("connection.0.tcp.min_rto_ticks", "10"),
        ("connection.1.tcp.min_rto_ticks", "10"),
        ("simulation.duration_s", "1.0"),
    )
    assert concrete(extra, "[simulation]\nseed = 1\n", ()) == (("simulation.duration_s", "1.0"),)
    plain = (("n_source.sources", "5"),)
    assert concrete(plain, two, ()) == plain


def test_cli_set_wildcard_reaches_every_connection(tmp_path):
    """`--set 'connection.*.KEY=V'` sets KEY on every connection of every run (stored with the
    run); a bad value is the engine's one-line error naming the concrete key; a `*` that
    matches nothing in any run is refused, named, before anything runs."""
    store = tmp_path / "s.sqlite"
    base = ("reproduce", "gerla", "--quick", "--tables", "3", "--duration", "0.2", "--jobs", "1")
    bad = run_cli(*base, "--set", "connection.*.tcp.min_rto_ticks=0", "--store", store)
    assert bad.returncode == 2, bad.stderr
    assert "connection[0].tcp.min_rto_ticks" in bad.stderr and "Traceback" not in bad.stderr
    ok = run_cli(*base, "--set", "connection.*.tcp.min_rto_ticks=7", "--json", "--store", store)
    assert ok.returncode == 0, ok.stderr
    with open_store(store) as db:
        runs = db.fetch()
    assert len(runs) == 36  # 12 rows x 3 replications
    for r in runs:
        keys = {k for k, v in r.overrides if v == "7"}
        assert keys == {f"connection.{i}.tcp.min_rto_ticks" for i in range(r.params["sources"])}
    wrong = ("--set", "connection.*.tcp.mss=512", "--store", tmp_path / "u.sqlite")
    none = run_cli("reproduce", "ubr-plus", "--quick", "--tables", "1", *wrong)
    assert none.returncode == 2
    assert "connection.*.tcp.mss" in none.stderr and "matches nothing" in none.stderr
    assert "Traceback" not in none.stderr


def test_help_describes_every_study():
    proc = run_cli("reproduce", "--help")
    assert proc.returncode == 0, proc.stderr
    for name in registry.names():
        assert f"  {name} " in proc.stdout
        assert registry.summary(name).split()[0] in proc.stdout
    assert "all " in proc.stdout and "--tables" in proc.stdout


def test_cli_docs_rewrites_the_measured_block(tmp_path, ubr_plus_quick):
    """--docs DIR: the study's doc gets its measured block from the run just made, the prose
    around it untouched; a missing doc is refused before anything runs. The default-length
    Table 1 runs come from (a copy of) the smoke run's store: the block is the same whether
    a run is computed or read back."""
    docs = tmp_path / "docs"
    docs.mkdir()
    missing = run_cli("reproduce", "ubr-plus", "--quick", "--tables", "1", "--docs", docs)
    assert missing.returncode == 2 and "ubr-plus-reproduction.md" in missing.stderr
    assert "Traceback" not in missing.stderr
    doc = docs / "ubr-plus-reproduction.md"
    doc.write_text("# UBR+\n\n> banner\n\nAnalysis written by hand.\n", encoding="utf-8")
    # The measured block is a default run's (the paper's durations): a shortened or --set run
    # writes the variant block beside it instead.
    full = ("reproduce", "ubr-plus", "--quick", "--tables", "1", "--jobs", "1")
    store = copy_store(ubr_plus_quick.store, tmp_path / "store")
    proc = run_cli(*full, "--store", store, "--out", tmp_path / "report", "--docs", docs)
    assert proc.returncode == 0, proc.stderr
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("# UBR+\n\n> banner\n") and "Analysis written by hand." in text
    assert "## Measured numbers" in text and "atmsim reproduce ubr-plus --quick" in text
    assert "### Table 1" in text and "6 runs" in text  # 2 rows x 3 replications
    measured = text[text.index("## Measured numbers") : text.index("<!-- measured:end -->")]
    short = run_cli(*UBR_TABLE1_SHORT, "--store", store, "--out", tmp_path / "short", "--docs", docs)
    assert short.returncode == 0, short.stderr
    after = doc.read_text(encoding="utf-8")
    assert "<!-- variant:begin" in after and "--duration 0.05" in after
    assert measured in after, "a shortened run left the measured block as it was"
