#!/usr/bin/env bash
# Exports the contracts as OpenAPI 3.1 and validates the document with openapi-spec-validator
# (from PyPI, installed once into .build-venv, which .gitignore's ".build-*" keeps out of git).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build-venv
if [ ! -x "$venv/bin/openapi-spec-validator" ]; then
    echo "== installing openapi-spec-validator into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check openapi-spec-validator
fi

echo "== exporting contracts/ as OpenAPI 3.1"
swift run --quiet spotcheck export openapi --out "$venv/openapi.json"

echo "== validating $venv/openapi.json"
"$venv/bin/openapi-spec-validator" "$venv/openapi.json"
