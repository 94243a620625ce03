#!/usr/bin/env bash
# Sessions per second of `spotcheck explore`, in-process (PetSpotClient) and over the client protocol
# (spotcheck-client as a child process), with the same seed and budget. See bench/README.md.
#   RUNS=200 SEED=1 CONFIG=release bash bench/explore.sh      # each binary's default --jobs, as a user runs it
#   JOBS=2 bash bench/explore.sh                             # a fixed number of sessions at once
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-200}
JOBS=${JOBS:-}
SEED=${SEED:-1}
CONFIG=${CONFIG:-release}
mkdir -p bench/out
# BIN=folder measures binaries built elsewhere (e.g. the explorer before a change), without building.
if [ -n "${BIN:-}" ]; then
  bin=$BIN
else
  swift build -c "$CONFIG" --product spotcheck >/dev/null
  swift build -c "$CONFIG" --product spotcheck-client >/dev/null
  bin=$(swift build -c "$CONFIG" --show-bin-path)
fi
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
# The third run explores a client with three unrelated bugs (scripts/buggy-client.py): every one should come out as
# its own confirmed counterexample.
buggy="python3 scripts/buggy-client.py --bug analytics-on-failure --bug trims-reward --bug microchip-without-dashes $bin/spotcheck-client"
for mode in in-process protocol three-bugs; do
  args=(explore --seed "$SEED" --runs "$RUNS" --json "bench/out/explore-$mode.json")
  [ -n "$JOBS" ] && args+=(--jobs "$JOBS")
  [ "$mode" = protocol ] && args+=(--client "$bin/spotcheck-client")
  [ "$mode" = three-bugs ] && args+=(--client "$buggy")
  status=0
  "$bin/spotcheck" "${args[@]}" >"bench/out/explore-$mode.txt" || status=$?
  python3 - "$mode" "bench/out/explore-$mode.json" "$status" <<'PY'
import json, sys
mode, path, status = sys.argv[1], sys.argv[2], sys.argv[3]
r = json.load(open(path))
rules = ", ".join(g["rule"] for g in r.get("groups", [])) or "none"
print(f"{mode:>10}: {r['sessions']} sessions, {r['steps']} steps, {r['sessionsPerSecond']} sessions/s, seed {r['seed']}, exit {status}, "
      f"{r.get('confirmedCounterexamples', 0)} confirmed counterexamples ({rules}), {r.get('retriedSessions', 0)} sessions retried, "
      f"{r.get('slowMachineSessions', 0)} too slow, {len(r.get('unconfirmed', []))} not confirmed, {r.get('seconds', 0)} s")
PY
done
