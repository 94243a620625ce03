#!/usr/bin/env bash
# The time `verify` takes per OpenAPI document (examples, defect probes and the stateless exploration), with two
# spotcheck binaries side by side: issue 45 asks the newer within 2x of the older per document.
# Usage: bench/explore-document.sh OLD_SPOTCHECK NEW_SPOTCHECK TARGET_URL DOCUMENT...
# RUNS (default 3) runs each, the median is printed; CASES (default 200) and SEED (default 45) as verify's --cases/--seed.
# RESET, when set, is a shell command run before each document's runs (e.g. restarting the target with its seed), so
# every document meets the same server state. A document whose base path the older binary finds unserved is measured
# too, but the older stops there while the newer goes on under the served path: compare those apart.
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 OLD_SPOTCHECK NEW_SPOTCHECK TARGET_URL DOCUMENT..." >&2; exit 2; }
old=$1 new=$2 target=$3
shift 3
runs=${RUNS:-3} cases=${CASES:-200} seed=${SEED:-45}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_of() {
  local binary=$1 document=$2 i
  for ((i = 0; i < runs; i++)); do
    local start end
    start=$(date +%s.%N)
    "$binary" verify --contracts "$document" --target "$target" --cases "$cases" --seed "$seed" > /dev/null 2>&1 || true
    end=$(date +%s.%N)
    echo "$end - $start" | bc
  done | median
}
echo "load average $(cut -d' ' -f1-3 /proc/loadavg); $runs run(s) each, --cases $cases --seed $seed"
printf '%-48s %10s %10s %8s\n' document old_s new_s new/old
for document in "$@"; do
  [ -n "${RESET:-}" ] && sh -c "$RESET"
  a=$(time_of "$old" "$document")
  [ -n "${RESET:-}" ] && sh -c "$RESET"
  b=$(time_of "$new" "$document")
  printf '%-48s %10.2f %10.2f %8.2f\n' "$(basename "$document")" "$a" "$b" "$(echo "$b / $a" | bc -l)"
done
