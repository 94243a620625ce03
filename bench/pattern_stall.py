"""Answer time of a create whose email is "é@" + 64,000 dots + "@", and of a health check while 32 of them run.

Usage: python3 bench/pattern_stall.py SPOTCHECK_SERVE_BIN [--dots 64000] [--concurrent 32] [--runs 5] [--rounds 5]
Run through bench/pattern-stall.sh, which builds the release binary. The email breaks the bundled pattern
(contracts/schemas/CreateAnnouncementRequest.json) only at its last character, the worst case for a backtracking
engine; a non-ASCII character keeps it off the ASCII shortcut. Prints JSON lines: the median and slowest answer of
one such create (target < 10 ms), then the health check's answer time (GET /api/health, contracts/health.json)
sent while CONCURRENT creates are in flight (ROUNDS times: median and slowest), beside the same health check on the
idle server (target < 100 ms for the slowest).
"""
import argparse
import json
import re
import statistics
import subprocess
import threading
import time
from http.client import HTTPConnection


def start(binary):
    process = subprocess.Popen([binary, "serve", "--port", "0", "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    while True:
        line = process.stdout.readline()
        if not line:
            raise SystemExit("serve did not print its URL")
        if m := re.match(r"Listening on http://([\d.]+):(\d+)", line):
            threading.Thread(target=process.stdout.read, daemon=True).start()
            return process, (m.group(1), int(m.group(2)))


def body(dots):
    return json.dumps({"species": "CAT", "sex": "FEMALE", "locationLatitude": 50.06, "locationLongitude": 19.94,
                       "email": "é@" + "." * dots + "@", "lastSeenDate": "2025-11-17", "status": "FOUND"}).encode()


def timed(base, method, path, payload=None):
    connection = HTTPConnection(*base, timeout=120)
    headers = {"Content-Type": "application/json"} if payload else {}
    started = time.perf_counter()
    connection.request(method, path, payload, headers)
    response = connection.getresponse()
    response.read()
    elapsed = (time.perf_counter() - started) * 1000
    connection.close()
    return response.status, elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--dots", type=int, default=64000)
    parser.add_argument("--concurrent", type=int, default=32)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    payload = body(args.dots)
    process, base = start(args.binary)
    try:
        timed(base, "GET", "/api/health")  # warm up
        creates = [timed(base, "POST", "/api/v1/announcements", payload) for _ in range(args.runs)]
        statuses = sorted({status for status, _ in creates})
        times = [ms for _, ms in creates]
        print(json.dumps({"measure": "one stalling create", "statuses": statuses, "runs": args.runs,
                          "median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2),
                          "target_ms": 10, "met": max(times) < 10}))
        idle = statistics.median(timed(base, "GET", "/api/health")[1] for _ in range(args.runs))
        results, healths, statuses = [], [], set()
        for _ in range(args.rounds):
            barrier = threading.Barrier(args.concurrent + 1)

            def create():
                barrier.wait()
                results.append(timed(base, "POST", "/api/v1/announcements", payload))

            threads = [threading.Thread(target=create) for _ in range(args.concurrent)]
            for t in threads:
                t.start()
            barrier.wait()
            time.sleep(0.005)  # let the creates reach the server first
            status, health = timed(base, "GET", "/api/health")
            statuses.add(status)
            healths.append(health)
            for t in threads:
                t.join()
        print(json.dumps({"measure": f"health during {args.concurrent} stalling creates", "statuses": sorted(statuses),
                          "rounds": args.rounds, "health_median_ms": round(statistics.median(healths), 2),
                          "health_max_ms": round(max(healths), 2), "idle_health_ms": round(idle, 2),
                          "slowest_create_ms": round(max(ms for _, ms in results), 2),
                          "create_statuses": sorted({s for s, _ in results}), "target_ms": 100, "met": max(healths) < 100}))
    finally:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    main()
