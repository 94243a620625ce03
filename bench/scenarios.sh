#!/usr/bin/env bash
# Times the whole scenario library in a release build (issue 6's target: under 15 s on 2 cores).
# Peers measured in the same run: the same library through the external client (spotcheck-client over
# JSON lines), and with a single job; figures are medians of RUNS runs and reported as ratios too.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
mkdir -p bench/out

echo "building release (once)..." >&2
swift build -c release --product spotcheck >&2
swift build -c release --product spotcheck-client >&2
bin=$(swift build -c release --show-bin-path)
count=$(ls scenarios/*.json | wc -l)

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

time_runs() {
    local label=$1; shift
    for _ in $(seq "$RUNS"); do
        local start end
        start=$(date +%s.%N)
        "$@" --quiet >/dev/null || { echo "benchmark: '$label' had failing scenarios" >&2; exit 1; }
        end=$(date +%s.%N)
        awk "BEGIN { print $end - $start }"
    done | median
}

inproc=$(time_runs "in-process" "$bin/spotcheck" run)
external=$(time_runs "external client" "$bin/spotcheck" run --client "$bin/spotcheck-client")
single=$(time_runs "one job" "$bin/spotcheck" run --jobs 1)

printf '%-32s %10s %14s %16s\n' "run ($count scenarios, release)" "wall s" "scenarios/s" "vs in-process"
for row in "in-process PetSpotClient:$inproc" "external spotcheck-client:$external" "in-process, --jobs 1:$single"; do
    label=${row%%:*}; t=${row##*:}
    printf '%-32s %10.2f %14.1f %15.2fx\n' "$label" "$t" "$(awk "BEGIN { print $count / $t }")" "$(awk "BEGIN { print $t / $inproc }")"
done
cat > bench/out/scenarios.json <<JSON
{"scenarios": $count, "runs": $RUNS, "inProcessSeconds": $inproc, "externalClientSeconds": $external, "oneJobSeconds": $single}
JSON
