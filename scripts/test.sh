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
# It does not see the system's site-packages: what the tests need is what this script installs.
VENV="${ATMSIM_VENV:-.venv}"
if [ ! -x "$VENV/bin/python" ]; then
    echo "test.sh: creating the project virtual environment $VENV (${PYTHON:-python3} -m venv)" >&2
    "${PYTHON:-python3}" -m venv "$VENV"
fi
if grep -qi '^include-system-site-packages *= *true' "$VENV/pyvenv.cfg" 2>/dev/null; then
    echo "test.sh: $VENV sees the system's site-packages; remove it (rm -r $VENV) and run again" >&2
    exit 1
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
