#!/usr/bin/env bash
# Install the package and run every test: Rust (workspace) then Python (tests/python).
# Works from a fresh clone: everything it needs comes from PyPI and crates.io.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"

# Build the extension and install the package as a user would (pulls numpy, pandas, tqdm,
# matplotlib, and for the tests pytest, pyarrow and dask[distributed]).
"$PYTHON" -m pip install --quiet --disable-pip-version-check '.[test]'

# The PyO3 crate opts out of Rust test binaries (it cannot link outside an interpreter),
# so the whole workspace can be tested in one go.
cargo test --workspace --release

# The pcap test reads the captures back with tshark; install it if missing (Debian/Ubuntu).
if ! command -v tshark >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
        SUDO=""
        if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
        $SUDO apt-get update -qq
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tshark >/dev/null
    else
        echo "test.sh: tshark not found and no apt-get: the pcap test will be skipped" >&2
    fi
fi

# Run from the repository root: python/ is not on sys.path, so the installed package
# (with its compiled _core) is the one under test.
"$PYTHON" -m pytest -q tests/python
