#!/usr/bin/env bash
# Runs the README's test command (`swift test`). When it fails, each failed test is run again on its own, once:
# - a test that fails again fails CI;
# - a test that passes alone is printed as FLAKY with its first failure, so it is seen and fixed, not hidden;
# - more than a few failures, a crash, or a failure without a test name fail at once (that is not flakiness).
# Why: the 760 tests share one process and two cores on CI, where a timing-dependent test can lose a race that it
# never loses alone; one such loss should not throw away a run, and it must never pass silently either.
set -uo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] && exit 0

# swift-testing prints "✘ Test name(...) recorded an issue at File.swift:line:col: ..." for each failed expectation, or
# '✘ Test "display name" ...' for a test with a display name; `--filter` needs the function, so a display name is looked
# up in its @Test("...") line and the func that follows it.
function_of_display_name() {
    grep -rh -A3 --include='*.swift' -F "@Test(\"$1\"" Tests | grep -oE 'func [A-Za-z_][A-Za-z0-9_]*' | head -n 1 | sed 's/^func //'
}
mapfile -t failed < <(
    grep -oE '✘ Test [A-Za-z_][A-Za-z0-9_]*\(' "$log" | sed -E 's/^✘ Test //; s/\($//'
    grep -oE '✘ Test "[^"]+"' "$log" | sed -E 's/^✘ Test "//; s/"$//' | sort -u | while IFS= read -r display; do
        name=$(function_of_display_name "$display")
        echo "${name:-unknown display name: $display}"
    done
)
mapfile -t failed < <(printf '%s\n' "${failed[@]}" | grep -v '^$' | sort -u)
if [ "${#failed[@]}" -eq 0 ]; then
    echo "CI: swift test failed (exit $status) without naming a failed test (a crash or a build error?); see above" >&2
    exit "$status"
fi
if [ "${#failed[@]}" -gt 3 ]; then
    echo "CI: ${#failed[@]} tests failed: ${failed[*]}; too many to be a flaky race" >&2
    exit "$status"
fi

flaky=()
for name in "${failed[@]}"; do
    echo "== again, alone: $name"
    again=$(mktemp)
    swift test --skip-build --filter "/$name\\(" 2>&1 | tee "$again"
    rerun=${PIPESTATUS[0]}
    ran=$(grep -oE 'Test run with [0-9]+ test' "$again" | grep -oE '[0-9]+' | tail -n 1)
    rm -f "$again"
    if [ "$rerun" -ne 0 ] || [ -z "$ran" ] || [ "$ran" -eq 0 ]; then
        echo "CI: $name failed again on its own (or the rerun found no such test)" >&2
        exit 1
    fi
    flaky+=("$name")
done

echo
echo "!! FLAKY: these tests failed in the full run and passed alone; their first failure is above:"
for name in "${flaky[@]}"; do
    echo "!!   $name"
    grep -E "✘ Test $name\(" "$log" | head -n 3 | sed 's/^/!!     /'
done
exit 0
