#!/usr/bin/env bash
# RSS with one stuck event-stream reader and 100 KB bodies (issue 22): builds spotcheck-serve (debug unless CONFIGURATION=release) and runs
# bench/stuck_reader.py. SECONDS_PER_RUN (default 45) and BUFFER (the reader's ?buffer=, default 100000) tune it.
set -euo pipefail
cd "$(dirname "$0")/.."
config="${CONFIGURATION:-debug}"   # memory, not speed, is measured; release only makes the build slower
swift build -c "$config" --product spotcheck-serve >/dev/null
python3 bench/stuck_reader.py "$(swift build -c "$config" --show-bin-path)/spotcheck-serve" \
    --seconds "${SECONDS_PER_RUN:-45}" --buffer "${BUFFER:-100000}"
