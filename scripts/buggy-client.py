#!/usr/bin/env python3
"""A deliberately broken external client for demonstrations (docs/explore.md): it runs spotcheck-client and changes
its answers or requests to carry realistic bugs, each chosen with a --bug (repeatable):

  analytics-on-failure      reports missing_pet.step4_completed after a failed attempt too
  trims-reward              trims the reward as it is typed (seed 001 FR-006 keeps it verbatim)
  microchip-without-dashes  shows the details' microchip without the seeds' 000-000-000-000 dashes

Usage: spotcheck explore --client "python3 scripts/buggy-client.py --bug analytics-on-failure PATH/spotcheck-client"
"""
import argparse
import json
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--bug", required=True, action="append", choices=["analytics-on-failure", "trims-reward", "microchip-without-dashes"],
                    help="repeatable: each adds its bug")
parser.add_argument("client", help="the spotcheck-client executable")
args = parser.parse_args()

# stderr is inherited: the engine shows its tail in failure reports.
inner = subprocess.Popen([args.client], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        request = None
    if isinstance(request, dict) and "trims-reward" in args.bug and request.get("action") == "editField" and request.get("field") == "reward":
        request["value"] = request.get("value", "").strip()
        line = json.dumps(request) + "\n"
    inner.stdin.write(line)
    inner.stdin.flush()
    if isinstance(request, dict) and request.get("action") == "quit":
        break
    answer_line = inner.stdout.readline()
    if not answer_line:
        break
    answer = json.loads(answer_line)
    if "analytics-on-failure" in args.bug and answer.get("outcome") == "failure" and "analytics" in answer:
        answer["analytics"] = answer["analytics"] + ["missing_pet.step4_completed"]
    presentation = (answer.get("details") or {}).get("presentation") or {}
    if "microchip-without-dashes" in args.bug and presentation.get("microchipNumber", "—") != "—":
        presentation["microchipNumber"] = presentation["microchipNumber"].replace("-", "")
    sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    sys.stdout.flush()
inner.stdin.close()
inner.wait()
