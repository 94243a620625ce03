#!/usr/bin/env bash
# Runs run, verify, explore, lint and diff with --ctrf (and --sarif for lint and diff), passing and failing, and validates
# every document against the published schema with Python's jsonschema (from PyPI, installed once into .build-venv,
# which .gitignore's ".build-*" keeps out of git). The schemas are the ones the Swift tests use:
# Tests/CIReportsTests/Fixtures/report-schemas/ (CTRF 1.0.0, SARIF 2.1.0).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

venv=.build-venv
if ! "$venv/bin/python" -c "import jsonschema" 2>/dev/null; then
    echo "== installing jsonschema into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check jsonschema
fi

swift build --product spotcheck
bin=$(swift build --show-bin-path)
out="$root/.build-report-schemas"
rm -rf "$out"
mkdir -p "$out"

# Runs a command that must exit with the given status; its output goes to a log beside the reports.
expect_exit() {
    local want=$1 name=$2
    shift 2
    local got=0
    "$@" > "$out/$name.log" 2>&1 || got=$?
    if [ "$got" != "$want" ]; then
        echo "check-report-schemas: $name exited $got, expected $want; its output:" >&2
        cat "$out/$name.log" >&2
        exit 1
    fi
    echo "   $name: exit $got as expected"
}

echo "== writing reports (GitHub Actions environment, so annotations and the step summary are exercised too)"
export GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$out/step-summary.md"

expect_exit 0 run-pass "$bin/spotcheck" run --tag validation --ctrf "$out/run-pass.ctrf.json"
failing="$out/failing-scenarios"
mkdir -p "$failing/fixtures"
cp scenarios/fixtures/photo.jpg "$failing/fixtures/"
cat > "$failing/wrong-alert.json" <<'JSON'
{
  "name": "a 503 on create shown as no connection (deliberately wrong)",
  "report": {"species": "dog", "sex": "MALE", "lastSeenDate": "2025-11-01", "locationLatitude": 52.2, "locationLongitude": 21.0,
             "phone": "+48 123 456 789", "email": "a@b.co", "photo": {"file": "photo.jpg"}},
  "faults": [{"contract": "createAnnouncement", "calls": [1], "fault": {"kind": "status", "status": 503}}],
  "steps": [
    {"action": "submit", "expect": {"outcome": "failure", "alert": {"kind": "noConnection"}}}
  ]
}
JSON
expect_exit 1 run-fail "$bin/spotcheck" run --scenarios "$failing" --ctrf "$out/run-fail.ctrf.json"

expect_exit 0 explore "$bin/spotcheck" explore --runs 20 --ctrf "$out/explore.ctrf.json"

expect_exit 0 lint-pass "$bin/spotcheck" lint --ctrf "$out/lint-pass.ctrf.json" --sarif "$out/lint-pass.sarif"
expect_exit 2 lint-fail "$bin/spotcheck" lint Tests/ContractKitTests/Fixtures/broken-contracts --ctrf "$out/lint-fail.ctrf.json" --sarif "$out/lint-fail.sarif"

changed="$out/changed-contracts"
cp -R contracts "$changed"
"$venv/bin/python" - "$changed/upload-photo.json" <<'PY'
import json, sys
path = sys.argv[1]
contract = json.load(open(path))
contract["request"]["auth"] = {"scheme": "bearer", "header": "Authorization", "credentials": "{token}"}
# The state declaration names Basic credentials; with the scheme changed the endpoint is answered from its examples.
contract.pop("x-state", None)
json.dump(contract, open(path, "w"), indent=2)
PY
expect_exit 1 diff "$bin/spotcheck" diff contracts "$changed" --ctrf "$out/diff.ctrf.json" --sarif "$out/diff.sarif"

serve_log="$out/serve.log"
"$bin/spotcheck" serve --port 0 --quiet > "$serve_log" 2>&1 &
serve_pid=$!
trap 'kill "$serve_pid" 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "Listening on" "$serve_log" && break; sleep 0.1; done
url=$(grep -o 'http://[0-9.:]*' "$serve_log" | head -n 1)
# The 20 MiB upload is slow in a debug build on a busy machine; CI checks it in its own verify step.
expect_exit 0 verify "$bin/spotcheck" verify --target "$url" --timeout 120 --skip "photo of 20 MiB" --cases 100 --seed 1 --ctrf "$out/verify.ctrf.json"
kill "$serve_pid"
trap - EXIT

grep -q '^::error file=' "$out/run-fail.log" || { echo "check-report-schemas: run printed no ::error annotation" >&2; exit 1; }
grep -q '^::error file=' "$out/lint-fail.log" || { echo "check-report-schemas: lint printed no ::error annotation" >&2; exit 1; }
[ "$(grep -c '^## ' "$out/step-summary.md")" = 7 ] || { echo "check-report-schemas: expected 7 summaries in GITHUB_STEP_SUMMARY" >&2; exit 1; }

echo "== validating with jsonschema"
"$venv/bin/python" - "$out" Tests/CIReportsTests/Fixtures/report-schemas <<'PY'
import glob, json, os, sys
import jsonschema

out, schemas = sys.argv[1], sys.argv[2]
checks = [("*.ctrf.json", "ctrf.schema.json"), ("*.sarif", "sarif-schema-2.1.0.json")]
failed = 0
for pattern, schema_name in checks:
    schema = json.load(open(os.path.join(schemas, schema_name)))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    files = sorted(glob.glob(os.path.join(out, pattern)))
    if not files:
        print(f"no {pattern} reports were written", file=sys.stderr)
        failed += 1
    for path in files:
        errors = list(validator.iter_errors(json.load(open(path))))
        for error in errors:
            print(f"{os.path.basename(path)}: /{'/'.join(map(str, error.absolute_path))}: {error.message}", file=sys.stderr)
        failed += bool(errors)
        print(f"   {os.path.basename(path)}: {'INVALID' if errors else 'valid'} against {schema_name} ({validator_class.__name__})")
sys.exit(1 if failed else 0)
PY
echo "every report is valid"
