"""Raw-socket HTTP/1.1 client for the hardening scripts (bench/soak.sh, bench/slowloris.sh, bench/bad-input.sh).

Written on asyncio streams rather than an HTTP library because the point is to send what no well-behaved
library sends: garbage, truncated bodies, floods of headers, bytes dripped one at a time, connections
dropped mid-body. Standard library only.

  python3 bench/harden.py seed URL COUNT OUT_DIR           announcements with photos, for the soak's uploads
  python3 bench/harden.py hold HOST:PORT N idle|partial    hold N connections until SIGTERM; JSON on exit
  python3 bench/harden.py keepalive HOST:PORT N PATH       N concurrent keep-alive connections, 2 requests each
  python3 bench/harden.py storm HOST:PORT COUNT CONC       bad-input storm (issue 3's list); JSON report
  python3 bench/harden.py idle HOST:PORT N WAIT_S          N silent connections; how many the server closed
"""

import asyncio
import base64
import collections
import json
import random
import signal
import socket
import struct
import sys
import time
import urllib.error
import urllib.request
import uuid

# A 2x2 PNG: the backend detects the type by magic bytes, so the soak's photo must be a real image.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4UaEBRAwQCgAp7gWhjAnOiAAAAABJRU5ErkJggg=="
)
VALID = {
    "petName": "Rex", "species": "DOG", "breed": "Beagle", "sex": "MALE", "age": 3,
    "description": "Brown collar, friendly", "locationLatitude": 52.2297, "locationLongitude": 21.0122,
    "email": "owner@example.com", "phone": "+48 123 456 789", "lastSeenDate": "2025-11-18",
    "status": "MISSING", "reward": "100 PLN",
}
BOUNDARY = "XyZBoundary42"
DUPLICATE_MICROCHIP = "900000000000042"


def multipart(data, filename="pet.png", boundary=BOUNDARY, name="photo"):
    disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
    return (f"--{boundary}\r\nContent-Disposition: {disposition}\r\nContent-Type: image/png\r\n\r\n").encode() \
        + data + f"\r\n--{boundary}--\r\n".encode()


def basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def request(method, target, headers=(), body=b"", length=True, close=False):
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in headers]
    if length:
        lines.append(f"Content-Length: {len(body)}")
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


# ---------------------------------------------------------------- reading answers

class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    @property
    def closes(self):
        return self.headers.get("connection", "").lower() == "close"

    @property
    def code(self):
        try:
            return json.loads(self.body)["error"]["code"]
        except Exception:
            return None

    @property
    def field(self):
        try:
            return json.loads(self.body)["error"].get("field")
        except Exception:
            return None


async def read_answer(reader, timeout):
    """One HTTP/1.1 response (Content-Length framed, as the server always sends); None on EOF before a status line."""
    async def read():
        line = await reader.readline()
        if not line:
            return None
        status = int(line.split()[1])
        headers = {}
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        return Answer(status, headers, body)
    return await asyncio.wait_for(read(), timeout)


async def connect(hostport):
    host, port = hostport.rsplit(":", 1)
    return await asyncio.open_connection(host, int(port), limit=1 << 20)


def abort(writer):
    """Closes with a TCP RST (SO_LINGER 0), as a client that crashes or loses power does."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
    writer.transport.abort()


# ---------------------------------------------------------------- seed (soak)

def seed(url, count, out_dir):
    """Creates `count` announcements with a photo; writes `id base64(id:password)` lines and the PNG for soak.lua."""
    url = url.rstrip("/")
    with open(f"{out_dir}/soak-seeds.txt", "w") as seeds:
        for _ in range(count):
            req = urllib.request.Request(f"{url}/api/v1/announcements", data=json.dumps(VALID).encode(),
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as response:
                created = json.load(response)
            ident, password = created["id"], created["managementPassword"]
            req = urllib.request.Request(f"{url}/api/v1/announcements/{ident}/photos", data=multipart(PNG),
                                         headers={"Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                                                  "Authorization": basic(ident, password)})
            with urllib.request.urlopen(req, timeout=10) as response:
                if response.status != 201:
                    sys.exit(f"seed: upload answered {response.status}")
            seeds.write(f"{ident} {basic(ident, password).split()[1]}\n")
    with open(f"{out_dir}/soak-photo.png", "wb") as photo:
        photo.write(PNG)


# ---------------------------------------------------------------- hold (slowloris)

async def hold(hostport, count, mode):
    """Opens `count` connections and keeps them open: `idle` sends nothing, `partial` drips a never-ending
    request head one byte per second per connection. Prints a JSON report on SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    conns = []
    for _ in range(count):
        conns.append(await connect(hostport))
    closed_by_server = 0
    sent_bytes = 0

    async def drip(reader, writer):
        nonlocal closed_by_server, sent_bytes
        head = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        i = 0
        while not stop.is_set():
            byte = head[i:i + 1] if i < len(head) else b"a"
            try:
                writer.write(byte)
                await writer.drain()
                sent_bytes += 1
            except (ConnectionError, OSError):
                closed_by_server += 1
                return
            i += 1
            try:
                # EOF (or an answer) from the server while we drip means it gave up on us.
                await asyncio.wait_for(reader.read(1024), 1.0)
                closed_by_server += 1
                return
            except asyncio.TimeoutError:
                pass

    async def watch(reader):
        nonlocal closed_by_server
        try:
            await reader.read(1024)
        except (ConnectionError, OSError):
            pass
        if not stop.is_set():
            closed_by_server += 1

    tasks = [asyncio.create_task(drip(r, w) if mode == "partial" else watch(r)) for r, w in conns]
    print(f"holding {count} {mode} connections", flush=True)
    await stop.wait()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for _, w in conns:
        w.close()
    print(json.dumps({"mode": mode, "opened": count, "closedByServer": closed_by_server, "bytesDripped": sent_bytes}))


# ---------------------------------------------------------------- keepalive (1,000 connections)

async def keepalive(hostport, count, path):
    """Opens `count` connections at once, sends a request on each, then a second one on the same connection."""
    results = collections.Counter()

    async def one():
        try:
            reader, writer = await connect(hostport)
        except OSError as e:
            results[f"connect error {type(e).__name__}"] += 1
            return
        try:
            for n in range(2):
                writer.write(request("GET", path))
                await writer.drain()
                answer = await read_answer(reader, 30)
                if answer is None:
                    results[f"closed before answer {n + 1}"] += 1
                    return
                results[f"answer {n + 1}: {answer.status}"] += 1
                if answer.closes:
                    results[f"server closed after answer {n + 1}"] += 1
                    return
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as e:
            results[f"error {type(e).__name__}"] += 1
        finally:
            writer.close()

    started = time.monotonic()
    await asyncio.gather(*(one() for _ in range(count)))
    elapsed = time.monotonic() - started
    served = results.get("answer 1: 200", 0)
    reused = results.get("answer 2: 200", 0)
    print(json.dumps({"connections": count, "servedFirst": served, "servedSecondOnSameConnection": reused,
                      "seconds": round(elapsed, 3), "outcomes": dict(results)}))


# ---------------------------------------------------------------- idle connections

async def idle(hostport, count, wait_s):
    """Opens `count` connections that send nothing; reports how many the server closed within `wait_s`."""
    conns = []
    for _ in range(count):
        conns.append(await connect(hostport))
    started = time.monotonic()
    closed_at = []

    async def watch(reader):
        try:
            await asyncio.wait_for(reader.read(1), wait_s)
            closed_at.append(time.monotonic() - started)
        except asyncio.TimeoutError:
            pass
        except (ConnectionError, OSError):
            closed_at.append(time.monotonic() - started)

    await asyncio.gather(*(watch(r) for r, _ in conns))
    for _, w in conns:
        w.close()
    closed_at.sort()
    print(json.dumps({"opened": count, "closedByServer": len(closed_at), "waitedSeconds": wait_s,
                      "firstCloseSeconds": round(closed_at[0], 1) if closed_at else None,
                      "lastCloseSeconds": round(closed_at[-1], 1) if closed_at else None}))


# ---------------------------------------------------------------- storm (bad input)

class Case:
    """One kind of bad input and its documented answer.

    expect: (status, code, field) with None meaning "any"; or the string "closed" when the documented outcome
    is that the server drops the connection without answering (a request that never completes).
    how: "send" (write it all, read the answer), "slow" (head, then the body in small chunks with pauses),
    "halfclose" (head and part of the body, then shut down writing), "abort" (head and part of the body,
    then RST), "stream" (chunked body past the limit, reading the answer as soon as it comes).
    fresh: needs a connection of its own (anything that leaves the connection unusable or closed).
    """

    def __init__(self, name, data, expect, how="send", fresh=False, source=""):
        self.name, self.data, self.expect, self.how, self.fresh, self.source = name, data, expect, how, fresh, source


def cases(ident, password):
    create = "/api/v1/announcements"
    upload = f"/api/v1/announcements/{ident}/photos"
    json_ct = [("Content-Type", "application/json")]
    mp_ct = ("Content-Type", f"multipart/form-data; boundary={BOUNDARY}")
    auth = ("Authorization", basic(ident, password))
    good_mp = multipart(PNG)
    valid = json.dumps(VALID).encode()

    def body_with(**changes):
        value = dict(VALID)
        value.update(changes)
        return json.dumps(value).encode()

    duplicate = body_with(microchipNumber=DUPLICATE_MICROCHIP)
    api = "petspot-api.md"
    return [
        # --- create: bodies (petspot-api.md, issue 3)
        Case("malformed JSON", request("POST", create, json_ct, b'{"species": "DOG",'), (400, "INVALID_FORMAT", None), source=api),
        Case("JSON array root", request("POST", create, json_ct, b"[1, 2]"), (400, "INVALID_FORMAT", None), source=api),
        Case("JSON string root", request("POST", create, json_ct, b'"just a string"'), (400, "INVALID_FORMAT", None), source=api),
        Case("empty body", request("POST", create, json_ct, b""), (400, "MISSING_VALUE", "species"), source=api),
        Case("wrong Content-Type", request("POST", create, [("Content-Type", "text/plain")], valid), (400, "MISSING_VALUE", "species"), source=api),
        Case("no Content-Type", request("POST", create, [], valid), (400, "MISSING_VALUE", "species"), source=api),
        Case("wrong type: age string", request("POST", create, json_ct, body_with(age="three")), (400, "INVALID_FORMAT", "age"), source=api),
        Case("wrong type: latitude string", request("POST", create, json_ct, body_with(locationLatitude="north")), (400, "INVALID_FORMAT", "locationLatitude"), source=api),
        Case("wrong type: species number", request("POST", create, json_ct, body_with(species=7)), (400, "INVALID_FORMAT", "species"), source=api),
        Case("unknown property", request("POST", create, json_ct, body_with(id="x")), (400, "INVALID_FIELD", "id"), source=api),
        Case("deeply nested JSON", request("POST", create, json_ct, b"[" * 60000), (400, "INVALID_FORMAT", None), source=api),
        # Express's body parser decodes invalid UTF-8 as U+FFFD and then validates: the first problem is the missing species.
        Case("invalid UTF-8 in JSON", request("POST", create, json_ct, b'{"petName": "\xff\xfe"}'), (400, "MISSING_VALUE", "species"), source=api),
        Case("number out of range", request("POST", create, json_ct, body_with(locationLatitude=1e300)), (400, "INVALID_FORMAT", "locationLatitude"), source=api),
        Case("duplicate microchip", request("POST", create, json_ct, duplicate), (409, "CONFLICT", "microchipNumber"), source=api),
        # --- create: size, slow, truncated, disconnect (issue 3)
        Case("oversized body (declared)", request("POST", create, json_ct + [("Content-Length", "150000")], b"{" * 8192, length=False),
             (413, "PAYLOAD_TOO_LARGE", None), fresh=True, source=api),
        Case("oversized body (chunked)", request("POST", create, json_ct + [("Transfer-Encoding", "chunked")], length=False),
             (413, "PAYLOAD_TOO_LARGE", None), how="stream", fresh=True, source=api),
        Case("slow body (1 chunk / 50 ms)", request("POST", create, json_ct, duplicate), (409, "CONFLICT", "microchipNumber"), how="slow", source="issue 3"),
        Case("truncated body, half-close", request("POST", create, json_ct, valid + b" " * 200)[:-200], "closed", how="halfclose", fresh=True, source="issue 3"),
        Case("disconnect mid-body (RST)", request("POST", create, json_ct, valid)[:-40], "closed", how="abort", fresh=True, source="issue 3"),
        # --- upload: auth in the backend's order, multipart (petspot-api.md)
        Case("upload: no Authorization", request("POST", upload, [mp_ct], good_mp), (401, "UNAUTHENTICATED", None), source=api),
        Case("upload: invalid base64", request("POST", upload, [mp_ct, ("Authorization", "Basic ####")], good_mp), (401, "UNAUTHENTICATED", None), source=api),
        Case("upload: Bearer scheme", request("POST", upload, [mp_ct, ("Authorization", "Bearer abc")], good_mp), (401, "UNAUTHENTICATED", None), source=api),
        Case("upload: no colon", request("POST", upload, [mp_ct, ("Authorization", "Basic " + base64.b64encode(b"nocolon").decode())], good_mp),
             (401, "UNAUTHENTICATED", None), source=api),
        Case("upload: garbled header", request("POST", upload, [mp_ct, ("Authorization", "Basic")], good_mp), (401, "UNAUTHENTICATED", None), source=api),
        Case("upload: unknown id", request("POST", f"/api/v1/announcements/{uuid.uuid4()}/photos", [mp_ct, auth], good_mp), (404, "NOT_FOUND", None), source=api),
        Case("upload: wrong password", request("POST", upload, [mp_ct, ("Authorization", basic(ident, "000000"))], good_mp), (403, "UNAUTHORIZED", None), source=api),
        Case("upload: truncated multipart", request("POST", upload, [mp_ct, auth], good_mp[:-20]), (400, "MISSING_FILE", "photo"), source=api),
        Case("upload: part without filename", request("POST", upload, [mp_ct, auth], multipart(PNG, filename=None)), (400, "MISSING_FILE", "photo"), source=api),
        Case("upload: empty boundary", request("POST", upload, [("Content-Type", "multipart/form-data; boundary="), auth], good_mp),
             (400, "MISSING_FILE", "photo"), source=api),
        Case("upload: non-ASCII part header", request("POST", upload, [mp_ct, auth], f"--{BOUNDARY}\r\n".encode() + "º¤Ð: x\r\n\r\nabc\r\n".encode() + f"--{BOUNDARY}--\r\n".encode()),
             (400, "MISSING_FILE", "photo"), source="docs/external-checks.md"),
        Case("upload: JSON instead of multipart", request("POST", upload, json_ct + [auth], valid), (400, "MISSING_FILE", "photo"), source=api),
        Case("upload: not an image", request("POST", upload, [mp_ct, auth], multipart(b"this is not an image" * 10)), (400, "INVALID_FILE_FORMAT", "file"), source=api),
        Case("upload: oversized (declared 25 MB)", request("POST", upload, [mp_ct, auth, ("Content-Length", str(25 * 1024 * 1024))], good_mp, length=False),
             (413, "PAYLOAD_TOO_LARGE", None), fresh=True, source=api),
        Case("upload: disconnect mid-body", request("POST", upload, [mp_ct, auth], good_mp)[:-30], "closed", how="abort", fresh=True, source="issue 3"),
        # --- headers (issue 3: huge headers; the HTTP layer answers 431 and closes)
        Case("huge header (100 KB)", request("GET", "/api/health", [("X-Big", "a" * 100_000)]), (431, None, None), fresh=True, source="issue 3"),
        Case("header flood (10,000 headers)", request("GET", "/api/health", [(f"X-Flood-{i}", "v") for i in range(10_000)]), (431, None, None), fresh=True, source="issue 3"),
        # --- paths and percent-encoding (issue 3; Express answers unknown or undecodable paths 404)
        Case("path with ..", request("GET", "/images/../contracts/fixtures/pets.json"), (404, "NOT_FOUND", None), source="issue 3"),
        Case("encoded slashes", request("GET", "/images/..%2F..%2FPackage.swift"), (404, "NOT_FOUND", None), source="issue 3"),
        Case("bad percent-encoding in path", request("GET", "/api/v1/announcements/%zz%E0%"), (404, "NOT_FOUND", None), source=api),
        Case("bad UTF-8 percent-encoding", request("GET", "/api/v1/announcements/%C3%28"), (404, "NOT_FOUND", None), source=api),
        Case("bad percent-encoding in query", request("GET", "/api/v1/announcements?lat=%zz&lng=1"), (400, "INVALID_PARAMETER", "lat"), source=api),
        Case("list: lat without lng", request("GET", "/api/v1/announcements?lat=52.2"), (400, "INVALID_PARAMETER", "lng"), source=api),
        Case("list: negative range", request("GET", "/api/v1/announcements?lat=52.2&lng=21&range=-1"), (400, "INVALID_PARAMETER", "range"), source=api),
        Case("unknown route", request("GET", "/api/v2/nothing"), (404, "NOT_FOUND", None), source=api),
        Case("unknown announcement id", request("GET", f"/api/v1/announcements/{uuid.uuid4()}"), (404, "NOT_FOUND", None), source=api),
        # --- not HTTP at all (the HTTP layer answers 400 and closes)
        Case("garbage bytes", bytes(random.Random(8).randrange(256) for _ in range(512)) + b"\r\n\r\n", (400, None, None), fresh=True, source="issue 3"),
        Case("bad request line", b"HELLO\r\n\r\n", (400, None, None), fresh=True, source="issue 3"),
        Case("bad Content-Length", request("POST", create, json_ct + [("Content-Length", "abc")], valid, length=False), (400, None, None), fresh=True, source="issue 3"),
    ]


async def send(case, reader, writer):
    """Writes the case's bytes the way `case.how` says; returns False when the connection was deliberately aborted."""
    if case.how == "send":
        writer.write(case.data)
        await writer.drain()
    elif case.how == "slow":
        head, _, body = case.data.partition(b"\r\n\r\n")
        writer.write(head + b"\r\n\r\n")
        step = max(1, len(body) // 10)
        for i in range(0, len(body), step):
            await asyncio.sleep(0.05)
            writer.write(body[i:i + step])
            await writer.drain()
    elif case.how == "stream":
        writer.write(case.data)
        chunk = b"%x\r\n%s\r\n" % (16384, b"[" * 16384)
        for _ in range(13):  # 208 KiB, over the 100 KB limit
            writer.write(chunk)
            await writer.drain()
    elif case.how in ("halfclose", "abort"):
        writer.write(case.data)
        await writer.drain()
        if case.how == "abort":
            await asyncio.sleep(0.005)
            abort(writer)
            return False
        writer.write_eof()
    return True


async def run_case(case, conn, hostport, timeout=20):
    """Plays one case; returns (outcome label, connection to keep or None)."""
    fresh = conn is None
    if conn is None:
        conn = await connect(hostport)
    reader, writer = conn
    try:
        if not await send(case, reader, writer):
            return "closed", None
    except (ConnectionError, OSError):
        pass  # the server may have answered and closed while we were still writing: read what it sent
    try:
        answer = await read_answer(reader, timeout)
    except (asyncio.IncompleteReadError, ConnectionError, OSError):
        answer = None
    except asyncio.TimeoutError:
        writer.close()
        return f"no answer within {timeout} s", None
    if answer is None:
        writer.close()
        return ("closed" if fresh else "retry"), None
    label = f"{answer.status} {answer.code or '-'} {answer.field or '-'}"
    if "request-id" not in answer.headers:
        label += " (no request-id)"
    if case.fresh or answer.closes or case.how != "send":
        writer.close()
        return label, None
    return label, conn


def matches(case, label):
    if case.expect == "closed":
        return label == "closed" or label.startswith("400 ")
    status, code, field = case.expect
    parts = label.split()
    return parts[0] == str(status) and (code is None or parts[1] == code) and (field is None or parts[2] == field)


def prepare(hostport):
    """Creates what the storm's cases refer to: one announcement to upload to, and the microchip every
    duplicate-microchip replay collides with (so replays answer 409 and never grow the store)."""
    def create(body):
        req = urllib.request.Request(f"http://{hostport}/api/v1/announcements", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as response:
            return json.load(response)
    created = create(VALID)
    try:
        create(dict(VALID, microchipNumber=DUPLICATE_MICROCHIP))
    except urllib.error.HTTPError as e:
        if e.code != 409:  # 409: an earlier round made it already
            raise
    return created["id"], created["managementPassword"]


async def storm(hostport, count, concurrency):
    ident, password = prepare(hostport)
    all_cases = cases(ident, password)
    tasks = [c for c in all_cases for _ in range(count)]
    random.Random(1).shuffle(tasks)
    queue = collections.deque(tasks)
    outcomes = {c.name: collections.Counter() for c in all_cases}

    async def worker():
        conn = None
        while queue:
            case = queue.popleft()
            # Requests that leave the connection usable share one keep-alive connection per worker.
            shared = not case.fresh and case.how == "send"
            use = conn if shared else None
            try:
                label, kept = await run_case(case, use, hostport)
                if label == "retry":  # the kept connection had been closed by the server meanwhile
                    label, kept = await run_case(case, None, hostport)
            except OSError as e:
                label, kept = f"connect error {type(e).__name__}", None
            outcomes[case.name][label] += 1
            if shared:
                conn = kept

    started = time.monotonic()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.monotonic() - started
    report = []
    for c in all_cases:
        got = outcomes[c.name]
        bad = {label: n for label, n in got.items() if not matches(c, label)}
        expect = c.expect if c.expect == "closed" else " ".join(str(x) if x is not None else "*" for x in c.expect)
        report.append({"case": c.name, "expected": expect, "source": c.source, "sent": sum(got.values()),
                       "unexpected": sum(bad.values()), "outcomes": dict(got)})
    print(json.dumps({"requests": len(tasks), "concurrency": concurrency, "seconds": round(elapsed, 2),
                      "cases": report}))


def main(argv):
    command = argv[1] if len(argv) > 1 else ""
    if command == "seed":
        seed(argv[2], int(argv[3]), argv[4])
    elif command == "hold":
        asyncio.run(hold(argv[2], int(argv[3]), argv[4]))
    elif command == "keepalive":
        asyncio.run(keepalive(argv[2], int(argv[3]), argv[4]))
    elif command == "idle":
        asyncio.run(idle(argv[2], int(argv[3]), float(argv[4])))
    elif command == "storm":
        asyncio.run(storm(argv[2], int(argv[3]), int(argv[4])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
