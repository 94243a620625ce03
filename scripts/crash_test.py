"""Crash test of `spotcheck serve --data-dir`: a create + photo storm is killed with SIGKILL at random moments.

After every restart, each announcement whose 201 was received must be there with its management password, and each
acknowledged photo must be served byte for byte; the store must load every time. Stdlib only.

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


def start(binary, data_dir):
    process = subprocess.Popen([binary, "serve", "--port", "0", "--quiet", "--store-limit", "0", "--data-dir", data_dir],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    match = re.match(r"Listening on (http://\S+)", line)
    if not match:
        rest = process.stdout.read() if process.poll() is not None else ""
        raise RuntimeError(f"serve did not start: {line}{rest}")
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
        photo = b"\x89PNG\r\n\x1a\n" + rng.randbytes(rng.randint(16, 40_000))
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
    stored = {a["id"]: a for a in json.loads(data)["announcements"]}
    problems = []
    for announcement_id, expected in acknowledged.items():
        found = stored.get(announcement_id)
        if not found:
            problems.append(f"acknowledged announcement {announcement_id} is missing")
            continue
        if found["managementPassword"] != expected["password"]:
            problems.append(f"{announcement_id}: password {found['managementPassword']} != acknowledged {expected['password']}")
        if expected["photo"] is not None:
            url = found["announcement"].get("photoUrl")
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
    try:
        for round_number in range(1, args.rounds + 1):
            process, base = start(args.binary, data_dir)
            problems = verify(base, acknowledged)
            stop = threading.Event()
            clients = [threading.Thread(target=storm, args=(base, rng.getrandbits(32), acknowledged, lock, stop))
                       for _ in range(args.clients)]
            for c in clients:
                c.start()
            time.sleep(rng.uniform(0.05, 1.5))
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
            stop.set()
            for c in clients:
                c.join()
            if problems:
                failed += 1
                print(f"FAIL round {round_number}: " + "; ".join(problems[:5]), flush=True)
            else:
                passed += 1
                print(f"ok   round {round_number}: {len(acknowledged)} acknowledged announcements all present after restart", flush=True)
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
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
