#!/usr/bin/env python3
"""Hostile input against a built spotcheck binary (issue 37). Exit 0 when everything held, 1 otherwise.

1. Fault values: every numeric field of a fault rule with 1e19, 2^63, 1e308, -0, "NaN", "Infinity" through
   PUT /__spotcheck/faults (400 naming the pointer, or 200 for a -0 that is a valid 0), then the mock still answers;
   the same values in a `serve --faults FILE` end with exit 2 naming the pointer.
2. HARs: content.size, bodySize, time and timings of 1e19, 1e300, "NaN"... : `import har` exits 2 naming the pointer,
   never a signal.
3. A $ref fan-out contract (41 schemas, each an allOf of two refs to the next): `lint` ends within the bound.
4. `import har` killed with -9 at random points: after the next run's recovery the project is byte for byte as it
   was, or as a complete import leaves it.
"""
import argparse, hashlib, json, os, random, shutil, signal, subprocess, sys, tempfile, time, urllib.request, urllib.error

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOSTILE = ["1e19", "9223372036854775808", "1e308", "-0", '"NaN"', '"Infinity"']
FIELDS = [
    ('{"from": V, "fault": {"kind": "drop"}}', "/rules/0/from"),
    ('{"every": V, "fault": {"kind": "drop"}}', "/rules/0/every"),
    ('{"times": V, "fault": {"kind": "drop"}}', "/rules/0/times"),
    ('{"calls": [V], "fault": {"kind": "drop"}}', "/rules/0/calls/0"),
    ('{"probability": V, "fault": {"kind": "drop"}}', "/rules/0/probability"),
    ('{"seed": V, "fault": {"kind": "drop"}}', "/rules/0/seed"),
    ('{"outage": {"seconds": V}}', "/rules/0/outage/seconds"),
    ('{"outage": {"after": V, "seconds": 1}}', "/rules/0/outage/after"),
    ('{"quota": {"limit": V, "windowSeconds": 1}}', "/rules/0/quota/limit"),
    ('{"quota": {"limit": 1, "windowSeconds": V}}', "/rules/0/quota/windowSeconds"),
    ('{"ramp": {"from": V, "to": 1, "seconds": 1}}', "/rules/0/ramp/from"),
    ('{"ramp": {"from": 0, "to": V, "seconds": 1}}', "/rules/0/ramp/to"),
    ('{"ramp": {"from": 0, "to": 1, "seconds": V}}', "/rules/0/ramp/seconds"),
    ('{"fault": {"kind": "status", "status": V}}', "/rules/0/fault/status"),
    ('{"fault": {"kind": "delay", "ms": V}}', "/rules/0/fault/ms"),
    ('{"fault": {"kind": "truncate", "bytes": V}}', "/rules/0/fault/bytes"),
    ('{"fault": {"kind": "slowBody", "chunkBytes": V, "intervalMs": 1}}', "/rules/0/fault/chunkBytes"),
    ('{"fault": {"kind": "slowBody", "chunkBytes": 1, "intervalMs": V}}', "/rules/0/fault/intervalMs"),
    ('{"fault": {"kind": "refuse", "ms": V}}', "/rules/0/fault/ms"),
]
failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


def start_serve(binary, *extra):
    log = tempfile.NamedTemporaryFile(delete=False, suffix=".log")
    proc = subprocess.Popen([binary, "serve", "--port", "0", "--quiet", *extra], stdout=log, stderr=subprocess.STDOUT)
    for _ in range(300):
        text = open(log.name).read()
        if "Listening on" in text:
            url = text.split("Listening on", 1)[1].split()[0].rstrip(",")
            return proc, url, log.name
        if proc.poll() is not None:
            return proc, None, log.name
        time.sleep(0.1)
    return proc, None, log.name


def request(method, url, body=None):
    data = body.encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except (urllib.error.URLError, ConnectionError, OSError) as error:
        # A drop or refuse rule that took (a -0 is a valid 0) answers nothing: that is the rule working.
        return 0, str(error).encode()


def fault_values(binary):
    proc, url, log = start_serve(binary)
    if url is None:
        fail("serve did not start: " + open(log).read()[-500:])
        return
    try:
        checked = 0
        for template, pointer in FIELDS:
            for value in HOSTILE:
                body = '{"rules": [' + template.replace("V", value) + "]}"
                status, answer = request("PUT", url + "/__spotcheck/faults", body)
                if status == 400:
                    got = json.loads(answer).get("error", {}).get("pointer")
                    if got != pointer:
                        fail(f"PUT {body}: 400 names {got}, expected {pointer}")
                elif not (value == "-0" and (status == 200 or status == 0 and "refuse" in template)):
                    fail(f"PUT {body}: answered {status} {answer[:200]!r}")
                status, answer = request("DELETE", url + "/__spotcheck/faults")
                if status not in (200, 204):
                    fail(f"DELETE after PUT {body}: answered {status} {answer[:200]!r}")
                if proc.poll() is not None:
                    fail(f"the mock died after PUT {body}")
                    return
                checked += 1
        status, _ = request("GET", url + "/api/health")
        status_active, _ = request("GET", url + "/__spotcheck/faults/active")
        if status != 200 or status_active != 200:
            fail(f"after the hostile rules: health {status}, faults/active {status_active}")
        print(f"fault values: {checked} hostile rules through the admin API, the mock still answers")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    work = tempfile.mkdtemp()
    try:
        for value in ["1e19", "9223372036854775808", "1e308"]:
            rules = os.path.join(work, "faults.json")
            with open(rules, "w") as f:
                f.write('{"rules": [{"outage": {"seconds": ' + value + '}}]}')
            run = subprocess.run([binary, "serve", "--port", "0", "--quiet", "--faults", rules], capture_output=True, text=True, timeout=60)
            if run.returncode != 2 or "/rules/0/outage/seconds" not in run.stdout + run.stderr:
                fail(f"serve --faults with seconds {value}: exit {run.returncode}: {(run.stdout + run.stderr)[-300:]}")
        print("fault values: serve --faults refuses them with exit 2 naming the pointer")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def har_with(pointer_value):
    entry = {"startedDateTime": "2026-11-25T10:00:00Z", "time": 1,
             "request": {"method": "GET", "url": "http://127.0.0.1:3000/api/health", "headers": [], "bodySize": 0},
             "response": {"status": 200, "headers": [], "bodySize": 0, "content": {"size": 0, "mimeType": "application/json"}},
             "timings": {"send": 0, "wait": 0, "receive": 0}}
    return entry


def hars(binary):
    work = tempfile.mkdtemp()
    try:
        project = os.path.join(work, "project")
        os.makedirs(os.path.join(project, "scenarios"))
        shutil.copytree(os.path.join(ROOT, "contracts"), os.path.join(project, "contracts"))
        places = [("response", "content", "size"), ("request", "bodySize"), ("response", "bodySize"), ("time",), ("timings", "wait")]
        checked = 0
        for place in places:
            for value in [1e19, 1e300, "NaN", "Infinity", "1e19", 2 ** 63]:
                entry = har_with(None)
                target = entry
                for key in place[:-1]:
                    target = target[key]
                target[place[-1]] = value
                har = os.path.join(work, "hostile.har")
                with open(har, "w") as f:
                    json.dump({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [entry]}}, f)
                run = subprocess.run([binary, "import", "har", har, "--into", project], capture_output=True, text=True, timeout=60)
                pointer = "/log/entries/0/" + "/".join(place)
                if run.returncode != 2 or pointer not in run.stdout:
                    fail(f"import har with {pointer} = {value!r}: exit {run.returncode}: {run.stdout[-300:]}{run.stderr[-300:]}")
                checked += 1
        print(f"HARs: {checked} hostile numbers, each refused with exit 2 naming the pointer")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def fan_out(binary, bound):
    work = tempfile.mkdtemp()
    try:
        contracts = os.path.join(work, "contracts")
        shutil.copytree(os.path.join(ROOT, "contracts"), contracts, ignore=shutil.ignore_patterns("versions"))
        for i in range(41):
            schema = {"type": "object"} if i == 40 else {"allOf": [{"$ref": f"Fan{i + 1}.json"}, {"$ref": f"Fan{i + 1}.json"}]}
            with open(os.path.join(contracts, "schemas", f"Fan{i}.json"), "w") as f:
                json.dump(schema, f)
        details = os.path.join(contracts, "get-announcement.json")
        document = json.load(open(details))
        document["responses"][0]["body"] = {"$ref": "schemas/Fan0.json"}
        json.dump(document, open(details, "w"), indent=2)
        env = dict(os.environ, SPOTCHECK_CACHE_DIR="off")
        started = time.monotonic()
        try:
            run = subprocess.run([binary, "lint", contracts], capture_output=True, text=True, timeout=60, env=env)
        except subprocess.TimeoutExpired:
            fail("lint of the $ref fan-out ran past 60 s")
            return
        took = time.monotonic() - started
        if run.returncode not in (0, 2) or took > bound:
            fail(f"lint of the $ref fan-out: exit {run.returncode} after {took:.2f} s (bound {bound} s): {run.stdout[-300:]}")
        print(f"contracts: the $ref fan-out lints in {took:.2f} s (exit {run.returncode})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def tree(root):
    files = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".spotcheck-staging"]
        for name in names:
            path = os.path.join(folder, name)
            if os.path.islink(path):
                files[os.path.relpath(path, root)] = "link:" + os.readlink(path)
            else:
                files[os.path.relpath(path, root)] = hashlib.sha256(open(path, "rb").read()).hexdigest()
    return files


def import_kills(binary, kills, rng):
    work = tempfile.mkdtemp()
    try:
        har = os.path.join(ROOT, "tests", "har", "chrome-dashboard.har")
        pristine = os.path.join(work, "pristine")
        os.makedirs(os.path.join(pristine, "scenarios"))
        shutil.copytree(os.path.join(ROOT, "contracts"), os.path.join(pristine, "contracts"))
        before = tree(pristine)
        reference = os.path.join(work, "reference")
        shutil.copytree(pristine, reference, symlinks=True)
        started = time.monotonic()
        full = subprocess.run([binary, "import", "har", har, "--into", reference], capture_output=True, text=True, timeout=120)
        whole = time.monotonic() - started
        if full.returncode != 0:
            fail("the uninterrupted import failed: " + full.stdout[-500:])
            return
        after = tree(reference)
        outcomes = {"as it was": 0, "fully imported": 0}
        for round_ in range(kills):
            project = os.path.join(work, f"p{round_}")
            shutil.copytree(pristine, project, symlinks=True)
            proc = subprocess.Popen([binary, "import", "har", har, "--into", project], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # Most of an import is reading and planning; the later half is where the files move.
            time.sleep(rng.uniform(0.3, 1.05) * whole)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            # The next run rolls back a killed import first; a HAR that does not exist ends it right after.
            subprocess.run([binary, "import", "har", os.path.join(work, "missing.har"), "--into", project], capture_output=True, timeout=60)
            state = tree(project)
            if state == before:
                outcomes["as it was"] += 1
            elif state == after:
                outcomes["fully imported"] += 1
            else:
                changed = sorted(k for k in set(state) | set(before) if state.get(k) != before.get(k))
                fail(f"kill round {round_}: the project is half-imported: {changed[:6]}")
            if os.path.exists(os.path.join(project, ".spotcheck-staging")):
                fail(f"kill round {round_}: staging left after the recovery run")
            shutil.rmtree(project, ignore_errors=True)
        print(f"import kills: {kills} kill -9s over a {whole:.2f} s import: {outcomes}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--kills", type=int, default=12)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--lint-bound", type=float, default=10.0, help="seconds the fan-out lint may take (debug build)")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1, 1 << 31)
    print(f"hostile input, seed {seed}")
    rng = random.Random(seed)
    fault_values(args.binary)
    hars(args.binary)
    fan_out(args.binary, args.lint_bound)
    import_kills(args.binary, args.kills, rng)
    if failures:
        print(f"{len(failures)} failure(s); rerun with --seed {seed}")
        sys.exit(1)
    print("hostile input: everything held")


if __name__ == "__main__":
    main()
