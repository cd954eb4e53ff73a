#!/usr/bin/env bash
# rust-toolchain.toml names an exact version (1.95.0). Where rustup knows the installed
# toolchain of that version only as "stable" (and cannot download toolchains, as on the
# project's machines), register it under its version number too, so that rustup does not try
# to fetch it. Called by .ci/run and scripts/test.sh; does nothing when the name is known.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v rustup >/dev/null 2>&1 || exit 0
want=$(sed -n 's/^channel = "\(.*\)"/\1/p' rust-toolchain.toml)
if ! rustup toolchain list | grep -q "^$want-"; then
    if rustc +stable --version | grep -q "^rustc $want "; then
        host=$(rustc +stable -vV | sed -n 's/^host: //p')
        ln -s "$(rustc +stable --print sysroot)" "${RUSTUP_HOME:-$HOME/.rustup}/toolchains/$want-$host"
        echo "rust-toolchain.sh: registered the installed stable toolchain as $want-$host" >&2
    fi
fi
