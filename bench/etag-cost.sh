#!/usr/bin/env bash
# The cost of the weak ETag every answer with a body carries (issue 24): builds bench/etag-cost/main.swift with the
# mock's own SHA1.swift at -O, times 200,000 ETags of a 456-byte GET answer, and prints Python's hashlib (C) on the
# same bytes at the same moment as a yardstick, so a loaded machine shows as both figures rising together.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swiftc -O -o "$out/etag-cost" bench/etag-cost/main.swift Sources/MockBackend/PetSpot/SHA1.swift
"$out/etag-cost"
python3 -c '
import base64, hashlib, timeit
b = b"x" * 456
n = 200000
print("python hashlib + base64 (C), same bytes: %.2f us" % (timeit.timeit(lambda: base64.b64encode(hashlib.sha1(b).digest()), number=n) / n * 1e6))'
uptime
