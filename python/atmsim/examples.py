"""The example scenarios shipped inside the package (`atmsim/scenarios/*.toml`).

They are package data, so they are there wherever atmsim is installed: `example(name)` gives
the path of one (to run it, or to read it), `copy_example` writes a copy to edit, and the
`atmsim scenarios` command does the same from the shell.

    >>> import atmsim
    >>> atmsim.examples()[:2]
    ['class-italy', 'class-two-node-adaptive']
    >>> result = atmsim.run(atmsim.example("ubr-plus-lan5"))
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import List, Optional, Union

_DIR = Path(__file__).resolve().parent / "scenarios"
_SUFFIX = ".toml"


class UnknownExample(LookupError):
    """A name that is not one of the shipped scenarios (a `LookupError`; the message lists
    the names there are)."""


def examples() -> List[str]:
    """Names of the shipped scenarios.

    Returns:
        The names, sorted: file names without `.toml` (`"ubr-plus-lan5"`, ...), each one a
            valid argument of `example` and `copy_example`.
    """
    return sorted(p.name[: -len(_SUFFIX)] for p in _DIR.glob("*" + _SUFFIX))


def example(name: str) -> Path:
    """Path of a shipped scenario, to run or read.

    Args:
        name: One of `examples()`, with or without `.toml` (`"ubr-plus-lan5"`).

    Returns:
        The path of the scenario file inside the installed package (do not edit it there:
            `copy_example` makes a copy).

    Raises:
        UnknownExample: No shipped scenario has that name (a `LookupError`; the message lists
            the names there are).
    """
    stem = name[: -len(_SUFFIX)] if name.endswith(_SUFFIX) else name
    path = _DIR / (stem + _SUFFIX)
    if "/" in stem or "\\" in stem or not path.is_file():
        raise UnknownExample(f"no shipped scenario named {name!r}; there are: {', '.join(examples())}")
    return path


def describe(name: str) -> str:
    """What a shipped scenario is for.

    Args:
        name: One of `examples()`.

    Returns:
        The first sentence of its `# purpose:` comment, else of its leading comment
        (continued over the comment lines that follow), or "" if it has none.

    Raises:
        UnknownExample: No shipped scenario has that name.
    """
    lead: List[str] = []
    for line in example(name).read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            if line.strip() or lead:
                break
            continue
        lead.append(line.lstrip("#").strip())
    for text in lead:
        if text.lower().startswith("purpose:"):
            return _first_sentence(text[len("purpose:") :].strip())
    return _first_sentence(" ".join(lead))


def _first_sentence(text: str) -> str:
    found = re.search(r"[.!?](?=\s|$)", text)
    return (text[: found.end()] if found else text).strip()


def copy_example(name: str, dest: Optional[Union[str, Path]] = None, overwrite: bool = False) -> Path:
    """Copy a shipped scenario, to edit it.

    Args:
        name: One of `examples()`, with or without `.toml`.
        dest: A file path, or an existing directory to copy into under the scenario's own
            file name. Default None: the working directory.
        overwrite: Replace an existing file.

    Returns:
        The path written.

    Raises:
        UnknownExample: No shipped scenario has that name (a `LookupError`).
        FileExistsError: The target exists and `overwrite` is False.
    """
    src = example(name)
    target = Path(dest) if dest is not None else Path.cwd()
    if target.is_dir():
        target = target / src.name
    if target.exists() and not overwrite:
        raise FileExistsError(17, "exists already (not replaced)", str(target))
    shutil.copyfile(src, target)
    return target
