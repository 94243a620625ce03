#!/usr/bin/env python3
"""Starts a server and measures process start -> first answered HTTP request; used by bench/run.sh.

Usage: first_answer.py --log FILE (--url URL | --url-from-log PREFIX --path PATH) [--timeout S] -- CMD...

Polls every millisecond with a fresh connection (no curl process per try, which would add its own
start-up to the figure). Prints one JSON line: {"ms": ..., "url": ...}, then stops the server (SIGTERM,
then SIGKILL after 5 s) and exits; exit 1 with a message when the server dies or does not answer 2xx
within --timeout seconds. The server's output goes to --log.
"""
import argparse
import http.client
import json
import signal
import subprocess
import sys
import time
import urllib.parse


def answered(url: str) -> bool:
    parts = urllib.parse.urlsplit(url)
    try:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=1)
        conn.request("GET", parts.path or "/")
        status = conn.getresponse().status
        conn.close()
        return 200 <= status < 300
    except OSError:
        return False


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--url")
    parser.add_argument("--url-from-log", help="read the base URL from the log line starting with this prefix")
    parser.add_argument("--path", default="/")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or not (args.url or args.url_from_log):
        parser.error("needs a command after -- and --url or --url-from-log")

    log = open(args.log, "wb")
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = start + args.timeout
    url = args.url
    try:
        while True:
            if proc.poll() is not None:
                print(f"first_answer: {command[0]} exited with {proc.returncode} before answering; see {args.log}", file=sys.stderr)
                return 1
            if time.perf_counter() > deadline:
                print(f"first_answer: no 2xx answer from {command[0]} within {args.timeout:.0f} s; see {args.log}", file=sys.stderr)
                stop(proc)
                return 1
            if url is None:
                with open(args.log, "rb") as f:
                    for line in f.read().decode(errors="replace").splitlines():
                        if line.startswith(args.url_from_log):
                            url = line[len(args.url_from_log):].strip().rstrip("/") + args.path
                            break
            if url is not None and answered(url):
                break
            time.sleep(0.001)
        elapsed_ms = (time.perf_counter() - start) * 1000
    except BaseException:
        stop(proc)
        raise
    stop(proc)
    print(json.dumps({"ms": round(elapsed_ms, 1), "url": url}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
