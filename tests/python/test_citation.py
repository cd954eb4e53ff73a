"""What a citing researcher looks for: one version in Cargo.toml, CITATION.cff, the changelog
and the installed package; the five papers referenced; the product never pointing at the
development folder the papers were read from."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib

import atmsim

ROOT = Path(__file__).resolve().parents[2]


def _workspace_version() -> str:
    with open(ROOT / "Cargo.toml", "rb") as f:
        version: str = tomllib.load(f)["workspace"]["package"]["version"]
    return version


def test_citation_changelog_and_package_carry_the_workspace_version() -> None:
    version = _workspace_version()
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(rf"^version: {re.escape(version)}$", cff, re.M), "CITATION.cff version"
    assert "cff-version: 1.2.0" in cff
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    # Keep a Changelog: an "Unreleased" section may lead; the newest release is the version.
    first = re.search(r"^## (?!Unreleased$)(\S+)", changelog, re.M)
    assert first is not None and first.group(1) == version, "the changelog's newest release"
    # A source build's version carries a +src suffix; a release's is the workspace's.
    assert atmsim.__version__.split("+")[0] == version


def test_every_study_is_referenced_in_the_readme_and_the_references_page() -> None:
    from atmsim.studies import registry

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    page = (ROOT / "docs" / "references.md").read_text(encoding="utf-8")
    for name in registry.names():
        assert f"`{name}`" in readme.split("## References", 1)[1], name
        assert f"`{name}`" in page, name


def test_the_product_never_points_at_the_development_papers_folder() -> None:
    offenders = []
    for sub in ("README.md", "docs", "python/atmsim", "crates", "scripts"):
        base = ROOT / sub
        files = [base] if base.is_file() else list(base.rglob("*"))
        for path in files:
            if path.suffix not in {".md", ".py", ".rs", ".toml", ".pyi", ".sh", ".html", ".j2"}:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if "shared/papers" in text or "COMMON.md" in text:
                offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, offenders
