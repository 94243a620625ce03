"""RSS of `spotcheck serve` with one event-stream reader that never reads, while clients send 100 KB bodies (issue 22).

Usage: python3 bench/stuck_reader.py SPOTCHECK_BIN [--seconds 45] [--buffer 100000] [--journal-limit 10] [--clients 4]
Run through bench/stuck-reader.sh, which builds the binary. Two runs of the same load, one without a reader and one
with a reader that connects to /__spotcheck/events?buffer=N (the largest entry count the stream allows) and then never
reads (a 4 KiB receive buffer, so the kernel soon stops taking bytes); prints VmRSS at ready, its peak and at the end,
as JSON lines. The journal itself keeps 64 KiB of each body for its newest entries, so it runs with a small
--journal-limit (10) to keep its own share out of the figure: what a reader holds beyond the journal is what it costs.
The run without a reader is the baseline; the difference is what one stuck reader costs. Each request also carries an
8 KB query string (--query-bytes), so the summaries the stream sends are large enough to fill the kernel's socket
buffers (megabytes on loopback) within seconds at the rate a loaded 2-core machine reaches; only then does the server
start holding frames for the reader.
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


def start(binary, journal_limit):
    process = subprocess.Popen([binary, "serve", "--port", "0", "--admin-port", "0", "--quiet", "--journal-limit", str(journal_limit)],
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


def load(base, stop, counter, query_bytes):
    body = json.dumps({"petName": "x" * 100_000, "species": "Dog"}).encode()
    target = "/api/v1/announcements?pad=" + "q" * query_bytes
    connection = HTTPConnection(*base, timeout=30)
    while time.time() < stop:
        connection.request("POST", target, body, {"Content-Type": "application/json"})
        connection.getresponse().read()
        counter.append(1)


def run(binary, seconds, reader, buffer, journal_limit, clients, query_bytes):
    process, base, admin = start(binary, journal_limit)
    try:
        time.sleep(0.5)
        ready = rss_mib(process.pid)
        sock = stuck_reader(admin, buffer) if reader else None
        stop = time.time() + seconds
        counter = []
        threads = [threading.Thread(target=load, args=(base, stop, counter, query_bytes)) for _ in range(clients)]
        for c in threads:
            c.start()
        peak = ready
        while time.time() < stop:
            time.sleep(1)
            peak = max(peak, rss_mib(process.pid))
        for c in threads:
            c.join()
        final = rss_mib(process.pid)
        result = {"reader": "stuck" if reader else "none", "seconds": seconds, "requests": len(counter),
                  "bodyBytes": 100_000, "journalLimit": journal_limit, "readerBuffer": buffer, "queryBytes": query_bytes, "rssReadyMiB": round(ready, 1), "rssPeakMiB": round(max(peak, final), 1),
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
    parser.add_argument("--journal-limit", type=int, default=10)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--query-bytes", type=int, default=8000)
    parser.add_argument("--max-cost-mib", type=float, default=16,
                        help="exit 1 when the stuck reader costs more (its 1 MiB buffer, one write in flight, allocator noise)")
    args = parser.parse_args()
    print(f"# machine load average {os.getloadavg()[0]:.2f}", flush=True)
    baseline = run(args.binary, args.seconds, False, args.buffer, args.journal_limit, args.clients, args.query_bytes)
    print(json.dumps(baseline), flush=True)
    stuck = run(args.binary, args.seconds, True, args.buffer, args.journal_limit, args.clients, args.query_bytes)
    print(json.dumps(stuck), flush=True)
    cost = round(stuck["rssPeakMiB"] - baseline["rssPeakMiB"], 1)
    print(json.dumps({"stuckReaderCostMiB": cost, "limitMiB": args.max_cost_mib, "within": cost <= args.max_cost_mib}), flush=True)
    return 0 if cost <= args.max_cost_mib else 1


if __name__ == "__main__":
    raise SystemExit(main())
