"""Write the per-study benchmark cases into python/atmsim/scenarios/bench/ from the builders
the reproductions use, at the papers' run lengths (issue 25: a case per study family beside
the four UBR+ cases). The credit/rate and CLASS families use the shipped examples, which
scripts/write_study_scenarios.py writes from the same builders. The files are then fixed: a
benchmark must not move when a study's defaults do, so regenerate them only on purpose.

    python scripts/write_bench_scenarios.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Dict, Tuple

from atmsim.studies.ajmone_marsan import scenarios as class_study
from atmsim.studies.gfr_bonaventure import scenarios as bonaventure
from atmsim.studies.gfr_goyal import scenarios as goyal

HEADER = (
    "# Engine benchmark (issue 25), the {family} family: {what}.\n"
    "# Written by scripts/write_bench_scenarios.py from atmsim.studies.{module}; used by\n"
    "# `atmsim bench --suite`; not a study result.\n"
)

# name -> (family, module, what, builder)
CASES: Dict[str, Tuple[str, str, str, Callable[[], str]]] = {
    "gfr-fifo": (
        "GFR FIFO",
        "gfr_bonaventure",
        "Bonaventure's FIFO-based GFR switch (LBO/HBO, adapter tagging), TCP_default, LAN, "
        "privileged MCR 100000 cells/s and 9 background sources, 250 s (the paper's runs)",
        lambda: bonaventure.scenario_text("tcp_default", 100000, "gfr", duration_s=250.0),
    ),
    "gfr-wfq": (
        "GFR WFQ",
        "gfr_bonaventure",
        "Bonaventure's WFQ-based GFR switch (Virtual Spacing, per-VC queues, F-GCRA GFR.1), "
        "TCP_default, LAN, privileged MCR 100000 cells/s, 250 s",
        lambda: bonaventure.scenario_text("tcp_default", 100000, "wfq", duration_s=250.0),
    ),
    "gfr-wfq-sack": (
        "GFR WFQ",
        "gfr_bonaventure",
        "Bonaventure's figure 21, the costliest of the WFQ figures in `reproduce all`: WFQ-based "
        "GFR switch, GFR.2 (F-GCRA tagging at the UPC), TCP_SACK, 64 KB windows, privileged MSS "
        "9140 and MCR 20000 cells/s, background MSS 512, 250 s",
        lambda: bonaventure.scenario_text(
            "tcp_sack", 20000, "wfq", duration_s=250.0, window_bytes=64 * 1024, bg_mss=512, conformance="gfr2"
        ),
    ),
    "dfba": (
        "DFBA",
        "gfr_goyal",
        "Goyal et al.'s Differential FBA with VC merging at the edges, experiment 1 of "
        "Tables 4-5, 15 SACK TCPs on 5 VCs, 30 s",
        lambda: goyal.dfba_scenario(1),
    ),
    "italy-adaptive": (
        "CLASS adaptive",
        "ajmone_marsan",
        "Ajmone Marsan et al.'s figure 12, the costliest CLASS runs in `reproduce all`: the "
        "Italian network, 1.2 Gb/s of shaped background, 100-cell buffers, adaptive shaping "
        "(every trunk port publishes its level), 10 s",
        lambda: class_study.italy_scenario(1.2e9, 100, "adaptive", True, duration_s=10.0),
    ),
}


def render(name: str) -> str:
    family, module, what, build = CASES[name]
    return HEADER.format(family=family, module=module, what=what) + "\n" + build()


def main() -> None:
    out = Path(__file__).resolve().parent.parent / "python" / "atmsim" / "scenarios" / "bench"
    for name in CASES:
        (out / f"{name}.toml").write_text(render(name), encoding="utf-8")
        print(out / f"{name}.toml")


if __name__ == "__main__":
    main()
