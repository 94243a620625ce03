"""Single realistic changes to ../shared/realbackend, each checked with `spotcheck verify` (issue 42).

Each mutant is one edit a backend team could ship by mistake: a status, a message, a rule's bound, a stored field a
write forgets, a list's order, a header. For each, a copy of the reproduction with that one edit is started, and
`verify` is run against it with the bundled contracts (plain mode) and, for the changes no contract states, with an
unchanged instance as `--baseline`. A mutant is found when the run exits non-zero. The unchanged reproduction is run
first: it must pass both ways, or every "found" below would mean nothing.

    python3 bench/backend_mutants.py SPOTCHECK REALBACKEND_DIR VENV_PYTHON [--seed N] [--cases N] [--only NAME]
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ADMIN = "tajnehasloadmina"

# name, file, old text, new text, whether a contract states the change (plain verify must find it) or only a baseline can,
# and the version (9ae1f4b when left out).
# Left out: a range bound made inclusive (`d <= limit`): a record exactly `range` km away by the server's own floating
# point is a point no client, and no tester, can aim at; no black-box check finds it.
MUTANTS = [
    ("create answers 200", "server.py", "    return json_response(201, created, rid)", "    return json_response(200, created, rid)", "stated"),
    ("conflict message reworded", "server.py", '"An entity with this value already exists"', '"This value is already taken"', "stated"),
    ("five-digit password", "server.py", "randrange(100000, 1000000)", "randrange(10000, 100000)", "stated"),
    ("upload forgets photoUrl", "server.py", '        row["photoUrl"] = f"/images/{filename}"\n', '        row["updatedAt"] = row["updatedAt"]\n', "stated"),
    ("list newest first", "server.py", "    if lat is UNDEFINED or lng is UNDEFINED:\n        return rows\n",
     "    if lat is UNDEFINED or lng is UNDEFINED:\n        return rows[::-1]\n", "stated"),
    ("default range 10 km", "server.py", "DEFAULT_RANGE_KM = 5", "DEFAULT_RANGE_KM = 10", "stated"),
    ("list holds records without photo", "server.py", 'if r["photoUrl"] is not None]', "if True]", "stated"),
    ("distance with lat and lng swapped", "server.py", "d = _distance_km(lat, lng, rl, rg)", "d = _distance_km(lng, lat, rl, rg)", "stated"),
    ("microchip uniqueness dropped", "server.py", "        if taken:  #", "        if False and taken:  #", "stated"),
    ("wrong password answers 401", "server.py", 'raise HttpError(403, "UNAUTHORIZED", "Invalid credentials for this announcement")',
     'raise HttpError(401, "UNAUTHORIZED", "Invalid credentials for this announcement")', "stated"),
    ("description not sanitised", "server.py", '"description": _sanitize_if_truthy(get("description")),', '"description": _opt(get("description")),', "stated"),
    ("age zero accepted", "validation.py", '    if not value > 0:\n        return "INVALID_FORMAT", "age must be a positive integer"',
     '    if not value >= 0:\n        return "INVALID_FORMAT", "age must be a positive integer"', "stated"),
    ("latitude bound 85", "validation.py", '_bounded(-90, 90, "latitude must be between -90 and 90")', '_bounded(-85, 85, "latitude must be between -90 and 90")', "stated"),
    ("microchip not trimmed", "validation.py", "    if not _DIGITS.fullmatch(js_trim(value)):", "    if not _DIGITS.fullmatch(value):", "stated"),
    ("details 404 message", "server.py", '        raise HttpError(404, "NOT_FOUND", "Resource not found")\n    return json_response(200, row, rid)',
     '        raise HttpError(404, "NOT_FOUND", "Announcement not found")\n    return json_response(200, row, rid)', "stated"),
    ("upload answers a body", "server.py", "    return json_response(201, {}, rid)", '    return json_response(201, {"ok": True}, rid)', "unstated"),
    # fb9f56a: the users' tokens and keys (with that version's contracts and a signing key given to verify).
    ("token lives two hours", "server.py", "TOKEN_LIFETIME_S = 3600", "TOKEN_LIFETIME_S = 7200", "stated", "fb9f56a"),
    ("token signed with another key", "server.py", "mac = hmac.new(JWT_SECRET, ", 'mac = hmac.new(JWT_SECRET + b"2", ', "stated", "fb9f56a"),
    ("login keeps the email's case", "server.py", '    return body["email"].lower(), body["password"]', '    return body["email"], body["password"]', "stated", "fb9f56a"),
    ("duplicate email answers 400", "server.py", 'raise HttpError(409, "CONFLICT", "Email already exists")', 'raise HttpError(400, "CONFLICT", "Email already exists")', "stated", "fb9f56a"),
    ("token carries a role", "server.py", '{"userId": user_id, "iat": now,', '{"userId": user_id, "role": "user", "iat": now,', "unstated", "fb9f56a"),
    ("cache header on details", "server.py", "        raise HttpError(404, \"NOT_FOUND\", \"Resource not found\")\n    return json_response(200, row, rid)",
     "        raise HttpError(404, \"NOT_FOUND\", \"Resource not found\")\n    resp = json_response(200, row, rid)\n    resp.headers[\"Cache-Control\"] = \"max-age=60\"\n    return resp", "unstated"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SECRET = "bench-mutants-key"
FOLDERS = {"9ae1f4b": "contracts", "fb9f56a": "contracts/versions/2026-01-12"}


def start(python: str, directory: str, log_path: str, version: str = "9ae1f4b"):
    """Starts the reproduction in `directory` at `version`; returns (process, base URL)."""
    port = free_port()
    env = dict(os.environ, REALBACKEND_SEED="1", REALBACKEND_VERSION=version, REALBACKEND_JWT_SECRET=SECRET)
    log = open(log_path, "w")
    process = subprocess.Popen([python, os.path.join(directory, "server.py"), str(port)], stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(url + "/api/health", timeout=2)
            return process, url
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the reproduction in {directory} did not start; see {log_path}")


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def verify(spotcheck: str, url: str, seed: int, cases: int | None, log_path: str, baseline: str | None = None,
           version: str = "9ae1f4b") -> int:
    command = [spotcheck, "verify", "--contracts", FOLDERS[version], "--target", url, "--seed", str(seed), "--timeout", "120",
               "--admin-token", ADMIN, "--skip", "photo of 20 MiB"] + (["--cases", str(cases)] if cases else [])
    if version == "fb9f56a":
        command += ["--secret", "token=" + SECRET]
    if baseline:
        command += ["--baseline", baseline]
    with open(log_path, "w") as log:
        return subprocess.call(command, stdout=log, stderr=subprocess.STDOUT)


def headline(log_path: str) -> str:
    """The first failure line of a verify log, for the table."""
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for line in log:
            if line.startswith(("  ✗", "✗", "  ≈", "≈")):
                return line.strip()[:110]
    return ""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("spotcheck")
    parser.add_argument("realbackend")
    parser.add_argument("python")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, help="verify's case budget (default: verify's own)")
    parser.add_argument("--only", help="comma-separated mutant names")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="backend-mutants-")
    processes = []
    originals = {}

    def original(version: str) -> str:
        """The unchanged reproduction at `version`, started once and checked: it must pass, or no finding means anything."""
        if version not in originals:
            process, url = start(args.python, args.realbackend, os.path.join(work, f"original-{version}.log"), version)
            processes.append(process)
            log = os.path.join(work, f"original-{version}-verify.log")
            status = verify(args.spotcheck, url, args.seed, args.cases, log, version=version)
            if status != 0:
                raise SystemExit(f"the unchanged reproduction at {version} fails verify (exit {status}): see {log}")
            originals[version] = url
        return originals[version]

    try:
        print(f"seed {args.seed}, {args.cases or 'the default number of'} cases per run; logs in {work}")
        found = 0
        only = set(args.only.split(",")) if args.only else None
        chosen = [m for m in MUTANTS if only is None or m[0] in only]
        for name, file, old, new, kind, *rest in chosen:
            version = rest[0] if rest else "9ae1f4b"
            baseline = original(version)
            directory = os.path.join(work, name.replace(" ", "-").replace("'", ""))
            shutil.copytree(args.realbackend, directory)
            path = os.path.join(directory, file)
            text = open(path, encoding="utf-8").read()
            if text.count(old) != 1:
                print(f"{name}: the edit no longer applies ({file} holds its text {text.count(old)} times); update MUTANTS")
                return 1
            open(path, "w", encoding="utf-8").write(text.replace(old, new))
            process, url = start(args.python, directory, directory + ".log", version)
            processes.append(process)
            log = directory + "-verify.log"
            status = verify(args.spotcheck, url, args.seed, args.cases, log, baseline=None if kind == "stated" else baseline, version=version)
            stop(process)
            hit = status != 0
            found += hit
            mode = ("verify" if kind == "stated" else "verify --baseline") + f" {version}"
            print(f"{'found ' if hit else 'MISSED'}  {name:34} {mode:26} exit {status}  {headline(log) if hit else ''}")
        print(f"{found} of {len(chosen)} single changes found")
        return 0 if found == len(chosen) else 1
    finally:
        for process in processes:
            if process.poll() is None:
                stop(process)


if __name__ == "__main__":
    sys.exit(main())
