#!/usr/bin/env bash
# Start time of `spotcheck serve --data-dir` after a million changes, with and without compaction
# (bench/datadir_start.py). Builds the release binary and installs the `crc32c` package into bench/out/datadir-venv.
#   bash bench/datadir-start.sh [--changes N] [--starts K] [--seed S]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product spotcheck >/dev/null
venv=bench/out/datadir-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet crc32c==2.9.post0
fi
"$venv/bin/python" bench/datadir_start.py "$(swift build -c release --show-bin-path)/spotcheck" "$@"
