#!/usr/bin/env bash
# Install the package and run every test: Rust (workspace) then Python (tests/python).
# Works from a fresh clone: Python packages come from PyPI and crates from crates.io.
# System packages are not installed here (`.ci/run` installs tshark and Chromium); without
# them the pcap and browser tests are skipped and say why.
set -euo pipefail
cd "$(dirname "$0")/.."

# Before anything runs cargo (pip builds the extension with it): the pinned toolchain of
# rust-toolchain.toml under its version name, where rustup knows it only as "stable".
bash scripts/rust-toolchain.sh

# The package and its test dependencies go into the project's own virtual environment (.venv,
# made on first use with $PYTHON, default python3), never into the Python first on PATH.
# It sees the system's site-packages, so what is installed there already is not fetched again.
VENV="${ATMSIM_VENV:-.venv}"
if [ ! -x "$VENV/bin/python" ]; then
    echo "test.sh: creating the project virtual environment $VENV (${PYTHON:-python3} -m venv)" >&2
    "${PYTHON:-python3}" -m venv --system-site-packages "$VENV"
fi
PY="$VENV/bin/python"
echo "test.sh: installing atmsim with its test dependencies into $VENV (pip install '.[test]')" >&2
"$PY" -m pip install --quiet --disable-pip-version-check '.[test]'

# The PyO3 crate opts out of Rust test binaries (it cannot link outside an interpreter),
# so the whole workspace can be tested in one go. Profile test-opt (Cargo.toml): release
# optimisation without LTO, so the test binaries build with less than half the CPU time.
cargo test --workspace --profile test-opt

# Run from the repository root: python/ is not on sys.path, so the installed package
# (with its compiled _core) is the one under test.
"$PY" -m pytest -q tests/python
