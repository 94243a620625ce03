#!/usr/bin/env bash
# Browser tests (every tests/dashboard/test_*.py: the dashboard, and attack pages from other origins) in Debian's headless Chromium, driven by
# Playwright for Python (pinned, installed into .build-dashboard-venv, which .gitignore's ".build-*" keeps out of git).
# Playwright's own browser download cannot work here, so it launches the system chromium.
# Also writes docs/dashboard.png, the screenshot the README shows.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build-dashboard-venv
version=1.65.2

if ! command -v chromium >/dev/null; then
    echo "== installing Debian's chromium"
    if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; fi
fi
if ! "$venv/bin/python" -c "import playwright, importlib.metadata as m; assert m.version('playwright') == '$version'" 2>/dev/null; then
    echo "== installing playwright $version into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "playwright==$version"
fi

echo "== building spotcheck"
swift build --product spotcheck >/dev/null
# Every tests/dashboard/test_*.py is a browser test file with its own main(); all run, and any failure fails the script.
export SPOTCHECK_BIN="$(swift build --show-bin-path)/spotcheck"
failed=()
for file in tests/dashboard/test_*.py; do
    echo "== $file"
    "$venv/bin/python" "$file" || failed+=("$file")
done
if [ "${#failed[@]}" -ne 0 ]; then
    echo "dashboard-test.sh: FAILED: ${failed[*]}" >&2
    exit 1
fi
