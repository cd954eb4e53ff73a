"""The report's pages (studies/report.py and its Jinja2 templates) on a small synthetic
reproduction: no run, so every rule is checked in milliseconds.

Each test names the defect of issue 26 it guards against: no table of contents or anchors,
empty agreement rows ("rows 0, NaN"), rows without a published value, every note red,
goodput in whole bit/s beside figures in Mb/s, the templates not shipped with the package;
and the contract's optional sections (claims, comparators, Morris, engine checks), each
rendered when its input is there and omitted, never an error, when it is not.
"""

from __future__ import annotations

import importlib.resources
import json
import math
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Dict, List, Optional, Tuple

import pandas as pd
import pytest

from atmsim.studies import agreement, report, text
from atmsim.studies.assumptions import Stated
from atmsim.studies.registry import Compared, FigureFile, PaperTable, StudyResults
from atmsim.studies.reproduce import Reproduction, StudyReport

NAN = math.nan
GOODPUT = Compared("goodput_bps", "derived.goodput_bps", "goodput (bit/s)", relative=True)
FAIRNESS = Compared("fairness", "summary.fairness", "fairness")
QUEUE = Compared("max_queue_cells", "summary.max_queue_cells", "max queue (cells)", relative=True)
SPEC = PaperTable("1", "Table 1: demo", ["buffer_cells"], [GOODPUT, FAIRNESS, QUEUE])
EMPTY_SPEC = PaperTable("2", "Table 2: nothing published", ["buffer_cells"], [FAIRNESS])

NOTES = [
    "quick mode: 1 s runs instead of the paper's 10 s",
    'row 1000: fairness atmsim 0.97 (95 % CI 0.95..0.99), paper ~0.98 ("close to one")',
    'row 2000: RTO expirations per 10 MB atmsim 0 (95 % CI 0..0), paper ~4 ("about four")',
    'row 3000: goodput_mbps atmsim 57.3, paper <= 83 ("does not exceed 83 Mbit/s")',
    "Table 1 row 2000, fairness: simulated 0.5, paper 0.9: explained by assumption phases = locked "
    "(gives 0.88)",
    "Table 1 row 3000, fairness: simulated 0.5, paper 0.9: not explained by any declared assumption "
    "(the closest, phases = locked, gives 0.6): a model question",
]
VERDICTS = ["info", "agrees", "disagrees", "agrees", "explained", "model-question"]


def _frame(extra: Optional[Dict[str, List[Any]]] = None) -> pd.DataFrame:
    data: Dict[str, List[Any]] = {
        "buffer_cells": [1000, 2000, 3000],
        "goodput_bps": [14_604_800.0, 9_000_000.0, 5_000_000.0],
        "paper_goodput_bps": [18_000_000.0, None, None],
        "diff_goodput_bps": [-3_395_200.0, NAN, NAN],
        "goodput_bps_ci_low": [13_604_800.0, 8e6, 4e6],
        "goodput_bps_ci_high": [15_604_800.0, 10e6, 6e6],
        "fairness": [0.97, 0.5, 0.4],
        "paper_fairness": [0.98, None, 0.9],
        "diff_fairness": [-0.01, NAN, -0.5],
        "fairness_ci_low": [0.95, 0.5, 0.4],
        "fairness_ci_high": [0.99, 0.5, 0.4],
        "max_queue_cells": [10.0, 20.0, 30.0],
        "paper_max_queue_cells": [None, None, None],
        "diff_max_queue_cells": [NAN, NAN, NAN],
        "max_queue_cells_ci_low": [10.0, 20.0, 30.0],
        "max_queue_cells_ci_high": [10.0, 20.0, 30.0],
    }
    data.update(extra or {})
    return pd.DataFrame(data)


def _empty_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "buffer_cells": [1000],
            "fairness": [0.5],
            "paper_fairness": [None],
            "diff_fairness": [NAN],
            "fairness_ci_low": [NAN],
            "fairness_ci_high": [NAN],
        }
    )


class _Study:
    name = "demo-study"
    title = "Demo: a paper"
    citation = "A. Author, Demo, 1997"
    runs = 2
    tables = [SPEC, EMPTY_SPEC]


def _reproduction(
    tmp: Path, frame: Optional[pd.DataFrame] = None, study: Any = None, store: str = "/tmp/r.sqlite"
) -> Reproduction:
    study = study or _Study()
    tables = {"1": _frame() if frame is None else frame, "2": _empty_frame()}
    png, svg = tmp / study.name / "figure1.png", tmp / study.name / "figure1.svg"
    s = StudyReport(
        study=study,
        results=StudyResults(tables=tables, points=pd.DataFrame()),
        agreement=agreement.summarize(tables, study.tables),
        figures=[FigureFile("1", "Figure 1: demo.", [png, svg])],
        runs=6,
        computed=6,
        cached=0,
        notes=list(NOTES),
        replications=2,
    )
    return Reproduction([s], True, (("simulation.duration_s", "0.05"),), store, "0.1.0", 1.0, 0.0)


class _Page(HTMLParser):
    """Ids, links, headings (with their id and permalink), table rows and note classes."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: List[str] = []
        self.links: List[str] = []
        self.headings: List[Tuple[str, Optional[str], List[str]]] = []
        self.toc: List[str] = []
        self.notes: List[str] = []
        self.order: List[str] = []
        self._in_heading: Optional[Tuple[str, Optional[str], List[str]]] = None
        self._in_toc = False

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
            self.order.append(str(a["id"]))
        if tag == "nav":
            self._in_toc = True
        if tag in ("h1", "h2", "h3", "h4"):
            self._in_heading = (tag, a.get("id"), [])
            self.headings.append(self._in_heading)
        if tag == "a" and a.get("href"):
            self.links.append(str(a["href"]))
            if self._in_toc:
                self.toc.append(str(a["href"]))
            if self._in_heading is not None and "permalink" in (a.get("class") or ""):
                self._in_heading[2].append(str(a["href"]))
        if tag == "li" and (a.get("class") or "").startswith("v-"):
            self.notes.append(str(a["class"])[2:])

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self._in_toc = False
        if tag in ("h1", "h2", "h3", "h4"):
            self._in_heading = None


def _parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


def _section(html: str, anchor: str) -> str:
    """The HTML from the heading with id `anchor` to the next heading of any level."""
    start = html.index(f'id="{anchor}"')
    nxt = min((i for i in (html.find("<h", start + 1),) if i > 0), default=len(html))
    return html[start:nxt]


def test_templates_ship_with_the_package():
    folder = importlib.resources.files("atmsim.studies").joinpath("templates")
    for name in ("report.html.j2", "report.md.j2", "report.css"):
        assert folder.joinpath(name).is_file(), name
    import jinja2

    env = report.environment()
    assert isinstance(env.loader, jinja2.PackageLoader)  # read through the package, not a path
    template = env.get_template("report.html.j2")
    assert template.filename and Path(template.filename).parent == Path(str(folder))
    assert "<!DOCTYPE html>" in folder.joinpath("report.html.j2").read_text(encoding="utf-8")


def test_toc_links_every_section_and_every_heading_has_a_permalink(tmp_path):
    html = report.html_page(_reproduction(tmp_path), tmp_path)
    page = _parse(html)
    assert len(page.ids) == len(set(page.ids)), "duplicate ids"
    for kind, hid, permalinks in page.headings:
        assert hid, f"a {kind} without an id"
        assert permalinks == [f"#{hid}"], f"{kind} #{hid} has no visible permalink"
    toc = {h[1:] for h in page.toc}
    for section in ("demo-study", "demo-study-agreement", "demo-study-tables", "demo-study-notes"):
        assert section in toc and section in page.ids, section
    assert {"demo-study-figures", "demo-study-assumptions"} - toc == {"demo-study-assumptions"}
    for href in page.links:
        if href.startswith("#"):
            assert href[1:] in page.ids, f"dangling anchor {href}"


def test_only_rows_and_metrics_with_a_published_value(tmp_path):
    html = report.html_page(_reproduction(tmp_path), tmp_path)
    grid = _section(html, "demo-study-table-1")
    # Rows 1000 and 3000 have a published value; 2000 has none.
    assert grid.count("<tr") == 3  # header + 2 rows
    assert ">2000<" not in grid and ">1000<" in grid and ">3000<" in grid
    assert "max queue" not in grid.split("</table>")[0]  # published for no row
    assert "1 row(s) without a published value left out" in grid
    assert "not published for these rows: max queue (cells)" in grid
    # The agreement table has no (table, metric) pair without rows: no "0, NaN" line.
    agree = _section(html, "demo-study-agreement")
    assert "NaN" not in html and "nan" not in agree.lower().replace("mean", "")
    frame = _reproduction(tmp_path).studies[0].agreement
    assert (frame["rows"] == 0).sum() >= 2  # the input had empty pairs to leave out
    assert agree.count("<tr") == 1 + int((frame["rows"] > 0).sum())
    # A table without any published value is named, not drawn as an empty grid.
    assert "Table 2: nothing published" in html and 'id="demo-study-table-2"' not in html


def test_notes_are_classed_by_their_verdict(tmp_path):
    page = _parse(report.html_page(_reproduction(tmp_path), tmp_path))
    assert page.notes == VERDICTS
    assert len(set(page.notes)) > 1  # not one colour for all


def test_goodput_is_in_mb_per_s_like_the_figures(tmp_path):
    html = report.html_page(_reproduction(tmp_path), tmp_path)
    grid = _section(html, "demo-study-table-1")
    assert "goodput (Mb/s)" in grid and "bit/s" not in grid
    assert "14.6 ± 1" in grid and ">18<" in grid and ">-3.4<" in grid
    assert "14604800" not in html and "18000000" not in html
    md = report.markdown(_reproduction(tmp_path), tmp_path)
    assert "| 14.6 ± 1 | 18 |" in md


def test_wide_tables_scroll_with_a_sticky_header_and_numbers_right_aligned(tmp_path):
    html = report.html_page(_reproduction(tmp_path), tmp_path)
    assert html.count('<div class="scroll"><table>') == html.count("<table>")
    assert "position: sticky" in html and "overflow: auto" in html
    assert '<td class="num">1000</td>' in html
    assert "text-align: right" in html


def test_section_order_within_a_study(tmp_path):
    study = _Study()
    study.claims = [  # type: ignore[attr-defined]
        SimpleNamespace(
            name="epd-throughput",
            statement="EPD improves throughput",
            source="abstract",
            check=lambda r: SimpleNamespace(
                verdict="partly", evidence="2 of 3 rows", numbers={"rows": 2, "per_row": [{"a": 0.123456}]}
            ),
        )
    ]
    study.stated = [Stated("buffer", "1000 cells", "section 3")]  # type: ignore[attr-defined]
    html = report.html_page(_reproduction(tmp_path, study=study), tmp_path)
    order = [
        "demo-study-claims",
        "demo-study-agreement",
        "demo-study-tables",
        "demo-study-notes",
        "demo-study-figures",
        "demo-study-assumptions",
    ]
    positions = [html.index(f'id="{o}"') for o in order]
    assert positions == sorted(positions)
    claims = _section(html, "demo-study-claims")
    assert "c-partly" in html and "EPD improves throughput" in html and "2 of 3 rows" in html
    assert "rows = 2" in claims and "0.123456" not in claims  # scalars only; the rest is in --json


def test_claims_section_absent_without_claims_and_failed_check_shown(tmp_path):
    html = report.html_page(_reproduction(tmp_path), tmp_path)
    assert 'id="demo-study-claims"' not in html
    study = _Study()

    def boom(results: Any) -> Any:
        raise RuntimeError("no such column")

    study.claims = [SimpleNamespace(name="c", statement="s", source="x", check=boom)]  # type: ignore[attr-defined]
    html = report.html_page(_reproduction(tmp_path, study=study), tmp_path)
    assert "the check failed: no such column" in html


def test_comparator_column_and_agrees_flag(tmp_path):
    frame = _frame(
        {
            "comparator_fairness": ["~", None, "<="],
            "agrees_fairness": [True, None, False],
            "comparator_goodput_bps": ["~", None, None],
            "agrees_goodput_bps": [True, None, None],
        }
    )
    html = report.html_page(_reproduction(tmp_path, frame=frame), tmp_path)
    grid = _section(html, "demo-study-table-1")
    head = grid.split("</thead>")[0]
    assert head.count(">comparator<") == 2
    assert "<td>&lt;=</td>" in grid
    # agrees_goodput_bps = True overrides the gap rule (-3.4 of 18 is 19 %): row 1000 agrees.
    rows = grid.split("<tr")[2:]
    assert rows[0].startswith(">") and 'class="far"' not in rows[0].split(">")[0]
    assert rows[1].startswith(' class="far"')
    # Without the columns, no comparator header.
    assert ">comparator<" not in report.html_page(_reproduction(tmp_path), tmp_path)


def test_morris_and_engine_checks_render_when_present(tmp_path):
    rep = _reproduction(tmp_path)
    html = report.html_page(rep, tmp_path)
    assert "Morris" not in html and "Engine against theory" not in html
    folder = tmp_path / "demo-study"
    folder.mkdir(parents=True)
    pd.DataFrame(
        [
            {
                "study": "demo-study",
                "table": "1",
                "row": "1000",
                "metric": "fairness",
                "assumption": "phases",
                "mu_star": 0.2,
                "sigma": 0.1,
                "mu": -0.2,
            },
            {
                "study": "other",
                "table": "1",
                "row": "x",
                "metric": "m",
                "assumption": "zz_other",
                "mu_star": 9.0,
                "sigma": 1.0,
                "mu": 9.0,
            },
        ]
    ).to_csv(folder / "morris.csv", index=False)
    (folder / "morris-demo-study.svg").write_text("<svg/>")
    checks = [
        {
            "name": "md1",
            "source": "M/D/1 mean queue",
            "expected": 0.5,
            "measured": 0.49,
            "tolerance": 0.02,
            "passed": True,
        },
        {
            "name": "w-rtt",
            "source": "W/RTT",
            "expected": 10.0,
            "measured": 12.0,
            "tolerance": 0.5,
            "passed": False,
        },
    ]
    (tmp_path / "validate.json").write_text(json.dumps({"checks": checks}))
    html = report.html_page(rep, tmp_path)
    assert 'id="demo-study-sensitivity"' in html and "Morris elementary effects" in html
    assert "phases" in _section(html, "demo-study-morris") and "zz_other" not in html
    assert "demo-study/morris-demo-study.svg" in html
    engine = html[html.index('id="engine-against-theory"') :]
    assert "M/D/1 mean queue" in engine and "1 of 2 checks pass" in engine and "FAIL" in engine
    assert "#engine-against-theory" in html.split("</nav>")[0]
    # Passed in directly, the list wins over the file.
    html = report.html_page(rep, tmp_path, checks=checks[:1])
    assert "1 of 1 checks pass" in html


def test_unreadable_validate_json_is_no_section_and_no_crash(tmp_path):
    (tmp_path / "validate.json").write_text("{not json")
    html = report.html_page(_reproduction(tmp_path), tmp_path)
    assert "Engine against theory" not in html


def test_write_uses_the_templates_for_both_documents(tmp_path):
    written = report.write(_reproduction(tmp_path, store="/tmp/a`b|c.sqlite"), tmp_path)
    assert {p.name for p in written} >= {"index.html", "README.md", "table-1.csv", "agreement.csv"}
    md = (tmp_path / "README.md").read_text()
    assert "## Contents" in md and "(#demo-study-tables)" in md and '<a id="demo-study-table-1"></a>' in md
    # The user's path as one code span its backtick cannot close (atmsim.markdown.md_code).
    assert "results store: ``/tmp/a`b|c.sqlite``" in md
    assert "- **disagrees**: row 2000" in md
    # The CSV keeps every row, published or not.
    assert len(pd.read_csv(tmp_path / "demo-study" / "table-1.csv")) == 3


def test_terminal_output_leaves_out_rows_without_a_published_value(tmp_path):
    s = _reproduction(tmp_path).studies[0]
    out = text.summary(s)
    assert "NaN" not in out and "nan" not in out
    assert "pair(s) without a published value left out" in out
    assert "note [disagrees]: row 2000" in out
    rendered = text.render(s)
    table1 = rendered.split("Table 2")[0]
    assert " 2000 " not in table1 and "1 row(s) without a published value left out" in table1
    assert "goodput_mbps" in table1 and "14.6 ± 1" in table1 and "max_queue_cells" not in table1
    assert "Table 2: nothing published: no row with a published value" in rendered


@pytest.mark.parametrize("text_, verdict", list(zip(NOTES, VERDICTS)))
def test_note_verdicts(text_, verdict):
    from atmsim.studies.note_verdict import verdict as classify

    assert classify(text_) == verdict
    assert classify(SimpleNamespace(verdict="explained")) == "explained"


def test_compare_branch_columns_replications_ranges_and_agree_share(tmp_path):
    frame = _frame(
        {
            "fairness_runs": [[0.95, 0.97, 0.99], None, [0.4, 0.4, 0.4]],
            "comparator_fairness": ["range", None, "<="],
            "paper_high_fairness": [1.0, None, None],
        }
    )
    rep = _reproduction(tmp_path, frame=frame)
    rep.studies[0].agreement["agree"] = 0.5
    html = report.html_page(rep, tmp_path)
    grid = _section(html, "demo-study-table-1")
    assert "0.97 [0.95, 0.97, 0.99]" in grid  # few replications: each shown
    assert ">0.98..1<" in grid  # a range as low..high
    assert "agree (comparator)" in _section(html, "demo-study-agreement") and "50 %" in html


def test_morris_object_with_notes_and_factorial(tmp_path):
    rep = _reproduction(tmp_path)
    morris = SimpleNamespace(
        frame=pd.DataFrame(
            [
                {
                    "study": "demo-study",
                    "table": "1",
                    "row": "r",
                    "metric": "fairness",
                    "assumption": "ties",
                    "mu_star": 0.3,
                    "sigma": 0.2,
                    "mu": 0.1,
                }
            ]
        ),
        notes=["simulation.seed fixed by --set: not varied"],
    )
    rep.studies[0].morris = morris  # type: ignore[assignment]
    (tmp_path / "demo-study").mkdir(parents=True)
    (tmp_path / "demo-study" / "factorial.csv").write_text("a,b\n")
    html = report.html_page(rep, tmp_path)
    morris_part = html[html.index('id="demo-study-morris"') :]
    assert "ties" in morris_part and "not varied" in morris_part
    assert 'href="demo-study/factorial.csv"' in morris_part


def test_markdown_has_no_runs_of_blank_lines_or_trailing_spaces(tmp_path):
    md = report.markdown(_reproduction(tmp_path), tmp_path)
    assert "\n\n\n" not in md and not any(line != line.rstrip() for line in md.splitlines())


def test_note_verdict_stated_by_the_note_and_ranges():
    from atmsim.studies.note_verdict import verdict as classify

    assert classify('x: atmsim 38.3 (95 % CI 30..45), paper > 20 ("more than 20"): agrees') == "agrees"
    assert classify('x: atmsim 0.9 (95 % CI 0.8..1), paper ~0.9 ("q"): does not agree') == "disagrees"
    assert classify('x: atmsim 0.7, paper < 0.8 (does not agree) ("below 0.8")') == "disagrees"
    assert classify('x: atmsim 0.9, paper < 0.8 (agrees) ("q")') == "agrees"
    assert classify("x: atmsim 0.4, paper 0.3..0.5") == "agrees"
    assert classify("x: atmsim 0.6, paper 0.3..0.5") == "disagrees"


def test_label_headers_read_without_tex():
    assert report._label_words("r_i") == "Threshold r_i (cells)"
    assert "$" not in report._label_words("sum_r_i") and "\\" not in report._label_words("sum_r_i")
    assert report._label_words("no_such_column") == "no_such_column"
