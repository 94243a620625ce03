"""Start time of `spotcheck serve --data-dir` after a million changes, with and without compaction.

Writes a data directory whose log holds CHANGES records (creates, photo uploads and deletes, about 50,000 announcements
live at the end, 64 distinct photo files), in the store's own format (CRC-32C per record, from the `crc32c` package),
then times starts from launch to the "Listening on" line:
  - without compaction (SPOTCHECK_COMPACT_MIN_BYTES huge): every start replays the whole history;
  - the first start with compaction: it replays the history once and writes the snapshot;
  - later starts with compaction: they read the snapshot of the live data only.
Reports medians, the directory's size before and after, and the seed.

    python3 bench/datadir_start.py SPOTCHECK_BIN [--changes 1000000] [--starts 3] [--seed 1]
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import crc32c

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000002000000020802000000fdd49a73"
                    "0000001049444154789c633851a101440c100a0029ee05a18c09ce880000000049454e44ae426082")


def record(fields):
    body = json.dumps(fields, separators=(",", ":")).encode()
    return body + b"\t" + format(crc32c.crc32c(body), "08x").encode() + b"\n"


def announcement(announcement_id, n, photo_url=None):
    return {"id": announcement_id, "petName": f"Pet {n}", "species": "DOG", "breed": "Mixed", "sex": "MALE", "age": 3,
            "description": "Brown, friendly, answers to his name; last seen near the park entrance.",
            "microchipNumber": None, "locationLatitude": 52.2297, "locationLongitude": 21.0122,
            "lastSeenDate": "2025-11-18", "email": "owner@example.com", "phone": "+48 600 000 000",
            "photoUrl": photo_url, "status": "MISSING", "reward": None,
            "createdAt": "2025-11-20T12:00:00.000Z", "updatedAt": "2025-11-20T12:00:00.000Z"}


def generate(directory, changes, rng):
    """A generation-0 data directory with `changes` records; answers (puts, photos, deletes, live)."""
    photos = os.path.join(directory, "photos")
    os.makedirs(photos)
    files = []
    for i in range(64):
        name = f"bench-{i:02d}.png"
        with open(os.path.join(photos, name), "wb") as f:
            f.write(PNG + rng.randbytes(rng.randint(1000, 30000)))
        files.append(name)
    with open(os.path.join(directory, "spotcheck-store.json"), "w") as f:
        f.write('{"format":"spotcheck-mock-store","version":2,"generation":0}\n')
    live, counts, serial = [], {"put": 0, "photo": 0, "delete": 0}, 0
    with open(os.path.join(directory, "announcements.log"), "wb") as log:
        for _ in range(changes):
            r = rng.random()
            if live and (len(live) > 50_000 or r < 0.44):
                i = rng.randrange(len(live))
                live[i], live[-1] = live[-1], live[i]
                log.write(record({"op": "delete", "id": live.pop()}))
                counts["delete"] += 1
            elif live and r < 0.54:
                announcement_id = rng.choice(live)
                log.write(record({"op": "photo", "id": announcement_id, "file": rng.choice(files),
                                  "announcement": announcement(announcement_id, serial, f"/images/{announcement_id}.png")}))
                counts["photo"] += 1
            else:
                serial += 1
                announcement_id = f"{rng.getrandbits(128):032x}"
                log.write(record({"op": "put", "id": announcement_id, "password": f"{rng.randrange(10**6):06d}",
                                  "created": True, "announcement": announcement(announcement_id, serial)}))
                live.append(announcement_id)
                counts["put"] += 1
    return counts, len(live)


def size(directory):
    return sum(os.path.getsize(os.path.join(root, name)) for root, _, names in os.walk(directory) for name in names)


def start_seconds(binary, directory, env):
    """(wall seconds from launch to the "Listening on" line, CPU seconds of the whole run); the server is stopped again.

    The CPU time (user + system, from wait4) is the figure to trust on a busy machine, where the wall time also
    measures the wait for a core; an idle server adds almost none after its start."""
    began = time.monotonic()
    process = subprocess.Popen([binary, "serve", "--port", "0", "--quiet", "--store-limit", "0", "--data-dir", directory],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines = []
    while True:
        line = process.stdout.readline()
        if not line or re.match(r"Listening on ", line):
            break
        lines.append(line)
    elapsed = time.monotonic() - began
    process.send_signal(signal.SIGTERM)
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    if not line:
        raise RuntimeError("serve did not start: " + "".join(lines))
    return elapsed, usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--changes", type=int, default=1_000_000)
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="spotcheck-bench-datadir-")
    try:
        directory = os.path.join(work, "data")
        os.makedirs(directory)
        began = time.monotonic()
        counts, live = generate(directory, args.changes, rng)
        print(f"seed {args.seed}: {args.changes} changes ({counts['put']} creates, {counts['photo']} photo uploads, "
              f"{counts['delete']} deletes), {live} announcements live; generated in {time.monotonic() - began:.0f} s")
        history_bytes = size(directory)
        off = dict(os.environ, SPOTCHECK_COMPACT_MIN_BYTES=str(10**15))
        on = {k: v for k, v in os.environ.items() if not k.startswith("SPOTCHECK_COMPACT")}
        without = [start_seconds(args.binary, directory, off) for _ in range(args.starts)]
        first = start_seconds(args.binary, directory, on)
        compacted_bytes = size(directory)
        later = [start_seconds(args.binary, directory, on) for _ in range(args.starts)]
        def show(runs):
            wall, cpu = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
            return f"median {wall:.2f} s to listening, {cpu:.2f} s CPU (of {len(runs)})"

        print(f"load average at the end: {os.getloadavg()[0]:.1f} (wall times include waiting for a core)")
        print(f"start without compaction (replays all {args.changes} changes): {show(without)}; data dir {history_bytes / 1e6:.1f} MB")
        print(f"first start with compaction (replays them once, writes the snapshot): {show([first])}")
        print(f"start with compaction (reads the snapshot of {live} live announcements): {show(later)}; "
              f"data dir {compacted_bytes / 1e6:.1f} MB")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
