#!/usr/bin/env bash
# Install the package and run every test: Rust (workspace) then Python (tests/python).
# Works from a fresh clone: everything it needs comes from PyPI and crates.io.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"

# Build the extension and install the package as a user would (pulls numpy, pandas, pytest).
"$PYTHON" -m pip install --quiet --disable-pip-version-check '.[test]'

# The PyO3 crate opts out of Rust test binaries (it cannot link outside an interpreter),
# so the whole workspace can be tested in one go.
cargo test --workspace --release

# Run from the repository root: python/ is not on sys.path, so the installed package
# (with its compiled _core) is the one under test.
"$PYTHON" -m pytest -q tests/python
