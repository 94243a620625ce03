#!/usr/bin/env bash
# Serving from the exported OpenAPI document against serving from the folder it was exported from, with one binary:
# bench/compare-serve.sh with BEFORE_ARGS="--contracts FOLDER" and AFTER_ARGS="--contracts EXPORTED".
# Usage: bench/compare-document.sh SERVE_BINARY [FOLDER]   (run from the repository root; needs wrk)
# SERVE_BINARY is spotcheck-serve (or spotcheck plus "serve"); SPOTCHECK (default: spotcheck beside SERVE_BINARY) writes
# the document with `export openapi`. FOLDER defaults to contracts. DURATION, THREADS, CONNECTIONS, RUNS as there.
# "before" is the folder, "after" the document: the issue asks after/before within 5 %.
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 SERVE_BINARY [FOLDER]" >&2; exit 2; }
folder=${2:-contracts}
spotcheck=${SPOTCHECK:-$(dirname "$1")/spotcheck}
[ -x "$spotcheck" ] || { echo "no spotcheck binary at $spotcheck (set SPOTCHECK)" >&2; exit 2; }
document=$(mktemp --suffix=.json)
trap 'rm -f "$document"' EXIT
"$spotcheck" export openapi --contracts "$folder" --out "$document" > /dev/null
echo "folder $folder, document $document ($(wc -c < "$document") bytes), load average $(cut -d' ' -f1-3 /proc/loadavg)"
BEFORE_ARGS="--contracts $folder" AFTER_ARGS="--contracts $document" "$(dirname "$0")/compare-serve.sh" "$1" "$1"
