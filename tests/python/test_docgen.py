"""The generated measured-numbers block of the reproduction docs (`atmsim.studies.docgen`,
`scripts/reproduction_docs.py`): agreement from a report folder's tables, before beside now,
and a rewrite that touches only the text between the markers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Dict

import pandas as pd
import pytest

from atmsim.studies import docgen
from atmsim.studies.registry import Compared, PaperTable

ROOT = Path(__file__).resolve().parents[2]

EFF = Compared("efficiency", "summary.efficiency", "efficiency")
QUEUE = Compared("max_queue_cells", "summary.max_queue_cells", "max queue (cells)", relative=True)
STUDY = SimpleNamespace(
    name="fixture",
    tables=[
        PaperTable("1", "Table 1: queues", ["config", "sources"], [QUEUE]),
        PaperTable("2-3", "Tables 2-3: policies", ["config", "policy"], [EFF]),
    ],
)


def _tables() -> Dict[str, pd.DataFrame]:
    t1 = pd.DataFrame(
        {
            "config": ["LAN", "WAN"],
            "sources": [5, 5],
            "max_queue_cells": [110.0, 180.0],
            "paper_max_queue_cells": [100.0, 200.0],
            "max_queue_cells_ci_low": [100.0, 170.0],
            "max_queue_cells_ci_high": [120.0, 190.0],
        }
    )
    t23 = pd.DataFrame(
        {
            "config": ["LAN", "LAN", "WAN"],
            "policy": ["UBR", "EPD", "UBR"],
            "efficiency": [0.5, 0.9, 0.95],
            "paper_efficiency": [0.2, 1.0, None],  # a row without a published value
            "efficiency_ci_low": [0.4, 0.9, 0.9],
            "efficiency_ci_high": [0.6, 0.9, 1.0],
        }
    )
    return {"1": t1, "2-3": t23}


def test_agreement_per_table_and_configuration():
    got = {a.key(): a for a in docgen.agreement(_tables(), STUDY.tables)}
    # Relative for quantities: |110-100|/100 and |180-200|/200.
    assert got[("1", "", "max_queue_cells")].mean_abs_diff == pytest.approx(0.1)
    assert got[("1", "LAN", "max_queue_cells")].mean_abs_diff == pytest.approx(0.1)
    # Absolute for fractions; the row without a paper value is not counted.
    a = got[("2-3", "", "efficiency")]
    assert a.rows == 2 and a.mean_abs_diff == pytest.approx(0.2)
    assert got[("2-3", "LAN", "efficiency")].mean_abs_diff == pytest.approx(0.2)
    assert ("2-3", "WAN", "efficiency") not in got
    pooled = {a.metric: a for a in docgen.pooled(list(got.values()))}
    assert set(pooled) == {"fractions", "relative"}  # no count or ratio in this study
    assert pooled["fractions"].rows == 2 and pooled["relative"].rows == 2


def test_pooled_rows_average_only_one_kind_of_metric():
    """An efficiency, a count of closed connections and a goodput ratio are pooled apart
    (one row each, weighted by rows), the relative metrics in a fourth; the kind comes from
    the metric's declaration."""
    aborts = Compared("aborts", "derived.aborts", "closed", kind="count")
    ratio = Compared("goodput_ratio", "derived.goodput_ratio", "ratio", kind="ratio")
    study = SimpleNamespace(name="kinds", tables=[PaperTable("t", "T", ["x"], [EFF, aborts, ratio, QUEUE])])
    frame = pd.DataFrame(
        {
            "x": [1, 2],
            "efficiency": [0.9, 0.7],
            "paper_efficiency": [1.0, 0.8],
            "aborts": [3.0, 0.0],
            "paper_aborts": [0.0, 0.0],
            "goodput_ratio": [1.5, 1.5],
            "paper_goodput_ratio": [2.0, None],
            "max_queue_cells": [110.0, 90.0],
            "paper_max_queue_cells": [100.0, 100.0],
        }
    )
    found = docgen.agreement({"t": frame}, study.tables)
    assert {a.metric: a.kind for a in found} == {
        "efficiency": "fraction",
        "aborts": "count",
        "goodput_ratio": "ratio",
        "max_queue_cells": "relative",
    }
    pooled = {a.metric: (a.rows, a.mean_abs_diff) for a in docgen.pooled(found)}
    assert list(pooled) == ["fractions", "counts", "ratios", "relative"]
    assert pooled["fractions"][0] == 2 and pooled["fractions"][1] == pytest.approx(0.1)
    assert pooled["counts"][0] == 2 and pooled["counts"][1] == pytest.approx(1.5)
    assert pooled["ratios"][0] == 1 and pooled["ratios"][1] == pytest.approx(0.5)
    assert pooled["relative"][0] == 2 and pooled["relative"][1] == pytest.approx(0.1)
    table = "\n".join(docgen.agreement_table(found, {}))
    assert "| all | all | counts | - | - | 2 | 1.5 |" in table
    assert "absolute" not in table


def test_registered_metrics_declare_their_kind():
    """Counts and ratios of the registered studies are declared so (not pooled with the
    fractions); a kind outside registry.KINDS, or one beside relative=True, is refused."""
    from atmsim.studies import registry

    kinds = {
        c.name: c.kind for name in registry.names() for t in registry.get(name).tables for c in t.compared
    }
    assert set(kinds.values()) <= set(registry.KINDS)
    for count in ("aborts", "aborts_To-Fi", "hbo_drops", "bottleneck_drops", "abr_cells_lost"):
        assert kinds[count] == "count", count
    for ratio in ("ratio", "priv_fair_ratio", "priv_reserved_ratio", "goodput_ratio_1000_505"):
        assert kinds[ratio] == "ratio", ratio
    assert kinds["efficiency"] == kinds["fairness"] == kinds["load_Mi-Ro_1"] == "fraction"
    assert kinds["max_queue_cells"] == kinds["goodput_mbps"] == "relative"
    with pytest.raises(ValueError, match="kind 'counts'"):
        Compared("x", "summary.x", "x", kind="counts")
    with pytest.raises(ValueError, match="kind 'count' with relative=True"):
        Compared("x", "summary.x", "x", relative=True, kind="count")


def test_section_shows_interval_diff_and_before_beside_now():
    before = {("2-3", "", "efficiency"): docgen.Agreement("2-3", "", "efficiency", False, 2, 0.35)}
    run = {
        "command": "atmsim reproduce fixture",
        "engine_version": "9.9.9",
        "started_utc": "2026-11-23 15:40 UTC",
        "runs": 20,
        "replications": 4,
        "wall_s": 125.0,
    }
    text = docgen.section(STUDY, _tables(), run, before)
    assert text.startswith(docgen.BEGIN) and text.endswith(docgen.END)
    assert "engine 9.9.9" in text and "2026-11-23 15:40 UTC" in text and "4 replications" in text
    assert "| 2-3 | all | efficiency | 2 | 0.35 | 2 | 0.2 |" in text
    # Mean, 95 % interval and difference (with the relative one for quantities).
    assert "| LAN | UBR | 0.2 | 0.5 | [0.4, 0.6] | +0.3 |" in text
    assert "| LAN | 5 | 100 | 110 | [100, 120] | +10 (+10 %) |" in text
    assert "| WAN | UBR | - | 0.95 | [0.9, 1] | - |" in text


def test_rewrite_keeps_the_analysis_and_is_idempotent():
    doc = "# Title\n\n> banner line 1\n> banner line 2\n\nHand-written analysis.\n\n## More\n\ntext\n"
    block = f"{docgen.BEGIN}\nnumbers v1\n{docgen.END}"
    once = docgen.rewrite(doc, block)
    assert once.startswith("# Title\n\n> banner line 1\n> banner line 2\n\n" + block)
    assert "Hand-written analysis.\n\n## More\n\ntext\n" in once
    again = docgen.rewrite(once, block.replace("v1", "v2"))
    assert "numbers v2" in again and "numbers v1" not in again
    assert again.replace("v2", "v1") == once
    with pytest.raises(ValueError):
        docgen.rewrite("# T\n\n" + docgen.BEGIN + "\n", block)


def test_script_rewrites_a_doc_from_a_report_folder(tmp_path):
    """scripts/reproduction_docs.py end to end on a registered study's table ids."""
    from atmsim.studies import registry

    study = registry.get("gfr-goyal")
    folder = tmp_path / "report" / "gfr-goyal"
    folder.mkdir(parents=True)
    frame = pd.DataFrame(
        {
            "experiment": [1],
            "tcps": ["1-3"],
            "r_i": [305],
            "ratio": [1.1],
            "paper_ratio": [1.0],
            "diff_ratio": [0.1],
            "ratio_ci_low": [1.0],
            "ratio_ci_high": [1.2],
        }
    )
    frame.to_csv(folder / "table-1-3.csv", index=False)
    run = tmp_path / "run.json"
    run.write_text(
        json.dumps(
            {
                "quick": False,
                "wall_s": 60.0,
                "engine_version": "0.1.0+test",
                "started_utc": "2026-11-23 15:40 UTC",
                "studies": [{"name": "gfr-goyal", "runs": 4, "replications": 4}],
            }
        )
    )
    doc = tmp_path / "doc.md"
    doc.write_text("# Goyal\n\n> status\n\nAnalysis stays.\n")
    before = tmp_path / "before.json"
    before.write_text(
        json.dumps(
            {
                "studies": {
                    "gfr-goyal": {
                        "source": "old tables",
                        "agreement": [
                            {
                                "table": "1-3",
                                "subset": "",
                                "metric": "ratio",
                                "relative": False,
                                "rows": 20,
                                "mean_abs_diff": 0.023,
                            }
                        ],
                    }
                }
            }
        )
    )
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "reproduction_docs.py"),
            str(tmp_path / "report"),
            study.name,
            "--run",
            str(run),
            "--command",
            "atmsim reproduce gfr-goyal",
            "--before",
            str(before),
            "--doc",
            str(doc),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    text = doc.read_text()
    assert "Analysis stays." in text and "engine 0.1.0+test" in text
    assert "| 1-3 | all | ratio | 20 | 0.023 | 1 | 0.1 |" in text
    # The before file has no kinds: the study's declaration makes "ratio" a ratio.
    assert "| all | all | ratios | 20 | 0.023 | 1 | 0.1 |" in text
    assert next(t.title for t in study.tables if t.id == "1-3") in text


def test_before_data_covers_every_study():
    data = json.loads((ROOT / "docs" / "data" / "before-session4.json").read_text())
    from atmsim.studies import registry

    assert set(data["studies"]) == set(registry.names())
    ubr = {(a["table"], a["subset"], a["metric"]) for a in data["studies"]["ubr-plus"]["agreement"]}
    for table in ("2-3", "4", "5", "6"):
        assert {(table, "", "efficiency"), (table, "", "fairness")} <= ubr
    assert {("2-3", "LAN", "efficiency"), ("2-3", "WAN", "fairness")} <= ubr


def test_pending_block_shows_the_before_numbers_only():
    before = {("2-3", "", "efficiency"): docgen.Agreement("2-3", "", "efficiency", False, 2, 0.35)}
    text = docgen.section(STUDY, {}, {"pending": "the run did not finish."}, before)
    assert "Not re-measured yet: the run did not finish." in text
    assert "| 2-3 | all | efficiency | 2 | 0.35 | - | - |" in text
    assert "Tables 2-3: policies" not in text


def test_variant_block_puts_the_default_beside_the_variant():
    variant = _tables()
    variant["2-3"] = variant["2-3"].assign(efficiency=[0.3, 0.9, 0.95])
    run = {"command": "atmsim reproduce fixture --set simulation.phases=random", "mode": "quick"}
    block = docgen.variant_section(STUDY, variant, _tables(), run, [("simulation.phases", "random")])
    assert block.startswith(docgen.VARIANT_BEGIN) and block.endswith(docgen.VARIANT_END)
    assert (
        "`simulation.phases=random`" in block
        and "quick mode" in block
        and "in the same (quick) mode" in block
    )
    assert "| default: rows | default: mean abs. diff. | variant: rows | variant: mean abs. diff. |" in block
    # Tables 2-3 efficiency: default |0.5-0.2|, |0.9-1.0| -> 0.2; variant 0.1, 0.1 -> 0.1.
    assert "| 2-3 | all | efficiency | 2 | 0.2 | 2 | 0.1 |" in block
    assert "### Variant: Tables 2-3: policies" in block


def test_rewrite_block_replaces_the_old_section_then_its_markers():
    doc = (
        "# T\n\n## Measured\n\nnumbers\n\n## Assumptions and sensitivity\n\nold table\n\n"
        "### Reading (what the quick sensitivity run shows)\n\nanalysis\n\n## Next\n\nmore\n"
    )
    begin, end = docgen.SENSITIVITY_BEGIN, docgen.SENSITIVITY_END
    block = f"{begin}\n\n## Assumptions and sensitivity\n\nnew v1\n\n{end}"
    once = docgen.rewrite_block(doc, block, begin, end, docgen.SENSITIVITY_HEADING)
    assert "old table" not in once and "new v1" in once
    assert once.index(end) < once.index("### Reading") and "analysis\n\n## Next\n\nmore\n" in once
    assert once.count("## Assumptions and sensitivity") == 1
    again = docgen.rewrite_block(once, block.replace("v1", "v2"), begin, end, docgen.SENSITIVITY_HEADING)
    assert again.replace("v2", "v1") == once
    # No such section: appended; one marker alone: refused.
    assert docgen.rewrite_block("# T\n", block, begin, end, docgen.SENSITIVITY_HEADING).endswith(end + "\n")
    with pytest.raises(ValueError):
        docgen.rewrite_block("# T\n" + begin + "\n", block, begin, end)


def test_sensitivity_block_lists_declarations_effects_and_joint_verdicts():
    from atmsim.studies import assumptions as A
    from atmsim.studies import sensitivity as S

    declared = [
        A.Assumption(
            "ties", "tie order", "random", "unstated", ["random", "fixed"], keys=["port.*.arbitration"]
        ),
        A.Assumption(
            "phases",
            "phases",
            "aligned",
            "stated",
            ["aligned", "random"],
            keys=["simulation.phases"],
            stated='"no randomization", section 3.1',
        ),
    ]
    stated = [A.Stated("buffer", "1000 cells", "section 3")]
    combos = A.combinations(["phases", "ties"], declared)
    rows = []
    for a, values in (
        ("ties", [("random", 0.9), ("fixed", 0.3)]),
        ("phases", [("aligned", 0.9), ("random", 0.8)]),
    ):
        for v, m in values:
            rows.append(
                {
                    "experiment": 0,
                    "table": "T",
                    "family": "T",
                    "comparator": "~",
                    "label": "row A",
                    "metric": "eff",
                    "metric_label": "efficiency",
                    "relative": False,
                    "assumption": a,
                    "value": v,
                    "n": 3,
                    "mean": m,
                    "ci_low": m - 0.01,
                    "ci_high": m + 0.01,
                    "published": 0.3,
                }
            )
    points = pd.DataFrame(rows)
    used = S.used_values(declared, combos)
    sens = S.Sensitivity("row A only", 3, points, S.effects(points, used), ["a note"], 6, 2, len(combos))
    run = {"command": "atmsim reproduce x --quick --sensitivity", "mode": "quick"}
    block = docgen.sensitivity_section(
        SimpleNamespace(name="x"), sens, declared, stated, combos, run, "figures/t.png"
    )
    assert block.startswith(docgen.SENSITIVITY_BEGIN) and block.endswith(docgen.SENSITIVITY_END)
    assert "| buffer | 1000 cells | section 3 |" in block
    assert '| phases | aligned (variants: random) | "no randomization", section 3.1 |' in block
    assert "| ties | tie order | random | random, fixed | port.*.arbitration | unstated |" in block
    assert "- `phases x ties` (used: aligned x random): random x fixed" in block
    assert "Quick mode:" in block and "6 runs computed, 2 from the store" in block
    assert "- row A, efficiency: simulated 0.9, paper 0.3: explained by assumption ties = fixed" in block
    assert "- a note" in block and "![Tornado" in block and "(figures/t.png)" in block


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--docs-blocks", "measured"], "--docs-blocks: only with --docs"),
        (["--docs", "docs", "--docs-blocks", "nope"], "--docs-blocks: unknown block 'nope'"),
        (
            ["--docs", "docs", "--docs-blocks", "sensitivity"],
            "--docs-blocks sensitivity: only with --sensitivity",
        ),
        (["--docs", "docs", "--docs-blocks", "variant"], "--docs-blocks variant: needs --set or --duration"),
        (
            ["--docs", "docs", "--docs-blocks", "measured", "--set", "simulation.phases=random"],
            "--docs-blocks measured: the measured block is the default run's",
        ),
    ],
)
def test_docs_blocks_bad_values_give_one_line(tmp_path, extra, message):
    from conftest import run_cli

    args = [a if a != "docs" else str(ROOT / "docs") for a in extra]
    done = run_cli("reproduce", "gfr-goyal", "--quick", "--store", tmp_path / "s.sqlite", *args)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "s.sqlite").exists()


def test_docs_writes_the_variant_and_sensitivity_blocks_not_the_measured(tmp_path, goyal_sensitivity):
    """`--docs` with `--duration` (a variant) and `--sensitivity`: the variant block after the
    measured one, the old sensitivity section replaced up to its reading; the measured block
    (the default's) untouched. The runs come from (a copy of) the shared sensitivity run's
    store: the blocks are written the same whether a run is computed or read back."""
    from conftest import copy_store, run_cli

    docs = tmp_path / "docs"
    docs.mkdir()
    measured = f"{docgen.BEGIN}\n\n## Measured numbers\n\nfull-mode numbers\n\n{docgen.END}"
    page = (
        f"# Goyal\n\n{measured}\n\n## Model\n\ntext\n\n## Assumptions and sensitivity\n\nstale\n\n"
        "### Reading (what the quick sensitivity run shows)\n\nanalysis\n"
    )
    (docs / "gfr-goyal-reproduction.md").write_text(page)
    store = copy_store(goyal_sensitivity.store, tmp_path / "store")
    done = run_cli(
        "reproduce", "gfr-goyal", "--quick", "--tables", "fig3", "--duration", "0.3", "--sensitivity",
        "--jobs", "1", "--store", store, "--out", tmp_path / "rep", "--docs", docs,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = (docs / "gfr-goyal-reproduction.md").read_text()
    assert measured in text and "stale" not in text and text.endswith("analysis\n")
    assert text.index(docgen.END) < text.index(docgen.VARIANT_BEGIN) < text.index("## Model")
    assert "`simulation.duration_s=0.3`" in text and "| default: rows |" in text
    assert " computed by it, " in text and " from the store), 3 replications per row" in text
    assert text.index("## Model") < text.index(docgen.SENSITIVITY_BEGIN) < text.index("### Reading")
    assert "Verdicts, joint (issue 27)" in text and "| fig3_phases |" in text
    assert (docs / "figures" / "gfr-goyal-sensitivity-tornado.png").stat().st_size > 1000


def test_a_doc_quotes_the_command_with_paths_by_role() -> None:
    # A generated block quotes its command; the machine's folders are not published with it.
    from atmsim.cli_reproduce import portable_command

    argv = ["gerla", "--jobs", "1", "--store", "/tmp/x/full.sqlite", "--out=/work/r", "--docs", "/w/docs"]
    assert portable_command(argv) == "atmsim gerla --jobs 1 --store STORE --out DIR --docs DOCS"
    assert portable_command(["ubr-plus", "--set", "simulation.phases=random"]) == (
        "atmsim ubr-plus --set simulation.phases=random"
    )


def test_no_generated_doc_names_a_machine_folder() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs"
    for doc in sorted(docs.glob("*-reproduction.md")):
        for line in doc.read_text().splitlines():
            if line.startswith("Generated by"):
                assert "/tmp/" not in line and "/work/" not in line, f"{doc.name}: {line[:120]}"


def test_rerender_keeps_the_origin_and_refuses_another_run(tmp_path):
    """`rerender` (`reproduction_docs.py --same-run`): the block made again from the tables it
    shows keeps its 'Generated by' paragraph and the prose around it, with the agreement in
    today's form; tables with other numbers are refused, as is a doc without a block."""
    run = {"command": "atmsim reproduce fixture", "engine_version": "9.9.9", "runs": 20}
    before = tmp_path / "before.json"  # absent: no before numbers
    old = docgen.section(STUDY, _tables(), run, {})
    stale = old.replace("| all | all | fractions |", "| all | all | absolute |")
    assert stale != old
    doc = docgen.rewrite("# Title\n\nAnalysis.\n", stale)
    again = docgen.rerender(doc, STUDY, _tables(), before)
    assert again == docgen.rewrite(doc, old)
    assert "engine 9.9.9" in again and "Analysis." in again and "| all | all | absolute |" not in again
    other = _tables()
    other["2-3"].loc[0, "efficiency"] = 0.55
    with pytest.raises(ValueError, match="not the same run"):
        docgen.rerender(doc, STUDY, other, before)
    with pytest.raises(ValueError, match="no measured-numbers block"):
        docgen.rerender("# Title\n", STUDY, _tables(), before)
