"""Text that came from a user (a path, a `--set` value, a scenario's names), made safe where
it is shown: inside a Markdown code span, or on a terminal.

`md_code` wraps text in a code span that the text cannot close: the fence is one backtick
longer than the longest run of backticks in it (CommonMark, "Code spans"). `printable`
replaces control characters (ANSI escape sequences start with one) by their escapes, so a
name cannot move the cursor, recolour or clear the terminal it is printed on.
"""

from __future__ import annotations

import re
import unicodedata

_BACKTICKS = re.compile(r"`+")
# Bidirectional overrides and isolates: they reorder what follows them on screen.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def md_code(text: str) -> str:
    """`text` as one inline Markdown code span, whatever backticks or line breaks it holds."""
    # A line break inside a span is shown as a space, but a blank line would end the paragraph.
    flat = " ".join(str(text).splitlines()) if ("\n" in text or "\r" in text) else str(text)
    if not flat:
        return "` `"
    longest = max((len(m.group()) for m in _BACKTICKS.finditer(flat)), default=0)
    fence = "`" * (longest + 1)
    # One space each side when the text starts or ends with a backtick (or it would join the
    # fence) or with a space (CommonMark strips one space from each side of a padded span).
    pad = " " if flat[:1] in ("`", " ") or flat[-1:] in ("`", " ") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with control characters (C0, DEL, C1: ESC among them) and bidirectional
    overrides replaced by visible escapes such as `\\x1b`; everything else unchanged."""
    return "".join(_escape(ch) if unicodedata.category(ch) == "Cc" or ch in _BIDI else ch for ch in str(text))
