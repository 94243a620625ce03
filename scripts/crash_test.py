"""Crash test of `spotcheck serve --data-dir`: a create + photo storm is killed with SIGKILL at random moments.

After every restart, each announcement whose 201 was received must be there with its management password, and each
acknowledged photo must be served byte for byte; the store must load every time. Stdlib only.

Compaction runs every few dozen records here (SPOTCHECK_COMPACT_MIN_BYTES), so random kills land inside it too; and
every other round sets SPOTCHECK_STORE_CRASH_AT=<step>, which makes the server SIGKILL itself right after that step
of a compaction, so each step (compaction.STEPS) is hit for certain, under load or during the compaction at start.

    python3 scripts/crash_test.py SPOTCHECK_BIN [--rounds 20] [--seed 1]
"""
import argparse
import base64
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

# A PNG signature and an empty IDAT chunk header: file-type (the backend's detector) walks PNG chunks, and random
# bytes read as a chunk header could end the walk as "not an image"; an IDAT first makes any payload a PNG.
PNG_HEAD = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x00IDAT"


# The steps of a compaction (CompactionStep in StoreFileSystem.swift), in order.
STEPS = ["photos-written", "snapshot-written", "snapshot-renamed", "log-created", "marker-switched", "old-files-removed"]
# Small enough that a storm compacts every second or so, large enough that it also appends between compactions; the
# ratio 0 lets the minimum alone decide, however large the snapshot grows.
COMPACT_MIN_BYTES = "40000"


class DiedAtStart(Exception):
    """The server killed itself at a compaction step before it listened (the compaction at start)."""


def start(binary, data_dir, crash_at=None):
    env = dict(os.environ, SPOTCHECK_COMPACT_MIN_BYTES=COMPACT_MIN_BYTES, SPOTCHECK_COMPACT_RATIO="0")
    env.pop("SPOTCHECK_STORE_CRASH_AT", None)
    if crash_at:
        env["SPOTCHECK_STORE_CRASH_AT"] = crash_at
    process = subprocess.Popen([binary, "serve", "--port", "0", "--quiet", "--store-limit", "0", "--data-dir", data_dir],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    # The data directory's notices (a torn record dropped, leftovers of a killed compaction removed) come first.
    notices = []
    while True:
        line = process.stdout.readline()
        match = re.match(r"Listening on (http://\S+)", line)
        if match or not line:
            break
        notices.append(line.rstrip())
    if not match:
        if process.wait() == -signal.SIGKILL and crash_at:
            raise DiedAtStart(crash_at)
        raise RuntimeError("serve did not start: " + "\n".join(notices))
    for notice in notices:
        print("     " + notice, flush=True)
    # Drain the rest of the output so the process never blocks on a full pipe.
    threading.Thread(target=process.stdout.read, daemon=True).start()
    return process, match.group(1)


def request(method, url, body=None, headers=None, timeout=10):
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def storm(base, rng_seed, acknowledged, lock, stop):
    """Creates announcements and uploads one photo each until the server dies; records what was acknowledged."""
    rng = random.Random(rng_seed)
    while not stop.is_set():
        body = json.dumps({"petName": f"pet-{rng.getrandbits(32)}", "species": "Dog", "sex": "MALE",
                           "locationLatitude": 10.5, "locationLongitude": 20.25, "lastSeenDate": "2025-01-02",
                           "status": "MISSING", "email": "crash@example.com"}).encode()
        try:
            status, data = request("POST", base + "/api/v1/announcements", body, {"Content-Type": "application/json"})
        except Exception:
            return
        if status != 201:
            continue
        created = json.loads(data)
        with lock:
            acknowledged[created["id"]] = {"password": created["managementPassword"], "photo": None}
        photo = PNG_HEAD + rng.randbytes(rng.randint(16, 40_000))
        boundary = "crashtestboundary"
        multipart = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.png\"\r\n"
                     "Content-Type: image/png\r\n\r\n").encode() + photo + f"\r\n--{boundary}--\r\n".encode()
        auth = base64.b64encode(f"{created['id']}:{created['managementPassword']}".encode()).decode()
        try:
            status, _ = request("POST", f"{base}/api/v1/announcements/{created['id']}/photos", multipart,
                                {"Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": f"Basic {auth}"})
        except Exception:
            return
        if status == 201:
            with lock:
                acknowledged[created["id"]]["photo"] = photo


def verify(base, acknowledged):
    """Problems found: acknowledged announcements or photos that are missing or different."""
    status, data = request("GET", base + "/__spotcheck/state?limit=1000000", timeout=60)
    if status != 200:
        return [f"GET /__spotcheck/state answered {status}"]
    stored = {a["id"]: a for a in json.loads(data)["records"]}
    problems = []
    for announcement_id, expected in acknowledged.items():
        found = stored.get(announcement_id)
        if not found:
            problems.append(f"acknowledged announcement {announcement_id} is missing")
            continue
        if found["secret"]["value"] != expected["password"]:
            problems.append(f"{announcement_id}: password {found['secret']['value']} != acknowledged {expected['password']}")
        if expected["photo"] is not None:
            url = found["record"].get("photoUrl")
            if not url:
                problems.append(f"{announcement_id}: acknowledged photo is missing")
                continue
            status, data = request("GET", base + url)
            if status != 200 or data != expected["photo"]:
                problems.append(f"{announcement_id}: photo differs from the acknowledged upload (status {status})")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    data_dir = tempfile.mkdtemp(prefix="spotcheck-crash-")
    acknowledged = {}
    lock = threading.Lock()
    passed = failed = 0
    steps_hit = set()
    try:
        for round_number in range(1, args.rounds + 1):
            # Odd rounds crash at a compaction step, in turn; even rounds at a random moment.
            crash_at = STEPS[(round_number // 2) % len(STEPS)] if round_number % 2 == 1 else None
            how = f"killed itself after compaction step {crash_at}" if crash_at else "kill -9 at a random moment"
            try:
                process, base = start(args.binary, data_dir, crash_at)
            except DiedAtStart:
                # The compaction at start reached the step; the next start (without the step) must still read the store.
                steps_hit.add(crash_at)
                how = f"killed itself after compaction step {crash_at} during the compaction at start"
                process, base = start(args.binary, data_dir)
                crash_at = None
            problems = verify(base, acknowledged)
            stop = threading.Event()
            clients = [threading.Thread(target=storm, args=(base, rng.getrandbits(32), acknowledged, lock, stop))
                       for _ in range(args.clients)]
            for c in clients:
                c.start()
            if crash_at:
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.kill(process.pid, signal.SIGKILL)
                    process.wait()
                    how = f"never reached compaction step {crash_at} in 10 s; kill -9"
                else:
                    steps_hit.add(crash_at)
            else:
                time.sleep(rng.uniform(0.05, 1.5))
                os.kill(process.pid, signal.SIGKILL)
                process.wait()
            stop.set()
            for c in clients:
                c.join()
            if problems:
                failed += 1
                print(f"FAIL round {round_number} (before it: {how}): " + "; ".join(problems[:5]), flush=True)
            else:
                passed += 1
                print(f"ok   round {round_number}: {len(acknowledged)} acknowledged announcements all present after restart; "
                      f"then {how}", flush=True)
        process, base = start(args.binary, data_dir)
        problems = verify(base, acknowledged)
        process.terminate()
        process.wait()
        if problems:
            failed += 1
            print("FAIL final check: " + "; ".join(problems[:5]))
        else:
            passed += 1
            photos = sum(1 for a in acknowledged.values() if a["photo"] is not None)
            print(f"ok   final check: {len(acknowledged)} announcements and {photos} photos, all acknowledged, all present")
        missed = [step for step in STEPS if step not in steps_hit]
        if args.rounds >= 2 * len(STEPS) and missed:
            failed += 1
            print("FAIL compaction steps never hit: " + ", ".join(missed))
        else:
            print(f"compaction steps hit by a SIGKILL: {len(steps_hit)} of {len(STEPS)}"
                  + (f" (missed: {', '.join(missed)}; run at least {2 * len(STEPS)} rounds to hit all)" if missed else ""))
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    print(f"{passed} passed, {failed} failed (seed {args.seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
