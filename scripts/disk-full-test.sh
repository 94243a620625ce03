#!/usr/bin/env bash
# Disk-full test of `spotcheck serve --data-dir` on a small tmpfs (scripts/disk_full_test.py): every 201/204 is kept,
# every 500 left nothing behind, and writes succeed again once space returns. Needs root (mount); skipped otherwise.
#   scripts/disk-full-test.sh [--seed S] [--size-kb K]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product spotcheck >/dev/null
python3 scripts/disk_full_test.py "$(swift build --show-bin-path)/spotcheck" "$@"
