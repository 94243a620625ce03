"""RSS of `spotcheck serve` with one event-stream reader that never reads, while clients send 100 KB bodies (issue 22).

Usage: python3 bench/stuck_reader.py SPOTCHECK_BIN [--seconds 45] [--buffer 100000]
Run through bench/stuck-reader.sh, which builds the binary. Two runs of the same load, one without a reader and one
with a reader that connects to /__spotcheck/events?buffer=N (the largest entry count the stream allows) and then never
reads (a 4 KiB receive buffer, so the kernel soon stops taking bytes); prints VmRSS every few seconds and the peak, as
JSON lines. The journal itself keeps up to 1,000 entries with 64 KiB of each body, so the run without a reader is the
baseline; the difference is what one stuck reader costs.
"""
import argparse
import json
import os
import re
import socket
import subprocess
import threading
import time
from http.client import HTTPConnection


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024


def start(binary):
    process = subprocess.Popen([binary, "serve", "--port", "0", "--admin-port", "0", "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = admin = None
    while not (base and admin):
        line = process.stdout.readline()
        if not line:
            raise SystemExit("serve did not print its URLs")
        if m := re.match(r"Listening on http://([\d.]+):(\d+)", line):
            base = (m.group(1), int(m.group(2)))
        if m := re.match(r"Admin API on http://([\d.]+):(\d+)", line):
            admin = (m.group(1), int(m.group(2)))
    threading.Thread(target=process.stdout.read, daemon=True).start()
    return process, base, admin


def stuck_reader(admin, buffer):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(admin)
    s.sendall(f"GET /__spotcheck/events?buffer={buffer} HTTP/1.1\r\nHost: {admin[0]}:{admin[1]}\r\n\r\n".encode())
    return s  # never read from


def load(base, stop, counter):
    body = json.dumps({"petName": "x" * 100_000, "species": "Dog"}).encode()
    connection = HTTPConnection(*base, timeout=30)
    while time.time() < stop:
        connection.request("POST", "/api/v1/announcements", body, {"Content-Type": "application/json"})
        connection.getresponse().read()
        counter.append(1)


def run(binary, seconds, reader, buffer):
    process, base, admin = start(binary)
    try:
        time.sleep(0.5)
        ready = rss_mib(process.pid)
        sock = stuck_reader(admin, buffer) if reader else None
        stop = time.time() + seconds
        counter = []
        clients = [threading.Thread(target=load, args=(base, stop, counter)) for _ in range(2)]
        for c in clients:
            c.start()
        peak = ready
        while time.time() < stop:
            time.sleep(1)
            peak = max(peak, rss_mib(process.pid))
        for c in clients:
            c.join()
        final = rss_mib(process.pid)
        result = {"reader": "stuck" if reader else "none", "seconds": seconds, "requests": len(counter),
                  "bodyBytes": 100_000, "rssReadyMiB": round(ready, 1), "rssPeakMiB": round(max(peak, final), 1),
                  "rssEndMiB": round(final, 1)}
        if sock:
            sock.close()
        return result
    finally:
        process.terminate()
        process.wait(10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=int, default=45)
    parser.add_argument("--buffer", type=int, default=100_000)
    args = parser.parse_args()
    print(f"# machine load average {os.getloadavg()[0]:.2f}", flush=True)
    baseline = run(args.binary, args.seconds, False, args.buffer)
    print(json.dumps(baseline), flush=True)
    stuck = run(args.binary, args.seconds, True, args.buffer)
    print(json.dumps(stuck), flush=True)
    print(json.dumps({"stuckReaderCostMiB": round(stuck["rssPeakMiB"] - baseline["rssPeakMiB"], 1)}), flush=True)


if __name__ == "__main__":
    main()
