#!/usr/bin/env bash
# The differential suite (crates/atmsim-core/tests/differential.rs) at a length of your choice:
# random valid scenarios, each run under the per-cell reference ([engine] schedule =
# "reference", every fast path off) and under every engine setting
# (atmsim_core::differential::engine_settings), reports compared field by field, events
# included. CI runs the same test at 3000 cases and seed 25 (cargo test --workspace).
#
#   scripts/differential.sh                 # 20000 cases, seed 25
#   scripts/differential.sh 2000 7          # 2000 cases, seed 7
#   ATMSIM_DIFF_VERBOSE=1 scripts/differential.sh 200   # one line per case: time, events
#   ATMSIM_DIFF_ALL_SETTINGS_EVERY=1 scripts/differential.sh   # every setting on every case
#   ATMSIM_DIFF_LOG_CASES=3000 scripts/differential.sh 2000      # more level-log graphs too
#
# A mismatch prints the smallest scenario proptest shrank it to (TOML) and, per setting that
# differs, the first differing report field. Save the TOML and rerun it by hand with
#   cargo run --release --example run -- case.toml engine.schedule='"reference"'
# against the default to bisect.
set -euo pipefail
cd "$(dirname "$0")/.."
export ATMSIM_DIFF_CASES="${1:-20000}"
export ATMSIM_DIFF_SEED="${2:-25}"
exec nice cargo test -p atmsim-core --profile test-opt --test differential -- --nocapture
