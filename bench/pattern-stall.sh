#!/usr/bin/env bash
# One email that made ICU backtrack for seconds (issue 29, finding 3): builds release spotcheck-serve and runs
# bench/pattern_stall.py. DOTS (64000), CONCURRENT (32) and ROUNDS (5) tune it; BINARY=path measures another build.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${BINARY:-}"
if [ -z "$binary" ]; then
    swift build -c release --product spotcheck-serve >/dev/null
    binary="$(swift build -c release --show-bin-path)/spotcheck-serve"
fi
python3 bench/pattern_stall.py "$binary" --dots "${DOTS:-64000}" --concurrent "${CONCURRENT:-32}" --rounds "${ROUNDS:-5}"
