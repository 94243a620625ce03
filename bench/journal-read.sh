#!/usr/bin/env bash
# RSS growth while 20 clients read a full journal (1,000 entries with 64 KiB bodies) at once (issue 29): builds
# spotcheck-serve (debug unless CONFIGURATION=release) and runs bench/journal_read.py. SECONDS_PER_PHASE (default 10)
# and CLIENTS (default 20) tune it. Target: the journal reads add less than 50 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
config="${CONFIGURATION:-debug}"   # memory, not speed, is measured; release only makes the build slower
swift build -c "$config" --product spotcheck-serve >/dev/null
python3 bench/journal_read.py "$(swift build -c "$config" --show-bin-path)/spotcheck-serve" \
    --seconds "${SECONDS_PER_PHASE:-10}" --clients "${CLIENTS:-20}"
