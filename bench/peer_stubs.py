"""Writes the peers' stubs from the 3-interaction pact bench/run.sh measures (issue 23).

    python3 bench/peer_stubs.py MINIMAL_PACT LIKE_PACT WIREMOCK_ROOT

- LIKE_PACT: the same pact with the type matchers a consumer test writes, `like(...)` on every field of the create
  request's body (Pact v3 `matchingRules`, `"match": "type"` per field): the stub then checks each field's type
  instead of comparing the body to one literal.
- WIREMOCK_ROOT/mappings/: one WireMock stub mapping per interaction, equivalent to the exact pact: method and path
  equal, the create's Content-Type header equal and its body `equalToJson` the pact's body; the same status, headers
  and body back.
"""
import json
import os
import sys


def like_pact(pact):
    """The pact with `like(...)` (a type matcher) on every top-level field of each request body."""
    out = json.loads(json.dumps(pact))
    for interaction in out["interactions"]:
        body = interaction["request"].get("body")
        if isinstance(body, dict) and body:
            rules = {f"$.{key}": {"matchers": [{"match": "type"}]} for key in body}
            interaction["request"].setdefault("matchingRules", {})["body"] = rules
    return out


def wiremock_mapping(interaction):
    """A WireMock stub mapping that answers `interaction` as the Pact stub does with the exact pact."""
    request = interaction["request"]
    response = interaction["response"]
    matcher = {"method": request["method"], "url": request["path"]}
    headers = request.get("headers") or {}
    if headers:
        matcher["headers"] = {name: {"equalTo": value} for name, value in headers.items()}
    if "body" in request:
        matcher["bodyPatterns"] = [{"equalToJson": request["body"]}]
    answer = {"status": response["status"], "headers": response.get("headers") or {}}
    if "body" in response:
        answer["body"] = json.dumps(response["body"], separators=(",", ":"))
    return {"name": interaction["description"], "request": matcher, "response": answer}


def main():
    minimal, like_path, root = sys.argv[1:4]
    pact = json.load(open(minimal))
    with open(like_path, "w") as f:
        json.dump(like_pact(pact), f, indent=2)
    mappings = os.path.join(root, "mappings")
    os.makedirs(mappings, exist_ok=True)
    os.makedirs(os.path.join(root, "__files"), exist_ok=True)
    for n, interaction in enumerate(pact["interactions"]):
        with open(os.path.join(mappings, f"{n:02d}.json"), "w") as f:
            json.dump(wiremock_mapping(interaction), f, indent=2)


if __name__ == "__main__":
    main()
