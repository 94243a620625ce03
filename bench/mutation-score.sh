#!/usr/bin/env bash
# The mutation benchmark of the reference client (issue 43; bench/README.md "Mutation score").
# Each variant of bench/mutants/catalogue.tsv is PetSpotClient with one deliberate bug (or, for `sc-` names, another
# reading the seeds allow), switched on in spotcheck-client by SPOTCHECK_MUTANT. Per variant: the scenario library
# (`spotcheck run --client`), then one default `spotcheck explore --seed 1 --client` with --save; a variant is killed
# when either fails. A bug the library kills skips the explore run (FULL=1 runs both); a seed-correct variant always
# runs both and is listed as flagged when either fails.
#   bash bench/mutation-score.sh                  # every variant
#   bash bench/mutation-score.sh --list           # the catalogue: name, rule or answer kind, seed line
#   ONLY="trims-reward-in-body latitude-zero-missing" bash bench/mutation-score.sh
#   CONFIG=release SEED=1 EXPLORE_ARGS="--jobs 2" bash bench/mutation-score.sh
set -euo pipefail
cd "$(dirname "$0")/.."
catalogue=bench/mutants/catalogue.tsv
if [ "${1:-}" = "--list" ]; then
  grep -v '^#' "$catalogue" | awk -F'\t' '{ printf "%-40s %-12s %s | %s\n", $1, $4, $2, $3 }'
  exit 0
fi
CONFIG=${CONFIG:-debug}
SEED=${SEED:-1}
EXPLORE_ARGS=${EXPLORE_ARGS:-}
out=${OUT:-bench/out/mutants}
mkdir -p "$out"
if [ -z "${BIN:-}" ]; then
  swift build -c "$CONFIG" --product spotcheck >/dev/null
  swift build -c "$CONFIG" --product spotcheck-client >/dev/null
  built=$(swift build -c "$CONFIG" --show-bin-path)
  # A copy, so a rebuild while the benchmark runs cannot swap the binaries under it.
  BIN="$out/bin"
  rm -rf "$BIN" && mkdir -p "$BIN"
  cp "$built/spotcheck" "$built/spotcheck-client" "$BIN/"
  cp -R "$built"/*.resources "$BIN/" 2>/dev/null || true
fi
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime); binaries: $BIN; explore seed $SEED"
results="$out/results.tsv"
printf 'name\tvariant\tlibrary\texplore\tverdict\tseconds\n' >"$results"
# One variant: the library, then (unless the library killed a bug) one explore; a line of results.tsv.
run_one() {
  local name=$1 variant=$2 t0 client lib exp verdict secs
  t0=$(date +%s)
  client="env SPOTCHECK_MUTANT=$name $PWD/$BIN/spotcheck-client"
  lib=0
  "$BIN/spotcheck" run --client "$client" --fail-fast --quiet >"$out/$name.library.txt" 2>&1 || lib=$?
  exp=skipped
  if [ "$lib" != 1 ] || [ "$variant" = seed-correct ] || [ "${FULL:-0}" = 1 ]; then
    rm -rf "$out/$name.saved"
    exp=0
    # shellcheck disable=SC2086
    "$BIN/spotcheck" explore --seed "$SEED" --client "$client" --save "$out/$name.saved" --json "$out/$name.explore.json" $EXPLORE_ARGS \
      >"$out/$name.explore.txt" 2>&1 || exp=$?
  fi
  if [ "$lib" -gt 1 ] || { [ "$exp" != skipped ] && [ "$exp" -gt 1 ]; }; then verdict=error
  elif [ "$lib" = 1 ] || [ "$exp" = 1 ]; then verdict=killed
  else verdict=survived; fi
  if [ "$variant" = seed-correct ]; then verdict=$([ "$verdict" = killed ] && echo flagged || echo "passed-$verdict"); fi
  secs=$(( $(date +%s) - t0 ))
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$variant" "$lib" "$exp" "$verdict" "$secs" >>"$results"
  printf '%-40s %-12s library %-2s explore %-7s %-14s %4ss\n' "$name" "$variant" "$lib" "$exp" "$verdict" "$secs"
}
export -f run_one
export BIN SEED EXPLORE_ARGS out results FULL
start=$(date +%s)
# MUTANT_JOBS variants at once (default 1: each explore already uses every core).
grep -v '^#' "$catalogue" | while IFS=$'\t' read -r name class seedline variant what; do
  if [ -n "${ONLY:-}" ] && ! [[ " $ONLY " == *" $name "* ]]; then continue; fi
  printf '%s\t%s\n' "$name" "$variant"
done | { if [ "${REVERSE:-0}" = 1 ]; then tac; else cat; fi; } | xargs -P "${MUTANT_JOBS:-1}" -L 1 bash -c 'run_one "$0" "$1"'
elapsed=$(( $(date +%s) - start ))
python3 bench/mutation_summary.py "$results" "$elapsed"
