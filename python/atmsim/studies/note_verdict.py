"""What a report note says about the paper: agrees, disagrees, explained, a model question,
or neither (a setting, a statement without a number to hold it against).

The studies write their notes as sentences (`report_notes`, the sensitivity verdicts); the
verdict is read from what the sentence carries, not from where it comes from:

- a note object with a `verdict` attribute (one of `VERDICTS`) says it itself, and so does a
  note ending in ": agrees" or ": does not agree", or saying "(agrees)" or "(does not
  agree)" (the comparator's own verdict);
- the sensitivity wording: "explained by" / "partly explained" / "within the range of" ->
  explained, "not explained ... a model question" -> model question, "inside the baseline's
  95 % interval" -> agrees (not a disagreement the replications can show);
- otherwise the numbers: every "atmsim X ... paper [~|=|<|<=|>|>=]Y" pair (optionally with a
  "(95 % CI lo..hi)" after X; "paper a..b" is a range), and "simulated/paper: a/b" lists.
  A pair agrees when its comparator holds (a bound is satisfied, or an `~`/`=` value is
  within tolerance: 10 % of the published value above 1, 0.05 absolute for values up to 1,
  or inside the interval);
  the note agrees when every pair does, and disagrees when any does not;
- no number and no wording: "info".
"""

from __future__ import annotations

import math
import re
from typing import Any, List, Optional, Tuple

VERDICTS = ("agrees", "disagrees", "explained", "model-question", "info")
LABELS = {
    "agrees": "agrees",
    "disagrees": "disagrees",
    "explained": "explained",
    "model-question": "model question",
    "info": "note",
}

RELATIVE_TOLERANCE = 0.10
ABSOLUTE_TOLERANCE = 0.05

_NUM = r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?"
_PAIR = re.compile(
    rf"atmsim\s+(?P<sim>{_NUM})(?:\s*[A-Za-z/%]+)?"
    rf"(?:\s*\(95 % CI\s*(?P<lo>{_NUM})\s*\.\.\s*(?P<hi>{_NUM})\))?"
    rf"[^;()]*?,\s*paper\s*(?P<cmp><=|>=|<|>|=|~)?\s*(?P<paper>{_NUM})(?:\.\.(?P<high>{_NUM}))?",
    re.IGNORECASE,
)
_SLASH_LIST = re.compile(r"simulated/paper\)?:\s*(?P<body>[^()]*)", re.IGNORECASE)
_SLASH_PAIR = re.compile(rf"(?P<sim>{_NUM})\s*/\s*(?P<paper>{_NUM})")


def _within(sim: float, paper: float, lo: float = math.nan, hi: float = math.nan) -> bool:
    if not (math.isnan(lo) or math.isnan(hi)) and lo <= paper <= hi:
        return True
    tol = RELATIVE_TOLERANCE * abs(paper) if abs(paper) > 1 else ABSOLUTE_TOLERANCE
    return abs(sim - paper) <= tol + 1e-12


def holds(
    sim: float, paper: float, comparator: str = "~", lo: float = math.nan, hi: float = math.nan
) -> bool:
    """Whether a simulated value satisfies a published one under its comparator."""
    low = sim if math.isnan(lo) else min(sim, lo)
    high = sim if math.isnan(hi) else max(sim, hi)
    if comparator == "<":
        return low < paper
    if comparator == "<=":
        return low <= paper
    if comparator == ">":
        return high > paper
    if comparator == ">=":
        return high >= paper
    return _within(sim, paper, lo, hi)


def pairs(text: str) -> List[Tuple[float, float, str, float, float]]:
    """The (simulated, published, comparator, ci_low, ci_high) pairs a note states."""
    out = []
    for m in _PAIR.finditer(text):
        lo = float(m["lo"]) if m["lo"] is not None else math.nan
        hi = float(m["hi"]) if m["hi"] is not None else math.nan
        if m["high"] is not None:  # "paper 0.3..0.5": a range, as two bounds
            out.append((float(m["sim"]), float(m["paper"]), ">=", lo, hi))
            out.append((float(m["sim"]), float(m["high"]), "<=", lo, hi))
            continue
        out.append((float(m["sim"]), float(m["paper"]), m["cmp"] or "~", lo, hi))
    for m in _SLASH_LIST.finditer(text):
        for p in _SLASH_PAIR.finditer(m["body"]):
            out.append((float(p["sim"]), float(p["paper"]), "~", math.nan, math.nan))
    return out


def verdict(note: Any) -> str:
    """The verdict of one note (see the module documentation), one of `VERDICTS`."""
    own: Optional[str] = getattr(note, "verdict", None)
    if own in VERDICTS:
        return str(own)
    text = str(note)
    low = text.lower()
    if "model question" in low or "not explained" in low:
        return "model-question"
    if "explained by" in low or "within the range of assumption" in low:
        return "explained"
    if "inside the baseline's 95 % interval" in low:
        return "agrees"
    # A verdict the note states itself, at its end (": agrees", ": does not agree").
    if re.search(r":\s*(does not agree|disagrees)\W*$|\((does not agree|disagrees)\)", low):
        return "disagrees"
    if re.search(r":\s*agrees\W*$|\(agrees\)", low):
        return "agrees"
    found = pairs(text)
    if not found:
        return "info"
    return "agrees" if all(holds(*p) for p in found) else "disagrees"
