#!/usr/bin/env python3
"""Instructions per create and per GET by id of one spotcheck-serve binary, under valgrind's callgrind.

Instruction counts do not move with the machine's load, so two binaries can be compared on a busy machine where
requests per second cannot. The server starts under callgrind; after it listens, the script sends WARMUP creates (not counted: lazy set-up, first allocations), zeroes the counters,
sends COUNT creates of bench/create-body.json on one keep-alive connection and dumps the profile, then COUNT GETs of
one created announcement and dumps again. Each dump is divided by COUNT. With --layers it prints the inclusive
instructions per request of the functions that make each layer of the create path (parsing, rules, store, journal,
fault layer, writing the answer), read from callgrind_annotate with Swift names demangled.

    python3 bench/instructions.py BINARY [--count 2000] [--warmup 300] [--layers] [--out DIR] [-- serve options]

Prints one JSON line: {"binary", "count", "create", "get", "layers": {...}}. Needs valgrind (callgrind_control,
callgrind_annotate) and swift-demangle (with the Swift toolchain).
"""
import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import time

# Each layer of the create path, as patterns of demangled Swift names (the first matching function's inclusive cost
# counts; the patterns are tried in order). A function's inclusive cost includes what it calls, so layers are read
# from their entry points, never summed into one figure.
LAYERS = [
    ("HTTP parsing (NIO's decoder, request head to parts)", [r"NIOHTTP1\.HTTPDecoder.*decode\(context:", r"NIOHTTP1\.HTTPDecoder"]),
    ("JSON body parsing", [r"JSONBodyParser\.parse\(", r"JSONValue\.init\(parsing"]),
    ("the create's rules (BodyRules)", [r"BodyRules\.firstRefusal\("]),
    ("the request check against the contract (observer)", [r"\.inspect\(_: MockBackend\.JournalEntry", r"ExchangeMonitor.*inspect", r"CompiledRequestCheck"]),
    ("the store (create)", [r"RecordStore\.create\(", r"RecordStore.*create\("]),
    ("the backend's whole create", [r"ModelBackend\.create\(", r"ModelBackend\.answerNow"]),
    ("the journal (entry, record, log)", [r"recordExchange\(", r"HTTPConnectionHandler\.record\("]),
    ("Journal.record", [r"MockBackend\.Journal\.record\("]),
    ("the fault layer (decide)", [r"FaultLayer\.decide\("]),
    ("writing the answer (head, body, flush)", [r"HTTPConnectionHandler\.write\(", r"HTTPConnectionHandler\.finish\("]),
    ("NIO's response encoder", [r"HTTPResponseEncoder\.write\(", r"HTTPResponseEncoder"]),
    ("the kernel's writev (syscall wrapper)", [r"^writev$", r"\bwritev\b"]),
]


def control(pid, *args):
    subprocess.run(["callgrind_control", *args, str(pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_listening(log_path, proc):
    for _ in range(1200):
        if proc.poll() is not None:
            sys.exit(f"the server exited: {open(log_path).read()}")
        text = open(log_path).read()
        m = re.search(r"Listening on (http://[0-9.:]+)", text)
        if m:
            return m.group(1)
        time.sleep(0.1)
    sys.exit("the server did not listen within 120 s")


def creates(conn, body, n):
    last = None
    for _ in range(n):
        conn.request("POST", "/api/v1/announcements", body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        data = resp.read()
        if resp.status != 201:
            sys.exit(f"create answered {resp.status}: {data[:200]!r}")
        last = data
    return last


def gets(conn, ident, n):
    for _ in range(n):
        conn.request("GET", f"/api/v1/announcements/{ident}")
        resp = conn.getresponse()
        data = resp.read()
        if resp.status != 200:
            sys.exit(f"GET answered {resp.status}: {data[:200]!r}")


def total(path):
    # The "summary:" (or "totals:") line of a callgrind dump holds the instruction count of that dump.
    for line in open(path):
        if line.startswith("summary:") or line.startswith("totals:"):
            return int(line.split()[1])
    sys.exit(f"no total in {path}")


def layers(path, count):
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                               check=True, capture_output=True, text=True).stdout
    demangled = subprocess.run(["swift-demangle", "--simplified"], input=annotated, check=True,
                               capture_output=True, text=True).stdout
    rows = []
    for line in demangled.splitlines():
        m = re.match(r"\s*([0-9,]+)\s+\(\s*[0-9.]+%\)\s+(.*)$", line)
        if m:
            rows.append((int(m.group(1).replace(",", "")), m.group(2)))
    out = {}
    for name, patterns in LAYERS:
        for pattern in patterns:
            hit = next((cost for cost, fn in rows if re.search(pattern, fn)), None)
            if hit is not None:
                out[name] = round(hit / count)
                break
    return out, demangled


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--layers", action="store_true")
    parser.add_argument("--out", default="bench/out/instructions")
    parser.add_argument("serve", nargs="*", help="extra serve options (after --)")
    a = parser.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name in os.listdir(a.out):
        if name.startswith("callgrind.out"):
            os.remove(os.path.join(a.out, name))
    log_path = os.path.join(a.out, "serve.log")
    env = dict(os.environ, SPOTCHECK_CACHE_DIR="off")
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind",
             f"--callgrind-out-file={a.out}/callgrind.out", a.binary, "--port", "0", "--quiet", *a.serve],
            stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        url = wait_listening(log_path, proc)
        host, port = url.removeprefix("http://").rsplit(":", 1)
        body = open("bench/create-body.json", "rb").read()
        conn = http.client.HTTPConnection(host, int(port), timeout=600)
        created = creates(conn, body, a.warmup)
        ident = json.loads(created)["id"]
        gets(conn, ident, a.warmup // 4)
        control(proc.pid, "-z")
        creates(conn, body, a.count)
        control(proc.pid, "-d")
        # The creates above may have evicted the read announcement (--store-limit): read one made just now.
        ident = json.loads(creates(conn, body, 1))["id"]
        control(proc.pid, "-z")
        gets(conn, ident, a.count)
        control(proc.pid, "-d")
        conn.close()
    finally:
        proc.terminate()
        proc.wait()
    dumps = sorted((p for p in os.listdir(a.out) if re.match(r"callgrind\.out\.\d+$", p)), key=lambda p: int(p.rsplit(".", 1)[1]))
    if len(dumps) < 2:
        sys.exit(f"expected two dumps in {a.out}, found {dumps}")
    create_dump, get_dump = (os.path.join(a.out, d) for d in dumps[:2])
    result = {"binary": a.binary, "count": a.count,
              "create": round(total(create_dump) / a.count), "get": round(total(get_dump) / a.count)}
    if a.layers:
        result["layers"], text = layers(create_dump, a.count)
        with open(os.path.join(a.out, "create-annotated.txt"), "w") as f:
            f.write(text)
        _, text = layers(get_dump, a.count)
        with open(os.path.join(a.out, "get-annotated.txt"), "w") as f:
            f.write(text)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
