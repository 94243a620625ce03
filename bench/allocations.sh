#!/usr/bin/env bash
# Allocation counts of one create and one GET by id, through the model executor alone and through the whole server over
# one keep-alive loopback connection (bench/Allocations/main.swift), checked against bench/allocations-thresholds.json.
# Counts, not times: they hold on a busy machine, so CI gates on them. Uses the debug build CI already made unless
# CONFIGURATION=release. Exit 1 when a count passes its threshold, 2 when the measurement itself failed.
#   bench/allocations.sh                 measure and check
#   bench/allocations.sh --write FILE    also write the counts as JSON (to set new thresholds from)
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=${CONFIGURATION:-debug}
swift build -c "$configuration" --product spotcheck-allocations >/dev/null
bin=$(swift build -c "$configuration" --show-bin-path)
interposer="$bin/libMallocInterposerSwift.so"
[ -f "$interposer" ] || interposer="$bin/libMallocInterposerSwift.dylib"
[ -f "$interposer" ] || { echo "bench/allocations.sh: no libMallocInterposerSwift in $bin" >&2; exit 2; }
thresholds=bench/allocations-thresholds.json
[ "$configuration" = debug ] || thresholds=bench/allocations-thresholds-$configuration.json
if [ "$(uname)" = Darwin ]; then
    DYLD_INSERT_LIBRARIES="$interposer" "$bin/spotcheck-allocations" --check "$thresholds" "$@"
else
    LD_PRELOAD="$interposer" "$bin/spotcheck-allocations" --check "$thresholds" "$@"
fi
