"""RSS growth of `spotcheck serve` while 20 clients read a full journal at once (issue 29, finding 5).

Usage: python3 bench/journal_read.py SPOTCHECK_BIN [--entries 1000] [--body-bytes 65536] [--clients 20] [--seconds 10]
Run through bench/journal-read.sh, which builds the binary. Fills the journal (1,000 entries whose request bodies are
64 KiB, the most the journal keeps of a body), lets it settle, then runs three phases of the same length, each with
20 concurrent keep-alive clients: reading the journal page by page (`GET /__spotcheck/journal`, following `next`),
reading entry details (`GET /__spotcheck/journal/{sequence}`, the route that does carry bodies), and, as the peer,
`GET /__spotcheck/health`. Prints VmRSS before and after filling and the peak growth of each phase over the settled RSS,
as JSON lines. Before paging, one journal GET encoded every entry with its bodies: about 100 MiB per request,
2 GiB for 20 at once. The target: 20 concurrent journal reads add less than 50 MiB.
"""
import argparse
import json
import re
import subprocess
import threading
import time
from http.client import HTTPConnection


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024


def start(binary):
    process = subprocess.Popen([binary, "serve", "--port", "0", "--admin-port", "0", "--quiet", "--journal-limit", "1000"],
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


def fill(base, entries, body_bytes):
    # A create body the mock refuses (400) but journals: the journal keeps the first 64 KiB of it.
    body = json.dumps({"petName": "x" * body_bytes, "species": "Dog"}).encode()
    connection = HTTPConnection(*base, timeout=60)
    for _ in range(entries):
        connection.request("POST", "/api/v1/announcements", body, {"Content-Type": "application/json"})
        connection.getresponse().read()


def read_pages(connection):
    cursor, pages = None, 0
    while True:
        connection.request("GET", "/__spotcheck/journal" + (f"?cursor={cursor}" if cursor else ""))
        page = json.loads(connection.getresponse().read())
        pages += 1
        cursor = page["next"]
        if cursor is None:
            return pages


def phase(process, admin, seconds, clients, work):
    settled = rss_mib(process.pid)
    stop = time.time() + seconds
    done = []

    def client(index):
        connection = HTTPConnection(*admin, timeout=120)
        n = 0
        while time.time() < stop:
            work(connection, index, n)
            n += 1
        done.append(n)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    peak = settled
    while any(t.is_alive() for t in threads):
        time.sleep(0.05)
        peak = max(peak, rss_mib(process.pid))
    for t in threads:
        t.join()
    return settled, peak, sum(done)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--body-bytes", type=int, default=65536)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    process, base, admin = start(args.binary)
    try:
        time.sleep(0.5)
        empty = rss_mib(process.pid)
        fill(base, args.entries, args.body_bytes)
        time.sleep(1)
        full = rss_mib(process.pid)
        connection = HTTPConnection(*admin, timeout=60)
        connection.request("GET", "/__spotcheck/journal?limit=1")
        newest = json.loads(connection.getresponse().read())["entries"][0]["sequence"]
        connection.request("GET", "/__spotcheck/journal")
        first_page = connection.getresponse().read()
        print(json.dumps({"entries": args.entries, "bodyBytes": args.body_bytes, "rssEmptyMiB": round(empty, 1),
                          "rssFullMiB": round(full, 1), "journalHoldsMiB": round(full - empty, 1),
                          "firstPageBytes": len(first_page), "pagesPerWalk": read_pages(connection)}), flush=True)
        phases = [
            ("journal pages", lambda c, i, n: read_pages(c)),
            ("journal/{sequence} details", lambda c, i, n: (c.request("GET", f"/__spotcheck/journal/{newest - (i * 37 + n) % args.entries}"),
                                                            c.getresponse().read())),
            ("health (peer)", lambda c, i, n: (c.request("GET", "/__spotcheck/health"), c.getresponse().read())),
        ]
        results = {}
        for name, work in phases:
            settled, peak, requests = phase(process, admin, args.seconds, args.clients, work)
            results[name] = peak - settled
            print(json.dumps({"phase": name, "clients": args.clients, "seconds": args.seconds, "walksOrRequests": requests,
                              "rssSettledMiB": round(settled, 1), "rssPeakMiB": round(peak, 1),
                              "growthMiB": round(peak - settled, 1)}), flush=True)
        growth = results["journal pages"]
        print(json.dumps({"result": "20 concurrent journal reads", "growthMiB": round(growth, 1), "targetMiB": 50,
                          "met": growth < 50,
                          "growthOverJournalHolds": round(growth / max(full - empty, 0.1), 3)}), flush=True)
    finally:
        process.terminate()
        process.wait(10)


if __name__ == "__main__":
    main()
