#!/usr/bin/env bash
# Replays the counterexamples bench/mutation-score.sh saved (issue 43): each must fail again under its mutant and pass
# under the reference spotcheck-client. Prints one line per mutant and exits 1 when any does not.
#   OUT=bench/out/mutants BIN=bench/out/mutants/bin bash bench/mutation-replay.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/out/mutants}
BIN=${BIN:-$out/bin}
bad=0
for dir in "$out"/*.saved; do
  [ -d "$dir" ] && compgen -G "$dir/*.json" >/dev/null || continue
  name=$(basename "$dir" .saved)
  mutant=0 reference=0
  "$BIN/spotcheck" run --scenarios "$dir" --client "env SPOTCHECK_MUTANT=$name $PWD/$BIN/spotcheck-client" --quiet >"$out/$name.replay-mutant.txt" 2>&1 || mutant=$?
  "$BIN/spotcheck" run --scenarios "$dir" --client "$PWD/$BIN/spotcheck-client" --quiet >"$out/$name.replay-reference.txt" 2>&1 || reference=$?
  verdict=ok
  if [ "$mutant" != 1 ] || [ "$reference" != 0 ]; then verdict=WRONG; bad=1; fi
  printf '%-40s %2s files, mutant exit %s (fails), reference exit %s (passes): %s\n' "$name" "$(ls "$dir"/*.json | wc -l)" "$mutant" "$reference" "$verdict"
done
exit $bad
