"""Disk-full test of `spotcheck serve --data-dir` on a small tmpfs (run as root; skipped with a message otherwise).

A create + photo + delete sequence runs until the disk is full and well past it. Every answer must tell the truth:
a 201/204 means the change is there (now and after a restart), a 500 means it is not (no announcement, no `photoUrl`,
the deleted announcement still there). Once space returns, writes succeed again without a restart. Stdlib only.

    python3 scripts/disk_full_test.py SPOTCHECK_BIN [--seed 1] [--size-kb 3072]
"""
import argparse
import base64
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crash_test import request, start  # noqa: E402  (one way to start serve and to send a request)

# A PNG signature and an empty IDAT chunk header: file-type (the backend's detector) walks PNG chunks, and random
# bytes read as a chunk header could end the walk as "not an image"; an IDAT first makes any payload a PNG.
PNG_HEAD = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x00IDAT"


def create(base, rng):
    body = json.dumps({"petName": f"pet-{rng.getrandbits(32)}", "species": "Dog", "sex": "MALE", "locationLatitude": 10.5,
                       "locationLongitude": 20.25, "lastSeenDate": "2025-01-02", "status": "MISSING",
                       "email": "full@example.com"}).encode()
    status, data = request("POST", base + "/api/v1/announcements", body, {"Content-Type": "application/json"})
    return status, (json.loads(data) if status == 201 else None)


def upload(base, announcement_id, password, photo):
    boundary = "diskfullboundary"
    multipart = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.png\"\r\n"
                 "Content-Type: image/png\r\n\r\n").encode() + photo + f"\r\n--{boundary}--\r\n".encode()
    auth = base64.b64encode(f"{announcement_id}:{password}".encode()).decode()
    status, _ = request("POST", f"{base}/api/v1/announcements/{announcement_id}/photos", multipart,
                        {"Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": f"Basic {auth}"})
    return status


# DELETE takes the admin token as the whole Authorization header; serve on loopback without --admin-token uses the
# real backend's hard-coded one (petspot-api.md).
ADMIN_TOKEN = "tajnehasloadmina"


def delete(base, announcement_id):
    status, _ = request("DELETE", f"{base}/api/v1/announcements/{announcement_id}", None, {"Authorization": ADMIN_TOKEN})
    return status


def compare(base, model, initial, when):
    """Problems: the store must hold exactly the acknowledged announcements, passwords and photos."""
    status, data = request("GET", base + "/__spotcheck/state?limit=1000000", timeout=60)
    if status != 200:
        return [f"{when}: GET /__spotcheck/state answered {status}"]
    stored = {a["id"]: a for a in json.loads(data)["records"] if a["id"] not in initial}
    problems = []
    for extra in sorted(set(stored) - set(model)):
        problems.append(f"{when}: {extra} is stored but its create or delete was not acknowledged that way")
    for missing in sorted(set(model) - set(stored)):
        problems.append(f"{when}: acknowledged announcement {missing} is missing")
    for announcement_id, expected in model.items():
        found = stored.get(announcement_id)
        if not found:
            continue
        if found["secret"]["value"] != expected["password"]:
            problems.append(f"{when}: {announcement_id} has another password")
        url = found["record"].get("photoUrl")
        if expected["photo"] is None:
            if url:
                problems.append(f"{when}: {announcement_id} shows photoUrl {url} but no upload was acknowledged")
        else:
            status, body = request("GET", base + url) if url else (None, None)
            if body != expected["photo"]:
                problems.append(f"{when}: {announcement_id}: the photo is not the last acknowledged upload (status {status})")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size-kb", type=int, default=3072)
    args = parser.parse_args()
    print(f"disk-full test, seed {args.seed}")
    if os.geteuid() != 0:
        print("SKIP: mounting a tmpfs needs root (CI runs this as root); nothing was tested")
        return 0
    mount = tempfile.mkdtemp(prefix="spotcheck-full-")
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={args.size_kb}k", "tmpfs", mount], capture_output=True, text=True)
    if result.returncode != 0:
        os.rmdir(mount)
        print(f"SKIP: cannot mount a tmpfs here ({result.stderr.strip()}); nothing was tested")
        return 0
    rng = random.Random(args.seed)
    model, problems, answers = {}, [], {"201/204": 0, "500": 0}
    process = None
    try:
        data_dir = os.path.join(mount, "data")
        filler = os.path.join(mount, "filler")
        # Leave about 1 MB: the disk fills after a few dozen photos, then the run goes on well past it.
        with open(filler, "wb") as f:
            f.write(b"\0" * max(0, args.size_kb * 1024 - (1 << 20)))
        process, base = start(args.binary, data_dir)
        _, data = request("GET", base + "/__spotcheck/state?limit=1000000")
        initial = {a["id"] for a in json.loads(data)["records"]}

        def step(allow_failure):
            """One create, maybe an upload, maybe a delete; the model follows only what was acknowledged."""
            status, created = create(base, rng)
            answers["201/204" if status == 201 else "500"] += 1
            if status == 201:
                model[created["id"]] = {"password": created["managementPassword"], "photo": None}
            elif status != 500 or not allow_failure:
                problems.append(f"create answered {status}")
            if model and rng.random() < 0.8:
                announcement_id = rng.choice(sorted(model))
                photo = PNG_HEAD + rng.randbytes(rng.randint(20_000, 60_000))
                status = upload(base, announcement_id, model[announcement_id]["password"], photo)
                if status == 201:
                    model[announcement_id]["photo"] = photo
                elif status != 500 or not allow_failure:
                    problems.append(f"upload answered {status}")
                answers["201/204" if status == 201 else "500"] += 1
            if model and rng.random() < 0.2:
                announcement_id = rng.choice(sorted(model))
                status = delete(base, announcement_id)
                if status == 204:
                    del model[announcement_id]
                elif status != 500 or not allow_failure:
                    problems.append(f"delete answered {status}")
                answers["201/204" if status == 204 else "500"] += 1

        for _ in range(400):
            step(allow_failure=True)
            if answers["500"] >= 40:
                break
        print(f"filling: {answers['201/204']} changes acknowledged, {answers['500']} refused with 500 "
              f"(the disk has {shutil.disk_usage(mount).free} bytes free)")
        if answers["500"] == 0:
            problems.append("the disk never filled: no 500 at all, so nothing was tested")
        problems += compare(base, model, initial, "while full")

        os.remove(filler)
        before = answers["201/204"]
        for _ in range(10):
            step(allow_failure=False)
        print(f"space returned: {answers['201/204'] - before} further changes acknowledged without a restart")
        problems += compare(base, model, initial, "after space returned")

        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        process, base = start(args.binary, data_dir)
        problems += compare(base, model, initial, "after restart")
        print(f"after restart: {len(model)} announcements, {sum(1 for m in model.values() if m['photo'])} photos, "
              "exactly the acknowledged changes" if not problems else "after restart: see the problems below")
    finally:
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        subprocess.run(["umount", mount], check=False)
        os.rmdir(mount)
    for problem in problems[:20]:
        print("FAIL " + problem)
    print("disk-full test: " + ("passed" if not problems else f"{len(problems)} problems") + f" (seed {args.seed})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
