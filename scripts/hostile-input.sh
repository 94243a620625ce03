#!/usr/bin/env bash
# Hostile input (issue 37, scripts/hostile_input.py): absurd fault values through the admin API and --faults, HARs with
# absurd numbers, a $ref fan-out contract, and `import har` killed with -9 at random points (the project must be left
# as it was or fully imported).   scripts/hostile-input.sh [--kills N] [--seed S]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product spotcheck >/dev/null
python3 scripts/hostile_input.py "$(swift build --show-bin-path)/spotcheck" "$@"
