#!/usr/bin/env bash
# Crash test of `spotcheck serve --data-dir` (scripts/crash_test.py): kill -9 during a create + photo storm, restart,
# and check every acknowledged announcement and photo is there.   scripts/crash-test.sh [--rounds N] [--seed S]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product spotcheck >/dev/null
python3 scripts/crash_test.py "$(swift build --show-bin-path)/spotcheck" "$@"
